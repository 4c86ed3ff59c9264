//! The `rtcompare` command-line tool: is one whole program really faster than another?
//!
//! `rtcompare cmd A B` runs the two commands interleaved (ABBA) as whole processes after
//! discarded warm-ups, measures each against itself first for an A/A noise floor, stops when
//! the paired bootstrap interval of B's time over A's is tight enough, and decides with the
//! lower-bound rule, or with the few-runs rule for fewer than 11 pairs. `rtcompare cmd A B C …`
//! compares every command with the first (or `--reference`), all interleaved round by round,
//! with hyperfine's parameters (`-L`, `-P`) and hooks. Every statistic comes from the
//! [`rtcompare`] library; this crate only runs processes and prints.
//!
//! The binary is a thin `main` over [`run`]: clap parses the command line ([`cli`]), `plan`
//! checks all of it before anything runs, and the subcommand measures (`session` for `cmd`,
//! `git`, `selftest`; `bench`; `combine`), judges with the library's one rule
//! ([`rtcompare::stats::judge`]) in one vocabulary (`words`), and writes through [`export`].
//! The progress line on stderr is the library's ([`rtcompare::progress::Status`]), set between
//! runs and worker pairs, so the tool and the library draw progress one way. Public are the
//! parts tests and users read: the analysis ([`analysis`]), the command line, the error, the
//! JSON layout ([`result`]) and the HTML page ([`export::html::page`]).
//!
//! # Where things are
//!
//! The modules from the top down: each imports only modules listed below it, so the files form
//! no circle (the crate's tests check the order by reading the imports).
//!
//! | module | owns |
//! |---|---|
//! | `plan` | the command line resolved once: every subcommand's flags checked into one plan before anything runs |
//! | `combine` | `rtcompare combine`: typed readers of every input kind, comparisons identified by what they compare, pooled across machines |
//! | `bench` | `rtcompare bench`: one benchmark target at two revisions, a front over the library's `bench::compare_revisions` (the engine `cargo bench -- --baseline REV` runs), with the history of runs |
//! | `git`, `selftest` | `rtcompare git` (a command at two revisions), `rtcompare selftest` |
//! | `session` | `cmd`'s protocol: warm-ups, A/A runs, interleaved rounds, when to stop |
//! | `snapshot` | the JSON file kept current while a session measures |
//! | [`export`] | every output format behind one `Exporter` trait, the terminal summary among them |
//! | `history`, `hyperfine` | intervals across invocations; hyperfine's JSON layout, read and written |
//! | `commands`, [`result`] | the commands a session runs, built in one place; the JSON result (schema 2) and its readers |
//! | [`cli`], `decide`, `words` | clap's arguments; `cmd`'s sequential decision; the one word table of outcomes |
//! | [`analysis`], `files`, `process`, `scan` | the rules, floors, summaries and warnings of a finished measurement; reading and writing files; one process timed; hyperfine's parameters |
//! | [`error`] | the one error enum and the exit codes |
//! | `figures`, `signals`, `units` | the HTML page's statistics; SIGINT and SIGTERM noted; numbers with their units |
#![deny(missing_docs)]

// What the integration tests and users read: the analysis, the command line, the error, the
// JSON result and the HTML page of a result.
pub mod analysis;
pub mod cli;
pub mod error;
pub mod export;
pub mod result;

// The tool's own parts: private, so that an item nothing uses is a warning.
pub(crate) mod bench;
pub(crate) mod combine;
pub(crate) mod commands;
pub(crate) mod decide;
pub(crate) mod figures;
pub(crate) mod files;
pub(crate) mod git;
pub(crate) mod history;
pub(crate) mod hyperfine;
pub(crate) mod plan;
pub(crate) mod process;
pub(crate) mod scan;
pub(crate) mod selftest;
pub(crate) mod session;
pub(crate) mod signals;
pub(crate) mod snapshot;
pub(crate) mod units;
pub(crate) mod words;

use clap::Parser;

use cli::Cli;
use error::{CliError, EXIT_ERROR, EXIT_OK, EXIT_REGRESSION};
use export::terminal::Summary;
use export::{Exporter, Exports};
use plan::{Plan, Source};
use result::CmdResult;

