//! Summaries of one sample: where its middle lies and how widely it spreads.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::summaries`), section "Summaries of one sample".

use crate::error::{Error, Result};
use crate::stats::check;
use crate::stats::summaries::select;

/// Factor that turns the median absolute deviation of normally distributed data into an
/// estimate of their standard deviation: `1 / Φ⁻¹(3/4)` = 1.482602218505602 (dimensionless).
///
/// [`mad_scaled`] multiplies by it; use it yourself with [`mad`] when you need the scaled form.
pub const MAD_NORMAL_SCALE: f64 = 1.482_602_218_505_602;

/// A validated, borrowed sample: at least one value, every value finite.
///
/// Build it with [`Sample::new`] (which returns an error for bad input) and then call the
/// summaries, which cannot fail on account of the input's shape. The ones that can still fail
/// need something more than one finite value (two values for [`Sample::variance`], a `q` in
/// range for [`Sample::quantile`]) or produce a value that exceeds the `f64` range.
///
/// ```
/// use rtcompare::support::stats::Sample;
///
/// let s = Sample::new(&[3.0, 1.0, 2.0, 4.0])?;
/// assert_eq!(s.len(), 4);
/// assert_eq!(s.median(), 2.5);
/// assert_eq!(s.variance()?, 5.0 / 3.0);
/// assert!(Sample::new(&[]).is_err());
/// assert!(Sample::new(&[1.0, f64::NAN]).is_err());
/// # Ok::<(), rtcompare::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample<'a> {
    xs: &'a [f64],
}

impl<'a> Sample<'a> {
    /// Checks `xs` and wraps it.
    ///
    /// Returns [`Error::TooFewSamples`] for an empty slice and [`Error::NonFinite`] naming the
    /// first NaN or infinite value.
    pub fn new(xs: &'a [f64]) -> Result<Self> {
        Self::checked("samples", xs, 1)
    }

    /// As [`Sample::new`], but with the input's name for error messages and a minimum count.
    pub(crate) fn checked(what: &'static str, xs: &'a [f64], needed: usize) -> Result<Self> {
        check::sample(what, xs, needed.max(1))?;
        Ok(Sample { xs })
    }

    /// The values, in their original order.
    pub fn as_slice(&self) -> &'a [f64] {
        self.xs
    }

    /// Number of values (at least 1).
    pub fn len(&self) -> usize {
        self.xs.len()
    }

    /// Always `false`: a [`Sample`] holds at least one value.
    pub fn is_empty(&self) -> bool {
        self.xs.is_empty()
    }

    /// Smallest value, in the unit of the input.
    pub fn min(&self) -> f64 {
        self.xs.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// Largest value, in the unit of the input.
    pub fn max(&self) -> f64 {
        self.xs.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }

    /// Arithmetic mean, in the unit of the input. Computed in two passes (a compensated sum,
    /// then a correction by the mean residual) on values rescaled by a power of two when they
    /// are extreme, so it neither overflows nor loses the small values' contribution.
    pub fn mean(&self) -> f64 {
        let m = Moments::of(self.xs);
        m.mean_scaled / m.scale
    }

    /// Median, in the unit of the input; for an even count the mean of the two middle values.
    /// Expected time O(n); allocates one copy of the values.
    pub fn median(&self) -> f64 {
        let mut buf = self.xs.to_vec();
        select::median_in_place(&mut buf)
    }

    /// Type-7 quantile at probability `q`, in the unit of the input (see [`quantile`]).
    ///
    /// Returns [`Error::OutOfRange`] if `q` is NaN or outside `[0, 1]`.
    pub fn quantile(&self, q: f64) -> Result<f64> {
        check_probability(q)?;
        Ok(quantile_of_sorted(&self.sorted(), q))
    }

    /// Interquartile range `quantile(0.75) − quantile(0.25)` (type 7), in the unit of the
    /// input.
    ///
    /// Returns [`Error::Undefined`] if the range exceeds the largest `f64`.
    pub fn iqr(&self) -> Result<f64> {
        let sorted = self.sorted();
        iqr_of_sorted(&sorted)
    }

    /// Median absolute deviation from the median, unscaled, in the unit of the input:
    /// `median(|xᵢ − median(x)|)`. Multiply by `MAD_NORMAL_SCALE` (1.482_602_218_505_602) to estimate a normal
    /// standard deviation.
    ///
    /// Returns [`Error::Undefined`] if a deviation exceeds the largest `f64`.
    pub fn mad(&self) -> Result<f64> {
        let centre = self.median();
        let mut dev: Vec<f64> = self.xs.iter().map(|x| (x - centre).abs()).collect();
        if dev.iter().any(|d| !d.is_finite()) {
            return Err(overflow("mad"));
        }
        Ok(select::median_in_place(&mut dev))
    }

    /// Sample variance with the `n − 1` denominator, in the unit of the input squared.
    ///
    /// Returns [`Error::TooFewSamples`] for a single value and [`Error::Undefined`] if the
    /// variance exceeds the largest `f64` (the values are finite but spread wider than about
    /// 1e154).
    pub fn variance(&self) -> Result<f64> {
        let m = self.spread_moments()?;
        // Divide by the scale twice: its square may overflow or underflow where the result
        // does not.
        let v = m.ss_scaled / (self.len() - 1) as f64 / m.scale / m.scale;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(overflow("variance"))
        }
    }

    /// Sample standard deviation, the square root of [`Sample::variance`], in the unit of the
    /// input. It is computed without squaring the scale, so it is finite whenever the input is,
    /// even when the variance itself would overflow.
    ///
    /// Returns [`Error::TooFewSamples`] for a single value.
    pub fn std_dev(&self) -> Result<f64> {
        let m = self.spread_moments()?;
        let sd = (m.ss_scaled / (self.len() - 1) as f64).sqrt() / m.scale;
        if sd.is_finite() {
            Ok(sd)
        } else {
            Err(overflow("std_dev"))
        }
    }

    fn spread_moments(&self) -> Result<Moments> {
        if self.len() < 2 {
            return Err(Error::TooFewSamples {
                what: "samples",
                needed: 2,
                got: self.len(),
            });
        }
        Ok(Moments::of(self.xs))
    }

    /// A sorted copy of the values.
    pub(crate) fn sorted(&self) -> Vec<f64> {
        let mut v = self.xs.to_vec();
        v.sort_unstable_by(select::cmp_f64);
        v
    }
}

