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

use crate::rng::Rng;
use crate::stats::MINIMUM_DATA_POINTS;
use crate::stats::check;
use crate::stats::resample::{effective_block_length, for_each_block};
use crate::stats::select::{cmp_f64, median_in_place, midpoint, quantile_sorted};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

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
/// Build it from [`Default`] with the consuming setters; a field left at zero means its
/// documented default.
///
/// ```
/// use rtcompare::stats::EstimateOptions;
/// let opts = EstimateOptions::default().level(0.9).resamples(2_000).seed(7).paired(true);
/// assert_eq!(opts.level, 0.9);
/// assert_eq!(opts.block_length, 0); // single draws
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EstimateOptions {
    /// Coverage level of the interval, strictly between 0 and 1; 0 means [`DEFAULT_LEVEL`]
    /// (0.95). Other values outside (0, 1), and NaN, are rejected with
    /// [`Error::OutOfRange`].
    pub level: f64,
    /// Number of bootstrap replicates; 0 means [`DEFAULT_RESAMPLES`] (5,000). At most
    /// [`MAX_RESAMPLES`].
    pub resamples: usize,
    /// Moving-block length in observations: 0 or 1 resample single values; 2 or more resample
    /// overlapping blocks of that many consecutive values (of pairs, when paired), shortened
    /// to half the input if longer. Use blocks when the lag-1 autocorrelation of the series
    /// exceeds about 0.2; [`auto_block_length`](crate::stats::auto_block_length) gives a
    /// length.
    pub block_length: usize,
    /// Seed of the generator; 0 draws one (see [`crate::rng::resolve_seed`]). The seed used
    /// is recorded in [`Estimate::seed`].
    pub seed: u64,
    /// `true` when `a[i]` and `b[i]` were measured together: whole pairs are resampled and
    /// the statistic is the median of the ratios `a[i] / b[i]`. Requires equal lengths.
    pub paired: bool,
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
    /// The defaults: level 0.95, 5,000 replicates, single draws, a drawn seed, unpaired.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the coverage level (0 < level < 1; 0 means 0.95). Checked when used.
    #[must_use]
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }

    /// Sets the number of replicates (0 means 5,000). Checked when used.
    #[must_use]
    pub fn resamples(mut self, resamples: usize) -> Self {
        self.resamples = resamples;
        self
    }

    /// Sets the moving-block length (0 or 1: single draws).
    #[must_use]
    pub fn block_length(mut self, block_length: usize) -> Self {
        self.block_length = block_length;
        self
    }

    /// Sets the seed (0: draw one).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Declares the samples paired (`a[i]` measured together with `b[i]`).
    #[must_use]
    pub fn paired(mut self, paired: bool) -> Self {
        self.paired = paired;
        self
    }

    /// The level and replicate count after applying the defaults, or the error that makes
    /// the options unusable.
    fn resolved(&self) -> Result<(f64, usize)> {
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

/// `δ = 1 − median(a) / median(b)`: the relative difference of the medians (positive: A
/// needs less time; 0.25 means A needs 25 % less time than B).
///
/// Even lengths use the mean of the two middle values. The inputs are not modified.
///
/// # Errors
///
/// * [`Error::TooFewSamples`] if either input is empty;
/// * [`Error::NonFinite`] if a value is NaN or infinite;
/// * [`Error::Undefined`] if the median of `b` is 0, or the ratio overflows.
///
/// ```
/// use rtcompare::stats::relative_difference;
/// assert_eq!(relative_difference(&[75.0, 80.0, 70.0], &[100.0, 90.0, 110.0])?, 0.25);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn relative_difference(a: &[f64], b: &[f64]) -> Result<f64> {
    check::sample("a", a, 1)?;
    check::sample("b", b, 1)?;
    let ma = median_in_place(&mut a.to_vec());
    let mb = median_in_place(&mut b.to_vec());
    if mb == 0.0 {
        return Err(Error::Undefined {
            what: "relative difference 1 − median(A)/median(B)",
            reason: "the median of B is 0; a median of zero time usually means the batch \
                     fitted inside one clock tick, so lengthen the batches"
                .into(),
        });
    }
    finite_delta(1.0 - ma / mb, ma, mb)
}

/// `δ = 1 − median_i(a[i] / b[i])`: the paired relative difference, from the ratios of
/// measurements taken together (positive: A needs less time).
///
/// # Errors
///
/// * [`Error::TooFewSamples`] if the inputs are empty;
/// * [`Error::NonFinite`] if a value is NaN or infinite;
/// * [`Error::LengthMismatch`] if the lengths differ;
/// * [`Error::Undefined`] if some `b[i]` is 0 (the error names `i`), or a ratio overflows.
///
/// ```
/// use rtcompare::stats::paired_relative_difference;
/// let d = paired_relative_difference(&[80.0, 90.0, 40.0], &[100.0, 100.0, 50.0])?;
/// assert_eq!(d, 1.0 - 0.8);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn paired_relative_difference(a: &[f64], b: &[f64]) -> Result<f64> {
    check::sample("a", a, 1)?;
    check::sample("b", b, 1)?;
    let mut ratios = paired_ratios(a, b)?;
    Ok(1.0 - median_in_place(&mut ratios))
}

/// The ratios `a[i] / b[i]` of checked, finite inputs.
fn paired_ratios(a: &[f64], b: &[f64]) -> Result<Vec<f64>> {
    if a.len() != b.len() {
        return Err(Error::LengthMismatch {
            a: a.len(),
            b: b.len(),
        });
    }
    let mut ratios = Vec::with_capacity(a.len());
    for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
        if y == 0.0 {
            return Err(Error::Undefined {
                what: "paired ratio A[i]/B[i]",
                reason: format!(
                    "b[{i}] is 0; a time of zero usually means the batch fitted inside one \
                     clock tick, so lengthen the batches"
                ),
            });
        }
        let r = x / y;
        if !r.is_finite() {
            return Err(Error::Undefined {
                what: "paired ratio A[i]/B[i]",
                reason: format!("a[{i}] / b[{i}] = {x:e} / {y:e} overflows"),
            });
        }
        ratios.push(r);
    }
    Ok(ratios)
}

/// `Ok(delta)` if it is finite, else the error that names the two medians.
fn finite_delta(delta: f64, ma: f64, mb: f64) -> Result<f64> {
    if delta.is_finite() {
        Ok(delta)
    } else {
        Err(Error::Undefined {
            what: "relative difference 1 − median(A)/median(B)",
            reason: format!("median(A) / median(B) = {ma:e} / {mb:e} is not a finite number"),
        })
    }
}

