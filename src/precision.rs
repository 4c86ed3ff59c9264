//! Measure one candidate until its mean is known precisely enough.
//!
//! # The problem
//!
//! A fixed number of readings answers the wrong question. Ten readings of a quiet function may
//! pin its cost to ±1 %, while a thousand of a noisy one leave ±10 %; the count that is enough
//! depends on the spread, which is only known once measured. And when neighbouring readings are
//! correlated, counting them as independent makes the interval look far tighter than it is.
//!
//! # What [`measure`] does (after Pilot)
//!
//! It times batches of the candidate in **rounds**. After every round it:
//!
//! 1. looks for a **warm-up** with the change-point detector and the two-clause rule
//!    ([`warm_up`]): a prefix is dropped only if a proven change ends it
//!    and it was slower than what follows; the drop is recomputed each round, so a boundary
//!    that stops being significant disappears again;
//! 2. chooses the **batch size** `q` (readings per batch mean) as the smallest whose batch
//!    means have |lag-1 autocorrelation| within [`Precision::ac_limit`]
//!    ([`batch_means()`]); until one exists there is not enough data;
//! 3. computes the **interval** of the mean from the batch means (t at `h − 1` degrees of
//!    freedom, at [`Precision::level`]) and the **required size**
//!    ([`required_size`]): `q·max(h*, min_batches)` readings;
//! 4. stops when the interval's half-width is within the [`Precision::target`] **and** at
//!    least [`Precision::min_batches`] batch means stand behind it; otherwise it sizes the next
//!    round from the requirement: at least [`Precision::round_readings`] and 1 % of the
//!    readings so far, at most doubling them.
//!
//! A warm-up can only be recognised once the session has outlasted it: the readings after it
//! must be more than half of all. A preset that may stop early (quick stops at 30 batch means)
//! can therefore stop **inside** a long warm-up and report its level; in the simulated tables of
//! BACKGROUND.md a 100-reading warm-up fooled quick and normal every time and strict never.
//! When warm-up matters, use `strict` or raise [`Precision::min_batches`].
//!
//! Budgets bound the session: [`Precision::max_readings`], [`Precision::max_duration`] and a
//! [`CancelToken`], all checked between batches. A session that stops without meeting its
//! target still returns what it measured, says so in [`Measurement::target_met`], and gives
//! the reason in [`Measurement::stop`].
//!
//! The presets are Pilot's: [`Precision::quick`] (autocorrelation limit 0.8, ±10 %, 30 batch
//! means, the default), [`Precision::normal`] (0.2, ±5 %, 50) and [`Precision::strict`] (0.1,
//! ±5 %, 200), all at 95 %. Pilot states its widths as full widths (20 % / 10 % / 10 % of the
//! mean); here they are half-widths. At quick's limit an AR(1) process leaves the interval too
//! narrow by a factor of up to 3 (√9); at normal's by 1.22: use quick for iteration only.
//!
//! Readings are nanoseconds per operation. A throughput is their reciprocal, and its interval
//! the inverted one ([`Measurement::rate`]); it is never averaged arithmetically.
//!
//! ```no_run
//! use rtcompare::Candidate;
//! use rtcompare::precision::{measure, Precision};
//!
//! let data: Vec<u64> = (0..1_000).collect();
//! let sum = Candidate::from_fn("sum", || std::hint::black_box(&data).iter().sum::<u64>());
//! let m = measure(sum, &Precision::normal())?;
//! if let Some(e) = &m.estimate {
//!     println!("{:.1} ns ± {:.1} ({} readings, q = {})", e.mean, e.half_width, m.used, e.q);
//! }
//! println!("target met: {} ({:?})", m.target_met, m.stop);
//! # Ok::<(), rtcompare::Error>(())
//! ```

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::compare::instrumented::screen;
use crate::env::{Instrumentation, detect_instrumentation};
use crate::measure::calibrate::{
    CalibrationOptions, DEFAULT_MAX_QUANTIZATION_ERROR, calibrate_with_clock,
};
use crate::measure::candidate::Candidate;
use crate::measure::clock::{Clock, MonotonicClock};
use crate::measure::collect::CancelToken;
use crate::stats::{
    BatchMeans, BatchMeansOptions, ChangePointOptions, DEFAULT_LEVEL, PrecisionTarget,
    RateInterval, RequiredSize, batch_means, required_size, warm_up,
};
use crate::{Error, Result};

