//! The normal and Student's t distributions, with their arguments checked.
//!
//! The explanation users read is in `stats/mod.rs`, section "Distributions".

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};
use statrs::function::beta;

use crate::error::{Error, Result};
use crate::stats::check;

/// Above this many degrees of freedom, Student's t is computed from its Edgeworth expansion
/// around the normal (two terms), whose error there is below 1e-15 in absolute terms; statrs'
/// incomplete beta function, used below it, loses accuracy for such large shape parameters.
const T_EDGEWORTH_DF: f64 = 1e5;

fn standard_normal() -> Normal {
    // Mean 0 and standard deviation 1 are always accepted by statrs.
    Normal::standard()
}

fn check_x(x: f64) -> Result<()> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(Error::out_of_range("x", x, "a finite number"))
    }
}

fn check_df(df: f64) -> Result<()> {
    if df.is_finite() && df > 0.0 {
        Ok(())
    } else {
        Err(Error::out_of_range("df", df, "0 < df < ∞"))
    }
}

fn check_p(p: f64) -> Result<()> {
    check::open_unit("p", p)
}

/// `P(T ≤ x)` for `x ≤ 0` (the lower tail, computed directly so that small probabilities keep
/// their relative precision), for checked `df`.
fn t_lower_tail(x: f64, df: f64) -> f64 {
    debug_assert!(x <= 0.0 && df > 0.0 && df.is_finite());
    if df > T_EDGEWORTH_DF {
        let normal = standard_normal().cdf(x);
        let density = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
        if density == 0.0 {
            return normal;
        }
        let x2 = x * x;
        let g1 = x * (x2 + 1.0) / 4.0;
        let g2 = x * (((3.0 * x2 - 7.0) * x2 - 5.0) * x2 - 3.0) / 96.0;
        let v = normal - density * (g1 / df + g2 / (df * df));
        return if v.is_finite() {
            v.clamp(0.0, 0.5)
        } else {
            normal
        };
    }
    // P(T ≤ x) = I_h(ν/2, 1/2) / 2 with h = ν/(ν + x²), the regularised incomplete beta
    // function. For ordinary x this is statrs' own formula; for |x| so large that x² would
    // overflow, or h so small that the leading term of the series
    // I_h(a, b) = h^a / (a·B(a, b)) · (1 + O(h)) is exact to double precision, it is evaluated
    // in logarithms, so heavy tails do not collapse to 0.
    let a = df / 2.0;
    let r = df.sqrt() / x.abs(); // h = r²/(1 + r²)
    if r < 1e-15 {
        let ln_h = 2.0 * r.ln() - (r * r).ln_1p();
        let ln_i = match beta::checked_ln_beta(a, 0.5) {
            Ok(lb) => a * ln_h - a.ln() - lb,
            Err(_) => f64::NEG_INFINITY,
        };
        return (0.5 * ln_i.exp()).clamp(0.0, 0.5);
    }
    // Here x² ≤ 10³⁰·ν is finite, so h lies in (0, 1] and statrs' CDF cannot panic.
    match StudentsT::new(0.0, 1.0, df) {
        Ok(t) => t.cdf(x).clamp(0.0, 0.5),
        // Unreachable for checked `df`; the normal is the safe limit.
        Err(_) => standard_normal().cdf(x),
    }
}

/// `P(Z ≤ x)` for a standard normal `Z`, in `[0, 1]` (accurate to about 1e-10 relative).
///
/// Returns [`Error::OutOfRange`] if `x` is NaN or ±∞.
pub fn normal_cdf(x: f64) -> Result<f64> {
    check_x(x)?;
    Ok(standard_normal().cdf(x).clamp(0.0, 1.0))
}

/// The standard normal quantile: the `x` with `P(Z ≤ x) = p` (for example 1.959964 for
/// `p = 0.975`).
///
/// Returns [`Error::OutOfRange`] unless `0 < p < 1` (the quantiles at 0 and 1 are infinite).
pub fn normal_quantile(p: f64) -> Result<f64> {
    check_p(p)?;
    Ok(standard_normal().inverse_cdf(p))
}

