//! The two-stage plan of a pooled comparison, as pure arithmetic: after a first stage of
//! processes, how many more to run for a precision target, and when to stop instead.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::pooling`), section "Planning a pooled comparison".

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::display::Pct;
use crate::stats::Pooled;

/// The plan stops at the first stage when the target needs more than this many times the cap
/// (2): the cap would leave the half-width at least √2 ≈ 1.4 times the target.
pub const UNREACHABLE_FACTOR: f64 = 2.0;

/// How a planned pooled run ended with respect to its precision target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum PlanEnd {
    /// The target was met.
    Met,
    /// The cap on processes stopped the run before the target was met.
    Cap {
        /// The cap (`max_processes`).
        cap: usize,
    },
    /// The first stage said the target needs more than `UNREACHABLE_FACTOR` (2.0) times the cap,
    /// so the run stopped at the first stage.
    Unreachable {
        /// Processes the target would need (saturates at `usize::MAX`).
        needed: usize,
        /// The cap (`max_processes`).
        cap: usize,
        /// Standard deviation of the first stage's deltas (fraction).
        spread: f64,
        /// The half-width aimed at (fraction).
        target: f64,
    },
    /// The planned processes ran, but they scattered more than the first stage did, so the
    /// interval (never narrower than the plain t interval on all of them) missed the target.
    WiderThanPlanned,
    /// Failed processes kept the run from reaching the planned number before the cap.
    Failures {
        /// Processes that failed.
        failed: usize,
    },
    /// The pool's time budget allowed fewer processes than the target needs: after the first
    /// stage, only as many as fit in the time left at the first stage's median process time
    /// were planned (none when the target needed more than `UNREACHABLE_FACTOR` (2.0) times that).
    TimeBudget {
        /// Processes the target would need (saturates at `usize::MAX`).
        needed: usize,
        /// Processes the budget allowed in all, first stage included.
        fit: usize,
        /// The budget, in seconds.
        seconds: f64,
    },
    /// The run was stopped (cancelled, interrupted) before the planned processes ran; the
    /// result pools those that had.
    Interrupted {
        /// Processes that had run when it stopped.
        done: usize,
    },
}

impl fmt::Display for PlanEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PlanEnd::Met => f.write_str("the precision target was met"),
            PlanEnd::Cap { cap } => write!(
                f,
                "the precision target was NOT met: the cap of {cap} processes stopped the run"
            ),
            PlanEnd::Unreachable {
                needed,
                cap,
                spread,
                target,
            } => {
                write!(
                    f,
                    "the precision target was NOT pursued: the first stage's processes scatter \
                     by {} (standard deviation), so a half-width of {} would need ",
                    Pct(spread),
                    Pct(target)
                )?;
                if needed == usize::MAX {
                    f.write_str("more processes than can be counted")?;
                } else {
                    write!(f, "about {needed} processes")?;
                }
                write!(
                    f,
                    ", more than {UNREACHABLE_FACTOR} times the cap of {cap}; the run stopped \
                     after the first stage (PoolOptions::run_to_cap runs to the cap anyway)"
                )
            }
            PlanEnd::WiderThanPlanned => f.write_str(
                "the precision target was NOT met: the planned processes scattered more than \
                 the first stage said they would",
            ),
            PlanEnd::Interrupted { done } => write!(
                f,
                "the precision target was NOT met: the run was stopped after {done} processes"
            ),
            PlanEnd::Failures { failed } => write!(
                f,
                "the precision target was NOT met: {failed} failed processes kept the run from \
                 the planned number"
            ),
            PlanEnd::TimeBudget {
                needed,
                fit,
                seconds,
            } => {
                f.write_str("the precision target was NOT met: it needs ")?;
                if needed == usize::MAX {
                    f.write_str("more processes than can be counted")?;
                } else {
                    write!(f, "about {needed} processes")?;
                }
                write!(
                    f,
                    ", and the time budget of {seconds:.0} s allowed {fit} (PoolOptions::\
                     max_duration sets it)"
                )
            }
        }
    }
}

/// What to do after the first stage.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ProcessPlan {
    /// Processes to run in all, first stage included, at most the cap.
    pub total: usize,
    /// Processes the target needs by Stein's rule, uncapped (saturates at `usize::MAX`).
    pub needed: usize,
    /// Set when the plan already knows how the run ends: [`PlanEnd::Met`] when the first stage
    /// meets the target, [`PlanEnd::Unreachable`] when it stops there for want of reach.
    pub end: Option<PlanEnd>,
}

