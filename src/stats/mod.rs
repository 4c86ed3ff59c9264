//! Pure statistics on `&[f64]`.
//!
//! Nothing in this module reads a clock, touches the operating system or keeps global state:
//! the measurement code calls it, never the other way round. Every function validates its input
//! at the boundary (empty input, NaN or infinity give an [`Error`](crate::Error), never a NaN
//! result) and every randomised function is deterministic for a given seed, bit for bit.
//!
//! The submodules are re-exported here, so `rtcompare::stats::median` and
//! `rtcompare::stats::summary::median` are the same function.

pub mod aa_floor;
pub mod autocorr;
pub mod batch_means;
pub mod bootstrap;
pub mod change_points;
pub mod decision;
pub mod dist;
pub mod drift;
pub mod few_runs;
pub mod hypothesis;
pub mod pool;
pub mod pool_plan;
pub mod rank_tests;
pub mod rates;
pub mod resample;
pub mod sample_size;
pub mod summary;
pub mod verdict;
pub mod welch_plan;
pub mod work_rate;

pub(crate) mod check;
pub(crate) mod select;

pub use aa_floor::*;
pub use autocorr::*;
pub use batch_means::*;
pub use bootstrap::*;
pub use change_points::*;
pub use decision::*;
pub use dist::*;
pub use drift::*;
pub use few_runs::*;
pub use hypothesis::*;
pub use pool::*;
pub use pool_plan::*;
pub use rank_tests::*;
pub use rates::*;
pub use resample::*;
pub use sample_size::*;
pub use summary::*;
pub use verdict::*;
pub use welch_plan::*;
pub use work_rate::*;

/// Fewest values per candidate that the bootstrap estimates accept (as in the reference:
/// 11, so that a resampled median is not dominated by one or two values).
pub const MINIMUM_DATA_POINTS: usize = 11;
