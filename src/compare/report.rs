//! The answer of [`compare`](crate::compare()) with everything it rests on.
//!
//! A [`Report`] holds the verdict, the estimate and its interval, the A/A floors, the drift and
//! autocorrelation diagnostics, the calibration and instrument figures, the environment, the
//! options, the seed and the raw paired samples, so that any figure in it can be recomputed
//! from its own samples and judged later. It serialises to JSON (with a
//! [`schema_version`](Report::schema_version)) and reads back equal; its `Display` is a plain
//! summary.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::compare::validate::HarnessValidation;
use crate::display::Pct;
use crate::env::Instrumentation;
use crate::measure::cache::Cache;
use crate::stats::{Confidences, Estimate, Ratio};

mod sections;
mod summary;

pub use sections::{Context, Diagnostics, Resources, RunInfo, Timing, WorkerPair};

// The verdict is the statistics' (pooled results carry one too); the report shows it, and its
// one public path stays `stats::Verdict` (and `rtcompare::Verdict`).
use crate::stats::Verdict;
// Only the doc links name the gate.
#[cfg(doc)]
use crate::stats::QUANTIZATION_GATE;

/// Version of the report's JSON layout. Raised whenever a field changes meaning or goes away.
pub(crate) const REPORT_SCHEMA_VERSION: u32 = 1;

/// Whether a fraction is exactly 0 (serde's `skip_serializing_if` for fields a newer report
/// added with 0 as the older reports' value).
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// Lag-1 autocorrelation above which samples are resampled in blocks (0.2: below it blocks only
/// add variance, from it on the plain bootstrap's interval is measurably too narrow;
/// docs/background.md, section "Why blocks above a lag-1 autocorrelation of 0.2, and why n^(1/3)").
pub(crate) const AUTOCORRELATION_THRESHOLD: f64 = 0.2;

/// Lag-1 autocorrelation of the pairs' ratios B/A beyond which even blocks do not repair the
/// interval (0.4: from there on blocks leave the false-signal rate clearly above nominal;
/// docs/background.md, section "Why blocks above a lag-1 autocorrelation of 0.2, and why n^(1/3)").
/// The warning looks at the ratio series, the one the verdict is computed from: noise
/// common to both candidates (the machine's) cancels in it and leaves the interval valid.
pub(crate) const HIGH_AUTOCORRELATION: f64 = 0.4;

/// Live heap (when a [`Counting`](crate::alloc::Counting) allocator counts it) or else growth
/// of the process's peak resident memory during a comparison, beyond which the working set
/// likely exceeds the last-level cache (16 MiB, the reference's `LargeHeapThreshold`), so one
/// process's layout may decide the result.
pub(crate) const LARGE_WORKING_SET_BYTES: u64 = 16 << 20;

/// Significance level of the drift warnings (0.01), on the Spearman test of each series in
/// measurement order: strict enough that a healthy comparison's ratio series B/A rarely drifts
/// at it, while a 5 % step or trend in one candidate does (docs/background.md, section "Warnings
/// that speak only when they mean something").
pub(crate) const DRIFT_WARNING_LEVEL: f64 = 0.01;

/// Second-half over first-half shift of candidate A's or B's own series beyond which a
/// significant drift of that series is reported (0.10 = 10 %). A and B alone mostly see the
/// machine, whose small shifts cancel in the paired ratio; only a change this large makes the
/// reported ns/op figures a blend of two machines (docs/background.md, section "Warnings that speak
/// only when they mean something").
pub(crate) const MACHINE_DRIFT_SHIFT: f64 = 0.10;

/// How many standard errors above its nominal value an A/A validation's false-signal rate, or
/// its mean confidence away from 0.5, may lie before the validation is called unreliable (3).
/// The standard errors scale with the run count: √(p(1 − p)/runs) for the rate, with
/// p = 2·(1 − level), and 0.29/√runs for the mean confidence (a uniform confidence has
/// standard deviation 1/√12). At 40 runs and level 0.95 the limits are 0.24 and 0.14.
pub(crate) const VALIDATION_LIMIT_SE: f64 = 3.0;

