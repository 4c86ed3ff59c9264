//! One bench target at two git revisions, benchmark by benchmark: the engine behind
//! `cargo bench --bench NAME -- --baseline REV` and `rtcompare bench --baseline REV`.
//!
//! The stages, in [`compare_revisions`]'s order:
//! 1. **Locate**: the package and its bench target, as cargo picks them (`--package`,
//!    `--manifest-path`, the directory; a virtual workspace's root included).
//! 2. **Check out**: the baseline (and `--head`, when given) pristine into temporary worktrees,
//!    removed on success, on error and on Ctrl-C or SIGTERM.
//! 3. **Build**: the bench target at each revision with cargo's `bench` profile, in a process
//!    group of its own, both in the working tree's target directory (`share.rs`: the
//!    dependencies compiled once, each checkout's own crates apart, a second run rebuilding
//!    only what changed), each build's link command captured (`link.rs`, `stages.rs`).
//! 4. **Compare**: [`compare_layouts`](super::compare_layouts) over both builds' benchmarks,
//!    each worker pair on its own code layout, made by running the captured link command
//!    again with the layout's seed, ahead of the pairs on a free CPU (`relink.rs`).
//! 5. **Report**: the table and its notes, where the time went, and the JSON, Markdown and
//!    HTML asked for; the exit status.

mod cargo;
mod child;
pub(crate) mod flags;
mod git;
mod link;
mod relink;
mod report;
mod share;
mod stages;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{BuildsOptions, BuildsRun, Stopped};
use crate::error::{Error, Result};
use crate::interrupt::InterruptGuard;
use crate::measure::CancelToken;
use cargo::{Pick, Target, Tree, locate};
use stages::{Built, Spent};

pub use flags::{decision_margin, parse_budget, parse_duration, parse_fraction};
pub use git::{Revisions, TempWorktree, git};
pub use report::{
    BENCH_JSON_VERSION, BenchJson, BenchRow, LayoutsJson, TimeJson, family_note, markdown, table,
};
pub(crate) use report::{
    budget_note, failure_notes, layout_note, placement_note, regression_note, time_note,
};

/// Exit status: every benchmark ran and no gate failed.
pub const EXIT_OK: i32 = 0;
/// Exit status: `--fail-on-regression` found a benchmark slower beyond its budget.
pub const EXIT_REGRESSION: i32 = 1;
/// Exit status: the run could not be made (a bad flag, a revision that does not resolve, a
/// build that failed, an output that could not be written).
pub const EXIT_ERROR: i32 = 2;
/// Exit status: a benchmark failed (its row says why); it outranks a regression, since a
/// benchmark that did not run cannot pass a gate.
pub const EXIT_BENCH_FAILED: i32 = 3;

