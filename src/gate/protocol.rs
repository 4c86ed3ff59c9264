//! A gate's stages: take the process-wide lock, measure (one comparison in this process, or a
//! pool of processes), judge the expectation, record the report as JSON, and decide whether a
//! failure stands (not in a debug build, not under an emulator).

use std::sync::Mutex;

use super::artifact::{file_stem, report_dir, write_json};
use super::failure::GateFailure;
use super::judgement::{judge, judge_pooled};
use super::options::{EFFORT_ENV, GATE_ENV, GateOptions, effort_from_env, gate_name};
use super::skip::{Skip, skip_reason, unallowed_instrumentation};
use crate::compare::gate_record::{Expectation, GateInfo};
use crate::compare::report::Report;
use crate::compare::{CompareOptions, compare_borrowed};
use crate::error::Error;
use crate::measure::candidate::Candidate;
use crate::measure::clock::MonotonicClock;
use crate::pool::{self, PoolOptions};
use crate::stats::{Change, Pooled};

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

/// The process-wide lock that keeps gates (and `compare_exclusive`) from measuring at the same
/// time.
static MEASURING: Mutex<()> = Mutex::new(());

/// [`compare`](crate::compare()) holding the process-wide measuring lock, so that no other gate
/// in this process measures at the same time.
pub(crate) fn compare_exclusive(
    a: &mut Candidate<'_>,
    b: &mut Candidate<'_>,
    options: &CompareOptions,
) -> crate::error::Result<Report> {
    let _guard = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    compare_borrowed(a, b, options, &MonotonicClock)
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
    let (mut report, pooled, passed, explanation) = if options.processes > 1 {
        let (median, pooled) = measure_pooled(
            key,
            caller,
            candidate,
            baseline,
            opts.clone(),
            options.processes,
            &fail,
        )?;
        let (passed, explanation) = judge_pooled(&expectation, &pooled);
        (median, Some(pooled), passed, explanation)
    } else {
        let mut a = candidate.into_candidate("candidate");
        let mut b = baseline.into_candidate("baseline");
        let (report, passed, explanation) = measure_confirmed(&expectation, || {
            compare_exclusive(&mut a, &mut b, &opts).map_err(&fail)
        })?;
        (report, None, passed, explanation)
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
        write_report(&name, &mut info, &mut report);
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

/// One process's measurement of a gate, judged: `(report, passed, explanation)`.
///
/// A not-slower gate that would fail measures the pair once more and fails only when the
/// second measurement fails too; the report kept is the second. A failure blocks a merge, and
/// one burst of load on a shared machine can push a single interval of identical code above
/// zero with an estimate over the budget, while a slowdown beyond the budget fails both
/// measurements. The other expectations fail on "not established", where measuring again
/// until one passes would only inflate false claims, so they measure once. `measure` makes
/// one measurement; its errors are returned as they are.
fn measure_confirmed(
    expectation: &Expectation,
    mut measure: impl FnMut() -> Result<Report, GateFailure>,
) -> Result<(Report, bool, String), GateFailure> {
    let first = measure()?;
    let (passed, first_why) = judge(expectation, &first);
    if passed || !matches!(expectation, Expectation::NotSlower { .. }) {
        return Ok((first, passed, first_why));
    }
    let e = &first.estimate;
    let first_change = Change::of_delta(e.delta, e.low, e.high);
    let second = measure()?;
    let (passed, second_why) = judge(expectation, &second);
    let explanation = if passed {
        format!(
            "{second_why}; a first measurement had failed (the candidate {first_change}), and \
             this second one did not, so the failure was not confirmed"
        )
    } else {
        format!("{second_why}; confirmed: a first measurement failed too ({first_change})")
    };
    Ok((second, passed, explanation))
}

/// The pooled measurement of a gate: `processes` processes, each comparing `candidate` with
/// `baseline` under `opts` (the gate's own rule judges them, not the pool's). Returns the report
/// of the process whose delta is the median and the pooled result. Errors, through `fail`: the
/// pool's, and [`Error::InvalidOption`] in a pool child started for another pool.
fn measure_pooled<'a>(
    key: Option<String>,
    caller: &std::panic::Location<'_>,
    candidate: impl IntoCandidate<'a>,
    baseline: impl IntoCandidate<'a>,
    opts: CompareOptions,
    processes: usize,
    fail: &impl Fn(Error) -> GateFailure,
) -> Result<(Report, Pooled), GateFailure> {
    let pool_options = PoolOptions::default()
        .this_test()
        .first_stage(processes)
        .max_processes(processes)
        .target(0.0, 0.0)
        // A gate runs exactly its processes and judges them with its own rule.
        .decide(false)
        .compare(opts);
    let key = key.unwrap_or_else(|| pool::enter(&pool::base_key(&pool_options, caller)));
    let run = pool::run_keyed(&key, &pool_options, move |ctx| {
        let mut a = candidate.into_candidate("candidate");
        let mut b = baseline.into_candidate("baseline");
        compare_exclusive(&mut a, &mut b, ctx.options())
    })
    .map_err(fail)?;
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
    Ok((median, run.pooled))
}

/// Writes `report` as JSON to the gate's file, with `info` (naming that file) in its context;
/// when it cannot, a notice on stderr and no file named in `info`.
fn write_report(name: &str, info: &mut GateInfo, report: &mut Report) {
    let path = report_dir().join(format!("{}.json", file_stem(name)));
    info.json_path = Some(path.display().to_string());
    report.context.gate = Some(info.clone());
    // A report that cannot be written is worth a notice, not a failed gate.
    if let Err(e) = write_json(&path, report) {
        eprintln!(
            "rtcompare gate {name:?}: could not write {}: {e}",
            path.display()
        );
        info.json_path = None;
    }
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
/// on failure and printing a one-line summary on success. Public only so that the macros can
/// expand to it in the user's crate (as `rtcompare::support::gate::assert_gate`); call the
/// macros or [`run`].
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A report on a simulated clock: the candidate (A) at `ns_a`, the baseline at 100 ns per
    /// operation.
    fn report(ns_a: u64) -> Report {
        crate::compare::simulated_report(ns_a, 100)
    }

    /// Hands out `reports` in order and counts the measurements taken.
    fn measurements(
        reports: Vec<Report>,
    ) -> (
        impl FnMut() -> Result<Report, GateFailure>,
        std::rc::Rc<std::cell::Cell<usize>>,
    ) {
        let taken = std::rc::Rc::new(std::cell::Cell::new(0));
        let counter = taken.clone();
        let mut reports = reports.into_iter();
        let measure = move || {
            counter.set(counter.get() + 1);
            Ok(reports.next().expect("measured more often than expected"))
        };
        (measure, taken)
    }

    const BUDGET: Expectation = Expectation::NotSlower { budget: 0.10 };

    #[test]
    fn a_not_slower_failure_stands_only_when_a_second_measurement_fails_too() {
        // A burst of load in the first measurement only: 30 % slower, then identical.
        let (measure, taken) = measurements(vec![report(130), report(100)]);
        let (report_kept, passed, why) = measure_confirmed(&BUDGET, measure).unwrap();
        assert!(passed, "{why}");
        assert_eq!(taken.get(), 2);
        assert!(why.contains("not confirmed"), "{why}");
        assert!(report_kept.estimate.delta.abs() < 0.01, "{report_kept}");

        // A real slowdown fails both.
        let (measure, taken) = measurements(vec![report(130), report(131)]);
        let (_, passed, why) = measure_confirmed(&BUDGET, measure).unwrap();
        assert!(!passed, "{why}");
        assert_eq!(taken.get(), 2);
        assert!(
            why.contains("confirmed: a first measurement failed too (30.0 % slower ["),
            "{why}"
        );
    }

    #[test]
    fn a_pass_and_the_other_expectations_measure_once() {
        let (measure, taken) = measurements(vec![report(100)]);
        assert!(measure_confirmed(&BUDGET, measure).unwrap().1);
        assert_eq!(taken.get(), 1);
        // A claimed speedup that fails is not measured again until it passes.
        let (measure, taken) = measurements(vec![report(130)]);
        let faster = Expectation::Faster { by: 0.05 };
        assert!(!measure_confirmed(&faster, measure).unwrap().1);
        assert_eq!(taken.get(), 1);
    }
}
