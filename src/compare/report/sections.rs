//! The sections of a [`Report`](super::Report) below its answer, one type for each kind of
//! evidence. Each is flattened into the report's JSON (`#[serde(flatten)]`), so the JSON keeps
//! every key at the top level, where reports written before the sections existed have them.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::alloc::{AllocSummary, LiveHeap};
use crate::compare::gate_record::GateInfo;
use crate::compare::options::CompareOptions;
use crate::compare::report::ProcessInfo;
use crate::env::Environment;
use crate::measure::cache::CacheInfo;
use crate::measure::calibrate::Calibration;
use crate::measure::clock::Instrument;
use crate::measure::counters::CounterSummary;
use crate::stats::DriftReport;

/// How the measured series behaved and how they were resampled: the drift tests, the lag-1
/// autocorrelations, the block length they chose and the share of tied bootstrap replicates.
/// The drift, autocorrelation and tie warnings are raised on these figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnostics {
    /// Drift test on A's samples.
    pub drift_a: DriftReport,
    /// Drift test on B's samples.
    pub drift_b: DriftReport,
    /// Drift test on the ratio B/A of each pair: a common slowdown leaves it flat, a head
    /// start that wears off moves it.
    pub drift_ratio: DriftReport,
    /// Lag-1 autocorrelation of A's samples.
    pub autocorrelation_a: f64,
    /// Lag-1 autocorrelation of B's samples.
    pub autocorrelation_b: f64,
    /// The larger of the two (reports written before 2026-12-04 chose the block length by
    /// it; the ratios' own, below, chooses it now).
    pub autocorrelation: f64,
    /// Lag-1 autocorrelation of the pairs' ratios B/A, the series the verdict is computed
    /// from: it chooses the block length
    /// ([`ratio_block_length`](crate::stats::ratio_block_length)) and the
    /// high-autocorrelation warning reads it (0 when a ratio is not finite, and in reports
    /// written before the field existed).
    #[serde(default)]
    pub autocorrelation_ratio: f64,
    /// Resampling block length used (1: single pairs), needed with the seed to recompute the
    /// interval.
    pub block_length: usize,
    /// Share of the bootstrap replicates tied at exactly zero, in [0, 1].
    pub tie_rate: f64,
}

/// How the batches were timed: their size and the calibration that chose it, the instrument,
/// what one clock step weighs against a batch, and time the machine spent suspended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Operations per batch, the same for both candidates.
    pub inner_loops: u64,
    /// Calibration of A (`None` if the batch size was fixed by the options).
    pub calibration_a: Option<Calibration>,
    /// Calibration of B.
    pub calibration_b: Option<Calibration>,
    /// The instrument: clock precision, read cost, empty-batch floor.
    pub instrument: Instrument,
    /// One clock step as a share of the faster candidate's batch (fraction; `f64::MAX` when
    /// the faster batch measured 0 ns).
    pub quantization: f64,
    /// Time the machine was suspended during the comparison, when beyond 1 s; else zero.
    pub suspended: Duration,
}

/// What the candidates used besides time, counted around the same batches as the timings
/// (outside the timed region): hardware counters, allocations, and the live heap over the
/// whole comparison. They explain a difference; they never decide the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resources {
    /// Hardware counters per operation for both sides, when requested with
    /// [`CompareOptions::counters`] (their status says when the machine refused), from every
    /// measured pair, the rounds a width target added included.
    pub counters: Option<CounterSummary>,
    /// Allocations and bytes per operation for both sides, counted around every measured batch,
    /// the rounds a width target added included, when a
    /// [`Counting`](crate::alloc::Counting) allocator is installed; `None` (null) otherwise.
    #[serde(default)]
    pub allocations: Option<AllocSummary>,
    /// The live heap at the start, at its peak and at the end of the comparison, when a
    /// [`Counting`](crate::alloc::Counting) allocator is installed; `None` (null) otherwise.
    #[serde(default)]
    pub live_heap: Option<LiveHeap>,
}

