//! `rtcompare bench`: one bench target at two revisions, benchmark by benchmark.
//!
//! The baseline revision is checked out pristine into a temporary worktree (removed on
//! success, failure and Ctrl-C, as `rtcompare git` does); the bench target is built there and
//! in the working tree (or at `--head`), each with its **own** target directory, so that a
//! shared `CARGO_TARGET_DIR` cannot let the second build overwrite the first (`build.rs`).
//! Then [`rtcompare::bench::compare_layouts`] compares every benchmark both builds register,
//! through worker processes of each build, each worker pair on its own code layout of the
//! two, relinked when a pair first needs it; `table.rs` shows the result.

mod build;
mod table;

use std::io::Write;
use std::path::{Path, PathBuf};

use rtcompare::bench::{BuildsOptions, BuildsProgress, BuildsRun, Stopped, compare_layouts};
use rtcompare::progress::Status;
use serde::Serialize;

use crate::cli::BenchArgs;
use crate::error::{CliError, EXIT_BENCH_FAILED, EXIT_ERROR, EXIT_OK, EXIT_REGRESSION, Result};
use crate::export::html::Html;
use crate::export::json::Json;
use crate::export::markdown::Markdown;
use crate::export::{ExportTarget, Exporter, Exports};
use crate::git::{Revisions, TempWorktree, working_target};
use crate::signals;
use build::{FirstLayout, Tree, bench_targets, build, layout_seed, only_bench_target};
pub use table::{
    BENCH_JSON_VERSION, BenchJson, BenchRow, LayoutsJson, failure_notes, layout_note, markdown,
    table,
};
use table::{budget_note, family_note, placement_note};

/// Runs `rtcompare bench` from the current directory's repository, writing `exports`;
/// returns the exit status. Every flag and output path was checked before (see
/// [`crate::plan`]), so a mistake costs no build.
pub(crate) fn run(args: &BenchArgs, exports: &Exports<BenchOutput>) -> Result<i32> {
    let cwd = std::env::current_dir().map_err(|source| CliError::System {
        call: "getcwd",
        source,
    })?;
    let bench = match &args.bench {
        Some(b) => b.clone(),
        None => only_bench_target(&cwd)?,
    };
    let checkouts = Checkouts::new(&cwd, args)?;
    let seed = rtcompare::rng::resolve_seed(args.seed);
    let (run, layouts) = match checkouts.build(&cwd, &bench, args, seed)? {
        Built::Both(trees, first) => compare(trees, &bench, first, args, seed)?,
        Built::HeadOnly(trees, head) => {
            let [base, head_tree] = trees;
            let options = options(args, seed, &base, &head_tree, 1);
            let run = rtcompare::bench::only_head(&head, &options)?;
            let layouts = LayoutsJson {
                baseline_variants: 0,
                head_variants: 1,
                shuffled: false,
                seeds: Vec::new(),
                note: Some(format!(
                    "The baseline ({}) has no bench target `{bench}`: every benchmark is new.",
                    args.baseline
                )),
                seconds: 0.0,
            };
            eprintln!("{}", layouts.note.as_deref().unwrap_or_default());
            (run, layouts)
        }
    };
    let rows: Vec<BenchRow> = run.benchmarks.iter().map(BenchRow::of).collect();
    report(args, exports, &rows, &run, &layouts, &checkouts)?;
    let history = crate::history::dir(&working_target(&cwd, &checkouts.top));
    let commits = (
        checkouts.baseline_commit.as_str(),
        checkouts.head_commit.as_str(),
        checkouts.dirty,
    );
    for w in crate::history::record_bench(&history, &run, commits) {
        eprintln!("warning: {w}");
    }
    // The worktrees go, the head's first.
    drop(checkouts);
    Ok(exit_status(args, &rows, &run))
}

