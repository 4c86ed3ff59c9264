//! Rates and proportions: quantities whose mean is not the arithmetic mean of the readings.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::intervals`), section "Rates and proportions".

use serde::{Deserialize, Serialize};
use statrs::distribution::{Beta, ContinuousCDF};

use crate::error::{Error, Result};
use crate::stats::intervals::batch_means::{
    BatchMeans, BatchMeansOptions, batch_means, batch_means_at,
};
use crate::stats::summaries::summary::Moments;
use crate::stats::{check, dist};

/// Serialises `+∞` as JSON `null` and reads `null` back as `+∞` (JSON has no infinity).
pub(crate) mod infinite_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else {
            s.serialize_none()
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::INFINITY))
    }
}

/// A harmonic mean with its interval, from [`harmonic_mean_interval`] or
/// `harmonic_mean_batch_interval`. Every figure is in the unit of the rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RateInterval {
    /// The harmonic mean `n / Σ(1/xᵢ)`.
    pub mean: f64,
    /// Lower end, `1/(ȳ + d)`.
    pub low: f64,
    /// Upper end, `1/(ȳ − d)`; `+∞` (serialised as `null`) when `d ≥ ȳ` and the data do not
    /// bound the rate from above.
    #[serde(with = "infinite_as_null")]
    pub high: f64,
    /// Coverage level.
    pub level: f64,
    /// Readings per batch used on the reciprocals (1 for [`harmonic_mean_interval`]).
    pub q: usize,
    /// Number of (batch) means the interval rests on.
    pub batches: usize,
    /// Mean of the reciprocals, `ȳ = 1/mean`, in the reciprocal unit.
    pub reciprocal_mean: f64,
    /// Half-width `d` of the interval for `ȳ`, in the reciprocal unit.
    pub reciprocal_half_width: f64,
}

impl RateInterval {
    /// Whether the interval has an upper end.
    pub fn is_bounded(&self) -> bool {
        self.high.is_finite()
    }

    fn from_reciprocals(bm: &BatchMeans) -> Self {
        let y = bm.mean;
        let d = bm.half_width;
        RateInterval {
            mean: 1.0 / y,
            low: 1.0 / (y + d),
            high: if y > d { 1.0 / (y - d) } else { f64::INFINITY },
            level: bm.level,
            q: bm.q,
            batches: bm.batches,
            reciprocal_mean: y,
            reciprocal_half_width: d,
        }
    }
}

fn reciprocals(xs: &[f64]) -> Result<Vec<f64>> {
    check::finite("rates", xs)?;
    if let Some(i) = xs.iter().position(|&x| x <= 0.0) {
        return Err(Error::OutOfRange {
            name: "rate",
            value: xs[i],
            expected: "every rate > 0 (a harmonic mean needs positive data)",
        });
    }
    let ys: Vec<f64> = xs.iter().map(|&x| 1.0 / x).collect();
    if let Some(i) = ys.iter().position(|y| !y.is_finite()) {
        return Err(Error::OutOfRange {
            name: "rate",
            value: xs[i],
            expected: "a rate whose reciprocal is finite (not subnormal)",
        });
    }
    Ok(ys)
}

/// The harmonic mean of positive rates, `n / Σ(1/xᵢ)`, in their unit.
///
/// Returns [`Error::TooFewSamples`] for an empty slice, [`Error::NonFinite`] for NaN or ±∞ and
/// [`Error::OutOfRange`] for a rate ≤ 0.
pub fn harmonic_mean(xs: &[f64]) -> Result<f64> {
    check::sample("rates", xs, 1)?;
    let ys = reciprocals(xs)?;
    let m = Moments::of(&ys);
    Ok(m.scale / m.mean_scaled)
}

