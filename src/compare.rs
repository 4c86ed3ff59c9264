//! The whole protocol in one call: is A really faster than B, by how much, and how sure?
//!
//! [`compare`] runs these steps and keeps the evidence of each in the [`Report`]:
//!
//! 1. **Calibrate** both candidates once and use the larger batch size for everything that
//!    follows, so the noise floor describes the setup actually measured.
//! 2. **Validate A/A** (unless skipped): both candidates against themselves, interleaved
//!    A, B, B′, A′ and back, `validation_runs` times, after one full warm-up. The larger of the
//!    two 0.9-quantile floors is what a difference must clear.
//! 3. **Warm up and measure** `repeats` ABBA pairs. After a validation the candidates have just
//!    run alternately for hundreds of batches, so the second warm-up goes by count alone;
//!    without validation it lasts the full warm-up duration.
//! 4. **Drift tests** on A, on B and on the ratio B/A of each pair.
//! 5. **Resampling scheme**: if the larger lag-1 autocorrelation of the two measured series
//!    exceeds [`AUTOCORRELATION_THRESHOLD`] (0.2), whole pairs are resampled in blocks of
//!    [`auto_block_length`] (5 for 101 pairs); otherwise single pairs.
//! 6. **The paired estimate** δ = 1 − median(Aᵢ/Bᵢ) with its percentile interval, the
//!    confidences at the requested thresholds (from the same replicates), the quantization step
//!    and the **verdict**: resolved only when the interval excludes zero, |δ| exceeds the noise
//!    floor and |δ| exceeds [`QUANTIZATION_GATE`] clock steps of the faster batch.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::candidate::Candidate;
use crate::clock::{Clock, CpuWatch, MonotonicClock, SuspendWatch};
use crate::collect::{CancelToken, CollectOptions, Order, Progress, Session, Stage};
use crate::env::Environment;
use crate::report::{
    AUTOCORRELATION_THRESHOLD, BUSY_PROCESS_SHARE, DRIFT_WARNING_LEVEL, HIGH_AUTOCORRELATION,
    HIGH_TIE_RATE, LARGE_WORKING_SET_BYTES, QUANTIZATION_GATE, REPORT_SCHEMA_VERSION, Report,
    Series, Unresolved, Verdict, Warning,
};
use crate::rng::{derive_seed, resolve_seed};
use crate::stats::{
    self, BootstrapDistribution, DEFAULT_LEVEL, DEFAULT_RESAMPLES, DriftReport, Estimate,
    EstimateOptions, WidthDecision, auto_block_length, detect_drift, lag1_autocorrelation,
};
use crate::validate::{
    DEFAULT_VALIDATION_LEVEL, DEFAULT_VALIDATION_RUNS, HarnessValidation, ValidationOptions,
    run_pair,
};
use crate::{Error, Result};

