//! The verdict: which candidate is faster, or why no verdict can be given, and the rule
//! [`decide`] that turns an estimate, a noise floor and a clock step into one. Pure.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::verdicts`), section "The verdict".

use std::fmt;

use serde::{Deserialize, Serialize};

use super::judge::{Bar, Bounds, Judgement, Scale, judge};
use crate::display::{Pct, SignedPct};
use crate::stats::Estimate;

/// A difference must exceed this many clock steps (as a share of the faster candidate's batch)
/// before it can count as resolved (1.5, as in the reference, where identical code was reported
/// one tick apart with an interval excluding zero in 4 of 30 comparisons before the gate).
pub const QUANTIZATION_GATE: f64 = 1.5;

/// The short answer of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Verdict {
    /// A needs less time than B, and the difference cleared every bar.
    AFaster,
    /// B needs less time than A, and the difference cleared every bar.
    BFaster,
    /// Neither needs more time than the other by more than the margin: the interval lies
    /// inside (−margin, margin) and identical code differs by less than the margin on this
    /// setup. A decision, not a failure to decide; the interval beside the verdict says how
    /// large the difference may still be.
    Equivalent {
        /// The margin the interval lies inside (fraction).
        margin: f64,
    },
    /// No verdict; the reason says which bar was missed.
    CannotTell(Unresolved),
}

impl Verdict {
    /// The reason when the verdict is "cannot tell", else `None`.
    pub fn reason(&self) -> Option<Unresolved> {
        match self {
            Verdict::CannotTell(reason) => Some(*reason),
            _ => None,
        }
    }

    /// Whether a side was proven faster ([`AFaster`](Self::AFaster) or
    /// [`BFaster`](Self::BFaster)).
    pub fn is_resolved(&self) -> bool {
        matches!(self, Verdict::AFaster | Verdict::BFaster)
    }

    /// The verdict with the candidate's change in time, the one wording every front end
    /// prints: `"2.1 % slower [+1.7 %, +2.5 %]"`, `"equivalent within ±2 %: 1.0 % slower
    /// [+0.5 %, +1.5 %]"`, `"cannot tell (within ±2.5 %): 1.0 % slower [−0.5 %, +2.5 %]"`.
    ///
    /// The verdict is read with A as the candidate and B as the baseline (as every front end
    /// runs it); `change` is the candidate's time against the baseline's minus 1, + = slower
    /// (for a report's `δ = 1 − A/B` that is `−δ`, see [`Change::of_delta`]), with its interval.
    ///
    /// "Cannot tell (within ±X)" names the widest change the run cannot rule out: the interval's
    /// farther end, or the A/A noise floor when that is what stopped the verdict
    /// ([`Unresolved::WithinNoiseFloor`], [`Unresolved::FloorAboveMargin`]), since identical
    /// code already differs by that much here, however narrow the interval.
    pub fn in_words_with(&self, change: Change) -> String {
        match self {
            Verdict::AFaster | Verdict::BFaster => change.to_string(),
            Verdict::Equivalent { margin } => {
                format!("equivalent within ±{}: {change}", Pct(*margin))
            }
            Verdict::CannotTell(_) => format!(
                "cannot tell (within ±{}): {change}",
                Pct(change
                    .low
                    .abs()
                    .max(change.high.abs())
                    .max(self.floor_that_stopped().unwrap_or(0.0)))
            ),
        }
    }

    /// The A/A noise floor (fraction) when it is what kept this verdict from a claim or from
    /// equivalence ([`Unresolved::WithinNoiseFloor`], [`Unresolved::FloorAboveMargin`]):
    /// the smallest change the run could have told apart, however narrow its interval.
    pub(crate) fn floor_that_stopped(&self) -> Option<f64> {
        match *self {
            Verdict::CannotTell(
                Unresolved::WithinNoiseFloor { noise_floor, .. }
                | Unresolved::FloorAboveMargin { noise_floor, .. },
            ) => Some(noise_floor),
            _ => None,
        }
    }