/// Parses `args` (including the program name), runs the subcommand, prints its output, and
/// returns the process exit status: 0 on any verdict, 1 with `--fail-on-regression` when B is
/// slower, 2 on a usage or run error, 3 when a benchmark of `bench` failed, 130 after Ctrl-C,
/// 143 after SIGTERM.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args = match join_budget(args.into_iter().map(Into::into).collect()) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {e}");
            return e.exit_code();
        }
    };
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => decide_at_budget(cli),
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_ERROR } else { EXIT_OK };
        }
    };
    signals::install();
    match Plan::of(&cli).and_then(|plan| execute(&plan)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// `cmd` and `git` decide at the `--fail-on-regression` budget when it is wider than
/// `--threshold`, as `bench` does ([`decision_margin`](rtcompare::support::bench::decision_margin)):
/// the looks go on until the interval answers the check, rather than stopping beyond the
/// threshold while the interval still straddles the budget.
fn decide_at_budget(mut cli: Cli) -> Cli {
    use rtcompare::support::bench::decision_margin;
    let options = match &mut cli.command {
        cli::Commands::Cmd(args) => Some(&mut args.options),
        cli::Commands::Git(args) => Some(&mut args.options),
        _ => None,
    };
    if let Some(o) = options {
        o.threshold = decision_margin(o.threshold, o.fail_on_regression);
    }
    cli
}

/// `--fail-on-regression` takes its budget the same way in every subcommand (and in the bench
/// harness's `cargo bench -- --baseline REV`): joined with `=`, or as the next word when that
/// word is a budget (`5%`, `0.05`), which is then joined here; any other next word (a command,
/// a file, another flag) stays what it is and the flag stands bare. Without this, clap would
/// take `cmd --fail-on-regression 5% A B`'s `5%` for the reference command.
///
/// Errors: a next word that is a number but not a budget (`5`, `150%`, `-1%`), which could be
/// neither a command nor a file anyone meant: the usage error says how to write the budget.
pub(crate) fn join_budget(
    args: Vec<std::ffi::OsString>,
) -> Result<Vec<std::ffi::OsString>, CliError> {
    const FLAG: &str = "--fail-on-regression";
    let mut out = Vec::with_capacity(args.len());
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        if arg == "--" {
            out.push(arg);
            out.extend(args);
            break;
        }
        if arg != FLAG {
            out.push(arg);
            continue;
        }
        let next = args.peek().and_then(|n| n.to_str()).map(str::to_string);
        match next {
            Some(word) if rtcompare::support::bench::parse_fraction(&word).is_ok() => {
                args.next();
                out.push(format!("{FLAG}={word}").into());
            }
            Some(word) if word.trim_end_matches('%').trim().parse::<f64>().is_ok() => {
                let reason = rtcompare::support::bench::parse_fraction(&word).unwrap_err();
                return Err(CliError::Usage(format!(
                    "`{FLAG} {word}`: {reason}. The budget follows the flag as \
                     `{FLAG}=5%` or `{FLAG} 5%` (a percentage, or a fraction such as 0.05); \
                     a bare `{FLAG}` fails on any proven slowdown"
                )));
            }
            _ => out.push(arg),
        }
    }
    Ok(out)
}

/// Runs a checked plan: the subcommand, its summary and its outputs; returns the exit status.
fn execute(plan: &Plan<'_>) -> Result<i32, CliError> {
    let options = match plan {
        Plan::Cmd { args, .. } => Some(&args.options),
        Plan::Git { args, .. } => Some(&args.options),
        Plan::Selftest { args, .. } => Some(&args.options),
        Plan::Bench { .. } | Plan::Combine { .. } => None,
    };
    if let Some(unit) = options.and_then(|o| o.time_unit) {
        units::set_time_unit(unit);
    }
    match plan {
        Plan::Cmd {
            args,
            source,
            summary,
            exports,
        } => {
            let (result, history) = match source {
                Source::Import(path) => (hyperfine::analyse_import(path, &args.options)?, false),
                Source::Run(specs) => (session::run_many(specs, &args.options)?, true),
            };
            finish(&result, exports, summary, &args.options, history)
        }
        Plan::Git {
            args,
            build,
            exports,
        } => {
            let result = git::run(args, build)?;
            let summary = plan::two_command_summary();
            finish(&result, exports, &summary, &args.options, false)
        }
        Plan::Bench { args } => bench::run(args),
        Plan::Combine { args, exports } => combine::run(args, exports),
        Plan::Selftest { args, exports } => {
            let report = selftest::run(args)?;
            // With `--json -`, standard output carries the JSON alone.
            let say = |text: String| say(&text, exports.to_stdout());
            say(report.to_string());
            if let Some(dir) = &args.record {
                let path = selftest::record(&report, dir)?;
                say(format!("recorded in {}\n", path.display()));
            }
            exports.write(&report)?;
            Ok(if report.passed {
                EXIT_OK
            } else {
                EXIT_REGRESSION
            })
        }
    }
}

