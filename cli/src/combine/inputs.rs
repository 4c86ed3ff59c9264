//! The files `rtcompare combine` reads, each into its kind's own type: a `rtcompare cmd --json`
//! result ([`crate::result::CmdResult`], either layout), a `rtcompare bench --json` file, a
//! pooled `compare` result (`PoolRun::to_json`, or a bare `Pooled` written before it carried
//! a version), or a history file (`.jsonl`, one run per entry). Each becomes one
//! [`MachineFile`]: the machine, and one [`Estimated`] per comparison, identified by what it
//! compares so that inputs of different comparisons are never pooled as one.
//!
//! Only the fields pooling needs are read from `bench` and pooled files, so that a file from a
//! build that added fields elsewhere still combines; `cmd` results are read whole, through the
//! result's own reader.

use std::path::{Path, PathBuf};

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use rtcompare::stats::MachineEstimate;
use rtcompare::stats::Scale;
use rtcompare::support::pool::POOL_SCHEMA_VERSION;

use crate::error::{CliError, Result};
use crate::result::{self, CmdResult, SCHEMA_VERSION};
use rtcompare::support::bench::BENCH_JSON_VERSION;

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

    /// The axis of this kind's figures: the candidate's change in time, + = slower, whatever
    /// the sign of the kind's δ (the figures are given the change, see
    /// `machines::change_of`).
    pub fn axis(self) -> &'static str {
        match self {
            Kind::Pooled => "A's change in time against B, % (+ = slower)",
            Kind::Cmd => "the command's change in time against the reference, % (+ = slower)",
            Kind::Bench => "the head's change in time against the baseline, % (+ = slower)",
        }
    }

    /// Which way this kind's δ points for the candidate (the command, the head; B of a
    /// pooled compare): the one place that knows each kind's sign, so that judging needs no
    /// sign of its own.
    pub fn scale(self) -> Scale {
        match self {
            Kind::Cmd => Scale::Slowdown,
            Kind::Bench | Kind::Pooled => Scale::Speedup,
        }
    }
}

/// One comparison of one input: what identifies it across machines, how the tables name it,
/// and the machine's estimate.
#[derive(Debug, Clone)]
pub struct Estimated {
    /// What it compares: for `cmd` the commands of the reference and the command (the same
    /// label over other commands is another comparison), for `bench` the benchmark's name
    /// (the commits are the file's), for a pooled result `compare`, for a history its file's
    /// name.
    pub id: String,
    /// Its name in the tables: `B vs A` (the labels) for `cmd`, else the id.
    pub label: String,
    /// The machine's δ with its interval, in the kind's sign.
    pub estimate: MachineEstimate,
}

/// One input file read as one machine.
#[derive(Debug, Clone)]
pub struct MachineFile {
    /// The file.
    pub path: PathBuf,
    /// Its kind.
    pub kind: Kind,
    /// Its layout version (`schema_version`); `None` for a file written before its layout
    /// carried one. Never newer than [`Kind::newest_version`]: [`read`] refuses such a file.
    pub schema_version: Option<u32>,
    /// The machine: CPU model, kernel and core count where the file records them.
    pub machine: Machine,
    /// The commits compared (`bench`, and `cmd` results of `rtcompare git`): baseline and
    /// head.
    pub commits: Option<(String, String)>,
    /// One estimate per comparison, in the file's order.
    pub estimates: Vec<Estimated>,
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

impl Machine {
    fn unknown() -> Machine {
        Machine::of(&Stamp::default())
    }

    fn of(env: &Stamp) -> Machine {
        let or_unknown = |s: &Option<String>| s.clone().unwrap_or_else(|| "unknown".into());
        Machine {
            cpu: or_unknown(&env.cpu_model),
            kernel: or_unknown(&env.kernel),
            cores: env.logical_cores.unwrap_or(0),
        }
    }
}

/// The part of the library's environment stamp that names a machine.
#[derive(Debug, Default, Deserialize)]
struct Stamp {
    #[serde(default)]
    cpu_model: Option<String>,
    #[serde(default)]
    kernel: Option<String>,
    #[serde(default)]
    logical_cores: Option<usize>,
}

/// The fields that tell the kinds apart, and the version: read first, so that the file is
/// then read as its own kind.
#[derive(Deserialize)]
struct Probe {
    #[serde(default)]
    schema_version: Option<f64>,
    #[serde(default)]
    benchmarks: Option<IgnoredAny>,
    #[serde(default)]
    details: Option<IgnoredAny>,
    #[serde(default)]
    comparisons: Option<IgnoredAny>,
    #[serde(default)]
    runs: Option<IgnoredAny>,
    #[serde(default)]
    processes: Option<IgnoredAny>,
    #[serde(default)]
    deltas: Option<IgnoredAny>,
}

/// A pooled interval as the library writes it (a pooled `compare` result, a benchmark's
/// `pooled`): δ, its interval, the floor and the machine's own verdict.
#[derive(Debug, Deserialize)]
struct PooledInterval {
    delta: f64,
    low: f64,
    high: f64,
    #[serde(default = "default_level")]
    level: f64,
    #[serde(default)]
    noise_floor: Option<f64>,
    #[serde(default)]
    verdict: Option<OwnVerdict>,
}

fn default_level() -> f64 {
    0.95
}

/// The machine's own verdict on its pooled result: only the bar it missed, if any.
#[derive(Debug, Deserialize)]
struct OwnVerdict {
    #[serde(default)]
    bar: Option<String>,
}

impl PooledInterval {
    fn estimate(&self, label: &str) -> MachineEstimate {
        MachineEstimate {
            delta: self.delta,
            low: self.low,
            high: self.high,
            level: self.level,
            noise_floor: self.noise_floor.unwrap_or(0.0),
            label: label.to_string(),
        }
    }