/// How many times wider than its yardstick (the A/A noise floor, or the quantization gate when
/// that is larger) the interval's half-width may be before a warning says the noise changed
/// between the validation and the measurement (4). A healthy comparison's ratio is about 1.2:
/// a 95 % half-width is 1.96 standard errors, the floor (the 0.9 quantile of |δ|) about 1.64.
pub(crate) const NOISE_CHANGE_FACTOR: f64 = 4.0;

/// CPU time of the process's other threads, as a share of the comparison's wall time, above
/// which a warning says they competed with the measurement (0.25: a quarter of a core).
pub(crate) const BUSY_PROCESS_SHARE: f64 = 0.25;

/// Share of bootstrap replicates tied at exactly zero above which a warning says the clock is
/// coarse next to the difference (0.2).
pub(crate) const HIGH_TIE_RATE: f64 = 0.2;

/// The series a drift warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Series {
    /// Candidate A's samples.
    A,
    /// Candidate B's samples.
    B,
    /// The ratio B/A of each pair.
    Ratio,
}

/// Which figure a [`Warning::LargeWorkingSet`] judged the working set by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum WorkingSetMeasure {
    /// The peak live heap during the comparison, counted by a
    /// [`Counting`](crate::alloc::Counting) allocator: everything the process held, fixtures
    /// built before the comparison included.
    LiveHeap,
    /// The growth of the process's peak resident set during the comparison (no counting
    /// allocator installed): it misses memory that was already resident when the comparison
    /// started.
    #[default]
    PeakRssGrowth,
}

