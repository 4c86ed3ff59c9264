//! How many readings are enough: required sample sizes for a stated precision, and a
//! width-based stopping rule.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::plans`), section "Sample size".

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::stats::intervals::batch_means::BatchMeans;
use crate::stats::{check, dist};

/// Fewest batch means any requirement asks for: two, the fewest a t interval is defined for.
pub const MIN_REQUIRED_BATCHES: usize = 2;

/// Largest requirement reported as a number; beyond it the requirement is
/// [`Error::NotEnoughData`] (2⁶⁰ batch means cannot be collected anyway).
const MAX_REQUIRED: f64 = (1u64 << 60) as f64;

/// The smallest number of batch means `h ≥ 2` whose t interval at `level` has a half-width of
/// at most `half_width·mean`, when the batch means have coefficient of variation `cv`: the
/// smallest `h` with `h ≥ (t*(h − 1)·cv/half_width)²`.
///
/// `cv` and `half_width` are fractions of the mean (0.25 = 25 %; `half_width` 0.05 is "±5 %").
/// The same function answers in absolute units: pass `cv = s` and `half_width = e` in the same
/// unit. Found by bisection on the monotone condition, so the answer is exact for any size.
///
/// Returns [`Error::OutOfRange`] for a `cv` that is negative or NaN, a `half_width` that is
/// not finite and positive, or a level outside `(0, 1)`; [`Error::NotEnoughData`] when the
/// requirement is not finite (an infinite `cv`, as from a mean of 0) or exceeds 2⁶⁰.
pub fn required_batches(cv: f64, half_width: f64, level: f64) -> Result<usize> {
    check::open_unit("level", level)?;
    if cv.is_nan() || cv < 0.0 {
        return Err(Error::out_of_range("cv", cv, "0 ≤ cv"));
    }
    if !(half_width.is_finite() && half_width > 0.0) {
        return Err(Error::out_of_range(
            "half_width",
            half_width,
            "0 < half_width < ∞",
        ));
    }
    let ratio = cv / half_width;
    let p = 0.5 + level / 2.0;
    let z = dist::normal_quantile(p)?;
    let lower = (z * ratio).powi(2);
    if !lower.is_finite() || lower > MAX_REQUIRED {
        return Err(not_finite(cv, half_width));
    }
    let enough = |h: usize| -> Result<bool> {
        let t = dist::student_t_quantile(p, (h - 1) as f64)?;
        Ok(h as f64 >= (t * ratio).powi(2))
    };
    // t* > z, so the z-based size is a lower bound; double until the condition holds, then
    // bisect (the condition is monotone: h grows while t*(h − 1) falls).
    let mut lo = (lower.ceil() as usize).max(MIN_REQUIRED_BATCHES);
    if enough(lo)? {
        return Ok(lo);
    }
    let mut hi = lo.saturating_mul(2);
    while !enough(hi)? {
        if hi as f64 > MAX_REQUIRED {
            return Err(not_finite(cv, half_width));
        }
        lo = hi;
        hi = hi.saturating_mul(2);
    }
    // Invariant: !enough(lo), enough(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if enough(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}

fn not_finite(cv: f64, half_width: f64) -> Error {
    Error::NotEnoughData {
        what: "required sample size",
        reason: format!(
            "a coefficient of variation of {cv} at a half-width of {half_width} needs more \
             batch means than can be collected (a mean of 0 with a relative target makes it \
             infinite); the precision target is not satisfied"
        ),
    }
}

/// A precision target for a mean: a relative half-width (fraction of |mean|), an absolute
/// half-width (unit of the readings), or both, in which case the **narrower** applies.
///
/// ```
/// use rtcompare::support::stats::PrecisionTarget;
/// let t = PrecisionTarget::relative(0.05).and_absolute(2.0);
/// assert_eq!(t.half_width_for(100.0), Some(2.0)); // 5 % of 100 is 5, 2 is narrower
/// assert_eq!(PrecisionTarget::relative(0.05).half_width_for(0.0), None); // unreachable
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PrecisionTarget {
    /// Largest half-width as a fraction of |mean| (0.05 = ±5 %), if any.
    pub relative: Option<f64>,
    /// Largest half-width in the unit of the readings, if any.
    pub absolute: Option<f64>,
}

impl Default for PrecisionTarget {
    /// ±5 % of the mean.
    fn default() -> Self {
        PrecisionTarget::relative(0.05)
    }
}

impl PrecisionTarget {
    /// A target of ±`fraction` of the mean.
    pub fn relative(fraction: f64) -> Self {
        PrecisionTarget {
            relative: Some(fraction),
            absolute: None,
        }
    }

    /// A target of ±`half_width` in the unit of the readings.
    pub fn absolute(half_width: f64) -> Self {
        PrecisionTarget {
            relative: None,
            absolute: Some(half_width),
        }
    }

    /// Adds an absolute bound (the narrower of the two applies).
    pub fn and_absolute(mut self, half_width: f64) -> Self {
        self.absolute = Some(half_width);
        self
    }

    /// Adds a relative bound (the narrower of the two applies).
    pub fn and_relative(mut self, fraction: f64) -> Self {
        self.relative = Some(fraction);
        self
    }

    /// `Err` unless at least one bound is set and every set bound is finite and positive.
    pub fn validate(&self) -> Result<()> {
        if self.relative.is_none() && self.absolute.is_none() {
            return Err(Error::invalid_option(
                "precision target",
                "neither a relative nor an absolute half-width is set; set at least one",
            ));
        }
        for (name, v) in [("relative", self.relative), ("absolute", self.absolute)] {
            if let Some(v) = v
                && !(v.is_finite() && v > 0.0)
            {
                return Err(Error::out_of_range(name, v, "0 < half-width < ∞"));
            }
        }
        Ok(())
    }

    /// The half-width required around `mean`, in the unit of the readings: the narrower of
    /// the set bounds. `None` when it is 0 or not finite (a relative target around a mean of
    /// 0): such a target cannot be met.
    pub fn half_width_for(&self, mean: f64) -> Option<f64> {
        let rel = self.relative.map(|r| r * mean.abs());
        let e = match (rel, self.absolute) {
            (Some(r), Some(a)) => r.min(a),
            (Some(r), None) => r,
            (None, Some(a)) => a,
            (None, None) => return None,
        };
        (e.is_finite() && e > 0.0).then_some(e)
    }
}

/// What a batch-means analysis still needs to reach a [`PrecisionTarget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequiredSize {
    /// Batch means needed: the larger of the statistical requirement and the floor.
    pub batches: usize,
    /// Readings needed, `q · batches`.
    pub readings: usize,
    /// The batch size the requirement was computed for.
    pub q: usize,
}