/// Options for [`compare`]: a builder whose methods consume and return `Self`. Zero means the
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
/// assert_eq!(opts.collect.repeats, 101);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompareOptions {
    /// Measurement options: repeats, batch size, order, warm-up, cancellation, progress.
    pub collect: CollectOptions,
    /// Relative speedups to report confidences for (fractions: 0.05 = "A needs at least 5 %
    /// less time"). Empty: no confidences. NaN is rejected.
    pub thresholds: Vec<f64>,
    /// A/A runs per candidate; at least 2. Default 40.
    pub validation_runs: usize,
    /// Skip the A/A validation (the report then has no noise floor and says so).
    pub skip_validation: bool,
    /// Coverage of the interval, in (0, 1). Default 0.95.
    pub level: f64,
    /// Bootstrap replicates. Default 5,000.
    pub resamples: usize,
    /// Seed of every bootstrap; 0 draws one, recorded in [`Report::seed`]. It makes the
    /// analysis reproducible, not the measurement.
    pub seed: u64,
    /// Time limit for the validation: once half of it has passed, no further A/A runs start,
    /// provided at least 10 ran. The measurement always runs in full. Zero: no limit.
    pub max_duration: Duration,
    /// Pin the measuring thread to this CPU for the whole comparison (Linux; the previous
    /// affinity is restored afterwards). `None`: leave the scheduler free.
    pub pin_cpu: Option<usize>,
    /// Keep collecting paired rounds after the first `repeats` until the interval on δ is at
    /// most this wide (or the rule's pair budget is spent). The rule looks only at the width,
    /// fixed before measuring, never at where the interval lies, so it cannot become "stop when
    /// it looks significant". `None`: exactly `repeats` pairs.
    pub width_target: Option<stats::WidthTarget>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            collect: CollectOptions::default(),
            thresholds: Vec::new(),
            validation_runs: DEFAULT_VALIDATION_RUNS,
            skip_validation: false,
            level: DEFAULT_LEVEL,
            resamples: DEFAULT_RESAMPLES,
            seed: 0,
            max_duration: Duration::ZERO,
            pin_cpu: None,
            width_target: None,
        }
    }
}

impl CompareOptions {
    /// Sets [`collect`](Self::collect), the measurement options, wholesale.
    pub fn collect(mut self, c: CollectOptions) -> Self {
        self.collect = c;
        self
    }
    /// Sets [`thresholds`](Self::thresholds).
    pub fn thresholds(mut self, t: impl IntoIterator<Item = f64>) -> Self {
        self.thresholds = t.into_iter().collect();
        self
    }
    /// Sets [`validation_runs`](Self::validation_runs).
    pub fn validation_runs(mut self, runs: usize) -> Self {
        self.validation_runs = runs;
        self
    }
    /// Sets [`skip_validation`](Self::skip_validation).
    pub fn skip_validation(mut self, skip: bool) -> Self {
        self.skip_validation = skip;
        self
    }
    /// Sets [`level`](Self::level).
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Sets [`resamples`](Self::resamples).
    pub fn resamples(mut self, r: usize) -> Self {
        self.resamples = r;
        self
    }
    /// Sets [`seed`](Self::seed).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// Sets [`max_duration`](Self::max_duration).
    pub fn max_duration(mut self, d: Duration) -> Self {
        self.max_duration = d;
        self
    }
    /// Pins the measuring thread to `cpu` for the comparison ([`pin_cpu`](Self::pin_cpu)).
    pub fn pin_to_cpu(mut self, cpu: usize) -> Self {
        self.pin_cpu = Some(cpu);
        self
    }
    /// Collects more pairs until the interval's half-width meets `target`
    /// ([`width_target`](Self::width_target)).
    pub fn width_target(mut self, target: stats::WidthTarget) -> Self {
        self.width_target = Some(target);
        self
    }
    /// Sets the paired samples per candidate ([`CollectOptions::repeats`]).
    pub fn repeats(mut self, repeats: usize) -> Self {
        self.collect.repeats = repeats;
        self
    }
    /// Fixes the batch size ([`CollectOptions::inner_loops`]; 0 = calibrate).
    pub fn inner_loops(mut self, n: u64) -> Self {
        self.collect.inner_loops = n;
        self
    }
    /// Sets [`CollectOptions::max_quantization_error`].
    pub fn max_quantization_error(mut self, e: f64) -> Self {
        self.collect.max_quantization_error = e;
        self
    }
    /// Sets [`CollectOptions::order`].
    pub fn order(mut self, order: Order) -> Self {
        self.collect.order = order;
        self
    }
    /// Sets [`CollectOptions::warmup`].
    pub fn warmup(mut self, batches: usize) -> Self {
        self.collect.warmup = batches;
        self
    }
    /// Sets [`CollectOptions::warmup_duration`].
    pub fn warmup_duration(mut self, d: Duration) -> Self {
        self.collect.warmup_duration = d;
        self
    }
    /// Sets [`CollectOptions::skip_warmup`].
    pub fn skip_warmup(mut self, skip: bool) -> Self {
        self.collect.skip_warmup = skip;
        self
    }
    /// Reads hardware counters around the measured batches ([`CollectOptions::counters`]);
    /// the report's [`counters`](Report::counters) holds the per-operation medians or says
    /// they were unavailable.
    pub fn counters(mut self, on: bool) -> Self {
        self.collect.counters = on;
        self
    }
    /// Sets a cancellation token ([`CollectOptions::cancel`]).
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.collect.cancel = Some(token);
        self
    }
    /// Sets a deadline for the whole comparison ([`CollectOptions::timeout`]).
    pub fn timeout(mut self, d: Duration) -> Self {
        self.collect.timeout = Some(d);
        self
    }
    /// Sets a progress callback, called between batches only ([`CollectOptions::progress`]).
    pub fn progress(mut self, f: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.collect.progress = Some(Arc::new(f));
        self
    }

    fn resolved(&self) -> Result<CompareOptions> {
        let mut o = self.clone();
        o.collect = self.collect.resolved()?;
        if let Some(i) = o.thresholds.iter().position(|t| t.is_nan()) {
            return Err(Error::invalid_option(
                "thresholds",
                format!("threshold {i} is NaN; every threshold must be a number"),
            ));
        }
        if o.validation_runs == 0 {
            o.validation_runs = DEFAULT_VALIDATION_RUNS;
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
        if let Some(w) = &o.width_target {
            w.validate()?;
        }
        Ok(o)
    }
}

