//! Subsession (batch-means) analysis: a confidence interval for a mean when neighbouring
//! readings are correlated.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::intervals`), section "Batch means".

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::stats::DEFAULT_LEVEL;
use crate::stats::summaries::summary::{Moments, neumaier_sum, scale_for};
use crate::stats::{check, dist};

/// Default limit on the batch means' lag-1 autocorrelation: 0.1, the level below which Ferrari
/// treats a correlation as negligible (Pilot's `strict` preset and library default).
pub const DEFAULT_AC_LIMIT: f64 = 0.1;

/// Fewest readings [`batch_means`] accepts: three, so that `q = 1` gives three batch means.
pub const BATCH_MEANS_MIN_READINGS: usize = 3;

/// Options for [`batch_means`]: a consuming builder.
///
/// ```
/// use rtcompare::stats::{BatchMeansOptions, batch_means};
/// let o = BatchMeansOptions::default().ac_limit(0.2).level(0.99);
/// let xs: Vec<f64> = (0..60).map(|i| 10.0 + f64::from(i % 2)).collect();
/// let bm = batch_means(&xs, &o)?;
/// assert_eq!((bm.ac_limit, bm.level), (0.2, 0.99));
/// # Ok::<(), rtcompare::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BatchMeansOptions {
    /// Largest accepted |lag-1 autocorrelation| of the batch means, dimensionless, in
    /// `(0, 1]`. Default `DEFAULT_AC_LIMIT` (0.1). A limit of 1 accepts `q = 1` always.
    pub(crate) ac_limit: f64,
    /// Coverage of the interval, in `(0, 1)`. Default 0.95.
    pub(crate) level: f64,
}

impl Default for BatchMeansOptions {
    fn default() -> Self {
        BatchMeansOptions {
            ac_limit: DEFAULT_AC_LIMIT,
            level: DEFAULT_LEVEL,
        }
    }
}

impl BatchMeansOptions {
    /// Sets the largest accepted |lag-1 autocorrelation| of the batch means, dimensionless,
    /// in `(0, 1]` (default 0.1). A limit of 1 accepts batches of one reading always. Checked
    /// when used: [`Error::OutOfRange`] outside `(0, 1]`.
    pub fn ac_limit(mut self, limit: f64) -> Self {
        self.ac_limit = limit;
        self
    }

    /// Sets the coverage of the interval, in `(0, 1)` (default 0.95). Checked when used:
    /// [`Error::OutOfRange`] outside `(0, 1)`.
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }

    /// `Err(OutOfRange)` unless `0 < ac_limit ≤ 1` and `0 < level < 1`.
    pub(crate) fn validate(&self) -> Result<()> {
        check_ac_limit(self.ac_limit)?;
        check::open_unit("level", self.level)
    }
}

/// `Err(OutOfRange)` unless `0 < limit ≤ 1`.
pub(crate) fn check_ac_limit(limit: f64) -> Result<()> {
    if limit > 0.0 && limit <= 1.0 {
        Ok(())
    } else {
        Err(Error::out_of_range("ac_limit", limit, "0 < ac_limit ≤ 1"))
    }
}

/// The result of [`batch_means`]: the mean of the readings with its batch-means interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchMeans {
    /// Mean of all `n` readings (leftovers included), in the unit of the input.
    pub mean: f64,
    /// Lower end of the interval, `mean − half_width`.
    pub low: f64,
    /// Upper end of the interval, `mean + half_width`.
    pub high: f64,
    /// `t*(h − 1)·s_q/√h`, in the unit of the input.
    pub half_width: f64,
    /// Coverage level of `[low, high]`.
    pub level: f64,
    /// Readings per batch (subsession size), at least 1.
    pub q: usize,
    /// Number of batch means `h = ⌊n/q⌋`, at least 3.
    pub batches: usize,
    /// Readings analysed, `n`.
    pub readings: usize,
    /// Batch variance `s_q²` about the all-`n` mean, in the unit squared.
    pub batch_variance: f64,
    /// Estimated lag-1 autocorrelation of the batch means at this `q` (dimensionless).
    pub autocorrelation: f64,
    /// The limit the autocorrelation was held to.
    pub ac_limit: f64,
}

