//! Performance gates for `cargo test`: fail a pull request when the evidence says a change made
//! code slower, and never because the machine was noisy.
//!
//! A gate compares a **candidate** (the new code, role A) with a **baseline** (role B) under the
//! whole [`compare`](crate::compare()) protocol and checks one expectation, fixed before
//! measuring:
//!
//! | expectation | passes when | "cannot tell" |
//! |---|---|---|
//! | [`Expectation::NotSlower`] `{ budget }` | unless the whole interval of the slowdown lies above the budget **and** above the A/A noise floor | passes (the message says so) |
//! | [`Expectation::Faster`] `{ by }` | the interval's **lower bound** of the time saved clears `by` and the result is resolved (the lower-bound rule) | fails, saying which kind and what to do |
//! | [`Expectation::Equivalent`] `{ margin }` | the whole interval lies inside ±margin and the noise floor is below the margin | fails |
//!
//! All figures are fractions of the baseline's time: the slowdown is `candidate/baseline − 1`,
//! the time saved `1 − candidate/baseline` (the report's δ).
//!
//! The shortest gate is one line:
//!
//! ```no_run
//! # fn parse(s: &str) -> usize { s.len() }
//! # fn parse_old(s: &str) -> usize { s.len() }
//! # const INPUT: &str = "1,2,3";
//! use std::hint::black_box;
//! rtcompare::assert_not_slower!(|| parse(black_box(INPUT)), || parse_old(black_box(INPUT)), budget = 0.05);
//! ```
//!
//! # Behaviour inside a test harness
//!
//! - **One at a time.** Every gate and every comparison started through this module takes a
//!   process-wide lock, so parallel test threads never measure at the same time. The report
//!   records how much CPU the process's other threads used meanwhile and warns when they were
//!   busy (run such test binaries with `--test-threads=1` for the cleanest numbers).
//! - **Debug builds.** A debug build (debug assertions on, as in plain `cargo test`) never
//!   produces a false failure: the assertion macros and [`run`] **skip** the gate and print how to
//!   run it (`cargo test --release`), unless `RTCOMPARE_GATE=force` (or
//!   [`GateOptions::force`]) asks for it anyway; [`check`] measures, and downgrades a failure in
//!   a debug build to a pass with a printed notice.
//! - **Emulators.** Under Valgrind or QEMU user mode (see
//!   [`Environment::instrumented_by`](crate::env::Environment::instrumented_by)) timings
//!   mean nothing: the macros and [`run`] **skip** the gate with a notice, whatever
//!   `RTCOMPARE_GATE` says, unless the gate's [`CompareOptions::allow_instrumented`] is set;
//!   [`check`] measures anyway and downgrades a failure to a pass with a printed notice.
//! - **Environment.** `RTCOMPARE_GATE=off` turns every gate off (they pass with a message);
//!   `RTCOMPARE_GATE=force` runs them in debug builds too. `RTCOMPARE_EFFORT=quick` runs a
//!   shorter protocol (10 A/A runs, 51 pairs, 2,000 resamples, 100 ms warm-up: for local runs);
//!   `RTCOMPARE_EFFORT=full` (the default) runs the full one (for CI). Both are recorded in the
//!   report's [`GateInfo`].
//! - **Artifacts.** Every measured gate writes its report as JSON to
//!   `target/rtcompare/<test name>.json` (honouring `CARGO_TARGET_DIR`), so CI can keep it.
//!
//! **Why one file.** A gate is one decision taken three ways (the macros, [`run`] and
//! [`check`]), and all three go through the same skip rules, the same lock and the same
//! judgement ([`judge`], [`judge_pooled`]); the expectation types it records live in
//! `compare/gate_record.rs`, beside the report that carries them.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub use crate::compare::gate_record::{Effort, Expectation, GateInfo};
use crate::compare::report::Report;
use crate::compare::{CompareOptions, compare};
use crate::display::Pct;
use crate::env::{Instrumentation, detect_instrumentation};
use crate::measure::candidate::Candidate;
use crate::pool::{self, PoolOptions};
use crate::stats::lower_bound_rule;
use crate::stats::{Estimate, Pooled};
use crate::{Error, Verdict};

