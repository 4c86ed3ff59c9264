//! Several processes: the process as the unit of replication.
//!
//! A [`compare`](crate::compare()) interval covers the noise inside one process. A process is
//! one memory layout, one placement of code, one draw of whatever the loader and the allocator
//! decided, and on pointer-heavy or cache-sized data those differ by more than the noise: two
//! processes can each resolve the same comparison, tightly, in opposite directions. [`run`]
//! makes the verdict rest on several processes instead:
//!
//! 1. The program re-executes itself ([`std::env::current_exe`], the same arguments), once per
//!    process, marked by the environment variable [`CHILD_ENV`]. The parent never measures.
//! 2. Every child first **perturbs its layout**: before `main`, heap filler and an
//!    address-space mapping of random size move whatever the program builds before it calls
//!    `run`; then [`perturb_heap`] fills the small size classes and reserves a large block, and
//!    the parent gives each child an environment padded by 0–4 KiB, which moves the initial
//!    stack. [`Child::build`] builds A's fixture first in even processes and B's first in odd
//!    ones (one of two identical structures can stay faster in every process).
//! 3. The child runs the closure once, writes its [`Report`] as JSON to a temporary file the
//!    parent named, and exits; the parent reads and removes the file.
//! 4. **Stein's two-stage plan**: after a first stage ([`PoolOptions::first_stage`], default 5)
//!    the parent computes how many processes the precision target needs
//!    ([`plan_processes`](crate::stats::plan_processes)), runs the rest up to
//!    [`PoolOptions::max_processes`], and pools them all with
//!    [`combine_staged`](crate::stats::combine_staged): Stein's interval, never narrower than
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
//! difference between them (BACKGROUND.md, "Fixtures built in a fixed order"). A pool whose
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

mod interrupt;
mod json;
mod options;
mod perturb;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::compare::CompareOptions;
use crate::compare::report::{BuildOrder, ProcessInfo, Report};
use crate::measure::clock::{Clock, MonotonicClock};
use crate::measure::collect::{CancelToken, Progress, Stage};
use crate::rng::{Rng, derive_seed, resolve_seed};
use crate::stats::{self, MIN_PROCESSES, PoolWarning, Pooled, ProcessEstimate};
use crate::{Error, Result};

pub use json::POOL_SCHEMA_VERSION;
pub use options::{
    DEFAULT_FIRST_STAGE, DEFAULT_MAX_PROCESSES, DEFAULT_POOL_MAX_DURATION,
    DEFAULT_PROCESS_MAX_DURATION, DEFAULT_PROCESS_TIMEOUT, DEFAULT_TARGET_ABS, DEFAULT_TARGET_REL,
    PoolOptions, PoolProgress, PoolProgressFn,
};
pub use perturb::{HeapPerturbation, MAX_LARGE_FILLER, perturb_heap};

/// Environment variable that marks a child process of [`run`]; its value says which call,
/// which process and where to write the report.
pub const CHILD_ENV: &str = "RTCOMPARE_POOL_CHILD";
/// Environment variable whose random-length value (0–4 KiB) moves a child's initial stack.
pub const PAD_ENV: &str = "RTCOMPARE_POOL_PAD";
/// Largest environment padding, in bytes (4 KiB).
pub const MAX_ENV_PADDING: usize = 4096;
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

/// What a child process gets: its index, its options and the fixture builder.
#[derive(Debug)]
pub struct Child {
    index: usize,
    options: CompareOptions,
    build_order: Option<BuildOrder>,
}

impl Child {
    /// The process's index in the pool, from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The options for this process's comparison: the pool's, with a seed derived for this
    /// process (and a progress hook that times the stages for the pool).
    pub fn options(&self) -> &CompareOptions {
        &self.options
    }

