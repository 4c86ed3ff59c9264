//! The JSON file kept current while a session measures: a snapshot of the runs at most every
//! [`SNAPSHOT_EVERY`], and the final word on every early exit, so that a session stopped by a
//! failure, a signal or a kill still leaves every run it measured.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::cli::CompareArgs;
use crate::export::Exporter;
use crate::export::json::Json;
use crate::files;
use crate::result::{CmdResult, RunRecord, SCHEMA_VERSION, Stopped, tool};

/// The JSON file kept current while measuring: a snapshot of the runs at most every
/// [`SNAPSHOT_EVERY`], and the final word on every early exit. Nothing when `--json` is not
/// given or is stdout (`-`). Each write goes to a temporary file renamed over the target, so
/// a reader never sees half a file.
pub(crate) struct Snapshot {
    path: Option<PathBuf>,
    commands: Vec<(String, String)>,
    last: Instant,
    tool: String,
}

/// Least time between two snapshots of the JSON while measuring.
const SNAPSHOT_EVERY: Duration = Duration::from_secs(2);

/// The JSON of a session stopped before any verdict could be computed (or still running):
/// the commands and every run measured.
#[derive(Debug, Serialize)]
struct RunsOnly<'a> {
    schema_version: u32,
    tool: &'a str,
    stopped: Stopped,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_message: Option<String>,
    commands: Vec<RunsOnlyCommand<'a>>,
    warmup_runs: usize,
    runs: &'a [RunRecord],
    validation_runs: &'a [RunRecord],
}

#[derive(Debug, Serialize)]
struct RunsOnlyCommand<'a> {
    name: &'a str,
    command: &'a str,
}

impl Snapshot {
    /// The file of `args.json` for the session of `commands` (each its label and the command
    /// as given, the reference first).
    pub(crate) fn new(args: &CompareArgs, commands: Vec<(String, String)>) -> Snapshot {
        Snapshot {
            path: args.json.clone().filter(|p| p.as_os_str() != "-"),
            commands,
            last: Instant::now(),
            tool: tool(),
        }
    }

    /// After a round: a snapshot of the timed `runs`, the A/A partner runs `validation_runs`
    /// and the `warmup_runs` done per command, when the last snapshot is old enough.
    pub(crate) fn tick(
        &mut self,
        runs: &[RunRecord],
        validation_runs: &[RunRecord],
        warmup_runs: usize,
    ) {
        if self.path.is_some() && self.last.elapsed() >= SNAPSHOT_EVERY {
            self.write_runs(
                runs,
                validation_runs,
                warmup_runs,
                Stopped::Running,
                None,
                false,
            );
            self.last = Instant::now();
        }
    }

    /// Writes the runs alone (as [`tick`](Self::tick) takes them) with `stopped`. Errors are
    /// reported on stderr when `loud`, and never stop the session (the final write reports its
    /// own).
    pub(crate) fn write_runs(
        &self,
        runs: &[RunRecord],
        validation_runs: &[RunRecord],
        warmup_runs: usize,
        stopped: Stopped,
        message: Option<String>,
        loud: bool,
    ) {
        let Some(path) = &self.path else { return };
        let doc = RunsOnly {
            schema_version: SCHEMA_VERSION,
            tool: &self.tool,
            stopped,
            stopped_message: message,
            commands: self
                .commands
                .iter()
                .map(|(name, command)| RunsOnlyCommand { name, command })
                .collect(),
            warmup_runs,
            runs,
            validation_runs,
        };
        if let Err(e) = Json
            .render(&doc)
            .and_then(|text| files::write_atomically(path, &text))
            && loud
        {
            eprintln!("error: {e}");
        }
    }

    /// Writes a whole result (of a stopped session).
    pub(crate) fn write_result(&self, result: &CmdResult) {
        if let Some(path) = &self.path
            && let Err(e) = Json
                .render(result)
                .and_then(|text| files::write_atomically(path, &text))
        {
            eprintln!("error: {e}");
        }
    }
}
