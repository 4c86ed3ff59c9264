//! A `cargo bench` harness: register benchmarks by name in a `harness = false` target, run them
//! alone or filtered as libtest users type it, get a table, and a JSON file of every result.
//!
//! ```no_run
//! // benches/parse.rs, with `[[bench]] name = "parse"` and `harness = false` in Cargo.toml
//! use std::hint::black_box;
//! use rtcompare::bench::Throughput;
//!
//! fn main() {
//!     rtcompare::bench::main(|b| {
//!         let small: Vec<u64> = (0..64).collect();
//!         b.bench("sum/small", || black_box(&small).iter().sum::<u64>());
//!         // A fixture built only when its benchmark runs (not in other benchmarks' workers).
//!         b.bench_with_setup("sum/large", || (0..4_096u64).collect::<Vec<_>>(), |v| {
//!             v.iter().sum::<u64>()
//!         });
//!         // A group: `max/64` and `max/4096`, each with its rate beside its time.
//!         b.group("max", |g| {
//!             for n in [64u64, 4_096] {
//!                 g.throughput(Throughput::Elements(n));
//!                 g.bench_with_input(n, |&n| (0..n).collect::<Vec<u64>>(), |v| {
//!                     v.iter().max().copied()
//!                 });
//!             }
//!         });
//!         // Consumed inputs: built before each batch, outside the measured region.
//!         b.bench_batched("sort/copy", || vec![3u32, 1, 2], |mut v| v.sort());
//!         // Two implementations in this binary, compared as `compare()` compares them.
//!         b.compare(
//!             "sum/iter-vs-fold",
//!             rtcompare::Candidate::from_fn("iter", || black_box(&small).iter().sum::<u64>()),
//!             rtcompare::Candidate::from_fn("fold", || {
//!                 black_box(&small).iter().fold(0u64, |s, x| s + x)
//!             }),
//!         );
//!     });
//! }
//! ```
//!
//! `cargo bench --bench parse` runs every benchmark; `cargo bench --bench parse -- sum/` only
//! those whose name contains `sum/` (`--exact` for the whole name, `--skip S` to leave out
//! names containing S); `--list` lists them. Groups ([`Bencher::group`]) prefix their names
//! and set options and a [`Throughput`] for their benchmarks, whose rows then show a rate. Each
//! [`Bencher::bench`] is measured until its mean is precise ([`measure`](crate::precision::measure),
//! at [`BenchOptions::precision`]), each [`Bencher::compare`] as
//! [`compare`](crate::compare::compare()) compares, at [`BenchOptions::compare`]. The table goes
//! to stdout, progress to stderr, and every result as JSON to
//! `target/rtcompare/bench/<target>.json` (under `CARGO_TARGET_DIR` when that is set), with an
//! HTML page beside it (`<target>.html`, feature `html`).
//!
//! Comparing one benchmark at two revisions of the code (a pull request against `main`) needs
//! two builds; this harness runs one.

pub(crate) mod args;
pub(crate) mod builds;
mod decide;
mod group;
pub(crate) mod layouts;
pub(crate) mod options;
mod pair;
pub(crate) mod revisions;
pub(crate) mod run;
mod staged;
mod suite;
pub(crate) mod worker;

use std::cell::{Cell, OnceCell, RefCell};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::compare::CompareOptions;
use crate::compare::report::Report;
use crate::error::{Error, Result};
use crate::measure::candidate::Candidate;
use crate::precision::{Measurement, Precision};

// The cross-revision engine below the harness is not API: the workspace's crates reach it
// through `support::bench`, the core through these crate-wide names.
pub(crate) use args::{Args, OutputFormat};
pub(crate) use builds::{compare_layouts, only_head};
pub use group::{Group, Rate, RateUnit, Throughput};
pub(crate) use layouts::{DEFAULT_LAYOUTS, DEFAULT_MARGIN};
pub(crate) use options::{BuildsOptions, BuildsProgress};
pub(crate) use revisions::{EXIT_ERROR, RevisionsOptions, compare_revisions};
pub(crate) use run::{BuildComparison, BuildStatus, BuildsRun, Stopped};

