//! Drift: did the machine hold still while it was measured?
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::series`), section "Drift".

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::display::SignedPct;
use crate::error::Result;
use crate::stats::dist;
use crate::stats::summaries::select;
use crate::stats::summaries::summary::{Sample, neumaier_sum};

/// Conventional significance level for [`DriftReport::drifted`]: 0.05 (a probability). At this
/// level about one steady series in twenty is flagged by chance.
pub const DRIFT_LEVEL: f64 = 0.05;

/// Fewest values [`detect_drift`] accepts: 4.
pub const DRIFT_MIN_SAMPLES: usize = 4;

/// The result of [`detect_drift`]: a monotone-trend test on one series in measurement order,
/// plus the size of the change between its halves.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DriftReport {
    /// Number of values examined.
    pub n: usize,
    /// Spearman's rank correlation between value and position, in `[−1, 1]`. Positive means
    /// later values are larger (for timings: the machine got slower). Exactly 0 for a constant
    /// series.
    pub spearman: f64,
    /// Test statistic `spearman · √(n − 1)`, approximately standard normal when there is no
    /// trend (dimensionless).
    pub z: f64,
    /// Two-sided p-value of `z` under the standard normal, `erfc(|z|/√2)`, in `[0, 1]`. It
    /// measures how surprising the trend would be in a steady series, not how large it is.
    pub p_value: f64,
    /// Median of the first `⌊n/2⌋` values, in the unit of the input.
    pub first_half: f64,
    /// Median of the last `⌊n/2⌋` values (the middle value is excluded for odd `n`), in the
    /// unit of the input.
    pub second_half: f64,
    /// `second_half / first_half − 1`, as a fraction (0.1 = the second half is 10 % higher).
    /// Defined as 0 when `first_half` is 0; saturates at `±f64::MAX` instead of overflowing.
    /// Meaningful for positive data such as timings.
    pub relative_shift: f64,
}

impl DriftReport {
    /// The report of a drift test that could not be run (for example on a series holding a
    /// non-finite value): `n` = 0, a p-value of 1, and zero for every other field, so it never
    /// reads as drift. Callers tell it apart by `n == 0`.
    pub(crate) fn not_run() -> DriftReport {
        DriftReport {
            n: 0,
            spearman: 0.0,
            z: 0.0,
            p_value: 1.0,
            first_half: 0.0,
            second_half: 0.0,
            relative_shift: 0.0,
        }
    }

    /// Whether the trend is significant at `level` (a probability, for example
    /// [`DRIFT_LEVEL`]): `p_value < level`. Says nothing about the size of the drift; read
    /// [`DriftReport::relative_shift`] for that. A NaN `level` gives `false`.
    pub fn drifted(&self, level: f64) -> bool {
        self.p_value < level
    }
}

impl fmt::Display for DriftReport {
    /// One line, for example
    /// `drift over 20 values: Spearman ρ = +1.000, z = 4.36, p = 1.31e-5; second half +181.8 % vs first`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.n == 0 {
            return f.write_str("drift not tested (the series held a value that is not finite)");
        }
        write!(
            f,
            "drift over {} values: Spearman ρ = {:+.3}, z = {:.2}, p = {}; second half {} vs first",
            self.n,
            self.spearman,
            self.z,
            format_p(self.p_value),
            SignedPct(self.relative_shift)
        )
    }
}

/// A p-value with three significant digits, in scientific notation when small.
pub(crate) fn format_p(p: f64) -> String {
    if p >= 0.001 || p == 0.0 {
        format!("{p:.4}")
    } else {
        format!("{p:.2e}")
    }
}

/// Tests the series `xs` (in measurement order) for a monotone trend and measures the shift
/// between its halves; see the chapter for the method.
///
/// Known answers: `1..=20` gives `ρ = 1`, `z = 4.358899`, `p = 1.3072e-5`, halves 5.5 and 15.5;
/// `[1, 2, 3, 4]` gives `z = 1.732051`, `p = 0.083265`.
///
/// Returns [`Error::TooFewSamples`](crate::Error::TooFewSamples) for fewer than
/// [`DRIFT_MIN_SAMPLES`] (4) values and [`Error::NonFinite`](crate::Error::NonFinite) for NaN
/// or ±∞.
pub fn detect_drift(xs: &[f64]) -> Result<DriftReport> {
    let sample = Sample::checked("samples", xs, DRIFT_MIN_SAMPLES)?;
    let xs = sample.as_slice();
    let n = xs.len();

    let spearman = spearman_with_position(xs);
    let z = spearman * ((n - 1) as f64).sqrt();
    let p_value = dist::two_sided_normal_p_unchecked(z);

    let h = n / 2;
    let mut first = xs[..h].to_vec();
    let mut second = xs[n - h..].to_vec();
    let first_half = select::median_in_place(&mut first);
    let second_half = select::median_in_place(&mut second);
    let relative_shift = if first_half == 0.0 {
        0.0
    } else {
        (second_half / first_half - 1.0).clamp(-f64::MAX, f64::MAX)
    };

    Ok(DriftReport {
        n,
        spearman,
        z,
        p_value,
        first_half,
        second_half,
        relative_shift,
    })
}

/// Average ranks (1-based; ties share the mean of the ranks they span) of checked values.
pub(crate) fn average_ranks(xs: &[f64]) -> Vec<f64> {
    let n = xs.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by(|&i, &j| select::cmp_f64(&xs[i], &xs[j]));
    let mut ranks = vec![0.0; n];
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        // `==` rather than the total order, so that -0.0 and 0.0 tie.
        while end < n && xs[order[end]] == xs[order[start]] {
            end += 1;
        }
        // Positions start..end (0-based) hold ranks start+1 ..= end; their mean:
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

/// Tie-corrected Spearman correlation of checked values with their positions, in `[−1, 1]`;
/// 0 for a constant series.
fn spearman_with_position(xs: &[f64]) -> f64 {
    let n = xs.len();
    let ranks = average_ranks(xs);
    // Both ranks and positions have mean (n + 1)/2; all terms are multiples of 1/4 and the
    // sums are exact for any realistic n.
    let centre = (n + 1) as f64 / 2.0;
    let pos = |i: usize| (i + 1) as f64 - centre;
    let sxy = neumaier_sum(ranks.iter().enumerate().map(|(i, r)| (r - centre) * pos(i)));
    let sxx = neumaier_sum(ranks.iter().map(|r| (r - centre) * (r - centre)));
    let syy = neumaier_sum((0..n).map(|i| pos(i) * pos(i)));
    if sxx == 0.0 || syy == 0.0 {
        return 0.0;
    }
    (sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn error_paths() {
        for xs in [&[][..], &[1.0], &[1.0, 2.0], &[1.0, 2.0, 3.0]] {
            assert!(matches!(
                detect_drift(xs),
                Err(Error::TooFewSamples { needed: 4, .. })
            ));
        }
        assert!(matches!(
            detect_drift(&[1.0, 2.0, f64::NAN, 4.0]),
            Err(Error::NonFinite { index: 2, .. })
        ));
        assert!(matches!(
            detect_drift(&[f64::INFINITY, 2.0, 3.0, 4.0]),
            Err(Error::NonFinite { index: 0, .. })
        ));
    }

    #[test]
    fn ranks_average_ties() {
        assert_eq!(
            average_ranks(&[10.0, 20.0, 10.0, 30.0, 20.0, 10.0]),
            vec![2.0, 4.5, 2.0, 6.0, 4.5, 2.0]
        );
        assert_eq!(average_ranks(&[0.0, -0.0]), vec![1.5, 1.5]);
    }

    #[test]
    fn constant_series_has_no_drift() {
        let d = detect_drift(&[7.0; 10]).unwrap();
        assert_eq!(d.spearman, 0.0);
        assert_eq!(d.z, 0.0);
        assert_eq!(d.p_value, 1.0);
        assert_eq!(d.relative_shift, 0.0);
        assert!(!d.drifted(DRIFT_LEVEL));
    }

    #[test]
    fn zero_first_half_gives_zero_shift() {
        let d = detect_drift(&[0.0, 0.0, 1.0, 1.0]).unwrap();
        assert_eq!(d.first_half, 0.0);
        assert_eq!(d.relative_shift, 0.0);
        let d = detect_drift(&[1e-300, 1e-300, 1e300, 1e300]).unwrap();
        assert_eq!(d.relative_shift, f64::MAX);
    }

    #[test]
    fn display_is_one_line() {
        let d = detect_drift(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        let s = d.to_string();
        assert!(!s.contains('\n'));
        assert!(s.contains("p = 0.0833"), "{s}");
        let d = detect_drift(&(1..=20).map(f64::from).collect::<Vec<_>>()).unwrap();
        assert!(d.to_string().contains("p = 1.31e-5"), "{d}");
    }
}