/// The environment variable that turns gates off (`off`) or forces them in debug builds
/// (`force`).
pub const GATE_ENV: &str = "RTCOMPARE_GATE";
/// The environment variable that scales the effort: `quick` or `full` (default).
pub const EFFORT_ENV: &str = "RTCOMPARE_EFFORT";

/// Options of a gate. `Default` reads nothing; the environment is consulted when the gate runs
/// unless a field overrides it.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct GateOptions {
    /// The comparison's options (defaults: the full protocol).
    pub compare: CompareOptions,
    /// Effort; `None` reads `RTCOMPARE_EFFORT` (default full).
    pub effort: Option<Effort>,
    /// Run in a debug build too (as `RTCOMPARE_GATE=force`).
    pub force: bool,
    /// Name of the gate for messages and the JSON file; `None` uses the test's name (the
    /// thread's name under libtest).
    pub name: Option<String>,
    /// Write the report's JSON under `target/rtcompare/` (default true when `None`).
    pub write_json: Option<bool>,
    /// Processes to pool (see [`pool`]): 0 or 1 measures in the test's own
    /// process; 3 or more re-run the test binary for this one test that many times and gate
    /// on the pooled interval and floor. 2 is rejected ([`Error::TooFewSamples`]).
    pub processes: usize,
}

impl GateOptions {
    /// Sets [`compare`](Self::compare).
    pub fn compare(mut self, o: CompareOptions) -> Self {
        self.compare = o;
        self
    }
    /// Sets [`effort`](Self::effort).
    pub fn effort(mut self, e: Effort) -> Self {
        self.effort = Some(e);
        self
    }
    /// Sets [`force`](Self::force).
    pub fn force(mut self, force: bool) -> Self {
        self.force = force;
        self
    }
    /// Sets [`name`](Self::name).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
    /// Sets [`write_json`](Self::write_json).
    pub fn write_json(mut self, write: bool) -> Self {
        self.write_json = Some(write);
        self
    }
    /// Sets [`processes`](Self::processes).
    pub fn processes(mut self, k: usize) -> Self {
        self.processes = k;
        self
    }
}

/// Why a gate failed: the expectation was not met, or the measurement itself failed.
#[derive(Debug, Clone)]
pub enum GateFailure {
    /// The expectation did not hold; the report says why.
    Expectation {
        /// The expectation checked.
        expectation: Expectation,
        /// Why it failed, in a sentence with the next step.
        explanation: String,
        /// The full report.
        report: Box<Report>,
    },
    /// The comparison could not run (a panicking candidate, bad options, cancellation, …).
    Measurement {
        /// The gate's name.
        name: String,
        /// The error.
        error: Error,
    },
}

impl GateFailure {
    /// The report, when the comparison ran.
    pub fn report(&self) -> Option<&Report> {
        match self {
            GateFailure::Expectation { report, .. } => Some(report),
            GateFailure::Measurement { .. } => None,
        }
    }
}

impl fmt::Display for GateFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GateFailure::Measurement { name, error } => {
                write!(f, "performance gate {name:?} could not measure: {error}")
            }
            GateFailure::Expectation {
                expectation,
                explanation,
                report,
            } => {
                let name = report
                    .context
                    .gate
                    .as_ref()
                    .map_or("gate", |g| g.name.as_str());
                writeln!(f, "performance gate {name:?} FAILED")?;
                writeln!(f, "expected: {expectation}")?;
                writeln!(f, "why: {explanation}")?;
                if let Some(p) = report.context.gate.as_ref().and_then(|g| g.pooled.as_ref()) {
                    writeln!(f, "pooled across processes:")?;
                    write!(f, "{p}")?;
                    writeln!(f)?;
                    writeln!(f, "the median process (A = candidate, B = baseline):")?;
                    return write!(f, "{report}");
                }
                writeln!(f, "verdict: {}", report.verdict)?;
                let e = &report.estimate;
                writeln!(
                    f,
                    "candidate/baseline − 1: {:+.2}% with {:.0}% interval [{:+.2}%, {:+.2}%]",
                    -100.0 * e.delta,
                    100.0 * e.level,
                    -100.0 * e.high,
                    -100.0 * e.low
                )?;
                writeln!(f, "noise floor: {}", Pct(report.noise_floor))?;
                if report.warnings.is_empty() {
                    writeln!(f, "warnings: none")?;
                } else {
                    writeln!(f, "warnings:")?;
                    for w in &report.warnings {
                        writeln!(f, "  - {w}")?;
                    }
                }
                if let Some(p) = report
                    .context
                    .gate
                    .as_ref()
                    .and_then(|g| g.json_path.as_ref())
                {
                    writeln!(f, "report JSON: {p}")?;
                }
                writeln!(f)?;
                writeln!(f, "full report (A = candidate, B = baseline):")?;
                write!(f, "{report}")
            }
        }
    }
}

