//! `rtcompare git`: the working tree, or a second revision, against a **pristine baseline**.
//!
//! Every flag is checked first, so that a mistake costs no checkout and no build. The baseline
//! is checked out from REF (default `HEAD`) into a fresh worktree in a temporary directory, so
//! the working tree's uncommitted patch can never become part of its own baseline; with
//! `--head REV` the head gets a temporary worktree of its own too, else it is the working tree.
//! Submodules are checked out in each temporary worktree. The build command runs in the
//! baseline tree and then in the head; in a checked-out tree with `CARGO_TARGET_DIR` set to a
//! directory of its own under the working tree's target directory, so that the two builds
//! cannot overwrite each other and the next run's rebuild is incremental. Then `cmd` compares
//! the run command in each (A: baseline, B: head). The worktrees are removed when the
//! comparison ends, fails, or is interrupted (Ctrl-C, SIGTERM): their guards remove them on
//! drop, and every error path returns through that drop.

use std::ffi::OsString;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cli::GitArgs;
use crate::commands::Pair;
use crate::error::{CliError, Result};
use crate::process::{Runner, Shell};
use crate::result::{CmdResult, GitInfo};
use crate::session;
use crate::signals;

/// `git` with `args` in `dir`, stdin from `/dev/null`.
fn git_command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new("git");
    command.args(args).current_dir(dir).stdin(Stdio::null());
    command
}