    /// The verdict in a few words, naming the sides `a` and `b`: `"{a} faster"`,
    /// `"{b} faster"`, `"equivalent"` or `"cannot tell"`. The one short wording every table of
    /// the crate uses.
    pub(crate) fn in_words(&self, a: &str, b: &str) -> String {
        match self {
            Verdict::AFaster => format!("{a} faster"),
            Verdict::BFaster => format!("{b} faster"),
            Verdict::Equivalent { .. } => "equivalent".to_string(),
            Verdict::CannotTell(_) => "cannot tell".to_string(),
        }
    }
}

/// The candidate's change in time against the baseline, with its interval: fractions, plus
/// meaning the candidate needs more time (0.021 = 2.1 % slower). The one direction every
/// number a person reads is printed in; `Display` says it in words:
/// `2.1 % slower [+1.7 %, +2.5 %]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The point estimate (fraction; + = slower).
    pub change: f64,
    /// Lower end of its interval (fraction).
    pub low: f64,
    /// Upper end of its interval (fraction).
    pub high: f64,
}

impl Change {
    /// The change of the candidate A from a relative difference `δ = 1 − A/B` (positive when
    /// A is faster) and its interval: `−δ`, with the ends swapped. A NaN stays NaN.
    pub fn of_delta(delta: f64, low: f64, high: f64) -> Change {
        Change {
            change: -delta,
            low: -high,
            high: -low,
        }
    }

    /// The change from a ratio of times, candidate over baseline, and its interval:
    /// `ratio − 1`.
    pub(crate) fn of_ratio(ratio: f64, low: f64, high: f64) -> Change {
        Change {
            change: ratio - 1.0,
            low: low - 1.0,
            high: high - 1.0,
        }
    }
}

impl fmt::Display for Change {
    /// `2.1 % slower [+1.7 %, +2.5 %]`, `0.45 % faster [−0.60 %, −0.30 %]`, `no change
    /// [−0.10 %, +0.10 %]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = if self.change > 0.0 {
            "slower"
        } else if self.change < 0.0 {
            "faster"
        } else {
            "no change"
        };
        if self.change == 0.0 {
            f.write_str(word)?;
        } else {
            write!(f, "{} {word}", Pct(self.change.abs()))?;
        }
        write!(f, " [{}, {}]", SignedPct(self.low), SignedPct(self.high))
    }
}

