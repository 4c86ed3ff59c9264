//! `--html FILE`: the command comparison as one self-contained HTML page, drawn with the
//! library's `rtcompare::support::render` panels (the same five as a library report's page): the
//! answer on a number line, the runs in order, both distributions, the bootstrap beside the
//! A/A floor, and the commands and the machine. With more than two commands the page opens
//! with every comparison (a table, then each one's answer on its own number line); the run
//! order, the distributions and the bootstrap show the reference against the first other
//! command, and their titles say so.
//!
//! The page draws only what the result holds: the runs, the verdicts, and each comparison's
//! [`Figures`] (drift tests, bootstrap quantiles), computed when the result was made or read.
//! Nothing here calls the statistics.

use rtcompare::Estimate;
use rtcompare::stats::DriftReport;
use rtcompare::support::display::{Pct, SignedPct};
use rtcompare::support::render::{
    BootstrapPlot, COLOUR_A, COLOUR_B, COLOUR_FLOOR, Distributions, NumberLine, Page, Panel,
    RunOrder, TimeBar, TimeScale, environment_rows,
};

use crate::analysis::{Floor, Rule, VerdictSummary};
use crate::error::Result;
use crate::result::{
    AA_QUANTILES, CmdResult, CommandSide, Comparison, Figures, REPLICATE_STEPS, SideResult,
};
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
    Pct(v).to_string()
}

/// One comparison as the page draws it: the reference (`a`) and one command (`b`), with the
/// comparison's verdict and the labels its sentences use.
struct Pair<'a> {
    a: &'a SideResult,
    b: &'a SideResult,
    /// The labels in sentences: `A` and `B` for two commands, else the commands' labels.
    a_label: &'a str,
    b_label: &'a str,
    /// The command index of `b`, named in the titles; `None` for two commands.
    index: Option<usize>,
    /// The comparison drawn, whose runs [`CmdResult::walls`] picks.
    comparison: &'a Comparison,
    rule: Rule,
    verdict: &'a VerdictSummary,
    estimate: Option<&'a Estimate>,
    floor: Option<&'a Floor>,
}