/// Version of the JSON the harness writes ([`BenchRun`]); raised when a field changes meaning.
pub(crate) const BENCH_SCHEMA_VERSION: u32 = 1;

/// How the harness measures: a builder whose methods consume and return `Self`.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct BenchOptions {
    /// How precisely a [`Bencher::bench`] is measured ([`precision`](Self::precision)).
    pub(crate) precision: Precision,
    /// How a [`Bencher::compare`] is compared ([`compare`](Self::compare)).
    pub(crate) compare: CompareOptions,
    /// Where the JSON goes ([`output_dir`](Self::output_dir)); `None`: the default place.
    pub(crate) output_dir: Option<PathBuf>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            precision: Precision::normal(),
            compare: CompareOptions::default(),
            output_dir: None,
        }
    }
}

impl BenchOptions {
    /// How precisely each [`Bencher::bench`] is measured (default [`Precision::normal`]: ±5 %
    /// at 95 % with an autocorrelation limit of 0.2; quick's limit of 0.8 can leave intervals
    /// too narrow by a factor of up to 3, see [`precision`](crate::precision)). A precision
    /// the driver refuses makes each benchmark a failed row naming the bad value.
    pub fn precision(mut self, p: Precision) -> Self {
        self.precision = p;
        self
    }
    /// How each [`Bencher::compare`] is compared (default [`CompareOptions::default`]). Options
    /// [`compare`](crate::compare()) refuses make the comparison a failed row naming the bad
    /// value.
    pub fn compare(mut self, c: CompareOptions) -> Self {
        self.compare = c;
        self
    }
    /// The directory the run's JSON (and page) is written to, created if missing. Default:
    /// `$CARGO_TARGET_DIR/rtcompare/bench`, or `target/rtcompare/bench` under the working
    /// directory (cargo runs benches from the package's directory). A directory that cannot
    /// be created or written makes the run exit with status 2, naming it.
    pub fn output_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.output_dir = Some(dir.into());
        self
    }

    fn json_dir(&self) -> PathBuf {
        self.output_dir.clone().unwrap_or_else(|| {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("target"));
            target.join("rtcompare").join("bench")
        })
    }
}

/// The registry a bench target fills. Each benchmark runs when it is registered (so its
/// closure may borrow what the registering code built), if the command line selects it and
/// asks for a run rather than a list; its result is kept, and printed as a table row.
///
/// **Fixtures: build them in a setup closure.** The registration closure runs whole in every
/// process that needs one of its benchmarks: the harness, and each worker of a comparison of
/// two builds (`cargo bench -- --baseline REV`, `rtcompare bench`), which lists the benchmarks,
/// or serves one and exits once served. Code
/// written in the closure itself, such as an input built before [`bench`](Self::bench) or
/// passed to [`bench_with_input`](Self::bench_with_input), runs there every time, for every
/// benchmark registered before the one served. A fixture built in the `setup` of
/// [`bench_with_setup`](Self::bench_with_setup) (or of a [`Group::bench_with_input`]) is
/// built only when its own benchmark runs or is served: in a worker, only the served one's.
pub struct Bencher {
    options: BenchOptions,
    args: Args,
    names: Vec<String>,
    results: Vec<BenchResult>,
    /// Whether each result is printed as a table row on stdout (and its name on stderr).
    print: bool,
    /// Set in a worker process: the benchmarks are listed or served, not measured here.
    worker: Option<worker::Serving>,
    /// Benchmarks that ran once without failing, in a test run ([`Args::test`]).
    passed: usize,
    /// The enclosing groups' names, each followed by `/` (empty outside groups).
    prefix: String,
    /// The throughput of the benchmarks registered now (a group's).
    throughput: Option<Throughput>,
    /// A serving worker's heap filler, alive until the process exits (see [`Bencher::start`]).
    _filler: Option<crate::pool::HeapPerturbation>,
}

