//! What a comparison of revisions shows: a row per benchmark, the JSON, the sentences under
//! the table, the terminal table and the Markdown summary. Plain data and text: nothing here
//! measures, builds or writes.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::bench::{BuildComparison, BuildStatus, BuildsRun, Stopped};
use crate::display::{Ns, Pct, SignedPct};
use crate::stats::DecisionEnd;
use crate::stats::{Bounds, Change, Scale, over_budget};

/// Version of the JSON a comparison of revisions writes (`--json`). Version 2 adds each
/// row's `change`, `change_low`, `change_high` (the head's time against the baseline's, plus
/// meaning slower) and `words`; version 1's fields are all still written, so a reader of
/// version 1 reads version 2, and [`BenchRow`] reads both (the new fields are absent from
/// version 1). `time` (where the run's seconds went) and the layouts' `relinked_by` and
/// `relink_notes` came later within version 2: optional, so that every reader of version 2
/// reads them or passes them by, and [`BenchJson`] reads files without them (empty).
pub const BENCH_JSON_VERSION: u32 = 2;

/// One benchmark as the JSON and the tables show it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchRow {
    /// The registered name.
    pub name: String,
    /// `compared`, `new` (head only), `removed` (baseline only), `failed` (a worker pair
    /// failed twice: see `reason`) or `stopped` (the run stopped before its pairs).
    pub status: BuildStatus,
    /// Why it failed (the pair, the build and the error, with a panic's message) or was not
    /// compared; `null` for the others.
    pub reason: Option<String>,
    /// Pairs that failed once and were run again with fresh workers, each with why; empty
    /// when none did.
    pub retried: Vec<String>,
    /// The head's change in time against the baseline, `head/baseline − 1` as a fraction
    /// (+ = slower: 0.021 is 2.1 % slower); compared only. The number the table, the Markdown
    /// and the gate print.
    #[serde(default)]
    pub change: Option<f64>,
    /// Lower end of the change's interval (fraction).
    #[serde(default)]
    pub change_low: Option<f64>,
    /// Upper end of the change's interval (fraction).
    #[serde(default)]
    pub change_high: Option<f64>,
    /// The verdict in the words every front end prints ("2.1 % slower [+1.7 %, +2.5 %]",
    /// "equivalent within ±1.0 %: …", "cannot tell (within ±0.8 %): …"); compared only.
    #[serde(default)]
    pub words: Option<String>,
    /// δ = 1 − head/baseline, the library's relative difference (+ = the head is faster, so
    /// `−change`), kept for readers of schema 1; compared only.
    pub delta: Option<f64>,
    /// Lower end of δ's interval.
    pub low: Option<f64>,
    /// Upper end of δ's interval.
    pub high: Option<f64>,
    /// Whether the pooled comparison resolved.
    pub resolved: bool,
    /// Resolved with the head slower.
    pub regression: bool,
    /// Decided equivalent: the interval lies within ±margin, no change that matters.
    pub equivalent: bool,
    /// With a decision that could not tell: the largest change its interval still allows
    /// (fraction), so any change beyond it is ruled out; `null` otherwise.
    pub rules_out_beyond: Option<f64>,
    /// Worker pairs pooled.
    pub processes: usize,
    /// The baseline's time per operation, ns: the median over worker pairs of each pair's
    /// mean; compared only.
    pub baseline_ns: Option<f64>,
    /// The head's time per operation, ns, likewise.
    pub head_ns: Option<f64>,
    /// Distinct code layouts its worker pairs ran (0 unless compared; 1: one layout).
    pub layout_variants: usize,
    /// How far δ moves between code layouts for 95 % of them (fraction: 1.96 × the layouts'
    /// standard deviation); `None` with fewer than two layouts.
    pub layout_moves: Option<f64>,
    /// The layouts' share of the variance between its worker pairs (0 to 1); `None` with
    /// fewer than two layouts.
    pub layout_share: Option<f64>,
    /// Whether its layouts were shown to move it by more than the margin: one build's figure
    /// for it says little.
    pub layout_beyond_margin: bool,
}

