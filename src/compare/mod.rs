//! The whole protocol in one call: is A really faster than B, by how much, and how sure?
//!
//! [`compare`] runs these steps and keeps the evidence of each in the [`Report`]:
//!
//! 1. **Calibrate** both candidates once and use the larger batch size for everything that
//!    follows, so the noise floor describes the setup actually measured. A cold run
//!    ([`Cache::Cold`](crate::Cache::Cold)) instead runs one operation per batch and evicts the
//!    caches before every batch of every step below, outside the timed region.
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
//!    floor and |δ| exceeds [`QUANTIZATION_GATE`](report::QUANTIZATION_GATE) clock steps of the faster batch.
//!
//! Before step 1, a process found running under Valgrind or QEMU user mode
//! ([`Environment::instrumented_by`]) is refused with
//! [`Error::MeaninglessTimings`](crate::Error::MeaninglessTimings), unless
//! [`CompareOptions::allow_instrumented`] asks to measure anyway: such timings measure the
//! translation of every instruction, not the code.
//!
//! With a [`Counting`](crate::alloc::Counting) allocator installed, the measured batches are
//! also counted (allocations and bytes per operation, outside the timed region) and the live
//! heap is followed from the start (its peak reset) to the end; both go into the report and the
//! live heap decides the large-working-set warning.

pub mod gate_record;
pub(crate) mod instrumented;
pub mod options;
pub mod report;
pub mod validate;

mod warnings;

use std::time::{Duration, Instant};

use crate::Result;
use crate::compare::report::{
    AUTOCORRELATION_THRESHOLD, REPORT_SCHEMA_VERSION, Report, Series, Verdict,
};
use crate::compare::validate::{DEFAULT_VALIDATION_LEVEL, ValidationOptions, run_pair};
use crate::compare::warnings::{WarningInputs, warnings};
use crate::measure::alloc::{self, LiveHeap};
use crate::measure::candidate::Candidate;
use crate::measure::clock::{Clock, CpuWatch, MonotonicClock, SuspendWatch};
use crate::measure::collect::{Session, Stage};
use crate::measure::env::Environment;
use crate::rng::{derive_seed, resolve_seed};
use crate::stats::{
    self, BootstrapDistribution, DriftReport, Estimate, EstimateOptions, WidthDecision,
    auto_block_length, detect_drift, lag1_autocorrelation,
};

pub use crate::stats::decide;
pub use options::CompareOptions;

