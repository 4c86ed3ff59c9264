//! `rtcompare cmd`: the measuring protocol for two or more whole programs.
//!
//! 1. **Setup**: each command's `--setup`, once.
//! 2. **Start floor**: five runs of an empty command under the same shell, to know how much of
//!    a run is process start (only used for a warning).
//! 3. **Warm-up**: `--warmup` runs of each command, in turn; discarded.
//! 4. **Rounds with their A/A validation**: every command once per round, two in ABBA order
//!    (A B, then B A, …), more in a fresh seeded order, until `--runs N` rounds, or from 11 on
//!    until every comparison's interval is within `--width`, within `--max-time` and
//!    `--max-runs`. Unless `--no-validation`, every run comes with an A/A partner run of the
//!    same command beside it (for two commands: A′ A B B′ and B′ B A A′), so each command is
//!    measured against itself in adjacent runs at the comparison's own number of pairs; the
//!    floor is the library's [`aa_noise_floor`](rtcompare::stats::aa_noise_floor) of each
//!    side, the larger one counts.
//! 5. **Cleanup**: each command's `--cleanup`, on every path.
//! 6. **Verdicts**: [`analysis::analyse`] of each command against the reference, at
//!    1 − 0.05/m for m comparisons.
//!
//! `--prepare` runs before every run and `--conclude` after it, untimed. A failing run stops
//! everything (unless `--ignore-failure` accepts its exit code); so do Ctrl-C and SIGTERM,
//! after the running child is killed and reaped; the JSON file then still receives every run
//! measured, with `stopped` saying why ([`crate::result`]).
//!
//! **Why one file.** The stages above share one state (the runner, the rounds measured so far,
//! the progress line, the JSON kept current) and one exit path that runs `--cleanup` and keeps
//! what was measured; the statistics are in [`crate::analysis`] and the result types in
//! [`crate::result`].

use std::cell::RefCell;
use std::ffi::OsString;
use std::time::{Duration, Instant};

use rtcompare::env::Environment;
use rtcompare::measure::counters::{CounterDelta, CounterFailure, CounterSet, CounterSummary};
use rtcompare::rng::{Rng, derive_seed, resolve_seed};
use rtcompare::stats::{self, FewRunsRule, MINIMUM_DATA_POINTS};

use crate::analysis::{
    self, AnalysisOptions, CommandAnalysis, Compared, Floor, SideSummary, Warning,
};
use crate::cli::CompareArgs;
use crate::error::{CliError, Result};
use crate::output::{self, Progress};
use crate::process::{Measured, RunFailure, Runner, Shell};
use crate::result::{
    CmdResult, CommandCounters, CommandSide, Comparison, RunRecord, SCHEMA_VERSION, SideResult,
    Snapshot, StopReason, Stopped, WarningEntry, counter_summaries,
};

/// Runs of the empty command that measure the process-start floor: 5.
const START_FLOOR_RUNS: usize = 5;

/// Resamples of the interim interval checked while measuring (the final verdict uses the
/// library's default, 5,000): 1,000 pin a half-width to a few per cent of itself, enough to
/// decide when to stop.
const INTERIM_RESAMPLES: usize = 1_000;

/// One command as run.
#[derive(Debug, Clone)]
struct Program {
    /// The command's label (`A`, `B`, or its `--command-name`), or the hook's
    /// (`--prepare for A`).
    name: String,
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

/// One command of a session with its hooks, after parameter substitution.
#[derive(Debug, Clone, Default)]
pub struct CommandSpec {
    /// Its label (`A`, `B`, … or the `--command-name`).
    pub name: String,
    /// The command as given.
    pub command: String,
    /// Its working directory (`None`: the current one).
    pub dir: Option<std::path::PathBuf>,
    /// A busy-wait inside each timed run (the self-test's injected regression).
    pub inject: Duration,
    /// Run before each of its runs, untimed (`--prepare`).
    pub prepare: Option<String>,
    /// Run once before its first run (`--setup`).
    pub setup: Option<String>,
    /// Run after each of its runs, untimed (`--conclude`).
    pub conclude: Option<String>,
    /// Run once after its last run, also when the session stops early (`--cleanup`).
    pub cleanup: Option<String>,
}

impl Commands<'_> {
    /// The two commands as a session's specs, labelled A and B, with the hooks of `args`.
    pub fn specs(&self, args: &CompareArgs) -> Vec<CommandSpec> {
        [(self.a, "A"), (self.b, "B")]
            .into_iter()
            .enumerate()
            .map(|(i, (command, name))| CommandSpec {
                name: name.into(),
                command: command.into(),
                dir: self.dirs[i].map(Into::into),
                inject: self.inject[i],
                ..CommandSpec::hooks(args, i)
            })
            .collect()
    }
}

