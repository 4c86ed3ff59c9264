//! The statistics of service mode, on recorded latencies only: percentiles of pooled windows,
//! their block-bootstrap intervals over windows, and the paired comparison of two targets'
//! window percentiles. Pure: no clock, thread or socket is touched here.

use crate::Result;
use crate::schedule::Pair;
use rtcompare::stats::{self, Estimate, auto_block_length};
use rtcompare::support::compare::AUTOCORRELATION_THRESHOLD;
use rtcompare::support::rng::Rng;
use rtcompare::support::stats::moving_block_indices;

/// One window's latencies as a distribution: distinct values in increasing order with the
/// cumulative count at each (the last is the window's number of latencies).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct WindowDist {
    values: Vec<u64>,
    cum: Vec<u64>,
}

impl WindowDist {
    /// From raw latencies in any order.
    pub fn from_raw(raw: &[u64]) -> Self {
        let mut v = raw.to_vec();
        v.sort_unstable();
        let mut values = Vec::new();
        let mut cum = Vec::new();
        let mut n = 0u64;
        for x in v {
            n += 1;
            if values.last() == Some(&x) {
                *cum.last_mut().expect("pushed with the value") = n;
            } else {
                values.push(x);
                cum.push(n);
            }
        }
        WindowDist { values, cum }
    }

    /// From `(value, count)` pairs in increasing order of value (a histogram's buckets).
    pub fn from_counts(pairs: impl IntoIterator<Item = (u64, u64)>) -> Self {
        let mut values = Vec::new();
        let mut cum = Vec::new();
        let mut n = 0u64;
        for (v, c) in pairs {
            if c == 0 {
                continue;
            }
            n += c;
            values.push(v);
            cum.push(n);
        }
        WindowDist { values, cum }
    }

    /// Number of latencies.
    pub fn len(&self) -> u64 {
        self.cum.last().copied().unwrap_or(0)
    }

    /// Latencies at or below `v`.
    fn count_le(&self, v: u64) -> u64 {
        let k = self.values.partition_point(|&x| x <= v);
        if k == 0 { 0 } else { self.cum[k - 1] }
    }

    /// The `p` percentile: the smallest value with at least `⌈p·n⌉` latencies at or below it
    /// (the definition HdrHistogram uses), `None` for an empty window.
    pub fn quantile(&self, p: f64) -> Option<u64> {
        let n = self.len();
        if n == 0 {
            return None;
        }
        let rank = rank(p, n);
        let k = self.cum.partition_point(|&c| c < rank);
        Some(self.values[k.min(self.values.len() - 1)])
    }
}

/// `⌈p·n⌉`, at least 1 and at most `n`.
fn rank(p: f64, n: u64) -> u64 {
    ((p * n as f64).ceil() as u64).clamp(1, n)
}

