//! The answers a bootstrap gives: the [`Estimate`] of the relative difference with its
//! interval, its [`Ratio`] form and one-sentence `Display`, the [`Confidences`] for
//! thresholds, and the A/A [`TieSplit`].

use crate::display::{Level, Pct, SignedPct};
use crate::error::{Error, Result};
use crate::stats::check;
use serde::{Deserialize, Serialize};
use std::fmt;

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
/// use rtcompare::support::stats::speedup_to_threshold;
/// assert_eq!(speedup_to_threshold(2.0)?, 0.5);
/// assert_eq!(speedup_to_threshold(1.0)?, 0.0);
/// assert!(speedup_to_threshold(0.0).is_err());
/// # Ok::<(), rtcompare::Error>(())
/// ```
///
/// [`confidences_for`]: crate::stats::confidences_for
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
    /// input uses `effective_block_length` of it, at most half its length.
    ///
    /// `effective_block_length`: crate::stats::effective_block_length
    pub block_length: usize,
    /// Whether whole pairs were resampled.
    pub paired: bool,
    /// The seed actually used (never 0 for a bootstrap estimate; 0 for one built by
    /// [`Estimate::from_interval`]): pass it back in [`EstimateOptions::seed`] to reproduce
    /// this estimate exactly.
    ///
    /// [`EstimateOptions::seed`]: crate::stats::EstimateOptions::seed
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

    /// A's time over B's, `1 − δ`, with its interval's ends in ascending order
    /// `(ratio, low, high)`: the ratio the texts print ([`Ratio`] keeps B/A).
    pub(crate) fn a_over_b(&self) -> (f64, f64, f64) {
        (1.0 - self.delta, 1.0 - self.high, 1.0 - self.low)
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
    /// One line in the one direction (A's time against B's, + = slower), for example
    /// `A 20.0 % faster than B [−21.5 %, −18.1 %] (95 % interval); A takes 0.80× as long as B
    /// [0.78, 0.82]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let change = crate::stats::Change::of_delta(self.delta, self.low, self.high);
        let size = Pct(change.change.abs());
        if change.change > 0.0 {
            write!(f, "A {size} slower than B")?;
        } else if change.change < 0.0 {
            write!(f, "A {size} faster than B")?;
        } else {
            write!(f, "A as fast as B")?;
        }
        write!(
            f,
            " [{}, {}] ({} interval)",
            SignedPct(change.low),
            SignedPct(change.high),
            Level(self.level)
        )?;
        // Two decimals, more when the ratio is within 1 % of parity.
        let (ratio, low, high) = self.a_over_b();
        let digits = if (ratio - 1.0).abs() < 0.01 { 4 } else { 2 };
        write!(
            f,
            "; A takes {ratio:.digits$}× as long as B [{low:.digits$}, {high:.digits$}]"
        )
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
pub struct Confidences(pub(super) Vec<ThresholdConfidence>);

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
    ///
    /// [`confidences_for`]: crate::stats::confidences_for
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::bootstrap::test_data::{A, B, opts};
    use crate::stats::{confidences_for, estimate_difference};

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
            "A 20.0 % faster than B [−21.5 %, −18.1 %] (95 % interval); \
             A takes 0.80× as long as B [0.79, 0.82]"
        );
        e.delta = -0.25;
        e.low = -0.3;
        e.high = -0.2;
        e.level = 0.9;
        assert_eq!(
            e.to_string(),
            "A 25.0 % slower than B [+20.0 %, +30.0 %] (90 % interval); \
             A takes 1.25× as long as B [1.20, 1.30]"
        );
        e.delta = 0.004;
        e.low = -0.01;
        e.high = 0.02;
        e.level = 0.999;
        assert_eq!(
            e.to_string(),
            "A 0.40 % faster than B [−2.0 %, +1.0 %] (99.9 % interval); \
             A takes 0.9960× as long as B [0.9800, 1.0100]"
        );
        e.delta = 0.0;
        assert!(e.to_string().starts_with("A as fast as B ["));
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
