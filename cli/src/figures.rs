//! The statistics behind the HTML page's figures ([`Figures`]): the drift test of each
//! series and of their ratio, quantiles of the bootstrap replicates behind the interval, and
//! quantiles of each command's A/A bootstrap. They are computed here once, when a result is
//! made (`CmdResult::new`) or, for a file written before results held them, when it is read
//! (`result::parse`), and stored in each comparison; the page then draws only what the result
//! holds and never calls the statistics. The same runs and seed give the same figures, bit for
//! bit.

use rtcompare::Estimate;
use rtcompare::stats::{DriftReport, EstimateOptions, detect_drift};
use rtcompare::support::stats::{BootstrapDistribution, Sample};
use serde::{Deserialize, Serialize};

/// How many equal steps of probability the bootstrap's replicates are summarised in (200):
/// [`Figures::replicate_quantiles`] holds the quantiles at `i / 200` for `i` = 0 … 200, 201
/// numbers. Why 200: the page draws them as a histogram of 60 bins, in which each quantile
/// stands for 0.5 % of the replicates, a tenth of the tallest bar of a bell-shaped bootstrap
/// (about 5 % of the replicates); the ends (0 and 1) keep the histogram's axis the span of
/// every replicate; the tails of the 90, 95 and 99 % intervals fall on steps; and 201
/// numbers take about 6 kB of the (pretty-printed) JSON where the 5,000 replicates of a
/// default bootstrap would take 160 kB.
pub const REPLICATE_STEPS: usize = 200;

/// How many quantiles of each command's A/A bootstrap [`Figures`] holds (100, at
/// `(i + ½) / 100`): the page draws them as dots beside the interval, and a hundred show the
/// spread, and where its 0.9 quantile of |δ| (the floor) lies, without thousands of marks.
pub const AA_QUANTILES: usize = 100;

/// The statistics the HTML page draws for one comparison, beyond its verdict and its runs:
/// computed once, with the library (`rtcompare::stats`), from the comparison's runs, its
/// estimate's level, replicates and block length and the result's seed, when the result is
/// made (or, for an older file, when it is read), so that the page only draws. The JSON
/// field `figures` of each comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The drift test (Spearman's rank correlation with the run's position) of the
    /// reference's wall times in the order run (its halves' medians in ns); `n` = 0 when it
    /// could not run (fewer than four runs, none in the file).
    pub drift_a: DriftReport,
    /// The same of the command's wall times.
    pub drift_b: DriftReport,
    /// The same of the pairs' ratios, the command's time over the reference's
    /// (dimensionless).
    pub drift_ratio: DriftReport,
    /// How many bootstrap replicates of δ behind the interval the quantiles summarise (the
    /// estimate's `resamples`); 0 when none could be drawn (fewer than 11 pairs, or a time
    /// of 0 that leaves δ undefined).
    pub replicates: usize,
    /// The type-7 quantiles of those replicates (δ, fractions) at `i / `[`REPLICATE_STEPS`]
    /// for `i` = 0 … [`REPLICATE_STEPS`], ascending: the smallest, …, the median, …, the
    /// largest. Empty with no replicates.
    pub replicate_quantiles: Vec<f64>,
    /// [`AA_QUANTILES`] quantiles (δ, fractions; ascending) of the reference's A/A bootstrap,
    /// its runs against its partner runs, single pairs, as its floor was drawn. Empty with
    /// `--no-validation` or too few pairs.
    pub aa_a_quantiles: Vec<f64>,
    /// The same of the command's A/A bootstrap.
    pub aa_b_quantiles: Vec<f64>,
}

/// The figures of the comparison of `wa` (the reference's timed runs) with `wb` (the
/// command's), with `wa2` and `wb2` their A/A partner runs, redrawn as `estimate` was (its
/// level, replicates and block length; the defaults without one) at `seed`.
pub(crate) fn pair_figures(
    (wa, wb): (&[f64], &[f64]),
    (wa2, wb2): (&[f64], &[f64]),
    estimate: Option<&Estimate>,
    seed: u64,
) -> Figures {
    let opts = match estimate {
        Some(e) => EstimateOptions::default()
            .paired(e.paired)
            .level(e.level)
            .resamples(e.resamples)
            .block_length(e.block_length)
            .seed(seed),
        None => EstimateOptions::default().paired(true).seed(seed),
    };
    let ratios: Vec<f64> = wa.iter().zip(wb).map(|(a, b)| b / a).collect();
    let replicates = BootstrapDistribution::new(wa, wb, &opts)
        .map(|d| d.sorted_replicates().to_vec())
        .unwrap_or_default();
    let steps: Vec<f64> = (0..=REPLICATE_STEPS)
        .map(|i| i as f64 / REPLICATE_STEPS as f64)
        .collect();
    Figures {
        drift_a: drift(wa),
        drift_b: drift(wb),
        drift_ratio: drift(&ratios),
        replicates: replicates.len(),
        replicate_quantiles: quantiles(&replicates, &steps),
        aa_a_quantiles: aa_quantiles(wa, wa2, &opts),
        aa_b_quantiles: aa_quantiles(wb, wb2, &opts),
    }
}

/// The drift test of `xs`; [`DriftReport::not_run`] (`n` = 0) when it cannot run (fewer than
/// four values, or a non-finite one).
fn drift(xs: &[f64]) -> DriftReport {
    detect_drift(xs).unwrap_or_else(|_| rtcompare::support::stats::drift_not_run())
}

/// The library's type-7 quantiles of `xs` at each probability of `ps`; empty when `xs` is
/// empty or holds a non-finite value (JSON has no number for those).
fn quantiles(xs: &[f64], ps: &[f64]) -> Vec<f64> {
    let Ok(s) = Sample::new(xs) else {
        return Vec::new();
    };
    ps.iter().filter_map(|&p| s.quantile(p).ok()).collect()
}

/// [`AA_QUANTILES`] evenly spaced quantiles (at (i + ½)/[`AA_QUANTILES`]) of the paired
/// bootstrap of `x` against `y`, drawn as the floor was
/// ([`aa_noise_floor`](rtcompare::stats::aa_noise_floor): single pairs, the seed, level and
/// replicates of `opts`); empty when the series are too short or differ in length.
fn aa_quantiles(x: &[f64], y: &[f64], opts: &EstimateOptions) -> Vec<f64> {
    let o = opts.block_length(1).paired(true);
    let Ok(dist) = BootstrapDistribution::new(x, y, &o) else {
        return Vec::new();
    };
    let ps: Vec<f64> = (0..AA_QUANTILES)
        .map(|i| (i as f64 + 0.5) / AA_QUANTILES as f64)
        .collect();
    quantiles(dist.sorted_replicates(), &ps)
}