/// Something that undermines a report, with the numbers behind it. Read warnings even when the
/// verdict is resolved.
///
/// [`Warning::code`] is a stable machine-readable identifier; `Display` is a plain sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Warning {
    /// A/A validation was skipped: the result has no noise floor to be read against.
    ValidationSkipped,
    /// A time limit stopped the validation early; its figures rest on fewer runs.
    ValidationCutShort {
        /// Runs performed.
        runs: usize,
        /// Runs requested.
        requested: usize,
    },
    /// A series drifted during the measurement. On the ratio B/A (`drift_ratio`) this
    /// threatens the verdict; on A or B alone (`drift_a`, `drift_b`) it is raised only for a
    /// shift beyond 10 % (`MACHINE_DRIFT_SHIFT`), which makes the ns/op figures a blend of two
    /// machine states.
    Drift {
        /// Which series.
        series: Series,
        /// Second-half median over first-half median, minus one (fraction; negative: later
        /// samples were lower).
        relative_shift: f64,
        /// The drift test's p-value.
        p_value: f64,
    },
    /// Neighbouring pairs are so correlated that even block resampling understates the
    /// uncertainty.
    HighAutocorrelation {
        /// Lag-1 autocorrelation of the pairs' ratios B/A (reports written by earlier versions
        /// of the crate held the larger of A's and B's here).
        autocorrelation: f64,
    },
    /// The machine was suspended during the comparison.
    Suspended {
        /// Time suspended, in seconds.
        seconds: f64,
    },
    /// Many bootstrap replicates (`HIGH_TIE_RATE` (0.2)) tie at exactly zero, pinning an end of
    /// the interval to zero, while the batches are coarser than calibration would make them
    /// (a fixed or cold batch size): the clock is coarse next to the difference and longer
    /// batches could move that end.
    HighTieRate {
        /// Share of tied replicates.
        tie_rate: f64,
    },
    /// The verdict rests on one clock step: it resolved, and moving the estimate and its
    /// interval by one clock step toward zero (as a share of the faster batch) would refuse it.
    /// Only verdicts are checked: a "cannot tell" claims nothing a step could have invented.
    /// Not raised when the verdict already is "below quantization" (against
    /// `QUANTIZATION_GATE` (1.5) clock steps), whose reason says so.
    QuantizationNearDifference {
        /// The point estimate (fraction).
        delta: f64,
        /// One clock step as a share of the faster candidate's batch (fraction).
        quantization: f64,
    },
    /// The noise floor is larger than the smallest difference asked about, so that question
    /// cannot be answered on this setup.
    NoisyFloor {
        /// The larger A/A floor (fraction).
        noise_floor: f64,
        /// The smallest non-zero threshold asked about (fraction).
        threshold: f64,
    },
    /// A candidate's own A/A validation misbehaved (too many false signals or a biased
    /// confidence): the harness favours one position.
    UnreliableValidation {
        /// Which candidate.
        series: Series,
        /// Its false-signal rate (nominal 2·(1 − level)).
        false_signal_rate: f64,
        /// Its mean A/A confidence (nominal 0.5).
        mean_confidence: f64,
        /// The nominal false-signal rate, 2·(1 − level) of the validation (0 in reports
        /// written before the field existed).
        #[serde(default)]
        nominal_rate: f64,
        /// A/A runs the rates rest on (0 in reports written before the field existed).
        #[serde(default)]
        runs: usize,
    },
    /// The interval is much wider than identical code's A/A differences measured just before:
    /// the machine's noise changed between the validation and the measurement (a burst of
    /// interference), so the floor describes a quieter machine than the one measured.
    NoiseChanged {
        /// Half the interval's width (fraction).
        half_width: f64,
        /// What it was compared with: the larger of the noise floor and the quantization gate
        /// (fraction).
        yardstick: f64,
    },
    /// The working set passed `LARGE_WORKING_SET_BYTES` (16 << 20): it likely exceeds the caches and
    /// one process's memory layout may decide the result. Judged on the peak live heap when a
    /// [`Counting`](crate::alloc::Counting) allocator is installed, else on the growth of the
    /// peak resident set during the comparison (which misses fixtures built before it).
    LargeWorkingSet {
        /// The figure that passed the threshold, in bytes: the peak live heap or the growth of
        /// the peak resident set, as `measure` says. (Reports written before `measure` existed
        /// called it `growth_bytes`; they still read.)
        #[serde(alias = "growth_bytes")]
        bytes: u64,
        /// Which figure `bytes` is (missing in older reports: the resident-set growth).
        #[serde(default)]
        measure: WorkingSetMeasure,
    },
    /// Other threads of this process were busy during the comparison (parallel tests, a
    /// thread pool): they competed with the measured code for cores and caches.
    BusyProcess {
        /// CPU time of the other threads as a share of the comparison's wall time (1.0 = one
        /// whole core).
        other_cpu_share: f64,
    },
    /// The machine was already busy when the comparison started: the 1-minute load average
    /// was at least the number of logical cores, so other processes competed for the cores and
    /// the shared caches, which can turn a resolved verdict around (docs/background.md, section "An
    /// example report").
    BusyMachine {
        /// The 1-minute load average at the start.
        load_average: f64,
        /// Logical cores available.
        cores: usize,
    },
    /// rtcompare was built without optimisation or with debug assertions: timings of such code
    /// say little about a release build.
    DebugBuild,
    /// The comparison ran under an emulator or instrumentation framework, because
    /// [`CompareOptions::allow_instrumented`](crate::CompareOptions::allow_instrumented)
    /// asked for it: the timings measure the translation of every instruction, not the code,
    /// and neither the difference nor the verdict says anything about native speed. Always
    /// the first warning.
    Instrumented {
        /// What the process ran under.
        tool: Instrumentation,
    },
}