/// Default [`Precision::max_readings`]: one million readings (8 MB).
pub const DEFAULT_MAX_READINGS: usize = 1_000_000;
/// Default [`Precision::max_duration`]: 60 s, Pilot's default session duration.
pub const DEFAULT_MAX_DURATION: Duration = Duration::from_secs(60);
/// Default [`Precision::round_readings`]: the fewest readings of one round (10).
pub const DEFAULT_ROUND_READINGS: usize = 10;

/// What [`measure`] aims for and how long it may try: a consuming builder with Pilot's presets.
///
/// ```
/// use rtcompare::precision::Precision;
/// use rtcompare::stats::PrecisionTarget;
/// let p = Precision::strict().ac_limit(0.05).target(PrecisionTarget::relative(0.01)).level(0.99);
/// assert_eq!((p.ac_limit, p.min_batches, p.level), (0.05, 200, 0.99));
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Precision {
    /// Largest accepted |lag-1 autocorrelation| of the batch means, in `(0, 1]`.
    pub ac_limit: f64,
    /// The half-width to reach: relative to the mean, absolute in ns per operation, or both
    /// (the narrower applies).
    pub target: PrecisionTarget,
    /// Fewest batch means behind a result that meets the target (not readings: with `q = 4`,
    /// 200 batch means are 800 readings). At least 2.
    pub min_batches: usize,
    /// Coverage of the interval, in `(0, 1)`. Default 0.95.
    pub level: f64,
    /// Most readings to take; 0 means [`DEFAULT_MAX_READINGS`].
    pub max_readings: usize,
    /// Longest time to measure, calibration included; `None`: no limit. Default
    /// [`DEFAULT_MAX_DURATION`].
    pub max_duration: Option<Duration>,
    /// Fewest readings per round; 0 means [`DEFAULT_ROUND_READINGS`].
    pub round_readings: usize,
    /// Operations per batch; 0 calibrates against the clock's precision.
    pub inner_loops: u64,
    /// Largest share of a batch one clock step may be, for calibration; in `(0, 1)`. Default
    /// 0.001.
    pub max_quantization_error: f64,
    /// Detect and drop a warm-up (default `true`).
    pub remove_warm_up: bool,
    /// Measure even under Valgrind or QEMU user mode
    /// ([`Environment::instrumented_by`](crate::env::Environment::instrumented_by)). Off
    /// by default: [`measure`] then refuses with [`Error::MeaninglessTimings`] before measuring, as
    /// [`compare`](crate::compare()) does. On: it measures and records the host in
    /// [`Measurement::instrumented_by`]. Ignored on a simulated clock.
    #[serde(default)]
    pub allow_instrumented: bool,
    /// Stops the session between batches when cancelled; the result says
    /// [`StopReason::Cancelled`].
    #[serde(skip)]
    pub cancel: Option<CancelToken>,
}

impl Default for Precision {
    /// [`Precision::quick`], Pilot's default preset.
    fn default() -> Self {
        Precision::quick()
    }
}

impl Precision {
    fn preset(ac_limit: f64, half_width: f64, min_batches: usize) -> Self {
        Precision {
            ac_limit,
            target: PrecisionTarget::relative(half_width),
            min_batches,
            level: DEFAULT_LEVEL,
            max_readings: DEFAULT_MAX_READINGS,
            max_duration: Some(DEFAULT_MAX_DURATION),
            round_readings: DEFAULT_ROUND_READINGS,
            inner_loops: 0,
            max_quantization_error: DEFAULT_MAX_QUANTIZATION_ERROR,
            remove_warm_up: true,
            allow_instrumented: false,
            cancel: None,
        }
    }

    /// For iteration while developing: autocorrelation limit 0.8, ±10 % of the mean, at least
    /// 30 batch means, 95 %.
    pub fn quick() -> Self {
        Self::preset(0.8, 0.10, 30)
    }

    /// For results to keep: limit 0.2, ±5 %, at least 50 batch means, 95 %.
    pub fn normal() -> Self {
        Self::preset(0.2, 0.05, 50)
    }

