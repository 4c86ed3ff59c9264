//! `rtcompare cmd`: the measuring protocol for two whole programs.
//!
//! 1. **Start floor**: five runs of an empty command under the same shell, to know how much of
//!    a run is process start (only used for a warning).
//! 2. **Warm-up**: `--warmup` runs of each command, alternating A, B; discarded.
//! 3. **Comparison with its A/A validation**: pairs in ABBA order (A B, then B A, …) until
//!    `--runs N` pairs, or from 11 pairs on until the interval's half-width is at most
//!    `--width`, within `--max-time` and `--max-runs`. Unless `--no-validation`, every pair
//!    comes with an A/A pair per command, in rounds A′ A B B′ and B′ B A A′, so each command
//!    is measured against itself in adjacent runs at the comparison's own number of pairs; the
//!    floor is the library's [`aa_noise_floor`](rtcompare::stats::aa_noise_floor) of each
//!    side, the larger one counts.
//! 4. **Verdict**: [`analysis::analyse`].
//!
//! `--prepare` runs before every run and is not timed. A failing run stops everything (unless
//! `--ignore-failure`); so do Ctrl-C and SIGTERM, after the running child is killed and reaped.

use std::cell::RefCell;
use std::ffi::OsString;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use rtcompare::env::Environment;
use rtcompare::measure::counters::{CounterDelta, CounterFailure, CounterSet, CounterSummary};
use rtcompare::rng::resolve_seed;
use rtcompare::stats::{self, FewRunsRule, MINIMUM_DATA_POINTS};

use crate::analysis::{self, AnalysisOptions, CommandAnalysis, Floor, Rule, SideSummary, Warning};
use crate::cli::CompareArgs;
use crate::error::{CliError, Result};
use crate::output::{self, Progress};
use crate::process::{Measured, RunFailure, Runner, Shell};

/// Version of the JSON result's layout (`schema_version`). Readers should check it.
pub const SCHEMA_VERSION: u32 = 1;

/// Runs of the empty command that measure the process-start floor: 5.
const START_FLOOR_RUNS: usize = 5;

/// Resamples of the interim interval checked while measuring (the final verdict uses the
/// library's default, 5,000): 1,000 pin a half-width to a few per cent of itself, enough to
/// decide when to stop.
const INTERIM_RESAMPLES: usize = 1_000;

/// One command as run.
#[derive(Debug, Clone)]
struct Program {
    /// `A`, `B` or `--prepare`.
    name: &'static str,
    /// The command as given.
    command: String,
    argv: Vec<OsString>,
    /// The working directory (`None`: this process's).
    dir: Option<std::path::PathBuf>,
    /// Busy-wait inside the timed window of each run.
    inject: Duration,
}

/// The two commands to compare, and the directory each runs in (`None`: the current one).
#[derive(Debug, Clone, Copy)]
pub struct Commands<'a> {
    /// Command A, the baseline.
    pub a: &'a str,
    /// Command B, the candidate.
    pub b: &'a str,
    /// Working directories of A and B.
    pub dirs: [Option<&'a std::path::Path>; 2],
    /// A busy-wait added inside each timed run of A and of B (the self-test's injected
    /// regression; zero otherwise).
    pub inject: [Duration; 2],
}

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
    /// Which command.
    pub side: CommandSide,
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
    fn new(side: CommandSide, (m, counters): &(Measured, Option<CounterDelta>)) -> RunRecord {
        RunRecord {
            side,
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
    /// The interval reached `--width`.
    Precision,
    /// `--max-time` ran out.
    MaxTime,
    /// `--max-runs` pairs were measured.
    MaxRuns,
}

/// One side's summary, with its command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideResult {
    /// The command as given.
    pub command: String,
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

/// The JSON result of `rtcompare cmd --json FILE` (layout [`SCHEMA_VERSION`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CmdResult {
    /// Layout version, [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `rtcompare-cli` and its version.
    pub tool: String,
    /// Which rule decided: `bootstrap` (11 or more pairs) or `few_runs`.
    pub rule: Rule,
    /// The verdict: `outcome`, `ratio` (B's time over A's), `best_ratio`, `tolerance`, `noise`.
    pub verdict: analysis::VerdictSummary,
    /// Command A and its summary.
    pub a: SideResult,
    /// Command B and its summary.
    pub b: SideResult,
    /// Timed pairs.
    pub pairs: usize,
    /// Why measuring stopped.
    pub stop: StopReason,
    /// `--threshold` (fraction).
    pub threshold: f64,
    /// `--width` (fraction).
    pub width: f64,
    /// The bootstrap's seed; pass it with `--seed` to recompute the same interval.
    pub seed: u64,
    /// The library's estimate (bootstrap rule).
    #[serde(default)]
    pub estimate: Option<rtcompare::Estimate>,
    /// The library's few-runs verdict (few-runs rule), B as the candidate.
    #[serde(default)]
    pub few_runs: Option<stats::FewRunsVerdict>,
    /// The A/A floor; `null` with `--no-validation`.
    pub floor: Option<Floor>,
    /// With `--counters`: per command, the median over its timed runs of each hardware count
    /// per run (the library's `CounterSummary` with one "operation" per run: `inner_loops` is
    /// 1), or `status.state = "unavailable"` with the reason. Diagnostics only: the verdict
    /// never uses them. `null` without `--counters`.
    #[serde(default)]
    pub counters: Option<CounterSummary>,
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
    pub git: Option<crate::git::GitInfo>,
    /// The machine and the session (the library's environment stamp).
    pub environment: Environment,
    /// Wall time of the whole invocation, seconds.
    pub elapsed_s: f64,
}