/// First and second moments of values rescaled by `scale` (a power of two), so that extreme
/// magnitudes neither overflow nor underflow. `mean_scaled / scale` is the mean and
/// `ss_scaled / scale²` the sum of squared deviations.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Moments {
    /// Exact power-of-two factor the values were multiplied by.
    pub(crate) scale: f64,
    /// Mean of the rescaled values.
    pub(crate) mean_scaled: f64,
    /// Sum of squared deviations of the rescaled values from `mean_scaled`.
    pub(crate) ss_scaled: f64,
}

impl Moments {
    /// Moments of checked (non-empty, finite) values.
    pub(crate) fn of(xs: &[f64]) -> Self {
        Self::with_scale(xs, scale_for(xs))
    }

    /// Moments of checked values, multiplied by the given power of two.
    pub(crate) fn with_scale(xs: &[f64], scale: f64) -> Self {
        let n = xs.len() as f64;
        let first = xs[0];
        if xs.iter().all(|&x| x == first) {
            // A constant sample: say so exactly rather than through rounding residue.
            return Moments {
                scale,
                mean_scaled: first * scale,
                ss_scaled: 0.0,
            };
        }
        let rough = neumaier_sum(xs.iter().map(|&x| x * scale)) / n;
        let residual = neumaier_sum(xs.iter().map(|&x| x * scale - rough));
        let mean_scaled = rough + residual / n;
        let ss = neumaier_sum(xs.iter().map(|&x| {
            let d = x * scale - mean_scaled;
            d * d
        }));
        // Corrected two-pass: subtract what the remaining mean error adds.
        let r = neumaier_sum(xs.iter().map(|&x| x * scale - mean_scaled));
        let ss_scaled = (ss - r * r / n).max(0.0);
        Moments {
            scale,
            mean_scaled,
            ss_scaled,
        }
    }
}

/// Power of two that brings the largest magnitude of `xs` close to 1 when it lies outside
/// `[2⁻⁴⁰⁰, 2⁴⁰⁰]`, and 1 otherwise (so ordinary data are computed unscaled).
pub(crate) fn scale_for(xs: &[f64]) -> f64 {
    let largest = xs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    power_of_two_scale(largest)
}