impl Bencher {
    /// An empty registry that runs what `args` selects with `options`, printing nothing.
    pub(crate) fn new(options: BenchOptions, args: Args) -> Self {
        Bencher {
            options,
            args,
            names: Vec::new(),
            results: Vec::new(),
            print: false,
            worker: None,
            passed: 0,
            prefix: String::new(),
            throughput: None,
            _filler: None,
        }
    }

    /// The registry [`main`] fills: a worker when this process was started by
    /// [`compare_builds`] (then `args` is not used), otherwise one that runs what `args` selects
    /// and prints each result as it comes. Register the benchmarks on it, then call
    /// [`finish`](Self::finish). Front ends over the harness (criterion's API in the
    /// `rtcompare-criterion` crate) use the pair where [`main`]'s closure does not fit.
    ///
    /// With `--baseline REV` on the command line ([`Args::revisions`]) it compares this bench
    /// target at that revision with the working tree ([`compare_revisions`]) and exits the
    /// process with that run's status: nothing is registered here.
    ///
    /// Call it at the start of the bench target's `main`, before any thread starts: a worker
    /// clears its marker from the environment, and perturbs its heap before any fixture is
    /// built, so that each worker lays out the measured data differently (docs/background.md,
    /// "Cross-revision pairs").
    pub(crate) fn start(args: Args) -> Bencher {
        if let Some(serving) = worker::Serving::from_env() {
            let filler = match serving.mode {
                worker::Mode::Serve { seed, .. } => Some(crate::pool::perturb_heap(seed)),
                worker::Mode::List => None,
            };
            let mut bencher = Bencher::new(BenchOptions::default(), Args::default());
            bencher.worker = Some(serving);
            bencher._filler = filler;
            return bencher;
        }
        if args.help {
            print!("{}", args::HELP);
            std::process::exit(0);
        }
        if let Some(revisions) = &args.revisions {
            std::process::exit(revisions_from_harness(revisions, &args));
        }
        let mut bencher = Bencher::new(BenchOptions::default(), args);
        bencher.print = true;
        bencher
    }

    /// Whether this process is a worker of [`compare_builds`], which lists or serves the
    /// benchmarks whatever the command line selects: a front end that applies a filter of its
    /// own must then register every benchmark.
    pub(crate) fn is_worker(&self) -> bool {
        self.worker.is_some()
    }

    /// The options the next benchmark runs with.
    pub fn options(&self) -> &BenchOptions {
        &self.options
    }

