//! Is a difference between two samples more than chance? Tests that turn two samples into a
//! p-value: Welch's t-test on means, and exact rank tests for short stretches and heavy ties.
//!
//! # Welch's t-test
//!
//! Welch's t-test: do two samples have different means, allowing different spreads?
//!
//! Student's original two-sample t-test assumes both samples share one variance. Two code
//! paths rarely do (a faster path often also varies less), so the variant to reach for is
//! Welch's: each sample keeps its own variance, the standard error of the difference of means
//! is `√(s²_a/n_a + s²_b/n_b)`, and the degrees of freedom come from the Welch–Satterthwaite
//! approximation
//!
//! `df = (s²_a/n_a + s²_b/n_b)² / ((s²_a/n_a)²/(n_a − 1) + (s²_b/n_b)²/(n_b − 1))`,
//!
//! which is generally not an integer. The statistic `t = (x̄_a − x̄_b) / se` is referred to
//! Student's t with `df` degrees of freedom for a two-sided p-value.
//!
//! Caveats for timings. The test is about means, which interference inflates; it assumes
//! independent draws, which autocorrelated batches are not; and with long-tailed data its
//! p-value is only approximate for small samples. rtcompare's main verdicts use medians and
//! the bootstrap for these reasons; Welch's test is here for comparison with other tools and
//! for data that are close to normal (for example per-process means).
//!
//! ```
//! use rtcompare::stats::welch_t_test;
//!
//! let a = [10.1, 10.3, 9.9, 10.0, 10.2];
//! let b = [11.0, 11.4, 10.8, 11.2, 11.1];
//! let w = welch_t_test(&a, &b)?;
//! assert!(w.t < 0.0 && w.p_value < 0.001);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Rank tests
//!
//! Exact rank tests: the Wilcoxon–Mann–Whitney rank-sum test and Fisher's exact test.
//!
//! ## The problem
//!
//! To decide whether two short stretches of a series differ (is this a warm-up?), the change
//! point detector compares a handful of batch means on each side. With two or three values on
//! one side, normal or t approximations are wrong by orders of magnitude: for 3 values all
//! below 97 others, Welch's test on the ranks gives p ≈ 5·10⁻³¹, while the smallest p the
//! ranks can produce is `2/C(100, 3) = 2/161,700 ≈ 1.24·10⁻⁵`. So the distribution is computed
//! exactly.
//!
//! ## The rank-sum test
//!
//! Let the smaller sample have `k` values and the other `m`. Rank all `k + m` together; `U` is
//! the sum of the smaller sample's ranks less its least possible value `k(k + 1)/2`. With no
//! difference every set of `k` ranks is equally likely, and the number of sets with `U = u` is
//! the coefficient of `xᵘ` in the Gaussian binomial coefficient
//! `∏ᵢ₌₁ᵏ (1 − x^{m+i})/(1 − xⁱ)`, out of `C(k + m, k)`. [`rank_sum_p`] returns
//! `min(1, 2·P(U ≤ min(u, km − u)))`, computed by expanding that product up to the observed
//! tail, in `O(k·u)` steps: in exact integers while `C(k + m, k) < 2¹²⁸`, and in normalised
//! floating point beyond (still the exact distribution, rounded). Only when `k·u` exceeds
//! `RANK_SUM_EXACT_LIMIT` (20_000_000) does it fall back to the normal approximation with continuity
//! and tie corrections; both samples then have well over a thousand values in practice, where
//! the approximation is accurate.
//!
//! ## Ties
//!
//! Tied values have no order, so the observed `U` is not defined. With `t_g` the sizes of the
//! tie groups and `n = k + m`, the share of rank variance the ties leave is
//! `f = 1 − Σ(t_g³ − t_g)/(n³ − n)`.
//!
//! - `f ≥ 0.99` (few ties): the tied ranks are dealt between the samples so that the rank sum
//!   comes as close to its expectation `k(n + 1)/2` as the ties allow. The p-value is then at
//!   least that of any ordering of the ties: ties never manufacture a difference. No random
//!   numbers are used.
//! - `f < 0.99` (many ties, as with 0/1 readings): ranks carry little information, and the test
//!   becomes `fisher_exact_p` on the two classes "lower" and "higher", split at the value that
//!   makes the classes most equal in size.
//!
//! Samples whose values are all equal give `p = 1`.
//!
//! ```
//! use rtcompare::stats::rank_sum_p;
//! let low = [1.0, 2.0, 3.0];
//! let high: Vec<f64> = (4..101).map(f64::from).collect();
//! assert_eq!(rank_sum_p(&low, &high)?, 2.0 / 161_700.0);
//! # Ok::<(), rtcompare::Error>(())
//! ```

// The chapter's links name each item by its one path, `stats::NAME`.
#[cfg(doc)]
use crate::stats::*;

// `hypothesis.rs` is Welch's test, `rank_tests.rs` the rank-sum and Fisher's exact tests.
pub(crate) mod hypothesis;
pub(crate) mod rank_tests;
