//! The data of `rtcompare combine`: the machines' estimates pooled per comparison
//! ([`combine`]), the JSON this makes ([`CombineJson`]), and its text forms, the terminal
//! [`table`] and the [`markdown`] summary. Files (read in [`super::inputs`]) must share one
//! kind, one layout version (`schema_version`) that this tool knows, and the same comparisons:
//! the same commands, benchmarks or names, not only the same labels.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Serialize;

use rtcompare::stats::{MachineEstimate, MachineInfluence, MachinesPooled, combine_machines};
use rtcompare::support::stats::MIN_MACHINES;

use super::inputs::{Kind, Machine, MachineFile};
use crate::error::{CliError, Result};
use crate::words;
use rtcompare::Verdict;
use rtcompare::stats::Change;
use rtcompare::stats::{Bounds, Scale, over_budget};
use rtcompare::support::display::{Level, SignedPct};
use rtcompare::support::stats::change_of_ratio;

/// Version of the JSON `rtcompare combine --json` writes.
pub const COMBINE_JSON_VERSION: u32 = 1;

/// One comparison pooled over the machines, as the JSON and the tables show it.
#[derive(Debug, Clone, Serialize)]
pub struct CombinedResult {
    /// The comparison's name (a benchmark, `B vs A`, or `compare`).
    pub name: String,
    /// δ, the mean over machines (fraction, in the inputs' sign convention).
    pub delta: f64,
    /// Lower end of the t interval over machines.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// The verdict over machines.
    pub resolved: bool,
    /// I², the share of the spread between machines beyond their own noise, in [0, 1].
    pub i2: f64,
    /// Whether this comparison fails `--fail-on-regression`: proven slower over machines, with
    /// an estimated slowdown above the budget ([`over_budget`]).
    pub regression: bool,
    /// The candidate's change in time against the baseline over machines (fraction, + =
    /// slower, whatever the kind of input), with its interval: what the tables print.
    pub change: Change,
    /// The verdict over machines with the candidate as side A (`a_faster`: the candidate is
    /// faster), whatever the kind of input.
    pub verdict: Verdict,
    /// The verdict over machines in the words every front end prints.
    pub words: String,
    /// Everything behind it: the random-effects estimate, τ², the outliers and their influence.
    pub pooled: MachinesPooled,
    /// Each machine's own δ with its interval, in input order.
    pub per_machine: Vec<MachineEstimate>,
}