impl CommandSpec {
    /// The hooks of `args` for the `i`-th command: `--prepare` matched to commands in order
    /// (one `--prepare` serves every command), `--setup`, `--conclude` and `--cleanup` for
    /// each.
    pub fn hooks(args: &CompareArgs, i: usize) -> CommandSpec {
        let prepare = match args.prepare.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            many => many.get(i).cloned(),
        };
        CommandSpec {
            prepare,
            setup: args.setup.clone(),
            conclude: args.conclude.clone(),
            cleanup: args.cleanup.clone(),
            ..CommandSpec::default()
        }
    }
}

struct Session<'a> {
    args: &'a CompareArgs,
    runner: Runner,
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

/// One command ready to run: the timed program and its hooks.
struct Job {
    main: Program,
    prepare: Option<Program>,
    conclude: Option<Program>,
    setup: Option<Program>,
    cleanup: Option<Program>,
}

impl Session<'_> {
    /// One run of `job` (after its `--prepare`, before its `--conclude`, both untimed),
    /// measured, with its hardware counts when `--counters` is on and they are available; a
    /// failure is an error unless `--ignore-failure` accepts its exit status. A failing hook
    /// is always an error, naming the hook and its command.
    fn run(&self, job: &Job) -> Result<(Measured, Option<CounterDelta>)> {
        if let Some(prep) = &job.prepare {
            self.hook(prep)?;
        }
        // Opened on this thread right before the spawn (after the untimed --prepare, which it
        // must not count), read after the reap: the group counts the child from its exec on,
        // and nothing of this process (`CounterSet::open_for_children`). Opening and reading
        // happen outside the timed window.
        let group = self.args.counters.then(CounterSet::open_for_children);
        let m = self.exec(&job.main)?;
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
        if !m.success() && !self.args.accepts(m.exit_code) {
            return Err(failed(&job.main, &m));
        }
        if let Some(conclude) = &job.conclude {
            self.hook(conclude)?;
        }
        Ok((m, counts))
    }

    /// Runs a hook, untimed, without `--input` and `--output`; its failure is an error naming
    /// it.
    fn hook(&self, p: &Program) -> Result<()> {
        let m = self.exec_with(p, true)?;
        if !m.success() {
            return Err(failed(p, &m));
        }
        Ok(())
    }

    fn exec(&self, p: &Program) -> Result<Measured> {
        self.exec_with(p, false)
    }

    fn exec_with(&self, p: &Program, hook: bool) -> Result<Measured> {
        let dir = p.dir.as_deref();
        let run = if hook {
            self.runner.run_hook(&p.argv, dir, Some(self.limit))
        } else {
            self.runner
                .run_injected(&p.argv, dir, Some(self.limit), p.inject)
        };
        run.map_err(|f| match f {
            RunFailure::Spawn(source) => CliError::Spawn {
                name: p.name.clone(),
                command: p.command.clone(),
                source,
            },
            RunFailure::Timeout => CliError::Timeout {
                name: p.name.clone(),
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
        name: p.name.clone(),
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
    if let Some(input) = &args.input
        && let Err(e) = std::fs::File::open(input)
    {
        return Err(CliError::File {
            action: "read",
            path: input.clone(),
            source: e,
        });
    }
    if args.width <= 0.0 {
        return Err(CliError::Usage(
            "--width must be above 0%, for example 1%".into(),
        ));
    }
    Ok(())
}

/// Runs the whole protocol for two commands (see [`run_many`]).
pub fn run(commands: &Commands<'_>, args: &CompareArgs) -> Result<CmdResult> {
    run_many(&commands.specs(args), args)
}

/// Everything measured so far: per command its timed wall times and its A/A partners', and
/// the run records. A session that stops early still has all of it.
struct Collected {
    main: Vec<Vec<f64>>,
    partner: Vec<Vec<f64>>,
    runs: Vec<RunRecord>,
    validation_runs: Vec<RunRecord>,
    start_floor_ns: Option<f64>,
    warmup_done: usize,
}

impl Collected {
    fn new(k: usize) -> Collected {
        Collected {
            main: vec![Vec::new(); k],
            partner: vec![Vec::new(); k],
            runs: Vec::new(),
            validation_runs: Vec::new(),
            start_floor_ns: None,
            warmup_done: 0,
        }
    }

    /// Complete rounds: timed runs of every command.
    fn rounds(&self) -> usize {
        self.main.iter().map(Vec::len).min().unwrap_or(0)
    }
}

/// Runs the whole protocol for two or more commands, the first the reference, and returns the
/// result (the caller prints and writes it). Every round runs each command once (with its A/A
/// partner run beside it unless `--no-validation`): for two commands in ABBA order (A′ A B B′,
/// then B′ B A A′), for more in a fresh seeded order each round. Each command is compared
/// with the reference over the rounds; with m > 1 comparisons each is judged at 1 − 0.05/m
/// (Bonferroni), so that the chance of any false verdict among them stays at 5 %. Measuring
/// stops when every comparison's interval is within `--width` (or `--runs`, `--max-time`,
/// `--max-runs`). `--setup` runs before a command's first run, `--cleanup` after its last, on
/// every path.
///
/// When a run fails (without `--ignore-failure`), times out, or Ctrl-C or SIGTERM arrives,
/// the JSON file (`--json`) still receives every run measured so far, with `stopped` saying
/// why, before the error is returned. While measuring, the file is rewritten at most every
/// two seconds as a snapshot with `stopped: "running"`.
///
/// Errors: a usage error, a command or hook that cannot start or fails, a timeout, a signal.
pub fn run_many(specs: &[CommandSpec], args: &CompareArgs) -> Result<CmdResult> {
    let started = Instant::now();
    check(args)?;
    if specs.len() < 2 {
        return Err(CliError::Usage(
            "give at least two commands to compare (the first is the reference)".into(),
        ));
    }
    let shell = Shell::parse(if args.no_shell { "none" } else { &args.shell })?;
    let program = |name: String, command: &str, dir: &Option<std::path::PathBuf>| {
        Ok::<Program, CliError>(Program {
            name,
            command: command.into(),
            argv: shell.argv(command)?,
            dir: dir.clone(),
            inject: Duration::ZERO,
        })
    };
    let hook = |flag: &str, spec: &CommandSpec, command: &Option<String>| {
        command
            .as_deref()
            .map(|c| program(format!("{flag} for {}", spec.name), c, &spec.dir))
            .transpose()
    };
    let mut jobs = Vec::with_capacity(specs.len());
    for spec in specs {
        jobs.push(Job {
            main: Program {
                inject: spec.inject,
                ..program(spec.name.clone(), &spec.command, &spec.dir)?
            },
            prepare: hook("--prepare", spec, &spec.prepare)?,
            conclude: hook("--conclude", spec, &spec.conclude)?,
            setup: hook("--setup", spec, &spec.setup)?,
            cleanup: hook("--cleanup", spec, &spec.cleanup)?,
        });
    }
    let empty = match shell {
        Shell::None => program("the empty command".into(), "true", &None)?,
        Shell::Program(_) => program("the empty command".into(), ":", &None)?,
    };
    let seed = resolve_seed(args.seed.unwrap_or(0));
    let comparisons = specs.len() - 1;
    let opts = AnalysisOptions {
        threshold: args.threshold,
        seed,
        level: 1.0 - 0.05 / comparisons as f64,
        ..AnalysisOptions::default()
    };
    let mut environment = Environment::capture();
    let session = Session {
        args,
        runner: Runner::new(args.show_output)?
            .input(args.input.clone())
            .output(args.output.clone().unwrap_or(if args.show_output {
                crate::process::Output::Inherit
            } else {
                crate::process::Output::Null
            })),
        progress: Progress::new(),
        limit: args.max_time,
        counters: RefCell::default(),
    };
    let mut m = Collected::new(specs.len());
    let mut snapshot = Snapshot::new(
        args,
        specs
            .iter()
            .map(|s| (s.name.clone(), s.command.clone()))
            .collect(),
    );
    // The setups that ran get their cleanups, whatever happens after.
    let mut set_up = 0;
    let mut outcome = Ok(StopReason::MaxRuns);
    for job in &jobs {
        if let Some(setup) = &job.setup
            && let Err(e) = session.hook(setup)
        {
            outcome = Err(e);
            break;
        }
        set_up += 1;
    }
    if outcome.is_ok() {
        outcome = measure(&session, &jobs, &empty, &opts, seed, &mut m, &mut snapshot);
    }
    session.progress.finish();
    for job in jobs.iter().take(set_up) {
        if let Some(cleanup) = &job.cleanup
            && let Err(e) = session.hook(cleanup)
            && outcome.is_ok()
        {
            outcome = Err(e);
        }
    }
    let counters = args.counters.then(|| {
        let notes = session.counters.into_inner();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        counter_summaries(&m.runs, &names, notes.unavailable, &notes.failures)
    });
    environment.finish();
    let assembled = |stop: StopReason| {
        assemble(
            specs,
            args,
            &opts,
            seed,
            stop,
            &m,
            counters.clone(),
            environment.clone(),
            started,
        )
    };
    match outcome {
        Ok(stop) => assembled(stop),
        Err(e) => {
            let reason = Stopped::of(&e);
            match assembled(StopReason::Stopped) {
                Ok(mut result) => {
                    result.stopped = Some(reason);
                    result.stopped_message = Some(e.to_string());
                    snapshot.write_result(&result);
                }
                // Too few runs for a verdict: the runs alone.
                Err(_) => snapshot.write_runs(
                    &m.runs,
                    &m.validation_runs,
                    m.warmup_done,
                    reason,
                    Some(e.to_string()),
                    true,
                ),
            }
            Err(e)
        }
    }
}

/// The start floor, the warm-up and the rounds; returns why measuring stopped.
fn measure(
    session: &Session<'_>,
    jobs: &[Job],
    empty: &Program,
    opts: &AnalysisOptions,
    seed: u64,
    m: &mut Collected,
    snapshot: &mut Snapshot,
) -> Result<StopReason> {
    let args = session.args;
    // 1. The start floor: errors here are ignored (the warning is optional).
    let walls: Vec<f64> = (0..START_FLOOR_RUNS)
        .filter_map(|_| session.exec(empty).ok())
        .filter(Measured::success)
        .map(|m| m.wall_ns as f64)
        .collect();
    m.start_floor_ns = stats::median(&walls).ok();
    if crate::signals::interrupted() {
        return Err(CliError::Interrupted);
    }

    // 2. Warm-up.
    for i in 0..args.warmup {
        for job in jobs {
            session.progress.set(format!(
                "warm-up {}/{} ({})",
                i + 1,
                args.warmup,
                job.main.name
            ));
            session.run(job)?;
        }
        m.warmup_done = i + 1;
    }

    // 3. The rounds: every command once, each with its A/A partner unless --no-validation.
    //
    // For two commands a round is A′ A B B′ and the next B′ B A A′: the comparison pair (A, B)
    // in the middle alternates AB and BA, and the A/A pairs (A′, A) and (B, B′) are adjacent
    // runs as the comparison pair is, with the first position alternating too. So the floor is
    // always measured at the comparison's own number of pairs and spacing, as `compare()`
    // measures its A/A runs at the comparison's `repeats`; a floor measured first, in rounds of
    // its own, came out far wider than the comparison's interval and hid real differences
    // (BACKGROUND.md, section "Comparing whole programs: the `rtcompare` command on this
    // machine"). More commands are shuffled afresh each round (seeded), each partner run
    // beside its command, before it at even positions and after it at odd ones.
    let stage = Instant::now();
    let target = args.runs;
    let most = target.unwrap_or(args.max_runs);
    let validate = !args.no_validation;
    let k = jobs.len();
    let mut rng = Rng::new(derive_seed(seed, 0x0c0d));
    let mut next_check = MINIMUM_DATA_POINTS;
    let mut half_width: Option<f64> = None;
    for i in 0..most {
        let mut order: Vec<usize> = (0..k).collect();
        if k == 2 {
            if i % 2 == 1 {
                order.reverse();
            }
        } else {
            rng.shuffle(&mut order);
        }
        for (position, &c) in order.iter().enumerate() {
            let (main, partner) = if c == 0 {
                (CommandSide::A, CommandSide::A2)
            } else {
                (CommandSide::B, CommandSide::B2)
            };
            let sides: &[CommandSide] = match (validate, position % 2 == 0) {
                (false, _) => &[main],
                (true, true) => &[partner, main],
                (true, false) => &[main, partner],
            };
            for &side in sides {
                let run = session.run(&jobs[c])?;
                let wall = run.0.wall_ns as f64;
                let record = RunRecord::new(side, c, &run);
                if side == main {
                    m.main[c].push(wall);
                    m.runs.push(record);
                } else {
                    m.partner[c].push(wall);
                    m.validation_runs.push(record);
                }
            }
        }
        snapshot.tick(&m.runs, &m.validation_runs, m.warmup_done);
        let n = i + 1;
        session.progress.set(match (target, half_width) {
            (Some(t), _) => format!("round {n}/{t}"),
            (None, Some(h)) => format!("round {n}, interval ±{:.2} %", 100.0 * h),
            (None, None) => format!("round {n}"),
        });
        if target == Some(n) {
            return Ok(StopReason::Runs);
        }
        if target.is_none() && n >= next_check {
            // Checked at geometrically spaced counts (10 % apart), so the interim bootstraps
            // cost a bounded share of the run time however short the commands are.
            next_check = n + (n / 10).max(1);
            let interim = AnalysisOptions {
                resamples: INTERIM_RESAMPLES,
                ..*opts
            };
            let mut widest = 0.0f64;
            for c in 1..k {
                let h = analysis::estimate(&m.main[0], &m.main[c], &interim)?.half_width();
                widest = widest.max(h);
            }
            half_width = Some(widest);
            if widest <= args.width {
                return Ok(StopReason::Precision);
            }
        }
        if target.is_none() && stage.elapsed() >= args.max_time {
            return Ok(StopReason::MaxTime);
        }
    }
    Ok(StopReason::MaxRuns)
}

/// The result from what was measured: every comparison's verdict (the top-level fields carry
/// the first's), the summaries, and the warnings over every comparison.
#[allow(clippy::too_many_arguments)]
fn assemble(
    specs: &[CommandSpec],
    args: &CompareArgs,
    opts: &AnalysisOptions,
    seed: u64,
    stop: StopReason,
    m: &Collected,
    counters: Option<(CounterSummary, Vec<CommandCounters>)>,
    environment: Environment,
    started: Instant,
) -> Result<CmdResult> {
    let validate = !args.no_validation;
    let (counters, command_counters) = counters.map_or((None, Vec::new()), |(s, c)| (Some(s), c));
    let rounds = m.rounds();
    let cut = |xs: &[f64]| xs[..rounds.min(xs.len())].to_vec();
    let reference = cut(&m.main[0]);
    let mut comparisons = Vec::with_capacity(specs.len() - 1);
    for c in 1..specs.len() {
        let other = cut(&m.main[c]);
        let floor = if validate {
            let n = m.partner[0].len().min(m.partner[c].len()).min(rounds);
            Some(Floor::from_series(
                &reference[..n],
                &m.partner[0][..n],
                &other[..n],
                &m.partner[c][..n],
                opts,
            )?)
        } else {
            None
        };
        let CommandAnalysis {
            rule,
            verdict,
            estimate,
            few_runs,
        } = analysis::analyse(&reference, &other, floor.as_ref(), opts)?;
        comparisons.push(Comparison {
            name: specs[c].name.clone(),
            reference: specs[0].name.clone(),
            index: c,
            rule,
            verdict,
            estimate,
            few_runs,
            floor,
            pairs: rounds,
        });
    }
    let first = &comparisons[0];
    let series: Vec<Vec<f64>> = comparisons.iter().map(|c| cut(&m.main[c.index])).collect();
    let compared: Vec<Compared<'_>> = comparisons
        .iter()
        .zip(&series)
        .map(|(c, series)| Compared {
            name: &c.name,
            series,
            rule: c.rule,
            estimate: c.estimate.as_ref(),
            floor: c.floor.as_ref(),
        })
        .collect();
    let mut warnings = analysis::comparison_warnings(
        (&specs[0].name, &reference),
        &compared,
        m.start_floor_ns,
        validate,
        (stop == StopReason::MaxTime).then_some(args.width),
    );
    let failed = m.runs.iter().filter(|r| r.exit_code != Some(0)).count();
    if failed > 0 {
        warnings.push(Warning::FailuresIgnored { failed });
    }
    let mut commands = Vec::with_capacity(specs.len());
    for (c, spec) in specs.iter().enumerate() {
        let mine: Vec<&RunRecord> = m.runs.iter().filter(|r| r.command == c).collect();
        let col =
            |f: fn(&RunRecord) -> u64| -> Vec<f64> { mine.iter().map(|r| f(r) as f64).collect() };
        commands.push(SideResult {
            name: spec.name.clone(),
            command: spec.command.clone(),
            summary: SideSummary::new(
                &col(|r| r.wall_ns),
                &col(|r| r.user_ns),
                &col(|r| r.sys_ns),
                &col(|r| r.max_rss_bytes),
            )?,
        });
    }
    Ok(CmdResult {
        schema_version: SCHEMA_VERSION,
        tool: format!("rtcompare-cli {}", env!("CARGO_PKG_VERSION")),
        rule: first.rule,
        verdict: first.verdict.clone(),
        a: commands[0].clone(),
        b: commands[1].clone(),
        pairs: rounds,
        stop,
        threshold: args.threshold,
        width: args.width,
        seed,
        estimate: first.estimate,
        few_runs: first.few_runs,
        floor: first.floor.clone(),
        counters,
        command_counters,
        start_floor_ns: m.start_floor_ns,
        warnings: warnings
            .into_iter()
            .map(|w| WarningEntry {
                message: w.to_string(),
                warning: w,
            })
            .collect(),
        warmup_runs: m.warmup_done,
        runs: m.runs.clone(),
        validation_runs: m.validation_runs.clone(),
        git: None,
        environment,
        elapsed_s: started.elapsed().as_secs_f64(),
        family_level: (comparisons.len() > 1).then_some(opts.level),
        commands,
        comparisons,
        stopped: None,
        stopped_message: None,
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
    let (a, b) = (side("A", ca, &ta)?, side("B", cb, &tb)?);
    let comparison = Comparison {
        name: "B".into(),
        reference: "A".into(),
        index: 1,
        rule: analysis.rule,
        verdict: analysis.verdict.clone(),
        estimate: analysis.estimate,
        few_runs: analysis.few_runs,
        floor: None,
        pairs: ta.len().min(tb.len()),
    };
    Ok(CmdResult {
        schema_version: SCHEMA_VERSION,
        tool: format!("rtcompare-cli {}", env!("CARGO_PKG_VERSION")),
        rule: analysis.rule,
        verdict: analysis.verdict,
        a: a.clone(),
        b: b.clone(),
        pairs: ta.len().min(tb.len()),
        stop: StopReason::Runs,
        threshold: args.threshold,
        width: args.width,
        seed,
        estimate: analysis.estimate,
        few_runs: analysis.few_runs,
        floor: None,
        counters: None,
        command_counters: Vec::new(),
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
        commands: vec![a, b],
        comparisons: vec![comparison],
        family_level: None,
        stopped: None,
        stopped_message: None,
    })
}
