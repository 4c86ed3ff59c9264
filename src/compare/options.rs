//! [`CompareOptions`]: every knob of [`compare`](crate::compare()), as one builder.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::compare::validate::default_validation_runs;
use crate::error::{Error, Result};
use crate::measure::cache::Cache;
use crate::measure::collect::{CancelToken, CollectOptions, Progress};
use crate::stats::{self, DEFAULT_LEVEL, DEFAULT_RESAMPLES};

/// Options for [`compare`](crate::compare()): a builder whose methods consume and return `Self`. Zero means the
/// documented default for every numeric field.
///
/// ```
/// use std::time::Duration;
/// use rtcompare::CompareOptions;
/// let opts = CompareOptions::default()
///     .thresholds([0.05, 0.10])
///     .seed(42)
///     .validation_runs(40)
///     .repeats(101)
///     .warmup_duration(Duration::from_millis(300))
///     .max_duration(Duration::from_secs(10));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompareOptions {
    /// Measurement options: repeats, batch size, order, warm-up, cancellation, progress.
    pub(crate) collect: CollectOptions,
    /// Relative speedups to report confidences for (fractions: 0.05 = "A needs at least 5 %
    /// less time"). Empty: no confidences. NaN is rejected.
    pub(crate) thresholds: Vec<f64>,
    /// A/A runs per candidate; at least 2. 0 (the default) selects the cache mode's default:
    /// 40 warm (`DEFAULT_VALIDATION_RUNS` (40)),
    /// 10 cold ([`DEFAULT_COLD_VALIDATION_RUNS`](super::validate::DEFAULT_COLD_VALIDATION_RUNS),
    /// where every batch pays an eviction).
    pub(crate) validation_runs: usize,
    /// Skip the A/A validation (the report then has no noise floor and says so).
    pub(crate) skip_validation: bool,
    /// Measure even under an emulator or instrumentation framework (Valgrind, QEMU user mode; see
    /// [`Environment::instrumented_by`](crate::env::Environment::instrumented_by)). Off by
    /// default: [`compare`](crate::compare()) then refuses with [`Error::MeaninglessTimings`]
    /// before measuring anything, because such timings measure the translator, not the code. On: it
    /// measures, and the report's first warning is
    /// [`Warning::Instrumented`](crate::compare::report::Warning::Instrumented). Ignored on a
    /// simulated clock.
    #[serde(default)]
    pub(crate) allow_instrumented: bool,
    /// Coverage of the interval, in (0, 1). Default 0.95.
    pub(crate) level: f64,
    /// Bootstrap replicates. Default 5,000.
    pub(crate) resamples: usize,
    /// Seed of every bootstrap; 0 draws one, recorded in [`Report::seed`](crate::Report::seed). It makes the
    /// analysis reproducible, not the measurement.
    pub(crate) seed: u64,
    /// Time limit for the validation: once half of it has passed, no further A/A runs start,
    /// provided at least 10 ran. The measurement always runs in full. Zero: no limit.
    pub(crate) max_duration: Duration,
    /// Pin the measuring thread to this CPU for the whole comparison (Linux; the previous
    /// affinity is restored afterwards; elsewhere `compare` answers
    /// [`Error::Unsupported`](crate::Error::Unsupported)). `None`: leave the scheduler free.
    pub(crate) pin_cpu: Option<usize>,
    /// Keep collecting paired rounds after the first `repeats` until the interval on δ is at
    /// most this wide (or the rule's pair budget is spent). The rule looks only at the width,
    /// fixed before measuring, never at where the interval lies, so it cannot become "stop when
    /// it looks significant". `None`: exactly `repeats` pairs.
    pub(crate) width_target: Option<stats::WidthTarget>,
    /// The smallest difference that matters, a fraction (default
    /// `DEFAULT_COMPARE_MARGIN` (0.005), 0.5 %): a side is proven faster only when the interval
    /// lies beyond it (and beyond the A/A floor), and the two are equivalent when the interval
    /// lies inside ±margin. 0: every real difference is claimed and nothing is equivalent.
    /// Negative or NaN is rejected. Options written before the margin existed read as 0,
    /// the rule they were judged by.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) margin: f64,
}