/// The readings a batch-means result `bm` needs to reach `target` at its own level: `q` times
/// the larger of [`required_batches`] and `min_batches`.
///
/// The level used is `bm.level`, the one the interval was computed at (Pilot's snapshot
/// silently used 0.95 here).
///
/// Returns the errors of [`PrecisionTarget::validate`], and [`Error::NotEnoughData`] when the
/// target cannot be met (a relative target around a mean of 0) or the requirement overflows.
pub fn required_size(
    bm: &BatchMeans,
    target: &PrecisionTarget,
    min_batches: usize,
) -> Result<RequiredSize> {
    target.validate()?;
    let e = target
        .half_width_for(bm.mean)
        .ok_or_else(|| Error::NotEnoughData {
            what: "required sample size",
            reason: format!(
                "the target half-width around a mean of {} is zero, so no number of readings \
                 reaches it; the precision target is not satisfied",
                bm.mean
            ),
        })?;
    let h = required_batches(bm.batch_std_dev(), e, bm.level)?.max(min_batches);
    let readings = h
        .checked_mul(bm.q)
        .ok_or_else(|| not_finite(bm.batch_std_dev(), e))?;
    Ok(RequiredSize {
        batches: h,
        readings,
        q: bm.q,
    })
}

/// A width-based stopping rule for a paired comparison: collect more rounds until the
/// interval on the difference δ is at most `max_half_width` wide on each side, or `max_pairs`
/// pairs have been collected.
///
/// Fixed before measuring and blind to the interval's position: the decision uses the
/// half-width only, so it never stops because the difference "looks significant".
///
/// ```
/// use rtcompare::support::stats::{WidthDecision, WidthTarget};
/// let rule = WidthTarget::new(0.01).max_pairs(2_000);
/// // ±2 % after 101 pairs: 4 × 101 are needed in all, 303 more, but one round may at most
/// // double the pairs so far.
/// assert_eq!(rule.decide(0.02, 101)?, WidthDecision::CollectMore(202));
/// assert_eq!(rule.decide(0.02, 303)?, WidthDecision::CollectMore(606));
/// assert_eq!(rule.decide(0.009, 101)?, WidthDecision::Enough);
/// assert_eq!(rule.decide(0.02, 2_000)?, WidthDecision::BudgetExhausted);
/// # Ok::<(), rtcompare::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct WidthTarget {
    /// Largest accepted half-width of the interval on δ, as a fraction (0.01 = ±1 percentage
    /// point). Must be finite and positive.
    pub max_half_width: f64,
    /// Most pairs to collect in all; the rule says [`WidthDecision::BudgetExhausted`] there.
    /// Default 10,000.
    pub max_pairs: usize,
    /// Fewest pairs one extra round adds (so that rounds are not absurdly small). Default 20.
    pub min_step: usize,
    /// Largest growth of one extra round, as a multiple of the pairs so far (so that a noisy
    /// early width cannot demand a huge round). Default 2.0.
    pub max_growth: f64,
}