/// The factor [`scale_for`] uses for a given largest magnitude.
pub(crate) fn power_of_two_scale(largest: f64) -> f64 {
    const LOW: f64 = f64::from_bits((1023 - 400) << 52); // 2^-400
    const HIGH: f64 = f64::from_bits((1023 + 400) << 52); // 2^400
    if largest == 0.0 || !largest.is_finite() || (LOW..=HIGH).contains(&largest) {
        return 1.0;
    }
    let e = (largest.log2().floor() as i64).clamp(-1020, 1020);
    // 2^(-e) built from its bit pattern, which is exact.
    f64::from_bits(((1023 - e) as u64) << 52)
}

/// Neumaier's compensated sum.
pub(crate) fn neumaier_sum(values: impl Iterator<Item = f64>) -> f64 {
    let mut sum = 0.0f64;
    let mut comp = 0.0f64;
    for v in values {
        let t = sum + v;
        if sum.abs() >= v.abs() {
            comp += (sum - t) + v;
        } else {
            comp += (v - t) + sum;
        }
        sum = t;
    }
    sum + comp
}

/// `Err(OutOfRange)` unless `0 ≤ q ≤ 1` (NaN fails).
fn check_probability(q: f64) -> Result<()> {
    if (0.0..=1.0).contains(&q) {
        Ok(())
    } else {
        Err(Error::out_of_range("q", q, "0 ≤ q ≤ 1"))
    }
}

/// Type-7 quantile of a sorted, checked, non-empty slice with `q` in `[0, 1]`. Never overflows
/// and always lies between the two order statistics it interpolates, so it is monotone in `q`.
pub(crate) fn quantile_of_sorted(sorted: &[f64], q: f64) -> f64 {
    let v = select::quantile_sorted(sorted, q);
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let (a, b) = (sorted[lo], sorted[hi]);
    if v.is_finite() {
        v.clamp(a, b)
    } else {
        // The gap b − a overflowed; weight the two ends instead.
        let frac = h - lo as f64;
        ((1.0 - frac) * a + frac * b).clamp(a, b)
    }
}

/// Interquartile range of a sorted, checked, non-empty slice.
pub(crate) fn iqr_of_sorted(sorted: &[f64]) -> Result<f64> {
    let r = quantile_of_sorted(sorted, 0.75) - quantile_of_sorted(sorted, 0.25);
    if r.is_finite() {
        Ok(r)
    } else {
        Err(overflow("iqr"))
    }
}

fn overflow(what: &'static str) -> Error {
    Error::Undefined {
        what,
        reason: "the result exceeds the largest finite f64; rescale the data (for example \
                 to other units) first"
            .to_string(),
    }
}

/// Median of `xs`, in the unit of the input; for an even count, the mean of the two middle
/// values. The input is not reordered.
///
/// Returns [`Error::TooFewSamples`] for an empty slice and [`Error::NonFinite`] for NaN or ±∞.
///
/// ```
/// assert_eq!(rtcompare::stats::median(&[4.0, 1.0, 3.0, 2.0])?, 2.5);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn median(xs: &[f64]) -> Result<f64> {
    Ok(Sample::new(xs)?.median())
}

/// Quantile of `xs` at probability `q`, by Hyndman and Fan's type 7 (NumPy's default
/// `method="linear"`, R's default `type = 7`): with the values sorted as `x₀ ≤ … ≤ xₙ₋₁` and
/// `h = (n − 1)·q`, the result is `x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋)`. `q = 0` gives the minimum,
/// `q = 1` the maximum and `q = 0.5` the median. Unit: that of the input.
///
/// Returns [`Error::OutOfRange`] if `q` is NaN or outside `[0, 1]`, and the errors of
/// [`median`] for a bad sample.
///
/// ```
/// // numpy.quantile([1, 2, 3, 4], 0.3) == 1.9
/// let q = rtcompare::stats::quantile(&[4.0, 1.0, 3.0, 2.0], 0.3)?;
/// assert!((q - 1.9).abs() < 1e-12);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn quantile(xs: &[f64], q: f64) -> Result<f64> {
    Sample::new(xs)?.quantile(q)
}

/// Interquartile range of `xs`: the type-7 quantile at 0.75 minus the one at 0.25, in the unit
/// of the input. A spread that ignores the most extreme quarter on either side.
///
/// Returns the errors of [`median`] for a bad sample and [`Error::Undefined`] if the range
/// exceeds the largest `f64`.
pub fn iqr(xs: &[f64]) -> Result<f64> {
    Sample::new(xs)?.iqr()
}

