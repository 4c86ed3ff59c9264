//! The JSON result of `rtcompare cmd` and `rtcompare git` (layout [`SCHEMA_VERSION`]): what a
//! run, a command's summary, a comparison (with the [`Figures`] its HTML page draws), `git`'s
//! two trees and the whole result hold, and the reader of both layouts ([`parse`]), which
//! also fills in the figures of files written before comparisons held them.
//!
//! **Why one file.** The layout is one concept: the types that make it, the constructor that
//! stamps it (`CmdResult::new`) and the reader that turns schema 1 into it all change
//! together when `schema_version` moves.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use rtcompare::env::Environment;
use rtcompare::support::measure::{CounterDelta, CounterFailure, CounterSummary, SideCounters};

use crate::analysis::{self, Floor, Rule, SideSummary, Warning};
use crate::error::{CliError, Result};
use crate::process::Measured;
use rtcompare::stats::{Bounds, over_budget};

/// Version of the JSON result's layout (`schema_version`). Readers should check it: 2 holds
/// every command in `commands` and every verdict in `comparisons`, and nothing twice; 1 also
/// carried the first of each at the top level ([`parse`] reads both).
pub const SCHEMA_VERSION: u32 = 2;

/// Which command a run belongs to. Serialised as `"a"`, `"b"` (and, for A/A validation runs,
/// `"a2"`, `"b2"` for the second copies A′ and B′).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandSide {
    /// Command A.
    A,
    /// Command B.
    B,
    /// Command A as its own A/A partner (A′).
    A2,
    /// Command B as its own A/A partner (B′).
    B2,
}

/// One timed run, as written to the JSON result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Which command: `a` for the reference, `b` for the others (`a2`/`b2` for their A/A
    /// partner runs); [`command`](Self::command) says which one.
    pub side: CommandSide,
    /// The command's index in [`CmdResult::commands`] (0 is the reference).
    #[serde(default)]
    pub command: usize,
    /// Wall time from spawn to reap, monotonic clock, ns.
    pub wall_ns: u64,
    /// User CPU time (`wait4`), ns.
    pub user_ns: u64,
    /// System CPU time (`wait4`), ns.
    pub sys_ns: u64,
    /// Maximum resident set size (`wait4`'s `ru_maxrss`), bytes.
    pub max_rss_bytes: u64,
    /// Exit code; `null` when a signal ended the run.
    pub exit_code: Option<i32>,
    /// The signal that ended the run, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// With `--counters`: the hardware counts of the run's process and its descendants (user
    /// space; `cycles`, `instructions`, `cache_misses`, `branch_misses`, each `null` where
    /// unknown, and `enabled_ns`/`running_ns`). `null` without `--counters` or where counters
    /// are unavailable (the result's `counters` says why).
    #[serde(default)]
    pub counters: Option<CounterDelta>,
}

impl RunRecord {
    pub(crate) fn new(
        side: CommandSide,
        command: usize,
        (m, counters): &(Measured, Option<CounterDelta>),
    ) -> RunRecord {
        RunRecord {
            side,
            command,
            wall_ns: m.wall_ns,
            user_ns: m.user_ns,
            sys_ns: m.sys_ns,
            max_rss_bytes: m.max_rss_bytes,
            exit_code: m.exit_code,
            signal: m.signal,
            counters: *counters,
        }
    }
}

/// Why the comparison stage stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// `--runs N` pairs were measured.
    Runs,
    /// The interval reached `--width` (`--precision`).
    Precision,
    /// Every comparison's sequential decision settled: faster, slower or equivalent.
    Decided,
    /// The sequential rule's last planned look left a comparison unsettled: cannot tell.
    LastLook,
    /// `--max-time` ran out.
    MaxTime,
    /// `--max-runs` pairs were measured.
    MaxRuns,
    /// The session stopped early (a failure, a timeout, a signal): the result's `stopped`
    /// says why.
    Stopped,
}

/// One side's summary, with its command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideResult {
    /// Its label: `A`, `B`, or its `--command-name`.
    #[serde(default)]
    pub name: String,
    /// The command as given.
    pub command: String,
    /// The parameter values substituted into the command (`-L`, `-P`), by name; empty (and
    /// left out of the JSON) without parameters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, String>,
    /// Its summary over the timed runs.
    #[serde(flatten)]
    pub summary: SideSummary,
}

/// A warning with its plain sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WarningEntry {
    /// The warning's data.
    pub warning: Warning,
    /// The same as one sentence.
    pub message: String,
}