    /// Builds both fixtures, A's first in even processes and B's first in odd ones, and
    /// records the order in the report. Returns them as `(a, b)` whatever the order.
    pub fn build<A, B>(&mut self, a: impl FnOnce() -> A, b: impl FnOnce() -> B) -> (A, B) {
        if self.index.is_multiple_of(2) {
            self.build_order = Some(BuildOrder::AFirst);
            let a = a();
            (a, b())
        } else {
            self.build_order = Some(BuildOrder::BFirst);
            let b = b();
            (a(), b)
        }
    }
}

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
/// Errors: invalid options ([`Error::TooFewSamples`], [`Error::InvalidOption`],
/// [`Error::OutOfRange`]); the executable could not be started ([`Error::Io`]); fewer than
/// three processes succeeded ([`Error::ProcessesFailed`], naming what happened to each);
/// cancellation or Ctrl-C ([`Error::Cancelled`]).
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

/// [`run_detailed`] for a pool whose full key is known (the cells of a
/// [`workload::Suite`](crate::workload::Suite) add a suffix per cell to the suite's key).
pub(crate) fn run_keyed(
    key: &str,
    options: &PoolOptions,
    f: impl FnOnce(&mut Child) -> Result<Report>,
) -> Result<PoolRun> {
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
fn passing_through(other: &str) -> Result<PoolRun> {
    let zero = crate::Estimate::from_interval(0.0, 0.0, 0.0, 0.95)?;
    let mut pooled = stats::combine(&[zero; MIN_PROCESSES], 0.95)?;
    pooled.processes = 0;
    pooled.deltas.clear();
    pooled.half_widths.clear();
    pooled.warnings = vec![PoolWarning::ProcessFailed {
        index: 0,
        reason: format!("not run: this process was started for the pooled comparison {other}"),
    }];
    Ok(PoolRun {
        pooled,
        reports: Vec::new(),
        timings: Vec::new(),
        seed: 0,
        elapsed: Duration::ZERO,
    })
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
/// Errors: those of [`combine_processes`](crate::stats::combine_processes).
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
    combine_reports_staged(reports, 0, level)
}

/// [`combine_reports`] with Stein's interval after a first stage of `first_stage` reports
/// (0: the plain t interval).
pub(crate) fn combine_reports_staged(
    reports: &[Report],
    first_stage: usize,
    level: f64,
) -> Result<Pooled> {
    let ps: Vec<ProcessEstimate> = reports.iter().map(process_estimate).collect();
    stats::combine_processes(&ps, first_stage, level)
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
    let aa_deltas = [&r.validation_a, &r.validation_b]
        .iter()
        .filter_map(|v| v.as_ref())
        .flat_map(|v| v.deltas.iter().copied())
        .collect();
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

/// What the parent tells a child, through [`CHILD_ENV`].
struct ChildSpec {
    index: usize,
    seed: u64,
    site: String,
    path: PathBuf,
    spawned_ns: u64,
    /// Whether the child perturbs its layout before `main` ([`PoolOptions::perturb`] and
    /// [`PoolOptions::early_perturbation`]); read by the early perturbation, which cannot see
    /// the options.
    perturb: bool,
}

impl ChildSpec {
    fn encode(&self) -> OsString {
        let mut s = OsString::from(format!(
            "{}\t{}\t{}\t{}\t{}\t",
            self.index,
            self.seed,
            self.spawned_ns,
            u8::from(self.perturb),
            self.site
        ));
        s.push(self.path.as_os_str());
        s
    }

    fn from_env() -> Option<ChildSpec> {
        let v = std::env::var(CHILD_ENV).ok()?;
        let mut it = v.splitn(6, '\t');
        Some(ChildSpec {
            index: it.next()?.parse().ok()?,
            seed: it.next()?.parse().ok()?,
            spawned_ns: it.next()?.parse().ok()?,
            perturb: it.next()? == "1",
            site: it.next()?.to_string(),
            path: PathBuf::from(it.next()?),
        })
    }
}

/// What a child hands back.
#[derive(Serialize, Deserialize)]
enum ChildResult {
    Report(Box<Report>, ProcessTimings),
    /// `deadline`: the comparison was cancelled by a deadline or token, which biases the pool
    /// as a timeout does.
    Failed {
        reason: String,
        deadline: bool,
    },
}

fn child_main(
    spec: ChildSpec,
    options: &PoolOptions,
    f: impl FnOnce(&mut Child) -> Result<Report>,
) -> ! {
    let clock = MonotonicClock;
    let start_ns = clock.now_ns();
    let early = perturb::early_perturbation();
    let built_before = perturb::resident_added_since_start().unwrap_or(0);
    let filler = options
        .perturb
        .then(|| perturb_heap(derive_seed(spec.seed, 2 * spec.index as u64 + 1)));
    let padding = std::env::var_os(PAD_ENV).map_or(0, |v| v.len());
    let stages: Arc<Mutex<Vec<(Stage, u64)>>> = Arc::default();
    let mut opts = options
        .compare
        .clone()
        .seed(derive_seed(spec.seed, 2 * spec.index as u64 + 2));
    let user = opts.collect.progress.clone();
    let log = stages.clone();
    opts = opts.progress(move |p: Progress| {
        if let Ok(mut l) = log.lock()
            && l.last().is_none_or(|(s, _)| *s != p.stage)
        {
            l.push((p.stage, MonotonicClock.now_ns()));
        }
        if let Some(u) = &user {
            u(p);
        }
    });
    let mut ctx = Child {
        index: spec.index,
        options: opts,
        build_order: None,
    };
    let closure_start = clock.now_ns();
    let outcome = catch_unwind(AssertUnwindSafe(|| f(&mut ctx)));
    let end_ns = clock.now_ns();
    let result = match outcome {
        Ok(Ok(mut report)) => {
            report.context.process = Some(ProcessInfo {
                index: spec.index,
                perturbation_seed: filler.as_ref().map_or(0, HeapPerturbation::seed),
                filler_bytes: filler.as_ref().map_or(0, HeapPerturbation::bytes),
                env_padding_bytes: padding,
                build_order: ctx.build_order,
                early_filler_bytes: early.map_or(0, |e| e.0),
                early_mapping_bytes: early.map_or(0, |e| e.1),
                built_before_closure_bytes: built_before,
            });
            let marks = stages.lock().map(|l| l.clone()).unwrap_or_default();
            let stages = marks
                .iter()
                .enumerate()
                .map(|(i, (s, t))| {
                    let next = marks.get(i + 1).map_or(end_ns, |m| m.1);
                    (*s, next.saturating_sub(*t) as f64 / 1e9)
                })
                .collect();
            ChildResult::Report(
                Box::new(report),
                ProcessTimings {
                    index: spec.index,
                    startup: start_ns.saturating_sub(spec.spawned_ns) as f64 / 1e9
                        + closure_start.saturating_sub(start_ns) as f64 / 1e9,
                    stages,
                    closure: end_ns.saturating_sub(closure_start) as f64 / 1e9,
                    wall: 0.0,
                },
            )
        }
        Ok(Err(e)) => ChildResult::Failed {
            deadline: matches!(e, Error::Cancelled { .. }),
            reason: format!("the comparison failed: {e}"),
        },
        Err(payload) => ChildResult::Failed {
            reason: format!("panicked: {}", panic_message(&*payload)),
            deadline: false,
        },
    };
    let code = i32::from(matches!(result, ChildResult::Failed { .. }));
    let written = serde_json::to_string(&result)
        .map_err(|e| e.to_string())
        .and_then(|json| {
            let tmp = spec.path.with_extension("partial");
            std::fs::write(&tmp, json)
                .and_then(|()| std::fs::rename(&tmp, &spec.path))
                .map_err(|e| e.to_string())
        });
    if let Err(e) = written {
        eprintln!(
            "rtcompare pool child {}: could not write {}: {e}",
            spec.index,
            spec.path.display()
        );
        std::process::exit(2);
    }
    drop(filler);
    std::process::exit(code)
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-string panic payload".to_string()
    }
}

/// A running child and its files; dropping it kills the child if it still runs and removes
/// the files, whatever path the parent leaves by.
struct Running {
    child: std::process::Child,
    result: PathBuf,
    stderr: PathBuf,
}

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.result);
        let _ = std::fs::remove_file(self.result.with_extension("partial"));
        let _ = std::fs::remove_file(&self.stderr);
    }
}

