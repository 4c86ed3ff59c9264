//! How precisely is one quantity known? Intervals for a mean whose readings are correlated, for
//! rates and proportions, and for the steady rate behind whole-program times.
//!
//! # Batch means
//!
//! Subsession (batch-means) analysis: a confidence interval for a mean when neighbouring
//! readings are correlated.
//!
//! ## The problem
//!
//! The textbook interval `x̄ ± t*·s/√n` assumes independent readings. Measurements of a
//! computer rarely are: a warm cache, a scheduler quantum or a frequency step lasts for several
//! readings. For a stationary series with lag-k autocorrelations `ρₖ`, the variance of the mean
//! is `σ²·γₙ/n` with
//!
//! `γₙ = 1 + 2·Σₖ₌₁ⁿ⁻¹ (1 − k/n)·ρₖ`,
//!
//! so the naive interval is too narrow by `√γₙ`, and collecting more readings does not shrink
//! that factor. For a first-order autoregressive process (AR(1), `ρₖ = ρᵏ`) with `ρ = 0.8` and
//! `n = 1000`, `γₙ = 8.96` ([`ar1_gamma`]): a thousand readings carry the information of about
//! 112 independent ones ([`effective_sample_size`]), and an interval labelled 95 % covers the
//! true mean only 48.6 % of the time ([`iid_interval_coverage`]).
//!
//! ## The remedy (Ferrari, 1978; as used by Pilot)
//!
//! Average `q` consecutive readings into one **batch mean** (subsession sample). Batch means of a
//! short-memory process are much less correlated than the readings: for AR(1) with `ρ = 0.8` their
//! lag-1 correlation is 0.80, 0.36 and 0.08 at `q` = 1, 8 and 32
//! ([`ar1_batch_mean_autocorrelation`]). [`batch_means()`] tries `q = 1, 2, …, ⌊n/3⌋` and keeps the
//! **smallest** `q` whose batch means have an estimated lag-1 autocorrelation
//! ([`batch_autocorrelation`]) within the limit in absolute value; if none does, it returns
//! [`Error::NotEnoughData`](crate::Error::NotEnoughData): collect more readings. With `h = ⌊n/q⌋`
//! batch means `y₁…y_h` (the `n − h·q` leftover readings are not batched), `x̄` the mean of **all**
//! `n` readings and
//!
//! `s_q² = Σⱼ (yⱼ − x̄)² / (h − 1)`,
//!
//! the interval is `x̄ ± t*(h − 1)·s_q/√h`, where `t*(ν)` is Student's t quantile at
//! `(1 + level)/2`.
//!
//! What the search establishes is only that the batch means' estimated lag-1 autocorrelation is
//! small, which is weaker than independence. At a limit of 0.8 (Pilot's `quick`) an AR(1) at
//! the limit still leaves the interval too narrow by a factor of 3; at 0.2 by 1.22; at 0.1 by
//! 1.11.
//!
//! ```
//! use rtcompare::stats::{batch_means, BatchMeansOptions};
//!
//! use rtcompare::support::rng::Rng;
//!
//! // An AR(1) series with ρ = 0.9: its neighbours are strongly correlated.
//! let mut rng = Rng::new(1);
//! let mut x = 0.0;
//! let xs: Vec<f64> = (0..2000).map(|_| { x = 0.9 * x + rng.next_normal(); 100.0 + x }).collect();
//! let bm = batch_means(&xs, &BatchMeansOptions::default().ac_limit(0.2).level(0.95))?;
//! assert!(bm.q > 1 && bm.autocorrelation.abs() <= 0.2);
//! assert!(bm.low < bm.mean && bm.mean < bm.high);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Rates and proportions
//!
//! Rates and proportions: quantities whose mean is not the arithmetic mean of the readings.
//!
//! ## Rates
//!
//! A rate (operations per second, megabytes per second) measured over equal amounts of work
//! `w` is summarised by the total work over the total time, `n·w / Σ(w/xᵢ) = n / Σ(1/xᵢ)`:
//! the **harmonic** mean. The arithmetic mean of rates is larger unless all are equal, so
//! averaging them arithmetically overstates every throughput (Pilot did exactly that until
//! September 2026: the declared mean method was never stored).
//!
//! The interval comes from the reciprocals `yᵢ = 1/xᵢ` (time per unit of work), whose
//! arithmetic mean `ȳ = 1/H` is an ordinary mean: with `d` the half-width of the interval for
//! `ȳ`, the rate lies in `[1/(ȳ + d), 1/(ȳ − d)]`. That interval is **not** symmetric about
//! `H`, and when `d ≥ ȳ` it has no upper end ([`RateInterval::high`] is `+∞`). Rates must be
//! positive; zero or negative readings are an error, not a value to average.
//!
//! ## Proportions
//!
//! A reading that is 0 or 1 (a request met its deadline or not) has a proportion as its mean.
//! [`proportion_interval`] gives Wilson's score interval, which stays inside `[0, 1]` and keeps
//! a positive width when every trial succeeded (the normal-approximation interval Pilot uses
//! collapses to a width of 0 there, claiming certainty from a handful of trials).
//!
//! Wilson's interval covers the true proportion at about the stated level on average over
//! proportions, and below it for some. A bar that a machine must not pass by luck (the
//! self-test's false-signal and detection rates, the `selftest` example) needs coverage of at
//! least the level for every proportion: [`exact_proportion_interval`] is Clopper and
//! Pearson's interval, read from Beta quantiles, which guarantees it and is wider for it.
//!
//! ## The kind travels with the readings
//!
//! [`Readings`] carries its [`Kind`]: a series built with [`Readings::rates`] can only be
//! summarised harmonically, so the kind cannot be lost between measurement and report.
//!
//! ```
//! use rtcompare::support::stats::{harmonic_mean_interval, Readings};
//!
//! // Two equal chunks of work, at 100 MB/s and at 300 MB/s: the run's rate is 150, not 200.
//! let r = harmonic_mean_interval(&[100.0, 300.0, 100.0, 300.0], 0.95)?;
//! assert!((r.mean - 150.0).abs() < 1e-9);
//! assert!(r.high - r.mean > r.mean - r.low); // asymmetric
//! assert!((Readings::rates(vec![100.0, 300.0])?.mean() - 150.0).abs() < 1e-9);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Work rate
//!
//! The stable rate of a workload that reports only its total time.
//!
//! ## The problem
//!
//! A whole program (start-up, warm-up, the work, shutdown) reports one duration `T` for an
//! amount of work `w`. Dividing, `w/T`, underestimates the steady rate `v` whenever there is a
//! fixed overhead: with `T = α + w/v`, `w/T = v/(1 + αv/w)`, a relative error of
//! `αv/(w + αv)`. Running longer shrinks it, but by how much depends on the unknowns.
//!
//! ## The fit
//!
//! Vary the work between rounds and fit the line `T = α + β·w` by ordinary least squares;
//! `α` collects the overhead and `v = 1/β`. With `h` points,
//! `β̂ = Σ(wⱼ − w̄)(Tⱼ − T̄)/Σ(wⱼ − w̄)²`, `α̂ = T̄ − β̂w̄`, `σ̂² = Σ residuals²/(h − 2)`,
//! `SE(β̂) = √(σ̂²/Σ(wⱼ − w̄)²)` and `δ = t*(h − 2)·SE(β̂)`. The rate's interval inverts the
//! slope's: `[1/(β̂ + δ), 1/(β̂ − δ)]`, with no upper end when `β̂ − δ ≤ 0` (the slope's
//! interval contains zero).
//!
//! If the rounds are autocorrelated, the points are first averaged into subsession means of
//! `q` consecutive rounds (means, not sums: sums would multiply `α` and the interval by `q`),
//! with `q` the smallest batch size whose **residuals** have |lag-1 autocorrelation| within the
//! limit. Pilot chose `q` from the per-round times per unit of work `T/w`; those inherit the
//! pattern of the work amounts themselves (an ascending sweep makes `α/w` a smooth trend), so
//! they can look correlated when the errors are not. The residuals carry only the errors.
//!
//! Rounds no longer than `min_duration` are excluded (too short to contain a stable phase),
//! and while the fitted overhead is negative, rounds no longer than `|α̂|` are excluded too and
//! the line refitted; the threshold only grows, so this ends. Sums are in `f64` (nanosecond
//! totals overflow integers), and equal work amounts are detected by comparing the values, not
//! by testing a rounded `Σ(w − w̄)²` against zero.
//!
//! ```
//! use rtcompare::support::stats::work_rate;
//! // 2 s of overhead, 50 units per second, a little noise.
//! let work = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0];
//! let time = [3.99, 5.98, 7.97, 10.01, 12.02, 14.0, 16.01, 18.0];
//! let fit = work_rate(&work, &time, 0.95)?;
//! assert!((fit.alpha - 2.0).abs() < 0.05 && (fit.rate - 50.0).abs() < 0.5);
//! assert!(fit.low < fit.rate && fit.rate < fit.high);
//! assert!(fit.naive_rate < fit.rate); // total work / total time is biased low
//! # Ok::<(), rtcompare::Error>(())
//! ```

// The chapter's links name each item by its one path, `stats::NAME`.
#[cfg(doc)]
use crate::stats::*;

// One file per kind of quantity: `batch_means.rs` (a mean), `rates.rs` (rates and proportions),
// `work_rate.rs` (a rate fitted from total times).
pub(crate) mod batch_means;
pub(crate) mod rates;
pub(crate) mod work_rate;
