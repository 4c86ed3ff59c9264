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
use std::path::{Path, PathBuf};

use rtcompare::support::bench::{Revisions, TempWorktree};

use crate::cli::GitArgs;
use crate::commands::Pair;
use crate::error::{CliError, Result};
use crate::process::{Runner, Shell};
use crate::result::{CmdResult, GitInfo};
use crate::session;
use crate::signals;

/// A failure of the library's git steps as the tool reports it: an interruption is one, the
/// rest quote git.
fn git_error(e: rtcompare::Error) -> CliError {
    match e {
        rtcompare::Error::Cancelled { .. } => CliError::Interrupted,
        other => CliError::Usage(other.to_string()),
    }
}

/// The working tree's target directory: `$CARGO_TARGET_DIR` (relative to `cwd`, as cargo reads
/// it) when set, else `target` at the repository's top.
fn working_target(cwd: &Path, top: &Path) -> PathBuf {
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
    #[cfg(unix)]
    let linked = std::os::unix::fs::symlink(own, &link);
    // Windows lets only some accounts make links (administrators, or developer mode): a tree
    // without its `target` link still builds; only a run command naming `target/` misses it.
    #[cfg(windows)]
    let linked = std::os::windows::fs::symlink_dir(own, &link).or_else(|e| {
        eprintln!(
            "could not link {} to {}: {e}",
            link.display(),
            own.display()
        );
        Ok(())
    });
    #[cfg(not(any(unix, windows)))]
    let linked: std::io::Result<()> = Ok(());
    linked.map_err(|source| CliError::File {
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

/// Checks the baseline's commit out of the repository at `top` into a temporary worktree, and
/// the head too when it is a revision (`head_rev`); returns their guards, which remove the
/// worktrees when dropped. Errors: [`CliError::Interrupted`] after a signal, else git's.
fn check_out(
    top: &Path,
    base_commit: &str,
    head_rev: Option<&str>,
) -> Result<(TempWorktree, Option<TempWorktree>)> {
    if signals::interrupted() {
        return Err(CliError::Interrupted);
    }
    let base_tree = TempWorktree::add_as(top, base_commit, "baseline").map_err(git_error)?;
    let head_tree = head_rev
        .map(|c| TempWorktree::add_as(top, c, "head"))
        .transpose()
        .map_err(git_error)?;
    Ok((base_tree, head_tree))
}

/// The trees a comparison runs its commands in, checked out and built.
struct Trees {
    /// The baseline's worktree, removed when dropped.
    base: TempWorktree,
    /// The head's worktree; `None`: the head is the working tree.
    head: Option<TempWorktree>,
    /// Where the commands run in the baseline's tree.
    base_dir: PathBuf,
    /// Where the commands run in the head's tree (the current directory for the working tree).
    head_dir: PathBuf,
}

/// Checks out the revisions `resolved` names and builds them with `build_argv`, the baseline
/// first, then the head (in the working tree when it has no revision); returns the trees, whose
/// worktrees are removed when dropped, on an error too.
fn check_out_and_build(
    args: &GitArgs,
    build_argv: &[OsString],
    cwd: &Path,
    resolved: &Revisions,
) -> Result<Trees> {
    let top = &resolved.top;
    // Beneath the working tree's target directory, one for each checked-out tree: kept between
    // runs so that a rebuild is incremental, never shared between the two builds of one run.
    let own_target = working_target(cwd, top).join("rtcompare");
    let (base_target, head_target) = (own_target.join("git-base"), own_target.join("git-head"));
    let head_rev = resolved.head_rev.as_deref();
    // Both runners (and their watchdogs) before any checkout: if one cannot start, nothing has
    // been checked out in vain.
    let base_runner = Runner::for_builds()?.env("CARGO_TARGET_DIR", &base_target);
    let head_runner = match head_rev {
        Some(_) => Runner::for_builds()?.env("CARGO_TARGET_DIR", &head_target),
        None => Runner::for_builds()?,
    };
    let (base, head) = check_out(top, &resolved.base_commit, head_rev)?;
    // The same place relative to the top in every tree, so relative paths in the commands work.
    let rel = cwd.strip_prefix(top).unwrap_or(Path::new(""));
    let base_dir = base.path().join(rel);
    let head_dir = head
        .as_ref()
        .map_or_else(|| cwd.to_path_buf(), |t| t.path().join(rel));

    link_target(base.path(), &base_target)?;
    build(
        &base_runner,
        build_argv,
        &args.build,
        &base_dir,
        "baseline tree",
    )?;
    match &head {
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
        None => build(&head_runner, build_argv, &args.build, cwd, "working tree")?,
    }
    // Their watchdog threads are not needed while the comparison runs.
    drop((base_runner, head_runner));
    Ok(Trees {
        base,
        head,
        base_dir,
        head_dir,
    })
}

/// Runs `rtcompare git` from the current directory's repository, building with `build_argv`
/// (the build command as [`check`] split it).
pub(crate) fn run(args: &GitArgs, build_argv: &[OsString]) -> Result<CmdResult> {
    let cwd = std::env::current_dir().map_err(|source| CliError::System {
        call: "getcwd",
        source,
    })?;
    let resolved = Revisions::resolve(&cwd, &args.base, args.head.as_deref()).map_err(git_error)?;
    let Trees {
        base,
        head,
        base_dir,
        head_dir,
    } = check_out_and_build(args, build_argv, &cwd, &resolved)?;

    let pair = Pair {
        baseline: &args.run,
        candidate: &args.run,
        dirs: [Some(&base_dir), Some(&head_dir)],
        inject: [std::time::Duration::ZERO; 2],
    };
    let mut result = session::run(&pair, &args.options)?;
    result.git = Some(GitInfo {
        base_ref: args.base.clone(),
        base_commit: resolved.base_commit,
        head_ref: args.head.clone(),
        head_commit: resolved.head_commit,
        dirty: resolved.dirty,
        baseline_tree: base.path().into(),
        head_tree: head.as_ref().map(|t| t.path().into()),
        working_tree: resolved.top,
    });
    Ok(result)
}