struct Session<'a> {
    args: &'a CompareArgs,
    runner: Runner,
    prepare: Option<Program>,
    progress: Progress,
    limit: Duration,
    /// With `--counters`: why counters could not be opened (the first refusal), and the
    /// counters that were refused while others opened.
    counters: RefCell<CounterNotes>,
}

/// What `--counters` learnt about the counters besides the counts.
#[derive(Default)]
struct CounterNotes {
    unavailable: Option<String>,
    failures: Vec<CounterFailure>,
}

impl Session<'_> {
    /// One run of `p` (after `--prepare`), measured, with its hardware counts when
    /// `--counters` is on and they are available; a failure is an error unless ignored.
    fn run(&self, p: &Program) -> Result<(Measured, Option<CounterDelta>)> {
        if let Some(prep) = &self.prepare {
            let m = self.exec(prep)?;
            if !m.success() {
                return Err(failed(prep, &m));
            }
        }
        // Opened on this thread right before the spawn (after the untimed --prepare, which it
        // must not count), read after the reap: the group counts the child from its exec on,
        // and nothing of this process (`CounterSet::open_for_children`). Opening and reading
        // happen outside the timed window.
        let group = self.args.counters.then(CounterSet::open_for_children);
        let m = self.exec(p)?;
        let counts = match group {
            Some(Ok(set)) => {
                let mut notes = self.counters.borrow_mut();
                if notes.failures.is_empty() {
                    notes.failures = set.failures().to_vec();
                }
                Some(set.read().as_delta())
            }
            Some(Err(refused)) => {
                self.counters
                    .borrow_mut()
                    .unavailable
                    .get_or_insert(refused.reason);
                None
            }
            None => None,
        };
        if !m.success() && !self.args.ignore_failure {
            return Err(failed(p, &m));
        }
        Ok((m, counts))
    }

    fn exec(&self, p: &Program) -> Result<Measured> {
        self.runner
            .run_injected(&p.argv, p.dir.as_deref(), Some(self.limit), p.inject)
            .map_err(|f| match f {
                RunFailure::Spawn(source) => CliError::Spawn {
                    name: p.name.into(),
                    command: p.command.clone(),
                    source,
                },
                RunFailure::Timeout => CliError::Timeout {
                    name: p.name.into(),
                    command: p.command.clone(),
                    limit_s: self.limit.as_secs_f64(),
                },
                RunFailure::Interrupted => CliError::Interrupted,
                RunFailure::System(call, source) => CliError::System { call, source },
            })
    }
}

fn failed(p: &Program, m: &Measured) -> CliError {
    let hint = match m.exit_code {
        Some(127) => ": the shell reports \"command not found\"".into(),
        Some(126) => ": the shell reports \"not executable\"".into(),
        _ => String::new(),
    };
    CliError::Failed {
        name: p.name.into(),
        command: p.command.clone(),
        status: m.status_text(),
        hint,
    }
}