/// The harmonic mean of independent positive rates with its interval at `level`: the t
/// interval (n − 1 degrees of freedom) of the reciprocals, inverted. See the
/// chapter. For autocorrelated readings use
/// `harmonic_mean_batch_interval`.
///
/// Returns [`Error::TooFewSamples`] for fewer than two rates, [`Error::NonFinite`] for NaN or
/// ±∞, [`Error::OutOfRange`] for a rate ≤ 0 or a level outside `(0, 1)`.
pub fn harmonic_mean_interval(xs: &[f64], level: f64) -> Result<RateInterval> {
    check::open_unit("level", level)?;
    check::sample("rates", xs, 2)?;
    let ys = reciprocals(xs)?;
    Ok(RateInterval::from_reciprocals(&batch_means_at(
        &ys, 1, level,
    )?))
}

/// The harmonic mean of positive rates with a batch-means interval: the
/// [`batch_means`] analysis (smallest `q` within the autocorrelation limit) runs on the
/// reciprocals, and its interval is inverted.
///
/// Returns the errors of [`harmonic_mean_interval`] and of [`batch_means`] (including
/// [`Error::NotEnoughData`] when no `q` meets the limit).
pub fn harmonic_mean_batch_interval(
    xs: &[f64],
    options: &BatchMeansOptions,
) -> Result<RateInterval> {
    options.validate()?;
    check::sample("rates", xs, 3)?;
    let ys = reciprocals(xs)?;
    Ok(RateInterval::from_reciprocals(&batch_means(&ys, options)?))
}

/// A proportion with its interval: Wilson's from [`proportion_interval`], Clopper and Pearson's
/// from [`exact_proportion_interval`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProportionInterval {
    /// `successes / trials`, in `[0, 1]`.
    pub proportion: f64,
    /// Lower end of the interval, in `[0, 1]`; 0 when no trial succeeded.
    pub low: f64,
    /// Upper end of the interval, in `[0, 1]`; 1 when every trial succeeded.
    pub high: f64,
    /// Coverage level.
    pub level: f64,
    /// Number of successes.
    pub successes: u64,
    /// Number of trials.
    pub trials: u64,
}

/// Wilson's score interval for a binomial proportion: with `p̂ = successes/trials`, `n =
/// trials` and `z` the normal quantile at `(1 + level)/2`, the centre is
/// `(p̂ + z²/2n)/(1 + z²/n)` and the half-width `z·√(p̂(1 − p̂)/n + z²/4n²)/(1 + z²/n)`.
///
/// Returns [`Error::TooFewSamples`] for zero trials, [`Error::OutOfRange`] for more successes
/// than trials or a level outside `(0, 1)`.
///
/// ```
/// use rtcompare::stats::proportion_interval;
/// let all = proportion_interval(20, 20, 0.95)?;
/// assert_eq!(all.proportion, 1.0);
/// assert!(all.low < 0.9 && all.high == 1.0); // 20 of 20 is not certainty
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn proportion_interval(successes: u64, trials: u64, level: f64) -> Result<ProportionInterval> {
    check_proportion(successes, trials, level)?;
    let n = trials as f64;
    let p = successes as f64 / n;
    let z = dist::normal_quantile(0.5 + level / 2.0)?;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Ok(ProportionInterval {
        proportion: p,
        low: if successes == 0 {
            0.0
        } else {
            (centre - half).clamp(0.0, 1.0)
        },
        high: if successes == trials {
            1.0
        } else {
            (centre + half).clamp(0.0, 1.0)
        },
        level,
        successes,
        trials,
    })
}

