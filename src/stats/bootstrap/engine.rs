//! The resampling engine: the statistic δ on the data, and the replicates of it that one
//! generator draws, each replicate's median found by counting draws per rank.

use super::options::EstimateOptions;
use super::resample::{effective_block_length, for_each_block};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::stats::MINIMUM_DATA_POINTS;
use crate::stats::check;
use crate::stats::summaries::select::{cmp_f64, median_in_place, midpoint};

/// `δ = 1 − median(a) / median(b)`: the relative difference of the medians (positive: A
/// needs less time; 0.25 means A needs 25 % less time than B).
///
/// Even lengths use the mean of the two middle values. The inputs are not modified.
///
/// # Errors
///
/// * [`Error::TooFewSamples`] if either input is empty;
/// * [`Error::NonFinite`] if a value is NaN or infinite;
/// * [`Error::Undefined`] if the median of `b` is 0, or the ratio overflows.
///
/// ```
/// use rtcompare::support::stats::relative_difference;
/// assert_eq!(relative_difference(&[75.0, 80.0, 70.0], &[100.0, 90.0, 110.0])?, 0.25);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn relative_difference(a: &[f64], b: &[f64]) -> Result<f64> {
    check::sample("a", a, 1)?;
    check::sample("b", b, 1)?;
    let ma = median_in_place(&mut a.to_vec());
    let mb = median_in_place(&mut b.to_vec());
    if mb == 0.0 {
        return Err(Error::Undefined {
            what: "relative difference 1 − median(A)/median(B)",
            reason: "the median of B is 0; a median of zero time usually means the batch \
                     fitted inside one clock tick, so lengthen the batches"
                .into(),
        });
    }
    finite_delta(1.0 - ma / mb, ma, mb)
}

/// `δ = 1 − median_i(a[i] / b[i])`: the paired relative difference, from the ratios of
/// measurements taken together (positive: A needs less time).
///
/// # Errors
///
/// * [`Error::TooFewSamples`] if the inputs are empty;
/// * [`Error::NonFinite`] if a value is NaN or infinite;
/// * [`Error::LengthMismatch`] if the lengths differ;
/// * [`Error::Undefined`] if some `b[i]` is 0 (the error names `i`), or a ratio overflows.
pub fn paired_relative_difference(a: &[f64], b: &[f64]) -> Result<f64> {
    check::sample("a", a, 1)?;
    check::sample("b", b, 1)?;
    let mut ratios = paired_ratios(a, b)?;
    Ok(1.0 - median_in_place(&mut ratios))
}

/// The ratios `a[i] / b[i]` of checked, finite inputs.
fn paired_ratios(a: &[f64], b: &[f64]) -> Result<Vec<f64>> {
    if a.len() != b.len() {
        return Err(Error::LengthMismatch {
            a: a.len(),
            b: b.len(),
        });
    }
    let mut ratios = Vec::with_capacity(a.len());
    for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
        if y == 0.0 {
            return Err(Error::Undefined {
                what: "paired ratio A[i]/B[i]",
                reason: format!(
                    "b[{i}] is 0; a time of zero usually means the batch fitted inside one \
                     clock tick, so lengthen the batches"
                ),
            });
        }
        let r = x / y;
        if !r.is_finite() {
            return Err(Error::Undefined {
                what: "paired ratio A[i]/B[i]",
                reason: format!("a[{i}] / b[{i}] = {x:e} / {y:e} overflows"),
            });
        }
        ratios.push(r);
    }
    Ok(ratios)
}

/// `Ok(delta)` if it is finite, else the error that names the two medians.
fn finite_delta(delta: f64, ma: f64, mb: f64) -> Result<f64> {
    if delta.is_finite() {
        Ok(delta)
    } else {
        Err(Error::Undefined {
            what: "relative difference 1 − median(A)/median(B)",
            reason: format!("median(A) / median(B) = {ma:e} / {mb:e} is not a finite number"),
        })
    }
}

