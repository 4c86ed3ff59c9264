//! `--html FILE`: the command comparison as one self-contained HTML page, drawn with the
//! library's [`rtcompare::render`] panels (the same five as a library report's page): the
//! answer on a number line, the runs in order, both distributions, the bootstrap beside the
//! A/A floor, and the commands and the machine. With more than two commands the page opens
//! with every comparison (a table, then each one's answer on its own number line); the run
//! order, the distributions and the bootstrap show the reference against the first other
//! command, and their titles say so.

use rtcompare::Estimate;
use rtcompare::render::{
    BootstrapPlot, COLOUR_A, COLOUR_B, COLOUR_FLOOR, Distributions, NumberLine, Page, Panel,
    RunOrder, TimeBar, TimeScale, environment_rows,
};

use crate::analysis::{Floor, Rule, VerdictSummary};
use crate::error::Result;
use crate::figures::{AA_QUANTILES, PairFigures, pair_figures};
use crate::result::{CmdResult, CommandSide, RunRecord, SideResult};
use crate::units::{bytes, duration};

use super::Exporter;
use super::terminal::family_note;

/// The HTML exporter: `cmd`'s page ([`page`]); `combine`'s (its forest plots) and `bench`'s
/// (an index with a page per benchmark beside it) are drawn by their own modules.
pub(crate) struct Html;

impl Exporter<CmdResult> for Html {
    fn render(&self, result: &CmdResult) -> Result<String> {
        Ok(page(result))
    }
}

fn pct(v: f64) -> String {
    format!("{:.2} %", 100.0 * v)
}

/// One comparison as the page draws it: the reference (`a`) and one command (`b`), with the
/// comparison's verdict and the labels its sentences use.
struct Pair<'a> {
    a: &'a SideResult,
    b: &'a SideResult,
    /// The labels in sentences: `A` and `B` for two commands, else the commands' labels.
    a_label: &'a str,
    b_label: &'a str,
    /// The command index of `b` whose runs are drawn; `None` for two commands, whose runs the
    /// sides alone tell apart (also in JSON written before runs carried their command).
    index: Option<usize>,
    rule: Rule,
    verdict: &'a VerdictSummary,
    estimate: Option<&'a Estimate>,
    floor: Option<&'a Floor>,
}

impl Pair<'_> {
    /// Wall times of the timed runs of `side` (`A2`/`B2`: the A/A partner runs) that belong
    /// to this pair: with more than two commands every non-reference command's runs are side
    /// B, so its own are picked by index.
    fn walls(&self, runs: &[RunRecord], side: CommandSide) -> Vec<f64> {
        let command = match (side, self.index) {
            (_, None) => None,
            (CommandSide::A | CommandSide::A2, Some(_)) => Some(0),
            (CommandSide::B | CommandSide::B2, Some(c)) => Some(c),
        };
        runs.iter()
            .filter(|r| r.side == side && command.is_none_or(|c| r.command == c))
            .map(|r| r.wall_ns as f64)
            .collect()
    }

    /// A figure's `title`, with more than two commands followed by which pair it shows.
    fn titled(&self, title: &str) -> String {
        if self.index.is_some() {
            format!("{title}: {} against {}", self.a_label, self.b_label)
        } else {
            title.to_string()
        }
    }

    /// The floor the verdict had to clear, where one was measured.
    fn floor(&self) -> Option<f64> {
        self.floor.filter(|f| f.a.is_some()).map(|f| f.floor)
    }

    /// δ with its interval and level: the estimate's, or for the few-runs rule the ratio of
    /// medians as a point.
    fn delta(&self) -> (f64, f64, f64, f64) {
        match self.estimate {
            Some(e) => (e.delta, e.low, e.high, e.level),
            None => {
                let d = 1.0 - 1.0 / self.verdict.ratio;
                (d, d, d, 0.95)
            }
        }
    }
}