    /// Registers the benchmarks `register` registers under the name prefix `name/`, with the
    /// group's own options and throughput ([`Group`]): `b.group("parse", |g| g.bench("small",
    /// f))` registers `parse/small`. Options and throughput set in the group end with it.
    pub fn group(&mut self, name: &str, register: impl FnOnce(&mut Group<'_>)) {
        let saved = (self.prefix.clone(), self.options.clone(), self.throughput);
        self.prefix = format!("{}{name}/", self.prefix);
        register(&mut Group { bencher: self });
        (self.prefix, self.options, self.throughput) = saved;
    }

    /// `name` under the enclosing groups' prefix.
    fn qualified(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// Replaces the options of every later benchmark (the JSON directory, the precision, the
    /// comparison's options).
    ///
    /// In a worker of a comparison of two builds (`cargo bench -- --baseline REV`) the parent
    /// measures, so only what shapes the served benchmark's batches applies:
    /// [`Precision::inner_loops`], a fixed batch size, which the worker pair then runs instead
    /// of calibrating one (unless the comparison's own options fix one; when the two builds fix
    /// different sizes, the larger, so that both run the same). The precision target,
    /// durations, the comparison's options and `output_dir` are the parent's there.
    pub fn set_options(&mut self, options: BenchOptions) {
        self.options = options;
    }

    /// Measures `f`, one operation per call, as the benchmark `name`, until precise; its
    /// result is passed through [`black_box`](std::hint::black_box) so the work is not
    /// optimised away. Build inputs outside the closure.
    pub fn bench<T>(&mut self, name: &str, f: impl FnMut() -> T) {
        let name = self.qualified(name);
        if self.take(&name, true) {
            self.measure(&name, Candidate::from_fn(&name, f));
        }
    }

    /// Measures `f` on a borrowed `input` built once, outside the measured region. The caller
    /// has built `input` before the call, so it is built in every process that runs the
    /// registration, whichever benchmark that process runs;
    /// [`bench_with_setup`](Self::bench_with_setup) builds it only for this benchmark.
    pub fn bench_with_input<I, T>(&mut self, name: &str, input: I, f: impl FnMut(&I) -> T) {
        self.bench_with_setup(name, move || input, f);
    }

    /// Measures `routine` on a fixture that `setup` builds **only when this benchmark runs**
    /// (is selected and measured here, run once by `cargo test`, or served by a worker of a
    /// comparison of two builds); a filtered-out, listed or other worker's benchmark never builds
    /// it. The fixture is built once, before the first batch and outside the measured region,
    /// and lent to every operation; a panic in `setup` is reported as this benchmark's
    /// failure, as one in `routine` is.
    ///
    /// ```no_run
    /// rtcompare::bench::main(|b| {
    ///     // A worker serving "sort/small" never builds the million-element vector.
    ///     b.bench_with_setup("sum/large", || (0..1_000_000u64).collect::<Vec<_>>(), |v| {
    ///         v.iter().sum::<u64>()
    ///     });
    ///     b.bench_with_setup("sort/small", || vec![3u32, 1, 2], |v| {
    ///         let mut w = v.clone();
    ///         w.sort_unstable();
    ///         w
    ///     });
    /// });
    /// ```
    pub fn bench_with_setup<I, T>(
        &mut self,
        name: &str,
        setup: impl FnOnce() -> I,
        mut routine: impl FnMut(&I) -> T,
    ) {
        let name = self.qualified(name);
        if !self.take(&name, true) {
            return;
        }
        // Built by the candidate's setup, which runs before every batch outside the measured
        // region and has its panics caught and named like the batch's.
        let fixture: OnceCell<I> = OnceCell::new();
        let setup = Cell::new(Some(setup));
        let candidate = Candidate::new(&name, |n: u64| {
            let input = fixture
                .get()
                .expect("the setup, run before every batch, built the fixture");
            for _ in 0..n {
                std::hint::black_box(routine(std::hint::black_box(input)));
            }
        })
        .with_setup(|| {
            if let Some(build) = setup.take() {
                // A second `set` cannot happen: `setup` is taken once.
                let _ = fixture.set(build());
            }
        });
        self.measure(&name, candidate);
    }

    /// Measures `routine` on inputs it consumes: before every batch, outside the measured
    /// region, `setup` builds one input per operation of the coming batch (as many as the
    /// batch before it ran; when a batch asks for more, as during calibration, the rest are
    /// built inside it, which only makes calibration choose a smaller batch).
    pub fn bench_batched<I, T>(
        &mut self,
        name: &str,
        setup: impl FnMut() -> I,
        mut routine: impl FnMut(I) -> T,
    ) {
        let name = self.qualified(name);
        if !self.take(&name, true) {
            return;
        }
        // The inputs and the setup are shared by the batch and the hook that refills it.
        let inputs: RefCell<Vec<I>> = RefCell::default();
        let last_n = Cell::new(1u64);
        let setup = RefCell::new(setup);
        let candidate = Candidate::new(&name, |n: u64| {
            last_n.set(n);
            let mut ready = inputs.borrow_mut();
            for _ in 0..n {
                let input = match ready.pop() {
                    Some(i) => i,
                    None => (setup.borrow_mut())(),
                };
                std::hint::black_box(routine(input));
            }
        })
        .with_setup(|| {
            let mut ready = inputs.borrow_mut();
            while ready.len() < last_n.get() as usize {
                let input = (setup.borrow_mut())();
                ready.push(input);
            }
        });
        self.measure(&name, candidate);
    }

    /// Compares two implementations in this binary as [`compare`](crate::compare::compare())
    /// compares them, as the benchmark `name`.
    pub fn compare(&mut self, name: &str, a: Candidate<'_>, b: Candidate<'_>) {
        let name = self.qualified(name);
        let name = name.as_str();
        if self.take(name, false) {
            if self.args.test {
                self.run_once(name, [a, b]);
                return;
            }
            let outcome = match crate::compare::compare(a, b, &self.options.compare) {
                Ok(r) => Outcome::Compared(Box::new(r)),
                Err(e) => Outcome::Failed {
                    reason: e.to_string(),
                },
            };
            self.record(name, outcome);
        }
    }

    /// Measures a ready `candidate` as the benchmark `name` (under the enclosing groups'
    /// prefix), as [`bench`](Self::bench) measures its closure: until precise, once under
    /// `cargo test`, served in a worker. For batches that time themselves
    /// ([`Candidate::timed_elsewhere`]), as criterion's `Bencher::iter` does.
    pub(crate) fn bench_candidate(&mut self, name: &str, candidate: Candidate<'_>) {
        let name = self.qualified(name);
        if self.take(&name, true) {
            self.measure(&name, candidate);
        }
    }

    /// Sets the throughput of the benchmarks registered next (`None`: no rate), as
    /// [`Group::throughput`] does inside a group.
    pub fn set_throughput(&mut self, throughput: Option<Throughput>) {
        self.throughput = throughput;
    }

    /// The names registered so far that the command line selects, in order.
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// The run as the JSON file holds it.
    pub(crate) fn into_run(self) -> BenchRun {
        BenchRun {
            schema_version: BENCH_SCHEMA_VERSION,
            results: self.results,
        }
    }

    /// Whether `name` is to run now; records it when selected. A name registered twice is a
    /// failed result of its own (the first keeps its result), so that two benchmarks never
    /// share one row; a listing worker refuses it (the parent's [`Error::Worker`] names it).
    /// In a worker, only single benchmarks (`servable`) are listed and served; in-binary
    /// comparisons are not.
    fn take(&mut self, name: &str, servable: bool) -> bool {
        if let Some(w) = self.worker.as_mut() {
            if !servable {
                return false;
            }
            if matches!(w.mode, worker::Mode::List) {
                w.list(name);
                return false;
            }
            return w.wants(name);
        }
        if !self.args.selects(name) {
            return false;
        }
        if self.names.iter().any(|n| n == name) {
            self.record(
                name,
                Outcome::Failed {
                    reason: format!(
                        "the benchmark {name:?} is registered twice; give each its own name"
                    ),
                },
            );
            return false;
        }
        self.names.push(name.to_string());
        if self.args.list {
            println!("{name}: benchmark");
            return false;
        }
        if self.print && !self.args.test {
            eprintln!("[{}] {name}", self.names.len());
        }
        true
    }

    fn record(&mut self, name: &str, outcome: Outcome) {
        let result = BenchResult {
            name: name.to_string(),
            outcome,
            throughput: self.throughput,
        };
        if self.print {
            match (self.args.output, result.bencher_line()) {
                (OutputFormat::Bencher, Some(line)) => println!("{line}"),
                _ => println!("{result}"),
            }
        }
        self.results.push(result);
    }
}

impl Bencher {
    /// Measures `candidate` until precise here, or serves its batches to the parent in a
    /// worker.
    fn measure(&mut self, name: &str, candidate: Candidate<'_>) {
        if let Some(w) = self.worker.as_mut() {
            w.serve(candidate, self.options.precision.inner_loops);
            return;
        }
        if self.args.test {
            self.run_once(name, [candidate]);
            return;
        }
        let outcome = match crate::precision::measure(candidate, &self.options.precision) {
            Ok(m) => Outcome::Measured(Box::new(m)),
            Err(e) => Outcome::Failed {
                reason: e.to_string(),
            },
        };
        self.record(name, outcome);
    }
}

impl Bencher {
    /// A test run's benchmark: one batch of one operation of each candidate (setup and
    /// teardown included), so that `cargo test` checks that fixtures build and closures do not
    /// panic without measuring anything. A failure is recorded as a result; a pass is counted.
    fn run_once<'c>(&mut self, name: &str, candidates: impl IntoIterator<Item = Candidate<'c>>) {
        let clock = crate::measure::clock::MonotonicClock;
        for mut c in candidates {
            if let Err(e) = c.time_batch(&clock, 1) {
                self.record(
                    name,
                    Outcome::Failed {
                        reason: e.to_string(),
                    },
                );
                return;
            }
        }
        self.passed += 1;
        if self.print {
            println!("test {name} ... ok");
        }
    }
}

/// What one benchmark gave.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// A [`Bencher::bench`], measured until precise.
    Measured(Box<Measurement>),
    /// A [`Bencher::compare`]: the comparison's whole report.
    Compared(Box<Report>),
    /// It could not be measured.
    Failed {
        /// The error's sentence.
        reason: String,
    },
}