/// Plans the second stage from the first stage's pooled result `first`: a half-width of
/// `max(abs, rel · |δ₁|)` (fractions), at most `cap` processes in all. Stops at the first
/// stage when it meets the target, or when the target needs more than `UNREACHABLE_FACTOR` (2.0)
/// times `cap` and `run_to_cap` is false. Negative or NaN targets count as 0; with both 0
/// there is no plan and the run is the first stage.
pub fn plan_processes(
    first: &Pooled,
    abs: f64,
    rel: f64,
    cap: usize,
    run_to_cap: bool,
) -> ProcessPlan {
    let k = first.processes;
    let abs = if abs.is_nan() { 0.0 } else { abs.max(0.0) };
    let rel = if rel.is_nan() { 0.0 } else { rel.max(0.0) };
    if abs == 0.0 && rel == 0.0 {
        return ProcessPlan {
            total: k,
            needed: k,
            end: None,
        };
    }
    if first.precise(abs, rel) {
        return ProcessPlan {
            total: k,
            needed: k,
            end: Some(PlanEnd::Met),
        };
    }
    let needed = first.processes_for(abs, rel);
    let cap = cap.max(k);
    if !run_to_cap && needed as f64 > UNREACHABLE_FACTOR * cap as f64 {
        return ProcessPlan {
            total: k,
            needed,
            end: Some(PlanEnd::Unreachable {
                needed,
                cap,
                spread: first.spread_between,
                target: abs.max(rel * first.delta.abs()),
            }),
        };
    }
    ProcessPlan {
        total: needed.min(cap),
        needed,
        end: None,
    }
}

/// Stein's two-stage plan as a run carries it out: planned from the first stage within the
/// cap and what fits in the time budget, then, once the run stops, the end it came to. The one
/// staged plan of the library, which `pool::run` (with a precision target) and the bench
/// engine (without its deciding step) both follow; the sequential decision
/// ([`Sequential`](crate::stats::Sequential)) is the other way to end a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub(crate) struct StagedPlan {
    /// Deltas (processes, pairs) to run in all, first stage included.
    pub total: usize,
    /// Deltas the target needs by Stein's rule, uncapped (saturates at `usize::MAX`).
    pub needed: usize,
    /// How the run ends at the first stage, when the plan already knows ([`PlanEnd::Met`],
    /// [`PlanEnd::Unreachable`]).
    pub early: Option<PlanEnd>,
    /// The cap that binds: the smaller of the run's cap and what fits in its budget.
    pub cap: usize,
    /// The run's own cap, whatever the budget.
    pub most: usize,
    /// The time budget (seconds, 0 for none), for the end's report.
    pub seconds: f64,
}

impl StagedPlan {
    /// The plan after a first stage pooled as `first`, for a half-width of
    /// `max(abs, rel · |δ₁|)`, at most `most` deltas in all and `fit` in the time budget of
    /// `seconds` ([`plan_processes`] at the smaller cap; `run_to_cap` as there).
    pub fn new(
        first: &Pooled,
        (abs, rel): (f64, f64),
        (most, fit): (usize, usize),
        run_to_cap: bool,
        seconds: f64,
    ) -> StagedPlan {
        let cap = most.min(fit);
        let p = plan_processes(first, abs, rel, cap, run_to_cap);
        StagedPlan {
            total: p.total,
            needed: p.needed,
            early: p.end,
            cap,
            most,
            seconds,
        }
    }

    /// Whether deltas beyond the first stage are to run.
    pub fn goes_on(&self) -> bool {
        self.early.is_none()
    }

