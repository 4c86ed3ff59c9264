//! The options of a cross-revision run ([`BuildsOptions`]) and its progress reports.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[cfg(doc)]
use super::BuildsRun;
#[cfg(doc)]
use super::builds::{compare_builds, compare_layouts, compare_variants};
#[cfg(doc)]
use super::layouts::LayoutSpread;
use super::layouts::{DEFAULT_LAYOUTS, DEFAULT_MARGIN};
use crate::compare::CompareOptions;
#[cfg(doc)]
use crate::error::Error;
use crate::measure::CancelToken;

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
    /// The last pair's change of the head's time against the baseline's (fraction; + = the
    /// head was slower), the direction every number a person reads is printed in.
    pub change: f64,
}

/// A progress callback of [`compare_builds`]; called between worker pairs, never while one is
/// measured.
pub type BuildsProgressFn = Arc<dyn Fn(&BuildsProgress) + Send + Sync>;

/// Default [`BuildsOptions::pair_duration`]: 1 s, which a 1 ms benchmark's 101 rounds of
/// four batches (0.4 s) and its warm-up fit into (docs/background.md, "Cross-revision pairs").
pub(crate) const DEFAULT_PAIR_DURATION: Duration = Duration::from_secs(1);

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
    /// `DEFAULT_PAIR_DURATION`, 1 s): rounds stop at it, after at least 20. Workers' start
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
    /// Decide each benchmark instead of measuring it to a precision (default true; false
    /// gives Stein's plan toward `target_abs`/`target_rel`): a look
    /// after its first `pairs` worker pairs and after every `pairs` more, each an interval at
    /// its share of α (`stats::sequential_look`), stopping
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
    /// The time budget of the whole suite with [`decide`](Self::decide) (default zero: no
    /// budget): every benchmark gets its first stage, then the time left goes, a stage at a
    /// time, to the undecided benchmark closest to deciding; when it runs out the undecided
    /// end there ("cannot tell below ±X %"). Counted on worker pairs (making layouts left
    /// out); the first stages are never cut, so a suite whose first stages alone take longer
    /// overruns it. `max_duration` still caps each benchmark.
    pub budget: Duration,
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
            .field("budget", &self.budget)
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
            decide: true,
            pairs: 5,
            max_pairs: crate::pool::DEFAULT_MAX_PROCESSES,
            target_abs: crate::pool::DEFAULT_TARGET_ABS,
            target_rel: crate::pool::DEFAULT_TARGET_REL,
            max_duration: Duration::from_secs(60),
            budget: Duration::ZERO,
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
    /// Sets [`budget`](Self::budget).
    pub fn budget(mut self, d: Duration) -> Self {
        self.budget = d;
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
