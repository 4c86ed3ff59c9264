//! `cargo bench --bench NAME -- --baseline REV`: the bench target compares itself at another
//! revision, with no `rtcompare` binary on the machine, in a package of its own and in a virtual
//! workspace's member; and `rtcompare bench` over the same engine gives the same table for the
//! same seed. At the baseline `work` runs 2,000 steps of a dependent chain, at the head 20,000:
//! ten times as many, because on an Intel Xeon guest three code layouts alone moved the
//! 2,000-step chain by ±74 %, and a doubling's interval over three pairs then reached down to
//! a 6 % slowdown, inside the test's 10 % budget (a clean-clone CI run, 2026-12-05).
//!
//! Unix only (the worker protocol that compares two builds is); `platform_skips.rs` says so elsewhere.

#![cfg(unix)]

mod common;
use common::git;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bench_source(steps: u64) -> String {
    format!(
        "use std::hint::black_box;\n\
         fn chain(steps: u64) -> u64 {{\n\
             let mut x = 1u64;\n\
             for _ in 0..black_box(steps) {{\n\
                 x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);\n\
             }}\n\
             black_box(x)\n\
         }}\n\
         fn main() {{\n\
             rtcompare::bench::main(|b| {{\n\
                 b.bench(\"work\", || chain({steps}));\n\
                 b.bench(\"same\", || chain(1_000));\n\
             }});\n\
         }}\n"
    )
}

fn manifest(name: &str, bench: &str, workspace: bool) -> String {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dev-dependencies]\nrtcompare = {{ path = {:?}, default-features = false }}\n\n\
         [[bench]]\nname = \"{bench}\"\nharness = false\n{}",
        lib.display().to_string(),
        if workspace { "\n[workspace]\n" } else { "" }
    )
}

/// A repository with two commits (the head's `work` ten times as slow), cloned fresh; both removed
/// on drop.
struct Repo {
    origin: PathBuf,
    clone: PathBuf,
}

impl Repo {
    /// `packages`: (directory, package, bench target); a virtual workspace when there are
    /// several, the one package at the top otherwise.
    fn new(tag: &str, packages: &[(&str, &str, &str)]) -> Repo {
        let base =
            std::env::temp_dir().join(format!("rtcompare-harness-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let origin = base.join("origin");
        let single = packages.len() == 1;
        if !single {
            let members: Vec<String> = packages.iter().map(|(d, _, _)| format!("{d:?}")).collect();
            std::fs::create_dir_all(&origin).unwrap();
            std::fs::write(
                origin.join("Cargo.toml"),
                format!(
                    "[workspace]\nmembers = [{}]\nresolver = \"2\"\n",
                    members.join(", ")
                ),
            )
            .unwrap();
        }
        let write_benches = |steps: u64| {
            for (dir, _, bench) in packages {
                let d = origin.join(dir);
                std::fs::write(d.join(format!("benches/{bench}.rs")), bench_source(steps)).unwrap();
            }
        };
        for (dir, name, bench) in packages {
            let d = origin.join(dir);
            std::fs::create_dir_all(d.join("benches")).unwrap();
            std::fs::create_dir_all(d.join("src")).unwrap();
            std::fs::write(d.join("Cargo.toml"), manifest(name, bench, single)).unwrap();
            std::fs::write(d.join("src/lib.rs"), "").unwrap();
        }
        write_benches(2_000);
        let lib = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        // The workspace's lock file: the same versions, and no registry index to refresh.
        std::fs::copy(lib.join("Cargo.lock"), origin.join("Cargo.lock")).unwrap();
        std::fs::write(origin.join(".gitignore"), "target\n*.json\n*.md\n").unwrap();
        git(&origin, &["init", "--quiet"]);
        git(&origin, &["add", "."]);
        git(&origin, &["commit", "--quiet", "-m", "baseline"]);
        write_benches(20_000);
        git(
            &origin,
            &["commit", "--quiet", "-am", "work takes ten times as long"],
        );
        let clone = base.join("clone");
        let (o, c) = (origin.display().to_string(), clone.display().to_string());
        git(&base, &["clone", "--quiet", &o, &c]);
        Repo { origin, clone }
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.origin.parent().unwrap());
    }
}

/// One target directory for every scratch crate of these tests: the dependencies are built
/// once.
fn shared_target() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("harness-baseline")
}