/// Checks the flags that clap cannot check on its own (one against another, values clap
/// accepts but the protocol cannot use); `rtcompare git` calls it before any build.
pub fn check(args: &CompareArgs) -> Result<()> {
    if let Some(n) = args.runs {
        if n < stats::FEW_RUNS_MIN_RUNS {
            return Err(CliError::Usage(format!(
                "--runs {n} is too few: at least {} runs of each command are needed (11 or \
                 more for the bootstrap interval)",
                stats::FEW_RUNS_MIN_RUNS
            )));
        }
        if n > args.max_runs {
            return Err(CliError::Usage(format!(
                "--runs {n} exceeds --max-runs {}; raise --max-runs too",
                args.max_runs
            )));
        }
    }
    if args.max_runs < MINIMUM_DATA_POINTS && args.runs.is_none() {
        return Err(CliError::Usage(format!(
            "--max-runs {} is below the 11 pairs the stopping rule needs; use --runs N for \
             fewer runs",
            args.max_runs
        )));
    }
    if args.width <= 0.0 {
        return Err(CliError::Usage(
            "--width must be above 0%, for example 1%".into(),
        ));
    }
    Ok(())
}

/// Runs the whole protocol for `args` and returns the result (the caller prints and writes
/// it). Errors: a usage error, a command that cannot start or fails, a timeout, a signal.
pub fn run(commands: &Commands<'_>, args: &CompareArgs) -> Result<CmdResult> {
    let started = Instant::now();
    check(args)?;
    let shell = Shell::parse(&args.shell)?;
    let program = |name: &'static str, command: &str| -> Result<Program> {
        Ok(Program {
            name,
            command: command.into(),
            argv: shell.argv(command)?,
            dir: None,
            inject: Duration::ZERO,
        })
    };
    let a = Program {
        dir: commands.dirs[0].map(Into::into),
        inject: commands.inject[0],
        ..program("A", commands.a)?
    };
    let b = Program {
        dir: commands.dirs[1].map(Into::into),
        inject: commands.inject[1],
        ..program("B", commands.b)?
    };
    let prepare = args
        .prepare
        .as_deref()
        .map(|c| program("--prepare", c))
        .transpose()?;
    let empty = match shell {
        Shell::None => program("the empty command", "true")?,
        Shell::Program(_) => program("the empty command", ":")?,
    };
    let seed = resolve_seed(args.seed.unwrap_or(0));
    let opts = AnalysisOptions {
        threshold: args.threshold,
        seed,
        ..AnalysisOptions::default()
    };
    let mut environment = Environment::capture();
    let session = Session {
        args,
        runner: Runner::new(args.show_output)?,
        prepare,
        progress: Progress::new(),
        limit: args.max_time,
        counters: RefCell::default(),
    };

    // 1. The start floor: errors here are ignored (the warning is optional).
    let start_floor_ns = {
        let walls: Vec<f64> = (0..START_FLOOR_RUNS)
            .filter_map(|_| session.exec(&empty).ok())
            .filter(Measured::success)
            .map(|m| m.wall_ns as f64)
            .collect();
        stats::median(&walls).ok()
    };
    if crate::signals::interrupted() {
        return Err(CliError::Interrupted);
    }

    // 2. Warm-up.
    for i in 0..args.warmup {
        for p in [&a, &b] {
            session
                .progress
                .set(format!("warm-up {}/{} ({})", i + 1, args.warmup, p.name));
            session.run(p)?;
        }
    }

    // 3. The comparison: ABBA pairs, each with its A/A partners unless --no-validation.
    //
    // With validation a round is A′ A B B′ and the next B′ B A A′: the comparison pair (A, B)
    // in the middle alternates AB and BA, and the A/A pairs (A′, A) and (B, B′) are adjacent
    // runs as the comparison pair is, with the first position alternating too. So the floor is
    // always measured at the comparison's own number of pairs and spacing, as `compare()`
    // measures its A/A runs at the comparison's `repeats`. Measured first instead, 11 A/A
    // rounds of A, B, B′, A′ gave floors of 3–16 % on this 2-core machine under load while the
    // comparison's interval was ±1–1.4 %, and a real 5 % difference went undetected in 6 of 19
    // comparisons (BACKGROUND.md, "Comparing whole programs").
    let stage = Instant::now();
    let target = args.runs;
    let most = target.unwrap_or(args.max_runs);
    let validate = !args.no_validation;
    let (mut wa, mut wb) = (Vec::new(), Vec::new());
    let (mut wa2, mut wb2) = (Vec::new(), Vec::new());
    let mut runs = Vec::new();
    let mut validation_runs = Vec::new();
    let mut next_check = MINIMUM_DATA_POINTS;
    let mut half_width = None;
    let mut stop = StopReason::MaxRuns;
    for i in 0..most {
        let order: &[(CommandSide, &Program)] = match (validate, i % 2 == 0) {
            (false, true) => &[(CommandSide::A, &a), (CommandSide::B, &b)],
            (false, false) => &[(CommandSide::B, &b), (CommandSide::A, &a)],
            (true, true) => &[
                (CommandSide::A2, &a),
                (CommandSide::A, &a),
                (CommandSide::B, &b),
                (CommandSide::B2, &b),
            ],
            (true, false) => &[
                (CommandSide::B2, &b),
                (CommandSide::B, &b),
                (CommandSide::A, &a),
                (CommandSide::A2, &a),
            ],
        };
        for &(side, p) in order {
            let m = session.run(p)?;
            let wall = m.0.wall_ns as f64;
            match side {
                CommandSide::A => wa.push(wall),
                CommandSide::B => wb.push(wall),
                CommandSide::A2 => wa2.push(wall),
                CommandSide::B2 => wb2.push(wall),
            }
            match side {
                CommandSide::A | CommandSide::B => runs.push(RunRecord::new(side, &m)),
                CommandSide::A2 | CommandSide::B2 => validation_runs.push(RunRecord::new(side, &m)),
            }
        }
        let n = i + 1;
        session.progress.set(match (target, half_width) {
            (Some(t), _) => format!("pair {n}/{t}"),
            (None, Some(h)) => format!("pair {n}, interval ±{:.2} %", 100.0 * h),
            (None, None) => format!("pair {n}"),
        });
        if target == Some(n) {
            stop = StopReason::Runs;
            break;
        }
        if target.is_none() && n >= next_check {
            // Checked at geometrically spaced counts (10 % apart), so the interim bootstraps
            // cost a bounded share of the run time however short the commands are.
            next_check = n + (n / 10).max(1);
            let interim = AnalysisOptions {
                resamples: INTERIM_RESAMPLES,
                ..opts
            };
            let h = analysis::estimate(&wa, &wb, &interim)?.half_width();
            half_width = Some(h);
            if h <= args.width {
                stop = StopReason::Precision;
                break;
            }
        }
        if target.is_none() && stage.elapsed() >= args.max_time {
            stop = StopReason::MaxTime;
            break;
        }
    }
    session.progress.finish();

    // 4. The verdict.
    let pairs = wa.len().min(wb.len());
    let floor = if validate {
        Some(Floor::from_series(&wa, &wa2, &wb, &wb2, &opts)?)
    } else {
        None
    };
    let analysis = analysis::analyse(&wa, &wb, floor.as_ref(), &opts)?;
    let mut warnings = analysis::series_warnings(&wa, &wb, start_floor_ns, &FewRunsRule::default());
    if floor.is_none() {
        warnings.push(Warning::NoValidation);
    }
    if let Some(Floor {
        few_runs: Some(v), ..
    }) = &floor
    {
        for (side, v) in ["A", "B"].iter().zip(v) {
            if v.outcome != stats::FewRunsOutcome::Parity {
                warnings.push(Warning::AaNotParity {
                    side: (*side).into(),
                    outcome: v.outcome,
                });
            }
        }
    }
    if stop == StopReason::MaxTime {
        if analysis.rule == Rule::FewRuns {
            warnings.push(Warning::CutShort { pairs });
        } else if let Some(e) = &analysis.estimate
            && e.half_width() > args.width
        {
            warnings.push(Warning::NotPrecise {
                half_width: e.half_width(),
                width: args.width,
            });
        }
    }
    let failed = runs.iter().filter(|r| r.exit_code != Some(0)).count();
    if failed > 0 {
        warnings.push(Warning::FailuresIgnored { failed });
    }
    let side = |side: CommandSide, command: &str| -> Result<SideResult> {
        let mine: Vec<&RunRecord> = runs.iter().filter(|r| r.side == side).collect();
        let col =
            |f: fn(&RunRecord) -> u64| -> Vec<f64> { mine.iter().map(|r| f(r) as f64).collect() };
        Ok(SideResult {
            command: command.into(),
            summary: SideSummary::new(
                &col(|r| r.wall_ns),
                &col(|r| r.user_ns),
                &col(|r| r.sys_ns),
                &col(|r| r.max_rss_bytes),
            )?,
        })
    };
    let counters = args
        .counters
        .then(|| counter_summary(&runs, session.counters.into_inner()));
    environment.finish();
    let CommandAnalysis {
        rule,
        verdict,
        estimate,
        few_runs,
    } = analysis;
    Ok(CmdResult {
        schema_version: SCHEMA_VERSION,
        tool: format!("rtcompare-cli {}", env!("CARGO_PKG_VERSION")),
        rule,
        verdict,
        a: side(CommandSide::A, commands.a)?,
        b: side(CommandSide::B, commands.b)?,
        pairs,
        stop,
        threshold: args.threshold,
        width: args.width,
        seed,
        estimate,
        few_runs,
        floor,
        counters,
        start_floor_ns,
        warnings: warnings
            .into_iter()
            .map(|w| WarningEntry {
                message: w.to_string(),
                warning: w,
            })
            .collect(),
        warmup_runs: args.warmup,
        runs,
        validation_runs,
        git: None,
        environment,
        elapsed_s: started.elapsed().as_secs_f64(),
    })
}

