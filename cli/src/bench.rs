//! `rtcompare bench`: one bench target at two revisions, benchmark by benchmark. A thin front
//! over the library's [`compare_revisions`], the engine that `cargo bench -- --baseline REV`
//! runs too, so that for one seed both give the same table; the tool adds its history of runs.

use std::path::Path;

use rtcompare::support::bench::{RevisionsOptions, compare_revisions};

use crate::cli::BenchArgs;
use crate::error::{CliError, Result};

/// The library's options from the flags.
pub(crate) fn options(args: &BenchArgs) -> RevisionsOptions {
    let mut o = RevisionsOptions::default();
    o.baseline.clone_from(&args.baseline);
    o.head.clone_from(&args.head);
    o.manifest_path.clone_from(&args.manifest_path);
    o.package.clone_from(&args.package);
    o.bench.clone_from(&args.bench);
    o.pairs = args.pairs;
    o.max_pairs = args.max_pairs;
    o.per_benchmark = args.per_benchmark;
    o.layouts = args.layouts;
    o.margin = args.margin;
    o.precision = args.precision;
    o.budget = args.budget;
    o.cpu_per_pair = !args.no_cpu_per_pair;
    o.seed = args.seed;
    o.filter.clone_from(&args.filter);
    o.exact = args.exact;
    o.skip.clone_from(&args.skip);
    o.json.clone_from(&args.json);
    o.markdown.clone_from(&args.markdown);
    o.html.clone_from(&args.html);
    o.fail_on_regression = args.fail_on_regression;
    o.step_summary = !args.no_step_summary;
    o
}

/// Runs `rtcompare bench` and returns its exit status, after recording each compared
/// benchmark in the history of runs.
pub(crate) fn run(args: &BenchArgs) -> Result<i32> {
    let outcome = compare_revisions(&options(args)).map_err(|e| match e {
        rtcompare::Error::Cancelled { .. } => CliError::Interrupted,
        other => CliError::Stats(other),
    })?;
    let history = crate::history::dir(&outcome.target_dir);
    let json = &outcome.json;
    let commits = (
        json.baseline_commit.as_str(),
        json.head_commit.as_str(),
        json.dirty,
    );
    for w in crate::history::record_bench(&history, &json.details, commits) {
        eprintln!("warning: {w}");
    }
    Ok(outcome.exit_code)
}

/// Checks the flags before anything is built: a mistake costs a second, not two builds.
pub(crate) fn check_args(args: &BenchArgs) -> Result<()> {
    options(args).check().map_err(CliError::Stats)?;
    for path in [&args.json, &args.markdown, &args.html]
        .into_iter()
        .flatten()
    {
        if path != Path::new("-") && path.is_dir() {
            return Err(CliError::Usage(format!(
                "{} is a directory: give a file to write",
                path.display()
            )));
        }
    }
    Ok(())
}