impl Warning {
    /// A stable identifier for the warning (`"drift_a"`, `"validation_skipped"`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Warning::ValidationSkipped => "validation_skipped",
            Warning::ValidationCutShort { .. } => "validation_cut_short",
            Warning::Drift { series, .. } => match series {
                Series::A => "drift_a",
                Series::B => "drift_b",
                Series::Ratio => "drift_ratio",
            },
            Warning::HighAutocorrelation { .. } => "high_autocorrelation",
            Warning::Suspended { .. } => "suspended",
            Warning::HighTieRate { .. } => "high_tie_rate",
            Warning::QuantizationNearDifference { .. } => "quantization_near_difference",
            Warning::NoisyFloor { .. } => "noisy_floor",
            Warning::UnreliableValidation { .. } => "unreliable_validation",
            Warning::NoiseChanged { .. } => "noise_changed",
            Warning::LargeWorkingSet { .. } => "large_working_set",
            Warning::BusyProcess { .. } => "busy_process",
            Warning::BusyMachine { .. } => "busy_machine",
            Warning::DebugBuild => "debug_build",
            Warning::Instrumented { .. } => "instrumented",
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Warning::ValidationSkipped => f.write_str(
                "A/A validation was skipped, so there is no noise floor to read the difference \
                 against",
            ),
            Warning::ValidationCutShort { runs, requested } => write!(
                f,
                "the time limit stopped the A/A validation after {runs} of {requested} runs, so \
                 the noise floor rests on fewer runs"
            ),
            Warning::Drift {
                series,
                relative_shift,
                p_value,
            } => fmt_drift(f, series, relative_shift, p_value),
            Warning::HighAutocorrelation { autocorrelation } => write!(
                f,
                "neighbouring pairs are strongly correlated (lag-1 autocorrelation of the ratio \
                 B/A {autocorrelation:+.2}); even block resampling understates the uncertainty, \
                 so the interval is too narrow; measure longer batches or on a quieter machine"
            ),
            Warning::Suspended { seconds } => write!(
                f,
                "the machine was suspended for about {seconds:.1} s during the comparison"
            ),
            Warning::HighTieRate { tie_rate } => write!(
                f,
                "{:.1} % of bootstrap replicates tie exactly: the clock is coarse next to this \
                 difference; lengthen the batches with a smaller max_quantization_error",
                100.0 * tie_rate
            ),
            Warning::QuantizationNearDifference {
                delta,
                quantization,
            } => fmt_quantization_near_difference(f, delta, quantization),
            Warning::NoisyFloor {
                noise_floor,
                threshold,
            } => fmt_noisy_floor(f, noise_floor, threshold),
            Warning::UnreliableValidation {
                series,
                false_signal_rate,
                mean_confidence,
                nominal_rate,
                runs,
            } => fmt_unreliable_validation(
                f,
                series,
                false_signal_rate,
                mean_confidence,
                nominal_rate,
                runs,
            ),
            Warning::NoiseChanged {
                half_width,
                yardstick,
            } => fmt_noise_changed(f, half_width, yardstick),
            Warning::LargeWorkingSet { bytes, measure } => fmt_large_working_set(f, bytes, measure),
            Warning::BusyProcess { other_cpu_share } => write!(
                f,
                "other threads of this process used {:.0} % of a core during the comparison \
                 (parallel tests or a thread pool); they compete with the measured code, so run \
                 comparisons alone (for tests: --test-threads=1)",
                100.0 * other_cpu_share
            ),
            Warning::BusyMachine {
                load_average,
                cores,
            } => fmt_busy_machine(f, load_average, cores),
            Warning::DebugBuild => f.write_str(
                "this is a debug build: timings of unoptimised code say little about optimised \
                 code; run with --release",
            ),
            Warning::Instrumented { ref tool } => fmt_instrumented(f, tool),
        }
    }
}