/// One benchmark's name and outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchResult {
    /// The registered name (with its groups' prefixes: `parse/small`).
    pub name: String,
    /// What it gave.
    pub outcome: Outcome,
    /// Bytes or elements per operation, when its group set a [`Throughput`] (absent from the
    /// JSON otherwise); [`rate`](Self::rate) turns it into a rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput: Option<Throughput>,
}

impl BenchResult {
    /// The measured benchmark's rate at its mean time per operation (bytes or elements per
    /// second); `None` without a throughput, without an estimate, or for a comparison.
    pub fn rate(&self) -> Option<Rate> {
        match (&self.outcome, &self.throughput) {
            (Outcome::Measured(m), Some(t)) => t.rate(m.estimate.as_ref()?.mean),
            _ => None,
        }
    }

    /// The result as libtest's bench line, which github-action-benchmark and bencher read:
    /// `test NAME ... bench:       1,234 ns/iter (+/- 56)`, the mean and its interval's
    /// half-width in whole nanoseconds per operation with thousands separators (see
    /// [`OutputFormat::Bencher`]). `None` for a comparison, a failure, or a measurement with
    /// no estimate: those have no such line.
    pub(crate) fn bencher_line(&self) -> Option<String> {
        let Outcome::Measured(m) = &self.outcome else {
            return None;
        };
        let e = m.estimate.as_ref()?;
        Some(format!(
            "test {} ... bench: {:>11} ns/iter (+/- {})",
            self.name,
            thousands(e.mean),
            thousands(e.half_width)
        ))
    }
}