/// What a comparison of two revisions compares and how, flag by flag as
/// `cargo bench -- --baseline REV` and `rtcompare bench` take them. Plain fields over
/// [`Default`]: set the ones you need.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RevisionsOptions {
    /// The baseline revision (`--baseline`): any git commit-ish (`main`, `HEAD~1`, a commit id).
    /// Default empty, which [`compare_revisions`] refuses.
    pub baseline: String,
    /// The head revision (`--head`); `None` (default): the working tree as it is.
    pub head: Option<String>,
    /// The directory the run starts in, as cargo's current directory (default `None`: the
    /// process's).
    pub dir: Option<PathBuf>,
    /// The manifest to start from (`--manifest-path`), relative to [`dir`](Self::dir).
    pub manifest_path: Option<PathBuf>,
    /// The package (`--package`, `-p`); `None`: the package of the directory, or the one
    /// package of a virtual workspace that has the bench target.
    pub package: Option<String>,
    /// The bench target (`--bench`); `None`: the package's only one.
    pub bench: Option<String>,
    /// The working tree's target directory, where the head builds and, beside it, a
    /// checked-out revision (or, where sharing is not safe, in `rtcompare/bench-baseline`
    /// beneath it); `None` (default): the one `cargo metadata` reports.
    pub target_dir: Option<PathBuf>,
    /// Worker pairs in each benchmark's first stage and between looks (`--pairs`, default 5,
    /// at least 3).
    pub pairs: usize,
    /// Most worker pairs per benchmark (`--max-pairs`, default 30).
    pub max_pairs: usize,
    /// Judge every benchmark on its own at 95 % instead of holding the verdicts together
    /// (`--per-benchmark`, default false).
    pub per_benchmark: bool,
    /// Code layouts of each build (`--layouts`, default
    /// [`DEFAULT_LAYOUTS`](super::DEFAULT_LAYOUTS), 30); 1 compares the plain builds.
    pub layouts: usize,
    /// The smallest difference that matters, a fraction (`--margin`, default
    /// [`DEFAULT_MARGIN`](super::DEFAULT_MARGIN), 0.01). With a wider
    /// [`fail_on_regression`](Self::fail_on_regression) budget, the run decides at the budget
    /// instead ([`decision_margin`](Self::decision_margin)).
    pub margin: f64,
    /// Measure each benchmark to a ±1 point interval instead of deciding it (`--precision`).
    pub precision: bool,
    /// Time budget of the worker pairs of the whole suite (`--budget`, default 5 minutes;
    /// zero: none); builds and relinks are not counted.
    pub budget: Duration,
    /// Put each worker pair's four workers on one CPU (default true; `--no-cpu-per-pair`).
    pub cpu_per_pair: bool,
    /// Seed of the layouts, the workers' perturbations and the comparisons (`--seed`; 0, the
    /// default, draws one).
    pub seed: u64,
    /// Only benchmarks whose name contains this (a substring; the whole name with
    /// [`exact`](Self::exact)).
    pub filter: Option<String>,
    /// The filter must equal the whole name (`--exact`).
    pub exact: bool,
    /// Leave out benchmarks whose name contains any of these (`--skip`).
    pub skip: Vec<String>,
    /// Write the JSON ([`BenchJson`]) to this file (`--json`; `-`: stdout).
    pub json: Option<PathBuf>,
    /// Write the Markdown summary to this file (`--markdown`; `-`: stdout).
    pub markdown: Option<PathBuf>,
    /// Write an HTML index, with a page per benchmark beside it (`--html`; feature `html`).
    pub html: Option<PathBuf>,
    /// Exit [`EXIT_REGRESSION`] when a benchmark is proven slower with an estimated slowdown
    /// above this fraction ([`over_budget`](crate::stats::over_budget);
    /// `--fail-on-regression [BUDGET]`; `Some(0.0)`: any proven slowdown).
    pub fail_on_regression: Option<f64>,
    /// Append the Markdown summary to `$GITHUB_STEP_SUMMARY` when that is set (default true;
    /// `--no-step-summary`, for runners whose summaries a later step pools).
    pub step_summary: bool,
}

impl Default for RevisionsOptions {
    fn default() -> Self {
        RevisionsOptions {
            baseline: String::new(),
            head: None,
            dir: None,
            manifest_path: None,
            package: None,
            bench: None,
            target_dir: None,
            pairs: 5,
            max_pairs: crate::pool::DEFAULT_MAX_PROCESSES,
            per_benchmark: false,
            layouts: super::DEFAULT_LAYOUTS,
            margin: super::DEFAULT_MARGIN,
            precision: false,
            budget: Duration::from_secs(300),
            cpu_per_pair: true,
            seed: 0,
            filter: None,
            exact: false,
            skip: Vec::new(),
            json: None,
            markdown: None,
            html: None,
            fail_on_regression: None,
            step_summary: true,
        }
    }
}

