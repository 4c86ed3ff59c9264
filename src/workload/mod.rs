//! Insert/delete workloads: realistic, reproducible streams for mutable data structures.
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

mod spec;
mod stream;
mod zipf;

pub use spec::{
    DEFAULT_BAND, DEFAULT_STEADY_SIZE, KEY_SPACE_FACTOR, KeyDistribution, KeyType, MIN_BAND_KEYS,
    MIN_KEY_SPACE, MIN_STRING_KEY_LEN, MIX_TOLERANCE, Mix, Removal, Spec,
};
pub use stream::{FIT_MIN_COUNT, FIT_RANKS, Op, Stream, Summary, payload};