impl BatchMeans {
    /// Standard deviation of the batch means, `s_q`, in the unit of the input.
    pub(crate) fn batch_std_dev(&self) -> f64 {
        self.batch_variance.sqrt()
    }
}

/// Lag-1 autocorrelation of the batch means of `xs` at batch size `q`, about the mean of all
/// readings, as in the chapter:
/// `Σⱼ₌₁ʰ⁻¹ (yⱼ − x̄)(yⱼ₊₁ − x̄) / Σⱼ₌₁ʰ (yⱼ − x̄)²`. Dimensionless, in `[−1, 1]`; `0.0` when
/// every batch mean equals `x̄` (no variation, hence no evidence of correlation).
///
/// Returns [`Error::OutOfRange`] for `q = 0`, [`Error::TooFewSamples`] when there are fewer
/// than two batches (`xs.len() < 2q`), and [`Error::NonFinite`] for NaN or ±∞.
///
/// ```
/// use rtcompare::support::stats::batch_autocorrelation;
/// let xs = [1.0, 1.0, 3.0, 3.0, 1.0, 1.0, 3.0, 3.0];
/// assert!(batch_autocorrelation(&xs, 1)? > 0.0);
/// assert!(batch_autocorrelation(&xs, 2)? < -0.5);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn batch_autocorrelation(xs: &[f64], q: usize) -> Result<f64> {
    if q == 0 {
        return Err(Error::out_of_range("q", 0.0, "q ≥ 1"));
    }
    check::sample("samples", xs, q.saturating_mul(2))?;
    let series = Centered::new(xs);
    Ok(series.batch_ac(q))
}

/// Batch-means interval for the mean of `xs` with the smallest batch size `q ≤ ⌊n/3⌋` whose
/// batch means have |lag-1 autocorrelation| ≤ `options.ac_limit`. See the
/// chapter.
///
/// Returns [`Error::TooFewSamples`] for fewer than `BATCH_MEANS_MIN_READINGS` (3) readings,
/// [`Error::NonFinite`] for NaN or ±∞, [`Error::OutOfRange`] for a limit outside `(0, 1]` or a
/// level outside `(0, 1)`, [`Error::NotEnoughData`] when no `q` meets the limit (collect more
/// readings), and [`Error::Undefined`] if the variance overflows.
pub fn batch_means(xs: &[f64], options: &BatchMeansOptions) -> Result<BatchMeans> {
    options.validate()?;
    check::sample("samples", xs, BATCH_MEANS_MIN_READINGS)?;
    let series = Centered::new(xs);
    let q = series
        .smallest_q(options.ac_limit)
        .ok_or_else(|| Error::NotEnoughData {
            what: "batch means",
            reason: format!(
                "no batch size from 1 to {} brings the batch means' lag-1 autocorrelation within \
             ±{}; collect more readings",
                xs.len() / 3,
                options.ac_limit
            ),
        })?;
    let mut b = batch_means_at(xs, q, options.level)?;
    b.ac_limit = options.ac_limit;
    Ok(b)
}

