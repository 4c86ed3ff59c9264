//! Summaries of one sample: where its middle lies and how widely it spreads.
//!
//! Timings are not bell-shaped. Interference (an interrupt, a context switch, a page fault)
//! only ever adds time, so a sample of timings has a hard floor and a long right tail. A mean
//! drags towards that tail; a median and quantiles do not. The statistics therefore offer the
//! order statistics first ([`median`], [`quantile`], [`iqr`], [`mad`], [`min`], [`max`]) and
//! the moments second ([`mean`], [`variance`], [`std_dev`]), for the formulas that need them.
//!
//! Conventions, stated once:
//!
//! * every function reads its input and never reorders or mutates it (order statistics work
//!   on a private copy);
//! * [`quantile`] is Hyndman and Fan's type 7, the default of NumPy and R: for `n` sorted values
//!   `x₀ ≤ … ≤ xₙ₋₁` and `h = (n − 1)·q`, the result interpolates linearly between `x⌊h⌋` and
//!   `x⌊h⌋₊₁`;
//! * the median of an even number of values is the mean of the two middle values;
//! * [`variance`] divides by `n − 1` (the unbiased sample variance);
//! * the result has the unit of the input (nanoseconds in, nanoseconds out), except
//!   [`variance`], which has the unit squared.
//!
//! Bad input is an [`Error`](crate::Error), never a NaN: an empty slice or one holding NaN or
//! ±∞ is rejected, and so is a result that would not fit in an `f64` (for example the variance
//! of `[-1e300, 1e300]`). Large and tiny magnitudes are otherwise handled exactly: the moments
//! are computed on values rescaled by a power of two, which is lossless, and midpoints never
//! overflow.
//!
//! [`Sample`] is the checked form: validate once with [`Sample::new`], then ask for as many
//! summaries as needed. The free functions validate and delegate to it.
//!
//! ```
//! use rtcompare::stats::{median, quantile};
//! use rtcompare::support::stats::Sample;
//!
//! let ns = [101.0, 99.0, 250.0, 100.0, 102.0];
//! assert_eq!(median(&ns)?, 101.0);
//! assert_eq!(quantile(&ns, 0.25)?, 100.0);
//!
//! let s = Sample::new(&ns)?;
//! assert_eq!(s.min(), 99.0);
//! assert!(s.mean() > s.median()); // the slow outlier pulls the mean, not the median
//! # Ok::<(), rtcompare::Error>(())
//! ```

// The chapter's links name each item by its one path, `stats::NAME`.
#[cfg(doc)]
use crate::stats::*;

// `summary.rs` holds the summaries and `Sample`; `select.rs` the order statistics by selection
// that code which must not allocate or sort (the bootstrap's replicates, the rank tests) uses.
pub(crate) mod select;
pub(crate) mod summary;
