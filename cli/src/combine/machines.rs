//! The data of `rtcompare combine`: each input file read as one machine ([`read`]), the
//! machines' estimates pooled per comparison name ([`combine`]), the JSON this makes
//! ([`CombineJson`]), and its text forms, the terminal [`table`] and the [`markdown`] summary.
//! Files must share one kind, one layout version (`schema_version`) that this tool knows, and
//! the same comparisons.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use rtcompare::pool::POOL_SCHEMA_VERSION;
use rtcompare::stats::{MIN_MACHINES, MachineEstimate, MachinesPooled, combine_machines};

use crate::bench::BENCH_JSON_VERSION;
use crate::error::{CliError, Result};
use crate::result::SCHEMA_VERSION;

/// Version of the JSON `rtcompare combine --json` writes.
pub const COMBINE_JSON_VERSION: u32 = 1;

/// What kind of result a file holds, which fixes the sign of its δ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A pooled `compare()` (the `compare` example): δ positive when A needs less time.
    Pooled,
    /// `rtcompare cmd`: δ positive when the command is slower than the reference.
    Cmd,
    /// `rtcompare bench`: δ = 1 − head/baseline, negative when the head is slower.
    Bench,
}

impl Kind {
    /// The newest `schema_version` of this kind this tool reads: [`POOL_SCHEMA_VERSION`],
    /// [`SCHEMA_VERSION`] (`cmd`) or [`BENCH_JSON_VERSION`].
    pub fn newest_version(self) -> u32 {
        match self {
            Kind::Pooled => POOL_SCHEMA_VERSION,
            Kind::Cmd => SCHEMA_VERSION,
            Kind::Bench => BENCH_JSON_VERSION,
        }
    }

    /// What wrote files of this kind, for messages.
    fn writer(self) -> &'static str {
        match self {
            Kind::Pooled => "pooled compare results (`PoolRun::to_json`)",
            Kind::Cmd => "`rtcompare cmd --json` results",
            Kind::Bench => "`rtcompare bench --json` results",
        }
    }

    /// The δ axis of this kind's figures: its sign convention.
    pub fn axis(self) -> &'static str {
        match self {
            Kind::Pooled => "δ = 1 − A/B, % of B's time (positive: A needs less time)",
            Kind::Cmd => "δ = 1 − reference/command, % (positive: the command is slower)",
            Kind::Bench => "δ = 1 − head/baseline, % (negative: the head is slower)",
        }
    }
}

/// One input file read as one machine.
#[derive(Debug, Clone)]
pub struct MachineFile {
    /// The file.
    pub path: PathBuf,
    /// Its kind.
    pub kind: Kind,
    /// Its layout version (`schema_version`); `None` for a pooled result written before the
    /// pooled JSON carried one. Never newer than [`Kind::newest_version`]: [`read`] refuses
    /// such a file.
    pub schema_version: Option<u32>,
    /// The machine: CPU model, kernel and core count where the file records them.
    pub machine: Machine,
    /// The commits compared (`bench` only): baseline and head.
    pub commits: Option<(String, String)>,
    /// One estimate per comparison name, in the file's order.
    pub estimates: Vec<(String, MachineEstimate)>,
    /// Comparisons whose pooled result this machine refused on its own for a reason that
    /// questions its interval (one of [`REFUSALS_TO_NAME`]), with that reason's `bar`.
    pub refusals: Vec<(String, String)>,
}

/// The bars of a machine's own pooled verdict that question the interval itself, not only its
/// width: a combined result names the machines that gave one, since their interval is pooled
/// as it stands.
pub const REFUSALS_TO_NAME: [&str; 4] = [
    "failed_processes",
    "fixed_build_order",
    "opposite_modes",
    "process_drift",
];

/// The bar of a pooled result's own verdict when it is one of [`REFUSALS_TO_NAME`].
fn refusal(pooled: &Value) -> Option<String> {
    let bar = pooled["verdict"]["bar"].as_str()?;
    REFUSALS_TO_NAME.contains(&bar).then(|| bar.to_string())
}

/// What a file says about the machine it ran on.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Machine {
    /// CPU model, or `unknown`.
    pub cpu: String,
    /// Kernel release, or `unknown`.
    pub kernel: String,
    /// Logical cores, 0 when unknown.
    pub cores: usize,
}

