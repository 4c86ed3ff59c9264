//! Order statistics by selection, for code that must not allocate or sort.
//!
//! These helpers assume their input has already been checked (non-empty, finite); the public
//! functions of [`crate::stats`] do that at the boundary.

use std::cmp::Ordering;

/// Total order on finite `f64` used by every selection in the crate.
#[inline]
pub(crate) fn cmp_f64(a: &f64, b: &f64) -> Ordering {
    a.total_cmp(b)
}

/// Median of `buf`, reordering it in place. Even length gives the mean of the two middle
/// values. Time: O(n) expected. `buf` must be non-empty.
pub(crate) fn median_in_place(buf: &mut [f64]) -> f64 {
    let n = buf.len();
    debug_assert!(n > 0);
    let mid = n / 2;
    let (lower, upper_mid, _) = buf.select_nth_unstable_by(mid, cmp_f64);
    let upper = *upper_mid;
    if n % 2 == 1 {
        upper
    } else {
        // The lower middle is the largest value of the left part.
        let lower_max = lower.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        midpoint(lower_max, upper)
    }
}

/// Type-7 quantile (linear interpolation between order statistics, h = (n−1)·q) of an
/// already sorted, non-empty slice. `q` must lie in [0, 1].
pub(crate) fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    debug_assert!(n > 0 && (0.0..=1.0).contains(&q));
    let h = (n - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    let frac = h - lo as f64;
    if frac == 0.0 || lo == hi {
        sorted[lo]
    } else {
        sorted[lo] + frac * (sorted[hi] - sorted[lo])
    }
}

/// Midpoint of two finite values that neither overflows nor underflows: `a/2 + b/2` lost the
/// smallest subnormals (the median of `[5e-324, 5e-324]` came out as 0, below its minimum).
#[inline]
pub(crate) fn midpoint(a: f64, b: f64) -> f64 {
    f64::midpoint(a, b)
}