impl BenchRow {
    /// The row of one benchmark's comparison.
    pub fn of(b: &BuildComparison) -> BenchRow {
        let p = b.pooled.as_ref();
        let resolved = p.is_some_and(|p| p.resolved);
        BenchRow {
            name: b.name.clone(),
            status: b.status,
            reason: match b.status {
                BuildStatus::Failed => b.failure.as_ref().map(ToString::to_string),
                BuildStatus::Stopped => Some("the run stopped before its pairs".into()),
                _ => None,
            },
            retried: b.retried.iter().map(ToString::to_string).collect(),
            change: p.map(|p| -p.delta),
            change_low: p.map(|p| -p.high),
            change_high: p.map(|p| -p.low),
            words: p.map(|p| {
                p.verdict
                    .in_words_with(crate::stats::Change::of_delta(p.delta, p.low, p.high))
            }),
            delta: p.map(|p| p.delta),
            low: p.map(|p| p.low),
            high: p.map(|p| p.high),
            resolved,
            regression: resolved && p.is_some_and(|p| p.delta < 0.0),
            equivalent: p
                .is_some_and(|p| matches!(p.verdict, crate::stats::Verdict::Equivalent { .. })),
            // What the last look's interval leaves open, or the floor where the floor is what
            // kept the verdict from a claim: the words' "within ±X" too.
            rules_out_beyond: p.and_then(|p| {
                let look = p
                    .decision
                    .as_ref()
                    .and_then(|d| d.looks.last())
                    .filter(|l| !l.outcome.decided())
                    .map(|l| l.rules_out_beyond);
                match (look, p.verdict.floor_that_stopped()) {
                    (Some(x), floor) => Some(x.max(floor.unwrap_or(0.0))),
                    (None, floor) => floor,
                }
            }),
            processes: p.map_or(0, |p| p.processes),
            baseline_ns: median_over(&b.reports, |r| r.ns_per_op_b),
            head_ns: median_over(&b.reports, |r| r.ns_per_op_a),
            layout_variants: match (&b.layout, b.reports.is_empty()) {
                (Some(l), _) => l.layout_variants,
                (None, true) => 0,
                (None, false) => 1,
            },
            layout_moves: b.layout.as_ref().map(|l| l.layout_moves),
            layout_share: b.layout.as_ref().map(|l| l.layout_share),
            layout_beyond_margin: b.layout.as_ref().is_some_and(|l| l.beyond_margin),
        }
    }

    /// The `--fail-on-regression` check ([`over_budget`]): the head proven slower (its
    /// interval above zero) and its estimated slowdown beyond `budget` (a fraction; 0: any).
    /// `false` for a benchmark not compared.
    pub fn over_budget(&self, budget: f64) -> bool {
        match (self.delta, self.low, self.high) {
            (Some(delta), Some(low), Some(high)) => Bounds::of_interval(low, high, Scale::Speedup)
                .is_ok_and(|b| over_budget(b, 0.0, -delta, budget)),
            _ => false,
        }
    }

    /// The head's change with its interval ("2.8 % slower [+1.4 %, +4.2 %]"): what the
    /// regression note names a failing benchmark by, since its verdict can be "cannot tell"
    /// against the margin while its estimate is over the budget. The row's words where a file
    /// of schema 1 lacks the change.
    fn change_in_words(&self) -> String {
        match (self.change, self.change_low, self.change_high) {
            (Some(change), Some(low), Some(high)) => Change { change, low, high }.to_string(),
            _ => self.words.clone().unwrap_or_else(|| "slower".into()),
        }
    }

