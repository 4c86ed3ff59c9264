//! What every benchmark of a cross-build run shares, however its pairs are planned: the two
//! builds and their layouts, one worker pair with its one retry, the progress reports, the
//! pairs pooled, and what a benchmark's pairs come to. The staged plan (`staged.rs`) and the
//! sequential decision (`decide.rs`) both measure through it; `builds.rs` runs them.

use std::cell::RefCell;
use std::path::Path;

use super::layouts::Variants;
use super::options::{BuildsOptions, BuildsProgress};
use super::pair::{self, PairPlan, Placement};
use super::run::{BuildStatus, PairFailure, Stopped};
use super::worker::Launch;
use crate::compare::CompareOptions;
use crate::compare::report::Report;
use crate::error::{Error, Result};
use crate::pool::combine_reports_staged;
use crate::rng::derive_seed;
use crate::stats::{PlanEnd, Pooled};

/// How a run stopped, and why in words ([`BuildsRun::stopped`], [`BuildsRun::stop_reason`]).
///
/// [`BuildsRun::stopped`]: super::BuildsRun::stopped
/// [`BuildsRun::stop_reason`]: super::BuildsRun::stop_reason
pub(super) type Stop = (Stopped, String);

/// [`BuildsRun::stop_reason`] of a cancelled run.
const INTERRUPTED: &str = "the run was interrupted (its cancellation token was cancelled)";

/// The stop of a cancelled run.
pub(super) fn interrupted() -> Stop {
    (Stopped::Interrupted, INTERRUPTED.to_string())
}

/// Which build a worker runs: its working directory comes from the options by side.
#[derive(Clone, Copy)]
pub(super) enum Side {
    Base,
    Head,
}

/// The two builds and the options: what every worker pair of every benchmark needs.
pub(super) struct Builds<'a, 'v> {
    /// The layouts of the two builds, made as pairs need them.
    pub(super) variants: RefCell<Variants<'v>>,
    /// The caller's comparison options, as given, and resolved.
    pub(super) options: &'a CompareOptions,
    pub(super) resolved: &'a CompareOptions,
    /// The clock's figures, measured once per run.
    pub(super) instrument: &'a crate::measure::clock::Instrument,
    /// The CPUs this process may use, in ascending order (empty where the system cannot say).
    pub(super) allowed: Vec<usize>,
    pub(super) o: &'a BuildsOptions,
    /// Benchmarks compared in all, for the progress reports and the planning level.
    pub(super) benchmarks: usize,
}

impl Builds<'_, '_> {
    /// The level a benchmark's plan aims at: the family-wise level's strictest Holm step
    /// (1 − (1 − level)/m) when the benchmarks are judged together, since the rank a
    /// benchmark will take is not known until all are measured, else the level itself.
    pub(super) fn plan_level(&self) -> f64 {
        let o = self.o;
        if o.family_wise && self.benchmarks > 1 {
            1.0 - (1.0 - o.level) / self.benchmarks as f64
        } else {
            o.level
        }
    }

    /// Whether the run's cancellation token has been cancelled.
    pub(super) fn cancelled(&self) -> bool {
        self.o
            .compare
            .collect
            .cancel
            .as_ref()
            .is_some_and(|t| t.is_cancelled())
    }

    /// What a benchmark came to from its pooled result or why its pairs ended: a pair that
    /// failed twice fails it; a stop keeps its pairs, pooled when the first stage is complete.
    pub(super) fn outcome(&self, pooled: Result<Pooled, Halt>, ran: Ran) -> Outcome {
        let halt = match pooled {
            Ok(pooled) => {
                return Outcome {
                    status: BuildStatus::Compared,
                    pooled: Some(pooled),
                    reports: ran.reports,
                    failure: None,
                    retried: ran.retried,
                    stop: None,
                };
            }
            Err(halt) => halt,
        };
        let mut outcome = Outcome {
            status: BuildStatus::Failed,
            pooled: None,
            reports: Vec::new(),
            failure: None,
            retried: ran.retried,
            stop: None,
        };
        match halt {
            Halt::Failed(f) => outcome.failure = Some(f),
            Halt::Stopped(how, why) => {
                let first = self.o.pairs;
                let pooled = (ran.reports.len() >= first)
                    .then(|| pool_pairs(&ran.reports, first, self.o.level, self.o.margin))
                    .and_then(Result::ok);
                outcome.status = BuildStatus::Stopped;
                if let Some(mut p) = pooled {
                    p.target_met = Some(false);
                    p.planned_processes = ran.planned.max(ran.reports.len());
                    p.plan_end = Some(PlanEnd::Interrupted {
                        done: ran.reports.len(),
                    });
                    outcome.pooled = Some(p);
                    outcome.status = BuildStatus::Compared;
                }
                outcome.stop = Some((how, why));
            }
        }
        outcome.reports = ran.reports;
        outcome
    }

