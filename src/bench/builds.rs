//! One benchmark at two builds: each benchmark of two bench binaries compared batch by batch
//! through worker pairs (two workers of each build on one CPU, `pair.rs`), repeated over fresh
//! pairs and pooled, the benchmarks judged together.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::layouts::{LayoutSpread, VariantSource, Variants};
use super::options::{BuildsOptions, BuildsProgress};
use super::pair::{self, PairPlan, Placement};
use super::run::{
    BUILDS_SCHEMA_VERSION, BuildComparison, BuildStatus, BuildsRun, PairFailure, Stopped,
};
use super::worker::{Launch, Worker};
use crate::compare::CompareOptions;
use crate::compare::report::Report;
use crate::measure::clock::{Clock, MonotonicClock};
use crate::pool::combine_reports_staged;
use crate::rng::{Rng, derive_seed, resolve_seed};
use crate::stats::{MIN_PROCESSES, PlanEnd, Pooled, holm, plan_processes};
use crate::{Error, Result};

/// Compares every benchmark two bench binaries both register, in one code layout each (see
/// [`compare_layouts`] for the protocol; this is it with a single layout, so the intervals do
/// not cover code placement and [`BuildsOptions::layouts`] is not used).
///
/// Errors: those of [`compare_layouts`].
pub fn compare_builds(base: &Path, head: &Path, o: &BuildsOptions) -> Result<BuildsRun> {
    let (base, head) = (base.to_path_buf(), head.to_path_buf());
    let one = o.clone().layouts(1);
    compare_layouts(move |_| Ok((base.clone(), head.clone())), &one)
}

/// [`compare_layouts`] over layout variants already built: `base[i]` and `head[i]` are the
/// two builds linked with the same code-order seed (up to [`BuildsOptions::layouts`] of them
/// are used).
///
/// Errors: [`Error::InvalidOption`] when the two lists are empty or differ in length; those of
/// [`compare_layouts`].
pub fn compare_variants(
    base: &[PathBuf],
    head: &[PathBuf],
    o: &BuildsOptions,
) -> Result<BuildsRun> {
    if base.is_empty() || base.len() != head.len() {
        return Err(Error::invalid_option(
            "variants",
            format!(
                "give as many layout variants of the head as of the baseline, at least one; \
                 got {} and {}",
                base.len(),
                head.len()
            ),
        ));
    }
    let o = o.clone().layouts(o.layouts.min(base.len()));
    compare_layouts(|i| Ok((base[i].clone(), head[i].clone())), &o)
}