/// Median absolute deviation from the median, unscaled: `median(|xᵢ − median(x)|)`, in the
/// unit of the input (SciPy's `median_abs_deviation` with its default `scale=1.0`).
///
/// Returns the errors of [`median`] for a bad sample and [`Error::Undefined`] if a deviation
/// exceeds the largest `f64`.
pub fn mad(xs: &[f64]) -> Result<f64> {
    Sample::new(xs)?.mad()
}

/// [`mad`] multiplied by `MAD_NORMAL_SCALE` (1.482_602_218_505_602): a robust estimate of the standard deviation that
/// agrees with it for normally distributed data. Unit: that of the input.
///
/// Returns the errors of [`mad`], and [`Error::Undefined`] if the product overflows.
pub fn mad_scaled(xs: &[f64]) -> Result<f64> {
    let m = mad(xs)? * MAD_NORMAL_SCALE;
    if m.is_finite() {
        Ok(m)
    } else {
        Err(overflow("mad_scaled"))
    }
}

/// Arithmetic mean of `xs`, in the unit of the input (see [`Sample::mean`] for how it avoids
/// overflow and cancellation).
///
/// Returns [`Error::TooFewSamples`] for an empty slice and [`Error::NonFinite`] for NaN or ±∞.
pub fn mean(xs: &[f64]) -> Result<f64> {
    Ok(Sample::new(xs)?.mean())
}

/// Sample variance of `xs` with the `n − 1` denominator (NumPy's `var(ddof=1)`), in the unit of
/// the input squared.
///
/// Returns [`Error::TooFewSamples`] for fewer than two values, [`Error::NonFinite`] for NaN or
/// ±∞, and [`Error::Undefined`] if the variance exceeds the largest `f64`.
pub fn variance(xs: &[f64]) -> Result<f64> {
    Sample::checked("samples", xs, 2)?.variance()
}

/// Sample standard deviation of `xs` (square root of [`variance`]), in the unit of the input.
/// Finite for every finite input, even where the variance overflows.
///
/// Returns [`Error::TooFewSamples`] for fewer than two values and [`Error::NonFinite`] for NaN
/// or ±∞.
pub fn std_dev(xs: &[f64]) -> Result<f64> {
    Sample::checked("samples", xs, 2)?.std_dev()
}

/// Smallest value of `xs`, in the unit of the input: for timings, the run that interference
/// touched least.
///
/// Returns [`Error::TooFewSamples`] for an empty slice and [`Error::NonFinite`] for NaN or ±∞.
pub fn min(xs: &[f64]) -> Result<f64> {
    Ok(Sample::new(xs)?.min())
}

