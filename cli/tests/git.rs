//! `rtcompare git`: a pristine baseline in a temporary worktree, removed afterwards, also when
//! the build fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_rtcompare");

fn git(dir: &Path, args: &[&str]) -> String {
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
    assert_eq!(v["verdict"]["outcome"], "loss");
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
