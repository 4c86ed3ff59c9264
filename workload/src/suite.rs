//! [`Suite`]: a matrix of specs × structures against a baseline, as one table.

use std::fmt;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::record::{Memory, Record};
use crate::report::StructureReport;
use crate::run::{compare_child, compare_with_clock};
use crate::spec::{Mix, Spec};
use crate::structure::Structure;
use crate::{Error, Result};
use rtcompare::compare::CompareOptions;
use rtcompare::compare::report::Report;
use rtcompare::pool::{Child, PoolOptions, PoolRun};
use rtcompare::stats::{Pooled, Verdict};
use rtcompare::support;
use rtcompare::support::display::{Level, SignedPct};
use rtcompare::support::measure::MonotonicClock;

type Runner = fn(&Spec, &CompareOptions, bool) -> Result<StructureReport>;
type ChildRunner = fn(&Spec, &mut Child) -> rtcompare::Result<Report>;

/// A matrix of workloads × structures, each structure compared with the baseline `Base` on
/// every spec, in one process or pooled across processes. A builder whose methods consume
/// and return `Self`.
///
/// Each cell is one [`workload::compare`](crate::compare) with the structure as A
/// and the baseline as B, so δ > 0 means the structure is faster than the baseline. The fill
/// order alternates from cell to cell.
///
/// **Pooled** ([`processes`](Self::processes) or [`pool`](Self::pool)): each cell runs in
/// its own [`pool::run`](rtcompare::pool::run) — k fresh processes, each generating the cell's
/// stream, filling both structures (A first in even processes) and comparing them
/// ([`compare_child`](crate::compare_child)) — and the cell's verdict and interval
/// are the pool's ([`Cell::pooled`]). The program re-executes itself for every process, as
/// with `pool::run`: code before [`run`](Self::run) runs in every child too, and each child
/// skips the cells it was not started for, by the cell's index and the place `run` was
/// called from.
///
/// ```no_run
/// use std::collections::{BTreeMap, HashMap};
/// use rtcompare_workload::Suite;
/// let result = Suite::<HashMap<u64, u64>>::standard()
///     .structure::<BTreeMap<u64, u64>>()
///     .run()?;
/// println!("{result}");
/// # Ok::<(), rtcompare_workload::Error>(())
/// ```
pub struct Suite<Base: Structure> {
    specs: Vec<Spec>,
    structures: Vec<(String, Runner, ChildRunner)>,
    options: CompareOptions,
    pool: Option<PoolOptions>,
    base: PhantomData<fn() -> Base>,
}

impl<Base: Structure> fmt::Debug for Suite<Base> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Suite")
            .field("baseline", &Base::default().name())
            .field("specs", &self.specs)
            .field(
                "structures",
                &self.structures.iter().map(|s| &s.0).collect::<Vec<_>>(),
            )
            .field("options", &self.options)
            .field("pool", &self.pool)
            .finish()
    }
}

impl<Base: Structure> Default for Suite<Base> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Base: Structure> Suite<Base> {
    /// An empty suite against the baseline `Base`, with default [`CompareOptions`].
    pub fn new() -> Self {
        Suite {
            specs: Vec::new(),
            structures: Vec::new(),
            options: CompareOptions::default(),
            pool: None,
            base: PhantomData,
        }
    }

    /// The standard matrix ([`standard_specs`]): 10³ and 10⁶ keys × uniform and Zipf 1.1 ×
    /// read-heavy 90/5/5 and churn 40/40/20.
    pub fn standard() -> Self {
        Self::new().specs(standard_specs())
    }

    /// Adds a spec (a row group of the table).
    pub fn spec(mut self, spec: Spec) -> Self {
        self.specs.push(spec);
        self
    }

    /// Adds several specs.
    pub fn specs(mut self, specs: impl IntoIterator<Item = Spec>) -> Self {
        self.specs.extend(specs);
        self
    }

    /// Adds the structure `S`, compared with the baseline on every spec.
    pub fn structure<S: Structure>(mut self) -> Self {
        self.structures.push((
            S::default().name(),
            |spec, o, a_first| compare_with_clock::<S, Base, _>(spec, o, &MonotonicClock, a_first),
            |spec, child| compare_child::<S, Base>(spec, child),
        ));
        self
    }