/// Why a session ended before its stopping rule, as the JSON's `stopped` field says it
/// (`null` when it ended normally).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    /// Still measuring: the file is a snapshot written while the session ran (a process
    /// killed outright leaves it so).
    Running,
    /// A run (or a hook) failed without `--ignore-failure`.
    RunFailed,
    /// Ctrl-C or SIGTERM.
    Interrupted,
    /// A run passed its time limit.
    Timeout,
    /// A command could not be started.
    SpawnFailed,
    /// Anything else (a system call, the statistics).
    Error,
}

impl Stopped {
    /// The reason an error stopped the session.
    pub fn of(e: &CliError) -> Stopped {
        match e {
            CliError::Failed { .. } => Stopped::RunFailed,
            CliError::Interrupted => Stopped::Interrupted,
            CliError::Timeout { .. } => Stopped::Timeout,
            CliError::Spawn { .. } => Stopped::SpawnFailed,
            _ => Stopped::Error,
        }
    }
}

/// One command compared with the reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The command's label.
    pub name: String,
    /// The reference's label.
    pub reference: String,
    /// The command's index in [`CmdResult::commands`].
    pub index: usize,
    /// Which rule decided.
    pub rule: Rule,
    /// The verdict, the command as B against the reference as A: `outcome`, `ratio` (its time
    /// over the reference's), the interval at `level`.
    pub verdict: analysis::VerdictSummary,
    /// The library's estimate (bootstrap rule).
    #[serde(default)]
    pub estimate: Option<rtcompare::Estimate>,
    /// The library's few-runs verdict (few-runs rule).
    #[serde(default)]
    pub few_runs: Option<rtcompare::support::stats::FewRunsVerdict>,
    /// The A/A floor of the pair; `null` with `--no-validation`.
    pub floor: Option<Floor>,
    /// Timed pairs (rounds) behind it.
    pub pairs: usize,
    /// The sequential decision behind the verdict (rule `sequential`): every look, why it
    /// stopped, the margin; `null` under the other rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<crate::decide::Decision>,
    /// The statistics the HTML page draws for this comparison (drift tests, bootstrap
    /// quantiles), computed once when the result was made. Always written; `null` or absent
    /// only in files written before the field existed, and [`parse`] fills it in when it
    /// reads such a file.
    #[serde(default)]
    pub figures: Option<Figures>,
}

impl Comparison {
    /// What this comparison's interval guarantees, on the scale of the rule that judged it:
    /// the bootstrap rule's estimate, the sequential rule's last look; `None` under the
    /// few-runs rule, which has no interval.
    pub(crate) fn bounds(&self) -> Option<Bounds> {
        match self.rule {
            Rule::Bootstrap => self.estimate.as_ref().map(analysis::bootstrap_bounds),
            Rule::Sequential => Some(crate::decide::bounds(self.verdict.low?, self.verdict.high?)),
            Rule::FewRuns => None,
        }
    }
}

pub use crate::figures::{AA_QUANTILES, Figures, REPLICATE_STEPS};

/// One command's hardware counts with `--counters`: the medians per run over its timed runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandCounters {
    /// The command's label.
    pub name: String,
    /// Its medians per run (`cycles_per_op`, …; one "operation" per run) and how many of its
    /// runs were counted (`batches`).
    #[serde(flatten)]
    pub counters: SideCounters,
}

/// The `--counters` summaries of the timed `runs` of the commands labelled `names` (the
/// reference first): the reference against the second command (the result's `counters`, as
/// `a` and `b` are those two), and every command's own medians. Runs are attributed by their
/// command index, not their side: with more than two commands every non-reference command's
/// runs are side B. `unavailable` is the first refusal's reason, `failures` the counters
/// refused while others opened.
pub(crate) fn counter_summaries(
    runs: &[RunRecord],
    names: &[&str],
    unavailable: Option<String>,
    failures: &[CounterFailure],
) -> (CounterSummary, Vec<CommandCounters>) {
    let of = |command: usize| -> Vec<CounterDelta> {
        runs.iter()
            .filter(|r| r.command == command && matches!(r.side, CommandSide::A | CommandSide::B))
            .filter_map(|r| r.counters)
            .collect()
    };
    let counted: Vec<Vec<CounterDelta>> = (0..names.len()).map(of).collect();
    let per_command = names
        .iter()
        .zip(&counted)
        // The library summarises two sides at once; a command alone is side A of a summary
        // with an empty side B.
        .map(|(name, deltas)| CommandCounters {
            name: (*name).to_string(),
            counters: CounterSummary::from_batches(deltas, &[], 1).a,
        })
        .collect();
    let (a, b) = (
        counted.first().map_or(&[][..], Vec::as_slice),
        counted.get(1).map_or(&[][..], Vec::as_slice),
    );
    let summary = if counted.iter().all(Vec::is_empty) {
        CounterSummary::unavailable(
            unavailable.unwrap_or_else(|| "no timed run was counted".into()),
        )
    } else {
        CounterSummary::from_batches(a, b, 1).with_failures(failures)
    };
    (summary, per_command)
}