    /// For results to publish: limit 0.1 (Ferrari's threshold), ±5 %, at least 200 batch
    /// means, 95 %.
    pub fn strict() -> Self {
        Self::preset(0.1, 0.05, 200)
    }

    /// Sets [`ac_limit`](Self::ac_limit).
    pub fn ac_limit(mut self, limit: f64) -> Self {
        self.ac_limit = limit;
        self
    }
    /// Sets [`target`](Self::target).
    pub fn target(mut self, target: PrecisionTarget) -> Self {
        self.target = target;
        self
    }
    /// Sets a relative target of ±`fraction` of the mean (replacing the target).
    pub fn half_width(mut self, fraction: f64) -> Self {
        self.target = PrecisionTarget::relative(fraction);
        self
    }
    /// Sets [`min_batches`](Self::min_batches).
    pub fn min_batches(mut self, n: usize) -> Self {
        self.min_batches = n;
        self
    }
    /// Sets [`level`](Self::level).
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Sets [`max_readings`](Self::max_readings).
    pub fn max_readings(mut self, n: usize) -> Self {
        self.max_readings = n;
        self
    }
    /// Sets [`max_duration`](Self::max_duration).
    pub fn max_duration(mut self, d: Option<Duration>) -> Self {
        self.max_duration = d;
        self
    }
    /// Sets [`round_readings`](Self::round_readings).
    pub fn round_readings(mut self, n: usize) -> Self {
        self.round_readings = n;
        self
    }
    /// Sets [`inner_loops`](Self::inner_loops).
    pub fn inner_loops(mut self, n: u64) -> Self {
        self.inner_loops = n;
        self
    }
    /// Sets [`max_quantization_error`](Self::max_quantization_error).
    pub fn max_quantization_error(mut self, e: f64) -> Self {
        self.max_quantization_error = e;
        self
    }
    /// Sets [`remove_warm_up`](Self::remove_warm_up).
    pub fn remove_warm_up(mut self, on: bool) -> Self {
        self.remove_warm_up = on;
        self
    }
    /// Sets [`allow_instrumented`](Self::allow_instrumented).
    pub fn allow_instrumented(mut self, allow: bool) -> Self {
        self.allow_instrumented = allow;
        self
    }
    /// Sets [`cancel`](Self::cancel).
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// The options with zeros replaced by defaults, checked: every setting is either used or
    /// rejected, never silently ignored.
    fn resolved(&self) -> Result<Precision> {
        let mut p = self.clone();
        BatchMeansOptions::default()
            .ac_limit(p.ac_limit)
            .level(p.level)
            .validate()?;
        p.target.validate()?;
        if p.min_batches < 2 {
            return Err(Error::out_of_range(
                "min_batches",
                p.min_batches as f64,
                "min_batches ≥ 2",
            ));
        }
        if p.max_readings == 0 {
            p.max_readings = DEFAULT_MAX_READINGS;
        }
        if p.round_readings == 0 {
            p.round_readings = DEFAULT_ROUND_READINGS;
        }
        if p.max_duration == Some(Duration::ZERO) {
            return Err(Error::invalid_option(
                "max_duration",
                "a zero duration would stop before the first batch; use None for no limit",
            ));
        }
        if p.max_quantization_error == 0.0 {
            p.max_quantization_error = DEFAULT_MAX_QUANTIZATION_ERROR;
        }
        if !(p.max_quantization_error > 0.0 && p.max_quantization_error < 1.0) {
            return Err(Error::out_of_range(
                "max_quantization_error",
                p.max_quantization_error,
                "0 < max_quantization_error < 1 (0 selects 0.001)",
            ));
        }
        Ok(p)
    }
}

/// Why [`measure`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StopReason {
    /// The interval reached the target with at least `min_batches` batch means.
    TargetMet,
    /// [`Precision::max_readings`] readings were taken first.
    ReadingBudget,
    /// [`Precision::max_duration`] passed first.
    TimeBudget,
    /// The [`CancelToken`] was cancelled.
    Cancelled,
}

