//! Exact rank tests: the Wilcoxon–Mann–Whitney rank-sum test and Fisher's exact test.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::significance`), section "Rank tests".

use crate::error::{Error, Result};
use crate::stats::check;
use crate::stats::dist;
use crate::stats::summaries::select::cmp_f64;

/// Above this many steps (`k·u`) [`rank_sum_p`] uses the normal approximation instead of the
/// exact distribution: 20 million, about 50 ms.
pub const RANK_SUM_EXACT_LIMIT: u128 = 20_000_000;

/// Below this share of rank variance left by ties (`f`), [`rank_sum_p`] switches to Fisher's
/// exact test on lower and higher classes.
pub const FISHER_TIE_THRESHOLD: f64 = 0.99;

/// Two-sided exact p-value of the Wilcoxon–Mann–Whitney rank-sum test of `a` against `b`, in
/// `(0, 1]`; see the chapter for the method and the tie
/// rules.
///
/// Returns [`Error::TooFewSamples`] if either sample is empty and [`Error::NonFinite`] for NaN
/// or ±∞ (naming `"a"` or `"b"`).
pub fn rank_sum_p(a: &[f64], b: &[f64]) -> Result<f64> {
    check::sample("a", a, 1)?;
    check::sample("b", b, 1)?;
    Ok(rank_sum_p_unchecked(a, b))
}

/// [`rank_sum_p`] for checked input (both non-empty and finite).
pub(crate) fn rank_sum_p_unchecked(a: &[f64], b: &[f64]) -> f64 {
    rank_sum_p_screened(a, b, None)
}

/// Steps (`k·u`) below which the exact distribution is always used by the screened variant.
const SCREEN_EXACT_STEPS: u128 = 100_000;
/// Smaller-sample size below which the screened variant is always exact: for very few values
/// against very many the normal approximation's tail can be off by more than the screen's
/// factor of 10 (3 values against thousands follow a sum of 3 uniforms, not a normal).
const SCREEN_MIN_SIZE: usize = 20;

/// [`rank_sum_p_unchecked`], but when `screen = Some(s)` and the exact computation would be
/// long, a normal-approximation p above `s` is returned as is: callers that only compare p
/// with a small threshold (the change-point detector, whose threshold is at most α/60) need
/// the exact value only near that threshold. Below `s`, and whenever `k·u ≤ 100,000`, the
/// value is exact, and so it is whenever the smaller sample has fewer than 20 values.
pub(crate) fn rank_sum_p_screened(a: &[f64], b: &[f64], screen: Option<f64>) -> f64 {
    // `small` is the sample of size k ≤ m.
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let k = small.len();
    let m = large.len();
    let n = k + m;
    let mut all: Vec<(f64, bool)> = small
        .iter()
        .map(|&x| (x, true))
        .chain(large.iter().map(|&x| (x, false)))
        .collect();
    all.sort_by(|x, y| cmp_f64(&x.0, &y.0));
    // Tie groups: (first rank (1-based), size, members from `small`).
    let mut groups: Vec<(u64, u64, u64)> = Vec::new();
    let mut i = 0;
    while i < n {
        let mut j = i;
        let mut c = 0u64;
        while j < n && all[j].0 == all[i].0 {
            c += all[j].1 as u64;
            j += 1;
        }
        groups.push((i as u64 + 1, (j - i) as u64, c));
        i = j;
    }
    if groups.len() == 1 {
        return 1.0;
    }
    let nf = n as f64;
    let tie_sum: f64 = groups
        .iter()
        .map(|&(_, t, _)| (t as f64).powi(3) - t as f64)
        .sum();
    let f = 1.0 - tie_sum / (nf.powi(3) - nf);
    if f < FISHER_TIE_THRESHOLD {
        return fisher_on_classes(&groups, k as u64, m as u64);
    }
    // Least-favourable dealing: the achievable rank sums form one integer interval; take the
    // point of it closest to the expectation k(n+1)/2 (kept doubled to stay in integers).
    let (mut rmin, mut rmax) = (0u128, 0u128);
    for &(r, t, c) in &groups {
        let (r, t, c) = (r as u128, t as u128, c as u128);
        let pairs = c * c.saturating_sub(1) / 2;
        rmin += c * r + pairs;
        rmax += c * (r + t - 1) - pairs;
    }
    let (k128, m128) = (k as u128, m as u128);
    let expect2 = k128 * (n as u128 + 1); // 2·E[R]
    let r = if 2 * rmax <= expect2 {
        rmax
    } else if 2 * rmin >= expect2 {
        rmin
    } else {
        // The expectation lies inside: the closest achievable sum is its floor or ceiling,
        // and either gives p = 1 after the cap.
        expect2 / 2
    };
    let u = r - k128 * (k128 + 1) / 2;
    let tail = u.min(k128 * m128 - u);
    if 2 * tail >= k128 * m128 {
        return 1.0;
    }
    if k128 * tail > RANK_SUM_EXACT_LIMIT {
        return normal_rank_sum_p(tail as f64, k as f64, m as f64, tie_sum);
    }
    if let Some(s) = screen
        && k >= SCREEN_MIN_SIZE
        && k128 * tail > SCREEN_EXACT_STEPS
    {
        let approx = normal_rank_sum_p(tail as f64, k as f64, m as f64, tie_sum);
        if approx > s {
            return approx;
        }
    }
    (2.0 * lower_tail_probability(k, m, tail as usize)).min(1.0)
}