/// Default [`WidthTarget::max_pairs`].
pub const DEFAULT_WIDTH_MAX_PAIRS: usize = 10_000;
/// Default [`WidthTarget::min_step`].
pub const DEFAULT_WIDTH_MIN_STEP: usize = 20;

/// Default [`WidthTarget::max_half_width`]: ±1 percentage point of δ.
pub const DEFAULT_WIDTH_HALF_WIDTH: f64 = 0.01;

impl Default for WidthTarget {
    /// ±`DEFAULT_WIDTH_HALF_WIDTH` (0.01) with the default budget.
    fn default() -> Self {
        WidthTarget::new(DEFAULT_WIDTH_HALF_WIDTH)
    }
}

impl WidthTarget {
    /// Sets [`max_half_width`](Self::max_half_width).
    pub fn max_half_width(mut self, h: f64) -> Self {
        self.max_half_width = h;
        self
    }

    /// A rule asking for a half-width of at most `max_half_width` (a fraction), with the
    /// default budget.
    pub fn new(max_half_width: f64) -> Self {
        WidthTarget {
            max_half_width,
            max_pairs: DEFAULT_WIDTH_MAX_PAIRS,
            min_step: DEFAULT_WIDTH_MIN_STEP,
            max_growth: 2.0,
        }
    }

    /// Sets [`max_pairs`](Self::max_pairs).
    pub fn max_pairs(mut self, n: usize) -> Self {
        self.max_pairs = n;
        self
    }

    /// Sets [`min_step`](Self::min_step).
    pub fn min_step(mut self, n: usize) -> Self {
        self.min_step = n;
        self
    }

    /// Sets [`max_growth`](Self::max_growth).
    pub fn max_growth(mut self, g: f64) -> Self {
        self.max_growth = g;
        self
    }

    /// `Err(OutOfRange)` unless the half-width is finite and positive, `max_pairs ≥ 1`,
    /// `min_step ≥ 1` and `max_growth` is finite and positive.
    pub fn validate(&self) -> Result<()> {
        if !(self.max_half_width.is_finite() && self.max_half_width > 0.0) {
            return Err(Error::out_of_range(
                "max_half_width",
                self.max_half_width,
                "0 < max_half_width < ∞",
            ));
        }
        if self.max_pairs == 0 {
            return Err(Error::out_of_range("max_pairs", 0.0, "max_pairs ≥ 1"));
        }
        if self.min_step == 0 {
            return Err(Error::out_of_range("min_step", 0.0, "min_step ≥ 1"));
        }
        if !(self.max_growth.is_finite() && self.max_growth > 0.0) {
            return Err(Error::out_of_range(
                "max_growth",
                self.max_growth,
                "0 < max_growth < ∞",
            ));
        }
        Ok(())
    }

    /// Given the interval's current half-width (a fraction; [`Estimate::half_width`] of the
    /// paired estimate) after `pairs` pairs, says whether that is enough or how many more
    /// pairs to collect: half-widths shrink as `1/√n`, so about
    /// `pairs·(half_width/max_half_width)² − pairs` more, at least `min_step`, at most
    /// `max_growth·pairs`, and never beyond `max_pairs`.
    ///
    /// A non-finite half-width counts as "not narrow enough". Returns the errors of
    /// [`WidthTarget::validate`] and [`Error::OutOfRange`] for a negative or NaN half-width.
    ///
    /// [`Estimate::half_width`]: crate::stats::Estimate::half_width
    pub fn decide(&self, half_width: f64, pairs: usize) -> Result<WidthDecision> {
        self.validate()?;
        if half_width.is_nan() || half_width < 0.0 {
            return Err(Error::out_of_range(
                "half_width",
                half_width,
                "0 ≤ half_width",
            ));
        }
        if half_width <= self.max_half_width {
            return Ok(WidthDecision::Enough);
        }
        if pairs >= self.max_pairs {
            return Ok(WidthDecision::BudgetExhausted);
        }
        let room = self.max_pairs - pairs;
        let n = pairs.max(1) as f64;
        let wanted = n * (half_width / self.max_half_width).powi(2) - n;
        let cap = (self.max_growth * n).max(self.min_step as f64);
        let more = if wanted.is_finite() {
            wanted.ceil().clamp(self.min_step as f64, cap)
        } else {
            cap
        };
        Ok(WidthDecision::CollectMore((more as usize).clamp(1, room)))
    }
}

