//! Interleaved, paired collection of samples from two candidates.
//!
//! Anything that changes over a run (the clock frequency settling, a background job, a cache
//! that fills) must hit both candidates equally, or it becomes part of the difference. So the
//! candidates are never measured in two blocks one after the other: each **repeat** measures one
//! batch of A and one batch of B next to each other, and the two samples of repeat i form
//! **pair** i. Within a repeat the order follows [`Order`]: by default ABBA (A B on even
//! repeats, B A on odd ones), which gives both candidates the same mean position over every
//! four batches and lets each be preceded by the other half the time, cancelling a linear trend
//! and carry-over from one batch to the next.
//!
//! Before the first repeat both candidates are **warmed up**, alternating in the same order,
//! until each has run at least `warmup` batches **and** the warm-up has lasted `warmup_duration`
//! (300 ms by default, a margin above the time identical candidates take to stop favouring
//! whichever had last run alone; docs/background.md, section "Warm-up").
//!
//! By default the caches stay **warm**: every batch finds them as the previous one left them.
//! [`Cache::Cold`] runs the other experiment: the caches are evicted before every batch
//! (warm-up included), outside the timed region, and batches hold one operation unless
//! `inner_loops` is fixed (see [`cache`](crate::measure::cache)).
//!
//! Samples are nanoseconds per operation (batch duration / batch size); the raw batch durations
//! are kept too. Between batches, and only there, the loop checks for cancellation and reports
//! progress; inside a measured region nothing allocates, logs, locks or calls back.
//!
//! **Why one file.** The options, the session that runs the rounds and the sample store it fills
//! are one protocol: the session's loop is the only writer of [`PairedSamples`], and keeping the
//! warm-up, the order, the cache eviction and the optional counters and allocation deltas beside
//! it is what lets a reader check that nothing runs inside a measured region.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::alloc::{self, AllocDelta, AllocSummary};
use crate::error::{Error, Result};
use crate::measure::cache::{Cache, CacheInfo, Evictor};
use crate::measure::calibrate::{
    Calibration, CalibrationOptions, DEFAULT_MAX_INNER_LOOPS, DEFAULT_MAX_QUANTIZATION_ERROR,
    calibrate_with_clock,
};
use crate::measure::candidate::Candidate;
use crate::measure::clock::{Clock, MonotonicClock};
use crate::measure::counters::{
    CounterDelta, CounterFailure, CounterSet, CounterSummary, Unavailable,
};
use crate::rng::Rng;
use crate::stats::MINIMUM_DATA_POINTS;

/// Default number of paired samples per candidate (101: odd, so the median is a measured value,
/// and comfortably above [`MINIMUM_DATA_POINTS`]).
pub(crate) const DEFAULT_REPEATS: usize = 101;
/// Default least number of warm-up batches per candidate.
pub const DEFAULT_WARMUP: usize = 1;
/// Default least duration of the warm-up, both candidates together (300 ms).
pub(crate) const DEFAULT_WARMUP_DURATION: Duration = Duration::from_millis(300);

/// The order of the two candidates within each repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// A then B on even repeats, B then A on odd ones (the default): cancels a linear trend
    /// and carry-over between neighbouring batches.
    #[default]
    Abba,
    /// A fair coin per repeat, from [`CollectOptions::seed`]: use it when interference might be
    /// periodic and alias with strict alternation.
    Random,
    /// Always A before B. The naive order, kept only to compare against.
    Sequential,
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Abba => "ABBA",
            Order::Random => "random",
            Order::Sequential => "sequential",
        })
    }
}

/// A shared flag that asks a running collection or comparison to stop.
///
/// Clones share the flag. The measuring loop checks it between batches, so a cancelled run
/// returns [`Error::Cancelled`] within one batch.
///
/// ```
/// let token = rtcompare::measure::CancelToken::new();
/// let for_other_thread = token.clone();
/// for_other_thread.cancel();
/// assert!(token.is_cancelled());
/// ```
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token that has not been cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every run holding a clone of this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) has been called on any clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A stage of a measurement, as reported through a progress callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Stage {
    /// Sizing the batches.
    Calibrating,
    /// A/A validation runs.
    Validating,
    /// Unmeasured warm-up batches.
    WarmingUp,
    /// The paired measurement.
    Measuring,
    /// The bootstrap.
    Resampling,
}

impl Stage {
    /// The stage's name in lower case (`"measuring"`, …).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Stage::Calibrating => "calibrating",
            Stage::Validating => "validating",
            Stage::WarmingUp => "warming up",
            Stage::Measuring => "measuring",
            Stage::Resampling => "resampling",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A progress report: the stage and how far it has come (`done` of `total` steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The running stage.
    pub stage: Stage,
    /// Steps done in this stage (repeats, validation runs, …).
    pub done: usize,
    /// Steps this stage will take.
    pub total: usize,
}

/// A progress callback. Called only between batches, never inside a measured region.
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// Options for [`collect`]. Zero means the documented default for every numeric field.
#[derive(Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CollectOptions {
    /// Paired samples per candidate. Default `DEFAULT_REPEATS` (101); at least
    /// `MINIMUM_DATA_POINTS` (11). More repeats narrow the interval, not the noise floor.
    pub repeats: usize,
    /// Operations per batch. 0 calibrates both candidates and uses the larger size for both;
    /// in a cold run ([`Cache::Cold`]) 0 means one operation per batch, without calibrating.
    pub inner_loops: u64,
    /// Largest share of a batch one clock step may be, for calibration; in (0, 1). Default
    /// 0.001.
    pub max_quantization_error: f64,
    /// Cap on the calibrated batch size. Default 10⁸.
    pub max_inner_loops: u64,
    /// Order within each repeat. Default [`Order::Abba`].
    pub order: Order,
    /// Least warm-up batches per candidate. Default [`DEFAULT_WARMUP`] (1).
    pub warmup: usize,
    /// Least duration of the warm-up, both candidates together. Default
    /// `DEFAULT_WARMUP_DURATION` (300 ms); use 1 ns to warm up by count alone.
    pub warmup_duration: Duration,
    /// No warm-up at all.
    pub skip_warmup: bool,
    /// Seed for [`Order::Random`]; 0 draws one (the one used is recorded in
    /// [`PairedSamples::seed`]).
    pub seed: u64,
    /// Read hardware counters (cycles, instructions, cache and branch misses) around every
    /// measured batch and summarise them per operation in [`PairedSamples::counters`]. Needs
    /// the `counters` feature on Linux and a machine that exposes them; otherwise the summary
    /// says "unavailable". Diagnostics only: they never decide a verdict.
    pub counters: bool,
    /// What the caches hold when a batch starts. Default [`Cache::Warm`] (the batches follow
    /// one another). [`Cache::Cold`] evicts the caches before every batch, outside the timed
    /// region, with a buffer of twice the last-level cache allocated once per call (64 MiB on
    /// a 32 MiB L3, about 3 ms per batch), and runs batches of one operation unless
    /// `inner_loops` is fixed. Absent from JSON written before the option existed: warm.
    #[serde(default)]
    pub cache: Cache,
    /// Stop with [`Error::Cancelled`] once this much time has passed since the call started
    /// (checked between batches). `None`: no deadline. A zero timeout is rejected.
    pub timeout: Option<Duration>,
    /// Stop with [`Error::Cancelled`] when this token is cancelled (checked between batches).
    #[serde(skip)]
    pub cancel: Option<CancelToken>,
    /// Called between batches with the stage and progress.
    #[serde(skip)]
    pub progress: Option<ProgressFn>,
}

