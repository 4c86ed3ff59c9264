//! `rtcompare combine FILE…`: one comparison pooled across machines. Each file is one machine's
//! result (a CI runner's artifact): the JSON of a pooled `compare` example run, of `rtcompare
//! cmd --json` or of `rtcompare bench --json`; or a history file (`.jsonl`, the target
//! directory's `rtcompare/history/`), each of whose entries is one run of this machine, so that
//! runs the machine disagrees with itself over are pooled with the run as the unit. Per comparison name, the machines' estimates
//! are pooled with the machine as the unit ([`rtcompare::stats::combine_machines`]): a t
//! interval over machines, the random-effects estimate and I² beside it, outlier machines named
//! with their influence, never dropped.
//!
//! Every output path is checked before any file is read ([`check_outputs`]), and the inputs
//! must share one layout version (`schema_version`) that this tool knows.
//!
//! This module is the command ([`run`]); the files read, the pooling and the JSON, table and
//! Markdown it makes are in a data module beneath it, and the HTML [`page`] draws that data.

mod html;
mod inputs;
mod machines;

use std::path::Path;

use crate::cli::CombineArgs;
use crate::error::{CliError, EXIT_OK, EXIT_REGRESSION, Result};

pub use html::page;
pub use inputs::{Estimated, Kind, Machine, MachineFile, REFUSALS_TO_NAME, read, read_input};
pub use machines::{
    COMBINE_JSON_VERSION, CombineJson, CombinedResult, combine, fleet_note, markdown, table,
    verdict_word,
};

/// Every output `args` asks for, with its flag, in the order they are written.
fn outputs(args: &CombineArgs) -> Vec<(&'static str, &Path)> {
    [
        ("--json", &args.json),
        ("--html", &args.html),
        ("--markdown", &args.markdown),
    ]
    .into_iter()
    .filter_map(|(flag, path)| path.as_deref().map(|p| (flag, p)))
    .collect()
}

/// Checks every output path before any input is read, so that a mistake costs nothing and
/// leaves no output behind. Errors: a usage error when two outputs name the same file or an
/// output names an input; a file error naming the path when one cannot be opened for writing
/// (a missing directory, no permission). An existing file keeps its content until the result
/// replaces it; a file that did not exist is removed again at once.
pub fn check_outputs(args: &CombineArgs) -> Result<()> {
    let outputs = outputs(args);
    for (i, (flag, path)) in outputs.iter().enumerate() {
        if let Some((first, _)) = outputs[..i].iter().find(|(_, p)| p == path) {
            return Err(CliError::Usage(format!(
                "{first} and {flag} both write {}: give each its own file",
                path.display()
            )));
        }
        if args.files.iter().any(|f| f == path) {
            return Err(CliError::Usage(format!(
                "{flag} {} would overwrite one of the inputs: write it elsewhere",
                path.display()
            )));
        }
    }
    outputs
        .iter()
        .try_for_each(|(_, path)| crate::export::probe(path))
}

/// Refuses a file given twice (the same path, however spelled: one runner counted as two
/// would narrow the interval over machines for nothing) and warns on stderr when two files
/// hold the same bytes (a result copied to two names is one machine too, but two runners of
/// one fleet cannot write the same bytes). Errors: a usage error naming both spellings.
fn check_distinct(args: &CombineArgs) -> Result<()> {
    let canonical: Vec<_> = args
        .files
        .iter()
        .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
        .collect();
    let contents: Vec<Option<Vec<u8>>> = args.files.iter().map(|p| std::fs::read(p).ok()).collect();
    for j in 1..args.files.len() {
        for i in 0..j {
            if canonical[i] == canonical[j] {
                return Err(CliError::Usage(format!(
                    "{} and {} are the same file: give each runner's result once",
                    args.files[i].display(),
                    args.files[j].display()
                )));
            }
            if contents[i].is_some() && contents[i] == contents[j] {
                eprintln!(
                    "warning: {} and {} are identical, byte for byte: one run copied twice \
                     counts as two machines and makes the interval over machines too narrow",
                    args.files[i].display(),
                    args.files[j].display()
                );
            }
        }
    }
    Ok(())
}

/// Runs `rtcompare combine`; returns the exit status.
pub fn run(args: &CombineArgs) -> Result<i32> {
    check_outputs(args)?;
    check_distinct(args)?;
    let files: Vec<_> = args
        .files
        .iter()
        .map(|p| read_input(p))
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect();
    let combined = combine(&files, args.fail_on_regression)?;
    print!("{}", table(&combined));
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&combined)
            .map_err(|e| CliError::Stats(rtcompare::Error::Json { source: e.into() }))?;
        crate::result::write_atomically(path, &text)?;
    }
    if let Some(path) = &args.html {
        crate::result::write_atomically(path, &html::page(&combined, &files))?;
    }
    if let Some(path) = &args.markdown {
        crate::result::write_atomically(path, &markdown(&combined))?;
    }
    Ok(if combined.results.iter().any(|r| r.regression) {
        EXIT_REGRESSION
    } else {
        EXIT_OK
    })
}