/// Why a comparison could not call a winner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "bar", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Unresolved {
    /// The interval contains zero: the data are consistent with no difference at all. More
    /// samples or a quieter machine may resolve it.
    IntervalContainsZero {
        /// Lower end of the interval (fraction).
        low: f64,
        /// Upper end of the interval (fraction).
        high: f64,
    },
    /// The interval and the point estimate disagree on the direction: the estimate is
    /// unstable.
    Unstable {
        /// The point estimate (fraction).
        delta: f64,
        /// Lower end of the interval (fraction).
        low: f64,
        /// Upper end of the interval (fraction).
        high: f64,
    },
    /// The difference is real but no larger than what identical code measured against itself
    /// showed on this setup.
    WithinNoiseFloor {
        /// The point estimate (fraction).
        delta: f64,
        /// The larger A/A noise floor (fraction).
        noise_floor: f64,
    },
    /// The difference is no larger than `QUANTIZATION_GATE` (1.5) clock steps of the faster
    /// candidate's batch: the clock could have rounded it into existence.
    BelowQuantization {
        /// The point estimate (fraction).
        delta: f64,
        /// The gate: 1.5 clock steps as a share of the faster candidate's batch (fraction).
        gate: f64,
    },
    /// Pooled processes resolved in both directions: at least a fifth of them
    /// (`OPPOSITE_SHARE` (0.2)) resolved against the pooled
    /// direction, or a fifth each way. Each process landed in a state (a layout, a placement)
    /// that decides the winner, so the mean is no typical difference, and more samples cannot
    /// merge the modes.
    OppositeModes {
        /// Share of the processes whose own interval says A is faster, in [0, 1].
        a_faster_share: f64,
        /// Median delta of those processes (fraction).
        a_faster_centre: f64,
        /// Share of the processes whose own interval says B is faster, in [0, 1].
        b_faster_share: f64,
        /// Median delta of those processes (fraction).
        b_faster_centre: f64,
    },
    /// The per-process deltas trend with the process index (Spearman's test over the index,
    /// significant at `PROCESS_DRIFT_LEVEL` (0.05)) by more than
    /// twice the pooled interval's half-width: the processes are not exchangeable draws, so the
    /// pooled mean depends on when the run stopped.
    ProcessDrift {
        /// Spearman's rank correlation between delta and process index, in [−1, 1].
        spearman: f64,
        /// Its two-sided p-value.
        p_value: f64,
        /// Median delta of the first half of the processes (fraction).
        first_half: f64,
        /// Median delta of the second half (fraction).
        second_half: f64,
    },
    /// Pooled processes failed in a way that biases what is left: at least one timed out or
    /// passed its deadline (the slow draws are missing), or more than a fifth of those
    /// started failed.
    FailedProcesses {
        /// Processes that failed, of any cause.
        failed: usize,
        /// Processes started.
        started: usize,
        /// Of the failed, those killed by the process timeout or cancelled by a deadline.
        timed_out: usize,
    },
    /// The program built this much before the pool's closure began, in the same order in
    /// every process, and nothing through the pool's `Child::build`: the order in which large
    /// structures are built can decide which is faster, identically in every process, so the
    /// processes cannot tell the code from the order. Refused unless the user says the data
    /// are shared or their order does not matter (`PoolOptions::accept_fixed_build_order`).
    FixedBuildOrder {
        /// Median over processes of the resident memory added before the closure, in bytes.
        bytes: u64,
    },
    /// One of several comparisons judged together: on its own it would resolve, but Holm's
    /// step-down procedure over all of them (which keeps the chance of any false verdict in
    /// the family at most α) does not reject "no difference" for it.
    Multiplicity {
        /// Its Holm-adjusted p-value.
        adjusted_p: f64,
        /// The family-wise significance level α.
        alpha: f64,
        /// Comparisons in the family.
        comparisons: usize,
    },
    /// The difference is real (its interval excludes zero) but the interval reaches across
    /// the margin: it may be smaller than the difference that matters or larger, and this run
    /// cannot say which.
    StraddlesMargin {
        /// The margin (fraction).
        margin: f64,
        /// Lower end of the interval (fraction).
        low: f64,
        /// Upper end of the interval (fraction).
        high: f64,
    },
    /// The interval lies inside (−margin, margin), but identical code already differs by as
    /// much as the margin on this setup (the A/A noise floor), so equivalence that tight
    /// cannot be shown here.
    FloorAboveMargin {
        /// The A/A noise floor (fraction).
        noise_floor: f64,
        /// The margin (fraction).
        margin: f64,
    },
}