/// Every comparison of `r`, each with its two commands: labelled A and B for two commands,
/// by their own labels for more.
fn pairs(r: &CmdResult) -> Vec<Pair<'_>> {
    let Some(reference) = r.reference() else {
        return Vec::new();
    };
    let many = r.comparisons.len() > 1;
    r.comparisons
        .iter()
        .filter_map(|c| {
            let b = r.candidate(c)?;
            Some(Pair {
                a: reference,
                b,
                a_label: if many { &reference.name } else { "A" },
                b_label: if many { &b.name } else { "B" },
                index: many.then_some(c.index),
                rule: c.rule,
                verdict: &c.verdict,
                estimate: c.estimate.as_ref(),
                floor: c.floor.as_ref(),
            })
        })
        .collect()
}

/// The answer panel of one comparison: its verdict, its ratio with the interval, both
/// commands, the floor, and δ on a number line.
fn answer(r: &CmdResult, p: &Pair<'_>, panel: Panel) -> Panel {
    let (a, b, v) = (p.a_label, p.b_label, p.verdict);
    let floor = p.floor();
    let mut answer = panel.lead(&format!(
        "Verdict: {} ({} rule). {}",
        v.outcome.verdict(p.index.is_some().then_some(b)),
        match p.rule {
            Rule::Bootstrap => "bootstrap",
            Rule::FewRuns => "few-runs",
            Rule::Sequential => "sequential",
        },
        v.reason
    ));
    answer = match (v.low, v.high, v.level) {
        (Some(low), Some(high), Some(level)) => answer.text(&format!(
            "{b} takes {:.3} times as long as {a}, {:.0} % interval [{low:.3}, {high:.3}], from \
             {} pairs; the best runs' ratio is {:.3}.",
            v.ratio,
            100.0 * level,
            r.pairs,
            v.best_ratio
        )),
        _ => answer.text(&format!(
            "{b} takes {:.3} times as long as {a} (ratio of medians over {} runs each); the best \
             runs' ratio is {:.3}. Fewer than 11 pairs: no bootstrap interval.",
            v.ratio, r.pairs, v.best_ratio
        )),
    };
    answer = answer.text(&format!(
        "{a}: {} (median {}); {b}: {} (median {}).",
        p.a.command,
        duration(p.a.summary.median_ns),
        p.b.command,
        duration(p.b.summary.median_ns)
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
    let (delta, low, high, level) = p.delta();
    answer.figure(
        NumberLine {
            delta,
            low,
            high,
            level,
            noise_floor: floor,
            thresholds: vec![r.threshold],
        }
        .figure(),
    )
}

/// With more than two commands, the table of every comparison: the command, its time over the
/// reference's with the interval, δ, the floor and the verdict.
fn comparisons_panel(r: &CmdResult, pairs: &[Pair<'_>]) -> Panel {
    let reference = pairs.first().map_or("A", |p| p.a_label);
    let header = [
        "Command".to_string(),
        "Command line".into(),
        format!("Time over {reference}'s [interval]"),
        "δ [interval]".into(),
        "A/A floor".into(),
        "Verdict".into(),
    ];
    let rows: Vec<(Option<String>, Vec<String>)> = pairs
        .iter()
        .map(|p| {
            let v = p.verdict;
            let ratio = match (v.low, v.high) {
                (Some(l), Some(h)) => format!("{:.3} [{l:.3}, {h:.3}]", v.ratio),
                _ => format!("{:.3}", v.ratio),
            };
            let delta = match p.estimate {
                Some(e) => format!("{} [{}, {}]", pct(e.delta), pct(e.low), pct(e.high)),
                None => "(few-runs rule)".into(),
            };
            let cells = vec![
                p.b_label.to_string(),
                p.b.command.clone(),
                ratio,
                delta,
                p.floor().map_or("not measured".into(), pct),
                v.outcome.verdict(Some(p.b_label)),
            ];
            // Each row links to the comparison's own answer below.
            (p.index.map(|i| format!("#answer-{i}")), cells)
        })
        .collect();
    let mut panel = Panel::new("comparisons", "Every comparison").text(&format!(
        "Each command against the reference {reference} ({}), over the same {} rounds; δ is \
         1 − {reference}'s time over the command's (positive: {reference} is faster). In each \
         answer's reason A is the reference and B the command compared.",
        pairs.first().map_or("", |p| p.a.command.as_str()),
        r.pairs
    ));
    if let Some(note) = family_note(r) {
        panel = panel.text(&format!("{note}."));
    }
    panel.grid(&header, &rows)
}

/// The page of a command comparison. Never fails: panels whose data are missing (the few-runs
/// rule has no interval; `--no-validation` no floor) say so. With more than two commands it
/// opens with every comparison (a table, then each one's answer), and the run order, the
/// distributions and the bootstrap show the reference against the first other command, as
/// their titles say.
pub fn page(r: &CmdResult) -> String {
    let pairs = pairs(r);
    let Some(first) = pairs.first() else {
        return Page::new("rtcompare cmd: no comparison").to_html();
    };
    let (wa, wb) = (
        first.walls(&r.runs, CommandSide::A),
        first.walls(&r.runs, CommandSide::B),
    );
    let (wa2, wb2) = (
        first.walls(&r.validation_runs, CommandSide::A2),
        first.walls(&r.validation_runs, CommandSide::B2),
    );
    let figures = pair_figures((&wa, &wb), (&wa2, &wb2), first.estimate, r.seed);
    opening(r, first, &pairs)
        .panel(run_order_panel(r, first, &figures, &wa, &wb))
        .panel(distributions_panel(first, &wa, &wb))
        .panel(bootstrap_panel(r, first, &figures))
        .panel(machine(r, &pairs))
        .to_html()
}

/// The page's head: its title and introduction, then the answer; with more than two commands
/// the table of every comparison and each one's answer.
fn opening(r: &CmdResult, first: &Pair<'_>, pairs: &[Pair<'_>]) -> Page {
    let na = first.a_label;
    if first.index.is_none() {
        return Page::new(&format!(
            "rtcompare cmd: A = {} against B = {}",
            first.a.command, first.b.command
        ))
        .intro(&format!(
            "Two commands run interleaved as whole processes by {}; every figure is drawn from \
             the runs recorded in the result.",
            r.tool
        ))
        .panel(answer(r, first, Panel::new("answer", "The answer")));
    }
    let mut page = Page::new(&format!(
        "rtcompare cmd: {} commands against {na} = {}",
        r.commands.len(),
        first.a.command
    ))
    .intro(&format!(
        "{} commands run interleaved as whole processes by {}, each compared with {na}; \
         every figure is drawn from the runs recorded in the result. The first panels give \
         every comparison's answer; the run order, the distributions and the bootstrap \
         after them show {na} against {} (the first comparison) alone.",
        r.commands.len(),
        r.tool,
        first.b_label
    ))
    .panel(comparisons_panel(r, pairs));
    for p in pairs {
        let i = p.index.unwrap_or(1);
        let panel = Panel::new(
            &format!("answer-{i}"),
            &format!("The answer: {} against {}", p.b_label, p.a_label),
        );
        page = page.panel(answer(r, p, panel));
    }
    page
}

/// The run order of the first comparison: `wa` and `wb` per run as they ran, with the
/// drift test of each and of their ratio (from `figures`).
fn run_order_panel(
    r: &CmdResult,
    first: &Pair<'_>,
    figures: &PairFigures,
    wa: &[f64],
    wb: &[f64],
) -> Panel {
    Panel::new("run-order", &first.titled("Run order"))
        .text(&format!(
            "{} pairs in the order they ran ({}), wall time per run; {} warm-up runs of each \
             command ran first and are not drawn. The drift test is Spearman's rank correlation \
             with the pair index.",
            r.pairs,
            if first.index.is_some() {
                "every command once per round, in a fresh order"
            } else {
                "A B, then B A, …"
            },
            r.warmup_runs
        ))
        .figure(
            RunOrder {
                name_a: first.a.command.clone(),
                name_b: first.b.command.clone(),
                drift_a: figures.drift_a,
                drift_b: figures.drift_b,
                drift_ratio: figures.drift_ratio,
                a: wa.to_vec(),
                b: wb.to_vec(),
                per: "per run".into(),
            }
            .figure(),
        )
}

/// The distributions of the first comparison's two commands, `wa` and `wb`.
fn distributions_panel(first: &Pair<'_>, wa: &[f64], wb: &[f64]) -> Panel {
    let (na, nb) = (first.a_label, first.b_label);
    Panel::new("distributions", &first.titled("Distributions"))
        .text(&format!(
            "Each curve climbs one step per run ({} runs of {na} and {} of {nb}), from the \
             fastest on the left to the slowest on the right: a curve further left is faster, \
             a steeper one steadier.",
            wa.len(),
            wb.len()
        ))
        .figure(
            Distributions {
                name_a: first.a.command.clone(),
                name_b: first.b.command.clone(),
                a: wa.to_vec(),
                b: wb.to_vec(),
                per: "per run".into(),
            }
            .figure(),
        )
}

/// The bootstrap of the first comparison (its replicates, redrawn in `figures` with the
/// recorded seed), beside each command's A/A bootstrap against its partner runs.
fn bootstrap_panel(r: &CmdResult, first: &Pair<'_>, figures: &PairFigures) -> Panel {
    let (delta, low, high, level) = first.delta();
    let bootstrap = Panel::new("bootstrap", &first.titled("The bootstrap"));
    let bootstrap = if first.estimate.is_some() {
        bootstrap.text(&format!(
            "The {} replicates of δ behind the interval, drawn again from the runs with the \
             recorded seed ({}). Below, on an axis wide enough for everything, the interval \
             beside {AA_QUANTILES} quantiles of each command's A/A bootstrap (the command \
             against its own partner runs), whose 0.9 quantile of |δ| is its floor.",
            figures.replicates.len(),
            r.seed
        ))
    } else {
        bootstrap.text("Fewer than 11 pairs: the few-runs rule decided, without a bootstrap.")
    };
    bootstrap.figure(
        BootstrapPlot {
            replicates: figures.replicates.clone(),
            delta,
            low,
            high,
            level,
            aa_a: figures.aa_a.clone(),
            aa_b: figures.aa_b.clone(),
            noise_floor: first.floor(),
            aa_what: "quantiles of the A/A bootstrap".into(),
        }
        .figure(),
    )
}

/// A command's runs in one line: their count, wall times and memory.
fn side_line(s: &crate::analysis::SideSummary) -> String {
    format!(
        "{} runs: median {}, min {} … max {}, mean {} ± {}; max RSS {} (median), {} (largest)",
        s.runs,
        duration(s.median_ns),
        duration(s.min_ns),
        duration(s.max_ns),
        duration(s.mean_ns),
        duration(s.std_dev_ns),
        bytes(s.max_rss_median_bytes),
        bytes(s.max_rss_max_bytes)
    )
}

/// The commands and the machine: where each command's time went, every command's runs, the
/// session's settings and the machine, and the warnings.
fn machine(r: &CmdResult, pairs: &[Pair<'_>]) -> Panel {
    // Every command: the reference, then each command compared with it.
    let commands: Vec<(&str, &SideResult)> = match pairs.first() {
        Some(first) => std::iter::once((first.a_label, first.a))
            .chain(pairs.iter().map(|p| (p.b_label, p.b)))
            .collect(),
        None => Vec::new(),
    };
    let mut bars = Vec::new();
    if let Some(s) = r.start_floor_ns {
        bars.push(TimeBar::new("empty command (start)", s, COLOUR_FLOOR));
    }
    let mut rows: Vec<(String, String)> = Vec::new();
    for (i, (name, c)) in commands.iter().enumerate() {
        // The reference in A's colour, every other command in B's.
        let colour = if i == 0 { COLOUR_A } else { COLOUR_B };
        let s = &c.summary;
        bars.extend([
            TimeBar::new(format!("{name}: wall (median)"), s.median_ns, colour),
            TimeBar::new(
                format!("{name}: user CPU (median)"),
                s.user_median_ns,
                colour,
            ),
            TimeBar::new(
                format!("{name}: system CPU (median)"),
                s.sys_median_ns,
                colour,
            ),
        ]);
        rows.push((format!("Command {name}"), c.command.clone()));
        rows.push(((*name).to_string(), side_line(s)));
    }
    rows.extend([
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
    ]);
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
    let machine = Panel::new("machine", "The commands and the machine")
        .text(
            "Where each command's time went (medians over the timed runs, a logarithmic \
             axis), next to the cost of starting an empty command; then the runs and the \
             machine.",
        )
        .figure(TimeScale { bars }.figure())
        .table(&rows);
    if warnings.is_empty() {
        machine.text("Warnings: none.")
    } else {
        machine.text("Warnings:").list("warnings", &warnings)
    }
}
