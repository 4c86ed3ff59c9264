//! The bench harness's pieces that the workspace's crates drive and users do not: the harness's
//! command line and its lower-level entry points (rtcompare-criterion runs its own API over
//! them), and the cross-revision engine that `rtcompare bench` and `cargo bench -- --baseline
//! REV` run (two builds through workers, code layouts, revisions in a temporary worktree, the
//! table, notes and files of the result).

use crate::bench::{BenchOptions, BenchResult, BenchRun, Bencher};
use crate::measure::candidate::Candidate;

pub use crate::bench::args::{Args, HELP, OutputFormat};
pub use crate::bench::builds::{compare_builds, compare_layouts, compare_variants, only_head};
pub use crate::bench::layouts::{DEFAULT_LAYOUTS, DEFAULT_MARGIN, LayoutSpread, VariantSource};
pub use crate::bench::options::{BuildsOptions, BuildsProgress, BuildsProgressFn};
pub use crate::bench::revisions::{
    BENCH_JSON_VERSION, BenchJson, BenchRow, EXIT_BENCH_FAILED, EXIT_ERROR, EXIT_OK,
    EXIT_REGRESSION, LayoutsJson, Revisions, RevisionsOptions, RevisionsOutcome, TempWorktree,
    TimeJson, compare_revisions, decision_margin, family_note, git, markdown, parse_budget,
    parse_duration, parse_fraction, table,
};
pub use crate::bench::run::{BuildComparison, BuildStatus, BuildsRun, PairFailure, Stopped};
pub use crate::bench::worker::{HANDSHAKE_TIMEOUT, WORKER_ENV, WORKER_PROTOCOL};

/// Version of the JSON the harness writes (a [`BenchRun`]'s `schema_version`), raised when a
/// field changes meaning.
pub const BENCH_SCHEMA_VERSION: u32 = crate::bench::BENCH_SCHEMA_VERSION;

/// `bench::main` without the exit: reads `args` as the harness's command line, runs or lists
/// what `register` registers and returns the exit code `bench::main` documents (2 for a bad
/// command line). Started as a worker of [`compare_builds`] (with [`WORKER_ENV`] set), it
/// lists or serves the benchmarks and exits the process when done: it does not return.
pub fn run_main(
    register: impl FnOnce(&mut Bencher),
    args: impl IntoIterator<Item = String>,
) -> i32 {
    crate::bench::run_main(register, args)
}

/// An empty registry that runs what `args` selects with `options` and prints nothing; its
/// results are read with [`names`] and [`into_run`].
pub fn bencher(options: BenchOptions, args: Args) -> Bencher {
    Bencher::new(options, args)
}

/// The registry `bench::main` fills, for front ends whose registration is not one closure
/// (rtcompare-criterion): a worker when [`compare_builds`] started this process, else one that
/// runs what `args` selects and prints each result; with `--baseline REV` in `args` it compares
/// revisions and exits the process. Call it before any thread starts; end with [`finish`].
pub fn start(args: Args) -> Bencher {
    Bencher::start(args)
}

/// Ends what [`start`] began: a worker exits the process; otherwise prints the summary, writes
/// the JSON (and the page, feature `html`) and returns the exit code `bench::main` documents.
pub fn finish(bencher: Bencher) -> i32 {
    bencher.finish()
}

/// Whether `bencher` is a worker of [`compare_builds`], which lists or serves every benchmark
/// whatever the command line selects: a front end with a filter of its own must then
/// register them all.
pub fn is_worker(bencher: &Bencher) -> bool {
    bencher.is_worker()
}

/// Registers a ready `candidate` as the benchmark `name` (under the enclosing groups' prefix),
/// measured as `Bencher::bench` measures its closure: until precise, once under `cargo test`,
/// served in a worker. For batches that time themselves (criterion's `Bencher::iter`).
pub fn bench_candidate(bencher: &mut Bencher, name: &str, candidate: Candidate<'_>) {
    bencher.bench_candidate(name, candidate);
}

/// The names registered on `bencher` so far that its command line selects, in order.
pub fn names(bencher: &Bencher) -> &[String] {
    bencher.names()
}

/// What `bencher` ran, as the JSON file holds it.
pub fn into_run(bencher: Bencher) -> BenchRun {
    bencher.into_run()
}

/// `result` as libtest's bench line (`test NAME ... bench: 1,234 ns/iter (+/- 56)`), what
/// `--output-format bencher` prints; `None` for a comparison, a failure, or a measurement with
/// no estimate.
pub fn bencher_line(result: &BenchResult) -> Option<String> {
    result.bencher_line()
}