impl fmt::Display for Unresolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unresolved::IntervalContainsZero { low, high } => write!(
                f,
                "the interval of A's change [{}, {}] contains zero, so this run does not \
                 separate A from B; collect more samples or quieten the machine",
                SignedPct(-high),
                SignedPct(-low)
            ),
            Unresolved::Unstable { delta, low, high } => write!(
                f,
                "A's change {} lies outside its own interval [{}, {}], so it is unstable; \
                 collect more samples",
                SignedPct(-delta),
                SignedPct(-high),
                SignedPct(-low)
            ),
            Unresolved::WithinNoiseFloor { delta, noise_floor } => write!(
                f,
                "the difference ({}) is real but does not exceed the noise floor ({}): \
                 identical code differs that much on this setup",
                Pct(delta.abs()),
                Pct(noise_floor)
            ),
            Unresolved::BelowQuantization { delta, gate } => write!(
                f,
                "the difference ({}) is within {QUANTIZATION_GATE} clock steps of a batch ({}); \
                 lengthen the batches with a smaller max_quantization_error",
                Pct(delta.abs()),
                Pct(gate)
            ),
            Unresolved::OppositeModes {
                a_faster_share,
                a_faster_centre,
                b_faster_share,
                b_faster_centre,
            } => fmt_opposite_modes(
                f,
                a_faster_share,
                a_faster_centre,
                b_faster_share,
                b_faster_centre,
            ),
            Unresolved::ProcessDrift {
                spearman,
                p_value,
                first_half,
                second_half,
            } => fmt_process_drift(f, spearman, p_value, first_half, second_half),
            Unresolved::FailedProcesses {
                failed,
                started,
                timed_out,
            } => fmt_failed_processes(f, failed, started, timed_out),
            Unresolved::FixedBuildOrder { bytes } => fmt_fixed_build_order(f, bytes),
            Unresolved::Multiplicity {
                adjusted_p,
                alpha,
                comparisons,
            } => fmt_multiplicity(f, adjusted_p, alpha, comparisons),
            Unresolved::StraddlesMargin { margin, low, high } => {
                fmt_straddles_margin(f, margin, low, high)
            }
            Unresolved::FloorAboveMargin {
                noise_floor,
                margin,
            } => write!(
                f,
                "the interval lies inside the margin ±{}, but identical code differs by {} on \
                 this setup, so equivalence that tight cannot be shown here; widen the margin \
                 or quieten the machine",
                Pct(margin),
                Pct(noise_floor)
            ),
        }
    }
}

/// Writes [`Unresolved::OppositeModes`]: the share and centre of each mode.
fn fmt_opposite_modes(
    f: &mut fmt::Formatter<'_>,
    a_faster_share: f64,
    a_faster_centre: f64,
    b_faster_share: f64,
    b_faster_centre: f64,
) -> fmt::Result {
    write!(
        f,
        "the processes disagree on the winner: {:.0} % of them resolved A faster \
         (A's change around {}) and {:.0} % resolved B faster (around {}); which one wins depends \
         on the state each process landed in, not on sampling noise, so more samples \
         will not settle it: read the modes, or find what the layout changes",
        100.0 * a_faster_share,
        SignedPct(-a_faster_centre),
        100.0 * b_faster_share,
        SignedPct(-b_faster_centre)
    )
}

/// Writes [`Unresolved::ProcessDrift`]: the trend of the deltas over the process index.
fn fmt_process_drift(
    f: &mut fmt::Formatter<'_>,
    spearman: f64,
    p_value: f64,
    first_half: f64,
    second_half: f64,
) -> fmt::Result {
    write!(
        f,
        "A's change drifts with the process index (Spearman ρ = {:+.2}, \
         p = {p_value:.4}; first half around {}, second half around {}): later \
         processes are not draws of the same machine state, so the mean depends on \
         when the run stopped; quieten the machine and run again",
        -spearman,
        SignedPct(-first_half),
        SignedPct(-second_half)
    )
}

/// Writes [`Unresolved::FailedProcesses`], saying when some of them timed out.
fn fmt_failed_processes(
    f: &mut fmt::Formatter<'_>,
    failed: usize,
    started: usize,
    timed_out: usize,
) -> fmt::Result {
    write!(f, "{failed} of {started} processes failed")?;
    if timed_out > 0 {
        write!(
            f,
            " ({timed_out} by timeout or deadline, so the slowest draws are \
             missing)"
        )?;
    }
    f.write_str(
        ": the pool leans toward the processes that finished; fix the failures \
         (their reasons are in the warnings) or raise the time limits",
    )
}

/// Writes [`Unresolved::FixedBuildOrder`]: what was built first, and the two ways out.
fn fmt_fixed_build_order(f: &mut fmt::Formatter<'_>, bytes: u64) -> fmt::Result {
    write!(
        f,
        "the program built {:.0} MiB before the pool's closure, in the same order in \
         every process; identical structures built in a fixed order can differ by \
         several percent in every process, so the pool cannot tell the code from the \
         order: build what A and B use with ctx.build(a, b), which alternates the order, \
         or, if A and B share these data, say so with \
         PoolOptions::accept_fixed_build_order(true)",
        bytes as f64 / (1u64 << 20) as f64
    )
}

