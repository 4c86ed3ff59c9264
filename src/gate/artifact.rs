//! Where a measured gate's report goes: `target/rtcompare/<test name>.json`, so that CI can
//! keep it.

use std::path::{Path, PathBuf};

use crate::compare::report::Report;
use crate::error::Error;

/// `target/rtcompare`, honouring `CARGO_TARGET_DIR` and, under cargo, the package's directory.
pub(super) fn report_dir() -> PathBuf {
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(t).join("rtcompare");
    }
    match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(m) => PathBuf::from(m).join("target").join("rtcompare"),
        None => PathBuf::from("target").join("rtcompare"),
    }
}

pub(super) fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

pub(super) fn write_json(path: &Path, report: &Report) -> crate::error::Result<()> {
    let io = |e: std::io::Error| Error::io(path, e);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(path, report.to_json()?).map_err(io)
}