impl std::error::Error for GateFailure {}

/// Anything a gate can measure: a [`Candidate`], or a closure performing **one** operation
/// (wrapped with [`Candidate::from_fn`]).
pub trait IntoCandidate<'a> {
    /// The candidate, named `default_name` if it has no name of its own.
    fn into_candidate(self, default_name: &str) -> Candidate<'a>;
}

impl<'a> IntoCandidate<'a> for Candidate<'a> {
    fn into_candidate(self, _: &str) -> Candidate<'a> {
        self
    }
}

impl<'a, F, R> IntoCandidate<'a> for F
where
    F: FnMut() -> R + 'a,
{
    fn into_candidate(self, default_name: &str) -> Candidate<'a> {
        Candidate::from_fn(default_name, self)
    }
}

/// The process-wide lock that keeps gates (and [`compare_exclusive`]) from measuring at the same
/// time.
static MEASURING: Mutex<()> = Mutex::new(());

/// [`compare`](crate::compare()) holding the process-wide measuring lock, so that no other gate
/// in this process measures at the same time.
pub fn compare_exclusive(
    a: Candidate<'_>,
    b: Candidate<'_>,
    options: &CompareOptions,
) -> crate::Result<Report> {
    let _guard = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    compare(a, b, options)
}

/// Why a gate did not run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Skip {
    /// `RTCOMPARE_GATE=off`.
    Disabled,
    /// A debug build without `RTCOMPARE_GATE=force`.
    DebugBuild,
    /// The process runs under an emulator or instrumentation framework (Valgrind, QEMU user
    /// mode) and the gate's [`CompareOptions::allow_instrumented`] is off: its timings would
    /// mean nothing. `RTCOMPARE_GATE=force` does not change this.
    Instrumented(Instrumentation),
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Disabled => write!(f, "gates are turned off ({GATE_ENV}=off)"),
            Skip::DebugBuild => write!(
                f,
                "this is a debug build, whose timings say little about optimised code; run \
                 `cargo test --release` (or set {GATE_ENV}=force to measure anyway)"
            ),
            Skip::Instrumented(tool) => write!(
                f,
                "this process runs under {tool}, which translates every instruction, so its \
                 timings say nothing about native speed; run the test natively (or set \
                 allow_instrumented(true) in the gate's CompareOptions to measure anyway)"
            ),
        }
    }
}

/// Whether a gate would run now: `Err(Skip)` when gates are turned off, under an emulator or
/// instrumentation (unless the gate's options allow it), or in a debug build (unless forced),
/// checked in that order.
pub fn skip_reason(options: &GateOptions) -> Result<(), Skip> {
    let env = std::env::var(GATE_ENV).ok();
    match env.as_deref().map(str::trim) {
        Some(v) if v.eq_ignore_ascii_case("off") || v == "0" => return Err(Skip::Disabled),
        _ => {}
    }
    if let Some(tool) = unallowed_instrumentation(options) {
        return Err(Skip::Instrumented(tool));
    }
    let forced = options.force
        || env
            .as_deref()
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("force"));
    if cfg!(debug_assertions) && !forced {
        return Err(Skip::DebugBuild);
    }
    Ok(())
}