/// Converts "A is `times_faster` times as fast as B" into the relative-difference threshold
/// `1 − 1/times_faster` that [`confidences_for`] takes.
///
/// 2 → 0.5 (A needs half the time), 1 → 0, 1.25 → 0.2, and values below 1 give negative
/// thresholds (0.5 → −1: A may take up to twice as long).
///
/// # Errors
///
/// [`Error::OutOfRange`] if `times_faster` is not a positive finite number (0, negative, NaN
/// or infinite).
///
/// ```
/// use rtcompare::stats::speedup_to_threshold;
/// assert_eq!(speedup_to_threshold(2.0)?, 0.5);
/// assert_eq!(speedup_to_threshold(1.0)?, 0.0);
/// assert!(speedup_to_threshold(0.0).is_err());
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn speedup_to_threshold(times_faster: f64) -> Result<f64> {
    if times_faster > 0.0 && times_faster.is_finite() {
        Ok(1.0 - 1.0 / times_faster)
    } else {
        Err(Error::out_of_range(
            "times_faster",
            times_faster,
            "a positive finite speed-up factor (2 means twice as fast)",
        ))
    }
}

/// A relative difference with its percentile bootstrap interval: the answer to "how much
/// less time does A need than B, and how sure is that?".
///
/// All differences are fractions: `0.2` means A needs 20 % less time than B, `-0.1` that it
/// needs 10 % more. Serialises with serde; the `Display` form is one plain sentence.
///
/// The interval covers the sampling uncertainty of these samples only: not bias, drift, or
/// what another process with another memory layout would measure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Point estimate computed on the data (not on the replicates): `1 − median(A)/median(B)`
    /// unpaired, `1 − median_i(A[i]/B[i])` paired. Does not depend on the seed or the
    /// number of replicates.
    pub delta: f64,
    /// Lower end of the interval: the `(1 − level)/2` quantile of the replicate deltas
    /// (type-7 interpolation between neighbouring sorted replicates).
    pub low: f64,
    /// Upper end of the interval: the `(1 + level)/2` quantile of the replicate deltas.
    pub high: f64,
    /// Coverage level of `[low, high]`, for example 0.95.
    pub level: f64,
    /// Number of bootstrap replicates drawn.
    pub resamples: usize,
    /// Median of the replicate deltas; its distance from `delta` shows the resampling bias.
    pub bootstrap_median: f64,
    /// Block length asked for, after the default (0 is recorded as 1, single draws). Each
    /// input uses [`effective_block_length`] of it, at most half its length.
    pub block_length: usize,
    /// Whether whole pairs were resampled.
    pub paired: bool,
    /// The seed actually used (never 0 for a bootstrap estimate; 0 for one built by
    /// [`Estimate::from_interval`]): pass it back in [`EstimateOptions::seed`] to reproduce
    /// this estimate exactly.
    pub seed: u64,
}

/// The difference expressed as a ratio of times, `B / A`: 1.25 means B takes 1.25 times as
/// long as A. Symmetric where the relative difference is not: swapping A and B turns a ratio
/// `r` into `1/r`, whereas δ = +50 % would become −100 %.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    /// `1 / (1 − delta)`: median(B)/median(A) unpaired, `1 / median_i(A[i]/B[i])` paired.
    pub ratio: f64,
    /// `1 / (1 − low)`, the lower end of the interval.
    pub low: f64,
    /// `1 / (1 − high)`, the upper end of the interval.
    pub high: f64,
}

impl Estimate {
    /// An estimate from a point and an interval computed anywhere (another tool, a report
    /// from another machine), so that it can be pooled with
    /// [`combine`](crate::stats::combine). It records no bootstrap: `resamples` and `seed`
    /// are 0, `bootstrap_median` is `delta`, `block_length` 1, `paired` false.
    ///
    /// Errors: a non-finite value ([`Error::NonFinite`]); `low > delta` or `delta > high`
    /// ([`Error::InvalidOption`]); a level outside (0, 1) ([`Error::OutOfRange`]).
    ///
    /// ```
    /// use rtcompare::Estimate;
    /// let e = Estimate::from_interval(0.12, 0.10, 0.14, 0.95)?;
    /// assert_eq!(e.half_width(), 0.020000000000000004);
    /// assert!(Estimate::from_interval(0.12, 0.13, 0.14, 0.95).is_err());
    /// # Ok::<(), rtcompare::Error>(())
    /// ```
    pub fn from_interval(delta: f64, low: f64, high: f64, level: f64) -> Result<Estimate> {
        check::finite("estimate (delta, low, high)", &[delta, low, high])?;
        check::open_unit("level", level)?;
        if low > delta || delta > high {
            return Err(Error::invalid_option(
                "interval",
                format!(
                    "low <= delta <= high is required, got low {low}, delta {delta}, high {high}"
                ),
            ));
        }
        Ok(Estimate {
            delta,
            low,
            high,
            level,
            resamples: 0,
            bootstrap_median: delta,
            block_length: 1,
            paired: false,
            seed: 0,
        })
    }

    /// The estimate as a ratio of times B/A with its interval. Since `1/(1 − δ)` increases
    /// with δ (for δ < 1), `low ≤ ratio ≤ high` whenever `low ≤ delta ≤ high`. A delta of
    /// exactly 1 (A's median is 0) gives an infinite ratio.
    ///
    /// ```
    /// use rtcompare::stats::{estimate_difference, EstimateOptions};
    /// let a = [80.0; 11];
    /// let b = [100.0; 11];
    /// let r = estimate_difference(&a, &b, &EstimateOptions::default().seed(1))?.ratio();
    /// assert_eq!((r.ratio, r.low, r.high), (1.25, 1.25, 1.25));
    /// # Ok::<(), rtcompare::Error>(())
    /// ```
    pub fn ratio(&self) -> Ratio {
        Ratio {
            ratio: 1.0 / (1.0 - self.delta),
            low: 1.0 / (1.0 - self.low),
            high: 1.0 / (1.0 - self.high),
        }
    }

    /// `true` if the interval lies entirely on one side of `value`: `low > value` or
    /// `high < value`. `excludes(0.0)` means a difference is established at this level;
    /// `excludes(0.05)` with `low > 0.05` means A is more than 5 % faster. NaN gives `false`.
    pub fn excludes(&self, value: f64) -> bool {
        self.low > value || self.high < value
    }

    /// Half the interval's width, `(high − low) / 2`, as a fraction: the "±" of the estimate.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

impl fmt::Display for Estimate {
    /// One line, for example `A needs 20.0% less time than B (95% interval 18.1% to 21.5%
    /// less); B takes 1.25× as long as A [1.22, 1.27]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.delta > 0.0 {
            write!(f, "A needs {} less time than B", Pct(self.delta))?;
        } else if self.delta < 0.0 {
            write!(f, "A needs {} more time than B", Pct(self.delta))?;
        } else {
            write!(f, "A and B need the same time")?;
        }
        write!(f, " ({}% interval ", Level(self.level))?;
        if self.low >= 0.0 {
            write!(f, "{} to {} less", Pct(self.low), Pct(self.high))?;
        } else if self.high <= 0.0 {
            write!(f, "{} to {} more", Pct(self.high), Pct(self.low))?;
        } else {
            write!(f, "{} more to {} less", Pct(self.low), Pct(self.high))?;
        }
        let r = self.ratio();
        // Two decimals, more when the ratio is within 1 % of parity.
        let digits = if (r.ratio - 1.0).abs() < 0.01 { 4 } else { 2 };
        write!(
            f,
            "); B takes {:.*}× as long as A [{:.*}, {:.*}]",
            digits, r.ratio, digits, r.low, digits, r.high
        )
    }
}

