//! Drawing bootstrap resamples: plain, moving-block and paired, into buffers you provide.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::bootstrap`), section "Resampling".

use crate::error::{Error, Result};
use crate::rng::Rng;

/// The automatic moving-block length for `n` observations: the nearest integer to the cube
/// root of `n`, and at least 1.
///
/// `n^(1/3)` is the rate at which the block length of the moving-block bootstrap should grow
/// for estimating a distribution (Hall, Horowitz and Jing 1995). For the sample sizes a timing
/// comparison uses it gives 2 to 5: 1–3 → 1, 4–15 → 2, 16–42 → 3, 43–91 → 4, 92–166 → 5,
/// 167–274 → 6, 1000 → 10. Perfect cubes come out right even where a floating-point cube root
/// falls just short (`64f64.powf(1.0 / 3.0)` is 3.9999999999999996), because the result is
/// rounded, not truncated.
///
/// `n = 0` gives 1. Never fails.
///
/// ```
/// use rtcompare::stats::auto_block_length;
/// assert_eq!(auto_block_length(11), 2);
/// assert_eq!(auto_block_length(64), 4);
/// assert_eq!(auto_block_length(101), 5);
/// ```
pub fn auto_block_length(n: usize) -> usize {
    ((n as f64).cbrt().round() as usize).max(1)
}

/// The block length of a paired bootstrap of the pairs whose ratios (B/A per pair, in the
/// order measured) are `ratios`: [`auto_block_length`] of their count when their lag-1
/// autocorrelation exceeds `threshold` (the crate uses
/// 0.2, `AUTOCORRELATION_THRESHOLD`), else 1.
///
/// The ratios, not each side's series, decide: noise common to both sides (the machine
/// slowing down, a neighbour's load) raises the lag-1 of A and of B alike but cancels in their
/// ratio, which is what a paired estimate is read from; blocks chosen on A or B alone would
/// widen intervals for a correlation the estimate never sees. The same rule serves
/// [`compare()`](crate::compare()), rtcompare-service's windows and the command line.
///
/// Never fails: ratios whose autocorrelation is undefined (fewer than three, or a NaN or
/// infinite ratio, as a batch timed at 0 ns makes) give 1.
///
/// ```
/// use rtcompare::support::stats::ratio_block_length;
/// // Ratios that alternate: negatively correlated, single pairs.
/// assert_eq!(ratio_block_length(&[1.0, 1.1, 1.0, 1.1, 1.0, 1.1, 1.0, 1.1], 0.2), 1);
/// // Ratios that wander in runs of four: blocks of ⌊∛16⌉ = 3 pairs.
/// let runs: Vec<f64> = (0..16).map(|i| if (i / 4) % 2 == 0 { 1.0 } else { 1.2 }).collect();
/// assert_eq!(ratio_block_length(&runs, 0.2), 3);
/// ```
pub fn ratio_block_length(ratios: &[f64], threshold: f64) -> usize {
    match crate::stats::lag1_autocorrelation(ratios) {
        Ok(r) if r > threshold => auto_block_length(ratios.len()),
        _ => 1,
    }
}

/// The block length actually used for an input of `n` values when `block_length` is asked
/// for: `0` and `1` give 1 (single draws); a length above `n / 2` is shortened to `n / 2`,
/// and the result is never below 1.
///
/// Never fails; `n = 0` gives 1.
pub fn effective_block_length(block_length: usize, n: usize) -> usize {
    block_length.min(n / 2).max(1)
}

/// Fills `out` with indices drawn uniformly with replacement from `0..n`: the index resample
/// of the ordinary bootstrap. Makes exactly one [`Rng::below`]`(n)` call per slot, in order.
///
/// # Errors
///
/// [`Error::TooFewSamples`] if `n` is 0 and `out` is not empty (there is nothing to draw).
///
/// ```
/// use rtcompare::support::rng::Rng;
/// use rtcompare::support::stats::bootstrap_indices;
///
/// let mut idx = [0usize; 5];
/// bootstrap_indices(&mut Rng::new(3), 5, &mut idx)?;
/// assert!(idx.iter().all(|&i| i < 5));
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn bootstrap_indices(rng: &mut Rng, n: usize, out: &mut [usize]) -> Result<()> {
    check_source(n, out.len())?;
    for slot in out.iter_mut() {
        *slot = rng.index(n);
    }
    Ok(())
}