    /// How the run ended after `done` deltas in all (the first stage's included), `failed`
    /// of its starts failing, `out_of_time` when the budget stopped it before the plan's total,
    /// and its pooled interval meeting the target or not (`met`).
    pub fn end(&self, met: bool, done: usize, failed: usize, out_of_time: bool) -> PlanEnd {
        let budget = |fit| PlanEnd::TimeBudget {
            needed: self.needed,
            fit,
            seconds: self.seconds,
        };
        if met {
            PlanEnd::Met
        } else if self.needed > self.cap && self.cap < self.most {
            // The budget, not the cap, is what binds (also where the target is out of reach
            // of what fits: the budget is what the user can change).
            budget(self.cap)
        } else if let Some(end) = self.early {
            end
        } else if self.needed > self.cap {
            PlanEnd::Cap { cap: self.cap }
        } else if done >= self.total {
            PlanEnd::WiderThanPlanned
        } else if out_of_time {
            budget(done)
        } else if failed > 0 {
            PlanEnd::Failures { failed }
        } else {
            PlanEnd::Cap { cap: self.most }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Estimate, combine};

    fn pooled(ds: &[f64]) -> Pooled {
        let e: Vec<Estimate> = ds
            .iter()
            .map(|&d| Estimate::from_interval(d, d - 0.001, d + 0.001, 0.95).unwrap())
            .collect();
        combine(&e, 0.95).unwrap()
    }

    #[test]
    fn a_staged_plan_says_how_the_run_ended() {
        // The first stage of the test below: ±1 point needs 20 processes (Stein).
        let p = pooled(&[0.10, 0.11, 0.12, 0.13, 0.14]);
        let plan = |most, fit| StagedPlan::new(&p, (0.01, 0.0), (most, fit), false, 60.0);
        let free = plan(30, usize::MAX);
        assert_eq!((free.total, free.needed, free.goes_on()), (20, 20, true));
        assert_eq!(free.end(true, 20, 0, false), PlanEnd::Met);
        assert_eq!(free.end(false, 20, 0, false), PlanEnd::WiderThanPlanned);
        assert_eq!(
            free.end(false, 12, 0, true),
            PlanEnd::TimeBudget {
                needed: 20,
                fit: 12,
                seconds: 60.0
            }
        );
        assert_eq!(
            free.end(false, 12, 3, false),
            PlanEnd::Failures { failed: 3 }
        );
        // The cap binds: 20 needed, 15 allowed.
        assert_eq!(
            plan(15, usize::MAX).end(false, 15, 0, false),
            PlanEnd::Cap { cap: 15 }
        );
        // The budget binds: 12 fit where 30 are allowed; the run still carries out 12.
        let short = plan(30, 12);
        assert_eq!((short.total, short.goes_on()), (12, true));
        assert_eq!(
            short.end(false, 12, 0, false),
            PlanEnd::TimeBudget {
                needed: 20,
                fit: 12,
                seconds: 60.0
            }
        );
        // Out of reach of the cap: the plan ends at the first stage.
        let far = StagedPlan::new(&p, (0.005, 0.0), (30, usize::MAX), false, 0.0);
        assert!(!far.goes_on());
        assert!(matches!(
            far.end(false, 5, 0, false),
            PlanEnd::Unreachable { needed: 78, .. }
        ));
    }

    #[test]
    fn the_plan_follows_stein_within_reach_and_stops_beyond_it() {
        // SD of [0.10, 0.11, 0.12, 0.13, 0.14] is 0.0158114 (numpy.std(ddof=1));
        // t = scipy.stats.t.ppf(0.975, 4) = 2.7764451051977987. For ±1 point:
        // (2.7764451 · 0.0158114 / 0.01)² = 19.27 → 20 processes; for ±0.5 point: 77.1 → 78.
        let p = pooled(&[0.10, 0.11, 0.12, 0.13, 0.14]);
        let plan = plan_processes(&p, 0.01, 0.0, 30, false);
        assert_eq!((plan.total, plan.needed, plan.end), (20, 20, None));
        // 78 > 2 · 30: out of reach.
        let plan = plan_processes(&p, 0.005, 0.0, 30, false);
        assert_eq!((plan.total, plan.needed), (5, 78));
        assert!(matches!(
            plan.end,
            Some(PlanEnd::Unreachable {
                needed: 78,
                cap: 30,
                ..
            })
        ));
        assert!(plan.end.unwrap().to_string().contains("about 78 processes"));
        // Within twice the cap it runs to the cap; so it does when asked to.
        assert_eq!(plan_processes(&p, 0.005, 0.0, 40, false).total, 40);
        assert_eq!(plan_processes(&p, 0.005, 0.0, 30, true).total, 30);
        // A relative target of a quarter of 12 % is ±3 points: the first stage meets it.
        let plan = plan_processes(&p, 0.0, 0.25, 30, false);
        assert_eq!((plan.total, plan.end), (5, Some(PlanEnd::Met)));
        // No target: the first stage is the run.
        assert_eq!(plan_processes(&p, 0.0, f64::NAN, 30, false).total, 5);
    }
}
