//! Pure statistics on `&[f64]`.
//!
//! Nothing in this module reads a clock, touches the operating system or keeps global state:
//! the measurement code calls it, never the other way round. Every function validates its input
//! at the boundary (empty input, NaN or infinity give an [`Error`](crate::Error), never a NaN
//! result) and every randomised function is deterministic for a given seed, bit for bit.
//!
//! Every name lives directly under `stats` (`rtcompare::stats::median`,
//! `rtcompare::stats::estimate_difference`); the files below are how the code is kept, not paths
//! users need, so they are private and each name is listed once, here.
//!
//! `pool` is the arithmetic of pooling estimates across processes; running the processes is
//! [`crate::pool`]'s job.
//!
//! # Contents
//!
//! * [Summaries of one sample](#summaries-of-one-sample)
//! * [Distributions](#distributions)
//! * [Welch's t-test](#welchs-t-test)
//! * [Rank tests](#rank-tests)
//! * [Bootstrap estimates](#bootstrap-estimates)
//! * [Resampling](#resampling)
//! * [Autocorrelation](#autocorrelation)
//! * [Drift](#drift)
//! * [Change points](#change-points)
//! * [Batch means](#batch-means)
//! * [Rates and proportions](#rates-and-proportions)
//! * [Work rate](#work-rate)
//! * [Sample size](#sample-size)
//! * [Comparing measured results](#comparing-measured-results)
//! * [The A/A noise floor](#the-aa-noise-floor)
//! * [The verdict](#the-verdict)
//! * [Verdict rules](#verdict-rules)
//! * [Few runs](#few-runs)
//! * [Pooling across processes](#pooling-across-processes)
//! * [Planning a pooled comparison](#planning-a-pooled-comparison)
//! * [Across machines](#across-machines)
//! * [Many comparisons at once](#many-comparisons-at-once)
//!
//! # Summaries of one sample
//!
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
//! use rtcompare::stats::{median, quantile, Sample};
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
//!
//! # Distributions
//!
//! The normal and Student's t distributions, with their arguments checked.
//!
//! Tests and intervals end in a distribution function: a statistic becomes a p-value through a
//! cumulative distribution function (CDF), and a confidence level becomes a critical value
//! through a quantile function. These functions check their arguments (a probability must lie
//! in `(0, 1)`, a statistic must be finite, degrees of freedom finite and positive) and return
//! an [`Error`](crate::Error) instead of a panic or a NaN.
//!
//! The arithmetic comes from [`statrs`], with two repairs where its accuracy or robustness
//! falls short for what this crate needs:
//!
//! * above 10⁵ degrees of freedom the t CDF is the two-term Edgeworth expansion around the
//!   normal, `Φ(x) − φ(x)·(g₁(x)/ν + g₂(x)/ν²)` with `g₁ = (x³ + x)/4` and
//!   `g₂ = (3x⁷ − 7x⁵ − 5x³ − 3x)/96` (statrs' incomplete beta has a relative error of
//!   about 1e-6 at ν = 10⁹);
//! * the t quantile inverts the CDF by bisection instead of using statrs' inverse, which
//!   panics for `p` near 0 and is inaccurate for small `ν`.
//!
//! One limitation is inherited: statrs 0.19.1's `erfc`, behind [`normal_cdf`] and
//! [`two_sided_normal_p`], is accurate to about 1e-10 relative rather than to machine
//! precision (truncated constants, fixed upstream in statrs-dev/statrs#412). That is far
//! below anything a p-value or a verdict depends on.
//!
//! All values are dimensionless. "Standard" means mean 0 and standard deviation 1 for the
//! normal, location 0 and scale 1 for Student's t.
//!
//! ```
//! use rtcompare::stats::{normal_quantile, student_t_quantile};
//!
//! // The 97.5 % points behind a two-sided 95 % interval.
//! assert!((normal_quantile(0.975)? - 1.959964).abs() < 1e-6);
//! assert!((student_t_quantile(0.975, 4.0)? - 2.776445).abs() < 1e-6);
//! # Ok::<(), rtcompare::Error>(())
//! ```
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
//! [`RANK_SUM_EXACT_LIMIT`] does it fall back to the normal approximation with continuity
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
//!   becomes [`fisher_exact_p`] on the two classes "lower" and "higher", split at the value that
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
//!
//! # Bootstrap estimates
//!
//! How big is the difference between two sets of timings, and how sure can anyone be?
//!
//! ## The problem
//!
//! Two candidates were timed repeatedly: `a` holds A's times, `b` holds B's (in any unit, the
//! same for both; smaller is better). A single number such as "A is 20 % faster" says nothing
//! about how much it would move if the measurement were repeated. The bootstrap answers with a
//! **relative difference and an interval**:
//!
//! * the relative difference `δ = 1 − median(A) / median(B)` (positive: A needs less time;
//!   0.2 means A needs 20 % less time than B), or for paired data (`a[i]` and `b[i]` measured
//!   together) `δ = 1 − median_i(a[i] / b[i])`;
//! * a **percentile bootstrap interval** for δ: the data are resampled many times (5,000 by
//!   default), δ is recomputed on every replicate, and the interval runs between the
//!   replicates' `(1 − L)/2` and `(1 + L)/2` quantiles for the level `L` (0.95 by default);
//! * **confidences**: the share of replicates in which A beats B by at least a threshold, read
//!   from the very replicates the interval comes from.
//!
//! The median is the statistic because timings have one-sided outliers (interrupts, page
//! faults, a migrated thread) that drag a mean but barely move a median. Resampling pairs
//! keeps the disturbances that hit both members of a pair out of the interval; resampling in
//! blocks keeps serial correlation in it (see [Resampling](#resampling)).
//!
//! ## Reproducibility
//!
//! Every replicate comes from one [`Rng`] created once per call from the options' seed (`0`
//! draws one, and the seed actually used is recorded in the result). For unpaired data each
//! replicate draws A's resample and then B's; for paired data it draws one resample of the
//! pairs. So the same inputs and options give the same result bit for bit, and
//! [`estimate_difference`], [`confidences_for`], [`tie_split_confidence`] and
//! [`bootstrap_replicates`] agree replicate for replicate. Buffers are allocated once per call
//! and each input is sorted once; a replicate's median is then found by counting draws per
//! rank, so a replicate costs no allocation and no sort (5,000 paired replicates of 101
//! pairs take about 2 ms; BACKGROUND.md has the measurement).
//!
//! ```
//! use rtcompare::stats::{estimate_difference, EstimateOptions};
//!
//! let a = [100.0, 102.0, 99.0, 101.0, 100.0, 103.0, 98.0, 100.0, 101.0, 99.0, 102.0];
//! let b = [125.0, 128.0, 124.0, 126.0, 125.0, 129.0, 122.0, 125.0, 127.0, 124.0, 127.0];
//! let est = estimate_difference(&a, &b, &EstimateOptions::default().seed(1).paired(true))?;
//! assert_eq!(est.delta, 0.19999999999999996); // the paired ratios have median 0.8
//! assert_eq!(est.ratio().ratio, 1.25);        // B takes 1.25 times as long as A
//! assert!(est.excludes(0.0));                 // the difference is established
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! [`Rng`]: crate::rng::Rng
//!
//! # Resampling
//!
//! Drawing bootstrap resamples: plain, moving-block and paired, into buffers you provide.
//!
//! ## The problem
//!
//! A bootstrap replicate is a new sample of the same size, drawn from the observed values. How
//! to draw it depends on how the data were produced:
//!
//! * **Independent measurements**: draw each value uniformly with replacement (the ordinary,
//!   Efron bootstrap, [`bootstrap_indices`]).
//! * **A time series with serial correlation** (each batch resembles the one before it, lag-1
//!   autocorrelation above about 0.2): single draws destroy that dependence, the replicates
//!   vary less than the data really do and the intervals come out too narrow. The moving-block
//!   bootstrap (Künsch 1989, [`moving_block_indices`]) instead copies runs of `ℓ` consecutive
//!   values. The blocks overlap: a block can start at any of the `n − ℓ + 1` positions where it
//!   fits, uniformly. Whole blocks are appended until the replicate is full; the last block is
//!   cut short so that the replicate has exactly the requested length.
//! * **Paired measurements** (`A[i]` and `B[i]` taken together): draw indices once and apply
//!   them to both, so that each pair stays a pair ([`paired_resample_into`]).
//!
//! ## Block lengths
//!
//! Block length `0` and `1` both mean single draws; every function here applies the same rule.
//! A block longer than half the input is shortened to `n / 2` (at least 1): a block as long as
//! the input would make every replicate the same series. [`auto_block_length`] gives the usual
//! rate `n^(1/3)` for when you want blocks but have no better length.
//!
//! With `ℓ = 1` the moving-block bootstrap draws each start from `0..n`, the very call the
//! ordinary bootstrap makes for each index: both give **the same values in the same order**
//! from the same generator state, so switching blocks off never changes a seeded result.
//!
//! ## Buffers
//!
//! Nothing here allocates. The replicate length is the length of the output buffer (usually
//! the input length); a bootstrap loop allocates its buffers once and reuses them for every
//! replicate.
//!
//! ```
//! use rtcompare::rng::Rng;
//! use rtcompare::stats::resample_into;
//!
//! let data = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0];
//! let mut replicate = [0.0; 11];
//! let mut rng = Rng::new(1);
//! resample_into(&mut rng, &data, 3, &mut replicate)?; // blocks of 3
//! assert!(replicate.iter().all(|x| data.contains(x)));
//! # Ok::<(), rtcompare::Error>(())
//! ```
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
//! use rtcompare::stats::lag1_autocorrelation;
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
//! use rtcompare::stats::{detect_drift, DRIFT_LEVEL};
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
//!    sides at least [`MIN_SEGMENT`] (30) long becomes a candidate, and each side is split
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
//! [`change_points`] returns the indices where the surviving segments start. [`stable_phase`]
//! is Pilot's **dominant segment**: the longest one, and only if it holds more than half of the
//! readings. [`warm_up_end`] is the two-clause warm-up rule: the readings before it form a
//! proven segment (a change point ends them) **and** were actually slow (each discarded segment
//! is slower than the one after it). A slow stretch in the middle is interference, not warm-up,
//! and never makes the good readings before it disappear.
//!
//! The rank test assumes independent batch means, which is only approximately true, so the
//! error rates are measured, not read from α: see `examples/pilot_tables.rs` and BACKGROUND.md.
//!
//! ```
//! use rtcompare::rng::Rng;
//! use rtcompare::stats::{change_points, warm_up_end};
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
//! ([`ar1_batch_mean_autocorrelation`]). [`batch_means`] tries `q = 1, 2, …, ⌊n/3⌋` and keeps the
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
//! use rtcompare::rng::Rng;
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
//! ## The kind travels with the readings
//!
//! [`Readings`] carries its [`Kind`]: a series built with [`Readings::rates`] can only be
//! summarised harmonically, so the kind cannot be lost between measurement and report.
//!
//! ```
//! use rtcompare::stats::{harmonic_mean_interval, Readings};
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
//! use rtcompare::stats::work_rate;
//! // 2 s of overhead, 50 units per second, a little noise.
//! let work = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0];
//! let time = [3.99, 5.98, 7.97, 10.01, 12.02, 14.0, 16.01, 18.0];
//! let fit = work_rate(&work, &time, 0.95)?;
//! assert!((fit.alpha - 2.0).abs() < 0.05 && (fit.rate - 50.0).abs() < 0.5);
//! assert!(fit.low < fit.rate && fit.rate < fit.high);
//! assert!(fit.naive_rate < fit.rate); // total work / total time is biased low
//! # Ok::<(), rtcompare::Error>(())
//! ```
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
//! use rtcompare::stats::samples_per_system;
//! assert_eq!(samples_per_system(0.25, 0.02, 0.05, None)?, 1201);
//! assert_eq!(samples_per_system(0.25, 0.02, 0.05, Some(0.8))?, 2453);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # The A/A noise floor
//!
//! A noise floor from one A/A series: how large a difference identical code can show.
//!
//! [`compare`](crate::compare()) measures its noise floor from many A/A comparisons (40 by
//! default), each of `repeats` pairs, and takes the 0.9 quantile of their `|δ|`. When one
//! measurement is a whole process, forty A/A comparisons cost forty times the comparison itself.
//! [`aa_noise_floor`] gets a floor from **one** A/A series instead: the paired bootstrap of
//! the series `x` against `y` (the same code, measured interleaved) approximates the
//! sampling distribution of `δ̂` for identical code at this many pairs, and the floor is the
//! [`AA_FLOOR_QUANTILE`] (0.90) quantile of the replicates' `|δ*|`.
//!
//! The replicates are centred on the observed `δ̂` rather than on zero, so the floor is, if
//! anything, larger than the spread alone: an A/A series that happened to differ by 3 % yields
//! a floor of at least about 3 %. That errs towards "cannot tell", the safe side.
//!
//! ```
//! use rtcompare::stats::{aa_noise_floor, EstimateOptions};
//!
//! // Two series of the same program, in milliseconds, measured in alternation.
//! let x = [10.0, 10.2, 9.9, 10.1, 10.0, 10.3, 9.8, 10.0, 10.1, 9.9, 10.2];
//! let y = [10.1, 10.0, 10.0, 10.2, 9.9, 10.1, 9.9, 10.1, 10.0, 10.0, 10.1];
//! let floor = aa_noise_floor(&x, &y, &EstimateOptions::default().seed(7))?;
//! assert!(floor > 0.0 && floor < 0.05);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # The verdict
//!
//! The verdict: which candidate is faster, or why no verdict can be given, and the rule
//! [`decide`] that turns an estimate, a noise floor and a clock step into one. Pure.
//!
//! A verdict is earned: resolved means the interval excludes zero, the point estimate lies on
//! the same side, the difference clears what identical code showed against itself (the A/A
//! noise floor) and it clears what the clock could round into existence
//! ([`QUANTIZATION_GATE`] clock steps). Everything else is [`Verdict::CannotTell`] with the
//! first bar missed.
//!
//! # Verdict rules
//!
//! Verdict rules: turning an estimate and its interval into a decision.
//!
//! An interval on the relative difference between two candidates is evidence, not yet an
//! answer. Two questions remain: is the difference real (does the interval exclude zero?), and
//! is it worth caring about (is it at least as large as a threshold chosen *before* measuring)?
//! A threshold picked after seeing the result merely restates the result. Two pure rules answer
//! them, each with its own result type.
//!
//! Convention for every argument: a relative difference `δ = 1 − A/B`, as a fraction, where
//! positive means the first candidate (A) needs less time (0.05 = A takes 5 % less time than
//! B). Thresholds are fractions on the same scale.
//!
//! * [`three_outcome_rule`] gives *faster*, *slower* or *cannot tell*, and, when it cannot tell,
//!   says which of the two very different reasons applies: the interval contains zero (the
//!   experiment did not separate the candidates: measure more, or on a quieter machine), or
//!   the difference is real but smaller than the threshold (accept that it is too small to
//!   matter).
//! * [`lower_bound_rule`] is the stricter acceptance test for a claimed speedup: the interval's
//!   *lower bound*, not the point estimate, must clear the threshold, so the number one commits
//!   to is the one that survives the uncertainty.
//!
//! ```
//! use rtcompare::stats::{
//!     three_outcome_rule, lower_bound_rule, CannotTellReason, ThresholdOutcome,
//! };
//!
//! // A is 6 % faster, 95 % interval [3 %, 9 %], threshold 2 %.
//! let v = three_outcome_rule(0.06, 0.03, 0.09, 0.02)?;
//! assert_eq!(v.outcome, ThresholdOutcome::Faster);
//! assert!(lower_bound_rule(0.03, 0.02)?.accepted);
//!
//! // Real (the interval excludes zero) but below the 2 % threshold.
//! let v = three_outcome_rule(0.01, 0.005, 0.015, 0.02)?;
//! assert_eq!(v.outcome, ThresholdOutcome::CannotTell(CannotTellReason::BelowThreshold));
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Few runs
//!
//! A verdict for a handful of whole-process runs: win, parity or loss.
//!
//! Some comparisons cannot be repeated thousands of times inside one process: a benchmark
//! table that runs each program five or seven times, say, for workloads that last well under a
//! millisecond. At that scale the time is dominated by things no code change moves (process
//! start, which core the scheduler picks, the clock ramping up), and these often show up as
//! *timing modes*: the runs fall into a fast cluster and one roughly a quarter slower, and how
//! many runs land in each differs from one binary to the next. A fixed percentage rule on the
//! ratio of medians then calls wins and losses that are only a different share of slow runs.
//!
//! [`few_runs_verdict`] applies the rule described in "Telling a real benchmark difference from
//! noise" (Jaiswal, 2026). Two ratios must both leave their tolerance before it calls a win or a
//! loss:
//!
//! 1. `ratio = median(a) / median(b)` against `tolerance = max(parity, noise, floor / median)`,
//! 2. `best_ratio = min(a) / min(b)` against `best_tolerance = max(parity, floor / minimum)`.
//!
//! Noise only adds time, so the best run is the steadiest estimate of what the code costs and
//! the median says what a run usually costs. A real difference moves both; equal minimums with
//! different medians is the signature of timing modes, and is parity.
//!
//! **Why the spread is the interquartile range and not the MAD.** When more than half of one
//! arm's runs sit in one mode, the median absolute deviation is the deviation *within* that
//! mode, close to zero, and the rule would report nearly 0 % noise for a series that jumps
//! between 570 µs and 720 µs. The interquartile range spans the middle half of the runs, so
//! it sees both modes whenever the minority mode holds a quarter of the runs or more.
//!
//! Decisions this implementation makes where the source leaves room (all symmetric in the
//! two arms, so that swapping `a` and `b` turns `ratio` into `1/ratio` and a win into a loss):
//!
//! * `noise` is the larger of the two arms' relative spreads, `iqr(x) / median(x)`, with the
//!   type-7 quartiles of [`quantile`];
//! * the floor is divided by the smaller of the two medians (respectively minimums), which gives
//!   the larger, more cautious, relative floor;
//! * "beyond the tolerance" means `ratio > 1 + tolerance` on the slow side and
//!   `ratio < 1 / (1 + tolerance)` on the fast side (the mirror image on a log scale; for a
//!   tolerance of 0.04 the fast bound is 0.9615 rather than 0.96).
//!
//! The rule is not a significance test. Five runs a side cannot support a p-value, and
//! interleaved runs are not independent draws. It also assumes noise only adds time; a
//! fastest run that is an outlier downwards would mislead it, so read the raw runs when a
//! verdict surprises you.
//!
//! ```
//! use rtcompare::stats::{few_runs_verdict, FewRunsOutcome, FewRunsRule};
//!
//! // Run times in nanoseconds: 5 runs of the candidate and of the other arm.
//! let a = [500e3, 505e3, 510e3, 502e3, 508e3];
//! let b = [600e3, 610e3, 605e3, 615e3, 603e3];
//! let v = few_runs_verdict(&a, &b, &FewRunsRule::default())?;
//! assert_eq!(v.outcome, FewRunsOutcome::Win);
//! assert!(v.ratio < 1.0);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Pooling across processes
//!
//! Pooling comparisons across processes: the process, not the batch, as the unit of
//! replication.
//!
//! One process is one memory layout, one placement of code, one draw of whatever the loader
//! and the allocator decided. A comparison's interval covers the noise *inside* its process
//! only, so two processes can each resolve the same comparison, tightly, in opposite
//! directions. Pooling treats each process's point estimate as one observation:
//!
//! - [`combine`]: δ is the **unweighted** mean of the per-process deltas (the per-process
//!   intervals understate the real uncertainty, so weighting by them would trust the least
//!   trustworthy), with a Student t interval on k − 1 degrees of freedom;
//! - [`combine_staged`]: Stein's two-stage interval, for a run whose total size k was chosen
//!   from a first stage of `first_stage` processes ([`Pooled::processes_for`]): half-width
//!   t(level, first_stage − 1) · s₁ / √k with s₁ the first stage's standard deviation, but
//!   never narrower than the plain t interval on all k processes. Stein's coverage is exact
//!   for normal, exchangeable deltas however k was chosen from the first stage's spread, which
//!   a "stop once the interval is narrow enough" rule's is not; the plain t floor keeps a
//!   first stage that happened to agree closely from speaking for later processes that did
//!   not (BACKGROUND.md, "Coverage of the default plan").
//!
//! Besides the interval, a [`Pooled`] result says how much wider the processes scatter than
//! each one's own interval claimed ([`Pooled::inflation`]), Cochran's Q and I², a noise floor
//! pooled from every process's A/A deltas, a [`Verdict`] with the same bars as a single
//! comparison, and [`PoolWarning`]s, among them **modes**: per-process deltas that form
//! separated clusters, whose mean is no typical difference at all.
//!
//! ```
//! use rtcompare::stats::{combine, Estimate};
//! let est: Vec<Estimate> = [0.10, 0.14, 0.12, 0.11, 0.13]
//!     .iter()
//!     .map(|&d| Estimate::from_interval(d, d - 0.002, d + 0.002, 0.95))
//!     .collect::<Result<_, _>>()?;
//! let p = combine(&est, 0.95)?;
//! assert!((p.delta - 0.12).abs() < 1e-12);
//! assert!((p.inflation - 15.4949).abs() < 1e-3); // processes scatter 15 times as widely
//! assert_eq!(p.processes_for(0.01, 0.0), 20);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! When every process (or worker pair) ran its own code layout, [`split_spread`] says how much
//! of their spread is the layouts' and how much the processes': each replicate's own A/A
//! differences estimate the spread within one layout, and the excess of the replicates' spread
//! over it is the part between layouts ([`SpreadSplit`]).
//!
//! # Planning a pooled comparison
//!
//! The two-stage plan of a pooled comparison, as pure arithmetic: after a first stage of
//! processes, how many more to run for a precision target, and when to stop instead.
//!
//! Stein's rule sizes the run from the first stage's spread: `⌈(t · s₁ / h)²⌉` processes for a
//! half-width `h` ([`Pooled::processes_for`]). Two cases need more than that rule:
//!
//! - the first stage already meets the target: no second stage;
//! - the target is out of reach: when the first stage says it needs more than
//!   [`UNREACHABLE_FACTOR`] times the cap, running to the cap costs the whole budget and still
//!   leaves the interval at least √[`UNREACHABLE_FACTOR`] times too wide. The plan stops at
//!   the first stage and says how many processes the target would need, unless the caller asked
//!   to run to the cap anyway (what going on regardless costs: BACKGROUND.md, section
//!   "Fixtures built in a fixed order").
//!
//! ```
//! use rtcompare::stats::{combine, plan_processes, Estimate, PlanEnd};
//! let first: Vec<Estimate> = [0.01, 0.09, -0.05, 0.06, -0.02]
//!     .iter()
//!     .map(|&d| Estimate::from_interval(d, d - 0.002, d + 0.002, 0.95))
//!     .collect::<Result<_, _>>()?;
//! let p = combine(&first, 0.95)?;
//! // ±1 point needs about 250 processes: far beyond a cap of 30, so the plan stops here.
//! let plan = plan_processes(&p, 0.01, 0.25, 30, false);
//! assert_eq!(plan.total, 5);
//! assert!(matches!(plan.end, Some(PlanEnd::Unreachable { .. })));
//! // Asked to run to the cap, it does.
//! assert_eq!(plan_processes(&p, 0.01, 0.25, 30, true).total, 30);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Across machines
//!
//! Pooling one comparison across machines (CI runners): the machine, not the process, as the
//! unit of replication.
//!
//! A machine's pooled result covers the processes *on that machine*; another CPU model, another
//! kernel or another neighbour on the host can move δ beyond that interval. [`combine_machines`]
//! takes one [`MachineEstimate`] per machine and treats each machine's δ as one observation:
//!
//! - δ is the **unweighted** mean of the machine deltas with a Student t interval on k − 1
//!   degrees of freedom, exactly as [`combine`] does for processes;
//! - beside it, the DerSimonian–Laird random-effects estimate ([`MachinesPooled::re_delta`])
//!   with the Hartung–Knapp–Sidik–Jonkman t interval (its scale floored at 1, so it is never
//!   narrower than the plain random-effects t interval), the between-machine variance τ²,
//!   Cochran's Q and I², each machine's standard error read from its interval as
//!   `(high − low) / (2 z)`;
//! - the noise floor is the median of the machines' floors, and the [`Verdict`] is [`decide`]
//!   on the t interval against it;
//! - a machine whose δ lies outside the others' leave-one-out prediction interval (Bonferroni
//!   over the fleet, [`OUTLIER_FLEET_ALPHA`]) is listed in [`MachinesPooled::outliers`] with
//!   the pooled result without it, but never dropped from the main result.
//!
//! At least [`MIN_MACHINES`] (3) machines: two cannot estimate the spread between machines.
//!
//! ```
//! use rtcompare::stats::{combine_machines, MachineEstimate};
//! let machines: Vec<MachineEstimate> = [0.021, 0.015, 0.034, 0.019, 0.027]
//!     .iter()
//!     .enumerate()
//!     .map(|(i, &d)| MachineEstimate {
//!         delta: d,
//!         low: d - 0.006,
//!         high: d + 0.006,
//!         level: 0.95,
//!         noise_floor: 0.005,
//!         label: format!("runner-{i}"),
//!     })
//!     .collect();
//! let p = combine_machines(&machines, 0.95)?;
//! assert!((p.delta - 0.0232).abs() < 1e-12);
//! assert!(p.low > 0.0 && p.resolved); // the interval excludes 0 and δ clears the 0.5 % floor
//! assert!(p.tau2 > 0.0 && p.outliers.is_empty());
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Many comparisons at once
//!
//! A bench target of twenty benchmarks, each judged at 95 %, gives a false verdict somewhere in
//! about 64 % of runs that change nothing. [`holm`] is Holm's step-down procedure: the smallest
//! p-value is compared with α/m, the next with α/(m − 1), and so on until one fails, which keeps
//! the chance of any false rejection at most α whatever the dependence between the tests.
//! [`Pooled::p_value`] is the p-value that matches a pooled interval (the interval at coverage
//! 1 − p just reaches zero), so each comparison's interval can be shown at the level its rank
//! was judged at ([`HolmStep::alpha`]).
//!
//! ```
//! use rtcompare::stats::holm;
//! let steps = holm(&[0.01, 0.04, 0.03, 0.005, 0.2], 0.05)?;
//! let rejected: Vec<bool> = steps.iter().map(|s| s.rejected).collect();
//! assert_eq!(rejected, [true, false, false, true, false]);
//! assert!((steps[3].alpha - 0.01).abs() < 1e-12); // the smallest, at α/5
//! # Ok::<(), rtcompare::Error>(())
//! ```