/// Fills `out` with the indices of a moving-block bootstrap replicate of `0..n`: blocks of
/// consecutive indices of the effective length (the automatic block length over the sample) `ℓ`, each starting
/// uniformly at one of the `n − ℓ + 1` positions where it fits, the last block cut short so
/// that exactly `out.len()` indices are written.
///
/// Makes one [`Rng::below`]`(n − ℓ + 1)` call per block, in order. With `ℓ = 1` (asked for,
/// or `0`, or forced by the clamp) that is the call [`bootstrap_indices`] makes for each
/// slot, and the result is identical, draw for draw.
///
/// # Errors
///
/// [`Error::TooFewSamples`] if `n` is 0 and `out` is not empty.
///
/// ```
/// use rtcompare::support::rng::Rng;
/// use rtcompare::support::stats::moving_block_indices;
///
/// let mut idx = [0usize; 10];
/// moving_block_indices(&mut Rng::new(3), 10, 3, &mut idx)?;
/// // Blocks of 3 consecutive indices (the last one cut to 1).
/// assert_eq!(idx[1], idx[0] + 1);
/// assert_eq!(idx[2], idx[0] + 2);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn moving_block_indices(
    rng: &mut Rng,
    n: usize,
    block_length: usize,
    out: &mut [usize],
) -> Result<()> {
    check_source(n, out.len())?;
    let l = effective_block_length(block_length, n);
    for_each_block(rng, n, l, out.len(), |pos, start, len| {
        for (k, slot) in out[pos..pos + len].iter_mut().enumerate() {
            *slot = start + k;
        }
    });
    Ok(())
}

/// Fills `out` with a bootstrap replicate of `src`: single draws with replacement for
/// `block_length` 0 or 1, otherwise a moving-block replicate with blocks of
/// `effective_block_length``(block_length, src.len())`.
///
/// The values are those of [`bootstrap_indices`] or [`moving_block_indices`] applied to
/// `src`, with the same generator calls. Values are copied as they are; the function does not
/// look at them, so NaN and infinities are neither rejected nor produced.
///
/// # Errors
///
/// [`Error::TooFewSamples`] if `src` is empty and `out` is not.
pub fn resample_into(
    rng: &mut Rng,
    src: &[f64],
    block_length: usize,
    out: &mut [f64],
) -> Result<()> {
    check_source(src.len(), out.len())?;
    fill(
        rng,
        src,
        effective_block_length(block_length, src.len()),
        out,
    );
    Ok(())
}

/// Fills `out_a` and `out_b` with a paired bootstrap replicate of `(a, b)`: one set of
/// indices (single draws for `block_length` 0 or 1, moving blocks otherwise) applied to both,
/// so `out_a[j]` and `out_b[j]` always come from the same pair `i`.
///
/// The generator calls are those of [`resample_into`] on a single input of the same length.
///
/// # Errors
///
/// * [`Error::LengthMismatch`] if `a` and `b`, or `out_a` and `out_b`, differ in length;
/// * [`Error::TooFewSamples`] if the inputs are empty and the outputs are not.
///
/// ```
/// use rtcompare::support::rng::Rng;
/// use rtcompare::support::stats::paired_resample_into;
///
/// let a: Vec<f64> = (0..11).map(f64::from).collect();
/// let b: Vec<f64> = a.iter().map(|x| 10.0 * x).collect();
/// let (mut ra, mut rb) = ([0.0; 11], [0.0; 11]);
/// paired_resample_into(&mut Rng::new(5), &a, &b, 0, &mut ra, &mut rb)?;
/// assert!(ra.iter().zip(&rb).all(|(x, y)| *y == 10.0 * x)); // pairs stay together
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn paired_resample_into(
    rng: &mut Rng,
    a: &[f64],
    b: &[f64],
    block_length: usize,
    out_a: &mut [f64],
    out_b: &mut [f64],
) -> Result<()> {
    if a.len() != b.len() {
        return Err(Error::LengthMismatch {
            a: a.len(),
            b: b.len(),
        });
    }
    if out_a.len() != out_b.len() {
        return Err(Error::LengthMismatch {
            a: out_a.len(),
            b: out_b.len(),
        });
    }
    let n = a.len();
    check_source(n, out_a.len())?;
    let l = effective_block_length(block_length, n);
    if l == 1 {
        for (ya, yb) in out_a.iter_mut().zip(out_b.iter_mut()) {
            let i = rng.index(n);
            *ya = a[i];
            *yb = b[i];
        }
    } else {
        for_each_block(rng, n, l, out_a.len(), |pos, start, len| {
            out_a[pos..pos + len].copy_from_slice(&a[start..start + len]);
            out_b[pos..pos + len].copy_from_slice(&b[start..start + len]);
        });
    }
    Ok(())
}

