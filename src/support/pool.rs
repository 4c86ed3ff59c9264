//! The pool's pieces that the workspace's crates and the lab programs use and users do not:
//! pools keyed by hand with a record attached to each process (rtcompare-workload's suite),
//! the history of runs (the command-line tool), the child marker, the JSON's version, the
//! defaults the lab programs print, the heap perturbation on its own, and the knob that turns
//! off the perturbation before `main`.

use crate::compare::report::Report;
use crate::error::Result;
use crate::pool::{Child, PoolOptions, PoolRun};

pub use crate::pool::json::POOL_SCHEMA_VERSION;
pub use crate::pool::options::{DEFAULT_MAX_PROCESSES, DEFAULT_TARGET_ABS, DEFAULT_TARGET_REL};
pub use crate::pool::perturb::{HeapPerturbation, perturb_heap};

/// A comparison's history across invocations (the command-line tool's `history/*.jsonl`):
/// each pooled result appended to a JSON-lines file, and the earlier results whose intervals
/// exclude the new one named.
pub mod history {
    pub use crate::pool::history::{Entry, Recorded, append, file_name, read, record};
}

/// The environment variable that marks a child process of `pool::run`; its value says which
/// pool, which process and where to write the report.
pub const CHILD_ENV: &str = crate::pool::CHILD_ENV;

/// The full key of the next pool at `base` in this process (`base#n` for the n-th): parent
/// and children count alike, so the key names the same pool in both. rtcompare-workload's
/// suite keys each cell's pool by it.
pub fn enter(base: &str) -> String {
    crate::pool::enter(base)
}

/// The key a pool started at `location` is known by before its occurrence is counted.
pub fn call_site(location: &std::panic::Location<'_>) -> String {
    crate::pool::call_site(location)
}

/// Whether this process is a pool child started for the pool `key` (a full key from
/// [`enter`]); `None` in a process that is no pool child.
pub fn is_child_for(key: &str) -> Option<bool> {
    crate::pool::is_child_for(key)
}

/// Attaches `value` to this pool process's result: the parent of a [`run_attached`] receives
/// it beside the process's report. A later call replaces an earlier one; a pool run through
/// `pool::run` drops it.
pub fn attach(child: &mut Child, value: serde_json::Value) {
    child.attachment = Some(value);
}

/// `pool::run_detailed` for a pool whose full key is known ([`enter`]), with what each
/// successful process [attached](attach) beside its report, in the order of the run's
/// `reports` (`None` where nothing was).
pub fn run_attached(
    key: &str,
    options: &PoolOptions,
    f: impl FnOnce(&mut Child) -> Result<Report>,
) -> Result<(PoolRun, Vec<Option<serde_json::Value>>)> {
    crate::pool::run_keyed_attached(key, options, f)
}

/// `options` with the perturbation before `main` (heap filler and a mapping of random size,
/// which reach fixtures the program builds before it calls `pool::run`) on or off (default
/// on; it applies only while the perturbation itself is on). Off only to measure what it does.
pub fn early_perturbation(options: PoolOptions, on: bool) -> PoolOptions {
    options.early_perturbation(on)
}
