//! hyperfine's JSON layout: `--export-json FILE` writes a result in it, as hyperfine 1.18
//! writes its own (`results[]` with `command`, `mean`, `stddev`, `median`, `user`, `system`,
//! `min`, `max`, `times`, `exit_codes`, in seconds), so scripts and tools that read
//! hyperfine's exports read ours unchanged. rtcompare's figures are added under a key of their
//! own, `rtcompare`, in each result and in the document; no key of hyperfine's is renamed or
//! changes meaning. `memory_usage_byte` is hyperfine's own key from 1.19 on. `--import-hyperfine FILE` reads the two commands' `times`
//! from one, for an **unpaired** analysis of old results (hyperfine runs each command to
//! completion before the other, so its runs cannot be paired, and it measures no A/A floor).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use rtcompare::env::Environment;
use rtcompare::stats;
use rtcompare::support::rng::resolve_seed;
use rtcompare::support::stats::FewRunsRule;

use crate::analysis::{self, AnalysisOptions, Rule, SideSummary, Warning};
use crate::cli::CompareArgs;
use crate::error::{CliError, Result};
use crate::result::{CmdResult, CommandSide, Comparison, Parts, RunRecord, SideResult, StopReason};

/// One command's entry in hyperfine's `results` array (times in seconds).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HyperfineResult {
    /// The command as given.
    pub command: String,
    /// Mean wall time, s.
    pub mean: f64,
    /// Sample standard deviation of the wall times, s (`null` for one run in hyperfine).
    pub stddev: Option<f64>,
    /// Median wall time, s.
    pub median: f64,
    /// Mean user CPU time, s.
    pub user: f64,
    /// Mean system CPU time, s.
    pub system: f64,
    /// Fastest run, s.
    pub min: f64,
    /// Slowest run, s.
    pub max: f64,
    /// Every timed run's wall time, s, in the order run.
    pub times: Vec<f64>,
    /// Every timed run's exit code.
    #[serde(default)]
    pub exit_codes: Vec<Option<i32>>,
    /// The parameter values of this command (`-L`, `-P`), by name, as hyperfine writes them
    /// for a parameter scan; left out without parameters, as hyperfine leaves it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<BTreeMap<String, String>>,
    /// Every timed run's maximum resident set size, bytes (newer hyperfine versions write it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_usage_byte: Option<Vec<u64>>,
    /// rtcompare's figures for this command (a key hyperfine does not write); absent when
    /// read from hyperfine's own export.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtcompare: Option<CommandFigures>,
}

/// rtcompare's figures for one command of an `--export-json` document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandFigures {
    /// Its label (`A`, `B`, … or its `--command-name`).
    pub name: String,
    /// Whether it is the reference every other command is compared with.
    pub reference: bool,
    /// How many of `times` (the last ones) are A/A partner runs, each timed beside a compared
    /// run to measure the noise floor; the others are the runs compared with the reference.
    pub partner_runs: usize,
    /// Against the reference (absent on the reference): its time over the reference's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio: Option<f64>,
    /// The interval's lower end on `ratio` (bootstrap rule only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    /// The interval's upper end on `ratio` (bootstrap rule only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
    /// The interval's coverage (bootstrap rule only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<f64>,
    /// The verdict as `--json` writes it (`faster`, `slower`, `equivalent`, `cannot_tell`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// The A/A noise floor the difference had to clear, a fraction (absent without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<f64>,
    /// The verdict's reason, one sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// rtcompare's figures for the whole `--export-json` document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentFigures {
    /// `rtcompare-cli` and its version.
    pub tool: String,
    /// Timed rounds: every command once in each, in ABBA (two commands) or shuffled order.
    pub rounds: usize,
    /// The seed that recomputes the same intervals (`--seed`).
    pub seed: u64,
    /// `--threshold`, a fraction.
    pub threshold: f64,
    /// The warnings, one sentence each.
    pub warnings: Vec<String>,
}

/// hyperfine's export document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HyperfineExport {
    /// One entry per command.
    pub results: Vec<HyperfineResult>,
    /// rtcompare's figures for the run (a key hyperfine does not write).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtcompare: Option<DocumentFigures>,
}