/// The batch-means interval of `xs` at a given batch size `q` (no search), for callers who
/// chose `q` themselves. Needs `⌊n/q⌋ ≥ 2` batches.
///
/// Returns [`Error::OutOfRange`] for `q = 0` or a level outside `(0, 1)`,
/// [`Error::TooFewSamples`] for fewer than `2q` readings, [`Error::NonFinite`] for NaN or ±∞,
/// and [`Error::Undefined`] if the variance overflows.
pub fn batch_means_at(xs: &[f64], q: usize, level: f64) -> Result<BatchMeans> {
    if q == 0 {
        return Err(Error::out_of_range("q", 0.0, "q ≥ 1"));
    }
    check::open_unit("level", level)?;
    check::sample("samples", xs, q.saturating_mul(2))?;
    let n = xs.len();
    let h = n / q;
    let scale = scale_for(xs);
    let m = Moments::with_scale(xs, scale);
    let mean_scaled = m.mean_scaled;
    let devs: Vec<f64> = xs[..h * q]
        .chunks_exact(q)
        .map(|c| neumaier_sum(c.iter().map(|&x| x * scale - mean_scaled)) / q as f64)
        .collect();
    let ss = neumaier_sum(devs.iter().map(|d| d * d));
    let num = neumaier_sum(devs.windows(2).map(|w| w[0] * w[1]));
    let autocorrelation = if ss > 0.0 {
        (num / ss).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let batch_variance = ss / (h - 1) as f64 / scale / scale;
    if !batch_variance.is_finite() {
        return Err(Error::Undefined {
            what: "batch variance",
            reason: "it exceeds the largest f64; rescale the readings first".to_string(),
        });
    }
    let t = dist::student_t_quantile(0.5 + level / 2.0, (h - 1) as f64)?;
    let sd_scaled = (ss / (h - 1) as f64).sqrt();
    let half_width = t * sd_scaled / (h as f64).sqrt() / scale;
    let mean = mean_scaled / scale;
    Ok(BatchMeans {
        mean,
        low: mean - half_width,
        high: mean + half_width,
        half_width,
        level,
        q,
        batches: h,
        readings: n,
        batch_variance,
        autocorrelation,
        // No limit was applied at a given q; `batch_means` records the one it searched with.
        ac_limit: 1.0,
    })
}

/// Readings shifted by their mean (after an exact power-of-two rescaling), with prefix sums,
/// so that every batch size's batch means cost O(n/q).
pub(crate) struct Centered {
    prefix: Vec<f64>,
    n: usize,
}

impl Centered {
    /// Checked (finite, non-empty) readings.
    pub(crate) fn new(xs: &[f64]) -> Self {
        let scale = scale_for(xs);
        let m = Moments::with_scale(xs, scale);
        let mut prefix = Vec::with_capacity(xs.len() + 1);
        prefix.push(0.0);
        // A compensated running sum, so that batch sums taken as differences stay accurate.
        let (mut sum, mut comp) = (0.0f64, 0.0f64);
        for &x in xs {
            let v = x * scale - m.mean_scaled;
            let t = sum + v;
            if sum.abs() >= v.abs() {
                comp += (sum - t) + v;
            } else {
                comp += (v - t) + sum;
            }
            sum = t;
            prefix.push(sum + comp);
        }
        Centered {
            prefix,
            n: xs.len(),
        }
    }

    /// Lag-1 autocorrelation of the batch means at `q` (`2q ≤ n`).
    pub(crate) fn batch_ac(&self, q: usize) -> f64 {
        let h = self.n / q;
        if h < 2 {
            return 1.0;
        }
        let y = |j: usize| (self.prefix[(j + 1) * q] - self.prefix[j * q]) / q as f64;
        let mut ss = 0.0;
        let mut num = 0.0;
        let mut prev = y(0);
        ss += prev * prev;
        for j in 1..h {
            let cur = y(j);
            ss += cur * cur;
            num += prev * cur;
            prev = cur;
        }
        if ss > 0.0 {
            (num / ss).clamp(-1.0, 1.0)
        } else {
            0.0
        }
    }

    /// The smallest `q` in `1..=⌊n/3⌋` with |batch autocorrelation| ≤ `limit`.
    pub(crate) fn smallest_q(&self, limit: f64) -> Option<usize> {
        (1..=self.n / 3).find(|&q| self.batch_ac(q).abs() <= limit)
    }
}

// Pilot's figures check it in the tests; no measurement path needs it.
#[cfg(test)]
/// The smallest batch size `q ≤ ⌊n/3⌋` whose batch means have |lag-1 autocorrelation| ≤
/// `ac_limit`, or `None` when there is none yet (not enough data).
///
/// Returns [`Error::TooFewSamples`] for fewer than 3 readings, [`Error::NonFinite`] for NaN
/// or ±∞ and [`Error::OutOfRange`] for a limit outside `(0, 1]`.
pub(crate) fn smallest_batch_size(xs: &[f64], ac_limit: f64) -> Result<Option<usize>> {
    check_ac_limit(ac_limit)?;
    check::sample("samples", xs, BATCH_MEANS_MIN_READINGS)?;
    Ok(Centered::new(xs).smallest_q(ac_limit))
}

fn check_rho(rho: f64) -> Result<()> {
    if rho > -1.0 && rho < 1.0 {
        Ok(())
    } else {
        Err(Error::out_of_range("rho", rho, "-1 < rho < 1"))
    }
}

/// The variance-inflation factor `γₙ` of the mean of `n` readings of an AR(1) process with
/// lag-1 correlation `rho` (`ρₖ = ρᵏ`), in closed form:
/// `1 + 2·[ρ/(1 − ρ) − ρ(1 − ρⁿ)/(n(1 − ρ)²)]`. Dimensionless; 1 for `rho = 0`; 8.96 for
/// `n = 1000`, `rho = 0.8`.
///
/// Returns [`Error::OutOfRange`] for `n = 0` or `rho` outside `(−1, 1)`.
///
/// ```
/// let g = rtcompare::support::stats::ar1_gamma(1000, 0.8)?;
/// assert!((g - 8.96).abs() < 1e-9);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn ar1_gamma(n: usize, rho: f64) -> Result<f64> {
    if n == 0 {
        return Err(Error::out_of_range("n", 0.0, "n ≥ 1"));
    }
    check_rho(rho)?;
    let nf = n as f64;
    let one_minus = 1.0 - rho;
    Ok(1.0 + 2.0 * (rho / one_minus - rho * (1.0 - rho.powf(nf)) / (nf * one_minus * one_minus)))
}

