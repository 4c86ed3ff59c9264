//! The stable rate of a workload that reports only its total time.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::intervals`), section "Work rate".

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::stats::intervals::batch_means::Centered;
use crate::stats::intervals::rates::infinite_as_null;
use crate::stats::summaries::summary::neumaier_sum;
use crate::stats::{DEFAULT_LEVEL, check, dist};

/// Options for `work_rate_with`: a consuming builder.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub(crate) struct WorkRateOptions {
    /// Coverage of the rate's interval, in `(0, 1)`. Default 0.95.
    pub level: f64,
    /// Largest accepted |lag-1 autocorrelation| of the (batched) residuals, in `(0, 1]`.
    /// Default 0.1.
    pub ac_limit: f64,
    /// Rounds with a duration no longer than this are excluded, in the unit of the durations.
    /// Default 0 (only zero-length rounds are excluded).
    pub min_duration: f64,
}

impl Default for WorkRateOptions {
    fn default() -> Self {
        WorkRateOptions {
            level: DEFAULT_LEVEL,
            ac_limit: 0.1,
            min_duration: 0.0,
        }
    }
}

impl WorkRateOptions {
    /// Sets [`level`](Self::level).
    pub(crate) fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Sets [`ac_limit`](Self::ac_limit): the tests' fits on few points accept any.
    #[cfg(test)]
    fn ac_limit(mut self, limit: f64) -> Self {
        self.ac_limit = limit;
        self
    }
    /// Sets [`min_duration`](Self::min_duration), for the tests.
    #[cfg(test)]
    fn min_duration(mut self, d: f64) -> Self {
        self.min_duration = d;
        self
    }
}

/// The result of [`work_rate`]: the fitted line and the rate with its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkRate {
    /// The fixed overhead `α̂`, in the unit of the durations.
    pub alpha: f64,
    /// The slope `β̂`, duration per unit of work.
    pub slope: f64,
    /// Half-width `δ` of the slope's interval.
    pub slope_half_width: f64,
    /// The stable rate `v̂ = 1/β̂`, work per unit of duration.
    pub rate: f64,
    /// Lower end of the rate's interval, `1/(β̂ + δ)`.
    pub low: f64,
    /// Upper end, `1/(β̂ − δ)`; `+∞` (serialised as `null`) when the slope's interval reaches
    /// zero and the data do not bound the rate from above.
    #[serde(with = "infinite_as_null")]
    pub high: f64,
    /// Coverage level.
    pub level: f64,
    /// Rounds per subsession mean.
    pub q: usize,
    /// Points the line was fitted to (subsession means).
    pub points: usize,
    /// Rounds that passed the duration filters.
    pub rounds_used: usize,
    /// Rounds excluded as too short.
    pub rounds_excluded: usize,
    /// The naive rate, total work over total time of the rounds used.
    pub naive_rate: f64,
    /// Residual standard deviation `σ̂` of the fit, in the unit of the durations.
    pub residual_std_dev: f64,
}

impl WorkRate {
    /// Whether the rate's interval has an upper end.
    pub fn is_bounded(&self) -> bool {
        self.high.is_finite()
    }
}

/// `work_rate_with` with the default options at `level`.
///
/// Returns the errors of `work_rate_with`.
pub fn work_rate(work: &[f64], durations: &[f64], level: f64) -> Result<WorkRate> {
    work_rate_with(work, durations, &WorkRateOptions::default().level(level))
}

