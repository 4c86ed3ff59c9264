//! The ready pipelines in `docs/ci`, run as copied: each file's jobs and steps in order, in a
//! fresh clone of a scratch repository, the way a runner would run them (minus the runner).
//!
//! The scratch crate has the library as a dev-dependency from a git source (a snapshot of this
//! workspace, so that `Cargo.lock` pins a commit as it would pin a published version or a git
//! revision), a bench target named `my_bench` as the files' `BENCH` says, and a pull request
//! whose benchmark `work` is twice as slow. What a runner provides is emulated: the checkout is
//! a clone with the pull request checked out, the toolchain is this machine's, a cache restores
//! `target` (one directory shared by every job here, as a warm cache would), artifacts are
//! copied between jobs, and `${{ matrix.runner }}`, `$CI_NODE_INDEX` and the CI system's
//! variables are set. Steps that run `uses:` actions other than these are refused, so a new one
//! cannot slip in untested. No `rtcompare` binary is on `PATH` but the one a job installs.
//!
//! The matrices run three runners, not five: three is the fewest `combine` pools.
//!
//! Unix only (the pipelines run `sh` steps on Linux runners); `platform_skips.rs` says so elsewhere.

#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::git;
use yaml_rust2::{Yaml, YamlLoader};

/// Runners each matrix runs here.
const RUNNERS: usize = 3;

/// The workspace's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

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

/// The scratch world: the library's snapshot as a git repository, the origin repository with
/// `main` and the pull request's branch `pr`, and the directories the jobs share.
struct World {
    dir: PathBuf,
    origin: PathBuf,
    /// The shared `target` the emulated cache restores into every job.
    target: PathBuf,
    /// `PATH` without any directory that holds an `rtcompare` binary.
    path: String,
}