/// Writes [`Unresolved::Multiplicity`].
fn fmt_multiplicity(
    f: &mut fmt::Formatter<'_>,
    adjusted_p: f64,
    alpha: f64,
    comparisons: usize,
) -> fmt::Result {
    write!(
        f,
        "one of {comparisons} comparisons judged together: its Holm-adjusted p-value \
         {adjusted_p:.3} is above the family-wise level {alpha}, so calling it would \
         let the family's chance of a false verdict exceed {alpha}"
    )
}

/// Writes [`Unresolved::StraddlesMargin`].
fn fmt_straddles_margin(
    f: &mut fmt::Formatter<'_>,
    margin: f64,
    low: f64,
    high: f64,
) -> fmt::Result {
    write!(
        f,
        "the difference is real, but the interval of A's change [{}, {}] reaches across \
         the margin ±{}, so it may or may not matter; collect more samples to tell",
        SignedPct(-high),
        SignedPct(-low),
        Pct(margin)
    )
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::AFaster => f.write_str(
                "RESOLVED. A is faster than B: the difference is real, as its interval excludes \
                 zero and it exceeds the noise floor and the clock's resolution",
            ),
            Verdict::BFaster => f.write_str(
                "RESOLVED. B is faster than A: the difference is real, as its interval excludes \
                 zero and it exceeds the noise floor and the clock's resolution",
            ),
            Verdict::Equivalent { margin } => write!(
                f,
                "EQUIVALENT. Neither is faster than the other by more than ±{}: the interval \
                 lies inside the margin, and identical code differs by less on this setup",
                Pct(*margin)
            ),
            Verdict::CannotTell(reason) => {
                // The reason reads mid-sentence elsewhere ("cannot tell (the interval …)");
                // here it opens one.
                let reason = reason.to_string();
                let mut chars = reason.chars();
                let first = chars.next().map(|c| c.to_uppercase().to_string());
                write!(
                    f,
                    "CANNOT TELL. {}{}",
                    first.unwrap_or_default(),
                    chars.as_str()
                )
            }
        }
    }
}