/// The `p` percentile of the windows pooled, window `w` counted `weights[w]` times. `union` is
/// the sorted distinct values of all windows. `None` when the pool is empty.
fn pooled_quantile(windows: &[WindowDist], weights: &[u64], union: &[u64], p: f64) -> Option<u64> {
    let n: u64 = windows.iter().zip(weights).map(|(w, &m)| m * w.len()).sum();
    if n == 0 {
        return None;
    }
    let rank = rank(p, n);
    let count = |v: u64| -> u64 {
        windows
            .iter()
            .zip(weights)
            .filter(|(_, m)| **m > 0)
            .map(|(w, &m)| m * w.count_le(v))
            .sum()
    };
    // The smallest value of the union whose pooled count reaches the rank.
    let (mut lo, mut hi) = (0usize, union.len() - 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if count(union[mid]) >= rank {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(union[lo])
}

/// A percentile of pooled windows with its interval, in the latencies' unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PooledPercentile {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The `p` percentile of all windows pooled, with a moving-block bootstrap interval over the
/// windows (blocks of [`auto_block_length`] windows, so that the correlation of neighbouring
/// windows stays in the interval). `None` when the windows hold no latency.
pub(crate) fn pooled_percentile(
    windows: &[WindowDist],
    p: f64,
    level: f64,
    resamples: usize,
    seed: u64,
) -> Result<Option<PooledPercentile>> {
    let k = windows.len();
    let mut union: Vec<u64> = windows
        .iter()
        .flat_map(|w| w.values.iter().copied())
        .collect();
    union.sort_unstable();
    union.dedup();
    if union.is_empty() {
        return Ok(None);
    }
    let ones = vec![1u64; k];
    let Some(value) = pooled_quantile(windows, &ones, &union, p) else {
        return Ok(None);
    };
    let block = auto_block_length(k);
    let mut rng = Rng::new(seed);
    let mut idx = vec![0usize; k];
    let mut weights = vec![0u64; k];
    let mut reps = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        moving_block_indices(&mut rng, k, block, &mut idx)?;
        weights.iter_mut().for_each(|w| *w = 0);
        for &i in &idx {
            weights[i] += 1;
        }
        // A replicate of windows that are all empty has no percentile; skip it.
        if let Some(q) = pooled_quantile(windows, &weights, &union, p) {
            reps.push(q as f64);
        }
    }
    if reps.is_empty() {
        return Ok(None);
    }
    let alpha = (1.0 - level) / 2.0;
    Ok(Some(PooledPercentile {
        value: value as f64,
        low: stats::quantile(&reps, alpha)?,
        high: stats::quantile(&reps, 1.0 - alpha)?,
    }))
}

/// `1 − x / y`, the relative difference of two pooled percentiles; `None` when `y` is zero.
fn relative(x: u64, y: u64) -> Option<f64> {
    (y > 0).then(|| 1.0 - x as f64 / y as f64)
}

/// The error of a paired ratio of pooled percentiles that cannot be computed, for `reason`.
fn undefined_ratio(reason: String) -> crate::Error {
    crate::Error::Undefined {
        what: "paired ratio of pooled window percentiles",
        reason,
    }
}

/// The distinct latencies of every window the pairs of `units` name, ascending. Errors:
/// [`Error::Undefined`](crate::Error::Undefined) when there is no pair, a pair names a window
/// beyond `windows`, or the windows hold no latency.
fn paired_values(windows: &[WindowDist], units: &[Vec<Pair>]) -> Result<Vec<u64>> {
    if units.is_empty() || units.iter().any(Vec::is_empty) {
        return Err(undefined_ratio(
            "no pair of windows to compare (a resampling unit without pairs)".into(),
        ));
    }
    if let Some(&(x, y)) = units
        .iter()
        .flatten()
        .find(|&&(x, y)| x.max(y) >= windows.len())
    {
        return Err(undefined_ratio(format!(
            "the pair ({x}, {y}) names a window beyond the {} recorded",
            windows.len()
        )));
    }
    let mut union: Vec<u64> = units
        .iter()
        .flatten()
        .flat_map(|&(x, y)| [x, y])
        .flat_map(|w| windows[w].values.iter().copied())
        .collect();
    union.sort_unstable();
    union.dedup();
    if union.is_empty() {
        return Err(undefined_ratio(
            "the windows of the pairs hold no latency".into(),
        ));
    }
    Ok(union)
}

/// The paired statistic of `units` and its bootstrap replicates: `δ = 1 − Q(firsts) /
/// Q(seconds)`, the `p` percentile of the first windows of all pairs pooled against that of
/// their second windows pooled, with the *units* resampled in moving blocks of `block`.
///
/// A unit is the pairs that share their stretches of time ([`stretches`]): under the
/// interleaved schedule the two A/B pairs of one window, under ABBA windows each pair alone.
/// A replicate takes every pair of each unit it draws and both windows of each pair, so what
/// the pairs of a stretch shared stays shared. Drawing the pairs one by one instead would treat
/// the two pairs of an interleaved window as independent draws, when whatever the machine did
/// in that window moved both alike, and the interval would claim about √2 times the precision
/// the windows hold.
///
/// [`stretches`]: crate::schedule::stretches
fn paired_pooled(
    windows: &[WindowDist],
    units: &[Vec<Pair>],
    p: f64,
    resamples: usize,
    block: usize,
    seed: u64,
) -> Result<(f64, Vec<f64>)> {
    let union = paired_values(windows, units)?;
    // Window multiplicities of the first and of the second windows of the drawn pairs.
    let mut wx = vec![0u64; windows.len()];
    let mut wy = vec![0u64; windows.len()];
    let both = |wx: &[u64], wy: &[u64]| {
        pooled_quantile(windows, wx, &union, p)
            .zip(pooled_quantile(windows, wy, &union, p))
            .and_then(|(x, y)| relative(x, y))
    };
    let add = |unit: &[Pair], wx: &mut [u64], wy: &mut [u64]| {
        for &(x, y) in unit {
            wx[x] += 1;
            wy[y] += 1;
        }
    };
    for unit in units {
        add(unit, &mut wx, &mut wy);
    }
    let delta = both(&wx, &wy).ok_or_else(|| {
        undefined_ratio(format!(
            "the pooled p{} of the second windows is 0 ns",
            100.0 * p
        ))
    })?;
    let n = units.len();
    let mut rng = Rng::new(seed);
    let mut idx = vec![0usize; n];
    let mut reps = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        moving_block_indices(&mut rng, n, block, &mut idx)?;
        wx.iter_mut().for_each(|w| *w = 0);
        wy.iter_mut().for_each(|w| *w = 0);
        for &k in &idx {
            add(&units[k], &mut wx, &mut wy);
        }
        // A replicate whose second windows pool to 0 ns has no ratio; it is left out.
        if let Some(d) = both(&wx, &wy) {
            reps.push(d);
        }
    }
    if reps.is_empty() {
        return Err(undefined_ratio(
            "every bootstrap replicate pooled the second windows to 0 ns".into(),
        ));
    }
    Ok((delta, reps))
}