/// Compares every benchmark two builds both register, over code layouts. `variant(i)` gives
/// the baseline's and the head's executables of layout i (the same source linked with the
/// same code-order seed), and is called once per layout, in order, when the first worker pair
/// that runs it starts; the time it takes is reported apart ([`BuildsRun::layout_seconds`]).
///
/// Per benchmark, `pairs` times (then as many more as Stein's plan asks, within `max_pairs`,
/// `max_duration` and, with more than one layout, `layouts`), a worker pair runs: pair k runs
/// layout k mod `layouts`, so that with several layouts every pair is one draw of code
/// placement and the spread between pairs, which sets the pooled interval, includes it. A pair
/// is two workers of each build, all four on one CPU (drawn per pair and balanced over the
/// allowed CPUs), each started with its heap perturbed before its fixtures are built and its
/// environment padded, serving batches in rounds of four in a random order. Each pair's δ
/// compares the head's two workers with the baseline's; the same batches regrouped so that
/// each side holds one worker of each build give the pair's two A/A differences, its noise
/// floor and the spread within one layout. The pairs are pooled as processes are, and a
/// pooled verdict must clear both the pooled floor (the A/A differences' mean and its
/// uncertainty) and the median pair's own floor. Each benchmark's spread is split into its
/// layouts' part and its processes' ([`BuildComparison::layout`]). Benchmarks of one build
/// only are listed as new or removed.
///
/// Nothing measured is lost to one failure. A worker pair that fails (a worker that cannot
/// start, exits, passes the answer timeout or answers outside the protocol, a calibration
/// that fails) is run once more with fresh workers, and a second failure of the same
/// benchmark marks it [`BuildStatus::Failed`] with the pair, the build and the reason; the
/// others are compared as usual, and the family-wise level holds over those compared. A
/// cancelled token ([`BuildsOptions::cancel`]) or a layout `variant` cannot make after the
/// first stops the run at the next batch with [`BuildsRun::stopped`]: a benchmark with its
/// first stage of pairs is pooled ([`PlanEnd::Interrupted`]), the rest are
/// [`BuildStatus::Stopped`].
///
/// Errors: [`Error::InvalidOption`] for fewer than three pairs, a zero pair duration, no
/// layouts, more than one layout but fewer than `pairs`, or a negative or non-finite
/// margin; [`Error::OutOfRange`] for a level outside (0, 1); [`Error::Worker`] when a build
/// cannot list its benchmarks (naming the build); the error `variant` returns for the first
/// layout. Every worker is killed and reaped on every path.
pub fn compare_layouts<'a>(
    variant: impl FnMut(usize) -> Result<(PathBuf, PathBuf)> + 'a,
    o: &BuildsOptions,
) -> Result<BuildsRun> {
    check_options(o)?;
    let resolved = o.compare.resolved()?;
    let seed = resolve_seed(o.seed);
    let mut rng = Rng::new(derive_seed(seed, 0));
    let source: Box<VariantSource<'a>> = Box::new(variant);
    let mut variants = Variants::new(source, o.layouts);
    let (_, base, head) = variants.of_pair(0)?;
    let base_names = Worker::list(&launch(&base, Side::Base, o))?;
    let head_names = Worker::list(&launch(&head, Side::Head, o))?;
    let selection = selection(o);
    let selected = |names: Vec<String>| -> Vec<String> {
        names.into_iter().filter(|n| selection.selects(n)).collect()
    };
    let (common, new, removed) = match_names(&selected(base_names), &selected(head_names));
    let builds = Builds {
        variants: RefCell::new(variants),
        options: &o.compare,
        resolved: &resolved,
        instrument: &MonotonicClock.instrument(),
        allowed: crate::measure::pin::current_affinity().unwrap_or_default(),
        o,
        benchmarks: common.len(),
    };
    let outcomes = if o.decide {
        super::decide::suite(&builds, &common, seed, &mut rng)
    } else {
        builds.each(&common, seed, &mut rng)
    };
    let mut benchmarks = Vec::new();
    let mut stop: Option<(Stopped, String)> = None;
    for (name, (outcome, seconds)) in common.iter().zip(outcomes) {
        if stop.is_none() {
            stop = outcome.stop;
        }
        let layout = match outcome.status {
            BuildStatus::Compared => LayoutSpread::of(&outcome.reports, o.margin)?,
            _ => None,
        };
        benchmarks.push(BuildComparison {
            name: name.clone(),
            status: outcome.status,
            pooled: outcome.pooled,
            layout,
            reports: outcome.reports,
            holm: None,
            seconds,
            failure: outcome.failure,
            retried: outcome.retried,
        });
    }
    let family_level = if o.family_wise && o.decide {
        // Each benchmark was decided at the Bonferroni level already: the family holds.
        Some(o.level)
    } else if o.family_wise {
        judge_family(&mut benchmarks, o)?;
        Some(o.level)
    } else {
        None
    };
    for (names, status) in [(new, BuildStatus::New), (removed, BuildStatus::Removed)] {
        benchmarks.extend(
            names
                .iter()
                .map(|name| BuildComparison::without_pairs(name, status)),
        );
    }
    let variants = builds.variants.into_inner();
    Ok(BuildsRun {
        schema_version: BUILDS_SCHEMA_VERSION,
        seed,
        family_level,
        layout_variants: variants.made(),
        layout_seconds: variants.making.as_secs_f64(),
        stop_reason: stop.as_ref().map(|(_, why)| why.clone()),
        stopped: stop.map(|(how, _)| how),
        benchmarks,
    })
}

/// [`BuildsRun::stop_reason`] of a cancelled run.
const INTERRUPTED: &str = "the run was interrupted (its cancellation token was cancelled)";

/// The stop of a cancelled run.
pub(super) fn interrupted() -> (Stopped, String) {
    (Stopped::Interrupted, INTERRUPTED.to_string())
}

