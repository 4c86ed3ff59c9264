//! The statistics the workspace's own crates and the lab programs use and users do not: the
//! internal steps, the earlier rules the one judge replaced, the planning arithmetic and the
//! tuning constants behind the public `rtcompare::stats` surface.

pub use crate::stats::bootstrap::distribution::{
    BootstrapDistribution, estimate_with_confidences, estimate_with_ties, tie_split_confidence,
};
pub use crate::stats::bootstrap::engine::relative_difference;
pub use crate::stats::bootstrap::estimate::{TieSplit, speedup_to_threshold};
pub use crate::stats::bootstrap::options::DEFAULT_RESAMPLES;
pub use crate::stats::bootstrap::resample::{
    bootstrap_indices, moving_block_indices, paired_resample_into, ratio_block_length,
    resample_into,
};
pub use crate::stats::dist::{normal_cdf, student_t_cdf, two_sided_normal_p};
pub use crate::stats::intervals::batch_means::{
    ar1_batch_mean_autocorrelation, ar1_gamma, ar1_gamma_limit, batch_autocorrelation,
    batch_means_at, iid_interval_coverage,
};
pub use crate::stats::intervals::rates::{
    Kind, RateInterval, Readings, Summary, exact_proportion_interval, harmonic_mean,
    harmonic_mean_interval,
};
pub use crate::stats::intervals::work_rate::{WorkRate, work_rate};
pub use crate::stats::plans::sample_size::{
    PrecisionTarget, RequiredSize, WidthDecision, WidthTarget,
};
pub use crate::stats::plans::welch_plan::{
    MeasuredSummary, NewSamples, SummaryComparison, new_samples_needed, samples_per_system,
    welch_from_summaries,
};
pub use crate::stats::pooling::machines::MIN_MACHINES;
pub use crate::stats::pooling::pool::{DEFAULT_MARGIN, combine_staged};
pub use crate::stats::pooling::pool_plan::{PlanEnd, ProcessPlan, plan_processes};
pub use crate::stats::pooling::spread_split::{SpreadSplit, split_spread};
pub use crate::stats::series::autocorr::lag1_autocorrelation;
pub use crate::stats::series::change_points::{stable_phase, warm_up_end};
pub use crate::stats::series::drift::{DRIFT_LEVEL, DRIFT_MIN_SAMPLES};
pub use crate::stats::significance::rank_tests::fisher_exact_p;
pub use crate::stats::summaries::summary::{Sample, mad_scaled};
pub use crate::stats::verdicts::few_runs::{
    FEW_RUNS_MIN_RUNS, FewRunsOutcome, FewRunsRule, FewRunsVerdict, few_runs_verdict,
};
pub use crate::stats::verdicts::sequential::{
    DecisionEnd, Sequential, SequentialDecision, SequentialLook, SequentialOptions,
    SequentialOutcome, Spending, sequential_look, spent,
};
pub use crate::stats::verdicts::verdict::{
    CannotTellReason, LowerBoundDecision, ThreeOutcome, ThresholdOutcome, lower_bound_rule,
    three_outcome_rule,
};

/// `rtcompare::stats`' internal constant of this name (see its definition).
pub const MINIMUM_DATA_POINTS: usize = crate::stats::MINIMUM_DATA_POINTS;

/// A bar of `threshold` and A/A `floor` (fractions) without the checks of
/// [`Bar::new`](crate::stats::Bar::new): a negative or NaN threshold reads as 0, a negative
/// floor as 0 and a NaN floor (an A/A comparison that measured nothing) as infinite, so that
/// no claim clears a floor nobody knows. For front ends whose inputs may be missing.
pub fn bar(threshold: f64, floor: f64) -> crate::stats::Bar {
    crate::stats::Bar::threshold(threshold).with_floor(floor)
}

/// The change from a ratio of times, candidate over baseline, and its interval: `ratio − 1`.
pub fn change_of_ratio(ratio: f64, low: f64, high: f64) -> crate::stats::Change {
    crate::stats::Change::of_ratio(ratio, low, high)
}

/// The verdict in a few words, naming the sides `a` and `b`: `"{a} faster"`, `"{b} faster"`,
/// `"equivalent"` or `"cannot tell"`, as every table of the crate words it.
pub fn verdict_in_words(verdict: &crate::stats::Verdict, a: &str, b: &str) -> String {
    verdict.in_words(a, b)
}

/// The report of a drift test that could not be run: `n` = 0 and a p-value of 1, so that it
/// never reads as drift (see `DriftReport`'s fields).
pub fn drift_not_run() -> crate::stats::DriftReport {
    crate::stats::DriftReport::not_run()
}

/// The bounds of an interval that guarantees nothing (−∞, ∞): no claim, no equivalence. For
/// front ends whose interval could not be formed.
pub fn unbounded() -> crate::stats::Bounds {
    crate::stats::Bounds::unbounded()
}
