//! How big is the difference between two sets of timings, and how sure can anyone be?
//!
//! The explanation users read is in `stats/mod.rs`, section "Bootstrap estimates".
//!
//! # Where the parts live
//!
//! This module is one namespace (its names are listed in [`crate::stats`]); its items are
//! defined in four private files, one per job:
//!
//! * `options.rs`: [`EstimateOptions`], with [`DEFAULT_LEVEL`], [`DEFAULT_RESAMPLES`] and
//!   [`MAX_RESAMPLES`];
//! * `estimate.rs`: the answers: [`Estimate`] with its [`Ratio`] and `Display`,
//!   [`ThresholdConfidence`] and [`Confidences`], [`TieSplit`], and
//!   [`speedup_to_threshold`];
//! * `distribution.rs`: [`BootstrapDistribution`], the sorted replicates every answer is
//!   read from, and the one-answer shortcuts ([`estimate_difference`], [`confidences_for`],
//!   [`estimate_with_confidences`], [`tie_split_confidence`], [`estimate_with_ties`]);
//! * `engine.rs`: the statistic on the data ([`relative_difference`],
//!   [`paired_relative_difference`]) and the drawing of its replicates
//!   ([`bootstrap_replicates`]), with the counting median that makes a replicate cheap.

mod distribution;
mod engine;
mod estimate;
mod options;

pub use distribution::{
    BootstrapDistribution, confidences_for, estimate_difference, estimate_with_confidences,
    estimate_with_ties, tie_split_confidence,
};
pub use engine::{bootstrap_replicates, paired_relative_difference, relative_difference};
pub use estimate::{
    Confidences, Estimate, Ratio, ThresholdConfidence, TieSplit, speedup_to_threshold,
};
pub use options::{DEFAULT_LEVEL, DEFAULT_RESAMPLES, EstimateOptions, MAX_RESAMPLES};

/// Samples and options the parts' unit tests share, so that their known answers agree.
#[cfg(test)]
mod test_data {
    use super::EstimateOptions;

    pub(super) const A: [f64; 11] = [
        100.0, 102.0, 99.0, 101.0, 100.0, 103.0, 98.0, 100.0, 101.0, 99.0, 102.0,
    ];
    pub(super) const B: [f64; 11] = [
        125.0, 128.0, 124.0, 126.0, 125.0, 129.0, 122.0, 125.0, 127.0, 124.0, 127.0,
    ];

    pub(super) fn opts(seed: u64) -> EstimateOptions {
        EstimateOptions::default().seed(seed)
    }
}
