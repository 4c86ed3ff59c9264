//! The one rule every verdict of the command line rests on, whatever measured it: `cmd`'s
//! bootstrap and sequential rules, `bench`'s and `combine`'s `--fail-on-regression` gates.
//!
//! **The lower-bound rule.** A difference is claimed only when the end of its interval least
//! favourable to the claim clears the bar, the larger of the threshold (the margin, the
//! budget) and the A/A floor: an interval that excludes zero but reaches below the bar is a
//! real difference too small to claim. Where the rule also decides equivalence (the
//! sequential rule), an interval that lies inside ±threshold is "equivalent". Everything else
//! is "cannot tell". The comparison is strict, so a bar of 0 still demands an interval that
//! excludes zero.
//!
//! **Roles and signs.** The baseline is the side judged against (`cmd`'s reference, `bench`'s
//! baseline revision, A of a pooled `compare`) and the candidate the side judged (the command,
//! the head, B). Each reader turns its own interval into [`Bounds`], the sizes of the claims it
//! supports on its own documented scale, once; the rule itself has no sign and no scale of its
//! own, so no caller flips a sign to ask it.

/// What a claim must clear: the threshold (or margin, or budget) and the A/A floor, fractions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bar {
    /// The smallest difference worth claiming, fixed before measuring; also the margin of
    /// equivalence.
    pub(crate) threshold: f64,
    /// What identical code differs by on this setup (0 when not measured).
    pub(crate) floor: f64,
}

impl Bar {
    /// A gate's budget alone: no floor of its own (the intervals it reads already carry theirs).
    pub(crate) fn budget(budget: f64) -> Bar {
        Bar {
            threshold: budget,
            floor: 0.0,
        }
    }

    /// What a claim's bound must exceed: the larger of the threshold and the floor.
    pub(crate) fn tolerance(self) -> f64 {
        self.threshold.max(self.floor)
    }
}

/// How large a change an interval guarantees for each claim, at its least favourable end: a
/// fraction on the scale the reader states, above 0 when the interval excludes no change in
/// that direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bounds {
    /// The candidate is slower than the baseline by at least this.
    pub(crate) slower_by: f64,
    /// The candidate is faster than the baseline by at least this.
    pub(crate) faster_by: f64,
    /// The largest change either way the interval still allows (for equivalence).
    pub(crate) at_most: f64,
}

impl Bounds {
    /// The bounds of an interval `[low, high]` on a relative difference δ whose sign is
    /// `slower` (δ > 0 means the candidate is slower when `positive_is_slower`, faster
    /// otherwise): `cmd`'s δ = 1 − reference/command, `bench`'s δ = 1 − head/baseline and a
    /// pooled compare's δ = 1 − A/B.
    pub(crate) fn of_delta(low: f64, high: f64, positive_is_slower: bool) -> Bounds {
        let (slower_by, faster_by) = if positive_is_slower {
            (low, -high)
        } else {
            (-high, low)
        };
        Bounds {
            slower_by,
            faster_by,
            at_most: high.abs().max(low.abs()),
        }
    }
}

/// A claim about the candidate against the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Claim {
    /// The candidate needs more time.
    Slower,
    /// The candidate needs less time.
    Faster,
}

/// What the rule found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Judgement {
    /// The claim's bound clears the bar's tolerance.
    Clears {
        /// The claim.
        claim: Claim,
        /// Its bound, the least the interval guarantees.
        bound: f64,
    },
    /// The interval lies inside ±threshold: no change beyond it (only where asked for).
    Equivalent,
    /// Neither: the interval leans towards a claim (its bound above 0) too small to make, or
    /// towards none.
    Short {
        /// The claim the interval excludes no change for, with its bound.
        leaning: Option<(Claim, f64)>,
    },
}

impl Judgement {
    /// Whether this judgement proves the candidate slower: what a regression gate acts on.
    pub(crate) fn is_slower(self) -> bool {
        matches!(
            self,
            Judgement::Clears {
                claim: Claim::Slower,
                ..
            }
        )
    }
}

/// The lower-bound rule (see the module documentation): slower when `bounds.slower_by`
/// exceeds the bar's tolerance, else faster when `bounds.faster_by` does, else (with
/// `equivalence`) equivalent when `bounds.at_most` is below the threshold, else short.
pub(crate) fn judge(bounds: Bounds, bar: Bar, equivalence: bool) -> Judgement {
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
        Judgement::Equivalent
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

/// The gate of `--fail-on-regression BUDGET` on a resolved interval `[low, high]` on δ (sign
/// as in [`Bounds::of_delta`]): the whole interval of the slowdown beyond the budget.
pub(crate) fn regression(
    resolved: bool,
    low: f64,
    high: f64,
    positive_is_slower: bool,
    budget: f64,
) -> bool {
    resolved
        && judge(
            Bounds::of_delta(low, high, positive_is_slower),
            Bar::budget(budget),
            false,
        )
        .is_slower()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(threshold: f64, floor: f64) -> Bar {
        Bar { threshold, floor }
    }

    #[test]
    fn a_claim_needs_its_least_favourable_end_beyond_the_larger_bar() {
        // The candidate 3–5 % slower: slower against 2 %, short against a 4 % floor.
        let b = Bounds::of_delta(0.03, 0.05, true);
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
        let across = Bounds::of_delta(-0.01, 0.01, true);
        assert_eq!(
            judge(across, bar(0.0, 0.0), false),
            Judgement::Short { leaning: None }
        );
        // Equivalence only where asked for, inside ±threshold.
        assert_eq!(judge(across, bar(0.02, 0.0), true), Judgement::Equivalent);
        assert_eq!(
            judge(across, bar(0.01, 0.0), true),
            Judgement::Short { leaning: None }
        );
    }

    #[test]
    fn each_sign_reads_the_same_interval_the_same_way() {
        // The candidate 6–10 % slower, in cmd's sign and in bench's.
        let cmd = Bounds::of_delta(0.06, 0.10, true);
        let bench = Bounds::of_delta(-0.10, -0.06, false);
        assert_eq!(cmd, bench);
        assert!(regression(true, 0.06, 0.10, true, 0.05));
        assert!(regression(true, -0.10, -0.06, false, 0.05));
        assert!(!regression(true, -0.10, -0.06, false, 0.06));
        assert!(!regression(false, 0.06, 0.10, true, 0.05));
        // Faster is never a regression.
        assert!(!regression(true, 0.06, 0.10, false, 0.0));
    }
}