/// Compares two candidates with the whole protocol on the process's monotonic clock and
/// returns the answer with its evidence.
///
/// Errors: invalid options ([`Error::OutOfRange`], [`Error::InvalidOption`],
/// [`Error::TooFewSamples`]); calibration failures ([`Error::BatchIgnoresN`],
/// [`Error::CalibrationCapReached`]); a panicking candidate ([`Error::CandidatePanicked`]);
/// cancellation or a passed deadline ([`Error::Cancelled`]); samples on which the statistics
/// are undefined ([`Error::Undefined`], for example a batch measured as 0 ns).
///
/// ```no_run
/// use std::hint::black_box;
/// use rtcompare::{compare, Candidate, CompareOptions, Verdict};
///
/// let input: Vec<u64> = (0..256).collect();
/// let a = Candidate::from_fn("sum", || black_box(&input).iter().sum::<u64>());
/// let b = Candidate::from_fn("fold", || black_box(&input).iter().fold(0, |s, x| s + x));
/// let report = compare(a, b, &CompareOptions::default().seed(42))?;
/// println!("{report}");
/// if let Verdict::CannotTell(reason) = report.verdict {
///     println!("no verdict: {reason}");
/// }
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn compare(a: Candidate<'_>, b: Candidate<'_>, options: &CompareOptions) -> Result<Report> {
    compare_with_clock(a, b, options, &MonotonicClock)
}

