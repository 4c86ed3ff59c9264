//! One benchmark at two builds: each benchmark of two bench binaries compared batch by batch
//! through worker pairs (two workers of each build on one CPU, `pair.rs`), repeated over fresh
//! pairs and pooled, the benchmarks judged together.

use std::cell::RefCell;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::layouts::{DEFAULT_LAYOUTS, DEFAULT_MARGIN, LayoutSpread, VariantSource, Variants};
use super::pair::{self, PairPlan, Placement};
use super::worker::{Launch, Worker};
use crate::compare::CompareOptions;
use crate::compare::report::Report;
use crate::measure::clock::{Clock, MonotonicClock};
use crate::measure::collect::CancelToken;
use crate::pool::combine_reports_staged;
use crate::rng::{Rng, derive_seed, resolve_seed};
use crate::stats::{
    DecisionEnd, HolmStep, MIN_PROCESSES, PlanEnd, Pooled, SequentialDecision, SequentialLook,
    SequentialOptions, SequentialOutcome, holm, plan_processes, sequential_look,
};
use crate::{Error, Result};

/// Version of [`BuildsRun`]'s JSON.
pub const BUILDS_SCHEMA_VERSION: u32 = 1;

/// Where a [`compare_builds`] run stands, reported after every worker pair.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BuildsProgress {
    /// The benchmark's position among those compared, from 0.
    pub benchmark: usize,
    /// Benchmarks to compare in all.
    pub benchmarks: usize,
    /// Its name.
    pub name: String,
    /// Worker pairs it has run.
    pub pairs_done: usize,
    /// Worker pairs planned for it so far (the first stage, then Stein's plan).
    pub pairs_planned: usize,
    /// The last pair's δ (fraction; negative when the head was slower).
    pub delta: f64,
}

/// A progress callback of [`compare_builds`]; called between worker pairs, never while one is
/// measured.
pub type BuildsProgressFn = Arc<dyn Fn(&BuildsProgress) + Send + Sync>;

/// Default [`BuildsOptions::pair_duration`]: 1 s, which a 1 ms benchmark's 101 rounds of
/// four batches (0.4 s) and its warm-up fit into (BACKGROUND.md, "Cross-revision pairs").
pub const DEFAULT_PAIR_DURATION: Duration = Duration::from_secs(1);