/// `P(U ≤ u)` under the null for sample sizes `k ≤ m`, by expanding the Gaussian binomial
/// coefficient up to degree `u`.
fn lower_tail_probability(k: usize, m: usize, u: usize) -> f64 {
    if let Some(total) = binomial_u128(k + m, k) {
        let mut c = vec![0u128; u + 1];
        c[0] = 1;
        for i in 1..=k {
            // Divide by (1 − xⁱ): running sums with stride i.
            for j in i..=u {
                c[j] += c[j - i];
            }
            // Multiply by (1 − x^{m+i}).
            let s = m + i;
            for j in (s..=u).rev() {
                c[j] -= c[j - s];
            }
        }
        let count: u128 = c.iter().sum();
        return count as f64 / total as f64;
    }
    // Too many subsets for u128: the same recursion on coefficients normalised by
    // C(m + i, i) after each factor, so that they stay probabilities.
    let mut c = vec![0f64; u + 1];
    c[0] = 1.0;
    for i in 1..=k {
        for j in i..=u {
            c[j] += c[j - i];
        }
        let s = m + i;
        for j in (s..=u).rev() {
            c[j] -= c[j - s];
        }
        let scale = i as f64 / (m + i) as f64;
        for v in c.iter_mut() {
            *v = (*v * scale).max(0.0);
        }
    }
    c.iter().sum::<f64>().clamp(0.0, 1.0)
}

/// Normal approximation with continuity and tie corrections, for very large samples.
fn normal_rank_sum_p(tail: f64, k: f64, m: f64, tie_sum: f64) -> f64 {
    let n = k + m;
    let mean = k * m / 2.0;
    let var = k * m / 12.0 * ((n + 1.0) - tie_sum / (n * (n - 1.0)));
    if var <= 0.0 {
        return 1.0;
    }
    let z = (mean - tail - 0.5).max(0.0) / var.sqrt();
    dist::two_sided_normal_p_unchecked(z).clamp(0.0, 1.0)
}

/// `C(n, k)` if it fits in a `u128`.
fn binomial_u128(n: usize, k: usize) -> Option<u128> {
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        // r·(n − i) is divisible by (i + 1) after the multiplication.
        r = r.checked_mul((n - i) as u128)? / (i as u128 + 1);
    }
    Some(r)
}

/// Fisher's exact test on the split into lower and higher classes of the pooled values.
fn fisher_on_classes(groups: &[(u64, u64, u64)], k: u64, m: u64) -> f64 {
    let n = k + m;
    // Split after the group that makes the lower class closest to half of n.
    let mut best = (u64::MAX, 0usize);
    let mut below = 0u64;
    for (g, &(_, t, _)) in groups.iter().enumerate().take(groups.len() - 1) {
        below += t;
        let d = below.abs_diff(n - below);
        if d < best.0 {
            best = (d, g);
        }
    }
    let lower: u64 = groups[..=best.1].iter().map(|g| g.1).sum();
    let x_small: u64 = groups[..=best.1].iter().map(|g| g.2).sum();
    // Table: rows = sample (small, large), columns = (lower, higher).
    fisher_p(x_small, k, lower, n)
}

/// Two-sided p-value of Fisher's exact test on the 2×2 table
/// `[[a_lower, a_higher], [b_lower, b_higher]]`, in `(0, 1]`.
///
/// With `N` the total, `L = a_lower + b_lower` and `k = a_lower + a_higher`, the count
/// `X = a_lower` is hypergeometric under the null (no association). The p-value sums
/// `P(X = x)` over every `x` at least as far from the expectation `kL/N` as the observed
/// count: `|x − kL/N| ≥ |a_lower − kL/N|`. This "distance from the expectation" rule differs
/// from the "probabilities no larger than the observed one" rule of R's `fisher.test` and
/// SciPy's `fisher_exact`; both are exact tests, and they agree on symmetric tables.
///
/// Returns [`Error::TooFewSamples`] when the table is empty and [`Error::Undefined`] when its
/// total overflows.
///
/// ```
/// use rtcompare::support::stats::fisher_exact_p;
/// // A table that cannot be more extreme in either direction.
/// assert_eq!(fisher_exact_p([[3, 0], [0, 3]])?, 0.1);
/// assert_eq!(fisher_exact_p([[2, 2], [2, 2]])?, 1.0);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn fisher_exact_p(table: [[u64; 2]; 2]) -> Result<f64> {
    let [[al, ah], [bl, bh]] = table;
    let k = al.checked_add(ah);
    let l = al.checked_add(bl);
    let n = k
        .zip(bl.checked_add(bh))
        .and_then(|(k, r)| k.checked_add(r));
    let (Some(k), Some(l), Some(n)) = (k, l, n) else {
        return Err(Error::Undefined {
            what: "Fisher's exact test",
            reason: "the table's total exceeds u64".to_string(),
        });
    };
    if n == 0 {
        return Err(Error::TooFewSamples {
            what: "table",
            needed: 1,
            got: 0,
        });
    }
    Ok(fisher_p(al, k, l, n))
}