/// The replicates of one bootstrap in the order they were drawn, with what produced them.
pub(super) struct Run {
    pub(super) delta: f64,
    pub(super) replicates: Vec<f64>,
    pub(super) level: f64,
    pub(super) block_length: usize,
    pub(super) seed: u64,
}

impl Run {
    /// Validates everything, then draws all replicates with one generator. Scratch buffers are
    /// allocated here, once; the loop itself does not allocate.
    pub(super) fn draw(a: &[f64], b: &[f64], opts: &EstimateOptions) -> Result<Run> {
        check::sample("a", a, MINIMUM_DATA_POINTS)?;
        check::sample("b", b, MINIMUM_DATA_POINTS)?;
        if opts.paired && a.len() != b.len() {
            return Err(Error::LengthMismatch {
                a: a.len(),
                b: b.len(),
            });
        }
        let (level, resamples) = opts.resolved()?;
        let block_length = opts.block_length.max(1);
        let mut rng = Rng::new(opts.seed);
        let mut replicates = Vec::with_capacity(resamples);

        let delta = if opts.paired {
            let ratios = paired_ratios(a, b)?;
            let l = effective_block_length(block_length, ratios.len());
            let mut medians = CountingMedian::new(&ratios);
            let delta = 1.0 - medians.median_of_all();
            for _ in 0..resamples {
                // A median of finite ratios is finite, and so is 1 minus it.
                replicates.push(1.0 - medians.median_of_replicate(&mut rng, l));
            }
            delta
        } else {
            let delta = relative_difference(a, b)?;
            let la = effective_block_length(block_length, a.len());
            let lb = effective_block_length(block_length, b.len());
            let mut med_a = CountingMedian::new(a);
            let mut med_b = CountingMedian::new(b);
            for r in 0..resamples {
                let ma = med_a.median_of_replicate(&mut rng, la);
                let mb = med_b.median_of_replicate(&mut rng, lb);
                let d = 1.0 - ma / mb;
                if !d.is_finite() {
                    return Err(Error::Undefined {
                        what: "bootstrap replicate of 1 − median(A)/median(B)",
                        reason: format!(
                            "in replicate {r} (seed {}) the resampled medians are A = {ma:e} \
                             and B = {mb:e}, whose ratio is not a finite number; B holds too \
                             many zeros (or the values span too many orders of magnitude)",
                            rng.seed()
                        ),
                    });
                }
                replicates.push(d);
            }
            delta
        };
        Ok(Run {
            delta,
            replicates,
            level,
            block_length,
            seed: rng.seed(),
        })
    }
}

/// Medians of bootstrap replicates of one fixed source, found by counting instead of by
/// moving values around.
///
/// A replicate holds only values of the source, so its median is determined by how often
/// each source value was drawn. The source is sorted **once**, each position remembers the
/// rank of its value, and a replicate just counts draws per rank; the median is where the
/// running count crosses the middle. The draws are exactly those of
/// `resample_into` (one `below(n)` per value, or one
/// `below(n − ℓ + 1)` per block), and the median is the same order statistic that selection
/// on the resampled values would return, so the result is bit-identical to copying the
/// replicate and calling `median_in_place` on it (a test checks this), at less than half the
/// cost: a selection over 101 values mispredicts a branch on most comparisons, while counting
/// touches each drawn rank once. Nothing is allocated after [`CountingMedian::new`].
struct CountingMedian {
    /// The source values in ascending order.
    sorted: Vec<f64>,
    /// `rank[i]` = position of `src[i]` in `sorted` (ties broken by position).
    rank: Vec<usize>,
    /// Draws per rank in the current replicate.
    counts: Vec<usize>,
}

