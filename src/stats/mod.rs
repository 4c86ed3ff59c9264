//! Pure statistics on `&[f64]`.
//!
//! Nothing in this module reads a clock, touches the operating system or keeps global state:
//! the measurement code calls it, never the other way round. Every function validates its input
//! at the boundary (empty input, NaN or infinity give an [`Error`](crate::Error), never a NaN
//! result) and every randomised function is deterministic for a given seed, bit for bit.
//!
//! Every name lives directly under `stats` (`rtcompare::stats::median`,
//! `rtcompare::stats::estimate_difference`). The chapters below explain them, grouped by the
//! question they answer, beside the code that answers it; a chapter is a page to read and holds
//! no names of its own, so each name keeps its one path.
//!
//! [`pooling`] is the arithmetic of pooling estimates across processes; running the processes
//! is [`crate::pool`]'s job.
//!
//! # Chapters, by question
//!
//! Listed from the bottom up: a chapter's code draws only on the chapters above it in this
//! table and on the distributions below.
//!
//! | chapter | the question | its main names |
//! |---|---|---|
//! | [`summaries`] | What does one sample say: where is its middle, how wide its spread? | [`Sample`], [`median`], [`quantile`], [`mad`], [`mean`], [`std_dev`] |
//! | [`significance`] | Is a difference between two samples more than chance? | [`welch_t_test`], [`rank_sum_p`], [`fisher_exact_p`] |
//! | [`bootstrap`] | How big is the difference between two sets of timings, and how sure can anyone be? | [`estimate_difference`], [`Estimate`], [`EstimateOptions`], [`resample_into`] |
//! | [`intervals`] | How precisely is one quantity known: a mean of correlated readings, a rate, a proportion? | [`batch_means()`], [`harmonic_mean_interval`], [`proportion_interval`], [`work_rate()`] |
//! | [`series`] | Did the series hold still: neighbours alike, a trend, a shift, a warm-up? | [`lag1_autocorrelation`], [`detect_drift`], [`change_points()`], [`warm_up`] |
//! | [`plans`] | How many readings are enough? | [`required_batches`], [`WidthTarget`], [`samples_per_system`] |
//! | [`verdicts`] | What can be concluded, and what must a difference clear first? | [`Verdict`], [`decide`], [`aa_noise_floor`], [`judge`], [`three_outcome_rule`], [`few_runs_verdict`], [`sequential_look`] |
//! | [`pooling`] | What do many processes, machines or comparisons say together? | [`combine`], [`combine_staged`], [`plan_processes`], [`combine_machines`], [`holm`] |
//!
//! # Distributions
//!
//! The normal and Student's t distributions, with their arguments checked.
//!
//! Tests and intervals end in a distribution function: a statistic becomes a p-value through a
//! cumulative distribution function (CDF), and a confidence level becomes a critical value
//! through a quantile function. These functions check their arguments (a probability must lie
//! in `(0, 1)`, a statistic must be finite, degrees of freedom finite and positive) and return
//! an [`Error`](crate::Error) instead of a panic or a NaN.
//!
//! The arithmetic comes from [`statrs`], with two repairs where its accuracy or robustness
//! falls short for what this crate needs:
//!
//! * above 10⁵ degrees of freedom the t CDF is the two-term Edgeworth expansion around the
//!   normal, `Φ(x) − φ(x)·(g₁(x)/ν + g₂(x)/ν²)` with `g₁ = (x³ + x)/4` and
//!   `g₂ = (3x⁷ − 7x⁵ − 5x³ − 3x)/96` (statrs' incomplete beta has a relative error of
//!   about 1e-6 at ν = 10⁹);
//! * the t quantile inverts the CDF by bisection instead of using statrs' inverse, which
//!   panics for `p` near 0 and is inaccurate for small `ν`.
//!
//! One limitation is inherited: statrs 0.19.1's `erfc`, behind [`normal_cdf`] and
//! [`two_sided_normal_p`], is accurate to about 1e-10 relative rather than to machine
//! precision (truncated constants, fixed upstream in statrs-dev/statrs#412). That is far
//! below anything a p-value or a verdict depends on.
//!
//! All values are dimensionless. "Standard" means mean 0 and standard deviation 1 for the
//! normal, location 0 and scale 1 for Student's t.
//!
//! ```
//! use rtcompare::stats::{normal_quantile, student_t_quantile};
//!
//! // The 97.5 % points behind a two-sided 95 % interval.
//! assert!((normal_quantile(0.975)? - 1.959964).abs() < 1e-6);
//! assert!((student_t_quantile(0.975, 4.0)? - 2.776445).abs() < 1e-6);
//! # Ok::<(), rtcompare::Error>(())
//! ```

pub mod bootstrap;
pub mod intervals;
pub mod plans;
pub mod pooling;
pub mod series;
pub mod significance;
pub mod summaries;
pub mod verdicts;

