//! The run of one bench target: the harness's registry, the command line, and the notes
//! already printed, shared by every `Criterion` the target's groups build.
//!
//! criterion's `criterion_group!` builds a fresh `Criterion` for each group and its
//! `criterion_main!` ends the run with another, so what outlives them (the results, the
//! command line, which settings were named) lives here, one per thread. The harness's
//! registry is lent out while a benchmark runs; a benchmark that starts another from inside
//! its own closure finds it lent and is refused, naming both.

use std::cell::RefCell;
use std::fmt;

use rtcompare::Candidate;
use rtcompare::bench::{BenchOptions, Bencher as Harness};
use rtcompare::precision::Precision;
use rtcompare::support;
use rtcompare::support::bench::WORKER_ENV;

use crate::args::{CommandLine, Overrides};
use crate::bencher::Bencher;
use crate::criterion::Config;
use crate::measurement::Measurement;
use crate::settings::Throughput;

/// A setting accepted with no effect here, named once on stderr with the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Note {
    SampleSize,
    Resamples,
    BaselineJudgement,
    SavedBaselines,
    Plots,
    SamplingMode,
    Color,
    Verbosity,
    Quick,
    Profiler,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Note::SampleSize => {
                "the sample size has no effect: each benchmark takes readings until its \
                 mean's interval is ±5 % of it, however many that takes (its time is bounded \
                 by the warm-up plus measurement time)"
            }
            Note::Resamples => {
                "the number of resamples has no effect: a benchmark's interval comes from \
                 batch means, not a bootstrap"
            }
            Note::BaselineJudgement => {
                "the noise threshold and significance level have no effect: they judge a change \
                 against a saved baseline, which this harness does not keep; \
                 `cargo bench -- --baseline REV` compares two revisions (a 5 % chance of a \
                 false verdict for the whole suite, a ±1 % margin set by --margin)"
            }
            Note::SavedBaselines => {
                "saved baselines have no effect: this harness keeps none; \
                 `cargo bench -- --baseline REV` compares two revisions in the same seconds \
                 on one CPU"
            }
            Note::Plots => {
                "plot settings have no effect: the harness writes one HTML page beside its \
                 JSON (target/rtcompare/bench/)"
            }
            Note::SamplingMode => {
                "the sampling mode has no effect: the harness calibrates one batch size and \
                 takes every reading at that size"
            }
            Note::Color => "the colour setting has no effect: the harness prints plain rows",
            Note::Verbosity => {
                "--verbose and --quiet have no effect: the harness prints one row per \
                 benchmark on stdout and its progress on stderr"
            }
            Note::Quick => {
                "--quick has no effect: every benchmark already stops as soon as its mean is \
                 ±5 % precise"
            }
            Note::Profiler => {
                "the profiler has no effect: profiling runs (--profile-time) are not \
                 supported; run the bench binary under the profiler with a filter and --bench"
            }
        })
    }
}

/// One bench target's run.
struct Session {
    /// `None` while lent to a running benchmark.
    harness: Option<Harness>,
    command_line: CommandLine,
    noted: Vec<Note>,
    /// Benchmarks refused for starting inside another's closure, each named once.
    nested: Vec<String>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Runs a bench target: reads `args` (criterion's command line), runs each group, then ends
/// the run (rows, JSON, page) and returns its exit code: 0 when every benchmark ran, 1 when
/// one failed, 2 for a bad command line or an unwritable output. What `criterion_main!` calls.
pub fn run(args: impl IntoIterator<Item = String>, groups: &[fn()]) -> i32 {
    if let Err(code) = start(args) {
        return code;
    }
    for group in groups {
        group();
    }
    finish()
}

/// Starts the run from `args` unless one is under way; prints a bad command line's error and
/// returns `Err(2)`.
fn start(args: impl IntoIterator<Item = String>) -> Result<(), i32> {
    if SESSION.with_borrow(Option::is_some) {
        return Ok(());
    }
    // A worker of a cross-revision run serves what its parent asks, whatever the command line.
    let command_line = if std::env::var_os(WORKER_ENV).is_some() {
        CommandLine::parse(["--bench".to_string()]).expect("`--bench` alone parses")
    } else {
        match CommandLine::parse(args) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {e}");
                return Err(2);
            }
        }
    };
    if command_line.harness.help {
        // The harness prints its own flags and exits; criterion's come first.
        print!("{}", crate::args::HELP);
    }
    let harness = support::bench::start(command_line.harness.clone());
    let notes = command_line.notes.clone();
    SESSION.set(Some(Session {
        harness: Some(harness),
        command_line,
        noted: Vec::new(),
        nested: Vec::new(),
    }));
    for n in notes {
        note(n);
    }
    Ok(())
}

