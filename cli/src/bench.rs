//! `rtcompare bench`: one bench target at two revisions, benchmark by benchmark.
//!
//! The baseline revision is checked out pristine into a temporary worktree (removed on
//! success, failure and Ctrl-C, as `rtcompare git` does); the bench target is built there and
//! in the working tree (or at `--head`), each with its **own** target directory, so that a
//! shared `CARGO_TARGET_DIR` cannot let the second build overwrite the first. Then
//! [`rtcompare::bench::compare_builds`] compares every benchmark both builds register, through
//! worker processes of each build.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Serialize;

use rtcompare::bench::{BuildComparison, BuildStatus, BuildsOptions, BuildsRun, compare_builds};

use crate::cli::BenchArgs;
use crate::error::{CliError, EXIT_OK, EXIT_REGRESSION, Result};
use crate::git::{TempWorktree, git};

/// Version of the JSON `rtcompare bench --json` writes.
pub const BENCH_JSON_VERSION: u32 = 1;

/// One benchmark as the JSON and the tables show it.
#[derive(Debug, Clone, Serialize)]
pub struct BenchRow {
    /// The registered name.
    pub name: String,
    /// `compared`, `new` (head only) or `removed` (baseline only).
    pub status: BuildStatus,
    /// δ = 1 − head/baseline (negative: the head is slower); compared only.
    pub delta: Option<f64>,
    /// Lower end of δ's interval.
    pub low: Option<f64>,
    /// Upper end of δ's interval.
    pub high: Option<f64>,
    /// Whether the pooled comparison resolved.
    pub resolved: bool,
    /// Resolved with the head slower.
    pub regression: bool,
    /// Worker pairs pooled.
    pub processes: usize,
}

impl BenchRow {
    fn of(b: &BuildComparison) -> BenchRow {
        let p = b.pooled.as_ref();
        let resolved = p.is_some_and(|p| p.resolved);
        BenchRow {
            name: b.name.clone(),
            status: b.status,
            delta: p.map(|p| p.delta),
            low: p.map(|p| p.low),
            high: p.map(|p| p.high),
            resolved,
            regression: resolved && p.is_some_and(|p| p.delta < 0.0),
            processes: p.map_or(0, |p| p.processes),
        }
    }

    /// The gate's lower-bound rule: resolved, and the whole interval of the slowdown above
    /// `budget` (δ's upper end below −budget).
    fn beyond(&self, budget: f64) -> bool {
        self.regression && self.high.is_some_and(|h| h < -budget)
    }

    fn verdict(&self) -> &'static str {
        match (self.status, self.resolved, self.delta) {
            (BuildStatus::New, ..) => "new",
            (BuildStatus::Removed, ..) => "removed",
            (_, true, Some(d)) if d < 0.0 => "SLOWER",
            (_, true, _) => "faster",
            _ => "cannot tell",
        }
    }

    fn interval(&self) -> String {
        match (self.delta, self.low, self.high) {
            (Some(d), Some(l), Some(h)) => {
                format!("{:+.2} % [{:+.2}, {:+.2}]", 100.0 * d, 100.0 * l, 100.0 * h)
            }
            _ => "–".to_string(),
        }
    }
}

/// What `--json` writes.
#[derive(Debug, Serialize)]
pub struct BenchJson<'a> {
    /// [`BENCH_JSON_VERSION`].
    pub schema_version: u32,
    /// The baseline's commit id.
    pub baseline_commit: String,
    /// The head's commit id (the working tree's `HEAD` when `--head` is not given).
    pub head_commit: String,
    /// Whether the head is the working tree with uncommitted changes.
    pub dirty: bool,
    /// One row per benchmark.
    pub benchmarks: Vec<BenchRow>,
    /// Everything behind the rows: every benchmark's pooled result and worker-pair reports.
    pub details: &'a BuildsRun,
}

/// Builds the bench target `name` in `dir` with its own target directory `target`, and returns
/// the bench executable's path. A failure names the revision and shows the compiler's last
/// lines.
fn build(dir: &Path, target: &Path, name: &str, revision: &str) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("building bench `{name}` at {revision} in {}", dir.display());
    let out = Command::new(&cargo)
        .args(["build", "--release", "--bench", name])
        .arg("--message-format=json-render-diagnostics")
        .env("CARGO_TARGET_DIR", target)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| CliError::Spawn {
            name: format!("the build at {revision}"),
            command: "cargo build --release --bench".into(),
            source,
        })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().collect();
        let tail = lines[lines.len().saturating_sub(12)..].join("\n");
        return Err(CliError::Usage(format!(
            "the build of bench `{name}` at {revision} failed ({}):\n{tail}",
            out.status
        )));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .filter(|m| {
            m["target"]["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|x| x == "bench"))
        })
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "cargo built no bench executable named `{name}` at {revision}; is it a \
                 [[bench]] target with harness = false?"
            ))
        })
}