impl fmt::Debug for CollectOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CollectOptions")
            .field("repeats", &self.repeats)
            .field("inner_loops", &self.inner_loops)
            .field("max_quantization_error", &self.max_quantization_error)
            .field("max_inner_loops", &self.max_inner_loops)
            .field("order", &self.order)
            .field("warmup", &self.warmup)
            .field("warmup_duration", &self.warmup_duration)
            .field("skip_warmup", &self.skip_warmup)
            .field("seed", &self.seed)
            .field("counters", &self.counters)
            .field("cache", &self.cache)
            .field("timeout", &self.timeout)
            .field("cancel", &self.cancel.is_some())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl PartialEq for CollectOptions {
    /// Compares every recorded field; the cancel token and progress callback are ignored.
    fn eq(&self, o: &Self) -> bool {
        self.repeats == o.repeats
            && self.inner_loops == o.inner_loops
            && self.max_quantization_error.to_bits() == o.max_quantization_error.to_bits()
            && self.max_inner_loops == o.max_inner_loops
            && self.order == o.order
            && self.warmup == o.warmup
            && self.warmup_duration == o.warmup_duration
            && self.skip_warmup == o.skip_warmup
            && self.seed == o.seed
            && self.counters == o.counters
            && self.cache == o.cache
            && self.timeout == o.timeout
    }
}

impl Default for CollectOptions {
    fn default() -> Self {
        CollectOptions {
            repeats: DEFAULT_REPEATS,
            inner_loops: 0,
            max_quantization_error: DEFAULT_MAX_QUANTIZATION_ERROR,
            max_inner_loops: DEFAULT_MAX_INNER_LOOPS,
            order: Order::Abba,
            warmup: DEFAULT_WARMUP,
            warmup_duration: DEFAULT_WARMUP_DURATION,
            skip_warmup: false,
            seed: 0,
            counters: false,
            cache: Cache::Warm,
            timeout: None,
            cancel: None,
            progress: None,
        }
    }
}

impl CollectOptions {
    /// Sets [`repeats`](Self::repeats).
    pub fn repeats(mut self, repeats: usize) -> Self {
        self.repeats = repeats;
        self
    }
    /// Sets [`inner_loops`](Self::inner_loops) (0 = calibrate).
    pub fn inner_loops(mut self, n: u64) -> Self {
        self.inner_loops = n;
        self
    }
    /// Sets [`max_quantization_error`](Self::max_quantization_error).
    pub fn max_quantization_error(mut self, e: f64) -> Self {
        self.max_quantization_error = e;
        self
    }
    /// Sets [`max_inner_loops`](Self::max_inner_loops).
    pub fn max_inner_loops(mut self, n: u64) -> Self {
        self.max_inner_loops = n;
        self
    }
    /// Sets [`order`](Self::order).
    pub fn order(mut self, order: Order) -> Self {
        self.order = order;
        self
    }
    /// Sets [`warmup`](Self::warmup).
    pub fn warmup(mut self, batches: usize) -> Self {
        self.warmup = batches;
        self
    }
    /// Sets [`warmup_duration`](Self::warmup_duration).
    pub fn warmup_duration(mut self, d: Duration) -> Self {
        self.warmup_duration = d;
        self
    }
    /// Sets [`skip_warmup`](Self::skip_warmup).
    pub fn skip_warmup(mut self, skip: bool) -> Self {
        self.skip_warmup = skip;
        self
    }
    /// Sets [`seed`](Self::seed).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// Sets [`counters`](Self::counters).
    pub fn counters(mut self, on: bool) -> Self {
        self.counters = on;
        self
    }
    /// Sets [`cache`](Self::cache): [`Cache::Warm`] (the default) or [`Cache::Cold`].
    pub fn cache(mut self, cache: Cache) -> Self {
        self.cache = cache;
        self
    }
    /// Sets [`timeout`](Self::timeout).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }
    /// Sets [`cancel`](Self::cancel).
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }
    /// Sets [`progress`](Self::progress).
    pub fn progress(mut self, f: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(f));
        self
    }

    /// The options with every zero replaced by its default, checked.
    pub(crate) fn resolved(&self) -> Result<CollectOptions> {
        let mut o = self.clone();
        if o.repeats == 0 {
            o.repeats = DEFAULT_REPEATS;
        }
        if o.repeats < MINIMUM_DATA_POINTS {
            return Err(Error::TooFewSamples {
                what: "repeats",
                needed: MINIMUM_DATA_POINTS,
                got: o.repeats,
            });
        }
        o.max_quantization_error = self
            .calibration_options()
            .resolved()?
            .max_quantization_error;
        if o.max_inner_loops == 0 {
            o.max_inner_loops = DEFAULT_MAX_INNER_LOOPS;
        }
        if o.warmup == 0 {
            o.warmup = DEFAULT_WARMUP;
        }
        if o.warmup_duration.is_zero() {
            o.warmup_duration = DEFAULT_WARMUP_DURATION;
        }
        if o.timeout == Some(Duration::ZERO) {
            return Err(Error::invalid_option(
                "timeout",
                "a zero timeout would cancel before the first batch; use None for no deadline",
            ));
        }
        Ok(o)
    }

    /// The calibration options these collection options imply.
    pub(crate) fn calibration_options(&self) -> CalibrationOptions {
        CalibrationOptions::default()
            .max_quantization_error(self.max_quantization_error)
            .max_inner_loops(self.max_inner_loops)
    }
}