/// The `--counters` summary of the timed runs: per side, the median per run of each count
/// (one "operation" per run), or "unavailable" with the first refusal's reason.
fn counter_summary(runs: &[RunRecord], notes: CounterNotes) -> CounterSummary {
    let of = |side: CommandSide| -> Vec<CounterDelta> {
        runs.iter()
            .filter(|r| r.side == side)
            .filter_map(|r| r.counters)
            .collect()
    };
    let (a, b) = (of(CommandSide::A), of(CommandSide::B));
    if a.is_empty() && b.is_empty() {
        let reason = notes
            .unavailable
            .unwrap_or_else(|| "no timed run was counted".into());
        return CounterSummary::unavailable(reason);
    }
    CounterSummary::from_batches(&a, &b, 1).with_failures(&notes.failures)
}

/// Writes `result` as pretty JSON to `path`.
pub fn write_json(result: &CmdResult, path: &std::path::Path) -> Result<()> {
    let text = serde_json::to_string_pretty(result).map_err(|e| CliError::BadFile {
        path: path.into(),
        reason: format!("cannot encode the result: {e}"),
    })?;
    std::fs::write(path, text + "\n").map_err(|source| CliError::File {
        action: "write",
        path: path.into(),
        source,
    })
}

/// The terminal summary of `result`, several lines.
pub fn summary(result: &CmdResult) -> String {
    output::summary(result)
}