    /// One worker pair, `k`-th of the benchmark, run again once per benchmark with fresh
    /// workers (another seed, the same layout) when it fails: a worker killed from outside or
    /// an answer lost once is not the benchmark's fault, but a second failure is taken as its
    /// own. Cancellation and a layout that cannot be made stop the run instead.
    pub(super) fn pair(
        &self,
        name: &str,
        offset: usize,
        seed: u64,
        k: usize,
        retried: &mut Vec<PairFailure>,
    ) -> Result<Report, Halt> {
        let o = self.o;
        let at = Placement::of(&self.allowed, o.cpu_per_pair, offset, k);
        for attempt in 0.. {
            let (variant, base, head) = match self.variants.borrow_mut().of_pair(k) {
                Ok(v) => v,
                // A relink cut short by the signal that cancelled the run is no layout's fault.
                Err(_) if self.cancelled() => {
                    return Err(Halt::interrupted());
                }
                Err(e) => return Err(Halt::Stopped(Stopped::LayoutFailed, e.to_string())),
            };
            let plan = PairPlan {
                base: launch(&base, Side::Base, o),
                head: launch(&head, Side::Head, o),
                options: self.options,
                resolved: self.resolved,
                budget: o.pair_duration,
                instrument: self.instrument,
                variant,
            };
            let pair_seed = if attempt == 0 {
                derive_seed(seed, k as u64)
            } else {
                derive_seed(seed, RETRY_SEEDS + k as u64)
            };
            let e = match pair::run(&plan, name, at, pair_seed) {
                Ok(report) => return Ok(report),
                Err(e) => e,
            };
            // A signal that ends the workers as well as the run (Ctrl-C reaches the whole
            // process group) shows first as a worker's death: the token decides.
            if self.cancelled() || matches!(e, Error::Cancelled { .. }) {
                return Err(Halt::interrupted());
            }
            let failure = PairFailure::of(k, variant, &e);
            if !retried.is_empty() {
                return Err(Halt::Failed(failure));
            }
            retried.push(failure);
        }
        unreachable!("the loop above returns")
    }

    /// Reports the pairs done to the progress callback, if any.
    pub(super) fn tell(&self, name: &str, position: usize, reports: &[Report], planned: usize) {
        if let (Some(p), Some(last)) = (&self.o.progress, reports.last()) {
            p(&BuildsProgress {
                benchmark: position,
                benchmarks: self.benchmarks,
                name: name.to_string(),
                pairs_done: reports.len(),
                pairs_planned: planned.max(reports.len()),
                change: -last.estimate.delta,
            });
        }
    }
}

/// Seeds of retried pairs are drawn from here on, apart from the first attempts' (0, 1, …).
const RETRY_SEEDS: u64 = 0x7e7e_0000;

/// The pairs of one benchmark so far, and the pairs retried.
#[derive(Default)]
pub(super) struct Ran {
    pub(super) reports: Vec<Report>,
    pub(super) retried: Vec<PairFailure>,
    /// Pairs planned so far (the first stage's, then Stein's plan).
    pub(super) planned: usize,
}

/// Why a benchmark's pairs ended before its plan did.
pub(super) enum Halt {
    /// A pair failed after its retry: the benchmark fails, the run goes on.
    Failed(PairFailure),
    /// The run stops, and why.
    Stopped(Stopped, String),
}

impl Halt {
    /// The halt of a cancelled run.
    pub(super) fn interrupted() -> Halt {
        let (how, why) = interrupted();
        Halt::Stopped(how, why)
    }
}

/// What one benchmark came to.
pub(super) struct Outcome {
    pub(super) status: BuildStatus,
    pub(super) pooled: Option<Pooled>,
    pub(super) reports: Vec<Report>,
    pub(super) failure: Option<PairFailure>,
    pub(super) retried: Vec<PairFailure>,
    /// Why the run stops after this benchmark, when it does.
    pub(super) stop: Option<Stop>,
}

impl Outcome {
    /// A benchmark the run stopped before: no pairs; `stop` is why the run stops, when the
    /// stop was seen here first.
    pub(super) fn not_run(stop: Option<Stop>) -> Outcome {
        Outcome {
            status: BuildStatus::Stopped,
            pooled: None,
            reports: Vec::new(),
            failure: None,
            retried: Vec::new(),
            stop,
        }
    }
}

/// The worker pairs pooled as processes are (Stein's interval after a first stage of
/// `first_stage`, 0 for none), at `level`, with the pooled verdict held to the median pair's
/// own floor as well as to the pooled one: a difference that most pairs could not tell from
/// their own A/A differences is not called, however many pairs narrowed the interval
/// (docs/background.md, "Cross-revision pairs").
pub(super) fn pool_pairs(
    reports: &[Report],
    first_stage: usize,
    level: f64,
    margin: f64,
) -> Result<Pooled> {
    let mut pooled = combine_reports_staged(reports, first_stage, level, margin)?;
    let floors: Vec<f64> = reports.iter().map(|r| r.noise_floor).collect();
    pooled.raise_floor(crate::stats::median(&floors)?);
    Ok(pooled)
}

/// How the workers of one build start; a pair sets each worker's padding and CPU.
pub(super) fn launch<'a>(exe: &'a Path, side: Side, o: &'a BuildsOptions) -> Launch<'a> {
    let dir = o.working_dirs.as_ref().map(|(base, head)| match side {
        Side::Base => base.as_path(),
        Side::Head => head.as_path(),
    });
    Launch {
        exe,
        dir,
        args: &o.args,
        timeout: o.answer_timeout,
        padding: 0,
        cpu: None,
        cancel: o.compare.collect.cancel.clone(),
    }
}

/// The most pairs a benchmark may take: `max_pairs` (at least the first stage's), and with
/// several layouts no more than there are: a pair beyond the last layout would repeat one, and
/// the pairs would no longer be independent draws of code placement.
pub(super) fn most_pairs(o: &BuildsOptions) -> usize {
    let most = o.max_pairs.max(o.pairs);
    if o.layouts > 1 {
        most.min(o.layouts)
    } else {
        most
    }
}
