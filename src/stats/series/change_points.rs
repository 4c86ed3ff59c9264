//! Change points: where the level of a series shifts, and how much of it is warm-up.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::series`), section "Change points".

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::stats::check;
use crate::stats::intervals::batch_means::Centered;
use crate::stats::significance::rank_tests::rank_sum_p_screened;
use crate::stats::summaries::summary::{Moments, neumaier_sum, scale_for};

/// Shortest segment the detector allows (30 readings), so no change point exists in fewer than
/// 60 readings.
pub const MIN_SEGMENT: usize = 30;

/// Default family-wise significance level α of the detector (0.01); each survivor has
/// `p ≤ α/n`.
pub const CHANGE_POINT_ALPHA: f64 = 0.01;

/// Autocorrelation limit used to batch each segment before the rank test (0.1, whatever limit a
/// session uses for its interval).
pub const CHANGE_POINT_AC_LIMIT: f64 = 0.1;

/// Rank-test p-values above this multiple of the threshold α/n are taken from the normal
/// approximation when the exact computation would be long: they only decide the order in which
/// hopeless candidates are pruned, never whether a candidate survives.
const SCREEN_FACTOR: f64 = 10.0;

/// Options for `change_points_with`: a consuming builder.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ChangePointOptions {
    /// Family-wise significance level, in `(0, 1)`. Default `CHANGE_POINT_ALPHA` (0.01).
    pub(crate) alpha: f64,
    /// Shortest segment, at least 2. Default `MIN_SEGMENT` (30).
    pub(crate) min_segment: usize,
}

impl Default for ChangePointOptions {
    fn default() -> Self {
        ChangePointOptions {
            alpha: CHANGE_POINT_ALPHA,
            min_segment: MIN_SEGMENT,
        }
    }
}

impl ChangePointOptions {
    /// Sets the family-wise significance level α, in `(0, 1)` (default 0.01). Checked when
    /// used: [`Error::OutOfRange`] outside `(0, 1)`.
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.alpha = alpha;
        self
    }

    /// Sets the shortest segment in readings, at least 2 (default 30). Checked when used:
    /// [`Error::OutOfRange`] below 2.
    pub fn min_segment(mut self, n: usize) -> Self {
        self.min_segment = n;
        self
    }
}

/// The result of `change_points_with`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChangePoints {
    /// Indices where a new segment starts, ascending (the first segment starts at 0 and is not
    /// listed). Empty when no change was proven.
    pub indices: Vec<usize>,
    /// The rank-test p-value of each surviving change point, in the same order.
    pub p_values: Vec<f64>,
    /// The bound each p-value was held to, `alpha/n`.
    pub threshold: f64,
    /// Readings in the series.
    pub readings: usize,
    /// Candidates proposed by the segmentation, before testing.
    pub candidates: usize,
}

impl ChangePoints {
    /// The segments as index ranges covering `0..readings`, in order.
    pub fn segments(&self) -> Vec<Range<usize>> {
        let mut bounds = Vec::with_capacity(self.indices.len() + 2);
        bounds.push(0);
        bounds.extend(&self.indices);
        bounds.push(self.readings);
        bounds.windows(2).map(|w| w[0]..w[1]).collect()
    }
}

/// The indices where the segments of `xs` start, after the first (empty: no change point), with
/// the default options. See the chapter.
///
/// Returns [`Error::TooFewSamples`] for an empty series and [`Error::NonFinite`] for NaN or ±∞.
/// Fewer than 60 readings give no change point.
pub fn change_points(xs: &[f64]) -> Result<Vec<usize>> {
    Ok(change_points_with(xs, &ChangePointOptions::default())?.indices)
}

