//! Where a comparison's outputs go, and the exports hyperfine's users know.
//!
//! * **Targets.** Every output flag (`--json`, `--html`, `--export-hyperfine`,
//!   `--export-markdown`, `--export-csv`, `--export-asciidoc`, `--export-orgmode`) takes a file
//!   or `-` for standard output. [`check_outputs`] runs before the first run: at most one
//!   output may use `-`, no two may share a file, and each file must open for writing, so a
//!   typo in a path fails in the first second instead of after minutes of measuring. When an
//!   output goes to standard output, the human summary goes to standard error
//!   ([`summary_to_stderr`]) so that standard output stays parseable.
//! * **Tables.** `--export-markdown` writes the table people paste into pull requests, laid out
//!   as hyperfine 1.20 lays out its own (`| Command | Mean [ms] | Min [ms] | Max [ms] |
//!   Relative |`, one unit for the whole table chosen from the first command's mean, the
//!   relative column against the fastest mean with the propagated σ), plus rtcompare's ratio to
//!   A with its interval and the verdict, and the verdict's sentence under the table (with more
//!   than two commands, the family-wise note and one line per comparison instead).
//!   `--export-asciidoc` and `--export-orgmode` write the same cells in those markups.
//! * **CSV.** `--export-csv` writes hyperfine's columns (`command,mean,stddev,median,user,
//!   system,min,max`, seconds, the numbers of [`crate::hyperfine::document`]), then `ratio`,
//!   `low`, `high` and `verdict`, empty on A's row (the reference).

use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::analysis::{CommandOutcome, Rule};
use crate::cli::CompareArgs;
use crate::error::{CliError, Result};
use crate::hyperfine::{self, HyperfineResult};
use crate::output;
use crate::result::{self, CmdResult};

/// The file name that means standard output: `-`.
pub const STDOUT: &str = "-";

/// Whether `path` is [`STDOUT`].
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == STDOUT
}

/// Every output `args` asks for, with its flag, in the order they are written.
fn outputs(args: &CompareArgs) -> Vec<(&'static str, &Path)> {
    [
        ("--json", &args.json),
        ("--html", &args.html),
        ("--export-hyperfine", &args.export_hyperfine),
        ("--export-markdown", &args.export_markdown),
        ("--export-csv", &args.export_csv),
        ("--export-asciidoc", &args.export_asciidoc),
        ("--export-orgmode", &args.export_orgmode),
    ]
    .into_iter()
    .filter_map(|(flag, path)| path.as_deref().map(|p| (flag, p)))
    .collect()
}

/// Whether some output of `args` goes to standard output, so the summary must not.
pub fn summary_to_stderr(args: &CompareArgs) -> bool {
    outputs(args).iter().any(|(_, p)| is_stdout(p))
}

/// Checks every output of `args` before anything runs.
///
/// Errors: a usage error when more than one output asks for standard output, when one does
/// and `--show-output` would let the commands write there too, or when two outputs name the
/// same file; a file error naming the path when a file cannot be opened for writing.
///
/// Each file is opened in append mode, which changes nothing in an existing file (its content
/// is replaced only when the result is written at the end); a file that did not exist is
/// removed again at once, so a comparison that fails or is interrupted leaves nothing behind.
pub fn check_outputs(args: &CompareArgs) -> Result<()> {
    let outputs = outputs(args);
    let to_stdout: Vec<&str> = outputs
        .iter()
        .filter(|(_, p)| is_stdout(p))
        .map(|(flag, _)| *flag)
        .collect();
    if to_stdout.len() > 1 {
        return Err(CliError::Usage(format!(
            "{} all ask for standard output (`-`); only one output can go there and stay \
             parseable: write the others to files",
            to_stdout.join(" and ")
        )));
    }
    if let [flag] = to_stdout[..]
        && (args.show_output || args.output == Some(crate::process::Output::Inherit))
    {
        return Err(CliError::Usage(format!(
            "{flag} - writes to standard output, where --show-output would mix in the commands' \
             own output: write {flag} to a file, or drop --show-output"
        )));
    }
    let files: Vec<(&str, &Path)> = outputs.into_iter().filter(|(_, p)| !is_stdout(p)).collect();
    for (i, (flag, path)) in files.iter().enumerate() {
        if let Some((first, _)) = files[..i].iter().find(|(_, p)| p == path) {
            return Err(CliError::Usage(format!(
                "{first} and {flag} both write {}: the second would overwrite the first; give \
                 each its own file",
                path.display()
            )));
        }
    }
    files.iter().try_for_each(|(_, path)| probe(path))
}