/// [`compare`] on any [`Clock`], for example a
/// [`SimulatedClock`](crate::clock::SimulatedClock) in tests.
pub fn compare_with_clock<C: Clock>(
    mut a: Candidate<'_>,
    mut b: Candidate<'_>,
    options: &CompareOptions,
    clock: &C,
) -> Result<Report> {
    let started = Instant::now();
    let o = options.resolved()?;
    let pin = o.pin_cpu.map(crate::pin::pin_current_thread).transpose()?;
    let suspend = SuspendWatch::start();
    let cpu = CpuWatch::start();
    let mut environment = Environment::capture();
    let instrument = clock.instrument();
    let session = Session::new(clock, &o.collect);

    let (n, calibration) = session.batch_size(&mut a, &mut b, &o.collect)?;
    let seed = resolve_seed(o.seed);
    let co = &o.collect;

    let validations = if o.skip_validation {
        None
    } else {
        if !co.skip_warmup {
            session.warm_up(&mut a, &mut b, n, co.warmup, co.warmup_duration)?;
        }
        let level = if o.level > 0.5 {
            o.level
        } else {
            DEFAULT_VALIDATION_LEVEL
        };
        let vopts = ValidationOptions::default()
            .collect(co.clone().inner_loops(n))
            .runs(o.validation_runs)
            .resamples(o.resamples)
            .level(level)
            .seed(seed);
        Some(run_pair(
            &session,
            &mut a,
            &mut b,
            n,
            &vopts,
            seed,
            o.max_duration / 2,
        )?)
    };

    if !co.skip_warmup {
        // After a validation both candidates have just run alternately for hundreds of
        // batches: warm up by count alone. Otherwise, the full duration.
        let duration = if validations.is_some() {
            Duration::ZERO
        } else {
            co.warmup_duration
        };
        session.warm_up(&mut a, &mut b, n, co.warmup, duration)?;
    }
    let mut samples = session.measure(&mut a, &mut b, n, co)?;
    session.check(Stage::Resampling)?;
    session.report(Stage::Resampling, 0, 1);

    let mut analysis = Analysis::of(&samples.a, &samples.b, &o, seed)?;
    let mut width_target_met = None;
    if let Some(rule) = &o.width_target {
        let mut round = 0u64;
        loop {
            match rule.decide(analysis.estimate.half_width(), samples.a.len())? {
                WidthDecision::Enough => {
                    width_target_met = Some(true);
                    break;
                }
                WidthDecision::BudgetExhausted => {
                    width_target_met = Some(false);
                    break;
                }
                WidthDecision::CollectMore(k) => {
                    // An even count keeps ABBA balanced: every round starts with A first.
                    round += 1;
                    let more = co
                        .clone()
                        .repeats(k + k % 2)
                        .seed(derive_seed(co.seed, round));
                    let extra = session.measure(&mut a, &mut b, n, &more)?;
                    samples.a.extend(extra.a);
                    samples.b.extend(extra.b);
                    samples.batch_ns_a.extend(extra.batch_ns_a);
                    samples.batch_ns_b.extend(extra.batch_ns_b);
                    samples.first.extend(extra.first);
                    analysis = Analysis::of(&samples.a, &samples.b, &o, seed)?;
                }
            }
        }
    }
    session.report(Stage::Resampling, 1, 1);

    let (validation_a, validation_b) = match validations {
        Some((va, vb)) => (Some(va), Some(vb)),
        None => (None, None),
    };
    let noise_floor = match (&validation_a, &validation_b) {
        (Some(va), Some(vb)) => va.noise_floor.max(vb.noise_floor),
        _ => 0.0,
    };
    let ns_per_op_a = stats::median(&samples.a)?;
    let ns_per_op_b = stats::median(&samples.b)?;
    let faster_batch_ns = n as f64 * ns_per_op_a.min(ns_per_op_b);
    let quantization = if faster_batch_ns > 0.0 {
        instrument.precision_ns as f64 / faster_batch_ns
    } else {
        f64::MAX
    };
    let verdict = decide(&analysis.estimate, noise_floor, quantization);
    let elapsed = started.elapsed();
    let other_threads_cpu = cpu.other_threads();
    let suspended = suspend.suspended_beyond_threshold().unwrap_or_default();
    environment.finish();
    let warnings = warnings(&WarningInputs {
        validation_a: validation_a.as_ref(),
        validation_b: validation_b.as_ref(),
        drift: [
            (Series::A, &analysis.drift_a),
            (Series::B, &analysis.drift_b),
            (Series::Ratio, &analysis.drift_ratio),
        ],
        autocorrelation: analysis.autocorrelation,
        suspended,
        tie_rate: analysis.tie_rate,
        delta: analysis.estimate.delta,
        quantization,
        noise_floor,
        thresholds: &o.thresholds,
        memory_growth: environment.max_rss_growth(),
        other_cpu_share: other_threads_cpu
            .map_or(0.0, |d| d.as_secs_f64() / elapsed.as_secs_f64().max(1e-9)),
        load_average: environment.load_average_start.map(|l| l[0]),
        cores: environment.logical_cores,
        debug_build: environment.debug_build,
    });

    Ok(Report {
        schema_version: REPORT_SCHEMA_VERSION,
        name_a: a.name().to_string(),
        name_b: b.name().to_string(),
        ns_per_op_a,
        ns_per_op_b,
        ratio: analysis.estimate.ratio(),
        estimate: analysis.estimate,
        confidences: analysis.confidences,
        validated: validation_a.is_some(),
        validation_a,
        validation_b,
        noise_floor,
        drift_a: analysis.drift_a,
        drift_b: analysis.drift_b,
        drift_ratio: analysis.drift_ratio,
        autocorrelation_a: analysis.autocorrelation_a,
        autocorrelation_b: analysis.autocorrelation_b,
        autocorrelation: analysis.autocorrelation,
        block_length: analysis.block_length,
        tie_rate: analysis.tie_rate,
        inner_loops: n,
        calibration_a: calibration.map(|c| c.0),
        calibration_b: calibration.map(|c| c.1),
        instrument,
        quantization,
        suspended,
        seed,
        samples_a: samples.a,
        samples_b: samples.b,
        batch_ns_a: samples.batch_ns_a,
        batch_ns_b: samples.batch_ns_b,
        counters: samples.counters,
        width_target_met,
        options: options.clone(),
        pinned_cpu: pin.as_ref().map(crate::pin::PinGuard::cpu),
        environment,
        elapsed,
        other_threads_cpu,
        gate: None,
        resolved: matches!(verdict, Verdict::AFaster | Verdict::BFaster),
        verdict,
        warnings,
    })
}

