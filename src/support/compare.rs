//! What the workspace's crates, the lab programs and the tests use from the core's `compare`
//! layer and users do not.

use crate::compare::CompareOptions;
use crate::measure::collect::CollectOptions;

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
