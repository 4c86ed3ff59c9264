//! Did the series hold still? Checks on measurements in the order they were taken: whether
//! neighbours resemble each other, whether the level trends, and where it shifts.
//!
//! # Autocorrelation
//!
//! Autocorrelation: do neighbouring measurements resemble each other?
//!
//! Most interval methods assume each measurement is a fresh, independent draw. On a real
//! machine they often are not: a frequency step, a warm cache or a busy neighbour lasts for
//! several batches, so a slow batch tends to be followed by another slow one. Such positive
//! autocorrelation makes a sample look more informative than it is, and an i.i.d. bootstrap
//! then gives intervals that are too narrow. The lag-1 autocorrelation is the usual first check:
//! near zero, treat the values as independent; clearly positive (the Go rtcompare switches to
//! block resampling above 0.2), resample in blocks.
//!
//! The estimator is the standard one, stated here because implementations differ: with `x̄`
//! the mean of all `n` values,
//!
//! `r(k) = Σᵢ₌₀ⁿ⁻ᵏ⁻¹ (xᵢ − x̄)(xᵢ₊ₖ − x̄) / Σᵢ₌₀ⁿ⁻¹ (xᵢ − x̄)²`.
//!
//! It is dimensionless and always lies in `[−1, 1]`. A constant series has a zero denominator;
//! it shows no variation and therefore no evidence of correlation, so the result is `0.0`,
//! never NaN.
//!
//! ```
//! use rtcompare::support::stats::lag1_autocorrelation;
//!
//! // Alternating values: each one predicts the next to be on the other side of the mean.
//! let r = lag1_autocorrelation(&[1.0, 3.0, 1.0, 3.0, 1.0, 3.0])?;
//! assert!(r < -0.8);
//! assert_eq!(lag1_autocorrelation(&[5.0, 5.0, 5.0])?, 0.0);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Drift
//!
//! Drift: did the machine hold still while it was measured?
//!
//! A comparison of two candidates assumes the conditions did not change during the run. When
//! the clock frequency ramps, the machine heats up or a background job starts, later batches
//! come out systematically slower (or faster) than earlier ones, and every statistic computed
//! as if the order did not matter is off. [`detect_drift`] asks whether a series, in
//! measurement order, trends monotonically with its position.
//!
//! The test is Spearman's rank correlation between each value and its position:
//!
//! 1. rank the values, giving tied values the average of the ranks they span;
//! 2. `ρ` is the Pearson correlation of those ranks with the positions `1..=N` (computed this
//!    way, it stays exact with ties, unlike the shortcut `1 − 6Σd²/(N(N²−1))`);
//! 3. under exchangeability (no trend, any order equally likely), `z = ρ·√(N − 1)` is
//!    approximately standard normal, and the two-sided p-value is `erfc(|z|/√2)`.
//!
//! The normal approximation is weak for small `N`: even a perfect trend over four values gives
//! `z = √3` and `p ≈ 0.083`, not significant at 5 %. Below about twenty values a clean result
//! means little. The test also reacts to positive autocorrelation, which violates
//! exchangeability just as a trend does.
//!
//! Significance is not size. [`DriftReport`] therefore also carries the medians of the first
//! and last halves and their relative shift, so a caller can tell a tiny but significant
//! drift from a large one.
//!
//! ```
//! use rtcompare::stats::detect_drift;
//! use rtcompare::support::stats::DRIFT_LEVEL;
//!
//! let warming_up: Vec<f64> = (1..=20).map(f64::from).collect();
//! let d = detect_drift(&warming_up)?;
//! assert_eq!(d.spearman, 1.0);
//! assert!(d.drifted(DRIFT_LEVEL));
//! assert_eq!((d.first_half, d.second_half), (5.5, 15.5));
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Change points
//!
//! Change points: where the level of a series shifts, and how much of it is warm-up.
//!
//! ## The problem
//!
//! The first readings of a benchmark are often slower (pages not yet faulted in, caches cold,
//! the frequency governor still rising) and the last ones of a multi-threaded run may be too.
//! Those phases do not belong in a steady-state estimate, but cutting a fixed count is a guess,
//! and a detector that always finds something is worse than none: Pilot's first detector
//! (E-Divisive with medians) accepted its first change point unconditionally, reported one in
//! every sample of 60 or more independent readings, and left sessions with their last 30–60
//! readings, so that its `strict` preset (200 batch means) could never finish.
//!
//! ## The method (Pilot's replacement, September 2026)
//!
//! 1. **Propose** by binary segmentation on the mean. Splitting `n` readings after `τ` reduces
//!    the sum of squared deviations by `τ(n − τ)/n·(x̄_L − x̄_R)²`; the best split with both
//!    sides at least `MIN_SEGMENT` (30) long becomes a candidate, and each side is split
//!    again while it has at least 60 readings. The sums are taken on readings centred on the
//!    series' mean (after an exact rescaling), so readings near 10¹² still locate a shift of 20.
//! 2. **Test** each candidate: the two segments beside it (bounded by its neighbouring
//!    candidates or the ends) are reduced to batch means, with the batch size the longer
//!    segment needs for |lag-1 autocorrelation| ≤ 0.1, and compared with the exact rank-sum
//!    test ([`rank_sum_p`], which turns into Fisher's exact test when
//!    ties dominate). A candidate whose sides give fewer than two batch means each cannot be
//!    tested.
//! 3. **Prune**: while some candidate has `p > α/n` (α = 0.01, `n` the series' length: the
//!    split was chosen among about `n` places), drop the one with the largest `p` and retest
//!    its neighbours, whose segments have grown. Candidates that cannot be tested are dropped
//!    only when no testable one is left to drop (Pilot drops them at once, which can discard a
//!    real change squeezed between two spurious neighbours before the neighbours go).
//!
//! [`change_points()`] returns the indices where the surviving segments start. [`stable_phase`]
//! is Pilot's **dominant segment**: the longest one, and only if it holds more than half of the
//! readings. [`warm_up_end`] is the two-clause warm-up rule: the readings before it form a
//! proven segment (a change point ends them) **and** were actually slow (each discarded segment
//! is slower than the one after it). A slow stretch in the middle is interference, not warm-up,
//! and never makes the good readings before it disappear.
//!
//! The rank test assumes independent batch means, which is only approximately true, so the
//! error rates are measured, not read from α: see `lab/examples/pilot_tables.rs` and docs/background.md.
//!
//! ```
//! use rtcompare::support::rng::Rng;
//! use rtcompare::stats::change_points;
//! use rtcompare::support::stats::warm_up_end;
//!
//! // 50 readings slower by 2σ, then 450 at the steady level.
//! let mut rng = Rng::new(4);
//! let xs: Vec<f64> = (0..500)
//!     .map(|i| if i < 50 { 12.0 } else { 10.0 } + rng.next_normal())
//!     .collect();
//! let cp = change_points(&xs)?;
//! assert!(cp.len() == 1 && cp[0].abs_diff(50) <= 3);
//! assert_eq!(warm_up_end(&xs)?, cp[0]);
//! # Ok::<(), rtcompare::Error>(())
//! ```

// The chapter's links name each item by its one path, `stats::NAME`.
#[cfg(doc)]
use crate::stats::*;

// One file per check: `autocorr.rs`, `drift.rs`, `change_points.rs` (which also finds the
// warm-up).
pub(crate) mod autocorr;
pub(crate) mod change_points;
pub(crate) mod drift;