/// Writes [`Warning::Drift`]: for the ratio, a shift that makes the difference depend on how
/// long the candidates ran; for A or B alone, a machine that changed speed.
fn fmt_drift(
    f: &mut fmt::Formatter<'_>,
    series: Series,
    relative_shift: f64,
    p_value: f64,
) -> fmt::Result {
    let what = match series {
        Series::A => "candidate A",
        Series::B => "candidate B",
        Series::Ratio => "A's time over B's",
    };
    // The series holds the ratio B/A; said in the one direction, A's time over B's, whose
    // relative shift is 1 / (1 + shift) − 1.
    let relative_shift = match series {
        Series::Ratio => (1.0 + relative_shift).recip() - 1.0,
        _ => relative_shift,
    };
    let dir = if relative_shift < 0.0 {
        "lower"
    } else {
        "higher"
    };
    if series == Series::Ratio {
        write!(
            f,
            "{what} drifted during the run: it was {} {dir} in the second half than \
             in the first (p = {p_value:.3}), so the candidates were not in a steady \
             state and the difference depends on how long they ran; warm up longer \
             or measure on a quieter machine",
            Pct(relative_shift.abs())
        )?;
    } else {
        write!(
            f,
            "{what}'s own measurements were {} {dir} in the second half than in the \
             first (p = {p_value:.3}): the machine changed speed during the run, so \
             its ns/op figure blends two machines (the verdict rests on the paired \
             ratio, tested separately)",
            Pct(relative_shift.abs())
        )?;
    }
    Ok(())
}

/// Writes [`Warning::QuantizationNearDifference`].
fn fmt_quantization_near_difference(
    f: &mut fmt::Formatter<'_>,
    delta: f64,
    quantization: f64,
) -> fmt::Result {
    write!(
        f,
        "one clock step is {} of a batch, and moving the difference ({}) one such step \
         toward zero would undo the verdict; lengthen the batches with a smaller \
         max_quantization_error",
        Pct(quantization),
        Pct(delta)
    )
}

/// Writes [`Warning::NoisyFloor`].
fn fmt_noisy_floor(f: &mut fmt::Formatter<'_>, noise_floor: f64, threshold: f64) -> fmt::Result {
    write!(
        f,
        "the noise floor ({}) is larger than the smallest difference asked about ({}), \
         so this setup cannot resolve a difference that small",
        Pct(noise_floor),
        Pct(threshold)
    )
}

/// Writes [`Warning::UnreliableValidation`].
fn fmt_unreliable_validation(
    f: &mut fmt::Formatter<'_>,
    series: Series,
    false_signal_rate: f64,
    mean_confidence: f64,
    nominal_rate: f64,
    runs: usize,
) -> fmt::Result {
    write!(
        f,
        "candidate {}'s A/A validation gave {:.0} % false signals (nominal {:.0} %) and a \
         mean confidence of {mean_confidence:.2} (nominal 0.50) over {runs} runs: the \
         harness is not neutral between positions on this machine, so its noise floor \
         cannot be trusted",
        if series == Series::B { "B" } else { "A" },
        100.0 * false_signal_rate,
        100.0 * nominal_rate
    )
}

/// Writes [`Warning::NoiseChanged`].
fn fmt_noise_changed(f: &mut fmt::Formatter<'_>, half_width: f64, yardstick: f64) -> fmt::Result {
    write!(
        f,
        "the interval (±{}) is {:.1} times wider than identical code's A/A differences \
         measured just before ({}): the machine's noise changed during the measurement, \
         so the floor describes a quieter machine; measure again",
        Pct(half_width),
        half_width / yardstick,
        Pct(yardstick)
    )
}

/// Writes [`Warning::LargeWorkingSet`], naming the measure the size came from.
fn fmt_large_working_set(
    f: &mut fmt::Formatter<'_>,
    bytes: u64,
    measure: WorkingSetMeasure,
) -> fmt::Result {
    let mib = bytes as f64 / (1u64 << 20) as f64;
    match measure {
        WorkingSetMeasure::LiveHeap => write!(
            f,
            "the live heap reached {mib:.1} MiB during the comparison (counted by \
             rtcompare::alloc::Counting)"
        )?,
        WorkingSetMeasure::PeakRssGrowth => write!(
            f,
            "the peak resident memory grew by {mib:.1} MiB during the comparison \
             (memory resident before it started is not seen; install \
             rtcompare::alloc::Counting to judge the live heap)"
        )?,
    }
    f.write_str(
        ": the working set likely exceeds the caches, so one process's memory \
         layout may decide the result; run the comparison in several processes and \
         pool them",
    )
}