/// `text` on standard output, or on standard error when an output takes standard output.
fn say(text: &str, to_stderr: bool) {
    if to_stderr {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
}

/// The end of a comparison: the summary (on stderr when an output takes stdout), with `history`
/// each comparison kept in the target directory's history (its warnings on stderr, under the
/// summary), then the outputs and the exit status.
fn finish(
    result: &CmdResult,
    exports: &Exports<CmdResult>,
    summary: &Summary,
    options: &cli::CompareArgs,
    history: bool,
) -> Result<i32, CliError> {
    if options.style.summary() {
        say(&summary.render(result)?, exports.to_stdout());
    }
    if history {
        let cwd = std::env::current_dir().unwrap_or_default();
        for w in history::cmd_dir(&cwd)
            .map(|dir| history::record_cmd(&dir, result))
            .unwrap_or_default()
        {
            eprintln!("warning: {w}");
        }
    }
    exports.write(result)?;
    Ok(exit_status(result, options))
}

/// 1 with `--fail-on-regression[=BUDGET]` when some command was found slower than the
/// reference beyond the budget ([`CmdResult::regressed`]), else 0.
fn exit_status(result: &CmdResult, options: &cli::CompareArgs) -> i32 {
    match options.fail_on_regression {
        Some(budget) if result.regressed(budget) => EXIT_REGRESSION,
        _ => EXIT_OK,
    }
}

#[cfg(test)]
mod tests {
    use super::{decide_at_budget, join_budget};
    use crate::cli::{Cli, Commands};
    use clap::Parser;

    #[test]
    fn cmd_decides_at_a_wider_regression_budget() {
        let threshold = |args: &[&str]| match decide_at_budget(Cli::parse_from(args)).command {
            Commands::Cmd(a) => a.options.threshold,
            _ => unreachable!(),
        };
        assert_eq!(threshold(&["rtcompare", "cmd", "a", "b"]), 0.02);
        assert_eq!(
            threshold(&["rtcompare", "cmd", "--fail-on-regression=5%", "a", "b"]),
            0.05
        );
        // Bare (any amount) or within the threshold: the threshold stays.
        assert_eq!(
            threshold(&["rtcompare", "cmd", "--fail-on-regression", "a", "b"]),
            0.02
        );
        assert_eq!(
            threshold(&[
                "rtcompare",
                "cmd",
                "--threshold=3%",
                "--fail-on-regression=1%",
                "a",
                "b"
            ]),
            0.03
        );
    }

    fn joined(args: &[&str]) -> Result<Vec<String>, String> {
        join_budget(args.iter().map(Into::into).collect())
            .map(|v| v.into_iter().map(|a| a.into_string().unwrap()).collect())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_budget_after_fail_on_regression_is_joined_in_every_subcommand() {
        // The space form, which clap alone would take for cmd's reference command.
        assert_eq!(
            joined(&[
                "rtcompare",
                "cmd",
                "--fail-on-regression",
                "5%",
                "./old",
                "./new"
            ])
            .unwrap(),
            [
                "rtcompare",
                "cmd",
                "--fail-on-regression=5%",
                "./old",
                "./new"
            ]
        );
        assert_eq!(
            joined(&[
                "rtcompare",
                "bench",
                "--baseline",
                "x",
                "--fail-on-regression",
                "0.05"
            ])
            .unwrap(),
            [
                "rtcompare",
                "bench",
                "--baseline",
                "x",
                "--fail-on-regression=0.05"
            ]
        );
        // Bare before a command or a file, and after `--`, nothing changes.
        let bare = ["rtcompare", "cmd", "--fail-on-regression", "./old", "./new"];
        assert_eq!(joined(&bare).unwrap(), bare);
        let after = [
            "rtcompare",
            "bench",
            "--baseline",
            "x",
            "--",
            "--fail-on-regression",
            "5%",
        ];
        assert_eq!(joined(&after).unwrap(), after);
        // A number that is no budget is a usage error that says how to write one.
        for bad in ["5", "150%", "-1%"] {
            let e =
                joined(&["rtcompare", "cmd", "--fail-on-regression", bad, "a", "b"]).unwrap_err();
            assert!(e.contains("--fail-on-regression=5%"), "{bad}: {e}");
        }
    }
}
