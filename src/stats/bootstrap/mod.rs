//! How big is the difference between two sets of timings, and how sure can anyone be?
//!
//! # Bootstrap estimates
//!
//! ## The problem
//!
//! Two candidates were timed repeatedly: `a` holds A's times, `b` holds B's (in any unit, the
//! same for both; smaller is better). A single number such as "A is 20 % faster" says nothing
//! about how much it would move if the measurement were repeated. The bootstrap answers with a
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
//! blocks keeps serial correlation in it (see [Resampling](#resampling)).
//!
//! ## Reproducibility
//!
//! Every replicate comes from one [`Rng`] created once per call from the options' seed (`0`
//! draws one, and the seed actually used is recorded in the result). For unpaired data each
//! replicate draws A's resample and then B's; for paired data it draws one resample of the
//! pairs. So the same inputs and options give the same result bit for bit, and
//! [`estimate_difference`], [`confidences_for`], [`tie_split_confidence`] and
//! [`bootstrap_replicates`] agree replicate for replicate. Buffers are allocated once per call
//! and each input is sorted once; a replicate's median is then found by counting draws per
//! rank, so a replicate costs no allocation and no sort (5,000 paired replicates of 101
//! pairs take about 2 ms; docs/background.md has the measurement).
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
//! [`Rng`]: crate::rng::Rng
//!
//! # Resampling
//!
//! Drawing bootstrap resamples: plain, moving-block and paired, into buffers you provide.
//!
//! ## The problem
//!
//! A bootstrap replicate is a new sample of the same size, drawn from the observed values. How
//! to draw it depends on how the data were produced:
//!
//! * **Independent measurements**: draw each value uniformly with replacement (the ordinary,
//!   Efron bootstrap, [`bootstrap_indices`]).
//! * **A time series with serial correlation** (each batch resembles the one before it, lag-1
//!   autocorrelation above about 0.2): single draws destroy that dependence, the replicates
//!   vary less than the data really do and the intervals come out too narrow. The moving-block
//!   bootstrap (Künsch 1989, [`moving_block_indices`]) instead copies runs of `ℓ` consecutive
//!   values. The blocks overlap: a block can start at any of the `n − ℓ + 1` positions where it
//!   fits, uniformly. Whole blocks are appended until the replicate is full; the last block is
//!   cut short so that the replicate has exactly the requested length.
//! * **Paired measurements** (`A[i]` and `B[i]` taken together): draw indices once and apply
//!   them to both, so that each pair stays a pair ([`paired_resample_into`]).
//!
//! ## Block lengths
//!
//! Block length `0` and `1` both mean single draws; every function here applies the same rule.
//! A block longer than half the input is shortened to `n / 2` (at least 1): a block as long as
//! the input would make every replicate the same series. [`auto_block_length`] gives the usual
//! rate `n^(1/3)` for when you want blocks but have no better length.
//!
//! With `ℓ = 1` the moving-block bootstrap draws each start from `0..n`, the very call the
//! ordinary bootstrap makes for each index: both give **the same values in the same order**
//! from the same generator state, so switching blocks off never changes a seeded result.
//!
//! ## Buffers
//!
//! Nothing here allocates. The replicate length is the length of the output buffer (usually
//! the input length); a bootstrap loop allocates its buffers once and reuses them for every
//! replicate.
//!
//! ```
//! use rtcompare::support::rng::Rng;
//! use rtcompare::support::stats::resample_into;
//!
//! let data = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0];
//! let mut replicate = [0.0; 11];
//! let mut rng = Rng::new(1);
//! resample_into(&mut rng, &data, 3, &mut replicate)?; // blocks of 3
//! assert!(replicate.iter().all(|x| data.contains(x)));
//! # Ok::<(), rtcompare::Error>(())
//! ```

// The chapter's links name each item by its one path, `stats::NAME`.
#[cfg(doc)]
use crate::stats::*;

// One file per job: `options.rs` (`EstimateOptions` and its defaults); `estimate.rs` (the
// answers: `Estimate` with its `Ratio` and `Display`, `ThresholdConfidence`, `Confidences`,
// `TieSplit`, `speedup_to_threshold`); `distribution.rs` (`BootstrapDistribution`, the sorted
// replicates every answer is read from, and the one-answer shortcuts); `engine.rs` (the
// statistic on the data and the drawing of its replicates, with the counting median that makes
// a replicate cheap); `resample.rs` (the resamples themselves, into buffers the caller owns).
pub(crate) mod distribution;
pub(crate) mod engine;
pub(crate) mod estimate;
pub(crate) mod options;
pub(crate) mod resample;

/// Samples and options the parts' unit tests share, so that their known answers agree.
#[cfg(test)]
mod test_data {
    use crate::stats::EstimateOptions;

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