/// Reads one file. Errors: unreadable, not JSON, of none of the three kinds, or with a
/// `schema_version` that is not a whole number or is newer than this tool reads
/// ([`CliError::BadFile`] naming the file, its version and the newest known).
pub fn read(path: &Path) -> Result<MachineFile> {
    let text = std::fs::read_to_string(path).map_err(|source| CliError::File {
        action: "read",
        path: path.into(),
        source,
    })?;
    let v: Value = serde_json::from_str(&text).map_err(|e| CliError::BadFile {
        path: path.into(),
        reason: format!("not JSON: {e}"),
    })?;
    let mut file = machine_file(path, &v)?;
    file.schema_version = version(path, file.kind, &v)?;
    Ok(file)
}

/// The file's `schema_version`, checked against what this tool knows of its kind.
fn version(path: &Path, kind: Kind, v: &Value) -> Result<Option<u32>> {
    let Some(raw) = v.get("schema_version").filter(|x| !x.is_null()) else {
        return Ok(None);
    };
    let version = raw
        .as_u64()
        .and_then(|x| u32::try_from(x).ok())
        .ok_or_else(|| CliError::BadFile {
            path: path.into(),
            reason: format!("schema_version {raw} is not a whole number"),
        })?;
    let newest = kind.newest_version();
    if version > newest {
        return Err(CliError::BadFile {
            path: path.into(),
            reason: format!(
                "schema_version {version} is newer than this rtcompare reads for {} (up \
                 to {newest}): combine it with the rtcompare that wrote it, or a later one",
                kind.writer()
            ),
        });
    }
    Ok(Some(version))
}

/// Reads one input: a result file ([`read`]), or a history file (`.jsonl`, from the target
/// directory's `rtcompare/history/`), of which every entry is one run. Errors: those of
/// [`read`]; a history file that cannot be read or holds no entry.
pub fn read_input(path: &Path) -> Result<Vec<MachineFile>> {
    if path.extension().is_none_or(|e| e != "jsonl") {
        return read(path).map(|f| vec![f]);
    }
    let entries = rtcompare::pool::history::read(path)?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if entries.is_empty() {
        return Err(CliError::BadFile {
            path: path.into(),
            reason: "a history file without entries".into(),
        });
    }
    // The file's name says its kind (see `crate::history`).
    let kind = if stem.starts_with("cmd-") {
        Kind::Cmd
    } else if stem.starts_with("bench-") {
        Kind::Bench
    } else {
        Kind::Pooled
    };
    Ok(entries
        .iter()
        .enumerate()
        .map(|(i, e)| MachineFile {
            path: path.into(),
            kind,
            schema_version: Some(kind.newest_version()),
            machine: Machine::unknown(),
            commits: None,
            estimates: vec![(
                stem.clone(),
                MachineEstimate {
                    delta: e.delta,
                    low: e.low,
                    high: e.high,
                    level: e.level,
                    noise_floor: 0.0,
                    label: format!("{}, run {} ({e})", path.display(), i + 1),
                },
            )],
            refusals: Vec::new(),
        })
        .collect())
}