struct Parent<'a> {
    site: &'a str,
    options: &'a PoolOptions,
    seed: u64,
    exe: PathBuf,
    args: Vec<OsString>,
    rng: Rng,
    interrupt: interrupt::InterruptGuard,
    started: Instant,
    /// Tells this run's files from those of other pools in the same process.
    run_id: usize,
}

/// One process's outcome as the parent sees it.
enum ChildOutcome {
    Report(Box<Report>, ProcessTimings),
    /// `timed_out`: killed by the process timeout, or cancelled by a deadline in the child.
    Failed {
        reason: String,
        timed_out: bool,
    },
}

impl Parent<'_> {
    fn spawn(&mut self, index: usize) -> Result<ChildOutcome> {
        let stem = format!(
            "rtcompare-pool-{}-{}-{:016x}-{index}",
            std::process::id(),
            self.run_id,
            self.seed
        );
        let dir = std::env::temp_dir();
        let result = dir.join(format!("{stem}.json"));
        let stderr_path = dir.join(format!("{stem}.stderr"));
        let stderr = std::fs::File::create(&stderr_path).map_err(|e| Error::io(&stderr_path, e))?;
        let padding = if self.options.perturb {
            self.rng.below(MAX_ENV_PADDING as u64 + 1) as usize
        } else {
            0
        };
        let spec = ChildSpec {
            index,
            seed: self.seed,
            site: self.site.to_string(),
            path: result.clone(),
            spawned_ns: MonotonicClock.now_ns(),
            perturb: self.options.perturb && self.options.early_perturbation,
        };
        let spawned = Instant::now();
        let child = Command::new(&self.exe)
            .args(&self.args)
            .env(CHILD_ENV, spec.encode())
            .env(PAD_ENV, "x".repeat(padding))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) => {
                let _ = std::fs::remove_file(&stderr_path);
                return Err(Error::io(&self.exe, e));
            }
        };
        let mut running = Running {
            child,
            result,
            stderr: stderr_path,
        };
        let status = loop {
            match running.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) => {}
                Err(e) => return Err(Error::io(&self.exe, e)),
            }
            let cancelled = self
                .options
                .cancel
                .as_ref()
                .is_some_and(CancelToken::is_cancelled);
            if cancelled || self.interrupt.interrupted() {
                return Err(Error::Cancelled {
                    stage: "pooling processes",
                    elapsed: self.started.elapsed(),
                });
            }
            if spawned.elapsed() > self.options.process_timeout {
                return Ok(ChildOutcome::Failed {
                    reason: format!(
                        "timed out after {:.0?} and was killed",
                        self.options.process_timeout
                    ),
                    timed_out: true,
                });
            }
            std::thread::sleep(POLL);
        };
        let wall = spawned.elapsed().as_secs_f64();
        Ok(read_outcome(&running, status, wall))
    }
}

