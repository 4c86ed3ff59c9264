//! The commands a session runs, built in one place from the command line: `cmd`'s reference
//! and commands with every combination of their parameters ([`cmd_specs`], expanding with
//! [`crate::scan`]), and the baseline and candidate of `git` and `selftest` ([`Pair::specs`]),
//! each with its hooks.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::{CmdArgs, CompareArgs};
use crate::error::{CliError, Result};
use crate::scan::{self, Parameter};

/// One command of a session with its hooks, after parameter substitution.
#[derive(Debug, Clone, Default)]
pub(crate) struct CommandSpec {
    /// Its label (`A`, `B`, … or the `--command-name`).
    pub(crate) name: String,
    /// The command as given.
    pub(crate) command: String,
    /// Its working directory (`None`: the current one).
    pub(crate) dir: Option<PathBuf>,
    /// A busy-wait inside each timed run (the self-test's injected regression).
    pub(crate) inject: Duration,
    /// Run before each of its runs, untimed (`--prepare`).
    pub(crate) prepare: Option<String>,
    /// Run once before its first run (`--setup`).
    pub(crate) setup: Option<String>,
    /// Run after each of its runs, untimed (`--conclude`).
    pub(crate) conclude: Option<String>,
    /// Run once after its last run, also when the session stops early (`--cleanup`).
    pub(crate) cleanup: Option<String>,
    /// The parameter values substituted into it (`-L`, `-P`), by name; empty without.
    pub(crate) parameters: std::collections::BTreeMap<String, String>,
}

impl CommandSpec {
    /// The hooks of `args` for the `i`-th command: `--prepare` matched to commands in order
    /// (one `--prepare` serves every command), `--setup`, `--conclude` and `--cleanup` for
    /// each.
    fn hooks(args: &CompareArgs, i: usize) -> CommandSpec {
        let prepare = match args.prepare.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            many => many.get(i).cloned(),
        };
        CommandSpec {
            prepare,
            setup: args.setup.clone(),
            conclude: args.conclude.clone(),
            cleanup: args.cleanup.clone(),
            ..CommandSpec::default()
        }
    }
}

/// The two commands of `git` and `selftest`: the baseline (A) and the candidate (B), each
/// with the directory it runs in (`None`: the current one) and a busy-wait inside its timed
/// runs (the self-test's injected regression; zero otherwise).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pair<'a> {
    /// The baseline's command.
    pub(crate) baseline: &'a str,
    /// The candidate's command.
    pub(crate) candidate: &'a str,
    /// Working directories of the baseline and the candidate.
    pub(crate) dirs: [Option<&'a Path>; 2],
    /// Busy-waits inside each timed run of the baseline and of the candidate.
    pub(crate) inject: [Duration; 2],
}

impl Pair<'_> {
    /// The two commands as a session's specs, labelled A and B, with the hooks of `args`.
    pub(crate) fn specs(&self, args: &CompareArgs) -> Vec<CommandSpec> {
        [(self.baseline, "A"), (self.candidate, "B")]
            .into_iter()
            .enumerate()
            .map(|(i, (command, name))| CommandSpec {
                name: name.into(),
                command: command.into(),
                dir: self.dirs[i].map(Into::into),
                inject: self.inject[i],
                ..CommandSpec::hooks(args, i)
            })
            .collect()
    }
}

/// The commands of `rtcompare cmd` as a session's specs: the reference (`--reference`, else
/// the first command), then every command for every combination of the parameters, with
/// `{NAME}` replaced in each command, label and hook.
///
/// Errors ([`CliError::Usage`]): bad parameters, labels that are not one per command, fewer
/// than two commands, `--prepare` neither once nor once per command.
pub(crate) fn cmd_specs(args: &CmdArgs) -> Result<Vec<CommandSpec>> {
    let params = scan::parameters(
        &args.parameter_list,
        &args.parameter_scan,
        args.parameter_step_size,
    )?;
    let combos = scan::combinations(&params)?;
    check_names(args)?;
    note_unused(&args.commands, &params, combos.len());
    let mut specs = Vec::new();
    if let Some(r) = &args.reference {
        specs.push(CommandSpec {
            name: args
                .command_name
                .first()
                .cloned()
                .unwrap_or_else(|| "reference".into()),
            command: r.clone(),
            ..CommandSpec::hooks(&args.options, 0)
        });
    }
    let offset = usize::from(args.reference.is_some());
    for (t, template) in args.commands.iter().enumerate() {
        for combo in &combos {
            let hooks = CommandSpec::hooks(&args.options, specs.len());
            let sub = |h: Option<String>| h.map(|h| scan::substitute(&h, combo));
            let name = match args.command_name.get(t + offset) {
                Some(n) => scan::substitute(n, combo),
                None if params.is_empty() => letter(specs.len()),
                None => scan::substitute(template, combo),
            };
            specs.push(CommandSpec {
                name,
                command: scan::substitute(template, combo),
                prepare: sub(hooks.prepare),
                setup: sub(hooks.setup),
                conclude: sub(hooks.conclude),
                cleanup: sub(hooks.cleanup),
                parameters: combo.iter().cloned().collect(),
                ..CommandSpec::default()
            });
        }
    }
    check_count(&specs, &args.options)?;
    Ok(specs)
}

/// The label of the `i`-th command without `--command-name`: A, B, … Z, then C26, C27, ….
fn letter(i: usize) -> String {
    match u8::try_from(i) {
        Ok(i) if i < 26 => char::from(b'A' + i).to_string(),
        _ => format!("C{i}"),
    }
}

/// Refuses labels (`--command-name`) that are not one per command given, the reference first.
fn check_names(args: &CmdArgs) -> Result<()> {
    let (names, offset) = (&args.command_name, usize::from(args.reference.is_some()));
    let given = args.commands.len() + offset;
    if names.is_empty() || names.len() == given {
        return Ok(());
    }
    Err(CliError::Usage(format!(
        "{} --command-name for {given} commands{}: give one per command, in order",
        names.len(),
        if offset == 1 {
            " (the reference counts, first)"
        } else {
            ""
        }
    )))
}

/// Says on stderr when a parameter of several values does not occur in the first command:
/// its runs would differ only by name.
fn note_unused(templates: &[String], params: &[Parameter], combinations: usize) {
    let Some(first) = templates.first() else {
        return;
    };
    for p in params {
        if combinations > 1 && !first.contains(&format!("{{{}}}", p.name)) {
            eprintln!(
                "note: the parameter {{{}}} does not occur in `{first}`: its runs differ only \
                 by name",
                p.name
            );
        }
    }
}

/// Refuses fewer than two commands, and `--prepare` given neither once nor once per command.
fn check_count(specs: &[CommandSpec], options: &CompareArgs) -> Result<()> {
    if specs.len() < 2 {
        return Err(CliError::Usage(
            "give at least two commands (or one with a parameter of several values, or \
             --reference)"
                .into(),
        ));
    }
    if options.prepare.len() > 1 && options.prepare.len() != specs.len() {
        return Err(CliError::Usage(format!(
            "{} --prepare for {} commands: give one for all, or one per command in order",
            options.prepare.len(),
            specs.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_run_from_a_to_z_then_by_number() {
        assert_eq!(letter(0), "A");
        assert_eq!(letter(25), "Z");
        assert_eq!(letter(26), "C26");
    }
}
