//! What people read: the terminal summary of `cmd` and `git` (on standard output, or on
//! standard error when an output takes standard output): each command's runs, the A/A floor,
//! the ratio and the verdict with its reason for two commands ([`summary`]); a row per command
//! for more ([`summary_many`]); the hardware counters and the warnings.

use std::fmt::Write as _;

use rtcompare::support::display::{Level, Pct};
use rtcompare::support::measure::{CounterStatus, CounterSummary, SideCounters};

use crate::analysis::{Floor, Rule};
use crate::cli::SortOrder;
use crate::error::Result;
use crate::result::{CmdResult, CommandCounters, Comparison, GitInfo, SideResult};
use crate::units::{bytes, count, duration};

use super::Exporter;

/// The terminal summary, its rows in `sort` order when there are more than two commands.
pub(crate) struct Summary {
    /// Order of the rows of more than two commands.
    pub(crate) sort: SortOrder,
}

impl Exporter<CmdResult> for Summary {
    fn render(&self, result: &CmdResult) -> Result<String> {
        Ok(if result.commands.len() > 2 {
            summary_many(result, self.sort)
        } else {
            summary(result)
        })
    }
}

/// The `--counters` lines: per command the median counts per run, or "unavailable" with why.
pub(crate) fn counters(summary: &CounterSummary) -> String {
    counter_lines(summary, &[("A", &summary.a), ("B", &summary.b)])
}

/// [`counters`] for more than two commands: a line for each of `per_command` (every command,
/// the reference first), where the summary's two sides would name only the first two.
pub(crate) fn counters_many(summary: &CounterSummary, per_command: &[CommandCounters]) -> String {
    let sides: Vec<(&str, &SideCounters)> = per_command
        .iter()
        .map(|c| (c.name.as_str(), &c.counters))
        .collect();
    counter_lines(summary, &sides)
}

/// The counter lines of `sides` (a label and its medians each), with the summary's status and
/// the counters that could not be opened.
fn counter_lines(summary: &CounterSummary, sides: &[(&str, &SideCounters)]) -> String {
    let mut s = String::new();
    if let CounterStatus::Unavailable { reason } = &summary.status {
        let _ = writeln!(s, "Hardware counters: unavailable: {reason}");
        return s;
    }
    let _ = writeln!(
        s,
        "Hardware counters (user space, this process's children only, median per run; \
         diagnostics, not used by the verdict):"
    );
    for &(name, side) in sides {
        let part = |v: Option<f64>, what: &str| match v {
            Some(v) => format!("{} {what}", count(v)),
            None => format!("n/a {what}"),
        };
        let mut line = [
            part(side.cycles_per_op, "cycles"),
            part(side.instructions_per_op, "instructions"),
            part(side.cache_misses_per_op, "cache misses"),
            part(side.branch_misses_per_op, "branch misses"),
        ]
        .join(", ");
        if let (Some(i), Some(c)) = (side.instructions_per_op, side.cycles_per_op)
            && c > 0.0
        {
            let _ = write!(line, "; {:.2} instructions per cycle", i / c);
        }
        if side.multiplexed_batches > 0 {
            let _ = write!(
                line,
                " ({} of {} runs multiplexed, extrapolated)",
                side.multiplexed_batches, side.batches
            );
        }
        let _ = writeln!(s, "   {name}: {line}");
    }
    for f in &summary.failures {
        let _ = writeln!(s, "   {} unavailable: {}", f.counter, f.reason);
    }
    s
}

/// The family-wise sentence of a result with more than one comparison: how many, at which
/// level each was judged and why; `None` with one comparison.
pub(crate) fn family_note(r: &CmdResult) -> Option<String> {
    let level = r.family_level?;
    let reference = r.commands.first().map_or("A", |c| c.name.as_str());
    Some(format!(
        "{} comparisons with {reference}, each judged at {} (Bonferroni) so that all \
         verdicts hold together at 95 %",
        r.comparisons.len(),
        Level(level)
    ))
}

/// The sentence that says how much of each run is process start: times are spawn to reap and
/// include it (hyperfine subtracts its shell's start instead), so ratios of short commands lie
/// closer to 1 than hyperfine's. Empty without a start floor.
pub(crate) fn start_note(r: &CmdResult) -> String {
    let (Some(floor), Some(reference)) = (r.start_floor_ns, r.reference()) else {
        return String::new();
    };
    let median = reference.summary.median_ns;
    if median.is_nan() || median <= 0.0 {
        return String::new();
    }
    format!(
        "Times run from spawn to reap and include starting the process: an empty command under \
         the same shell took {} (median; {:.1} % of {}'s median). hyperfine subtracts its \
         shell's start, so for short commands its ratios lie further from 1 than these.\n",
        duration(floor),
        100.0 * floor / median,
        if reference.name.is_empty() {
            "A"
        } else {
            &reference.name
        }
    )
}

