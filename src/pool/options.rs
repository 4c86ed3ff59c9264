//! The options of a pool and its progress reports.

use std::ffi::OsString;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::compare::CompareOptions;
use crate::error::{Error, Result};
use crate::measure::CancelToken;
use crate::stats::{self, MIN_PROCESSES};

/// Default first-stage size (5 processes).
pub(crate) const DEFAULT_FIRST_STAGE: usize = 5;
/// Default cap on the processes of one pooled comparison (30).
pub const DEFAULT_MAX_PROCESSES: usize = 30;
/// Default absolute precision target: a half-width of 1 percentage point.
pub const DEFAULT_TARGET_ABS: f64 = 0.01;
/// Default relative precision target: a half-width of a quarter of |δ|.
pub const DEFAULT_TARGET_REL: f64 = 0.25;
/// Default time limit for one process (5 minutes).
pub(crate) const DEFAULT_PROCESS_TIMEOUT: Duration = Duration::from_secs(300);
/// Default time budget of a pooled comparison (120 s; see [`PoolOptions::max_duration`]): the
/// first stage always runs, and the main example's five processes take about 4 s.
pub(crate) const DEFAULT_POOL_MAX_DURATION: Duration = Duration::from_secs(120);
/// Default [`CompareOptions::max_duration`] of a pooled comparison's processes (20 s): each
/// process starts no A/A run once 10 s have passed, provided 10 ran. The pooled floor rests on
/// every process's A/A deltas, so five processes of at least 10 runs validate more than one
/// process of 40. Microsecond candidates never reach it (the main example's 40 runs take about
/// 0.4 s); a 4 ms operation's would take 65 s a process, and a first stage of five about six
/// minutes instead of two (docs/background.md, "Fixtures built in a fixed order").
pub(crate) const DEFAULT_PROCESS_MAX_DURATION: Duration = Duration::from_secs(20);

/// Progress of a pooled run, reported after every process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolProgress {
    /// Processes finished (successfully or not).
    pub done: usize,
    /// Processes planned so far (grows after the first stage).
    pub planned: usize,
    /// The last process's index.
    pub index: usize,
    /// Its delta, or `None` when it failed.
    pub delta: Option<f64>,
}

/// A progress callback of a pool; called in the parent between processes.
pub(crate) type PoolProgressFn = Arc<dyn Fn(&PoolProgress) + Send + Sync>;

