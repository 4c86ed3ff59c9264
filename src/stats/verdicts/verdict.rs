//! Verdict rules: turning an estimate and its interval into a decision.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::verdicts`), section "Verdict rules".

use std::fmt;

use serde::{Deserialize, Serialize};

use super::judge::{Bar, Bounds, Claim, Scale, judge};
use crate::display::Pct;
use crate::error::{Error, Result};

/// Why [`three_outcome_rule`] could not call a winner. The two main reasons look alike in a
/// summary table and call for opposite next steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CannotTellReason {
    /// The interval contains zero (or touches it): the data are consistent with no difference
    /// at all. This is a statement about the experiment; more measurements or a quieter
    /// machine may resolve it.
    IntervalContainsZero,
    /// The interval excludes zero, so the difference is real, but its size is below the
    /// threshold: it is too small to matter by the standard set beforehand.
    BelowThreshold,
    /// The interval excludes zero but the point estimate lies on the other side of zero (or
    /// on it). The estimate is unstable (a percentile bootstrap interval need not contain the
    /// point estimate); measure more before drawing any conclusion.
    EstimateOutsideInterval,
}

impl fmt::Display for CannotTellReason {
    /// A plain sentence saying what happened and what to do next.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CannotTellReason::IntervalContainsZero => {
                "the interval contains zero, so this experiment does not separate the two; \
                 collect more samples or quieten the machine and measure again"
            }
            CannotTellReason::BelowThreshold => {
                "the difference is real but smaller than the threshold; accept that it is too \
                 small to matter, or lower the threshold for the next experiment (never for \
                 this one)"
            }
            CannotTellReason::EstimateOutsideInterval => {
                "the point estimate and its interval disagree about the direction, so the \
                 estimate is unstable; collect more samples and measure again"
            }
        })
    }
}

/// The three outcomes of [`three_outcome_rule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThresholdOutcome {
    /// The first candidate (A) needs less time, by at least the threshold.
    Faster,
    /// The first candidate (A) needs more time, by at least the threshold.
    Slower,
    /// No verdict, for the reason given.
    CannotTell(CannotTellReason),
}

impl fmt::Display for ThresholdOutcome {
    /// `faster`, `slower` or `cannot tell: <reason>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThresholdOutcome::Faster => f.write_str("faster"),
            ThresholdOutcome::Slower => f.write_str("slower"),
            ThresholdOutcome::CannotTell(reason) => write!(f, "cannot tell: {reason}"),
        }
    }
}

/// The result of [`three_outcome_rule`]: the outcome and the numbers it was decided on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ThreeOutcome {
    /// Faster, slower or cannot tell (with the reason).
    pub outcome: ThresholdOutcome,
    /// The point estimate of `δ = 1 − A/B`, a fraction.
    pub delta: f64,
    /// Lower end of the interval on `δ`, a fraction.
    pub low: f64,
    /// Upper end of the interval on `δ`, a fraction.
    pub high: f64,
    /// The threshold the size was judged against, a fraction `≥ 0`.
    pub threshold: f64,
}

impl ThreeOutcome {
    /// The reason, when the outcome is [`ThresholdOutcome::CannotTell`]; `None` for a verdict.
    pub fn reason(&self) -> Option<CannotTellReason> {
        match self.outcome {
            ThresholdOutcome::CannotTell(r) => Some(r),
            _ => None,
        }
    }
}

impl fmt::Display for ThreeOutcome {
    /// One line in the one direction (A's change against B, + = slower), for example
    /// `faster: A's change 6.0 % faster [−9.0 %, −3.0 %], threshold 2.0 %`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: A's change {}, threshold {}",
            self.outcome,
            crate::stats::Change::of_delta(self.delta, self.low, self.high),
            Pct(self.threshold)
        )
    }
}

fn finite(name: &'static str, value: f64) -> Result<()> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::out_of_range(name, value, "a finite number"))
    }
}

fn threshold_ok(threshold: f64) -> Result<()> {
    if threshold.is_finite() && threshold >= 0.0 {
        Ok(())
    } else {
        Err(Error::out_of_range(
            "threshold",
            threshold,
            "a finite fraction ≥ 0",
        ))
    }
}

