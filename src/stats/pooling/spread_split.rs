//! How the spread between replicates splits into a part between groups (code layouts) and a
//! part within one (processes), from one replicate per group and each replicate's own
//! estimate of the within-group variance.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, FisherSnedecor};

use crate::error::{Error, Result};
use crate::stats::{check, std_dev};

/// The spread between replicates, split into a part between their groups and a part within one
/// group (method of moments; see [`split_spread`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SpreadSplit {
    /// Replicates the split rests on.
    pub replicates: usize,
    /// Sample standard deviation of the replicates' values (in their unit).
    pub total_sd: f64,
    /// The part within one group: the square root of the replicates' mean within-group
    /// variance.
    pub within_sd: f64,
    /// The part between groups: `√max(0, total_sd² − within_sd²)`.
    pub between_sd: f64,
    /// `between_sd² / total_sd²`, in [0, 1]; 0 when `total_sd` is 0.
    pub between_share: f64,
    /// The p-value of "no part between groups": the variance ratio `total_sd² / within_sd²`
    /// against F(n − 1, n); 1 when `within_sd` is 0 and the values agree, 0 when `within_sd`
    /// is 0 and they do not.
    pub p_value: f64,
}

/// Splits the spread of `values` (one replicate per group, each group drawn at random: a
/// worker pair per code layout) into a part between groups and a part within one, given each
/// replicate's own estimate of the within-group variance (`within_var`, in the values' unit
/// squared: a worker pair's mean square of its A/A differences, which vary as its δ does
/// within one layout). With one replicate per group, the values' variance has expectation
/// σ²_between + σ²_within, so σ²_between is estimated as the excess over the mean of
/// `within_var`, floored at 0. The p-value treats the ratio of the two as F(n − 1, n): each
/// replicate's within-group estimate counts as one degree of freedom, which is conservative
/// when a replicate carries several A/A differences.
///
/// Errors: fewer than two values ([`Error::TooFewSamples`]); lengths that differ
/// ([`Error::LengthMismatch`]); a non-finite value or variance ([`Error::NonFinite`]); a
/// negative variance ([`Error::OutOfRange`]).
pub fn split_spread(values: &[f64], within_var: &[f64]) -> Result<SpreadSplit> {
    let n = values.len();
    if n < 2 {
        return Err(Error::TooFewSamples {
            what: "replicates",
            needed: 2,
            got: n,
        });
    }
    if within_var.len() != n {
        return Err(Error::LengthMismatch {
            a: n,
            b: within_var.len(),
        });
    }
    check::finite("replicate values", values)?;
    check::finite("within-group variances", within_var)?;
    if let Some(&v) = within_var.iter().find(|&&v| v < 0.0) {
        return Err(Error::out_of_range(
            "within-group variance",
            v,
            "a variance is at least 0",
        ));
    }
    let total_sd = std_dev(values)?;
    let within = within_var.iter().sum::<f64>() / n as f64;
    let total = total_sd * total_sd;
    let between = (total - within).max(0.0);
    let between_share = if total > 0.0 { between / total } else { 0.0 };
    let p_value = if within > 0.0 {
        FisherSnedecor::new((n - 1) as f64, n as f64)
            .map(|f| f.sf(total / within))
            .unwrap_or(1.0)
    } else if total > 0.0 {
        0.0
    } else {
        1.0
    };
    Ok(SpreadSplit {
        replicates: n,
        total_sd,
        within_sd: within.sqrt(),
        between_sd: between.sqrt(),
        between_share,
        p_value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answer() {
        // values: var (ddof 1) = 0.0001 exactly for [0.01, 0.02, 0.03] (sd 0.01); within
        // variances mean 0.00004, so between = 0.00006, share 0.6.
        // scipy.stats.f.sf(0.0001 / 0.00004, 2, 3) = 0.2296396633859...
        let s = split_spread(&[0.01, 0.02, 0.03], &[0.00003, 0.00004, 0.00005]).unwrap();
        assert!((s.total_sd - 0.01).abs() < 1e-12);
        assert!((s.within_sd - 0.00004f64.sqrt()).abs() < 1e-12);
        assert!((s.between_sd - 0.00006f64.sqrt()).abs() < 1e-12);
        assert!((s.between_share - 0.6).abs() < 1e-9);
        assert!((s.p_value - 0.229_639_663_4).abs() < 1e-9, "{}", s.p_value);
    }

    #[test]
    fn within_larger_than_total_is_no_part_between() {
        let s = split_spread(&[0.0, 0.001], &[0.01, 0.01]).unwrap();
        assert_eq!(s.between_sd, 0.0);
        assert_eq!(s.between_share, 0.0);
        assert!(s.p_value > 0.5);
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        assert!(matches!(
            split_spread(&[1.0], &[0.0]),
            Err(Error::TooFewSamples { .. })
        ));
        assert!(matches!(
            split_spread(&[1.0, 2.0], &[0.0]),
            Err(Error::LengthMismatch { .. })
        ));
        assert!(matches!(
            split_spread(&[1.0, f64::NAN], &[0.0, 0.0]),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            split_spread(&[1.0, 2.0], &[0.0, -1.0]),
            Err(Error::OutOfRange { .. })
        ));
        // Zero within: agreement is no evidence of a part between; disagreement is.
        assert_eq!(split_spread(&[1.0, 1.0], &[0.0, 0.0]).unwrap().p_value, 1.0);
        assert_eq!(split_spread(&[1.0, 2.0], &[0.0, 0.0]).unwrap().p_value, 0.0);
    }
}