/// Formats the magnitude of a fraction as a percentage: one decimal, two below 1 %.
struct Pct(f64);

impl fmt::Display for Pct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0.abs() * 100.0;
        if p < 1.0 {
            write!(f, "{p:.2}%")
        } else {
            write!(f, "{p:.1}%")
        }
    }
}

/// Formats a level as a percentage without trailing zeros (0.95 → 95, 0.999 → 99.9).
struct Level(f64);

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", (self.0 * 100.0 * 1e6).round() / 1e6)
    }
}

/// The confidence that A beats B by at least `threshold`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ThresholdConfidence {
    /// The relative difference asked about: 0.1 means "A needs at least 10 % less time",
    /// −0.05 "A needs at most 5 % more", 0 "A is at least as fast".
    pub threshold: f64,
    /// Share of the bootstrap replicates with `δ* ≥ threshold`, in [0, 1]. Replicates tied at
    /// exactly the threshold count for A (so at threshold 0 ties count as "A at least as
    /// fast").
    pub confidence: f64,
}

/// Confidences for several thresholds: one entry per distinct threshold, in ascending
/// threshold order. Dereferences to a slice of [`ThresholdConfidence`]; look a threshold up
/// with [`Confidences::at`].
///
/// The confidence never increases with the threshold, since every replicate that clears a
/// threshold also clears every smaller one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    try_from = "Vec<ThresholdConfidence>",
    into = "Vec<ThresholdConfidence>"
)]
pub struct Confidences(Vec<ThresholdConfidence>);

impl Confidences {
    /// The confidence for `threshold`, matching an entry whose threshold differs by at most a
    /// relative 1e-9 (`|t − threshold| ≤ 1e-9 · max(|t|, |threshold|)`), so that a computed
    /// threshold such as `speedup_to_threshold(1.1)` or `0.1 + 0.05` finds its entry. `None`
    /// when no entry matches (or for NaN).
    ///
    /// ```
    /// use rtcompare::stats::{confidences_for, EstimateOptions};
    /// let a = [100.0; 11];
    /// let b = [130.0; 11];
    /// let c = confidences_for(&a, &b, &[0.1, 0.2, 0.3], &EstimateOptions::default().seed(1))?;
    /// assert_eq!(c.at(0.1 + 0.1), Some(1.0));
    /// assert_eq!(c.at(0.3), Some(0.0));
    /// assert_eq!(c.at(0.25), None);
    /// # Ok::<(), rtcompare::Error>(())
    /// ```
    pub fn at(&self, threshold: f64) -> Option<f64> {
        self.0
            .iter()
            .find(|e| {
                // Infinities match only themselves (the tolerance would be infinite).
                e.threshold == threshold
                    || (threshold.is_finite()
                        && (e.threshold - threshold).abs()
                            <= 1e-9 * e.threshold.abs().max(threshold.abs()))
            })
            .map(|e| e.confidence)
    }

    /// The entries as a slice, in ascending threshold order.
    pub fn as_slice(&self) -> &[ThresholdConfidence] {
        &self.0
    }
}

impl std::ops::Deref for Confidences {
    type Target = [ThresholdConfidence];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<'a> IntoIterator for &'a Confidences {
    type Item = &'a ThresholdConfidence;
    type IntoIter = std::slice::Iter<'a, ThresholdConfidence>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl From<Confidences> for Vec<ThresholdConfidence> {
    fn from(c: Confidences) -> Self {
        c.0
    }
}

impl TryFrom<Vec<ThresholdConfidence>> for Confidences {
    type Error = Error;

    /// Accepts entries in strictly ascending threshold order, no NaN threshold, every
    /// confidence in [0, 1] (as [`confidences_for`] produces them); anything else is
    /// [`Error::InvalidOption`]. Used when deserialising.
    fn try_from(entries: Vec<ThresholdConfidence>) -> Result<Self> {
        for (i, e) in entries.iter().enumerate() {
            if e.threshold.is_nan() {
                return Err(Error::invalid_option(
                    "confidences",
                    format!("entry {i} has a NaN threshold"),
                ));
            }
            if !(0.0..=1.0).contains(&e.confidence) {
                return Err(Error::invalid_option(
                    "confidences",
                    format!("entry {i} has confidence {}, outside [0, 1]", e.confidence),
                ));
            }
            if i > 0 && entries[i - 1].threshold >= e.threshold {
                return Err(Error::invalid_option(
                    "confidences",
                    format!("thresholds must be strictly ascending, entry {i} is not"),
                ));
            }
        }
        Ok(Confidences(entries))
    }
}

/// The A/A-style confidence with ties split: `confidence = P*(δ* > 0) + ½·P*(δ* = 0)` and the
/// tie rate `P*(δ* = 0)`, over the replicates of one bootstrap.
///
/// Counting ties for A (as [`ThresholdConfidence`] does at threshold 0) would lift the
/// confidence of two identical candidates above ½ by half the tie rate; splitting them keeps
/// it centred on ½, which is what an A/A validation needs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TieSplit {
    /// `P*(δ* > 0) + ½·P*(δ* = 0)`, in [0, 1].
    pub confidence: f64,
    /// `P*(δ* = 0)`, the share of replicates in which both medians were exactly equal; high
    /// values mean the clock's resolution is coarse compared with the differences.
    pub tie_rate: f64,
}

/// The bootstrap distribution of the relative difference: the sorted replicate deltas of one
/// bootstrap, from which the interval, any confidence and the tie split can all be read.
///
/// Create it once with [`BootstrapDistribution::new`] when you need several answers from the
/// same replicates; the free functions ([`estimate_difference`], [`confidences_for`], …) are
/// shortcuts for one answer.
///
/// ```
/// use rtcompare::stats::{BootstrapDistribution, EstimateOptions};
/// let a: Vec<f64> = (0..21).map(|i| 100.0 + (i % 7) as f64).collect();
/// let b: Vec<f64> = (0..21).map(|i| 110.0 + (i % 5) as f64).collect();
/// let dist = BootstrapDistribution::new(&a, &b, &EstimateOptions::default().seed(3))?;
/// let est = dist.estimate();
/// let conf = dist.confidences(&[0.0, 0.05])?;
/// assert!(est.delta > 0.0 && conf.at(0.0).unwrap() > 0.9);
/// assert_eq!(dist.sorted_replicates().len(), est.resamples);
/// # Ok::<(), rtcompare::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BootstrapDistribution {
    estimate: Estimate,
    sorted: Vec<f64>,
}