/// `Err` when there is nothing to draw from but something to fill.
fn check_source(n: usize, m: usize) -> Result<()> {
    if n == 0 && m > 0 {
        Err(Error::TooFewSamples {
            what: "resampling source",
            needed: 1,
            got: 0,
        })
    } else {
        Ok(())
    }
}

/// The replicate kernel of the bootstrap loops: fills `out` from `src` with blocks of the
/// already clamped length `l` (1 ≤ l ≤ max(1, src.len() / 2)). `src` must be non-empty unless
/// `out` is empty. No checks beyond the slice bounds, no allocation.
#[inline]
pub(crate) fn fill(rng: &mut Rng, src: &[f64], l: usize, out: &mut [f64]) {
    let n = src.len();
    if l <= 1 {
        // The hot path of the plain bootstrap: one bounded draw per value. `index` returns a
        // value below n, so the bounds check on `src` never fails (and is well predicted).
        for slot in out.iter_mut() {
            *slot = src[rng.index(n)];
        }
    } else {
        for_each_block(rng, n, l, out.len(), |pos, start, len| {
            out[pos..pos + len].copy_from_slice(&src[start..start + len]);
        });
    }
}

/// Draws block starts for a replicate of length `m` from a source of length `n` with blocks
/// of length `l` (1 ≤ l ≤ n), and calls `emit(position, start, length)` for each block in
/// order. One `below(n − l + 1)` call per block; the last block is cut to fit.
#[inline]
pub(crate) fn for_each_block(
    rng: &mut Rng,
    n: usize,
    l: usize,
    m: usize,
    mut emit: impl FnMut(usize, usize, usize),
) {
    debug_assert!(l >= 1 && (l <= n || m == 0));
    let starts = n + 1 - l;
    let mut pos = 0;
    while pos < m {
        let start = rng.index(starts);
        let len = l.min(m - pos);
        emit(pos, start, len);
        pos += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_effective_block_length_is_within_one_and_half_the_input() {
        assert_eq!(effective_block_length(0, 101), 1);
        assert_eq!(effective_block_length(5, 101), 5);
        assert_eq!(effective_block_length(8, 11), 5);
        assert_eq!(effective_block_length(8, 3), 1);
    }

    #[test]
    fn a_slowdown_common_to_both_sides_gets_no_blocks_and_a_wandering_ratio_does() {
        // The machine slows down by 30 % over 101 pairs, alike for both sides; B is 5 %
        // slower with independent noise of ±1 %. Each side's lag-1 is near 1, the ratios'
        // near 0: single pairs.
        let mut rng = Rng::new(11);
        let a: Vec<f64> = (0..101)
            .map(|i| 100.0 * (1.0 + 0.3 * i as f64 / 100.0) * (1.0 + 0.01 * rng.next_normal()))
            .collect();
        let b: Vec<f64> = a
            .iter()
            .map(|x| 1.05 * x * (1.0 + 0.01 * rng.next_normal()))
            .collect();
        assert!(crate::stats::lag1_autocorrelation(&a).unwrap() > 0.5);
        let ratios: Vec<f64> = b.iter().zip(&a).map(|(b, a)| b / a).collect();
        assert_eq!(ratio_block_length(&ratios, 0.2), 1);
        // A ratio that itself wanders (B's own state persists over neighbouring pairs) gets
        // blocks of ⌊∛101⌉ = 5.
        let mut state = 0.0;
        let wandering: Vec<f64> = (0..101)
            .map(|_| {
                state = 0.8 * state + 0.01 * rng.next_normal();
                1.05 + state
            })
            .collect();
        assert_eq!(ratio_block_length(&wandering, 0.2), 5);
        // Undefined autocorrelations give single pairs.
        assert_eq!(ratio_block_length(&[1.0, f64::INFINITY, 1.0, 1.1], 0.2), 1);
        assert_eq!(ratio_block_length(&[1.0, 1.1], 0.2), 1);
    }

    #[test]
    fn auto_block_length_breakpoints() {
        let table = [
            (1..=3, 1),
            (4..=15, 2),
            (16..=42, 3),
            (43..=91, 4),
            (92..=166, 5),
            (167..=274, 6),
            (275..=421, 7),
            (422..=614, 8),
            (615..=857, 9),
            (858..=1157, 10),
        ];
        for (range, want) in table {
            for n in range {
                assert_eq!(auto_block_length(n), want, "n = {n}");
            }
        }
        assert_eq!(auto_block_length(0), 1);
        assert_eq!(auto_block_length(11), 2);
        assert_eq!(auto_block_length(21), 3);
        assert_eq!(auto_block_length(51), 4);
        assert_eq!(auto_block_length(64), 4);
        // The pitfall of D.4: 64^(1/3) by `powf` is 3.9999999999999996 (`cbrt` happens to
        // be exact); rounding, unlike truncation, gives 4 either way.
        assert_eq!(64f64.powf(1.0 / 3.0), 3.999_999_999_999_999_6);
        assert_eq!(64f64.powf(1.0 / 3.0).round(), 4.0);
        assert_eq!(auto_block_length(101), 5);
        assert_eq!(auto_block_length(201), 6);
        assert_eq!(auto_block_length(1000), 10);
    }

    #[test]
    fn block_length_clamp() {
        assert_eq!(effective_block_length(0, 0), 1);
        assert_eq!(effective_block_length(1, 11), 1);
        assert_eq!(effective_block_length(5, 11), 5);
        assert_eq!(effective_block_length(6, 11), 5);
        assert_eq!(effective_block_length(100, 11), 5);
        assert_eq!(effective_block_length(2, 3), 1);
        assert_eq!(effective_block_length(2, 1), 1);
    }

    /// ℓ = 1 makes exactly the calls of the ordinary bootstrap: same indices, same final
    /// generator state.
    #[test]
    fn block_length_one_is_the_ordinary_bootstrap_draw_for_draw() {
        for n in [1usize, 2, 11, 101] {
            let mut r1 = Rng::new(99);
            let mut r2 = Rng::new(99);
            let mut plain = vec![0; n];
            let mut blocks = vec![0; n];
            for _ in 0..50 {
                bootstrap_indices(&mut r1, n, &mut plain).unwrap();
                moving_block_indices(&mut r2, n, 1, &mut blocks).unwrap();
                assert_eq!(plain, blocks);
            }
            assert_eq!(r1, r2);
            // Through the value kernels, both paths of `fill` agree too.
            let src: Vec<f64> = (0..n).map(|i| i as f64 * 1.5).collect();
            let (mut v1, mut v2) = (vec![0.0; n], vec![0.0; n]);
            let mut r3 = r1.clone();
            fill(&mut r1, &src, 1, &mut v1);
            for_each_block(&mut r3, n, 1, n, |pos, start, len| {
                v2[pos..pos + len].copy_from_slice(&src[start..start + len]);
            });
            assert_eq!(v1, v2);
            assert_eq!(r1, r3);
        }
    }

    #[test]
    fn values_equal_indices_applied() {
        let src: Vec<f64> = (0..37).map(|i| (i * i) as f64).collect();
        for l in [0usize, 1, 2, 5, 18, 40] {
            let mut ri = Rng::new(5);
            let mut rv = Rng::new(5);
            let mut idx = vec![0; 37];
            let mut vals = vec![0.0; 37];
            for _ in 0..20 {
                moving_block_indices(&mut ri, 37, l, &mut idx).unwrap();
                resample_into(&mut rv, &src, l, &mut vals).unwrap();
                let expect: Vec<f64> = idx.iter().map(|&i| src[i]).collect();
                assert_eq!(vals, expect, "l = {l}");
            }
            assert_eq!(ri, rv);
        }
    }

    #[test]
    fn blocks_are_consecutive_and_the_last_is_truncated() {
        let n = 11;
        let l = 4;
        let mut idx = vec![0; n];
        let mut rng = Rng::new(8);
        let mut starts = vec![0usize; n - l + 1];
        for _ in 0..20_000 {
            moving_block_indices(&mut rng, n, l, &mut idx).unwrap();
            for block in idx.chunks(l) {
                for w in block.windows(2) {
                    assert_eq!(w[1], w[0] + 1);
                }
                assert!(block[0] + l <= n, "block must fit");
                starts[block[0]] += 1;
            }
        }
        // 3 blocks per replicate (4 + 4 + 3): starts uniform over the 8 valid positions.
        let expected = 60_000.0 / 8.0;
        for &c in &starts {
            assert!((c as f64 - expected).abs() < 0.05 * expected, "{starts:?}");
        }
    }

    #[test]
    fn replicate_length_is_the_output_length() {
        let mut rng = Rng::new(2);
        let src = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let mut out = [0.0; 17];
        resample_into(&mut rng, &src, 3, &mut out).unwrap();
        assert!(out.iter().all(|x| src.contains(x)));
        let mut empty: [f64; 0] = [];
        resample_into(&mut rng, &[], 3, &mut empty).unwrap();
        assert!(matches!(
            resample_into(&mut rng, &[], 3, &mut out),
            Err(Error::TooFewSamples { .. })
        ));
        let mut idx = [0usize; 3];
        assert!(bootstrap_indices(&mut rng, 0, &mut idx).is_err());
        assert!(moving_block_indices(&mut rng, 0, 2, &mut idx).is_err());
    }

    #[test]
    fn paired_uses_one_index_vector_for_both() {
        let a: Vec<f64> = (0..21).map(|i| i as f64).collect();
        let b: Vec<f64> = (0..21).map(|i| 100.0 + i as f64).collect();
        for l in [0usize, 1, 3] {
            let mut rp = Rng::new(4);
            let mut ri = Rng::new(4);
            let (mut oa, mut ob) = (vec![0.0; 21], vec![0.0; 21]);
            let mut idx = vec![0; 21];
            for _ in 0..10 {
                paired_resample_into(&mut rp, &a, &b, l, &mut oa, &mut ob).unwrap();
                moving_block_indices(&mut ri, 21, l, &mut idx).unwrap();
                for j in 0..21 {
                    assert_eq!(oa[j], a[idx[j]]);
                    assert_eq!(ob[j], b[idx[j]]);
                }
            }
        }
        let mut rng = Rng::new(1);
        let (mut oa, mut ob) = (vec![0.0; 3], vec![0.0; 2]);
        assert!(matches!(
            paired_resample_into(&mut rng, &a, &b[..20], 0, &mut oa, &mut ob),
            Err(Error::LengthMismatch { a: 21, b: 20 })
        ));
        assert!(matches!(
            paired_resample_into(&mut rng, &a, &b, 0, &mut oa, &mut ob),
            Err(Error::LengthMismatch { a: 3, b: 2 })
        ));
    }

    #[test]
    fn ordinary_bootstrap_covers_every_value_evenly() {
        // Every one of 15 values appears, and the counts are even (reference E.3:
        // (max − min) / (N·15) ≤ 0.002 over 10⁶ samples; here 10⁵ samples with a looser bound).
        let src: Vec<f64> = (1..=15).map(f64::from).collect();
        let mut out = vec![0.0; 15];
        let mut counts = [0u64; 15];
        let mut rng = Rng::new(15);
        for _ in 0..100_000 {
            resample_into(&mut rng, &src, 0, &mut out).unwrap();
            for x in &out {
                counts[*x as usize - 1] += 1;
            }
        }
        let max = *counts.iter().max().unwrap() as f64;
        let min = *counts.iter().min().unwrap() as f64;
        assert!(min > 0.0);
        assert!((max - min) / (100_000.0 * 15.0) < 0.005, "{counts:?}");
    }
}