/// [`change_points`] with options, returning the p-values and the threshold too.
///
/// Returns the errors of [`change_points`], and [`Error::OutOfRange`] for an `alpha` outside
/// `(0, 1)` or a `min_segment` below 2.
pub fn change_points_with(xs: &[f64], options: &ChangePointOptions) -> Result<ChangePoints> {
    check::open_unit("alpha", options.alpha)?;
    if options.min_segment < 2 {
        return Err(Error::out_of_range(
            "min_segment",
            options.min_segment as f64,
            "min_segment ≥ 2",
        ));
    }
    check::sample("samples", xs, 1)?;
    let n = xs.len();
    let threshold = options.alpha / n as f64;
    let mut result = ChangePoints {
        indices: Vec::new(),
        p_values: Vec::new(),
        threshold,
        readings: n,
        candidates: 0,
    };
    let min_seg = options.min_segment;
    if n < 2 * min_seg {
        return Ok(result);
    }
    // Centre (and rescale) once; prefix sums give every segment mean in O(1).
    let scale = scale_for(xs);
    let centre = Moments::with_scale(xs, scale).mean_scaled;
    let ys: Vec<f64> = xs.iter().map(|&x| x * scale - centre).collect();
    let prefix = compensated_prefix_sums(&ys);
    let mut candidates = Vec::new();
    propose(&prefix, 0, n, min_seg, &mut candidates);
    candidates.sort_unstable();
    result.candidates = candidates.len();

    // Test and prune.
    let (indices, p_values) = test_and_prune(&ys, candidates, threshold);
    result.indices = indices;
    result.p_values = p_values;
    Ok(result)
}

/// The prefix sums of `ys`, from 0 (length `ys.len() + 1`), with Neumaier's compensation so
/// that a long series' segment means keep their precision.
fn compensated_prefix_sums(ys: &[f64]) -> Vec<f64> {
    let mut prefix = Vec::with_capacity(ys.len() + 1);
    prefix.push(0.0f64);
    let (mut sum, mut comp) = (0.0f64, 0.0f64);
    for &v in ys {
        let t = sum + v;
        if sum.abs() >= v.abs() {
            comp += (sum - t) + v;
        } else {
            comp += (v - t) + sum;
        }
        sum = t;
        prefix.push(sum + comp);
    }
    prefix
}

/// Tests each of the sorted `candidates` on the centred series `ys` against its neighbours'
/// segments and prunes the weakest above `threshold` until every one left is below it;
/// returns the survivors and their p-values.
fn test_and_prune(
    ys: &[f64],
    mut candidates: Vec<usize>,
    threshold: f64,
) -> (Vec<usize>, Vec<f64>) {
    let n = ys.len();
    let p_of = |cands: &[usize], i: usize| -> Option<f64> {
        let start = if i == 0 { 0 } else { cands[i - 1] };
        let end = if i + 1 == cands.len() {
            n
        } else {
            cands[i + 1]
        };
        segment_p(&ys[start..cands[i]], &ys[cands[i]..end], threshold)
    };
    let mut ps: Vec<Option<f64>> = (0..candidates.len())
        .map(|i| p_of(&candidates, i))
        .collect();
    loop {
        // First the weakest testable candidate above the threshold; candidates that cannot be
        // tested yet go only when no testable one is left to prune, because removing their
        // neighbours first may lengthen their segments enough to test them.
        let worst = ps
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.filter(|p| *p > threshold).map(|p| (i, p)))
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(i, _)| i)
            .or_else(|| ps.iter().position(Option::is_none));
        let Some(i) = worst else { break };
        candidates.remove(i);
        ps.remove(i);
        for j in [i.wrapping_sub(1), i] {
            if j < candidates.len() {
                ps[j] = p_of(&candidates, j);
            }
        }
    }
    (candidates, ps.into_iter().flatten().collect())
}

/// Binary segmentation of `[start, end)`: pushes the best split and recurses.
fn propose(prefix: &[f64], start: usize, end: usize, min_seg: usize, out: &mut Vec<usize>) {
    let len = end - start;
    if len < 2 * min_seg {
        return;
    }
    let total = prefix[end] - prefix[start];
    let nf = len as f64;
    let mut best = (f64::NEG_INFINITY, 0usize);
    for tau in min_seg..=len - min_seg {
        let left = prefix[start + tau] - prefix[start];
        let (l, r) = (tau as f64, (len - tau) as f64);
        let diff = left / l - (total - left) / r;
        let gain = l * r / nf * diff * diff;
        if gain > best.0 {
            best = (gain, tau);
        }
    }
    if !best.0.is_finite() || best.0 <= 0.0 {
        // A constant segment has nothing to split.
        return;
    }
    let at = start + best.1;
    out.push(at);
    propose(prefix, start, at, min_seg, out);
    propose(prefix, at, end, min_seg, out);
}

