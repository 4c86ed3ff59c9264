//! Welch's t-test: do two samples have different means, allowing different spreads?
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::significance`), section "Welch's t-test".

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::stats::dist;
use crate::stats::summaries::summary::Sample;

/// The result of [`welch_t_test`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WelchTest {
    /// Mean of `a`, in the unit of the input.
    pub mean_a: f64,
    /// Mean of `b`, in the unit of the input.
    pub mean_b: f64,
    /// Sample standard deviation of `a` (`n − 1` denominator), in the unit of the input.
    pub std_dev_a: f64,
    /// Sample standard deviation of `b` (`n − 1` denominator), in the unit of the input.
    pub std_dev_b: f64,
    /// Standard error of `mean_a − mean_b`, `√(s²_a/n_a + s²_b/n_b)`, in the unit of the
    /// input. Always positive.
    pub std_err: f64,
    /// `(mean_a − mean_b) / std_err` (dimensionless). Negative when `a` has the smaller mean.
    /// Saturates at `±f64::MAX` rather than overflowing.
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom, between `min(n_a, n_b) − 1` and
    /// `n_a + n_b − 2`; not necessarily an integer.
    pub df: f64,
    /// Two-sided p-value, `2·P(T ≥ |t|)` for Student's t with `df` degrees of freedom, in
    /// `[0, 1]`.
    pub p_value: f64,
}

/// Welch's unequal-variance t-test of the means of `a` and `b` (two-sided), as computed by
/// SciPy's `ttest_ind(a, b, equal_var=False)`. See the
/// chapter.
///
/// Returns [`Error::TooFewSamples`] if either side has fewer than two values,
/// [`Error::NonFinite`] for NaN or ±∞ (naming `"a"` or `"b"`), and [`Error::Undefined`] if both
/// samples are constant: then the standard error is zero and `t` is undefined (any difference
/// of the means is either certain or absent, which no test is needed to see).
pub fn welch_t_test(a: &[f64], b: &[f64]) -> Result<WelchTest> {
    let sa = Sample::checked("a", a, 2)?;
    let sb = Sample::checked("b", b, 2)?;
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (mean_a, mean_b) = (sa.mean(), sb.mean());
    let std_dev_a = sa.std_dev()?;
    let std_dev_b = sb.std_dev()?;
    let se_a = std_dev_a / na.sqrt();
    let se_b = std_dev_b / nb.sqrt();
    let std_err = se_a.hypot(se_b);
    if std_err == 0.0 {
        return Err(Error::Undefined {
            what: "Welch's t statistic",
            reason: "both samples are constant, so the standard error of the difference is \
                     zero; compare the values directly"
                .to_string(),
        });
    }
    // Halve before subtracting so that the difference of two large means cannot overflow.
    let t = (2.0 * ((mean_a / 2.0 - mean_b / 2.0) / std_err)).clamp(-f64::MAX, f64::MAX);
    // The Welch–Satterthwaite formula is homogeneous of degree 0 in the standard errors, so
    // evaluate it on shares of `std_err` (each at most 1): nothing can overflow.
    let wa = (se_a / std_err).powi(2);
    let wb = (se_b / std_err).powi(2);
    let df = (wa + wb).powi(2) / (wa * wa / (na - 1.0) + wb * wb / (nb - 1.0));
    let p_value = dist::two_sided_t_p_unchecked(t, df);
    Ok(WelchTest {
        mean_a,
        mean_b,
        std_dev_a,
        std_dev_b,
        std_err,
        t,
        df,
        p_value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_paths() {
        assert!(matches!(
            welch_t_test(&[1.0], &[1.0, 2.0]),
            Err(Error::TooFewSamples {
                what: "a",
                needed: 2,
                got: 1
            })
        ));
        assert!(matches!(
            welch_t_test(&[1.0, 2.0], &[]),
            Err(Error::TooFewSamples {
                what: "b",
                needed: 2,
                got: 0
            })
        ));
        assert!(matches!(
            welch_t_test(&[1.0, f64::NAN], &[1.0, 2.0]),
            Err(Error::NonFinite { what: "a", .. })
        ));
        assert!(matches!(
            welch_t_test(&[1.0, 2.0], &[f64::INFINITY, 2.0]),
            Err(Error::NonFinite { what: "b", .. })
        ));
        assert!(matches!(
            welch_t_test(&[3.0, 3.0], &[4.0, 4.0, 4.0]),
            Err(Error::Undefined { .. })
        ));
    }

    #[test]
    fn one_constant_side_is_fine() {
        let w = welch_t_test(&[3.0, 3.0, 3.0], &[4.0, 5.0, 6.0]).unwrap();
        assert_eq!(w.std_dev_a, 0.0);
        // All the variance comes from b, so df = n_b − 1.
        assert!((w.df - 2.0).abs() < 1e-12);
        assert!(w.t < 0.0 && w.p_value > 0.0 && w.p_value < 1.0);
    }

    #[test]
    fn extreme_magnitudes() {
        let w = welch_t_test(&[-f64::MAX, -f64::MAX / 2.0], &[f64::MAX, f64::MAX / 2.0]).unwrap();
        assert!(w.t.is_finite() && w.t < 0.0 && w.df.is_finite());
        assert!((0.0..=1.0).contains(&w.p_value));
        let w = welch_t_test(&[1e-300, 2e-300, 3e-300], &[1e-300, 2e-300, 4e-300]).unwrap();
        let x = welch_t_test(&[1.0, 2.0, 3.0], &[1.0, 2.0, 4.0]).unwrap();
        assert!((w.t - x.t).abs() < 1e-12 && (w.df - x.df).abs() < 1e-9);
    }
}
