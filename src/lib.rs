//! rtcompare tells whether one code path is really faster than another, by how much, and how
//! sure anyone can be, and says "cannot tell" when the machine cannot support an answer.
//!
//! # The problem
//!
//! Two timings of two functions always differ. Whether the difference is real depends on how
//! much this machine, this harness and this clock invent on their own; a tool that prints a
//! bare percentage hides exactly that. rtcompare measures it: it calibrates batches against the
//! clock's precision, measures both candidates interleaved in paired batches (ABBA), measures
//! each candidate **against itself** to get an A/A noise floor, tests for drift and
//! autocorrelation, resamples with a paired (block) bootstrap, and returns a [`Report`] whose
//! [`Verdict`] is either a winner or "cannot tell" with the reason.
//!
//! # A complete example
//!
//! ```no_run
//! use std::hint::black_box;
//! use rtcompare::{compare, Candidate, CompareOptions, Verdict};
//!
//! let data: Vec<u32> = (0..1_000u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
//! let mut buf_a = data.clone();
//! let mut buf_b = data.clone();
//! // A batch runs the code under test exactly n times and owns its loop.
//! let a = Candidate::new("sort_unstable", |n: u64| {
//!     for _ in 0..n {
//!         buf_a.copy_from_slice(&data);
//!         buf_a.sort_unstable();
//!         black_box(&buf_a);
//!     }
//! });
//! let b = Candidate::new("sort", |n: u64| {
//!     for _ in 0..n {
//!         buf_b.copy_from_slice(&data);
//!         buf_b.sort();
//!         black_box(&buf_b);
//!     }
//! });
//! let report = compare(a, b, &CompareOptions::default().thresholds([0.05]).seed(42))?;
//! println!("{report}");
//! match report.verdict {
//!     Verdict::AFaster => println!("sort_unstable wins by {:.1} %", 100.0 * report.estimate.delta),
//!     Verdict::BFaster => println!("sort wins"),
//!     Verdict::Equivalent { margin } => println!("neither wins by more than {margin}"),
//!     Verdict::CannotTell(reason) => println!("cannot tell: {reason}"),
//! }
//! // The same answer in the words every front end prints (A's change, + = slower):
//! let e = &report.estimate;
//! let change = rtcompare::stats::Change::of_delta(e.delta, e.low, e.high);
//! println!("{}", report.verdict.in_words_with(change));
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Where things are
//!
//! The root holds what a first comparison needs: [`compare()`], [`Candidate`],
//! [`CompareOptions`], the [`Report`] and its [`Verdict`]; the measurement steps one can run
//! alone (`calibrate()` with `CalibrationOptions`, `collect()` with `CollectOptions`, the
//! [`Cache`] mode); the interval type of the statistics ([`Estimate`], [`EstimateOptions`]);
//! [`Error`] and [`Result`]; and the test gates' macros ([`assert_faster!`],
//! [`assert_not_slower!`], [`assert_equivalent!`]). Everything else has one path, through the
//! module that owns it.
//!
//! Two crates of the workspace build on this one, which depends on neither: latency under
//! open-loop load is `rtcompare-service` (`rtcompare_service`), and insert/delete workloads
//! for data structures are `rtcompare-workload` (`rtcompare_workload`).
//!
//! The modules are listed from the top down: each imports only modules listed below it, so the
//! folders form no circle.
//!
//! | module | owns | touches the machine? |
//! |---|---|---|
//! | `support` (hidden) | for the workspace's own crates (the command-line tool, rtcompare-service, rtcompare-workload): the few internal items they need, outside the API and free to change in any release: the page's building blocks, the cross-revision run's pieces the command line drives, the number formats, a constant, the pool's keys, a pool whose processes attach a record beside their report, the history of runs, the bench harness's lower-level entry points, and the self-test | via `pool`, `render`, `bench` |
//! | `render` | pictures: [`Report::to_html`] and [`write_html`](Report::write_html) (one self-contained HTML page of five inline-SVG panels), [`Pooled::to_html`](stats::Pooled::to_html) (the forest plot), [`pool::PoolRun::to_html`] (both), a bench run's pages ([`bench::BenchRun::to_html`]), and the page's building blocks for other front ends (feature `html`, on by default); above `bench`, `pool`, `compare` and `stats`, whose results it draws | no (writes a file when asked) |
//! | [`bench`](mod@bench) | the `cargo bench` harness: [`bench::main`] in a `harness = false` target, benchmarks registered by name, libtest's filters, a table and a JSON file; and the cross-revision engine behind it (not API): one bench target at two builds through workers, and at two git revisions (what `cargo bench -- --baseline REV` and `rtcompare bench` run: the temporary worktree, the builds and relinks with cargo, the pairs, the table, JSON, Markdown and HTML) | yes (git, cargo and worker processes), and via `precision`, `pool` and `compare` |
//! | `progress` (feature `progress`) | the one progress drawing: ready callbacks, a bar of the running stage on a terminal and a line per stage in a log (`progress::bar()`; `progress::pool_bar()` for a pool), drawn between batches only; and `progress::Status`, a message line that front ends set between their own steps (the command-line tool's progress line, and the cross-revision run's); all drawn with indicatif, made and told terminal from log in one place; below `bench`, whose comparison of revisions draws its line with it, and above `pool` and `measure`, whose stages it draws | stderr |
//! | [`gate`] | cargo-test gates, in one process or pooled across several ([`gate::check`], [`gate::GateOptions`]) | via `pool` and `compare` |
//! | [`pool`] | several processes: the program re-executes itself, perturbs each child's heap and environment, alternates the fixtures' build order, plans the total with Stein's two-stage rule and pools the reports ([`pool::run`]) | yes (processes) |
//! | [`precision`], `selftest` | Pilot's measure-until-precise driver ([`precision::measure`]); calibration before trust (private: the `selftest` example and the command-line tool's `selftest` run it) | via `compare` and `measure` |
//! | [`compare`](mod@compare) | [`compare()`] (the protocol), [`CompareOptions`], the A/A validation (`compare::validate`), the warnings, and the [`Report`] as plain data ([`compare::report`]) | via `measure` |
//! | [`env`](mod@env) | the [`Environment`](env::Environment) stamp every report carries, and the detection of emulators whose timings mean nothing; it records the CPU affinity and the cache size through `measure` | yes (reads the system) |
//! | [`measure`] | the measuring steps: the clock and its instrument, [`Candidate`], calibration, collection (its order of batches, cancellation, [`Progress`](measure::Progress)), the [`Cache`] mode (warm, or cold: caches evicted before every batch), hardware counters, CPU pinning; the steps themselves are internal (`compare` runs them) | yes |
//! | [`alloc`] | the counting global allocator ([`alloc::Counting`]), whose counters `measure` reads around every batch | yes (it is the allocator) |
//! | [`stats`] | pure statistics on any `&[f64]`, in chapters by question (summaries, significance, bootstrap, intervals, series, plans, verdicts, pooling): the verdict ([`Verdict`], [`stats::decide`]) and its rules, pooling across processes ([`stats::combine`], `stats::combine_staged`); every name directly under `stats` | **never** |
//! | `rng`, [`Error`], `display`, `interrupt` | the seeded generator the statistics use; the one error enum; and, private, the `display` of figures in reports and messages and the `interrupt` guard that notes SIGINT and SIGTERM while a run is in charge of child processes | no (`interrupt` installs signal handlers while a run holds it) |
//!
//! Three of these are declared at the root, each in its own file, because users' code names
//! them there: [`alloc`] (`rtcompare::alloc::Counting`, the global allocator a binary installs),
//! [`env`](mod@env) (`rtcompare::env::Environment`) and `progress` (feature `progress`:
//! `rtcompare::progress::bar()`, `rtcompare::progress::Status`). They belong to the measurement and drawing layers, and the
//! table puts each where its imports place it.
#![deny(missing_docs)]
#![warn(rustdoc::broken_intra_doc_links)]