impl World {
    fn new() -> World {
        let dir = std::env::temp_dir().join(format!("rtcompare-pipelines-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let snapshot = dir.join("rtcompare-src");
        snapshot_workspace(&snapshot);
        let origin = dir.join("origin");
        std::fs::create_dir_all(origin.join("benches")).unwrap();
        std::fs::create_dir_all(origin.join("src")).unwrap();
        std::fs::write(
            origin.join("Cargo.toml"),
            format!(
                "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                 [dev-dependencies]\nrtcompare = {{ git = \"file://{}\", default-features = false }}\n\n\
                 [[bench]]\nname = \"my_bench\"\nharness = false\n\n[workspace]\n",
                snapshot.display()
            ),
        )
        .unwrap();
        // The workspace's lock file: the same versions of every registry crate.
        std::fs::copy(root().join("Cargo.lock"), origin.join("Cargo.lock")).unwrap();
        std::fs::write(origin.join("src/lib.rs"), "").unwrap();
        std::fs::write(origin.join(".gitignore"), "target\n.cargo-home\n").unwrap();
        std::fs::write(origin.join("benches/my_bench.rs"), bench_source(1_000)).unwrap();
        // Cargo.lock gains the snapshot's commit, as a crate's lock file pins its dependency;
        // the registry crates keep the workspace's versions.
        let lock = Command::new(cargo())
            .args(["fetch", "--quiet"])
            .current_dir(&origin)
            .status()
            .unwrap();
        assert!(lock.success());
        git(&origin, &["init", "--quiet", "--initial-branch=main"]);
        git(&origin, &["add", "."]);
        git(&origin, &["commit", "--quiet", "-m", "the base"]);
        git(&origin, &["checkout", "--quiet", "-b", "pr"]);
        std::fs::write(origin.join("benches/my_bench.rs"), bench_source(2_000)).unwrap();
        git(
            &origin,
            &["commit", "--quiet", "-am", "work takes twice as long"],
        );
        git(&origin, &["checkout", "--quiet", "main"]);
        // Under the workspace's target directory, kept between runs of the tests as a CI
        // cache keeps `target`.
        let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pipelines-cache");
        std::fs::create_dir_all(&target).unwrap();
        World {
            path: path_without_rtcompare(),
            dir,
            origin,
            target,
        }
    }

    /// A runner's fresh clone of the origin, the pull request checked out, with the emulated
    /// cache's `target` restored (linked). Every job's clone is at one path, as a CI system
    /// checks a project out at one path (`/builds/GROUP/PROJECT`, `~/work/REPO/REPO`), so that
    /// the cache's builds stay valid from job to job.
    fn checkout(&self, job: &str) -> PathBuf {
        eprintln!("  {job}: a fresh clone");
        let clone = self.dir.join("project");
        let _ = std::fs::remove_dir_all(&clone);
        let origin = self.origin.to_string_lossy().into_owned();
        let clone_s = clone.to_string_lossy().into_owned();
        git(&self.dir, &["clone", "--quiet", &origin, &clone_s]);
        git(&clone, &["checkout", "--quiet", "pr"]);
        std::os::unix::fs::symlink(&self.target, clone.join("target")).unwrap();
        clone
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Copies the workspace's files (tracked, and new ones git does not ignore) into `dest` and
/// commits them there: the library as this test sees it, as a git source.
fn snapshot_workspace(dest: &Path) {
    let files = git(
        root(),
        &["ls-files", "--cached", "--others", "--exclude-standard"],
    );
    for file in files.lines() {
        let from = root().join(file);
        // Deleted but still listed in the index.
        if !from.exists() {
            continue;
        }
        let to = dest.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        if from.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&from).unwrap(), &to).unwrap();
        } else {
            std::fs::copy(&from, &to).unwrap();
        }
    }
    git(dest, &["init", "--quiet"]);
    git(dest, &["add", "."]);
    git(dest, &["commit", "--quiet", "-m", "snapshot"]);
}

/// `PATH` with every directory that holds an `rtcompare` binary left out: the gate must not
/// need one.
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

/// One job's run: each step's (or script's) exit status, and the environment it saw.
struct JobRun {
    statuses: Vec<i32>,
    failed: bool,
}

fn run_shell(
    script: &str,
    dir: &Path,
    env: &BTreeMap<String, String>,
    path: &str,
    target: &Path,
) -> i32 {
    // GitHub's `bash --noprofile --norc -eo pipefail`; GitLab's bash likewise stops at the first
    // failing line.
    let status = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
        .current_dir(dir)
        .env_clear()
        .envs(std::env::vars().filter(|(k, _)| {
            // The test's own cargo context must not leak into the jobs.
            !k.starts_with("CARGO") && k != "RUSTFLAGS" && k != "GITHUB_STEP_SUMMARY"
        }))
        .env("PATH", path)
        // The emulated cache's target directory: what the checkout linked as `target`, and
        // where `cargo install` builds too, as a warm cache would spare it the dependencies.
        .env("CARGO_TARGET_DIR", target)
        .envs(env)
        .stdin(Stdio::null())
        .status()
        .unwrap();
    eprintln!("    exit {:?}", status.code());
    status.code().unwrap_or(128)
}

fn s<'a>(y: &'a Yaml, key: &str) -> Option<&'a str> {
    y[key].as_str()
}

/// A mapping's string values (GitHub's `env:`, GitLab's `variables:`).
fn strings(y: &Yaml) -> BTreeMap<String, String> {
    y.as_hash()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| {
            let value = match v {
                Yaml::String(s) => s.clone(),
                Yaml::Integer(i) => i.to_string(),
                _ => return None,
            };
            Some((k.as_str()?.to_string(), value))
        })
        .collect()
}

fn load(file: &str) -> Yaml {
    let text = std::fs::read_to_string(root().join("docs/ci").join(file)).unwrap();
    YamlLoader::load_from_str(&text)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .remove(0)
}

/// Artifacts: GitHub's by name (a directory each), GitLab's by job (files).
type Store = BTreeMap<String, PathBuf>;

/// What the jobs of one GitHub workflow share: its `env:`, the artifacts, the job summary file
/// and where `cargo install` puts binaries (on `PATH`, as `~/.cargo/bin` is on a runner).
struct Workflow {
    env: BTreeMap<String, String>,
    store: Store,
    summary: PathBuf,
    install_root: PathBuf,
}