/// Opens `path` for writing without changing it (see [`check_outputs`]); `rtcompare combine`
/// checks its outputs with it too.
pub(crate) fn probe(path: &Path) -> Result<()> {
    let cannot = |source| CliError::File {
        action: "write",
        path: path.into(),
        source,
    };
    match OpenOptions::new().write(true).create_new(true).open(path) {
        Ok(file) => {
            drop(file);
            std::fs::remove_file(path).map_err(cannot)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => OpenOptions::new()
            .append(true)
            .open(path)
            .map(drop)
            .map_err(cannot),
        Err(e) => Err(cannot(e)),
    }
}

/// Writes every output `args` asks for. Files go through their owners' writers
/// ([`result::write_json`], [`crate::html::write`], [`hyperfine::export`]); `-` goes to
/// standard output.
pub fn write_outputs(result: &CmdResult, args: &CompareArgs) -> Result<()> {
    if let Some(path) = &args.json {
        if is_stdout(path) {
            let text = serde_json::to_string_pretty(result).map_err(|e| CliError::BadFile {
                path: path.clone(),
                reason: format!("cannot encode the result: {e}"),
            })?;
            write_text(path, &(text + "\n"))?;
        } else {
            result::write_json(result, path)?;
        }
    }
    if let Some(path) = &args.html {
        if is_stdout(path) {
            write_text(path, &crate::html::page(result))?;
        } else {
            crate::html::write(result, path)?;
        }
    }
    if let Some(path) = &args.export_hyperfine {
        if is_stdout(path) {
            write_text(path, &hyperfine::text(result, path)?)?;
        } else {
            hyperfine::export(result, path)?;
        }
    }
    let tables = [
        (&args.export_markdown, Markup::Markdown),
        (&args.export_asciidoc, Markup::Asciidoc),
        (&args.export_orgmode, Markup::Orgmode),
    ];
    for (path, markup) in tables {
        if let Some(path) = path {
            write_text(path, &table(result, markup))?;
        }
    }
    if let Some(path) = &args.export_csv {
        write_text(path, &csv(result))?;
    }
    Ok(())
}

/// Writes `text` to `path`, or to standard output when `path` is `-`.
pub fn write_text(path: &Path, text: &str) -> Result<()> {
    if is_stdout(path) {
        // Not `print!`, which panics when the reader has gone (a closed pipe).
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|source| CliError::File {
                action: "write",
                path: PathBuf::from("standard output"),
                source,
            })
    } else {
        std::fs::write(path, text).map_err(|source| CliError::File {
            action: "write",
            path: path.into(),
            source,
        })
    }
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
pub fn rows(result: &CmdResult) -> Vec<Row> {
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
fn relative(rows: &[Row]) -> Vec<String> {
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

/// A markup language for [`table`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Markup {
    /// GitHub-flavoured Markdown, as hyperfine's `--export-markdown`.
    Markdown,
    /// AsciiDoc, as hyperfine's `--export-asciidoc`.
    Asciidoc,
    /// Emacs Org mode, as hyperfine's `--export-orgmode`.
    Orgmode,
}

impl Markup {
    /// `text` as inline code. Markdown's code span takes a fence longer than any run of
    /// backticks inside it, so a command holding backticks still renders whole.
    fn code(self, text: &str) -> String {
        match self {
            Markup::Markdown => {
                let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
                let fence = "`".repeat(longest + 1);
                if longest > 0 {
                    format!("{fence} {text} {fence}")
                } else {
                    format!("{fence}{text}{fence}")
                }
            }
            Markup::Asciidoc => format!("`+{text}+`"),
            Markup::Orgmode => format!("={text}="),
        }
    }

    /// The mark that starts a bulleted list's item.
    fn item(self) -> &'static str {
        match self {
            Markup::Markdown | Markup::Orgmode => "-",
            Markup::Asciidoc => "*",
        }
    }

    fn bold(self, text: &str) -> String {
        match self {
            Markup::Markdown => format!("**{text}**"),
            Markup::Asciidoc | Markup::Orgmode => format!("*{text}*"),
        }
    }

    /// The table of `header` and `body`; `left[i]` aligns column `i` left (else right).
    fn grid(self, left: &[bool], header: &[String], body: &[Vec<String>]) -> String {
        let mut s = String::new();
        match self {
            Markup::Markdown => {
                let _ = writeln!(s, "| {} |", header.join(" | "));
                let rule: String = left
                    .iter()
                    .map(|&l| if l { ":---|" } else { "---:|" })
                    .collect();
                let _ = writeln!(s, "|{rule}");
                for row in body {
                    let _ = writeln!(s, "| {} |", row.join(" | "));
                }
            }
            Markup::Asciidoc => {
                let cols: Vec<&str> = left.iter().map(|&l| if l { "<" } else { ">" }).collect();
                let _ = writeln!(s, "[cols=\"{}\", options=\"header\"]", cols.join(","));
                let _ = writeln!(s, "|===");
                for row in std::iter::once(header).chain(body.iter().map(Vec::as_slice)) {
                    let _ = writeln!(s, "| {}", row.join(" | "));
                }
                let _ = writeln!(s, "|===");
            }
            Markup::Orgmode => {
                let _ = writeln!(s, "| {} |", header.join(" | "));
                let _ = writeln!(s, "|{}|", vec!["---"; header.len()].join("+"));
                for row in body {
                    let _ = writeln!(s, "| {} |", row.join(" | "));
                }
            }
        }
        s
    }
}

/// The `--export-markdown` (or AsciiDoc, or Org) table of `result`, and the verdict's sentence
/// under it; with more than one comparison, the family-wise note and a line per comparison
/// (its verdict, its command and its reason) instead.
pub fn table(result: &CmdResult, markup: Markup) -> String {
    let rows = rows(result);
    let unit = rows
        .first()
        .map_or(Unit::Second, |r| Unit::for_seconds(r.stats.mean));
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
        .map(|(row, relative)| {
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
        })
        .collect();
    let mut s = markup.grid(&left, &header, &body);
    let v = &first.verdict;
    let rule = match first.rule {
        Rule::Bootstrap => format!("bootstrap rule, {} pairs", result.pairs),
        Rule::FewRuns => format!("few-runs rule, {} runs each", result.pairs),
        Rule::Sequential => format!("sequential rule, {} pairs", result.pairs),
    };
    if let Some(note) = output::family_note(result) {
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
            let _ = writeln!(
                s,
                "{} {} ({} against {reference}): {}.",
                markup.item(),
                markup.bold(&c.verdict.outcome.verdict(Some(&c.name))),
                markup.code(command),
                c.verdict.reason.trim_end_matches('.')
            );
        }
        return s;
    }
    let (a, b) = result.command_lines(first);
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

/// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.into()
    }
}

