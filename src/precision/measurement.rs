//! What a precision session returns: the estimate, how it was reached and why the session
//! stopped, with its plain-language summary and the throughput it implies.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::env::Instrumentation;
use crate::stats::{BatchMeans, RateInterval, RequiredSize};

/// Why [`measure`](super::measure) stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StopReason {
    /// The interval reached the target with at least `min_batches` batch means.
    TargetMet,
    /// [`Precision::max_readings`](super::Precision::max_readings) readings were taken first.
    ReadingBudget,
    /// [`Precision::max_duration`](super::Precision::max_duration) passed first.
    TimeBudget,
    /// The [`CancelToken`](crate::measure::CancelToken) was cancelled.
    Cancelled,
}

/// The result of [`measure`](super::measure): the estimate, how it was reached and why the session
/// stopped.
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
    /// [`Precision::allow_instrumented`](super::Precision::allow_instrumented) let the session run
    /// there: then the readings measure the translation, not the code. `None`: none was found (or
    /// the clock is simulated).
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
                "{}: {} per operation, {} interval [{}, {}] (±{}), from {} batch means of \
                 {} readings (q = {})",
                self.name,
                crate::display::Ns(e.mean),
                crate::display::Level(e.level),
                crate::display::Ns(e.low),
                crate::display::Ns(e.high),
                crate::display::Pct(e.half_width / e.mean.abs().max(f64::MIN_POSITIVE)),
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