/// [`CompareOptions::margin`]'s default: 0.5 %. Identical candidates measured in one process
/// give intervals within ±0.1 % on the developers' machines, so they read "equivalent" at once,
/// while a 1 % change is still claimed (docs/background.md, "The margin of one comparison").
pub const DEFAULT_COMPARE_MARGIN: f64 = 0.005;

/// Whether a margin is 0, the value of options written before it existed: left out of the
/// JSON, so that such options write back as they were read.
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            collect: CollectOptions::default(),
            thresholds: Vec::new(),
            validation_runs: 0,
            skip_validation: false,
            allow_instrumented: false,
            level: DEFAULT_LEVEL,
            resamples: DEFAULT_RESAMPLES,
            seed: 0,
            max_duration: Duration::ZERO,
            pin_cpu: None,
            width_target: None,
            margin: DEFAULT_COMPARE_MARGIN,
        }
    }
}

impl CompareOptions {
    /// The smallest difference that matters, a fraction (default 0.005, 0.5 %): a side is
    /// proven faster only when the interval lies beyond it (and beyond the A/A floor), and the
    /// two are equivalent when the interval lies inside ±margin. 0: every real difference is
    /// claimed and nothing is equivalent. Negative, infinite or NaN: [`compare`](crate::compare())
    /// returns [`Error::OutOfRange`].
    pub fn margin(mut self, margin: f64) -> Self {
        self.margin = margin;
        self
    }