/// Which candidate a slot belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// The first candidate.
    A,
    /// The second candidate.
    B,
}

/// The result of [`collect`]: paired samples and how they were taken.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedSamples {
    /// Nanoseconds per operation of A, one per repeat, in measurement order.
    pub a: Vec<f64>,
    /// Nanoseconds per operation of B; `b[i]` was measured in the same repeat as `a[i]`.
    pub b: Vec<f64>,
    /// Raw duration of each of A's batches in nanoseconds (`a[i] = batch_ns_a[i] / inner_loops`).
    pub batch_ns_a: Vec<u64>,
    /// Raw duration of each of B's batches in nanoseconds.
    pub batch_ns_b: Vec<u64>,
    /// Which candidate ran first in each repeat.
    pub first: Vec<Side>,
    /// Operations per batch, the same for both candidates.
    pub inner_loops: u64,
    /// The order used.
    pub order: Order,
    /// The seed that drove [`Order::Random`] (0 for the other orders).
    pub seed: u64,
    /// Warm-up batches run per candidate (A, B).
    pub warmup_batches: (usize, usize),
    /// Duration of the warm-up in nanoseconds.
    pub warmup_ns: u64,
    /// Calibration of A and of B, when the batch size was calibrated.
    pub calibration: Option<(Calibration, Calibration)>,
    /// Per-operation hardware counter medians of both sides, when
    /// [`CollectOptions::counters`] asked for them (possibly "unavailable").
    pub counters: Option<CounterSummary>,
    /// Per-operation allocation medians of both sides, when a
    /// [`Counting`](crate::alloc::Counting) allocator is installed; else `None`.
    #[serde(default)]
    pub allocations: Option<AllocSummary>,
    /// The cache mode the samples were taken in (warm when read from JSON that predates it).
    #[serde(default)]
    pub cache: Cache,
    /// In a cold run, the last-level cache found, the eviction buffer's size and the number of
    /// evictions (one per batch, warm-up included); `None` in a warm run.
    #[serde(default)]
    pub cache_info: Option<CacheInfo>,
}

/// Measures both candidates in interleaved, paired batches on the process's monotonic clock.
///
/// Returns `repeats` samples per candidate in nanoseconds per operation. Errors: options out of
/// range ([`Error::TooFewSamples`] for repeats, [`Error::OutOfRange`],
/// [`Error::InvalidOption`]); calibration failures; a panicking candidate
/// ([`Error::CandidatePanicked`]); cancellation ([`Error::Cancelled`]).
///
/// ```no_run
/// use rtcompare::{Candidate};
/// use rtcompare::support::measure::{collect, CollectOptions};
/// let mut a = Candidate::from_fn("a", || std::hint::black_box(3_u64).pow(7));
/// let mut b = Candidate::from_fn("b", || std::hint::black_box(3_u64).pow(9));
/// let s = collect(&mut a, &mut b, &CollectOptions::default())?;
/// assert_eq!(s.a.len(), 101);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn collect(
    a: &mut Candidate<'_>,
    b: &mut Candidate<'_>,
    options: &CollectOptions,
) -> Result<PairedSamples> {
    collect_with_clock(a, b, options, &MonotonicClock)
}

/// [`collect`] on any [`Clock`], for example a
/// [`SimulatedClock`](crate::measure::clock::SimulatedClock) in tests.
pub fn collect_with_clock<C: Clock>(
    a: &mut Candidate<'_>,
    b: &mut Candidate<'_>,
    options: &CollectOptions,
    clock: &C,
) -> Result<PairedSamples> {
    let opts = options.resolved()?;
    let session = Session::new(clock, &opts);
    let (inner_loops, calibration) = session.batch_size(a, b, &opts)?;
    let (warmup_batches, warmup_ns) = if opts.skip_warmup {
        ((0, 0), 0)
    } else {
        session.warm_up(a, b, inner_loops, opts.warmup, opts.warmup_duration)?
    };
    let mut samples = session.measure(a, b, inner_loops, &opts)?.into_samples();
    samples.warmup_batches = warmup_batches;
    samples.warmup_ns = warmup_ns;
    samples.calibration = calibration;
    samples.cache_info = session.cache_info();
    Ok(samples)
}

/// The measuring loop shared by collection, validation and comparison: one clock, one
/// cancellation rule, one progress callback.
pub(crate) struct Session<'c, C: Clock> {
    clock: &'c C,
    start_ns: u64,
    deadline_ns: Option<u64>,
    cancel: Option<CancelToken>,
    progress: Option<ProgressFn>,
    /// The eviction buffer of a cold run, allocated once per session.
    evictor: Option<RefCell<Evictor>>,
}

impl<'c, C: Clock> Session<'c, C> {
    /// A session starting now, honouring the options' timeout, token and callback.
    /// A cold session allocates (and faults in) its eviction buffer here, before the clock
    /// starts.
    pub(crate) fn new(clock: &'c C, opts: &CollectOptions) -> Self {
        let evictor = (opts.cache == Cache::Cold).then(|| RefCell::new(Evictor::new()));
        let start_ns = clock.now_ns();
        Session {
            clock,
            start_ns,
            deadline_ns: opts
                .timeout
                .map(|t| start_ns.saturating_add(t.as_nanos().min(u64::MAX as u128) as u64)),
            cancel: opts.cancel.clone(),
            progress: opts.progress.clone(),
            evictor,
        }
    }

    /// Replaces the eviction buffer (tests: a small one that logs its sweeps).
    #[cfg(test)]
    pub(crate) fn with_evictor(mut self, e: Evictor) -> Self {
        self.evictor = Some(RefCell::new(e));
        self
    }

    /// The cache figures and the evictions so far, in a cold session; `None` in a warm one.
    pub(crate) fn cache_info(&self) -> Option<CacheInfo> {
        self.evictor.as_ref().map(|e| e.borrow().info())
    }

