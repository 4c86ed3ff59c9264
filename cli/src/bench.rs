//! `rtcompare bench`: one bench target at two revisions, benchmark by benchmark.
//!
//! The baseline revision is checked out pristine into a temporary worktree (removed on
//! success, failure and Ctrl-C, as `rtcompare git` does); the bench target is built there and
//! in the working tree (or at `--head`), each with its **own** target directory, so that a
//! shared `CARGO_TARGET_DIR` cannot let the second build overwrite the first. Then
//! [`rtcompare::bench::compare_builds`] compares every benchmark both builds register, through
//! worker processes of each build.

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Serialize;

use rtcompare::bench::{
    BuildComparison, BuildStatus, BuildsOptions, BuildsProgress, BuildsRun, compare_builds,
};

use crate::cli::BenchArgs;
use crate::error::{CliError, EXIT_OK, EXIT_REGRESSION, Result};
use crate::git::{TempWorktree, git};
use crate::units::duration;

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
    /// The baseline's time per operation, ns: the median over worker pairs of each pair's
    /// mean; compared only.
    pub baseline_ns: Option<f64>,
    /// The head's time per operation, ns, likewise.
    pub head_ns: Option<f64>,
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
            baseline_ns: median_over(&b.reports, |r| r.ns_per_op_b),
            head_ns: median_over(&b.reports, |r| r.ns_per_op_a),
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

    /// The row's cells after the name: baseline and head per operation, δ with its interval,
    /// the verdict and the pairs, as the terminal table and the Markdown show them.
    fn cells(&self) -> [String; 5] {
        [
            per_op(self.baseline_ns),
            per_op(self.head_ns),
            self.interval(),
            self.verdict().to_string(),
            self.processes.to_string(),
        ]
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

/// The median over worker pairs of one number of their reports; `None` without reports.
fn median_over(reports: &[rtcompare::Report], f: fn(&rtcompare::Report) -> f64) -> Option<f64> {
    let xs: Vec<f64> = reports.iter().map(f).collect();
    rtcompare::stats::median(&xs).ok()
}

/// A time per operation, or a dash when there is none.
fn per_op(ns: Option<f64>) -> String {
    ns.map_or("–".into(), duration)
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
    /// The family-wise level the verdicts hold at together (Holm over the compared
    /// benchmarks); `null` with `--per-benchmark`.
    pub family_level: Option<f64>,
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
/// Every flag and output path is checked before the first build.
pub fn run(args: &BenchArgs) -> Result<i32> {
    let cwd = std::env::current_dir().map_err(|source| CliError::System {
        call: "getcwd",
        source,
    })?;
    check_args(args)?;
    let bench = match &args.bench {
        Some(b) => b.clone(),
        None => only_bench_target(&cwd)?,
    };
    let checkouts = Checkouts::new(&cwd, args)?;
    let (base_exe, head_exe) = checkouts.build(&cwd, &bench, args)?;
    let run = compare(&checkouts, &cwd, &base_exe, &head_exe, args)?;
    let rows: Vec<BenchRow> = run.benchmarks.iter().map(BenchRow::of).collect();
    report(args, &rows, &run, &checkouts)?;
    // The worktrees go, the head's first.
    drop(checkouts);
    let failed = args
        .fail_on_regression
        .is_some_and(|budget| rows.iter().any(|r| r.beyond(budget)));
    Ok(if failed { EXIT_REGRESSION } else { EXIT_OK })
}

/// The two revisions of a run: the repository's top and the package's path beneath it, the
/// commits, and the temporary worktrees, removed when this drops (the head's first).
struct Checkouts {
    top: PathBuf,
    rel: PathBuf,
    baseline_commit: String,
    head_commit: String,
    /// Whether the head is the working tree with uncommitted changes.
    dirty: bool,
    /// The head's worktree, with `--head` only (else the head is the working tree).
    head_tree: Option<TempWorktree>,
    base_tree: TempWorktree,
}

impl Checkouts {
    /// Resolves `--baseline` and `--head` from `cwd`'s repository and checks each out pristine.
    fn new(cwd: &Path, args: &BenchArgs) -> Result<Checkouts> {
        let top = PathBuf::from(git(cwd, &["rev-parse", "--show-toplevel"])?);
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
        let head_rev = args.head.as_deref().map(commit).transpose()?;
        let base_tree = TempWorktree::add(&top, &baseline_commit)?;
        let head_tree = match &head_rev {
            Some(c) => Some(TempWorktree::add(&top, c)?),
            None => None,
        };
        let (head_commit, dirty) = match head_rev {
            Some(c) => (c, false),
            None => (
                git(&top, &["rev-parse", "HEAD"])?,
                !git(&top, &["status", "--porcelain"])?.is_empty(),
            ),
        };
        Ok(Checkouts {
            top,
            rel,
            baseline_commit,
            head_commit,
            dirty,
            head_tree,
            base_tree,
        })
    }

    /// Builds the bench target `bench` at both revisions, the baseline first; returns the two
    /// executables.
    fn build(&self, cwd: &Path, bench: &str, args: &BenchArgs) -> Result<(PathBuf, PathBuf)> {
        // The working tree's target directory, and beneath it one for each checked-out
        // revision: kept between runs so that only the crate itself is rebuilt, never shared
        // between two builds of one run.
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| self.top.join("target"));
        let base_exe = build(
            &self.base_tree.path().join(&self.rel),
            &target.join("rtcompare").join("bench-baseline"),
            bench,
            &format!("the baseline ({})", args.baseline),
        )?;
        let head_exe = match &self.head_tree {
            Some(t) => build(
                &t.path().join(&self.rel),
                &target.join("rtcompare").join("bench-head"),
                bench,
                "the head",
            )?,
            None => build(cwd, &target, bench, "the working tree")?,
        };
        Ok((base_exe, head_exe))
    }
}

/// Compares every benchmark the two builds register, with the progress line on stderr
/// (cleared before this returns, so the table follows it).
fn compare(
    checkouts: &Checkouts,
    cwd: &Path,
    base_exe: &Path,
    head_exe: &Path,
    args: &BenchArgs,
) -> Result<BuildsRun> {
    let rel = &checkouts.rel;
    // Each build's workers start in its own tree's package directory, as `cargo bench` runs a
    // bench binary in its package's root: data files read by relative path are each
    // revision's own.
    let head_dir = checkouts
        .head_tree
        .as_ref()
        .map_or_else(|| cwd.to_path_buf(), |t| t.path().join(rel));
    let options = BuildsOptions::default()
        .working_dirs(checkouts.base_tree.path().join(rel), head_dir)
        .pairs(args.pairs)
        .max_pairs(args.max_pairs)
        .family_wise(!args.per_benchmark)
        .cpu_per_pair(!args.no_cpu_per_pair)
        .seed(args.seed);
    let options = match &args.filter {
        Some(f) => options.filter(f.clone()),
        None => options,
    }
    .progress(progress());
    let run = compare_builds(base_exe, head_exe, &options);
    // The progress line goes before the table is printed.
    drop(options);
    Ok(run?)
}

/// The table and the family note on stdout, then `--json`, `--html`, `--markdown` and the
/// GitHub step summary.
fn report(args: &BenchArgs, rows: &[BenchRow], run: &BuildsRun, c: &Checkouts) -> Result<()> {
    print!("{}", table(rows));
    println!("{}", family_note(run));
    if let Some(note) = placement_note(run) {
        println!("{note}");
    }
    if let Some(path) = &args.json {
        let json = BenchJson {
            schema_version: BENCH_JSON_VERSION,
            baseline_commit: c.baseline_commit.clone(),
            head_commit: c.head_commit.clone(),
            dirty: c.dirty,
            family_level: run.family_level,
            benchmarks: rows.to_vec(),
            details: run,
        };
        let text = serde_json::to_string_pretty(&json)
            .map_err(|e| CliError::Stats(rtcompare::Error::Json { source: e.into() }))?;
        write_file(path, &text)?;
    }
    if let Some(path) = &args.html {
        run.write_html(path)?;
    }
    let md = markdown(rows, run, &c.baseline_commit, &c.head_commit, c.dirty);
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
    Ok(())
}

/// The progress on stderr, between worker pairs: on a terminal one line redrawn in place
/// (benchmark i of m, its pairs, the last pair's δ); otherwise one line per finished
/// benchmark's first stage and per pair after it, for CI logs.
fn progress() -> impl Fn(&BuildsProgress) + Send + Sync + 'static {
    let line = Line(std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar
    }));
    move |p: &BuildsProgress| {
        let text = format!(
            "benchmark {}/{} {}: pair {}/{}, last δ {:+.2} %",
            p.benchmark + 1,
            p.benchmarks,
            p.name,
            p.pairs_done,
            p.pairs_planned,
            100.0 * p.delta
        );
        match &line.0 {
            Some(bar) => {
                bar.set_message(text);
                bar.tick();
            }
            None if p.pairs_done >= p.pairs_planned => eprintln!("{text}"),
            None => {}
        }
    }
}