/// Measures `candidate` against `baseline` and checks `expectation`, always measuring.
///
/// Returns the report when the expectation holds, and [`GateFailure`] when it does not or when
/// the comparison failed. In a debug build that was not forced, a failed expectation is returned
/// as `Ok` with a notice on stderr (never a false failure); use [`run`] or the macros to skip such
/// gates instead. Likewise under Valgrind or QEMU user mode without
/// [`CompareOptions::allow_instrumented`]: `check` measures anyway (the report's first warning
/// says the timings mean nothing) and returns a failed expectation as `Ok` with a notice. Bad
/// expectations (a negative budget, a margin outside (0, 1)) are
/// [`GateFailure::Measurement`] with [`Error::OutOfRange`].
#[track_caller]
pub fn check<'a>(
    candidate: impl IntoCandidate<'a>,
    baseline: impl IntoCandidate<'a>,
    expectation: Expectation,
    options: &GateOptions,
) -> Result<Report, GateFailure> {
    let caller = std::panic::Location::caller();
    check_at(None, caller, candidate, baseline, expectation, options)
}

/// [`check`], with the pool's key when [`run`] has already counted it.
fn check_at<'a>(
    key: Option<String>,
    caller: &std::panic::Location<'_>,
    candidate: impl IntoCandidate<'a>,
    baseline: impl IntoCandidate<'a>,
    expectation: Expectation,
    options: &GateOptions,
) -> Result<Report, GateFailure> {
    let name = gate_name(options);
    let fail = |error| GateFailure::Measurement {
        name: name.clone(),
        error,
    };
    expectation.check().map_err(fail)?;
    let effort = options.effort.unwrap_or_else(effort_from_env);
    let instrumented = unallowed_instrumentation(options);
    let opts = effort
        .apply(options.compare.clone())
        .allow_instrumented(options.compare.allow_instrumented || instrumented.is_some());
    let (mut report, pooled) = if options.processes > 1 {
        let pool_options = PoolOptions::default()
            .this_test()
            .first_stage(options.processes)
            .max_processes(options.processes)
            .target(0.0, 0.0)
            // A gate runs exactly its processes and judges them with its own rule.
            .decide(false)
            .compare(opts.clone());
        let key = key.unwrap_or_else(|| pool::enter(&pool::base_key(&pool_options, caller)));
        let run = pool::run_keyed(&key, &pool_options, move |ctx| {
            let a = candidate.into_candidate("candidate");
            let b = baseline.into_candidate("baseline");
            compare_exclusive(a, b, ctx.options())
        })
        .map_err(&fail)?;
        if run.reports.is_empty() {
            // A pool child started for another pool passed through this one.
            return Err(fail(Error::invalid_option(
                "processes",
                "this process is a pool child started for another pooled comparison, so this \
                 gate did not measure; gate::run and the gate macros pass such gates by",
            )));
        }
        // The report kept is the process whose delta is the median; the gate rests on the
        // pooled result, carried beside it.
        let mut by_delta: Vec<&Report> = run.reports.iter().collect();
        by_delta.sort_by(|x, y| x.estimate.delta.total_cmp(&y.estimate.delta));
        let median = by_delta[by_delta.len() / 2].clone();
        (median, Some(run.pooled))
    } else {
        let a = candidate.into_candidate("candidate");
        let b = baseline.into_candidate("baseline");
        (compare_exclusive(a, b, &opts).map_err(fail)?, None)
    };
    let (passed, explanation) = match &pooled {
        Some(p) => judge_pooled(&expectation, p),
        None => judge(&expectation, &report),
    };
    let mut info = GateInfo {
        name: name.clone(),
        expectation,
        effort,
        effort_env: std::env::var(EFFORT_ENV).ok(),
        gate_env: std::env::var(GATE_ENV).ok(),
        passed,
        explanation: explanation.clone(),
        json_path: None,
        pooled,
    };
    if options.write_json.unwrap_or(true) {
        let path = report_dir().join(format!("{}.json", file_stem(&name)));
        info.json_path = Some(path.display().to_string());
        report.context.gate = Some(info.clone());
        // A report that cannot be written is worth a notice, not a failed gate.
        if let Err(e) = write_json(&path, &report) {
            eprintln!(
                "rtcompare gate {name:?}: could not write {}: {e}",
                path.display()
            );
            info.json_path = None;
        }
    }
    report.context.gate = Some(info);
    if passed {
        return Ok(report);
    }
    if let Some(tool) = instrumented {
        eprintln!(
            "rtcompare gate {name:?} would FAIL ({explanation}), but it ran under {tool}, whose \
             timings mean nothing: not failing. Run the test natively to enforce it."
        );
        return Ok(report);
    }
    if cfg!(debug_assertions) && skip_reason(options) == Err(Skip::DebugBuild) {
        eprintln!(
            "rtcompare gate {name:?} would FAIL ({explanation}), but this is a debug build: not \
             failing. Run `cargo test --release` to enforce it."
        );
        return Ok(report);
    }
    Err(GateFailure::Expectation {
        expectation,
        explanation,
        report: Box::new(report),
    })
}