/// The run of a bench target the baseline does not have (the change that adds it): every
/// benchmark `head` registers (those [`BuildsOptions::filter`] selects) is listed as
/// [`BuildStatus::New`], and nothing is measured.
///
/// Errors: [`Error::Worker`] when `head` cannot list its benchmarks.
pub fn only_head(head: &Path, o: &BuildsOptions) -> Result<BuildsRun> {
    let names = Worker::list(&launch(head, Side::Head, o))?;
    Ok(BuildsRun {
        schema_version: BUILDS_SCHEMA_VERSION,
        seed: resolve_seed(o.seed),
        family_level: None,
        layout_variants: 1,
        layout_seconds: 0.0,
        stopped: None,
        stop_reason: None,
        benchmarks: names
            .iter()
            .filter(|n| selection(o).selects(n))
            .map(|n| BuildComparison::without_pairs(n, BuildStatus::New))
            .collect(),
    })
}

/// The benchmarks the options select, by the harness's own rule, so that a name is chosen here
/// as `cargo bench -- …` chooses it.
fn selection(o: &BuildsOptions) -> super::Args {
    super::Args {
        filter: o.filter.clone(),
        exact: o.exact,
        skip: o.skip.clone(),
        ..super::Args::default()
    }
}

/// The options' own errors, before anything starts: see [`compare_layouts`].
fn check_options(o: &BuildsOptions) -> Result<()> {
    if o.pairs < MIN_PROCESSES {
        return Err(Error::invalid_option(
            "pairs",
            format!(
                "pooling needs at least {MIN_PROCESSES} worker pairs; got {}",
                o.pairs
            ),
        ));
    }
    if !(o.level > 0.0 && o.level < 1.0) {
        return Err(Error::out_of_range("level", o.level, "0 < level < 1"));
    }
    if o.pair_duration.is_zero() {
        return Err(Error::invalid_option(
            "pair_duration",
            "a worker pair needs time to measure; give a positive duration",
        ));
    }
    if o.layouts == 0 || (o.layouts > 1 && o.layouts < o.pairs) {
        return Err(Error::invalid_option(
            "layouts",
            format!(
                "give 1 layout, or at least as many as the first stage's {} pairs so that \
                 each pair runs its own; got {}",
                o.pairs, o.layouts
            ),
        ));
    }
    if !(o.margin.is_finite() && o.margin >= 0.0) {
        return Err(Error::invalid_option(
            "margin",
            format!("a margin is a fraction of at least 0; got {}", o.margin),
        ));
    }
    Ok(())
}

/// Which build a worker runs: its working directory comes from the options by side.
#[derive(Clone, Copy)]
enum Side {
    Base,
    Head,
}

/// The two builds and the options: what every worker pair of every benchmark needs.
pub(super) struct Builds<'a, 'v> {
    /// The layouts of the two builds, made as pairs need them.
    pub(super) variants: RefCell<Variants<'v>>,
    /// The caller's comparison options, as given, and resolved.
    options: &'a CompareOptions,
    resolved: &'a CompareOptions,
    /// The clock's figures, measured once per run.
    instrument: &'a crate::measure::clock::Instrument,
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

