//! The verdict: which candidate is faster, or why no verdict can be given, and the rule
//! [`decide`] that turns an estimate, a noise floor and a clock step into one. Pure.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::verdicts`), section "The verdict".

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::display::Pct;
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

    /// The verdict in a few words, naming the sides `a` and `b`: `"{a} faster"`,
    /// `"{b} faster"`, `"equivalent"` (a sequential decision's "cannot tell" that found no
    /// change beyond its margin) or `"cannot tell"`. The one short wording every table of the
    /// crate uses.
    pub fn in_words(&self, a: &str, b: &str) -> String {
        match self {
            Verdict::AFaster => format!("{a} faster"),
            Verdict::BFaster => format!("{b} faster"),
            Verdict::CannotTell(Unresolved::Equivalent { .. }) => "equivalent".to_string(),
            Verdict::CannotTell(_) => "cannot tell".to_string(),
        }
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
    /// The difference is no larger than [`QUANTIZATION_GATE`] clock steps of the faster
    /// candidate's batch: the clock could have rounded it into existence.
    BelowQuantization {
        /// The point estimate (fraction).
        delta: f64,
        /// The gate: 1.5 clock steps as a share of the faster candidate's batch (fraction).
        gate: f64,
    },
    /// Pooled processes resolved in both directions: at least a fifth of them
    /// ([`OPPOSITE_SHARE`](crate::stats::OPPOSITE_SHARE)) resolved against the pooled
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
    /// significant at [`PROCESS_DRIFT_LEVEL`](crate::stats::PROCESS_DRIFT_LEVEL)) by more than
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
    /// Neither is faster by more than the margin: a sequential decision's interval
    /// ([`sequential_look`](crate::stats::sequential_look)) lies inside (−margin, margin), so
    /// any difference there is smaller than the user said matters. A decision, not a failure
    /// to decide: the summary calls it "equivalent".
    Equivalent {
        /// The margin (fraction).
        margin: f64,
        /// Lower end of the deciding interval (fraction).
        low: f64,
        /// Upper end.
        high: f64,
    },
}

impl fmt::Display for Unresolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unresolved::IntervalContainsZero { low, high } => write!(
                f,
                "its interval [{}, {}] contains zero, so this run does not separate A from B; \
                 collect more samples or quieten the machine",
                Pct(low),
                Pct(high)
            ),
            Unresolved::Unstable { delta, low, high } => write!(
                f,
                "the estimate {} lies outside its own interval [{}, {}], so it is unstable; \
                 collect more samples",
                Pct(delta),
                Pct(low),
                Pct(high)
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
            } => write!(
                f,
                "the processes disagree on the winner: {:.0}% of them resolved A faster \
                 (around {}) and {:.0}% resolved B faster (around {}); which one wins depends \
                 on the state each process landed in, not on sampling noise, so more samples \
                 will not settle it: read the modes, or find what the layout changes",
                100.0 * a_faster_share,
                Pct(a_faster_centre),
                100.0 * b_faster_share,
                Pct(b_faster_centre)
            ),
            Unresolved::ProcessDrift {
                spearman,
                p_value,
                first_half,
                second_half,
            } => write!(
                f,
                "the processes' deltas drift with the process index (Spearman ρ = {spearman:+.2}, \
                 p = {p_value:.4}; first half around {}, second half around {}): later \
                 processes are not draws of the same machine state, so the mean depends on \
                 when the run stopped; quieten the machine and run again",
                Pct(first_half),
                Pct(second_half)
            ),
            Unresolved::FailedProcesses {
                failed,
                started,
                timed_out,
            } => {
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
            Unresolved::FixedBuildOrder { bytes } => write!(
                f,
                "the program built {:.0} MiB before the pool's closure, in the same order in \
                 every process; identical structures built in a fixed order can differ by \
                 several percent in every process, so the pool cannot tell the code from the \
                 order: build what A and B use with ctx.build(a, b), which alternates the order, \
                 or, if A and B share these data, say so with \
                 PoolOptions::accept_fixed_build_order(true)",
                bytes as f64 / (1u64 << 20) as f64
            ),
            Unresolved::Multiplicity {
                adjusted_p,
                alpha,
                comparisons,
            } => write!(
                f,
                "one of {comparisons} comparisons judged together: its Holm-adjusted p-value \
                 {adjusted_p:.3} is above the family-wise level {alpha}, so calling it would \
                 let the family's chance of a false verdict exceed {alpha}"
            ),
            Unresolved::Equivalent { margin, low, high } => write!(
                f,
                "no difference beyond ±{}: the interval [{}, {}] lies inside the margin, so \
                 whichever is faster, it is by less than the difference that matters",
                Pct(margin),
                Pct(low),
                Pct(high)
            ),
        }
    }
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
            Verdict::CannotTell(reason @ Unresolved::Equivalent { .. }) => {
                write!(f, "EQUIVALENT. {reason}")
            }
            Verdict::CannotTell(reason) => write!(f, "CANNOT TELL. {reason}"),
        }
    }
}