/// The terminal's progress line, cleared when the options holding it are dropped.
struct Line(Option<ProgressBar>);

impl Drop for Line {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// Checks the flags and that every output file can be written, before anything is built: a
/// mistake costs a second, not two builds.
fn check_args(args: &BenchArgs) -> Result<()> {
    if args.pairs < 3 {
        return Err(CliError::Usage(format!(
            "--pairs must be at least 3 (pooling needs three worker pairs); got {}",
            args.pairs
        )));
    }
    if args.max_pairs < args.pairs {
        return Err(CliError::Usage(format!(
            "--max-pairs ({}) must be at least --pairs ({})",
            args.max_pairs, args.pairs
        )));
    }
    for path in [&args.json, &args.markdown, &args.html]
        .into_iter()
        .flatten()
    {
        // Opened for appending, so an existing file keeps its content until it is replaced.
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|source| CliError::File {
                action: "write",
                path: path.clone(),
                source,
            })?;
    }
    Ok(())
}

/// The package's only bench target, found with `cargo metadata`; an error naming the targets
/// when there are several, or none.
fn only_bench_target(cwd: &Path) -> Result<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(&cargo)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| CliError::Spawn {
            name: "cargo metadata".into(),
            command: "cargo metadata --no-deps".into(),
            source,
        })?;
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        CliError::Usage(format!(
            "cargo metadata gave no package description here ({e}); give --bench NAME"
        ))
    })?;
    let manifest = cwd.join("Cargo.toml");
    let packages: Vec<&serde_json::Value> = meta["packages"].as_array().map_or(Vec::new(), |ps| {
        let own: Vec<&serde_json::Value> = ps
            .iter()
            .filter(|p| p["manifest_path"].as_str().map(Path::new) == Some(manifest.as_path()))
            .collect();
        if own.is_empty() {
            ps.iter().collect()
        } else {
            own
        }
    });
    let benches: Vec<String> = packages
        .iter()
        .flat_map(|p| p["targets"].as_array().cloned().unwrap_or_default())
        .filter(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|x| x == "bench"))
        })
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect();
    match benches.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(CliError::Usage(
            "this package has no bench target; add a [[bench]] with harness = false that \
             calls rtcompare::bench::main, or give --bench NAME"
                .into(),
        )),
        many => Err(CliError::Usage(format!(
            "this package has {} bench targets ({}); pick one with --bench NAME",
            many.len(),
            many.join(", ")
        ))),
    }
}