    /// Sets the options of every comparison (of every process's, when pooled).
    pub fn options(mut self, options: CompareOptions) -> Self {
        self.options = options;
        self
    }

    /// Pools every cell over exactly `k` processes (at least 3): [`PoolOptions::default`]
    /// with a first stage of `k`, Stein's plan (not the decision) and no precision target. `k` of 0 or 1 runs every cell in
    /// this process (the default).
    pub fn processes(self, k: usize) -> Self {
        if k <= 1 {
            return Suite { pool: None, ..self };
        }
        self.pool(
            PoolOptions::default()
                .first_stage(k)
                .decide(false)
                .target(0.0, 0.0),
        )
    }

    /// Pools every cell with these options (first stage, cap, precision target, timeout,
    /// seed, children's arguments). Their [`compare`](PoolOptions::compare) options are
    /// replaced by the suite's [`options`](Self::options).
    pub fn pool(mut self, options: PoolOptions) -> Self {
        self.pool = Some(options);
        self
    }

    /// Runs every cell, specs in order and structures in order within a spec.
    ///
    /// Errors: [`Error::InvalidOption`] for a suite without specs or structures; the first
    /// error of any cell's [`compare`](crate::compare) or, pooled, of its
    /// [`pool::run`](rtcompare::pool::run) (as [`Error::Core`]: for example
    /// [`rtcompare::Error::TooFewSamples`] for fewer than 3 processes,
    /// [`rtcompare::Error::ProcessesFailed`]); [`Error::InvalidOption`] if a pooled cell's
    /// processes report another spec than the cell's.
    #[track_caller]
    pub fn run(&self) -> Result<SuiteResult> {
        self.run_each(|_| {})
    }

    /// [`run`](Self::run), calling `on_cell` as each cell finishes (for progress output).
    #[track_caller]
    pub fn run_each(&self, mut on_cell: impl FnMut(&Cell)) -> Result<SuiteResult> {
        // Counted on every run, pooled or not, so that the n-th run of this suite's call site
        // is the n-th in every child too.
        let site = support::pool::enter(&support::pool::call_site(std::panic::Location::caller()));
        if self.specs.is_empty() || self.structures.is_empty() {
            return Err(Error::invalid_option(
                "suite",
                "a suite needs at least one spec and one structure besides the baseline; \
                 add them with .spec(...) and .structure::<S>()",
            ));
        }
        let started = Instant::now();
        let baseline = Base::default().name();
        let mut cells = Vec::new();
        let mut index = 0usize;
        for spec in &self.specs {
            for (name, runner, child_runner) in &self.structures {
                let this = index;
                index += 1;
                let cell = match &self.pool {
                    None => {
                        let a_first = this.is_multiple_of(2);
                        let report = runner(spec, &self.options, a_first)?;
                        Cell::from_report(spec, name, &baseline, &report)
                    }
                    Some(pool_options) => {
                        let cell_site = format!("{site}#cell{this}");
                        // A child started for another cell (or another pool) skips this one.
                        if support::pool::is_child_for(&cell_site) == Some(false) {
                            continue;
                        }
                        let options = pool_options.clone().compare(self.options.clone());
                        let (run, attached) =
                            support::pool::run_attached(&cell_site, &options, |child| {
                                child_runner(spec, child)
                            })?;
                        // What each process's compare_child attached: its record.
                        let records: Vec<Record> = attached
                            .into_iter()
                            .flatten()
                            .filter_map(|v| serde_json::from_value(v).ok())
                            .collect();
                        Cell::from_pool(spec, name, &baseline, &run, &records)?
                    }
                };
                on_cell(&cell);
                cells.push(cell);
            }
        }
        Ok(SuiteResult {
            baseline,
            cells,
            options: self.options.clone(),
            elapsed: started.elapsed(),
        })
    }
}

/// The standard matrix: steady sizes 10³ and 10⁶ × uniform and Zipf 1.1 × read-heavy
/// ([`Mix::read_heavy`], 90/5/5) and churn ([`Mix::churn`], 40/40/20), default key space
/// (4 × the steady size), random removals, `u64` keys, seed 1.
pub fn standard_specs() -> Vec<Spec> {
    let mut out = Vec::new();
    for size in [1_000, 1_000_000] {
        for zipf in [false, true] {
            for mix in [Mix::read_heavy(), Mix::churn()] {
                let spec = Spec::default().steady_size(size).mix(mix);
                out.push(if zipf { spec.zipf(1.1) } else { spec });
            }
        }
    }
    out
}