/// Options of [`run`](super::run): a builder whose methods consume and return `Self`; each
/// method says what it sets, its default, and what [`run`](super::run) refuses.
#[derive(Clone)]
#[non_exhaustive]
pub struct PoolOptions {
    /// Processes in the first stage ([`first_stage`](Self::first_stage)).
    pub(crate) first_stage: usize,
    /// Most processes in all, failures included ([`max_processes`](Self::max_processes)).
    pub(crate) max_processes: usize,
    /// Absolute precision target, a half-width in fractions ([`target`](Self::target)).
    pub(crate) target_abs: f64,
    /// Relative precision target, a half-width as a share of |δ| ([`target`](Self::target)).
    pub(crate) target_rel: f64,
    /// Coverage level of the pooled interval ([`level`](Self::level)).
    pub(crate) level: f64,
    /// Decide instead of measuring to a precision ([`decide`](Self::decide)).
    pub(crate) decide: bool,
    /// The smallest relative difference that matters ([`margin`](Self::margin)).
    pub(crate) margin: f64,
    /// Options of every process's comparison ([`compare`](Self::compare)).
    pub(crate) compare: CompareOptions,
    /// Called in the parent after every process ([`progress`](Self::progress)).
    pub(crate) progress: Option<PoolProgressFn>,
    /// Time limit of one process ([`process_timeout`](Self::process_timeout)).
    pub(crate) process_timeout: Duration,
    /// Time budget of the whole pool; zero: none ([`max_duration`](Self::max_duration)).
    pub(crate) max_duration: Duration,
    /// Seed of the perturbations, paddings and per-process seeds; 0 draws one.
    pub(crate) seed: u64,
    /// Arguments for the children; `None` passes the parent's own ([`args`](Self::args)).
    pub(crate) args: Option<Vec<OsString>>,
    /// Cancels the pool between polls of the running child.
    pub(crate) cancel: Option<CancelToken>,
    /// Perturb every child's heap and environment ([`perturb`](Self::perturb)).
    pub(crate) perturb: bool,
    /// Also perturb before `main` (only with `perturb`): heap filler and a mapping of random
    /// size, which reach fixtures the program builds before it calls [`run`](super::run).
    /// Default true; off only to measure what it does.
    pub(crate) early_perturbation: bool,
    /// Names the pool for its children instead of its call site ([`key`](Self::key)).
    pub(crate) key: Option<String>,
    /// Runs to the cap even when the target is out of reach ([`run_to_cap`](Self::run_to_cap)).
    pub(crate) run_to_cap: bool,
    /// Lets a pool resolve although its fixtures were built in one order
    /// ([`accept_fixed_build_order`](Self::accept_fixed_build_order)).
    pub(crate) accept_fixed_build_order: bool,
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions {
            first_stage: DEFAULT_FIRST_STAGE,
            max_processes: DEFAULT_MAX_PROCESSES,
            target_abs: DEFAULT_TARGET_ABS,
            target_rel: DEFAULT_TARGET_REL,
            margin: crate::stats::DEFAULT_MARGIN,
            decide: true,
            level: stats::DEFAULT_LEVEL,
            compare: CompareOptions::default().max_duration(DEFAULT_PROCESS_MAX_DURATION),
            progress: None,
            process_timeout: DEFAULT_PROCESS_TIMEOUT,
            max_duration: DEFAULT_POOL_MAX_DURATION,
            seed: 0,
            args: None,
            cancel: None,
            perturb: true,
            early_perturbation: true,
            key: None,
            run_to_cap: false,
            accept_fixed_build_order: false,
        }
    }
}

impl fmt::Debug for PoolOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PoolOptions")
            .field("first_stage", &self.first_stage)
            .field("max_processes", &self.max_processes)
            .field("target_abs", &self.target_abs)
            .field("target_rel", &self.target_rel)
            .field("margin", &self.margin)
            .field("decide", &self.decide)
            .field("level", &self.level)
            .field("compare", &self.compare)
            .field("progress", &self.progress.as_ref().map(|_| "Fn"))
            .field("process_timeout", &self.process_timeout)
            .field("max_duration", &self.max_duration)
            .field("seed", &self.seed)
            .field("args", &self.args)
            .field("cancel", &self.cancel)
            .field("perturb", &self.perturb)
            .field("early_perturbation", &self.early_perturbation)
            .field("key", &self.key)
            .field("run_to_cap", &self.run_to_cap)
            .field("accept_fixed_build_order", &self.accept_fixed_build_order)
            .finish()
    }
}