mod aa_floor;
mod autocorr;
mod batch_means;
mod bootstrap;
mod change_points;
mod decision;
mod dist;
mod drift;
mod few_runs;
mod hypothesis;
mod machines;
mod multiplicity;
mod pool;
mod pool_plan;
mod pool_summary;
mod rank_tests;
mod rates;
mod resample;
mod sample_size;
mod sequential;
mod spread_split;
mod summary;
mod verdict;
mod welch_plan;
mod work_rate;

pub(crate) mod check;
pub(crate) mod select;

pub use aa_floor::{AA_FLOOR_QUANTILE, aa_noise_floor};
pub use autocorr::{autocorrelation, lag1_autocorrelation};
pub use batch_means::{
    BATCH_MEANS_MIN_READINGS, BatchMeans, BatchMeansOptions, DEFAULT_AC_LIMIT,
    ar1_batch_mean_autocorrelation, ar1_gamma, ar1_gamma_limit, batch_autocorrelation, batch_means,
    batch_means_at, effective_sample_size, iid_interval_coverage, smallest_batch_size,
    variance_inflation,
};
pub use bootstrap::{
    BootstrapDistribution, Confidences, DEFAULT_LEVEL, DEFAULT_RESAMPLES, Estimate,
    EstimateOptions, MAX_RESAMPLES, Ratio, ThresholdConfidence, TieSplit, bootstrap_replicates,
    confidences_for, estimate_difference, estimate_with_confidences, estimate_with_ties,
    paired_relative_difference, relative_difference, speedup_to_threshold, tie_split_confidence,
};
pub use change_points::{
    CHANGE_POINT_AC_LIMIT, CHANGE_POINT_ALPHA, ChangePointOptions, ChangePoints, MIN_SEGMENT,
    WarmUp, change_points, change_points_with, stable_phase, warm_up, warm_up_end,
};
pub use decision::{QUANTIZATION_GATE, Unresolved, Verdict, decide};
pub use dist::{
    normal_cdf, normal_quantile, student_t_cdf, student_t_quantile, two_sided_normal_p,
};
pub use drift::{DRIFT_LEVEL, DRIFT_MIN_SAMPLES, DriftReport, detect_drift};
pub use few_runs::{
    FEW_RUNS_FLOOR_NS, FEW_RUNS_MIN_RUNS, FEW_RUNS_PARITY, FewRunsOutcome, FewRunsRule,
    FewRunsVerdict, few_runs_verdict,
};
pub use hypothesis::{WelchTest, welch_t_test};
pub use machines::{
    MIN_MACHINES, MachineEstimate, MachineInfluence, MachinesPooled, OUTLIER_FLEET_ALPHA,
    combine_machines,
};
pub use multiplicity::{HolmStep, holm};
pub use pool::{
    DEFAULT_MARGIN, FEW_PROCESSES_T_RATIO, HIGH_I2, HIGH_INFLATION, MIN_PROCESSES,
    MODE_GAP_CLUSTER_SD, MODE_GAP_WITHIN, Mode, OPPOSITE_SHARE, PROCESS_DRIFT_LEVEL,
    PROCESS_DRIFT_MIN, PROCESS_DRIFT_SHIFT, PoolWarning, Pooled, ProcessEstimate, combine,
    combine_processes, combine_processes_with, combine_staged,
};
pub use pool_plan::{PlanEnd, ProcessPlan, UNREACHABLE_FACTOR, plan_processes};
pub use rank_tests::{FISHER_TIE_THRESHOLD, RANK_SUM_EXACT_LIMIT, fisher_exact_p, rank_sum_p};
pub use rates::{
    Kind, ProportionInterval, RateInterval, Readings, Summary, harmonic_mean,
    harmonic_mean_batch_interval, harmonic_mean_interval, proportion_interval,
};
pub use resample::{
    auto_block_length, bootstrap_indices, effective_block_length, moving_block_indices,
    paired_resample_into, resample_into,
};
pub use sample_size::{
    DEFAULT_WIDTH_HALF_WIDTH, DEFAULT_WIDTH_MAX_PAIRS, DEFAULT_WIDTH_MIN_STEP,
    MIN_REQUIRED_BATCHES, PrecisionTarget, RequiredSize, WidthDecision, WidthTarget,
    required_batches, required_size,
};
pub use sequential::{
    DecisionEnd, SequentialDecision, SequentialLook, SequentialOptions, SequentialOutcome,
    Spending, sequential_look, spent,
};
pub use spread_split::{SpreadSplit, split_spread};
pub use summary::{
    MAD_NORMAL_SCALE, Sample, iqr, mad, mad_scaled, max, mean, median, min, quantile, std_dev,
    variance,
};
pub use verdict::{
    CannotTellReason, LowerBoundDecision, ThreeOutcome, ThresholdOutcome, lower_bound_rule,
    three_outcome_rule,
};

/// The earlier name of [`ThresholdOutcome`], kept because every `rtcompare::stats::NAME` that
/// resolved keeps resolving; "outcome" alone no longer says which of the crate's outcomes it is.
#[deprecated(note = "renamed ThresholdOutcome")]
pub type Outcome = ThresholdOutcome;
pub use welch_plan::{
    MeasuredSummary, NewSamples, SummaryComparison, new_samples_needed, samples_per_system,
    welch_from_summaries,
};
pub use work_rate::{WorkRate, WorkRateOptions, work_rate, work_rate_with};

// The verdict rule's test fixture, shared with the warnings' tests in `compare`.
#[cfg(test)]
pub(crate) use decision::tests::est;

/// Fewest values per candidate that the bootstrap estimates accept (as in the reference:
/// 11, so that a resampled median is not dominated by one or two values).
pub const MINIMUM_DATA_POINTS: usize = 11;