    /// One timed batch: in a cold session the caches are evicted after the setup, outside the
    /// timed region.
    fn timed(
        &self,
        c: &mut Candidate<'_>,
        n: u64,
        counters: Option<&CounterSet>,
        count_allocs: bool,
    ) -> Result<(u64, Option<CounterDelta>, Option<AllocDelta>)> {
        let mut evictor = self.evictor.as_ref().map(RefCell::borrow_mut);
        c.time_batch_measured(
            self.clock,
            n,
            counters,
            count_allocs,
            evictor.as_deref_mut(),
        )
    }

    /// Nanoseconds since the session started.
    pub(crate) fn elapsed_ns(&self) -> u64 {
        self.clock.now_ns().saturating_sub(self.start_ns)
    }

    /// Reports progress (between batches only).
    pub(crate) fn report(&self, stage: Stage, done: usize, total: usize) {
        if let Some(p) = &self.progress {
            p(Progress { stage, done, total });
        }
    }

    /// `Err(Cancelled)` if the token was cancelled or the deadline passed.
    pub(crate) fn check(&self, stage: Stage) -> Result<()> {
        let cancelled = self.cancel.as_ref().is_some_and(CancelToken::is_cancelled);
        let now = self.clock.now_ns();
        let late = self.deadline_ns.is_some_and(|d| now >= d);
        if cancelled || late {
            return Err(Error::Cancelled {
                stage: stage.as_str(),
                elapsed: Duration::from_nanos(now.saturating_sub(self.start_ns)),
            });
        }
        Ok(())
    }

    /// One timed batch after a cancellation check.
    #[inline]
    pub(crate) fn batch(&self, c: &mut Candidate<'_>, n: u64, stage: Stage) -> Result<u64> {
        self.check(stage)?;
        Ok(self.timed(c, n, None, false)?.0)
    }

    /// The batch size: the options' fixed size, one operation in a cold run, or the larger of
    /// both calibrations.
    pub(crate) fn batch_size(
        &self,
        a: &mut Candidate<'_>,
        b: &mut Candidate<'_>,
        opts: &CollectOptions,
    ) -> Result<(u64, Option<(Calibration, Calibration)>)> {
        if opts.inner_loops > 0 {
            return Ok((opts.inner_loops, None));
        }
        if opts.cache == Cache::Cold {
            // The second operation of a batch would find the caches warm.
            return Ok((1, None));
        }
        self.check(Stage::Calibrating)?;
        self.report(Stage::Calibrating, 0, 2);
        let copts = opts.calibration_options();
        let ca = calibrate_with_clock(a, &copts, self.clock)?;
        self.check(Stage::Calibrating)?;
        self.report(Stage::Calibrating, 1, 2);
        let cb = calibrate_with_clock(b, &copts, self.clock)?;
        self.report(Stage::Calibrating, 2, 2);
        Ok((ca.inner_loops.max(cb.inner_loops), Some((ca, cb))))
    }

    /// Alternates the candidates (A B B A …) until each ran `count` batches and `duration`
    /// has passed. Returns the batches per candidate and the warm-up's duration in ns.
    pub(crate) fn warm_up(
        &self,
        a: &mut Candidate<'_>,
        b: &mut Candidate<'_>,
        n: u64,
        count: usize,
        duration: Duration,
    ) -> Result<((usize, usize), u64)> {
        let start = self.clock.now_ns();
        let want_ns = duration.as_nanos().min(u64::MAX as u128) as u64;
        let (mut na, mut nb) = (0usize, 0usize);
        let mut round = 0usize;
        loop {
            let elapsed = self.clock.now_ns().saturating_sub(start);
            let counted = na >= count && nb >= count;
            // A clock that has not moved after a thousand rounds (a simulated clock whose
            // candidates never advance it) would keep a duration bound from ever being met.
            let frozen = round >= 1_000 && elapsed == 0;
            if counted && (elapsed >= want_ns || frozen) {
                return Ok(((na, nb), elapsed));
            }
            let a_first = round.is_multiple_of(2);
            for side in if a_first {
                [Side::A, Side::B]
            } else {
                [Side::B, Side::A]
            } {
                match side {
                    Side::A => {
                        self.batch(a, n, Stage::WarmingUp)?;
                        na += 1;
                    }
                    Side::B => {
                        self.batch(b, n, Stage::WarmingUp)?;
                        nb += 1;
                    }
                }
            }
            round += 1;
            if round.is_multiple_of(64) {
                let done = (elapsed.min(want_ns) as u128 * 100 / want_ns.max(1) as u128) as usize;
                self.report(Stage::WarmingUp, done, 100);
            }
        }
    }

    /// `opts.repeats` paired rounds in `opts.order`, reading counters if asked, with the
    /// per-batch counts kept so that later rounds can be [appended](PairedRounds::append).
    pub(crate) fn measure(
        &self,
        a: &mut Candidate<'_>,
        b: &mut Candidate<'_>,
        n: u64,
        opts: &CollectOptions,
    ) -> Result<PairedRounds> {
        let (repeats, order) = (opts.repeats, opts.order);
        let mut rng = (order == Order::Random).then(|| Rng::new(opts.seed));
        let counters = opts.counters.then(CounterSet::open);
        let set = counters.as_ref().and_then(|c| c.as_ref().ok());
        let mut deltas: [Vec<CounterDelta>; 2] = if set.is_some() {
            [Vec::with_capacity(repeats), Vec::with_capacity(repeats)]
        } else {
            [Vec::new(), Vec::new()]
        };
        // Allocations are counted whenever the counting allocator is installed: its snapshots
        // are a few atomic loads, read outside the timed region.
        let count_allocs = alloc::is_installed();
        let mut alloc_deltas: [Vec<AllocDelta>; 2] = if count_allocs {
            [Vec::with_capacity(repeats), Vec::with_capacity(repeats)]
        } else {
            [Vec::new(), Vec::new()]
        };
        let mut batch_ns_a = Vec::with_capacity(repeats);
        let mut batch_ns_b = Vec::with_capacity(repeats);
        let mut first = Vec::with_capacity(repeats);
        let step = (repeats / 100).max(1);
        self.report(Stage::Measuring, 0, repeats);
        for i in 0..repeats {
            let a_first = match order {
                Order::Abba => i % 2 == 0,
                Order::Sequential => true,
                Order::Random => rng.as_mut().is_some_and(|r| r.next_u64() >> 63 == 0),
            };
            let sides = if a_first {
                [Side::A, Side::B]
            } else {
                [Side::B, Side::A]
            };
            for side in sides {
                self.check(Stage::Measuring)?;
                let (ns, delta, allocs) = match side {
                    Side::A => self.timed(a, n, set, count_allocs)?,
                    Side::B => self.timed(b, n, set, count_allocs)?,
                };
                let k = match side {
                    Side::A => {
                        batch_ns_a.push(ns);
                        0
                    }
                    Side::B => {
                        batch_ns_b.push(ns);
                        1
                    }
                };
                if let Some(d) = delta {
                    deltas[k].push(d);
                }
                if let Some(d) = allocs {
                    alloc_deltas[k].push(d);
                }
            }
            first.push(sides[0]);
            if (i + 1) % step == 0 || i + 1 == repeats {
                self.report(Stage::Measuring, i + 1, repeats);
            }
        }
        let seed = rng.map_or(0, |r| r.seed());
        let samples = paired_samples(n, opts, batch_ns_a, batch_ns_b, first, seed);
        let counters = counters.map(|c| counter_batches(c, deltas));
        Ok(PairedRounds::new(samples, counters, alloc_deltas))
    }
}