/// Runs one GitHub Actions job's steps in a fresh clone; `matrix` is `matrix.runner`'s value.
fn github_job(
    w: &World,
    job_name: &str,
    job: &Yaml,
    flow: &mut Workflow,
    matrix: Option<usize>,
) -> JobRun {
    let (summary, install_root) = (flow.summary.clone(), flow.install_root.clone());
    let store = &mut flow.store;
    let workflow_env = &flow.env;
    let tag = format!("gh-{job_name}-{}", matrix.unwrap_or(0));
    let dir = w.checkout(&tag);
    let mut env = workflow_env.clone();
    env.extend([
        ("GITHUB_BASE_REF".to_string(), "main".to_string()),
        ("GITHUB_HEAD_REF".to_string(), "pr".to_string()),
        (
            "GITHUB_STEP_SUMMARY".to_string(),
            summary.display().to_string(),
        ),
        ("GITHUB_WORKSPACE".to_string(), dir.display().to_string()),
        ("CI".to_string(), "true".to_string()),
        // `cargo install` writes to ~/.cargo/bin on a runner, which is on PATH.
        (
            "CARGO_INSTALL_ROOT".to_string(),
            install_root.display().to_string(),
        ),
    ]);
    let path = format!("{}/bin:{}", install_root.display(), w.path);
    let mut run = JobRun {
        statuses: Vec::new(),
        failed: false,
    };
    for step in job["steps"].as_vec().expect("steps") {
        let condition = s(step, "if").unwrap_or("success()");
        if run.failed && !condition.contains("always()") {
            continue;
        }
        let expand = |v: &str| match matrix {
            Some(m) => v.replace("${{ matrix.runner }}", &m.to_string()),
            None => v.to_string(),
        };
        if let Some(script) = s(step, "run") {
            eprintln!("  {tag}: run {}", s(step, "name").unwrap_or(""));
            let code = run_shell(script, &dir, &env, &path, &w.target);
            run.statuses.push(code);
            run.failed |= code != 0;
            continue;
        }
        let uses = s(step, "uses").expect("a step runs or uses");
        let with = &step["with"];
        match uses.split('@').next().unwrap() {
            "actions/checkout" => {
                // The clone above; the history is whole, as fetch-depth: 0 asks.
                if let Some(depth) = with["fetch-depth"].as_i64() {
                    assert_eq!(depth, 0);
                }
            }
            "dtolnay/rust-toolchain" | "actions/cache" => {}
            "actions/upload-artifact" => {
                let name = expand(s(with, "name").unwrap());
                let file = dir.join(s(with, "path").unwrap());
                if file.exists() {
                    let kept = w.dir.join("artifacts").join(&name);
                    std::fs::create_dir_all(&kept).unwrap();
                    std::fs::copy(&file, kept.join(file.file_name().unwrap())).unwrap();
                    store.insert(name, kept);
                } else {
                    assert_eq!(s(with, "if-no-files-found"), Some("ignore"), "{name}");
                }
            }
            "actions/download-artifact" => {
                let into = dir.join(s(with, "path").unwrap());
                for (name, kept) in store.iter() {
                    let to = into.join(name);
                    std::fs::create_dir_all(&to).unwrap();
                    for f in std::fs::read_dir(kept).unwrap() {
                        let f = f.unwrap().path();
                        std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
                    }
                }
            }
            other => panic!("an action this test does not emulate: {other}"),
        }
    }
    run
}

/// Runs a GitHub Actions workflow's jobs in order (`needs` respected as written: a job with
/// `if: ${{ !cancelled() }}` runs whatever its needs' exits); returns each job run by name,
/// matrix jobs in runner order.
fn github(w: &World, file: &str) -> (BTreeMap<String, Vec<JobRun>>, String) {
    let y = load(file);
    let mut flow = Workflow {
        env: strings(&y["env"]),
        store: Store::new(),
        summary: w.dir.join(format!("{file}.summary.md")),
        install_root: w.dir.join(format!("{file}.cargo")),
    };
    let mut runs: BTreeMap<String, Vec<JobRun>> = BTreeMap::new();
    for (name, job) in y["jobs"].as_hash().expect("jobs") {
        let name = name.as_str().unwrap().to_string();
        if let Some(needs) = s(job, "needs") {
            let needed_failed = runs[needs].iter().any(|r| r.failed);
            let condition = s(job, "if").unwrap_or("success()");
            if needed_failed
                && !condition.contains("!cancelled()")
                && !condition.contains("always()")
            {
                continue;
            }
        }
        let matrix: Vec<Option<usize>> = match job["strategy"]["matrix"]["runner"].as_vec() {
            Some(list) => {
                assert!(list.len() >= RUNNERS);
                (1..=RUNNERS).map(Some).collect()
            }
            None => vec![None],
        };
        for m in matrix {
            let run = github_job(w, &name, job, &mut flow, m);
            runs.entry(name.clone()).or_default().push(run);
        }
    }
    let summary = std::fs::read_to_string(&flow.summary).unwrap_or_default();
    (runs, summary)
}