    /// Sets the measurement options (`CollectOptions`) wholesale
    /// (`rtcompare::support::compare::with_collect`).
    pub(crate) fn collect(mut self, c: CollectOptions) -> Self {
        self.collect = c;
        self
    }
    /// Relative speedups to report confidences for (fractions: 0.05 = "A needs at least 5 %
    /// less time"). Empty (the default): no confidences. A NaN threshold:
    /// [`compare`](crate::compare()) returns [`Error::InvalidOption`].
    pub fn thresholds(mut self, t: impl IntoIterator<Item = f64>) -> Self {
        self.thresholds = t.into_iter().collect();
        self
    }
    /// A/A runs per candidate; at least 2 (one: [`compare`](crate::compare()) returns
    /// [`Error::TooFewSamples`] unless the validation is skipped). 0 (the default) selects the
    /// cache mode's default: 40 warm, 10 cold (where every batch pays an eviction).
    pub fn validation_runs(mut self, runs: usize) -> Self {
        self.validation_runs = runs;
        self
    }
    /// Skips the A/A validation when `true` (the report then has no noise floor and says so).
    pub fn skip_validation(mut self, skip: bool) -> Self {
        self.skip_validation = skip;
        self
    }
    /// Measures even under an emulator or instrumentation framework (Valgrind, QEMU user mode;
    /// see [`Environment::instrumented_by`](crate::env::Environment::instrumented_by)) when
    /// `true`. Off by default: [`compare`](crate::compare()) then refuses with
    /// [`Error::MeaninglessTimings`] before measuring anything, because such timings measure the
    /// translator, not the code. On: it measures, and the report's first warning is
    /// [`Warning::Instrumented`](crate::compare::report::Warning::Instrumented). Ignored on a
    /// simulated clock.
    ///
    /// ```
    /// let opts = rtcompare::CompareOptions::default().allow_instrumented(true);
    /// ```
    pub fn allow_instrumented(mut self, allow: bool) -> Self {
        self.allow_instrumented = allow;
        self
    }
    /// Coverage of the interval, in (0, 1); default 0.95, which 0 also selects. Otherwise
    /// outside (0, 1), or NaN: [`compare`](crate::compare()) returns [`Error::OutOfRange`].
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Bootstrap replicates; default 5,000, which 0 also selects. More than 10,000,000:
    /// [`compare`](crate::compare()) returns an error.
    pub fn resamples(mut self, r: usize) -> Self {
        self.resamples = r;
        self
    }
    /// Seed of every bootstrap; 0 (the default) draws one, recorded in
    /// [`Report::seed`](crate::Report::seed). It makes the analysis reproducible, not the
    /// measurement.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// Time limit for the validation: once half of it has passed, no further A/A runs start,
    /// provided at least 10 ran. The measurement always runs in full. Zero (the default): no
    /// limit.
    pub fn max_duration(mut self, d: Duration) -> Self {
        self.max_duration = d;
        self
    }
    /// Pins the measuring thread to CPU number `cpu` for the whole comparison (Linux; the
    /// previous affinity is restored afterwards). Not set (the default): the scheduler is free.
    /// A CPU the thread may not run on, or a system that cannot pin:
    /// [`compare`](crate::compare()) returns an error before measuring.
    pub fn pin_to_cpu(mut self, cpu: usize) -> Self {
        self.pin_cpu = Some(cpu);
        self
    }
    /// Collects more pairs until the interval's half-width meets `target`
    /// (`rtcompare::support::compare::width_target`).
    pub(crate) fn width_target(mut self, target: stats::WidthTarget) -> Self {
        self.width_target = Some(target);
        self
    }
    /// Paired samples per candidate; default 101, which 0 also selects. Fewer than 11:
    /// [`compare`](crate::compare()) returns [`Error::TooFewSamples`]. More repeats narrow
    /// the interval, not the noise floor.
    pub fn repeats(mut self, repeats: usize) -> Self {
        self.collect.repeats = repeats;
        self
    }
    /// Fixes the operations per timed batch; 0 (the default) calibrates it so that one clock
    /// step is at most [`max_quantization_error`](Self::max_quantization_error) of a batch.
    pub fn inner_loops(mut self, n: u64) -> Self {
        self.collect.inner_loops = n;
        self
    }
    /// Largest share of a batch's time that one clock step may be, for the calibration of the
    /// batch size, in `(0, 1)`; 0 selects the default, 0.001. A coarser clock needs a larger
    /// batch; raise it (0.01) for operations so slow that a large batch wastes time. Out of
    /// range: [`compare`](crate::compare()) returns [`Error::OutOfRange`].
    pub fn max_quantization_error(mut self, e: f64) -> Self {
        self.collect.max_quantization_error = e;
        self
    }
    /// Least duration of the warm-up, both candidates together; default 300 ms, which zero
    /// also selects. 1 ns warms up by the count of batches alone (one per candidate).
    pub fn warmup_duration(mut self, d: Duration) -> Self {
        self.collect.warmup_duration = d;
        self
    }
    /// No warm-up at all when `true`.
    pub fn skip_warmup(mut self, skip: bool) -> Self {
        self.collect.skip_warmup = skip;
        self
    }
    /// Chooses the experiment: [`Cache::Warm`] (the default) measures
    /// code whose data stay in the caches from batch to batch; [`Cache::Cold`] evicts the caches
    /// before every batch (warm-up, A/A validation and measurement alike, outside the timed
    /// region), runs one operation per batch unless [`inner_loops`](Self::inner_loops) is fixed,
    /// and runs [`DEFAULT_COLD_VALIDATION_RUNS`](super::validate::DEFAULT_COLD_VALIDATION_RUNS)
    /// (10) A/A runs unless [`validation_runs`](Self::validation_runs) says otherwise. The report
    /// records and prints the mode.
    ///
    /// ```
    /// use rtcompare::{Cache, CompareOptions};
    /// let opts = CompareOptions::default().cache(Cache::Cold);
    /// ```
    pub fn cache(mut self, cache: Cache) -> Self {
        self.collect.cache = cache;
        self
    }
    /// Reads hardware counters (cycles, instructions, cache and branch misses) around the
    /// measured batches when `true`; the report's
    /// [`resources.counters`](crate::compare::report::Resources::counters) holds the
    /// per-operation medians, or says they were unavailable (without the `counters` feature,
    /// off Linux, or where the machine does not expose them). They never decide a verdict.
    pub fn counters(mut self, on: bool) -> Self {
        self.collect.counters = on;
        self
    }
    /// Stops the comparison with [`Error::Cancelled`] once `token` is cancelled (checked
    /// between batches).
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.collect.cancel = Some(token);
        self
    }
    /// Stops the comparison with [`Error::Cancelled`] once `d` has passed since it started
    /// (checked between batches). A zero timeout: [`compare`](crate::compare()) returns
    /// [`Error::InvalidOption`].
    pub fn timeout(mut self, d: Duration) -> Self {
        self.collect.timeout = Some(d);
        self
    }
    /// Calls `f` with the stage and its progress between batches (never inside a timed
    /// batch).
    pub fn progress(mut self, f: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.collect.progress = Some(Arc::new(f));
        self
    }

    pub(crate) fn resolved(&self) -> Result<CompareOptions> {
        let mut o = self.clone();
        o.collect = self.collect.resolved()?;
        if let Some(i) = o.thresholds.iter().position(|t| t.is_nan()) {
            return Err(Error::invalid_option(
                "thresholds",
                format!("threshold {i} is NaN; every threshold must be a number"),
            ));
        }
        if o.validation_runs == 0 {
            o.validation_runs = default_validation_runs(o.collect.cache);
        }
        if !o.skip_validation && o.validation_runs < 2 {
            return Err(Error::TooFewSamples {
                what: "validation runs",
                needed: 2,
                got: o.validation_runs,
            });
        }
        if o.level == 0.0 {
            o.level = DEFAULT_LEVEL;
        }
        if !(o.level > 0.0 && o.level < 1.0) {
            return Err(Error::out_of_range(
                "level",
                o.level,
                "0 < level < 1 (0 selects 0.95)",
            ));
        }
        if o.resamples == 0 {
            o.resamples = DEFAULT_RESAMPLES;
        }
        if !(o.margin.is_finite() && o.margin >= 0.0) {
            return Err(Error::out_of_range(
                "margin",
                o.margin,
                "a finite fraction >= 0 (0.005 = 0.5 %)",
            ));
        }
        if let Some(w) = &o.width_target {
            w.validate()?;
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::validate::DEFAULT_COLD_VALIDATION_RUNS;

    #[test]
    fn options_resolve_and_reject() {
        let o = CompareOptions::default()
            .validation_runs(0)
            .level(0.0)
            .resamples(0)
            .resolved()
            .unwrap();
        assert_eq!(o.validation_runs, 40);
        let cold = CompareOptions::default()
            .cache(Cache::Cold)
            .resolved()
            .unwrap();
        assert_eq!(cold.validation_runs, DEFAULT_COLD_VALIDATION_RUNS);
        let asked = CompareOptions::default()
            .cache(Cache::Cold)
            .validation_runs(40)
            .resolved()
            .unwrap();
        assert_eq!(asked.validation_runs, 40, "an explicit count is kept");
        assert_eq!(o.level, 0.95);
        assert_eq!(o.resamples, 5000);
        let bad = |o: CompareOptions| o.resolved().unwrap_err();
        assert!(matches!(
            bad(CompareOptions::default().thresholds([0.1, f64::NAN])),
            Error::InvalidOption {
                name: "thresholds",
                ..
            }
        ));
        assert!(matches!(
            bad(CompareOptions::default().level(1.5)),
            Error::OutOfRange { name: "level", .. }
        ));
        assert!(matches!(
            bad(CompareOptions::default().validation_runs(1)),
            Error::TooFewSamples { .. }
        ));
        assert!(matches!(
            bad(CompareOptions::default().repeats(5)),
            Error::TooFewSamples {
                what: "repeats",
                ..
            }
        ));
    }
}
