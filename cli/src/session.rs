//! `rtcompare cmd`: the measuring protocol for two or more whole programs.
//!
//! 1. **Setup**: each command's `--setup`, once.
//! 2. **Start floor**: five runs of an empty command under the same shell, to know how much of
//!    a run is process start (only used for a warning).
//! 3. **Warm-up**: `--warmup` runs of each command, in turn; discarded.
//! 4. **Rounds with their A/A validation**: every command once per round, two in ABBA order
//!    (A B, then B A, …), more in a fresh seeded order, until `--runs N` rounds; by default
//!    until every comparison's sequential decision is settled ([`crate::decide`]: faster or
//!    slower beyond the threshold, or equivalent within it) or its last planned look; with
//!    `--precision`, from 11 on until every comparison's interval is within `--width`; always
//!    within `--max-time` and `--max-runs`. Unless `--no-validation`, every run comes with an A/A partner run of the
//!    same command beside it (for two commands: A′ A B B′ and B′ B A A′), so each command is
//!    measured against itself in adjacent runs at the comparison's own number of pairs; the
//!    floor is the library's [`aa_noise_floor`](rtcompare::stats::aa_noise_floor) of each
//!    side, the larger one counts.
//! 5. **Cleanup**: each command's `--cleanup`, on every path.
//! 6. **Verdicts**: [`analysis::analyse`] of each command against the reference, at
//!    1 − 0.05/m for m comparisons; a comparison that was decided takes its last look as the
//!    verdict (rule `sequential`).
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
use rtcompare::progress::Status;
use rtcompare::stats;
use rtcompare::support::display::Pct;
use rtcompare::support::measure::{CounterDelta, CounterFailure, CounterSet, CounterSummary};
use rtcompare::support::rng::{Rng, derive_seed, resolve_seed};
use rtcompare::support::stats::{DecisionEnd, MINIMUM_DATA_POINTS};

use crate::analysis::{
    self, AnalysisOptions, CommandAnalysis, Compared, Floor, Rule, SideSummary, Warning,
};
use crate::cli::CompareArgs;
use crate::commands::{CommandSpec, Pair};
use crate::decide::{self, Decisions};
use crate::error::{CliError, Result};
use crate::process::{Measured, Runner, Shell};
use crate::result::{
    CmdResult, CommandCounters, CommandSide, Comparison, Parts, RunRecord, SideResult, StopReason,
    Stopped, counter_summaries,
};
use crate::snapshot::Snapshot;

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

struct Session<'a> {
    args: &'a CompareArgs,
    runner: Runner,
    /// The progress line; `None` under a `--style` without one.
    progress: Option<Status>,
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
        run.map_err(|f| f.into_error(p.name.clone(), p.command.clone(), self.limit.as_secs_f64()))
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

/// Runs the whole protocol for the two commands of `pair` (see [`run_many`]).
pub(crate) fn run(pair: &Pair<'_>, args: &CompareArgs) -> Result<CmdResult> {
    run_many(&pair.specs(args), args)
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
    /// Each comparison's sequential decision, once measuring stopped (empty under `--runs`
    /// and `--precision`; `None` for a comparison never looked at).
    decisions: Vec<Option<decide::Decision>>,
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
            decisions: Vec::new(),
        }
    }

    /// Complete rounds: timed runs of every command.
    fn rounds(&self) -> usize {
        self.main.iter().map(Vec::len).min().unwrap_or(0)
    }

    /// Command `c`'s timed wall times over the complete rounds.
    fn series(&self, c: usize) -> Vec<f64> {
        let xs = &self.main[c];
        xs[..self.rounds().min(xs.len())].to_vec()
    }
}

/// What a session compares and how it judges: the commands (the reference first), the flags,
/// the seed, the analysis settings at the family's level, and when the session started.
struct Plan<'a> {
    specs: &'a [CommandSpec],
    args: &'a CompareArgs,
    seed: u64,
    opts: AnalysisOptions,
    started: Instant,
}