/// One parsed file as a machine, its version not yet read.
fn machine_file(path: &Path, v: &Value) -> Result<MachineFile> {
    let bad = |reason: &str| CliError::BadFile {
        path: path.into(),
        reason: reason.into(),
    };
    let num = |x: &Value| x.as_f64();
    let estimate = |x: &Value, floor: f64, label: &str| -> Option<MachineEstimate> {
        Some(MachineEstimate {
            delta: num(&x["delta"])?,
            low: num(&x["low"])?,
            high: num(&x["high"])?,
            level: num(&x["level"]).unwrap_or(0.95),
            noise_floor: floor,
            label: label.to_string(),
        })
    };
    let label = path.display().to_string();
    if v.get("benchmarks").is_some() && v.get("details").is_some() {
        let machine = v["details"]["benchmarks"]
            .as_array()
            .and_then(|bs| bs.iter().find_map(|b| b["reports"].get(0)))
            .map_or_else(Machine::unknown, |r| Machine::of(&r["environment"]));
        let (mut estimates, mut refusals) = (Vec::new(), Vec::new());
        for b in v["details"]["benchmarks"].as_array().into_iter().flatten() {
            let Some(p) = b.get("pooled").filter(|p| !p.is_null()) else {
                continue;
            };
            let floor = num(&p["noise_floor"]).unwrap_or(0.0);
            let name = b["name"]
                .as_str()
                .ok_or_else(|| bad("a benchmark without a name"))?;
            let e = estimate(p, floor, &label).ok_or_else(|| bad("a pooled result without δ"))?;
            if let Some(bar) = refusal(p) {
                refusals.push((name.to_string(), bar));
            }
            estimates.push((name.to_string(), e));
        }
        let commit = |k: &str| v[k].as_str().unwrap_or("").to_string();
        return Ok(MachineFile {
            path: path.into(),
            kind: Kind::Bench,
            schema_version: None,
            machine,
            commits: Some((commit("baseline_commit"), commit("head_commit"))),
            estimates,
            refusals,
        });
    }
    if let Some(comparisons) = v.get("comparisons").and_then(Value::as_array) {
        let mut estimates = Vec::new();
        for c in comparisons {
            let name = format!(
                "{} vs {}",
                c["name"].as_str().unwrap_or("?"),
                c["reference"].as_str().unwrap_or("?")
            );
            let floor = [&c["floor"]["a"], &c["floor"]["b"]]
                .iter()
                .filter_map(|x| x.as_f64())
                .fold(0.0, f64::max);
            let e = estimate(&c["estimate"], floor, &label).ok_or_else(|| {
                bad("a comparison without a bootstrap estimate (the few-runs rule cannot be pooled)")
            })?;
            estimates.push((name, e));
        }
        return Ok(MachineFile {
            path: path.into(),
            kind: Kind::Cmd,
            schema_version: None,
            machine: Machine::of(&v["environment"]),
            commits: None,
            estimates,
            refusals: Vec::new(),
        });
    }
    if v.get("processes").is_some() && v.get("deltas").is_some() {
        let floor = num(&v["noise_floor"]).unwrap_or(0.0);
        let e = estimate(v, floor, &label).ok_or_else(|| bad("a pooled result without δ"))?;
        return Ok(MachineFile {
            path: path.into(),
            kind: Kind::Pooled,
            schema_version: None,
            // Written by `PoolRun::to_json`; a bare `Pooled` (before schema version 1) has no
            // environment and reads as unknown.
            machine: Machine::of(&v["environment"]),
            commits: None,
            estimates: vec![("compare".into(), e)],
            refusals: refusal(v)
                .map(|bar| ("compare".into(), bar))
                .into_iter()
                .collect(),
        });
    }
    Err(bad(
        "neither a pooled compare result, an `rtcompare cmd --json` nor an `rtcompare bench \
         --json` file",
    ))
}

impl Machine {
    fn unknown() -> Machine {
        Machine {
            cpu: "unknown".into(),
            kernel: "unknown".into(),
            cores: 0,
        }
    }