/// The answer of [`WidthTarget::decide`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WidthDecision {
    /// The interval is narrow enough: stop collecting.
    Enough,
    /// Collect this many more pairs, then ask again.
    CollectMore(usize),
    /// Not narrow enough, but the pair budget is spent: stop and report the target as missed.
    BudgetExhausted,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::intervals::batch_means::batch_means_at;

    #[test]
    fn pilot_table() {
        // python3: smallest h>=2 with h >= (scipy.stats.t.ppf(0.975, h-1)*cv/p)**2
        let table = [
            (0.01, [7, 4, 3, 2]),
            (0.02, [18, 7, 3, 3]),
            (0.05, [99, 27, 7, 4]),
            (0.10, [387, 99, 18, 7]),
            (0.25, [2404, 603, 99, 27]),
            (0.50, [9607, 2404, 387, 99]),
        ];
        for (cv, row) in table {
            for (p, want) in [0.01, 0.02, 0.05, 0.10].into_iter().zip(row) {
                assert_eq!(
                    required_batches(cv, p, 0.95).unwrap(),
                    want,
                    "cv {cv} p {p}"
                );
            }
        }
    }

    #[test]
    fn level_is_used() {
        assert!(required_batches(0.25, 0.05, 0.99).unwrap() > 99);
        assert!(required_batches(0.25, 0.05, 0.90).unwrap() < 99);
    }

    #[test]
    fn infinite_requirement_is_not_zero() {
        assert!(matches!(
            required_batches(f64::INFINITY, 0.05, 0.95),
            Err(Error::NotEnoughData { .. })
        ));
        assert!(matches!(
            required_batches(1e200, 1e-200, 0.95),
            Err(Error::NotEnoughData { .. })
        ));
        assert_eq!(required_batches(0.0, 0.05, 0.95), Ok(2));
        // Mean 0 with a relative target: not satisfied, never 0.
        let bm = batch_means_at(&[-1.0, 1.0, -1.0, 1.0, 0.0, 0.0], 1, 0.95).unwrap();
        assert_eq!(bm.mean, 0.0);
        assert!(matches!(
            required_size(&bm, &PrecisionTarget::relative(0.05), 30),
            Err(Error::NotEnoughData { .. })
        ));
        // With both bounds the narrower (5 % of 0 = 0) applies: still unreachable.
        assert!(
            required_size(&bm, &PrecisionTarget::relative(0.05).and_absolute(0.1), 30).is_err()
        );
        let ok = required_size(&bm, &PrecisionTarget::absolute(0.1), 30).unwrap();
        assert!(ok.batches > 30 && ok.readings == ok.batches);
    }

    #[test]
    fn bad_arguments() {
        assert!(required_batches(-0.1, 0.05, 0.95).is_err());
        assert!(required_batches(0.1, 0.0, 0.95).is_err());
        assert!(required_batches(0.1, 0.05, 1.0).is_err());
        assert!(PrecisionTarget::relative(f64::NAN).validate().is_err());
        assert!(
            PrecisionTarget {
                relative: None,
                absolute: None
            }
            .validate()
            .is_err()
        );
        assert!(WidthTarget::new(0.0).decide(0.1, 10).is_err());
        assert!(WidthTarget::new(0.01).decide(f64::NAN, 10).is_err());
    }

    #[test]
    fn width_rule_is_bounded() {
        let r = WidthTarget::new(0.01).max_pairs(500);
        assert_eq!(
            r.decide(f64::INFINITY, 100).unwrap(),
            WidthDecision::CollectMore(200)
        );
        assert_eq!(
            r.decide(0.0101, 100).unwrap(),
            WidthDecision::CollectMore(20)
        );
        assert_eq!(r.decide(1.0, 450).unwrap(), WidthDecision::CollectMore(50));
    }
}