/// The one rule that turns an interval into a verdict, for every front end: a side is proven
/// faster only when the interval's end nearer zero lies beyond the bar, the larger of `margin`
/// and `noise_floor`; the two are [`Verdict::Equivalent`] when the interval lies inside
/// (−`margin`, `margin`), identical code differs by less than the margin and so does the clock
/// (`QUANTIZATION_GATE` (1.5) × `quantization`). Everything else
/// is "cannot tell", naming the first bar missed: the interval contains zero, the point
/// estimate disagrees with it, the difference does not clear the floor, it is within
/// `QUANTIZATION_GATE` (1.5) × `quantization` (what the clock could round into existence), or its
/// interval reaches across the margin. All arguments are fractions on δ's scale (δ > 0: A
/// needs less time); a negative or NaN `margin` or floor counts as 0 and as infinite
/// respectively, so that no claim clears a floor nobody knows.
///
/// ```
/// use rtcompare::{Verdict, stats::{estimate_difference, EstimateOptions}};
/// use rtcompare::stats::decide;
/// let a = [90.0, 91.0, 89.0, 90.5, 90.0, 89.5, 90.2, 90.1, 89.9, 90.3, 90.0];
/// let b = [100.0, 101.0, 99.0, 100.5, 100.0, 99.5, 100.2, 100.1, 99.9, 100.3, 100.0];
/// let e = estimate_difference(&a, &b, &EstimateOptions::default().paired(true).seed(1))?;
/// // A takes about 10 % less time: beyond a 2 % margin and a 1 % floor.
/// assert_eq!(decide(&e, 0.02, 0.01, 0.0001), Verdict::AFaster);
/// // Against a 20 % margin the same interval lies inside it.
/// assert_eq!(decide(&e, 0.20, 0.01, 0.0001), Verdict::Equivalent { margin: 0.20 });
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn decide(estimate: &Estimate, margin: f64, noise_floor: f64, quantization: f64) -> Verdict {
    let Estimate {
        delta, low, high, ..
    } = *estimate;
    let margin = if margin > 0.0 { margin } else { 0.0 };
    let bar = Bar::threshold(margin).with_floor(noise_floor);
    let Ok(bounds) = Bounds::of_interval(low, high, Scale::Speedup) else {
        return Verdict::CannotTell(Unresolved::IntervalContainsZero { low, high });
    };
    let gate = QUANTIZATION_GATE * quantization;
    match judge(bounds, bar, true) {
        // Ties to a coarse clock can pin an interval at [0, 0] whatever the difference below
        // a clock step: equivalence finer than the step is not shown.
        Judgement::Equivalent if gate >= margin => {
            return Verdict::CannotTell(Unresolved::BelowQuantization { delta, gate });
        }
        Judgement::Equivalent => return Verdict::Equivalent { margin },
        Judgement::FloorAboveMargin => {
            return Verdict::CannotTell(Unresolved::FloorAboveMargin {
                noise_floor: bar.floor,
                margin,
            });
        }
        _ => {}
    }
    if !estimate.excludes(0.0) {
        return Verdict::CannotTell(Unresolved::IntervalContainsZero { low, high });
    }
    if (low > 0.0) != (delta > 0.0) || delta == 0.0 {
        return Verdict::CannotTell(Unresolved::Unstable { delta, low, high });
    }
    // The end of the interval nearer zero: the least difference it guarantees.
    let near = low.abs().min(high.abs());
    if near <= bar.floor {
        return Verdict::CannotTell(Unresolved::WithinNoiseFloor {
            delta,
            noise_floor: bar.floor,
        });
    }
    if delta.abs() <= gate {
        return Verdict::CannotTell(Unresolved::BelowQuantization { delta, gate });
    }
    if near <= margin {
        return Verdict::CannotTell(Unresolved::StraddlesMargin { margin, low, high });
    }
    if delta > 0.0 {
        Verdict::AFaster
    } else {
        Verdict::BFaster
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::stats::{self, EstimateOptions};

    /// An estimate with any point and interval, even an inconsistent one (the verdict rule
    /// must name it), for the rule's tests and the warnings'.
    pub(crate) fn est(delta: f64, low: f64, high: f64) -> Estimate {
        let a = [100.0; 11];
        let mut e =
            stats::estimate_difference(&a, &a, &EstimateOptions::default().seed(1)).unwrap();
        e.delta = delta;
        e.low = low;
        e.high = high;
        e
    }

    #[test]
    fn cannot_tell_names_the_floor_when_the_floor_stopped_it() {
        // A narrow interval inside the margin, on a setup whose identical code differs by
        // 0.88 %: the words named the interval's ±0.12 % as what the run could not rule out.
        let change = Change {
            change: -0.0004,
            low: -0.0012,
            high: 0.0010,
        };
        let floor = Verdict::CannotTell(Unresolved::FloorAboveMargin {
            noise_floor: 0.0088,
            margin: 0.005,
        });
        assert!(
            floor
                .in_words_with(change)
                .starts_with("cannot tell (within ±0.88 %): 0.04 % faster"),
            "{}",
            floor.in_words_with(change)
        );
        // Where the interval stopped it, the interval's farther end.
        let wide = Verdict::CannotTell(Unresolved::IntervalContainsZero {
            low: -0.025,
            high: 0.005,
        });
        let change = Change {
            change: 0.01,
            low: -0.005,
            high: 0.025,
        };
        assert!(
            wide.in_words_with(change)
                .starts_with("cannot tell (within ±2.5 %)")
        );
    }

    #[test]
    fn reasons_read_as_sentences_and_equivalence_says_so() {
        // The multiplicity reason ran its lines together with a run of spaces.
        let m = Unresolved::Multiplicity {
            adjusted_p: 0.2,
            alpha: 0.05,
            comparisons: 4,
        }
        .to_string();
        assert!(!m.contains("  "), "{m:?}");
        let v = Verdict::Equivalent { margin: 0.02 };
        let text = v.to_string();
        assert!(
            text.starts_with("EQUIVALENT. Neither is faster than the other by more than ±2"),
            "{text}"
        );
        assert!(!text.contains("  "), "{text}");
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, r#"{"outcome":"equivalent","margin":0.02}"#);
        for reason in [
            Unresolved::StraddlesMargin {
                margin: 0.02,
                low: 0.01,
                high: 0.03,
            },
            Unresolved::FloorAboveMargin {
                noise_floor: 0.03,
                margin: 0.02,
            },
        ] {
            let text = reason.to_string();
            assert!(!text.contains("  "), "{text}");
        }
    }

    #[test]
    fn decide_names_the_first_bar_missed() {
        let d = |e: Estimate, floor: f64, q: f64| decide(&e, 0.0, floor, q);
        assert_eq!(d(est(0.1, 0.08, 0.12), 0.01, 0.001), Verdict::AFaster);
        assert_eq!(d(est(-0.1, -0.12, -0.08), 0.01, 0.001), Verdict::BFaster);
        assert!(matches!(
            d(est(0.01, -0.01, 0.03), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::IntervalContainsZero { .. })
        ));
        assert!(matches!(
            d(est(0.0, 0.0, 0.01), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::IntervalContainsZero { .. })
        ));
        assert!(matches!(
            d(est(-0.001, 0.001, 0.01), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::Unstable { .. })
        ));
        // The floor is cleared by the interval's nearer end, not by the point estimate.
        assert!(matches!(
            d(est(0.012, 0.008, 0.016), 0.01, 0.0),
            Verdict::CannotTell(Unresolved::WithinNoiseFloor { .. })
        ));
        assert!(matches!(
            d(est(0.01, 0.008, 0.012), 0.005, 0.01),
            Verdict::CannotTell(Unresolved::BelowQuantization { .. })
        ));
    }

    #[test]
    fn the_margin_decides_between_a_claim_equivalence_and_cannot_tell() {
        // A real 1 % difference, measured tightly, against a 2 % margin: equivalent.
        assert_eq!(
            decide(&est(-0.01, -0.015, -0.005), 0.02, 0.001, 0.0),
            Verdict::Equivalent { margin: 0.02 }
        );
        // Beyond the margin: a claim.
        assert_eq!(
            decide(&est(-0.05, -0.055, -0.045), 0.02, 0.001, 0.0),
            Verdict::BFaster
        );
        // Real, but reaching across the margin.
        assert!(matches!(
            decide(&est(0.02, 0.015, 0.025), 0.02, 0.001, 0.0),
            Verdict::CannotTell(Unresolved::StraddlesMargin { .. })
        ));
        // Inside the margin, but identical code differs by more: no equivalence.
        assert!(matches!(
            decide(&est(0.0, -0.01, 0.01), 0.02, 0.03, 0.0),
            Verdict::CannotTell(Unresolved::FloorAboveMargin { .. })
        ));
        // A floor nobody knows (NaN) lets nothing through.
        assert!(matches!(
            decide(&est(0.1, 0.08, 0.12), 0.02, f64::NAN, 0.0),
            Verdict::CannotTell(Unresolved::WithinNoiseFloor { .. })
        ));
        // Identical code measured to a fine clock step: equivalent, not a failure.
        assert_eq!(
            decide(&est(0.0, 0.0, 0.0), 0.005, 0.0008, 0.001),
            Verdict::Equivalent { margin: 0.005 }
        );
        // Ties to a clock step coarser than the margin pin [0, 0] whatever the difference.
        assert!(matches!(
            decide(&est(0.0, 0.0, 0.0), 0.005, 0.0008, 0.01),
            Verdict::CannotTell(Unresolved::BelowQuantization { .. })
        ));
    }
}