/// `x` rounded to a whole number, with `,` between thousands (`1234.6` → `1,235`); 0 for a
/// negative or non-finite `x`.
fn thousands(x: f64) -> String {
    let digits = if x.is_finite() && x > 0.0 {
        (x.round() as u64).to_string()
    } else {
        "0".to_string()
    };
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl std::fmt::Display for BenchResult {
    /// One table row: the name, then ns/op with its interval's half-width (and the rate, with
    /// a throughput), or the comparison's verdict with A's change (+ = slower) and its
    /// interval, or the failure.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:<32} ", self.name)?;
        match &self.outcome {
            Outcome::Measured(m) => match &m.estimate {
                Some(e) => write!(
                    f,
                    "{:>12.1} ns/op ± {}{} ({} readings{})",
                    e.mean,
                    crate::display::Pct(e.half_width / e.mean.abs().max(f64::MIN_POSITIVE)),
                    self.rate().map(|r| format!(", {r}")).unwrap_or_default(),
                    m.used,
                    if m.target_met { "" } else { "; target NOT met" }
                ),
                None => write!(f, "no estimate ({:?})", m.stop),
            },
            Outcome::Compared(r) => {
                let e = &r.estimate;
                let change = crate::stats::Change::of_delta(e.delta, e.low, e.high);
                write!(
                    f,
                    "{} against {}: {}",
                    r.name_a,
                    r.name_b,
                    r.verdict.in_words_with(change)
                )
            }
            Outcome::Failed { reason } => write!(f, "FAILED: {reason}"),
        }
    }
}

