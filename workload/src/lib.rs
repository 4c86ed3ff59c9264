//! Insert/delete workloads over [rtcompare]: realistic, reproducible streams for mutable data
//! structures, and comparisons of structures under them.
//!
//! # The problem
//!
//! A benchmark that inserts `0..n` into an empty map and reads it back measures a structure
//! nobody runs in production: no churn, no steady-state size, no skew, no deletions, no
//! misses, and a fresh allocator every time. A map in a cache or an index lives at a steady
//! size, takes inserts and removals around it, is read with a skew, and misses.
//!
//! # The design
//!
//! A [`Spec`] describes such a workload: the steady size, the key distribution (uniform,
//! Zipf, sequential, a moving hot set), the operation mix (inserts, removals, lookups that
//! hit and lookups that miss), which present key a removal takes, the phases (fill, churn,
//! optional drain), the key type and the seed. [`Spec::stream`] turns it into a [`Stream`]
//! of [`Op`]s that is bit-for-bit reproducible and valid by construction, and
//! [`Stream::summary`] measures what was generated, to check it against the spec.
//!
//! A [`Structure`] is anything with insert, remove, get and len (implemented for
//! `HashMap`, `BTreeMap`, `HashSet`, `BTreeSet`, `VecDeque` as a queue and `BinaryHeap`).
//! [`compare`] fills two structures to the steady state outside the measured region and
//! runs the **same** pre-generated operations on both, batch for batch, through the whole
//! protocol of [`compare()`](rtcompare::compare()); its [`StructureReport`] holds the core's
//! report and the [`Record`] of the spec and each structure's memory. A [`Suite`] runs a
//! matrix of specs × structures against a baseline and returns a table of verdicts
//! ([`SuiteResult`]).
//!
//! ```no_run
//! use std::collections::{BTreeMap, HashMap};
//! use rtcompare::CompareOptions;
//! use rtcompare_workload::{self as workload, Mix, Spec};
//!
//! let spec = Spec::default().steady_size(1_000_000).zipf(1.1).mix(Mix::read_heavy());
//! let summary = spec.stream(1_000_000)?.summary();
//! println!("{summary}");
//! let report = workload::compare::<HashMap<u64, u64>, BTreeMap<u64, u64>>(
//!     &spec,
//!     &CompareOptions::default(),
//! )?;
//! println!("{report}");
//! # Ok::<(), rtcompare_workload::Error>(())
//! ```
//!
//! | file | owns | touches the machine? |
//! |---|---|---|
//! | `suite.rs` | [`Suite`], [`SuiteResult`], [`Cell`]: the matrix, in one process or a pool of processes per cell | via `run` and the core's pools |
//! | `run.rs` | [`compare`], [`compare_child`], [`compare_with_clock`]: the stream prepared, both structures filled and measured | via the core's `compare` |
//! | `report.rs`, `record.rs` | [`StructureReport`], [`Record`], [`Memory`]: plain data | no |
//! | `structure.rs` | the [`Structure`] trait and its implementations for the standard collections | no |
//! | `stream/`, `zipf.rs` | [`Stream`], [`Op`], [`Summary`]: the generator and its key distributions | no |
//! | `spec.rs` | [`Spec`], [`Mix`], [`KeyDistribution`], [`Removal`], [`KeyType`] and their checks | no |
//! | `error.rs` | [`Error`], [`Result`] | no |
//!
//! The measurement, the statistics, the pools and the seeded generator are the core's,
//! through its public API (and, for the pools of a [`Suite`]'s cells, its hidden
//! `support` module).
#![deny(missing_docs)]
#![warn(rustdoc::broken_intra_doc_links)]

mod error;
mod record;
mod report;
mod run;
mod spec;
mod stream;
mod structure;
mod suite;
mod zipf;

pub use error::{Error, Result};
pub use record::{Memory, Record};
pub use report::StructureReport;
pub use run::{COMPARE_STREAM_OPS, compare, compare_child, compare_with_clock};
pub use spec::{
    DEFAULT_BAND, DEFAULT_STEADY_SIZE, KEY_SPACE_FACTOR, KeyDistribution, KeyType, MIN_BAND_KEYS,
    MIN_KEY_SPACE, MIN_STRING_KEY_LEN, MIX_TOLERANCE, Mix, Removal, Spec,
};
pub use stream::{FIT_MIN_COUNT, FIT_RANKS, Op, Stream, Summary, payload};
pub use structure::{Key, Structure, key_string};
pub use suite::{Cell, Suite, SuiteResult, standard_specs};

/// The README's example, compiled as a doctest so that it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
