//! The command line resolved once: clap's arguments become one checked [`Plan`] before
//! anything is run, checked out, built or read, so that every mistake clap cannot see (one
//! flag against another, a value the protocol cannot use, an output that cannot be written, a
//! command line that cannot be split) costs a second and leaves nothing behind. What runs
//! afterwards takes the plan and checks nothing again.

use std::ffi::OsString;
use std::path::PathBuf;

use rtcompare::support::stats::MINIMUM_DATA_POINTS;

use crate::bench;
use crate::cli::{BenchArgs, Cli, CmdArgs, CombineArgs, Commands, CompareArgs, GitArgs};
use crate::cli::{SelftestArgs, SortOrder};
use crate::combine::{self, Combined};
use crate::commands::{self, CommandSpec};
use crate::error::{CliError, Result};
use crate::export::Exports;
use crate::export::asciidoc::Asciidoc;
use crate::export::csv::Csv;
use crate::export::html::Html;
use crate::export::hyperfine::HyperfineJson;
use crate::export::json::Json;
use crate::export::markdown::Markdown;
use crate::export::orgmode::Orgmode;
use crate::export::terminal::Summary;
use crate::git;
use crate::process::Output;
use crate::result::CmdResult;
use crate::selftest::{self, SelftestReport};

/// What `cmd` compares: the commands, or a hyperfine export's two.
pub(crate) enum Source {
    /// The commands to run, the reference first.
    Run(Vec<CommandSpec>),
    /// A hyperfine JSON export to analyse instead.
    Import(PathBuf),
}

/// One checked invocation.
pub(crate) enum Plan<'a> {
    /// `rtcompare cmd`.
    Cmd {
        args: &'a CmdArgs,
        source: Source,
        summary: Summary,
        exports: Exports<CmdResult>,
    },
    /// `rtcompare git`, with the build command split into its arguments.
    Git {
        args: &'a GitArgs,
        build: Vec<OsString>,
        exports: Exports<CmdResult>,
    },
    /// `rtcompare bench`.
    Bench { args: &'a BenchArgs },
    /// `rtcompare combine`.
    Combine {
        args: &'a CombineArgs,
        exports: Exports<Combined>,
    },
    /// `rtcompare selftest`.
    Selftest {
        args: &'a SelftestArgs,
        exports: Exports<SelftestReport>,
    },
}

impl Plan<'_> {
    /// The plan of `cli`. Errors: the first mistake found, as a usage or file error.
    pub(crate) fn of(cli: &Cli) -> Result<Plan<'_>> {
        Ok(match &cli.command {
            Commands::Cmd(args) => {
                check_compare(&args.options)?;
                let exports = compare_exports(&args.options);
                let inputs: Vec<PathBuf> = args.import_hyperfine.iter().cloned().collect();
                exports.check(&inputs, terminal(&args.options))?;
                let source = match &args.import_hyperfine {
                    Some(path) => Source::Import(path.clone()),
                    None => Source::Run(commands::cmd_specs(args)?),
                };
                Plan::Cmd {
                    args,
                    source,
                    summary: Summary { sort: args.sort },
                    exports,
                }
            }
            Commands::Git(args) => {
                check_compare(&args.options)?;
                let build = git::check(args)?;
                let exports = compare_exports(&args.options);
                exports.check(&[], terminal(&args.options))?;
                Plan::Git {
                    args,
                    build,
                    exports,
                }
            }
            Commands::Bench(args) => {
                bench::check_args(args)?;
                Plan::Bench { args }
            }
            Commands::Combine(args) => {
                let exports = combine::exports(args);
                exports.check(&args.files, None)?;
                combine::check_distinct(args)?;
                Plan::Combine { args, exports }
            }
            Commands::Selftest(args) => {
                check_compare(&args.options)?;
                selftest::check(args)?;
                let exports = Exports::new().with("--json", args.options.json.as_deref(), Json);
                exports.check(&[], terminal(&args.options))?;
                Plan::Selftest { args, exports }
            }
        })
    }
}

/// The summary of a two-command comparison (`git`'s), whose rows need no order.
pub(crate) fn two_command_summary() -> Summary {
    Summary {
        sort: SortOrder::Command,
    }
}

/// The outputs `cmd` and `git` write from a result, in the order their flags are checked.
fn compare_exports(o: &CompareArgs) -> Exports<CmdResult> {
    Exports::new()
        .with("--json", o.json.as_deref(), Json)
        .with("--html", o.html.as_deref(), Html)
        .with("--export-json", o.export_json.as_deref(), HyperfineJson)
        .with("--export-markdown", o.export_markdown.as_deref(), Markdown)
        .with("--export-csv", o.export_csv.as_deref(), Csv)
        .with("--export-asciidoc", o.export_asciidoc.as_deref(), Asciidoc)
        .with("--export-orgmode", o.export_orgmode.as_deref(), Orgmode)
}

/// The flag that lets the commands write to standard output, if given: an output cannot go
/// there too.
fn terminal(o: &CompareArgs) -> Option<&'static str> {
    (o.show_output || o.output == Some(Output::Inherit)).then_some("--show-output")
}

/// Checks the measuring flags of `cmd`, `git` and `selftest` that clap cannot check on its own
/// (one against another, values clap accepts but the protocol cannot use).
fn check_compare(args: &CompareArgs) -> Result<()> {
    if let Some(n) = args.runs {
        if n < rtcompare::support::stats::FEW_RUNS_MIN_RUNS {
            return Err(CliError::Usage(format!(
                "--runs {n} is too few: at least {} runs of each command are needed (11 or \
                 more for the bootstrap interval, 22 or more for the A/A floor as well)",
                rtcompare::support::stats::FEW_RUNS_MIN_RUNS
            )));
        }
        if n > args.max_runs {
            return Err(CliError::Usage(format!(
                "--runs {n} exceeds --max-runs {}; raise --max-runs too",
                args.max_runs
            )));
        }
    }
    if args.max_rounds() < MINIMUM_DATA_POINTS && args.runs.is_none() {
        return Err(CliError::Usage(format!(
            "--max-runs {} leaves fewer than the 11 compared pairs the stopping rule needs \
             ({} timed runs of each command per pair with the A/A partner run); use --runs N \
             for fewer runs",
            args.max_runs,
            args.runs_per_round()
        )));
    }
    if let Some(min) = args.min_runs
        && min > args.max_runs
    {
        return Err(CliError::Usage(format!(
            "--min-runs {min} exceeds --max-runs {}; raise --max-runs too",
            args.max_runs
        )));
    }
    if let Some(input) = &args.input {
        std::fs::File::open(input).map_err(|source| CliError::File {
            action: "read",
            path: input.clone(),
            source,
        })?;
    }
    if args.width <= 0.0 {
        return Err(CliError::Usage(
            "--width must be above 0%, for example 1%".into(),
        ));
    }
    Ok(())
}
