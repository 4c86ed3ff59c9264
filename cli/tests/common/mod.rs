//! What the command's integration tests share: running the binary in a directory, and a
//! temporary directory removed when dropped.

#![allow(dead_code)] // each test binary uses its own part of it

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `rtcompare` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_rtcompare");

/// Runs `rtcompare ARGS` in `dir` with stdin from `/dev/null`.
pub fn rtcompare(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the rtcompare binary runs")
}

/// [`rtcompare`] without `CARGO_TARGET_DIR` in its environment: where `cmd` keeps its history
/// depends on it, and the test's own cargo may have set it.
pub fn rtcompare_in_project(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .stdin(Stdio::null())
        .output()
        .expect("the rtcompare binary runs")
}

/// Bytes of an output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh directory under the system's temporary directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// `rtcompare-<name>-<pid>`, emptied first.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("rtcompare-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `git ARGS` in `dir` as a fixed committer; panics with git's stderr when it fails.
/// Returns its stdout.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=rtcompare",
            "-c",
            "user.email=rtcompare@example.invalid",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `rtcompare bench ARGS` in the scratch crate `dir` as the bench tests run it: builds under
/// `dir/tgt` (a relative `CARGO_TARGET_DIR`, as CI jobs often set it), no step summary of the
/// test's own CI, stdin from `/dev/null`.
pub fn rtcompare_bench(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("bench")
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", "tgt")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .output()
        .expect("the rtcompare binary runs")
}