/// Runs a GitLab CI file's jobs stage by stage; `parallel:` jobs with `RUNNERS` indices.
fn gitlab(w: &World, file: &str) -> (BTreeMap<String, Vec<JobRun>>, Store) {
    let y = load(file);
    let variables = strings(&y["variables"]);
    let stages: Vec<String> = match y["stages"].as_vec() {
        Some(v) => v.iter().map(|s| s.as_str().unwrap().to_string()).collect(),
        None => vec!["test".into()],
    };
    let mut runs: BTreeMap<String, Vec<JobRun>> = BTreeMap::new();
    let mut store = Store::new();
    for stage in &stages {
        for (name, job) in y.as_hash().unwrap() {
            let name = name.as_str().unwrap();
            if job["script"].is_badvalue() || s(job, "stage").unwrap_or("test") != stage {
                continue;
            }
            let earlier_failed = runs.values().flatten().any(|r| r.failed);
            if earlier_failed && s(job, "when") != Some("always") {
                continue;
            }
            let parallel = job["parallel"].as_i64().map(|n| {
                assert!(n as usize >= RUNNERS);
                RUNNERS
            });
            for index in 1..=parallel.unwrap_or(1) {
                let tag = format!("gl-{name}-{index}");
                let dir = w.checkout(&tag);
                // Artifacts of the jobs this one needs.
                for needed in job["needs"].as_vec().into_iter().flatten() {
                    let needed = s(needed, "job").unwrap();
                    for (key, file) in &store {
                        if key.starts_with(&format!("{needed}/")) {
                            std::fs::copy(file, dir.join(file.file_name().unwrap())).unwrap();
                        }
                    }
                }
                let mut env = BTreeMap::new();
                env.extend([
                    ("CI".to_string(), "true".to_string()),
                    ("CI_PROJECT_DIR".to_string(), dir.display().to_string()),
                    (
                        "CI_PIPELINE_SOURCE".to_string(),
                        "merge_request_event".to_string(),
                    ),
                    (
                        "CI_MERGE_REQUEST_TARGET_BRANCH_NAME".to_string(),
                        "main".to_string(),
                    ),
                ]);
                if parallel.is_some() {
                    env.insert("CI_NODE_INDEX".into(), index.to_string());
                    env.insert("CI_NODE_TOTAL".into(), RUNNERS.to_string());
                }
                for (k, v) in &variables {
                    env.insert(
                        k.clone(),
                        v.replace("$CI_PROJECT_DIR", &dir.display().to_string()),
                    );
                }
                // The emulated cache: the registry is restored into CARGO_HOME when the file
                // keeps it there, and `target`, as the checkout linked it.
                if let Some(home) = env.get("CARGO_HOME") {
                    let home = PathBuf::from(home);
                    std::fs::create_dir_all(&home).unwrap();
                    let registry = std::env::var_os("HOME")
                        .map(|h| PathBuf::from(h).join(".cargo/registry"))
                        .filter(|r| r.is_dir());
                    if let Some(registry) = registry {
                        std::os::unix::fs::symlink(registry, home.join("registry")).unwrap();
                    }
                }
                let script: Vec<&str> = job["script"]
                    .as_vec()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_str().unwrap())
                    .collect();
                eprintln!("  {tag}: script");
                let code = run_shell(&script.join("\n"), &dir, &env, &w.path, &w.target);
                // Artifacts: kept on failure only with `when: always`.
                let artifacts = &job["artifacts"];
                if code == 0 || s(artifacts, "when") == Some("always") {
                    for pattern in artifacts["paths"].as_vec().into_iter().flatten() {
                        let pattern = pattern.as_str().unwrap();
                        for f in std::fs::read_dir(&dir).unwrap() {
                            let f = f.unwrap().path();
                            let file = f.file_name().unwrap().to_string_lossy().into_owned();
                            if glob(pattern, &file) {
                                let kept = w.dir.join("artifacts").join(&tag);
                                std::fs::create_dir_all(&kept).unwrap();
                                std::fs::copy(&f, kept.join(&file)).unwrap();
                                store.insert(format!("{name}/{index}/{file}"), kept.join(&file));
                            }
                        }
                    }
                }
                runs.entry(name.to_string()).or_default().push(JobRun {
                    statuses: vec![code],
                    failed: code != 0,
                });
            }
        }
    }
    (runs, store)
}

