//! What the workspace's own crates (the `rtcompare` command-line tool, and the crates beside
//! the core) need from the core and its users do not. Hidden from the documentation and not
//! part of the API: anything here may change in any release. One module, so that the public
//! surface stays what README and the guide show.

/// The HTML report's building blocks, from which the command-line tool draws its own pages
/// with the library's panels: a `Page` of `Panel`s, each holding one `Figure` from a chart.
#[cfg(feature = "html")]
pub mod render {
    pub use crate::render::chart::{
        BootstrapPlot, Distributions, MachineForest, NumberLine, RunOrder, TimeBar, TimeScale,
    };
    pub use crate::render::page::{
        COLOUR_A, COLOUR_B, COLOUR_FLOOR, Figure, LegendEntry, Mark, Page, Panel, escape,
    };
    pub use crate::render::report::environment_rows;
}

/// The crate's number formats (durations, sizes, counts, percentages), so that every front end
/// prints a figure the same way.
pub mod display {
    pub use crate::display::{Bytes, Count, Level, MagnitudePct, Ns, Pct, Share, SiCount, Sig};
}

/// The most bootstrap replicates one call accepts (the statistics' own limit, 10,000,000):
/// rtcompare-service checks its `resamples` against it before measuring.
pub const MAX_RESAMPLES: usize = crate::stats::MAX_RESAMPLES;

/// The full key of the next pool at `base` in this process (`base#n` for the n-th): parent
/// and children count alike, so the key names the same pool in both. rtcompare-workload's
/// suite keys each cell's pool by it.
pub fn pool_enter(base: &str) -> String {
    crate::pool::enter(base)
}

/// The key a pool started at `location` is known by before its occurrence is counted.
pub fn pool_call_site(location: &std::panic::Location<'_>) -> String {
    crate::pool::call_site(location)
}

/// Whether this process is a pool child started for the pool `key` (a full key from
/// [`pool_enter`]); `None` in a process that is no pool child.
pub fn pool_is_child_for(key: &str) -> Option<bool> {
    crate::pool::is_child_for(key)
}

/// Attaches `value` to this pool process's result: the parent of a
/// [`run_pool_attached`] receives it beside the process's report. A later call replaces
/// an earlier one; a pool run through [`pool::run`](crate::pool::run) drops it.
pub fn attach(child: &mut crate::pool::Child, value: serde_json::Value) {
    child.attachment = Some(value);
}

/// [`pool::run_detailed`](crate::pool::run_detailed) for a pool whose full key is known
/// ([`pool_enter`]), with what each successful process [attached](attach) beside its
/// report, in the order of [`PoolRun::reports`](crate::pool::PoolRun::reports) (`None` where
/// nothing was).
pub fn run_pool_attached(
    key: &str,
    options: &crate::pool::PoolOptions,
    f: impl FnOnce(&mut crate::pool::Child) -> crate::Result<crate::Report>,
) -> crate::Result<(crate::pool::PoolRun, Vec<Option<serde_json::Value>>)> {
    crate::pool::run_keyed_attached(key, options, f)
}

pub mod bench;
pub mod stats;