/// Like [`check`], but first applies the skip policy: `Ok(None)` (with a message on stderr)
/// when the gate is turned off or this is a debug build that was not forced.
#[track_caller]
pub fn run<'a>(
    candidate: impl IntoCandidate<'a>,
    baseline: impl IntoCandidate<'a>,
    expectation: Expectation,
    options: &GateOptions,
) -> Result<Option<Report>, GateFailure> {
    let caller = std::panic::Location::caller();
    // A pooled gate is counted as its pool would count it, so that a gate in a loop finds
    // its own children (see `pool::run`).
    let key = (options.processes > 1).then(|| pool::enter(&pool::call_site(caller)));
    // A pool child started for another pool passes this gate without measuring.
    let elsewhere = match &key {
        Some(key) => pool::is_child_for(key) == Some(false),
        None => pool::is_child_for("").is_some(),
    };
    if elsewhere {
        return Ok(None);
    }
    if let Err(skip) = skip_reason(options) {
        eprintln!("rtcompare gate {:?} skipped: {skip}", gate_name(options));
        return Ok(None);
    }
    check_at(key, caller, candidate, baseline, expectation, options).map(Some)
}

/// The body of the assertion macros: [`run`], panicking with the full [`GateFailure`] message
/// on failure and printing a one-line summary on success.
#[track_caller]
pub fn assert_gate<'a>(
    candidate: impl IntoCandidate<'a>,
    baseline: impl IntoCandidate<'a>,
    expectation: Expectation,
    options: &GateOptions,
) -> Option<Report> {
    match run(candidate, baseline, expectation, options) {
        Ok(Some(report)) => {
            if let Some(g) = &report.context.gate {
                eprintln!("rtcompare gate {:?} passed: {}", g.name, g.explanation);
            }
            Some(report)
        }
        Ok(None) => None,
        Err(failure) => panic!("{failure}"),
    }
}

/// Decides an expectation on a report: `(passed, explanation)`. Pure.
pub fn judge(expectation: &Expectation, report: &Report) -> (bool, String) {
    judge_on(
        expectation,
        &report.estimate,
        report.noise_floor,
        report.resolved,
        report.verdict,
    )
}

/// Decides an expectation on a result pooled across processes: its interval, floor and
/// verdict, by the same rules as [`judge`]. Pure.
pub fn judge_pooled(expectation: &Expectation, pooled: &Pooled) -> (bool, String) {
    let Ok(e) = Estimate::from_interval(pooled.delta, pooled.low, pooled.high, pooled.level) else {
        return (
            false,
            format!("the pooled result is not a valid interval: {pooled}"),
        );
    };
    let (passed, why) = judge_on(
        expectation,
        &e,
        pooled.noise_floor,
        pooled.resolved,
        pooled.verdict,
    );
    (
        passed,
        format!("pooled over {} processes: {why}", pooled.processes),
    )
}