/// The statistics of one comparison's samples: pure, deterministic for a seed.
struct Analysis {
    estimate: Estimate,
    confidences: Option<stats::Confidences>,
    tie_rate: f64,
    drift_a: DriftReport,
    drift_b: DriftReport,
    drift_ratio: DriftReport,
    autocorrelation_a: f64,
    autocorrelation_b: f64,
    autocorrelation: f64,
    block_length: usize,
}

impl Analysis {
    fn of(a: &[f64], b: &[f64], o: &CompareOptions, seed: u64) -> Result<Analysis> {
        let ratios: Vec<f64> = b.iter().zip(a).map(|(b, a)| b / a).collect();
        let autocorrelation_a = lag1_autocorrelation(a)?;
        let autocorrelation_b = lag1_autocorrelation(b)?;
        let autocorrelation = autocorrelation_a.max(autocorrelation_b);
        let block_length = if autocorrelation > AUTOCORRELATION_THRESHOLD {
            auto_block_length(a.len())
        } else {
            1
        };
        let opts = EstimateOptions::default()
            .level(o.level)
            .resamples(o.resamples)
            .block_length(block_length)
            .seed(seed)
            .paired(true);
        let dist = BootstrapDistribution::new(a, b, &opts)?;
        let confidences = if o.thresholds.is_empty() {
            None
        } else {
            Some(dist.confidences(&o.thresholds)?)
        };
        Ok(Analysis {
            estimate: dist.estimate(),
            confidences,
            tie_rate: dist.tie_split().tie_rate,
            drift_a: detect_drift(a)?,
            drift_b: detect_drift(b)?,
            drift_ratio: detect_drift(&ratios)?,
            autocorrelation_a,
            autocorrelation_b,
            autocorrelation,
            block_length,
        })
    }
}