/// Compares two candidates with the whole protocol on the process's monotonic clock and
/// returns the answer with its evidence.
///
/// Errors: invalid options ([`Error::OutOfRange`](crate::Error::OutOfRange), [`Error::InvalidOption`](crate::Error::InvalidOption),
/// [`Error::TooFewSamples`](crate::Error::TooFewSamples)); calibration failures ([`Error::BatchIgnoresN`](crate::Error::BatchIgnoresN),
/// [`Error::CalibrationCapReached`](crate::Error::CalibrationCapReached)); a panicking candidate ([`Error::CandidatePanicked`](crate::Error::CandidatePanicked));
/// cancellation or a passed deadline ([`Error::Cancelled`](crate::Error::Cancelled)); samples on which the statistics
/// are undefined ([`Error::Undefined`](crate::Error::Undefined), for example a batch measured as 0 ns);
/// a process running under Valgrind or QEMU user mode, refused before anything is measured
/// unless [`CompareOptions::allow_instrumented`] is set
/// ([`Error::MeaninglessTimings`](crate::Error::MeaninglessTimings)).
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
/// [`SimulatedClock`](crate::measure::clock::SimulatedClock) in tests.
pub fn compare_with_clock<C: Clock>(
    mut a: Candidate<'_>,
    mut b: Candidate<'_>,
    options: &CompareOptions,
    clock: &C,
) -> Result<Report> {
    let started = Instant::now();
    let o = options.resolved()?;
    // Before anything runs: refuse timings an emulator would make meaningless, unless asked.
    let instrumented = instrumented::screen(
        crate::measure::env::detect_instrumentation().as_ref(),
        o.allow_instrumented,
        clock.is_simulated(),
        "CompareOptions::allow_instrumented(true)",
    )?;
    let pin = o
        .pin_cpu
        .map(crate::measure::pin::pin_current_thread)
        .transpose()?;
    // A cold session's eviction buffer is allocated and faulted in here, before the live heap
    // and the peak resident memory are first read, so that it does not count as the
    // candidates' growth.
    let session = Session::new(clock, &o.collect);
    // The live heap from here on, when a counting allocator is installed: the peak restarts
    // at the live heap now.
    let heap_start = alloc::reset_peak();
    let suspend = SuspendWatch::start();
    let cpu = CpuWatch::start();
    let mut environment = Environment::capture();
    let instrument = clock.instrument();

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
    let mut rounds = session.measure(&mut a, &mut b, n, co)?;
    session.check(Stage::Resampling)?;
    session.report(Stage::Resampling, 0, 1);

    let mut analysis = Analysis::of(&rounds.samples().a, &rounds.samples().b, &o, seed)?;
    let mut width_target_met = None;
    if let Some(rule) = &o.width_target {
        let mut round = 0u64;
        loop {
            match rule.decide(analysis.estimate.half_width(), rounds.samples().a.len())? {
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
                    rounds.append(session.measure(&mut a, &mut b, n, &more)?);
                    analysis = Analysis::of(&rounds.samples().a, &rounds.samples().b, &o, seed)?;
                }
            }
        }
    }
    session.report(Stage::Resampling, 1, 1);
    let samples = rounds.into_samples();

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
    let live_heap = heap_start
        .zip(alloc::snapshot())
        .map(|(start_bytes, now)| LiveHeap {
            start_bytes,
            peak_bytes: now.peak_live_bytes,
            end_bytes: now.live_bytes,
        });
    let warnings = warnings(&WarningInputs {
        validation_a: validation_a.as_ref(),
        validation_b: validation_b.as_ref(),
        drift: [
            (Series::A, &analysis.drift_a),
            (Series::B, &analysis.drift_b),
            (Series::Ratio, &analysis.drift_ratio),
        ],
        autocorrelation: analysis.autocorrelation_ratio,
        suspended,
        tie_rate: analysis.tie_rate,
        estimate: &analysis.estimate,
        quantization,
        max_quantization_error: co.max_quantization_error,
        noise_floor,
        thresholds: &o.thresholds,
        memory_growth: environment.max_rss_growth(),
        // A pool child's heap-perturbation filler is the harness's, not the candidates'.
        live_heap_peak: live_heap.map(|h| h.peak_bytes.saturating_sub(alloc::harness_bytes())),
        other_cpu_share: other_threads_cpu
            .map_or(0.0, |d| d.as_secs_f64() / elapsed.as_secs_f64().max(1e-9)),
        load_average: environment.load_average_start.map(|l| l[0]),
        cores: environment.logical_cores,
        debug_build: environment.debug_build,
    });

    // The loudest warning first.
    let warnings = instrumented.into_iter().chain(warnings).collect();

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
        autocorrelation_ratio: analysis.autocorrelation_ratio,
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
        allocations: samples.allocations,
        live_heap,
        cache: co.cache,
        cache_info: session.cache_info(),
        width_target_met,
        options: options.clone(),
        pinned_cpu: pin.as_ref().map(crate::measure::pin::PinGuard::cpu),
        environment,
        elapsed,
        other_threads_cpu,
        gate: None,
        process: None,
        workload: None,
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
    autocorrelation_ratio: f64,
    block_length: usize,
}

impl Analysis {
    fn of(a: &[f64], b: &[f64], o: &CompareOptions, seed: u64) -> Result<Analysis> {
        let ratios: Vec<f64> = b.iter().zip(a).map(|(b, a)| b / a).collect();
        // A batch timed at 0 ns makes a ratio infinite: the ratio's diagnostics are then
        // recorded as not run instead of failing the comparison.
        let ratios_finite = ratios.iter().all(|r| r.is_finite());
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
            drift_ratio: if ratios_finite {
                detect_drift(&ratios)?
            } else {
                DriftReport::not_run()
            },
            autocorrelation_a,
            autocorrelation_b,
            autocorrelation,
            autocorrelation_ratio: if ratios_finite {
                lag1_autocorrelation(&ratios)?
            } else {
                0.0
            },
            block_length,
        })
    }
}