/// One cell of a [`SuiteResult`]: a structure against the baseline on one spec.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Cell {
    /// The spec's short label ([`Spec::label`]).
    pub label: String,
    /// The spec.
    pub spec: Spec,
    /// The structure's name (A of the comparison).
    pub structure: String,
    /// The baseline's name (B).
    pub baseline: String,
    /// The verdict: [`Verdict::AFaster`] means the structure is faster.
    pub verdict: Verdict,
    /// Whether the verdict is a winner.
    pub resolved: bool,
    /// δ = 1 − structure/baseline, as a fraction: > 0 when the structure is faster.
    pub delta: f64,
    /// Lower end of δ's interval.
    pub low: f64,
    /// Upper end of δ's interval.
    pub high: f64,
    /// Coverage of the interval.
    pub level: f64,
    /// The A/A noise floor δ had to clear (fraction).
    pub noise_floor: f64,
    /// The structure's median time per operation, in ns.
    pub ns_per_op: f64,
    /// The baseline's median time per operation, in ns.
    pub baseline_ns_per_op: f64,
    /// The structure's memory at the steady size.
    pub memory: Memory,
    /// The baseline's memory at the steady size.
    pub baseline_memory: Memory,
    /// Times the stream was run through (above 1: it wrapped, on both sides alike).
    pub passes: u64,
    /// The report's warnings, by code (pooled: the pool's and every process's, each once).
    pub warnings: Vec<String>,
    /// Processes behind the verdict: 1 in one process, k pooled.
    #[serde(default = "one")]
    pub processes: usize,
    /// The pooled result when the cell ran across processes ([`Suite::processes`]): its
    /// mean δ, interval, between-process spread and warnings. The cell's verdict, δ,
    /// interval and floor are the pool's; its times per operation the medians over the
    /// processes; its memory the first process's.
    #[serde(default)]
    pub pooled: Option<Pooled>,
}

fn one() -> usize {
    1
}

fn median(mut v: Vec<f64>) -> f64 {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

impl Cell {
    fn from_report(spec: &Spec, structure: &str, baseline: &str, sr: &StructureReport) -> Cell {
        let (r, record) = (&sr.report, &sr.record);
        Cell {
            label: spec.label(),
            spec: spec.clone(),
            structure: structure.to_string(),
            baseline: baseline.to_string(),
            verdict: r.verdict,
            resolved: r.resolved,
            delta: r.estimate.delta,
            low: r.estimate.low,
            high: r.estimate.high,
            level: r.estimate.level,
            noise_floor: r.noise_floor,
            ns_per_op: r.ns_per_op_a,
            baseline_ns_per_op: r.ns_per_op_b,
            memory: record.memory_a,
            baseline_memory: record.memory_b,
            passes: record.passes,
            warnings: r.warnings.iter().map(|w| w.code().to_string()).collect(),
            processes: 1,
            pooled: None,
        }
    }

    fn from_pool(
        spec: &Spec,
        structure: &str,
        baseline: &str,
        run: &PoolRun,
        records: &[Record],
    ) -> Result<Cell> {
        if let Some(other) = records.iter().find(|r| r.spec != *spec) {
            return Err(Error::invalid_option(
                "suite",
                format!(
                    "a process of the cell \"{}\" measured another spec ({}); every child \
                     must reach the same Suite::run with the same specs and structures in \
                     the same order",
                    spec.label(),
                    other.spec.label()
                ),
            ));
        }
        let p = &run.pooled;
        let mut warnings: Vec<String> = p.warnings.iter().map(|w| w.code().to_string()).collect();
        for r in &run.reports {
            for w in &r.warnings {
                if !warnings.iter().any(|x| x == w.code()) {
                    warnings.push(w.code().to_string());
                }
            }
        }
        Ok(Cell {
            label: spec.label(),
            spec: spec.clone(),
            structure: structure.to_string(),
            baseline: baseline.to_string(),
            verdict: p.verdict,
            resolved: p.resolved,
            delta: p.delta,
            low: p.low,
            high: p.high,
            level: p.level,
            noise_floor: p.noise_floor,
            ns_per_op: median(run.reports.iter().map(|r| r.ns_per_op_a).collect()),
            baseline_ns_per_op: median(run.reports.iter().map(|r| r.ns_per_op_b).collect()),
            memory: records.first().map(|x| x.memory_a).unwrap_or_default(),
            baseline_memory: records.first().map(|x| x.memory_b).unwrap_or_default(),
            passes: records.iter().map(|x| x.passes).max().unwrap_or(0),
            warnings,
            processes: p.processes,
            pooled: Some(p.clone()),
        })
    }

    /// The verdict in a few words: `"BTreeMap faster"`, `"HashMap faster"` or
    /// `"cannot tell"`.
    pub fn verdict_text(&self) -> String {
        support::stats::verdict_in_words(&self.verdict, &self.structure, &self.baseline)
    }
}

/// The table a [`Suite`] produces: one [`Cell`] per spec × structure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteResult {
    /// The baseline's name.
    pub baseline: String,
    /// The cells, specs in order and structures within a spec.
    pub cells: Vec<Cell>,
    /// The options every comparison ran with.
    pub options: CompareOptions,
    /// Wall time of the whole suite.
    pub elapsed: Duration,
}

