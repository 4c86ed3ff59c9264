//! What the workspace's crates, the lab programs and the tests use from the core's `rng`
//! layer and users do not.

pub use crate::rng::{Rng, derive_seed, resolve_seed, splitmix64};