/// Rank-sum p of the batch means of two adjacent segments, batched with the q the longer one
/// needs for |lag-1 autocorrelation| ≤ 0.1; `None` when the test cannot be run (no such q, or
/// fewer than two batch means on a side).
fn segment_p(left: &[f64], right: &[f64], threshold: f64) -> Option<f64> {
    let longer = if left.len() >= right.len() {
        left
    } else {
        right
    };
    if longer.len() < 3 {
        return None;
    }
    let q = Centered::new(longer).smallest_q(CHANGE_POINT_AC_LIMIT)?;
    let means = |s: &[f64]| -> Vec<f64> {
        s.chunks_exact(q)
            .map(|c| neumaier_sum(c.iter().copied()) / q as f64)
            .collect()
    };
    let (a, b) = (means(left), means(right));
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    // Only p-values near the threshold need to be exact.
    Some(rank_sum_p_screened(&a, &b, Some(SCREEN_FACTOR * threshold)))
}

/// The stable phase of `xs`: the longest segment between change points, only if it holds more
/// than half of the readings (Pilot's dominant segment); `None` otherwise, in which case no
/// phase can be called the steady state.
///
/// Returns the errors of [`change_points`].
///
/// ```
/// let xs = vec![1.0; 100];
/// assert_eq!(rtcompare::support::stats::stable_phase(&xs)?, Some(0..100));
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn stable_phase(xs: &[f64]) -> Result<Option<Range<usize>>> {
    let cp = change_points_with(xs, &ChangePointOptions::default())?;
    Ok(dominant(&cp))
}

fn dominant(cp: &ChangePoints) -> Option<Range<usize>> {
    let longest = cp
        .segments()
        .into_iter()
        .max_by(|a, b| a.len().cmp(&b.len()).then(b.start.cmp(&a.start)))?;
    (longest.len() > cp.readings / 2).then_some(longest)
}

/// The result of [`warm_up`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WarmUp {
    /// Index of the first reading after the warm-up (0: no warm-up proven).
    pub end: usize,
    /// The change points the decision rested on.
    pub change_points: ChangePoints,
    /// Whether the readings from `end` on contain another proven change (a level shift that is
    /// not warm-up: interference, throttling, a neighbour).
    pub later_shift: bool,
}

/// The end of the warm-up of a series of **durations** (larger is slower), by the two-clause
/// rule: the discarded prefix is a run of leading segments ending at a proven change point,
/// **and** each of them is slower (has a larger mean) than the segment after it. The prefix
/// must also leave more than half of the readings. 0 when no warm-up is proven.
///
/// Returns the errors of [`change_points`].
pub fn warm_up_end(xs: &[f64]) -> Result<usize> {
    Ok(warm_up(xs, &ChangePointOptions::default())?.end)
}

