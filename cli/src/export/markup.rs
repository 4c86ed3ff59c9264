//! The tables people paste into pull requests, laid out as hyperfine 1.20 lays out its own
//! (`| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |`, one unit for the whole table
//! chosen from the first command's mean, the relative column against the fastest mean with the
//! propagated σ), plus rtcompare's ratio to A with its interval and the verdict, and the
//! verdict's sentence under the table (with more than two commands, the family-wise note and
//! one line per comparison instead). The cells are made here once; [`super::markdown`],
//! [`super::asciidoc`] and [`super::orgmode`] each say how their markup writes them.

use std::fmt::Write as _;

use crate::analysis::{CommandOutcome, Rule};
use crate::error::Result;
use crate::hyperfine::{self, HyperfineResult};
use crate::result::CmdResult;
use crate::units::TimeUnit;

use super::{Exporter, terminal};

/// Every markup is `cmd`'s exporter of its table.
impl<M: Markup> Exporter<CmdResult> for M {
    fn render(&self, result: &CmdResult) -> Result<String> {
        Ok(table(result, self))
    }
}

/// A table row as Markdown and Org both write it: `| a | b |`.
fn pipe_row(cells: &[String]) -> String {
    format!("| {} |", cells.join(" | "))
}

/// A table as Markdown and Org both write it: the header's row, the `rule` line under it (each
/// language's own), then the body's rows, one a line.
pub(super) fn pipe_table(header: &[String], rule: &str, body: &[Vec<String>]) -> String {
    let mut s = pipe_row(header) + "\n" + rule + "\n";
    for row in body {
        s += &pipe_row(row);
        s.push('\n');
    }
    s
}

/// How one markup language writes the table's pieces.
pub(crate) trait Markup {
    /// `text` as inline code.
    fn code(&self, text: &str) -> String;
    /// The mark that starts a bulleted list's item.
    fn item(&self) -> &'static str;
    /// `text` in bold.
    fn bold(&self, text: &str) -> String;
    /// The table of `header` and `body`; `left[i]` aligns column `i` left (else right).
    fn grid(&self, left: &[bool], header: &[String], body: &[Vec<String>]) -> String;
}

/// The unit of a table's times, chosen as hyperfine chooses it: from the first command's
/// mean, so every row is read in the same unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Seconds, three decimals.
    Second,
    /// Milliseconds, one decimal.
    MilliSecond,
    /// Microseconds, one decimal.
    MicroSecond,
}

impl Unit {
    /// The unit for a time of `seconds`: µs below 1 ms, ms below 1 s, else s.
    pub fn for_seconds(seconds: f64) -> Unit {
        if seconds < 1e-3 {
            Unit::MicroSecond
        } else if seconds < 1.0 {
            Unit::MilliSecond
        } else {
            Unit::Second
        }
    }

    /// `s`, `ms` or `µs`.
    pub fn short_name(self) -> &'static str {
        match self {
            Unit::Second => "s",
            Unit::MilliSecond => "ms",
            Unit::MicroSecond => "µs",
        }
    }

    /// `seconds` in this unit, with hyperfine's decimals.
    pub fn format(self, seconds: f64) -> String {
        match self {
            Unit::Second => format!("{seconds:.3}"),
            Unit::MilliSecond => format!("{:.1}", seconds * 1e3),
            Unit::MicroSecond => format!("{:.1}", seconds * 1e6),
        }
    }
}

/// How a command compares with A, the reference (absent on A's own row).
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Its time over A's (the verdict's `ratio`).
    pub ratio: f64,
    /// The interval on `ratio` and its level (bootstrap rule only).
    pub interval: Option<(f64, f64, f64)>,
    /// The verdict, from this command's point of view.
    pub outcome: CommandOutcome,
}

/// One command's row of the tables and the CSV.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// hyperfine's numbers for the command (seconds).
    pub stats: HyperfineResult,
    /// Against A; `None` for A.
    pub comparison: Option<Comparison>,
}

