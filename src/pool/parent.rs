//! The parent side of a pool: start processes, plan from the first stage, pool what ran.
//!
//! [`parent_main`] reads as the protocol's stages: the first stage of processes, the plan it
//! supports (Stein's, bounded by the cap and the time budget), the rest of the processes, and
//! the verdict assembled from all of them. The parent never measures; it starts each child,
//! watches it for the timeout, cancellation and Ctrl-C, and reads its report back.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::child::{ChildResult, ChildSpec};
use super::{
    Attached, CHILD_ENV, MAX_ENV_PADDING, PAD_ENV, POLL, PoolOptions, PoolProgress, PoolRun,
    ProcessTimings, RUNS, fixed_build_order, process_estimate,
};
use crate::compare::report::Report;
use crate::error::{Error, Result};
use crate::interrupt;
use crate::measure::CancelToken;
use crate::measure::clock::{Clock, MonotonicClock};
use crate::rng::{Rng, derive_seed, resolve_seed};
use crate::stats::{self, MIN_PROCESSES, PoolWarning, ProcessEstimate};

/// A running child and its files; dropping it kills the child if it still runs and removes
/// the files, whatever path the parent leaves by.
struct Running {
    child: std::process::Child,
    result: PathBuf,
    stderr: PathBuf,
}

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.result);
        let _ = std::fs::remove_file(self.result.with_extension("partial"));
        let _ = std::fs::remove_file(&self.stderr);
    }
}

/// The parent of one pool: what it needs to start processes and tell their files apart.
struct Parent<'a> {
    site: &'a str,
    options: &'a PoolOptions,
    seed: u64,
    exe: PathBuf,
    args: Vec<OsString>,
    rng: Rng,
    interrupt: interrupt::InterruptGuard,
    started: Instant,
    /// Tells this run's files from those of other pools in the same process.
    run_id: usize,
}

/// One process's outcome as the parent sees it.
enum ChildOutcome {
    Report(Box<Report>, ProcessTimings, Option<serde_json::Value>),
    /// `timed_out`: killed by the process timeout, or cancelled by a deadline in the child.
    Failed {
        reason: String,
        timed_out: bool,
    },
}

impl Parent<'_> {
    fn spawn(&mut self, index: usize) -> Result<ChildOutcome> {
        let stem = format!(
            "rtcompare-pool-{}-{}-{:016x}-{index}",
            std::process::id(),
            self.run_id,
            self.seed
        );
        let dir = std::env::temp_dir();
        let result = dir.join(format!("{stem}.json"));
        let stderr_path = dir.join(format!("{stem}.stderr"));
        let stderr = std::fs::File::create(&stderr_path).map_err(|e| Error::io(&stderr_path, e))?;
        let padding = if self.options.perturb {
            self.rng.below(MAX_ENV_PADDING as u64 + 1) as usize
        } else {
            0
        };
        let spec = ChildSpec {
            index,
            seed: self.seed,
            site: self.site.to_string(),
            path: result.clone(),
            spawned_ns: MonotonicClock.now_ns(),
            perturb: self.options.perturb && self.options.early_perturbation,
        };
        let spawned = Instant::now();
        let child = Command::new(&self.exe)
            .args(&self.args)
            .env(CHILD_ENV, spec.encode())
            .env(PAD_ENV, "x".repeat(padding))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) => {
                let _ = std::fs::remove_file(&stderr_path);
                return Err(Error::io(&self.exe, e));
            }
        };
        let mut running = Running {
            child,
            result,
            stderr: stderr_path,
        };
        let status = loop {
            match running.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) => {}
                Err(e) => return Err(Error::io(&self.exe, e)),
            }
            let cancelled = self
                .options
                .cancel
                .as_ref()
                .is_some_and(CancelToken::is_cancelled);
            if cancelled || self.interrupt.interrupted() {
                return Err(Error::Cancelled {
                    stage: "pooling processes",
                    elapsed: self.started.elapsed(),
                });
            }
            if spawned.elapsed() > self.options.process_timeout {
                return Ok(ChildOutcome::Failed {
                    reason: format!(
                        "timed out after {:.0?} and was killed",
                        self.options.process_timeout
                    ),
                    timed_out: true,
                });
            }
            std::thread::sleep(POLL);
        };
        let wall = spawned.elapsed().as_secs_f64();
        Ok(read_outcome(&running, status, wall))
    }
}

