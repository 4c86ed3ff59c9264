//! `--html FILE`: the command comparison as one self-contained HTML page, drawn with the
//! library's [`rtcompare::render`] panels (the same five as a library report's page): the
//! answer on a number line, the runs in order, both distributions, the bootstrap beside the
//! A/A floor, and the commands and the machine.

use std::path::Path;

use rtcompare::render::{
    BootstrapPlot, COLOUR_A, COLOUR_B, COLOUR_FLOOR, Distributions, NumberLine, Page, Panel,
    RunOrder, TimeBar, TimeScale, environment_rows,
};
use rtcompare::stats::{BootstrapDistribution, DriftReport, EstimateOptions, detect_drift};

use crate::analysis::Rule;
use crate::error::{CliError, Result};
use crate::output::{bytes, duration, outcome_word};
use crate::result::{CmdResult, CommandSide, RunRecord};

/// How many quantiles of each A/A bootstrap distribution the page draws as dots (100): the
/// floor is the 0.9 quantile of their absolute values, and a hundred dots show the spread
/// without thousands of marks.
pub const AA_QUANTILES: usize = 100;

fn walls(runs: &[RunRecord], side: CommandSide) -> Vec<f64> {
    runs.iter()
        .filter(|r| r.side == side)
        .map(|r| r.wall_ns as f64)
        .collect()
}

fn drift(xs: &[f64]) -> DriftReport {
    detect_drift(xs).unwrap_or_else(|_| DriftReport::not_run())
}

fn pct(v: f64) -> String {
    format!("{:.2} %", 100.0 * v)
}

/// The bootstrap options the analysis used for `result`'s interval (its estimate records the
/// level, replicates, block length and seed), or the defaults at its seed.
fn estimate_options(r: &CmdResult) -> EstimateOptions {
    match &r.estimate {
        Some(e) => EstimateOptions::default()
            .paired(e.paired)
            .level(e.level)
            .resamples(e.resamples)
            .block_length(e.block_length)
            .seed(r.seed),
        None => EstimateOptions::default().paired(true).seed(r.seed),
    }
}