/// The rows of `result`: every command, the reference first.
pub(crate) fn rows(result: &CmdResult) -> Vec<Row> {
    let verdict_of = |c: usize| {
        // Every command but the reference has its comparison.
        let v = &result.comparisons.iter().find(|x| x.index == c)?.verdict;
        let interval = match (v.low, v.high, v.level) {
            (Some(low), Some(high), Some(level)) => Some((low, high, level)),
            _ => None,
        };
        Some(Comparison {
            ratio: v.ratio,
            interval,
            outcome: v.outcome,
        })
    };
    hyperfine::document(result)
        .results
        .into_iter()
        .enumerate()
        .map(|(c, stats)| Row {
            stats,
            comparison: if c == 0 { None } else { verdict_of(c) },
        })
        .collect()
}

/// hyperfine's relative speed of each row against the fastest mean, with the σ propagated
/// from both means' σ (independent), as `1.00` for the fastest and `1.98 ± 0.03` for others.
pub(crate) fn relative(rows: &[Row]) -> Vec<String> {
    let Some(fastest) = rows
        .iter()
        .map(|r| &r.stats)
        .min_by(|x, y| x.mean.total_cmp(&y.mean))
    else {
        return Vec::new();
    };
    rows.iter()
        .map(|r| {
            let s = &r.stats;
            if std::ptr::eq(s, fastest) {
                return "1.00".into();
            }
            if s.mean == 0.0 || fastest.mean == 0.0 {
                // hyperfine's own answer for a zero mean.
                return "inf".into();
            }
            let ratio = s.mean / fastest.mean;
            match (s.stddev, fastest.stddev) {
                (Some(sd), Some(fsd)) => {
                    let sigma =
                        ratio * ((sd / s.mean).powi(2) + (fsd / fastest.mean).powi(2)).sqrt();
                    format!("{ratio:.2} ± {sigma:.2}")
                }
                _ => format!("{ratio:.2}"),
            }
        })
        .collect()
}

/// The `--export-markdown` (or AsciiDoc, or Org) table of `result`, and the verdict's sentence
/// under it; with more than one comparison, the family-wise note and a line per comparison
/// (its verdict, its command and its reason) instead.
pub(crate) fn table(result: &CmdResult, markup: &dyn Markup) -> String {
    let rows = rows(result);
    let unit = match crate::units::time_unit() {
        Some(TimeUnit::Microsecond) => Unit::MicroSecond,
        Some(TimeUnit::Millisecond) => Unit::MilliSecond,
        Some(TimeUnit::Second) => Unit::Second,
        None => rows
            .first()
            .map_or(Unit::Second, |r| Unit::for_seconds(r.stats.mean)),
    };
    let u = unit.short_name();
    let Some(first) = result.first() else {
        return String::new();
    };
    let level = first
        .verdict
        .level
        .map(|l| format!(" [{:.1} % CI]", 100.0 * l).replace(".0 %", " %"));
    let reference = result.commands.first().map_or("A", |c| c.name.as_str());
    let header: Vec<String> = vec![
        "Command".into(),
        format!("Mean [{u}]"),
        format!("Min [{u}]"),
        format!("Max [{u}]"),
        "Relative".into(),
        format!("Ratio to {reference}{}", level.unwrap_or_default()),
        "Verdict".into(),
    ];
    let left = [true, false, false, false, false, false, true];
    let body: Vec<Vec<String>> = rows
        .iter()
        .zip(relative(&rows))
        .map(|(row, relative)| cells(row, relative, unit, markup))
        .collect();
    let mut s = markup.grid(&left, &header, &body);
    let v = &first.verdict;
    let rule = match first.rule {
        Rule::Bootstrap => format!("bootstrap rule, {} pairs", result.pairs),
        Rule::FewRuns => format!("few-runs rule, {} runs each", result.pairs),
        Rule::Sequential => format!("sequential rule, {} pairs", result.pairs),
    };
    if let Some(note) = terminal::family_note(result) {
        // With more commands each comparison gets its own line, and the note says why each
        // was judged at a stricter level.
        let _ = writeln!(
            s,
            "\n{note} ({rule}). In each reason A is the reference, B the command compared:\n"
        );
        for c in &result.comparisons {
            let command = result
                .commands
                .get(c.index)
                .map_or("", |x| x.command.as_str());
            let change = terminal::change_words(c).map_or(String::new(), |w| format!("{w}; "));
            let _ = writeln!(
                s,
                "{} {} ({} against {reference}): {change}{}.",
                markup.item(),
                markup.bold(&c.verdict.outcome.verdict(Some(&c.name))),
                markup.code(command),
                c.verdict.reason.trim_end_matches('.')
            );
        }
        return s;
    }
    let (a, b) = result.command_lines(first);
    if let Some(words) = terminal::change_words(first) {
        let _ = writeln!(s, "\n{} against {}: {words}.", first.name, first.reference);
    }
    let _ = writeln!(
        s,
        "\n{} (A: {}, B: {}; {rule}): {}.",
        markup.bold(&v.outcome.verdict(None)),
        markup.code(a),
        markup.code(b),
        v.reason.trim_end_matches('.')
    );
    s
}

