//! The two revisions in git: resolving them, and checking each out pristine into a temporary
//! worktree that is removed on every path (success, error, Ctrl-C).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::{Error, Result};

/// `git` with `args` in `dir`, stdin from `/dev/null`.
fn git_command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new("git");
    command.args(args).current_dir(dir).stdin(Stdio::null());
    command
}

/// Whether a child's status says it died from SIGINT (Ctrl-C at the terminal reached it).
#[cfg(unix)]
fn by_ctrl_c(status: &std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    status.signal() == Some(libc::SIGINT)
}

#[cfg(not(unix))]
fn by_ctrl_c(_: &std::process::ExitStatus) -> bool {
    false
}

/// Runs `git` with `args` in `dir` and returns its trimmed stdout. Errors: [`Error::Git`]
/// quoting git's stderr; [`Error::Cancelled`] when git died from Ctrl-C.
///
/// git stays in this process's group, so Ctrl-C at the terminal reaches it directly and a slow
/// checkout stops at once.
pub fn git(dir: &Path, args: &[&str]) -> Result<String> {
    let command = format!("git {}", args.join(" "));
    let out = git_command(dir, args).output().map_err(|e| Error::Git {
        command: command.clone(),
        reason: format!("cannot start git: {e}"),
    })?;
    if by_ctrl_c(&out.status) {
        return Err(Error::Cancelled {
            stage: "checking out",
            elapsed: std::time::Duration::ZERO,
        });
    }
    if !out.status.success() {
        return Err(Error::Git {
            command,
            reason: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Runs `git` with `args` in `dir` for cleaning up, ignoring its outcome, in a process group of
/// its own so that a second Ctrl-C cannot cut the removal of a worktree short.
fn git_cleanup(dir: &Path, args: &[&str]) {
    let mut command = git_command(dir, args);
    command.stdout(Stdio::null()).stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let _ = command.status();
}

/// A worktree in a temporary directory, removed (with `git worktree remove --force`, then the
/// directory itself, then `git worktree prune`) when dropped.
#[derive(Debug)]
pub struct TempWorktree {
    repo: PathBuf,
    path: PathBuf,
}

impl TempWorktree {
    /// Checks `commit` out, detached, into a new directory `rtcompare-ROLE-PID-NANOS` under the
    /// system's temporary directory, with its submodules (recursively) when it has any.
    /// Errors: git's ([`Error::Git`], a failing submodule checkout naming `role` and `commit`),
    /// and [`Error::Cancelled`]; the directory is removed on every one of them.
    pub fn add_as(repo: &Path, commit: &str, role: &str) -> Result<TempWorktree> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "rtcompare-{role}-{}-{nanos:09}",
            std::process::id()
        ));
        // The guard exists before git starts, so a checkout that fails or is interrupted half
        // way is removed too.
        let tree = TempWorktree {
            repo: repo.into(),
            path,
        };
        let p = tree.path.to_string_lossy().into_owned();
        git(
            repo,
            &["worktree", "add", "--detach", "--quiet", &p, commit],
        )?;
        // `worktree add` leaves submodule directories empty; a build that needs them would
        // fail, or worse, build without them.
        if tree.path.join(".gitmodules").exists() {
            git(
                &tree.path,
                &["submodule", "update", "--init", "--recursive", "--quiet"],
            )
            .map_err(|e| match e {
                Error::Git { command, reason } => Error::Git {
                    command,
                    reason: format!(
                        "cannot check out the submodules of the {role} {commit}: {reason}"
                    ),
                },
                other => other,
            })?;
        }
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
        git_cleanup(&self.repo, &["worktree", "remove", "--force", &p]);
        // `remove_dir_all` does not follow symbolic links, so a `target` link into the
        // working tree's target directory goes and what it points to stays.
        let _ = std::fs::remove_dir_all(&self.path);
        git_cleanup(&self.repo, &["worktree", "prune"]);
    }
}

/// The two revisions a comparison names, resolved in the repository around a directory: the
/// baseline's commit, and the head's (a given revision's, or the working tree's `HEAD` with
/// whether it has uncommitted changes).
#[derive(Debug, Clone)]
pub struct Revisions {
    /// The repository's top directory.
    pub top: PathBuf,
    /// The baseline's commit id.
    pub base_commit: String,
    /// The head's commit id when given as a revision; `None`: the head is the working tree.
    pub head_rev: Option<String>,
    /// The head's commit id (the working tree's `HEAD` without a head revision).
    pub head_commit: String,
    /// Whether the head is the working tree with uncommitted changes.
    pub dirty: bool,
}

impl Revisions {
    /// Resolves `base` and `head` (any commit-ish) in the repository around `dir`. Errors:
    /// [`Error::Git`] naming the revision that does not resolve, or saying that `dir` is not
    /// in a git repository.
    pub fn resolve(dir: &Path, base: &str, head: Option<&str>) -> Result<Revisions> {
        let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
        let commit = |rev: &str| {
            git(
                &top,
                &[
                    "rev-parse",
                    "--verify",
                    "--quiet",
                    &format!("{rev}^{{commit}}"),
                ],
            )
            .map_err(|e| match e {
                Error::Git { command, .. } => Error::Git {
                    command,
                    reason: format!(
                        "{rev:?} names no commit of this repository: the baseline is a git \
                         revision (a branch, a tag, a commit id or HEAD~1); with a shallow \
                         clone, fetch the history it needs first (fetch-depth: 0)"
                    ),
                },
                other => other,
            })
        };
        let base_commit = commit(base)?;
        let head_rev = head.map(commit).transpose()?;
        let (head_commit, dirty) = match &head_rev {
            Some(c) => (c.clone(), false),
            None => (
                git(&top, &["rev-parse", "HEAD"])?,
                !git(&top, &["status", "--porcelain"])?.is_empty(),
            ),
        };
        Ok(Revisions {
            top,
            base_commit,
            head_rev,
            head_commit,
            dirty,
        })
    }
}
