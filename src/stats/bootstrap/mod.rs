//! How big is the difference between two sets of timings, and how sure can anyone be?
//!
//! # The problem
//!
//! Two candidates were timed repeatedly: `a` holds A's times, `b` holds B's (in any unit, the
//! same for both; smaller is better). A single number such as "A is 20 % faster" says nothing
//! about how much it would move if the measurement were repeated. This module answers with a
//! **relative difference and an interval**:
//!
//! * the relative difference `δ = 1 − median(A) / median(B)` (positive: A needs less time;
//!   0.2 means A needs 20 % less time than B), or for paired data (`a[i]` and `b[i]` measured
//!   together) `δ = 1 − median_i(a[i] / b[i])`;
//! * a **percentile bootstrap interval** for δ: the data are resampled many times (5,000 by
//!   default), δ is recomputed on every replicate, and the interval runs between the
//!   replicates' `(1 − L)/2` and `(1 + L)/2` quantiles for the level `L` (0.95 by default);
//! * **confidences**: the share of replicates in which A beats B by at least a threshold, read
//!   from the very replicates the interval comes from.
//!
//! The median is the statistic because timings have one-sided outliers (interrupts, page
//! faults, a migrated thread) that drag a mean but barely move a median. Resampling pairs
//! keeps the disturbances that hit both members of a pair out of the interval; resampling in
//! blocks keeps serial correlation in it (see [`crate::stats::resample`]).
//!
//! # Reproducibility
//!
//! Every replicate comes from one [`Rng`] created once per call from the options' seed (`0`
//! draws one, and the seed actually used is recorded in the result). For unpaired data each
//! replicate draws A's resample and then B's; for paired data it draws one resample of the
//! pairs. So the same inputs and options give the same result bit for bit, and
//! [`estimate_difference`], [`confidences_for`], [`tie_split_confidence`] and
//! [`bootstrap_replicates`] agree replicate for replicate. Buffers are allocated once per call
//! and each input is sorted once; a replicate's median is then found by counting draws per
//! rank, so a replicate costs no allocation and no sort (5,000 paired replicates of 101
//! pairs take about 2 ms; BACKGROUND.md has the measurement).
//!
//! ```
//! use rtcompare::stats::{estimate_difference, EstimateOptions};
//!
//! let a = [100.0, 102.0, 99.0, 101.0, 100.0, 103.0, 98.0, 100.0, 101.0, 99.0, 102.0];
//! let b = [125.0, 128.0, 124.0, 126.0, 125.0, 129.0, 122.0, 125.0, 127.0, 124.0, 127.0];
//! let est = estimate_difference(&a, &b, &EstimateOptions::default().seed(1).paired(true))?;
//! assert_eq!(est.delta, 0.19999999999999996); // the paired ratios have median 0.8
//! assert_eq!(est.ratio().ratio, 1.25);        // B takes 1.25 times as long as A
//! assert!(est.excludes(0.0));                 // the difference is established
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Where the parts live
//!
//! This module is one namespace (re-exported whole by [`crate::stats`]); its items are
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
//!
//! [`Rng`]: crate::rng::Rng

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
