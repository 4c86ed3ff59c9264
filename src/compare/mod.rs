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
//! 5. **Resampling scheme**: if the lag-1 autocorrelation of the pairs' ratios B/A exceeds
//!    `AUTOCORRELATION_THRESHOLD` (0.2), whole pairs are resampled in blocks of
//!    [`auto_block_length`](stats::auto_block_length) (5 for 101 pairs); otherwise single pairs
//!    ([`ratio_block_length`](stats::ratio_block_length)).
//! 6. **The paired estimate** δ = 1 − median(Aᵢ/Bᵢ) with its percentile interval, the
//!    confidences at the requested thresholds (from the same replicates), the quantization step
//!    and the **verdict**: resolved only when the interval excludes zero, |δ| exceeds the noise
//!    floor and |δ| exceeds `QUANTIZATION_GATE` (1.5) clock steps of the faster batch.
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

// The gate's record lives beside the report that carries it; `gate` re-exports its names.
pub(crate) mod gate_record;
pub(crate) mod instrumented;
pub(crate) mod options;
pub mod report;
pub(crate) mod validate;

pub(crate) mod warnings;

use std::time::{Duration, Instant};

use crate::alloc::{self, LiveHeap};
use crate::compare::report::{
    AUTOCORRELATION_THRESHOLD, Context, Diagnostics, REPORT_SCHEMA_VERSION, Report, Resources,
    RunInfo, Series, Timing, Warning,
};
use crate::compare::validate::{
    DEFAULT_VALIDATION_LEVEL, HarnessValidation, ValidationOptions, run_pair,
};
use crate::compare::warnings::{WarningInputs, warnings};
use crate::env::Environment;
use crate::error::Result;
use crate::measure::calibrate::Calibration;
use crate::measure::candidate::Candidate;
use crate::measure::clock::{Clock, CpuWatch, Instrument, MonotonicClock, SuspendWatch};
use crate::measure::collect::{PairedRounds, PairedSamples, Session, Stage};
use crate::measure::pin::PinGuard;
use crate::rng::{derive_seed, resolve_seed};
use crate::stats::{
    self, BootstrapDistribution, DriftReport, Estimate, EstimateOptions, Verdict, WidthDecision,
    WidthTarget, decide, detect_drift, lag1_autocorrelation,
};

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
/// [`SimulatedClock`](crate::measure::clock::SimulatedClock) in tests (reached as
/// `rtcompare::support::compare::compare_with_clock`).
pub(crate) fn compare_with_clock<C: Clock>(
    mut a: Candidate<'_>,
    mut b: Candidate<'_>,
    options: &CompareOptions,
    clock: &C,
) -> Result<Report> {
    compare_borrowed(&mut a, &mut b, options, clock)
}

/// [`compare_with_clock`] on borrowed candidates, so that a caller can measure the same pair
/// again (a gate confirming a failure).
pub(crate) fn compare_borrowed<C: Clock>(
    a: &mut Candidate<'_>,
    b: &mut Candidate<'_>,
    options: &CompareOptions,
    clock: &C,
) -> Result<Report> {
    // The protocol in its stages, each a method of `Run` below.
    let run = Run::prepare(options, clock, a, b)?;
    let validations = run.validate(a, b)?;
    let measured = run.measure(a, b, validations.is_some())?;
    let judgement = run.judge(&measured, validations.as_ref())?;
    let names = (a.name().to_string(), b.name().to_string());
    Ok(run.assemble(options, names, validations, measured, judgement))
}

/// A comparison under way: the resolved options, the measuring session and the watches that
/// span the whole comparison, from [`prepare`](Run::prepare) to [`assemble`](Run::assemble).
struct Run<'c, C: Clock> {
    /// The options with their zeros resolved to defaults (the report keeps the caller's).
    o: CompareOptions,
    session: Session<'c, C>,
    /// The warning of an opted-in emulator or instrumentation framework, reported first.
    instrumented: Option<Warning>,
    /// Holds the pin until the comparison ends; dropping it restores the affinity.
    pin: Option<PinGuard>,
    started: Instant,
    /// The live heap when the comparison started, with a counting allocator installed.
    heap_start: Option<u64>,
    suspend: SuspendWatch,
    cpu: CpuWatch,
    environment: Environment,
    instrument: Instrument,
    /// Operations per batch, the same for both candidates and every stage.
    n: u64,
    calibration: Option<(Calibration, Calibration)>,
    /// The bootstrap's seed: the options' seed, or one drawn for 0.
    seed: u64,
}

/// What the measurement stage hands on: the samples of every round and their analysis.
struct Measured {
    samples: PairedSamples,
    analysis: PairAnalysis,
    /// `None` without a width target; else whether it was met within the pair budget.
    width_target_met: Option<bool>,
}