/// `PATH` without any directory that holds an `rtcompare` binary.
fn path_without_rtcompare() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| !d.join("rtcompare").exists())
        .collect();
    std::env::join_paths(kept)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// `cargo bench ARGS` in `dir` as a user types it, with no `rtcompare` on `PATH`.
fn cargo_bench(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .arg("bench")
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", shared_target())
        .env("PATH", path_without_rtcompare())
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    eprintln!(
        "cargo bench {args:?} in {}:\n{}\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Each row's name, status and verdict, and the layouts' seeds: what one seed fixes.
fn shape(j: &serde_json::Value) -> (Vec<(String, String, bool, bool)>, serde_json::Value) {
    let rows = j["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
                r["regression"].as_bool().unwrap(),
                r["resolved"].as_bool().unwrap(),
            )
        })
        .collect();
    (rows, j["layouts"]["seeds"].clone())
}

#[test]
fn the_bench_target_gates_a_pull_request_with_nothing_installed() {
    let repo = Repo::new("single", &[(".", "demo", "b")]);
    let out = cargo_bench(
        &repo.clone,
        &[
            "--bench",
            "b",
            "--",
            "--baseline",
            "HEAD~1",
            "--fail-on-regression",
            "10%",
            "--markdown",
            "s.md",
            "--json",
            "s.json",
            "--pairs",
            "3",
            "--layouts",
            "3",
            "--seed",
            "7",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The bench target's exit status is cargo's: 1, the regression.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("SLOWER"), "{stdout}");
    let md = std::fs::read_to_string(repo.clone.join("s.md")).unwrap();
    assert!(md.contains("| `work` |") && md.contains("SLOWER"), "{md}");
    let j = json(&repo.clone.join("s.json"));
    let (rows, seeds) = shape(&j);
    assert_eq!(
        rows[0],
        ("work".into(), "compared".into(), true, true),
        "{rows:?}"
    );
    assert_eq!(rows[1].0, "same");
    assert!(!rows[1].2, "an unchanged benchmark proven slower: {rows:?}");
    assert_eq!(seeds.as_array().unwrap().len(), 3, "{seeds}");
    // The worktree is gone.
    let worktrees = git(&repo.clone, &["worktree", "list"]);
    assert_eq!(worktrees.lines().count(), 1, "{worktrees}");

    // criterion's saved baselines: a name that is no revision is refused before any build,
    // saying what rtcompare does instead; --save-baseline likewise.
    for args in [
        &["--bench", "b", "--", "--baseline", "before-my-change"][..],
        &["--bench", "b", "--", "--save-baseline", "before-my-change"],
    ] {
        let out = cargo_bench(&repo.clone, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("no saved"), "{stderr}");
        assert!(!stderr.contains("building bench"), "{stderr}");
    }
}

#[test]
fn a_virtual_workspace_member_compares_from_the_root_and_from_its_folder() {
    let repo = Repo::new("workspace", &[("app", "app", "b"), ("tools", "tools", "t")]);
    let common = ["--pairs", "3", "--layouts", "3", "--seed", "11"];
    let harness = |dir: &Path, cargo: &[&str], out: &str| {
        let mut args: Vec<&str> = cargo.to_vec();
        args.extend(["--", "--baseline", "HEAD~1", "--json", out]);
        args.extend(common);
        let o = cargo_bench(dir, &args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    // At the root, with -p, the JSON where the command was typed.
    harness(&repo.clone, &["-p", "app", "--bench", "b"], "root.json");
    let root = shape(&json(&repo.clone.join("root.json")));
    assert_eq!(
        root.0[0],
        ("work".into(), "compared".into(), true, true),
        "{root:?}"
    );
    // In the member's folder.
    harness(&repo.clone.join("app"), &["--bench", "b"], "member.json");
    let member = shape(&json(&repo.clone.join("app/member.json")));
    assert_eq!(member, root);
    // The command-line tool over the same engine, at the root with --package: the same table
    // for the same seed (the rows, their verdicts, the layouts' seeds).
    let out = rtcompare_bench_at(
        &repo.clone,
        &[
            "--package",
            "app",
            "--bench",
            "b",
            "--baseline",
            "HEAD~1",
            "--json",
            "cli.json",
        ],
        &common,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(shape(&json(&repo.clone.join("cli.json"))), root);
    // --manifest-path names the member from anywhere; without -p at the root, the bench
    // target picks its package, and a name no package has is refused with the packages.
    let out = rtcompare_bench_at(
        &repo.clone,
        &[
            "--manifest-path",
            "tools/Cargo.toml",
            "--baseline",
            "HEAD~1",
            "--layouts",
            "1",
            "--json",
            "tools.json",
        ],
        &["--pairs", "3", "--seed", "11"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tools = shape(&json(&repo.clone.join("tools.json")));
    assert_eq!(tools.0.len(), 2, "{tools:?}");
    let out = rtcompare_bench_at(&repo.clone, &["--baseline", "HEAD~1"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--package") && stderr.contains("app, tools"),
        "{stderr}"
    );
}

/// `rtcompare bench ARGS MORE` in `dir`, building under the shared target directory.
fn rtcompare_bench_at(dir: &Path, args: &[&str], more: &[&str]) -> Output {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(more);
    Command::new(env!("CARGO_BIN_EXE_rtcompare"))
        .arg("bench")
        .args(&all)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", shared_target())
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A CI runner that cancels a job may signal only the step's top process, cargo: the bench
/// target hears its parent's end as SIGTERM, stops its workers, removes its worktree and still
/// reports what it measured.
#[test]
fn ending_cargo_ends_the_comparison_and_removes_its_worktree() {
    use std::io::{BufRead, BufReader, Read};
    let repo = Repo::new("sigterm", &[(".", "demo", "b")]);
    let mut child = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "bench",
            "--bench",
            "b",
            "--",
            "--baseline",
            "HEAD~1",
            "--pairs",
            "3",
        ])
        .args(["--layouts", "3", "--json", "stopped.json"])
        .current_dir(&repo.clone)
        .env("CARGO_TARGET_DIR", shared_target())
        .env("PATH", path_without_rtcompare())
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    // Until the pairs start.
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            panic!("the run ended before its pairs:\n{seen}");
        }
        seen.push_str(&line);
        if line.contains("linking layout 1") {
            break;
        }
    }
    // Layout 1 is linked in a fraction of a second, and the pairs of a few benchmarks take
    // a few: the signal comes while it links or while the first pairs measure.
    std::thread::sleep(std::time::Duration::from_millis(300));
    // SAFETY: signals the cargo process this test started and has not reaped.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let _ = child.wait();
    // The bench target outlives cargo only to stop and report: both pipes reach their end
    // when it exits.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = stderr.read_to_string(&mut rest);
        let mut out = String::new();
        let _ = stdout.read_to_string(&mut out);
        let _ = tx.send((out, rest));
    });
    let (out, rest) = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the bench target stopped within a minute of cargo's end");
    let worktrees = git(&repo.clone, &["worktree", "list"]);
    assert_eq!(worktrees.lines().count(), 1, "{worktrees}\n{seen}{rest}");
    // Stopped in its pairs, it reports what it measured; stopped while relinking, it says so.
    let file = repo.clone.join("stopped.json");
    if file.exists() {
        assert_eq!(json(&file)["stopped"], "interrupted", "{out}\n{rest}");
    } else {
        assert!(rest.contains("interrupted"), "{out}\n{rest}");
    }
}
