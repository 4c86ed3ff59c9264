//! How many readings are enough? Sample sizes for a stated precision, or for telling two
//! measured results apart, fixed before measuring.
//!
//! # Sample size
//!
//! How many readings are enough: required sample sizes for a stated precision, and a
//! width-based stopping rule.
//!
//! ## The problem
//!
//! A fixed count of readings is either too few (the interval is wider than the question
//! needs) or wasteful. The width of a t interval from `h` independent batch means with standard
//! deviation `s` is `±t*(h − 1)·s/√h`. Asking for a half-width of at most `e` and solving for
//! `h` gives the requirement
//!
//! `h ≥ (t*(h − 1)·s/e)²`,
//!
//! whose smallest solution [`required_batches`] finds. With the target a fraction `p` of the
//! mean, `s/e = c_v/p` where `c_v = s/x̄` is the coefficient of variation. At 95 %: `c_v` 25 %
//! and ±5 % need 99 batch means, ±1 % needs 2,404, and `c_v` 5 % at ±5 % needs 7. Batch means
//! of `q` readings each cost `q·h` readings ([`RequiredSize::readings`]).
//!
//! A requirement that cannot be met (the mean is 0 and the target is relative, so `e = 0`) is an
//! [`Error::NotEnoughData`](crate::Error::NotEnoughData), never a count of 0: a caller that treats
//! errors as "not yet satisfied" cannot be fooled into stopping (Pilot once cast the infinite
//! requirement to an integer, got 0 and reported the precision as reached).
//!
//! ## Stopping a comparison by width
//!
//! [`WidthTarget`] is the same idea for a comparison: fix, before measuring, how narrow the
//! interval on the difference must be, then keep collecting rounds until it is, or until a
//! budget runs out. It looks only at the width, never at where the interval lies, so it cannot
//! become "stop as soon as it looks significant", which would inflate the false-verdict rate.
//!
//! ```
//! use rtcompare::stats::required_batches;
//! assert_eq!(required_batches(0.25, 0.05, 0.95)?, 99);
//! assert_eq!(required_batches(0.25, 0.01, 0.95)?, 2404);
//! assert_eq!(required_batches(0.05, 0.05, 0.95)?, 7);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Comparing measured results
//!
//! Comparing two measured results, and planning how many more samples a comparison needs.
//!
//! ## The problem
//!
//! A measured result is a mean, a variance and a count. With batch means, the variance is
//! the **batch** variance `s_q²` and the count the number of batch means `h`: using the raw
//! readings' variance and count would treat correlated readings as independent. Welch's test
//! on such summaries ([`welch_from_summaries`]) compares two results without assuming equal
//! variances: `t = (x̄_A − x̄_B)/√(s_A²/n_A + s_B²/n_B)` with the Welch–Satterthwaite degrees of
//! freedom (not rounded), and `p = 2·F_ν(−|t|)`.
//!
//! Solving `|t| ≥ t*` for `n_B` tells how many batch means of B are needed to tell it from a
//! stored baseline A at a required p: `n_B = s_B²/((d/t*)² − s_A²/n_A)`, with `d = x̄_A − x̄_B`.
//! A denominator ≤ 0 means the baseline's own uncertainty already exceeds what the p allows,
//! and no number of new samples helps: [`NewSamples::Impossible`]. For a test that should
//! **succeed** with probability `1 − β` when the true difference is `d`, `t*` becomes
//! `t* + z_β` ([`samples_per_system`], [`new_samples_needed`] with a power).
//!
//! For two systems with the same `c_v` 25 %, told apart at 2 % with `p = 0.05`, that is
//! `2·(1.959964·0.25/0.02)² = 1200.46`, so 1,201 samples each; at 80 % power
//! (`z_β = 0.841621`), 2,453. Ten runs of each cannot establish a 2 % improvement on such a
//! system.
//!
//! ```
//! use rtcompare::support::stats::samples_per_system;
//! assert_eq!(samples_per_system(0.25, 0.02, 0.05, None)?, 1201);
//! assert_eq!(samples_per_system(0.25, 0.02, 0.05, Some(0.8))?, 2453);
//! # Ok::<(), rtcompare::Error>(())
//! ```

// The chapter's links name each item by its one path, `stats::NAME`.
#[cfg(doc)]
use crate::stats::*;

// `sample_size.rs` sizes one quantity's interval; `welch_plan.rs` compares two measured results
// and sizes what telling them apart needs.
pub(crate) mod sample_size;
pub(crate) mod welch_plan;