impl BootstrapDistribution {
    /// Draws the replicates for `a` against `b` under `opts` and sorts them once.
    ///
    /// # Errors
    ///
    /// * [`Error::TooFewSamples`] if either input has fewer than
    ///   [`MINIMUM_DATA_POINTS`] (11) values;
    /// * [`Error::NonFinite`] if a value is NaN or infinite;
    /// * [`Error::LengthMismatch`] if paired and the lengths differ;
    /// * [`Error::OutOfRange`] if the level is outside (0, 1) (0 means 0.95);
    /// * [`Error::InvalidOption`] if more than [`MAX_RESAMPLES`] replicates are requested;
    /// * [`Error::Undefined`] if the statistic is undefined: the median of `b` is 0, a paired
    ///   `b[i]` is 0, or a replicate's median of B is 0 or its ratio overflows (the error
    ///   names the replicate).
    pub fn new(a: &[f64], b: &[f64], opts: &EstimateOptions) -> Result<Self> {
        let run = Run::draw(a, b, opts)?;
        let mut sorted = run.replicates;
        sorted.sort_unstable_by(cmp_f64);
        let r = sorted.len();
        let tail = (1.0 - run.level) / 2.0;
        let low = quantile_sorted(&sorted, tail);
        let high = quantile_sorted(&sorted, 1.0 - tail);
        let bootstrap_median = if r % 2 == 1 {
            sorted[r / 2]
        } else {
            midpoint(sorted[r / 2 - 1], sorted[r / 2])
        };
        if !(low.is_finite() && high.is_finite() && bootstrap_median.is_finite()) {
            return Err(Error::Undefined {
                what: "bootstrap interval",
                reason: format!(
                    "the replicate deltas span {:e} to {:e}, too wide to interpolate",
                    sorted[0],
                    sorted[r - 1]
                ),
            });
        }
        Ok(BootstrapDistribution {
            estimate: Estimate {
                delta: run.delta,
                low,
                high,
                level: run.level,
                resamples: r,
                bootstrap_median,
                block_length: run.block_length,
                paired: opts.paired,
                seed: run.seed,
            },
            sorted,
        })
    }

    /// The point estimate with its percentile interval.
    pub fn estimate(&self) -> Estimate {
        self.estimate
    }

    /// The share of replicates with `δ* ≥ threshold` (ties at the threshold count for A). In
    /// [0, 1]; −∞ gives 1 and +∞ gives 0. NaN gives 0 (use [`confidences`](Self::confidences)
    /// for a checked version).
    pub fn confidence_at(&self, threshold: f64) -> f64 {
        let below = self.sorted.partition_point(|&d| d < threshold);
        let meets = if threshold.is_nan() {
            0
        } else {
            self.sorted.len() - below
        };
        meets as f64 / self.sorted.len() as f64
    }

    /// The confidence for each distinct threshold, ascending; an empty list asks about 0.
    /// Thresholds may be negative (a tolerated slowdown) or infinite.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidOption`] naming the index of the first NaN threshold.
    pub fn confidences(&self, thresholds: &[f64]) -> Result<Confidences> {
        let ts = normalized_thresholds(thresholds)?;
        Ok(Confidences(
            ts.into_iter()
                .map(|threshold| ThresholdConfidence {
                    threshold,
                    confidence: self.confidence_at(threshold),
                })
                .collect(),
        ))
    }

    /// The tie-split confidence `P*(δ* > 0) + ½·P*(δ* = 0)` and the tie rate.
    pub fn tie_split(&self) -> TieSplit {
        let r = self.sorted.len();
        let negative = self.sorted.partition_point(|&d| d < 0.0);
        let not_positive = self.sorted.partition_point(|&d| d <= 0.0);
        let ties = not_positive - negative;
        let wins = r - not_positive;
        TieSplit {
            confidence: (2 * wins + ties) as f64 / (2 * r) as f64,
            tie_rate: ties as f64 / r as f64,
        }
    }

    /// The replicate deltas in ascending order (for the order in which they were drawn, use
    /// [`bootstrap_replicates`]).
    pub fn sorted_replicates(&self) -> &[f64] {
        &self.sorted
    }
}

/// Checks, copies, sorts and deduplicates a threshold list; empty means `[0.0]`.
fn normalized_thresholds(thresholds: &[f64]) -> Result<Vec<f64>> {
    if let Some(i) = thresholds.iter().position(|t| t.is_nan()) {
        return Err(Error::invalid_option(
            "thresholds",
            format!(
                "threshold {i} is NaN; a threshold is a relative difference such as 0.05 \
                 (infinities are accepted)"
            ),
        ));
    }
    if thresholds.is_empty() {
        return Ok(vec![0.0]);
    }
    // `+ 0.0` turns −0.0 into +0.0, so that both collapse into one entry.
    let mut ts: Vec<f64> = thresholds.iter().map(|t| t + 0.0).collect();
    ts.sort_unstable_by(cmp_f64);
    ts.dedup();
    Ok(ts)
}

/// The replicates of one bootstrap in the order they were drawn, with what produced them.
struct Run {
    delta: f64,
    replicates: Vec<f64>,
    level: f64,
    block_length: usize,
    seed: u64,
}

impl Run {
    /// Validates everything, then draws all replicates with one generator. Scratch buffers are
    /// allocated here, once; the loop itself does not allocate.
    fn draw(a: &[f64], b: &[f64], opts: &EstimateOptions) -> Result<Run> {
        check::sample("a", a, MINIMUM_DATA_POINTS)?;
        check::sample("b", b, MINIMUM_DATA_POINTS)?;
        if opts.paired && a.len() != b.len() {
            return Err(Error::LengthMismatch {
                a: a.len(),
                b: b.len(),
            });
        }
        let (level, resamples) = opts.resolved()?;
        let block_length = opts.block_length.max(1);
        let mut rng = Rng::new(opts.seed);
        let mut replicates = Vec::with_capacity(resamples);

        let delta = if opts.paired {
            let ratios = paired_ratios(a, b)?;
            let l = effective_block_length(block_length, ratios.len());
            let mut medians = CountingMedian::new(&ratios);
            let delta = 1.0 - medians.median_of_all();
            for _ in 0..resamples {
                // A median of finite ratios is finite, and so is 1 minus it.
                replicates.push(1.0 - medians.median_of_replicate(&mut rng, l));
            }
            delta
        } else {
            let delta = relative_difference(a, b)?;
            let la = effective_block_length(block_length, a.len());
            let lb = effective_block_length(block_length, b.len());
            let mut med_a = CountingMedian::new(a);
            let mut med_b = CountingMedian::new(b);
            for r in 0..resamples {
                let ma = med_a.median_of_replicate(&mut rng, la);
                let mb = med_b.median_of_replicate(&mut rng, lb);
                let d = 1.0 - ma / mb;
                if !d.is_finite() {
                    return Err(Error::Undefined {
                        what: "bootstrap replicate of 1 − median(A)/median(B)",
                        reason: format!(
                            "in replicate {r} (seed {}) the resampled medians are A = {ma:e} \
                             and B = {mb:e}, whose ratio is not a finite number; B holds too \
                             many zeros (or the values span too many orders of magnitude)",
                            rng.seed()
                        ),
                    });
                }
                replicates.push(d);
            }
            delta
        };
        Ok(Run {
            delta,
            replicates,
            level,
            block_length,
            seed: rng.seed(),
        })
    }
}