/// The exact (Clopper–Pearson) interval for a binomial proportion: with `k = successes`,
/// `n = trials` and `α = 1 − level`, the lower end is the `α/2` quantile of Beta(k, n − k + 1)
/// (0 when `k = 0`) and the upper end the `1 − α/2` quantile of Beta(k + 1, n − k) (1 when
/// `k = n`).
///
/// Its coverage is at least `level` for every true proportion, at the price of being wider than
/// [`proportion_interval`]'s Wilson interval, whose coverage is `level` only on average. The
/// exact one is for a bar that must not be passed by luck: the self-test's false-signal and
/// detection rates (the `selftest` example) over twenty runs or so.
///
/// Returns [`Error::TooFewSamples`] for zero trials, [`Error::OutOfRange`] for more successes
/// than trials or a level outside `(0, 1)`.
///
/// ```
/// use rtcompare::stats::proportion_interval;
/// use rtcompare::support::stats::exact_proportion_interval;
/// // scipy.stats.binomtest(19, 20).proportion_ci(0.95, method="exact")
/// let exact = exact_proportion_interval(19, 20, 0.95)?;
/// assert!((exact.low - 0.751_267).abs() < 1e-6 && (exact.high - 0.998_735).abs() < 1e-6);
/// assert!(exact.low < proportion_interval(19, 20, 0.95)?.low); // wider than Wilson's
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn exact_proportion_interval(
    successes: u64,
    trials: u64,
    level: f64,
) -> Result<ProportionInterval> {
    check_proportion(successes, trials, level)?;
    let (k, n) = (successes as f64, trials as f64);
    let tail = (1.0 - level) / 2.0;
    // Beta::new fails only for a shape that is not positive, which 0 < k < n rules out.
    let low = if successes == 0 {
        0.0
    } else {
        Beta::new(k, n - k + 1.0).map_or(0.0, |b| b.inverse_cdf(tail))
    };
    let high = if successes == trials {
        1.0
    } else {
        Beta::new(k + 1.0, n - k).map_or(1.0, |b| b.inverse_cdf(1.0 - tail))
    };
    Ok(ProportionInterval {
        proportion: k / n,
        low,
        high,
        level,
        successes,
        trials,
    })
}

/// The arguments both proportion intervals share: a level in `(0, 1)`, at least one trial, no
/// more successes than trials.
fn check_proportion(successes: u64, trials: u64, level: f64) -> Result<()> {
    check::open_unit("level", level)?;
    if trials == 0 {
        return Err(Error::TooFewSamples {
            what: "trials",
            needed: 1,
            got: 0,
        });
    }
    if successes > trials {
        return Err(Error::out_of_range(
            "successes",
            successes as f64,
            "successes ≤ trials",
        ));
    }
    Ok(())
}

/// What a quantity is, which decides how its readings are averaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Kind {
    /// An ordinary quantity (a duration, a count): the arithmetic mean.
    Plain,
    /// A rate (work per time): the harmonic mean, analysed through reciprocals.
    Rate,
    /// A 0/1 outcome: a proportion with a binomial interval.
    Proportion,
}

/// Readings that know their [`Kind`]: validated once at construction, summarised the way the
/// kind requires.
///
/// ```
/// use rtcompare::support::stats::{Kind, Readings};
/// let r = Readings::rates(vec![1.0, 100.0])?;
/// assert_eq!(r.kind(), Kind::Rate);
/// assert!((r.mean() - 200.0 / 101.0).abs() < 1e-12); // not 50.5
/// assert!(Readings::rates(vec![1.0, 0.0]).is_err());
/// assert!(Readings::proportions(vec![1.0, 0.5]).is_err());
/// # Ok::<(), rtcompare::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Readings {
    kind: Kind,
    values: Vec<f64>,
}

/// The summary of [`Readings`], one variant per [`Kind`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Summary {
    /// An arithmetic mean with its batch-means interval.
    Mean(BatchMeans),
    /// A harmonic mean with its inverted interval.
    Rate(RateInterval),
    /// A proportion with Wilson's interval.
    Proportion(ProportionInterval),
}

impl Summary {
    /// The point estimate: the arithmetic mean, the harmonic mean or the proportion.
    pub fn mean(&self) -> f64 {
        match self {
            Summary::Mean(b) => b.mean,
            Summary::Rate(r) => r.mean,
            Summary::Proportion(p) => p.proportion,
        }
    }

    /// The interval `(low, high)`; `high` may be `+∞` for a rate.
    pub fn interval(&self) -> (f64, f64) {
        match self {
            Summary::Mean(b) => (b.low, b.high),
            Summary::Rate(r) => (r.low, r.high),
            Summary::Proportion(p) => (p.low, p.high),
        }
    }
}

impl Readings {
    /// Ordinary readings. Returns [`Error::TooFewSamples`] when empty and
    /// [`Error::NonFinite`] for NaN or ±∞.
    pub fn plain(values: Vec<f64>) -> Result<Self> {
        check::sample("readings", &values, 1)?;
        Ok(Readings {
            kind: Kind::Plain,
            values,
        })
    }