/// The verdict rule of [`compare`], as a pure function: `AFaster`/`BFaster` only when the
/// interval excludes zero, the point estimate lies on the same side, |δ| exceeds
/// `noise_floor`, and |δ| exceeds [`QUANTIZATION_GATE`] × `quantization`; otherwise
/// `CannotTell` naming the first bar missed in that order. All arguments are fractions.
///
/// ```
/// use rtcompare::{decide, Verdict, stats::{estimate_difference, EstimateOptions}};
/// let a = [90.0, 91.0, 89.0, 90.5, 90.0, 89.5, 90.2, 90.1, 89.9, 90.3, 90.0];
/// let b = [100.0, 101.0, 99.0, 100.5, 100.0, 99.5, 100.2, 100.1, 99.9, 100.3, 100.0];
/// let e = estimate_difference(&a, &b, &EstimateOptions::default().paired(true).seed(1))?;
/// assert_eq!(decide(&e, 0.01, 0.0001), Verdict::AFaster);
/// assert!(matches!(decide(&e, 0.5, 0.0001), Verdict::CannotTell(_)));
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn decide(estimate: &Estimate, noise_floor: f64, quantization: f64) -> Verdict {
    let Estimate {
        delta, low, high, ..
    } = *estimate;
    if !estimate.excludes(0.0) {
        return Verdict::CannotTell(Unresolved::IntervalContainsZero { low, high });
    }
    if (low > 0.0) != (delta > 0.0) || delta == 0.0 {
        return Verdict::CannotTell(Unresolved::Unstable { delta, low, high });
    }
    if delta.abs() <= noise_floor {
        return Verdict::CannotTell(Unresolved::WithinNoiseFloor { delta, noise_floor });
    }
    let gate = QUANTIZATION_GATE * quantization;
    if delta.abs() <= gate {
        return Verdict::CannotTell(Unresolved::BelowQuantization { delta, gate });
    }
    if delta > 0.0 {
        Verdict::AFaster
    } else {
        Verdict::BFaster
    }
}

/// Mean A/A confidence further than this from 0.5, or a false-signal rate above
/// [`MAX_FALSE_SIGNAL_RATE`], marks a validation as unreliable.
const MAX_CONFIDENCE_BIAS: f64 = 0.15;
/// False-signal rate above which a validation is unreliable (0.25: nominal 0.10, and three
/// standard errors above it at 40 runs).
const MAX_FALSE_SIGNAL_RATE: f64 = 0.25;