/// The paired comparison of one percentile `p` over `windows`: `ab` are the A/B pairs (A's
/// window first), `aa` the A/A pairs, each grouped into the units the bootstrap draws whole
/// (the pairs that share a stretch of time, [`stretches`]). Returns the estimate of
/// `δ = 1 − Q_A / Q_B`, the `p` percentile of A's paired windows pooled against B's, with its
/// percentile bootstrap interval over the units (in moving blocks when the lag-1
/// autocorrelation of the units' window-percentile ratios exceeds 0.2, the library's rule),
/// and the A/A noise floor: the `level` quantile of `|δ*|` over the same bootstrap of the A/A
/// units.
///
/// Pooling, not a mean or median of per-pair ratios: a window of a hundred requests pins its
/// own p50 down poorly when the latency distribution has two modes (on the development
/// machine the host ran the handler at 27 µs or at 37–46 µs for stretches of milliseconds to
/// tenths of a second, and the log of a 100-request window's p50 had a standard deviation of
/// 0.10–0.16), while the p50 of all pairs pooled rests on every request.
///
/// [`stretches`]: crate::schedule::stretches
pub(crate) fn paired_percentile(
    windows: &[WindowDist],
    ab: &[Vec<Pair>],
    aa: &[Vec<Pair>],
    p: f64,
    level: f64,
    resamples: usize,
    seed: u64,
) -> Result<(Estimate, f64)> {
    let q = |w: usize| {
        windows
            .get(w)
            .and_then(|d| d.quantile(p))
            .map_or(f64::NAN, |v| v as f64)
    };
    // One ratio per unit (the mean of its pairs'), so that the block rule looks at the
    // sequence the bootstrap draws from.
    let ratios: Vec<f64> = ab
        .iter()
        .map(|unit| unit.iter().map(|&(a, b)| q(a) / q(b)).sum::<f64>() / unit.len() as f64)
        .collect();
    let block = rtcompare::support::stats::ratio_block_length(&ratios, AUTOCORRELATION_THRESHOLD);
    let (delta, reps) = paired_pooled(windows, ab, p, resamples, block, seed)?;
    let alpha = (1.0 - level) / 2.0;
    let estimate = Estimate {
        delta,
        low: stats::quantile(&reps, alpha)?,
        high: stats::quantile(&reps, 1.0 - alpha)?,
        level,
        resamples,
        bootstrap_median: stats::median(&reps)?,
        block_length: block,
        paired: true,
        seed,
    };
    let (_, null) = paired_pooled(
        windows,
        aa,
        p,
        resamples,
        block,
        rtcompare::support::rng::derive_seed(seed, 1),
    )?;
    let abs: Vec<f64> = null.iter().map(|d| d.abs()).collect();
    // The floor's quantile is the interval's level: at 0.99, "identical windows differ by more
    // in one replicate of a hundred", matching what the interval claims.
    let floor = stats::quantile(&abs, level)?;
    Ok((estimate, floor))
}