/// The samples of freshly measured rounds: the batches of `n` operations of A and of B and
/// their times per operation, which ran first in each round, and the order's `seed`; the
/// warm-up, calibration, cache and counter fields are the caller's to fill.
fn paired_samples(
    n: u64,
    opts: &CollectOptions,
    batch_ns_a: Vec<u64>,
    batch_ns_b: Vec<u64>,
    first: Vec<Side>,
    seed: u64,
) -> PairedSamples {
    let per_op = |v: &[u64]| v.iter().map(|&ns| ns as f64 / n as f64).collect();
    PairedSamples {
        a: per_op(&batch_ns_a),
        b: per_op(&batch_ns_b),
        batch_ns_a,
        batch_ns_b,
        first,
        inner_loops: n,
        order: opts.order,
        seed,
        warmup_batches: (0, 0),
        warmup_ns: 0,
        calibration: None,
        cache: opts.cache,
        cache_info: None,
        counters: None,
        allocations: None,
    }
}

/// The rounds' counter `deltas` with what opening the counters said: the set's failures, or
/// why they were refused.
fn counter_batches(
    opened: std::result::Result<CounterSet, Unavailable>,
    deltas: [Vec<CounterDelta>; 2],
) -> CounterBatches {
    match opened {
        Ok(set) => CounterBatches {
            deltas,
            failures: set.failures().to_vec(),
            refused: None,
        },
        Err(u) => CounterBatches {
            deltas,
            failures: Vec::new(),
            refused: Some(u.reason),
        },
    }
}

/// Paired samples as the measuring loop takes them: a [`PairedSamples`] together with the
/// per-batch counter and allocation deltas its summaries were computed from.
///
/// The summaries are medians, and medians of two rounds cannot be merged: a comparison that
/// measures more rounds to narrow its interval keeps the deltas of every round here and
/// recomputes the summaries over all of them, so that the counts describe the same batches as
/// the timings.
pub(crate) struct PairedRounds {
    /// The samples of every round so far, with summaries over all of them.
    samples: PairedSamples,
    /// Every round's counter deltas; `None` when counters were not asked for.
    counters: Option<CounterBatches>,
    /// Every round's allocation deltas of A and of B; empty without a counting allocator.
    allocations: [Vec<AllocDelta>; 2],
}

/// The per-batch counter deltas of one or more rounds, with what opening the counters said.
struct CounterBatches {
    /// Deltas of A's and of B's batches, in measurement order.
    deltas: [Vec<CounterDelta>; 2],
    /// Counters that could not be opened while others could, each listed once.
    failures: Vec<CounterFailure>,
    /// Why the counters could not be opened at all, while no round could open them.
    refused: Option<String>,
}

impl CounterBatches {
    /// The summary of every batch counted: "unavailable" with the first refusal's reason when
    /// no round could open the counters.
    fn summary(&self, inner_loops: u64) -> CounterSummary {
        match &self.refused {
            Some(reason) => CounterSummary::unavailable(reason.clone()),
            None => CounterSummary::from_batches(&self.deltas[0], &self.deltas[1], inner_loops)
                .with_failures(&self.failures),
        }
    }

    /// Adds a later round's deltas and failures. A round that opened the counters clears an
    /// earlier refusal: the summary then rests on the batches that were counted.
    fn append(&mut self, later: CounterBatches) {
        let [a, b] = later.deltas;
        self.deltas[0].extend(a);
        self.deltas[1].extend(b);
        for f in later.failures {
            if !self.failures.contains(&f) {
                self.failures.push(f);
            }
        }
        if later.refused.is_none() {
            self.refused = None;
        }
    }
}

impl PairedRounds {
    /// One round's samples with its per-batch deltas; the samples' summaries are computed
    /// from the deltas.
    fn new(
        samples: PairedSamples,
        counters: Option<CounterBatches>,
        allocations: [Vec<AllocDelta>; 2],
    ) -> Self {
        let mut rounds = PairedRounds {
            samples,
            counters,
            allocations,
        };
        rounds.summarise();
        rounds
    }

    /// The samples of every round so far.
    pub(crate) fn samples(&self) -> &PairedSamples {
        &self.samples
    }

    /// The samples of every round, with counters and allocations summarised over all of them.
    pub(crate) fn into_samples(self) -> PairedSamples {
        self.samples
    }

    /// Appends a later round measured with the same batch size: its pairs after this one's,
    /// its counter and allocation deltas after these, and the summaries recomputed over every
    /// batch. The order, its seed, the warm-up, the calibration and the cache figures stay
    /// this (the first) round's. Counters are joined when both rounds asked for them, as the
    /// rounds of one comparison do.
    pub(crate) fn append(&mut self, later: PairedRounds) {
        debug_assert_eq!(
            self.samples.inner_loops, later.samples.inner_loops,
            "rounds of one comparison share the batch size"
        );
        let s = &mut self.samples;
        let l = later.samples;
        s.a.extend(l.a);
        s.b.extend(l.b);
        s.batch_ns_a.extend(l.batch_ns_a);
        s.batch_ns_b.extend(l.batch_ns_b);
        s.first.extend(l.first);
        if let (Some(mine), Some(theirs)) = (&mut self.counters, later.counters) {
            mine.append(theirs);
        }
        let [a, b] = later.allocations;
        self.allocations[0].extend(a);
        self.allocations[1].extend(b);
        self.summarise();
    }