fn read_outcome(running: &Running, status: ExitStatus, wall: f64) -> ChildOutcome {
    let tail = stderr_tail(&running.stderr);
    match std::fs::read_to_string(&running.result) {
        Ok(json) => match serde_json::from_str::<ChildResult>(&json) {
            Ok(ChildResult::Report(r, mut t)) => {
                t.wall = wall;
                ChildOutcome::Report(r, t)
            }
            Ok(ChildResult::Failed { reason, deadline }) => ChildOutcome::Failed {
                reason,
                timed_out: deadline,
            },
            Err(e) => ChildOutcome::Failed {
                reason: format!("wrote a report that does not parse: {e}"),
                timed_out: false,
            },
        },
        Err(_) => {
            // A child that ends well without a report never reached its pool: the program
            // took another path, or counted its pools differently, in the child.
            let hint = if status.success() {
                "; it never reached the pool it was started for (when pools run in an order \
                 that can differ between runs of the program, give each its own \
                 PoolOptions::key)"
            } else {
                ""
            };
            ChildOutcome::Failed {
                reason: format!(
                    "exited ({status}) without a report{hint}{}",
                    if tail.is_empty() {
                        String::new()
                    } else {
                        format!("; its stderr ended: {tail}")
                    }
                ),
                timed_out: false,
            }
        }
    }
}

