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
//! `pooling` is the arithmetic of pooling estimates across processes; running the processes
//! is [`crate::pool`]'s job.
//!
//! # Chapters, by question
//!
//! Listed from the bottom up: a chapter's code draws only on the chapters above it in this
//! table and on the distributions below.
//!
//! | chapter | the question | its names |
//! |---|---|---|
//! | `summaries` | What does one sample say: where is its middle, how wide its spread? | [`median`], [`quantile`], [`mad`], [`iqr`], [`mean`], [`std_dev`], [`variance`], [`min`], [`max`] |
//! | `significance` | Is a difference between two samples more than chance? | [`welch_t_test`], [`rank_sum_p`] |
//! | `bootstrap` | How big is the difference between two sets of timings, and how sure can anyone be? | [`estimate_difference`], [`Estimate`], [`EstimateOptions`], [`confidences_for`], [`bootstrap_replicates`], [`auto_block_length`] |
//! | `intervals` | How precisely is one quantity known: a mean of correlated readings, a proportion? | [`batch_means()`], [`effective_sample_size`], [`proportion_interval`] |
//! | `series` | Did the series hold still: neighbours alike, a trend, a shift, a warm-up? | [`autocorrelation`], [`detect_drift`], [`change_points()`], [`warm_up`] |
//! | `plans` | How many readings are enough? | [`required_batches`] |
//! | `verdicts` | What can be concluded, and what must a difference clear first? | [`Verdict`], [`decide`], [`aa_noise_floor`], [`judge`] |
//! | `pooling` | What do many processes, machines or comparisons say together? | [`combine`], [`combine_machines`], [`holm`] |
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
//! One limitation is inherited: statrs 0.19.1's `erfc`, behind `normal_cdf` and
//! `two_sided_normal_p`, is accurate to about 1e-10 relative rather than to machine
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

pub(crate) mod bootstrap;
pub(crate) mod intervals;
pub(crate) mod plans;
pub(crate) mod pooling;
pub(crate) mod series;
pub(crate) mod significance;
pub(crate) mod summaries;
pub(crate) mod verdicts;

pub use plans::sample_size::required_batches;
pub(crate) mod check;
pub(crate) mod dist;

pub(crate) use bootstrap::distribution::BootstrapDistribution;
pub use bootstrap::distribution::{confidences_for, estimate_difference};
pub use bootstrap::engine::bootstrap_replicates;
pub(crate) use bootstrap::engine::paired_relative_difference;
pub use bootstrap::estimate::{Confidences, Estimate, Ratio, ThresholdConfidence};

pub(crate) use bootstrap::options::DEFAULT_RESAMPLES;
pub use bootstrap::options::EstimateOptions;
pub(crate) use bootstrap::options::{DEFAULT_LEVEL, MAX_RESAMPLES};
pub use bootstrap::resample::auto_block_length;
pub(crate) use bootstrap::resample::ratio_block_length;

pub use dist::{normal_quantile, student_t_quantile};

pub use intervals::batch_means::{
    BatchMeans, BatchMeansOptions, batch_means, effective_sample_size,
};

pub use intervals::rates::{ProportionInterval, proportion_interval};
pub(crate) use intervals::rates::{RateInterval, exact_proportion_interval};

pub(crate) use plans::sample_size::required_size;
pub(crate) use plans::sample_size::{PrecisionTarget, RequiredSize, WidthDecision, WidthTarget};

pub use pooling::machines::{MachineEstimate, MachineInfluence, MachinesPooled, combine_machines};
pub use pooling::multiplicity::{HolmStep, holm};
pub(crate) use pooling::pool::DEFAULT_MARGIN;
pub(crate) use pooling::pool::ProcessEstimate;
pub(crate) use pooling::pool::{MIN_PROCESSES, combine_processes_with};
pub use pooling::pool::{Mode, PoolWarning, Pooled, combine};
pub(crate) use pooling::pool_plan::PlanEnd;
pub(crate) use pooling::pool_plan::StagedPlan;
pub(crate) use pooling::spread_split::split_spread;
pub use series::autocorr::autocorrelation;
pub(crate) use series::autocorr::lag1_autocorrelation;

pub use series::change_points::{ChangePointOptions, ChangePoints, WarmUp, change_points, warm_up};

pub(crate) use series::drift::DRIFT_LEVEL;
pub use series::drift::{DriftReport, detect_drift};
pub use significance::hypothesis::{WelchTest, welch_t_test};

pub use significance::rank_tests::rank_sum_p;

pub use summaries::summary::{iqr, mad, max, mean, median, min, quantile, std_dev, variance};
pub use verdicts::aa_floor::aa_noise_floor;
pub(crate) use verdicts::decision::QUANTIZATION_GATE;
pub use verdicts::decision::{Change, Unresolved, Verdict, decide};

pub use verdicts::judge::{Bar, Bounds, Claim, Judgement, Scale, judge, over_budget};
pub(crate) use verdicts::sequential::{
    DecisionEnd, Sequential, SequentialDecision, SequentialLook, SequentialOptions,
};

// The verdict rule's test fixture, shared with the warnings' tests in `compare`.
#[cfg(test)]
pub(crate) use verdicts::decision::tests::est;

/// Fewest values per candidate that the bootstrap estimates accept (as in the reference:
/// 11, so that a resampled median is not dominated by one or two values).
pub(crate) const MINIMUM_DATA_POINTS: usize = 11;