/// [`AA_QUANTILES`] evenly spaced quantiles of the paired bootstrap of `x` against `y`, drawn
/// as the floor was ([`aa_noise_floor`](rtcompare::stats::aa_noise_floor): single pairs, the
/// result's seed, level and replicates); empty when the series are too short.
fn aa_quantiles(x: &[f64], y: &[f64], r: &CmdResult) -> Vec<f64> {
    let o = estimate_options(r).block_length(1).paired(true);
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

/// The page of a command comparison. Never fails: panels whose data are missing (the few-runs
/// rule has no interval; `--no-validation` no floor) say so.
pub fn page(r: &CmdResult) -> String {
    let (wa, wb) = (
        walls(&r.runs, CommandSide::A),
        walls(&r.runs, CommandSide::B),
    );
    let (wa2, wb2) = (
        walls(&r.validation_runs, CommandSide::A2),
        walls(&r.validation_runs, CommandSide::B2),
    );
    let v = &r.verdict;
    let floor = r.floor.as_ref().filter(|f| f.a.is_some()).map(|f| f.floor);

    // 1. The answer.
    let mut answer = Panel::new("answer", "The answer").lead(&format!(
        "Verdict: {} ({} rule). {}",
        outcome_word(v.outcome),
        match r.rule {
            Rule::Bootstrap => "bootstrap",
            Rule::FewRuns => "few-runs",
        },
        v.reason
    ));
    answer = match (v.low, v.high, v.level) {
        (Some(low), Some(high), Some(level)) => answer.text(&format!(
            "B takes {:.3} times as long as A, {:.0} % interval [{low:.3}, {high:.3}], from {} \
             pairs; the best runs' ratio is {:.3}.",
            v.ratio,
            100.0 * level,
            r.pairs,
            v.best_ratio
        )),
        _ => answer.text(&format!(
            "B takes {:.3} times as long as A (ratio of medians over {} runs each); the best \
             runs' ratio is {:.3}. Fewer than 11 pairs: no bootstrap interval.",
            v.ratio, r.pairs, v.best_ratio
        )),
    };
    answer = answer.text(&format!(
        "A: {} (median {}); B: {} (median {}).",
        r.a.command,
        duration(r.a.summary.median_ns),
        r.b.command,
        duration(r.b.summary.median_ns)
    ));
    answer = answer.text(&match floor {
        Some(f) => format!(
            "A/A floor {}: each command measured against itself in the same rounds; the \
             interval's least favourable end must clear the larger of it and the threshold \
             ({}).",
            pct(f),
            pct(r.threshold)
        ),
        None => format!(
            "No A/A floor (--no-validation or too few pairs); threshold {}.",
            pct(r.threshold)
        ),
    });
    let (delta, low, high, level) = match &r.estimate {
        Some(e) => (e.delta, e.low, e.high, e.level),
        None => {
            let d = 1.0 - 1.0 / v.ratio;
            (d, d, d, 0.95)
        }
    };
    answer = answer.figure(
        NumberLine {
            delta,
            low,
            high,
            level,
            noise_floor: floor,
            thresholds: vec![r.threshold],
        }
        .figure(),
    );

    // 2. Run order.
    let run_order = Panel::new("run-order", "Run order")
        .text(&format!(
            "{} pairs in the order they ran (A B, then B A, …), wall time per run; {} warm-up \
             runs of each command ran first and are not drawn. The drift test is Spearman's \
             rank correlation with the pair index.",
            r.pairs, r.warmup_runs
        ))
        .figure(
            RunOrder {
                name_a: r.a.command.clone(),
                name_b: r.b.command.clone(),
                drift_a: drift(&wa),
                drift_b: drift(&wb),
                drift_ratio: drift(&wa.iter().zip(&wb).map(|(a, b)| b / a).collect::<Vec<f64>>()),
                a: wa.clone(),
                b: wb.clone(),
                per: "per run".into(),
            }
            .figure(),
        );

    // 3. Distributions.
    let distributions = Panel::new("distributions", "Distributions")
        .text(
            "Each curve climbs one step per run, from the fastest on the left to the slowest \
             on the right: a curve further left is faster, a steeper one steadier.",
        )
        .figure(
            Distributions {
                name_a: r.a.command.clone(),
                name_b: r.b.command.clone(),
                a: wa.clone(),
                b: wb.clone(),
                per: "per run".into(),
            }
            .figure(),
        );

    // 4. The bootstrap.
    let opts = estimate_options(r);
    let replicates = BootstrapDistribution::new(&wa, &wb, &opts)
        .map(|d| d.sorted_replicates().to_vec())
        .unwrap_or_default();
    let mut bootstrap = Panel::new("bootstrap", "The bootstrap");
    bootstrap = if r.estimate.is_some() {
        bootstrap.text(&format!(
            "The {} replicates of δ behind the interval, drawn again from the runs with the \
             recorded seed ({}). Below, on an axis wide enough for everything, the interval \
             beside {AA_QUANTILES} quantiles of each command's A/A bootstrap (the command \
             against its own partner runs), whose 0.9 quantile of |δ| is its floor.",
            replicates.len(),
            r.seed
        ))
    } else {
        bootstrap.text("Fewer than 11 pairs: the few-runs rule decided, without a bootstrap.")
    };
    bootstrap = bootstrap.figure(
        BootstrapPlot {
            replicates,
            delta,
            low,
            high,
            level,
            aa_a: aa_quantiles(&wa, &wa2, r),
            aa_b: aa_quantiles(&wb, &wb2, r),
            noise_floor: floor,
            aa_what: "quantiles of the A/A bootstrap".into(),
        }
        .figure(),
    );

    // 5. The commands and the machine.
    let (sa, sb) = (&r.a.summary, &r.b.summary);
    let mut bars = Vec::new();
    if let Some(s) = r.start_floor_ns {
        bars.push(TimeBar::new("empty command (start)", s, COLOUR_FLOOR));
    }
    bars.extend([
        TimeBar::new("A: wall (median)", sa.median_ns, COLOUR_A),
        TimeBar::new("A: user CPU (median)", sa.user_median_ns, COLOUR_A),
        TimeBar::new("A: system CPU (median)", sa.sys_median_ns, COLOUR_A),
        TimeBar::new("B: wall (median)", sb.median_ns, COLOUR_B),
        TimeBar::new("B: user CPU (median)", sb.user_median_ns, COLOUR_B),
        TimeBar::new("B: system CPU (median)", sb.sys_median_ns, COLOUR_B),
    ]);
    let side = |s: &crate::analysis::SideSummary| {
        format!(
            "{} runs: median {}, min {} … max {}, mean {} ± {}; max RSS {} (median), {} \
             (largest)",
            s.runs,
            duration(s.median_ns),
            duration(s.min_ns),
            duration(s.max_ns),
            duration(s.mean_ns),
            duration(s.std_dev_ns),
            bytes(s.max_rss_median_bytes),
            bytes(s.max_rss_max_bytes)
        )
    };
    let mut rows: Vec<(String, String)> = vec![
        ("Command A".into(), r.a.command.clone()),
        ("A".into(), side(sa)),
        ("Command B".into(), r.b.command.clone()),
        ("B".into(), side(sb)),
        (
            "Pairs".into(),
            format!("{} (stopped: {:?})", r.pairs, r.stop).to_lowercase(),
        ),
        ("Threshold".into(), pct(r.threshold)),
        ("Width target".into(), format!("±{}", pct(r.width))),
        ("Seed".into(), r.seed.to_string()),
        ("Warm-up runs".into(), r.warmup_runs.to_string()),
        ("Tool".into(), r.tool.clone()),
        ("Elapsed".into(), format!("{:.1} s", r.elapsed_s)),
    ];
    if let Some(g) = &r.git {
        rows.push((
            "git".into(),
            format!(
                "A = {} ({}), B = the working tree (HEAD {}{})",
                g.base_ref,
                g.base_commit,
                g.head_commit,
                if g.dirty { ", dirty" } else { ", clean" }
            ),
        ));
    }
    rows.extend(environment_rows(&r.environment));
    let warnings: Vec<String> = r.warnings.iter().map(|w| w.message.clone()).collect();
    let mut machine = Panel::new("machine", "The commands and the machine")
        .text(
            "Where each command's time went (medians over the timed runs, a logarithmic \
             axis), next to the cost of starting an empty command; then the runs and the \
             machine.",
        )
        .figure(TimeScale { bars }.figure())
        .table(&rows);
    machine = if warnings.is_empty() {
        machine.text("Warnings: none.")
    } else {
        machine.text("Warnings:").list("warnings", &warnings)
    };

    Page::new(&format!(
        "rtcompare cmd: A = {} against B = {}",
        r.a.command, r.b.command
    ))
    .intro(&format!(
        "Two commands run interleaved as whole processes by {}; every figure is drawn from \
             the runs recorded in the result.",
        r.tool
    ))
    .panel(answer)
    .panel(run_order)
    .panel(distributions)
    .panel(bootstrap)
    .panel(machine)
    .to_html()
}

/// Writes [`page`] to `path`. Errors: [`CliError::File`] naming the path.
pub fn write(r: &CmdResult, path: &Path) -> Result<()> {
    std::fs::write(path, page(r)).map_err(|source| CliError::File {
        action: "write",
        path: path.into(),
        source,
    })
}
