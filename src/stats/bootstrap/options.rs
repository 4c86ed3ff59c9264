//! How to bootstrap: [`EstimateOptions`] and the defaults and limits it resolves to.

use crate::error::{Error, Result};
use crate::stats::check;
use serde::{Deserialize, Serialize};

/// Coverage level of the interval when [`EstimateOptions::level`] is 0: 0.95.
pub const DEFAULT_LEVEL: f64 = 0.95;

/// Replicates drawn when [`EstimateOptions::resamples`] is 0: 5,000. Percentile intervals
/// and tail shares need thousands of replicates (Efron and Tibshirani recommend 1,000 or
/// more for an interval's ends); the Monte Carlo error of a share shrinks as `1/√R`, about
/// ±0.3 percentage points at a share of 0.05 and R = 5,000.
pub const DEFAULT_RESAMPLES: usize = 5_000;

/// The most replicates one call accepts: 10,000,000 (80 MB of replicate values). Larger
/// requests are rejected with [`Error::InvalidOption`] instead of exhausting memory.
pub const MAX_RESAMPLES: usize = 10_000_000;

/// How to bootstrap: level, number of replicates, block length, seed, and whether the samples
/// are paired.
///
/// Build it from [`Default`] with the consuming setters; a setting left at zero means its
/// documented default. The [`Estimate`](crate::stats::Estimate) records the settings it was
/// computed with.
///
/// ```
/// use rtcompare::stats::{EstimateOptions, estimate_difference};
/// let opts = EstimateOptions::default().level(0.9).resamples(2_000).seed(7).paired(true);
/// let a: Vec<f64> = (0..21).map(|i| 100.0 + f64::from(i % 3)).collect();
/// let b: Vec<f64> = (0..21).map(|i| 120.0 + f64::from(i % 4)).collect();
/// let e = estimate_difference(&a, &b, &opts)?;
/// assert_eq!((e.level, e.resamples, e.seed, e.paired), (0.9, 2_000, 7, true));
/// assert_eq!(e.block_length, 1); // single draws
/// # Ok::<(), rtcompare::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EstimateOptions {
    /// Coverage level of the interval, strictly between 0 and 1; 0 means `DEFAULT_LEVEL` (0.95)
    /// (0.95). Other values outside (0, 1), and NaN, are rejected with
    /// [`Error::OutOfRange`].
    pub(crate) level: f64,
    /// Number of bootstrap replicates; 0 means [`DEFAULT_RESAMPLES`] (5,000). At most
    /// `MAX_RESAMPLES` (10_000_000).
    pub(crate) resamples: usize,
    /// Moving-block length in observations: 0 or 1 resample single values; 2 or more resample
    /// overlapping blocks of that many consecutive values (of pairs, when paired), shortened
    /// to half the input if longer. Use blocks when the lag-1 autocorrelation of the series
    /// exceeds about 0.2; [`auto_block_length`](crate::stats::auto_block_length) gives a
    /// length.
    pub(crate) block_length: usize,
    /// Seed of the generator; 0 draws one (see [`crate::rng::resolve_seed`]). The seed used
    /// is recorded in [`Estimate::seed`].
    ///
    /// [`Estimate::seed`]: crate::stats::Estimate::seed
    pub(crate) seed: u64,
    /// `true` when `a[i]` and `b[i]` were measured together: whole pairs are resampled and
    /// the statistic is the median of the ratios `a[i] / b[i]`. Requires equal lengths.
    pub(crate) paired: bool,
}

impl Default for EstimateOptions {
    fn default() -> Self {
        EstimateOptions {
            level: DEFAULT_LEVEL,
            resamples: DEFAULT_RESAMPLES,
            block_length: 0,
            seed: 0,
            paired: false,
        }
    }
}

impl EstimateOptions {
    /// Sets the coverage level of the interval, strictly between 0 and 1; 0 means 0.95 (the
    /// default). Checked when used: other values outside (0, 1), and NaN, give
    /// [`Error::OutOfRange`].
    #[must_use]
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }

    /// Sets the number of bootstrap replicates; 0 means 5,000 (the default). Checked when
    /// used: more than 10,000,000 give [`Error::InvalidOption`].
    #[must_use]
    pub fn resamples(mut self, resamples: usize) -> Self {
        self.resamples = resamples;
        self
    }

    /// Sets the moving-block length in observations: 0 or 1 (the default) resample single
    /// values; 2 or more resample overlapping blocks of that many consecutive values (of pairs,
    /// when paired), shortened to half the input if longer. Use blocks when the lag-1
    /// autocorrelation of the series exceeds about 0.2;
    /// [`auto_block_length`](crate::stats::auto_block_length) gives a length.
    #[must_use]
    pub fn block_length(mut self, block_length: usize) -> Self {
        self.block_length = block_length;
        self
    }

    /// Sets the seed of the generator; 0 (the default) draws one. The seed used is recorded
    /// in the estimate's `seed`, so that a run can be repeated bit for bit.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Declares the samples paired (default `false`): `a[i]` and `b[i]` were measured
    /// together, so whole pairs are resampled and the statistic is the median of the ratios
    /// `a[i] / b[i]`. Requires equal lengths.
    #[must_use]
    pub fn paired(mut self, paired: bool) -> Self {
        self.paired = paired;
        self
    }

    /// The level and replicate count after applying the defaults, or the error that makes
    /// the options unusable.
    pub(super) fn resolved(&self) -> Result<(f64, usize)> {
        let level = if self.level == 0.0 {
            DEFAULT_LEVEL
        } else {
            self.level
        };
        check::open_unit("level", level)?;
        let resamples = if self.resamples == 0 {
            DEFAULT_RESAMPLES
        } else {
            self.resamples
        };
        if resamples > MAX_RESAMPLES {
            return Err(Error::invalid_option(
                "resamples",
                format!(
                    "{resamples} replicates requested, at most {MAX_RESAMPLES} are accepted; \
                     10,000 already pin a 95% interval's ends to a fraction of its width"
                ),
            ));
        }
        Ok((level, resamples))
    }
}

#[cfg(test)]
mod tests {
    use crate::stats::bootstrap::test_data::{A, B, opts};
    use crate::stats::estimate_difference;

    #[test]
    fn zero_level_and_resamples_mean_the_defaults() {
        let e0 = estimate_difference(&A, &B, &opts(9).level(0.0).resamples(0)).unwrap();
        let e1 = estimate_difference(&A, &B, &opts(9).level(0.95).resamples(5000)).unwrap();
        assert_eq!(e0, e1);
    }
}