/// The half-width of the interval of the ratio B/A, `1/(1 − δ)`, as a share of the ratio: how
/// tightly the estimate pins the percentile's ratio down (the width rule of a verdict).
pub(crate) fn relative_half_width(e: &Estimate) -> f64 {
    let r = e.ratio();
    let w = ((r.high - r.low) / 2.0 / r.ratio).abs();
    // δ ≥ 1 at an end means a zero in A: the ratio is unbounded.
    if w.is_finite() && e.high < 1.0 {
        w
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_quantiles_follow_the_rank_rule() {
        let w = WindowDist::from_raw(&[5, 1, 3, 3, 9, 7, 3, 2, 8, 4]);
        // sorted: 1 2 3 3 3 4 5 7 8 9
        assert_eq!(w.len(), 10);
        assert_eq!(w.quantile(0.5), Some(3));
        assert_eq!(w.quantile(0.6), Some(4));
        assert_eq!(w.quantile(0.61), Some(5));
        assert_eq!(w.quantile(0.99), Some(9));
        assert_eq!(w.quantile(0.01), Some(1));
        assert_eq!(WindowDist::default().quantile(0.5), None);
        let h = WindowDist::from_counts([
            (1, 1),
            (2, 1),
            (3, 3),
            (4, 0),
            (4, 1),
            (5, 1),
            (7, 1),
            (8, 1),
            (9, 1),
        ]);
        for p in [0.1, 0.5, 0.6, 0.61, 0.9, 0.99] {
            assert_eq!(h.quantile(p), w.quantile(p), "{p}");
        }
    }

    #[test]
    fn pooled_equals_the_quantile_of_the_concatenation() {
        let mut rng = Rng::new(3);
        let raws: Vec<Vec<u64>> = (0..7)
            .map(|_| (0..50).map(|_| 100 + rng.below(1000)).collect())
            .collect();
        let windows: Vec<WindowDist> = raws.iter().map(|r| WindowDist::from_raw(r)).collect();
        let mut union: Vec<u64> = raws.iter().flatten().copied().collect();
        union.sort_unstable();
        union.dedup();
        let weights = [2, 0, 1, 3, 0, 1, 0];
        let mut all = Vec::new();
        for (r, &m) in raws.iter().zip(&weights) {
            for _ in 0..m {
                all.extend_from_slice(r);
            }
        }
        let whole = WindowDist::from_raw(&all);
        for p in [0.5, 0.9, 0.99, 0.999] {
            assert_eq!(
                pooled_quantile(&windows, &weights, &union, p),
                whole.quantile(p),
                "{p}"
            );
        }
    }

    #[test]
    fn intervals_are_reproducible_from_the_seed_and_cover_the_value() {
        let mut rng = Rng::new(11);
        let windows: Vec<WindowDist> = (0..12)
            .map(|_| {
                let raw: Vec<u64> = (0..500).map(|_| 1_000 + rng.below(200)).collect();
                WindowDist::from_raw(&raw)
            })
            .collect();
        let a = pooled_percentile(&windows, 0.5, 0.95, 500, 7)
            .unwrap()
            .unwrap();
        let b = pooled_percentile(&windows, 0.5, 0.95, 500, 7)
            .unwrap()
            .unwrap();
        assert_eq!(a, b);
        assert!(a.low <= a.value && a.value <= a.high, "{a:?}");
        assert!(a.high - a.low < 20.0, "{a:?}");
        let c = pooled_percentile(&windows, 0.5, 0.95, 500, 8)
            .unwrap()
            .unwrap();
        assert_eq!(a.value, c.value);
    }

    /// Windows whose latencies come from two modes in proportions that change from window to
    /// window (as when the host slows a CPU down for stretches of time): the pooled statistic
    /// finds a 5 % shift of every latency, and identical lanes none. When the pooled p50 falls
    /// between the two modes (half the requests slow), the p50 itself is not pinned down and
    /// the interval says so.
    #[test]
    fn pooled_pairs_find_a_shift_in_two_mode_windows() {
        let (e, floor) = two_mode_comparison(10, 30);
        // B = A × 20/19: δ = 1 − 19/20 = 5 %.
        assert!(e.low > 0.03 && e.high < 0.07, "{e:?}");
        assert!(floor < 0.03, "{floor}");
        let (e, _) = two_mode_comparison(0, 100);
        assert!(e.high - e.low > 0.2, "{e:?}");
    }

    /// 32 interleaved windows of 4 lanes × 100 latencies, each window's share of slow ones
    /// uniform in `lo..=lo + spread` %, B's lanes 1/19 slower.
    fn two_mode_comparison(lo: u64, spread: u64) -> (Estimate, f64) {
        let mut rng = Rng::new(17);
        let quads = 32;
        let mut windows = Vec::new();
        for _ in 0..quads {
            let slow_share = lo + rng.below(spread + 1);
            for lane in 0..4 {
                let b = lane == 1 || lane == 2;
                let raw: Vec<u64> = (0..100)
                    .map(|_| {
                        let base = if rng.below(100) < slow_share {
                            90_000
                        } else {
                            57_000
                        };
                        let v = base + rng.below(6_000);
                        if b { v + v / 19 } else { v }
                    })
                    .collect();
                windows.push(WindowDist::from_raw(&raw));
            }
        }
        // Each window's pairs are one unit of the bootstrap: they share its stretch of time.
        let ab: Vec<Vec<Pair>> = (0..quads)
            .map(|q| vec![(4 * q, 4 * q + 1), (4 * q + 3, 4 * q + 2)])
            .collect();
        let aa: Vec<Vec<Pair>> = (0..quads)
            .map(|q| vec![(4 * q + 1, 4 * q + 2), (4 * q, 4 * q + 3)])
            .collect();
        // A against A (the first and fourth lanes) covers zero.
        let null: Vec<Vec<Pair>> = (0..quads).map(|q| vec![(4 * q, 4 * q + 3)]).collect();
        let (n, _) = paired_percentile(&windows, &null, &aa, 0.5, 0.99, 1_000, 3).unwrap();
        assert!(n.low < 0.0 && n.high > 0.0, "{n:?}");
        paired_percentile(&windows, &ab, &aa, 0.5, 0.99, 1_000, 3).unwrap()
    }

    /// Units without pairs, and pairs naming windows that were not recorded, are typed
    /// errors, not panics.
    #[test]
    fn bad_units_are_typed_errors() {
        let windows = vec![WindowDist::from_raw(&[1, 2, 3]); 4];
        let good = vec![vec![(0, 1)], vec![(2, 3)]];
        for bad in [vec![], vec![vec![(0, 1)], vec![]], vec![vec![(0, 9)]]] {
            let r = paired_percentile(&windows, &bad, &good, 0.5, 0.99, 200, 1);
            assert!(
                matches!(r, Err(crate::Error::Undefined { .. })),
                "{bad:?}: {r:?}"
            );
        }
        assert!(paired_percentile(&windows, &good, &good, 0.5, 0.99, 200, 1).is_ok());
    }

    #[test]
    fn relative_half_width_matches_the_runners_two_cases() {
        // p50: +6.2 % [+5.8 %, +7.2 %] as a ratio ≈ 1.066 [1.062, 1.078]: tight.
        let e = Estimate::from_interval(0.062, 0.058, 0.072, 0.95).unwrap();
        assert!(relative_half_width(&e) < 0.01);
        // p99: a ratio interval [0.07, 4.97]: δ from 1 − 1/r.
        let e = Estimate::from_interval(1.0 - 1.0 / 1.1, 1.0 - 1.0 / 0.07, 1.0 - 1.0 / 4.97, 0.95)
            .unwrap();
        assert!(relative_half_width(&e) > 1.0);
    }
}