fn judge_on(
    expectation: &Expectation,
    e: &Estimate,
    floor: f64,
    resolved: bool,
    verdict: Verdict,
) -> (bool, String) {
    // Slowdown of the candidate = −δ, with interval [−high, −low].
    let (slow_low, slow_high) = (-e.high, -e.low);
    let interval = format!(
        "slowdown {:+.2}% [{:+.2}%, {:+.2}%], noise floor {}",
        -100.0 * e.delta,
        100.0 * slow_low,
        100.0 * slow_high,
        Pct(floor)
    );
    match *expectation {
        Expectation::NotSlower { budget } => {
            let bar = budget.max(floor);
            if slow_low > bar && resolved {
                (
                    false,
                    format!(
                        "the candidate is slower by more than the budget: the whole interval of \
                         the slowdown lies above both the {} budget and the noise floor ({interval})",
                        Pct(budget)
                    ),
                )
            } else if let Verdict::CannotTell(reason) = verdict {
                (
                    true,
                    format!(
                        "cannot tell ({reason}); \"cannot tell\" passes a not-slower gate ({interval})"
                    ),
                )
            } else {
                (
                    true,
                    format!(
                        "no evidence of a slowdown beyond the {} budget ({interval})",
                        Pct(budget)
                    ),
                )
            }
        }
        Expectation::Faster { by } => {
            let lower = lower_bound_rule(e.low, by);
            let accepted = lower.is_ok_and(|d| d.accepted);
            match verdict {
                Verdict::AFaster if accepted => (
                    true,
                    format!(
                        "the candidate needs at least {} less time: the interval's lower bound \
                         ({}) clears it ({interval})",
                        Pct(by),
                        Pct(e.low)
                    ),
                ),
                Verdict::AFaster => (
                    false,
                    format!(
                        "the candidate is faster, but the interval's lower bound of the time saved \
                         ({}) does not clear {}: the speedup is real and smaller than claimed, or \
                         the interval is too wide; measure longer ({interval})",
                        Pct(e.low),
                        Pct(by)
                    ),
                ),
                Verdict::BFaster => (
                    false,
                    format!("the candidate is slower than the baseline ({interval})"),
                ),
                Verdict::CannotTell(reason) => (
                    false,
                    format!(
                        "cannot tell, so a claimed speedup is not established: {reason} ({interval})"
                    ),
                ),
            }
        }
        Expectation::Equivalent { margin } => {
            let inside = e.low > -margin && e.high < margin;
            if inside && floor < margin {
                (
                    true,
                    format!(
                        "the whole interval lies within ±{} and the noise floor is below it ({interval})",
                        Pct(margin)
                    ),
                )
            } else if !inside {
                (
                    false,
                    format!(
                        "the interval reaches beyond ±{}, so equivalence is not established ({interval})",
                        Pct(margin)
                    ),
                )
            } else {
                (
                    false,
                    format!(
                        "the noise floor ({}) is not below the ±{} margin, so this setup cannot \
                         establish equivalence that tight ({interval})",
                        Pct(floor),
                        Pct(margin)
                    ),
                )
            }
        }
    }
}

/// What hosts this process when the gate's options do not allow it (see
/// [`Skip::Instrumented`]).
fn unallowed_instrumentation(options: &GateOptions) -> Option<Instrumentation> {
    if options.compare.allow_instrumented {
        None
    } else {
        detect_instrumentation()
    }
}

fn effort_from_env() -> Effort {
    match std::env::var(EFFORT_ENV).ok().as_deref().map(str::trim) {
        Some(v) if v.eq_ignore_ascii_case("quick") => Effort::Quick,
        _ => Effort::Full,
    }
}

fn gate_name(options: &GateOptions) -> String {
    options.name.clone().unwrap_or_else(|| {
        std::thread::current()
            .name()
            .filter(|n| *n != "main")
            .unwrap_or("gate")
            .to_string()
    })
}

/// `target/rtcompare`, honouring `CARGO_TARGET_DIR` and, under cargo, the package's directory.
fn report_dir() -> PathBuf {
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(t).join("rtcompare");
    }
    match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(m) => PathBuf::from(m).join("target").join("rtcompare"),
        None => PathBuf::from("target").join("rtcompare"),
    }
}

fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn write_json(path: &Path, report: &Report) -> crate::Result<()> {
    let io = |e: std::io::Error| Error::io(path, e);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(path, report.to_json()?).map_err(io)
}