    /// A compared benchmark's outcome for the head in a word: `equivalent`, `SLOWER` (in
    /// capitals, the one a reader must not miss) or `faster` when resolved, else
    /// `cannot tell`.
    fn outcome(&self) -> &'static str {
        match (self.resolved, self.delta) {
            _ if self.equivalent => "equivalent",
            (true, Some(d)) if d < 0.0 => "SLOWER",
            (true, _) => "faster",
            _ => CANNOT_TELL,
        }
    }

    /// The verdict cell's word: the status of a benchmark not compared, else its outcome.
    fn verdict(&self) -> &'static str {
        status_word(self.status).unwrap_or_else(|| self.outcome())
    }

    /// The row's cells after the name: baseline and head per operation, the head's change with
    /// its interval (+ = slower),
    /// the verdict, the pairs and how far layouts move the change, as the terminal table and the
    /// Markdown show them.
    fn cells(&self) -> [String; 6] {
        [
            per_op(self.baseline_ns),
            per_op(self.head_ns),
            self.interval(),
            match self.rules_out_beyond {
                Some(x) if status_word(self.status).is_none() && self.outcome() == CANNOT_TELL => {
                    format!("cannot tell below ±{}", Pct(x))
                }
                _ => self.verdict().to_string(),
            },
            self.processes.to_string(),
            match self.layout_moves {
                Some(m) if self.layout_beyond_margin => format!("±{} !", Pct(m)),
                Some(m) => format!("±{}", Pct(m)),
                None => "–".into(),
            },
        ]
    }

    fn interval(&self) -> String {
        // Read from δ, so that a row of schema 1 (no change fields) prints the same.
        match (self.delta, self.low, self.high) {
            (Some(d), Some(l), Some(h)) => {
                format!("{} [{}, {}]", SignedPct(-d), SignedPct(-h), SignedPct(-l))
            }
            _ => "–".to_string(),
        }
    }
}

const CANNOT_TELL: &str = "cannot tell";

/// The word for a benchmark that was not compared (`new`, `removed`, `FAILED`, `stopped`);
/// `None` for a compared one, whose outcome says it.
pub(crate) fn status_word(status: BuildStatus) -> Option<&'static str> {
    match status {
        BuildStatus::New => Some("new"),
        BuildStatus::Removed => Some("removed"),
        BuildStatus::Failed => Some("FAILED"),
        BuildStatus::Stopped => Some("stopped"),
        // Compared, and any status a later version adds: its outcome says it.
        _ => None,
    }
}

/// The median over worker pairs of one number of their reports; `None` without reports.
fn median_over(
    reports: &[crate::compare::report::Report],
    f: fn(&crate::compare::report::Report) -> f64,
) -> Option<f64> {
    let xs: Vec<f64> = reports.iter().map(f).collect();
    crate::stats::median(&xs).ok()
}

/// A time per operation, or a dash when there is none.
fn per_op(ns: Option<f64>) -> String {
    ns.map_or("–".into(), |ns| Ns(ns).to_string())
}

/// What `--json` writes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchJson {
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
    /// The code layouts of the two builds.
    pub layouts: LayoutsJson,
    /// Where the run's time went: building each side, linking layouts, measuring.
    #[serde(default)]
    pub time: TimeJson,
    /// `"interrupted"` (SIGINT or SIGTERM) or `"layout_failed"` when the run stopped early,
    /// keeping what it had measured; `null` when it ran to its end.
    pub stopped: Option<Stopped>,
    /// What stopped it, in words; `null` when it was not stopped.
    pub stop_reason: Option<String>,
    /// One row per benchmark.
    pub benchmarks: Vec<BenchRow>,
    /// Everything behind the rows: every benchmark's pooled result and worker-pair reports.
    pub details: BuildsRun,
}

/// How the run's code layouts were made, as the JSON and the notes say it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LayoutsJson {
    /// Layout variants of the baseline that worker pairs ran.
    pub baseline_variants: usize,
    /// Layout variants of the head (as many as the baseline's: variant i of each was linked
    /// with the same seed).
    pub head_variants: usize,
    /// Whether the variants were linked with shuffled code orders (false: one plain layout).
    pub shuffled: bool,
    /// Each variant's seed for the linker's `--shuffle-sections=*=SEED`, in variant order.
    pub seeds: Vec<u64>,
    /// Why there was one layout when more were asked for (the linker cannot shuffle).
    pub note: Option<String>,
    /// Wall time the worker pairs waited for layouts after the first, in seconds.
    pub seconds: f64,
    /// How the layouts were made: `linker` (each build's link command, captured once, run
    /// again with each layout's seed), `cargo` (`cargo rustc`, compiling the bench crate
    /// again for each layout, where the link command could not be captured), or the
    /// baseline's and the head's way apart (`linker, cargo`); empty with one layout.
    #[serde(default)]
    pub relinked_by: String,
    /// Why a build's layouts were made by cargo rather than by its link command.
    #[serde(default)]
    pub relink_notes: Vec<String>,
}