/// Options of [`compare_builds`]: a builder whose methods consume and return `Self`.
#[derive(Clone)]
#[non_exhaustive]
pub struct BuildsOptions {
    /// What every worker pair takes from a comparison's options (default
    /// [`CompareOptions::default`]): its rounds (`repeats`, 101), warm-up, batch size or its
    /// calibration, level, resamples, thresholds, cache mode and cancellation token (see
    /// [`cancel`](Self::cancel)). Its A/A validation options do not apply: a pair's null is
    /// measured in its own rounds (see [`compare_builds`]).
    pub compare: CompareOptions,
    /// The longest one worker pair may measure, warm-up included (default
    /// [`DEFAULT_PAIR_DURATION`], 1 s): rounds stop at it, after at least 20. Workers' start
    /// and calibration come on top.
    pub pair_duration: Duration,
    /// Whether the four workers of a pair share one CPU (default true): drawn per pair from
    /// the CPUs this process may use (`sched_getaffinity`, so a `taskset` mask is honoured),
    /// consecutive pairs on consecutive CPUs, the parent waiting on another. False lets the
    /// system place them, which on a virtual machine lets two vCPUs' speeds decide a pair.
    pub cpu_per_pair: bool,
    /// Most code layouts of the two builds a run uses (default [`DEFAULT_LAYOUTS`], 30: one per
    /// pair, as many as `max_pairs`): worker pair k of every benchmark runs layout k mod
    /// `layouts`, and with more than one layout no benchmark runs more pairs than there are
    /// layouts, so that each pair is one draw of code placement and the pooled interval's
    /// width includes it. Only [`compare_layouts`] and [`compare_variants`] have layouts to
    /// choose from; [`compare_builds`] compares one.
    pub layouts: usize,
    /// The smallest relative difference that matters (fraction, default [`DEFAULT_MARGIN`],
    /// 2 %): a benchmark whose layouts alone move δ by more is named
    /// ([`LayoutSpread::beyond_margin`]), pairs within it never veto a verdict as opposite
    /// modes, and with [`decide`](Self::decide) it is the equivalence margin.
    pub margin: f64,
    /// Decide each benchmark instead of measuring it to a precision (default false): a look
    /// after its first `pairs` worker pairs and after every `pairs` more, each an interval at
    /// its share of α ([`stats::sequential_look`](crate::stats::sequential_look)), stopping
    /// at the first that says faster, slower or equivalent within ±`margin`, at the last pair
    /// allowed (`max_pairs`, the layouts) or at `max_duration`. With several benchmarks each
    /// is decided at 1 − (1 − level)/m (Bonferroni), so the family-wise level holds under
    /// every benchmark's stopping; the precision targets are not used.
    pub decide: bool,
    /// Worker pairs in each benchmark's first stage, pooled as processes are (default 5, at
    /// least 3). From their spread, Stein's rule plans how many pairs the precision target
    /// needs, as [`pool::run`](crate::pool::run) does with processes.
    pub pairs: usize,
    /// Most worker pairs per benchmark, first stage included (default 30).
    pub max_pairs: usize,
    /// Absolute precision target of each benchmark's pooled interval: a half-width in
    /// fractions (default 0.01). The target is met when this or the relative one holds; with
    /// both 0, every benchmark runs its first stage only.
    pub target_abs: f64,
    /// Relative precision target: a half-width of at most this share of |δ| (default 0.25).
    pub target_rel: f64,
    /// Longest time one benchmark may spend on worker pairs (default 60 s): the second stage
    /// plans no more pairs than fit in what is left at the first stage's median pair time.
    /// Zero means no budget.
    pub max_duration: Duration,
    /// The family-wise level: with m benchmarks compared, Holm's step-down procedure judges
    /// each at its own level, so that the chance of a false verdict on *any* of them is at
    /// most 1 − level (default 0.95). Each benchmark's interval is reported at the level it
    /// was judged at (between 1 − (1 − level)/m and `level`).
    pub level: f64,
    /// Whether to control the family-wise error over the benchmarks with Holm's procedure
    /// (default true). False judges every benchmark at `level` on its own: with twenty
    /// benchmarks that is a false verdict somewhere in about 64 % of runs that change nothing.
    pub family_wise: bool,
    /// Arguments for every worker (default none; a test binary passes `--exact NAME`).
    pub args: Vec<OsString>,
    /// Longest wait for one answer of a worker (default 60 s); a worker past it is killed and
    /// the comparison fails with [`Error::Worker`].
    pub answer_timeout: Duration,
    /// Seed of the workers' perturbations and the comparisons; 0 draws one.
    pub seed: u64,
    /// Only benchmarks whose name contains this (as `cargo bench -- FILTER` selects them);
    /// default all.
    pub filter: Option<String>,
    /// The filter must equal the whole name (`--exact`; default false).
    pub exact: bool,
    /// Not the benchmarks whose name contains any of these (`--skip`; default none).
    pub skip: Vec<String>,
    /// Called after every worker pair (default none).
    pub progress: Option<BuildsProgressFn>,
    /// The directories the baseline's and the head's workers run in (default none: both in
    /// this process's directory). `cargo bench` runs a bench binary in its package's root, so
    /// a benchmark that reads `benches/data.json` reads its own revision's file only when its
    /// workers start in its own tree.
    pub working_dirs: Option<(PathBuf, PathBuf)>,
}