/// The stable rate from rounds of `work[i]` units taking `durations[i]`; see the
/// [chapter](crate::stats::intervals#work-rate).
///
/// Returns [`Error::LengthMismatch`] for slices of different lengths, [`Error::NonFinite`]
/// for NaN or ±∞, [`Error::OutOfRange`] for non-positive work, negative durations or options
/// out of range, and [`Error::NotEnoughData`] when fewer than three rounds (or points) remain,
/// when every remaining round did the same work (the slope is undefined), when no `q` meets
/// the autocorrelation limit, or when the fitted slope is not positive.
pub fn work_rate_with(
    work: &[f64],
    durations: &[f64],
    options: &WorkRateOptions,
) -> Result<WorkRate> {
    check::open_unit("level", options.level)?;
    crate::stats::intervals::batch_means::check_ac_limit(options.ac_limit)?;
    if !(options.min_duration.is_finite() && options.min_duration >= 0.0) {
        return Err(Error::out_of_range(
            "min_duration",
            options.min_duration,
            "0 ≤ min_duration < ∞",
        ));
    }
    if work.len() != durations.len() {
        return Err(Error::LengthMismatch {
            a: work.len(),
            b: durations.len(),
        });
    }
    check::finite("work", work)?;
    check::finite("durations", durations)?;
    if let Some(&w) = work.iter().find(|&&w| w <= 0.0) {
        return Err(Error::out_of_range("work", w, "work > 0"));
    }
    if let Some(&d) = durations.iter().find(|&&d| d < 0.0) {
        return Err(Error::out_of_range("duration", d, "duration ≥ 0"));
    }
    let mut threshold = options.min_duration;
    loop {
        let keep: Vec<usize> = (0..work.len())
            .filter(|&i| durations[i] > threshold)
            .collect();
        let fit = fit_rounds(work, durations, &keep, options)?;
        if fit.alpha < 0.0 && -fit.alpha > threshold {
            threshold = -fit.alpha;
            continue;
        }
        return Ok(fit);
    }
}

fn not_enough(reason: impl Into<String>) -> Error {
    Error::NotEnoughData {
        what: "work-rate regression",
        reason: reason.into(),
    }
}

/// Least squares on `(w, t)` points: (α̂, β̂, Sxx, SSR).
fn ols(w: &[f64], t: &[f64]) -> (f64, f64, f64, f64) {
    let n = w.len() as f64;
    let wm = neumaier_sum(w.iter().copied()) / n;
    let tm = neumaier_sum(t.iter().copied()) / n;
    let sxx = neumaier_sum(w.iter().map(|x| (x - wm) * (x - wm)));
    let sxy = neumaier_sum(w.iter().zip(t).map(|(x, y)| (x - wm) * (y - tm)));
    let beta = sxy / sxx;
    let alpha = tm - beta * wm;
    let ssr = neumaier_sum(w.iter().zip(t).map(|(x, y)| {
        let r = y - alpha - beta * x;
        r * r
    }));
    (alpha, beta, sxx, ssr)
}

