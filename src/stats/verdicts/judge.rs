//! The judge: the one rule that turns an interval, a bar and a question into a claim about a
//! candidate against its baseline, with the reason when there is none.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::verdicts`), section "The judge".

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::display::Pct;
use crate::error::{Error, Result};

/// Which way a relative difference δ points: what its positive values say about the candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// δ > 0 means the candidate is slower: `δ = 1 − baseline/candidate`
    /// (`rtcompare cmd`'s δ with the reference as baseline).
    Slowdown,
    /// δ > 0 means the candidate is faster: `δ = 1 − candidate/baseline` (a
    /// [`Report`](crate::Report)'s `δ = 1 − A/B` with A the candidate, as the gates measure it,
    /// and `rtcompare bench`'s `δ = 1 − head/baseline`).
    Speedup,
}

/// What a claim must clear: fractions fixed before measuring.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Bar {
    /// The smallest difference worth claiming (a gate's budget, a claimed speedup, a margin of
    /// equivalence), a fraction `≥ 0`.
    pub threshold: f64,
    /// What identical code differs by on this setup (the A/A noise floor), a fraction `≥ 0`;
    /// 0 when not measured, or when the interval judged already carries it.
    pub floor: f64,
}

impl Bar {
    /// A bar of `threshold` and `floor` (fractions). Returns [`Error::OutOfRange`] when either
    /// is negative, NaN or infinite.
    pub fn new(threshold: f64, floor: f64) -> Result<Bar> {
        for (name, value) in [("threshold", threshold), ("floor", floor)] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(Error::out_of_range(name, value, "a finite fraction ≥ 0"));
            }
        }
        Ok(Bar { threshold, floor })
    }

    /// A threshold alone, without a floor of its own (a gate's budget over intervals that
    /// already carry theirs). A negative or NaN threshold is read as 0, which still demands an
    /// interval that excludes zero.
    pub(crate) fn threshold(threshold: f64) -> Bar {
        Bar {
            threshold: if threshold > 0.0 { threshold } else { 0.0 },
            floor: 0.0,
        }
    }

    /// This bar with `floor` as its A/A floor (fraction). A negative floor is read as 0; a NaN
    /// floor (an A/A comparison that measured nothing) as infinite, so that no claim clears a
    /// floor nobody knows.
    pub(crate) fn with_floor(mut self, floor: f64) -> Bar {
        self.floor = if floor.is_nan() {
            f64::INFINITY
        } else {
            floor.max(0.0)
        };
        self
    }

    /// What a claim's bound must exceed: the larger of the threshold and the floor (fraction).
    pub fn tolerance(self) -> f64 {
        self.threshold.max(self.floor)
    }
}

/// How large a change an interval guarantees for each claim, at its least favourable end.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Bounds {
    /// The candidate is slower than the baseline by at least this (fraction; ≤ 0 when the
    /// interval allows no slowdown).
    pub slower_by: f64,
    /// The candidate is faster than the baseline by at least this (fraction; ≤ 0 when the
    /// interval allows no speedup).
    pub faster_by: f64,
    /// The largest change either way the interval still allows (fraction, `≥ 0`): what an
    /// equivalence claim rests on.
    pub at_most: f64,
}

impl Bounds {
    /// Bounds given claim by claim, for an interval whose two claims are read on different
    /// scales (the command line's bootstrap rule states a slowdown relative to the baseline and
    /// a speedup relative to the candidate). Returns [`Error::OutOfRange`] for a NaN bound or
    /// an `at_most` below 0.
    pub fn new(slower_by: f64, faster_by: f64, at_most: f64) -> Result<Bounds> {
        for (name, value) in [("slower_by", slower_by), ("faster_by", faster_by)] {
            if value.is_nan() {
                return Err(Error::out_of_range(name, value, "a number"));
            }
        }
        if at_most.is_nan() || at_most < 0.0 {
            return Err(Error::out_of_range("at_most", at_most, "a fraction ≥ 0"));
        }
        Ok(Bounds {
            slower_by,
            faster_by,
            at_most,
        })
    }

