//! The bootstrap distribution: the sorted replicate deltas of one bootstrap, from which the
//! interval, the confidences and the tie split are all read, and the one-answer shortcuts
//! that build it.

use super::engine::Run;
use super::estimate::{Confidences, Estimate, ThresholdConfidence, TieSplit};
use super::options::EstimateOptions;
use crate::error::{Error, Result};
use crate::stats::summaries::select::{cmp_f64, midpoint, quantile_sorted};

/// The bootstrap distribution of the relative difference: the sorted replicate deltas of one
/// bootstrap, from which the interval, any confidence and the tie split can all be read.
///
/// Create it once with [`BootstrapDistribution::new`] when you need several answers from the
/// same replicates; the free functions ([`estimate_difference`], [`confidences_for`], …) are
/// shortcuts for one answer.
///
/// ```
/// use rtcompare::stats::EstimateOptions;
/// use rtcompare::support::stats::BootstrapDistribution;
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
    ///   `MINIMUM_DATA_POINTS` (11) values;
    /// * [`Error::NonFinite`] if a value is NaN or infinite;
    /// * [`Error::LengthMismatch`] if paired and the lengths differ;
    /// * [`Error::OutOfRange`] if the level is outside (0, 1) (0 means 0.95);
    /// * [`Error::InvalidOption`] if more than `MAX_RESAMPLES` (10_000_000) replicates are requested;
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
    ///
    /// [`bootstrap_replicates`]: crate::stats::bootstrap_replicates
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::bootstrap::engine::relative_difference;
    use crate::stats::bootstrap::test_data::{A, B, opts};
    use crate::stats::bootstrap_replicates;

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
            text.starts_with("A 20.0 % faster than B [−20.2 %, −19.8 %] (95 % interval)"),
            "{text}"
        );
        assert!(text.contains("; A takes 0.80× as long as B ["), "{text}");
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
}