/// The exit status of a run that reported: the signal's after an interruption (130, 143),
/// [`EXIT_ERROR`] when a layout could not be built, [`EXIT_BENCH_FAILED`] when a benchmark
/// failed, [`EXIT_REGRESSION`] with `--fail-on-regression` past its budget, else 0. A failure
/// outranks a regression: a benchmark that did not run cannot pass a gate.
fn exit_status(args: &BenchArgs, rows: &[BenchRow], run: &BuildsRun) -> i32 {
    let regressed = args
        .fail_on_regression
        .is_some_and(|budget| rows.iter().any(|r| r.beyond(budget)));
    match run.stopped {
        Some(Stopped::Interrupted) => return signals::exit_code(),
        Some(_) => return EXIT_ERROR,
        None => {}
    }
    if run.failed().next().is_some() {
        EXIT_BENCH_FAILED
    } else if regressed {
        EXIT_REGRESSION
    } else {
        EXIT_OK
    }
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
        let Revisions {
            top,
            base_commit: baseline_commit,
            head_rev,
            head_commit,
            dirty,
        } = Revisions::resolve(cwd, &args.baseline, args.head.as_deref())?;
        let rel = cwd
            .strip_prefix(&top)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        let base_tree = TempWorktree::add_as(&top, &baseline_commit, "baseline")?;
        let head_tree = head_rev
            .as_deref()
            .map(|c| TempWorktree::add_as(&top, c, "head"))
            .transpose()?;
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

    /// The two revisions' trees (the baseline's first), each with its own target directory.
    fn trees(&self, cwd: &Path, args: &BenchArgs) -> [Tree; 2] {
        // The working tree's target directory, and beneath it one for each checked-out
        // revision: kept between runs so that only the crate itself is rebuilt, never shared
        // between two builds of one run.
        // `rtcompare git`'s rule: a relative `CARGO_TARGET_DIR` is the working tree's, as
        // cargo reads it from here; taken as it is, the baseline's would land inside its
        // temporary worktree and be rebuilt from nothing every run.
        let target = working_target(cwd, &self.top);
        let base = Tree {
            dir: self.base_tree.path().join(&self.rel),
            target: target.join("rtcompare").join("bench-baseline"),
            revision: format!("the baseline ({})", args.baseline),
        };
        let head = match &self.head_tree {
            Some(t) => Tree {
                dir: t.path().join(&self.rel),
                target: target.join("rtcompare").join("bench-head"),
                revision: "the head".into(),
            },
            None => Tree {
                dir: cwd.to_path_buf(),
                target,
                revision: "the working tree".into(),
            },
        };
        [base, head]
    }

    /// Builds the bench target `bench` at both revisions, the baseline first, then, with more
    /// than one layout asked for, relinks both as layout 0: returns the trees and the first
    /// layout, whose note says why it is the only one when the linker cannot shuffle. A
    /// baseline without the bench target (the change that adds it) is not built:
    /// [`Built::HeadOnly`].
    fn build(&self, cwd: &Path, bench: &str, args: &BenchArgs, seed: u64) -> Result<Built> {
        let trees = self.trees(cwd, args);
        // The package itself may be new at the head.
        let at_baseline = trees[0].dir.join("Cargo.toml").is_file()
            && bench_targets(&trees[0].dir)?.iter().any(|b| b == bench);
        if !at_baseline {
            let head = build(&trees[1], bench, None)?.map_err(|f| f.error)?;
            return Ok(Built::HeadOnly(trees, head));
        }
        let mut plain = Vec::new();
        for tree in &trees {
            // A plain build's failure is already CliError::Build; the inner one is a relink's.
            plain.push(build(tree, bench, None)?.map_err(|f| f.error)?);
        }
        let plain = (plain[0].clone(), plain[1].clone());
        if args.layouts <= 1 {
            return Ok(Built::Both(
                trees,
                FirstLayout {
                    exes: plain,
                    seed: None,
                    note: None,
                },
            ));
        }
        let seed0 = layout_seed(seed, 0);
        eprintln!(
            "linking layout 1 of at most {} (code-order seed {seed0})",
            args.layouts
        );
        let mut shuffled = Vec::new();
        for tree in &trees {
            match build(tree, bench, Some(seed0))? {
                Ok(exe) => shuffled.push(exe),
                Err(f) if f.no_shuffle => {
                    let note = format!(
                        "One code layout: the linker cannot shuffle sections \
                         (--shuffle-sections, LLD's), so the intervals do not include code \
                         placement. {}",
                        f.error.to_string().lines().last().unwrap_or("").trim()
                    );
                    eprintln!("{note}");
                    return Ok(Built::Both(
                        trees,
                        FirstLayout {
                            exes: plain,
                            seed: None,
                            note: Some(note),
                        },
                    ));
                }
                Err(f) => return Err(f.error),
            }
        }
        let exes = (shuffled[0].clone(), shuffled[1].clone());
        Ok(Built::Both(
            trees,
            FirstLayout {
                exes,
                seed: Some(seed0),
                note: None,
            },
        ))
    }
}