/// The sentence under the table that says where the worker pairs ran, when that limits what
/// the intervals cover: every pair on the one CPU a `taskset` mask allowed, or pairs placed by
/// the system (`--no-cpu-per-pair`). `None` when pairs were spread over several CPUs.
fn placement_note(run: &BuildsRun) -> Option<String> {
    let pairs = run
        .benchmarks
        .iter()
        .flat_map(|b| &b.reports)
        .filter_map(|r| r.context.worker_pair.as_ref());
    let mut note = None;
    for p in pairs {
        note = match (p.cpu, p.cpus_allowed) {
            (Some(cpu), 1) => Some(format!(
                "Every worker pair ran on CPU {cpu}, the only one this run was allowed, beside \
                 rtcompare itself: the intervals describe that CPU."
            )),
            (None, _) => Some(
                "The system placed each pair's workers (--no-cpu-per-pair): on a virtual machine \
                 two vCPUs' speeds can then decide a pair."
                    .to_string(),
            ),
            _ => return None,
        };
    }
    note
}

/// The sentence under the table that says at what level the verdicts hold.
fn family_note(run: &BuildsRun) -> String {
    let compared = run
        .benchmarks
        .iter()
        .filter(|b| b.status == BuildStatus::Compared)
        .count();
    match run.family_level {
        Some(level) => format!(
            "The verdicts hold together: Holm's procedure over the {compared} compared \
             benchmarks keeps the chance of any false verdict among them at most {:.0} %.",
            100.0 * (1.0 - level)
        ),
        None => format!(
            "Each of the {compared} benchmarks was judged on its own at 95 % (--per-benchmark): \
             with many benchmarks, a false verdict somewhere is likely."
        ),
    }
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
        "{:<28} {:>11} {:>11} {:<32} {:<12} {}\n",
        "benchmark", "baseline/op", "head/op", "δ = 1 − head/baseline", "verdict", "pairs"
    );
    for r in rows {
        let [base, head, delta, verdict, pairs] = r.cells();
        s.push_str(&format!(
            "{:<28} {base:>11} {head:>11} {delta:<32} {verdict:<12} {pairs}\n",
            r.name
        ));
    }
    s
}

/// The Markdown summary for a pull request.
pub fn markdown(rows: &[BenchRow], run: &BuildsRun, base: &str, head: &str, dirty: bool) -> String {
    let short = |c: &str| c.chars().take(10).collect::<String>();
    let mut s = format!(
        "### rtcompare bench: {} against {}{}\n\n| benchmark | baseline/op | head/op | δ = 1 − head/baseline | verdict | pairs |\n|---|--:|--:|---|---|--:|\n",
        short(head),
        short(base),
        if dirty {
            " (with uncommitted changes)"
        } else {
            ""
        }
    );
    for r in rows {
        s.push_str(&format!("| `{}` | {} |\n", r.name, r.cells().join(" | ")));
    }
    s.push_str(&format!(
        "\nNegative δ: the head is slower. {}\n",
        family_note(run)
    ));
    if let Some(note) = placement_note(run) {
        s.push_str(&format!("\n{note}\n"));
    }
    s
}