impl std::fmt::Debug for BuildsOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildsOptions")
            .field("compare", &self.compare)
            .field("pair_duration", &self.pair_duration)
            .field("cpu_per_pair", &self.cpu_per_pair)
            .field("layouts", &self.layouts)
            .field("margin", &self.margin)
            .field("decide", &self.decide)
            .field("pairs", &self.pairs)
            .field("max_pairs", &self.max_pairs)
            .field("target_abs", &self.target_abs)
            .field("target_rel", &self.target_rel)
            .field("max_duration", &self.max_duration)
            .field("level", &self.level)
            .field("family_wise", &self.family_wise)
            .field("args", &self.args)
            .field("answer_timeout", &self.answer_timeout)
            .field("seed", &self.seed)
            .field("filter", &self.filter)
            .field("exact", &self.exact)
            .field("skip", &self.skip)
            .field("progress", &self.progress.as_ref().map(|_| "Fn"))
            .field("working_dirs", &self.working_dirs)
            .finish()
    }
}

impl Default for BuildsOptions {
    fn default() -> Self {
        BuildsOptions {
            compare: CompareOptions::default(),
            pair_duration: DEFAULT_PAIR_DURATION,
            cpu_per_pair: true,
            layouts: DEFAULT_LAYOUTS,
            margin: DEFAULT_MARGIN,
            decide: false,
            pairs: 5,
            max_pairs: crate::pool::DEFAULT_MAX_PROCESSES,
            target_abs: crate::pool::DEFAULT_TARGET_ABS,
            target_rel: crate::pool::DEFAULT_TARGET_REL,
            max_duration: Duration::from_secs(60),
            level: 0.95,
            family_wise: true,
            args: Vec::new(),
            answer_timeout: Duration::from_secs(60),
            seed: 0,
            filter: None,
            exact: false,
            skip: Vec::new(),
            progress: None,
            working_dirs: None,
        }
    }
}

impl BuildsOptions {
    /// Sets [`compare`](Self::compare).
    pub fn compare(mut self, c: CompareOptions) -> Self {
        self.compare = c;
        self
    }
    /// Sets [`pair_duration`](Self::pair_duration).
    pub fn pair_duration(mut self, d: Duration) -> Self {
        self.pair_duration = d;
        self
    }
    /// Sets [`cpu_per_pair`](Self::cpu_per_pair).
    pub fn cpu_per_pair(mut self, on: bool) -> Self {
        self.cpu_per_pair = on;
        self
    }
    /// Sets [`layouts`](Self::layouts).
    pub fn layouts(mut self, k: usize) -> Self {
        self.layouts = k;
        self
    }
    /// Sets [`margin`](Self::margin).
    pub fn margin(mut self, m: f64) -> Self {
        self.margin = m;
        self
    }
    /// Sets the run's cancellation token, kept in [`compare`](Self::compare)'s collect options
    /// (so a later [`compare`](Self::compare) call replaces it): once it is cancelled, the
    /// run stops at the next batch or the next answer awaited (within 0.1 s), kills its
    /// workers and returns what it measured, with [`BuildsRun::stopped`] set. A cancelled run
    /// is not an error.
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.compare.collect.cancel = Some(token);
        self
    }
    /// Sets [`decide`](Self::decide).
    pub fn decide(mut self, on: bool) -> Self {
        self.decide = on;
        self
    }
    /// Sets [`pairs`](Self::pairs).
    pub fn pairs(mut self, k: usize) -> Self {
        self.pairs = k;
        self
    }
    /// Sets [`max_pairs`](Self::max_pairs).
    pub fn max_pairs(mut self, k: usize) -> Self {
        self.max_pairs = k;
        self
    }
    /// Sets both precision targets ([`target_abs`](Self::target_abs),
    /// [`target_rel`](Self::target_rel)); (0, 0) runs the first stage only.
    pub fn target(mut self, abs: f64, rel: f64) -> Self {
        self.target_abs = abs;
        self.target_rel = rel;
        self
    }
    /// Sets [`max_duration`](Self::max_duration).
    pub fn max_duration(mut self, d: Duration) -> Self {
        self.max_duration = d;
        self
    }
    /// Sets [`family_wise`](Self::family_wise).
    pub fn family_wise(mut self, on: bool) -> Self {
        self.family_wise = on;
        self
    }
    /// Sets [`level`](Self::level).
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Sets [`args`](Self::args).
    pub fn args(mut self, args: impl IntoIterator<Item = impl Into<OsString>>) -> Self {
        self.args = args.into_iter().map(Into::into).collect();
        self
    }
    /// Sets [`answer_timeout`](Self::answer_timeout).
    pub fn answer_timeout(mut self, d: Duration) -> Self {
        self.answer_timeout = d;
        self
    }
    /// Sets [`filter`](Self::filter).
    pub fn filter(mut self, f: impl Into<String>) -> Self {
        self.filter = Some(f.into());
        self
    }
    /// Sets [`exact`](Self::exact).
    pub fn exact(mut self, on: bool) -> Self {
        self.exact = on;
        self
    }
    /// Adds a pattern to [`skip`](Self::skip).
    pub fn skip(mut self, pattern: impl Into<String>) -> Self {
        self.skip.push(pattern.into());
        self
    }
    /// Sets [`progress`](Self::progress).
    pub fn progress(mut self, f: impl Fn(&BuildsProgress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(f));
        self
    }
    /// Sets [`seed`](Self::seed).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// Sets [`working_dirs`](Self::working_dirs): the baseline's workers start in `base`, the
    /// head's in `head`. A directory that does not exist fails the first worker's start with
    /// [`Error::Worker`].
    pub fn working_dirs(mut self, base: impl Into<PathBuf>, head: impl Into<PathBuf>) -> Self {
        self.working_dirs = Some((base.into(), head.into()));
        self
    }
}