fn mib(m: &Memory) -> String {
    match m.live_bytes.or(m.rss_growth_bytes) {
        Some(b) => format!("{:.2}", b as f64 / (1u64 << 20) as f64),
        None => "-".to_string(),
    }
}

impl fmt::Display for SuiteResult {
    /// A plain text table, one row per cell: spec, structure, verdict, δ with its interval
    /// (in percent, > 0 = the structure faster), both times per operation, and both
    /// memories at the steady size in MiB (live heap bytes with a counting allocator, else
    /// resident growth over the fill), and the processes behind each verdict when some cell
    /// was pooled.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = self.cells.first().map_or(0.95, |c| c.level);
        let live = self.cells.iter().any(|c| c.memory.live_bytes.is_some());
        let pooled = self.cells.iter().any(|c| c.pooled.is_some());
        let rows: Vec<[String; 8]> = self
            .cells
            .iter()
            .map(|c| {
                [
                    c.label.clone(),
                    c.structure.clone(),
                    c.verdict_text(),
                    // The structure's change in time against the baseline, + = slower: −δ.
                    format!(
                        "{} [{}, {}]",
                        SignedPct(-c.delta),
                        SignedPct(-c.high),
                        SignedPct(-c.low)
                    ),
                    format!("{:.1}", c.ns_per_op),
                    format!("{:.1}", c.baseline_ns_per_op),
                    format!("{} / {}", mib(&c.memory), mib(&c.baseline_memory)),
                    c.processes.to_string(),
                ]
            })
            .collect();
        let head = [
            "spec (lookups/ins/rem %)".to_string(),
            "structure".to_string(),
            "verdict".to_string(),
            format!("change [{} interval]", Level(level)),
            "ns/op".to_string(),
            format!("{} ns/op", self.baseline),
            format!(
                "MiB {} (structure / {})",
                if live { "live" } else { "RSS" },
                self.baseline
            ),
            "processes".to_string(),
        ];
        // The processes column only when some cell was pooled.
        let shown = if pooled { 8 } else { 7 };
        let mut width = head.clone().map(|h| h.chars().count());
        for r in &rows {
            for (w, c) in width.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |f: &mut fmt::Formatter<'_>, cols: &[String; 8]| -> fmt::Result {
            let cells: Vec<String> = cols
                .iter()
                .zip(width)
                .take(shown)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            writeln!(f, "{}", cells.join(" | ").trim_end())
        };
        line(f, &head)?;
        let rule: Vec<String> = width.iter().take(shown).map(|&w| "-".repeat(w)).collect();
        writeln!(f, "{}", rule.join("-|-"))?;
        for r in &rows {
            line(f, r)?;
        }
        write!(
            f,
            "change: the structure's time against {}'s, + = slower. {} cells in {:.0} s.",
            self.baseline,
            self.cells.len(),
            self.elapsed.as_secs_f64()
        )?;
        if pooled {
            write!(
                f,
                " Pooled cells: the change is the mean over the processes with the pool's interval, \
                 ns/op the medians over the processes."
            )?;
        }
        Ok(())
    }
}