fn read_outcome(running: &Running, status: ExitStatus, wall: f64) -> ChildOutcome {
    let tail = stderr_tail(&running.stderr);
    match std::fs::read_to_string(&running.result) {
        Ok(json) => match serde_json::from_str::<ChildResult>(&json) {
            Ok(ChildResult::Report(r, mut t, attached)) => {
                t.wall = wall;
                ChildOutcome::Report(r, t, attached)
            }
            Ok(ChildResult::Failed { reason, deadline }) => ChildOutcome::Failed {
                reason,
                timed_out: deadline,
            },
            Err(e) => ChildOutcome::Failed {
                reason: format!("wrote a report that does not parse: {e}"),
                timed_out: false,
            },
        },
        Err(_) => {
            // A child that ends well without a report never reached its pool: the program
            // took another path, or counted its pools differently, in the child.
            let hint = if status.success() {
                "; it never reached the pool it was started for (when pools run in an order \
                 that can differ between runs of the program, give each its own \
                 PoolOptions::key)"
            } else {
                ""
            };
            ChildOutcome::Failed {
                reason: format!(
                    "exited ({status}) without a report{hint}{}",
                    if tail.is_empty() {
                        String::new()
                    } else {
                        format!("; its stderr ended: {tail}")
                    }
                ),
                timed_out: false,
            }
        }
    }
}

/// The last few lines of a child's stderr, on one line.
fn stderr_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(3)..].join(" | ")
}

/// Processes a pool may run in all under [`PoolOptions::max_duration`], the first stage's
/// included: those already run plus as many as fit in the time left at the median wall time
/// of those that finished. `usize::MAX` without a budget.
fn processes_in_budget(
    options: &PoolOptions,
    elapsed: Duration,
    timings: &[ProcessTimings],
) -> usize {
    if options.max_duration.is_zero() || timings.is_empty() {
        return usize::MAX;
    }
    let mut walls: Vec<f64> = timings.iter().map(|t| t.wall).collect();
    walls.sort_by(f64::total_cmp);
    let median = walls[walls.len() / 2].max(1e-3);
    let left = options.max_duration.saturating_sub(elapsed).as_secs_f64();
    timings.len() + (left / median).floor() as usize
}

/// One failed process: its index, what happened, and whether a timeout or a deadline ended it
/// (which biases the pool toward the processes that finished in time).
struct Failure {
    index: usize,
    reason: String,
    timed_out: bool,
}

/// What the processes of one pool left, in process order.
#[derive(Default)]
struct Ran {
    reports: Vec<Report>,
    /// What each successful process attached beside its report, in the reports' order.
    attachments: Vec<Option<serde_json::Value>>,
    timings: Vec<ProcessTimings>,
    failures: Vec<Failure>,
    /// Processes started, the failed ones included: the next process's index.
    started: usize,
}

/// Runs a pool as its parent: the protocol's stages in order.
pub(super) fn parent_main(site: &str, options: &PoolOptions) -> Result<Attached> {
    options.check()?;
    let mut parent = Parent::new(site, options)?;
    if options.decide {
        return parent.decide();
    }
    let mut ran = Ran::default();
    parent.first_stage(&mut ran)?;
    let first_stage = ran.reports.len();
    if first_stage < MIN_PROCESSES {
        return Err(too_few(&ran));
    }
    let plan = match parent.plan(&ran)? {
        Some(plan) => Some((plan, parent.rest(&mut ran, &plan)?)),
        None => None,
    };
    parent.assemble(ran, plan, first_stage)
}

impl<'a> Parent<'a> {
    fn new(site: &'a str, options: &'a PoolOptions) -> Result<Self> {
        let seed = resolve_seed(options.seed);
        let exe = std::env::current_exe().map_err(|e| Error::io(Path::new("current_exe"), e))?;
        let args = options
            .args
            .clone()
            .unwrap_or_else(|| std::env::args_os().skip(1).collect());
        Ok(Parent {
            site,
            options,
            seed,
            exe,
            args,
            rng: Rng::new(derive_seed(seed, 0)),
            interrupt: interrupt::InterruptGuard::install(),
            started: Instant::now(),
            run_id: RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        })
    }

    fn has_target(&self) -> bool {
        self.options.target_abs > 0.0 || self.options.target_rel > 0.0
    }