/// One command's cells in the table: its command, mean ± σ, min, max (in `unit`), `relative`,
/// its ratio to the reference with the interval, and the verdict.
fn cells(row: &Row, relative: String, unit: Unit, markup: &dyn Markup) -> Vec<String> {
    let s = &row.stats;
    // Every markup here takes `|` as a cell border; hyperfine escapes it the same way.
    let command = markup.code(&s.command.replace('|', "\\|"));
    let mean = match s.stddev {
        Some(sd) => format!("{} ± {}", unit.format(s.mean), unit.format(sd)),
        None => unit.format(s.mean),
    };
    let (ratio, verdict) = match &row.comparison {
        None => ("reference".into(), String::new()),
        Some(c) => (
            match c.interval {
                Some((low, high, _)) => format!("{:.3} [{low:.3}, {high:.3}]", c.ratio),
                None => format!("{:.3}", c.ratio),
            },
            markup.bold(c.outcome.word()),
        ),
    };
    vec![
        command,
        mean,
        unit.format(s.min),
        unit.format(s.max),
        relative,
        ratio,
        verdict,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_as_hyperfine_picks_and_prints_them() {
        assert_eq!(Unit::for_seconds(0.000_5), Unit::MicroSecond);
        assert_eq!(Unit::for_seconds(0.020_5), Unit::MilliSecond);
        assert_eq!(Unit::for_seconds(1.0), Unit::Second);
        assert_eq!(Unit::MicroSecond.format(0.000_5), "500.0");
        assert_eq!(Unit::MilliSecond.format(0.020_54), "20.5");
        assert_eq!(Unit::Second.format(1.234_56), "1.235");
    }

    fn row(command: &str, mean: f64, stddev: Option<f64>) -> Row {
        Row {
            stats: HyperfineResult {
                command: command.into(),
                mean,
                stddev,
                median: mean,
                user: 0.0,
                system: 0.0,
                min: mean,
                max: mean,
                times: Vec::new(),
                exit_codes: Vec::new(),
                parameters: None,
                memory_usage_byte: None,
                rtcompare: None,
            },
            comparison: None,
        }
    }

    #[test]
    fn relative_is_against_the_fastest_mean_with_propagated_sigma() {
        let rows = [row("a", 0.04, Some(0.0004)), row("b", 0.02, Some(0.0002))];
        // 2 × √(0.01² + 0.01²) = 0.028.
        assert_eq!(relative(&rows), ["2.00 ± 0.03", "1.00"]);
        let rows = [row("a", 0.02, None), row("b", 0.03, Some(0.001))];
        assert_eq!(relative(&rows), ["1.00", "1.50"]);
    }
}