pub mod alloc;
pub mod bench;
pub mod compare;
mod display;
pub mod env;
mod error;
pub mod gate;
mod interrupt;
pub mod measure;
pub mod pool;
pub mod precision;
#[cfg(feature = "progress")]
pub mod progress;
mod render;
pub(crate) mod rng;
mod selftest;
pub mod stats;
#[doc(hidden)]
pub mod support;

// What the README and the guide type at the root, and the names docs/api.md's "The root" lists
// there.
pub use compare::report::Report;
pub use compare::{CompareOptions, compare};
pub use error::{Error, IoSource, JsonSource, Result};
pub use measure::cache::Cache;
pub use measure::candidate::Candidate;
pub use stats::{Estimate, EstimateOptions, Verdict};

/// The examples of the README, the guide and the topics, compiled and run as doctests so the
/// documents cannot drift from the API: one item per file that holds Rust code
/// (`tests/docs_layout.rs` fails when a file with Rust code is missing here).
#[cfg(doctest)]
pub mod doc_examples {
    #[doc = include_str!("../README.md")]
    pub struct Readme;
    #[doc = include_str!("../docs/guide/first-comparison.md")]
    pub struct GuideFirstComparison;
    #[doc = include_str!("../docs/guide/processes.md")]
    pub struct GuideProcesses;
    #[doc = include_str!("../docs/guide/cargo-bench.md")]
    pub struct GuideCargoBench;
    #[doc = include_str!("../docs/guide/ci.md")]
    pub struct GuideCi;
    #[doc = include_str!("../docs/guide/statistics.md")]
    pub struct GuideStatistics;
    #[doc = include_str!("../docs/topics/allocations.md")]
    pub struct TopicAllocations;
    #[doc = include_str!("../docs/topics/bench-harness.md")]
    pub struct TopicBenchHarness;
    #[doc = include_str!("../docs/topics/cache.md")]
    pub struct TopicCache;
    #[doc = include_str!("../docs/topics/combine.md")]
    pub struct TopicCombine;
    #[doc = include_str!("../docs/topics/environment.md")]
    pub struct TopicEnvironment;
    #[doc = include_str!("../docs/topics/gates.md")]
    pub struct TopicGates;
    #[doc = include_str!("../docs/topics/html-report.md")]
    pub struct TopicHtmlReport;
    #[doc = include_str!("../docs/topics/latency-under-load.md")]
    pub struct TopicLatencyUnderLoad;
    #[doc = include_str!("../docs/topics/own-protocol.md")]
    pub struct TopicOwnProtocol;
    #[doc = include_str!("../docs/topics/pool.md")]
    pub struct TopicPool;
    #[doc = include_str!("../docs/topics/precision.md")]
    pub struct TopicPrecision;
    #[doc = include_str!("../docs/topics/progress.md")]
    pub struct TopicProgress;
    #[doc = include_str!("../docs/topics/report.md")]
    pub struct TopicReport;
    #[doc = include_str!("../docs/topics/statistics-by-question.md")]
    pub struct TopicStatisticsByQuestion;
    #[doc = include_str!("../docs/topics/verdicts.md")]
    pub struct TopicVerdicts;
    #[doc = include_str!("../docs/topics/workloads.md")]
    pub struct TopicWorkloads;

    /// One path for every name: the earlier alias paths do not resolve.
    ///
    /// ```compile_fail,E0432
    /// use rtcompare::clock::Instrument;
    /// ```
    /// ```compile_fail,E0432
    /// use rtcompare::report::Report;
    /// ```
    /// ```compile_fail,E0432
    /// use rtcompare::measure::alloc::Counting;
    /// ```
    /// ```compile_fail,E0432
    /// use rtcompare::measure::env::Environment;
    /// ```
    /// ```compile_fail,E0603
    /// use rtcompare::stats::pooling::pool::combine;
    /// ```
    /// ```compile_fail,E0432
    /// use rtcompare::stats::pooling::combine;
    /// ```
    ///
    /// The one path of each:
    ///
    /// ```
    /// use rtcompare::alloc::Counting;
    /// use rtcompare::env::Environment;
    /// use rtcompare::support::measure::Instrument;
    /// use rtcompare::stats::combine;
    /// use rtcompare::Report;
    /// ```
    pub struct OnePath;
}
