//! A verdict for a handful of whole-process runs: win, parity or loss.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::verdicts`), section "Few runs".

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::stats::summaries::select;
use crate::stats::summaries::summary::{Sample, iqr_of_sorted};

/// Default [`FewRunsRule::parity`]: 0.04, a fraction (4 %). Differences of the two ratios from 1
/// within this band are parity however quiet the runs.
pub const FEW_RUNS_PARITY: f64 = 0.04;

/// Default [`FewRunsRule::floor`]: 25 µs = 25 000.0 ns. The smallest absolute difference the
/// rule trusts, chosen in the source on one host; on a machine with a faster process start it
/// is generous.
pub const FEW_RUNS_FLOOR_NS: f64 = 25_000.0;

/// Fewest runs per arm [`few_runs_verdict`] accepts: 2.
pub const FEW_RUNS_MIN_RUNS: usize = 2;

/// Options for [`few_runs_verdict`]. Build with [`FewRunsRule::default`] and the consuming
/// setters.
///
/// ```
/// use rtcompare::support::stats::FewRunsRule;
///
/// let rule = FewRunsRule::default().parity(0.03).floor(10_000.0);
/// assert_eq!((rule.parity, rule.floor), (0.03, 10_000.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FewRunsRule {
    /// Relative band around 1 that always counts as parity, a fraction `≥ 0` (default
    /// `FEW_RUNS_PARITY` (0.04), 0.04).
    pub parity: f64,
    /// Absolute floor, in nanoseconds `≥ 0` (default `FEW_RUNS_FLOOR_NS` (25_000.0), 25 000 ns = 25 µs):
    /// divided by the median (or minimum) run time it becomes a relative tolerance, which
    /// dominates for very short workloads.
    pub floor: f64,
}

impl Default for FewRunsRule {
    fn default() -> Self {
        FewRunsRule {
            parity: FEW_RUNS_PARITY,
            floor: FEW_RUNS_FLOOR_NS,
        }
    }
}

impl FewRunsRule {
    /// Sets [`FewRunsRule::parity`] (a fraction; checked by [`few_runs_verdict`]).
    pub fn parity(mut self, v: f64) -> Self {
        self.parity = v;
        self
    }

    /// Sets [`FewRunsRule::floor`] (nanoseconds; checked by [`few_runs_verdict`]).
    pub fn floor(mut self, v: f64) -> Self {
        self.floor = v;
        self
    }

    fn validate(&self) -> Result<()> {
        if !(self.parity.is_finite() && self.parity >= 0.0) {
            return Err(Error::out_of_range(
                "parity",
                self.parity,
                "a finite fraction ≥ 0",
            ));
        }
        if !(self.floor.is_finite() && self.floor >= 0.0) {
            return Err(Error::out_of_range(
                "floor",
                self.floor,
                "a finite number of nanoseconds ≥ 0",
            ));
        }
        Ok(())
    }
}

/// The three outcomes of [`few_runs_verdict`], from the candidate's (`a`'s) point of view.
/// Serialised in lowercase (`"win"`, `"parity"`, `"loss"`), as in the source's result schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FewRunsOutcome {
    /// Both ratios are below their tolerance band: the candidate is faster.
    Win,
    /// Neither a win nor a loss: the difference, if any, is within what these runs can resolve.
    Parity,
    /// Both ratios are above their tolerance band: the candidate is slower.
    Loss,
}

impl fmt::Display for FewRunsOutcome {
    /// `win`, `parity` or `loss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FewRunsOutcome::Win => "win",
            FewRunsOutcome::Parity => "parity",
            FewRunsOutcome::Loss => "loss",
        })
    }
}

/// The result of [`few_runs_verdict`]: the outcome and the three numbers to check before
/// doubting it (plus the tolerance of the best runs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FewRunsVerdict {
    /// Win, parity or loss, for the candidate `a`.
    pub outcome: FewRunsOutcome,
    /// `median(a) / median(b)` (dimensionless); below 1 means `a` is ahead.
    pub ratio: f64,
    /// `min(a) / min(b)` (dimensionless); below 1 means `a`'s best run was faster.
    pub best_ratio: f64,
    /// What `ratio` was judged against, `max(parity, noise, floor / min(median(a), median(b)))`,
    /// a fraction.
    pub tolerance: f64,
    /// What `best_ratio` was judged against, `max(parity, floor / min(min(a), min(b)))`, a
    /// fraction.
    pub best_tolerance: f64,
    /// The spread inside `tolerance`: the larger of the two arms' `iqr / median`, a fraction.
    pub noise: f64,
}

impl fmt::Display for FewRunsVerdict {
    /// One line, for example
    /// `parity: median ratio 0.809 (tolerance 0.213, noise 0.213), best ratio 0.963 (tolerance 0.044)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: median ratio {:.3} (tolerance {:.3}, noise {:.3}), best ratio {:.3} (tolerance {:.3})",
            self.outcome,
            self.ratio,
            self.tolerance,
            self.noise,
            self.best_ratio,
            self.best_tolerance
        )
    }
}

