//! Reading an input and writing an output, the same way for every subcommand: a file read
//! whole with its path in the error; a file written whole (into a temporary file beside it,
//! renamed over it, so that a reader, or a run stopped mid-write, never sees half a file);
//! and a check, before anything runs, that a file can be written, which changes nothing.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use crate::error::{CliError, Result};

/// The text of the file at `path`. Errors: [`CliError::File`] naming it.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| CliError::File {
        action: "read",
        path: path.into(),
        source,
    })
}

/// Writes `text` to `path` whole: into `PATH.PID.tmp` beside it, then renamed over it; the
/// temporary file is removed again when either step fails. Errors: [`CliError::File`] naming
/// `path`.
pub(crate) fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|source| {
            let _ = std::fs::remove_file(&tmp);
            CliError::File {
                action: "write",
                path: path.into(),
                source,
            }
        })
}

/// Opens `path` for writing without changing it: an existing file in append mode (its content
/// stays until the result replaces it), a missing one created and removed again at once, so
/// that a run that fails or is interrupted leaves nothing behind. Errors: [`CliError::File`]
/// naming `path` (a missing directory, no permission).
pub(crate) fn probe(path: &Path) -> Result<()> {
    let cannot = |source| CliError::File {
        action: "write",
        path: path.into(),
        source,
    };
    match OpenOptions::new().write(true).create_new(true).open(path) {
        Ok(file) => {
            drop(file);
            std::fs::remove_file(path).map_err(cannot)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => OpenOptions::new()
            .append(true)
            .open(path)
            .map(drop)
            .map_err(cannot),
        Err(e) => Err(cannot(e)),
    }
}