impl<'a> Plan<'a> {
    /// With m comparisons, each is judged at 1 − 0.05/m (Bonferroni).
    fn new(specs: &'a [CommandSpec], args: &'a CompareArgs, started: Instant) -> Plan<'a> {
        let seed = resolve_seed(args.seed.unwrap_or(0));
        let comparisons = specs.len() - 1;
        let opts = AnalysisOptions {
            threshold: args.threshold,
            seed,
            level: 1.0 - 0.05 / comparisons as f64,
            ..AnalysisOptions::default()
        };
        Plan {
            specs,
            args,
            seed,
            opts,
            started,
        }
    }
}

impl Program {
    /// `command` as `shell` runs it, labelled `name`, in `dir`, without an injected busy-wait.
    fn new(
        shell: &Shell,
        name: String,
        command: &str,
        dir: &Option<std::path::PathBuf>,
    ) -> Result<Program> {
        Ok(Program {
            name,
            command: command.into(),
            argv: shell.argv(command)?,
            dir: dir.clone(),
            inject: Duration::ZERO,
        })
    }

    /// The empty command of the start floor: `:` under a shell, `true` without one.
    fn empty(shell: &Shell) -> Result<Program> {
        match shell {
            Shell::None => Program::new(shell, "the empty command".into(), "true", &None),
            Shell::Program(_) => Program::new(shell, "the empty command".into(), ":", &None),
        }
    }
}