    fn of(env: &Value) -> Machine {
        let s = |k: &str| env[k].as_str().unwrap_or("unknown").to_string();
        Machine {
            cpu: s("cpu_model"),
            kernel: s("kernel"),
            cores: env["logical_cores"].as_u64().unwrap_or(0) as usize,
        }
    }
}

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
    /// Whether this comparison is a proven regression beyond `--fail-on-regression`.
    pub regression: bool,
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
                 rtcompare, whose numbers need not mean the same; measure every machine with \
                 one version",
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
        let names = |m: &MachineFile| m.estimates.iter().map(|(n, _)| n.clone()).collect();
        let (a, b): (BTreeSet<String>, BTreeSet<String>) = (names(first), names(f));
        if a != b {
            let differ: Vec<String> = a.symmetric_difference(&b).cloned().collect();
            return Err(CliError::Usage(format!(
                "{} and {} do not describe the same comparisons; these are in one only: {}",
                first.path.display(),
                f.path.display(),
                differ.join(", ")
            )));
        }
    }
    if files.len() < MIN_MACHINES {
        return Err(CliError::Usage(too_few(files)));
    }
    let mut fleet: Vec<(Machine, usize)> = Vec::new();
    for f in files {
        match fleet.iter_mut().find(|(m, _)| *m == f.machine) {
            Some((_, n)) => *n += 1,
            None => fleet.push((f.machine.clone(), 1)),
        }
    }
    let mut results = Vec::new();
    for (name, _) in &first.estimates {
        let per_machine: Vec<MachineEstimate> = files
            .iter()
            .filter_map(|f| f.estimates.iter().find(|(n, _)| n == name))
            .map(|(_, e)| e.clone())
            .collect();
        // Fewer than MIN_MACHINES were refused above, with each machine's own result.
        let pooled = combine_machines(&per_machine, 0.95)?;
        // The gate's lower-bound rule, in each kind's own direction of "slower".
        let regression = budget.is_some_and(|b| {
            pooled.resolved
                && match first.kind {
                    Kind::Bench => pooled.high < -b,
                    Kind::Cmd => pooled.low > b,
                    Kind::Pooled => pooled.high < -b,
                }
        });
        results.push(CombinedResult {
            name: name.clone(),
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
        fleet,
        results,
    })
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
    let names = files.first().map_or(&[][..], |f| &f.estimates[..]);
    for (name, _) in names {
        let _ = write!(s, "\n  {name}:");
        for f in files {
            if let Some((_, e)) = f.estimates.iter().find(|(n, _)| n == name) {
                let _ = write!(
                    s,
                    "\n    {}: δ {:+.2} % [{:+.2}, {:+.2}] at {:.0} %",
                    e.label,
                    100.0 * e.delta,
                    100.0 * e.low,
                    100.0 * e.high,
                    100.0 * e.level
                );
            }
        }
    }
    s
}

/// The terminal table: per comparison the pooled δ with its interval, the verdict, I², the
/// spread of the machines' deltas and the outliers; then the fleet.
pub fn table(c: &CombineJson) -> String {
    let mut s = format!(
        "{:<28} {:<32} {:<12} {:>5}  machines' δ\n",
        "comparison", "δ over machines [95 %]", "verdict", "I²"
    );
    for r in &c.results {
        let (lo, hi) = r
            .per_machine
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), m| {
                (l.min(m.delta), h.max(m.delta))
            });
        let _ = writeln!(
            s,
            "{:<28} {:<32} {:<12} {:>4.0}%  {:+.2} … {:+.2} %{}",
            r.name,
            format!(
                "{:+.2} % [{:+.2}, {:+.2}]",
                100.0 * r.delta,
                100.0 * r.low,
                100.0 * r.high
            ),
            verdict_word(r),
            100.0 * r.i2,
            100.0 * lo,
            100.0 * hi,
            if r.pooled.outliers.is_empty() {
                String::new()
            } else {
                format!("; {} outlier machine(s)", r.pooled.outliers.len())
            }
        );
        for o in &r.pooled.outliers {
            let _ = writeln!(s, "    outlier: {o}");
        }
    }
    for n in &c.notes {
        let _ = writeln!(s, "note: {n}");
    }
    let _ = writeln!(s, "{}", fleet_note(c));
    s
}

/// The verdict in one word for the table and the page: `REGRESSION` (beyond
/// `--fail-on-regression`), `resolved` or `cannot tell`.
pub fn verdict_word(r: &CombinedResult) -> &'static str {
    if r.regression {
        "REGRESSION"
    } else if r.resolved {
        "resolved"
    } else {
        "cannot tell"
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
        "### rtcompare combine: {} machines\n\n| comparison | δ over machines [95 %] | verdict | I² | machines' δ |\n|---|---|---|--:|---|\n",
        c.machines
    );
    for r in &c.results {
        let spread: Vec<String> = r
            .per_machine
            .iter()
            .map(|m| format!("{:+.2}", 100.0 * m.delta))
            .collect();
        let _ = writeln!(
            s,
            "| `{}` | {:+.2} % [{:+.2}, {:+.2}] | {} | {:.0} % | {} % |",
            r.name,
            100.0 * r.delta,
            100.0 * r.low,
            100.0 * r.high,
            if r.regression {
                "**REGRESSION**"
            } else if r.resolved {
                "resolved"
            } else {
                "cannot tell"
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
    let _ = writeln!(s, "\n{}", fleet_note(c));
    s
}