    /// The bar of the machine's own verdict when it is one of [`REFUSALS_TO_NAME`].
    fn refusal(&self) -> Option<String> {
        let bar = self.verdict.as_ref()?.bar.as_deref()?;
        REFUSALS_TO_NAME.contains(&bar).then(|| bar.to_string())
    }
}

/// A pooled `compare` result: the pooled fields and, since schema 1, the environment.
#[derive(Deserialize)]
struct PooledFile {
    #[serde(flatten)]
    pooled: PooledInterval,
    #[serde(default)]
    environment: Option<Stamp>,
}

/// A `rtcompare bench --json` file: the commits and every benchmark's pooled result.
#[derive(Deserialize)]
struct BenchFile {
    #[serde(default)]
    baseline_commit: String,
    #[serde(default)]
    head_commit: String,
    details: BenchDetails,
}

#[derive(Deserialize)]
struct BenchDetails {
    benchmarks: Vec<BenchEntry>,
}

#[derive(Deserialize)]
struct BenchEntry {
    name: String,
    #[serde(default)]
    pooled: Option<PooledInterval>,
    #[serde(default)]
    reports: Vec<BenchReport>,
}

/// A worker pair's report: only its environment (the library flattens it to the top).
#[derive(Deserialize)]
struct BenchReport {
    #[serde(default)]
    environment: Option<Stamp>,
}

/// Reads one file. Errors: unreadable, not JSON, of none of the three kinds, missing what its
/// kind needs, or with a `schema_version` that is not a whole number or is newer than this
/// tool reads ([`CliError::BadFile`] naming the file, its version and the newest known).
pub fn read(path: &Path) -> Result<MachineFile> {
    let text = crate::files::read_text(path)?;
    let bad = |reason: String| CliError::BadFile {
        path: path.into(),
        reason,
    };
    let probe: Probe = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON: {e}")))?;
    let kind = if probe.benchmarks.is_some() && probe.details.is_some() {
        Kind::Bench
    } else if probe.comparisons.is_some() || probe.runs.is_some() {
        Kind::Cmd
    } else if probe.processes.is_some() && probe.deltas.is_some() {
        Kind::Pooled
    } else {
        return Err(bad(
            "neither a pooled compare result, an `rtcompare cmd --json` nor an \
                        `rtcompare bench --json` file"
                .into(),
        ));
    };
    let version = version(kind, probe.schema_version).map_err(bad)?;
    let mut file = match kind {
        Kind::Bench => serde_json::from_str(&text).map(|f| bench_file(path, f)),
        Kind::Pooled => serde_json::from_str(&text).map(|f| pooled_file(path, f)),
        Kind::Cmd => return cmd_file(path, &text, version),
    }
    .map_err(|e| bad(format!("not a complete {}: {e}", kind.writer())))?;
    file.schema_version = version;
    Ok(file)
}

/// The file's `schema_version`, checked against what this tool knows of its kind.
fn version(kind: Kind, raw: Option<f64>) -> std::result::Result<Option<u32>, String> {
    let Some(raw) = raw else { return Ok(None) };
    if !(raw.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&raw)) {
        return Err(format!("schema_version {raw} is not a whole number"));
    }
    let version = raw as u32;
    let newest = kind.newest_version();
    if version > newest {
        return Err(format!(
            "schema_version {version} is newer than this rtcompare reads for {} (up to \
             {newest}): combine it with the rtcompare that wrote it, or a later one",
            kind.writer()
        ));
    }
    Ok(Some(version))
}