/// rtcompare's figures for command `c` of `result`.
fn figures(result: &CmdResult, c: usize, name: &str) -> CommandFigures {
    let comparison = result.comparisons.iter().find(|x| x.index == c);
    let v = comparison.map(|x| &x.verdict);
    CommandFigures {
        name: name.to_string(),
        reference: c == 0,
        partner_runs: result
            .validation_runs
            .iter()
            .filter(|r| r.command == c)
            .count(),
        ratio: v.map(|v| v.ratio),
        low: v.and_then(|v| v.low),
        high: v.and_then(|v| v.high),
        level: v.and_then(|v| v.level),
        verdict: v.map(|v| v.outcome.key().to_string()),
        floor: comparison.and_then(|x| x.floor.as_ref()).map(|f| f.floor),
        reason: v.map(|v| v.reason.clone()),
    }
}

/// `result`'s timed runs in hyperfine's layout, one entry per command in order, the
/// reference first.
pub fn document(result: &CmdResult) -> HyperfineExport {
    let entry = |command: usize, summary: &SideResult| {
        // Every timed run of the command, as hyperfine's `times` holds every one: the compared
        // runs in the order run, then its A/A partner runs (`rtcompare.partner_runs` of them)
        // in the order run, so that `--runs N` gives N times as in hyperfine.
        let runs: Vec<_> = result
            .runs
            .iter()
            .chain(&result.validation_runs)
            .filter(|r| r.command == command)
            .collect();
        let s = |ns: f64| ns / 1e9;
        let wall: Vec<f64> = runs.iter().map(|r| r.wall_ns as f64).collect();
        // The library's statistics; hyperfine writes 0 for a command without runs.
        let of = |f: fn(&[f64]) -> rtcompare::Result<f64>, ns: &[f64]| f(ns).map_or(0.0, s);
        let user: Vec<f64> = runs.iter().map(|r| r.user_ns as f64).collect();
        let system: Vec<f64> = runs.iter().map(|r| r.sys_ns as f64).collect();
        HyperfineResult {
            command: summary.command.clone(),
            mean: of(rtcompare::stats::mean, &wall),
            stddev: (runs.len() > 1).then(|| of(rtcompare::stats::std_dev, &wall)),
            median: of(rtcompare::stats::median, &wall),
            user: of(rtcompare::stats::mean, &user),
            system: of(rtcompare::stats::mean, &system),
            min: of(rtcompare::stats::min, &wall),
            max: of(rtcompare::stats::max, &wall),
            times: wall.iter().map(|&ns| s(ns)).collect(),
            exit_codes: runs.iter().map(|r| r.exit_code).collect(),
            parameters: (!summary.parameters.is_empty()).then(|| summary.parameters.clone()),
            // Not measured off Unix: absent rather than zeros.
            memory_usage_byte: cfg!(unix).then(|| runs.iter().map(|r| r.max_rss_bytes).collect()),
            rtcompare: Some(figures(result, command, &summary.name)),
        }
    };
    HyperfineExport {
        results: result
            .commands
            .iter()
            .enumerate()
            .map(|(c, summary)| entry(c, summary))
            .collect(),
        rtcompare: Some(DocumentFigures {
            tool: result.tool.clone(),
            rounds: result.pairs,
            seed: result.seed,
            threshold: result.threshold,
            warnings: result.warnings.iter().map(|w| w.message.clone()).collect(),
        }),
    }
}