/// A file name against an artifact path with at most one `*`.
fn glob(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        Some((head, tail)) => {
            name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
        }
        None => pattern == name,
    }
}

/// Every file in docs/ci is one this test runs.
#[test]
fn every_pipeline_file_is_run_here() {
    let mut files: Vec<String> = std::fs::read_dir(root().join("docs/ci"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".yml"))
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "bench-matrix.gitlab-ci.yml",
            "bench-matrix.yml",
            "bench.gitlab-ci.yml",
            "bench.yml"
        ]
    );
}

/// The four pipelines, one after the other in one scratch world, GitHub's two before GitLab's:
/// they share the emulated cache's `target`, and cargo keys a registry crate's build by where
/// its sources lie, which is `~/.cargo` on GitHub and the project's `.cargo-home` on GitLab.
/// Alternating the two rebuilt every dependency, both sides, in four jobs of eight (70 s each
/// in a clean-clone CI run); grouped, each system builds them once.
#[test]
fn the_pipelines_run_as_copied_and_fail_the_twice_slower_pull_request() {
    let w = World::new();

    // The one-runner gate on GitHub: one step, exit 1 for the regression, the table in the
    // job summary once, the JSON kept.
    let (runs, summary) = github(&w, "bench.yml");
    assert_eq!(runs["bench"][0].statuses, [1], "{summary}");
    assert_eq!(
        summary.matches("### rtcompare bench").count(),
        1,
        "{summary}"
    );
    assert!(
        summary.contains("| `work` |") && summary.contains("SLOWER"),
        "{summary}"
    );
    assert!(w.dir.join("artifacts/bench/bench.json").is_file());

    // Several runners on GitHub: each measures without a gate or a summary of its own; the
    // combine job installs the tool at the commit Cargo.lock pins and pools them.
    let (runs, summary) = github(&w, "bench-matrix.yml");
    assert_eq!(runs["measure"].len(), RUNNERS);
    for r in &runs["measure"] {
        assert_eq!(r.statuses, [0]);
    }
    // install, pool (1: the regression).
    assert_eq!(runs["combine"][0].statuses, [0, 1], "{summary}");
    assert_eq!(summary.matches("| `work`").count(), 1, "{summary}");

    // The same on GitLab: the job fails, the summary and the JSON are kept.
    let (runs, store) = gitlab(&w, "bench.gitlab-ci.yml");
    assert_eq!(runs["bench"][0].statuses, [1]);
    let md = std::fs::read_to_string(&store["bench/1/summary.md"]).unwrap();
    assert!(md.contains("SLOWER"), "{md}");
    // CARGO_HOME is a folder of the checkout there: not a change of the merge request.
    assert!(!md.contains("uncommitted"), "{md}");

    // Several runners on GitLab.
    let (runs, store) = gitlab(&w, "bench-matrix.gitlab-ci.yml");
    assert_eq!(runs["measure"].len(), RUNNERS);
    assert!(runs["measure"].iter().all(|r| r.statuses == [0]));
    assert_eq!(runs["combine"][0].statuses, [1]);
    let md = std::fs::read_to_string(&store["combine/1/summary.md"]).unwrap();
    assert!(md.contains("work"), "{md}");
}