/// What `--json` writes.
#[derive(Debug, Clone, Serialize)]
pub struct CombineJson {
    /// [`COMBINE_JSON_VERSION`].
    pub schema_version: u32,
    /// The kind of the inputs.
    pub kind: Kind,
    /// Machines pooled (input files).
    pub machines: usize,
    /// The distinct machines (CPU model, kernel, cores) with how many inputs each; more than
    /// one entry means a mixed fleet.
    pub fleet: Vec<(Machine, usize)>,
    /// One result per comparison.
    pub results: Vec<CombinedResult>,
    /// One sentence per machine and comparison that the machine refused on its own (see
    /// [`MachineFile::refusals`]); empty when none did.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Pools the files' comparisons machine by machine. Errors: files of different kinds or of
/// different `schema_version`s (both files and versions named), `bench` files of different
/// commits, files that do not describe the same comparisons (the names that differ are
/// listed), or fewer than three machines (what each machine says on its own is listed).
pub fn combine(files: &[MachineFile], budget: Option<f64>) -> Result<CombineJson> {
    let Some(first) = files.first() else {
        return Err(CliError::Usage("give the JSON files to combine".into()));
    };
    for f in files {
        check_alike(first, f)?;
    }
    if files.len() < MIN_MACHINES {
        return Err(CliError::Usage(too_few(files)));
    }
    let mut results = Vec::new();
    for compared in &first.estimates {
        let per_machine: Vec<MachineEstimate> = files
            .iter()
            .filter_map(|f| f.estimates.iter().find(|e| e.id == compared.id))
            .map(|e| e.estimate.clone())
            .collect();
        // Fewer than MIN_MACHINES were refused above, with each machine's own result.
        let pooled = combine_machines(
            &per_machine,
            0.95,
            rtcompare::support::stats::DEFAULT_MARGIN,
        )?;
        let (change, verdict) = candidate_view(first.kind, &pooled);
        // The gate: the interval in the inputs' own sign, the estimate as the change.
        let regression = budget.is_some_and(|b| {
            Bounds::of_interval(pooled.low, pooled.high, first.kind.scale())
                .is_ok_and(|bounds| over_budget(bounds, 0.0, change.change, b))
        });
        results.push(CombinedResult {
            words: verdict.in_words_with(change),
            verdict,
            change,
            name: compared.label.clone(),
            delta: pooled.delta,
            low: pooled.low,
            high: pooled.high,
            resolved: pooled.resolved,
            i2: pooled.i2,
            regression,
            pooled,
            per_machine,
        });
    }
    let notes = files
        .iter()
        .flat_map(|f| {
            f.refusals.iter().map(|(name, bar)| {
                format!(
                    "{}: `{name}` was refused on that machine alone ({bar}); its interval is \
                     pooled with the others as it stands, so read that machine's own report",
                    f.path.display()
                )
            })
        })
        .collect();
    Ok(CombineJson {
        notes,
        schema_version: COMBINE_JSON_VERSION,
        kind: first.kind,
        machines: files.len(),
        fleet: fleet(files),
        results,
    })
}

/// The distinct machines of `files`, each with how many inputs ran on it, in input order.
fn fleet(files: &[MachineFile]) -> Vec<(Machine, usize)> {
    let mut fleet: Vec<(Machine, usize)> = Vec::new();
    for f in files {
        match fleet.iter_mut().find(|(m, _)| *m == f.machine) {
            Some((_, n)) => *n += 1,
            None => fleet.push((f.machine.clone(), 1)),
        }
    }
    fleet
}

/// Refuses `f` unless it is of `first`'s kind and layout version, compares the same commits,
/// and describes the same comparisons (each named with what it compares and where).
fn check_alike(first: &MachineFile, f: &MachineFile) -> Result<()> {
    if f.kind != first.kind {
        return Err(CliError::Usage(format!(
            "{} is a {:?} result and {} a {:?} result: combine results of one kind",
            first.path.display(),
            first.kind,
            f.path.display(),
            f.kind
        )));
    }
    if f.schema_version != first.schema_version {
        let says = |m: &MachineFile| match m.schema_version {
            Some(v) => format!("{} has schema_version {v}", m.path.display()),
            None => format!(
                "{} has no schema_version (written before its layout carried one)",
                m.path.display()
            ),
        };
        return Err(CliError::Usage(format!(
            "{} and {}: results of different layouts come from different versions of \
             rtcompare, whose numbers need not mean the same; measure every machine with one \
             version",
            says(first),
            says(f)
        )));
    }
    if f.commits != first.commits {
        return Err(CliError::Usage(format!(
            "{} compares other commits than {} ({:?} against {:?}): runners must build the \
             same two revisions",
            f.path.display(),
            first.path.display(),
            f.commits,
            first.commits
        )));
    }
    let ids = |m: &MachineFile| m.estimates.iter().map(|e| e.id.clone()).collect();
    let (a, b): (BTreeSet<String>, BTreeSet<String>) = (ids(first), ids(f));
    if a == b {
        return Ok(());
    }
    let only = |set: &BTreeSet<String>, other: &BTreeSet<String>, m: &MachineFile| {
        set.difference(other)
            .map(|id| format!("{} in {} only", described(m, id), m.path.display()))
            .collect::<Vec<String>>()
    };
    let differ = [only(&a, &b, first), only(&b, &a, f)].concat();
    Err(CliError::Usage(format!(
        "{} and {} do not describe the same comparisons, so none is pooled: {}",
        first.path.display(),
        f.path.display(),
        differ.join("; ")
    )))
}

/// The comparison `id` of `m` in words: its label, and what it compares where that says more.
fn described(m: &MachineFile, id: &str) -> String {
    match m.estimates.iter().find(|e| e.id == id) {
        Some(e) if e.label != e.id => format!("{} ({})", e.label, e.id),
        _ => id.to_string(),
    }
}

/// The refusal of fewer than [`MIN_MACHINES`] machines, with what each machine says about
/// each comparison on its own.
fn too_few(files: &[MachineFile]) -> String {
    let mut s = format!(
        "{} machine{}: pooling needs at least {MIN_MACHINES}, because fewer cannot estimate how \
         much machines differ; the comparison on each machine stands on its own:",
        files.len(),
        if files.len() == 1 { "" } else { "s" }
    );
    let compared = files.first().map_or(&[][..], |f| &f.estimates[..]);
    for c in compared {
        let _ = write!(s, "\n  {}:", c.label);
        for f in files {
            if let Some(e) = f
                .estimates
                .iter()
                .find(|e| e.id == c.id)
                .map(|e| &e.estimate)
            {
                let _ = write!(
                    s,
                    "\n    {}: {} ({} interval)",
                    e.label,
                    change_of(f.kind, e.delta, e.low, e.high),
                    Level(e.level)
                );
            }
        }
    }
    s
}

/// The candidate's change (+ = slower) from a δ and its interval in the inputs' own sign:
/// `bench` and pooled files carry δ = 1 − candidate/baseline (+ = faster), `cmd` files
/// δ = 1 − reference/command (+ = slower). The one place that turns an input's δ into what a
/// person reads.
pub fn change_of(kind: Kind, delta: f64, low: f64, high: f64) -> Change {
    match kind.scale() {
        Scale::Speedup => Change::of_delta(delta, low, high),
        Scale::Slowdown => {
            // time ratio = 1 / (1 − δ), increasing in δ.
            let ratio = |d: f64| 1.0 / (1.0 - d);
            change_of_ratio(ratio(delta), ratio(low), ratio(high))
        }
    }
}

/// The candidate's change (+ = slower) and the verdict with the candidate as side A, from a
/// pooled δ in the inputs' own sign (see [`change_of`]).
pub fn candidate_view(kind: Kind, p: &MachinesPooled) -> (Change, Verdict) {
    let verdict = match (kind.scale(), p.verdict) {
        (Scale::Slowdown, Verdict::AFaster) => Verdict::BFaster,
        (Scale::Slowdown, Verdict::BFaster) => Verdict::AFaster,
        (_, other) => other,
    };
    (change_of(kind, p.delta, p.low, p.high), verdict)
}

/// An outlier machine in words, in the candidate's change (+ = slower) whatever the kind of
/// input: where it lies, where the others predict it, and the pool without it.
pub fn outlier_words(kind: Kind, o: &MachineInfluence) -> String {
    let at = change_of(kind, o.delta, o.delta, o.delta).change;
    let predicted = change_of(kind, o.delta, o.predicted_low, o.predicted_high);
    format!(
        "machine {} ({}) at {} lies outside [{}, {}], where the others predict it; without it \
         {}, {}",
        o.index,
        o.label,
        SignedPct(at),
        SignedPct(predicted.low),
        SignedPct(predicted.high),
        change_of(kind, o.without_delta, o.without_low, o.without_high),
        if o.without_resolved {
            "resolved"
        } else {
            "not resolved"
        }
    )
}

/// A change and its interval as signed percentages: `+2.1 % [+1.7 %, +2.5 %]`.
pub fn signed_interval(c: &Change) -> String {
    format!(
        "{} [{}, {}]",
        SignedPct(c.change),
        SignedPct(c.low),
        SignedPct(c.high)
    )
}

/// A machine's own change (+ = slower) from its δ in the inputs' sign.
fn machine_change(kind: Kind, delta: f64) -> f64 {
    change_of(kind, delta, delta, delta).change
}

/// The terminal table: per comparison the pooled change with its interval, the verdict, I², the
/// spread of the machines' deltas and the outliers; then the fleet.
pub fn table(c: &CombineJson) -> String {
    let mut s = format!(
        "{:<28} {:<32} {:<12} {:>5}  machines' change\n",
        "comparison", "change (+ = slower) [95 %]", "verdict", "I²"
    );
    for r in &c.results {
        let (lo, hi) = r
            .per_machine
            .iter()
            .map(|m| machine_change(c.kind, m.delta))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), m| {
                (l.min(m), h.max(m))
            });
        let _ = writeln!(
            s,
            "{:<28} {:<32} {:<12} {:>4.0} %  {} … {}{}",
            r.name,
            signed_interval(&r.change),
            verdict_word(r),
            100.0 * r.i2,
            SignedPct(lo),
            SignedPct(hi),
            if r.pooled.outliers.is_empty() {
                String::new()
            } else {
                format!("; {} outlier machine(s)", r.pooled.outliers.len())
            }
        );
        for o in &r.pooled.outliers {
            let _ = writeln!(s, "    outlier: {}", outlier_words(c.kind, o));
        }
    }
    for n in &c.notes {
        let _ = writeln!(s, "note: {n}");
    }
    let _ = writeln!(s, "{}", fleet_note(c));
    s
}