/// Reads the two commands' `command` and `times` (converted to ns) from a hyperfine export.
///
/// Times of 0 are kept: hyperfine subtracts the shell's spawning time from every run and
/// clamps the result at 0, so a fast command's export holds them. They are refused only where
/// they leave the analysis undefined: under the few-runs rule (fewer than 11 runs of a
/// command), which needs every time above 0, and when a command's median is 0.
///
/// Errors: the file cannot be read, is not hyperfine's JSON, does not hold exactly two results
/// (more are refused with their commands listed, since nothing chooses two of them), or a
/// command has no times, a time that is negative or not finite, or zeros where they are
/// refused.
pub fn import(path: &Path) -> Result<[(String, Vec<f64>); 2]> {
    let text = crate::files::read_text(path)?;
    let bad = |reason: String| CliError::BadFile {
        path: path.into(),
        reason,
    };
    #[derive(Deserialize)]
    struct Entry {
        command: String,
        times: Vec<f64>,
    }
    #[derive(Deserialize)]
    struct Doc {
        results: Vec<Entry>,
    }
    let doc: Doc = serde_json::from_str(&text).map_err(|e| {
        bad(format!(
            "not a hyperfine JSON export ({e}); write one with `hyperfine --export-json FILE A B`"
        ))
    })?;
    let [a, b]: [Entry; 2] = match doc.results.try_into() {
        Ok(two) => two,
        Err(results) if results.len() < 2 => {
            return Err(bad(
                "holds fewer than two results; export both commands in one hyperfine run".into(),
            ));
        }
        Err(results) => {
            let names: Vec<String> = results.iter().map(|e| format!("`{}`", e.command)).collect();
            return Err(bad(format!(
                "holds {} results ({}); rtcompare compares exactly two commands and nothing \
                 chooses two of these, so none is dropped silently: export the two to compare \
                 (`hyperfine --export-json FILE A B`)",
                results.len(),
                names.join(", ")
            )));
        }
    };
    let few_runs = Rule::for_pairs(a.times.len().min(b.times.len())) == Rule::FewRuns;
    let clamp = "hyperfine clamps its shell-corrected times at 0";
    let mut out = Vec::new();
    for e in [a, b] {
        if e.times.is_empty() {
            return Err(bad(format!("`{}` has no times", e.command)));
        }
        if let Some(t) = e.times.iter().find(|t| !(t.is_finite() && **t >= 0.0)) {
            return Err(bad(format!(
                "the times of `{}` hold {t}, not a number of seconds (0 or more)",
                e.command
            )));
        }
        let zeros = e.times.iter().filter(|&&t| t == 0.0).count();
        if zeros > 0 && few_runs {
            return Err(bad(format!(
                "{zeros} of `{}`'s times are 0 ({clamp}), and with fewer than 11 runs of each \
                 command the few-runs rule decides, which needs every time above 0: export at \
                 least 11 runs of each, or time without a shell (`hyperfine -N`)",
                e.command
            )));
        }
        if stats::median(&e.times)? == 0.0 {
            return Err(bad(format!(
                "`{}`'s median time is 0 ({clamp}): the command is too fast for the correction \
                 to leave a time, so no ratio is defined; time it without a shell \
                 (`hyperfine -N`) or give each run more work",
                e.command
            )));
        }
        out.push((e.command, e.times.iter().map(|t| t * 1e9).collect()));
    }
    let b = out.pop().unwrap_or_default();
    let a = out.pop().unwrap_or_default();
    Ok([a, b])
}

/// `rtcompare cmd --import-hyperfine FILE`: the analysis of a hyperfine export's first two
/// commands, unpaired (see the module documentation).
pub fn analyse_import(path: &std::path::Path, args: &CompareArgs) -> Result<CmdResult> {
    let started = Instant::now();
    let [(ca, ta), (cb, tb)] = import(path)?;
    let seed = resolve_seed(args.seed.unwrap_or(0));
    let opts = AnalysisOptions {
        threshold: args.threshold,
        seed,
        paired: false,
        ..AnalysisOptions::default()
    };
    let analysis = analysis::analyse(&ta, &tb, None, &opts)?;
    let mut warnings = analysis::series_warnings(&ta, &tb, None, &FewRunsRule::default());
    warnings.push(Warning::Imported);
    let record = |side: CommandSide, ns: f64| RunRecord {
        side,
        command: usize::from(side == CommandSide::B),
        wall_ns: ns.round() as u64,
        user_ns: 0,
        sys_ns: 0,
        max_rss_bytes: 0,
        exit_code: Some(0),
        signal: None,
        counters: None,
    };
    let runs: Vec<RunRecord> = ta
        .iter()
        .map(|&t| record(CommandSide::A, t))
        .chain(tb.iter().map(|&t| record(CommandSide::B, t)))
        .collect();
    let side = |name: &str, command: String, xs: &[f64]| -> Result<SideResult> {
        let zeros = vec![0.0; xs.len()];
        Ok(SideResult {
            name: name.into(),
            command,
            parameters: BTreeMap::new(),
            summary: SideSummary::new(xs, &zeros, &zeros, &zeros)?,
        })
    };
    let mut environment = Environment::capture();
    environment.finish();
    let pairs = ta.len().min(tb.len());
    let comparison = Comparison {
        name: "B".into(),
        reference: "A".into(),
        index: 1,
        rule: analysis.rule,
        verdict: analysis.verdict,
        estimate: analysis.estimate,
        few_runs: analysis.few_runs,
        floor: None,
        pairs,
        decision: None,
        // Computed by `CmdResult::new`, which sees every run.
        figures: None,
    };
    Ok(CmdResult::new(Parts {
        pairs,
        stop: StopReason::Runs,
        threshold: args.threshold,
        width: args.width,
        seed,
        level: opts.level,
        counters: None,
        start_floor_ns: None,
        warnings,
        warmup_runs: 0,
        runs,
        validation_runs: Vec::new(),
        environment,
        started,
        commands: vec![side("A", ca, &ta)?, side("B", cb, &tb)?],
        comparisons: vec![comparison],
    }))
}
