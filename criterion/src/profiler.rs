//! criterion's profiler hook, so that bench files that implement or configure one compile.
//!
//! criterion calls a [`Profiler`] only under `--profile-time`, which this harness refuses
//! (run the bench binary under the profiler with `--bench FILTER` instead), so
//! [`Criterion::with_profiler`](crate::Criterion::with_profiler) accepts one and names it once
//! as having no effect.

use std::path::Path;

/// A profiler started and stopped around each benchmark under criterion's `--profile-time`;
/// never called here.
pub trait Profiler {
    /// Called before a benchmark is profiled.
    fn start_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
    /// Called after it.
    fn stop_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
}