/// Everything one run of a bench target measured; its JSON is what the harness writes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchRun {
    /// The version of this JSON (1), raised when a field changes meaning.
    pub schema_version: u32,
    /// One result per benchmark run, in registration order.
    pub results: Vec<BenchResult>,
}

impl BenchRun {
    /// Writes the run as JSON to `path` (its directory created), through a temporary file and
    /// a rename, so a reader never sees half a file. Errors: [`Error::Io`] naming the path that
    /// could not be created, written or renamed; [`Error::Json`] if the run cannot be serialised.
    pub(crate) fn write_json(&self, path: &Path) -> Result<()> {
        let io = |e: std::io::Error| Error::io(path, e);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let text = serde_json::to_string_pretty(self).map_err(Error::json)?;
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, text).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

/// The harness's entry point for a `harness = false` bench target: reads the command line
/// (see [`Args`]), runs or lists what `register` registers, prints a table, writes the JSON
/// and exits: 0 when every selected benchmark ran, 1 when one failed or a name was registered
/// twice (a failed row naming it, `--list` included), 2 for a bad command line or an
/// unwritable output. Under `cargo test` (no `--bench` on the command line) each
/// selected benchmark runs once instead, a smoke test that writes nothing; the exit status is
/// the same.
pub fn main(register: impl FnOnce(&mut Bencher)) -> ! {
    let code = run_main(register, std::env::args().skip(1));
    std::process::exit(code)
}

/// [`main`] without the exit: returns the exit code. For tests and for programs that do more
/// after their benchmarks.
///
/// Started as a worker by [`compare_builds`] (with [`WORKER_ENV`] set), it lists or serves the
/// benchmarks instead and exits the process when done: it does not return.
pub(crate) fn run_main(
    register: impl FnOnce(&mut Bencher),
    args: impl IntoIterator<Item = String>,
) -> i32 {
    // A worker ignores the command line (the parent chose what it serves).
    let args = if worker::Serving::marked() {
        Args::default()
    } else {
        match Args::parse(args) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    };
    let mut bencher = Bencher::start(args);
    register(&mut bencher);
    bencher.finish()
}

impl Bencher {
    /// Ends what [`start`](Self::start) began, after the registration: a worker says it is done
    /// and exits the process (it does not return); a listing returns; a test run prints its
    /// count; a measuring run writes the JSON (and the page, feature `html`). Returns the exit
    /// code [`main`] documents.
    pub(crate) fn finish(mut self) -> i32 {
        if let Some(w) = self.worker.take() {
            w.finish();
            std::process::exit(0);
        }
        let bencher = self;
        let (list, test) = (bencher.args.list, bencher.args.test);
        if list {
            // Only a name registered twice records a result while listing.
            return if bencher.results.is_empty() { 0 } else { 1 };
        }
        if test {
            // A smoke test writes no results: the last `cargo bench`'s JSON stays as it was.
            let failed = bencher.results.len();
            println!(
                "\nbenchmarks run once (a test run; `cargo bench` measures them): {} passed; \
                 {failed} failed",
                bencher.passed
            );
            return if failed > 0 { 1 } else { 0 };
        }
        let dir = bencher.options.json_dir();
        let run = bencher.into_run();
        // Cargo names a bench binary `<target>-<hash>`: the JSON is named after the target.
        let stem = std::env::current_exe()
            .ok()
            .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .map(|s| {
                s.rsplit_once('-')
                    .map_or(s.clone(), |(head, _)| head.to_string())
            })
            .unwrap_or_else(|| "bench".to_string());
        let path = dir.join(format!("{stem}.json"));
        if let Err(e) = run.write_json(&path) {
            eprintln!("error: {e}");
            return 2;
        }
        #[cfg(feature = "html")]
        {
            let page = path.with_extension("html");
            if let Err(e) = run.write_html(&page) {
                eprintln!("error: {e}");
                return 2;
            }
            eprintln!("page: {}", page.display());
        }
        eprintln!("results: {}", path.display());
        if run
            .results
            .iter()
            .any(|r| matches!(r.outcome, Outcome::Failed { .. }))
        {
            1
        } else {
            0
        }
    }
}

/// The comparison of revisions that `cargo bench --bench NAME -- --baseline REV` asks for:
/// this package (cargo runs a bench binary in its package's directory, with
/// `CARGO_MANIFEST_DIR` and `CARGO_PKG_NAME` set) and this bench target (the binary's name,
/// `NAME-HASH`, in `TARGET/PROFILE/deps`), with the command line's filters; relative output
/// files are placed in the directory the command was typed in (`$PWD`). Returns the exit status; an error is
/// printed and is [`EXIT_ERROR`] (or the signal's status after Ctrl-C).
fn revisions_from_harness(revisions: &RevisionsOptions, args: &Args) -> i32 {
    // cargo bench waits for this process; when cargo itself is ended (a CI runner's
    // cancellation may signal only the top process), the run must still stop, remove its
    // worktrees and report: the parent's death arrives here as SIGTERM.
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_PDEATHSIG and a signal number has no memory effects.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
    }
    let mut o = revisions.clone();
    o.filter.clone_from(&args.filter);
    o.exact = args.exact;
    o.skip.clone_from(&args.skip);
    if let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") {
        o.dir = Some(PathBuf::from(dir));
    }
    // cargo runs a bench binary in its package's directory; a file named on the command line
    // is meant where the command was typed (a virtual workspace's root with `-p`): cargo's own
    // directory, which is this process's parent's, else the shell's PWD.
    if let Some(typed) = typed_in() {
        for path in [&mut o.json, &mut o.markdown, &mut o.html]
            .into_iter()
            .flatten()
        {
            if path.is_relative() && path.as_os_str() != "-" {
                *path = typed.join(&*path);
            }
        }
    }
    o.package = std::env::var("CARGO_PKG_NAME").ok();
    let exe = std::env::current_exe().ok();
    o.bench = exe
        .as_deref()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|s| {
            s.rsplit_once('-')
                .map_or(s.clone(), |(name, _)| name.to_string())
        });
    // TARGET/PROFILE/deps/NAME-HASH: the target directory cargo bench built this binary in,
    // whatever directory a relative CARGO_TARGET_DIR was read from.
    o.target_dir = exe
        .as_deref()
        .and_then(|p| p.ancestors().nth(3))
        .filter(|_| {
            exe.as_deref()
                .and_then(Path::parent)
                .is_some_and(|d| d.ends_with("deps"))
        })
        .map(Path::to_path_buf);
    match compare_revisions(&o) {
        Ok(outcome) => outcome.exit_code,
        Err(Error::Cancelled { .. }) => {
            eprintln!("interrupted; the builds were stopped and the worktrees removed");
            crate::interrupt::exit_code()
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_ERROR
        }
    }
}

/// The directory the command was typed in: the parent's (cargo's) current directory on Linux,
/// else `$PWD`; `None` when neither is known.
fn typed_in() -> Option<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getppid has no preconditions.
        let parent = unsafe { libc::getppid() };
        if let Ok(dir) = std::fs::read_link(format!("/proc/{parent}/cwd")) {
            return Some(dir);
        }
    }
    std::env::var_os("PWD")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute() && d.is_dir())
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn bencher_lines_group_thousands_as_libtest_prints_them() {
        for (x, text) in [
            (0.4, "0"),
            (7.0, "7"),
            (999.5, "1,000"),
            (1_234.4, "1,234"),
            (12_345_678.0, "12,345,678"),
            (-3.0, "0"),
            (f64::NAN, "0"),
        ] {
            assert_eq!(thousands(x), text, "{x}");
        }
    }
}