/// The result of [`measure`]: the estimate, how it was reached and why the session stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// The candidate's name.
    pub name: String,
    /// The mean in ns per operation with its batch-means interval, `q` and the batch count;
    /// `None` when the readings never supported one (too few, or no `q` within the limit).
    pub estimate: Option<BatchMeans>,
    /// The target half-width around the final mean, in ns per operation; `None` when it is
    /// unreachable (a relative target around a mean of 0) or there is no estimate.
    pub target_half_width: Option<f64>,
    /// What the target still required at the end (batch means and readings, after the
    /// warm-up); `None` when it could not be computed (no estimate, or an unreachable target:
    /// never a 0 that would pass for "satisfied").
    pub required: Option<RequiredSize>,
    /// Whether the target was met with at least `min_batches` batch means.
    pub target_met: bool,
    /// Why the session stopped.
    pub stop: StopReason,
    /// Every reading, in ns per operation, in measurement order (warm-up included).
    pub readings: Vec<f64>,
    /// Readings dropped as warm-up (the first `discarded` of `readings`).
    pub discarded: usize,
    /// Readings the estimate rests on, `readings.len() − discarded`.
    pub used: usize,
    /// Whether a proven level shift remains after the warm-up (interference or a change of
    /// machine state, not warm-up): the estimate then averages over both levels.
    pub later_shift: bool,
    /// Rounds run.
    pub rounds: usize,
    /// Operations per batch.
    pub inner_loops: u64,
    /// Time spent, calibration included, as read from the clock.
    pub elapsed: Duration,
    /// The emulator or instrumentation the readings were taken under, when
    /// [`Precision::allow_instrumented`] let the session run there: then the readings measure
    /// the translation, not the code. `None`: none was found (or the clock is simulated).
    #[serde(default)]
    pub instrumented_by: Option<Instrumentation>,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::TargetMet => "the target precision was met",
            StopReason::ReadingBudget => "the reading budget ran out",
            StopReason::TimeBudget => "the time budget ran out",
            StopReason::Cancelled => "it was cancelled",
        })
    }
}

impl std::fmt::Display for Measurement {
    /// A plain summary: the mean with its interval, what it rests on, and why the session
    /// stopped.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(tool) = &self.instrumented_by {
            write!(
                f,
                "THE TIMINGS MEAN NOTHING: measured under {tool}, which translates every \
                 instruction. "
            )?;
        }
        match &self.estimate {
            Some(e) => write!(
                f,
                "{}: {} per operation, {:.0}% interval [{}, {}] (±{:.2}%), from {} batch means of \
                 {} readings (q = {})",
                self.name,
                crate::display::Ns(e.mean),
                100.0 * e.level,
                crate::display::Ns(e.low),
                crate::display::Ns(e.high),
                100.0 * e.half_width / e.mean.abs().max(f64::MIN_POSITIVE),
                e.batches,
                e.readings,
                e.q
            )?,
            None => write!(
                f,
                "{}: no estimate (the readings never supported one)",
                self.name
            )?,
        }
        write!(
            f,
            "; {} readings taken, {} dropped as warm-up, {} rounds of {} operations per batch, \
             {:.2} s; stopped because {}",
            self.readings.len(),
            self.discarded,
            self.rounds,
            self.inner_loops,
            self.elapsed.as_secs_f64(),
            self.stop
        )?;
        if !self.target_met {
            f.write_str(" (target NOT met)")?;
        }
        if self.later_shift {
            f.write_str("; a level shift remains after the warm-up, so the mean spans two levels")?;
        }
        Ok(())
    }
}

impl Measurement {
    /// The throughput in operations per second, with the interval inverted from the one on
    /// ns per operation (asymmetric; upper end `+∞` when the time's interval reaches 0). The
    /// mean is the harmonic mean of the per-batch rates, since every batch did the same work.
    /// `None` without an estimate or with a non-positive mean.
    pub fn rate(&self) -> Option<RateInterval> {
        let e = self.estimate.as_ref()?;
        if e.mean.is_nan() || e.mean <= 0.0 {
            return None;
        }
        Some(RateInterval {
            mean: 1e9 / e.mean,
            low: 1e9 / e.high,
            high: if e.low > 0.0 {
                1e9 / e.low
            } else {
                f64::INFINITY
            },
            level: e.level,
            q: e.q,
            batches: e.batches,
            reciprocal_mean: e.mean * 1e-9,
            reciprocal_half_width: e.half_width * 1e-9,
        })
    }
}

