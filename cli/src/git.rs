//! `rtcompare git`: the working tree against a **pristine baseline**.
//!
//! The baseline is checked out from REF (default `HEAD`) into a fresh worktree in a temporary
//! directory, so the working tree's uncommitted patch can never become part of its own
//! baseline. The build command runs in the baseline tree and then in the working tree; then
//! `cmd` compares the run command in each (A: baseline, B: working tree). The worktree is
//! removed when the comparison ends, fails, or is interrupted (Ctrl-C, SIGTERM): its guard
//! removes it on drop, and every error path returns through that drop.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};

use crate::cli::GitArgs;
use crate::error::{CliError, Result};
use crate::process::{RunFailure, Runner, Shell};
use crate::result::CmdResult;
use crate::session;

/// What the JSON result records about the two trees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GitInfo {
    /// `--base` as given.
    pub base_ref: String,
    /// The baseline's commit id (A).
    pub base_commit: String,
    /// The working tree's `HEAD` commit id (B is this plus any uncommitted changes).
    pub head_commit: String,
    /// Whether the working tree had uncommitted changes (tracked or untracked files).
    pub dirty: bool,
    /// The temporary worktree the baseline was built in (removed afterwards).
    pub baseline_tree: PathBuf,
    /// The working tree's top directory.
    pub working_tree: PathBuf,
}

/// Runs `git` with `args` in `dir` and returns its trimmed stdout; a failure is a usage error
/// that quotes git's stderr.
pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| CliError::Spawn {
            name: "git".into(),
            command: format!("git {}", args.join(" ")),
            source,
        })?;
    if !out.status.success() {
        return Err(CliError::Usage(format!(
            "`git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// A worktree in a temporary directory, removed (with `git worktree remove --force`, then the
/// directory itself, then `git worktree prune`) when dropped.
pub struct TempWorktree {
    repo: PathBuf,
    path: PathBuf,
}

impl TempWorktree {
    /// Checks `commit` out, detached, into a new directory under the system's temporary
    /// directory.
    pub fn add(repo: &Path, commit: &str) -> Result<TempWorktree> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "rtcompare-baseline-{}-{nanos:09}",
            std::process::id()
        ));
        let tree = TempWorktree {
            repo: repo.into(),
            path,
        };
        let p = tree.path.to_string_lossy().into_owned();
        git(
            repo,
            &["worktree", "add", "--detach", "--quiet", &p, commit],
        )?;
        Ok(tree)
    }

    /// The worktree's directory.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempWorktree {
    fn drop(&mut self) {
        let p = self.path.to_string_lossy().into_owned();
        let _ = git(&self.repo, &["worktree", "remove", "--force", &p]);
        let _ = std::fs::remove_dir_all(&self.path);
        let _ = git(&self.repo, &["worktree", "prune"]);
    }
}

/// Builds with `build` in `dir`; a failure names the tree.
fn build(runner: &Runner, shell: &Shell, command: &str, dir: &Path, tree: &str) -> Result<()> {
    let argv = shell.argv(command)?;
    eprintln!("building the {tree} in {}: {command}", dir.display());
    match runner.run(&argv, Some(dir), None) {
        Ok(m) if m.success() => Ok(()),
        Ok(m) => Err(CliError::Failed {
            name: format!("the build in the {tree} ({})", dir.display()),
            command: command.into(),
            status: m.status_text(),
            hint: String::new(),
        }),
        Err(RunFailure::Interrupted) => Err(CliError::Interrupted),
        Err(RunFailure::Spawn(source)) => Err(CliError::Spawn {
            name: format!("the build in the {tree}"),
            command: command.into(),
            source,
        }),
        Err(RunFailure::Timeout) => Err(CliError::Timeout {
            name: format!("the build in the {tree}"),
            command: command.into(),
            limit_s: 0.0,
        }),
        Err(RunFailure::System(call, source)) => Err(CliError::System { call, source }),
    }
}

/// Runs `rtcompare git` from the current directory's repository.
pub fn run(args: &GitArgs) -> Result<CmdResult> {
    let cwd = std::env::current_dir().map_err(|source| CliError::System {
        call: "getcwd",
        source,
    })?;
    let top = PathBuf::from(git(&cwd, &["rev-parse", "--show-toplevel"])?);
    let base_commit = git(
        &top,
        &[
            "rev-parse",
            "--verify",
            &format!("{}^{{commit}}", args.base),
        ],
    )?;
    let head_commit = git(&top, &["rev-parse", "HEAD"])?;
    let dirty = !git(&top, &["status", "--porcelain"])?.is_empty();
    let shell = Shell::parse(&args.options.shell)?;

    let tree = TempWorktree::add(&top, &base_commit)?;
    // The same place relative to the top in both trees, so relative paths in the commands work.
    let rel = cwd.strip_prefix(&top).unwrap_or(Path::new(""));
    let base_dir = tree.path().join(rel);
    {
        let runner = Runner::for_builds();
        build(&runner, &shell, &args.build, &base_dir, "baseline tree")?;
        build(&runner, &shell, &args.build, &cwd, "working tree")?;
    }
    let commands = session::Commands {
        a: &args.run,
        b: &args.run,
        dirs: [Some(&base_dir), Some(&cwd)],
        inject: [std::time::Duration::ZERO; 2],
    };
    let mut result = session::run(&commands, &args.options)?;
    result.git = Some(GitInfo {
        base_ref: args.base.clone(),
        base_commit,
        head_commit,
        dirty,
        baseline_tree: tree.path().into(),
        working_tree: top,
    });
    Ok(result)
}
