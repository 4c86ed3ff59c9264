//! Property tests for the non-bootstrap part of `rtcompare::stats`: no panics and no NaN for
//! any finite input (including ±1e300, 1e-300, subnormals and ±f64::MAX), the order relations
//! the summaries must keep, the symmetries of the drift test and of the few-runs rule, and an
//! error whenever a NaN or an infinity appears in the input.

use proptest::prelude::*;
use rtcompare::stats::{
    autocorrelation, detect_drift, iqr, mad, max, mean, median, min, normal_quantile, quantile,
    std_dev, student_t_quantile, variance, welch_t_test,
};
use rtcompare::support::stats::{
    FewRunsOutcome, FewRunsRule, ThresholdOutcome, few_runs_verdict, lag1_autocorrelation,
    lower_bound_rule, mad_scaled, normal_cdf, student_t_cdf, three_outcome_rule,
    two_sided_normal_p,
};

/// Any finite value, with extra weight on ordinary magnitudes, on ties (small integers) and on
/// the extremes.
fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -1e3..1e3f64,
        2 => (0u8..5).prop_map(f64::from),
        2 => prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        1 => prop::sample::select(vec![1e300, -1e300, 1e-300, -1e-300, f64::MAX, -f64::MAX, 5e-324]),
    ]
}

/// Any finite, positive run time, from subnormal to f64::MAX.
fn positive_extreme() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => 1.0..1e9f64,
        1 => prop::num::f64::POSITIVE | prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL,
        1 => prop::sample::select(vec![1e300, 1e-300, f64::MAX, 5e-324]),
    ]
    .prop_filter("positive", |x| *x > 0.0)
}

/// A sample with one non-finite value spliced in somewhere.
fn with_non_finite(min_len: usize) -> impl Strategy<Value = (Vec<f64>, usize)> {
    (
        prop::collection::vec(-1e6..1e6f64, min_len..20),
        prop::sample::select(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY]),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(mut xs, bad, at)| {
            let i = at.index(xs.len() + 1);
            xs.insert(i, bad);
            (xs, i)
        })
}

