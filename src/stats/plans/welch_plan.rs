//! Comparing two measured results, and planning how many more samples a comparison needs.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::plans`), section "Comparing measured results".

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::stats::intervals::batch_means::BatchMeans;
use crate::stats::{check, dist};

/// A measured result: mean, variance and count of the (batch) means it rests on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MeasuredSummary {
    /// The mean, in the unit of the readings.
    pub mean: f64,
    /// The variance of one (batch) mean, in the unit squared.
    pub variance: f64,
    /// How many (batch) means: at least 2.
    pub count: usize,
}

impl MeasuredSummary {
    /// A summary from its parts. Returns [`Error::NonFinite`] for a NaN or infinite mean or
    /// variance, [`Error::OutOfRange`] for a negative variance and [`Error::TooFewSamples`]
    /// for a count below 2.
    pub fn new(mean: f64, variance: f64, count: usize) -> Result<Self> {
        check::finite("summary", &[mean, variance])?;
        if variance < 0.0 {
            return Err(Error::out_of_range("variance", variance, "variance ≥ 0"));
        }
        if count < 2 {
            return Err(Error::TooFewSamples {
                what: "summary",
                needed: 2,
                got: count,
            });
        }
        Ok(MeasuredSummary {
            mean,
            variance,
            count,
        })
    }
}

impl From<&BatchMeans> for MeasuredSummary {
    /// The batch-means result as a summary: its mean, batch variance and number of batches.
    fn from(b: &BatchMeans) -> Self {
        MeasuredSummary {
            mean: b.mean,
            variance: b.batch_variance,
            count: b.batches,
        }
    }
}

/// The result of [`welch_from_summaries`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SummaryComparison {
    /// `mean_A − mean_B`, in the unit of the readings.
    pub difference: f64,
    /// Lower end of the interval for the difference at `level`.
    pub low: f64,
    /// Upper end of the interval for the difference.
    pub high: f64,
    /// Coverage level.
    pub level: f64,
    /// The t statistic (±`f64::MAX` when both variances are 0 and the means differ).
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom (not rounded); `+∞` serialised as `null` when
    /// both variances are 0.
    #[serde(with = "crate::stats::intervals::rates::infinite_as_null")]
    pub df: f64,
    /// Two-sided p-value, in `[0, 1]`.
    pub p_value: f64,
}

/// Welch's test of two measured results (see the
/// chapter), with the interval for the
/// difference at `level`.
///
/// When both variances are 0 the result is exact: the interval is the point `difference`,
/// and `p` is 0 if the means differ and 1 if they are equal.
///
/// Returns [`Error::OutOfRange`] for a level outside `(0, 1)`.
pub fn welch_from_summaries(
    a: &MeasuredSummary,
    b: &MeasuredSummary,
    level: f64,
) -> Result<SummaryComparison> {
    check::open_unit("level", level)?;
    let difference = a.mean - b.mean;
    let va = a.variance / a.count as f64;
    let vb = b.variance / b.count as f64;
    let se2 = va + vb;
    if se2 == 0.0 {
        return Ok(SummaryComparison {
            difference,
            low: difference,
            high: difference,
            level,
            t: if difference == 0.0 {
                0.0
            } else {
                f64::MAX.copysign(difference)
            },
            df: f64::INFINITY,
            p_value: if difference == 0.0 { 1.0 } else { 0.0 },
        });
    }
    let se = se2.sqrt();
    let df = welch_df(a, b);
    let t = (difference / se).clamp(-f64::MAX, f64::MAX);
    let tq = dist::student_t_quantile(0.5 + level / 2.0, df)?;
    let p_value = 2.0 * dist::student_t_cdf(-t.abs(), df)?;
    Ok(SummaryComparison {
        difference,
        low: difference - tq * se,
        high: difference + tq * se,
        level,
        t,
        df,
        p_value: p_value.clamp(0.0, 1.0),
    })
}

fn welch_df(a: &MeasuredSummary, b: &MeasuredSummary) -> f64 {
    let va = a.variance / a.count as f64;
    let vb = b.variance / b.count as f64;
    let s = va + vb;
    let (wa, wb) = (va / s, vb / s);
    1.0 / (wa * wa / (a.count - 1) as f64 + wb * wb / (b.count - 1) as f64)
}

/// How many batch means of B a comparison against a baseline needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NewSamples {
    /// This many batch means of B (in all, not in addition) reach the required p.
    Needed(usize),
    /// No number of samples of B is enough: the baseline's own uncertainty (or a difference
    /// of 0) already prevents the required p.
    Impossible,
}