/// Largest value of `xs`, in the unit of the input.
///
/// Returns [`Error::TooFewSamples`] for an empty slice and [`Error::NonFinite`] for NaN or ±∞.
pub fn max(xs: &[f64]) -> Result<f64> {
    Ok(Sample::new(xs)?.max())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_the_smallest_subnormals_is_not_zero() {
        // Found by proptest: halving each value before adding lost them.
        assert_eq!(median(&[5e-324, 5e-324]).unwrap(), 5e-324);
        assert_eq!(median(&[f64::MAX, f64::MAX]).unwrap(), f64::MAX);
        assert_eq!(median(&[-f64::MAX, f64::MAX]).unwrap(), 0.0);
    }

    #[test]
    fn empty_nan_inf_are_errors() {
        type F = fn(&[f64]) -> Result<f64>;
        let fs: [(&str, F); 10] = [
            ("median", median),
            ("iqr", iqr),
            ("mad", mad),
            ("mad_scaled", mad_scaled),
            ("mean", mean),
            ("variance", variance),
            ("std_dev", std_dev),
            ("min", min),
            ("max", max),
            ("quantile", |xs| quantile(xs, 0.5)),
        ];
        for (name, f) in fs {
            assert!(
                matches!(f(&[]), Err(Error::TooFewSamples { got: 0, .. })),
                "{name}"
            );
            assert!(
                matches!(
                    f(&[1.0, f64::NAN, 2.0]),
                    Err(Error::NonFinite { index: 1, .. })
                ),
                "{name}"
            );
            assert!(
                matches!(
                    f(&[1.0, 2.0, f64::INFINITY]),
                    Err(Error::NonFinite { index: 2, .. })
                ),
                "{name}"
            );
            assert!(
                matches!(
                    f(&[f64::NEG_INFINITY, 1.0]),
                    Err(Error::NonFinite { index: 0, .. })
                ),
                "{name}"
            );
        }
    }

    #[test]
    fn variance_needs_two_values() {
        for f in [variance, std_dev] {
            assert_eq!(
                f(&[1.0]),
                Err(Error::TooFewSamples {
                    what: "samples",
                    needed: 2,
                    got: 1
                })
            );
        }
        let s = Sample::new(&[1.0]).unwrap();
        assert!(matches!(s.variance(), Err(Error::TooFewSamples { .. })));
        assert!(matches!(s.std_dev(), Err(Error::TooFewSamples { .. })));
    }

    #[test]
    fn quantile_rejects_bad_q() {
        for q in [-0.1, 1.000001, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(
                matches!(
                    quantile(&[1.0, 2.0], q),
                    Err(Error::OutOfRange { name: "q", .. })
                ),
                "q = {q}"
            );
        }
        assert_eq!(quantile(&[1.0, 2.0], 0.0), Ok(1.0));
        assert_eq!(quantile(&[1.0, 2.0], 1.0), Ok(2.0));
        assert_eq!(quantile(&[7.0], 0.3), Ok(7.0));
    }

    #[test]
    fn unsorted_input_gives_the_sorted_answers() {
        // The order statistics sort a copy: unsorted input gives the sorted input's answers
        // (np.median, np.quantile(x, 0.3), the MAD and the type-7 IQR of 1..=5).
        let xs = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(median(&xs), Ok(3.0));
        assert!((quantile(&xs, 0.3).unwrap() - 2.2).abs() < 1e-15);
        assert_eq!(mad(&xs), Ok(1.0));
        assert_eq!(iqr(&xs), Ok(2.0));
        // And calling them twice gives the same (nothing was left behind in the input).
        assert_eq!(median(&xs), Ok(3.0));
    }

    #[test]
    fn extreme_magnitudes_do_not_overflow() {
        let big = [f64::MAX, f64::MAX, f64::MAX / 2.0];
        assert!(mean(&big).unwrap().is_finite());
        assert_eq!(mean(&[f64::MAX, f64::MAX]), Ok(f64::MAX));
        assert_eq!(mean(&[-f64::MAX, f64::MAX]), Ok(0.0));
        assert_eq!(median(&[-f64::MAX, f64::MAX]), Ok(0.0));
        assert_eq!(quantile(&[-f64::MAX, f64::MAX], 0.5), Ok(0.0));
        let sd = std_dev(&[-1e300, 1e300]).unwrap();
        assert!((sd / (2.0f64.sqrt() * 1e300) - 1.0).abs() < 1e-15);
        assert!(matches!(
            variance(&[-1e300, 1e300]),
            Err(Error::Undefined { .. })
        ));
        assert!(matches!(
            iqr(&[-f64::MAX, -f64::MAX, f64::MAX, f64::MAX]),
            Err(Error::Undefined { .. })
        ));
        assert!(matches!(
            mad(&[-f64::MAX, f64::MAX, f64::MAX]),
            Err(Error::Undefined { .. })
        ));
        // Tiny values keep their relative precision.
        let v = variance(&[1e-160, 3e-160]).unwrap();
        assert!((v / 2e-320 - 1.0).abs() < 1e-3, "{v}"); // subnormal result
        let sd = std_dev(&[1e-300, 3e-300]).unwrap();
        assert!((sd / (2.0f64.sqrt() * 1e-300) - 1.0).abs() < 1e-15, "{sd}");
        assert_eq!(mean(&[5e-324, 5e-324]), Ok(5e-324));
    }

    #[test]
    fn constant_sample_has_zero_spread() {
        let xs = [0.1; 7];
        assert_eq!(variance(&xs), Ok(0.0));
        assert_eq!(std_dev(&xs), Ok(0.0));
        assert_eq!(mean(&xs), Ok(0.1));
        assert_eq!(mad(&xs), Ok(0.0));
        assert_eq!(iqr(&xs), Ok(0.0));
    }

    #[test]
    fn scale_is_a_power_of_two() {
        assert_eq!(power_of_two_scale(1.0), 1.0);
        assert_eq!(power_of_two_scale(0.0), 1.0);
        assert_eq!(power_of_two_scale(2f64.powi(600)), 2f64.powi(-600));
        assert_eq!(power_of_two_scale(5e-324), 2f64.powi(1020));
    }
}