/// Writes [`Warning::BusyMachine`].
fn fmt_busy_machine(f: &mut fmt::Formatter<'_>, load_average: f64, cores: usize) -> fmt::Result {
    write!(
        f,
        "the machine was busy when the comparison started (load average {load_average:.2} \
         on {cores} logical cores): other processes competed for the cores and caches, \
         and a verdict under such load may not hold on a quiet machine; measure again \
         when the machine is idle"
    )
}

/// Writes [`Warning::Instrumented`]: the timings of a run under `tool` mean nothing.
fn fmt_instrumented(f: &mut fmt::Formatter<'_>, tool: &Instrumentation) -> fmt::Result {
    write!(
        f,
        "THE TIMINGS MEAN NOTHING: this ran under {tool}, which translates every \
         instruction before running it, so the numbers measure the translation, not the \
         code; do not read the difference or the verdict as native speed, and measure \
         again without it"
    )
}

/// Which fixture a process built first (see [`Child::build`](crate::pool::Child::build)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuildOrder {
    /// A's fixture was built before B's.
    AFirst,
    /// B's fixture was built before A's.
    BFirst,
}

/// Where a report came from when it ran as one process of a pooled comparison: its index and
/// the perturbation of its memory layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProcessInfo {
    /// The process's index in the pool, from 0.
    pub index: usize,
    /// Seed of its heap perturbation.
    pub perturbation_seed: u64,
    /// Bytes of filler its heap perturbation allocated.
    pub filler_bytes: u64,
    /// Bytes of padding in its environment (which moves the initial stack).
    pub env_padding_bytes: usize,
    /// Which fixture it built first, if it built them through the pool.
    pub build_order: Option<BuildOrder>,
    /// Bytes of heap filler allocated before `main` (the early perturbation; 0 when none
    /// ran), which moves the fixtures a program builds before calling the pool.
    #[serde(default)]
    pub early_filler_bytes: u64,
    /// Bytes of address space mapped before `main` to move later large blocks relative to
    /// 2 MiB pages (0 when none).
    #[serde(default)]
    pub early_mapping_bytes: u64,
    /// Resident memory the program added before the pool's closure began, in bytes (what it
    /// built in `main` before calling the pool; 0 when unknown).
    #[serde(default)]
    pub built_before_closure_bytes: u64,
}

impl fmt::Display for ProcessInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Process {} of a pooled comparison: heap perturbed with {:.1} MiB of filler (seed \
             {}), {} bytes of environment padding",
            self.index,
            self.filler_bytes as f64 / (1u64 << 20) as f64,
            self.perturbation_seed,
            self.env_padding_bytes
        )?;
        if self.early_filler_bytes + self.early_mapping_bytes > 0 {
            write!(
                f,
                ", {:.1} MiB of filler and {:.2} MiB of mapping before main",
                self.early_filler_bytes as f64 / (1u64 << 20) as f64,
                self.early_mapping_bytes as f64 / (1u64 << 20) as f64
            )?;
        }
        match self.build_order {
            Some(BuildOrder::AFirst) => f.write_str(", A's fixture built first"),
            Some(BuildOrder::BFirst) => f.write_str(", B's fixture built first"),
            None => Ok(()),
        }
    }
}

