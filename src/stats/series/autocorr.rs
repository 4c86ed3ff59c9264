//! Autocorrelation: do neighbouring measurements resemble each other?
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::series`), section "Autocorrelation".

use crate::error::{Error, Result};
use crate::stats::summaries::summary::{Moments, Sample, neumaier_sum};

/// Lag-1 autocorrelation of `xs`, taken in the order given (measurement order): the formula of the
/// chapter with `k = 1`. Dimensionless, in `[−1, 1]`;
/// `0.0` for a constant series.
///
/// Returns [`Error::TooFewSamples`] for fewer than three values and [`Error::NonFinite`] for
/// NaN or ±∞.
pub fn lag1_autocorrelation(xs: &[f64]) -> Result<f64> {
    autocorrelation(xs, 1)
}

/// Autocorrelation of `xs` at lag `lag` (in positions): the formula of the
/// chapter. Dimensionless, in `[−1, 1]`; `0.0` for a
/// constant series.
///
/// The series needs at least `lag + 2` values, so that at least two products enter the
/// numerator; in particular `lag ≥ xs.len()` is always an error.
///
/// Returns [`Error::OutOfRange`] for `lag == 0` (the correlation of a series with itself is
/// trivially 1), [`Error::TooFewSamples`] for fewer than `lag + 2` values, and
/// [`Error::NonFinite`] for NaN or ±∞.
///
/// ```
/// use rtcompare::stats::autocorrelation;
///
/// // A period-4 pattern correlates perfectly with itself four steps on... almost: the
/// // estimator divides by the whole series' variation, so r(4) = 8/12 here.
/// let xs = [0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0];
/// assert!((autocorrelation(&xs, 4)? - 8.0 / 12.0).abs() < 1e-12);
/// assert!(autocorrelation(&xs, 12).is_err());
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn autocorrelation(xs: &[f64], lag: usize) -> Result<f64> {
    if lag == 0 {
        return Err(Error::out_of_range("lag", 0.0, "lag ≥ 1"));
    }
    let sample = Sample::checked("samples", xs, lag.saturating_add(2))?;
    Ok(autocorrelation_unchecked(sample.as_slice(), lag))
}

/// The estimator on checked input (finite, at least `lag + 2` values, `lag ≥ 1`).
pub(crate) fn autocorrelation_unchecked(xs: &[f64], lag: usize) -> f64 {
    let m = Moments::of(xs);
    if m.ss_scaled == 0.0 {
        return 0.0;
    }
    let dev = |x: f64| x * m.scale - m.mean_scaled;
    let num = neumaier_sum(xs.iter().zip(&xs[lag..]).map(|(&a, &b)| dev(a) * dev(b)));
    (num / m.ss_scaled).clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_paths() {
        assert!(matches!(
            lag1_autocorrelation(&[]),
            Err(Error::TooFewSamples {
                needed: 3,
                got: 0,
                ..
            })
        ));
        assert!(matches!(
            lag1_autocorrelation(&[1.0, 2.0]),
            Err(Error::TooFewSamples {
                needed: 3,
                got: 2,
                ..
            })
        ));
        assert!(matches!(
            lag1_autocorrelation(&[1.0, f64::NAN, 2.0]),
            Err(Error::NonFinite { index: 1, .. })
        ));
        assert!(matches!(
            lag1_autocorrelation(&[1.0, 2.0, f64::NEG_INFINITY]),
            Err(Error::NonFinite { index: 2, .. })
        ));
        assert!(matches!(
            autocorrelation(&[1.0, 2.0, 3.0], 0),
            Err(Error::OutOfRange { name: "lag", .. })
        ));
        for lag in [2, 3, 4, usize::MAX] {
            assert!(
                matches!(
                    autocorrelation(&[1.0, 2.0, 3.0], lag),
                    Err(Error::TooFewSamples { .. })
                ),
                "lag {lag}"
            );
        }
        assert!(autocorrelation(&[1.0, 2.0, 3.0, 4.0], 2).is_ok());
    }

    #[test]
    fn constant_series_is_zero() {
        assert_eq!(lag1_autocorrelation(&[0.1; 9]), Ok(0.0));
        assert_eq!(autocorrelation(&[-3.0; 9], 5), Ok(0.0));
    }

    #[test]
    fn scale_invariant_for_extreme_magnitudes() {
        let xs = [1.0, 3.0, 2.0, 5.0, 4.0, 4.0, 6.0];
        let r = lag1_autocorrelation(&xs).unwrap();
        for s in [1e300, 1e-300, -1e250] {
            let ys: Vec<f64> = xs.iter().map(|x| x * s).collect();
            let rs = lag1_autocorrelation(&ys).unwrap();
            assert!((r - rs).abs() < 1e-12, "{s}: {r} vs {rs}");
        }
    }
}