/// What the JSON result of `rtcompare git` records about the two trees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GitInfo {
    /// `--base` as given.
    pub base_ref: String,
    /// The baseline's commit id (A).
    pub base_commit: String,
    /// `--head` as given; `None` when the head is the working tree.
    #[serde(default)]
    pub head_ref: Option<String>,
    /// The head's commit id (B): `--head`'s commit, or the working tree's `HEAD` (B is then
    /// this plus any uncommitted changes).
    pub head_commit: String,
    /// Whether the head is the working tree with uncommitted changes (tracked or untracked
    /// files); always false with `--head`.
    pub dirty: bool,
    /// The temporary worktree the baseline was built in (removed afterwards).
    pub baseline_tree: PathBuf,
    /// With `--head`: the temporary worktree the head was built in (removed afterwards).
    #[serde(default)]
    pub head_tree: Option<PathBuf>,
    /// The working tree's top directory.
    pub working_tree: PathBuf,
}

/// The JSON result of `rtcompare cmd --json FILE` (layout [`SCHEMA_VERSION`]).
///
/// Every command is in [`commands`](Self::commands) (the reference first) and every verdict in
/// [`comparisons`](Self::comparisons), also for two commands: schema 1 repeated the first
/// comparison and the first two commands at the top level (`rule`, `verdict`, `a`, `b`,
/// `estimate`, `few_runs`, `floor`), and readers could not tell which copy to trust. Such files
/// are still read, by [`parse`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CmdResult {
    /// Layout version, [`SCHEMA_VERSION`] (0 when read from a file that declares none).
    #[serde(default)]
    pub schema_version: u32,
    /// `rtcompare-cli` and its version.
    pub tool: String,
    /// Timed rounds (pairs, for two commands).
    pub pairs: usize,
    /// Why measuring stopped.
    pub stop: StopReason,
    /// `--threshold` (fraction).
    pub threshold: f64,
    /// `--width` (fraction).
    pub width: f64,
    /// The bootstrap's seed; pass it with `--seed` to recompute the same interval.
    pub seed: u64,
    /// With `--counters`: for the reference and the second command, the median over its timed
    /// runs of each hardware count per run (the library's `CounterSummary` with one
    /// "operation" per run: `inner_loops` is 1), or `status.state = "unavailable"` with the
    /// reason; every command's are in `command_counters`. Diagnostics only: the verdict
    /// never uses them. `null` without `--counters`.
    #[serde(default)]
    pub counters: Option<CounterSummary>,
    /// With `--counters`: every command's medians per run in command order, the reference
    /// first; empty without `--counters`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command_counters: Vec<CommandCounters>,
    /// Median wall time of an empty command under the same shell (ns).
    pub start_floor_ns: Option<f64>,
    /// Warnings.
    pub warnings: Vec<WarningEntry>,
    /// Discarded warm-up runs per command.
    pub warmup_runs: usize,
    /// Every timed run of the comparison, in the order run (ABBA).
    pub runs: Vec<RunRecord>,
    /// Every A/A partner run (A′ and B′), in the order run; the A/A pairs are these with the
    /// `runs` of the same side, in order.
    pub validation_runs: Vec<RunRecord>,
    /// With `rtcompare git`: the two trees' commits and whether the working tree was dirty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<GitInfo>,
    /// The machine and the session (the library's environment stamp).
    pub environment: Environment,
    /// Wall time of the whole invocation, seconds.
    pub elapsed_s: f64,
    /// Every command in order, the reference (the baseline) first, with its summary.
    pub commands: Vec<SideResult>,
    /// Every command against the reference, in command order: one entry for two commands.
    pub comparisons: Vec<Comparison>,
    /// With more than one comparison, the coverage each was judged at so that all hold
    /// together at 95 % (Bonferroni: 1 − 0.05/m for m comparisons); `null` for one.
    #[serde(default)]
    pub family_level: Option<f64>,
    /// `null` when the session ended normally; otherwise why it stopped early. The runs
    /// measured before are all in the file.
    #[serde(default)]
    pub stopped: Option<Stopped>,
    /// The error's sentence when `stopped` is not `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_message: Option<String>,
}