/// How the comparison ran: a cold run's cache figures, whether the width target was met, the
/// options as given, the pinned CPU, the environment stamp, the wall time and the CPU time of
/// the process's other threads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// In a cold run, the last-level cache found, the eviction buffer's size and the number of
    /// evictions (one per batch); `None` in a warm run.
    #[serde(default)]
    pub cache_info: Option<CacheInfo>,
    /// Whether the interval met its width target (`rtcompare::support::compare::width_target`) (`None` when no target was
    /// set; `Some(false)` when the rule's pair budget ran out first).
    pub width_target_met: Option<bool>,
    /// The options the comparison ran with (as given; zero fields meant defaults).
    pub options: CompareOptions,
    /// The CPU the measuring thread was pinned to, if it was.
    pub pinned_cpu: Option<usize>,
    /// The environment stamp, including the peak resident memory before and after.
    pub environment: Environment,
    /// Wall time the whole comparison took.
    pub elapsed: Duration,
    /// CPU time the process's other threads used during the comparison (process CPU time
    /// minus the measuring thread's); `None` where the system cannot tell.
    pub other_threads_cpu: Option<Duration>,
}

/// What the comparison was part of, recorded by the caller that ran it: a gate, one process
/// of a pooled comparison, a worker pair of a cross-revision comparison. All `None` (the
/// default) for a comparison run on its own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Context {
    /// The gate this comparison decided, when it ran as one (see [`gate`](crate::gate)).
    pub gate: Option<GateInfo>,
    /// Which process of a pooled comparison this report came from, with the layout
    /// perturbation it ran under (see [`pool`](crate::pool)); `None` for a comparison in one
    /// process.
    #[serde(default)]
    pub process: Option<ProcessInfo>,
    /// The worker pair of a cross-revision comparison this report describes
    /// (`cargo bench -- --baseline REV`, `rtcompare bench`): its CPU, its four workers' batches
    /// and its A/A differences. `None` for other comparisons, whose JSON then has no such
    /// key (as reports written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker_pair: Option<WorkerPair>,
}

/// One worker pair of a cross-revision comparison (`cargo bench -- --baseline REV`): two workers of each
/// build, all four on one CPU, each round a batch of every worker in a random order. The
/// report's A series is the head's two workers averaged per round, its B series the
/// baseline's, so δ = 1 − head/baseline as in every report of the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkerPair {
    /// The CPU all four workers ran on; `None` when they ran wherever the system put them
    /// (one CPU per pair turned off, or no `sched_setaffinity` on this system).
    pub cpu: Option<usize>,
    /// The CPU the parent waited on while the pair's batches ran; `None` when it stayed where
    /// it was (only one CPU allowed, or one CPU per pair turned off).
    pub parent_cpu: Option<usize>,
    /// How many CPUs the run was allowed (`sched_getaffinity`, a `taskset` mask included); 1
    /// means every pair ran on that one CPU, beside the parent.
    pub cpus_allowed: usize,
    /// Rounds measured.
    pub rounds: usize,
    /// Rounds asked for; more than [`rounds`](Self::rounds) when the pair's time budget ended
    /// it first.
    pub requested_rounds: usize,
    /// Every worker's batch durations in nanoseconds, by round, in the order baseline 1,
    /// baseline 2, head 1, head 2.
    pub batch_ns: [Vec<u64>; 4],
    /// The order each round ran the workers in (indices into [`batch_ns`](Self::batch_ns)).
    pub orders: Vec<[u8; 4]>,
    /// The pair's two A/A differences (fractions, as δ): the same four workers regrouped so
    /// that each side holds one worker of each build, (head 1 + baseline 1) against (head 2 +
    /// baseline 2), and (head 1 + baseline 2) against (head 2 + baseline 1). Neither can see
    /// the builds' difference; each sees the processes' as δ does.
    pub null_deltas: [f64; 2],
    /// Wall time of the pair, its workers' start included, in seconds.
    pub seconds: f64,
    /// Which code layout of the two builds the pair ran (from 0; variant i of each build was
    /// linked with the same code-order seed); 0 when the builds had one layout.
    #[serde(default)]
    pub layout_variant: usize,
}
