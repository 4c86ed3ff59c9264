//! Several processes: the process as the unit of replication.
//!
//! A [`compare`](crate::compare()) interval covers the noise inside one process. A process is
//! one memory layout, one placement of code, one draw of whatever the loader and the allocator
//! decided, and on pointer-heavy or cache-sized data those differ by more than the noise: two
//! processes can each resolve the same comparison, tightly, in opposite directions. [`run`]
//! makes the verdict rest on several processes instead:
//!
//! 1. The program re-executes itself ([`std::env::current_exe`], the same arguments), once per
//!    process, marked by the environment variable `RTCOMPARE_POOL_CHILD`. The parent never measures.
//! 2. Every child first **perturbs its layout**: before `main`, heap filler and an
//!    address-space mapping of random size move whatever the program builds before it calls
//!    `run`; then a heap perturbation fills the small size classes and reserves a large block, and
//!    the parent gives each child an environment padded by 0–4 KiB, which moves the initial
//!    stack. [`Child::build`] builds A's fixture first in even processes and B's first in odd
//!    ones (one of two identical structures can stay faster in every process).
//! 3. The child runs the closure once, writes its [`Report`] as JSON to a temporary file the
//!    parent named, and exits; the parent reads and removes the file.
//! 4. **Stein's two-stage plan**: after a first stage ([`PoolOptions::first_stage`], default 5)
//!    the parent computes how many processes the precision target needs
//!    (`plan_processes`), runs the rest up to
//!    [`PoolOptions::max_processes`], and pools them all with
//!    `combine_staged`: Stein's interval, never narrower than
//!    the t interval on all of them. When the first stage says the target needs more than twice
//!    the cap, the run stops there and says so ([`PoolOptions::run_to_cap`] goes on anyway).
//!
//! **Which pool a child belongs to.** A child re-runs the program from the start and measures
//! only in the pool it was started for: the n-th pool entered from the same call site (a pool
//! in a loop, or a helper that pools, counts up), or the pool with the same
//! [`PoolOptions::key`]. Give a key when the order of pools can differ between runs.
//!
//! **What the pool randomises.** Fixtures built through [`Child::build`] get their order
//! alternated and the layout perturbed; fixtures the program builds itself, before `run` or
//! inside the closure, get the layout perturbations but keep the order they are built in, so
//! an A/A of two structures built A first in every process can show a real, reproducible
//! difference between them (docs/background.md, "Fixtures built in a fixed order"). A pool whose
//! processes built more than 8 MiB before the closure, and nothing through [`Child::build`],
//! is therefore refused
//! ([`Unresolved::FixedBuildOrder`](crate::stats::Unresolved::FixedBuildOrder)) unless
//! [`PoolOptions::accept_fixed_build_order`] says the order cannot matter.
//!
//! **Failures.** A child that panics, fails or times out is named in the pooled warnings;
//! pooling goes on if at least three processes succeeded, but the verdict is refused
//! ([`Unresolved::FailedProcesses`](crate::stats::Unresolved::FailedProcesses)) when any timed
//! out or passed a deadline, or when more than a fifth of those started failed. On an error, on
//! cancellation and on Ctrl-C (SIGINT or SIGTERM while the pool runs) the parent kills its
//! child and removes every file it made.
//!
//! In a child, `run` does not return: the process exits once its report is written. Code
//! before the call runs in every child too.
//!
//! ```no_run
//! use std::hint::black_box;
//! use rtcompare::{Candidate, pool::{self, PoolOptions}};
//!
//! fn main() -> Result<(), rtcompare::Error> {
//!     let pooled = pool::run(&PoolOptions::default(), |ctx| {
//!         let (mut a, mut b) = ctx.build(
//!             || (0..1_000u32).rev().collect::<Vec<_>>(),
//!             || (0..1_000u32).rev().collect::<Vec<_>>(),
//!         );
//!         let opts = ctx.options().clone();
//!         rtcompare::compare(
//!             Candidate::new("sort_unstable", move |n| {
//!                 for _ in 0..n { a.sort_unstable(); a.reverse(); black_box(&a); }
//!             }),
//!             Candidate::new("sort", move |n| {
//!                 for _ in 0..n { b.sort(); b.reverse(); black_box(&b); }
//!             }),
//!             &opts,
//!         )
//!     })?;
//!     println!("{pooled}");
//!     Ok(())
//! }
//! ```

mod child;
pub(crate) mod history;
pub(crate) mod json;
pub(crate) mod options;
mod parent;
pub(crate) mod perturb;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::compare::report::{ProcessInfo, Report};
use crate::error::Result;
use crate::measure::Stage;
use crate::stats::{self, MIN_PROCESSES, PoolWarning, Pooled, ProcessEstimate};
use child::{ChildSpec, child_main};
use parent::parent_main;

pub use child::Child;