#[track_caller]
fn ok_finite(r: rtcompare::Result<f64>) {
    if let Ok(v) = r {
        assert!(v.is_finite(), "non-finite result {v}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn summaries_never_panic_nor_return_nan(
        xs in prop::collection::vec(finite(), 0..40),
        q in prop_oneof![0.0..=1.0f64, any::<f64>()],
    ) {
        for f in [median, iqr, mad, mad_scaled, mean, variance, std_dev, min, max] {
            ok_finite(f(&xs));
        }
        ok_finite(quantile(&xs, q));
        // One finite value is enough for everything but the spread moments.
        if !xs.is_empty() {
            prop_assert!(median(&xs).is_ok());
            prop_assert!(mean(&xs).is_ok());
            prop_assert!(min(&xs).is_ok() && max(&xs).is_ok());
        }
        if xs.len() >= 2 {
            prop_assert!(std_dev(&xs).is_ok(), "std_dev is finite for finite input");
        }
    }

    #[test]
    fn median_and_quantiles_stay_between_min_and_max(
        xs in prop::collection::vec(finite(), 1..40),
        q1 in 0.0..=1.0f64,
        q2 in 0.0..=1.0f64,
    ) {
        let (lo, hi) = (min(&xs).unwrap(), max(&xs).unwrap());
        let m = median(&xs).unwrap();
        prop_assert!(lo <= m && m <= hi);
        let mean_v = mean(&xs).unwrap();
        prop_assert!(lo <= mean_v && mean_v <= hi);
        let (qa, qb) = (q1.min(q2), q1.max(q2));
        let (va, vb) = (quantile(&xs, qa).unwrap(), quantile(&xs, qb).unwrap());
        prop_assert!(lo <= va && va <= vb && vb <= hi, "q({qa}) = {va} > q({qb}) = {vb}");
        prop_assert_eq!(quantile(&xs, 0.0).unwrap(), lo);
        prop_assert_eq!(quantile(&xs, 1.0).unwrap(), hi);
    }

    #[test]
    fn spreads_lie_within_the_range(xs in prop::collection::vec(finite(), 2..40)) {
        // Each spread is at least 0 and at most the range (max − min, which may overflow to
        // +inf for ±f64::MAX; then only the lower bound bites). Rounding allowance: 1e-12 of
        // the range and of the largest magnitude (a mean of equal values can miss them by an
        // ulp).
        let (lo, hi) = (min(&xs).unwrap(), max(&xs).unwrap());
        let range = hi - lo;
        let bound = range * (1.0 + 1e-12) + 1e-12 * lo.abs().max(hi.abs());
        for (name, f) in [("iqr", iqr as fn(&[f64]) -> rtcompare::Result<f64>), ("mad", mad), ("std_dev", std_dev)] {
            if let Ok(v) = f(&xs) {
                prop_assert!(v >= 0.0 && v <= bound, "{name} = {v}, range {range}");
            }
        }
        // The standard deviation is the root of the variance (where the variance is a normal
        // number: for spreads near 1e-300 the variance underflows while the scaled standard
        // deviation does not).
        if let (Ok(v), Ok(s)) = (variance(&xs), std_dev(&xs))
            && v.is_normal()
        {
            prop_assert!((s - v.sqrt()).abs() <= 1e-12 * s.max(f64::MIN_POSITIVE), "{s} vs √{v}");
        }
    }

    #[test]
    fn autocorrelation_is_bounded(
        xs in prop::collection::vec(finite(), 0..40),
        lag in 0usize..6,
    ) {
        if let Ok(r) = autocorrelation(&xs, lag) {
            prop_assert!((-1.0..=1.0).contains(&r), "{r}");
        }
        if let Ok(r) = lag1_autocorrelation(&xs) {
            prop_assert!((-1.0..=1.0).contains(&r), "{r}");
        }
        prop_assert_eq!(lag1_autocorrelation(&xs).is_ok(), xs.len() >= 3);
    }

    #[test]
    fn drift_is_bounded_and_reversal_negates_rho(xs in prop::collection::vec(finite(), 0..60)) {
        match detect_drift(&xs) {
            Err(_) => prop_assert!(xs.len() < 4),
            Ok(d) => {
                prop_assert_eq!(d.n, xs.len());
                prop_assert!((-1.0..=1.0).contains(&d.spearman));
                prop_assert!((0.0..=1.0).contains(&d.p_value));
                prop_assert!(d.z.is_finite() && d.relative_shift.is_finite());
                prop_assert!(d.first_half.is_finite() && d.second_half.is_finite());
                let rev: Vec<f64> = xs.iter().rev().copied().collect();
                let r = detect_drift(&rev).unwrap();
                prop_assert!((r.spearman + d.spearman).abs() < 1e-12, "{} vs {}", d.spearman, r.spearman);
                prop_assert!((r.p_value - d.p_value).abs() < 1e-12);
                prop_assert_eq!(r.first_half, d.second_half);
                prop_assert_eq!(r.second_half, d.first_half);
            }
        }
    }

    #[test]
    fn welch_never_panics_and_is_finite(
        a in prop::collection::vec(finite(), 0..20),
        b in prop::collection::vec(finite(), 0..20),
    ) {
        if let Ok(w) = welch_t_test(&a, &b) {
            prop_assert!(w.t.is_finite() && w.df.is_finite() && w.df > 0.0);
            prop_assert!((0.0..=1.0).contains(&w.p_value));
            prop_assert!(w.std_err > 0.0 && w.std_err.is_finite());
            prop_assert!(w.mean_a.is_finite() && w.mean_b.is_finite());
        }
    }

    #[test]
    fn distributions_never_panic(
        x in finite(),
        p in prop_oneof![0.0..=1.0f64, prop::sample::select(vec![1e-300, 1e-12, 1.0 - 1e-12]), any::<f64>()],
        df in prop_oneof![0.01..1e3f64, prop::num::f64::POSITIVE | prop::num::f64::NORMAL, any::<f64>()],
    ) {
        if let Ok(c) = normal_cdf(x) {
            prop_assert!((0.0..=1.0).contains(&c));
        }
        if let Ok(v) = two_sided_normal_p(x) {
            prop_assert!((0.0..=1.0).contains(&v));
        }
        ok_finite(normal_quantile(p));
        if let Ok(c) = student_t_cdf(x, df) {
            prop_assert!((0.0..=1.0).contains(&c));
        }
        ok_finite(student_t_quantile(p, df));
        prop_assert_eq!(normal_quantile(p).is_ok(), p > 0.0 && p < 1.0);
        // The t quantile is monotone in p where it exists.
        if let (Ok(q), Ok(q2)) = (student_t_quantile(p, df), student_t_quantile((p + 1.0) / 2.0, df)) {
            prop_assert!(q <= q2);
        }
    }

    #[test]
    fn verdict_rules_never_panic_and_agree_with_their_inputs(
        delta in any::<f64>(),
        low in prop_oneof![-0.5..0.5f64, any::<f64>()],
        width in 0.0..0.5f64,
        threshold in prop_oneof![0.0..0.1f64, any::<f64>()],
    ) {
        let high = low + width;
        if let Ok(v) = three_outcome_rule(delta, low, high, threshold) {
            match v.outcome {
                ThresholdOutcome::Faster => {
                    prop_assert!(low > 0.0 && delta >= threshold && delta > 0.0)
                }
                ThresholdOutcome::Slower => {
                    prop_assert!(high < 0.0 && -delta >= threshold && delta < 0.0)
                }
                ThresholdOutcome::CannotTell(_) => {}
            }
        }
        if let Ok(d) = lower_bound_rule(low, threshold) {
            prop_assert_eq!(d.accepted, low > threshold);
            prop_assert!(d.margin.is_finite());
        }
    }

    #[test]
    fn few_runs_swap_inverts_ratio_and_outcome(
        a in prop::collection::vec(1.0e3..1e9f64, 2..12),
        b in prop::collection::vec(1.0e3..1e9f64, 2..12),
        parity in 0.0..0.2f64,
        floor in 0.0..1e5f64,
    ) {
        let rule = FewRunsRule::default().parity(parity).floor(floor);
        let v = few_runs_verdict(&a, &b, &rule).unwrap();
        let s = few_runs_verdict(&b, &a, &rule).unwrap();
        prop_assert!((v.ratio * s.ratio - 1.0).abs() < 1e-12);
        prop_assert!((v.best_ratio * s.best_ratio - 1.0).abs() < 1e-12);
        prop_assert_eq!(v.tolerance, s.tolerance);
        prop_assert_eq!(v.best_tolerance, s.best_tolerance);
        prop_assert_eq!(v.noise, s.noise);
        let mirrored = match v.outcome {
            FewRunsOutcome::Win => FewRunsOutcome::Loss,
            FewRunsOutcome::Loss => FewRunsOutcome::Win,
            FewRunsOutcome::Parity => FewRunsOutcome::Parity,
        };
        prop_assert_eq!(s.outcome, mirrored);
        prop_assert!(v.tolerance >= parity && v.best_tolerance >= parity);
        prop_assert_eq!(few_runs_verdict(&a, &a, &rule).unwrap().outcome, FewRunsOutcome::Parity);
    }

    #[test]
    fn few_runs_extreme_values_stay_finite(
        a in prop::collection::vec(positive_extreme(), 0..10),
        b in prop::collection::vec(positive_extreme(), 0..10),
    ) {
        match few_runs_verdict(&a, &b, &FewRunsRule::default()) {
            Err(_) => prop_assert!(a.len() < 2 || b.len() < 2),
            Ok(v) => {
                for x in [v.ratio, v.best_ratio, v.tolerance, v.best_tolerance, v.noise] {
                    prop_assert!(x.is_finite() && x >= 0.0);
                }
            }
        }
    }

    #[test]
    fn non_finite_anywhere_is_an_error((xs, _at) in with_non_finite(0)) {
        for f in [median, iqr, mad, mad_scaled, mean, variance, std_dev, min, max] {
            prop_assert!(f(&xs).is_err());
        }
        prop_assert!(quantile(&xs, 0.5).is_err());
        prop_assert!(lag1_autocorrelation(&xs).is_err());
        prop_assert!(detect_drift(&xs).is_err());
        let ok = [1.0, 2.0, 3.0];
        prop_assert!(welch_t_test(&xs, &ok).is_err());
        prop_assert!(welch_t_test(&ok, &xs).is_err());
        let pos = [1e6, 1.1e6, 1.2e6];
        prop_assert!(few_runs_verdict(&xs, &pos, &FewRunsRule::default()).is_err());
        prop_assert!(few_runs_verdict(&pos, &xs, &FewRunsRule::default()).is_err());
    }

    #[test]
    fn non_finite_is_reported_where_it_is((xs, at) in with_non_finite(4)) {
        match detect_drift(&xs) {
            Err(rtcompare::Error::NonFinite { index, .. }) => prop_assert_eq!(index, at),
            other => prop_assert!(false, "unexpected {:?}", other),
        }
        match median(&xs) {
            Err(rtcompare::Error::NonFinite { index, .. }) => prop_assert_eq!(index, at),
            other => prop_assert!(false, "unexpected {:?}", other),
        }
    }
}