/// The last few lines of a child's stderr, on one line.
fn stderr_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(3)..].join(" | ")
}

/// Processes a pool may run in all under [`PoolOptions::max_duration`], the first stage's
/// included: those already run plus as many as fit in the time left at the median wall time
/// of those that finished. `usize::MAX` without a budget.
fn processes_in_budget(
    options: &PoolOptions,
    elapsed: Duration,
    timings: &[ProcessTimings],
) -> usize {
    if options.max_duration.is_zero() || timings.is_empty() {
        return usize::MAX;
    }
    let mut walls: Vec<f64> = timings.iter().map(|t| t.wall).collect();
    walls.sort_by(f64::total_cmp);
    let median = walls[walls.len() / 2].max(1e-3);
    let left = options.max_duration.saturating_sub(elapsed).as_secs_f64();
    timings.len() + (left / median).floor() as usize
}

fn time_budget_end(options: &PoolOptions, needed: usize, fit: usize) -> stats::PlanEnd {
    stats::PlanEnd::TimeBudget {
        needed,
        fit,
        seconds: options.max_duration.as_secs_f64(),
    }
}

fn parent_main(site: &str, options: &PoolOptions) -> Result<PoolRun> {
    options.check()?;
    let seed = resolve_seed(options.seed);
    let exe = std::env::current_exe().map_err(|e| Error::io(Path::new("current_exe"), e))?;
    let args = options
        .args
        .clone()
        .unwrap_or_else(|| std::env::args_os().skip(1).collect());
    let mut parent = Parent {
        site,
        options,
        seed,
        exe,
        args,
        rng: Rng::new(derive_seed(seed, 0)),
        interrupt: interrupt::InterruptGuard::install(),
        started: Instant::now(),
        run_id: RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
    };
    let mut reports: Vec<Report> = Vec::new();
    let mut timings = Vec::new();
    // (index, reason, timed out or past a deadline)
    let mut failures: Vec<(usize, String, bool)> = Vec::new();
    let has_target = options.target_abs > 0.0 || options.target_rel > 0.0;
    let mut planned = options.first_stage;
    let mut needed = options.first_stage;
    let mut plan_end = None;
    let mut first_stage = 0usize;
    let mut index = 0usize;
    loop {
        if reports.len() >= planned || index >= options.max_processes {
            if first_stage == 0 {
                // The first stage is over: plan the rest from it.
                first_stage = reports.len();
                if first_stage < MIN_PROCESSES {
                    break;
                }
                // Met, or out of reach: the run ends with the first stage.
                let mut go_on = true;
                if has_target {
                    let first = combine_reports(&reports, options.level)?;
                    let fit = processes_in_budget(options, parent.started.elapsed(), &timings);
                    let cap = options.max_processes.min(fit);
                    let plan = stats::plan_processes(
                        &first,
                        options.target_abs,
                        options.target_rel,
                        cap,
                        options.run_to_cap,
                    );
                    // The loop runs to `needed` successes or the cap, whichever comes first.
                    needed = plan.needed;
                    planned = plan.needed;
                    plan_end = plan.end;
                    go_on = plan.end.is_none();
                    if cap < options.max_processes && plan.needed > cap {
                        // The time budget, not the cap on processes, is what binds.
                        planned = plan.total;
                        plan_end = Some(time_budget_end(options, plan.needed, cap));
                        go_on = plan.total > reports.len();
                    }
                }
                if go_on && reports.len() < planned && index < options.max_processes {
                    continue;
                }
            }
            break;
        }
        if first_stage > 0
            && !options.max_duration.is_zero()
            && parent.started.elapsed() >= options.max_duration
        {
            // Later processes ran slower than the first stage's: the budget is spent.
            plan_end = Some(time_budget_end(options, needed, index));
            break;
        }
        if failures.len() >= options.first_stage && reports.len() < MIN_PROCESSES {
            // As many failures as a first stage and still too few to pool: the closure fails
            // for a reason more processes will not cure.
            break;
        }
        let outcome = parent.spawn(index)?;
        let delta = match outcome {
            ChildOutcome::Report(r, t) => {
                let d = r.estimate.delta;
                reports.push(*r);
                timings.push(t);
                Some(d)
            }
            ChildOutcome::Failed { reason, timed_out } => {
                failures.push((index, reason, timed_out));
                None
            }
        };
        index += 1;
        if let Some(p) = &options.progress {
            p(&PoolProgress {
                done: index,
                planned: planned.min(options.max_processes).max(index),
                index: index - 1,
                delta,
            });
        }
    }
    if reports.len() < MIN_PROCESSES {
        return Err(Error::ProcessesFailed {
            succeeded: reports.len(),
            started: index,
            needed: MIN_PROCESSES,
            failures: failures
                .iter()
                .map(|(i, why, _)| format!("process {i} {why}"))
                .collect(),
        });
    }
    let ps: Vec<ProcessEstimate> = reports.iter().map(process_estimate).collect();
    let staged = if has_target && first_stage >= MIN_PROCESSES {
        first_stage.min(ps.len())
    } else {
        0
    };
    let mut pooled = stats::combine_processes(&ps, staged, options.level)?;
    if has_target {
        let met = pooled.precise(options.target_abs, options.target_rel);
        pooled.target_met = Some(met);
        pooled.planned_processes = planned;
        pooled.plan_end = Some(match plan_end {
            None | Some(stats::PlanEnd::TimeBudget { .. }) if met => stats::PlanEnd::Met,
            Some(end) => end,
            None if met => stats::PlanEnd::Met,
            None if reports.len() >= planned => stats::PlanEnd::WiderThanPlanned,
            None if !failures.is_empty() => stats::PlanEnd::Failures {
                failed: failures.len(),
            },
            None => stats::PlanEnd::Cap {
                cap: options.max_processes,
            },
        });
    }
    if let Some(bytes) = fixed_build_order(&reports) {
        pooled.warnings.push(PoolWarning::FixedBuildOrder { bytes });
        if !options.accept_fixed_build_order {
            pooled.refuse_fixed_build_order(bytes);
        }
    }
    let timed_out = failures.iter().filter(|f| f.2).count();
    pooled.account_failures(failures.len(), timed_out);
    for (index, reason, _) in failures {
        pooled
            .warnings
            .push(PoolWarning::ProcessFailed { index, reason });
    }
    Ok(PoolRun {
        pooled,
        reports,
        timings,
        seed,
        elapsed: parent.started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timings(walls: &[f64]) -> Vec<ProcessTimings> {
        walls
            .iter()
            .enumerate()
            .map(|(index, &wall)| ProcessTimings {
                index,
                startup: 0.0,
                stages: Vec::new(),
                closure: wall,
                wall,
            })
            .collect()
    }

    #[test]
    fn the_budget_admits_what_fits_at_the_median_process_time() {
        let o = PoolOptions::default().max_duration(Duration::from_secs(60));
        // Five processes of median 4 s took 20 s: 40 s left, ten more.
        let t = timings(&[3.0, 4.0, 4.0, 5.0, 30.0]);
        assert_eq!(processes_in_budget(&o, Duration::from_secs(20), &t), 15);
        // Spent: none more.
        assert_eq!(processes_in_budget(&o, Duration::from_secs(61), &t), 5);
        // No budget: no limit.
        let free = o.max_duration(Duration::ZERO);
        assert_eq!(
            processes_in_budget(&free, Duration::from_secs(61), &t),
            usize::MAX
        );
    }
}