/// The three-outcome rule: faster, slower or cannot tell.
///
/// Arguments are fractions on the `δ = 1 − A/B` scale (positive: A needs less time): the point
/// estimate `delta`, its interval `[low, high]` and a `threshold ≥ 0` fixed before measuring.
///
/// * [`ThresholdOutcome::Faster`] when the interval excludes zero (`low > 0`), `delta > 0` and
///   `delta ≥ threshold`;
/// * [`ThresholdOutcome::Slower`] when the interval excludes zero (`high < 0`), `delta < 0` and
///   `|delta| ≥ threshold`;
/// * otherwise [`ThresholdOutcome::CannotTell`], with [`CannotTellReason::IntervalContainsZero`] if
///   `low ≤ 0 ≤ high` (an interval that merely touches zero does not exclude it),
///   [`CannotTellReason::BelowThreshold`] if the interval excludes zero but `|delta|` is below
///   the threshold, and [`CannotTellReason::EstimateOutsideInterval`] if the interval excludes
///   zero on one side while `delta` is zero or on the other.
///
/// Returns [`Error::OutOfRange`] if any argument is NaN or ±∞, if `low > high`, or if the
/// threshold is negative.
///
/// ```
/// use rtcompare::support::stats::{three_outcome_rule, CannotTellReason, ThresholdOutcome};
///
/// let v = three_outcome_rule(-0.01, -0.03, 0.01, 0.02)?;
/// assert_eq!(v.reason(), Some(CannotTellReason::IntervalContainsZero));
/// assert_eq!(three_outcome_rule(-0.05, -0.07, -0.03, 0.02)?.outcome, ThresholdOutcome::Slower);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn three_outcome_rule(delta: f64, low: f64, high: f64, threshold: f64) -> Result<ThreeOutcome> {
    finite("delta", delta)?;
    finite("low", low)?;
    finite("high", high)?;
    threshold_ok(threshold)?;
    if low > high {
        return Err(Error::out_of_range("low", low, "low ≤ high"));
    }
    let outcome = if low <= 0.0 && high >= 0.0 {
        ThresholdOutcome::CannotTell(CannotTellReason::IntervalContainsZero)
    } else if (low > 0.0 && delta <= 0.0) || (high < 0.0 && delta >= 0.0) {
        ThresholdOutcome::CannotTell(CannotTellReason::EstimateOutsideInterval)
    } else if delta.abs() < threshold {
        ThresholdOutcome::CannotTell(CannotTellReason::BelowThreshold)
    } else if delta > 0.0 {
        ThresholdOutcome::Faster
    } else {
        ThresholdOutcome::Slower
    };
    Ok(ThreeOutcome {
        outcome,
        delta,
        low,
        high,
        threshold,
    })
}

/// The result of [`lower_bound_rule`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LowerBoundDecision {
    /// Whether the claimed speedup is accepted: `lower_bound > threshold`.
    pub accepted: bool,
    /// The interval's lower bound on the speedup, a fraction on the `δ = 1 − A/B` scale.
    pub lower_bound: f64,
    /// The threshold it had to clear, a fraction `≥ 0`.
    pub threshold: f64,
    /// `lower_bound − threshold`, a fraction: how far the bound cleared (positive) or missed
    /// (negative or zero) the threshold.
    pub margin: f64,
}

impl fmt::Display for LowerBoundDecision {
    /// One line, for example `accepted: the speedup's lower bound 3.0 % clears the 2.0 %
    /// threshold by 1.0 points` (a speedup is A's time saved against B's, so it is said in
    /// words, not as a signed change).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let points = |x: f64| Pct(x).to_string().replace(" %", " points");
        if self.accepted {
            write!(
                f,
                "accepted: the speedup's lower bound {} clears the {} threshold by {}",
                Pct(self.lower_bound),
                Pct(self.threshold),
                points(self.margin)
            )
        } else {
            write!(
                f,
                "rejected: the speedup's lower bound {} does not clear the {} threshold \
                 (short by {})",
                Pct(self.lower_bound),
                Pct(self.threshold),
                points(-self.margin)
            )
        }
    }
}