/// Fails unless `candidate` is not slower than `baseline` by more than `budget` (a fraction).
/// Each side is a [`Candidate`] or a closure performing one operation. "Cannot tell" passes.
/// Skipped in debug builds unless `RTCOMPARE_GATE=force`; see [the module docs](crate::gate).
/// With `processes = k` (3 or more) the test binary re-runs this one test in `k` processes
/// and the gate decides on their pooled interval and floor (see [`pool`](crate::pool)); all
/// three gates take it.
///
/// ```no_run
/// use std::hint::black_box;
/// rtcompare::assert_not_slower!(|| black_box(3u64).pow(5), || black_box(3u64).pow(5), budget = 0.10);
/// // With options:
/// let opts = rtcompare::gate::GateOptions::default().name("pow");
/// rtcompare::assert_not_slower!(|| black_box(3u64).pow(5), || black_box(3u64).pow(5), budget = 0.10, options = opts);
/// ```
#[macro_export]
macro_rules! assert_not_slower {
    ($candidate:expr, $baseline:expr, budget = $budget:expr $(,)?) => {
        $crate::assert_not_slower!(
            $candidate,
            $baseline,
            budget = $budget,
            options = $crate::gate::GateOptions::default()
        )
    };
    ($candidate:expr, $baseline:expr, budget = $budget:expr, processes = $k:expr $(,)?) => {
        $crate::assert_not_slower!(
            $candidate,
            $baseline,
            budget = $budget,
            options = $crate::gate::GateOptions::default().processes($k)
        )
    };
    ($candidate:expr, $baseline:expr, budget = $budget:expr, options = $options:expr $(,)?) => {
        $crate::gate::assert_gate(
            $candidate,
            $baseline,
            $crate::gate::Expectation::NotSlower { budget: $budget },
            &$options,
        )
    };
}

/// Fails unless `candidate` needs at least `by` (a fraction) less time than `baseline`, by the
/// lower-bound rule on a resolved result. "Cannot tell" fails, saying which kind.
///
/// ```no_run
/// use std::hint::black_box;
/// let v: Vec<u64> = (0..1000).collect();
/// rtcompare::assert_faster!(|| black_box(&v).iter().sum::<u64>(),
///                           || black_box(&v).iter().map(|x| x * 1).sum::<u64>(), by = 0.0);
/// ```
#[macro_export]
macro_rules! assert_faster {
    ($candidate:expr, $baseline:expr, by = $by:expr $(,)?) => {
        $crate::assert_faster!(
            $candidate,
            $baseline,
            by = $by,
            options = $crate::gate::GateOptions::default()
        )
    };
    ($candidate:expr, $baseline:expr, by = $by:expr, processes = $k:expr $(,)?) => {
        $crate::assert_faster!(
            $candidate,
            $baseline,
            by = $by,
            options = $crate::gate::GateOptions::default().processes($k)
        )
    };
    ($candidate:expr, $baseline:expr, by = $by:expr, options = $options:expr $(,)?) => {
        $crate::gate::assert_gate(
            $candidate,
            $baseline,
            $crate::gate::Expectation::Faster { by: $by },
            &$options,
        )
    };
}

/// Fails unless the whole interval of the difference lies within ±`within` (a fraction) and the
/// noise floor is below it.
///
/// ```no_run
/// use std::hint::black_box;
/// rtcompare::assert_equivalent!(|| black_box(7u64) * 3, || black_box(7u64) * 3, within = 0.15);
/// ```
#[macro_export]
macro_rules! assert_equivalent {
    ($candidate:expr, $baseline:expr, within = $m:expr $(,)?) => {
        $crate::assert_equivalent!(
            $candidate,
            $baseline,
            within = $m,
            options = $crate::gate::GateOptions::default()
        )
    };
    ($candidate:expr, $baseline:expr, within = $m:expr, processes = $k:expr $(,)?) => {
        $crate::assert_equivalent!(
            $candidate,
            $baseline,
            within = $m,
            options = $crate::gate::GateOptions::default().processes($k)
        )
    };
    ($candidate:expr, $baseline:expr, within = $m:expr, options = $options:expr $(,)?) => {
        $crate::gate::assert_gate(
            $candidate,
            $baseline,
            $crate::gate::Expectation::Equivalent { margin: $m },
            &$options,
        )
    };
}
