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
pub(crate) mod files;
pub mod git;
pub mod history;
pub mod hyperfine;
pub(crate) mod judge;
pub mod process;
pub(crate) mod progress;
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
use export::asciidoc::Asciidoc;
use export::csv::Csv;
use export::html::Html;
use export::hyperfine::HyperfineJson;
use export::json::Json;
use export::markdown::Markdown;
use export::orgmode::Orgmode;
use export::terminal::Summary;
use export::{Exporter, Exports};
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
            let exports = compare_exports(&args.options);
            let inputs: Vec<_> = args.import_hyperfine.iter().cloned().collect();
            exports.check(&inputs, terminal(&args.options))?;
            let summary = Summary { sort: args.sort };
            if let Some(path) = &args.import_hyperfine {
                let result = hyperfine::analyse_import(path, &args.options)?;
                return finish(&result, &exports, &summary, &args.options, false);
            }
            let specs = command_specs(args)?;
            let result = session::run_many(&specs, &args.options)?;
            finish(&result, &exports, &summary, &args.options, true)
        }
        Commands::Git(args) => {
            let exports = compare_exports(&args.options);
            exports.check(&[], terminal(&args.options))?;
            let result = git::run(args)?;
            let summary = Summary {
                sort: cli::SortOrder::Command,
            };
            finish(&result, &exports, &summary, &args.options, false)
        }
        Commands::Bench(args) => bench::run(args),
        Commands::Combine(args) => combine::run(args),
        Commands::Selftest(args) => selftest(args),
    }
}

/// `rtcompare selftest`: both bars, the record, the JSON; exits 1 when a bar fails.
fn selftest(args: &cli::SelftestArgs) -> Result<i32, CliError> {
    selftest::check(args)?;
    let exports = Exports::new().with("--json", args.options.json.as_deref(), Json);
    exports.check(&[], terminal(&args.options))?;
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

/// The outputs `cmd` and `git` write from a result, in the order their flags are checked.
fn compare_exports(o: &cli::CompareArgs) -> Exports<CmdResult> {
    Exports::new()
        .with("--json", o.json.as_deref(), Json)
        .with("--html", o.html.as_deref(), Html)
        .with(
            "--export-hyperfine",
            o.export_hyperfine.as_deref(),
            HyperfineJson,
        )
        .with("--export-markdown", o.export_markdown.as_deref(), Markdown)
        .with("--export-csv", o.export_csv.as_deref(), Csv)
        .with("--export-asciidoc", o.export_asciidoc.as_deref(), Asciidoc)
        .with("--export-orgmode", o.export_orgmode.as_deref(), Orgmode)
}

/// The flag that lets the commands write to standard output, if given: an output cannot go
/// there too.
fn terminal(o: &cli::CompareArgs) -> Option<&'static str> {
    (o.show_output || o.output == Some(process::Output::Inherit)).then_some("--show-output")
}

/// `text` on standard output, or on standard error when an output takes standard output.
fn say(text: &str, to_stderr: bool) {
    if to_stderr {
        eprint!("{text}");
    } else {
        print!("{text}");
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
    say(&summary.render(result)?, exports.to_stdout());
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

/// 1 with `--fail-on-regression` when some command was found slower than the reference, else 0.
fn exit_status(result: &CmdResult, options: &cli::CompareArgs) -> i32 {
    if options.fail_on_regression && result.regressed() {
        EXIT_REGRESSION
    } else {
        EXIT_OK
    }
}