/// Measures `candidate` on the process's monotonic clock until `precision` is reached or a
/// budget runs out. See the [module documentation](self).
///
/// Errors: invalid options ([`Error::OutOfRange`], [`Error::InvalidOption`]); calibration
/// failures ([`Error::BatchIgnoresN`], [`Error::CalibrationCapReached`]); a panicking
/// candidate ([`Error::CandidatePanicked`]); a process running under Valgrind or QEMU user
/// mode, unless [`Precision::allow_instrumented`] ([`Error::MeaninglessTimings`], before
/// anything is measured). Budgets and cancellation are not errors: they end the session with
/// its result and a [`StopReason`].
pub fn measure(candidate: Candidate<'_>, precision: &Precision) -> Result<Measurement> {
    measure_with_clock(candidate, precision, &MonotonicClock)
}

/// [`measure`] on any [`Clock`], for example a
/// [`SimulatedClock`](crate::measure::clock::SimulatedClock) in tests.
pub fn measure_with_clock<C: Clock>(
    mut candidate: Candidate<'_>,
    precision: &Precision,
    clock: &C,
) -> Result<Measurement> {
    let p = precision.resolved()?;
    let found = if clock.is_simulated() {
        None
    } else {
        detect_instrumentation()
    };
    screen(
        found.as_ref(),
        p.allow_instrumented,
        false,
        "Precision::allow_instrumented(true)",
    )?;
    let start = clock.now_ns();
    let elapsed = || Duration::from_nanos(clock.now_ns().saturating_sub(start));
    let n = if p.inner_loops > 0 {
        p.inner_loops
    } else {
        let copts = CalibrationOptions::default().max_quantization_error(p.max_quantization_error);
        calibrate_with_clock(&mut candidate, &copts, clock)?.inner_loops
    };
    let mut readings: Vec<f64> = Vec::new();
    let mut rounds = 0usize;
    let mut next_round = p.round_readings;
    let stop;
    let mut analysis;
    loop {
        // One round, with the budgets checked before every batch.
        let mut interrupted = None;
        for _ in 0..next_round {
            if let Some(reason) = budget_spent(&p, readings.len(), elapsed()) {
                interrupted = Some(reason);
                break;
            }
            let ns = candidate.time_batch(clock, n)?;
            readings.push(ns as f64 / n as f64);
        }
        rounds += 1;
        analysis = analyse(&readings, &p)?;
        if analysis.met {
            stop = StopReason::TargetMet;
            break;
        }
        if let Some(reason) = interrupted.or_else(|| budget_spent(&p, readings.len(), elapsed())) {
            stop = reason;
            break;
        }
        let len = readings.len();
        let wanted = match analysis.required {
            Some(req) => (req.readings + analysis.discarded).saturating_sub(len),
            None => len / 2,
        };
        // At least 1 % more readings per round (Pilot's detection schedule), so that the
        // number of analyses, each redone from scratch, grows only logarithmically.
        let least = p.round_readings.max(len / 100);
        next_round = wanted.clamp(least, least.max(len));
    }
    let used = readings.len() - analysis.discarded;
    Ok(Measurement {
        name: candidate.name().to_string(),
        target_half_width: analysis
            .estimate
            .as_ref()
            .and_then(|e| p.target.half_width_for(e.mean)),
        estimate: analysis.estimate,
        required: analysis.required,
        target_met: analysis.met,
        stop,
        discarded: analysis.discarded,
        used,
        later_shift: analysis.later_shift,
        readings,
        rounds,
        inner_loops: n,
        elapsed: elapsed(),
        instrumented_by: found,
    })
}

fn budget_spent(p: &Precision, taken: usize, elapsed: Duration) -> Option<StopReason> {
    if p.cancel.as_ref().is_some_and(CancelToken::is_cancelled) {
        Some(StopReason::Cancelled)
    } else if taken >= p.max_readings {
        Some(StopReason::ReadingBudget)
    } else if p.max_duration.is_some_and(|d| elapsed >= d) {
        Some(StopReason::TimeBudget)
    } else {
        None
    }
}

