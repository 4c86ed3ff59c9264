//! hyperfine's JSON layout: `--export-hyperfine FILE` writes a result in it, so tools that read
//! hyperfine's exports can read ours; `--import-hyperfine FILE` reads the two commands' `times`
//! from one, for an **unpaired** analysis of old results (hyperfine runs each command to
//! completion before the other, so its runs cannot be paired, and it measures no A/A floor).

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
    /// Every timed run's maximum resident set size, bytes (newer hyperfine versions write it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_usage_byte: Option<Vec<u64>>,
}

/// hyperfine's export document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HyperfineExport {
    /// One entry per command.
    pub results: Vec<HyperfineResult>,
}

/// `result`'s timed runs in hyperfine's layout, one entry per command in order, the
/// reference first.
pub fn document(result: &CmdResult) -> HyperfineExport {
    let entry = |command: usize, summary: &SideResult| {
        let runs: Vec<_> = result
            .runs
            .iter()
            .filter(|r| r.command == command)
            .collect();
        let s = |ns: f64| ns / 1e9;
        // The library's mean; hyperfine writes 0 for a command without runs.
        let mean_s = |ns: Vec<f64>| rtcompare::stats::mean(&ns).map_or(0.0, s);
        HyperfineResult {
            command: summary.command.clone(),
            mean: s(summary.summary.mean_ns),
            stddev: (runs.len() > 1).then(|| s(summary.summary.std_dev_ns)),
            median: s(summary.summary.median_ns),
            user: mean_s(runs.iter().map(|r| r.user_ns as f64).collect()),
            system: mean_s(runs.iter().map(|r| r.sys_ns as f64).collect()),
            min: s(summary.summary.min_ns),
            max: s(summary.summary.max_ns),
            times: runs.iter().map(|r| r.wall_ns as f64 / 1e9).collect(),
            exit_codes: runs.iter().map(|r| r.exit_code).collect(),
            memory_usage_byte: Some(runs.iter().map(|r| r.max_rss_bytes).collect()),
        }
    };
    HyperfineExport {
        results: result
            .commands
            .iter()
            .enumerate()
            .map(|(c, summary)| entry(c, summary))
            .collect(),
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