/// What [`Checkouts::build`] built.
enum Built {
    /// Both revisions, and their first layout.
    Both([Tree; 2], FirstLayout),
    /// The head only, at this executable: the baseline has no such bench target.
    HeadOnly([Tree; 2], PathBuf),
}

/// The comparison's options from the flags: each build's workers start in its own tree's
/// package directory, as `cargo bench` runs a bench binary in its package's root, so that
/// data files read by relative path are each revision's own; SIGINT and SIGTERM stop the
/// pairs at the next batch.
fn options(args: &BenchArgs, seed: u64, base: &Tree, head: &Tree, layouts: usize) -> BuildsOptions {
    let options = BuildsOptions::default()
        .working_dirs(base.dir.clone(), head.dir.clone())
        .layouts(layouts)
        .margin(args.margin)
        .pairs(args.pairs)
        .max_pairs(args.max_pairs)
        .family_wise(!args.per_benchmark)
        .cpu_per_pair(!args.no_cpu_per_pair)
        .seed(seed)
        .cancel(signals::token())
        .decide(!args.precision)
        .budget(args.budget)
        .exact(args.exact);
    let options = args.skip.iter().fold(options, |o, s| o.skip(s.clone()));
    match &args.filter {
        Some(f) => options.filter(f.clone()),
        None => options,
    }
}

/// Compares every benchmark the two builds register over their layouts (relinking each
/// layout after the first when a pair first needs it), with the progress line on stderr
/// (cleared before this returns, so the table follows it).
fn compare(
    cwd_trees: [Tree; 2],
    bench: &str,
    first: FirstLayout,
    args: &BenchArgs,
    seed: u64,
) -> Result<(BuildsRun, LayoutsJson)> {
    let [base, head] = cwd_trees;
    let layouts = if first.seed.is_some() {
        args.layouts
    } else {
        1
    };
    let options = options(args, seed, &base, &head, layouts).progress(progress());
    let mut seeds: Vec<u64> = first.seed.into_iter().collect();
    let mut first_exes = Some(first.exes);
    let run = compare_layouts(
        |i| {
            if let Some(exes) = first_exes.take() {
                return Ok(exes);
            }
            let s = layout_seed(seed, i);
            seeds.push(s);
            let variant = |tree: &Tree| {
                build(tree, bench, Some(s))
                    .map_err(|e| e.to_string())
                    .and_then(|r| r.map_err(|f| f.error.to_string()))
                    .map_err(|reason| rtcompare::Error::Variant { variant: i, reason })
            };
            // One after the other: cargo and the linker already use every CPU, and relinking
            // both at once was no faster (BACKGROUND.md, "Code placement").
            Ok((variant(&base)?, variant(&head)?))
        },
        &options,
    );
    // The progress line goes before the table is printed.
    drop(options);
    let run = run?;
    let layouts = LayoutsJson {
        baseline_variants: run.layout_variants,
        head_variants: run.layout_variants,
        shuffled: !seeds.is_empty(),
        seeds,
        note: first.note,
        seconds: run.layout_seconds,
    };
    Ok((run, layouts))
}

/// What `rtcompare bench` writes: its JSON (whose `details` the HTML pages draw) and the
/// Markdown summary.
#[derive(Serialize)]
#[serde(transparent)]
pub struct BenchOutput {
    /// The JSON.
    pub json: BenchJson,
    /// The Markdown summary (also appended to `$GITHUB_STEP_SUMMARY`).
    #[serde(skip)]
    pub markdown: String,
}

/// `--html`: the library's index, with a page per benchmark beside it.
impl Exporter<BenchOutput> for Html {
    /// The index alone cannot be had as text: its pages are written beside it.
    fn render(&self, _: &BenchOutput) -> Result<String> {
        Err(CliError::Usage(
            "bench's --html writes several pages beside its file: give it a file".into(),
        ))
    }