/// `P(T ≤ x)` for a standard Student's t variable `T` with `df` degrees of freedom, in
/// `[0, 1]`. Non-integer `df` is allowed (Welch's test produces them). Accurate to about 1e-10
/// relative in the body of the distribution for every `df`.
///
/// Returns [`Error::OutOfRange`] if `x` is not finite or `df` is not a finite positive number.
pub fn student_t_cdf(x: f64, df: f64) -> Result<f64> {
    check_x(x)?;
    check_df(df)?;
    Ok(if x <= 0.0 {
        t_lower_tail(x, df)
    } else {
        1.0 - t_lower_tail(-x, df)
    })
}

/// The Student's t quantile: the `x` with `P(T ≤ x) = p` for `df` degrees of freedom (for
/// example 2.776445 for `p = 0.975`, `df = 4`).
///
/// It is found by bisection on [`student_t_cdf`] (at most about 64 evaluations after
/// bracketing), which stays accurate where statrs' own inverse is not (small `df`, `p` near 0
/// or 1).
///
/// Returns [`Error::OutOfRange`] unless `0 < p < 1` and `df` is a finite positive number, and
/// [`Error::Undefined`] if the quantile is too large to represent as an `f64` (this happens for
/// `df` well below 1, whose tails are extremely heavy).
pub fn student_t_quantile(p: f64, df: f64) -> Result<f64> {
    check_p(p)?;
    check_df(df)?;
    if p == 0.5 {
        return Ok(0.0);
    }
    // Work in the lower tail; 1 − p is exact for p ≥ 0.5.
    let (tail, sign) = if p < 0.5 { (p, -1.0) } else { (1.0 - p, 1.0) };
    let cdf_at = |m: f64| t_lower_tail(-m, df);
    // Bracket: find a magnitude `hi` with P(T ≤ −hi) ≤ tail.
    let mut hi = 1.0f64;
    while cdf_at(hi) > tail {
        hi *= 2.0;
        if !hi.is_finite() {
            if cdf_at(f64::MAX) > tail {
                return Err(Error::Undefined {
                    what: "student_t_quantile",
                    reason: format!(
                        "the quantile at p = {p} with df = {df} exceeds the largest f64"
                    ),
                });
            }
            hi = f64::MAX;
            break;
        }
    }
    // Bisect on the bit patterns of non-negative floats, which are ordered like the floats:
    // at most 64 steps to adjacent values.
    let (mut lo_bits, mut hi_bits) = (0u64, hi.to_bits());
    while hi_bits - lo_bits > 1 {
        let mid = lo_bits + (hi_bits - lo_bits) / 2;
        if cdf_at(f64::from_bits(mid)) <= tail {
            hi_bits = mid;
        } else {
            lo_bits = mid;
        }
    }
    let (lo, hi) = (f64::from_bits(lo_bits), f64::from_bits(hi_bits));
    let m = if (cdf_at(lo) - tail).abs() < (cdf_at(hi) - tail).abs() {
        lo
    } else {
        hi
    };
    Ok(sign * m)
}

/// Two-sided p-value of a standard normal statistic: `P(|Z| ≥ |z|) = erfc(|z|/√2)`, in
/// `[0, 1]` (accurate to about 1e-10 relative). `z = 0` gives 1.
///
/// Returns [`Error::OutOfRange`] if `z` is NaN or ±∞.
pub fn two_sided_normal_p(z: f64) -> Result<f64> {
    if !z.is_finite() {
        return Err(Error::out_of_range("z", z, "a finite number"));
    }
    Ok(two_sided_normal_p_unchecked(z))
}

/// [`two_sided_normal_p`] for a `z` known to be finite.
/// P(X ≥ k) for X ~ Binomial(n, 1/2): the sign test's one-sided p-value when `k` of `n`
/// observations lie on one side. Exact, summed in log space; 1 for `k` = 0, 0 for `k` > `n`.
pub(crate) fn sign_test_tail(n: usize, k: usize) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    let ln_factorial = |x: usize| statrs::function::gamma::ln_gamma(x as f64 + 1.0);
    let ln_all = n as f64 * std::f64::consts::LN_2;
    (k..=n)
        .map(|i| (ln_factorial(n) - ln_factorial(i) - ln_factorial(n - i) - ln_all).exp())
        .sum::<f64>()
        .min(1.0)
}