/// The limit of [`ar1_gamma`] as `n → ∞`: `(1 + ρ)/(1 − ρ)` (9 at `ρ = 0.8`).
///
/// Returns [`Error::OutOfRange`] for `rho` outside `(−1, 1)`.
pub fn ar1_gamma_limit(rho: f64) -> Result<f64> {
    check_rho(rho)?;
    Ok((1.0 + rho) / (1.0 - rho))
}

// Pilot's figures check it in the tests; no measurement path needs it.
#[cfg(test)]
/// The variance-inflation factor `γₙ = 1 + 2·Σₖ (1 − k/n)·ρₖ` from given autocorrelations
/// `rhos[k − 1] = ρₖ` (lags beyond the slice count as 0, lags ≥ n are ignored).
///
/// Returns [`Error::OutOfRange`] for `n = 0` and [`Error::NonFinite`] for NaN or ±∞.
pub(crate) fn variance_inflation(rhos: &[f64], n: usize) -> Result<f64> {
    if n == 0 {
        return Err(Error::out_of_range("n", 0.0, "n ≥ 1"));
    }
    check::finite("rhos", rhos)?;
    let nf = n as f64;
    let s = neumaier_sum(
        rhos.iter()
            .take(n.saturating_sub(1))
            .enumerate()
            .map(|(i, r)| (1.0 - (i + 1) as f64 / nf) * r),
    );
    Ok(1.0 + 2.0 * s)
}

/// Effective sample size `n/γ`: how many independent readings would give the mean the same
/// variance as `n` correlated ones with inflation factor `gamma`.
///
/// Returns [`Error::OutOfRange`] unless `gamma` is finite and positive.
pub fn effective_sample_size(n: usize, gamma: f64) -> Result<f64> {
    if !(gamma.is_finite() && gamma > 0.0) {
        return Err(Error::out_of_range("gamma", gamma, "0 < gamma < ∞"));
    }
    Ok(n as f64 / gamma)
}