impl CountingMedian {
    /// Prepares for replicates of the non-empty, finite `src` (the only allocations).
    fn new(src: &[f64]) -> Self {
        let n = src.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&i, &j| cmp_f64(&src[i], &src[j]).then(i.cmp(&j)));
        let mut rank = vec![0; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        CountingMedian {
            sorted: order.iter().map(|&i| src[i]).collect(),
            rank,
            counts: vec![0; n],
        }
    }

    /// The median of the source itself (mean of the two middle values for even length).
    fn median_of_all(&self) -> f64 {
        let n = self.sorted.len();
        if n % 2 == 1 {
            self.sorted[n / 2]
        } else {
            midpoint(self.sorted[n / 2 - 1], self.sorted[n / 2])
        }
    }

    /// Draws one replicate of the source's length with blocks of the clamped length `l` and
    /// returns its median.
    #[inline]
    fn median_of_replicate(&mut self, rng: &mut Rng, l: usize) -> f64 {
        let CountingMedian {
            sorted,
            rank,
            counts,
        } = self;
        let n = rank.len();
        counts.fill(0);
        if l <= 1 {
            for _ in 0..n {
                counts[rank[rng.index(n)]] += 1;
            }
        } else {
            for_each_block(rng, n, l, n, |_, start, len| {
                for &r in &rank[start..start + len] {
                    counts[r] += 1;
                }
            });
        }
        // 0-based order statistics: the middle one for odd n, the two middle ones for even n.
        let upper = n / 2;
        let lower = if n % 2 == 1 { upper } else { upper - 1 };
        let mut seen = 0;
        let mut at = 0;
        while seen + counts[at] <= lower {
            seen += counts[at];
            at += 1;
        }
        let low_value = sorted[at];
        if lower == upper {
            return low_value;
        }
        while seen + counts[at] <= upper {
            seen += counts[at];
            at += 1;
        }
        midpoint(low_value, sorted[at])
    }
}