/// The lower-bound rule for accepting a claimed speedup: accepted only if the lower bound of
/// the interval on the speedup (`low`, a fraction on the `δ = 1 − A/B` scale, positive: A needs
/// less time) is strictly greater than `threshold` (a fraction `≥ 0`, for example 0.02).
///
/// The point estimate plays no part: an estimate of +6 % with an interval of [−1 %, +13 %] is
/// rejected, because the number one can commit to is the one that survives the interval. The
/// comparison is strict so that a threshold of 0 still demands an interval that excludes zero.
///
/// Returns [`Error::OutOfRange`] if `low` is NaN or ±∞, or if `threshold` is negative or not
/// finite.
///
/// ```
/// use rtcompare::support::stats::lower_bound_rule;
///
/// let d = lower_bound_rule(-0.01, 0.02)?;
/// assert!(!d.accepted);
/// assert!((d.margin + 0.03).abs() < 1e-12);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn lower_bound_rule(low: f64, threshold: f64) -> Result<LowerBoundDecision> {
    finite("low", low)?;
    threshold_ok(threshold)?;
    // The judge's rule with the speedup's lower end as the only bound that matters.
    let bounds = Bounds::of_interval(low, f64::INFINITY, Scale::Speedup)?;
    let accepted = judge(bounds, Bar::new(threshold, 0.0)?, false).claim() == Some(Claim::Faster);
    Ok(LowerBoundDecision {
        accepted,
        lower_bound: low,
        threshold,
        margin: (low - threshold).clamp(-f64::MAX, f64::MAX),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_arguments_are_errors() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(three_outcome_rule(bad, 0.0, 0.1, 0.02).is_err());
            assert!(three_outcome_rule(0.05, bad, 0.1, 0.02).is_err());
            assert!(three_outcome_rule(0.05, 0.0, bad, 0.02).is_err());
            assert!(three_outcome_rule(0.05, 0.0, 0.1, bad).is_err());
            assert!(lower_bound_rule(bad, 0.02).is_err());
            assert!(lower_bound_rule(0.05, bad).is_err());
        }
        assert!(matches!(
            three_outcome_rule(0.05, 0.1, 0.0, 0.02),
            Err(Error::OutOfRange { name: "low", .. })
        ));
        assert!(matches!(
            three_outcome_rule(0.05, 0.0, 0.1, -0.01),
            Err(Error::OutOfRange {
                name: "threshold",
                ..
            })
        ));
        assert!(matches!(
            lower_bound_rule(0.05, -0.01),
            Err(Error::OutOfRange {
                name: "threshold",
                ..
            })
        ));
    }

    #[test]
    fn every_branch() {
        use CannotTellReason::*;
        let o = |d, l, h, t| three_outcome_rule(d, l, h, t).unwrap().outcome;
        assert_eq!(o(0.06, 0.03, 0.09, 0.02), ThresholdOutcome::Faster);
        assert_eq!(o(0.02, 0.01, 0.03, 0.02), ThresholdOutcome::Faster); // exactly at the threshold
        assert_eq!(o(-0.06, -0.09, -0.03, 0.02), ThresholdOutcome::Slower);
        assert_eq!(
            o(0.06, -0.01, 0.13, 0.02),
            ThresholdOutcome::CannotTell(IntervalContainsZero)
        );
        assert_eq!(
            o(0.06, 0.0, 0.13, 0.02),
            ThresholdOutcome::CannotTell(IntervalContainsZero)
        );
        assert_eq!(
            o(-0.06, -0.13, 0.0, 0.0),
            ThresholdOutcome::CannotTell(IntervalContainsZero)
        );
        assert_eq!(
            o(0.0, 0.0, 0.0, 0.0),
            ThresholdOutcome::CannotTell(IntervalContainsZero)
        );
        assert_eq!(
            o(0.01, 0.005, 0.015, 0.02),
            ThresholdOutcome::CannotTell(BelowThreshold)
        );
        assert_eq!(
            o(-0.01, -0.015, -0.005, 0.02),
            ThresholdOutcome::CannotTell(BelowThreshold)
        );
        assert_eq!(
            o(-0.001, 0.001, 0.01, 0.0),
            ThresholdOutcome::CannotTell(EstimateOutsideInterval)
        );
        assert_eq!(
            o(0.0, -0.01, -0.001, 0.0),
            ThresholdOutcome::CannotTell(EstimateOutsideInterval)
        );
        // Threshold 0: any real difference counts.
        assert_eq!(o(1e-9, 1e-10, 1e-8, 0.0), ThresholdOutcome::Faster);
    }

    #[test]
    fn lower_bound_is_strict() {
        assert!(!lower_bound_rule(0.02, 0.02).unwrap().accepted);
        assert!(!lower_bound_rule(0.0, 0.0).unwrap().accepted);
        assert!(lower_bound_rule(0.021, 0.02).unwrap().accepted);
        let d = lower_bound_rule(-f64::MAX, f64::MAX).unwrap();
        assert_eq!(d.margin, -f64::MAX);
    }

    #[test]
    fn displays_are_sentences() {
        let v = three_outcome_rule(0.06, 0.03, 0.09, 0.02).unwrap();
        assert_eq!(
            v.to_string(),
            "faster: A's change 6.0 % faster [−9.0 %, −3.0 %], threshold 2.0 %"
        );
        for r in [
            CannotTellReason::IntervalContainsZero,
            CannotTellReason::BelowThreshold,
            CannotTellReason::EstimateOutsideInterval,
        ] {
            assert!(!r.to_string().contains('\n'));
        }
        let json = serde_json::to_string(&ThresholdOutcome::CannotTell(
            CannotTellReason::BelowThreshold,
        ))
        .unwrap();
        assert_eq!(json, r#"{"cannot_tell":"below_threshold"}"#);
        assert!(
            lower_bound_rule(0.03, 0.02)
                .unwrap()
                .to_string()
                .starts_with("accepted")
        );
    }
}
