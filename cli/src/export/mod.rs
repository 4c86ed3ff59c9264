//! Every output of every subcommand, behind one shape (hyperfine's `src/export/`): an
//! `Exporter` turns a subcommand's result into one format's text, an `ExportTarget` is
//! where it goes (a file, written whole, or standard output), and `Exports` holds the
//! outputs a command line asked for, checks them all before anything runs and writes them all
//! at the end. One file per format: `json`, [`html`], `markdown`, `asciidoc`,
//! `orgmode` (the three tables share `markup`), `csv`, `hyperfine` (its JSON export
//! layout) and `terminal` (the summary people read).
//!
//! * **Targets.** Every output flag takes a file or `-` for standard output. `Exports::check`
//!   runs before the first run: at most one output may use `-`, no two may share a file, none
//!   may overwrite an input, and each file must open for writing, so a typo in a path fails
//!   in the first second instead of after minutes of measuring. When an output goes to
//!   standard output, the human summary goes to standard error (`Exports::to_stdout`) so
//!   that standard output stays parseable.

pub(crate) mod asciidoc;
pub(crate) mod csv;
pub mod html;
pub(crate) mod hyperfine;
pub(crate) mod json;
pub(crate) mod markdown;
pub(crate) mod markup;
pub(crate) mod orgmode;
pub(crate) mod terminal;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{CliError, Result};
use crate::files;

/// The file name that means standard output: `-`.
pub const STDOUT: &str = "-";

/// Where one output goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ExportTarget {
    /// Standard output (`-`).
    Stdout,
    /// A file, written whole at the end.
    File(PathBuf),
}

impl ExportTarget {
    /// The target a flag's value names: `-` is standard output, anything else a file.
    pub(crate) fn of(path: &Path) -> ExportTarget {
        if path.as_os_str() == STDOUT {
            ExportTarget::Stdout
        } else {
            ExportTarget::File(path.to_path_buf())
        }
    }

    /// Writes `text` here: a file through [`files::write_atomically`]; standard output
    /// locked and flushed (not `print!`, which panics when the reader has gone: a closed
    /// pipe is an error here).
    pub(crate) fn write(&self, text: &str) -> Result<()> {
        match self {
            ExportTarget::File(path) => files::write_atomically(path, text),
            ExportTarget::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|source| CliError::File {
                        action: "write",
                        path: PathBuf::from("standard output"),
                        source,
                    })
            }
        }
    }
}

/// One format: a subcommand's result `T` as text.
pub(crate) trait Exporter<T: ?Sized> {
    /// `data` in this format. Errors: what stops the format from being made.
    fn render(&self, data: &T) -> Result<String>;

    /// Writes `data` to `target`: [`render`](Self::render)'s text, unless the format writes
    /// more than one file (then it refuses standard output in [`Exporter::file_only`]).
    fn export(&self, data: &T, target: &ExportTarget) -> Result<()> {
        target.write(&self.render(data)?)
    }

    /// Whether the format needs a file (it writes pages beside it): `-` is then refused when
    /// the outputs are checked.
    fn file_only(&self) -> bool {
        false
    }
}

/// One output asked for: its flag, where it goes, and its format.
struct Export<T: ?Sized> {
    flag: &'static str,
    target: ExportTarget,
    exporter: Box<dyn Exporter<T>>,
}

/// The outputs one command line asked for, in the order they are written.
pub(crate) struct Exports<T: ?Sized> {
    outputs: Vec<Export<T>>,
}

impl<T: ?Sized> Exports<T> {
    /// No outputs.
    pub(crate) fn new() -> Exports<T> {
        Exports {
            outputs: Vec::new(),
        }
    }

    /// With `exporter` writing to `path` when the flag `flag` was given (`path` is `Some`).
    pub(crate) fn with(
        mut self,
        flag: &'static str,
        path: Option<&Path>,
        exporter: impl Exporter<T> + 'static,
    ) -> Exports<T> {
        if let Some(path) = path {
            self.outputs.push(Export {
                flag,
                target: ExportTarget::of(path),
                exporter: Box::new(exporter),
            });
        }
        self
    }

    /// Whether some output goes to standard output, so the summary must not.
    pub(crate) fn to_stdout(&self) -> bool {
        self.outputs
            .iter()
            .any(|o| o.target == ExportTarget::Stdout)
    }

    /// Checks every output before anything runs or is read. `inputs` are the files the
    /// command reads (none may be overwritten); `terminal` names the flag that lets the
    /// commands write to standard output (`--show-output`), if given.
    ///
    /// Errors: a usage error when more than one output asks for standard output, when one
    /// does and `terminal` would mix the commands' own output in, when a format that needs a
    /// file is given `-`, when two outputs name the same file, or when an output names an
    /// input; a file error naming the path when a file cannot be opened for writing (see
    /// [`files::probe`]).
    pub(crate) fn check(&self, inputs: &[PathBuf], terminal: Option<&str>) -> Result<()> {
        let to_stdout: Vec<&str> = self
            .outputs
            .iter()
            .filter(|o| o.target == ExportTarget::Stdout)
            .map(|o| o.flag)
            .collect();
        if to_stdout.len() > 1 {
            return Err(CliError::Usage(format!(
                "{} all ask for standard output (`-`); only one output can go there and stay \
                 parseable: write the others to files",
                to_stdout.join(" and ")
            )));
        }
        if let ([flag], Some(terminal)) = (&to_stdout[..], terminal) {
            return Err(CliError::Usage(format!(
                "{flag} - writes to standard output, where {terminal} would mix in the \
                 commands' own output: write {flag} to a file, or drop {terminal}"
            )));
        }
        if let Some(o) = self
            .outputs
            .iter()
            .find(|o| o.exporter.file_only() && o.target == ExportTarget::Stdout)
        {
            return Err(CliError::Usage(format!(
                "{} writes several pages beside its file: give it a file, not `-`",
                o.flag
            )));
        }
        let files: Vec<(&str, &Path)> = self
            .outputs
            .iter()
            .filter_map(|o| match &o.target {
                ExportTarget::File(p) => Some((o.flag, p.as_path())),
                ExportTarget::Stdout => None,
            })
            .collect();
        for (i, (flag, path)) in files.iter().enumerate() {
            if let Some((first, _)) = files[..i].iter().find(|(_, p)| p == path) {
                return Err(CliError::Usage(format!(
                    "{first} and {flag} both write {}: the second would overwrite the first; \
                     give each its own file",
                    path.display()
                )));
            }
            if inputs.iter().any(|f| f == path) {
                return Err(CliError::Usage(format!(
                    "{flag} {} would overwrite one of the inputs: write it elsewhere",
                    path.display()
                )));
            }
        }
        files.iter().try_for_each(|(_, path)| files::probe(path))
    }

    /// Writes every output of `data`, in order; stops at the first that fails.
    pub(crate) fn write(&self, data: &T) -> Result<()> {
        self.outputs
            .iter()
            .try_for_each(|o| o.exporter.export(data, &o.target))
    }
}