/// The raw replicate deltas `δ*` in the order they were drawn, for analyses of your own (the
/// same replicates the other functions read, before sorting). Errors as for
/// [`BootstrapDistribution::new`].
///
/// ```
/// use rtcompare::stats::{bootstrap_replicates, EstimateOptions};
/// let a: Vec<f64> = (0..11).map(|i| 100.0 + i as f64).collect();
/// let b: Vec<f64> = (0..11).map(|i| 120.0 + i as f64).collect();
/// let reps = bootstrap_replicates(&a, &b, &EstimateOptions::default().resamples(1000).seed(5))?;
/// assert_eq!(reps.len(), 1000);
/// # Ok::<(), rtcompare::Error>(())
/// ```
///
/// [`BootstrapDistribution::new`]: crate::stats::BootstrapDistribution::new
pub fn bootstrap_replicates(a: &[f64], b: &[f64], opts: &EstimateOptions) -> Result<Vec<f64>> {
    Ok(Run::draw(a, b, opts)?.replicates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paired_difference_is_one_minus_the_median_ratio() {
        let d = paired_relative_difference(&[80.0, 90.0, 40.0], &[100.0, 100.0, 50.0]).unwrap();
        assert_eq!(d, 1.0 - 0.8);
    }
    use crate::stats::bootstrap::test_data::{A, B, opts};
    use crate::stats::{MAX_RESAMPLES, confidences_for, estimate_difference};
    use crate::support::stats::{moving_block_indices, paired_resample_into, resample_into};

    #[test]
    fn bad_input_is_a_typed_error() {
        let short = [1.0; 10];
        assert!(matches!(
            estimate_difference(&short, &B, &opts(1)),
            Err(Error::TooFewSamples {
                what: "a",
                needed: 11,
                got: 10
            })
        ));
        assert!(matches!(
            estimate_difference(&A, &[], &opts(1)),
            Err(Error::TooFewSamples { what: "b", .. })
        ));
        let mut nan = A;
        nan[4] = f64::NAN;
        assert!(matches!(
            estimate_difference(&nan, &B, &opts(1)),
            Err(Error::NonFinite { index: 4, .. })
        ));
        let mut inf = B;
        inf[2] = f64::INFINITY;
        assert!(matches!(
            estimate_difference(&A, &inf, &opts(1)),
            Err(Error::NonFinite { what: "b", .. })
        ));
        let b12 = [1.0; 12];
        assert!(matches!(
            estimate_difference(&A, &b12, &opts(1).paired(true)),
            Err(Error::LengthMismatch { a: 11, b: 12 })
        ));
        for level in [1.0, -0.5, 1.5, f64::NAN] {
            assert!(matches!(
                estimate_difference(&A, &B, &opts(1).level(level)),
                Err(Error::OutOfRange { name: "level", .. })
            ));
        }
        assert!(matches!(
            estimate_difference(&A, &B, &opts(1).resamples(MAX_RESAMPLES + 1)),
            Err(Error::InvalidOption {
                name: "resamples",
                ..
            })
        ));
        // Zero medians and zero paired denominators.
        assert!(matches!(
            estimate_difference(&A, &[0.0; 11], &opts(1)),
            Err(Error::Undefined { .. })
        ));
        let mut b0 = B;
        b0[3] = 0.0;
        let err = estimate_difference(&A, &b0, &opts(1).paired(true)).unwrap_err();
        assert!(matches!(&err, Error::Undefined { reason, .. } if reason.contains("b[3]")));
        // Unpaired, B's median is not 0 but some replicates' are.
        let mut b_zeros = [0.0; 11];
        b_zeros[..6].fill(1.0);
        assert!(relative_difference(&A, &b_zeros).is_ok());
        assert!(matches!(
            estimate_difference(&A, &b_zeros, &opts(1)),
            Err(Error::Undefined { .. })
        ));
        // The point estimates need only one value each.
        assert!(relative_difference(&[], &[1.0]).is_err());
        assert!(paired_relative_difference(&[1.0], &[1.0, 2.0]).is_err());
        assert!(paired_relative_difference(&[1e300], &[1e-300]).is_err());
    }

    /// Recomputes the replicates by hand with the public resampling functions: documents the
    /// stream layout (one generator; per replicate A's resample, then B's).
    #[test]
    fn replicate_stream_layout_is_as_documented() {
        let a: Vec<f64> = (0..13).map(|i| 50.0 + (i * 7 % 13) as f64).collect();
        let b: Vec<f64> = (0..17).map(|i| 60.0 + (i * 5 % 17) as f64).collect();
        for l in [0usize, 1, 3] {
            let o = opts(21).resamples(300).block_length(l);
            let reps = bootstrap_replicates(&a, &b, &o).unwrap();
            let mut rng = Rng::new(21);
            let (mut sa, mut sb) = (vec![0.0; 13], vec![0.0; 17]);
            for want in &reps {
                resample_into(&mut rng, &a, l, &mut sa).unwrap();
                resample_into(&mut rng, &b, l, &mut sb).unwrap();
                let d = 1.0 - median_in_place(&mut sa) / median_in_place(&mut sb);
                assert_eq!(d.to_bits(), want.to_bits());
            }
            // Paired: one index vector per replicate, the median of the resampled ratios.
            let b13 = &b[..13];
            let reps = bootstrap_replicates(&a, b13, &o.paired(true)).unwrap();
            let mut rng = Rng::new(21);
            let (mut pa, mut pb) = (vec![0.0; 13], vec![0.0; 13]);
            let mut idx = vec![0; 13];
            let mut rng2 = Rng::new(21);
            for want in &reps {
                paired_resample_into(&mut rng, &a, b13, l, &mut pa, &mut pb).unwrap();
                moving_block_indices(&mut rng2, 13, l, &mut idx).unwrap();
                let mut ratios: Vec<f64> = idx.iter().map(|&i| a[i] / b13[i]).collect();
                assert_eq!(
                    (1.0 - median_in_place(&mut ratios)).to_bits(),
                    want.to_bits()
                );
                let mut ratios2: Vec<f64> = pa.iter().zip(&pb).map(|(x, y)| x / y).collect();
                assert_eq!(
                    (1.0 - median_in_place(&mut ratios2)).to_bits(),
                    want.to_bits()
                );
            }
        }
    }

    /// The counting median equals selection on the copied replicate, bit for bit, for odd and
    /// even lengths, ties, negative values, single draws and blocks.
    #[test]
    fn counting_median_equals_selection() {
        let mut gen_rng = Rng::new(31);
        for n in 1..=40usize {
            for case in 0..6 {
                let src: Vec<f64> = (0..n)
                    .map(|_| match case {
                        0 => gen_rng.next_normal(),
                        1 => gen_rng.below(4) as f64, // heavy ties
                        2 => -1e6 * gen_rng.next_f64(),
                        _ => (gen_rng.next_normal() * 3.0).exp(),
                    })
                    .collect();
                for l in [1usize, 2, 3, 7] {
                    let l = effective_block_length(l, n);
                    let mut counting = CountingMedian::new(&src);
                    let mut r1 = Rng::new(n as u64 * 100 + case);
                    let mut r2 = r1.clone();
                    let mut scratch = vec![0.0; n];
                    for _ in 0..30 {
                        let got = counting.median_of_replicate(&mut r1, l);
                        resample_into(&mut r2, &src, l, &mut scratch).unwrap();
                        let want = median_in_place(&mut scratch);
                        assert_eq!(got.to_bits(), want.to_bits(), "n {n} case {case} l {l}");
                    }
                    assert_eq!(r1, r2);
                    let want_all = median_in_place(&mut src.clone());
                    assert_eq!(counting.median_of_all().to_bits(), want_all.to_bits());
                }
            }
        }
    }

    /// Regression (a) of the reference's history: each replicate used to re-create the
    /// generator from the same seed, so all replicates were identical and confidences were
    /// 0 or 1. Successive replicates must differ on non-degenerate data.
    #[test]
    fn successive_replicates_differ() {
        for paired in [false, true] {
            let reps =
                bootstrap_replicates(&A, &B, &opts(1).resamples(1000).paired(paired)).unwrap();
            let changes = reps.windows(2).filter(|w| w[0] != w[1]).count();
            assert!(changes > 500, "paired = {paired}: only {changes} changes");
            let mut distinct = reps.clone();
            distinct.sort_unstable_by(cmp_f64);
            distinct.dedup();
            assert!(distinct.len() >= 5, "paired = {paired}: {distinct:?}");
        }
        // Hence the confidence at threshold 0.2 is strictly between 0 and 1.
        let c = confidences_for(&A, &B, &[0.2], &opts(1).paired(true)).unwrap();
        assert!(c[0].confidence > 0.0 && c[0].confidence < 1.0, "{c:?}");
    }

    #[test]
    fn seeds_reproduce_and_differ() {
        let e1 = estimate_difference(&A, &B, &opts(5)).unwrap();
        let e2 = estimate_difference(&A, &B, &opts(5)).unwrap();
        assert_eq!(e1, e2);
        let r5 = bootstrap_replicates(&A, &B, &opts(5)).unwrap();
        let r6 = bootstrap_replicates(&A, &B, &opts(6)).unwrap();
        assert_ne!(r5, r6);
        // Seed 0 draws a seed, records it, and the recorded seed reproduces the estimate.
        let drawn = estimate_difference(&A, &B, &opts(0)).unwrap();
        assert_ne!(drawn.seed, 0);
        let again = estimate_difference(&A, &B, &opts(drawn.seed)).unwrap();
        assert_eq!(drawn, again);
        // E.2 (d): two drawn seeds give different replicates.
        let x = bootstrap_replicates(&A, &B, &opts(0)).unwrap();
        let y = bootstrap_replicates(&A, &B, &opts(0)).unwrap();
        assert_ne!(x, y);
    }
}
