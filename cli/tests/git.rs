//! `rtcompare git`: a pristine baseline in a temporary worktree, removed afterwards, also when
//! the build fails.

mod common;
use common::git;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_rtcompare");

/// A repository with one commit whose `run.sh` sleeps 20 ms, and a working-tree change to
/// 40 ms. Removed on drop.
struct Repo(PathBuf);

impl Repo {
    fn new(name: &str) -> Repo {
        let dir = std::env::temp_dir().join(format!("rtcompare-git-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        git(&dir, &["init", "--quiet"]);
        std::fs::write(dir.join("run.sh"), "sleep 0.02\n").unwrap();
        git(&dir, &["add", "run.sh"]);
        git(&dir, &["commit", "--quiet", "-m", "baseline"]);
        std::fs::write(dir.join("run.sh"), "sleep 0.04\n").unwrap();
        Repo(dir)
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn rtcompare(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn worktrees(dir: &Path) -> usize {
    git(dir, &["worktree", "list", "--porcelain"])
        .lines()
        .filter(|l| l.starts_with("worktree "))
        .count()
}

#[test]
fn the_baseline_is_pristine_and_its_worktree_is_removed() {
    let repo = Repo::new("ok");
    let json = repo.0.join("r.json");
    let o = rtcompare(
        &repo.0,
        &[
            "git",
            "--build",
            "test -f run.sh",
            "--run",
            "sh run.sh",
            "--runs",
            "4",
            "--warmup",
            "0",
            "--no-validation",
            "--fail-on-regression",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("pristine baseline HEAD"), "{out}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    // The uncommitted 40 ms patch is B only: the baseline was checked out clean.
    assert_eq!(v["comparisons"][0]["verdict"]["outcome"], "loss");
    assert_eq!(v["git"]["dirty"], true);
    assert_eq!(v["git"]["base_commit"], v["git"]["head_commit"]);
    let tree = PathBuf::from(v["git"]["baseline_tree"].as_str().unwrap());
    assert!(!tree.exists(), "{} was left behind", tree.display());
    assert_eq!(worktrees(&repo.0), 1);
}

#[test]
fn a_failing_build_names_its_tree_and_removes_the_worktree() {
    let repo = Repo::new("fail");
    // The build fails in the baseline (no marker file there), after the worktree was made.
    std::fs::write(repo.0.join("marker"), "").unwrap();
    let o = rtcompare(
        &repo.0,
        &["git", "--build", "test -f marker", "--run", "sh run.sh"],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("the build in the baseline tree"), "{err}");
    assert_eq!(worktrees(&repo.0), 1);
    let leftovers = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("rtcompare-baseline-{}-", o_pid(&err)))
        })
        .count();
    assert_eq!(leftovers, 0);
}

/// The process id of the run from its "building the baseline tree in …" line (0 if absent).
fn o_pid(err: &str) -> String {
    err.split("rtcompare-baseline-")
        .nth(1)
        .and_then(|rest| rest.split('-').next())
        .unwrap_or("0")
        .to_owned()
}

#[test]
fn a_bad_base_is_a_usage_error() {
    let repo = Repo::new("badref");
    let o = rtcompare(
        &repo.0,
        &[
            "git",
            "--build",
            "true",
            "--run",
            "true",
            "--base",
            "no-such-ref",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-ref"));
    assert_eq!(worktrees(&repo.0), 1);
}

/// `rtcompare git` run in `dir` with `envs` set and `unset` removed from its environment.
fn rtcompare_env(dir: &Path, args: &[&str], envs: &[(&str, &str)], unset: &[&str]) -> Output {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .envs(envs.iter().copied());
    for key in unset {
        command.env_remove(key);
    }
    command.output().unwrap()
}

#[test]
fn bad_flags_fail_before_any_checkout_or_build() {
    let repo = Repo::new("badflag");
    for (bad, message) in [
        (&["--runs", "1"][..], "--runs 1 is too few"),
        (&["--max-runs", "5"][..], "--max-runs 5"),
        (
            &["--prepare", "echo 'open", "--shell", "none"][..],
            "unbalanced",
        ),
    ] {
        let args = [
            &["git", "--build", "touch built", "--run", "sh run.sh"][..],
            bad,
        ]
        .concat();
        let o = rtcompare(&repo.0, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {err}");
        assert!(err.contains(message), "{bad:?}: {err}");
        assert!(!err.contains("building"), "{bad:?}: {err}");
        assert!(!repo.0.join("built").exists(), "{bad:?}: a build ran");
        assert_eq!(worktrees(&repo.0), 1);
    }
}

#[test]
fn two_revisions_are_compared_each_in_its_own_worktree_and_target_dir() {
    let repo = Repo::new("head");
    // A cargo project at the top, so `./target` in each checked-out tree links to its own
    // target directory; the build imitates cargo by writing into `$CARGO_TARGET_DIR`.
    std::fs::write(repo.0.join("Cargo.toml"), "").unwrap();
    git(&repo.0, &["add", "Cargo.toml"]);
    git(&repo.0, &["commit", "--quiet", "--amend", "--no-edit"]);
    git(&repo.0, &["add", "run.sh"]);
    git(&repo.0, &["commit", "--quiet", "-m", "head"]);
    git(&repo.0, &["tag", "v2"]);
    // Neither commit is the working tree: a run of it would fail.
    std::fs::write(repo.0.join("run.sh"), "exit 3\n").unwrap();
    let targets = repo.0.join("targets");
    let log = repo.0.join("build.log");
    let build = format!(
        "echo \"$CARGO_TARGET_DIR\" >> {log} && mkdir -p \"$CARGO_TARGET_DIR/release\" && \
         cp run.sh \"$CARGO_TARGET_DIR/release/app\"",
        log = log.display()
    );
    let json = repo.0.join("r.json");
    let o = rtcompare_env(
        &repo.0,
        &[
            "git",
            "--build",
            &build,
            "--run",
            "sh target/release/app",
            "--base",
            "HEAD~1",
            "--head",
            "v2",
            "--runs",
            "4",
            "--warmup",
            "0",
            "--no-validation",
            "--fail-on-regression",
            "--json",
            json.to_str().unwrap(),
        ],
        &[("CARGO_TARGET_DIR", targets.to_str().unwrap())],
        &[],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["comparisons"][0]["verdict"]["outcome"], "loss");
    let g = &v["git"];
    assert_eq!(
        g["base_commit"],
        git(&repo.0, &["rev-parse", "HEAD~1"]).trim()
    );
    assert_eq!(g["head_commit"], git(&repo.0, &["rev-parse", "v2"]).trim());
    assert_eq!(
        (&g["base_ref"], &g["head_ref"]),
        (&"HEAD~1".into(), &"v2".into())
    );
    assert_eq!(g["dirty"], false);
    for tree in ["baseline_tree", "head_tree"] {
        let tree = PathBuf::from(g[tree].as_str().unwrap());
        assert!(!tree.exists(), "{} was left behind", tree.display());
    }
    assert_eq!(worktrees(&repo.0), 1);
    // Each build had its own target directory, and both are kept for the next run.
    let own = targets.join("rtcompare");
    let (base, head) = (own.join("git-base"), own.join("git-head"));
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!("{}\n{}\n", base.display(), head.display())
    );
    let app = |dir: &Path| std::fs::read_to_string(dir.join("release/app")).unwrap();
    assert_eq!(
        (app(&base), app(&head)),
        ("sleep 0.02\n".into(), "sleep 0.04\n".into())
    );
}

#[test]
fn the_working_tree_builds_with_the_users_environment() {
    let repo = Repo::new("env");
    let log = repo.0.join("build.log");
    let build = format!("echo \"$CARGO_TARGET_DIR\" >> {}", log.display());
    let o = rtcompare_env(
        &repo.0,
        &[
            "git",
            "--build",
            &build,
            "--run",
            "true",
            "--runs",
            "2",
            "--warmup",
            "0",
            "--no-validation",
        ],
        &[],
        &["CARGO_TARGET_DIR"],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let top = std::fs::canonicalize(&repo.0).unwrap();
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!("{}\n\n", top.join("target/rtcompare/git-base").display())
    );
    // Nothing links or creates a `target` outside a cargo project.
    assert!(!repo.0.join("target").exists());
}

#[test]
fn submodules_come_along_into_the_worktree() {
    let sub = Repo::new("sub");
    git(&sub.0, &["add", "run.sh"]);
    git(&sub.0, &["commit", "--quiet", "-m", "sub"]);
    let repo = Repo::new("super");
    let file_ok = ["-c", "protocol.file.allow=always"];
    let add = [
        &file_ok[..],
        &["submodule", "add", "--quiet"],
        &[sub.0.to_str().unwrap(), "sub"],
    ]
    .concat();
    git(&repo.0, &add);
    git(&repo.0, &["commit", "--quiet", "-m", "with a submodule"]);
    // git refuses local submodule clones unless told otherwise (CVE-2022-39253); the user's
    // configuration reaches rtcompare's git through the environment.
    let allow_file = [
        ("GIT_CONFIG_COUNT", "1"),
        ("GIT_CONFIG_KEY_0", "protocol.file.allow"),
        ("GIT_CONFIG_VALUE_0", "always"),
    ];
    let args = [
        "git",
        "--build",
        "test -f sub/run.sh",
        "--run",
        "true",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--no-validation",
    ];
    let o = rtcompare_env(&repo.0, &args, &allow_file, &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(worktrees(&repo.0), 1);
    // Without the permission the submodule cannot be cloned: an error naming the revision.
    let o = rtcompare_env(&repo.0, &args, &[], &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let head = git(&repo.0, &["rev-parse", "HEAD"]);
    assert!(
        err.contains(&format!("submodules of the baseline {}", head.trim())),
        "{err}"
    );
    assert!(!err.contains("building"), "{err}");
    assert_eq!(worktrees(&repo.0), 1);
}

/// Unix only (a hook that signals its process group); `platform_skips.rs` says so elsewhere.
#[test]
#[cfg(unix)]
fn ctrl_c_during_the_checkout_is_an_interruption() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;

    let repo = Repo::new("sigint");
    // `git worktree add` runs the post-checkout hook: it sends SIGINT to its whole process
    // group, as Ctrl-C at a terminal would (rtcompare, git and the hook).
    let hook = repo.0.join(".git/hooks/post-checkout");
    std::fs::write(&hook, "#!/bin/sh\nkill -INT 0\n").unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let o = Command::new(BIN)
        .args(["git", "--build", "touch built", "--run", "true"])
        .current_dir(&repo.0)
        .stdin(Stdio::null())
        // A group of its own, so that the hook's SIGINT cannot reach the test harness.
        .process_group(0)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(!repo.0.join("built").exists());
    assert_eq!(worktrees(&repo.0), 1);
}