/// Runs `rtcompare bench` from the current directory's repository; returns the exit status.
pub fn run(args: &BenchArgs) -> Result<i32> {
    let cwd = std::env::current_dir().map_err(|source| CliError::System {
        call: "getcwd",
        source,
    })?;
    if args.pairs < 3 {
        return Err(CliError::Usage(format!(
            "--pairs must be at least 3 (pooling needs three worker pairs); got {}",
            args.pairs
        )));
    }
    let top = PathBuf::from(git(&cwd, &["rev-parse", "--show-toplevel"])?);
    let rel = cwd
        .strip_prefix(&top)
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let commit = |rev: &str| {
        git(
            &top,
            &["rev-parse", "--verify", &format!("{rev}^{{commit}}")],
        )
    };
    let baseline_commit = commit(&args.baseline)?;
    let base_tree = TempWorktree::add(&top, &baseline_commit)?;
    let head_tree = match &args.head {
        Some(rev) => Some(TempWorktree::add(&top, &commit(rev)?)?),
        None => None,
    };
    let (head_commit, dirty) = match &args.head {
        Some(rev) => (commit(rev)?, false),
        None => (
            git(&top, &["rev-parse", "HEAD"])?,
            !git(&top, &["status", "--porcelain"])?.is_empty(),
        ),
    };
    let base_dir = base_tree.path().join(&rel);
    let base_exe = build(
        &base_dir,
        &base_tree.path().join("target"),
        &args.bench,
        &format!("the baseline ({})", args.baseline),
    )?;
    let head_exe = match &head_tree {
        Some(t) => build(
            &t.path().join(&rel),
            &t.path().join("target"),
            &args.bench,
            "the head",
        )?,
        None => {
            // The working tree keeps its own target directory, which is never the baseline's.
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| top.join("target"));
            build(&cwd, &target, &args.bench, "the working tree")?
        }
    };
    let options = BuildsOptions::default().pairs(args.pairs).seed(args.seed);
    let run = compare_builds(&base_exe, &head_exe, &options)?;
    let rows: Vec<BenchRow> = run.benchmarks.iter().map(BenchRow::of).collect();
    print!("{}", table(&rows));
    if let Some(path) = &args.json {
        let json = BenchJson {
            schema_version: BENCH_JSON_VERSION,
            baseline_commit: baseline_commit.clone(),
            head_commit: head_commit.clone(),
            dirty,
            benchmarks: rows.clone(),
            details: &run,
        };
        let text = serde_json::to_string_pretty(&json)
            .map_err(|e| CliError::Stats(rtcompare::Error::Json(e.to_string())))?;
        write_file(path, &text)?;
    }
    let md = markdown(&rows, &baseline_commit, &head_commit, dirty);
    if let Some(path) = &args.markdown {
        write_file(path, &md)?;
    }
    if let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY") {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&summary)
            .map_err(|source| CliError::File {
                action: "write",
                path: summary.clone().into(),
                source,
            })?;
        let _ = f.write_all(md.as_bytes());
    }
    drop(head_tree);
    drop(base_tree);
    let failed = args
        .fail_on_regression
        .is_some_and(|budget| rows.iter().any(|r| r.beyond(budget)));
    Ok(if failed { EXIT_REGRESSION } else { EXIT_OK })
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|source| CliError::File {
            action: "write",
            path: path.into(),
            source,
        })
}

/// The terminal table.
pub fn table(rows: &[BenchRow]) -> String {
    let mut s = format!(
        "{:<32} {:<34} {:<12} {}\n",
        "benchmark", "δ = 1 − head/baseline", "verdict", "pairs"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<32} {:<34} {:<12} {}\n",
            r.name,
            r.interval(),
            r.verdict(),
            r.processes
        ));
    }
    s
}

/// The Markdown summary for a pull request.
pub fn markdown(rows: &[BenchRow], base: &str, head: &str, dirty: bool) -> String {
    let short = |c: &str| c.chars().take(10).collect::<String>();
    let mut s = format!(
        "### rtcompare bench: {} against {}{}\n\n| benchmark | δ = 1 − head/baseline | verdict | pairs |\n|---|---|---|---|\n",
        short(head),
        short(base),
        if dirty {
            " (with uncommitted changes)"
        } else {
            ""
        }
    );
    for r in rows {
        s.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            r.name,
            r.interval(),
            r.verdict(),
            r.processes
        ));
    }
    s.push_str(
        "\nNegative δ: the head is slower. Each benchmark is its own comparison at 95 %; with \
         many benchmarks, some \"cannot tell\" and, rarely, a verdict are expected by chance.\n",
    );
    s
}