/// The terminal summary of more than two commands: one row per command (its median time, its
/// time over the reference's with the interval, the verdict), sorted by `sort` (as given, or
/// fastest mean first), then the family-wise note, each command's hardware counts with
/// `--counters`, and the warnings.
pub(crate) fn summary_many(r: &CmdResult, sort: SortOrder) -> String {
    let mut s = String::new();
    let reference = r.commands.first().map_or("", |c| c.name.as_str());
    let mut rows: Vec<usize> = (0..r.commands.len()).collect();
    if sort == SortOrder::MeanTime {
        rows.sort_by(|&x, &y| {
            r.commands[x]
                .summary
                .mean_ns
                .total_cmp(&r.commands[y].summary.mean_ns)
        });
    }
    let width = r
        .commands
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(7);
    let _ = writeln!(
        s,
        "{:<width$}  {:>10}  {:>10}  {:<28} verdict",
        "command", "median", "mean", "time / reference [interval]"
    );
    for i in rows {
        let c = &r.commands[i];
        let cmp = r.comparisons.iter().find(|x| x.index == i);
        let (ratio, verdict) = match cmp {
            None => ("(reference)".to_string(), String::new()),
            Some(x) => {
                let v = &x.verdict;
                let ratio = match (v.low, v.high) {
                    (Some(l), Some(h)) => format!("{:.3} [{l:.3}, {h:.3}]", v.ratio),
                    _ => format!("{:.3}", v.ratio),
                };
                (ratio, v.outcome.against(reference))
            }
        };
        let _ = writeln!(
            s,
            "{:<width$}  {:>10}  {:>10}  {:<28} {verdict}",
            c.name,
            duration(c.summary.median_ns),
            duration(c.summary.mean_ns),
            ratio
        );
    }
    for c in &r.commands {
        if c.name != c.command {
            let _ = writeln!(s, "  {}: {}", c.name, c.command);
        }
    }
    if let Some(note) = family_note(r) {
        let _ = writeln!(
            s,
            "{note}; {} rounds, every command once per round in a fresh order.",
            r.pairs
        );
    }
    if let Some(c) = &r.counters {
        s.push_str(&counters_many(c, &r.command_counters));
    }
    s.push_str(&start_note(r));
    for w in &r.warnings {
        let _ = writeln!(s, "warning: {}", w.message);
    }
    s
}

/// The terminal summary: each command's runs, the comparison, the verdict with the rule that
/// decided and its reason, and the warnings.
pub(crate) fn summary(r: &CmdResult) -> String {
    let mut s = String::new();
    for (i, (name, side)) in ["A", "B"].into_iter().zip(&r.commands).enumerate() {
        let partners = r.validation_runs.iter().filter(|v| v.command == i).count();
        side_lines(&mut s, name, side, partners);
    }
    if let Some(g) = &r.git {
        git_line(&mut s, g);
    }
    if let Some(c) = &r.counters {
        s.push_str(&counters(c));
    }
    if let Some(first) = r.first() {
        floor_lines(&mut s, first.floor.as_ref());
        ratio_line(&mut s, r, first);
        verdict_lines(&mut s, first);
    }
    s.push_str(&start_note(r));
    for w in &r.warnings {
        let _ = writeln!(s, "warning: {}", w.message);
    }
    s
}

/// A command's lines of the summary: its command, its wall times, its CPU times and memory.
/// `partners` is the count of its A/A partner runs, timed beside the compared ones.
fn side_lines(s: &mut String, name: &str, side: &SideResult, partners: usize) {
    let m = &side.summary;
    let _ = writeln!(s, "{name}: {}", side.command);
    let partners = if partners > 0 {
        format!(" (and {partners} A/A partner runs)")
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "   median {}, min {} … max {}, mean {} ± {} (σ), {} runs compared{partners}",
        duration(m.median_ns),
        duration(m.min_ns),
        duration(m.max_ns),
        duration(m.mean_ns),
        duration(m.std_dev_ns),
        m.runs
    );
    let _ = writeln!(
        s,
        "   user {}, sys {} (medians), max RSS {} (median; largest {})",
        duration(m.user_median_ns),
        duration(m.sys_median_ns),
        bytes(m.max_rss_median_bytes),
        bytes(m.max_rss_max_bytes)
    );
}

/// `rtcompare git`'s line: which revision is A and which is B.
fn git_line(s: &mut String, g: &GitInfo) {
    let short = |c: &str| c.chars().take(12).collect::<String>();
    let b = match &g.head_ref {
        Some(head) => format!("B the pristine head {head} ({})", short(&g.head_commit)),
        None => format!(
            "B the working tree (HEAD {}{})",
            short(&g.head_commit),
            if g.dirty {
                " with uncommitted changes"
            } else {
                ", clean"
            }
        ),
    };
    let _ = writeln!(
        s,
        "A is the pristine baseline {} ({}), {b}",
        g.base_ref,
        short(&g.base_commit)
    );
}

