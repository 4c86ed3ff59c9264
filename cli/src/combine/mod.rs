//! `rtcompare combine FILE…`: one comparison pooled across machines. Each file is one machine's
//! result (a CI runner's artifact): the JSON of a pooled `compare` example run, of `rtcompare
//! cmd --json` or of `rtcompare bench --json`; or a history file (`.jsonl`, the target
//! directory's `rtcompare/history/`), each of whose entries is one run of this machine, so that
//! runs the machine disagrees with itself over are pooled with the run as the unit. Per comparison name, the machines' estimates
//! are pooled with the machine as the unit ([`rtcompare::stats::combine_machines`]): a t
//! interval over machines, the random-effects estimate and I² beside it, outlier machines named
//! with their influence, never dropped.
//!
//! Every output path is checked before any file is read, and the inputs must share one layout
//! version (`schema_version`) that this tool knows.
//!
//! This module is the command ([`run`]); the files read are in `inputs`, the pooling and the
//! JSON, table and Markdown it makes in `machines`, and the HTML [`page`] draws that data; the
//! outputs go through [`crate::export`].

mod html;
mod inputs;
mod machines;

use serde::Serialize;

use crate::cli::CombineArgs;
use crate::error::{CliError, EXIT_OK, EXIT_REGRESSION, Result};
use crate::export::html::Html;
use crate::export::json::Json;
use crate::export::markdown::Markdown;
use crate::export::{Exporter, Exports};

pub(crate) use html::page;
pub(crate) use inputs::{MachineFile, read_input};
pub(crate) use machines::{CombineJson, combine, markdown, table};

/// What `rtcompare combine` writes: the pooled comparisons (its JSON) and the inputs they were
/// pooled from (their machines name the HTML page's rows).
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct Combined {
    /// The pooled comparisons.
    pub json: CombineJson,
    /// The inputs, in the order pooled.
    #[serde(skip)]
    pub files: Vec<MachineFile>,
}

/// `--html`: the forest plots of [`page`].
impl Exporter<Combined> for Html {
    fn render(&self, c: &Combined) -> Result<String> {
        Ok(page(&c.json, &c.files))
    }
}

/// `--markdown`: the summary for a pull request.
impl Exporter<Combined> for Markdown {
    fn render(&self, c: &Combined) -> Result<String> {
        Ok(markdown(&c.json))
    }
}

/// The outputs `args` asks for: `--json`, `--html`, `--markdown`.
pub(crate) fn exports(args: &CombineArgs) -> Exports<Combined> {
    Exports::new()
        .with("--json", args.json.as_deref(), Json)
        .with("--html", args.html.as_deref(), Html)
        .with("--markdown", args.markdown.as_deref(), Markdown)
}

/// Refuses a file given twice (the same path, however spelled: one runner counted as two
/// would narrow the interval over machines for nothing) and warns on stderr when two files
/// hold the same bytes (a result copied to two names is one machine too, but two runners of
/// one fleet cannot write the same bytes). Errors: a usage error naming both spellings.
pub(crate) fn check_distinct(args: &CombineArgs) -> Result<()> {
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

/// Runs `rtcompare combine`, writing `exports`; returns the exit status. Every output was
/// checked before any input was read ([`crate::plan`]; none may overwrite an input), so that a
/// mistake costs nothing and leaves no output behind.
pub(crate) fn run(args: &CombineArgs, exports: &Exports<Combined>) -> Result<i32> {
    let files: Vec<_> = args
        .files
        .iter()
        .map(|p| read_input(p))
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect();
    let json = combine(&files, args.fail_on_regression)?;
    // The table goes to standard error when an output takes standard output.
    if exports.to_stdout() {
        eprint!("{}", table(&json));
    } else {
        print!("{}", table(&json));
    }
    let regression = json.results.iter().any(|r| r.regression);
    exports.write(&Combined { json, files })?;
    Ok(if regression { EXIT_REGRESSION } else { EXIT_OK })
}
