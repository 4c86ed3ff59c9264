//! criterion's bench-file API over rtcompare's engine.
//!
//! A team whose benchmarks are written against [criterion](https://docs.rs/criterion) switches
//! by changing one line of `Cargo.toml`; every `use criterion::…` and every bench file stays as
//! it is:
//!
//! ```toml
//! [dev-dependencies]
//! criterion = { package = "rtcompare-criterion", git = "https://github.com/rtcompare/rtcompare" }
//! ```
//!
//! (`cargo add --dev rtcompare-criterion --rename criterion` once it is published; criterion's
//! feature names exist and change nothing, so a `features = [...]` list may stay.)
//!
//! ```no_run
//! // benches/parse.rs, with `[[bench]] name = "parse"` and `harness = false`, unchanged
//! # extern crate rtcompare_criterion as criterion;
//! use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
//! use std::hint::black_box;
//!
//! fn parse(c: &mut Criterion) {
//!     c.bench_function("parse/small", |b| b.iter(|| black_box("1,2,3").split(',').count()));
//!     let mut group = c.benchmark_group("sum");
//!     for n in [64u64, 4_096] {
//!         let v: Vec<u64> = (0..n).collect();
//!         group.throughput(Throughput::Elements(n));
//!         group.bench_with_input(BenchmarkId::from_parameter(n), &v, |b, v| {
//!             b.iter(|| v.iter().sum::<u64>())
//!         });
//!     }
//!     group.finish();
//! }
//!
//! criterion_group!(benches, parse);
//! criterion_main!(benches);
//! ```
//!
//! **What changes.** Each benchmark is measured by rtcompare's harness
//! ([`rtcompare::bench`]): batches of a calibrated size, the warm-up found in the readings
//! rather than assumed, and readings taken until the mean's 95 % interval is ±5 % of it (or
//! the benchmark's time, criterion's warm-up plus measurement time, 8 s by default, runs out).
//! `cargo bench` prints one row per benchmark and writes every result as JSON to
//! `target/rtcompare/bench/<target>.json`, with an HTML page beside it. Only the code inside
//! `b.iter(…)` (and the routine of `iter_batched`, `iter_custom`'s own duration, …) is timed,
//! as criterion times it; setup code in the closure runs outside the timed region. The same
//! target, built at two git revisions, is compared batch by batch by
//! `cargo bench --bench NAME -- --baseline REV` (with nothing installed; `rtcompare bench` runs
//! the same): pairs of workers on one CPU, code layouts, one decision per benchmark, and
//! `rtcompare bench`'s flags (`--fail-on-regression`, `--markdown`, `--json`, …).
//!
//! **Settings** keep criterion's names and signatures. Those that mean something here: a
//! confidence level is the interval's level; warm-up and measurement time together bound a
//! benchmark's time; [`Throughput`] adds a rate to the row; [`Criterion::output_directory`]
//! moves the JSON. The others (sample size, resamples, noise threshold, significance level,
//! plots, sampling mode, baselines, colour, verbosity) are accepted and named once on stderr
//! as having no effect, with the reason. What cannot be honoured is refused, never silently
//! measured another way: a custom [`measurement::Measurement`] does not compile (only
//! [`measurement::WallTime`] exists), `b.to_async(…)` does not compile (no async executor;
//! time `block_on` inside `b.iter` instead), and `--profile-time` stops with what to do.
//!
//! **The command line** is criterion's: `cargo bench -- FILTER` (a regular expression),
//! `--exact`, `--skip S`, `--list`, `--output-format bencher` (libtest's lines for
//! github-action-benchmark and bencher), `--noplot`, `--color`, `--quiet`, `--verbose`, and
//! criterion's `--sample-size`, `--measurement-time`, … which override the bench file's
//! settings. `cargo test --benches` runs each benchmark once, as a smoke test, and takes
//! libtest's flags. `--baseline` (`-b`) names a git revision to compare with; criterion's saved
//! baselines (`--save-baseline`, `--load-baseline`, a `--baseline NAME` that names no
//! revision) are refused with the paired run to use instead.

#![deny(missing_docs)]

mod args;
pub mod async_executor;
mod bencher;
mod criterion;
mod error;
mod group;
pub mod measurement;
pub mod profiler;
mod session;
mod settings;

pub use bencher::{BatchSize, Bencher};
pub use criterion::Criterion;
pub use group::{BenchmarkGroup, BenchmarkId, IntoBenchmarkId};
pub use settings::{AxisScale, PlotConfiguration, PlottingBackend, SamplingMode, Throughput};

/// An identity function the optimiser cannot see through, so that a benchmark's inputs and
/// results are not optimised away: [`std::hint::black_box`], kept under criterion's name for
/// bench files that import `criterion::black_box`.
#[inline]
pub fn black_box<T>(dummy: T) -> T {
    std::hint::black_box(dummy)
}

/// Defines a group of benchmark targets, as criterion's macro of the same name does: a
/// function `name()` that builds the configuration, applies the command line to it
/// ([`Criterion::configure_from_args`]) and calls each target with it.
///
/// Both of criterion's forms:
///
/// ```no_run
/// # extern crate rtcompare_criterion as criterion;
/// use criterion::{Criterion, criterion_group};
/// # fn a(_: &mut Criterion) {}
/// # fn b(_: &mut Criterion) {}
/// criterion_group!(benches, a, b);
/// criterion_group! {
///     name = slow;
///     config = Criterion::default().measurement_time(std::time::Duration::from_secs(10));
///     targets = a, b
/// }
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! criterion_group {
    (name = $name:ident; config = $config:expr; targets = $( $target:path ),+ $(,)*) => {
        /// The function which runs the benchmarks.
        pub fn $name() {
            let mut criterion: $crate::Criterion<_> = $config.configure_from_args();
            $(
                $target(&mut criterion);
            )+
        }
    };
    ($name:ident, $( $target:path ),+ $(,)*) => {
        $crate::criterion_group! {
            name = $name;
            config = $crate::Criterion::default();
            targets = $( $target ),+
        }
    };
}

/// Defines the bench target's `main`, as criterion's macro of the same name does: reads the
/// command line, runs each group defined by [`criterion_group!`], then prints the summary,
/// writes the JSON and exits (0 when every benchmark ran, 1 when one failed, 2 for a bad
/// command line or an unwritable output).
///
/// ```no_run
/// # extern crate rtcompare_criterion as criterion;
/// use criterion::{Criterion, criterion_group, criterion_main};
/// fn f(c: &mut Criterion) {
///     c.bench_function("nothing", |b| b.iter(|| ()));
/// }
/// criterion_group!(benches, f);
/// criterion_main!(benches);
/// ```
#[macro_export]
macro_rules! criterion_main {
    ( $( $group:path ),+ $(,)* ) => {
        fn main() {
            let groups: &[fn()] = &[ $( $group ),+ ];
            ::std::process::exit($crate::__private::run(::std::env::args().skip(1), groups));
        }
    };
}

/// What the macros expand to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::session::run;
}