/// What a front end measured and judged, from which [`CmdResult::new`] makes the result: the
/// one place that stamps the version and the tool, words the warnings and sets the family's
/// level, whether the runs were measured here (`cmd`, `git`) or imported (hyperfine).
pub(crate) struct Parts {
    /// Timed rounds.
    pub(crate) pairs: usize,
    /// Why measuring stopped.
    pub(crate) stop: StopReason,
    /// `--threshold` and `--width`.
    pub(crate) threshold: f64,
    pub(crate) width: f64,
    /// The seed the intervals were drawn with.
    pub(crate) seed: u64,
    /// The coverage each comparison was judged at (recorded as the family's level with more
    /// than one comparison).
    pub(crate) level: f64,
    /// With `--counters`: the summary and every command's medians.
    pub(crate) counters: Option<(CounterSummary, Vec<CommandCounters>)>,
    pub(crate) start_floor_ns: Option<f64>,
    pub(crate) warnings: Vec<analysis::Warning>,
    pub(crate) warmup_runs: usize,
    pub(crate) runs: Vec<RunRecord>,
    pub(crate) validation_runs: Vec<RunRecord>,
    pub(crate) environment: Environment,
    /// When the invocation started.
    pub(crate) started: Instant,
    pub(crate) commands: Vec<SideResult>,
    pub(crate) comparisons: Vec<Comparison>,
}

/// `rtcompare-cli` and its version, as every file this tool writes names its writer.
pub(crate) fn tool() -> String {
    format!("rtcompare-cli {}", env!("CARGO_PKG_VERSION"))
}

impl CmdResult {
    /// The result of `parts`, at [`SCHEMA_VERSION`], not stopped early.
    pub(crate) fn new(parts: Parts) -> CmdResult {
        let (counters, command_counters) = parts
            .counters
            .map_or((None, Vec::new()), |(s, c)| (Some(s), c));
        let mut result = CmdResult {
            schema_version: SCHEMA_VERSION,
            tool: tool(),
            pairs: parts.pairs,
            stop: parts.stop,
            threshold: parts.threshold,
            width: parts.width,
            seed: parts.seed,
            counters,
            command_counters,
            start_floor_ns: parts.start_floor_ns,
            warnings: parts
                .warnings
                .into_iter()
                .map(|w| WarningEntry {
                    message: w.to_string(),
                    warning: w,
                })
                .collect(),
            warmup_runs: parts.warmup_runs,
            runs: parts.runs,
            validation_runs: parts.validation_runs,
            git: None,
            environment: parts.environment,
            elapsed_s: parts.started.elapsed().as_secs_f64(),
            commands: parts.commands,
            family_level: (parts.comparisons.len() > 1).then_some(parts.level),
            comparisons: parts.comparisons,
            stopped: None,
            stopped_message: None,
        };
        // The one place the figures are computed for a new result: the page only draws them.
        result.fill_figures();
        result
    }

    /// Computes the [`Figures`] of every comparison that has none (all of them in a new
    /// result; in a file, those written before comparisons held them) and leaves the others
    /// as they are.
    fn fill_figures(&mut self) {
        let missing: Vec<(usize, Figures)> = self
            .comparisons
            .iter()
            .enumerate()
            .filter(|(_, c)| c.figures.is_none())
            .map(|(i, c)| {
                let walls = |side| self.walls(c, side);
                let figures = crate::figures::pair_figures(
                    (&walls(CommandSide::A), &walls(CommandSide::B)),
                    (&walls(CommandSide::A2), &walls(CommandSide::B2)),
                    c.estimate.as_ref(),
                    self.seed,
                );
                (i, figures)
            })
            .collect();
        for (i, figures) in missing {
            self.comparisons[i].figures = Some(figures);
        }
    }