/// Medians of bootstrap replicates of one fixed source, found by counting instead of by
/// moving values around.
///
/// A replicate holds only values of the source, so its median is determined by how often
/// each source value was drawn. The source is sorted **once**, each position remembers the
/// rank of its value, and a replicate just counts draws per rank; the median is where the
/// running count crosses the middle. The draws are exactly those of
/// [`resample_into`](crate::stats::resample_into) (one `below(n)` per value, or one
/// `below(n − ℓ + 1)` per block), and the median is the same order statistic that selection
/// on the resampled values would return, so the result is bit-identical to copying the
/// replicate and calling `median_in_place` on it (a test checks this), at less than half the
/// cost: a selection over 101 values mispredicts a branch on most comparisons, while counting
/// touches each drawn rank once. Nothing is allocated after [`CountingMedian::new`].
struct CountingMedian {
    /// The source values in ascending order.
    sorted: Vec<f64>,
    /// `rank[i]` = position of `src[i]` in `sorted` (ties broken by position).
    rank: Vec<usize>,
    /// Draws per rank in the current replicate.
    counts: Vec<usize>,
}

impl CountingMedian {
    /// Prepares for replicates of the non-empty, finite `src` (the only allocations).
    fn new(src: &[f64]) -> Self {
        let n = src.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&i, &j| cmp_f64(&src[i], &src[j]).then(i.cmp(&j)));
        let mut rank = vec![0; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        CountingMedian {
            sorted: order.iter().map(|&i| src[i]).collect(),
            rank,
            counts: vec![0; n],
        }
    }

    /// The median of the source itself (mean of the two middle values for even length).
    fn median_of_all(&self) -> f64 {
        let n = self.sorted.len();
        if n % 2 == 1 {
            self.sorted[n / 2]
        } else {
            midpoint(self.sorted[n / 2 - 1], self.sorted[n / 2])
        }
    }

    /// Draws one replicate of the source's length with blocks of the clamped length `l` and
    /// returns its median.
    #[inline]
    fn median_of_replicate(&mut self, rng: &mut Rng, l: usize) -> f64 {
        let CountingMedian {
            sorted,
            rank,
            counts,
        } = self;
        let n = rank.len();
        counts.fill(0);
        if l <= 1 {
            for _ in 0..n {
                counts[rank[rng.index(n)]] += 1;
            }
        } else {
            for_each_block(rng, n, l, n, |_, start, len| {
                for &r in &rank[start..start + len] {
                    counts[r] += 1;
                }
            });
        }
        // 0-based order statistics: the middle one for odd n, the two middle ones for even n.
        let upper = n / 2;
        let lower = if n % 2 == 1 { upper } else { upper - 1 };
        let mut seen = 0;
        let mut at = 0;
        while seen + counts[at] <= lower {
            seen += counts[at];
            at += 1;
        }
        let low_value = sorted[at];
        if lower == upper {
            return low_value;
        }
        while seen + counts[at] <= upper {
            seen += counts[at];
            at += 1;
        }
        midpoint(low_value, sorted[at])
    }
}

/// The relative difference of `a` against `b` with its percentile bootstrap interval.
///
/// Unpaired (the default), `a` and `b` are resampled independently, each with its own block
/// clamp; paired, whole pairs are resampled and each replicate takes the median of the
/// resampled ratios `a[i]/b[i]`. See [`BootstrapDistribution::new`] for the errors.
///
/// ```
/// use rtcompare::stats::{estimate_difference, EstimateOptions};
/// let a: Vec<f64> = (0..31).map(|i| 80.0 + (i * 7 % 11) as f64).collect();
/// let b: Vec<f64> = (0..31).map(|i| 100.0 + (i * 5 % 13) as f64).collect();
/// let est = estimate_difference(&a, &b, &EstimateOptions::default().seed(11))?;
/// assert!(est.low <= est.high && est.excludes(0.0));
/// println!("{est}");
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn estimate_difference(a: &[f64], b: &[f64], opts: &EstimateOptions) -> Result<Estimate> {
    Ok(BootstrapDistribution::new(a, b, opts)?.estimate())
}

/// The confidence that A beats B by at least each threshold: the share of replicates with
/// `δ* ≥ t`, from the very replicates [`estimate_difference`] reads its interval from under
/// the same options (the level is not used). An empty threshold list asks about 0.
///
/// # Errors
///
/// Those of [`BootstrapDistribution::new`], and [`Error::InvalidOption`] naming the index of
/// a NaN threshold (checked first).
pub fn confidences_for(
    a: &[f64],
    b: &[f64],
    thresholds: &[f64],
    opts: &EstimateOptions,
) -> Result<Confidences> {
    Ok(estimate_with_confidences(a, b, thresholds, opts)?.1)
}

/// The estimate and the confidences from one set of replicates (one bootstrap instead of
/// two). Errors as for [`confidences_for`].
pub fn estimate_with_confidences(
    a: &[f64],
    b: &[f64],
    thresholds: &[f64],
    opts: &EstimateOptions,
) -> Result<(Estimate, Confidences)> {
    normalized_thresholds(thresholds)?;
    let dist = BootstrapDistribution::new(a, b, opts)?;
    Ok((dist.estimate(), dist.confidences(thresholds)?))
}

/// The tie-split confidence `P*(δ* > 0) + ½·P*(δ* = 0)` and the tie rate, as an A/A
/// validation run needs them. Errors as for [`BootstrapDistribution::new`].
pub fn tie_split_confidence(a: &[f64], b: &[f64], opts: &EstimateOptions) -> Result<TieSplit> {
    Ok(BootstrapDistribution::new(a, b, opts)?.tie_split())
}

/// The estimate and the tie split from one set of replicates, so that a validation run pays
/// for one bootstrap. Errors as for [`BootstrapDistribution::new`].
pub fn estimate_with_ties(
    a: &[f64],
    b: &[f64],
    opts: &EstimateOptions,
) -> Result<(Estimate, TieSplit)> {
    let dist = BootstrapDistribution::new(a, b, opts)?;
    Ok((dist.estimate(), dist.tie_split()))
}