/// `rtcompare cmd --import-hyperfine FILE`: the analysis of a hyperfine export's first two
/// commands, unpaired (see [`crate::hyperfine`]).
pub fn from_hyperfine(path: &std::path::Path, args: &CompareArgs) -> Result<CmdResult> {
    let started = Instant::now();
    let [(ca, ta), (cb, tb)] = crate::hyperfine::import(path)?;
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
    let side = |command: String, xs: &[f64]| -> Result<SideResult> {
        let zeros = vec![0.0; xs.len()];
        Ok(SideResult {
            command,
            summary: SideSummary::new(xs, &zeros, &zeros, &zeros)?,
        })
    };
    let mut environment = Environment::capture();
    environment.finish();
    Ok(CmdResult {
        schema_version: SCHEMA_VERSION,
        tool: format!("rtcompare-cli {}", env!("CARGO_PKG_VERSION")),
        rule: analysis.rule,
        verdict: analysis.verdict,
        a: side(ca, &ta)?,
        b: side(cb, &tb)?,
        pairs: ta.len().min(tb.len()),
        stop: StopReason::Runs,
        threshold: args.threshold,
        width: args.width,
        seed,
        estimate: analysis.estimate,
        few_runs: analysis.few_runs,
        floor: None,
        counters: None,
        start_floor_ns: None,
        warnings: warnings
            .into_iter()
            .map(|w| WarningEntry {
                message: w.to_string(),
                warning: w,
            })
            .collect(),
        warmup_runs: 0,
        runs,
        validation_runs: Vec::new(),
        git: None,
        environment,
        elapsed_s: started.elapsed().as_secs_f64(),
    })
}