/// Applies the few-runs rule (see the chapter) to the run
/// times `a` of the candidate and `b` of the other arm, both in nanoseconds.
///
/// Returns [`Error::TooFewSamples`] if either arm has fewer than [`FEW_RUNS_MIN_RUNS`] (2) runs,
/// [`Error::NonFinite`] for NaN or ±∞, and [`Error::OutOfRange`] for a run time that is not
/// positive (naming `"a"` or `"b"`) or for a rule whose `parity` or `floor` is negative or not
/// finite. Tolerances saturate at `f64::MAX` for absurdly small run times (below about
/// 1e-304 ns) instead of becoming infinite.
pub fn few_runs_verdict(a: &[f64], b: &[f64], rule: &FewRunsRule) -> Result<FewRunsVerdict> {
    rule.validate()?;
    let arm_a = Arm::new("a", a)?;
    let arm_b = Arm::new("b", b)?;

    let noise = arm_a.noise.max(arm_b.noise);
    let tolerance = rule
        .parity
        .max(noise)
        .max(rule.floor / arm_a.median.min(arm_b.median))
        .min(f64::MAX);
    let best_tolerance = rule
        .parity
        .max(rule.floor / arm_a.best.min(arm_b.best))
        .min(f64::MAX);

    // `x · (1 + tol) < y` is `x / y < 1 / (1 + tol)` without a division, and it is exactly
    // mirrored when the arms are swapped.
    let beyond = |x: f64, y: f64, tol: f64| x * (1.0 + tol) < y;
    let win = beyond(arm_a.median, arm_b.median, tolerance)
        && beyond(arm_a.best, arm_b.best, best_tolerance);
    let loss = beyond(arm_b.median, arm_a.median, tolerance)
        && beyond(arm_b.best, arm_a.best, best_tolerance);
    let outcome = if win {
        FewRunsOutcome::Win
    } else if loss {
        FewRunsOutcome::Loss
    } else {
        FewRunsOutcome::Parity
    };

    Ok(FewRunsVerdict {
        outcome,
        ratio: (arm_a.median / arm_b.median).min(f64::MAX),
        best_ratio: (arm_a.best / arm_b.best).min(f64::MAX),
        tolerance,
        best_tolerance,
        noise,
    })
}

/// The three summaries the rule needs from one arm.
struct Arm {
    median: f64,
    best: f64,
    noise: f64,
}

impl Arm {
    fn new(what: &'static str, xs: &[f64]) -> Result<Self> {
        let sample = Sample::checked(what, xs, FEW_RUNS_MIN_RUNS)?;
        if let Some(&bad) = xs.iter().find(|&&x| x <= 0.0) {
            return Err(Error::out_of_range(what, bad, "every run time > 0 ns"));
        }
        let sorted = sample.sorted();
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            select::midpoint(sorted[n / 2 - 1], sorted[n / 2])
        };
        // Positive values: the interquartile range is below the largest value, so it cannot
        // overflow, and the ratio to a positive median is finite unless the median is tiny.
        let iqr = iqr_of_sorted(&sorted)?;
        Ok(Arm {
            median,
            best: sorted[0],
            noise: (iqr / median).min(f64::MAX),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: FewRunsRule = FewRunsRule {
        parity: FEW_RUNS_PARITY,
        floor: FEW_RUNS_FLOOR_NS,
    };

    #[test]
    fn error_paths() {
        let ok = [1e6, 1.1e6, 1.2e6];
        assert!(matches!(
            few_runs_verdict(&[1e6], &ok, &RULE),
            Err(Error::TooFewSamples {
                what: "a",
                needed: 2,
                got: 1
            })
        ));
        assert!(matches!(
            few_runs_verdict(&ok, &[], &RULE),
            Err(Error::TooFewSamples { what: "b", .. })
        ));
        assert!(matches!(
            few_runs_verdict(&[1e6, f64::NAN], &ok, &RULE),
            Err(Error::NonFinite { what: "a", .. })
        ));
        assert!(matches!(
            few_runs_verdict(&ok, &[1e6, f64::INFINITY], &RULE),
            Err(Error::NonFinite { what: "b", .. })
        ));
        assert!(matches!(
            few_runs_verdict(&[1e6, 0.0], &ok, &RULE),
            Err(Error::OutOfRange { name: "a", .. })
        ));
        assert!(matches!(
            few_runs_verdict(&ok, &[-1.0, 1e6], &RULE),
            Err(Error::OutOfRange { name: "b", .. })
        ));
        for bad in [-0.01, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                few_runs_verdict(&ok, &ok, &RULE.parity(bad)),
                Err(Error::OutOfRange { name: "parity", .. })
            ));
            assert!(matches!(
                few_runs_verdict(&ok, &ok, &RULE.floor(bad)),
                Err(Error::OutOfRange { name: "floor", .. })
            ));
        }
    }

    #[test]
    fn defaults_and_builders() {
        assert_eq!(FewRunsRule::default(), RULE);
        let r = FewRunsRule::default().parity(0.0).floor(0.0);
        assert_eq!((r.parity, r.floor), (0.0, 0.0));
    }

    #[test]
    fn identical_arms_are_parity() {
        let a = [1e6, 1.1e6, 1.3e6, 1.2e6];
        let v = few_runs_verdict(&a, &a, &RULE).unwrap();
        assert_eq!(v.outcome, FewRunsOutcome::Parity);
        assert_eq!((v.ratio, v.best_ratio), (1.0, 1.0));
    }

    #[test]
    fn tiny_run_times_saturate() {
        let v = few_runs_verdict(&[1e-310, 2e-310], &[1e-310, 3e-310], &RULE).unwrap();
        assert_eq!(v.tolerance, f64::MAX);
        assert_eq!(v.outcome, FewRunsOutcome::Parity);
    }

    #[test]
    fn serde_uses_lowercase_outcomes() {
        let json = serde_json::to_string(&FewRunsOutcome::Parity).unwrap();
        assert_eq!(json, "\"parity\"");
        let v: FewRunsOutcome = serde_json::from_str("\"loss\"").unwrap();
        assert_eq!(v, FewRunsOutcome::Loss);
    }
}