/// The raw replicate deltas `δ*` in the order they were drawn, for analyses of your own (the
/// same replicates the other functions read, before sorting). Errors as for
/// [`BootstrapDistribution::new`].
///
/// ```
/// use rtcompare::stats::{bootstrap_replicates, EstimateOptions};
/// let a: Vec<f64> = (0..11).map(|i| 100.0 + i as f64).collect();
/// let b: Vec<f64> = (0..11).map(|i| 120.0 + i as f64).collect();
/// let reps = bootstrap_replicates(&a, &b, &EstimateOptions::default().resamples(1000).seed(5))?;
/// assert_eq!(reps.len(), 1000);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn bootstrap_replicates(a: &[f64], b: &[f64], opts: &EstimateOptions) -> Result<Vec<f64>> {
    Ok(Run::draw(a, b, opts)?.replicates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::resample::{moving_block_indices, paired_resample_into, resample_into};

    const A: [f64; 11] = [
        100.0, 102.0, 99.0, 101.0, 100.0, 103.0, 98.0, 100.0, 101.0, 99.0, 102.0,
    ];
    const B: [f64; 11] = [
        125.0, 128.0, 124.0, 126.0, 125.0, 129.0, 122.0, 125.0, 127.0, 124.0, 127.0,
    ];

    fn opts(seed: u64) -> EstimateOptions {
        EstimateOptions::default().seed(seed)
    }

    /// Reference C.16 / E.3: the data force these values for any correct generator.
    #[test]
    fn reference_example_known_answers() {
        let est = estimate_difference(&A, &B, &opts(1).paired(true)).unwrap();
        assert_eq!(est.delta, 0.19999999999999996);
        assert_eq!(est.ratio().ratio, 1.25);
        assert!(est.excludes(0.0));
        assert_eq!(est.seed, 1);
        assert_eq!(est.resamples, 5000);
        assert_eq!(est.level, 0.95);
        assert_eq!(est.block_length, 1);
        assert!(est.paired);
        // The unpaired δ is 0.2 too: medians 100 and 125.
        assert_eq!(relative_difference(&A, &B).unwrap(), 1.0 - 100.0 / 125.0);
        let text = est.to_string();
        assert!(
            text.starts_with("A needs 20.0% less time than B (95% interval "),
            "{text}"
        );
        assert!(text.contains("; B takes 1.25× as long as A ["), "{text}");
    }

    #[test]
    fn constant_inputs_give_exact_confidences() {
        // E.3: A = 11×100, B = 11×130: δ ≡ 0.2308, so {0.1,0.2,0.3,0.4} → {1,1,0,0}.
        let c = confidences_for(
            &[100.0; 11],
            &[130.0; 11],
            &[0.4, 0.1, 0.3, 0.2, 0.1],
            &opts(3),
        )
        .unwrap();
        let got: Vec<(f64, f64)> = c.iter().map(|e| (e.threshold, e.confidence)).collect();
        assert_eq!(got, vec![(0.1, 1.0), (0.2, 1.0), (0.3, 0.0), (0.4, 0.0)]);
        // Floating-point boundary: 1 − 100/250 ≥ 0.6 is true in IEEE doubles.
        let c =
            confidences_for(&[100.0; 11], &[250.0; 11], &[0.5, 0.6, 0.66667], &opts(42)).unwrap();
        assert_eq!(
            c.iter().map(|e| e.confidence).collect::<Vec<_>>(),
            vec![1.0, 1.0, 0.0]
        );
        // A slower by 3 %: thresholds {−0.05, 0, 0.01} → {1, 0, 0}.
        let c =
            confidences_for(&[103.0; 11], &[100.0; 11], &[-0.05, 0.0, 0.01], &opts(42)).unwrap();
        assert_eq!(
            c.iter().map(|e| e.confidence).collect::<Vec<_>>(),
            vec![1.0, 0.0, 0.0]
        );
        // Empty thresholds ask about 0.
        let c = confidences_for(&[100.0; 11], &[120.0; 11], &[], &opts(1)).unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].threshold, 0.0);
    }

    #[test]
    fn identical_inputs_tie_at_zero() {
        // Constant and equal: every replicate is a tie.
        let c = confidences_for(&[5.0; 11], &[5.0; 11], &[-0.01, 0.0, 0.1], &opts(7)).unwrap();
        assert_eq!(
            c.iter().map(|e| e.confidence).collect::<Vec<_>>(),
            vec![1.0, 1.0, 0.0]
        );
        let t = tie_split_confidence(&[5.0; 11], &[5.0; 11], &opts(7)).unwrap();
        assert_eq!(
            t,
            TieSplit {
                confidence: 0.5,
                tie_rate: 1.0
            }
        );
        // Varied but identical pairs: every paired ratio is 1.
        let c = confidences_for(&A, &A, &[0.0, 0.1], &opts(7).paired(true)).unwrap();
        assert_eq!(c.at(0.0), Some(1.0));
        assert_eq!(c.at(0.1), Some(0.0));
    }

    #[test]
    fn infinite_thresholds_give_zero_and_one() {
        let c = confidences_for(
            &A,
            &B,
            &[f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0],
            &opts(1),
        )
        .unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(c.at(f64::NEG_INFINITY), Some(1.0));
        assert_eq!(c.at(f64::INFINITY), Some(0.0));
        assert_eq!(c.at(0.0), Some(1.0));
    }

    #[test]
    fn nan_threshold_is_an_error_naming_its_index() {
        let err = confidences_for(&A, &B, &[0.1, f64::NAN], &opts(1)).unwrap_err();
        match err {
            Error::InvalidOption { name, reason } => {
                assert_eq!(name, "thresholds");
                assert!(reason.contains("threshold 1 is NaN"), "{reason}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn at_matches_within_relative_1e9() {
        let c = confidences_for(
            &A,
            &B,
            &[speedup_to_threshold(1.1).unwrap(), 0.15],
            &opts(1),
        )
        .unwrap();
        assert!(c.at(1.0 - 1.0 / 1.1).is_some());
        assert!(c.at(0.1 + 0.05).is_some());
        assert!(c.at(0.15 * (1.0 + 2e-9)).is_none());
        assert!(c.at(f64::NAN).is_none());
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let short = [1.0; 10];
        assert!(matches!(
            estimate_difference(&short, &B, &opts(1)),
            Err(Error::TooFewSamples {
                what: "a",
                needed: 11,
                got: 10
            })
        ));
        assert!(matches!(
            estimate_difference(&A, &[], &opts(1)),
            Err(Error::TooFewSamples { what: "b", .. })
        ));
        let mut nan = A;
        nan[4] = f64::NAN;
        assert!(matches!(
            estimate_difference(&nan, &B, &opts(1)),
            Err(Error::NonFinite { index: 4, .. })
        ));
        let mut inf = B;
        inf[2] = f64::INFINITY;
        assert!(matches!(
            estimate_difference(&A, &inf, &opts(1)),
            Err(Error::NonFinite { what: "b", .. })
        ));
        let b12 = [1.0; 12];
        assert!(matches!(
            estimate_difference(&A, &b12, &opts(1).paired(true)),
            Err(Error::LengthMismatch { a: 11, b: 12 })
        ));
        for level in [1.0, -0.5, 1.5, f64::NAN] {
            assert!(matches!(
                estimate_difference(&A, &B, &opts(1).level(level)),
                Err(Error::OutOfRange { name: "level", .. })
            ));
        }
        assert!(matches!(
            estimate_difference(&A, &B, &opts(1).resamples(MAX_RESAMPLES + 1)),
            Err(Error::InvalidOption {
                name: "resamples",
                ..
            })
        ));
        // Zero medians and zero paired denominators.
        assert!(matches!(
            estimate_difference(&A, &[0.0; 11], &opts(1)),
            Err(Error::Undefined { .. })
        ));
        let mut b0 = B;
        b0[3] = 0.0;
        let err = estimate_difference(&A, &b0, &opts(1).paired(true)).unwrap_err();
        assert!(matches!(&err, Error::Undefined { reason, .. } if reason.contains("b[3]")));
        // Unpaired, B's median is not 0 but some replicates' are.
        let mut b_zeros = [0.0; 11];
        b_zeros[..6].fill(1.0);
        assert!(relative_difference(&A, &b_zeros).is_ok());
        assert!(matches!(
            estimate_difference(&A, &b_zeros, &opts(1)),
            Err(Error::Undefined { .. })
        ));
        // The point estimates need only one value each.
        assert!(relative_difference(&[], &[1.0]).is_err());
        assert!(paired_relative_difference(&[1.0], &[1.0, 2.0]).is_err());
        assert!(paired_relative_difference(&[1e300], &[1e-300]).is_err());
    }

    #[test]
    fn zero_level_and_resamples_mean_the_defaults() {
        let e0 = estimate_difference(&A, &B, &opts(9).level(0.0).resamples(0)).unwrap();
        let e1 = estimate_difference(&A, &B, &opts(9).level(0.95).resamples(5000)).unwrap();
        assert_eq!(e0, e1);
    }

    #[test]
    fn speedup_to_threshold_values() {
        assert_eq!(speedup_to_threshold(1.0).unwrap(), 0.0);
        assert_eq!(speedup_to_threshold(2.0).unwrap(), 0.5);
        assert_eq!(speedup_to_threshold(4.0).unwrap(), 0.75);
        assert_eq!(speedup_to_threshold(0.5).unwrap(), -1.0);
        assert!((speedup_to_threshold(3.0).unwrap() - 2.0 / 3.0).abs() < 1e-15);
        assert!((speedup_to_threshold(1e10).unwrap() - (1.0 - 1e-10)).abs() < 1e-15);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(speedup_to_threshold(bad).is_err(), "{bad}");
        }
    }

    /// Recomputes the replicates by hand with the public resampling functions: documents the
    /// stream layout (one generator; per replicate A's resample, then B's).
    #[test]
    fn replicate_stream_layout_is_as_documented() {
        let a: Vec<f64> = (0..13).map(|i| 50.0 + (i * 7 % 13) as f64).collect();
        let b: Vec<f64> = (0..17).map(|i| 60.0 + (i * 5 % 17) as f64).collect();
        for l in [0usize, 1, 3] {
            let o = opts(21).resamples(300).block_length(l);
            let reps = bootstrap_replicates(&a, &b, &o).unwrap();
            let mut rng = Rng::new(21);
            let (mut sa, mut sb) = (vec![0.0; 13], vec![0.0; 17]);
            for want in &reps {
                resample_into(&mut rng, &a, l, &mut sa).unwrap();
                resample_into(&mut rng, &b, l, &mut sb).unwrap();
                let d = 1.0 - median_in_place(&mut sa) / median_in_place(&mut sb);
                assert_eq!(d.to_bits(), want.to_bits());
            }
            // Paired: one index vector per replicate, the median of the resampled ratios.
            let b13 = &b[..13];
            let reps = bootstrap_replicates(&a, b13, &o.paired(true)).unwrap();
            let mut rng = Rng::new(21);
            let (mut pa, mut pb) = (vec![0.0; 13], vec![0.0; 13]);
            let mut idx = vec![0; 13];
            let mut rng2 = Rng::new(21);
            for want in &reps {
                paired_resample_into(&mut rng, &a, b13, l, &mut pa, &mut pb).unwrap();
                moving_block_indices(&mut rng2, 13, l, &mut idx).unwrap();
                let mut ratios: Vec<f64> = idx.iter().map(|&i| a[i] / b13[i]).collect();
                assert_eq!(
                    (1.0 - median_in_place(&mut ratios)).to_bits(),
                    want.to_bits()
                );
                let mut ratios2: Vec<f64> = pa.iter().zip(&pb).map(|(x, y)| x / y).collect();
                assert_eq!(
                    (1.0 - median_in_place(&mut ratios2)).to_bits(),
                    want.to_bits()
                );
            }
        }
    }

    /// The counting median equals selection on the copied replicate, bit for bit, for odd and
    /// even lengths, ties, negative values, single draws and blocks.
    #[test]
    fn counting_median_equals_selection() {
        let mut gen_rng = Rng::new(31);
        for n in 1..=40usize {
            for case in 0..6 {
                let src: Vec<f64> = (0..n)
                    .map(|_| match case {
                        0 => gen_rng.next_normal(),
                        1 => gen_rng.below(4) as f64, // heavy ties
                        2 => -1e6 * gen_rng.next_f64(),
                        _ => (gen_rng.next_normal() * 3.0).exp(),
                    })
                    .collect();
                for l in [1usize, 2, 3, 7] {
                    let l = effective_block_length(l, n);
                    let mut counting = CountingMedian::new(&src);
                    let mut r1 = Rng::new(n as u64 * 100 + case);
                    let mut r2 = r1.clone();
                    let mut scratch = vec![0.0; n];
                    for _ in 0..30 {
                        let got = counting.median_of_replicate(&mut r1, l);
                        resample_into(&mut r2, &src, l, &mut scratch).unwrap();
                        let want = median_in_place(&mut scratch);
                        assert_eq!(got.to_bits(), want.to_bits(), "n {n} case {case} l {l}");
                    }
                    assert_eq!(r1, r2);
                    let want_all = median_in_place(&mut src.clone());
                    assert_eq!(counting.median_of_all().to_bits(), want_all.to_bits());
                }
            }
        }
    }

    /// Regression (a) of the reference's history: each replicate used to re-create the
    /// generator from the same seed, so all replicates were identical and confidences were
    /// 0 or 1. Successive replicates must differ on non-degenerate data.
    #[test]
    fn successive_replicates_differ() {
        for paired in [false, true] {
            let reps =
                bootstrap_replicates(&A, &B, &opts(1).resamples(1000).paired(paired)).unwrap();
            let changes = reps.windows(2).filter(|w| w[0] != w[1]).count();
            assert!(changes > 500, "paired = {paired}: only {changes} changes");
            let mut distinct = reps.clone();
            distinct.sort_unstable_by(cmp_f64);
            distinct.dedup();
            assert!(distinct.len() >= 5, "paired = {paired}: {distinct:?}");
        }
        // Hence the confidence at threshold 0.2 is strictly between 0 and 1.
        let c = confidences_for(&A, &B, &[0.2], &opts(1).paired(true)).unwrap();
        assert!(c[0].confidence > 0.0 && c[0].confidence < 1.0, "{c:?}");
    }

    #[test]
    fn seeds_reproduce_and_differ() {
        let e1 = estimate_difference(&A, &B, &opts(5)).unwrap();
        let e2 = estimate_difference(&A, &B, &opts(5)).unwrap();
        assert_eq!(e1, e2);
        let r5 = bootstrap_replicates(&A, &B, &opts(5)).unwrap();
        let r6 = bootstrap_replicates(&A, &B, &opts(6)).unwrap();
        assert_ne!(r5, r6);
        // Seed 0 draws a seed, records it, and the recorded seed reproduces the estimate.
        let drawn = estimate_difference(&A, &B, &opts(0)).unwrap();
        assert_ne!(drawn.seed, 0);
        let again = estimate_difference(&A, &B, &opts(drawn.seed)).unwrap();
        assert_eq!(drawn, again);
        // E.2 (d): two drawn seeds give different replicates.
        let x = bootstrap_replicates(&A, &B, &opts(0)).unwrap();
        let y = bootstrap_replicates(&A, &B, &opts(0)).unwrap();
        assert_ne!(x, y);
    }

    #[test]
    fn one_bootstrap_gives_consistent_answers() {
        let o = opts(8).resamples(2000);
        let (est, conf) = estimate_with_confidences(&A, &B, &[0.19, 0.2, 0.21], &o).unwrap();
        assert_eq!(est, estimate_difference(&A, &B, &o).unwrap());
        assert_eq!(
            conf,
            confidences_for(&A, &B, &[0.21, 0.2, 0.19], &o.level(0.5)).unwrap()
        );
        let (est2, ties) = estimate_with_ties(&A, &B, &o).unwrap();
        assert_eq!(est, est2);
        assert_eq!(ties, tie_split_confidence(&A, &B, &o).unwrap());
        // Against the raw replicates.
        let reps = bootstrap_replicates(&A, &B, &o).unwrap();
        let share = |p: &dyn Fn(f64) -> bool| reps.iter().filter(|&&d| p(d)).count() as f64;
        assert_eq!(conf.at(0.2).unwrap(), share(&|d| d >= 0.2) / 2000.0);
        let gt = share(&|d| d > 0.0);
        let eq = share(&|d| d == 0.0);
        assert_eq!(ties.tie_rate, eq / 2000.0);
        assert_eq!(ties.confidence, (gt + eq / 2.0) / 2000.0);
        let mut sorted = reps.clone();
        sorted.sort_unstable_by(cmp_f64);
        let tail = (1.0 - 0.95) / 2.0;
        assert_eq!(est.low, quantile_sorted(&sorted, tail));
        assert_eq!(est.high, quantile_sorted(&sorted, 1.0 - tail));
        assert_eq!(est.bootstrap_median, midpoint(sorted[999], sorted[1000]));
    }

    #[test]
    fn tie_split_counts_half_the_ties() {
        // Values on a coarse grid make many replicate medians equal.
        let a: Vec<f64> = (0..15).map(|i| 100.0 + (i % 3) as f64).collect();
        let b: Vec<f64> = (0..15).map(|i| 100.0 + ((i + 1) % 3) as f64).collect();
        let o = opts(4).resamples(4000);
        let t = tie_split_confidence(&a, &b, &o).unwrap();
        assert!(t.tie_rate > 0.2, "{t:?}");
        let c0 = confidences_for(&a, &b, &[0.0], &o).unwrap()[0].confidence;
        assert!((c0 - t.tie_rate / 2.0 - t.confidence).abs() < 1e-12);
    }

    #[test]
    fn display_wording() {
        let mut e = Estimate {
            delta: 0.2,
            low: 0.181,
            high: 0.215,
            level: 0.95,
            resamples: 5000,
            bootstrap_median: 0.2,
            block_length: 1,
            paired: true,
            seed: 1,
        };
        assert_eq!(
            e.to_string(),
            "A needs 20.0% less time than B (95% interval 18.1% to 21.5% less); \
             B takes 1.25× as long as A [1.22, 1.27]"
        );
        e.delta = -0.25;
        e.low = -0.3;
        e.high = -0.2;
        e.level = 0.9;
        assert_eq!(
            e.to_string(),
            "A needs 25.0% more time than B (90% interval 20.0% to 30.0% more); \
             B takes 0.80× as long as A [0.77, 0.83]"
        );
        e.delta = 0.004;
        e.low = -0.01;
        e.high = 0.02;
        e.level = 0.999;
        assert_eq!(
            e.to_string(),
            "A needs 0.40% less time than B (99.9% interval 1.0% more to 2.0% less); \
             B takes 1.0040× as long as A [0.9901, 1.0204]"
        );
        e.delta = 0.0;
        assert!(e.to_string().starts_with("A and B need the same time"));
    }

    #[test]
    fn estimate_methods() {
        let e = Estimate {
            delta: 0.1,
            low: 0.05,
            high: 0.15,
            level: 0.95,
            resamples: 10,
            bootstrap_median: 0.1,
            block_length: 1,
            paired: false,
            seed: 1,
        };
        assert!(e.excludes(0.0));
        assert!(e.excludes(0.2));
        assert!(!e.excludes(0.05));
        assert!(!e.excludes(0.1));
        assert!(!e.excludes(f64::NAN));
        assert!((e.half_width() - 0.05).abs() < 1e-15);
        let r = e.ratio();
        assert!(r.low < r.ratio && r.ratio < r.high);
    }

    #[test]
    fn confidences_serde_round_trip_and_validation() {
        let c = confidences_for(&A, &B, &[0.1, 0.2], &opts(1)).unwrap();
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.starts_with("[{\"threshold\":0.1,\"confidence\":"));
        let back: Confidences = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
        let bad = r#"[{"threshold":0.2,"confidence":1.0},{"threshold":0.1,"confidence":1.0}]"#;
        assert!(serde_json::from_str::<Confidences>(bad).is_err());
        let bad = r#"[{"threshold":0.2,"confidence":1.5}]"#;
        assert!(serde_json::from_str::<Confidences>(bad).is_err());
        let est = estimate_difference(&A, &B, &opts(1)).unwrap();
        let back: Estimate = serde_json::from_str(&serde_json::to_string(&est).unwrap()).unwrap();
        assert_eq!(back, est);
    }
}