/// What the warnings are decided on.
struct WarningInputs<'a> {
    validation_a: Option<&'a HarnessValidation>,
    validation_b: Option<&'a HarnessValidation>,
    drift: [(Series, &'a DriftReport); 3],
    autocorrelation: f64,
    suspended: Duration,
    tie_rate: f64,
    delta: f64,
    quantization: f64,
    noise_floor: f64,
    thresholds: &'a [f64],
    memory_growth: u64,
    other_cpu_share: f64,
    load_average: Option<f64>,
    cores: Option<usize>,
    debug_build: bool,
}

/// The warnings of a comparison, in a fixed order. Pure.
fn warnings(i: &WarningInputs<'_>) -> Vec<Warning> {
    let mut w = Vec::new();
    if i.debug_build {
        w.push(Warning::DebugBuild);
    }
    match (i.validation_a, i.validation_b) {
        (Some(va), Some(vb)) => {
            if va.cut_short() {
                w.push(Warning::ValidationCutShort {
                    runs: va.runs,
                    requested: va.requested_runs,
                });
            }
            for (series, v) in [(Series::A, va), (Series::B, vb)] {
                if v.false_signal_rate > MAX_FALSE_SIGNAL_RATE
                    || (v.mean_confidence - 0.5).abs() > MAX_CONFIDENCE_BIAS
                {
                    w.push(Warning::UnreliableValidation {
                        series,
                        false_signal_rate: v.false_signal_rate,
                        mean_confidence: v.mean_confidence,
                    });
                }
            }
        }
        _ => w.push(Warning::ValidationSkipped),
    }
    for (series, d) in i.drift {
        if d.drifted(DRIFT_WARNING_LEVEL) {
            w.push(Warning::Drift {
                series,
                relative_shift: d.relative_shift,
                p_value: d.p_value,
            });
        }
    }
    if i.autocorrelation > HIGH_AUTOCORRELATION {
        w.push(Warning::HighAutocorrelation {
            autocorrelation: i.autocorrelation,
        });
    }
    if !i.suspended.is_zero() {
        w.push(Warning::Suspended {
            seconds: i.suspended.as_secs_f64(),
        });
    }
    if i.tie_rate > HIGH_TIE_RATE {
        w.push(Warning::HighTieRate {
            tie_rate: i.tie_rate,
        });
    }
    if i.delta.abs() <= 2.0 * QUANTIZATION_GATE * i.quantization {
        w.push(Warning::QuantizationNearDifference {
            delta: i.delta,
            quantization: i.quantization,
        });
    }
    let smallest = i
        .thresholds
        .iter()
        .map(|t| t.abs())
        .filter(|t| *t > 0.0 && t.is_finite())
        .fold(f64::INFINITY, f64::min);
    if smallest.is_finite() && i.noise_floor > smallest {
        w.push(Warning::NoisyFloor {
            noise_floor: i.noise_floor,
            threshold: smallest,
        });
    }
    if i.other_cpu_share > BUSY_PROCESS_SHARE {
        w.push(Warning::BusyProcess {
            other_cpu_share: i.other_cpu_share,
        });
    }
    if let (Some(load), Some(cores)) = (i.load_average, i.cores)
        && load >= cores as f64
    {
        w.push(Warning::BusyMachine {
            load_average: load,
            cores,
        });
    }
    if i.memory_growth > LARGE_WORKING_SET_BYTES {
        w.push(Warning::LargeWorkingSet {
            growth_bytes: i.memory_growth,
        });
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(delta: f64, low: f64, high: f64) -> Estimate {
        let a = [100.0; 11];
        let mut e =
            stats::estimate_difference(&a, &a, &EstimateOptions::default().seed(1)).unwrap();
        e.delta = delta;
        e.low = low;
        e.high = high;
        e
    }

    #[test]
    fn decide_names_the_first_bar_missed() {
        assert_eq!(decide(&est(0.1, 0.08, 0.12), 0.01, 0.001), Verdict::AFaster);
        assert_eq!(
            decide(&est(-0.1, -0.12, -0.08), 0.01, 0.001),
            Verdict::BFaster
        );
        assert!(matches!(
            decide(&est(0.01, -0.01, 0.03), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::IntervalContainsZero { .. })
        ));
        assert!(matches!(
            decide(&est(0.0, 0.0, 0.01), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::IntervalContainsZero { .. })
        ));
        assert!(matches!(
            decide(&est(-0.001, 0.001, 0.01), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::Unstable { .. })
        ));
        assert!(matches!(
            decide(&est(0.01, 0.008, 0.012), 0.01, 0.0),
            Verdict::CannotTell(Unresolved::WithinNoiseFloor { .. })
        ));
        assert!(matches!(
            decide(&est(0.01, 0.008, 0.012), 0.005, 0.01),
            Verdict::CannotTell(Unresolved::BelowQuantization { .. })
        ));
    }

    fn drift(p: f64, shift: f64) -> DriftReport {
        let mut d = detect_drift(&[1.0, 2.0, 1.0, 2.0]).unwrap();
        d.p_value = p;
        d.relative_shift = shift;
        d
    }

    fn validation(
        floor: f64,
        false_signals: f64,
        runs: usize,
        requested: usize,
    ) -> HarnessValidation {
        let r = crate::validate::ValidationRun {
            delta: floor,
            confidence: 0.5,
            tie_rate: 0.0,
            drift_p: [0.5; 2],
            drift_shift: [0.0; 2],
            autocorrelation: [0.0; 2],
        };
        let mut v = HarnessValidation::from_runs(&[r, r], 10, 0.95, requested).unwrap();
        v.runs = runs;
        v.false_signal_rate = false_signals;
        v
    }

    #[test]
    fn every_warning_has_a_constructed_trigger() {
        let quiet = drift(0.5, 0.0);
        let va = validation(0.002, 0.1, 40, 40);
        let base = WarningInputs {
            validation_a: Some(&va),
            validation_b: Some(&va),
            drift: [
                (Series::A, &quiet),
                (Series::B, &quiet),
                (Series::Ratio, &quiet),
            ],
            autocorrelation: 0.05,
            suspended: Duration::ZERO,
            tie_rate: 0.01,
            delta: 0.2,
            quantization: 0.001,
            noise_floor: 0.002,
            thresholds: &[0.05],
            memory_growth: 0,
            other_cpu_share: 0.0,
            load_average: Some(0.5),
            cores: Some(2),
            debug_build: false,
        };
        assert!(warnings(&base).is_empty());
        let codes = |i: &WarningInputs<'_>| -> Vec<&'static str> {
            warnings(i).iter().map(Warning::code).collect()
        };
        assert_eq!(
            codes(&WarningInputs {
                debug_build: true,
                ..base
            }),
            ["debug_build"]
        );
        assert_eq!(
            codes(&WarningInputs {
                validation_a: None,
                validation_b: None,
                ..base
            }),
            ["validation_skipped"]
        );
        let cut = validation(0.002, 0.1, 10, 40);
        assert_eq!(
            codes(&WarningInputs {
                validation_a: Some(&cut),
                validation_b: Some(&cut),
                ..base
            }),
            ["validation_cut_short"]
        );
        let biased = validation(0.002, 0.4, 40, 40);
        assert_eq!(
            codes(&WarningInputs {
                validation_b: Some(&biased),
                ..base
            }),
            ["unreliable_validation"]
        );
        let moved = drift(0.001, -0.07);
        assert_eq!(
            codes(&WarningInputs {
                drift: [
                    (Series::A, &moved),
                    (Series::B, &moved),
                    (Series::Ratio, &moved)
                ],
                ..base
            }),
            ["drift_a", "drift_b", "drift_ratio"]
        );
        assert_eq!(
            codes(&WarningInputs {
                autocorrelation: 0.5,
                ..base
            }),
            ["high_autocorrelation"]
        );
        assert_eq!(
            codes(&WarningInputs {
                suspended: Duration::from_secs(5),
                ..base
            }),
            ["suspended"]
        );
        assert_eq!(
            codes(&WarningInputs {
                tie_rate: 0.5,
                ..base
            }),
            ["high_tie_rate"]
        );
        assert_eq!(
            codes(&WarningInputs {
                delta: 0.002,
                noise_floor: 0.0,
                ..base
            }),
            ["quantization_near_difference"]
        );
        assert_eq!(
            codes(&WarningInputs {
                noise_floor: 0.08,
                ..base
            }),
            ["noisy_floor"]
        );
        assert_eq!(
            codes(&WarningInputs {
                memory_growth: 64 << 20,
                ..base
            }),
            ["large_working_set"]
        );
        assert_eq!(
            codes(&WarningInputs {
                other_cpu_share: 0.9,
                ..base
            }),
            ["busy_process"]
        );
        assert_eq!(
            codes(&WarningInputs {
                load_average: Some(2.4),
                ..base
            }),
            ["busy_machine"]
        );
        // Unknown load or cores: no claim either way.
        assert!(
            codes(&WarningInputs {
                load_average: None,
                ..base
            })
            .is_empty()
        );
    }

    #[test]
    fn options_resolve_and_reject() {
        let o = CompareOptions::default()
            .validation_runs(0)
            .level(0.0)
            .resamples(0)
            .resolved()
            .unwrap();
        assert_eq!(o.validation_runs, 40);
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