pub(crate) use options::{DEFAULT_MAX_PROCESSES, DEFAULT_TARGET_ABS, DEFAULT_TARGET_REL};
pub use options::{PoolOptions, PoolProgress};
pub(crate) use perturb::{HeapPerturbation, perturb_heap};

/// Environment variable that marks a child process of [`run`]; its value says which call,
/// which process and where to write the report.
pub(crate) const CHILD_ENV: &str = "RTCOMPARE_POOL_CHILD";
/// Environment variable whose random-length value (0–4 KiB) moves a child's initial stack.
pub(crate) const PAD_ENV: &str = "RTCOMPARE_POOL_PAD";
/// Largest environment padding, in bytes (4 KiB).
pub(crate) const MAX_ENV_PADDING: usize = 4096;
/// How often the parent looks at its child while it runs (20 ms): a child is a fresh process
/// that takes about a second, so this costs nothing measurable and bounds the reaction to
/// Ctrl-C, cancellation and timeouts.
const POLL: Duration = Duration::from_millis(20);

/// Pools started by this process, numbering their files.
static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many pools this process has entered per call site (or per [`PoolOptions::key`]). A
/// child re-runs the program from the start and counts the same way, so the n-th pool of a
/// site in the parent is the n-th in every child: a pool in a loop, or in a helper called from
/// two places, finds its own children.
static OCCURRENCES: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());

/// Where one process's time went, in seconds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProcessTimings {
    /// The process's index.
    pub index: usize,
    /// From spawning the process to the start of the closure: loading, runtime start, the
    /// heap perturbation.
    pub startup: f64,
    /// Time in each stage of the comparison, in the order they began.
    pub stages: Vec<(Stage, f64)>,
    /// The whole closure.
    pub closure: f64,
    /// Spawn to reaped, as the parent saw it.
    pub wall: f64,
}

/// A pooled run with everything behind it.
#[derive(Debug, Clone)]
pub struct PoolRun {
    /// The pooled result.
    pub pooled: Pooled,
    /// The processes' reports, in process order (failed processes have none).
    pub reports: Vec<Report>,
    /// Where each successful process's time went.
    pub timings: Vec<ProcessTimings>,
    /// The pool's seed (the options' or the one drawn for 0).
    pub seed: u64,
    /// Wall time of the whole pool.
    pub elapsed: Duration,
}

/// Runs the closure in several processes with the Stein plan and pools their reports; see the
/// [module documentation](self). In a child process it runs the closure once, hands the report
/// to the parent and exits instead of returning.
///
/// Errors: invalid options ([`Error::TooFewSamples`](crate::Error::TooFewSamples), [`Error::InvalidOption`](crate::Error::InvalidOption),
/// [`Error::OutOfRange`](crate::Error::OutOfRange)); the executable could not be started ([`Error::Io`](crate::Error::Io)); fewer than
/// three processes succeeded ([`Error::ProcessesFailed`](crate::Error::ProcessesFailed), naming what happened to each);
/// cancellation or Ctrl-C ([`Error::Cancelled`](crate::Error::Cancelled)).
#[track_caller]
pub fn run(options: &PoolOptions, f: impl FnOnce(&mut Child) -> Result<Report>) -> Result<Pooled> {
    run_detailed(options, f).map(|r| r.pooled)
}

/// [`run`], returning the processes' reports and timings with the pooled result.
#[track_caller]
pub fn run_detailed(
    options: &PoolOptions,
    f: impl FnOnce(&mut Child) -> Result<Report>,
) -> Result<PoolRun> {
    let key = enter(&base_key(options, std::panic::Location::caller()));
    run_keyed(&key, options, f)
}

/// The name a pool's children know it by, before its occurrence is counted: the user's
/// [`PoolOptions::key`], or the call site.
pub(crate) fn base_key(options: &PoolOptions, caller: &std::panic::Location<'_>) -> String {
    match &options.key {
        Some(key) => format!("key {key}"),
        None => call_site(caller),
    }
}

/// Counts one more pool at `base` in this process and returns its full key, `base#n` for the
/// n-th (from 0). Parent and children count alike, so the key names the same pool in both.
pub(crate) fn enter(base: &str) -> String {
    let mut seen = OCCURRENCES.lock().unwrap_or_else(|e| e.into_inner());
    let n = seen.entry(base.to_string()).or_insert(0);
    let key = format!("{base}#{n}");
    *n += 1;
    key
}

/// A pooled run with what each successful process attached to its [`Child`] beside its
/// report (in the order of [`PoolRun::reports`]; `None` where nothing was).
pub(crate) type Attached = (PoolRun, Vec<Option<serde_json::Value>>);

/// [`run_detailed`] for a pool whose full key is known (a gate's pool; the cells of
/// rtcompare-workload's suite add a suffix per cell to the suite's key).
pub(crate) fn run_keyed(
    key: &str,
    options: &PoolOptions,
    f: impl FnOnce(&mut Child) -> Result<Report>,
) -> Result<PoolRun> {
    run_keyed_attached(key, options, f).map(|(run, _)| run)
}