    /// Wall times (ns), in the order run, of the runs of `side` that belong to comparison
    /// `c`: `A` and `B` from [`runs`](Self::runs), `A2` and `B2` (the A/A partner runs) from
    /// [`validation_runs`](Self::validation_runs). With more than one comparison every
    /// non-reference command's runs are side B, so the command's own are picked by its index
    /// (the reference's by 0); with one, the side alone tells them apart (also in files
    /// written before runs carried their command). Empty when there are none.
    pub(crate) fn walls(&self, c: &Comparison, side: CommandSide) -> Vec<f64> {
        let command = match (side, self.comparisons.len() > 1) {
            (_, false) => None,
            (CommandSide::A | CommandSide::A2, true) => Some(0),
            (CommandSide::B | CommandSide::B2, true) => Some(c.index),
        };
        let runs = match side {
            CommandSide::A | CommandSide::B => &self.runs,
            CommandSide::A2 | CommandSide::B2 => &self.validation_runs,
        };
        runs.iter()
            .filter(|r| r.side == side && command.is_none_or(|i| r.command == i))
            .map(|r| r.wall_ns as f64)
            .collect()
    }

    /// The reference (the baseline every other command is compared with).
    pub fn reference(&self) -> Option<&SideResult> {
        self.commands.first()
    }

    /// The first comparison: the only one for two commands.
    pub fn first(&self) -> Option<&Comparison> {
        self.comparisons.first()
    }

    /// The command that comparison `c` compares with the reference.
    pub fn candidate(&self, c: &Comparison) -> Option<&SideResult> {
        self.commands.get(c.index)
    }

    /// The command lines comparison `c` compares, as given: the reference's and the
    /// candidate's (empty where the result lacks one).
    pub fn command_lines(&self, c: &Comparison) -> (&str, &str) {
        fn line(s: Option<&SideResult>) -> &str {
            s.map_or("", |s| s.command.as_str())
        }
        (line(self.reference()), line(self.candidate(c)))
    }

    /// Whether some command fails `--fail-on-regression BUDGET` (`budget` a fraction; 0: any
    /// proven slowdown): proven slower than the reference (its interval above zero and the A/A
    /// floor) with an estimated slowdown (`ratio − 1`) above the budget, the library's
    /// [`over_budget`]. A loss under the few-runs rule, which has no interval, counts whatever
    /// the budget.
    pub fn regressed(&self, budget: f64) -> bool {
        self.comparisons.iter().any(|c| match c.bounds() {
            Some(b) => {
                let floor = c.floor.as_ref().map_or(0.0, |f| f.floor);
                over_budget(b, floor, c.verdict.ratio - 1.0, budget)
            }
            None => c.verdict.outcome.is_regression(),
        })
    }
}

/// A result as schema 1 wrote it: the first comparison and the first two commands at the top
/// level, and (in files written before more than two commands could be compared) no
/// `commands` or `comparisons` at all.
#[derive(Deserialize)]
struct SchemaOne {
    #[serde(flatten)]
    rest: SchemaOneRest,
    rule: Rule,
    verdict: analysis::VerdictSummary,
    a: SideResult,
    b: SideResult,
    #[serde(default)]
    estimate: Option<rtcompare::Estimate>,
    #[serde(default)]
    few_runs: Option<rtcompare::support::stats::FewRunsVerdict>,
    floor: Option<Floor>,
}

/// The fields schema 1 shares with schema 2, `commands` and `comparisons` optional.
#[derive(Deserialize)]
struct SchemaOneRest {
    tool: String,
    pairs: usize,
    stop: StopReason,
    threshold: f64,
    width: f64,
    seed: u64,
    #[serde(default)]
    counters: Option<CounterSummary>,
    #[serde(default)]
    command_counters: Vec<CommandCounters>,
    start_floor_ns: Option<f64>,
    warnings: Vec<WarningEntry>,
    warmup_runs: usize,
    runs: Vec<RunRecord>,
    validation_runs: Vec<RunRecord>,
    #[serde(default)]
    git: Option<GitInfo>,
    environment: Environment,
    elapsed_s: f64,
    #[serde(default)]
    commands: Vec<SideResult>,
    #[serde(default)]
    comparisons: Vec<Comparison>,
    #[serde(default)]
    family_level: Option<f64>,
    #[serde(default)]
    stopped: Option<Stopped>,
    #[serde(default)]
    stopped_message: Option<String>,
}

