//! A noise floor from one A/A series: how large a difference identical code can show.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::verdicts`), section "The A/A noise floor".

use crate::error::Result;
use crate::stats::summaries::summary::quantile;
use crate::stats::{EstimateOptions, bootstrap_replicates};

/// Quantile of the A/A replicates' `|δ*|` that [`aa_noise_floor`] returns: 0.90, the quantile
/// the in-process A/A validation uses across its runs
/// (`NOISE_FLOOR_QUANTILE` (0.90)), so both floors mean
/// "about one identical comparison in ten differs by more".
pub const AA_FLOOR_QUANTILE: f64 = 0.90;

/// The noise floor of one A/A series (see the
/// chapter): the `AA_FLOOR_QUANTILE` (0.90) quantile of
/// `|δ*|` over the **paired** bootstrap replicates of `x` against `y`, a fraction. `x[i]` and
/// `y[i]` are two measurements of the same code taken together; `opts.paired` is ignored (always
/// paired), its level plays no part, and its block length, resamples and seed are used as given.
///
/// Errors as for [`bootstrap_replicates`]: fewer than
/// `MINIMUM_DATA_POINTS` (11) pairs, unequal lengths, a
/// non-finite value, or a zero in `y`.
pub fn aa_noise_floor(x: &[f64], y: &[f64], opts: &EstimateOptions) -> Result<f64> {
    let reps = bootstrap_replicates(x, y, &opts.paired(true))?;
    let abs: Vec<f64> = reps.iter().map(|d| d.abs()).collect();
    quantile(&abs, AA_FLOOR_QUANTILE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn identical_series_have_a_zero_floor() {
        let x = [5.0; 11];
        let f = aa_noise_floor(&x, &x, &EstimateOptions::default().seed(1)).unwrap();
        assert_eq!(f, 0.0);
    }

    #[test]
    fn a_systematic_offset_is_inside_the_floor() {
        // y is 4 % slower in every pair: every replicate's δ* is 1 − 1/1.04.
        let x: Vec<f64> = (0..11).map(|i| 100.0 + f64::from(i)).collect();
        let y: Vec<f64> = x.iter().map(|v| v * 1.04).collect();
        let f = aa_noise_floor(&x, &y, &EstimateOptions::default().seed(1)).unwrap();
        assert!((f - (1.0 - 1.0 / 1.04)).abs() < 1e-12, "{f}");
    }

    #[test]
    fn deterministic_and_checked() {
        let x: Vec<f64> = (0..15).map(|i| 100.0 + f64::from(i % 4)).collect();
        let y: Vec<f64> = (0..15).map(|i| 101.0 - f64::from(i % 3)).collect();
        let o = EstimateOptions::default().seed(9).resamples(1_000);
        assert_eq!(
            aa_noise_floor(&x, &y, &o).unwrap(),
            aa_noise_floor(&x, &y, &o).unwrap()
        );
        assert!(matches!(
            aa_noise_floor(&x[..5], &y[..5], &o),
            Err(Error::TooFewSamples { .. })
        ));
        assert!(matches!(
            aa_noise_floor(&x, &y[..14], &o),
            Err(Error::LengthMismatch { .. })
        ));
    }
}