/// What became of a benchmark: compared, in one build only, failed, or not reached. Its JSON
/// word is the variant's name in snake case (`"compared"`, `"new"`, `"removed"`, `"failed"`,
/// `"stopped"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum BuildStatus {
    /// In both: compared.
    Compared,
    /// Only in the head build.
    New,
    /// Only in the baseline build.
    Removed,
    /// In both, but a worker pair failed twice (a panic, a batch that ignores n, a crash, an
    /// answer timeout): [`BuildComparison::failure`] says which pair, which build and why. The
    /// other benchmarks were compared as usual.
    Failed,
    /// In both, but the run stopped ([`BuildsRun::stopped`]) before it had the pairs to pool
    /// (the first stage's); the pairs it had are kept in [`BuildComparison::reports`].
    Stopped,
}

impl BuildStatus {
    /// The status's JSON word: `"compared"`, `"new"`, `"removed"`, `"failed"` or `"stopped"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BuildStatus::Compared => "compared",
            BuildStatus::New => "new",
            BuildStatus::Removed => "removed",
            BuildStatus::Failed => "failed",
            BuildStatus::Stopped => "stopped",
        }
    }
}

/// A worker pair that did not give a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairFailure {
    /// The pair's index among the benchmark's pairs, from 0.
    pub pair: usize,
    /// The code layout it ran (an index, from 0).
    pub layout: usize,
    /// The executable of the build whose worker failed, when one did.
    pub build: Option<String>,
    /// What happened, in words: the worker's error with the last lines of its stderr (a
    /// panic's message), or the statistics' or the calibration's error.
    pub reason: String,
}