/// The verdict rule of [`compare`](crate::compare()), as a pure function: `AFaster`/`BFaster` only when the
/// interval excludes zero, the point estimate lies on the same side, |δ| exceeds
/// `noise_floor`, and |δ| exceeds [`QUANTIZATION_GATE`] × `quantization`; otherwise
/// `CannotTell` naming the first bar missed in that order. All arguments are fractions.
///
/// ```
/// use rtcompare::{Verdict, stats::{estimate_difference, EstimateOptions}};
/// use rtcompare::stats::decide;
/// let a = [90.0, 91.0, 89.0, 90.5, 90.0, 89.5, 90.2, 90.1, 89.9, 90.3, 90.0];
/// let b = [100.0, 101.0, 99.0, 100.5, 100.0, 99.5, 100.2, 100.1, 99.9, 100.3, 100.0];
/// let e = estimate_difference(&a, &b, &EstimateOptions::default().paired(true).seed(1))?;
/// assert_eq!(decide(&e, 0.01, 0.0001), Verdict::AFaster);
/// assert!(matches!(decide(&e, 0.5, 0.0001), Verdict::CannotTell(_)));
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn decide(estimate: &Estimate, noise_floor: f64, quantization: f64) -> Verdict {
    let Estimate {
        delta, low, high, ..
    } = *estimate;
    if !estimate.excludes(0.0) {
        return Verdict::CannotTell(Unresolved::IntervalContainsZero { low, high });
    }
    if (low > 0.0) != (delta > 0.0) || delta == 0.0 {
        return Verdict::CannotTell(Unresolved::Unstable { delta, low, high });
    }
    if delta.abs() <= noise_floor {
        return Verdict::CannotTell(Unresolved::WithinNoiseFloor { delta, noise_floor });
    }
    let gate = QUANTIZATION_GATE * quantization;
    if delta.abs() <= gate {
        return Verdict::CannotTell(Unresolved::BelowQuantization { delta, gate });
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
    fn reasons_read_as_sentences_and_equivalence_says_so() {
        // The multiplicity reason ran its lines together with a run of spaces.
        let m = Unresolved::Multiplicity {
            adjusted_p: 0.2,
            alpha: 0.05,
            comparisons: 4,
        }
        .to_string();
        assert!(!m.contains("  "), "{m:?}");
        let v = Verdict::CannotTell(Unresolved::Equivalent {
            margin: 0.02,
            low: -0.004,
            high: 0.007,
        });
        let text = v.to_string();
        assert!(
            text.starts_with("EQUIVALENT. no difference beyond ±2"),
            "{text}"
        );
        assert!(!text.contains("  "), "{text}");
        let json = serde_json::to_string(&v).unwrap();
        assert!(json.contains(r#""bar":"equivalent""#), "{json}");
    }

    #[test]
    fn decide_names_the_first_bar_missed() {
        assert_eq!(decide(&est(0.1, 0.08, 0.12), 0.01, 0.001), Verdict::AFaster);
        assert_eq!(
            decide(&est(-0.1, -0.12, -0.08), 0.01, 0.001),
            Verdict::BFaster
        );
        assert!(matches!(
            decide(&est(0.01, -0.01, 0.03), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::IntervalContainsZero { .. })
        ));
        assert!(matches!(
            decide(&est(0.0, 0.0, 0.01), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::IntervalContainsZero { .. })
        ));
        assert!(matches!(
            decide(&est(-0.001, 0.001, 0.01), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::Unstable { .. })
        ));
        assert!(matches!(
            decide(&est(0.01, 0.008, 0.012), 0.01, 0.0),
            Verdict::CannotTell(Unresolved::WithinNoiseFloor { .. })
        ));
        assert!(matches!(
            decide(&est(0.01, 0.008, 0.012), 0.005, 0.01),
            Verdict::CannotTell(Unresolved::BelowQuantization { .. })
        ));
    }
}
