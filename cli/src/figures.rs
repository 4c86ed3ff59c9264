//! The statistics behind the HTML page's figures that a result does not record, recomputed
//! from its runs with its seed: the drift test of each series and of their ratio, the
//! bootstrap replicates behind the interval, and quantiles of each command's A/A bootstrap.
//! They are computed here, once, before anything is drawn, so that the page only draws; the
//! same runs and seed give the same figures, bit for bit.

use rtcompare::Estimate;
use rtcompare::stats::{BootstrapDistribution, DriftReport, EstimateOptions, detect_drift};

/// How many quantiles of each A/A bootstrap distribution the page draws as dots (100): the
/// floor is the 0.9 quantile of their absolute values, and a hundred dots show the spread
/// without thousands of marks.
pub const AA_QUANTILES: usize = 100;

/// The figures' statistics of one comparison.
#[derive(Debug, Clone)]
pub(crate) struct PairFigures {
    /// The drift test of the reference's runs, in the order run.
    pub(crate) drift_a: DriftReport,
    /// The drift test of the command's runs.
    pub(crate) drift_b: DriftReport,
    /// The drift test of the pairs' ratios.
    pub(crate) drift_ratio: DriftReport,
    /// The bootstrap replicates of δ behind the interval, sorted; empty without an estimate
    /// (the few-runs rule) or when the series are too short.
    pub(crate) replicates: Vec<f64>,
    /// [`AA_QUANTILES`] quantiles of the reference's A/A bootstrap.
    pub(crate) aa_a: Vec<f64>,
    /// The same of the command's.
    pub(crate) aa_b: Vec<f64>,
}

/// The figures of the comparison of `wa` (the reference's timed runs) with `wb` (the
/// command's), with `wa2` and `wb2` their A/A partner runs, redrawn as `estimate` was (its
/// level, replicates and block length; the defaults without one) at `seed`.
pub(crate) fn pair_figures(
    (wa, wb): (&[f64], &[f64]),
    (wa2, wb2): (&[f64], &[f64]),
    estimate: Option<&Estimate>,
    seed: u64,
) -> PairFigures {
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
    PairFigures {
        drift_a: drift(wa),
        drift_b: drift(wb),
        drift_ratio: drift(&ratios),
        replicates: BootstrapDistribution::new(wa, wb, &opts)
            .map(|d| d.sorted_replicates().to_vec())
            .unwrap_or_default(),
        aa_a: aa_quantiles(wa, wa2, &opts),
        aa_b: aa_quantiles(wb, wb2, &opts),
    }
}

fn drift(xs: &[f64]) -> DriftReport {
    detect_drift(xs).unwrap_or_else(|_| DriftReport::not_run())
}

/// [`AA_QUANTILES`] evenly spaced quantiles of the paired bootstrap of `x` against `y`, drawn
/// as the floor was ([`aa_noise_floor`](rtcompare::stats::aa_noise_floor): single pairs, the
/// seed, level and replicates of `opts`); empty when the series are too short.
fn aa_quantiles(x: &[f64], y: &[f64], opts: &EstimateOptions) -> Vec<f64> {
    let o = opts.block_length(1).paired(true);
    let Ok(dist) = BootstrapDistribution::new(x, y, &o) else {
        return Vec::new();
    };
    let s = dist.sorted_replicates();
    (0..AA_QUANTILES)
        .map(|i| {
            let p = (i as f64 + 0.5) / AA_QUANTILES as f64;
            s[((p * s.len() as f64) as usize).min(s.len() - 1)]
        })
        .collect()
}