impl Job {
    /// `spec` as `shell` runs it: the command with its injected busy-wait, and each hook
    /// labelled by its flag and the command (`--setup for A`).
    fn new(spec: &CommandSpec, shell: &Shell) -> Result<Job> {
        let hook = |flag: &str, command: &Option<String>| {
            command
                .as_deref()
                .map(|c| Program::new(shell, format!("{flag} for {}", spec.name), c, &spec.dir))
                .transpose()
        };
        Ok(Job {
            main: Program {
                inject: spec.inject,
                ..Program::new(shell, spec.name.clone(), &spec.command, &spec.dir)?
            },
            prepare: hook("--prepare", &spec.prepare)?,
            conclude: hook("--conclude", &spec.conclude)?,
            setup: hook("--setup", &spec.setup)?,
            cleanup: hook("--cleanup", &spec.cleanup)?,
        })
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
/// `args` must have been checked ([`crate::plan`]).
pub(crate) fn run_many(specs: &[CommandSpec], args: &CompareArgs) -> Result<CmdResult> {
    let started = Instant::now();
    if specs.len() < 2 {
        return Err(CliError::Usage(
            "give at least two commands to compare (the first is the reference)".into(),
        ));
    }
    let shell = Shell::parse(if args.no_shell { "none" } else { &args.shell })?;
    let jobs = specs
        .iter()
        .map(|spec| Job::new(spec, &shell))
        .collect::<Result<Vec<Job>>>()?;
    let empty = Program::empty(&shell)?;
    let plan = Plan::new(specs, args, started);
    let mut environment = Environment::capture();
    let session = Session::new(args)?;
    let mut m = Collected::new(specs.len());
    let mut snapshot = Snapshot::new(
        args,
        specs
            .iter()
            .map(|s| (s.name.clone(), s.command.clone()))
            .collect(),
    );
    // 1. Setup: the commands set up get their cleanups (5.), whatever happens after.
    let (set_up, setup) = session.setup(&jobs);
    // 2.–4. The start floor, the warm-up, the rounds with their A/A validation.
    let mut outcome =
        setup.and_then(|()| measure(&session, &jobs, &empty, &plan, &mut m, &mut snapshot));
    if let Some(p) = &session.progress {
        p.finish();
    }
    // 5. Cleanup.
    session.cleanup(&jobs[..set_up], &mut outcome);
    let counters = session.counter_report(specs, &m.runs);
    environment.finish();
    // 6. Verdicts, or what was measured and why the session stopped.
    verdicts(&plan, outcome, &m, counters, environment, &snapshot)
}

impl<'a> Session<'a> {
    /// The session of `args`: a runner with `--input` and `--output` (or `--show-output`),
    /// each run limited to `--max-time`.
    fn new(args: &'a CompareArgs) -> Result<Session<'a>> {
        Ok(Session {
            args,
            runner: Runner::new(args.show_output)?
                .input(args.input.clone())
                .output(args.output.clone().unwrap_or(if args.show_output {
                    crate::process::Output::Inherit
                } else {
                    crate::process::Output::Null
                })),
            progress: args.style.progress().then(Status::new),
            limit: args.max_time,
            counters: RefCell::default(),
        })
    }

    /// Stage 1: each command's `--setup` in turn, up to the first that fails; returns how many
    /// commands are set up (without `--setup` too), whose cleanups are due on every path.
    fn setup(&self, jobs: &[Job]) -> (usize, Result<()>) {
        let mut set_up = 0;
        for job in jobs {
            if let Some(setup) = &job.setup
                && let Err(e) = self.hook(setup)
            {
                return (set_up, Err(e));
            }
            set_up += 1;
        }
        (set_up, Ok(()))
    }

    /// Stage 2: the median wall time of the empty command's successful runs, the part of a
    /// run that is process start; errors are ignored (it only feeds a warning).
    fn start_floor(&self, empty: &Program) -> Option<f64> {
        let walls: Vec<f64> = (0..START_FLOOR_RUNS)
            .filter_map(|_| self.exec(empty).ok())
            .filter(Measured::success)
            .map(|m| m.wall_ns as f64)
            .collect();
        stats::median(&walls).ok()
    }

    /// Stage 3: `--warmup` rounds of every command in turn, discarded but counted in `m`.
    fn warm_up(&self, jobs: &[Job], m: &mut Collected) -> Result<()> {
        let warmup = self.args.warmup;
        for i in 0..warmup {
            for job in jobs {
                if let Some(p) = &self.progress {
                    p.set(format!("warm-up {}/{} ({})", i + 1, warmup, job.main.name));
                }
                self.run(job)?;
            }
            m.warmup_done = i + 1;
        }
        Ok(())
    }

    /// One round of stage 4: every command once, in `order`, each with its A/A partner run
    /// beside it unless `--no-validation`; every run is recorded in `m` as it ends.
    fn round(&self, jobs: &[Job], order: &[usize], m: &mut Collected) -> Result<()> {
        let validate = self.args.partnered(m.rounds());
        // For two commands a round is A′ A B B′ and the next B′ B A A′: the comparison pair
        // (A, B) in the middle alternates AB and BA, and the A/A pairs (A′, A) and (B, B′) are
        // adjacent runs as the comparison pair is, with the first position alternating too. So
        // the floor is always measured at the comparison's own number of pairs and spacing, as
        // `compare()` measures its A/A runs at the comparison's `repeats`; a floor measured
        // first, in rounds of its own, came out far wider than the comparison's interval and
        // hid real differences (docs/background.md, section "Comparing whole programs: the
        // `rtcompare` command on this machine"). More commands are shuffled afresh each round
        // (seeded), each partner run beside its command, before it at even positions and after
        // it at odd ones.
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
                let run = self.run(&jobs[c])?;
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
        Ok(())
    }

    /// Stage 5: the `--cleanup` of each of `jobs` (those set up), every one even after a
    /// failure; the first failing one becomes the `outcome` unless that is already an error.
    fn cleanup(&self, jobs: &[Job], outcome: &mut Result<StopReason>) {
        for job in jobs {
            if let Some(cleanup) = &job.cleanup
                && let Err(e) = self.hook(cleanup)
                && outcome.is_ok()
            {
                *outcome = Err(e);
            }
        }
    }

    /// With `--counters`: the counter summaries of `runs` per command of `specs`, with what
    /// opening the counters learnt (taken out of the session).
    fn counter_report(
        &self,
        specs: &[CommandSpec],
        runs: &[RunRecord],
    ) -> Option<(CounterSummary, Vec<CommandCounters>)> {
        self.args.counters.then(|| {
            let notes = self.counters.take();
            let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
            counter_summaries(runs, &names, notes.unavailable, &notes.failures)
        })
    }
}

/// Stages 2 to 4, the start floor, the warm-up and the rounds; returns why measuring stopped.
fn measure(
    session: &Session<'_>,
    jobs: &[Job],
    empty: &Program,
    plan: &Plan<'_>,
    m: &mut Collected,
    snapshot: &mut Snapshot,
) -> Result<StopReason> {
    m.start_floor_ns = session.start_floor(empty);
    if crate::signals::interrupted() {
        return Err(CliError::Interrupted);
    }
    session.warm_up(jobs, m)?;
    rounds(session, jobs, plan, m, snapshot)
}

/// Stage 4: rounds until the stopping rule says stop, or `--max-runs`; after each round the
/// JSON file gets a snapshot (when the last is old enough) and the progress line the count.
/// The sequential decisions, when the rule made any, are left in `m`.
fn rounds(
    session: &Session<'_>,
    jobs: &[Job],
    plan: &Plan<'_>,
    m: &mut Collected,
    snapshot: &mut Snapshot,
) -> Result<StopReason> {
    let args = session.args;
    let mut stopping = Stopping::new(args);
    let mut rng = Rng::new(derive_seed(plan.seed, 0x0c0d));
    let mut stop = StopReason::MaxRuns;
    for i in 0..args.rounds_for_runs().unwrap_or(args.max_rounds()) {
        let order = round_order(jobs.len(), i, &mut rng);
        session.round(jobs, &order, m)?;
        snapshot.tick(&m.runs, &m.validation_runs, m.warmup_done);
        let n = i + 1;
        if let Some(p) = &session.progress {
            p.set(stopping.progress(n));
        }
        if let Some(s) = stopping.after_round(n, m, plan)? {
            stop = s;
            break;
        }
    }
    if let Some(d) = stopping.decisions.take() {
        let end = match stop {
            StopReason::Decided => DecisionEnd::Decided,
            StopReason::LastLook => DecisionEnd::LastLook,
            _ => DecisionEnd::TimeBudget,
        };
        m.decisions = d.finish(end);
    }
    Ok(stop)
}

/// The order of the commands in round `i` (from 0): for two, A B and then B A (ABBA); for
/// more, a fresh shuffle from `rng`.
fn round_order(k: usize, i: usize, rng: &mut Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..k).collect();
    if k == 2 {
        if i % 2 == 1 {
            order.reverse();
        }
    } else {
        rng.shuffle(&mut order);
    }
    order
}

/// The stopping rule between rounds: the `--runs` target; or with `--precision` the round of
/// the next precision check and the widest interval at the last check; or by default the
/// sequential decisions (planned after the first block of rounds); and when the rounds began
/// (`--max-time`).
struct Stopping {
    target: Option<usize>,
    /// `--min-runs` in rounds: nothing stops measuring before.
    min_rounds: usize,
    precision: bool,
    next_check: usize,
    half_width: Option<f64>,
    decisions: Option<Decisions>,
    started: Instant,
}

impl Stopping {
    fn new(args: &CompareArgs) -> Stopping {
        Stopping {
            target: args.rounds_for_runs(),
            min_rounds: args.min_rounds(),
            precision: args.precision,
            next_check: MINIMUM_DATA_POINTS,
            half_width: None,
            decisions: None,
            started: Instant::now(),
        }
    }

    /// The progress line after round `n`.
    fn progress(&self, n: usize) -> String {
        let deciding = self.decisions.as_ref().and_then(Decisions::widest);
        match (self.target, self.half_width, deciding) {
            (Some(t), _, _) => format!("round {n}/{t}"),
            (None, Some(h), _) => format!("round {n}, interval ±{}", Pct(h)),
            (None, None, Some(w)) => format!("round {n}, deciding: within ±{}", Pct(w)),
            (None, None, None) => format!("round {n}"),
        }
    }

    /// After round `n`: why to stop (`--runs` reached; with `--precision`, every interval
    /// within `--width`; by default, every comparison settled or the plan's last look), or
    /// `--max-time` spent; `None` to measure another round.
    fn after_round(
        &mut self,
        n: usize,
        m: &Collected,
        plan: &Plan<'_>,
    ) -> Result<Option<StopReason>> {
        let args = plan.args;
        if self.target == Some(n) {
            return Ok(Some(StopReason::Runs));
        }
        if self.target.is_some() {
            return Ok(None);
        }
        let early = n < self.min_rounds;
        let out_of_time = !early && self.started.elapsed() >= args.max_time;
        if self.precision {
            if n >= self.next_check {
                // Checked at geometrically spaced counts (10 % apart), so the interim
                // bootstraps cost a bounded share of the run time however short the commands
                // are.
                self.next_check = n + (n / 10).max(1);
                let widest = widest_interval(m, &plan.opts)?;
                self.half_width = Some(widest);
                if widest <= args.width && !early {
                    return Ok(Some(StopReason::Precision));
                }
            }
            return Ok(out_of_time.then_some(StopReason::MaxTime));
        }
        self.decide(n, m, plan, out_of_time)
    }

    /// The default rule: after the first block the plan (how many blocks fit the time
    /// budget), then a look whenever one is due or the budget ran out.
    fn decide(
        &mut self,
        n: usize,
        m: &Collected,
        plan: &Plan<'_>,
        out_of_time: bool,
    ) -> Result<Option<StopReason>> {
        let args = plan.args;
        if n == decide::PLAN_ROUNDS && self.decisions.is_none() {
            let plan_s = self.started.elapsed().as_secs_f64();
            let rounds =
                decide::planned_rounds(plan_s, args.max_time.as_secs_f64(), args.max_rounds());
            self.decisions = Some(Decisions::new(
                m.main.len() - 1,
                plan.opts.level,
                args.threshold,
                rounds.max(self.min_rounds.min(args.max_rounds())),
                self.min_rounds,
            )?);
        }
        let Some(decisions) = self.decisions.as_mut() else {
            return Ok(out_of_time.then_some(StopReason::MaxTime));
        };
        if !(decisions.due(m.rounds()) || out_of_time) {
            return Ok(None);
        }
        let reference = m.series(0);
        let others: Vec<Vec<f64>> = (1..m.main.len()).map(|c| m.series(c)).collect();
        let others: Vec<&[f64]> = others.iter().map(Vec::as_slice).collect();
        Ok(
            match decisions.look(&reference, &others, &plan.opts, out_of_time)? {
                Some(DecisionEnd::Decided) => Some(StopReason::Decided),
                Some(DecisionEnd::LastLook) => Some(StopReason::LastLook),
                Some(_) => Some(StopReason::MaxTime),
                None => None,
            },
        )
    }
}

/// The widest relative half-width of the comparisons' interim intervals (fewer resamples than
/// the verdict's: enough to decide when to stop).
fn widest_interval(m: &Collected, opts: &AnalysisOptions) -> Result<f64> {
    let interim = AnalysisOptions {
        resamples: INTERIM_RESAMPLES,
        ..*opts
    };
    let mut widest = 0.0f64;
    for c in 1..m.main.len() {
        let h = analysis::estimate(&m.main[0], &m.main[c], &interim)?.half_width();
        widest = widest.max(h);
    }
    Ok(widest)
}

/// Stage 6, the verdicts when measuring ran its course; when it stopped on an error, the JSON
/// file still receives what was measured with `stopped` saying why, and the error is returned.
fn verdicts(
    plan: &Plan<'_>,
    outcome: Result<StopReason>,
    m: &Collected,
    counters: Option<(CounterSummary, Vec<CommandCounters>)>,
    environment: Environment,
    snapshot: &Snapshot,
) -> Result<CmdResult> {
    match outcome {
        Ok(stop) => assemble(plan, stop, m, counters, environment),
        Err(e) => {
            let reason = Stopped::of(&e);
            match assemble(plan, StopReason::Stopped, m, counters, environment) {
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

/// The result from what was measured: every comparison's verdict, the summaries, and the
/// warnings over every comparison.
fn assemble(
    plan: &Plan<'_>,
    stop: StopReason,
    m: &Collected,
    counters: Option<(CounterSummary, Vec<CommandCounters>)>,
    environment: Environment,
) -> Result<CmdResult> {
    let comparisons = comparisons(plan, m)?;
    Ok(CmdResult::new(Parts {
        pairs: m.rounds(),
        stop,
        threshold: plan.args.threshold,
        width: plan.args.width,
        seed: plan.seed,
        level: plan.opts.level,
        counters,
        start_floor_ns: m.start_floor_ns,
        warnings: warnings(plan, stop, m, &comparisons),
        warmup_runs: m.warmup_done,
        runs: m.runs.clone(),
        validation_runs: m.validation_runs.clone(),
        environment,
        started: plan.started,
        commands: side_results(plan.specs, &m.runs)?,
        comparisons,
    }))
}

/// Each command against the reference over the complete rounds: its A/A floor (unless
/// `--no-validation`) and its verdict at the family's level.
fn comparisons(plan: &Plan<'_>, m: &Collected) -> Result<Vec<Comparison>> {
    let (specs, opts) = (plan.specs, &plan.opts);
    let validate = plan.args.validates();
    let rounds = m.rounds();
    let reference = m.series(0);
    let mut comparisons = Vec::with_capacity(specs.len() - 1);
    for c in 1..specs.len() {
        let other = m.series(c);
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
            mut rule,
            mut verdict,
            estimate,
            few_runs,
        } = analysis::analyse(&reference, &other, floor.as_ref(), opts)?;
        let decision = m.decisions.get(c - 1).cloned().flatten();
        // The decision's look is the verdict; the bootstrap's estimate stays beside it for
        // the pictures and the warnings.
        if let Some(v) = decision.as_ref().and_then(|d| {
            let noise = floor.as_ref().map_or(0.0, |f| f.floor);
            decide::verdict(d, plan.args.threshold, noise, verdict.best_ratio)
        }) {
            (rule, verdict) = (Rule::Sequential, v);
        }
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
            decision,
            // Computed by `CmdResult::new`, which sees every run.
            figures: None,
        });
    }
    Ok(comparisons)
}

/// The warnings over every comparison (against `--width` when `--max-time` ran out), and one
/// for the failed runs that `--ignore-failure` accepted.
fn warnings(
    plan: &Plan<'_>,
    stop: StopReason,
    m: &Collected,
    comparisons: &[Comparison],
) -> Vec<Warning> {
    let (specs, args) = (plan.specs, plan.args);
    let reference = m.series(0);
    let series: Vec<Vec<f64>> = comparisons.iter().map(|c| m.series(c.index)).collect();
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
        args.validates(),
        (args.precision && stop == StopReason::MaxTime).then_some(args.width),
    );
    // Under a short `--runs`, the floor was left out by the runs' count, not by the flag.
    if let Some(runs) = args.runs
        && !args.no_validation
        && !args.validates()
    {
        for w in warnings.iter_mut() {
            if *w == Warning::NoValidation {
                *w = Warning::NoFloorWithinRuns { runs };
            }
        }
    }
    let failed = m.runs.iter().filter(|r| r.exit_code != Some(0)).count();
    if failed > 0 {
        warnings.push(Warning::FailuresIgnored { failed });
    }
    warnings
}

/// Each command's summary over its timed runs: wall, user and system time, peak memory.
fn side_results(specs: &[CommandSpec], runs: &[RunRecord]) -> Result<Vec<SideResult>> {
    let mut commands = Vec::with_capacity(specs.len());
    for (c, spec) in specs.iter().enumerate() {
        let mine: Vec<&RunRecord> = runs.iter().filter(|r| r.command == c).collect();
        let col =
            |f: fn(&RunRecord) -> u64| -> Vec<f64> { mine.iter().map(|r| f(r) as f64).collect() };
        commands.push(SideResult {
            name: spec.name.clone(),
            command: spec.command.clone(),
            parameters: spec.parameters.clone(),
            summary: SideSummary::new(
                &col(|r| r.wall_ns),
                &col(|r| r.user_ns),
                &col(|r| r.sys_ns),
                &col(|r| r.max_rss_bytes),
            )?,
        });
    }
    Ok(commands)
}
