//! [`Record`]: what a structure comparison ran, as plain data.
//!
//! A [`StructureReport`](crate::StructureReport) keeps it beside the core's report; the code
//! that fills a record lives in `run.rs`.

use serde::{Deserialize, Serialize};

use crate::spec::Spec;

/// What a structure's fill to the steady size cost in memory, measured around the fill.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    /// Growth of the resident set over the fill, in bytes (`/proc/self/statm`; `None` where
    /// it cannot be read). Pages the allocator had already mapped do not count.
    pub rss_growth_bytes: Option<u64>,
    /// Growth of the process's peak resident set over the fill, in bytes (`getrusage`).
    pub peak_rss_growth_bytes: Option<u64>,
    /// Live heap bytes the filled structure holds, with a
    /// [`Counting`](rtcompare::alloc::Counting) allocator installed; `None` without one.
    pub live_bytes: Option<u64>,
    /// Allocations the fill made, with a counting allocator installed.
    pub allocations: Option<u64>,
}

/// What a structure comparison ran, kept in its
/// [`StructureReport::record`](crate::StructureReport::record): the spec, the stream, the fill
/// order and each structure's memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Record {
    /// The spec the stream came from.
    pub spec: Spec,
    /// The stream's seed (the spec's, or the one drawn for 0).
    pub stream_seed: u64,
    /// Churn operations in the stream.
    pub stream_ops: u64,
    /// Operations each side ran, in total, from calibration to the last measured batch (the
    /// same on both sides).
    pub ops_run: u64,
    /// Times each side went through the churn (`ops_run / stream_ops`, rounded up); above 1
    /// means the stream wrapped, on both sides alike.
    pub passes: u64,
    /// Whether A was filled first.
    pub a_filled_first: bool,
    /// A's memory at the steady size.
    pub memory_a: Memory,
    /// B's memory at the steady size.
    pub memory_b: Memory,
    /// One line saying which workload was measured (the spec, the stream's length and seed,
    /// the passes and the fill order), which the [`StructureReport`](crate::StructureReport)'s
    /// `Display` prints below the medians.
    #[serde(default)]
    pub summary: String,
}
