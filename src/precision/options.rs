//! What a precision session aims for and how long it may try: Pilot's presets as a consuming
//! builder, checked before anything is measured.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::measure::CancelToken;
use crate::measure::calibrate::DEFAULT_MAX_QUANTIZATION_ERROR;
use crate::stats::{BatchMeansOptions, DEFAULT_LEVEL, PrecisionTarget};

/// Default [`Precision::max_readings`]: one million readings (8 MB).
pub(crate) const DEFAULT_MAX_READINGS: usize = 1_000_000;
/// Default [`Precision::max_duration`]: 60 s, Pilot's default session duration.
pub(crate) const DEFAULT_MAX_DURATION: Duration = Duration::from_secs(60);
/// Default [`Precision::round_readings`]: the fewest readings of one round (10).
pub(crate) const DEFAULT_ROUND_READINGS: usize = 10;

/// What [`measure`](super::measure) aims for and how long it may try: a consuming builder with
/// Pilot's presets.
///
/// ```
/// use rtcompare::precision::Precision;
/// // Strict's 200 batch means, grouped until their lag-1 autocorrelation is below 0.05, to
/// // ±1 % of the mean at 99 %.
/// let p = Precision::strict().ac_limit(0.05).half_width(0.01).level(0.99);
/// // Or ±2 ns per operation, whatever the mean.
/// let q = Precision::normal().half_width_ns(2.0);
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Precision {
    /// Largest accepted |lag-1 autocorrelation| of the batch means, in `(0, 1]`.
    pub(crate) ac_limit: f64,
    /// The half-width to reach: relative to the mean, absolute in ns per operation, or both
    /// (the narrower applies).
    pub(crate) target: PrecisionTarget,
    /// Fewest batch means behind a result that meets the target (not readings: with `q = 4`,
    /// 200 batch means are 800 readings). At least 2.
    pub(crate) min_batches: usize,
    /// Coverage of the interval, in `(0, 1)`. Default 0.95.
    pub(crate) level: f64,
    /// Most readings to take; 0 means `DEFAULT_MAX_READINGS` (1_000_000).
    pub(crate) max_readings: usize,
    /// Longest time to measure, calibration included; `None`: no limit. Default
    /// `DEFAULT_MAX_DURATION`.
    pub(crate) max_duration: Option<Duration>,
    /// Fewest readings per round; 0 means `DEFAULT_ROUND_READINGS` (10).
    pub(crate) round_readings: usize,
    /// Operations per batch; 0 calibrates against the clock's precision.
    pub(crate) inner_loops: u64,
    /// Largest share of a batch one clock step may be, for calibration; in `(0, 1)`. Default
    /// 0.001.
    pub(crate) max_quantization_error: f64,
    /// Detect and drop a warm-up (default `true`).
    pub(crate) remove_warm_up: bool,
    /// Measure even under Valgrind or QEMU user mode
    /// ([`Environment::instrumented_by`](crate::env::Environment::instrumented_by)). Off by
    /// default: [`measure`](super::measure) then refuses with [`Error::MeaninglessTimings`] before
    /// measuring, as [`compare`](crate::compare()) does. On: it measures and records the host in
    /// [`Measurement::instrumented_by`](super::Measurement::instrumented_by). Ignored on a
    /// simulated clock.
    #[serde(default)]
    pub(crate) allow_instrumented: bool,
    /// Stops the session between batches when cancelled; the result says
    /// [`StopReason::Cancelled`](super::StopReason::Cancelled).
    #[serde(skip)]
    pub(crate) cancel: Option<CancelToken>,
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

    /// Sets the largest accepted |lag-1 autocorrelation| of the batch means, in `(0, 1]`
    /// (readings are grouped into larger batches until it holds). Out of range or NaN:
    /// `measure` refuses it with [`Error::OutOfRange`].
    pub fn ac_limit(mut self, limit: f64) -> Self {
        self.ac_limit = limit;
        self
    }
    /// Aims for a half-width of ±`fraction` of the mean (0.01: ±1 %), replacing the target.
    /// Not positive or not finite: `measure` refuses it with [`Error::OutOfRange`].
    pub fn half_width(mut self, fraction: f64) -> Self {
        self.target = PrecisionTarget::relative(fraction);
        self
    }
    /// Aims for a half-width of ±`ns` nanoseconds per operation, whatever the mean, replacing
    /// the target. Not positive or not finite: `measure` refuses it with
    /// [`Error::OutOfRange`].
    pub fn half_width_ns(mut self, ns: f64) -> Self {
        self.target = PrecisionTarget::absolute(ns);
        self
    }
    /// Sets the fewest batch means behind a result that meets the target (not readings: with
    /// 4 readings a batch, 200 batch means are 800 readings); raise it when the first readings
    /// may be slow. Below 2: `measure` refuses it with [`Error::OutOfRange`].
    pub fn min_batches(mut self, n: usize) -> Self {
        self.min_batches = n;
        self
    }
    /// Sets the coverage of the interval, in `(0, 1)` (default 0.95). Out of range:
    /// `measure` refuses it with [`Error::OutOfRange`].
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Sets the most readings to take (8 bytes each); 0 selects the default, 1,000,000.
    pub fn max_readings(mut self, n: usize) -> Self {
        self.max_readings = n;
        self
    }
    /// Sets the longest time to measure, calibration included (default 60 s); `None`: no
    /// limit. `Some(Duration::ZERO)`: `measure` refuses it with [`Error::InvalidOption`].
    pub fn max_duration(mut self, d: Option<Duration>) -> Self {
        self.max_duration = d;
        self
    }
    /// Sets the fewest readings one round of measuring adds before the interval is checked
    /// again; 0 selects the default, 10.
    pub fn round_readings(mut self, n: usize) -> Self {
        self.round_readings = n;
        self
    }
    /// Sets the operations per timed batch; 0 (the default) calibrates it against the
    /// clock's precision.
    pub fn inner_loops(mut self, n: u64) -> Self {
        self.inner_loops = n;
        self
    }
    /// Sets the largest share of a batch's time that one clock step may be, for calibration,
    /// in `(0, 1)`; 0 selects the default, 0.001. Otherwise out of range: `measure` refuses
    /// it with [`Error::OutOfRange`].
    pub fn max_quantization_error(mut self, e: f64) -> Self {
        self.max_quantization_error = e;
        self
    }
    /// Whether to detect a warm-up at the start and drop it (default `true`): only readings
    /// proven different from, and slower than, what follows are dropped.
    pub fn remove_warm_up(mut self, on: bool) -> Self {
        self.remove_warm_up = on;
        self
    }
    /// Measures even under Valgrind or QEMU user mode
    /// ([`Environment::instrumented_by`](crate::env::Environment::instrumented_by)). Off by
    /// default: `measure` then refuses with [`Error::MeaninglessTimings`] before measuring. On:
    /// it measures and records the host in
    /// [`Measurement::instrumented_by`](super::Measurement::instrumented_by). Ignored on a
    /// simulated clock.
    pub fn allow_instrumented(mut self, allow: bool) -> Self {
        self.allow_instrumented = allow;
        self
    }
    /// Stops the session between batches when `token` is cancelled; the result then says
    /// [`StopReason::Cancelled`](super::StopReason::Cancelled).
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// The options with zeros replaced by defaults, checked: every setting is either used or
    /// rejected, never silently ignored.
    pub(super) fn resolved(&self) -> Result<Precision> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