/// [`run_keyed`], with what each process attached to its [`Child`] beside its report.
pub(crate) fn run_keyed_attached(
    key: &str,
    options: &PoolOptions,
    f: impl FnOnce(&mut Child) -> Result<Report>,
) -> Result<Attached> {
    if let Some(spec) = ChildSpec::from_env() {
        if spec.site == key {
            child_main(spec, options, f);
        }
        // A child started for another pool passes through this one without measuring: its
        // output is discarded, and the program must reach the pool it was started for.
        return passing_through(&spec.site);
    }
    parent_main(key, options)
}

/// The stand-in result of a pool that a child process passes on its way to the one it was
/// started for: no process ran, the verdict is "cannot tell".
fn passing_through(other: &str) -> Result<Attached> {
    let zero = crate::stats::Estimate::from_interval(0.0, 0.0, 0.0, 0.95)?;
    let mut pooled = stats::combine(&[zero; MIN_PROCESSES], 0.95)?;
    pooled.processes = 0;
    pooled.deltas.clear();
    pooled.half_widths.clear();
    pooled.warnings = vec![PoolWarning::ProcessFailed {
        index: 0,
        reason: format!("not run: this process was started for the pooled comparison {other}"),
    }];
    let run = PoolRun {
        pooled,
        reports: Vec::new(),
        timings: Vec::new(),
        seed: 0,
        elapsed: Duration::ZERO,
    };
    Ok((run, Vec::new()))
}

/// Whether this process is a pool child started for the pool `key` (a full key from
/// [`enter`]); `None` in a process that is no pool child.
pub(crate) fn is_child_for(key: &str) -> Option<bool> {
    ChildSpec::from_env().map(|s| s.site == key)
}

pub(crate) fn call_site(l: &std::panic::Location<'_>) -> String {
    format!("{}:{}:{}", l.file(), l.line(), l.column())
}

/// Pools reports read back from anywhere (JSON files from a CI matrix, a cluster scheduler):
/// one per process, same comparison, same roles. Their A/A floors and deltas, when present,
/// make the pooled floor.
///
/// Errors: those of `combine_processes`.
///
/// ```no_run
/// use rtcompare::{Report, pool::combine_reports};
/// let reports: Vec<Report> = std::fs::read_dir("reports")?
///     .map(|e| Report::from_json(&std::fs::read_to_string(e?.path())?).map_err(Into::into))
///     .collect::<Result<_, Box<dyn std::error::Error>>>()?;
/// println!("{}", combine_reports(&reports, 0.95)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn combine_reports(reports: &[Report], level: f64) -> Result<Pooled> {
    combine_reports_staged(reports, 0, level, stats::DEFAULT_MARGIN)
}

/// [`combine_reports`] with Stein's interval after a first stage of `first_stage` reports
/// (0: the plain t interval).
pub(crate) fn combine_reports_staged(
    reports: &[Report],
    first_stage: usize,
    level: f64,
    margin: f64,
) -> Result<Pooled> {
    let ps: Vec<ProcessEstimate> = reports.iter().map(process_estimate).collect();
    stats::combine_processes_with(&ps, first_stage, level, margin)
}

/// Resident memory a program may add before its pool's closure without a warning (8 MiB): a
/// fresh process's runtime and test harness stay well below it.
const BUILT_BEFORE_WARNING: u64 = 8 << 20;

/// The median memory built before the closure, when it exceeds [`BUILT_BEFORE_WARNING`] and
/// no process built its fixtures through [`Child::build`]: their order was the same in every
/// process.
fn fixed_build_order(reports: &[Report]) -> Option<u64> {
    let infos: Vec<&ProcessInfo> = reports
        .iter()
        .filter_map(|r| r.context.process.as_ref())
        .collect();
    if infos.is_empty() || infos.iter().any(|i| i.build_order.is_some()) {
        return None;
    }
    let mut built: Vec<u64> = infos.iter().map(|i| i.built_before_closure_bytes).collect();
    built.sort_unstable();
    let median = built[built.len() / 2];
    (median > BUILT_BEFORE_WARNING).then_some(median)
}

fn process_estimate(r: &Report) -> ProcessEstimate {
    // A cross-revision worker pair carries its A/A differences itself (its two regroupings),
    // not as validations.
    let aa_deltas = match &r.context.worker_pair {
        Some(pair) => pair.null_deltas.to_vec(),
        None => [&r.validation_a, &r.validation_b]
            .iter()
            .filter_map(|v| v.as_ref())
            .flat_map(|v| v.deltas.iter().copied())
            .collect(),
    };
    ProcessEstimate {
        estimate: r.estimate,
        noise_floor: r.validated.then_some(r.noise_floor),
        aa_deltas,
        quantization: if r.timing.quantization.is_finite() {
            r.timing.quantization
        } else {
            0.0
        },
    }
}