fn fit_rounds(
    work: &[f64],
    durations: &[f64],
    keep: &[usize],
    options: &WorkRateOptions,
) -> Result<WorkRate> {
    let used = keep.len();
    if used < 3 {
        return Err(not_enough(format!(
            "{used} rounds are longer than the duration threshold; at least 3 are needed"
        )));
    }
    let w: Vec<f64> = keep.iter().map(|&i| work[i]).collect();
    let t: Vec<f64> = keep.iter().map(|&i| durations[i]).collect();
    if w.iter().all(|&x| x == w[0]) {
        return Err(not_enough(
            "every round did the same amount of work, so the slope is undefined; vary the work",
        ));
    }
    // Choose q on the residuals of the round-level fit.
    let (a0, b0, _, _) = ols(&w, &t);
    let resid: Vec<f64> = w.iter().zip(&t).map(|(x, y)| y - a0 - b0 * x).collect();
    let q = Centered::new(&resid)
        .smallest_q(options.ac_limit)
        .ok_or_else(|| {
            not_enough("no subsession size brings the residuals' autocorrelation within the limit")
        })?;
    let h = used / q;
    if h < 3 {
        return Err(not_enough(format!(
            "{h} subsession means of {q} rounds; at least 3 are needed"
        )));
    }
    let mean_of = |v: &[f64]| -> Vec<f64> {
        v[..h * q]
            .chunks_exact(q)
            .map(|c| neumaier_sum(c.iter().copied()) / q as f64)
            .collect()
    };
    let (wb, tb) = (mean_of(&w), mean_of(&t));
    if wb.iter().all(|&x| x == wb[0]) {
        return Err(not_enough(
            "every subsession did the same amount of work on average; vary the work",
        ));
    }
    let (alpha, slope, sxx, ssr) = ols(&wb, &tb);
    if !(slope > 0.0 && slope.is_finite()) {
        return Err(not_enough(format!(
            "the fitted time per unit of work is {slope}, not positive: the durations do not \
             grow with the work"
        )));
    }
    let sigma2 = ssr / (h - 2) as f64;
    let se = (sigma2 / sxx).sqrt();
    let tq = dist::student_t_quantile(0.5 + options.level / 2.0, (h - 2) as f64)?;
    let delta = tq * se;
    let total_w = neumaier_sum(w.iter().copied());
    let total_t = neumaier_sum(t.iter().copied());
    Ok(WorkRate {
        alpha,
        slope,
        slope_half_width: delta,
        rate: 1.0 / slope,
        low: 1.0 / (slope + delta),
        high: if slope > delta {
            1.0 / (slope - delta)
        } else {
            f64::INFINITY
        },
        level: options.level,
        q,
        points: h,
        rounds_used: used,
        rounds_excluded: work.len() - used,
        naive_rate: total_w / total_t,
        residual_std_dev: sigma2.sqrt(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors() {
        assert!(matches!(
            work_rate(&[1.0, 2.0], &[1.0], 0.95),
            Err(Error::LengthMismatch { .. })
        ));
        assert!(matches!(
            work_rate(&[5.0; 6], &[1.0, 1.1, 0.9, 1.0, 1.05, 0.95], 0.95),
            Err(Error::NotEnoughData { .. })
        ));
        assert!(work_rate(&[0.0, 1.0, 2.0], &[1.0, 2.0, 3.0], 0.95).is_err());
        assert!(work_rate(&[1.0, 2.0, 3.0], &[1.0, -2.0, 3.0], 0.95).is_err());
        assert!(work_rate(&[1.0, 2.0], &[1.0, 2.0], 0.95).is_err());
    }

    #[test]
    fn equal_work_beyond_two_to_the_53() {
        let w = [1e17; 8];
        let t = [1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0, 1.0];
        assert!(matches!(
            work_rate(&w, &t, 0.95),
            Err(Error::NotEnoughData { .. })
        ));
    }

    #[test]
    fn nanosecond_totals_do_not_overflow() {
        // Durations around 5e18 ns each: their sum exceeds i64::MAX.
        let noise = [0.3, -1.2, 0.8, 0.1, -0.5, 1.1, -0.9, 0.4, -0.2, 0.6];
        let w: Vec<f64> = (1..=10).map(|i| i as f64 * 1e9).collect();
        let t: Vec<f64> = w
            .iter()
            .zip(noise)
            .map(|(x, e)| 4e18 + x * 1e8 + e * 1e15)
            .collect();
        let fit = work_rate_with(&w, &t, &WorkRateOptions::default().ac_limit(1.0)).unwrap();
        assert!((fit.rate * 1e8 - 1.0).abs() < 0.01, "{}", fit.rate);
        assert!(fit.naive_rate.is_finite());
    }

    #[test]
    fn unbounded_when_slope_interval_contains_zero() {
        let w = [1.0, 2.0, 3.0, 4.0];
        let t = [10.0, 10.5, 9.8, 10.6];
        let fit = work_rate_with(&w, &t, &WorkRateOptions::default().ac_limit(1.0)).unwrap();
        assert!(!fit.is_bounded());
    }

    #[test]
    fn short_rounds_and_negative_overhead_are_excluded() {
        let w = [1.0, 2.0, 10.0, 20.0, 30.0, 40.0, 50.0];
        let t = [0.001, 0.002, 9.0, 19.1, 28.9, 39.0, 49.1];
        let fit = work_rate_with(&w, &t, &WorkRateOptions::default().ac_limit(1.0)).unwrap();
        assert!(fit.rounds_excluded >= 2, "{fit:?}");
        let f2 = work_rate_with(
            &w,
            &t,
            &WorkRateOptions::default().ac_limit(1.0).min_duration(1.0),
        )
        .unwrap();
        assert_eq!(f2.rounds_used, 5);
    }
}