impl Pair<'_> {
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
                comparison: c,
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
    // The command (B) is the candidate: its change against the reference, + = slower, drawn
    // from δ on B's side (the map turns the interval's ends round).
    answer.figure(
        NumberLine {
            delta: b_side(delta),
            low: b_side(high),
            high: b_side(low),
            level,
            noise_floor: floor,
            thresholds: vec![r.threshold],
            b_is_candidate: true,
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
        "Change (+ = slower) [interval]".into(),
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
            // The command's change, + = slower, from the same ratio and interval.
            let delta = match (p.estimate, v.low, v.high) {
                (Some(_), Some(l), Some(h)) => {
                    let c = rtcompare::support::stats::change_of_ratio(v.ratio, l, h);
                    format!(
                        "{} [{}, {}]",
                        SignedPct(c.change),
                        SignedPct(c.low),
                        SignedPct(c.high)
                    )
                }
                _ => "(few-runs rule)".into(),
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
        "Each command against the reference {reference} ({}), over the same {} rounds; the \
         change is the command's time over {reference}'s minus 1 (+ = slower). In each \
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
        r.walls(first.comparison, CommandSide::A),
        r.walls(first.comparison, CommandSide::B),
    );
    // What the result holds; a result without figures (built by hand: `parse` and the result's
    // maker always fill them) draws no drift test and no bootstrap, rather than computing them.
    let figures = first.comparison.figures.as_ref();
    opening(r, first, &pairs)
        .panel(run_order_panel(r, first, figures, &wa, &wb))
        .panel(distributions_panel(first, &wa, &wb))
        .panel(bootstrap_panel(r, first, figures))
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
             what the result records: the runs, and the drift tests and bootstrap quantiles \
             computed when it was made.",
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
         every figure is drawn from what the result records: the runs, and the drift tests \
         and bootstrap quantiles computed when it was made. The first panels give \
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
/// drift test of each and of their ratio as `figures` records them ("not run" without).
fn run_order_panel(
    r: &CmdResult,
    first: &Pair<'_>,
    figures: Option<&Figures>,
    wa: &[f64],
    wb: &[f64],
) -> Panel {
    let drift = |f: fn(&Figures) -> DriftReport| {
        figures.map_or(rtcompare::support::stats::drift_not_run(), f)
    };
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
                drift_a: drift(|f| f.drift_a),
                drift_b: drift(|f| f.drift_b),
                drift_ratio: drift(|f| f.drift_ratio),
                a: wa.to_vec(),
                b: wb.to_vec(),
                per: "per run".into(),
                // The command (B) is the candidate against its reference (A).
                b_is_candidate: true,
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

/// δ = 1 − A/B of a command pair (A the reference) seen from B's side, `1 − B/A`, so that a
/// figure that draws the candidate's change as `−δ` draws the command's, B/A − 1. Decreasing
/// in δ: an interval's ends swap.
fn b_side(delta: f64) -> f64 {
    1.0 - (1.0 - delta).recip()
}

/// The bootstrap of the first comparison (the quantiles of its replicates that `figures`
/// records, as a histogram), beside the quantiles of each command's A/A bootstrap against its
/// partner runs.
fn bootstrap_panel(r: &CmdResult, first: &Pair<'_>, figures: Option<&Figures>) -> Panel {
    let (delta, low, high, level) = first.delta();
    let quantiles = |f: fn(&Figures) -> &Vec<f64>| figures.map_or_else(Vec::new, |x| f(x).clone());
    let bootstrap = Panel::new("bootstrap", &first.titled("The bootstrap"));
    let bootstrap = if first.estimate.is_some() {
        bootstrap.text(&format!(
            "The {} replicates behind the interval of B's change (seed {}), drawn as a histogram of \
             the {} quantiles the result records, one every {} % from the smallest to the \
             largest. Below, on an axis wide enough for everything, the interval beside \
             {AA_QUANTILES} quantiles of each command's A/A bootstrap (the command against its \
             own partner runs), whose 0.9 quantile of the absolute difference is its floor.",
            figures.map_or(0, |f| f.replicates),
            r.seed,
            REPLICATE_STEPS + 1,
            100.0 / REPLICATE_STEPS as f64
        ))
    } else {
        bootstrap.text("Fewer than 11 pairs: the few-runs rule decided, without a bootstrap.")
    };
    bootstrap.figure(
        BootstrapPlot {
            replicates: quantiles(|f| &f.replicate_quantiles)
                .into_iter()
                .map(b_side)
                .collect(),
            delta: b_side(delta),
            low: b_side(high),
            high: b_side(low),
            level,
            aa_a: quantiles(|f| &f.aa_a_quantiles),
            aa_b: quantiles(|f| &f.aa_b_quantiles),
            noise_floor: first.floor(),
            b_is_candidate: true,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The panel `id` of `page`, from its opening tag to its end.
    fn section<'p>(page: &'p str, id: &str) -> &'p str {
        let start = page
            .find(&format!("<section class=\"panel\" id=\"{id}\""))
            .unwrap_or_else(|| panic!("no panel {id}"));
        let len = page[start..].find("</section>").expect("an end");
        &page[start..start + len]
    }

    #[test]
    fn the_page_draws_the_figures_the_result_holds_and_computes_none() {
        let (_, r) = crate::result::parse(include_str!("../../tests/data/cmd-schema1.json"))
            .expect("the schema-1 file reads");
        let full = page(&r);
        let f = r.first().and_then(|c| c.figures.clone()).expect("figures");
        let caption = format!("drift test: A p = {:.3}", f.drift_a.p_value);
        assert!(full.contains(&caption), "{full}");
        assert!(
            section(&full, "bootstrap").contains(&format!("The {} replicates", f.replicates)),
            "{full}"
        );
        // Without its runs the result still holds its figures, and the page draws them: the
        // same bootstrap panel and drift tests. Computed from the runs, they would be gone.
        let emptied = CmdResult {
            runs: Vec::new(),
            validation_runs: Vec::new(),
            ..r.clone()
        };
        let drawn = page(&emptied);
        assert_eq!(section(&drawn, "bootstrap"), section(&full, "bootstrap"));
        assert!(drawn.contains(&caption), "{drawn}");
        // Without figures (a result built by hand) the page draws none, however many runs the
        // result holds: it does not compute them.
        let mut bare = r.clone();
        bare.comparisons[0].figures = None;
        let drawn = page(&bare);
        assert!(drawn.contains("drift test: A p = not run"), "{drawn}");
        assert!(
            section(&drawn, "bootstrap").contains("The 0 replicates"),
            "{drawn}"
        );
    }
}