    /// Recomputes the counter and allocation summaries from every delta held.
    fn summarise(&mut self) {
        let n = self.samples.inner_loops;
        self.samples.counters = self.counters.as_ref().map(|c| c.summary(n));
        self.samples.allocations =
            AllocSummary::from_batches(&self.allocations[0], &self.allocations[1], n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::clock::SimulatedClock;
    use std::cell::RefCell;
    use std::rc::Rc;

    type Log = Rc<RefCell<Vec<String>>>;

    /// A candidate that records "setup X", "X", "teardown X" and costs `cost` ns per op.
    fn recording<'a>(name: &'a str, clock: &SimulatedClock, log: &Log, cost: u64) -> Candidate<'a> {
        let (l1, l2, l3) = (log.clone(), log.clone(), log.clone());
        let c = clock.clone();
        let cs = clock.clone();
        Candidate::new(name, move |n| {
            l2.borrow_mut().push(name.to_string());
            c.advance(cost * n);
        })
        .with_setup(move || {
            l1.borrow_mut().push(format!("setup {name}"));
            cs.advance(1_000_000); // outside the timed region: must not show in samples
        })
        .with_teardown(move || l3.borrow_mut().push(format!("teardown {name}")))
    }

    fn batches(log: &Log) -> Vec<String> {
        log.borrow()
            .iter()
            .filter(|s| !s.contains(' '))
            .cloned()
            .collect()
    }

    #[test]
    fn abba_order_is_exact_and_samples_are_per_op() {
        let clock = SimulatedClock::new(1);
        let log: Log = Rc::default();
        let mut a = recording("A", &clock, &log, 10);
        let mut b = recording("B", &clock, &log, 20);
        let opts = CollectOptions::default()
            .repeats(11)
            .inner_loops(100)
            .skip_warmup(true);
        let s = collect_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        let got = batches(&log);
        let want: Vec<String> = (0..11)
            .flat_map(|i| if i % 2 == 0 { ["A", "B"] } else { ["B", "A"] })
            .map(String::from)
            .collect();
        assert_eq!(got, want);
        assert!(s.a.iter().all(|&x| x == 10.0));
        assert!(s.b.iter().all(|&x| x == 20.0));
        assert!(s.batch_ns_a.iter().all(|&x| x == 1_000));
        assert_eq!(s.first[0], Side::A);
        assert_eq!(s.first[1], Side::B);
        // Setup and teardown ran around every batch, never inside.
        let all = log.borrow();
        for (i, w) in all.chunks(3).enumerate() {
            assert!(
                w[0].starts_with("setup") && w[2].starts_with("teardown"),
                "{i}: {w:?}"
            );
            assert_eq!(w[0], format!("setup {}", w[1]));
        }
    }

    #[test]
    fn sequential_and_random_orders() {
        let clock = SimulatedClock::new(1);
        let log: Log = Rc::default();
        let mut a = recording("A", &clock, &log, 1);
        let mut b = recording("B", &clock, &log, 1);
        let opts = CollectOptions::default()
            .repeats(11)
            .inner_loops(1)
            .skip_warmup(true)
            .order(Order::Sequential);
        collect_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        assert_eq!(batches(&log), ["A", "B"].repeat(11));

        let run = |seed| {
            let log: Log = Rc::default();
            let mut a = recording("A", &clock, &log, 1);
            let mut b = recording("B", &clock, &log, 1);
            let opts = CollectOptions::default()
                .repeats(201)
                .inner_loops(1)
                .skip_warmup(true)
                .order(Order::Random)
                .seed(seed);
            let s = collect_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
            (s.first, s.seed)
        };
        let (f1, s1) = run(7);
        let (f2, _) = run(7);
        let (f3, _) = run(8);
        assert_eq!(f1, f2, "same seed, same order");
        assert_ne!(f1, f3, "different seed, different order");
        assert_eq!(s1, 7);
        let a_first = f1.iter().filter(|&&s| s == Side::A).count();
        assert!((60..=141).contains(&a_first), "{a_first} of 201");
    }

    #[test]
    fn warmup_alternates_until_count_and_duration_are_met() {
        let clock = SimulatedClock::new(1);
        let log: Log = Rc::default();
        let mut a = recording("A", &clock, &log, 1_000);
        let mut b = recording("B", &clock, &log, 1_000);
        // Each batch: 1 µs timed plus 1 ms of setup. Warm-up of 5 ms and at least 3 batches.
        let opts = CollectOptions::default()
            .repeats(11)
            .inner_loops(1)
            .warmup(3)
            .warmup_duration(Duration::from_millis(5));
        let s = collect_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        let (wa, wb) = s.warmup_batches;
        assert!(wa >= 3 && wb >= 3);
        assert!(s.warmup_ns >= 5_000_000);
        let got = batches(&log);
        let warm = &got[..wa + wb];
        let want: Vec<&str> = (0..(wa + wb) / 2)
            .flat_map(|i| if i % 2 == 0 { ["A", "B"] } else { ["B", "A"] })
            .collect();
        assert_eq!(warm, want.as_slice());
        // Count bound: a long duration is not needed when the count dominates.
        let opts = opts.warmup(10).warmup_duration(Duration::from_nanos(1));
        let s = collect_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        assert_eq!(s.warmup_batches, (10, 10));
    }

    #[test]
    fn a_frozen_clock_cannot_hang_the_warm_up() {
        let clock = SimulatedClock::new(1);
        let mut a = Candidate::new("A", |_| {});
        let mut b = Candidate::new("B", |_| {});
        let opts = CollectOptions::default().repeats(11).inner_loops(1);
        let s = collect_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        assert_eq!(s.warmup_ns, 0);
        assert!(s.warmup_batches.0 >= 1_000);
    }

    #[test]
    fn calibrates_both_and_uses_the_larger() {
        let clock = SimulatedClock::new(20);
        let log: Log = Rc::default();
        let mut a = recording("A", &clock, &log, 1);
        let mut b = recording("B", &clock, &log, 4);
        let opts = CollectOptions::default().repeats(11).skip_warmup(true);
        let s = collect_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        let (ca, cb) = s.calibration.unwrap();
        assert!(ca.inner_loops > cb.inner_loops);
        assert_eq!(s.inner_loops, ca.inner_loops);
    }

