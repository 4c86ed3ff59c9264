//! Properties of the bootstrap that must hold for every input, checked with proptest.
//!
//! Each property uses few replicates (at most a few hundred) so the whole file runs in
//! seconds; the properties do not depend on the replicate count.

use proptest::prelude::*;
use rtcompare::stats::{
    EstimateOptions, bootstrap_replicates, confidences_for, estimate_difference,
};
use rtcompare::support::rng::Rng;
use rtcompare::support::stats::{
    bootstrap_indices, estimate_with_confidences, estimate_with_ties, moving_block_indices,
    relative_difference, tie_split_confidence,
};

/// Any finite f64: every magnitude from subnormal to 1.8e308, both signs, zeros, and
/// ordinary timing-like values.
fn any_finite() -> impl Strategy<Value = f64> {
    use proptest::num::f64 as f;
    prop_oneof![
        3 => f::POSITIVE | f::NEGATIVE | f::NORMAL | f::SUBNORMAL | f::ZERO,
        3 => 1.0..1e6f64,
        1 => -1e3..1e3f64,
        1 => Just(0.0),
    ]
}

/// Timing-like positive values in a moderate range (ratios between 1/4 and 4), where the
/// arithmetic of the symmetry checks is exact to a few ulps.
fn timing() -> impl Strategy<Value = f64> {
    50.0..200.0f64
}

/// Strictly increasing positive data (so no two values tie).
fn distinct(n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(0.01..10.0f64, n).prop_map(|steps| {
        let mut acc = 100.0;
        steps
            .into_iter()
            .map(|s| {
                acc += s;
                acc
            })
            .collect()
    })
}

fn small_opts() -> impl Strategy<Value = EstimateOptions> {
    (
        1usize..300,
        0usize..8,
        any::<u64>(),
        any::<bool>(),
        prop_oneof![Just(0.0), 0.01..0.99f64],
    )
        .prop_map(|(resamples, block, seed, paired, level)| {
            EstimateOptions::default()
                .resamples(resamples)
                .block_length(block)
                .seed(seed)
                .paired(paired)
                .level(level)
        })
}

/// The median by sorting, written independently of the crate.
fn median_by_sorting(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        // std's midpoint: exact for subnormals, no overflow for huge values.
        f64::midpoint(v[n / 2 - 1], v[n / 2])
    }
}