impl From<SchemaOne> for CmdResult {
    /// The schema-2 form of a schema-1 result: `commands` and `comparisons` from the top-level
    /// copies where the file has none.
    fn from(one: SchemaOne) -> CmdResult {
        let r = one.rest;
        let label = |side: &SideResult, default: &str| {
            if side.name.is_empty() {
                default.to_string()
            } else {
                side.name.clone()
            }
        };
        let comparisons = if r.comparisons.is_empty() {
            vec![Comparison {
                name: label(&one.b, "B"),
                reference: label(&one.a, "A"),
                index: 1,
                rule: one.rule,
                verdict: one.verdict,
                estimate: one.estimate,
                few_runs: one.few_runs,
                floor: one.floor,
                pairs: r.pairs,
                decision: None,
                figures: None,
            }]
        } else {
            r.comparisons
        };
        CmdResult {
            schema_version: SCHEMA_VERSION,
            tool: r.tool,
            pairs: r.pairs,
            stop: r.stop,
            threshold: r.threshold,
            width: r.width,
            seed: r.seed,
            counters: r.counters,
            command_counters: r.command_counters,
            start_floor_ns: r.start_floor_ns,
            warnings: r.warnings,
            warmup_runs: r.warmup_runs,
            runs: r.runs,
            validation_runs: r.validation_runs,
            git: r.git,
            environment: r.environment,
            elapsed_s: r.elapsed_s,
            commands: if r.commands.is_empty() {
                vec![one.a, one.b]
            } else {
                r.commands
            },
            comparisons,
            family_level: r.family_level,
            stopped: r.stopped,
            stopped_message: r.stopped_message,
        }
    }
}

/// Only the version, read before the rest so that the layout can be chosen.
#[derive(Deserialize)]
struct Version {
    schema_version: Option<u32>,
}

/// Reads a `rtcompare cmd --json` result of either layout: returns the `schema_version` the
/// file declares and the result in this layout ([`SCHEMA_VERSION`]; a schema-1 file is
/// converted). Upgrade step: a comparison without [`figures`](Comparison::figures) (every one
/// of a schema-1 file, and of a schema-2 file written before the field existed) gets them
/// computed here from its runs and the seed, as the result's maker would have, so that
/// drawing never computes; figures the file holds are kept as written. Errors: the reason, in
/// words, when the text is not such a result, has no version, or has one newer than this
/// tool reads.
pub fn parse(text: &str) -> std::result::Result<(u32, CmdResult), String> {
    let version = serde_json::from_str::<Version>(text)
        .map_err(|e| format!("not JSON: {e}"))?
        .schema_version
        .ok_or("no schema_version: not an `rtcompare cmd --json` result")?;
    let (version, result) = match version {
        1 => parse_schema_one(text)?,
        SCHEMA_VERSION => serde_json::from_str::<CmdResult>(text)
            .map(|r| (version, r))
            .map_err(|e| incomplete(version, &e))?,
        newer => {
            return Err(format!(
                "schema_version {newer} is newer than this rtcompare reads for `rtcompare cmd \
                 --json` results (up to {SCHEMA_VERSION}): read it with the rtcompare that \
                 wrote it, or a later one"
            ));
        }
    };
    Ok((version, upgraded(result)))
}

/// Reads a result that declares no version (`rtcompare combine` names such a file and keeps
/// it from files that declare one) in whichever layout it has, this one or schema 1's, with
/// [`parse`]'s upgrade step. Errors: schema 1's reason, in words, when it has neither.
pub(crate) fn parse_unversioned(text: &str) -> std::result::Result<CmdResult, String> {
    serde_json::from_str::<CmdResult>(text)
        .map(|r| CmdResult {
            schema_version: SCHEMA_VERSION,
            ..r
        })
        .or_else(|_| parse_schema_one(text).map(|(_, r)| r))
        .map(upgraded)
}

/// The upgrade step of every reader: the figures of comparisons read without them.
fn upgraded(mut result: CmdResult) -> CmdResult {
    result.fill_figures();
    result
}

/// Reads `text` as a schema-1 result, converted to this layout (figures not yet filled);
/// returns 1 with it. Errors: the reason, in words.
fn parse_schema_one(text: &str) -> std::result::Result<(u32, CmdResult), String> {
    serde_json::from_str::<SchemaOne>(text)
        .map(|one| (1, CmdResult::from(one)))
        .map_err(|e| incomplete(1, &e))
}

fn incomplete(version: u32, e: &serde_json::Error) -> String {
    format!("not a complete `rtcompare cmd --json` result (schema {version}): {e}")
}