/// The true coverage of a nominal interval at `level` built as if the readings were
/// independent, when the mean's variance is really inflated by `gamma` (σ known, large n):
/// `2Φ(z/√γ) − 1` with `z` the normal quantile at `(1 + level)/2`. 0.486 for `gamma = 9`,
/// `level = 0.95`.
///
/// Returns [`Error::OutOfRange`] for a level outside `(0, 1)` or a `gamma` that is not finite
/// and positive.
pub fn iid_interval_coverage(gamma: f64, level: f64) -> Result<f64> {
    check::open_unit("level", level)?;
    if !(gamma.is_finite() && gamma > 0.0) {
        return Err(Error::out_of_range("gamma", gamma, "0 < gamma < ∞"));
    }
    let z = dist::normal_quantile(0.5 + level / 2.0)?;
    Ok(2.0 * dist::normal_cdf(z / gamma.sqrt())? - 1.0)
}

/// The theoretical lag-1 correlation of adjacent batch means of size `q` of an AR(1) process:
/// `Cov/Var` with `Cov = q⁻²·Σₖ₌₁²ᵠ⁻¹ min(k, 2q − k)·ρᵏ` and `Var = γ_q/q` (σ = 1). 0.80,
/// 0.358 and 0.0805 at `q` = 1, 8, 32 for `rho = 0.8`.
///
/// Returns [`Error::OutOfRange`] for `q = 0` or `rho` outside `(−1, 1)`.
pub fn ar1_batch_mean_autocorrelation(rho: f64, q: usize) -> Result<f64> {
    if q == 0 {
        return Err(Error::out_of_range("q", 0.0, "q ≥ 1"));
    }
    check_rho(rho)?;
    let qf = q as f64;
    let cov = neumaier_sum(
        (1..2 * q).map(|k| (k.min(2 * q - k)) as f64 * rho.powi(k.min(i32::MAX as usize) as i32)),
    ) / (qf * qf);
    let var = ar1_gamma(q, rho)? / qf;
    Ok(cov / var)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn ar1(rng: &mut Rng, n: usize, rho: f64) -> Vec<f64> {
        let mut x = rng.next_normal();
        let s = (1.0 - rho * rho).sqrt();
        (0..n)
            .map(|_| {
                x = rho * x + s * rng.next_normal();
                x
            })
            .collect()
    }

    #[test]
    fn bad_input_is_typed() {
        let o = BatchMeansOptions::default();
        assert!(matches!(
            batch_means(&[1.0, 2.0], &o),
            Err(Error::TooFewSamples { needed: 3, .. })
        ));
        assert!(matches!(
            batch_means(&[1.0, f64::NAN, 2.0], &o),
            Err(Error::NonFinite { index: 1, .. })
        ));
        for l in [0.0, -0.1, 1.1, f64::NAN] {
            assert!(matches!(
                batch_means(&[1.0, 2.0, 3.0], &o.ac_limit(l)),
                Err(Error::OutOfRange {
                    name: "ac_limit",
                    ..
                })
            ));
        }
        for l in [0.0, 1.0, f64::NAN] {
            assert!(matches!(
                batch_means(&[1.0, 2.0, 3.0], &o.level(l)),
                Err(Error::OutOfRange { name: "level", .. })
            ));
        }
        assert!(batch_autocorrelation(&[1.0, 2.0, 3.0], 0).is_err());
        assert!(batch_autocorrelation(&[1.0, 2.0, 3.0], 2).is_err());
        assert!(ar1_gamma(0, 0.5).is_err() && ar1_gamma(5, 1.0).is_err());
        assert!(iid_interval_coverage(f64::INFINITY, 0.95).is_err());
    }

    #[test]
    fn trend_is_not_enough_data() {
        // Exponential growth: no q ≤ 3 brings the batch autocorrelation within 0.1.
        let xs: Vec<f64> = (0..9).map(|i| f64::powi(2.0, i)).collect();
        assert!(matches!(
            batch_means(&xs, &BatchMeansOptions::default()),
            Err(Error::NotEnoughData { .. })
        ));
        assert_eq!(smallest_batch_size(&xs, 0.1), Ok(None));
    }

    #[test]
    fn limit_is_honoured_not_ignored() {
        // Pilot's snapshot always searched with 0.1: a looser limit must give a smaller q.
        let mut rng = Rng::new(7);
        let xs = ar1(&mut rng, 4000, 0.8);
        let loose = batch_means(&xs, &BatchMeansOptions::default().ac_limit(0.8)).unwrap();
        let strict = batch_means(&xs, &BatchMeansOptions::default().ac_limit(0.1)).unwrap();
        assert_eq!(loose.q, 1);
        assert!(strict.q > 4, "{}", strict.q);
        assert!(strict.autocorrelation.abs() <= 0.1);
        assert!(strict.half_width > loose.half_width);
        // And the level changes the width.
        let wide = batch_means(&xs, &BatchMeansOptions::default().level(0.99)).unwrap();
        assert!(wide.half_width > strict.half_width && wide.q == strict.q);
    }

    #[test]
    fn q_one_matches_the_t_interval() {
        // python3: x = np.array([2, 4, 3, 5, 1, 6, 2.5]);
        // stats.t.ppf(0.975, 6) * x.std(ddof=1) / np.sqrt(7) = 1.6176934349368157
        let xs = [2.0, 4.0, 3.0, 5.0, 1.0, 6.0, 2.5];
        let b = batch_means_at(&xs, 1, 0.95).unwrap();
        assert!(
            (b.half_width - 1.617_693_434_936_815_7).abs() < 1e-12,
            "{}",
            b.half_width
        );
        assert_eq!(b.batches, 7);
    }

    #[test]
    fn leftovers_are_in_the_mean_but_not_batched() {
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
        let b = batch_means_at(&xs, 2, 0.95).unwrap();
        assert_eq!((b.batches, b.readings), (3, 7));
        assert_eq!(b.mean, 4.0);
        // Batch means 1.5, 3.5, 5.5 about 4: (6.25 + 0.25 + 2.25)/2.
        assert!((b.batch_variance - 4.375).abs() < 1e-12);
    }

    #[test]
    fn extreme_magnitudes_are_scale_invariant() {
        let xs = [1.0, 3.0, 2.0, 5.0, 4.0, 4.0, 6.0, 2.0, 3.0];
        let b = batch_means_at(&xs, 1, 0.9).unwrap();
        for s in [1e150, 1e-150] {
            let ys: Vec<f64> = xs.iter().map(|x| x * s).collect();
            let c = batch_means_at(&ys, 1, 0.9).unwrap();
            assert!(((c.half_width / s) / b.half_width - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn constant_readings_have_zero_width() {
        let b = batch_means(&[5.0; 10], &BatchMeansOptions::default()).unwrap();
        assert_eq!((b.q, b.half_width, b.mean), (1, 0.0, 5.0));
    }

    #[test]
    fn theory_matches_pilot_figures() {
        // python3: rho=0.8; sum(min(k,2q-k)*rho**k)/q**2 / (gamma_q/q)
        for (q, want) in [
            (1, 0.8),
            (2, 0.72),
            (8, 0.357_833_799_264_832),
            (32, 0.080_507_136_758_838),
        ] {
            let r = ar1_batch_mean_autocorrelation(0.8, q).unwrap();
            assert!((r - want).abs() < 1e-12, "q {q}: {r}");
        }
        assert!((ar1_gamma_limit(0.8).unwrap() - 9.0).abs() < 1e-12);
        let g = variance_inflation(&[0.5, 0.25, 0.125], 4).unwrap();
        assert!((g - (1.0 + 2.0 * (0.75 * 0.5 + 0.5 * 0.25 + 0.25 * 0.125))).abs() < 1e-12);
    }
}
