//! What the workspace's crates, the lab programs and the tests use from the core's `compare`
//! layer and users do not.

use crate::compare::CompareOptions;
use crate::compare::report::Report;
use crate::error::Result;
use crate::measure::candidate::Candidate;
use crate::measure::clock::Clock;
use crate::measure::collect::CollectOptions;
use crate::stats::WidthTarget;

pub use crate::compare::options::DEFAULT_COMPARE_MARGIN;
pub use crate::compare::validate::{
    DEFAULT_COLD_VALIDATION_RUNS, HarnessValidation, ValidationOptions, ValidationRun,
    validate_pair,
};

/// The measurement knobs inside a [`CompareOptions`] (repeats, batch size, warm-up, cache
/// mode, calibration limits), which rtcompare-workload reads to calibrate its two structures
/// itself and the tests read to check what a builder set. Users set them through the options'
/// builders.
pub fn collect_options(options: &CompareOptions) -> &CollectOptions {
    &options.collect
}

/// `compare` on any clock, for example a simulated one in tests: the same protocol, with every
/// reading of time taken from `clock`. Errors: those of `compare`.
pub fn compare_with_clock<C: Clock>(
    a: Candidate<'_>,
    b: Candidate<'_>,
    options: &CompareOptions,
    clock: &C,
) -> Result<Report> {
    crate::compare::compare_with_clock(a, b, options, clock)
}

/// `options` with its measurement knobs replaced by `collect` wholesale (rtcompare-workload
/// calibrates its two structures itself and hands the result back).
pub fn with_collect(options: CompareOptions, collect: CollectOptions) -> CompareOptions {
    options.collect(collect)
}

/// `options` that collect more pairs until the interval's half-width meets `target`.
pub fn width_target(options: CompareOptions, target: WidthTarget) -> CompareOptions {
    options.width_target(target)
}

/// Lag-1 autocorrelation of the pairs' ratios above which they are resampled in blocks (0.2).
pub const AUTOCORRELATION_THRESHOLD: f64 = crate::compare::report::AUTOCORRELATION_THRESHOLD;

/// Shift of one candidate's own series (second half over first) beyond which its drift is
/// reported (0.10).
pub const MACHINE_DRIFT_SHIFT: f64 = crate::compare::report::MACHINE_DRIFT_SHIFT;