    /// The bounds of an interval that guarantees nothing (−∞, ∞): no claim, no equivalence.
    pub(crate) fn unbounded() -> Bounds {
        Bounds {
            slower_by: f64::NEG_INFINITY,
            faster_by: f64::NEG_INFINITY,
            at_most: f64::INFINITY,
        }
    }

    /// The bounds of the interval `[low, high]` on a relative difference δ read on `scale`.
    /// Endpoints may be infinite (an interval that decides nothing). Returns
    /// [`Error::OutOfRange`] for a NaN endpoint or `low > high`.
    pub fn of_interval(low: f64, high: f64, scale: Scale) -> Result<Bounds> {
        if low.is_nan() || high.is_nan() || low > high {
            return Err(Error::out_of_range("low", low, "a number ≤ high"));
        }
        let (slower_by, faster_by) = match scale {
            Scale::Slowdown => (low, -high),
            Scale::Speedup => (-high, low),
        };
        Ok(Bounds {
            slower_by,
            faster_by,
            at_most: high.abs().max(low.abs()),
        })
    }
}

/// A claim about the candidate against the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// The candidate needs more time.
    Slower,
    /// The candidate needs less time.
    Faster,
}

impl fmt::Display for Claim {
    /// `slower` or `faster`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Claim::Slower => "slower",
            Claim::Faster => "faster",
        })
    }
}

/// What the judge found.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Judgement {
    /// The claim's bound clears the bar's [tolerance](Bar::tolerance).
    Clears {
        /// The claim.
        claim: Claim,
        /// Its bound, the least change the interval guarantees (fraction).
        bound: f64,
    },
    /// The interval lies inside ±threshold and the floor is below the threshold: no change
    /// beyond the threshold (only when equivalence was asked about).
    Equivalent,
    /// The interval lies inside ±threshold, but identical code already differs by as much as
    /// the threshold on this setup, so equivalence that tight cannot be established (only
    /// when equivalence was asked about).
    FloorAboveMargin,
    /// No claim: the interval leans towards one (its bound above 0) too small to make, or
    /// towards none.
    Short {
        /// The claim the interval excludes no change for, with its bound (fraction).
        leaning: Option<(Claim, f64)>,
    },
}

impl Judgement {
    /// The claim made, if any.
    pub fn claim(self) -> Option<Claim> {
        match self {
            Judgement::Clears { claim, .. } => Some(claim),
            _ => None,
        }
    }

    /// Whether the candidate was proven slower: what a regression gate acts on.
    pub(crate) fn is_slower(self) -> bool {
        self.claim() == Some(Claim::Slower)
    }
}

impl fmt::Display for Judgement {
    /// `slower by at least 3.00 %`, `equivalent`, `cannot tell: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Judgement::Clears { claim, bound } => {
                write!(f, "{claim} by at least {}", Pct(*bound))
            }
            Judgement::Equivalent => f.write_str("equivalent"),
            Judgement::FloorAboveMargin => f.write_str(
                "cannot tell: the interval lies inside the margin, but identical code differs \
                 by as much on this setup",
            ),
            Judgement::Short {
                leaning: Some((claim, bound)),
            } => write!(
                f,
                "cannot tell: {claim} by at least {}, too little to claim",
                Pct(*bound)
            ),
            Judgement::Short { leaning: None } => {
                f.write_str("cannot tell: the interval allows either direction")
            }
        }
    }
}

