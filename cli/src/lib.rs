//! The `rtcompare` command-line tool: is one whole program really faster than another?
//!
//! `rtcompare cmd A B` runs the two commands interleaved (ABBA) as whole processes after
//! discarded warm-ups, measures each against itself first for an A/A noise floor, stops when
//! the paired bootstrap interval of B's time over A's is tight enough, and decides with the
//! lower-bound rule, or with the few-runs rule for fewer than 11 pairs. Every statistic comes
//! from the [`rtcompare`] library; this crate only runs processes and prints.
//!
//! The binary is a thin `main` over [`run`]; the modules are public so the tool's pure parts
//! (the analysis, the JSON layout) can be tested and reused.
#![deny(missing_docs)]

pub mod analysis;
pub mod bench;
pub mod cli;
pub mod error;
pub mod export;
pub mod git;
pub mod html;
pub mod hyperfine;
pub mod output;
pub mod process;
pub mod selftest;
pub mod session;
pub mod signals;

use clap::Parser;

use cli::{Cli, Commands};
use error::{CliError, EXIT_ERROR, EXIT_OK, EXIT_REGRESSION};

/// Parses `args` (including the program name), runs the subcommand, prints its output, and
/// returns the process exit status: 0 on any verdict, 1 with `--fail-on-regression` when B is
/// slower, 2 on a usage or run error, 130 after Ctrl-C or SIGTERM.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_ERROR } else { EXIT_OK };
        }
    };
    signals::install();
    match execute(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

fn execute(cli: &Cli) -> Result<i32, CliError> {
    match &cli.command {
        Commands::Cmd(args) => {
            export::check_outputs(&args.options)?;
            if let Some(path) = &args.import_hyperfine {
                return finish(session::from_hyperfine(path, &args.options)?, &args.options);
            }
            let (Some(a), Some(b)) = (&args.command_a, &args.command_b) else {
                return Err(CliError::Usage(
                    "give two commands, or --import-hyperfine FILE".into(),
                ));
            };
            let commands = session::Commands {
                a,
                b,
                dirs: [None, None],
                inject: [std::time::Duration::ZERO; 2],
            };
            finish(session::run(&commands, &args.options)?, &args.options)
        }
        Commands::Git(args) => {
            export::check_outputs(&args.options)?;
            finish(git::run(args)?, &args.options)
        }
        Commands::Bench(args) => bench::run(args),
        Commands::Selftest(args) => {
            selftest::check(args)?;
            export::check_outputs(&args.options)?;
            let report = selftest::run(args)?;
            // With `--json -`, standard output carries the JSON alone.
            let to_stderr = export::summary_to_stderr(&args.options);
            let say = |text: String| {
                if to_stderr {
                    eprint!("{text}");
                } else {
                    print!("{text}");
                }
            };
            say(report.to_string());
            if let Some(dir) = &args.record {
                let path = selftest::record(&report, dir)?;
                say(format!("recorded in {}\n", path.display()));
            }
            if let Some(path) = &args.options.json {
                selftest::write_json(&report, path)?;
            }
            Ok(if report.passed {
                EXIT_OK
            } else {
                EXIT_REGRESSION
            })
        }
    }
}

/// Prints the summary (on stderr when an output goes to stdout), writes the outputs, and picks
/// the exit status.
fn finish(result: session::CmdResult, options: &cli::CompareArgs) -> Result<i32, CliError> {
    let summary = session::summary(&result);
    if export::summary_to_stderr(options) {
        eprint!("{summary}");
    } else {
        print!("{summary}");
    }
    export::write_outputs(&result, options)?;
    Ok(
        if options.fail_on_regression && result.verdict.outcome.is_regression() {
            EXIT_REGRESSION
        } else {
            EXIT_OK
        },
    )
}