/// [`parse`] of the file at `path`. Errors: [`CliError::File`] when it cannot be read,
/// [`CliError::BadFile`] naming it with [`parse`]'s reason.
pub fn read(path: &std::path::Path) -> Result<(u32, CmdResult)> {
    let text = crate::files::read_text(path)?;
    parse(&text).map_err(|reason| CliError::BadFile {
        path: path.into(),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result the schema-1 binary wrote (`rtcompare cmd -r 11 -w 0 --json FILE true true`),
    /// with the summary it printed and the Markdown and CSV it exported then.
    const SCHEMA_ONE: &str = include_str!("../tests/data/cmd-schema1.json");

    #[test]
    fn a_schema_one_file_reads_into_schema_two_and_renders_as_it_did() {
        let (version, r) = parse(SCHEMA_ONE).unwrap();
        assert_eq!((version, r.schema_version), (1, SCHEMA_VERSION));
        let old: serde_json::Value = serde_json::from_str(SCHEMA_ONE).unwrap();
        let first = r.first().unwrap();
        // The top-level copies and the lists agree, and the lists are what is kept.
        assert_eq!(
            serde_json::to_value(&first.verdict).unwrap(),
            old["verdict"]
        );
        assert_eq!(serde_json::to_value(first.rule).unwrap(), old["rule"]);
        assert_eq!(serde_json::to_value(&first.floor).unwrap(), old["floor"]);
        assert_eq!(r.commands.len(), 2);
        assert_eq!(serde_json::to_value(&r.commands[1]).unwrap(), old["b"]);
        let new = serde_json::to_value(&r).unwrap();
        for gone in ["a", "b", "rule", "verdict", "estimate", "few_runs", "floor"] {
            assert!(new.get(gone).is_none(), "{gone} is still at the top level");
        }
        assert_eq!(new["schema_version"], 2);
        // Rendered from the schema-2 form as the schema-1 binary printed it, with the line of
        // the verdict in the words every front end prints and the A/A partner runs counted
        // beside the compared ones (both added since). The tables' and the CSV's hyperfine
        // columns (mean, σ, median, min, max) are over every timed run, the A/A partner runs
        // included, as hyperfine's are over every run it timed.
        assert_eq!(
            crate::export::terminal::summary(&r),
            include_str!("../tests/data/cmd-schema1.summary.txt")
        );
        assert_eq!(
            crate::export::markup::table(&r, &crate::export::markdown::Markdown),
            include_str!("../tests/data/cmd-schema1.md")
        );
        assert_eq!(
            crate::export::csv::csv(&r),
            include_str!("../tests/data/cmd-schema1.csv")
        );
        // Read back as schema 2, unchanged.
        let text = serde_json::to_string(&r).unwrap();
        assert_eq!(parse(&text).unwrap(), (2, r));
    }

    #[test]
    fn a_schema_one_file_without_the_lists_gets_them_from_the_top_level() {
        let mut old: serde_json::Value = serde_json::from_str(SCHEMA_ONE).unwrap();
        let o = old.as_object_mut().unwrap();
        o.remove("commands");
        o.remove("comparisons");
        let (_, r) = parse(&old.to_string()).unwrap();
        assert_eq!(r.commands.len(), 2);
        let c = r.first().unwrap();
        assert_eq!(
            (c.index, c.name.as_str(), c.reference.as_str()),
            (1, "B", "A")
        );
        assert_eq!(serde_json::to_value(&c.verdict).unwrap(), old["verdict"]);
        // Newer layouts and files that are not results are refused with the reason.
        old["schema_version"] = 3.into();
        assert!(parse(&old.to_string()).unwrap_err().contains("newer"));
        assert!(parse("{}").unwrap_err().contains("no schema_version"));
    }

    /// Every comparison's figures, as `r` holds them.
    fn figures(r: &CmdResult) -> Vec<&Figures> {
        r.comparisons
            .iter()
            .map(|c| c.figures.as_ref().expect("figures filled"))
            .collect()
    }

    #[test]
    fn figures_are_filled_from_each_comparisons_own_runs() {
        let (_, r) = parse(SCHEMA_ONE).unwrap();
        let f = figures(&r)[0];
        let e = r.first().unwrap().estimate.unwrap();
        // 11 pairs: every drift test ran, over that comparison's runs.
        assert_eq!((f.drift_a.n, f.drift_b.n, f.drift_ratio.n), (11, 11, 11));
        assert_eq!(f.replicates, e.resamples);
        let q = &f.replicate_quantiles;
        assert_eq!(q.len(), REPLICATE_STEPS + 1);
        assert!(q.windows(2).all(|w| w[0] <= w[1]), "{q:?}");
        // The 2.5 % and 97.5 % quantiles fall on steps: the 95 % interval's ends.
        assert_eq!(e.level, 0.95);
        assert!((q[5] - e.low).abs() < 1e-12 && (q[195] - e.high).abs() < 1e-12);
        assert_eq!(f.aa_a_quantiles.len(), AA_QUANTILES);
        assert_eq!(f.aa_b_quantiles.len(), AA_QUANTILES);
        // Three commands: each comparison's figures are of its own command's runs (11 each,
        // not the 22 of every side-B run), and without A/A runs there are no A/A quantiles.
        let (_, three) = parse(include_str!("../tests/data/cmd3-schema1.json")).unwrap();
        let fs = figures(&three);
        assert_eq!(fs.len(), 2);
        assert_ne!(fs[0].drift_b, fs[1].drift_b);
        for f in fs {
            assert_eq!((f.drift_a.n, f.drift_b.n), (11, 11));
            assert!(f.aa_a_quantiles.is_empty() && f.aa_b_quantiles.is_empty());
        }
    }

    #[test]
    fn figures_survive_a_round_trip_and_older_schema_two_files_get_them_when_read() {
        let (_, r) = parse(SCHEMA_ONE).unwrap();
        let mut written = serde_json::to_value(&r).unwrap();
        assert_eq!(parse(&written.to_string()).unwrap(), (2, r.clone()));
        // Figures in the file are kept as written, not computed again.
        written["comparisons"][0]["figures"]["replicates"] = 7.into();
        let (_, kept) = parse(&written.to_string()).unwrap();
        assert_eq!(figures(&kept)[0].replicates, 7);
        assert_eq!(parse_unversioned(&written.to_string()).unwrap(), kept);
        // A schema-2 file from before the field existed gets the same figures at read time.
        let comparison = written["comparisons"][0].as_object_mut().unwrap();
        comparison.remove("figures");
        assert_eq!(parse(&written.to_string()).unwrap(), (2, r.clone()));
        assert_eq!(parse_unversioned(&written.to_string()).unwrap(), r);
    }

    /// A timed run of `command` (side A for the reference, B for the others) that counted
    /// `cycles`.
    fn run(command: usize, cycles: u64) -> RunRecord {
        RunRecord {
            side: if command == 0 {
                CommandSide::A
            } else {
                CommandSide::B
            },
            command,
            wall_ns: 1_000_000,
            user_ns: 0,
            sys_ns: 0,
            max_rss_bytes: 0,
            exit_code: Some(0),
            signal: None,
            counters: Some(CounterDelta {
                cycles: Some(cycles),
                instructions: None,
                cache_misses: None,
                branch_misses: None,
                enabled_ns: 10,
                running_ns: 10,
            }),
        }
    }

    #[test]
    fn counters_are_attributed_by_command_not_by_side() {
        // Three commands of 1,000, 2,000 and 3,000 cycles a run, four rounds.
        let runs: Vec<RunRecord> = (0..4)
            .flat_map(|_| (0..3).map(|c| run(c, 1_000 * (c as u64 + 1))))
            .collect();
        let (summary, per) = counter_summaries(&runs, &["A", "B", "C"], None, &[]);
        assert!(summary.is_available());
        // B is the second command alone: C's runs, side B too, are not in it.
        assert_eq!(summary.b.cycles_per_op, Some(2_000.0));
        assert_eq!(summary.b.batches, 4);
        let cycles: Vec<_> = per
            .iter()
            .map(|c| (c.name.as_str(), c.counters.cycles_per_op))
            .collect();
        assert_eq!(
            cycles,
            [
                ("A", Some(1_000.0)),
                ("B", Some(2_000.0)),
                ("C", Some(3_000.0))
            ]
        );
        assert!(per.iter().all(|c| c.counters.batches == 4));
        // Nothing counted: unavailable, with the refusal's reason.
        let bare: Vec<RunRecord> = runs
            .iter()
            .map(|r| RunRecord {
                counters: None,
                ..r.clone()
            })
            .collect();
        let (summary, per) = counter_summaries(&bare, &["A", "B", "C"], Some("no PMU".into()), &[]);
        assert!(!summary.is_available());
        assert_eq!(per.len(), 3);
    }
}