/// The verdict in one word for the table and the page, as `rtcompare bench` words it:
/// `REGRESSION` (beyond `--fail-on-regression`), `SLOWER`, `faster`, `equivalent` or
/// `cannot tell`.
pub fn verdict_word(r: &CombinedResult) -> &'static str {
    match r.verdict {
        _ if r.regression => "REGRESSION",
        Verdict::AFaster => "faster",
        Verdict::BFaster => "SLOWER",
        Verdict::Equivalent { .. } => "equivalent",
        Verdict::CannotTell(_) => words::CANNOT_TELL,
    }
}

/// One sentence on the fleet: how many machines, and whether they differ (a mixed fleet:
/// more than one CPU model, kernel or core count, each with its number of machines).
pub fn fleet_note(c: &CombineJson) -> String {
    if c.fleet.len() <= 1 {
        let m = c.fleet.first().map(|(m, _)| m.clone());
        format!(
            "{} machines, all alike ({}).",
            c.machines,
            m.map_or("unknown".into(), |m| format!(
                "{}, {} cores, kernel {}",
                m.cpu, m.cores, m.kernel
            ))
        )
    } else {
        let parts: Vec<String> = c
            .fleet
            .iter()
            .map(|(m, n)| format!("{n} × {} ({} cores, kernel {})", m.cpu, m.cores, m.kernel))
            .collect();
        format!(
            "A mixed fleet of {} machines: {}. The pooled δ is an average over this mix; I² \
             says how much of the spread between machines is beyond their own noise.",
            c.machines,
            parts.join("; ")
        )
    }
}

/// The Markdown summary for a pull request: one row per comparison, the machines' spread
/// beside the pooled interval.
pub fn markdown(c: &CombineJson) -> String {
    let mut s = format!(
        "### rtcompare combine: {} machines\n\n| comparison | change (+ = slower) [95 %] | verdict | I² | machines' change |\n|---|---|---|--:|---|\n",
        c.machines
    );
    for r in &c.results {
        let spread: Vec<String> = r
            .per_machine
            .iter()
            .map(|m| SignedPct(machine_change(c.kind, m.delta)).to_string())
            .collect();
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {:.0} % | {} |",
            r.name,
            signed_interval(&r.change),
            if r.regression {
                format!("**{}**", verdict_word(r))
            } else {
                verdict_word(r).to_string()
            },
            100.0 * r.i2,
            spread.join(", ")
        );
    }
    if !c.notes.is_empty() {
        let _ = writeln!(s);
        for n in &c.notes {
            let _ = writeln!(s, "- {n}");
        }
    }
    // The summary ends with a blank line, so that one appended after it stays apart.
    let _ = writeln!(s, "\n{}\n", fleet_note(c));
    s
}