impl RevisionsOptions {
    /// The margin each benchmark is decided at: [`margin`](Self::margin), or the
    /// `--fail-on-regression` budget when that is wider (up to 50 %). A look then stops only
    /// when the interval lies beyond the budget (the check fails) or within ±budget (it
    /// passes), rather than at the first interval beyond the margin, which can still straddle
    /// the budget (one that straddles it when the pairs are spent is held to its estimate); and a change within the budget reads equivalent, with its size, rather than
    /// "slower" beside a check that passed (docs/background.md, "The gate decides at its
    /// budget").
    pub fn decision_margin(&self) -> f64 {
        flags::decision_margin(self.margin, self.fail_on_regression)
    }

    /// Checks the numbers before anything is checked out or built, so a mistake costs a second.
    /// Errors: [`Error::InvalidOption`] naming the flag.
    pub fn check(&self) -> Result<()> {
        self.check_run()?;
        self.check_outputs()
    }

    /// Checks what the run measures: a baseline given, and the pairs, layouts, pair limit and
    /// margin in range.
    fn check_run(&self) -> Result<()> {
        // Said before the checkout and the builds, which would take minutes for nothing.
        if cfg!(not(unix)) {
            return Err(super::worker::unsupported());
        }
        if self.baseline.trim().is_empty() {
            return Err(Error::invalid_option(
                "baseline",
                "give the baseline revision: --baseline REV (a branch, a tag, a commit or HEAD~1)",
            ));
        }
        if self.pairs < 3 {
            return Err(Error::invalid_option(
                "pairs",
                format!(
                    "--pairs must be at least 3 (pooling needs three worker pairs); got {}",
                    self.pairs
                ),
            ));
        }
        if self.layouts == 0 || (self.layouts > 1 && self.layouts < self.pairs) {
            return Err(Error::invalid_option(
                "layouts",
                format!(
                    "--layouts must be 1 (the plain builds) or at least --pairs ({}), so that \
                     every worker pair runs its own code layout; got {}",
                    self.pairs, self.layouts
                ),
            ));
        }
        if self.max_pairs < self.pairs {
            return Err(Error::invalid_option(
                "max_pairs",
                format!(
                    "--max-pairs ({}) must be at least --pairs ({})",
                    self.max_pairs, self.pairs
                ),
            ));
        }
        if !(self.margin.is_finite() && (0.0..1.0).contains(&self.margin)) {
            return Err(Error::invalid_option(
                "margin",
                format!(
                    "--margin must be from 0 % to under 100 %; got {}",
                    self.margin
                ),
            ));
        }
        Ok(())
    }

    /// Checks the output flags: `--html` available and given a file, every output file in a
    /// directory that exists, at most one output on stdout.
    fn check_outputs(&self) -> Result<()> {
        if cfg!(not(feature = "html")) && self.html.is_some() {
            return Err(Error::invalid_option(
                "html",
                "--html needs rtcompare's `html` feature (on by default)",
            ));
        }
        if let Some(path) = &self.html
            && path.as_os_str() == "-"
        {
            return Err(Error::invalid_option(
                "html",
                "--html writes several pages beside its file: give it a file, not -",
            ));
        }
        for (flag, path) in [
            ("json", &self.json),
            ("markdown", &self.markdown),
            ("html", &self.html),
        ] {
            let Some(path) = path.as_deref().filter(|p| p.as_os_str() != "-") else {
                continue;
            };
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let base = self.dir.as_deref().unwrap_or(Path::new(""));
            if base.join(path).is_dir() || !base.join(dir).is_dir() {
                return Err(Error::invalid_option(
                    flag,
                    format!(
                        "--{flag} {}: give a file in a directory that exists",
                        path.display()
                    ),
                ));
            }
        }
        let to_stdout = [&self.json, &self.markdown]
            .iter()
            .filter(|p| p.as_deref().is_some_and(|p| p.as_os_str() == "-"))
            .count();
        if to_stdout > 1 {
            return Err(Error::invalid_option(
                "json",
                "only one of --json and --markdown can write to stdout (-)",
            ));
        }
        Ok(())
    }
}