/// The judge (the lower-bound rule): a claim is made only when the end of the interval least
/// favourable to it clears the bar's tolerance, the larger of the threshold and the floor.
///
/// In order: [`Judgement::Clears`] with [`Claim::Slower`] when `bounds.slower_by` exceeds the
/// tolerance, else with [`Claim::Faster`] when `bounds.faster_by` does; else, when
/// `equivalence` is asked about and `bounds.at_most` is below the threshold,
/// [`Judgement::Equivalent`] if the floor is below the threshold too and
/// [`Judgement::FloorAboveMargin`] if not; else [`Judgement::Short`]. The comparisons are
/// strict, so a threshold of 0 still demands an interval that excludes zero. Pure; NaN bounds
/// clear nothing and give `Short { leaning: None }`.
///
/// ```
/// use rtcompare::stats::{Bar, Bounds, Claim, Judgement, Scale, judge};
///
/// // The candidate is 3–5 % slower (δ = 1 − baseline/candidate in [0.03, 0.05]).
/// let b = Bounds::of_interval(0.03, 0.05, Scale::Slowdown)?;
/// assert_eq!(
///     judge(b, Bar::new(0.02, 0.0)?, false),
///     Judgement::Clears { claim: Claim::Slower, bound: 0.03 }
/// );
/// // Against an A/A floor of 4 % the same interval proves too little.
/// assert_eq!(judge(b, Bar::new(0.02, 0.04)?, false).claim(), None);
/// // Within ±1 %, with equivalence asked about at a 2 % margin.
/// let tight = Bounds::of_interval(-0.01, 0.01, Scale::Speedup)?;
/// assert_eq!(judge(tight, Bar::new(0.02, 0.0)?, true), Judgement::Equivalent);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn judge(bounds: Bounds, bar: Bar, equivalence: bool) -> Judgement {
    let tolerance = bar.tolerance();
    if bounds.slower_by > tolerance {
        Judgement::Clears {
            claim: Claim::Slower,
            bound: bounds.slower_by,
        }
    } else if bounds.faster_by > tolerance {
        Judgement::Clears {
            claim: Claim::Faster,
            bound: bounds.faster_by,
        }
    } else if equivalence && bounds.at_most < bar.threshold {
        if bar.floor < bar.threshold {
            Judgement::Equivalent
        } else {
            Judgement::FloorAboveMargin
        }
    } else {
        let leaning = if bounds.slower_by > 0.0 {
            Some((Claim::Slower, bounds.slower_by))
        } else if bounds.faster_by > 0.0 {
            Some((Claim::Faster, bounds.faster_by))
        } else {
            None
        };
        Judgement::Short { leaning }
    }
}

