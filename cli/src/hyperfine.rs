//! hyperfine's JSON layout: `--export-hyperfine FILE` writes a result in it, so tools that read
//! hyperfine's exports can read ours; `--import-hyperfine FILE` reads the two commands' `times`
//! from one, for an **unpaired** analysis of old results (hyperfine runs each command to
//! completion before the other, so its runs cannot be paired, and it measures no A/A floor).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{CliError, Result};
use crate::result::CmdResult;

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

/// Writes `result`'s timed runs in hyperfine's layout to `path`.
pub fn export(result: &CmdResult, path: &Path) -> Result<()> {
    let entry = |side: crate::result::CommandSide, summary: &crate::result::SideResult| {
        let runs: Vec<_> = result.runs.iter().filter(|r| r.side == side).collect();
        let s = |ns: f64| ns / 1e9;
        let n = runs.len().max(1) as f64;
        HyperfineResult {
            command: summary.command.clone(),
            mean: s(summary.summary.mean_ns),
            stddev: (runs.len() > 1).then(|| s(summary.summary.std_dev_ns)),
            median: s(summary.summary.median_ns),
            user: runs.iter().map(|r| r.user_ns as f64).sum::<f64>() / n / 1e9,
            system: runs.iter().map(|r| r.sys_ns as f64).sum::<f64>() / n / 1e9,
            min: s(summary.summary.min_ns),
            max: s(summary.summary.max_ns),
            times: runs.iter().map(|r| r.wall_ns as f64 / 1e9).collect(),
            exit_codes: runs.iter().map(|r| r.exit_code).collect(),
            memory_usage_byte: Some(runs.iter().map(|r| r.max_rss_bytes).collect()),
        }
    };
    let doc = HyperfineExport {
        results: vec![
            entry(crate::result::CommandSide::A, &result.a),
            entry(crate::result::CommandSide::B, &result.b),
        ],
    };
    let text = serde_json::to_string_pretty(&doc).map_err(|e| CliError::BadFile {
        path: path.into(),
        reason: format!("cannot encode the export: {e}"),
    })?;
    std::fs::write(path, text + "\n").map_err(|source| CliError::File {
        action: "write",
        path: path.into(),
        source,
    })
}

/// Reads the first two commands' `command` and `times` (converted to ns) from a hyperfine
/// export. Errors: the file cannot be read, is not hyperfine's JSON, has fewer than two
/// results, or holds a time that is not a positive finite number.
pub fn import(path: &Path) -> Result<[(String, Vec<f64>); 2]> {
    let text = std::fs::read_to_string(path).map_err(|source| CliError::File {
        action: "read",
        path: path.into(),
        source,
    })?;
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
    let mut it = doc.results.into_iter();
    let (Some(a), Some(b)) = (it.next(), it.next()) else {
        return Err(bad(
            "holds fewer than two results; export both commands in one hyperfine run".into(),
        ));
    };
    let mut out = Vec::new();
    for e in [a, b] {
        if let Some(t) = e.times.iter().find(|t| !(t.is_finite() && **t > 0.0)) {
            return Err(bad(format!(
                "the times of `{}` hold {t}, not a positive number of seconds",
                e.command
            )));
        }
        out.push((e.command, e.times.iter().map(|t| t * 1e9).collect()));
    }
    let b = out.pop().unwrap_or_default();
    let a = out.pop().unwrap_or_default();
    Ok([a, b])
}