    #[test]
    fn bad_options_are_typed_errors() {
        let clock = SimulatedClock::new(1);
        let log: Log = Rc::default();
        let mut a = recording("A", &clock, &log, 1);
        let mut b = recording("B", &clock, &log, 1);
        let mut run = |o: CollectOptions| collect_with_clock(&mut a, &mut b, &o, &clock);
        let d = CollectOptions::default().inner_loops(1).skip_warmup(true);
        assert!(matches!(
            run(d.clone().repeats(10)),
            Err(Error::TooFewSamples {
                what: "repeats",
                needed: 11,
                got: 10
            })
        ));
        for bad in [1.0, -0.5, f64::NAN] {
            assert!(matches!(
                run(d.clone().inner_loops(0).max_quantization_error(bad)),
                Err(Error::OutOfRange {
                    name: "max_quantization_error",
                    ..
                })
            ));
        }
        assert!(matches!(
            run(d.clone().timeout(Duration::ZERO)),
            Err(Error::InvalidOption {
                name: "timeout",
                ..
            })
        ));
        // Zero means default.
        let s = run(d.clone().repeats(0)).unwrap();
        assert_eq!(s.a.len(), DEFAULT_REPEATS);
    }

    #[test]
    fn cancellation_stops_within_one_batch() {
        let clock = SimulatedClock::new(1);
        let token = CancelToken::new();
        let count = Rc::new(RefCell::new(0usize));
        let (t, c, k) = (token.clone(), count.clone(), clock.clone());
        let mut a = Candidate::new("A", move |n| {
            *c.borrow_mut() += 1;
            k.advance(n);
            if *c.borrow() == 5 {
                t.cancel();
            }
        });
        let mut b = Candidate::new("B", |_| {});
        let opts = CollectOptions::default()
            .inner_loops(1)
            .skip_warmup(true)
            .cancel(token);
        let e = collect_with_clock(&mut a, &mut b, &opts, &clock).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Cancelled {
                    stage: "measuring",
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(*count.borrow(), 5, "no batch of A after the cancel");
        // A deadline in simulated time.
        let k = clock.clone();
        let mut slow = Candidate::new("slow", move |_| k.advance(1_000_000));
        let mut b = Candidate::new("B", |_| {});
        let opts = CollectOptions::default()
            .inner_loops(1)
            .skip_warmup(true)
            .timeout(Duration::from_millis(10));
        let e = collect_with_clock(&mut slow, &mut b, &opts, &clock).unwrap_err();
        assert!(matches!(e, Error::Cancelled { .. }));
    }

    /// A cold session whose evictor logs "evict" and spends 7 ms of simulated time per sweep.
    fn cold_session<'c>(
        clock: &'c SimulatedClock,
        log: &Log,
        opts: &CollectOptions,
    ) -> Session<'c, SimulatedClock> {
        let (l, c) = (log.clone(), clock.clone());
        let evictor = Evictor::with_hook(4096, move || {
            l.borrow_mut().push("evict".to_string());
            c.advance(7_000_000);
        });
        Session::new(clock, opts).with_evictor(evictor)
    }

    #[test]
    fn cold_evicts_before_every_batch_outside_the_timed_region() {
        let clock = SimulatedClock::new(1);
        let log: Log = Rc::default();
        let mut a = recording("A", &clock, &log, 10);
        let mut b = recording("B", &clock, &log, 20);
        let opts = CollectOptions::default()
            .cache(Cache::Cold)
            .repeats(11)
            .warmup(3)
            .warmup_duration(Duration::from_nanos(1))
            .resolved()
            .unwrap();
        let session = cold_session(&clock, &log, &opts);
        let (n, calibration) = session.batch_size(&mut a, &mut b, &opts).unwrap();
        assert_eq!((n, calibration), (1, None), "one operation, no calibration");
        assert!(log.borrow().is_empty(), "no batch ran to size the batches");
        let ((wa, wb), _) = session
            .warm_up(&mut a, &mut b, n, 3, opts.warmup_duration)
            .unwrap();
        let s = session
            .measure(&mut a, &mut b, n, &opts)
            .unwrap()
            .into_samples();
        // Every batch, warm-up included: setup, eviction, the batch, teardown.
        let all = log.borrow();
        let batches = wa + wb + 2 * 11;
        assert_eq!(all.len(), 4 * batches);
        for (i, w) in all.chunks(4).enumerate() {
            assert!(w[0].starts_with("setup "), "{i}: {w:?}");
            assert_eq!(w[1], "evict", "{i}: {w:?}");
            assert_eq!(w[0], format!("setup {}", w[2]), "{i}: {w:?}");
            assert_eq!(w[3], format!("teardown {}", w[2]), "{i}: {w:?}");
        }
        // The 7 ms sweeps (and the 1 ms setups) are in no batch: each lasted its own cost.
        assert!(
            s.batch_ns_a.iter().all(|&ns| ns == 10),
            "{:?}",
            s.batch_ns_a
        );
        assert!(
            s.batch_ns_b.iter().all(|&ns| ns == 20),
            "{:?}",
            s.batch_ns_b
        );
        assert_eq!(s.cache, Cache::Cold);
        assert_eq!(session.cache_info().unwrap().evictions, batches as u64);
    }

    #[test]
    fn cold_batches_hold_one_operation_unless_fixed() {
        let clock = SimulatedClock::new(20);
        let log: Log = Rc::default();
        let mut a = recording("A", &clock, &log, 1);
        let mut b = recording("B", &clock, &log, 4);
        let cold = CollectOptions::default()
            .cache(Cache::Cold)
            .repeats(11)
            .skip_warmup(true);
        // The real evictor: sized from sysfs, one sweep per batch.
        let s = collect_with_clock(&mut a, &mut b, &cold, &clock).unwrap();
        assert_eq!(s.inner_loops, 1);
        assert!(s.calibration.is_none());
        assert_eq!(s.cache, Cache::Cold);
        let info = s.cache_info.unwrap();
        assert_eq!(info.evictions, 22);
        assert!(info.buffer_bytes >= 2 * info.llc_bytes.unwrap_or(0));
        // A fixed batch size is honoured.
        let exact = SimulatedClock::new(1);
        let mut c = recording("C", &exact, &log, 3);
        let mut d = recording("D", &exact, &log, 5);
        let s = collect_with_clock(&mut c, &mut d, &cold.clone().inner_loops(7), &exact).unwrap();
        assert_eq!(s.inner_loops, 7);
        assert!(s.a.iter().all(|&x| x == 3.0), "per operation: {:?}", s.a);
        // Warm stays calibrated, evicts nothing and says so.
        let warm = CollectOptions::default().repeats(11).skip_warmup(true);
        let s = collect_with_clock(&mut a, &mut b, &warm, &clock).unwrap();
        assert!(s.inner_loops > 1 && s.calibration.is_some());
        assert_eq!((s.cache, s.cache_info), (Cache::Warm, None));
    }

    #[test]
    fn options_and_samples_read_json_without_the_cache_fields() {
        let o = CollectOptions::default().cache(Cache::Cold);
        let mut v = serde_json::to_value(&o).unwrap();
        assert_eq!(v["cache"], "cold");
        assert_eq!(
            serde_json::from_value::<CollectOptions>(v.clone()).unwrap(),
            o
        );
        v.as_object_mut().unwrap().remove("cache");
        let old: CollectOptions = serde_json::from_value(v).unwrap();
        assert_eq!(old.cache, Cache::Warm);
    }

    #[test]
    fn progress_is_reported_between_batches() {
        let clock = SimulatedClock::new(1);
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let s2 = seen.clone();
        let mut a = Candidate::new("A", |_| {});
        let mut b = Candidate::new("B", |_| {});
        let opts = CollectOptions::default()
            .inner_loops(1)
            .skip_warmup(true)
            .repeats(11)
            .progress(move |p| s2.lock().unwrap().push(p));
        collect_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        let seen = seen.lock().unwrap();
        assert_eq!(seen.first().unwrap().done, 0);
        let last = seen.last().unwrap();
        assert_eq!(
            (last.stage, last.done, last.total),
            (Stage::Measuring, 11, 11)
        );
    }

    /// One round of `pairs` pairs of 10-operation batches: A's batches count `cycles_a`
    /// cycles and make `allocs_a` allocations, B's 100 cycles and none.
    fn round(pairs: usize, cycles_a: u64, allocs_a: u64) -> PairedRounds {
        let n = 10;
        let samples = PairedSamples {
            a: vec![100.0; pairs],
            b: vec![110.0; pairs],
            batch_ns_a: vec![1_000; pairs],
            batch_ns_b: vec![1_100; pairs],
            first: (0..pairs)
                .map(|i| if i % 2 == 0 { Side::A } else { Side::B })
                .collect(),
            inner_loops: n,
            order: Order::Abba,
            seed: 0,
            warmup_batches: (0, 0),
            warmup_ns: 0,
            calibration: None,
            counters: None,
            allocations: None,
            cache: Cache::Warm,
            cache_info: None,
        };
        let cycles = |c| CounterDelta {
            cycles: Some(c),
            enabled_ns: 1,
            running_ns: 1,
            ..CounterDelta::default()
        };
        let counters = CounterBatches {
            deltas: [vec![cycles(cycles_a); pairs], vec![cycles(100); pairs]],
            failures: Vec::new(),
            refused: None,
        };
        let allocs = |k| AllocDelta {
            allocations: k,
            bytes_allocated: 8 * k,
            ..AllocDelta::default()
        };
        PairedRounds::new(
            samples,
            Some(counters),
            [vec![allocs(allocs_a); pairs], vec![allocs(0); pairs]],
        )
    }

    #[test]
    fn an_appended_round_keeps_its_counters_and_allocations() {
        // 101 pairs, then 120 more in which A's batches count twice the cycles and ten times
        // the allocations: the later batches outnumber the first, so every median moves to
        // them, and the amortised figures weigh both rounds.
        let mut rounds = round(101, 500, 10);
        rounds.append(round(120, 1_000, 100));
        let s = rounds.into_samples();
        let lengths = [
            s.a.len(),
            s.b.len(),
            s.batch_ns_a.len(),
            s.batch_ns_b.len(),
            s.first.len(),
        ];
        assert_eq!(lengths, [221; 5]);
        let c = s.counters.expect("asked for in both rounds");
        assert!(c.is_available(), "{c}");
        assert_eq!((c.a.batches, c.b.batches), (221, 221));
        assert_eq!(c.a.cycles_per_op, Some(100.0), "{c}");
        assert_eq!(c.b.cycles_per_op, Some(10.0), "{c}");
        let m = s.allocations.expect("counted in both rounds");
        assert_eq!((m.a.batches, m.b.batches), (221, 221));
        assert_eq!(m.a.allocations_per_op, 10.0, "{m}");
        assert_eq!(m.a.mean_allocations_per_op, 13_010.0 / 2_210.0, "{m}");
        assert_eq!(m.b.allocations_per_op, 0.0, "{m}");
    }

    #[test]
    fn counters_refused_in_every_round_stay_unavailable_with_the_first_reason() {
        let refused = |reason: &str| CounterBatches {
            deltas: [Vec::new(), Vec::new()],
            failures: Vec::new(),
            refused: Some(reason.to_string()),
        };
        let mut c = refused("no PMU");
        c.append(refused("still no PMU"));
        assert_eq!(c.summary(10), CounterSummary::unavailable("no PMU"));
        // A later round that opened them: the summary rests on its batches.
        let failure = CounterFailure {
            counter: crate::measure::counters::Counter::CacheMisses,
            errno: Some(2),
            reason: "ENOENT".to_string(),
        };
        let opened = || CounterBatches {
            deltas: [
                vec![CounterDelta {
                    cycles: Some(70),
                    enabled_ns: 1,
                    running_ns: 1,
                    ..CounterDelta::default()
                }],
                Vec::new(),
            ],
            failures: vec![failure.clone()],
            refused: None,
        };
        c.append(opened());
        c.append(opened());
        let s = c.summary(10);
        assert!(s.is_available(), "{s}");
        assert_eq!((s.a.batches, s.a.cycles_per_op), (2, Some(7.0)));
        assert_eq!(s.failures, vec![failure], "each failure listed once");
    }
}
