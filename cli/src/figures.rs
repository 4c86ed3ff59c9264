//! The statistics behind the HTML page's figures ([`Figures`]): the drift test of each
//! series and of their ratio, quantiles of the bootstrap replicates behind the interval, and
//! quantiles of each command's A/A bootstrap. They are computed here once, when a result is
//! made (`CmdResult::new`) or, for a file written before results held them, when it is read
//! (`result::parse`), and stored in each comparison; the page then draws only what the result
//! holds and never calls the statistics. The same runs and seed give the same figures, bit for
//! bit.

use rtcompare::Estimate;
use rtcompare::stats::{BootstrapDistribution, DriftReport, EstimateOptions, Sample, detect_drift};

use crate::result::{AA_QUANTILES, CmdResult, CommandSide, Comparison, Figures, REPLICATE_STEPS};

/// The figures of comparison `c` of `r`, from its runs (picked as [`CmdResult::walls`] picks
/// them), its estimate and the result's seed.
pub(crate) fn of(r: &CmdResult, c: &Comparison) -> Figures {
    let walls = |side| r.walls(c, side);
    pair_figures(
        (&walls(CommandSide::A), &walls(CommandSide::B)),
        (&walls(CommandSide::A2), &walls(CommandSide::B2)),
        c.estimate.as_ref(),
        r.seed,
    )
}

/// The figures of the comparison of `wa` (the reference's timed runs) with `wb` (the
/// command's), with `wa2` and `wb2` their A/A partner runs, redrawn as `estimate` was (its
/// level, replicates and block length; the defaults without one) at `seed`.
fn pair_figures(
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
    detect_drift(xs).unwrap_or_else(|_| DriftReport::not_run())
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