impl std::fmt::Display for PairFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pair {} (layout {})", self.pair + 1, self.layout)?;
        if let Some(build) = &self.build {
            write!(f, ", build {build}")?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl PairFailure {
    fn of(pair: usize, layout: usize, e: &Error) -> PairFailure {
        let (build, reason) = match e {
            Error::Worker { build, reason, .. } => (Some(build.clone()), reason.clone()),
            other => (None, other.to_string()),
        };
        PairFailure {
            pair,
            layout,
            build,
            reason,
        }
    }
}

/// Why a [`compare_layouts`] run ended before every benchmark had its pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Stopped {
    /// The options' cancellation token was cancelled (`rtcompare bench` sets it on SIGINT and
    /// SIGTERM); the run stopped at the next batch.
    Interrupted,
    /// A code layout the next pair needed could not be made ([`BuildsRun::stop_reason`] says
    /// why); the run kept what it had measured.
    LayoutFailed,
}

/// One benchmark's result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildComparison {
    /// The benchmark's registered name.
    pub name: String,
    /// Whether it was compared.
    pub status: BuildStatus,
    /// The pooled comparison over worker pairs, δ = 1 − head/baseline (negative when the head
    /// is slower); `None` unless compared.
    pub pooled: Option<Pooled>,
    /// Every worker pair's report (A the head, B the baseline).
    pub reports: Vec<Report>,
    /// Its place in Holm's procedure over the compared benchmarks; `None` when not compared
    /// or when [`BuildsOptions::family_wise`] is off.
    #[serde(default)]
    pub holm: Option<HolmStep>,
    /// Wall time spent on its worker pairs, in seconds (0 when not compared), without the
    /// time spent making layout variants.
    #[serde(default)]
    pub seconds: f64,
    /// How much code placement moves it: its pairs' spread split into the layouts' part and
    /// the processes'; `None` unless its pairs ran at least two layouts.
    #[serde(default)]
    pub layout: Option<LayoutSpread>,
    /// The pair that failed the benchmark (status [`BuildStatus::Failed`]); `None` otherwise.
    #[serde(default)]
    pub failure: Option<PairFailure>,
    /// A pair that failed once and was run again with fresh workers (each benchmark gets
    /// one such retry); empty when none failed.
    #[serde(default)]
    pub retried: Vec<PairFailure>,
}

/// Everything [`compare_builds`] found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildsRun {
    /// [`BUILDS_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The seed the run used.
    pub seed: u64,
    /// The family-wise level the verdicts hold at together (Holm over the compared
    /// benchmarks), or `None` when each was judged on its own at [`BuildsOptions::level`].
    #[serde(default)]
    pub family_level: Option<f64>,
    /// Layout variants of each build the worker pairs ran (1: one layout, code placement not
    /// varied).
    #[serde(default = "one")]
    pub layout_variants: usize,
    /// Wall time spent making layout variants during the run (in the source
    /// [`compare_layouts`] was given), in seconds.
    #[serde(default)]
    pub layout_seconds: f64,
    /// Why the run ended early, or `None` when every benchmark had its pairs. A stopped run
    /// still holds every pair measured: benchmarks with a first stage of pairs are pooled
    /// ([`PlanEnd::Interrupted`]), the others have status [`BuildStatus::Stopped`].
    #[serde(default)]
    pub stopped: Option<Stopped>,
    /// What stopped it, in words; `None` when it was not stopped.
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// Benchmarks in both builds first (in the head's order; compared, failed or stopped),
    /// then new, then removed ones.
    pub benchmarks: Vec<BuildComparison>,
}