    /// Every benchmark in turn, each to its precision target (see [`Builds::pooled`]), with
    /// the seconds it spent on worker pairs (making layouts left out); after a stop the rest
    /// are [`Outcome::not_run`].
    fn each(&self, names: &[String], seed: u64, rng: &mut Rng) -> Vec<(Outcome, f64)> {
        let mut stopped = false;
        let mut outcomes = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            if !stopped && self.cancelled() {
                stopped = true;
                outcomes.push((Outcome::not_run(Some(interrupted())), 0.0));
                continue;
            }
            if stopped {
                outcomes.push((Outcome::not_run(None), 0.0));
                continue;
            }
            let started = Instant::now();
            let making = self.variants.borrow().making;
            let outcome = self.benchmark(name, i, derive_seed(seed, 1 + i as u64), rng);
            let seconds = started
                .elapsed()
                .saturating_sub(self.variants.borrow().making - making)
                .as_secs_f64();
            stopped |= outcome.stop.is_some();
            outcomes.push((outcome, seconds));
        }
        outcomes
    }

    /// One benchmark in stages (see [`Builds::pooled`]), its failures and a stop turned into
    /// its outcome (see [`Builds::outcome`]).
    fn benchmark(&self, name: &str, position: usize, seed: u64, rng: &mut Rng) -> Outcome {
        let mut ran = Ran::default();
        let pooled = self.pooled(name, position, seed, rng, &mut ran);
        self.outcome(pooled, ran)
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

    /// One benchmark in stages: the first stage of worker pairs, Stein's plan from their
    /// spread at the level it will be judged at (within the cap and the time budget), the
    /// planned pairs, and the pooled result with the plan's end recorded. The pairs go into
    /// `ran` as they finish, so that a halt keeps them.
    fn pooled(
        &self,
        name: &str,
        position: usize,
        seed: u64,
        rng: &mut Rng,
        ran: &mut Ran,
    ) -> Result<Pooled, Halt> {
        let o = self.o;
        let level = self.plan_level();
        // Where this benchmark's pairs start among the allowed CPUs: drawn, so that over
        // benchmarks no CPU always takes the odd pair.
        let offset = rng.index(self.allowed.len().max(1));
        let started = Instant::now();
        let making = self.variants.borrow().making;
        // Time on worker pairs only: making a layout is not the benchmark's cost.
        let spent = || {
            started
                .elapsed()
                .saturating_sub(self.variants.borrow().making - making)
        };
        // The statistics' own errors on a benchmark's pairs fail that benchmark.
        let stats = |e: Error, pairs: usize| {
            Halt::Failed(PairFailure {
                pair: pairs,
                layout: 0,
                build: None,
                reason: format!("its pairs could not be pooled: {e}"),
            })
        };
        ran.planned = o.pairs;
        for k in 0..o.pairs {
            let report = self.pair(name, offset, seed, k, &mut ran.retried)?;
            ran.reports.push(report);
            self.tell(name, position, &ran.reports, o.pairs);
        }
        let reports = &mut ran.reports;
        let has_target = o.target_abs > 0.0 || o.target_rel > 0.0;
        if !has_target {
            return pool_pairs(reports, 0, o.level, o.margin).map_err(|e| stats(e, reports.len()));
        }
        let first = pool_pairs(reports, 0, level, o.margin).map_err(|e| stats(e, reports.len()))?;
        let fit = self.pairs_in_budget(spent(), reports.len());
        let most = super::decide::most_pairs(o);
        let cap = most.min(fit);
        let plan = plan_processes(&first, o.target_abs, o.target_rel, cap, false);
        ran.planned = plan.total;
        let mut end = plan.end;
        if end.is_none() {
            while ran.reports.len() < plan.total {
                if !o.max_duration.is_zero() && spent() >= o.max_duration {
                    break;
                }
                let k = ran.reports.len();
                let report = self.pair(name, offset, seed, k, &mut ran.retried)?;
                ran.reports.push(report);
                self.tell(name, position, &ran.reports, plan.total);
            }
        }
        let reports = &ran.reports;
        let n = reports.len();
        let met = pool_pairs(reports, o.pairs, level, o.margin)
            .map_err(|e| stats(e, n))?
            .precise(o.target_abs, o.target_rel);
        let mut pooled =
            pool_pairs(reports, o.pairs, o.level, o.margin).map_err(|e| stats(e, n))?;
        if end.is_none() && !met {
            end = Some(if plan.needed > cap && cap < most {
                PlanEnd::TimeBudget {
                    needed: plan.needed,
                    fit: cap,
                    seconds: o.max_duration.as_secs_f64(),
                }
            } else if plan.needed > cap {
                PlanEnd::Cap { cap }
            } else if reports.len() < plan.total {
                PlanEnd::TimeBudget {
                    needed: plan.needed,
                    fit: reports.len(),
                    seconds: o.max_duration.as_secs_f64(),
                }
            } else {
                PlanEnd::WiderThanPlanned
            });
        }
        pooled.target_met = Some(met);
        pooled.planned_processes = plan.total;
        pooled.plan_end = Some(if met {
            PlanEnd::Met
        } else {
            end.unwrap_or(PlanEnd::Met)
        });
        Ok(pooled)
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
                delta: last.estimate.delta,
            });
        }
    }

    /// Pairs, first stage included, that fit in the time budget at the median pair time so
    /// far; `usize::MAX` without a budget.
    fn pairs_in_budget(&self, spent: Duration, done: usize) -> usize {
        if self.o.max_duration.is_zero() || done == 0 {
            return usize::MAX;
        }
        let per_pair = spent.as_secs_f64() / done as f64;
        let left = (self.o.max_duration.as_secs_f64() - spent.as_secs_f64()).max(0.0);
        done + (left / per_pair.max(1e-9)).floor() as usize
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
    pub(super) stop: Option<(Stopped, String)>,
}