pub(crate) fn two_sided_normal_p_unchecked(z: f64) -> f64 {
    statrs::function::erf::erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
}

/// Two-sided p-value of a Student's t statistic, `2·P(T ≤ −|t|)`, in `[0, 1]`, for a `t` that
/// is not NaN and a finite positive `df`. An infinite `t` gives 0.
pub(crate) fn two_sided_t_p_unchecked(t: f64, df: f64) -> f64 {
    if t.is_infinite() {
        return 0.0;
    }
    (2.0 * t_lower_tail(-t.abs(), df)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sign_test_tail_matches_scipy() {
        // scipy.stats.binom.sf(k - 1, n, 0.5) for (n, k) = (5, 5), (10, 9), (20, 15), (30, 21).
        for (n, k, want) in [
            (5, 5, 0.03125),
            (10, 9, 0.0107421875),
            (20, 15, 0.020694732666015625),
            (30, 21, 0.021386972628533847),
        ] {
            let got = sign_test_tail(n, k);
            assert!(
                (got - want).abs() < 1e-12,
                "({n}, {k}): {got} against {want}"
            );
        }
        assert_eq!(sign_test_tail(5, 0), 1.0);
        assert_eq!(sign_test_tail(5, 6), 0.0);
    }

    #[test]
    fn bad_arguments_are_errors() {
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(matches!(
                normal_cdf(x),
                Err(Error::OutOfRange { name: "x", .. })
            ));
            assert!(matches!(
                student_t_cdf(x, 3.0),
                Err(Error::OutOfRange { name: "x", .. })
            ));
            assert!(matches!(
                two_sided_normal_p(x),
                Err(Error::OutOfRange { name: "z", .. })
            ));
        }
        for p in [0.0, 1.0, -0.5, 1.5, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                normal_quantile(p),
                Err(Error::OutOfRange { name: "p", .. })
            ));
            assert!(matches!(
                student_t_quantile(p, 3.0),
                Err(Error::OutOfRange { name: "p", .. })
            ));
        }
        for df in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(matches!(
                student_t_cdf(0.5, df),
                Err(Error::OutOfRange { name: "df", .. })
            ));
            assert!(matches!(
                student_t_quantile(0.5, df),
                Err(Error::OutOfRange { name: "df", .. })
            ));
        }
    }

    #[test]
    fn extreme_but_valid_arguments_stay_in_range() {
        for x in [-1e300, -40.0, 0.0, 40.0, 1e300, f64::MAX, -f64::MAX] {
            let c = normal_cdf(x).unwrap();
            assert!((0.0..=1.0).contains(&c), "{x}");
            for df in [1e-300, 1e-3, 0.5, 1.0, 30.0, 1e6, 1e13, 1e300, f64::MAX] {
                let c = student_t_cdf(x, df).unwrap();
                assert!((0.0..=1.0).contains(&c), "x {x} df {df}: {c}");
            }
        }
        for p in [1e-300, 1e-10, 0.5, 1.0 - 1e-10] {
            assert!(normal_quantile(p).unwrap().is_finite());
            for df in [0.5, 1.0, 30.0, 1e6, 1e13, 1e300] {
                let q = match student_t_quantile(p, df) {
                    Err(Error::Undefined { .. }) if df < 1.0 => continue,
                    other => other.unwrap(),
                };
                assert!(q.is_finite(), "p {p} df {df}");
                let back = student_t_cdf(q, df).unwrap();
                assert!(
                    (back - p).abs() <= 1e-9 * p.min(1.0 - p).max(1e-300),
                    "p {p} df {df}: {back}"
                );
            }
        }
        assert!(matches!(
            student_t_quantile(0.01, 1e-3),
            Err(Error::Undefined { .. })
        ));
        assert_eq!(two_sided_normal_p(0.0), Ok(1.0));
        assert_eq!(two_sided_normal_p(f64::MAX), Ok(0.0));
    }
}