/// Everything a comparison found, and everything the verdict rests on.
///
/// The direct fields are the answer (names, medians, the estimate, its ratio and
/// confidences, the A/A floor, the verdict and the warnings) and what it is recomputed from
/// (the seed, the paired samples) and which experiment it ran (the cache mode). The rest is
/// grouped by what it is: [`diagnostics`](Self::diagnostics) of the series,
/// [`timing`](Self::timing) of the batches, [`resources`](Self::resources) used besides time,
/// how the comparison [ran](Self::run), and the [`context`](Self::context) it ran in. The
/// groups are flattened in the JSON, which keeps every key at the top level.
///
/// Recompute the interval from the report's own samples with
/// `estimate_difference(&r.samples_a, &r.samples_b, &EstimateOptions::default().level(r.estimate.level).resamples(r.estimate.resamples).block_length(r.diagnostics.block_length).seed(r.seed).paired(true))`
/// (or [`recompute_estimate`](Self::recompute_estimate)); it gives the same numbers bit for
/// bit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Version of this layout (`REPORT_SCHEMA_VERSION` (1)).
    pub schema_version: u32,
    /// Name of candidate A.
    pub name_a: String,
    /// Name of candidate B.
    pub name_b: String,
    /// Median cost of one operation of A, in nanoseconds.
    pub ns_per_op_a: f64,
    /// Median cost of one operation of B, in nanoseconds.
    pub ns_per_op_b: f64,
    /// The paired estimate of δ = 1 − A/B (positive: A needs less time) with its interval.
    pub estimate: Estimate,
    /// The same as a ratio of times B/A with its interval.
    pub ratio: Ratio,
    /// Confidence that A needs at least each requested threshold less time than B (from the
    /// same replicates as the interval); `None` when no thresholds were requested.
    pub confidences: Option<Confidences>,
    /// Whether A/A validation ran.
    pub validated: bool,
    /// A's A/A validation.
    pub validation_a: Option<HarnessValidation>,
    /// B's A/A validation.
    pub validation_b: Option<HarnessValidation>,
    /// The larger of the two A/A noise floors (fraction); 0 when validation was skipped,
    /// because it is unknown.
    pub noise_floor: f64,
    /// The smallest difference that matters, which the verdict was judged against
    /// ([`CompareOptions::margin`](crate::CompareOptions::margin), fraction): a side is proven
    /// faster only beyond it, and the two are equivalent inside it. 0 in reports written
    /// before the margin existed (and then not written, so that such a report writes back
    /// as it was read).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub margin: f64,
    /// Drift, autocorrelation, block length and ties of the measured series.
    #[serde(flatten)]
    pub diagnostics: Diagnostics,
    /// Batch size, calibration, instrument, quantization and time suspended.
    #[serde(flatten)]
    pub timing: Timing,
    /// The seed the bootstrap used (the options' seed, or the one drawn for 0).
    pub seed: u64,
    /// A's samples, nanoseconds per operation, in measurement order.
    pub samples_a: Vec<f64>,
    /// B's samples; `samples_b[i]` was measured in the same repeat as `samples_a[i]`.
    pub samples_b: Vec<f64>,
    /// Raw durations of A's batches, in nanoseconds.
    pub batch_ns_a: Vec<u64>,
    /// Raw durations of B's batches, in nanoseconds.
    pub batch_ns_b: Vec<u64>,
    /// Hardware counters, allocations and the live heap.
    #[serde(flatten)]
    pub resources: Resources,
    /// The experiment: [`Cache::Warm`] (batches found the caches as the previous batch left
    /// them) or [`Cache::Cold`] (caches evicted before every batch). Reports written before
    /// the option existed read as warm, which is what they measured.
    #[serde(default)]
    pub cache: Cache,
    /// Cache figures, width target, options, pinning, environment, wall and CPU time.
    #[serde(flatten)]
    pub run: RunInfo,
    /// The gate, pool process or worker pair the comparison was part of.
    #[serde(flatten)]
    pub context: Context,
    /// The short answer: `true` only when the interval excludes zero, |δ| exceeds the noise
    /// floor and |δ| exceeds `QUANTIZATION_GATE` (1.5) clock steps.
    pub resolved: bool,
    /// The verdict, with the reason when it is "cannot tell".
    pub verdict: Verdict,
    /// Everything that undermines this result; empty is the good case.
    pub warnings: Vec<Warning>,
}