/// What [`compare_revisions`] found, as its outputs show it, with the exit status.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RevisionsOutcome {
    /// What `--json` writes: the rows, the commits, the layouts and every detail.
    pub json: BenchJson,
    /// The Markdown summary.
    pub markdown: String,
    /// The exit status: the signal's (130, 143) after an interruption, [`EXIT_ERROR`] when a
    /// layout could not be built, [`EXIT_BENCH_FAILED`], [`EXIT_REGRESSION`] or [`EXIT_OK`].
    pub exit_code: i32,
    /// The working tree's target directory (where a history of runs may be kept).
    pub target_dir: PathBuf,
}

/// Compares the bench target at the two revisions `o` names, and reports: the table and its
/// notes on stdout (on stderr when an output takes stdout), the outputs asked for, the
/// summary appended to `$GITHUB_STEP_SUMMARY`. Ctrl-C and SIGTERM stop the builds and worker
/// pairs, remove the worktrees and still report what was measured (exit status 130 or 143).
///
/// Errors: [`Error::InvalidOption`] for a bad option or a package, bench target or output
/// that cannot be used; [`Error::Git`] for a revision that names no commit;
/// [`Error::Build`] for a build that failed; [`Error::Cancelled`] when a signal came before
/// any pair ran; the worker and I/O errors of the comparison. Temporary worktrees, build
/// processes and workers are gone on every path.
pub fn compare_revisions(o: &RevisionsOptions) -> Result<RevisionsOutcome> {
    o.check()?;
    let interrupt = InterruptGuard::install();
    let dir = match &o.dir {
        Some(d) => d.clone(),
        None => std::env::current_dir().map_err(|e| Error::io(Path::new("."), e))?,
    };
    let mut target = locate(&Pick {
        dir: &dir,
        manifest_path: o.manifest_path.as_deref(),
        package: o.package.as_deref(),
        bench: o.bench.as_deref(),
    })?;
    if let Some(t) = &o.target_dir {
        target.target_dir.clone_from(t);
    }
    let started = std::time::Instant::now();
    let checkouts = Checkouts::new(&target, o)?;
    let seed = crate::rng::resolve_seed(o.seed);
    let (trees, shared, notes) = checkouts.trees(&target, o);
    let cancel = CancelToken::new();
    // The signal flag becomes the run's cancellation token, which the pairs watch.
    let watch = Watch::start(&interrupt, &cancel);
    let mut spent = Spent::default();
    let built = stages::build_both(&trees, &target, o, seed, &interrupt, &mut spent)?;
    let (run, layouts) = match built {
        Built::Both(first, relinker) => {
            stages::compare(&trees, first, relinker, o, seed, &cancel, &mut spent)?
        }
        Built::HeadOnly(head) => {
            let run = super::only_head(&head, &builds_options(o, seed, &trees, 1, &cancel))?;
            let note = format!(
                "The baseline ({}) has no bench target `{}`: every benchmark is new.",
                o.baseline, target.bench
            );
            eprintln!("{note}");
            let layouts = LayoutsJson {
                baseline_variants: 0,
                head_variants: 1,
                shuffled: false,
                seeds: Vec::new(),
                note: Some(note),
                seconds: 0.0,
                relinked_by: String::new(),
                relink_notes: Vec::new(),
            };
            (run, layouts)
        }
    };
    drop(watch);
    let time = TimeJson {
        build_baseline_seconds: spent.build[0],
        build_head_seconds: spent.build[1],
        relink_seconds: spent.relink,
        relink_waited_seconds: spent.first_layout + run.layout_seconds,
        measure_seconds: run.benchmarks.iter().map(|b| b.seconds).sum(),
        total_seconds: started.elapsed().as_secs_f64(),
        shared_target: shared,
        notes,
    };
    let rows: Vec<BenchRow> = run.benchmarks.iter().map(BenchRow::of).collect();
    let outcome = report(o, rows, run, layouts, time, &checkouts, &interrupt)?;
    // The worktrees go, the head's first.
    drop(checkouts);
    Ok(RevisionsOutcome {
        target_dir: target.target_dir.clone(),
        ..outcome
    })
}