/// Where a run's time went, in seconds of wall time. Building includes capturing each
/// build's link command; linking overlaps measuring where it ran ahead on a free CPU, so the
/// parts can add up to more than the whole.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeJson {
    /// Building the baseline's bench target (0 when it has none).
    pub build_baseline_seconds: f64,
    /// Building the head's bench target.
    pub build_head_seconds: f64,
    /// Linking (or, where the link command could not be captured, relinking through cargo)
    /// the layouts of both builds, every link counted, in all threads.
    pub relink_seconds: f64,
    /// The part of the linking the run waited for: the first layout, and any layout a pair
    /// needed before it was ready.
    pub relink_waited_seconds: f64,
    /// Worker pairs measuring, over all benchmarks.
    pub measure_seconds: f64,
    /// The whole run, from checking the revisions out to the report.
    pub total_seconds: f64,
    /// Whether the checked-out revisions built in the working tree's target directory, so
    /// that the dependencies were compiled once for both (and kept for the next run).
    pub shared_target: bool,
    /// Why a revision built in a target directory of its own, where one did.
    pub notes: Vec<String>,
}

/// The sentence under the table that says where the worker pairs ran, when that limits what
/// the intervals cover: every pair on the one CPU a `taskset` mask allowed, or pairs placed by
/// the system (`--no-cpu-per-pair`). `None` when pairs were spread over several CPUs.
pub(crate) fn placement_note(run: &BuildsRun) -> Option<String> {
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

/// The sentences under the table on code placement: how many layouts each build ran, and the
/// benchmarks whose layout alone moves them beyond the margin (or why there was one layout).
pub(crate) fn layout_note(rows: &[BenchRow], layouts: &LayoutsJson, margin: f64) -> String {
    if !layouts.shuffled {
        return layouts.note.clone().unwrap_or_else(|| {
            "One code layout (--layouts 1): code placement stayed fixed, so a change that only \
             moves code can pass for a difference."
                .into()
        });
    }
    let moved: Vec<String> = rows
        .iter()
        .filter(|r| r.layout_beyond_margin)
        .map(|r| format!("{} by ±{}", r.name, Pct(r.layout_moves.unwrap_or(0.0))))
        .collect();
    let head = format!(
        "Code placement: every worker pair ran its own code layout ({} per build, linked with \
         shuffled sections), so the intervals include it.",
        layouts.baseline_variants
    );
    if moved.is_empty() {
        format!(
            "{head} No benchmark's layout was shown to move it by more than the {} margin.",
            Pct(margin)
        )
    } else {
        format!(
            "{head} Layout alone moves {} (beyond the {} margin, marked !): one build's \
             figure for these says little.",
            moved.join(", "),
            Pct(margin)
        )
    }
}

/// The sentence under the table that says where the run's time went, and why a build had
/// a target directory of its own or relinked through cargo, where one did.
pub(crate) fn time_note(t: &TimeJson, layouts: &LayoutsJson) -> String {
    let s = |x: f64| Ns(x * 1e9).to_string();
    let mut note = format!(
        "Time: building {} for the baseline and {} for the head{}",
        s(t.build_baseline_seconds),
        s(t.build_head_seconds),
        if t.shared_target {
            " (one target directory: the dependencies built once)"
        } else {
            ""
        }
    );
    let made = layouts.seeds.len();
    if made > 0 {
        let by = match layouts.relinked_by.as_str() {
            "linker" => "linking",
            "cargo" => "relinking through cargo",
            _ => "linking and relinking through cargo",
        };
        note.push_str(&format!(
            "; {by} {made} layouts of each, {} (the pairs waited {})",
            s(t.relink_seconds),
            s(t.relink_waited_seconds)
        ));
    }
    note.push_str(&format!(
        "; measuring {}; {} in all.",
        s(t.measure_seconds),
        s(t.total_seconds)
    ));
    for extra in t.notes.iter().chain(&layouts.relink_notes) {
        note.push(' ');
        note.push_str(extra);
    }
    note
}

/// The lines under the table on what did not go as planned: each failed benchmark with its
/// reason, each pair run again, and why the run stopped early. Empty when nothing failed.
pub(crate) fn failure_notes(rows: &[BenchRow], run: &BuildsRun) -> Vec<String> {
    let mut notes = Vec::new();
    for r in rows {
        if r.status == BuildStatus::Failed {
            notes.push(format!(
                "FAILED {}: {}",
                r.name,
                r.reason.as_deref().unwrap_or("no reason recorded")
            ));
        }
        for why in &r.retried {
            notes.push(format!(
                "{}: a worker pair failed and was run again with fresh workers: {why}",
                r.name
            ));
        }
    }
    if let Some(why) = &run.stop_reason {
        let stopped = rows
            .iter()
            .filter(|r| r.status == BuildStatus::Stopped)
            .count();
        notes.push(format!(
            "The run stopped early: {why}. What was measured is kept; {stopped} benchmarks \
             were not compared."
        ));
    }
    notes
}

/// The sentence that says why `--fail-on-regression BUDGET` (a fraction) fails the run or
/// lets it pass, naming each benchmark that fails it ([`BenchRow::over_budget`]) with its change; `None`
/// without the flag. CI logs show only the exit status otherwise.
pub(crate) fn regression_note(rows: &[BenchRow], budget: Option<f64>) -> Option<String> {
    let budget = budget?;
    let beyond: Vec<String> = rows
        .iter()
        .filter(|r| r.over_budget(budget))
        .map(|r| format!("{} ({})", r.name, r.change_in_words()))
        .collect();
    let bar = Pct(budget.abs());
    Some(if beyond.is_empty() {
        format!(
            "--fail-on-regression {bar}: passed; no benchmark is proven slower with an \
             estimated slowdown above {bar}."
        )
    } else {
        format!(
            "--fail-on-regression {bar}: FAILED (exit status 1); proven slower, with an \
             estimated slowdown above {bar}: {}.",
            beyond.join("; ")
        )
    })
}

/// The sentence under the table when time ended decisions: how many benchmarks the time
/// budget left undecided, and whether the first stages alone overran `budget` (zero: none);
/// `None` when every decision ended otherwise.
pub(crate) fn budget_note(run: &BuildsRun, budget: Duration) -> Option<String> {
    let undecided = run
        .benchmarks
        .iter()
        .filter(|b| {
            b.pooled
                .as_ref()
                .and_then(|p| p.decision.as_ref())
                .is_some_and(|d| d.end == DecisionEnd::TimeBudget)
        })
        .count();
    if undecided == 0 {
        return None;
    }
    let spent: f64 = run.benchmarks.iter().map(|b| b.seconds).sum();
    Some(budget_sentence(undecided, spent, budget))
}

/// `budget_note`'s text: `undecided` benchmarks, `spent` seconds of worker pairs.
fn budget_sentence(undecided: usize, spent: f64, budget: Duration) -> String {
    let mut note = format!(
        "The time budget ran out with {undecided} benchmark{} undecided (each says the change \
         it could not rule out); worker pairs took {} in all.",
        if undecided == 1 { "" } else { "s" },
        Ns(spent * 1e9)
    );
    if !budget.is_zero() && spent > budget.as_secs_f64() * 1.05 {
        note.push_str(&format!(
            " The first stages alone overran the {} budget: every benchmark gets one.",
            Ns(budget.as_secs_f64() * 1e9)
        ));
    }
    note.push_str(" A larger --budget decides more of them.");
    note
}

/// The sentence under the table that says at what level the verdicts hold.
pub fn family_note(run: &BuildsRun) -> String {
    let compared = run
        .benchmarks
        .iter()
        .filter(|b| b.status == BuildStatus::Compared)
        .count();
    let decided = run
        .benchmarks
        .iter()
        .any(|b| b.pooled.as_ref().is_some_and(|p| p.decision.is_some()));
    match run.family_level {
        Some(level) if decided => format!(
            "The verdicts hold together: each of the {compared} compared benchmarks was decided \
             sequentially (a look every --pairs pairs) at 1 − {0:.0} %/{compared} (Bonferroni), \
             keeping the chance of any false verdict or false equivalence among them at most \
             {0:.0} %; equivalent means no change beyond ±the margin.",
            100.0 * (1.0 - level)
        ),
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

/// The terminal table.
pub fn table(rows: &[BenchRow]) -> String {
    let mut s = format!(
        "{:<28} {:>11} {:>11} {:<32} {:<12} {:>5} {}\n",
        "benchmark",
        "baseline/op",
        "head/op",
        "change (+ = slower)",
        "verdict",
        "pairs",
        "layouts move"
    );
    for r in rows {
        let [base, head, delta, verdict, pairs, layout] = r.cells();
        s.push_str(&format!(
            "{:<28} {base:>11} {head:>11} {delta:<32} {verdict:<12} {pairs:>5} {layout}\n",
            r.name
        ));
    }
    s
}

/// The Markdown summary for a pull request.
pub fn markdown(rows: &[BenchRow], run: &BuildsRun, base: &str, head: &str, dirty: bool) -> String {
    let short = |c: &str| c.chars().take(10).collect::<String>();
    let mut s = format!(
        "### rtcompare bench: {} against {}{}\n\n| benchmark | baseline/op | head/op | change (+ = slower) | verdict | pairs | layouts move |\n|---|--:|--:|---|---|--:|--:|\n",
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
    for note in failure_notes(rows, run) {
        s.push_str(&format!("\n{note}\n"));
    }
    s.push_str(&format!(
        "\nChange: the head's time against the baseline's, + = slower, pair by pair over the \
         code layouts (baseline/op and head/op are each build's median, which layouts move \
         apart). {}\n",
        family_note(run)
    ));
    if let Some(note) = placement_note(run) {
        s.push_str(&format!("\n{note}\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_note_reads_as_one_sentence() {
        let note = budget_sentence(2, 400.0, Duration::from_secs(300));
        assert!(!note.contains("  "), "{note}");
        assert!(note.contains("2 benchmarks undecided"), "{note}");
        assert!(note.contains("overran the 300.0 s budget"), "{note}");
    }

    /// A compared row whose head changed by `low`..`high` (fractions, + = slower).
    fn row(name: &str, low: f64, high: f64, resolved: bool) -> BenchRow {
        let mid = (low + high) / 2.0;
        serde_json::from_value(serde_json::json!({
            "name": name, "status": "compared", "reason": null, "retried": [],
            "change": mid, "change_low": low, "change_high": high,
            "words": format!("{:.1} % slower", 100.0 * mid),
            "delta": -mid, "low": -high, "high": -low,
            "resolved": resolved, "regression": resolved && mid > 0.0, "equivalent": false,
            "rules_out_beyond": null, "processes": 10, "baseline_ns": 100.0, "head_ns": 103.0,
            "layout_variants": 5, "layout_moves": null, "layout_share": null,
            "layout_beyond_margin": false
        }))
        .unwrap()
    }

    #[test]
    fn the_regression_note_says_why_the_gate_failed_or_passed() {
        let rows = [
            row("work", 0.025, 0.04, true),
            row("same", -0.01, 0.01, false),
            // Proven slower, the interval across the budget: the estimate decides.
            row("over", 0.012, 0.036, false),
            row("near", 0.01, 0.028, false),
            // Over the budget by its estimate, but not proven slower.
            row("wide", -0.002, 0.05, false),
        ];
        assert_eq!(regression_note(&rows, None), None);
        let failed = regression_note(&rows, Some(0.02)).unwrap();
        assert!(failed.contains("FAILED (exit status 1)"), "{failed}");
        assert!(!failed.contains("  "), "{failed}");
        // Only the benchmarks proven slower with an estimate beyond the budget are named.
        assert!(failed.contains("work (3.2 % slower [+2.5"), "{failed}");
        assert!(failed.contains("over (2.4 % slower [+1.2"), "{failed}");
        assert!(
            !failed.contains("near") && !failed.contains("same") && !failed.contains("wide"),
            "{failed}"
        );
        let passed = regression_note(&rows, Some(0.05)).unwrap();
        assert!(
            passed.contains("passed") && !passed.contains("  "),
            "{passed}"
        );
        assert!(passed.contains("5.0 %"), "{passed}");
    }
}