pub(crate) mod check;
mod dist;

pub use bootstrap::distribution::{
    BootstrapDistribution, confidences_for, estimate_difference, estimate_with_confidences,
    estimate_with_ties, tie_split_confidence,
};
pub(crate) use bootstrap::engine::paired_relative_difference;
pub use bootstrap::engine::{bootstrap_replicates, relative_difference};
pub use bootstrap::estimate::{
    Confidences, Estimate, Ratio, ThresholdConfidence, TieSplit, speedup_to_threshold,
};
pub(crate) use bootstrap::options::{DEFAULT_LEVEL, MAX_RESAMPLES};
pub use bootstrap::options::{DEFAULT_RESAMPLES, EstimateOptions};
pub use bootstrap::resample::{
    auto_block_length, bootstrap_indices, moving_block_indices, paired_resample_into,
    ratio_block_length, resample_into,
};
pub use dist::{
    normal_cdf, normal_quantile, student_t_cdf, student_t_quantile, two_sided_normal_p,
};

pub use intervals::batch_means::{
    BatchMeans, BatchMeansOptions, ar1_batch_mean_autocorrelation, ar1_gamma, ar1_gamma_limit,
    batch_autocorrelation, batch_means, batch_means_at, effective_sample_size,
    iid_interval_coverage,
};
pub use intervals::rates::{
    Kind, ProportionInterval, RateInterval, Readings, Summary, exact_proportion_interval,
    harmonic_mean, harmonic_mean_interval, proportion_interval,
};

pub use intervals::work_rate::{WorkRate, work_rate};
pub(crate) use plans::sample_size::required_size;
pub use plans::sample_size::{
    PrecisionTarget, RequiredSize, WidthDecision, WidthTarget, required_batches,
};
pub use plans::welch_plan::{
    MeasuredSummary, NewSamples, SummaryComparison, new_samples_needed, samples_per_system,
    welch_from_summaries,
};
pub use pooling::machines::{
    MIN_MACHINES, MachineEstimate, MachineInfluence, MachinesPooled, combine_machines,
};
pub use pooling::multiplicity::{HolmStep, holm};
pub(crate) use pooling::pool::ProcessEstimate;
pub use pooling::pool::{DEFAULT_MARGIN, Mode, PoolWarning, Pooled, combine, combine_staged};
pub(crate) use pooling::pool::{MIN_PROCESSES, combine_processes_with};
pub(crate) use pooling::pool_plan::StagedPlan;
pub use pooling::pool_plan::{PlanEnd, ProcessPlan, plan_processes};
pub use pooling::spread_split::{SpreadSplit, split_spread};
pub use series::autocorr::{autocorrelation, lag1_autocorrelation};

pub use series::change_points::{
    ChangePointOptions, ChangePoints, WarmUp, change_points, stable_phase, warm_up, warm_up_end,
};
pub use series::drift::{DRIFT_LEVEL, DRIFT_MIN_SAMPLES, DriftReport, detect_drift};
pub use significance::hypothesis::{WelchTest, welch_t_test};

pub use significance::rank_tests::{fisher_exact_p, rank_sum_p};
pub use summaries::summary::{
    Sample, iqr, mad, mad_scaled, max, mean, median, min, quantile, std_dev, variance,
};
pub use verdicts::aa_floor::aa_noise_floor;
pub(crate) use verdicts::decision::QUANTIZATION_GATE;
pub use verdicts::decision::{Change, Unresolved, Verdict, decide};

pub use verdicts::few_runs::{
    FEW_RUNS_MIN_RUNS, FewRunsOutcome, FewRunsRule, FewRunsVerdict, few_runs_verdict,
};
pub use verdicts::judge::{Bar, Bounds, Claim, Judgement, Scale, judge};
pub use verdicts::sequential::{
    DecisionEnd, Sequential, SequentialDecision, SequentialLook, SequentialOptions,
    SequentialOutcome, Spending, sequential_look, spent,
};
pub use verdicts::verdict::{
    CannotTellReason, LowerBoundDecision, ThreeOutcome, ThresholdOutcome, lower_bound_rule,
    three_outcome_rule,
};

/// The earlier name of [`ThresholdOutcome`], kept because every `rtcompare::stats::NAME` that
/// resolved keeps resolving; "outcome" alone no longer says which of the crate's outcomes it is.
#[deprecated(note = "renamed ThresholdOutcome")]
pub type Outcome = ThresholdOutcome;

// The verdict rule's test fixture, shared with the warnings' tests in `compare`.
#[cfg(test)]
pub(crate) use verdicts::decision::tests::est;

/// Fewest values per candidate that the bootstrap estimates accept (as in the reference:
/// 11, so that a resampled median is not dominated by one or two values).
pub const MINIMUM_DATA_POINTS: usize = 11;
