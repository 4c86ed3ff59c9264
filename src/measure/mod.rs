//! Everything that touches the clock, the operating system or the hardware: the instrument,
//! the candidates and their batches, calibration, the interleaved collection of paired
//! samples, the cache mode (cold runs evict the caches before every batch), hardware counters
//! and CPU pinning.
//!
//! Nothing here decides a verdict: measurement hands plain samples to [`stats`](crate::stats)
//! and [`compare`](mod@crate::compare) and keeps no opinion about them. Inside the package the
//! order is `clock` ← `candidate` ← `calibrate` ← `collect`; `counters` and `pin` stand alone,
//! and `cache` uses only the counting allocator. Two modules of this layer are declared at the
//! crate root, where users' code names them: the counting allocator ([`crate::alloc`], which
//! `cache`, `candidate` and `collect` read, so it sits below this folder) and the environment
//! stamp ([`crate::env`], which reads `cache` and `pin`, so it sits above it).

pub(crate) mod cache;
pub(crate) mod calibrate;
pub(crate) mod candidate;
pub(crate) mod clock;
pub(crate) mod collect;
pub use collect::{CancelToken, Progress, ProgressFn, Stage};
pub(crate) mod counters;
pub(crate) mod pin;
