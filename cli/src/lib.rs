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
//! The binary is a thin `main` over [`run`]; the modules are public so the tool's pure parts
//! (the analysis, the JSON layout in [`result`], the parameter expansion in [`scan`], the
//! exports in [`export`]) can be tested and reused.
#![deny(missing_docs)]

pub mod analysis;
pub mod bench;
pub mod cli;
pub mod combine;
pub mod decide;
pub mod error;
pub mod export;
pub mod git;
pub mod history;
pub mod html;
pub mod hyperfine;
pub(crate) mod judge;
pub mod output;
pub mod process;
pub mod result;
pub mod scan;
pub mod selftest;
pub mod session;
pub mod signals;
pub mod units;
pub(crate) mod words;

use clap::Parser;

use cli::{Cli, Commands};
use error::{CliError, EXIT_ERROR, EXIT_OK, EXIT_REGRESSION};

/// Parses `args` (including the program name), runs the subcommand, prints its output, and
/// returns the process exit status: 0 on any verdict, 1 with `--fail-on-regression` when B is
/// slower, 2 on a usage or run error, 3 when a benchmark of `bench` failed, 130 after Ctrl-C,
/// 143 after SIGTERM.
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
                return finish(
                    hyperfine::analyse_import(path, &args.options)?,
                    &args.options,
                );
            }
            let specs = command_specs(args)?;
            let result = session::run_many(&specs, &args.options)?;
            if result.commands.len() > 2 {
                print_summary(&output::summary_many(&result, &args.sort), &args.options);
            } else {
                print_summary(&output::summary(&result), &args.options);
            }
            // Under the summary, on stderr: a warning, not the result.
            let cwd = std::env::current_dir().unwrap_or_default();
            for w in history::cmd_dir(&cwd)
                .map(|dir| history::record_cmd(&dir, &result))
                .unwrap_or_default()
            {
                eprintln!("warning: {w}");
            }
            finish_quietly(result, &args.options)
        }
        Commands::Git(args) => {
            export::check_outputs(&args.options)?;
            finish(git::run(args)?, &args.options)
        }
        Commands::Bench(args) => bench::run(args),
        Commands::Combine(args) => combine::run(args),
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

/// The commands of `rtcompare cmd` as a session's specs: the reference (`--reference`, else
/// the first command), then every command for every combination of the parameters, with
/// `{NAME}` replaced in each command, label and hook.
fn command_specs(args: &cli::CmdArgs) -> Result<Vec<session::CommandSpec>, CliError> {
    let params = scan::parameters(
        &args.parameter_list,
        &args.parameter_scan,
        args.parameter_step_size,
    )?;
    let combos = scan::combinations(&params)?;
    let templates = &args.commands;
    let names = &args.command_name;
    let offset = usize::from(args.reference.is_some());
    if !names.is_empty() && names.len() != templates.len() + offset {
        return Err(CliError::Usage(format!(
            "{} --command-name for {} commands{}: give one per command, in order",
            names.len(),
            templates.len() + offset,
            if offset == 1 {
                " (the reference counts, first)"
            } else {
                ""
            }
        )));
    }
    for (i, t) in templates.iter().enumerate() {
        for p in &params {
            if !t.contains(&format!("{{{}}}", p.name)) && combos.len() > 1 && i == 0 {
                eprintln!(
                    "note: the parameter {{{}}} does not occur in `{t}`: its runs differ only by \
                     name",
                    p.name
                );
            }
        }
    }
    let letter = |i: usize| -> String {
        if i < 26 {
            char::from(b'A' + i as u8).to_string()
        } else {
            format!("C{i}")
        }
    };
    let mut specs = Vec::new();
    if let Some(r) = &args.reference {
        specs.push(session::CommandSpec {
            name: names.first().cloned().unwrap_or_else(|| "reference".into()),
            command: r.clone(),
            ..session::CommandSpec::hooks(&args.options, 0)
        });
    }
    for (t, template) in templates.iter().enumerate() {
        for combo in &combos {
            let i = specs.len();
            let hooks = session::CommandSpec::hooks(&args.options, i);
            let sub = |h: Option<String>| h.map(|h| scan::substitute(&h, combo));
            let name = match names.get(t + offset) {
                Some(n) => scan::substitute(n, combo),
                None if params.is_empty() => letter(i),
                None => scan::substitute(template, combo),
            };
            specs.push(session::CommandSpec {
                name,
                command: scan::substitute(template, combo),
                prepare: sub(hooks.prepare),
                setup: sub(hooks.setup),
                conclude: sub(hooks.conclude),
                cleanup: sub(hooks.cleanup),
                ..session::CommandSpec::default()
            });
        }
    }
    if specs.len() < 2 {
        return Err(CliError::Usage(
            "give at least two commands (or one with a parameter of several values, or \
             --reference)"
                .into(),
        ));
    }
    if args.options.prepare.len() > 1 && args.options.prepare.len() != specs.len() {
        return Err(CliError::Usage(format!(
            "{} --prepare for {} commands: give one for all, or one per command in order",
            args.options.prepare.len(),
            specs.len()
        )));
    }
    Ok(specs)
}

/// [`finish`] for a result whose summary is already printed.
fn finish_quietly(result: result::CmdResult, options: &cli::CompareArgs) -> Result<i32, CliError> {
    export::write_outputs(&result, options)?;
    Ok(exit_status(&result, options))
}

/// Prints the summary (on stderr when an output goes to stdout), writes the outputs, and picks
/// the exit status.
fn finish(result: result::CmdResult, options: &cli::CompareArgs) -> Result<i32, CliError> {
    print_summary(&output::summary(&result), options);
    finish_quietly(result, options)
}

/// Prints a summary on stdout, or on stderr when an output goes to stdout.
fn print_summary(summary: &str, options: &cli::CompareArgs) {
    if export::summary_to_stderr(options) {
        eprint!("{summary}");
    } else {
        print!("{summary}");
    }
}

/// 1 with `--fail-on-regression` when some command was found slower than the reference, else 0.
fn exit_status(result: &result::CmdResult, options: &cli::CompareArgs) -> i32 {
    if options.fail_on_regression && result.regressed() {
        EXIT_REGRESSION
    } else {
        EXIT_OK
    }
}