    /// Rates. Returns the errors of [`Readings::plain`] and [`Error::OutOfRange`] for a rate
    /// ≤ 0.
    pub fn rates(values: Vec<f64>) -> Result<Self> {
        check::sample("rates", &values, 1)?;
        reciprocals(&values)?;
        Ok(Readings {
            kind: Kind::Rate,
            values,
        })
    }

    /// 0/1 outcomes. Returns the errors of [`Readings::plain`] and [`Error::OutOfRange`] for a
    /// value other than 0 or 1.
    pub fn proportions(values: Vec<f64>) -> Result<Self> {
        check::sample("outcomes", &values, 1)?;
        if let Some(&v) = values.iter().find(|&&v| v != 0.0 && v != 1.0) {
            return Err(Error::out_of_range("outcome", v, "0 or 1"));
        }
        Ok(Readings {
            kind: Kind::Proportion,
            values,
        })
    }

    /// The kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The values, in order.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The mean the kind calls for: arithmetic, harmonic or the proportion.
    pub fn mean(&self) -> f64 {
        match self.kind {
            Kind::Rate => {
                let ys: Vec<f64> = self.values.iter().map(|x| 1.0 / x).collect();
                let m = Moments::of(&ys);
                m.scale / m.mean_scaled
            }
            Kind::Plain | Kind::Proportion => {
                let m = Moments::of(&self.values);
                m.mean_scaled / m.scale
            }
        }
    }

    /// The summary with its interval: batch means for plain readings, batch means on the
    /// reciprocals for rates, Wilson's interval for proportions (readings taken as independent
    /// trials; `options.ac_limit` does not apply).
    ///
    /// Returns the errors of [`batch_means`] and [`proportion_interval`].
    pub fn summary(&self, options: &BatchMeansOptions) -> Result<Summary> {
        match self.kind {
            Kind::Plain => Ok(Summary::Mean(batch_means(&self.values, options)?)),
            Kind::Rate => Ok(Summary::Rate(harmonic_mean_batch_interval(
                &self.values,
                options,
            )?)),
            Kind::Proportion => {
                options.validate()?;
                let s = self.values.iter().filter(|&&v| v == 1.0).count() as u64;
                Ok(Summary::Proportion(proportion_interval(
                    s,
                    self.values.len() as u64,
                    options.level,
                )?))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_not_averaged_arithmetically() {
        let r = Readings::rates(vec![10.0, 20.0, 40.0]).unwrap();
        let hm = 3.0 / (0.1 + 0.05 + 0.025);
        assert!((r.mean() - hm).abs() < 1e-12);
        assert!(r.mean() < 70.0 / 3.0);
        let s = harmonic_mean_interval(&[10.0, 20.0, 40.0], 0.95).unwrap();
        assert!((s.mean - hm).abs() < 1e-12);
        let p = Readings::plain(vec![10.0, 20.0, 40.0]).unwrap();
        assert!((p.mean() - 70.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn unbounded_rate_interval() {
        // Reciprocals 1, 0.01: the interval for ȳ reaches below 0.
        let r = harmonic_mean_interval(&[1.0, 100.0], 0.95).unwrap();
        assert!(!r.is_bounded() && r.high == f64::INFINITY);
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"high\":null"));
        let back: RateInterval = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn bad_rates() {
        assert!(matches!(
            harmonic_mean(&[1.0, 0.0]),
            Err(Error::OutOfRange { name: "rate", .. })
        ));
        assert!(harmonic_mean(&[1.0, -2.0]).is_err());
        assert!(harmonic_mean(&[]).is_err());
        assert!(harmonic_mean_interval(&[1.0], 0.95).is_err());
        assert!(harmonic_mean_interval(&[1.0, 2.0], 1.5).is_err());
        assert!(proportion_interval(3, 2, 0.95).is_err());
        assert!(proportion_interval(0, 0, 0.95).is_err());
    }
}