/// The number of batch means of B needed for Welch's test against the measured baseline `a`
/// to reach `p ≤ p_required`, if B's mean and batch variance stay as measured in `b`:
/// `⌈s_B²/((d/t*)² − s_A²/n_A)⌉` with `t*` the t quantile at `1 − p_required/2` (Welch's
/// degrees of freedom at the current sizes). With `power = Some(1 − β)`, `t*` becomes
/// `t* + z_β`, so that the test succeeds with that probability when the true difference is
/// `d`. Both variances 0 with `d ≠ 0` needs no more than the 2 already required.
///
/// Returns [`Error::OutOfRange`] for `p_required` or `power` outside `(0, 1)`.
pub fn new_samples_needed(
    a: &MeasuredSummary,
    b: &MeasuredSummary,
    p_required: f64,
    power: Option<f64>,
) -> Result<NewSamples> {
    check::open_unit("p_required", p_required)?;
    let zb = power_term(power)?;
    let d = a.mean - b.mean;
    if d == 0.0 {
        return Ok(NewSamples::Impossible);
    }
    if a.variance == 0.0 && b.variance == 0.0 {
        return Ok(NewSamples::Needed(2));
    }
    let df = welch_df(a, b);
    let t = dist::student_t_quantile(1.0 - p_required / 2.0, df)? + zb;
    let denom = (d / t).powi(2) - a.variance / a.count as f64;
    if denom.is_nan() || denom <= 0.0 {
        return Ok(NewSamples::Impossible);
    }
    let n = (b.variance / denom).ceil();
    if !n.is_finite() || n > (1u64 << 60) as f64 {
        return Ok(NewSamples::Impossible);
    }
    Ok(NewSamples::Needed((n as usize).max(2)))
}

fn power_term(power: Option<f64>) -> Result<f64> {
    match power {
        None => Ok(0.0),
        Some(p) => {
            check::open_unit("power", p)?;
            dist::normal_quantile(p)
        }
    }
}

/// The design formula for two systems with equal spread and equal sample sizes: `⌈2·((z* +
/// z_β)·cv/effect)²⌉` samples from each, with `z*` the normal quantile at `1 − p/2` (the
/// large-sample value of t*, exact quantiles, not 1.96) and `z_β` the normal quantile at
/// `power` (0 without one). `cv` and `effect` are fractions of the mean.
///
/// Returns [`Error::OutOfRange`] for a `cv` that is negative or not finite, an `effect` that is
/// not finite and positive, or `p`/`power` outside `(0, 1)`; [`Error::NotEnoughData`] if the
/// count exceeds 2⁶⁰.
pub fn samples_per_system(cv: f64, effect: f64, p: f64, power: Option<f64>) -> Result<usize> {
    check::open_unit("p", p)?;
    if !(cv.is_finite() && cv >= 0.0) {
        return Err(Error::out_of_range("cv", cv, "0 ≤ cv < ∞"));
    }
    if !(effect.is_finite() && effect > 0.0) {
        return Err(Error::out_of_range("effect", effect, "0 < effect < ∞"));
    }
    let z = dist::normal_quantile(1.0 - p / 2.0)? + power_term(power)?;
    let n = (2.0 * (z * cv / effect).powi(2)).ceil();
    if !n.is_finite() || n > (1u64 << 60) as f64 {
        return Err(Error::NotEnoughData {
            what: "samples per system",
            reason: format!("a cv of {cv} against an effect of {effect} needs too many samples"),
        });
    }
    Ok(n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_variances_are_exact() {
        let a = MeasuredSummary::new(5.0, 0.0, 10).unwrap();
        let b = MeasuredSummary::new(4.0, 0.0, 10).unwrap();
        let c = welch_from_summaries(&a, &b, 0.95).unwrap();
        assert_eq!((c.p_value, c.low, c.high), (0.0, 1.0, 1.0));
        let same = welch_from_summaries(&a, &a, 0.95).unwrap();
        assert_eq!(same.p_value, 1.0);
        assert_eq!(
            new_samples_needed(&a, &b, 0.05, None),
            Ok(NewSamples::Needed(2))
        );
        assert_eq!(
            new_samples_needed(&a, &a, 0.05, None),
            Ok(NewSamples::Impossible)
        );
    }

    #[test]
    fn impossible_when_the_baseline_is_too_uncertain() {
        let a = MeasuredSummary::new(100.0, 400.0, 4).unwrap(); // se² = 100
        let b = MeasuredSummary::new(99.0, 1.0, 10).unwrap(); // d = 1
        assert_eq!(
            new_samples_needed(&a, &b, 0.05, None),
            Ok(NewSamples::Impossible)
        );
        let a = MeasuredSummary::new(100.0, 1.0, 100).unwrap();
        match new_samples_needed(&a, &b, 0.05, None).unwrap() {
            NewSamples::Needed(n) => assert!(n > 2),
            NewSamples::Impossible => panic!(),
        }
    }

    #[test]
    fn bad_input() {
        assert!(MeasuredSummary::new(1.0, -1.0, 3).is_err());
        assert!(MeasuredSummary::new(1.0, 1.0, 1).is_err());
        assert!(MeasuredSummary::new(f64::NAN, 1.0, 3).is_err());
        assert!(samples_per_system(0.25, 0.0, 0.05, None).is_err());
        assert!(samples_per_system(0.25, 0.02, 0.05, Some(1.0)).is_err());
    }
}