    /// Stage 1: [`PoolOptions::first_stage`] successful processes, or the cap. It gives up
    /// once as many processes have failed as the stage should hold and too few succeeded to
    /// pool: the closure then fails for a reason more processes will not cure.
    fn first_stage(&mut self, ran: &mut Ran) -> Result<()> {
        let o = self.options;
        while ran.reports.len() < o.first_stage && ran.started < o.max_processes {
            if ran.failures.len() >= o.first_stage && ran.reports.len() < MIN_PROCESSES {
                break;
            }
            self.run_one(ran, o.first_stage)?;
        }
        Ok(())
    }

    /// Stage 2: Stein's plan (`StagedPlan`) for the precision target
    /// from the first stage's spread, within the cap and what fits in the time budget at the
    /// first stage's median process time. Without a target the first stage is the whole run.
    fn plan(&self, ran: &Ran) -> Result<Option<stats::StagedPlan>> {
        let o = self.options;
        if !self.has_target() {
            return Ok(None);
        }
        let first = super::combine_reports(&ran.reports, o.level)?;
        let fit = processes_in_budget(o, self.started.elapsed(), &ran.timings);
        Ok(Some(stats::StagedPlan::new(
            &first,
            (o.target_abs, o.target_rel),
            (o.max_processes, fit),
            o.run_to_cap,
            o.max_duration.as_secs_f64(),
        )))
    }

    /// Stage 3: the planned processes beyond the first stage, until the plan, the cap or the
    /// time budget ends them. Returns whether the budget did.
    fn rest(&mut self, ran: &mut Ran, plan: &stats::StagedPlan) -> Result<bool> {
        let o = self.options;
        if !plan.goes_on() {
            return Ok(false);
        }
        while ran.reports.len() < plan.total && ran.started < o.max_processes {
            if !o.max_duration.is_zero() && self.started.elapsed() >= o.max_duration {
                // Later processes ran slower than the first stage's: the budget is spent.
                return Ok(true);
            }
            self.run_one(ran, plan.total)?;
        }
        Ok(false)
    }

    /// Starts one process, records what it left, and reports progress.
    fn run_one(&mut self, ran: &mut Ran, planned: usize) -> Result<()> {
        let index = ran.started;
        let delta = match self.spawn(index)? {
            ChildOutcome::Report(r, t, attached) => {
                let d = r.estimate.delta;
                ran.reports.push(*r);
                ran.attachments.push(attached);
                ran.timings.push(t);
                Some(d)
            }
            ChildOutcome::Failed { reason, timed_out } => {
                ran.failures.push(Failure {
                    index,
                    reason,
                    timed_out,
                });
                None
            }
        };
        ran.started += 1;
        if let Some(p) = &self.options.progress {
            p(&PoolProgress {
                done: ran.started,
                planned: planned.min(self.options.max_processes).max(ran.started),
                index,
                delta,
            });
        }
        Ok(())
    }

    /// Stage 4: pool every process (Stein's interval after a first stage when there is a
    /// plan), say how the plan ended, and refuse what the run cannot support: fixtures built
    /// in a fixed order, and failed processes.
    fn assemble(
        self,
        ran: Ran,
        plan: Option<(stats::StagedPlan, bool)>,
        first_stage: usize,
    ) -> Result<Attached> {
        let o = self.options;
        let ps: Vec<ProcessEstimate> = ran.reports.iter().map(process_estimate).collect();
        let staged = if plan.is_some() { first_stage } else { 0 };
        let mut pooled = stats::combine_processes_with(&ps, staged, o.level, o.margin)?;
        if let Some((plan, out_of_time)) = plan {
            let met = pooled.precise(o.target_abs, o.target_rel);
            pooled.target_met = Some(met);
            pooled.planned_processes = plan.total;
            pooled.plan_end =
                Some(plan.end(met, ran.reports.len(), ran.failures.len(), out_of_time));
        }
        self.finish(ran, pooled)
    }