/// The regression check that `--fail-on-regression BUDGET` and
/// [`assert_not_slower!`](crate::assert_not_slower) apply: whether the candidate fails a
/// budget of `budget` (a fraction; 0, less or NaN: any proven slowdown).
///
/// It fails when two things hold: the interval proves it slower ([`judge`] at a threshold of
/// 0 and the A/A `floor` finds [`Claim::Slower`], so zero and the floor lie below the whole
/// interval), and its estimated slowdown `change` (the point estimate, + = slower, such as
/// the `change` of a [`Change`](crate::stats::Change)) exceeds the budget. A budget is a size of change,
/// so it is held to the best estimate of the size; the interval answers whether there is a
/// slowdown at all. Demanding the whole interval beyond the budget instead would pass a
/// slowdown of budget plus the interval's half-width half the time (3.4 % under a 2 % budget
/// at ±1.4 %). Pure; a NaN `change` or bound fails nothing.
///
/// ```
/// use rtcompare::stats::{Bounds, Scale, over_budget};
///
/// // 2.8 % slower [+1.4 %, +4.2 %]: proven slower, and over a 2 % budget by its estimate.
/// let b = Bounds::of_interval(0.014, 0.042, Scale::Slowdown)?;
/// assert!(over_budget(b, 0.0, 0.028, 0.02));
/// assert!(!over_budget(b, 0.0, 0.028, 0.03));
/// // 2.5 % [−0.3 %, +5.3 %]: over the budget by its estimate, but not proven slower.
/// let wide = Bounds::of_interval(-0.003, 0.053, Scale::Slowdown)?;
/// assert!(!over_budget(wide, 0.0, 0.025, 0.02));
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn over_budget(bounds: Bounds, floor: f64, change: f64, budget: f64) -> bool {
    change > budget.max(0.0)
        && judge(bounds, Bar::threshold(0.0).with_floor(floor), false).is_slower()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bar(threshold: f64, floor: f64) -> Bar {
        Bar::new(threshold, floor).unwrap()
    }

    #[test]
    fn a_budget_is_held_to_the_estimate_of_a_proven_slowdown() {
        let slowdown =
            |low: f64, high: f64| Bounds::of_interval(low, high, Scale::Slowdown).unwrap();
        // Straddling the budget: the estimate decides, once the interval excludes zero.
        assert!(over_budget(slowdown(0.014, 0.042), 0.0, 0.028, 0.02));
        assert!(!over_budget(slowdown(0.009, 0.031), 0.0, 0.019, 0.02));
        // Wholly beyond the budget fails; wholly inside passes.
        assert!(over_budget(slowdown(0.04, 0.06), 0.0, 0.05, 0.02));
        assert!(!over_budget(slowdown(-0.01, 0.01), 0.0, 0.0, 0.02));
        // Not proven slower: past zero, or not past the A/A floor.
        assert!(!over_budget(slowdown(-0.002, 0.06), 0.0, 0.029, 0.02));
        assert!(!over_budget(slowdown(0.014, 0.042), 0.02, 0.028, 0.02));
        // A budget of 0 is any proven slowdown; a NaN estimate or floor fails nothing.
        assert!(over_budget(slowdown(0.001, 0.003), 0.0, 0.002, 0.0));
        assert!(!over_budget(slowdown(0.014, 0.042), 0.0, f64::NAN, 0.02));
        assert!(!over_budget(slowdown(0.014, 0.042), f64::NAN, 0.028, 0.02));
        // Faster is never over a budget.
        assert!(!over_budget(slowdown(-0.05, -0.03), 0.0, -0.04, 0.0));
    }

    /// Seeded Monte Carlo of the budget check's rates: estimates drawn around a true slowdown
    /// with the spread of the cross-revision intervals on the Intel guest (half-width ±1.2 %,
    /// σ = 0.6 %), a 95 % interval around each, a 2 % budget.
    #[test]
    fn the_budget_check_fails_what_is_over_the_budget_and_little_else() {
        let mut rng = crate::rng::Rng::new(0xb0d6e7);
        let sigma = 0.006;
        let mut rates = |truth: f64, whole_interval: bool| {
            let n = 20_000;
            let failed = (0..n)
                .filter(|_| {
                    let est = truth + sigma * rng.next_normal();
                    let (low, high) = (est - 1.96 * sigma, est + 1.96 * sigma);
                    let b = Bounds::of_interval(low, high, Scale::Slowdown).unwrap();
                    if whole_interval {
                        judge(b, bar(0.02, 0.0), false).is_slower()
                    } else {
                        over_budget(b, 0.0, est, 0.02)
                    }
                })
                .count();
            failed as f64 / n as f64
        };
        // Normal tails: P(z > 3.33) = 0.04 %, P(z > 1.67) = 4.8 %, P(z > −1.67) = 95.2 %.
        assert!(rates(0.0, false) < 0.005);
        assert!(rates(0.01, false) < 0.07);
        let at_budget = rates(0.02, false);
        assert!((0.45..0.55).contains(&at_budget), "{at_budget}");
        assert!(rates(0.03, false) > 0.92);
        // The rule it replaced (the whole interval beyond the budget) failed a 3 % slowdown
        // only when the estimate cleared 2 % + 1.96σ: P(z > 0.29) = 38 %.
        let old = rates(0.03, true);
        assert!((0.33..0.43).contains(&old), "{old}");
    }

    #[test]
    fn a_claim_needs_its_least_favourable_end_beyond_the_larger_bar() {
        let b = Bounds::of_interval(0.03, 0.05, Scale::Slowdown).unwrap();
        assert_eq!(
            judge(b, bar(0.02, 0.0), false),
            Judgement::Clears {
                claim: Claim::Slower,
                bound: 0.03
            }
        );
        assert_eq!(
            judge(b, bar(0.02, 0.04), false),
            Judgement::Short {
                leaning: Some((Claim::Slower, 0.03))
            }
        );
        // Strict: a bound equal to the bar is not enough, and a bar of 0 needs zero excluded.
        assert!(!judge(b, bar(0.03, 0.0), false).is_slower());
        let across = Bounds::of_interval(-0.01, 0.01, Scale::Slowdown).unwrap();
        assert_eq!(
            judge(across, bar(0.0, 0.0), false),
            Judgement::Short { leaning: None }
        );
        // Equivalence only where asked about, inside ±threshold, with the floor below it.
        assert_eq!(judge(across, bar(0.02, 0.0), true), Judgement::Equivalent);
        assert_eq!(
            judge(across, bar(0.02, 0.02), true),
            Judgement::FloorAboveMargin
        );
        assert_eq!(
            judge(across, bar(0.01, 0.0), true),
            Judgement::Short { leaning: None }
        );
    }

    #[test]
    fn each_scale_reads_the_same_change_the_same_way() {
        // The candidate 6–10 % slower, on either scale.
        let slowdown = Bounds::of_interval(0.06, 0.10, Scale::Slowdown).unwrap();
        let speedup = Bounds::of_interval(-0.10, -0.06, Scale::Speedup).unwrap();
        assert_eq!(slowdown, speedup);
        assert!(judge(slowdown, Bar::threshold(0.05), false).is_slower());
        assert!(!judge(speedup, Bar::threshold(0.06), false).is_slower());
        // Faster is never slower.
        let faster = Bounds::of_interval(0.06, 0.10, Scale::Speedup).unwrap();
        assert_eq!(
            judge(faster, Bar::threshold(0.0), false).claim(),
            Some(Claim::Faster)
        );
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        assert!(Bar::new(-0.01, 0.0).is_err());
        assert!(Bar::new(0.02, f64::NAN).is_err());
        assert!(Bar::new(f64::INFINITY, 0.0).is_err());
        assert!(Bounds::of_interval(0.1, 0.0, Scale::Speedup).is_err());
        assert!(Bounds::of_interval(f64::NAN, 0.0, Scale::Speedup).is_err());
        assert!(Bounds::new(0.01, f64::NAN, 0.02).is_err());
        assert!(Bounds::new(0.01, -0.02, -0.1).is_err());
        // An infinite interval decides nothing.
        let all = Bounds::of_interval(f64::NEG_INFINITY, f64::INFINITY, Scale::Speedup).unwrap();
        assert_eq!(
            judge(all, bar(0.02, 0.0), true),
            Judgement::Short { leaning: None }
        );
        assert_eq!(Bar::threshold(f64::NAN).threshold, 0.0);
        assert_eq!(
            Bar::threshold(0.02).with_floor(f64::NAN).tolerance(),
            f64::INFINITY
        );
        assert_eq!(Bar::threshold(0.02).with_floor(-1.0).tolerance(), 0.02);
        assert_eq!(
            judge(Bounds::unbounded(), bar(0.02, 0.0), true),
            Judgement::Short { leaning: None }
        );
    }

    proptest! {
        /// A claim is made exactly when the interval's far end clears the tolerance, and a
        /// wider bar never turns "no claim" into a claim.
        #[test]
        fn a_claim_follows_the_far_end_and_a_higher_bar_claims_less(
            low in -0.5f64..0.5, width in 0.0f64..0.5, t in 0.0f64..0.2, floor in 0.0f64..0.2,
            more in 0.0f64..0.2,
        ) {
            let high = low + width;
            let b = Bounds::of_interval(low, high, Scale::Speedup).unwrap();
            let j = judge(b, bar(t, floor), false);
            prop_assert_eq!(j.claim() == Some(Claim::Faster), low > t.max(floor));
            prop_assert_eq!(j.is_slower(), -high > t.max(floor));
            if j.claim().is_none() {
                prop_assert!(judge(b, bar(t + more, floor), false).claim().is_none());
            }
        }
    }
}