impl Outcome {
    /// A benchmark the run stopped before: no pairs; `stop` is why the run stops, when the
    /// stop was seen here first.
    pub(super) fn not_run(stop: Option<(Stopped, String)>) -> Outcome {
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
/// (BACKGROUND.md, "Cross-revision pairs").
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

/// Holm's procedure over the compared benchmarks: each one's p-value from its pooled result,
/// its pooled interval recomputed at the level its rank is judged at (and whether it met the
/// precision target there), and its verdict refused when Holm does not reject it.
fn judge_family(benchmarks: &mut [BuildComparison], o: &BuildsOptions) -> Result<()> {
    // The family is the benchmarks with a pooled result: a failed or stopped one has no
    // verdict to protect.
    let mut family: Vec<&mut BuildComparison> = benchmarks
        .iter_mut()
        .filter(|b| b.pooled.is_some())
        .collect();
    let p: Vec<f64> = family
        .iter()
        .map(|b| b.pooled.as_ref().map_or(1.0, Pooled::p_value))
        .collect();
    let alpha = 1.0 - o.level;
    let steps = holm(&p, alpha)?;
    let m = family.len();
    for (b, step) in family.iter_mut().zip(steps) {
        let Some(before) = b.pooled.take() else {
            continue;
        };
        let mut pooled = pool_pairs(&b.reports, before.first_stage, 1.0 - step.alpha, o.margin)?;
        pooled.target_met = before
            .target_met
            .map(|_| pooled.precise(o.target_abs, o.target_rel));
        pooled.planned_processes = before.planned_processes;
        pooled.plan_end = before.plan_end;
        if !step.rejected {
            pooled.refuse_by_multiplicity(step.adjusted, alpha, m);
        }
        b.pooled = Some(pooled);
        b.holm = Some(step);
    }
    Ok(())
}

/// How the workers of one build start; a pair sets each worker's padding and CPU.
fn launch<'a>(exe: &'a Path, side: Side, o: &'a BuildsOptions) -> Launch<'a> {
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

/// The benchmarks in both builds (in the head's order), only in the head, only in the base.
fn match_names(base: &[String], head: &[String]) -> (Vec<String>, Vec<String>, Vec<String>) {
    let common = head.iter().filter(|n| base.contains(n)).cloned().collect();
    let new = head.iter().filter(|n| !base.contains(n)).cloned().collect();
    let removed = base.iter().filter(|n| !head.contains(n)).cloned().collect();
    (common, new, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_matched_not_required_to_agree() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let (common, new, removed) = match_names(&s(&["a", "b", "old"]), &s(&["b", "fresh", "a"]));
        assert_eq!(common, s(&["b", "a"]));
        assert_eq!(new, s(&["fresh"]));
        assert_eq!(removed, s(&["old"]));
    }

    #[test]
    fn bad_options_are_typed_errors() {
        let exe = Path::new("/nonexistent");
        assert!(matches!(
            compare_builds(exe, exe, &BuildsOptions::default().pairs(2)),
            Err(Error::InvalidOption { name: "pairs", .. })
        ));
        assert!(matches!(
            compare_builds(exe, exe, &BuildsOptions::default().level(1.0)),
            Err(Error::OutOfRange { .. })
        ));
        // A build that cannot start names itself.
        match compare_builds(exe, exe, &BuildsOptions::default()) {
            Err(Error::Worker { build, .. }) => assert_eq!(build, "/nonexistent"),
            other => panic!("{other:?}"),
        }
    }
}