/// The A/A line: the floor of each side, the few-runs check of each, or why it is missing.
fn floor_lines(s: &mut String, floor: Option<&Floor>) {
    match floor {
        Some(f) => match (f.a, f.b) {
            (Some(fa), Some(fb)) => {
                let _ = writeln!(
                    s,
                    "A/A floor: {} (A against A′ {}, B against B′ {}; 0.9 quantile of the \
                     bootstrap |difference| over {} pairs each)",
                    Pct(f.floor),
                    Pct(fa),
                    Pct(fb),
                    f.pairs
                );
            }
            _ => {
                if let Some([va, vb]) = &f.few_runs {
                    let _ = writeln!(
                        s,
                        "A/A check ({} runs each): A against A′ {}, B against B′ {}",
                        f.pairs, va.outcome, vb.outcome
                    );
                }
            }
        },
        None => {
            // --no-validation, or --runs below the 22 that leave half the runs as A/A
            // partners (the warnings name which).
            let _ = writeln!(
                s,
                "A/A floor: not measured (--no-validation, or too few --runs to spare A/A \
                 partners)"
            );
        }
    }
}

/// The ratio line of comparison `c`: B's time over A's with its interval (bootstrap rule) or
/// its spread (few-runs rule), and the ratio of the best runs.
fn ratio_line(s: &mut String, r: &CmdResult, c: &Comparison) {
    let v = &c.verdict;
    let runs = |i: usize| r.commands.get(i).map_or(0, |x| x.summary.runs);
    match (v.low, v.high, v.level) {
        (Some(low), Some(high), Some(level)) => {
            let _ = writeln!(
                s,
                "B takes {:.3} times as long as A, {:.0} % interval [{:.3}, {:.3}] ({}); best \
                 runs {:.3}",
                v.ratio,
                100.0 * level,
                low,
                high,
                if c.estimate.is_some_and(|e| !e.paired) {
                    format!(
                        "{} and {} runs, unpaired bootstrap of the ratio of medians",
                        runs(0),
                        runs(c.index)
                    )
                } else {
                    format!("{} pairs, paired bootstrap", r.pairs)
                },
                v.best_ratio
            );
        }
        _ => {
            let _ = writeln!(
                s,
                "B takes {:.3} times as long as A (ratio of medians, {} runs each); best runs \
                 {:.3}; spread {:.1} %",
                v.ratio,
                r.pairs,
                v.best_ratio,
                100.0 * v.noise
            );
        }
    }
}

/// Comparison `c`'s change in the words every front end prints, judged against the margin its
/// verdict was reached with (a sequential decision's, else the tolerance).
pub(crate) fn change_words(c: &Comparison) -> Option<String> {
    let margin = c
        .decision
        .as_ref()
        .map_or(c.verdict.tolerance, |d| d.margin);
    let floor = c.floor.as_ref().map_or(0.0, |f| f.floor);
    crate::words::change_words(&c.verdict, margin, floor)
}

/// The verdict line of comparison `c` with the rule that decided, and the reason beneath it.
fn verdict_lines(s: &mut String, c: &Comparison) {
    let word = c.verdict.outcome.verdict(None);
    let rule = match c.rule {
        Rule::Bootstrap => "bootstrap rule: the interval's bound against max(threshold, A/A floor)",
        Rule::FewRuns => "few-runs rule: ratio of medians and ratio of minimums",
        Rule::Sequential => "sequential rule: the look's interval against ±threshold",
    };
    if let Some(words) = change_words(c) {
        let _ = writeln!(s, "{} against {}: {words}.", c.name, c.reference);
    }
    let _ = writeln!(s, "Verdict: {word} ({rule}).");
    let _ = writeln!(s, "   {}", c.verdict.reason);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_lines() {
        use rtcompare::support::measure::CounterDelta;
        let run = |cycles, instructions| CounterDelta {
            cycles: Some(cycles),
            instructions: Some(instructions),
            cache_misses: Some(1_000),
            branch_misses: None,
            enabled_ns: 10,
            running_ns: 10,
        };
        let summary = CounterSummary::from_batches(
            &[run(2_000_000, 4_000_000)],
            &[run(3_000_000, 3_000_000)],
            1,
        );
        let text = counters(&summary);
        assert!(
            text.contains(
                "A: 2.00 M cycles, 4.00 M instructions, 1.0 k cache misses, n/a branch \
                 misses; 2.00 instructions per cycle"
            ),
            "{text}"
        );
        assert!(text.contains("B: 3.00 M cycles"), "{text}");
        // More commands: a line each, named.
        let per: Vec<CommandCounters> = [("A", 2_000_000), ("B", 3_000_000), ("C", 5_000_000)]
            .into_iter()
            .map(|(name, cycles)| CommandCounters {
                name: name.into(),
                counters: CounterSummary::from_batches(&[run(cycles, cycles)], &[], 1).a,
            })
            .collect();
        let text = counters_many(&summary, &per);
        assert!(text.contains("   C: 5.00 M cycles"), "{text}");
        assert_eq!(text.lines().filter(|l| l.starts_with("   ")).count(), 3);
        let none = counters(&CounterSummary::unavailable("no PMU"));
        assert_eq!(none, "Hardware counters: unavailable: no PMU\n");
    }
}