impl BuildsRun {
    /// The benchmarks that failed (status [`BuildStatus::Failed`]).
    pub fn failed(&self) -> impl Iterator<Item = &BuildComparison> {
        self.benchmarks
            .iter()
            .filter(|b| b.status == BuildStatus::Failed)
    }
}

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
    let mut benchmarks = Vec::new();
    let mut stop: Option<(Stopped, String)> = None;
    for (i, name) in common.iter().enumerate() {
        if stop.is_none() && builds.cancelled() {
            stop = Some((Stopped::Interrupted, INTERRUPTED.to_string()));
        }
        if stop.is_some() {
            benchmarks.push(BuildComparison::without_pairs(name, BuildStatus::Stopped));
            continue;
        }
        let started = Instant::now();
        let making = builds.variants.borrow().making;
        let outcome = builds.benchmark(name, i, derive_seed(seed, 1 + i as u64), &mut rng);
        let seconds = started
            .elapsed()
            .saturating_sub(builds.variants.borrow().making - making)
            .as_secs_f64();
        stop = outcome.stop;
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

impl BuildComparison {
    /// A benchmark no pair ran for: new, removed, or not reached.
    fn without_pairs(name: &str, status: BuildStatus) -> BuildComparison {
        BuildComparison {
            name: name.to_string(),
            status,
            pooled: None,
            reports: Vec::new(),
            holm: None,
            seconds: 0.0,
            layout: None,
            failure: None,
            retried: Vec::new(),
        }
    }
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
struct Builds<'a, 'v> {
    /// The layouts of the two builds, made as pairs need them.
    variants: RefCell<Variants<'v>>,
    /// The caller's comparison options, as given, and resolved.
    options: &'a CompareOptions,
    resolved: &'a CompareOptions,
    /// The clock's figures, measured once per run.
    instrument: &'a crate::measure::clock::Instrument,
    /// The CPUs this process may use, in ascending order (empty where the system cannot say).
    allowed: Vec<usize>,
    o: &'a BuildsOptions,
    /// Benchmarks compared in all, for the progress reports and the planning level.
    benchmarks: usize,
}

impl Builds<'_, '_> {
    /// The level a benchmark's plan aims at: the family-wise level's strictest Holm step
    /// (1 − (1 − level)/m) when the benchmarks are judged together, since the rank a
    /// benchmark will take is not known until all are measured, else the level itself.
    fn plan_level(&self) -> f64 {
        let o = self.o;
        if o.family_wise && self.benchmarks > 1 {
            1.0 - (1.0 - o.level) / self.benchmarks as f64
        } else {
            o.level
        }
    }

    /// Whether the run's cancellation token has been cancelled.
    fn cancelled(&self) -> bool {
        self.o
            .compare
            .collect
            .cancel
            .as_ref()
            .is_some_and(|t| t.is_cancelled())
    }

    /// One benchmark in stages (see [`Builds::pooled`]), its failures and a stop turned into
    /// its outcome: a pair that fails twice fails the benchmark, not the run; a stop keeps the
    /// pairs measured, pooled when the first stage is complete.
    fn benchmark(&self, name: &str, position: usize, seed: u64, rng: &mut Rng) -> Outcome {
        let mut ran = Ran::default();
        let halt = match self.pooled(name, position, seed, rng, &mut ran) {
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
    fn pair(
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
                    return Err(Halt::Stopped(Stopped::Interrupted, INTERRUPTED.to_string()));
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
                return Err(Halt::Stopped(Stopped::Interrupted, INTERRUPTED.to_string()));
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
        if o.decide {
            return self.decided(name, position, seed, offset, ran, &spent);
        }
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
        // With several layouts, a pair beyond the last layout would repeat one, and the pairs
        // would no longer be independent draws of code placement.
        let most = if o.layouts > 1 {
            o.max_pairs.max(o.pairs).min(o.layouts)
        } else {
            o.max_pairs.max(o.pairs)
        };
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

    /// One benchmark decided sequentially ([`BuildsOptions::decide`]): `pairs` worker pairs
    /// between looks, at most as many as `max_pairs` and the layouts allow, stopping at the
    /// first look that decides or when `max_duration` is spent; pooled on the last look's
    /// interval at its level, with every floor and veto of a pooled verdict.
    fn decided(
        &self,
        name: &str,
        position: usize,
        seed: u64,
        offset: usize,
        ran: &mut Ran,
        spent: &dyn Fn() -> Duration,
    ) -> Result<Pooled, Halt> {
        let o = self.o;
        let most = if o.layouts > 1 {
            o.max_pairs.max(o.pairs).min(o.layouts)
        } else {
            o.max_pairs.max(o.pairs)
        };
        let plan = SequentialOptions::default()
            .level(self.plan_level())
            .margin(o.margin)
            .max_n(most);
        let mut looks: Vec<SequentialLook> = Vec::new();
        let over_budget = || !o.max_duration.is_zero() && spent() >= o.max_duration;
        let end = loop {
            let previous = looks.last().map_or(0, |l| l.n);
            let want = (previous + o.pairs).min(most);
            ran.planned = want;
            while ran.reports.len() < want {
                if ran.reports.len() >= MIN_PROCESSES && over_budget() {
                    break;
                }
                let k = ran.reports.len();
                let report = self.pair(name, offset, seed, k, &mut ran.retried)?;
                ran.reports.push(report);
                self.tell(name, position, &ran.reports, want);
            }
            if ran.reports.len() > previous {
                let deltas: Vec<f64> = ran.reports.iter().map(|r| r.estimate.delta).collect();
                let look = sequential_look(&deltas, previous, &plan).map_err(|e| {
                    Halt::Failed(PairFailure {
                        pair: deltas.len(),
                        layout: 0,
                        build: None,
                        reason: format!("its pairs could not be decided on: {e}"),
                    })
                })?;
                let (decided, last) = (look.outcome.decided(), look.last);
                looks.push(look);
                if decided {
                    break DecisionEnd::Decided;
                }
                if last {
                    break DecisionEnd::LastLook;
                }
            }
            if over_budget() {
                break DecisionEnd::TimeBudget;
            }
        };
        let last = *looks.last().expect("a look is made before the loop ends");
        let level = (1.0 - last.alpha).clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
        let mut pooled = pool_pairs(&ran.reports, 0, level, o.margin).map_err(|e| {
            Halt::Failed(PairFailure {
                pair: ran.reports.len(),
                layout: 0,
                build: None,
                reason: format!("its pairs could not be pooled: {e}"),
            })
        })?;
        if last.outcome == SequentialOutcome::Equivalent && !pooled.resolved {
            pooled.verdict =
                crate::stats::Verdict::CannotTell(crate::stats::Unresolved::Equivalent {
                    margin: o.margin,
                    low: pooled.low,
                    high: pooled.high,
                });
        }
        pooled.planned_processes = most;
        pooled.decision = Some(SequentialDecision::new(&plan, looks, end));
        Ok(pooled)
    }

    /// Reports the pairs done to the progress callback, if any.
    fn tell(&self, name: &str, position: usize, reports: &[Report], planned: usize) {
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
struct Ran {
    reports: Vec<Report>,
    retried: Vec<PairFailure>,
    /// Pairs planned so far (the first stage's, then Stein's plan).
    planned: usize,
}

/// Why a benchmark's pairs ended before its plan did.
enum Halt {
    /// A pair failed after its retry: the benchmark fails, the run goes on.
    Failed(PairFailure),
    /// The run stops, and why.
    Stopped(Stopped, String),
}

/// What one benchmark came to.
struct Outcome {
    status: BuildStatus,
    pooled: Option<Pooled>,
    reports: Vec<Report>,
    failure: Option<PairFailure>,
    retried: Vec<PairFailure>,
    /// Why the run stops after this benchmark, when it does.
    stop: Option<(Stopped, String)>,
}

/// The worker pairs pooled as processes are (Stein's interval after a first stage of
/// `first_stage`, 0 for none), at `level`, with the pooled verdict held to the median pair's
/// own floor as well as to the pooled one: a difference that most pairs could not tell from
/// their own A/A differences is not called, however many pairs narrowed the interval
/// (BACKGROUND.md, "Cross-revision pairs").
fn pool_pairs(reports: &[Report], first_stage: usize, level: f64, margin: f64) -> Result<Pooled> {
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

/// The serde default of [`BuildsRun::layout_variants`]: runs written before layouts had one.
fn one() -> usize {
    1
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