/// The state of a session after a round.
struct PrecisionAnalysis {
    estimate: Option<BatchMeans>,
    required: Option<RequiredSize>,
    discarded: usize,
    later_shift: bool,
    met: bool,
}

/// Warm-up, q, interval and requirement of the readings so far: recomputed from scratch every
/// round, so nothing stale survives from an earlier, smaller sample.
fn analyse(readings: &[f64], p: &Precision) -> Result<PrecisionAnalysis> {
    let (discarded, later_shift) = if p.remove_warm_up && !readings.is_empty() {
        let w = warm_up(readings, &ChangePointOptions::default())?;
        (w.end, w.later_shift)
    } else {
        (0, false)
    };
    let used = &readings[discarded..];
    let opts = BatchMeansOptions::default()
        .ac_limit(p.ac_limit)
        .level(p.level);
    let estimate = match batch_means(used, &opts) {
        Ok(b) => Some(b),
        Err(Error::NotEnoughData { .. } | Error::TooFewSamples { .. }) => None,
        Err(e) => return Err(e),
    };
    let required = match &estimate {
        Some(b) => match required_size(b, &p.target, p.min_batches) {
            Ok(r) => Some(r),
            Err(Error::NotEnoughData { .. }) => None,
            Err(e) => return Err(e),
        },
        None => None,
    };
    let met = estimate.as_ref().is_some_and(|b| {
        b.batches >= p.min_batches
            && p.target
                .half_width_for(b.mean)
                .is_some_and(|e| b.half_width <= e)
    });
    Ok(PrecisionAnalysis {
        estimate,
        required,
        discarded,
        later_shift,
        met,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::clock::SimulatedClock;
    use crate::rng::Rng;
    use std::cell::RefCell;

    /// A candidate whose batch of n ops costs n·(base·(1 + noise)) ns of simulated time.
    fn noisy<'a>(clock: &SimulatedClock, seed: u64, base: f64, cv: f64) -> Candidate<'a> {
        let c = clock.clone();
        let rng = RefCell::new(Rng::new(seed));
        Candidate::new("noisy", move |n| {
            let x = base * (1.0 + cv * rng.borrow_mut().next_normal());
            c.advance((x.max(1.0) * n as f64) as u64);
        })
    }

    #[test]
    fn presets_are_pilots() {
        let q = Precision::quick();
        assert_eq!(
            (q.ac_limit, q.target.relative, q.min_batches),
            (0.8, Some(0.10), 30)
        );
        let n = Precision::normal();
        assert_eq!(
            (n.ac_limit, n.target.relative, n.min_batches),
            (0.2, Some(0.05), 50)
        );
        let s = Precision::strict();
        assert_eq!(
            (s.ac_limit, s.target.relative, s.min_batches),
            (0.1, Some(0.05), 200)
        );
        assert_eq!(Precision::default().min_batches, 30);
        assert!([q.level, n.level, s.level].iter().all(|&l| l == 0.95));
    }

    #[test]
    fn bad_options_are_rejected_not_ignored() {
        let clock = SimulatedClock::new(1);
        for p in [
            Precision::quick().ac_limit(0.0),
            Precision::quick().ac_limit(1.5),
            Precision::quick().level(1.0),
            Precision::quick().half_width(0.0),
            Precision::quick().min_batches(1),
            Precision::quick().max_duration(Some(Duration::ZERO)),
            Precision::quick().max_quantization_error(2.0),
        ] {
            assert!(measure_with_clock(noisy(&clock, 1, 1000.0, 0.1), &p, &clock).is_err());
        }
    }

    #[test]
    fn strict_session_finishes() {
        let clock = SimulatedClock::new(1);
        let m = measure_with_clock(
            noisy(&clock, 2, 1000.0, 0.1),
            &Precision::strict().inner_loops(1),
            &clock,
        )
        .unwrap();
        assert!(m.target_met, "{:?}", m.stop);
        assert_eq!(m.stop, StopReason::TargetMet);
        let e = m.estimate.unwrap();
        assert!(e.batches >= 200 && e.half_width <= 0.05 * e.mean);
        assert!((e.mean - 1000.0).abs() < 30.0);
        assert_eq!(m.discarded, 0);
    }

    #[test]
    fn budgets_and_cancellation_end_the_session_with_a_result() {
        let clock = SimulatedClock::new(1);
        // ±0.1 % of a 50 % cv cannot be reached in 300 readings.
        let p = Precision::normal()
            .half_width(0.001)
            .inner_loops(1)
            .max_readings(300);
        let m = measure_with_clock(noisy(&clock, 3, 1000.0, 0.5), &p, &clock).unwrap();
        assert_eq!(m.stop, StopReason::ReadingBudget);
        assert!(!m.target_met && m.readings.len() == 300);
        assert!(m.estimate.is_some() && m.required.unwrap().readings > 300);

        let p = Precision::normal()
            .half_width(0.001)
            .inner_loops(1)
            .max_duration(Some(Duration::from_micros(200)));
        let m = measure_with_clock(noisy(&clock, 4, 1000.0, 0.5), &p, &clock).unwrap();
        assert_eq!(m.stop, StopReason::TimeBudget);
        assert!(m.readings.len() <= 201);

        let token = CancelToken::new();
        let t2 = token.clone();
        let c = clock.clone();
        let count = RefCell::new(0);
        let cand = Candidate::new("c", move |n| {
            c.advance(100 * n);
            *count.borrow_mut() += 1;
            if *count.borrow() == 25 {
                t2.cancel();
            }
        });
        let p = Precision::strict().inner_loops(1).cancel(token);
        let m = measure_with_clock(cand, &p, &clock).unwrap();
        assert_eq!(m.stop, StopReason::Cancelled);
        assert_eq!(m.readings.len(), 25);
    }

    #[test]
    fn warm_up_is_dropped_and_rate_is_inverted() {
        let clock = SimulatedClock::new(1);
        let c = clock.clone();
        let rng = RefCell::new(Rng::new(5));
        let i = RefCell::new(0usize);
        let cand = Candidate::new("warm", move |n| {
            let k = *i.borrow();
            *i.borrow_mut() += 1;
            let base = if k < 80 { 1500.0 } else { 1000.0 };
            let x = base + 100.0 * rng.borrow_mut().next_normal();
            c.advance((x * n as f64) as u64);
        });
        // Strict needs 200 batch means, so the session outlasts the warm-up and sees it end.
        let m = measure_with_clock(cand, &Precision::strict().inner_loops(1), &clock).unwrap();
        assert!(m.target_met);
        assert!(m.discarded.abs_diff(80) <= 3, "{}", m.discarded);
        let e = m.estimate.clone().unwrap();
        assert!((e.mean - 1000.0).abs() < 25.0, "{}", e.mean);
        let r = m.rate().unwrap();
        assert!((r.mean - 1e9 / e.mean).abs() < 1e-6);
        assert!(r.low < r.mean && r.mean < r.high);
        assert!(r.high - r.mean > r.mean - r.low);
    }

    #[test]
    fn the_limit_and_level_are_used() {
        // AR(1) readings: quick accepts q = 1, strict needs larger batches.
        let run = |p: Precision| {
            let clock = SimulatedClock::new(1);
            let c = clock.clone();
            let rng = RefCell::new(Rng::new(8));
            let x = RefCell::new(0.0f64);
            let cand = Candidate::new("ar", move |n| {
                let v = 0.7 * *x.borrow() + rng.borrow_mut().next_normal() * 0.714;
                *x.borrow_mut() = v;
                c.advance(((1000.0 + 50.0 * v) * n as f64) as u64);
            });
            measure_with_clock(cand, &p.inner_loops(1).remove_warm_up(false), &clock).unwrap()
        };
        let quick = run(Precision::quick());
        let strict = run(Precision::strict());
        let (eq, es) = (quick.estimate.unwrap(), strict.estimate.unwrap());
        assert!(eq.q < es.q, "{} vs {}", eq.q, es.q);
        assert!(es.autocorrelation.abs() <= 0.1 && strict.target_met);
        let s99 = run(Precision::strict().level(0.99)).estimate.unwrap();
        assert_eq!(s99.level, 0.99);
    }
}
