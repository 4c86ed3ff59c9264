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
//!     Verdict::AFaster => println!("sort_unstable wins by {:.1}%", 100.0 * report.estimate.delta),
//!     Verdict::BFaster => println!("sort wins"),
//!     Verdict::CannotTell(reason) => println!("cannot tell: {reason}"),
//! }
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Where things are
//!
//! The crate's names are all at its root; the folders show how they depend on each other.
//! Every arrow points down: nothing imports a module above it.
//!
//! | module | owns | touches the machine? |
//! |---|---|---|
//! | `progress` (feature `progress`) | ready progress callbacks: a bar of the running stage on a terminal, a line per stage in a log (`progress::bar()`; `progress::pool_bar()` for a pool), drawn with indicatif between batches only | stderr |
//! | [`pool`] | several processes: the program re-executes itself, perturbs each child's heap and environment, alternates the fixtures' build order, plans the total with Stein's two-stage rule and pools the reports ([`pool::run`]) | yes (processes) |
//! | [`service`] | latency under open-loop load: the generator ([`service::run`]), closure and loopback TCP targets, percentiles with block-bootstrap intervals over time windows, and [`service::compare`] (ABBA windows, paired percentile intervals, A/A floors, verdicts only when tight) | yes (threads, loopback sockets) |
//! | [`workload`] | insert/delete streams for mutable structures ([`workload::Spec`], [`workload::Stream`]), the [`workload::Structure`] trait, [`workload::compare`] (both structures under the same pre-generated operations) and [`workload::Suite`] (a matrix of specs × structures as one table) | via `compare` |
//! | [`gate`], [`precision`], [`selftest`] | cargo-test gates (in one process or pooled across several); Pilot's measure-until-precise driver; calibration before trust | via `compare` |
//! | [`bench`](mod@bench) | the `cargo bench` harness: [`bench::main`] in a `harness = false` target, benchmarks registered by name, libtest's filters, a table and a JSON file | via `precision` and `compare` |
//! | [`compare`](mod@compare) | [`compare()`] (the protocol), [`CompareOptions`], the A/A validation ([`validate_pair`]), the verdict rule ([`decide`]), the warnings, and the [`Report`] as plain data | via `measure` |
//! | [`measure`](mod@measure) | the clock and [`Instrument`], [`Candidate`], [`calibrate`](calibrate()), [`collect`](collect()) (orders, warm-up), the [`Cache`] mode (warm, or cold: caches evicted before every batch), hardware counters, the counting allocator ([`alloc::Counting`]), CPU pinning, the [`Environment`] stamp | yes |
//! | [`render`] | pictures: [`Report::to_html`] and [`write_html`](Report::write_html) (one self-contained HTML page of five inline-SVG panels), [`Pooled::to_html`](stats::Pooled::to_html) (the forest plot), [`pool::PoolRun::to_html`] (both), and the page's building blocks for other front ends (feature `html`, on by default) | no (writes a file when asked) |
//! | [`stats`] | pure statistics on any `&[f64]`: summaries, drift, autocorrelation, bootstrap, Welch, change points, the verdict ([`Verdict`], [`decide`]) and its rules, pooling across processes ([`stats::combine`], [`stats::combine_staged`]) | **never** |
//! | [`rng`], [`Error`] | the seeded generator the statistics use; the one error enum | no |
//!
//! The submodules' earlier paths (`rtcompare::clock`, `rtcompare::report`, …) still resolve, as
//! re-exports.
#![deny(missing_docs)]
#![warn(rustdoc::broken_intra_doc_links)]

pub mod bench;
pub mod compare;
mod display;
mod error;
pub mod gate;
pub mod measure;
pub mod pool;
pub mod precision;
pub mod render;
pub mod rng;
pub mod selftest;
pub mod service;
pub mod stats;
pub mod workload;

// The modules' earlier paths (`rtcompare::clock`, `rtcompare::report`, …), kept so code written
// against them still compiles.
pub use compare::{report, validate};
pub use measure::{cache, calibrate, candidate, clock, collect, counters, env, pin};
// Allocations per operation: `rtcompare::alloc::Counting`, also at the root.
pub use measure::alloc;
// Ready progress callbacks for the terminal and log files (feature `progress`).
#[cfg(feature = "progress")]
pub use render::progress;

pub use alloc::{AllocSummary, Counting, LiveHeap};

pub use cache::{Cache, CacheInfo};
pub use calibrate::{Calibration, CalibrationOptions, calibrate};
pub use candidate::Candidate;
pub use clock::Instrument;
pub use collect::{
    CancelToken, CollectOptions, Order, PairedSamples, Progress, Side, Stage, collect,
};
pub use compare::{CompareOptions, compare, decide};
pub use env::Environment;
pub use error::{Error, Result};
pub use gate::{Expectation, GateFailure, GateOptions};
pub use precision::{Measurement, Precision, StopReason, measure, measure_with_clock};
pub use report::{Report, Series, Unresolved, Verdict, Warning, WorkingSetMeasure};
pub use stats::{Estimate, EstimateOptions};
pub use validate::{HarnessValidation, ValidationOptions, validate_harness, validate_pair};

/// The README's and HOWTO's examples, compiled and run as doctests so the documents cannot
/// drift from the API.
#[cfg(doctest)]
pub mod doc_examples {
    #[doc = include_str!("../README.md")]
    pub struct Readme;
    #[doc = include_str!("../HOWTO.md")]
    pub struct Howto;
}