impl Report {
    /// Recomputes the interval from the report's own paired samples with its seed, level,
    /// replicates and block length. Equal to [`estimate`](Self::estimate) bit for bit; a
    /// check that the report is self-consistent, and the starting point for re-analysing the
    /// samples with other options. Errors: those of
    /// [`estimate_difference`](crate::stats::estimate_difference) (a report edited into bad
    /// samples).
    pub fn recompute_estimate(&self) -> crate::error::Result<crate::stats::Estimate> {
        crate::stats::estimate_difference(
            &self.samples_a,
            &self.samples_b,
            &crate::stats::EstimateOptions::default()
                .level(self.estimate.level)
                .resamples(self.estimate.resamples)
                .block_length(self.diagnostics.block_length)
                .seed(self.seed)
                .paired(true),
        )
    }

    /// Whether a warning with this [`code`](Warning::code) is present.
    pub fn has_warning(&self, code: &str) -> bool {
        self.warnings.iter().any(|w| w.code() == code)
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> crate::error::Result<String> {
        serde_json::to_string_pretty(self).map_err(crate::error::Error::json)
    }

    /// Reads a report from JSON. Errors: malformed JSON or a different layout
    /// ([`Error::Json`](crate::Error::Json)).
    pub fn from_json(s: &str) -> crate::error::Result<Report> {
        serde_json::from_str(s).map_err(crate::error::Error::json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Unresolved;

    #[test]
    fn verdicts_and_warnings_read_as_sentences() {
        let v = Verdict::CannotTell(Unresolved::WithinNoiseFloor {
            delta: -0.004,
            noise_floor: 0.01,
        });
        let s = v.to_string();
        assert!(s.starts_with("CANNOT TELL.") && s.contains("0.40 %") && s.contains("1.0 %"));
        // The reason opens a sentence of its own.
        assert!(s.starts_with("CANNOT TELL. The "), "{s}");
        let w = Warning::Drift {
            series: Series::B,
            relative_shift: -0.0712,
            p_value: 0.001,
        };
        assert_eq!(w.code(), "drift_b");
        assert!(w.to_string().contains("7.1 % lower"));
        let json = serde_json::to_string(&w).unwrap();
        assert!(json.contains("\"kind\":\"drift\""), "{json}");
        assert_eq!(serde_json::from_str::<Warning>(&json).unwrap(), w);
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<Verdict>(&json).unwrap(), v);
        let w = Warning::Instrumented {
            tool: Instrumentation::QemuUser,
        };
        assert_eq!(w.code(), "instrumented");
        assert!(
            w.to_string()
                .starts_with("THE TIMINGS MEAN NOTHING: this ran under QEMU user-mode emulation,"),
            "{w}"
        );
        let json = serde_json::to_string(&w).unwrap();
        assert_eq!(json, r#"{"kind":"instrumented","tool":"qemu-user"}"#);
        assert_eq!(serde_json::from_str::<Warning>(&json).unwrap(), w);
    }

    #[test]
    fn the_working_set_warning_names_its_measure() {
        let heap = Warning::LargeWorkingSet {
            bytes: 48 << 20,
            measure: WorkingSetMeasure::LiveHeap,
        };
        let s = heap.to_string();
        assert!(s.starts_with("the live heap reached 48.0 MiB"), "{s}");
        assert!(s.contains("several processes"), "{s}");
        let json = serde_json::to_string(&heap).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"large_working_set","bytes":50331648,"measure":"live_heap"}"#
        );
        assert_eq!(serde_json::from_str::<Warning>(&json).unwrap(), heap);
        let rss = Warning::LargeWorkingSet {
            bytes: 20 << 20,
            measure: WorkingSetMeasure::PeakRssGrowth,
        };
        let s = rss.to_string();
        assert!(
            s.starts_with("the peak resident memory grew by 20.0 MiB"),
            "{s}"
        );
        assert!(s.contains("install rtcompare::alloc::Counting"), "{s}");
        // A report written before the measure was recorded still reads, as RSS growth.
        let old = r#"{"kind":"large_working_set","growth_bytes":20971520}"#;
        assert_eq!(serde_json::from_str::<Warning>(old).unwrap(), rss);
    }
}
