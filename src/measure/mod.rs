//! Everything that touches the clock, the operating system or the hardware: the instrument,
//! the candidates and their batches, calibration, the interleaved collection of paired
//! samples, the cache mode (cold runs evict the caches before every batch), hardware counters,
//! the counting allocator, CPU pinning and the environment stamp.
//!
//! Nothing here decides a verdict: measurement hands plain samples to [`stats`](crate::stats)
//! and [`compare`](mod@crate::compare) and keeps no opinion about them. Inside the package the
//! order is `clock` ← `candidate` ← `calibrate` ← `collect`; `counters`, `alloc`, `pin` and
//! `env` stand alone, and `cache` uses only `alloc`. `alloc.rs` and `env.rs` live in this
//! folder but are declared at the crate root ([`crate::alloc`], [`crate::env`]), their one path.

pub mod cache;
pub mod calibrate;
pub mod candidate;
pub mod clock;
pub mod collect;
pub mod counters;
pub mod pin;
