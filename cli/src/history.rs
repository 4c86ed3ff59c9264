//! Each comparison's results across invocations, in the target directory's
//! `rtcompare/history/`: one JSON-lines file per comparison (the core's `support::pool::history`),
//! and the sentence that names an earlier result whose interval excludes the new one.
//!
//! A file's name says its kind, which fixes the sign of its δ for `rtcompare combine`:
//! `cmd-…` (δ = 1 − reference/command, positive: the command is slower), `bench-…`
//! (δ = 1 − head/baseline's time ratio as `rtcompare bench` pools it, negative: the head is
//! slower), anything else a pooled compare result (the main job's `compare.jsonl`).

use std::path::{Path, PathBuf};

use rtcompare::support::bench::{BuildStatus, BuildsRun};
use rtcompare::support::pool::history::{self, Entry, Recorded};

use crate::result::CmdResult;

/// The history directory under `target` (a target directory).
pub fn dir(target: &Path) -> PathBuf {
    target.join("rtcompare").join("history")
}

/// The history directory of `rtcompare cmd`, run in `cwd`: under `$CARGO_TARGET_DIR` when set,
/// else under `target` when `cwd` has one (a cargo project); `None` elsewhere, so that running
/// two programs in any directory leaves no `target` behind.
pub fn cmd_dir(cwd: &Path) -> Option<PathBuf> {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) if !d.is_empty() => Some(dir(&cwd.join(d))),
        _ => cwd
            .join("target")
            .is_dir()
            .then(|| dir(&cwd.join("target"))),
    }
}

/// Records every comparison of `result` that has an interval (not the few-runs rule) in `dir`
/// and returns the warnings of those that disagree with earlier runs; a history that cannot be
/// written is a warning too, never the run's failure.
pub fn record_cmd(dir: &Path, result: &CmdResult) -> Vec<String> {
    let mut warnings = Vec::new();
    for c in &result.comparisons {
        let v = &c.verdict;
        let (Some(low), Some(high), Some(level)) = (v.low, v.high, v.level) else {
            continue;
        };
        let (Some(reference), Some(command)) =
            (result.commands.first(), result.commands.get(c.index))
        else {
            continue;
        };
        // The verdict's interval on B's time over A's, as combine reads a cmd result's δ.
        let delta = |ratio: f64| 1.0 - 1.0 / ratio;
        let entry = Entry::now(delta(v.ratio), delta(low), delta(high), level);
        let name = format!(
            "cmd-{}",
            history::file_name(&format!("{} vs {}", command.command, reference.command))
        );
        warnings.extend(said(history::append(dir, &name, entry)));
    }
    warnings
}

/// Records every compared benchmark of `run` (the baseline and head commits named, `dirty`
/// when the head is the working tree with changes) in `dir`; returns the warnings as
/// [`record_cmd`] does.
pub fn record_bench(dir: &Path, run: &BuildsRun, commits: (&str, &str, bool)) -> Vec<String> {
    let (base, head, dirty) = commits;
    let short = |c: &str| c.chars().take(10).collect::<String>();
    let mut warnings = Vec::new();
    for b in &run.benchmarks {
        let (BuildStatus::Compared, Some(p)) = (b.status, &b.pooled) else {
            continue;
        };
        let name = format!(
            "bench-{}",
            history::file_name(&format!(
                "{}..{}{} {}",
                short(base),
                short(head),
                if dirty { "-dirty" } else { "" },
                b.name
            ))
        );
        warnings.extend(said(history::record(dir, &name, p)).map(|w| format!("{}: {w}", b.name)));
    }
    warnings
}

/// The warning of one record: its disagreement, or why it could not be kept.
fn said(recorded: rtcompare::Result<Recorded>) -> Option<String> {
    match recorded {
        Ok(r) => r.warning(),
        Err(e) => Some(format!("the comparison's history was not kept: {e}")),
    }
}