/// The `--export-csv` text of `result`: a header and one line per command.
pub fn csv(result: &CmdResult) -> String {
    let mut s =
        String::from("command,mean,stddev,median,user,system,min,max,ratio,low,high,verdict\n");
    for row in rows(result) {
        let h = &row.stats;
        // hyperfine writes a missing σ (one run) as 0.
        let numbers = [
            h.mean,
            h.stddev.unwrap_or(0.0),
            h.median,
            h.user,
            h.system,
            h.min,
            h.max,
        ];
        let mut fields = vec![csv_field(&h.command)];
        fields.extend(numbers.iter().map(f64::to_string));
        match &row.comparison {
            None => fields.extend([String::new(), String::new(), String::new(), String::new()]),
            Some(c) => {
                let (low, high) = c
                    .interval
                    .map_or((String::new(), String::new()), |(l, h, _)| {
                        (l.to_string(), h.to_string())
                    });
                fields.extend([c.ratio.to_string(), low, high, c.outcome.key().into()]);
            }
        }
        let _ = writeln!(s, "{}", fields.join(","));
    }
    s
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

    #[test]
    fn markup_code_and_csv_quoting() {
        assert_eq!(Markup::Markdown.code("sleep 1"), "`sleep 1`");
        assert_eq!(Markup::Markdown.code("echo `date`"), "`` echo `date` ``");
        assert_eq!(Markup::Orgmode.code("a"), "=a=");
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
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
                memory_usage_byte: None,
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

    #[test]
    fn grids_in_each_markup() {
        let header = ["h1".to_string(), "h2".to_string()];
        let body = [vec!["x".to_string(), "1".to_string()]];
        let left = [true, false];
        assert_eq!(
            Markup::Markdown.grid(&left, &header, &body),
            "| h1 | h2 |\n|:---|---:|\n| x | 1 |\n"
        );
        assert_eq!(
            Markup::Orgmode.grid(&left, &header, &body),
            "| h1 | h2 |\n|---+---|\n| x | 1 |\n"
        );
        assert_eq!(
            Markup::Asciidoc.grid(&left, &header, &body),
            "[cols=\"<,>\", options=\"header\"]\n|===\n| h1 | h2\n| x | 1\n|===\n"
        );
    }
}