    /// Decide mode ([`PoolOptions::decide`]): a look after the first stage and after every
    /// `first_stage` successful processes more, each an interval at its share of α
    /// ([`stats::sequential_look`]); stops at the first look that decides, the last planned
    /// one (`max_processes`), or the time budget. The pooled result is judged on the last
    /// look's interval, at its level, with every floor and veto of a pooled verdict.
    fn decide(mut self) -> Result<Attached> {
        let o = self.options;
        let plan = stats::SequentialOptions::default()
            .level(o.level)
            .margin(o.margin)
            .max_n(o.max_processes);
        let mut decision = stats::Sequential::new(plan)?;
        let mut ran = Ran::default();
        let budget_spent =
            |p: &Self| !o.max_duration.is_zero() && p.started.elapsed() >= o.max_duration;
        while decision.is_open() {
            let want = decision.next_look(o.first_stage);
            while ran.reports.len() < want && ran.started < o.max_processes {
                if budget_spent(&self) && ran.reports.len() >= MIN_PROCESSES {
                    break;
                }
                self.run_one(&mut ran, want)?;
            }
            if ran.reports.len() < MIN_PROCESSES {
                return Err(too_few(&ran));
            }
            if ran.reports.len() > decision.seen() {
                let deltas: Vec<f64> = ran.reports.iter().map(|r| r.estimate.delta).collect();
                // The look judges against the processes' median A/A floor, as the pooled
                // verdict of processes without A/A deltas does.
                let floors: Vec<f64> = ran.reports.iter().map(|r| r.noise_floor).collect();
                decision.look_at_deltas(&deltas, stats::median(&floors).unwrap_or(0.0))?;
            }
            if ran.started >= o.max_processes {
                decision.stop(stats::DecisionEnd::Failures);
            } else if budget_spent(&self) {
                decision.stop(stats::DecisionEnd::TimeBudget);
            }
        }
        let last = *decision
            .looks()
            .last()
            .expect("a look is made before the loop ends");
        let ps: Vec<ProcessEstimate> = ran.reports.iter().map(process_estimate).collect();
        // The plain t interval at the look's own level is the look's interval: same mean,
        // spread and quantile.
        let level = (1.0 - last.alpha).clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
        let mut pooled = stats::combine_processes_with(&ps, 0, level, o.margin)?;
        pooled.planned_processes = o.max_processes;
        pooled.decision = decision
            .finish(stats::DecisionEnd::Failures)
            .map(|d| d.ending_in(&pooled.verdict));
        self.finish(ran, pooled)
    }

    /// The end of every run: refuse what it cannot support (fixtures built in a fixed order,
    /// failed processes) and hand back the processes with the pooled result.
    fn finish(self, ran: Ran, mut pooled: stats::Pooled) -> Result<Attached> {
        let o = self.options;
        if let Some(bytes) = fixed_build_order(&ran.reports) {
            pooled.warnings.push(PoolWarning::FixedBuildOrder { bytes });
            if !o.accept_fixed_build_order {
                pooled.refuse_fixed_build_order(bytes);
            }
        }
        let timed_out = ran.failures.iter().filter(|f| f.timed_out).count();
        pooled.account_failures(ran.failures.len(), timed_out);
        for f in ran.failures {
            pooled.warnings.push(PoolWarning::ProcessFailed {
                index: f.index,
                reason: f.reason,
            });
        }
        let run = PoolRun {
            pooled,
            reports: ran.reports,
            timings: ran.timings,
            seed: self.seed,
            elapsed: self.started.elapsed(),
        };
        Ok((run, ran.attachments))
    }
}

/// The error of a pool that could not pool: fewer than `MIN_PROCESSES` (3) processes succeeded.
fn too_few(ran: &Ran) -> Error {
    Error::ProcessesFailed {
        succeeded: ran.reports.len(),
        started: ran.started,
        needed: MIN_PROCESSES,
        failures: ran
            .failures
            .iter()
            .map(|f| format!("process {} {}", f.index, f.reason))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn timings(walls: &[f64]) -> Vec<ProcessTimings> {
        walls
            .iter()
            .enumerate()
            .map(|(index, &wall)| ProcessTimings {
                index,
                startup: 0.0,
                stages: Vec::new(),
                closure: wall,
                wall,
            })
            .collect()
    }

    #[test]
    fn the_budget_admits_what_fits_at_the_median_process_time() {
        let o = PoolOptions::default().max_duration(Duration::from_secs(60));
        // Five processes of median 4 s took 20 s: 40 s left, ten more.
        let t = timings(&[3.0, 4.0, 4.0, 5.0, 30.0]);
        assert_eq!(processes_in_budget(&o, Duration::from_secs(20), &t), 15);
        // Spent: none more.
        assert_eq!(processes_in_budget(&o, Duration::from_secs(61), &t), 5);
        // No budget: no limit.
        let free = o.max_duration(Duration::ZERO);
        assert_eq!(
            processes_in_budget(&free, Duration::from_secs(61), &t),
            usize::MAX
        );
    }
}