/// A `cmd` result (either layout, also without a version) as a machine:
/// each comparison identified by its two commands, and by its rank among comparisons of the
/// same two commands where one file holds several.
fn cmd_file(path: &Path, text: &str, version: Option<u32>) -> Result<MachineFile> {
    let r: CmdResult = match version {
        Some(_) => result::parse(text).map(|(_, r)| r),
        None => result::parse_unversioned(text),
    }
    .map_err(|reason| CliError::BadFile {
        path: path.into(),
        reason,
    })?;
    let label = path.display().to_string();
    let mut estimates: Vec<Estimated> = Vec::new();
    for c in &r.comparisons {
        let e = c.estimate.as_ref().ok_or_else(|| CliError::BadFile {
            path: path.into(),
            reason: "a comparison without a bootstrap estimate (the few-runs rule cannot be \
                     pooled)"
                .into(),
        })?;
        let (reference, command) = r.command_lines(c);
        let mut id = format!("`{command}` against `{reference}`");
        let same = estimates
            .iter()
            .filter(|x| x.id == id || x.id.starts_with(&format!("{id} (#")))
            .count();
        if same > 0 {
            id = format!("{id} (#{})", same + 1);
        }
        let floor = c
            .floor
            .as_ref()
            .map_or(0.0, |f| f.a.unwrap_or(0.0).max(f.b.unwrap_or(0.0)).max(0.0));
        estimates.push(Estimated {
            id,
            label: format!("{} vs {}", c.name, c.reference),
            estimate: MachineEstimate {
                delta: e.delta,
                low: e.low,
                high: e.high,
                level: e.level,
                noise_floor: floor,
                label: label.clone(),
            },
        });
    }
    let env = &r.environment;
    Ok(MachineFile {
        path: path.into(),
        kind: Kind::Cmd,
        schema_version: version,
        machine: Machine::of(&Stamp {
            cpu_model: env.cpu_model.clone(),
            kernel: env.kernel.clone(),
            logical_cores: env.logical_cores,
        }),
        commits: r.git.map(|g| (g.base_commit, g.head_commit)),
        estimates,
        refusals: Vec::new(),
    })
}

/// A `bench` file as a machine: one estimate per benchmark with a pooled result, the machine
/// of its first worker-pair report.
fn bench_file(path: &Path, f: BenchFile) -> MachineFile {
    let label = path.display().to_string();
    let machine = f
        .details
        .benchmarks
        .iter()
        .find_map(|b| b.reports.first())
        .and_then(|r| r.environment.as_ref())
        .map_or_else(Machine::unknown, Machine::of);
    let (mut estimates, mut refusals) = (Vec::new(), Vec::new());
    for b in &f.details.benchmarks {
        let Some(p) = &b.pooled else { continue };
        if let Some(bar) = p.refusal() {
            refusals.push((b.name.clone(), bar));
        }
        estimates.push(Estimated {
            id: b.name.clone(),
            label: b.name.clone(),
            estimate: p.estimate(&label),
        });
    }
    MachineFile {
        path: path.into(),
        kind: Kind::Bench,
        schema_version: None,
        machine,
        commits: Some((f.baseline_commit, f.head_commit)),
        estimates,
        refusals,
    }
}

/// A pooled `compare` result as a machine, its one comparison named `compare`.
fn pooled_file(path: &Path, f: PooledFile) -> MachineFile {
    const NAME: &str = "compare";
    MachineFile {
        path: path.into(),
        kind: Kind::Pooled,
        schema_version: None,
        // Written by `PoolRun::to_json`; a bare `Pooled` (before schema version 1) has no
        // environment and reads as unknown.
        machine: f
            .environment
            .as_ref()
            .map_or_else(Machine::unknown, Machine::of),
        commits: None,
        estimates: vec![Estimated {
            id: NAME.into(),
            label: NAME.into(),
            estimate: f.pooled.estimate(&path.display().to_string()),
        }],
        refusals: f
            .pooled
            .refusal()
            .map(|bar| (NAME.into(), bar))
            .into_iter()
            .collect(),
    }
}

/// Reads one input: a result file ([`read`]), or a history file (`.jsonl`, from the target
/// directory's `rtcompare/history/`), of which every entry is one run. Errors: those of
/// [`read`]; a history file that cannot be read or holds no entry.
pub fn read_input(path: &Path) -> Result<Vec<MachineFile>> {
    if path.extension().is_none_or(|e| e != "jsonl") {
        return read(path).map(|f| vec![f]);
    }
    let entries = rtcompare::support::pool::history::read(path)?;
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
            estimates: vec![Estimated {
                id: stem.clone(),
                label: stem.clone(),
                estimate: MachineEstimate {
                    delta: e.delta,
                    low: e.low,
                    high: e.high,
                    level: e.level,
                    noise_floor: 0.0,
                    label: format!("{}, run {} ({e})", path.display(), i + 1),
                },
            }],
            refusals: Vec::new(),
        })
        .collect())
}