/// Copies the signal flag into the run's cancellation token while alive (a thread that looks
/// every 20 ms), so that worker pairs stop at their next batch.
struct Watch {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watch {
    fn start(interrupt: &InterruptGuard, cancel: &CancelToken) -> Watch {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (flag, token) = (stop.clone(), cancel.clone());
        let signalled = interrupt.flag();
        let thread = std::thread::Builder::new()
            .name("rtcompare-signals".into())
            .spawn(move || {
                while !flag.load(std::sync::atomic::Ordering::SeqCst) {
                    if signalled() {
                        token.cancel();
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
            .ok();
        Watch { stop, thread }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The two revisions of a run: the repository's top, the commits, and the temporary
/// worktrees, removed when this drops (the head's first).
struct Checkouts {
    top: PathBuf,
    baseline_commit: String,
    head_commit: String,
    dirty: bool,
    head_tree: Option<TempWorktree>,
    base_tree: TempWorktree,
}

impl Checkouts {
    /// Resolves the revisions in the package's repository and checks each out pristine.
    fn new(target: &Target, o: &RevisionsOptions) -> Result<Checkouts> {
        let Revisions {
            top,
            base_commit,
            head_rev,
            head_commit,
            dirty,
        } = Revisions::resolve(&target.dir, &o.baseline, o.head.as_deref())
            .map_err(|e| advise_saved_baseline(e, &o.baseline))?;
        let base_tree = TempWorktree::add_as(&top, &base_commit, "baseline")?;
        let head_tree = head_rev
            .as_deref()
            .map(|c| TempWorktree::add_as(&top, c, "head"))
            .transpose()?;
        Ok(Checkouts {
            top,
            baseline_commit: base_commit,
            head_commit,
            dirty,
            head_tree,
            base_tree,
        })
    }

    /// The two revisions' copies of the package (the baseline's first), whether the
    /// checked-out ones share the working tree's target directory, and why not where one does
    /// not. The head in the working tree builds into the workspace's own target directory, as
    /// `cargo bench` does, so nothing is built twice; a checked-out revision builds there too,
    /// its own crates kept apart by a workspace wrapper of its commit (`share.rs`), so that
    /// the dependencies are compiled once and a second run rebuilds only what changed; where
    /// that is not safe, into one of its own beneath it (`rtcompare/bench-baseline`,
    /// `rtcompare/bench-head`), kept between runs.
    fn trees(&self, target: &Target, o: &RevisionsOptions) -> ([Tree; 2], bool, Vec<String>) {
        let top = self.top.canonicalize().unwrap_or_else(|_| self.top.clone());
        let pkg = target
            .dir
            .canonicalize()
            .unwrap_or_else(|_| target.dir.clone());
        let rel = pkg
            .strip_prefix(&top)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        let shared = &target.target_dir;
        let own = shared.join("rtcompare");
        let mut notes = Vec::new();
        let mut all_shared = true;
        let mut checked_out = |tree: &TempWorktree, commit: &str, role: &str, revision: String| {
            let dir = tree.path().join(&rel);
            let place = share::place(
                tree.path(),
                &dir,
                commit,
                shared,
                &own.join(format!("bench-{role}")),
                role,
            );
            notes.extend(place.note);
            all_shared &= place.salt.is_some();
            Tree {
                dir,
                target: place.target,
                salt: place.salt,
                revision,
            }
        };
        let base = checked_out(
            &self.base_tree,
            &self.baseline_commit,
            "baseline",
            format!("the baseline ({})", o.baseline),
        );
        let head = match &self.head_tree {
            Some(t) => checked_out(t, &self.head_commit, "head", "the head".into()),
            None => Tree {
                dir: target.dir.clone(),
                target: target.target_dir.clone(),
                salt: None,
                revision: "the working tree".into(),
            },
        };
        ([base, head], all_shared, notes)
    }
}

/// A revision that names no commit, said with what rtcompare does instead of criterion's
/// saved baselines (`--baseline NAME`).
fn advise_saved_baseline(e: Error, baseline: &str) -> Error {
    match e {
        Error::Git { command, reason } if command.contains("--verify") => Error::Git {
            command,
            reason: format!(
                "{reason}. rtcompare keeps no saved baselines (criterion's --baseline \
                 {baseline} and --save-baseline): it builds the baseline revision itself and \
                 runs both builds side by side in the same seconds, so give --baseline a git \
                 revision"
            ),
        },
        other => other,
    }
}

/// The comparison's options: each build's workers start in its own tree's package directory,
/// as `cargo bench` runs a bench binary in its package's root, so that data files read by
/// relative path are each revision's own.
pub(crate) fn builds_options(
    o: &RevisionsOptions,
    seed: u64,
    trees: &[Tree; 2],
    layouts: usize,
    cancel: &CancelToken,
) -> BuildsOptions {
    let options = BuildsOptions::default()
        .working_dirs(trees[0].dir.clone(), trees[1].dir.clone())
        .layouts(layouts)
        .margin(o.decision_margin())
        .pairs(o.pairs)
        .max_pairs(o.max_pairs)
        .family_wise(!o.per_benchmark)
        .cpu_per_pair(o.cpu_per_pair)
        .seed(seed)
        .cancel(cancel.clone())
        .decide(!o.precision)
        .budget(o.budget)
        .exact(o.exact);
    let options = o.skip.iter().fold(options, |b, s| b.skip(s.clone()));
    match &o.filter {
        Some(f) => options.filter(f.clone()),
        None => options,
    }
}

/// The sentence that says the run decided at the `--fail-on-regression` budget rather than
/// the margin; `None` when it decided at the margin.
fn margin_note(o: &RevisionsOptions) -> Option<String> {
    let decided = o.decision_margin();
    (decided != o.margin).then(|| {
        format!(
            "Decided at ±{}, the --fail-on-regression budget, rather than the {} \
             margin: a change within the budget reads equivalent, with its size.",
            crate::display::Pct(decided),
            crate::display::Pct(o.margin)
        )
    })
}

/// The exit status of a run that reported (see [`RevisionsOutcome::exit_code`]).
fn exit_status(
    o: &RevisionsOptions,
    rows: &[BenchRow],
    run: &BuildsRun,
    interrupt: &InterruptGuard,
) -> i32 {
    match run.stopped {
        Some(Stopped::Interrupted) => return interrupt.exit_code(),
        Some(_) => return EXIT_ERROR,
        None => {}
    }
    let regressed = o
        .fail_on_regression
        .is_some_and(|budget| rows.iter().any(|r| r.over_budget(budget)));
    if run.failed().next().is_some() {
        EXIT_BENCH_FAILED
    } else if regressed {
        EXIT_REGRESSION
    } else {
        EXIT_OK
    }
}

/// The table and the notes on stdout (on stderr when an output takes stdout), then the outputs
/// and the step summary.
fn report(
    o: &RevisionsOptions,
    rows: Vec<BenchRow>,
    run: BuildsRun,
    layouts: LayoutsJson,
    time: TimeJson,
    c: &Checkouts,
    interrupt: &InterruptGuard,
) -> Result<RevisionsOutcome> {
    let stdout_taken = [&o.json, &o.markdown]
        .iter()
        .any(|p| p.as_deref().is_some_and(|p| p.as_os_str() == "-"));
    let say = |text: String| {
        if stdout_taken {
            eprintln!("{text}");
        } else {
            println!("{text}");
        }
    };
    say(table(&rows).trim_end().to_string());
    say(family_note(&run));
    if let Some(note) = budget_note(&run, o.budget) {
        say(note);
    }
    say(layout_note(&rows, &layouts, o.decision_margin()));
    if let Some(note) = margin_note(o) {
        say(note);
    }
    if let Some(note) = placement_note(&run) {
        say(note);
    }
    for note in failure_notes(&rows, &run) {
        // On stderr too, where a CI log's errors are looked for.
        say(note.clone());
        eprintln!("{note}");
    }
    say(time_note(&time, &layouts));
    let gate = regression_note(&rows, o.fail_on_regression);
    if let Some(note) = &gate {
        // Last, where a CI log's reader looks for why the step failed.
        say(note.clone());
    }
    let mut md = markdown(&rows, &run, &c.baseline_commit, &c.head_commit, c.dirty)
        + &format!("\n{}\n", layout_note(&rows, &layouts, o.decision_margin()));
    if let Some(note) = margin_note(o) {
        md.push_str(&format!("\n{note}\n"));
    }
    if let Some(note) = budget_note(&run, o.budget) {
        md.push_str(&format!("\n{note}\n"));
    }
    md.push_str(&format!("\n{}\n", time_note(&time, &layouts)));
    if let Some(note) = gate {
        md.push_str(&format!("\n{note}\n"));
    }
    let exit_code = exit_status(o, &rows, &run, interrupt);
    let json = BenchJson {
        schema_version: BENCH_JSON_VERSION,
        baseline_commit: c.baseline_commit.clone(),
        head_commit: c.head_commit.clone(),
        dirty: c.dirty,
        family_level: run.family_level,
        layouts,
        time,
        stopped: run.stopped,
        stop_reason: run.stop_reason.clone(),
        benchmarks: rows,
        details: run,
    };
    write_outputs(o, &json, &md)?;
    Ok(RevisionsOutcome {
        json,
        markdown: md,
        exit_code,
        target_dir: PathBuf::new(),
    })
}

/// Writes `--json`, `--markdown` and `--html` (each to a temporary file renamed into place), and
/// appends the summary to `$GITHUB_STEP_SUMMARY`. Errors: [`Error::Io`] naming the file.
fn write_outputs(o: &RevisionsOptions, json: &BenchJson, md: &str) -> Result<()> {
    let write = |path: &Path, text: &str| -> Result<()> {
        if path.as_os_str() == "-" {
            let mut out = std::io::stdout().lock();
            return out
                .write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| Error::io(path, e));
        }
        // Beside it, then renamed: a reader never sees half a file.
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                Error::io(path, e)
            })
    };
    if let Some(path) = &o.json {
        let text = serde_json::to_string_pretty(json).map_err(Error::json)? + "\n";
        write(path, &text)?;
    }
    if let Some(path) = &o.markdown {
        write(path, md)?;
    }
    #[cfg(feature = "html")]
    if let Some(path) = &o.html {
        json.details.write_html(path)?;
    }
    if o.step_summary
        && let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|s| !s.is_empty())
    {
        let path = PathBuf::from(summary);
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path)
            .and_then(|mut f| f.write_all(md.as_bytes()))
            .map_err(|e| Error::io(&path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wider_regression_budget_is_the_margin_the_run_decides_at() {
        let o = |margin: f64, budget: Option<f64>| RevisionsOptions {
            margin,
            fail_on_regression: budget,
            ..RevisionsOptions::default()
        };
        assert_eq!(o(0.01, None).decision_margin(), 0.01);
        // Any amount (0) and a budget inside the margin leave the margin.
        assert_eq!(o(0.01, Some(0.0)).decision_margin(), 0.01);
        assert_eq!(o(0.03, Some(0.02)).decision_margin(), 0.03);
        assert_eq!(o(0.01, Some(0.02)).decision_margin(), 0.02);
        // Beyond 50 % "equivalent within ±budget" means nothing: the margin stays.
        assert_eq!(o(0.01, Some(0.8)).decision_margin(), 0.01);
        assert_eq!(margin_note(&o(0.01, Some(0.0))), None);
        let note = margin_note(&o(0.01, Some(0.02))).unwrap();
        assert!(
            note.contains("±2.0 %") && note.contains("1.0 % margin"),
            "{note}"
        );
    }
}