/// What the samples say against the A/A floor and the clock.
struct Judgement {
    /// The larger of the two A/A floors (fraction); 0 without validation.
    noise_floor: f64,
    /// Median ns per operation of A.
    ns_per_op_a: f64,
    /// Median ns per operation of B.
    ns_per_op_b: f64,
    /// One clock step as a share of the faster candidate's batch (fraction).
    quantization: f64,
    verdict: Verdict,
}

/// What the watches started in [`Run::prepare`] saw, read once measuring is over.
struct Watched {
    elapsed: Duration,
    other_threads_cpu: Option<Duration>,
    suspended: Duration,
    live_heap: Option<LiveHeap>,
}

impl<'c, C: Clock> Run<'c, C> {
    /// Resolves the options, refuses timings an emulator would make meaningless (unless asked
    /// to measure anyway), pins the thread, opens the session, starts the watches that span
    /// the whole comparison, sizes the batches and settles the seed.
    fn prepare(
        options: &CompareOptions,
        clock: &'c C,
        a: &mut Candidate<'_>,
        b: &mut Candidate<'_>,
    ) -> Result<Self> {
        let started = Instant::now();
        let o = options.resolved()?;
        // Before anything runs: refuse timings an emulator would make meaningless, unless asked.
        let instrumented = instrumented::screen(
            crate::env::detect_instrumentation().as_ref(),
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
        let environment = Environment::capture();
        let instrument = clock.instrument();
        let (n, calibration) = session.batch_size(a, b, &o.collect)?;
        let seed = resolve_seed(o.seed);
        Ok(Run {
            o,
            session,
            instrumented,
            pin,
            started,
            heap_start,
            suspend,
            cpu,
            environment,
            instrument,
            n,
            calibration,
            seed,
        })
    }

    /// A/A validation of both candidates after one full warm-up, within half of
    /// `max_duration`; `None` when skipped.
    fn validate(
        &self,
        a: &mut Candidate<'_>,
        b: &mut Candidate<'_>,
    ) -> Result<Option<(HarnessValidation, HarnessValidation)>> {
        let (o, co) = (&self.o, &self.o.collect);
        if o.skip_validation {
            return Ok(None);
        }
        if !co.skip_warmup {
            self.session
                .warm_up(a, b, self.n, co.warmup, co.warmup_duration)?;
        }
        // Validation accepts levels in (0.5, 1) only (its false-signal rate is 2·(1 − level));
        // a comparison at a lower level still validates, at validation's default.
        let level = if o.level > 0.5 {
            o.level
        } else {
            DEFAULT_VALIDATION_LEVEL
        };
        let vopts = ValidationOptions::default()
            .collect(co.clone().inner_loops(self.n))
            .runs(o.validation_runs)
            .resamples(o.resamples)
            .level(level)
            .seed(self.seed);
        run_pair(
            &self.session,
            a,
            b,
            self.n,
            &vopts,
            self.seed,
            o.max_duration / 2,
        )
        .map(Some)
    }

    /// Warms up, measures `repeats` pairs, analyses them and, with a width target, measures
    /// further rounds until the interval is narrow enough or the pair budget is spent.
    fn measure(
        &self,
        a: &mut Candidate<'_>,
        b: &mut Candidate<'_>,
        validated: bool,
    ) -> Result<Measured> {
        let co = &self.o.collect;
        if !co.skip_warmup {
            // After a validation both candidates have just run alternately for hundreds of
            // batches: warm up by count alone. Otherwise, the full duration.
            let duration = if validated {
                Duration::ZERO
            } else {
                co.warmup_duration
            };
            self.session.warm_up(a, b, self.n, co.warmup, duration)?;
        }
        let mut rounds = self.session.measure(a, b, self.n, co)?;
        self.session.check(Stage::Resampling)?;
        self.session.report(Stage::Resampling, 0, 1);
        let mut analysis = self.analyse(rounds.samples())?;
        let width_target_met = match &self.o.width_target {
            None => None,
            Some(rule) => Some(self.extend_to_width(a, b, rule, &mut rounds, &mut analysis)?),
        };
        self.session.report(Stage::Resampling, 1, 1);
        Ok(Measured {
            samples: rounds.into_samples(),
            analysis,
            width_target_met,
        })
    }

    /// Appends rounds of pairs, each sized by `rule` from the interval so far, until the rule
    /// says enough (`true`) or its pair budget is spent (`false`). `analysis` always describes
    /// every round in `rounds`.
    fn extend_to_width(
        &self,
        a: &mut Candidate<'_>,
        b: &mut Candidate<'_>,
        rule: &WidthTarget,
        rounds: &mut PairedRounds,
        analysis: &mut PairAnalysis,
    ) -> Result<bool> {
        let co = &self.o.collect;
        let mut round = 0u64;
        loop {
            let pairs = rounds.samples().a.len();
            match rule.decide(analysis.estimate.half_width(), pairs)? {
                WidthDecision::Enough => return Ok(true),
                WidthDecision::BudgetExhausted => return Ok(false),
                WidthDecision::CollectMore(k) => {
                    // An even count keeps ABBA balanced: every round starts with A first.
                    round += 1;
                    let more = co
                        .clone()
                        .repeats(k + k % 2)
                        .seed(derive_seed(co.seed, round));
                    rounds.append(self.session.measure(a, b, self.n, &more)?);
                    *analysis = self.analyse(rounds.samples())?;
                }
            }
        }
    }

    /// The statistics of the paired samples with this comparison's options and seed.
    fn analyse(&self, samples: &PairedSamples) -> Result<PairAnalysis> {
        PairAnalysis::of(&samples.a, &samples.b, &self.o, self.seed)
    }

    /// The noise floor (the larger A/A floor), the medians, the clock step as a share of the
    /// faster batch, and the verdict on them.
    fn judge(
        &self,
        measured: &Measured,
        validations: Option<&(HarnessValidation, HarnessValidation)>,
    ) -> Result<Judgement> {
        let noise_floor = validations.map_or(0.0, |(va, vb)| va.noise_floor.max(vb.noise_floor));
        let ns_per_op_a = stats::median(&measured.samples.a)?;
        let ns_per_op_b = stats::median(&measured.samples.b)?;
        let faster_batch_ns = self.n as f64 * ns_per_op_a.min(ns_per_op_b);
        let quantization = if faster_batch_ns > 0.0 {
            self.instrument.precision_ns as f64 / faster_batch_ns
        } else {
            f64::MAX
        };
        let verdict = decide(
            &measured.analysis.estimate,
            self.o.margin,
            noise_floor,
            quantization,
        );
        Ok(Judgement {
            noise_floor,
            ns_per_op_a,
            ns_per_op_b,
            quantization,
            verdict,
        })
    }

    /// Reads the watches: wall time, the other threads' CPU time, time suspended, the end of
    /// the environment stamp and the live heap.
    fn stop_watches(&mut self) -> Watched {
        let elapsed = self.started.elapsed();
        let other_threads_cpu = self.cpu.other_threads();
        let suspended = self
            .suspend
            .suspended_beyond_threshold()
            .unwrap_or_default();
        self.environment.finish();
        let live_heap = self
            .heap_start
            .zip(alloc::snapshot())
            .map(|(start_bytes, now)| LiveHeap {
                start_bytes,
                peak_bytes: now.peak_live_bytes,
                end_bytes: now.live_bytes,
            });
        Watched {
            elapsed,
            other_threads_cpu,
            suspended,
            live_heap,
        }
    }

    /// Stops the watches, derives the warnings and writes the report. `options` are the
    /// caller's, recorded as given.
    fn assemble(
        mut self,
        options: &CompareOptions,
        (name_a, name_b): (String, String),
        validations: Option<(HarnessValidation, HarnessValidation)>,
        measured: Measured,
        judgement: Judgement,
    ) -> Report {
        let watched = self.stop_watches();
        let (validation_a, validation_b) = validations.unzip();
        let Measured {
            samples,
            analysis,
            width_target_met,
        } = measured;
        let warnings = self.warnings(
            validation_a.as_ref(),
            validation_b.as_ref(),
            &analysis,
            &judgement,
            &watched,
        );
        let Judgement {
            noise_floor,
            ns_per_op_a,
            ns_per_op_b,
            quantization,
            verdict,
        } = judgement;
        Report {
            schema_version: REPORT_SCHEMA_VERSION,
            name_a,
            name_b,
            ns_per_op_a,
            ns_per_op_b,
            ratio: analysis.estimate.ratio(),
            estimate: analysis.estimate,
            confidences: analysis.confidences,
            validated: validation_a.is_some(),
            validation_a,
            validation_b,
            noise_floor,
            margin: self.o.margin,
            diagnostics: analysis.diagnostics,
            timing: Timing {
                inner_loops: self.n,
                calibration_a: self.calibration.map(|c| c.0),
                calibration_b: self.calibration.map(|c| c.1),
                instrument: self.instrument,
                quantization,
                suspended: watched.suspended,
            },
            seed: self.seed,
            samples_a: samples.a,
            samples_b: samples.b,
            batch_ns_a: samples.batch_ns_a,
            batch_ns_b: samples.batch_ns_b,
            resources: Resources {
                counters: samples.counters,
                allocations: samples.allocations,
                live_heap: watched.live_heap,
            },
            cache: self.o.collect.cache,
            run: RunInfo {
                cache_info: self.session.cache_info(),
                width_target_met,
                options: options.clone(),
                pinned_cpu: self.pin.as_ref().map(PinGuard::cpu),
                environment: self.environment,
                elapsed: watched.elapsed,
                other_threads_cpu: watched.other_threads_cpu,
            },
            context: Context::default(),
            resolved: matches!(verdict, Verdict::AFaster | Verdict::BFaster),
            verdict,
            warnings,
        }
    }

    /// Everything that undermines the result, the instrumentation warning (the loudest)
    /// first.
    fn warnings(
        &self,
        validation_a: Option<&HarnessValidation>,
        validation_b: Option<&HarnessValidation>,
        analysis: &PairAnalysis,
        judgement: &Judgement,
        watched: &Watched,
    ) -> Vec<Warning> {
        let environment = &self.environment;
        let d = &analysis.diagnostics;
        let found = warnings(&WarningInputs {
            validation_a,
            validation_b,
            drift: [
                (Series::A, &d.drift_a),
                (Series::B, &d.drift_b),
                (Series::Ratio, &d.drift_ratio),
            ],
            autocorrelation: d.autocorrelation_ratio,
            suspended: watched.suspended,
            tie_rate: d.tie_rate,
            estimate: &analysis.estimate,
            quantization: judgement.quantization,
            max_quantization_error: self.o.collect.max_quantization_error,
            noise_floor: judgement.noise_floor,
            margin: self.o.margin,
            thresholds: &self.o.thresholds,
            memory_growth: environment.max_rss_growth(),
            // A pool child's heap-perturbation filler is the harness's, not the candidates'.
            live_heap_peak: watched
                .live_heap
                .map(|h| h.peak_bytes.saturating_sub(alloc::harness_bytes())),
            other_cpu_share: watched.other_threads_cpu.map_or(0.0, |d| {
                d.as_secs_f64() / watched.elapsed.as_secs_f64().max(1e-9)
            }),
            load_average: environment.load_average_start.map(|l| l[0]),
            cores: environment.logical_cores,
            debug_build: environment.debug_build,
        });
        self.instrumented.iter().cloned().chain(found).collect()
    }
}

/// The statistics of one comparison's paired samples: the paired estimate and its
/// confidences, and the diagnostics of the series (drift, autocorrelation, ties) with the
/// block length they chose. Pure, deterministic for a seed.
pub(crate) struct PairAnalysis {
    pub(crate) estimate: Estimate,
    pub(crate) confidences: Option<stats::Confidences>,
    pub(crate) diagnostics: Diagnostics,
}

impl PairAnalysis {
    pub(crate) fn of(a: &[f64], b: &[f64], o: &CompareOptions, seed: u64) -> Result<PairAnalysis> {
        let ratios: Vec<f64> = b.iter().zip(a).map(|(b, a)| b / a).collect();
        // A batch timed at 0 ns makes a ratio infinite: the ratio's diagnostics are then
        // recorded as not run instead of failing the comparison.
        let ratios_finite = ratios.iter().all(|r| r.is_finite());
        let autocorrelation_a = lag1_autocorrelation(a)?;
        let autocorrelation_b = lag1_autocorrelation(b)?;
        let autocorrelation = autocorrelation_a.max(autocorrelation_b);
        let block_length = stats::ratio_block_length(&ratios, AUTOCORRELATION_THRESHOLD);
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
        Ok(PairAnalysis {
            estimate: dist.estimate(),
            confidences,
            diagnostics: Diagnostics {
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
                tie_rate: dist.tie_split().tie_rate,
            },
        })
    }
}

/// A report on a simulated clock, A at `ns_a` and B at `ns_b` nanoseconds per operation, at
/// a small fixed protocol: for the tests of what reads reports (the gate's rule, the pool's
/// JSON).
#[cfg(test)]
pub(crate) fn simulated_report(ns_a: u64, ns_b: u64) -> Report {
    use crate::measure::clock::SimulatedClock;
    let clock = SimulatedClock::new(1);
    let (ca, cb) = (clock.clone(), clock.clone());
    let a = Candidate::new("a", move |n| ca.advance(ns_a * n));
    let b = Candidate::new("b", move |n| cb.advance(ns_b * n));
    let opts = CompareOptions::default()
        .seed(3)
        .resamples(500)
        .validation_runs(10)
        .warmup_duration(Duration::from_millis(5));
    compare_with_clock(a, b, &opts, &clock).expect("a simulated comparison succeeds")
}