/// Starts the run from the process's command line, for bench files whose own `main` calls
/// groups directly; a bad command line ends the process with status 2.
fn ensure_started() {
    if let Err(code) = start(std::env::args().skip(1)) {
        std::process::exit(code);
    }
}

/// Ends the run: the harness prints its summary, writes the JSON and the page (a worker exits
/// here). Returns the exit code, 0 when no run was started.
pub(crate) fn finish() -> i32 {
    let Some(session) = SESSION.take() else {
        return 0;
    };
    match session.harness {
        Some(h) => support::bench::finish(h),
        None => 1,
    }
}

/// The overrides the command line gives (starting the run if needed).
pub(crate) fn overrides() -> Overrides {
    ensure_started();
    SESSION.with_borrow(|s| {
        s.as_ref()
            .map(|s| s.command_line.overrides)
            .unwrap_or_default()
    })
}

/// Names `n` on stderr, once a run; not in a worker or a listing, whose output is read.
pub(crate) fn note(n: Note) {
    ensure_started();
    let print = SESSION.with_borrow_mut(|s| {
        let Some(s) = s.as_mut() else { return false };
        let quiet = s.command_line.harness.list
            || s.harness.as_ref().is_some_and(support::bench::is_worker);
        if quiet || s.noted.contains(&n) {
            return false;
        }
        s.noted.push(n);
        true
    });
    if print {
        eprintln!("note: {n}");
    }
}

/// Runs the benchmark `name`, if the command line selects it: measured until precise (once
/// under `cargo test`, served in a worker), each batch a call of `routine` with a
/// [`Bencher`] set to the batch's size, timed by the bencher's `iter` method.
pub(crate) fn bench<M: Measurement>(
    name: &str,
    config: &Config,
    throughput: Option<&Throughput>,
    routine: &mut dyn FnMut(&mut Bencher<'_, M>),
) {
    ensure_started();
    let lent = SESSION.with_borrow_mut(|s| {
        let s = s.as_mut()?;
        let worker = s.harness.as_ref().is_some_and(support::bench::is_worker);
        let c = &s.command_line;
        let matches = |f: Option<&regex::Regex>| f.is_none_or(|r| r.is_match(name));
        let selected = worker
            || (!c.reject_all && matches(c.filter.as_ref()) && matches(config.filter.as_ref()));
        if !selected {
            return None;
        }
        if s.harness.is_none() && !s.nested.iter().any(|n| n == name) {
            s.nested.push(name.to_string());
            eprintln!(
                "error: the benchmark {name:?} was started inside another benchmark's closure; \
                 register it beside the other, not inside it (skipped)"
            );
        }
        s.harness.take()
    });
    let Some(mut harness) = lent else { return };
    harness.set_options(options(config));
    harness.set_throughput(throughput.map(Throughput::to_harness));
    let candidate = Candidate::timed_elsewhere(name, |n| {
        let mut b = Bencher::<M>::new(n);
        routine(&mut b);
        // criterion's rule, kept: a closure that times nothing is a mistake, not a zero.
        Ok(b.elapsed_ns().expect(
            "the benchmark's closure must call Bencher::iter (or iter_batched, iter_custom, …)",
        ))
    });
    support::bench::bench_candidate(&mut harness, name, candidate);
    SESSION.with_borrow_mut(|s| {
        if let Some(s) = s.as_mut() {
            s.harness = Some(harness);
        }
    });
}

/// The harness's options for a benchmark of `config`: the confidence level is the interval's
/// level, and warm-up plus measurement time bound the benchmark's time.
fn options(config: &Config) -> BenchOptions {
    let precision = Precision::normal()
        .level(config.confidence_level)
        .max_duration(Some(config.warm_up_time + config.measurement_time));
    let options = BenchOptions::default().precision(precision);
    match &config.output_directory {
        Some(dir) => options.output_dir(dir),
        None => options,
    }
}