/// Runs `git` with `args` in `dir` and returns its trimmed stdout. Errors: a failure is a usage
/// error that quotes git's stderr; [`CliError::Interrupted`] when SIGINT or SIGTERM arrived
/// before or while it ran, or git died from SIGINT.
///
/// git stays in this process's group, so Ctrl-C at the terminal reaches it directly and a slow
/// checkout stops at once; it ends by SIGINT then, which is an interruption, not a git error.
pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<String> {
    if signals::interrupted() {
        return Err(CliError::Interrupted);
    }
    let out = git_command(dir, args)
        .output()
        .map_err(|source| CliError::Spawn {
            name: "git".into(),
            command: format!("git {}", args.join(" ")),
            source,
        })?;
    if signals::interrupted() || out.status.signal() == Some(libc::SIGINT) {
        return Err(CliError::Interrupted);
    }
    if !out.status.success() {
        return Err(CliError::Usage(format!(
            "`git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Runs `git` with `args` in `dir` for cleaning up, ignoring its outcome. Unlike [`git`] it
/// runs after an interruption too, and in a process group of its own, so that a second Ctrl-C
/// cannot cut the removal of a worktree short.
fn git_cleanup(dir: &Path, args: &[&str]) {
    let _ = git_command(dir, args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .status();
}

/// A worktree in a temporary directory, removed (with `git worktree remove --force`, then the
/// directory itself, then `git worktree prune`) when dropped.
pub struct TempWorktree {
    repo: PathBuf,
    path: PathBuf,
}

impl TempWorktree {
    /// Checks `commit` out, detached, into a new directory `rtcompare-ROLE-PID-NANOS` under the
    /// system's temporary directory, with its submodules (recursively) when it has any.
    /// Errors: git's failures (a failing submodule checkout names `role` and `commit`), and
    /// [`CliError::Interrupted`]; the directory is removed on every one of them.
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
                CliError::Usage(reason) => CliError::Usage(format!(
                    "cannot check out the submodules of the {role} {commit}: {reason}"
                )),
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
        // `remove_dir_all` does not follow symbolic links, so the `target` link into the
        // working tree's target directory goes and what it points to stays.
        let _ = std::fs::remove_dir_all(&self.path);
        git_cleanup(&self.repo, &["worktree", "prune"]);
    }
}

/// The two revisions a comparison of trees names, resolved in the repository around a
/// directory: the baseline's commit, and the head's (`--head`'s, or the working tree's `HEAD`
/// with whether it has uncommitted changes).
pub(crate) struct Revisions {
    /// The repository's top directory.
    pub(crate) top: PathBuf,
    /// The baseline's commit id.
    pub(crate) base_commit: String,
    /// The head's commit id when given as a revision; `None`: the head is the working tree.
    pub(crate) head_rev: Option<String>,
    /// The head's commit id (the working tree's `HEAD` without a head revision).
    pub(crate) head_commit: String,
    /// Whether the head is the working tree with uncommitted changes.
    pub(crate) dirty: bool,
}

impl Revisions {
    /// Resolves `base` and `head` (any commit-ish) in the repository around `cwd`. Errors:
    /// git's, naming the revision that does not resolve.
    pub(crate) fn resolve(cwd: &Path, base: &str, head: Option<&str>) -> Result<Revisions> {
        let top = PathBuf::from(git(cwd, &["rev-parse", "--show-toplevel"])?);
        let commit = |rev: &str| {
            git(
                &top,
                &["rev-parse", "--verify", &format!("{rev}^{{commit}}")],
            )
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

/// The working tree's target directory: `$CARGO_TARGET_DIR` (relative to `cwd`, as cargo reads
/// it) when set, else `target` at the repository's top.
pub(crate) fn working_target(cwd: &Path, top: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => cwd.join(dir),
        _ => top.join("target"),
    }
}

/// In a checked-out tree that is a cargo project at its top and has no `target` of its own,
/// makes `target` a link to `own` (created if missing), the target directory its build gets
/// through `CARGO_TARGET_DIR`: a run command such as `./target/release/app` then finds that
/// build's output, as it would in the working tree. Other trees are left alone, so that no
/// `target` directory appears in a project that has no use for one.
fn link_target(tree: &Path, own: &Path) -> Result<()> {
    let link = tree.join("target");
    if !tree.join("Cargo.toml").is_file() || link.symlink_metadata().is_ok() {
        return Ok(());
    }
    std::fs::create_dir_all(own).map_err(|source| CliError::File {
        action: "create",
        path: own.into(),
        source,
    })?;
    std::os::unix::fs::symlink(own, &link).map_err(|source| CliError::File {
        action: "create",
        path: link,
        source,
    })
}

/// Builds with `argv` (the build command `command`) in `dir`; a failure names the tree.
fn build(runner: &Runner, argv: &[OsString], command: &str, dir: &Path, tree: &str) -> Result<()> {
    eprintln!("building the {tree} in {}: {command}", dir.display());
    match runner.run(argv, Some(dir), None) {
        Ok(m) if m.success() => Ok(()),
        Ok(m) => Err(CliError::Failed {
            name: format!("the build in the {tree} ({})", dir.display()),
            command: command.into(),
            status: m.status_text(),
            hint: String::new(),
        }),
        Err(f) => Err(f.into_error(format!("the build in the {tree}"), command.into(), 0.0)),
    }
}

/// Checks the commands and hooks the way the comparison will split them, so that a mistake is
/// reported before anything is checked out or built rather than after two builds; returns the
/// build command's argument vector ([`crate::plan`] checks the rest of the flags).
pub(crate) fn check(args: &GitArgs) -> Result<Vec<OsString>> {
    let o = &args.options;
    let shell = Shell::parse(if o.no_shell { "none" } else { &o.shell })?;
    shell.argv(&args.run)?;
    if o.prepare.len() > 2 {
        return Err(CliError::Usage(format!(
            "{} --prepare for the two trees: give one for both, or one per tree (base first)",
            o.prepare.len()
        )));
    }
    for hook in o
        .prepare
        .iter()
        .chain(&o.setup)
        .chain(&o.conclude)
        .chain(&o.cleanup)
    {
        shell.argv(hook)?;
    }
    shell.argv(&args.build)
}

/// Runs `rtcompare git` from the current directory's repository, building with `build_argv`
/// (the build command as [`check`] split it).
pub(crate) fn run(args: &GitArgs, build_argv: &[OsString]) -> Result<CmdResult> {
    let cwd = std::env::current_dir().map_err(|source| CliError::System {
        call: "getcwd",
        source,
    })?;
    let Revisions {
        top,
        base_commit,
        head_rev,
        head_commit,
        dirty,
    } = Revisions::resolve(&cwd, &args.base, args.head.as_deref())?;
    // Beneath the working tree's target directory, one for each checked-out tree: kept between
    // runs so that a rebuild is incremental, never shared between the two builds of one run.
    let own_target = working_target(&cwd, &top).join("rtcompare");
    let (base_target, head_target) = (own_target.join("git-base"), own_target.join("git-head"));
    // Both runners (and their watchdogs) before any checkout: if one cannot start, nothing has
    // been checked out in vain.
    let base_runner = Runner::for_builds()?.env("CARGO_TARGET_DIR", &base_target);
    let head_runner = match head_rev {
        Some(_) => Runner::for_builds()?.env("CARGO_TARGET_DIR", &head_target),
        None => Runner::for_builds()?,
    };

    let base_tree = TempWorktree::add_as(&top, &base_commit, "baseline")?;
    let head_tree = head_rev
        .as_deref()
        .map(|c| TempWorktree::add_as(&top, c, "head"))
        .transpose()?;
    // The same place relative to the top in every tree, so relative paths in the commands work.
    let rel = cwd.strip_prefix(&top).unwrap_or(Path::new(""));
    let base_dir = base_tree.path().join(rel);
    let head_dir = head_tree
        .as_ref()
        .map_or_else(|| cwd.clone(), |t| t.path().join(rel));

    link_target(base_tree.path(), &base_target)?;
    build(
        &base_runner,
        build_argv,
        &args.build,
        &base_dir,
        "baseline tree",
    )?;
    match &head_tree {
        Some(tree) => {
            link_target(tree.path(), &head_target)?;
            build(
                &head_runner,
                build_argv,
                &args.build,
                &head_dir,
                "head tree",
            )?;
        }
        None => build(&head_runner, build_argv, &args.build, &cwd, "working tree")?,
    }
    // Their watchdog threads are not needed while the comparison runs.
    drop((base_runner, head_runner));

    let pair = Pair {
        baseline: &args.run,
        candidate: &args.run,
        dirs: [Some(&base_dir), Some(&head_dir)],
        inject: [std::time::Duration::ZERO; 2],
    };
    let mut result = session::run(&pair, &args.options)?;
    result.git = Some(GitInfo {
        base_ref: args.base.clone(),
        base_commit,
        head_ref: args.head.clone(),
        head_commit,
        dirty,
        baseline_tree: base_tree.path().into(),
        head_tree: head_tree.as_ref().map(|t| t.path().into()),
        working_tree: top,
    });
    Ok(result)
}