/// Type-7 quantile of sorted data, written independently of the crate.
fn type7(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let frac = h - lo as f64;
    if frac == 0.0 || lo == hi {
        sorted[lo]
    } else {
        sorted[lo] + frac * (sorted[hi] - sorted[lo])
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// No input of finite values (of any length, magnitude or sign) makes any entry point
    /// panic; every `Ok` result is finite and well ordered.
    #[test]
    fn never_panics_and_ok_results_are_sane(
        a in prop::collection::vec(any_finite(), 0..40),
        b in prop::collection::vec(any_finite(), 0..40),
        opts in small_opts(),
        thresholds in prop::collection::vec(
            prop_oneof![-2.0..2.0f64, Just(f64::INFINITY), Just(f64::NEG_INFINITY)], 0..5),
    ) {
        let _ = relative_difference(&a, &b);
        if let Ok(est) = estimate_difference(&a, &b, &opts) {
            prop_assert!(est.delta.is_finite() && est.low.is_finite() && est.high.is_finite());
            prop_assert!(est.low <= est.high);
            prop_assert!(est.bootstrap_median.is_finite());
            prop_assert_ne!(est.seed, 0);
        }
        if let Ok(c) = confidences_for(&a, &b, &thresholds, &opts) {
            prop_assert!(c.iter().all(|e| (0.0..=1.0).contains(&e.confidence)));
        }
        if let Ok(t) = tie_split_confidence(&a, &b, &opts) {
            prop_assert!((0.0..=1.0).contains(&t.confidence));
            prop_assert!((0.0..=1.0).contains(&t.tie_rate));
        }
        if let Ok(reps) = bootstrap_replicates(&a, &b, &opts) {
            prop_assert!(reps.iter().all(|d| d.is_finite()));
        }
    }

    /// Confidences lie in [0, 1], come in ascending distinct threshold order, never increase
    /// with the threshold, and are 1 at −∞ and 0 at +∞.
    #[test]
    fn confidences_are_monotone_shares(
        a in prop::collection::vec(timing(), 11..40),
        b in prop::collection::vec(timing(), 11..40),
        mut thresholds in prop::collection::vec(-1.0..1.0f64, 0..12),
        seed in any::<u64>(),
    ) {
        thresholds.push(f64::INFINITY);
        thresholds.push(f64::NEG_INFINITY);
        let opts = EstimateOptions::default().resamples(200).seed(seed);
        let c = confidences_for(&a, &b, &thresholds, &opts).unwrap();
        for w in c.windows(2) {
            prop_assert!(w[0].threshold < w[1].threshold);
            prop_assert!(w[0].confidence >= w[1].confidence);
        }
        prop_assert!(c.iter().all(|e| (0.0..=1.0).contains(&e.confidence)));
        prop_assert_eq!(c.at(f64::NEG_INFINITY), Some(1.0));
        prop_assert_eq!(c.at(f64::INFINITY), Some(0.0));
        for t in &thresholds {
            prop_assert!(c.at(*t).is_some());
        }
    }

    /// Swapping A and B turns the point ratio r into 1/r (up to rounding).
    #[test]
    fn swapping_inverts_the_point_ratio(
        a in prop::collection::vec(timing(), 11..40),
        b in prop::collection::vec(timing(), 11..40),
        seed in any::<u64>(),
    ) {
        let opts = EstimateOptions::default().resamples(50).seed(seed);
        let ab = estimate_difference(&a, &b, &opts).unwrap().ratio().ratio;
        let ba = estimate_difference(&b, &a, &opts).unwrap().ratio().ratio;
        prop_assert!((ab * ba - 1.0).abs() < 1e-12, "{} · {} = {}", ab, ba, ab * ba);
    }

    /// Paired, with an odd number of pairs, swapping A and B is an exact mirror: the same
    /// indices are drawn, each replicate's ratio becomes its reciprocal (up to rounding), and
    /// since a median of an odd count is below 1 exactly when more than half the ratios are,
    /// wins and losses trade places exactly: the tie-split confidences add up to 1 and the
    /// tie rates are equal. (The interval ends swap only approximately, because the type-7
    /// interpolation between neighbouring replicates is linear in δ, not in 1/(1 − δ).)
    #[test]
    fn paired_swap_is_an_exact_mirror(
        pairs in (5usize..20).prop_flat_map(|k| {
            let n = 2 * k + 1;
            (prop::collection::vec(timing(), n), prop::collection::vec(timing(), n))
        }),
        block in 0usize..5,
        seed in any::<u64>(),
    ) {
        let (a, b) = pairs;
        let opts = EstimateOptions::default().resamples(300).seed(seed).paired(true)
            .block_length(block);
        let ab = bootstrap_replicates(&a, &b, &opts).unwrap();
        let ba = bootstrap_replicates(&b, &a, &opts).unwrap();
        for (x, y) in ab.iter().zip(&ba) {
            let product = (1.0 - x) * (1.0 - y);
            prop_assert!((product - 1.0).abs() < 1e-12, "{} {}", x, y);
            prop_assert_eq!(x.partial_cmp(&0.0), (-y).partial_cmp(&0.0));
        }
        let t_ab = tie_split_confidence(&a, &b, &opts).unwrap();
        let t_ba = tie_split_confidence(&b, &a, &opts).unwrap();
        prop_assert!((t_ab.confidence + t_ba.confidence - 1.0).abs() < 1e-12);
        prop_assert_eq!(t_ab.tie_rate, t_ba.tie_rate);
        let e_ab = estimate_difference(&a, &b, &opts).unwrap().ratio();
        let e_ba = estimate_difference(&b, &a, &opts).unwrap().ratio();
        prop_assert!((e_ab.ratio * e_ba.ratio - 1.0).abs() < 1e-12);
    }

    /// Block length 1 is the plain bootstrap: bit-identical to block length 0 and to a
    /// replicate loop written here from `bootstrap_indices` and a sorting median.
    #[test]
    fn block_length_one_is_the_plain_bootstrap(
        a in prop::collection::vec(any_finite(), 11..30),
        b in prop::collection::vec(any_finite(), 11..30),
        seed in 1u64..,
        paired in any::<bool>(),
    ) {
        let b = if paired { b.iter().cycle().take(a.len()).copied().collect() } else { b };
        let base = EstimateOptions::default().resamples(101).seed(seed).paired(paired);
        let zero = estimate_difference(&a, &b, &base.block_length(0));
        let one = estimate_difference(&a, &b, &base.block_length(1));
        prop_assert_eq!(&zero, &one);
        let Ok(est) = one else { return Ok(()) };

        let reps = bootstrap_replicates(&a, &b, &base.block_length(1)).unwrap();
        let mut rng = Rng::new(seed);
        let mut ia = vec![0; a.len()];
        let mut ib = vec![0; b.len()];
        for want in &reps {
            let d = if paired {
                bootstrap_indices(&mut rng, a.len(), &mut ia).unwrap();
                let ratios: Vec<f64> = ia.iter().map(|&i| a[i] / b[i]).collect();
                1.0 - median_by_sorting(&ratios)
            } else {
                bootstrap_indices(&mut rng, a.len(), &mut ia).unwrap();
                bootstrap_indices(&mut rng, b.len(), &mut ib).unwrap();
                let ra: Vec<f64> = ia.iter().map(|&i| a[i]).collect();
                let rb: Vec<f64> = ib.iter().map(|&i| b[i]).collect();
                1.0 - median_by_sorting(&ra) / median_by_sorting(&rb)
            };
            prop_assert_eq!(d.to_bits(), want.to_bits());
        }
        let mut sorted = reps.clone();
        sorted.sort_by(f64::total_cmp);
        let tail = (1.0 - 0.95) / 2.0;
        prop_assert_eq!(est.low.to_bits(), type7(&sorted, tail).to_bits());
        prop_assert_eq!(est.high.to_bits(), type7(&sorted, 1.0 - tail).to_bits());
    }

    /// Draw for draw: the moving-block index resample with ℓ = 1 makes the same generator
    /// calls as the ordinary bootstrap.
    #[test]
    fn moving_block_of_one_draws_like_the_ordinary_bootstrap(
        n in 1usize..200,
        m in 0usize..300,
        seed in any::<u64>(),
    ) {
        let mut r1 = Rng::new(seed);
        let mut r2 = Rng::new(seed);
        let mut x = vec![0; m];
        let mut y = vec![0; m];
        bootstrap_indices(&mut r1, n, &mut x).unwrap();
        moving_block_indices(&mut r2, n, 1, &mut y).unwrap();
        prop_assert_eq!(&x, &y);
        prop_assert_eq!(r1.next_u64(), r2.next_u64());
    }

    /// The same seed gives bit-identical results; different seeds different replicates.
    #[test]
    fn seeds_reproduce_and_separate(
        a in distinct(11..40),
        b in distinct(11..40),
        s1 in 1u64..,
        s2 in 1u64..,
        block in 0usize..6,
    ) {
        prop_assume!(s1 != s2);
        let o1 = EstimateOptions::default().resamples(200).seed(s1).block_length(block);
        let (e, c) = estimate_with_confidences(&a, &b, &[0.0, 0.05], &o1).unwrap();
        let (e2, c2) = estimate_with_confidences(&a, &b, &[0.0, 0.05], &o1).unwrap();
        prop_assert_eq!(e, e2);
        prop_assert_eq!(c, c2);
        prop_assert_eq!(estimate_with_ties(&a, &b, &o1).unwrap().0, e);
        let r1 = bootstrap_replicates(&a, &b, &o1).unwrap();
        let r2 = bootstrap_replicates(&a, &b, &o1.seed(s2)).unwrap();
        prop_assert_ne!(r1, r2);
    }
}