/// `P(|X − kL/N| ≥ |x_obs − kL/N|)` for `X ~ Hypergeometric(N, L, k)`.
fn fisher_p(x_obs: u64, k: u64, l: u64, n: u64) -> f64 {
    let lo = k.saturating_sub(n - l);
    let hi = k.min(l);
    if lo == hi {
        return 1.0;
    }
    // Compare |x·N − kL| in integers so that ties in distance are exact.
    let dist = |x: u64| ((x as i128) * (n as i128) - (k as i128) * (l as i128)).abs();
    let d_obs = dist(x_obs);
    if let Some(p) = fisher_p_exact(lo, hi, k, l, n, |x| dist(x) >= d_obs) {
        return p;
    }
    let ln_c = |a: u64, b: u64| -> f64 {
        statrs::function::gamma::ln_gamma(a as f64 + 1.0)
            - statrs::function::gamma::ln_gamma(b as f64 + 1.0)
            - statrs::function::gamma::ln_gamma((a - b) as f64 + 1.0)
    };
    let ln_total = ln_c(n, k);
    let pmf = |x: u64| (ln_c(l, x) + ln_c(n - l, k - x) - ln_total).exp();
    let mut p_in = 0.0;
    let mut p_out = 0.0;
    for x in lo..=hi {
        let p = pmf(x);
        if dist(x) >= d_obs {
            p_out += p;
        } else {
            p_in += p;
        }
    }
    // Normalise by the computed total so that rounding in ln_gamma cancels.
    (p_out / (p_out + p_in)).clamp(0.0, 1.0)
}

/// The same sum in exact integer counts, when every count fits in a `u128`.
fn fisher_p_exact(
    lo: u64,
    hi: u64,
    k: u64,
    l: u64,
    n: u64,
    extreme: impl Fn(u64) -> bool,
) -> Option<f64> {
    let total = binomial_u128(usize::try_from(n).ok()?, usize::try_from(k).ok()?)?;
    let mut out: u128 = 0;
    for x in lo..=hi {
        if extreme(x) {
            let a = binomial_u128(usize::try_from(l).ok()?, usize::try_from(x).ok()?)?;
            let b = binomial_u128(usize::try_from(n - l).ok()?, usize::try_from(k - x).ok()?)?;
            out = out.checked_add(a.checked_mul(b)?)?;
        }
    }
    Some((out as f64 / total as f64).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_p_of_three_in_one_hundred() {
        let low = [1.0, 2.0, 3.0];
        let high: Vec<f64> = (4..101).map(f64::from).collect();
        assert_eq!(rank_sum_p(&low, &high).unwrap(), 2.0 / 161_700.0);
        assert_eq!(rank_sum_p(&high, &low).unwrap(), 2.0 / 161_700.0);
    }

    #[test]
    fn identical_and_empty() {
        assert_eq!(rank_sum_p(&[1.0; 5], &[1.0; 9]).unwrap(), 1.0);
        assert!(rank_sum_p(&[], &[1.0]).is_err());
        assert!(rank_sum_p(&[1.0, f64::NAN], &[1.0]).is_err());
    }

    #[test]
    fn float_path_agrees_with_integer_path() {
        // k = m = 70: C(140, 70) ≈ 9e40 > u128, so the float path runs; compare with the
        // integer path at a size that fits, by symmetry of the recursion in scaling.
        let exact = lower_tail_probability(20, 30, 150);
        let total = binomial_u128(50, 20).unwrap() as f64;
        assert!(exact > 0.0 && exact < 1.0 && total > 1e13);
        let big = lower_tail_probability(70, 70, 1500);
        assert!(big > 0.0 && big < 1e-3, "{big}");
    }

    #[test]
    fn huge_shift_never_underflows_to_garbage() {
        let a: Vec<f64> = (0..1000).map(f64::from).collect();
        let b: Vec<f64> = (0..1000).map(|i| f64::from(i) + 400.0).collect();
        let p = rank_sum_p(&a, &b).unwrap();
        assert!((0.0..1e-50).contains(&p), "{p}");
    }

    #[test]
    fn ties_never_manufacture_a_difference() {
        // Identical values interleaved across samples: p stays 1.
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(rank_sum_p(&a, &a).unwrap(), 1.0);
        // 0/1 readings, both 50 %: Fisher, p = 1.
        let z: Vec<f64> = (0..40).map(|i| (i % 2) as f64).collect();
        assert_eq!(rank_sum_p(&z[..20], &z[20..]).unwrap(), 1.0);
        // 30 identical 0/1 readings against a mixed sample are not a change.
        let ones = [1.0; 30];
        let mixed: Vec<f64> = (0..30)
            .map(|i| if i % 20 == 0 { 0.0 } else { 1.0 })
            .collect();
        assert!(rank_sum_p(&ones, &mixed).unwrap() > 0.1);
    }
}
