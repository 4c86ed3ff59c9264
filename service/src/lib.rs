//! Service mode over [rtcompare]: latency under open-loop load, with percentiles claimed only
//! where the measurement pins them down.
//!
//! # The problem
//!
//! A client that waits for each reply before sending the next request sends fewer requests
//! while the server stalls, so the stall barely appears in its latencies (coordinated
//! omission). This crate's generator is **open-loop**: request `i` is due at `t0 + i / rate`
//! (or at Poisson times) whatever happened before, and its latency runs from that due time to
//! its completion, so every request queued behind a stall carries the delay a real client would
//! have seen. The generator's own lateness (send lag: actual start minus due time) is recorded
//! apart; when it exceeds a bound the run says so and a comparison gives no verdict.
//!
//! Latencies are recorded per time window in lossless HdrHistograms (and kept raw up to
//! [`RAW_LIMIT`] requests). A run's percentiles (p50, p90, p99, p99.9 by default) get intervals
//! from a block bootstrap over windows, since neighbouring requests' latencies are correlated.
//! [`compare`] loads two targets at the same rate, by default interleaved (every window's
//! requests dealt to A and B in turn, [`Schedule::Interleaved`]) or in ABBA windows
//! ([`Schedule::Windows`]), pairs A's and B's windows, and gives each percentile a paired
//! interval of its relative difference (pooled window percentiles, bootstrapped over the
//! stretches of time the pairs cover: both pairs of an interleaved window are drawn
//! together), an A/A noise floor, and a verdict only when the interval is tight (half-width of
//! the ratio's interval at most 5 % of the ratio by default).
//!
//! ```no_run
//! use std::time::Duration;
//! use rtcompare_service::{self as service, Framing, LoadOptions, ServiceOptions, Tcp};
//!
//! let a = Tcp::new("v1", "127.0.0.1:8001", b"GET\n".to_vec(), Framing::Delimiter(b'\n'))?;
//! let b = Tcp::new("v2", "127.0.0.1:8002", b"GET\n".to_vec(), Framing::Delimiter(b'\n'))?;
//! let opts = ServiceOptions::default()
//!     .load(LoadOptions::default().rate(2_000.0).percentiles(&[0.5, 0.9, 0.99]))
//!     .window(Duration::from_secs(2));
//! let report = service::compare(&a, &b, &opts)?;
//! println!("{report}");
//! # Ok::<(), rtcompare_service::Error>(())
//! ```
//!
//! | file | owns | touches the machine? |
//! |---|---|---|
//! | `options.rs` | [`LoadOptions`], [`ServiceOptions`] and their checks | no |
//! | `schedule.rs` | due times, windows and lanes, the ABBA and interleaved orders and their pairs | no |
//! | `analysis.rs` | pooled percentiles, block bootstrap over windows, paired percentile comparison | no |
//! | `pace.rs` | [`Pacer`]: the real clock (sleep, then spin) or a simulated one | clock |
//! | `target.rs` | [`Target`], [`Call`] (closure), [`Tcp`] (loopback server) | sockets |
//! | `load.rs` | the worker threads and the recording | threads |
//! | `run.rs`, `report.rs` | [`run`], [`compare`], [`LoadReport`], [`ServiceReport`] | via `load` |
//! | `error.rs` | [`Error`], [`Result`] | no |
//!
//! The statistics (block bootstrap, verdicts, the judge's bar), the clocks, the seeded
//! generator and the environment stamp are the core's, through its public API.
#![deny(missing_docs)]
#![warn(rustdoc::broken_intra_doc_links)]

mod analysis;
mod error;
mod load;
mod options;
mod pace;
mod report;
mod run;
mod schedule;
mod target;

pub use error::{Error, Result};
pub use options::{
    Arrivals, DEFAULT_MIN_DIFFERENCE, DEFAULT_PERCENTILES, LatencyOrigin, LoadOptions, MAX_RATE,
    MAX_REQUESTS, MIN_QUADS, MIN_WINDOWS, RAW_LIMIT, Schedule, ServiceOptions, TAIL_REQUESTS,
};
pub use pace::{Pacer, SimulatedPacer};
pub use report::{
    GeneratorBehind, LagSummary, LoadReport, PercentileComparison, PercentileInterval,
    SERVICE_SCHEMA_VERSION, ServiceReport, ServiceSide, ServiceUnresolved, ServiceVerdict,
    TargetSummary, WindowSummary,
};
pub use run::{compare, compare_with_pacer, run, run_with_pacer};
pub use target::{Call, Conn, Framing, RequestOutcome, Target, Tcp, is_local_address};

/// The README's example, compiled as a doctest so that it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