/// [`warm_up_end`] with options, also returning the change points and whether a shift remains
/// after the warm-up.
///
/// Returns the errors of `change_points_with`.
pub fn warm_up(xs: &[f64], options: &ChangePointOptions) -> Result<WarmUp> {
    let cp = change_points_with(xs, options)?;
    let segments = cp.segments();
    let mean = |r: &Range<usize>| {
        let s = &xs[r.clone()];
        let m = Moments::of(s);
        m.mean_scaled / m.scale
    };
    let means: Vec<f64> = segments.iter().map(mean).collect();
    // The leading run of strictly falling segment means.
    let mut run = 0;
    while run + 1 < segments.len() && means[run] > means[run + 1] {
        run += 1;
    }
    let mut end = if run == 0 { 0 } else { segments[run].start };
    if end > 0 && xs.len() - end <= xs.len() / 2 {
        end = 0;
    }
    let later_shift = cp.indices.iter().any(|&i| i > end);
    Ok(WarmUp {
        end,
        change_points: cp,
        later_shift,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn normal(rng: &mut Rng, n: usize) -> Vec<f64> {
        (0..n).map(|_| rng.next_normal()).collect()
    }

    #[test]
    fn short_and_bad_series() {
        assert_eq!(change_points(&[1.0; 59]).unwrap(), Vec::<usize>::new());
        assert!(change_points(&[]).is_err());
        let mut xs = vec![1.0; 100];
        xs[50] = f64::NAN;
        assert!(matches!(
            change_points(&xs),
            Err(Error::NonFinite { index: 50, .. })
        ));
        assert!(
            change_points_with(&[1.0; 100], &ChangePointOptions::default().alpha(0.0)).is_err()
        );
    }

    #[test]
    fn no_change_in_iid_noise_is_the_rule() {
        // The EDM defect: a change in every sample. Here: none in 40 seeded samples of 300.
        let mut rng = Rng::new(11);
        let flagged = (0..40)
            .filter(|_| !change_points(&normal(&mut rng, 300)).unwrap().is_empty())
            .count();
        assert!(flagged <= 1, "{flagged}");
    }

    #[test]
    fn a_warm_up_is_found_and_located() {
        let mut rng = Rng::new(3);
        let mut xs = normal(&mut rng, 500);
        for x in &mut xs[..50] {
            *x += 2.0;
        }
        let cp = change_points(&xs).unwrap();
        assert_eq!(cp.len(), 1, "{cp:?}");
        assert!(cp[0].abs_diff(50) <= 3, "{cp:?}");
        let w = warm_up_end(&xs).unwrap();
        assert!(w.abs_diff(50) <= 3);
    }

    #[test]
    fn a_fast_prefix_or_a_middle_spike_is_not_warm_up() {
        let mut rng = Rng::new(5);
        // A prefix that is faster, not slower: a change, but not warm-up.
        let mut xs = normal(&mut rng, 500);
        for x in &mut xs[..60] {
            *x -= 3.0;
        }
        assert!(!change_points(&xs).unwrap().is_empty());
        assert_eq!(warm_up_end(&xs).unwrap(), 0);
        // A slow stretch in the middle keeps the good readings before it.
        let mut ys = normal(&mut rng, 500);
        for y in &mut ys[200..240] {
            *y += 3.0;
        }
        let w = warm_up(&ys, &ChangePointOptions::default()).unwrap();
        assert_eq!(w.end, 0);
        assert!(w.later_shift);
    }

    #[test]
    fn large_offsets_keep_their_precision() {
        let mut rng = Rng::new(9);
        let xs: Vec<f64> = (0..300)
            .map(|i| 1e12 + rng.next_normal() + if i >= 160 { 20.0 } else { 0.0 })
            .collect();
        let cp = change_points(&xs).unwrap();
        assert_eq!(cp.len(), 1);
        assert!(cp[0].abs_diff(160) <= 3, "{cp:?}");
        let huge: Vec<f64> = (0..200).map(|i| 1e300 * (1.0 + (i % 3) as f64)).collect();
        assert!(change_points(&huge).is_ok());
    }

    #[test]
    fn zero_one_runs_are_not_changes() {
        // 30 identical 0/1 readings inside a 95 % series (Welch-on-ranks flagged these).
        let mut rng = Rng::new(21);
        let mut flagged = 0;
        for _ in 0..30 {
            let xs: Vec<f64> = (0..300)
                .map(|_| if rng.next_f64() < 0.95 { 1.0 } else { 0.0 })
                .collect();
            flagged += usize::from(!change_points(&xs).unwrap().is_empty());
        }
        assert!(flagged <= 1, "{flagged}");
    }

    #[test]
    fn dominant_segment_rule() {
        let mut xs = vec![0.0; 100];
        xs.extend(vec![5.0; 100]);
        // Two equal halves: neither holds more than half.
        let mut rng = Rng::new(1);
        for x in &mut xs {
            *x += 0.1 * rng.next_normal();
        }
        assert_eq!(stable_phase(&xs).unwrap(), None);
    }
}