    fn export(&self, o: &BenchOutput, target: &ExportTarget) -> Result<()> {
        match target {
            ExportTarget::File(path) => o
                .json
                .details
                .write_html(path)
                .map(drop)
                .map_err(Into::into),
            ExportTarget::Stdout => self.render(o).map(drop),
        }
    }

    fn file_only(&self) -> bool {
        true
    }
}

/// `--markdown`: the summary for a pull request.
impl Exporter<BenchOutput> for Markdown {
    fn render(&self, o: &BenchOutput) -> Result<String> {
        Ok(o.markdown.clone())
    }
}

/// The outputs `args` asks for: `--json`, `--markdown`, `--html`.
pub(crate) fn exports(args: &BenchArgs) -> Exports<BenchOutput> {
    Exports::new()
        .with("--json", args.json.as_deref(), Json)
        .with("--markdown", args.markdown.as_deref(), Markdown)
        .with("--html", args.html.as_deref(), Html)
}

/// The table and the notes on stdout (on stderr when an output takes stdout), then the
/// outputs and the GitHub step summary.
fn report(
    args: &BenchArgs,
    exports: &Exports<BenchOutput>,
    rows: &[BenchRow],
    run: &BuildsRun,
    layouts: &LayoutsJson,
    c: &Checkouts,
) -> Result<()> {
    let say = |text: String| {
        if exports.to_stdout() {
            eprintln!("{text}");
        } else {
            println!("{text}");
        }
    };
    say(table(rows).trim_end().to_string());
    say(family_note(run));
    if let Some(note) = budget_note(run, args.budget) {
        say(note);
    }
    say(layout_note(rows, layouts, args.margin));
    if let Some(note) = placement_note(run) {
        say(note);
    }
    for note in failure_notes(rows, run) {
        // On stderr too, where a CI log's errors are looked for.
        say(note.clone());
        eprintln!("{note}");
    }
    let mut md = markdown(rows, run, &c.baseline_commit, &c.head_commit, c.dirty)
        + &format!("\n{}\n", layout_note(rows, layouts, args.margin));
    if let Some(note) = budget_note(run, args.budget) {
        md.push_str(&format!("\n{note}\n"));
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
    let json = BenchJson {
        schema_version: BENCH_JSON_VERSION,
        baseline_commit: c.baseline_commit.clone(),
        head_commit: c.head_commit.clone(),
        dirty: c.dirty,
        family_level: run.family_level,
        layouts: layouts.clone(),
        stopped: run.stopped,
        stop_reason: run.stop_reason.clone(),
        benchmarks: rows.to_vec(),
        // A copy, so that the output owns what it writes: the run is the largest part, and
        // is written once.
        details: run.clone(),
    };
    exports.write(&BenchOutput { json, markdown: md })
}

/// The progress on stderr, between worker pairs: on a terminal one line redrawn in place
/// (benchmark i of m, its pairs, the last pair's δ); otherwise one line per finished
/// benchmark's first stage and per pair after it, for CI logs. The line (the library's
/// [`Status`]) is cleared when the options holding it are dropped.
fn progress() -> impl Fn(&BuildsProgress) + Send + Sync + 'static {
    let line = Status::new("{spinner} [{elapsed_precise}] {msg}");
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
        if line.is_drawn() || p.pairs_done >= p.pairs_planned {
            line.log(text);
        }
    }
}

/// Checks the flags before anything is built: a mistake costs a second, not two builds (the
/// outputs are checked with [`exports`]).
pub(crate) fn check_args(args: &BenchArgs) -> Result<()> {
    if args.pairs < 3 {
        return Err(CliError::Usage(format!(
            "--pairs must be at least 3 (pooling needs three worker pairs); got {}",
            args.pairs
        )));
    }
    if args.layouts == 0 || (args.layouts > 1 && args.layouts < args.pairs) {
        return Err(CliError::Usage(format!(
            "--layouts must be 1 (the plain builds) or at least --pairs ({}), so that every \
             worker pair runs its own code layout; got {}",
            args.pairs, args.layouts
        )));
    }
    if args.max_pairs < args.pairs {
        return Err(CliError::Usage(format!(
            "--max-pairs ({}) must be at least --pairs ({})",
            args.max_pairs, args.pairs
        )));
    }
    Ok(())
}
