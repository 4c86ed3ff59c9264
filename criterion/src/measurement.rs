//! What a benchmark measures: wall-clock time, the only measurement here.
//!
//! criterion lets a bench file plug in its own [`Measurement`] (cycles, instructions, a
//! profiler's counters). rtcompare's engine compares and decides on time, with an A/A floor
//! and a clock whose precision it has measured; a figure of another kind would pass through
//! statistics built for time. So [`Measurement`] is sealed: [`WallTime`] is its only
//! implementation, and a bench file that implements it for its own type does not compile.
//! Hardware counters beside the time are the library's `counters` feature.
//!
//! ```compile_fail
//! # extern crate rtcompare_criterion as criterion;
//! use criterion::measurement::Measurement;
//! struct Cycles;
//! // error: rtcompare-criterion measures wall time only: `Cycles` cannot be a Measurement
//! impl Measurement for Cycles {
//!     type Value = u64;
//!     fn to_nanoseconds(v: &u64) -> u64 {
//!         *v
//!     }
//! }
//! ```

use std::time::Duration;

mod sealed {
    #[diagnostic::on_unimplemented(
        message = "rtcompare-criterion measures wall time only: `{Self}` cannot be a Measurement",
        note = "drop `.with_measurement(…)` (and `Criterion<{Self}>` becomes `Criterion`): the \
                harness compares and decides on time; hardware counters beside it are the \
                rtcompare library's `counters` feature"
    )]
    pub trait Sealed {}
    impl Sealed for super::WallTime {}
}

/// A kind of measurement, as criterion names it in `Criterion<M>`, `BenchmarkGroup<'_, M>` and
/// `Bencher<'_, M>`: here only [`WallTime`] (see the module's documentation for why).
pub trait Measurement: sealed::Sealed {
    /// What one timed region measures, as [`Bencher::iter_custom`](crate::Bencher::iter_custom)
    /// returns it (a [`Duration`] for [`WallTime`]).
    type Value;

    /// `value` in nanoseconds, the unit rtcompare's statistics take; saturates at `u64::MAX`.
    fn to_nanoseconds(value: &Self::Value) -> u64;
}

/// Wall-clock time, criterion's default measurement: [`std::time::Instant`] around the timed
/// region.
#[derive(Debug, Clone, Copy, Default)]
pub struct WallTime;

impl Measurement for WallTime {
    type Value = Duration;

    fn to_nanoseconds(value: &Duration) -> u64 {
        u64::try_from(value.as_nanos()).unwrap_or(u64::MAX)
    }
}