impl PoolOptions {
    /// A lighter protocol per process, for quick local runs: 10 A/A runs instead of 40, 2,000
    /// resamples and a 100 ms warm-up. Pooling across processes covers what the shorter
    /// validation loses in one process's floor.
    pub fn light() -> Self {
        PoolOptions::default().compare(
            CompareOptions::default()
                .validation_runs(10)
                .resamples(2_000)
                .warmup_duration(Duration::from_millis(100))
                .max_duration(DEFAULT_PROCESS_MAX_DURATION),
        )
    }
    /// Re-runs only the calling test in every child: sets [`args`](Self::args) to
    /// `--exact <test name> --nocapture`, the name taken from the current thread (libtest
    /// names each test's thread after the test). Outside a test thread it leaves the
    /// arguments alone.
    pub fn this_test(self) -> Self {
        match std::thread::current().name() {
            Some(name) if name != "main" => {
                let name = name.to_string();
                self.args(["--exact".to_string(), name, "--nocapture".to_string()])
            }
            _ => self,
        }
    }
    /// Processes in the first stage (default 5), from whose spread the rest is planned.
    /// Fewer than 3 is refused by [`run`](super::run) ([`Error::TooFewSamples`]).
    pub fn first_stage(mut self, n: usize) -> Self {
        self.first_stage = n;
        self
    }
    /// The most processes in all, failures included (default 30). Fewer than the first
    /// stage is refused by [`run`](super::run) ([`Error::InvalidOption`]).
    pub fn max_processes(mut self, n: usize) -> Self {
        self.max_processes = n;
        self
    }
    /// The precision target of Stein's plan, used with `.decide(false)`: the pooled
    /// interval's half-width, met when it is at most `abs` (a fraction; default 0.01, one
    /// percentage point) or at most `rel` × |δ| (default 0.25, a quarter of the difference).
    /// `(0, 0)` runs exactly the first stage. Deciding (the default) does not read it. A
    /// negative or non-finite value is refused by [`run`](super::run) ([`Error::OutOfRange`]).
    pub fn target(mut self, abs: f64, rel: f64) -> Self {
        self.target_abs = abs;
        self.target_rel = rel;
        self
    }
    /// Decide instead of measuring to a precision (default true; false gives Stein's plan
    /// toward the [`target`](Self::target)): look after the first stage and after every
    /// first stage's worth of processes more, and stop at the first look whose interval, at
    /// its share of α, decides — faster, slower, or equivalent within ±[`margin`](Self::margin)
    /// (`stats::sequential_look`) — or at the cap or the time
    /// budget. The result's [`decision`](crate::stats::Pooled::decision) holds the looks, and
    /// "equivalent" is the verdict `Equivalent`. False verdicts and false equivalences each stay
    /// at most 1 − level under this stopping (docs/background.md, "Sequential decisions").
    pub fn decide(mut self, on: bool) -> Self {
        self.decide = on;
        self
    }
    /// The smallest relative difference that matters (a fraction, default
    /// [`stats::DEFAULT_MARGIN`](crate::stats::DEFAULT_MARGIN), 2 %): a decision calls
    /// differences inside ±margin equivalent, and processes whose δ lies within it never veto
    /// the pooled verdict as opposite modes. A negative or non-finite margin is refused by
    /// [`run`](super::run) ([`Error::OutOfRange`]).
    pub fn margin(mut self, margin: f64) -> Self {
        self.margin = margin;
        self
    }
    /// The coverage level of the pooled interval (default 0.95). A level outside (0, 1) is
    /// refused by [`run`](super::run) ([`Error::OutOfRange`]).
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// The options of every process's comparison; each process gets its own seed derived
    /// from the pool's. Default: [`CompareOptions::default`] with a `max_duration` of 20 s, so
    /// that each process stops starting A/A runs after 10 s once 10 ran. Options
    /// [`compare`](crate::compare()) refuses fail every process, and the pool with them.
    pub fn compare(mut self, o: CompareOptions) -> Self {
        self.compare = o;
        self
    }
    /// Calls `f` in the parent after every process, with how many finished and how many are
    /// planned (`rtcompare::progress::pool_bar()`, feature `progress`, draws a bar).
    pub fn progress(mut self, f: impl Fn(&PoolProgress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(f));
        self
    }
    /// The time limit of one process (default 5 minutes); a child that exceeds it is killed
    /// and counted as failed. Zero is refused by [`run`](super::run)
    /// ([`Error::InvalidOption`]).
    pub fn process_timeout(mut self, d: Duration) -> Self {
        self.process_timeout = d;
        self
    }
    /// The time budget of the whole pool (default 120 s); zero removes it. The first stage
    /// always runs in full; after it the plan takes at most as many processes as fit in the
    /// time left at the first stage's median process time (the count is fixed from the first
    /// stage, as Stein's plan needs), and no process starts once the budget is spent. When it
    /// binds, the run ends as [`PlanEnd::TimeBudget`](crate::stats::PlanEnd).
    pub fn max_duration(mut self, d: Duration) -> Self {
        self.max_duration = d;
        self
    }
    /// The seed of the perturbations, the paddings and the per-process seeds; 0 (the default)
    /// draws one, which the result records.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// The arguments the children are started with (default: the parent's own).
    pub fn args(mut self, args: impl IntoIterator<Item = impl Into<OsString>>) -> Self {
        self.args = Some(args.into_iter().map(Into::into).collect());
        self
    }
    /// Cancels the pool when `token` is cancelled, between polls of the running child (every
    /// 20 ms): the child is killed, every file removed, and [`run`](super::run) returns
    /// [`Error::Cancelled`].
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }
    /// Perturb every child's heap and environment (default true). Off only to measure what
    /// the perturbation does.
    pub fn perturb(mut self, on: bool) -> Self {
        self.perturb = on;
        self
    }
    /// Sets the `early_perturbation` field (default true); off only to measure what it does.
    pub(crate) fn early_perturbation(mut self, on: bool) -> Self {
        self.early_perturbation = on;
        self
    }
    /// Names the pool for its children instead of its call site (default: none). Children
    /// find their pool by call site and by how many pools of that site ran before it; give a
    /// key when that count can differ between runs of the program (pools started from
    /// threads, or in an order that depends on the input or the clock). An empty key or one
    /// holding a tab or newline is refused by [`run`](super::run) ([`Error::InvalidOption`]).
    pub fn key(mut self, key: &str) -> Self {
        self.key = Some(key.to_string());
        self
    }
    /// Runs to [`max_processes`](Self::max_processes) even when the first stage says the
    /// precision target is out of reach (default false: the run stops after the first stage
    /// and says how many processes the target would need; see
    /// `plan_processes`).
    pub fn run_to_cap(mut self, on: bool) -> Self {
        self.run_to_cap = on;
        self
    }
    /// Lets a pool resolve although its processes built large fixtures before the closure in
    /// one order (default false: such a pool is refused as
    /// [`Unresolved::FixedBuildOrder`](crate::stats::Unresolved::FixedBuildOrder)). Set it when
    /// A and B share what was built, or its order cannot matter; the `fixed_build_order`
    /// warning still says what was not randomised.
    pub fn accept_fixed_build_order(mut self, on: bool) -> Self {
        self.accept_fixed_build_order = on;
        self
    }

    pub(crate) fn check(&self) -> Result<()> {
        if self.first_stage < MIN_PROCESSES {
            return Err(Error::TooFewSamples {
                what: "first_stage processes",
                needed: MIN_PROCESSES,
                got: self.first_stage,
            });
        }
        if self.max_processes < self.first_stage {
            return Err(Error::invalid_option(
                "max_processes",
                format!(
                    "max_processes ({}) must be at least first_stage ({})",
                    self.max_processes, self.first_stage
                ),
            ));
        }
        for (name, v) in [
            ("target_abs", self.target_abs),
            ("target_rel", self.target_rel),
            ("margin", self.margin),
        ] {
            if !(v >= 0.0 && v.is_finite()) {
                return Err(Error::out_of_range(name, v, "a finite value >= 0"));
            }
        }
        if !(self.level > 0.0 && self.level < 1.0) {
            return Err(Error::out_of_range("level", self.level, "0 < level < 1"));
        }
        if let Some(key) = &self.key
            && (key.is_empty() || key.contains(['\t', '\n']))
        {
            return Err(Error::invalid_option(
                "key",
                format!("a pool key must be non-empty and hold no tab or newline; got {key:?}"),
            ));
        }
        if self.process_timeout.is_zero() {
            return Err(Error::invalid_option(
                "process_timeout",
                "a process needs time to run; use a positive timeout",
            ));
        }
        Ok(())
    }
}
