//! Known answers for `rtcompare::stats` (the non-bootstrap part), computed with an independent
//! tool: NumPy 2.4.6 and SciPy 1.17.1. Each constant carries the Python expression that
//! produced it (`np` = numpy, `st` = scipy.stats, `sp` = scipy.special). Nothing here calls
//! Python at test time.

use rtcompare::stats::{
    autocorrelation, detect_drift, iqr, mad, mean, median, normal_quantile, quantile, std_dev,
    student_t_quantile, variance, welch_t_test,
};
use rtcompare::support::stats::{
    CannotTellReason, FewRunsOutcome, FewRunsRule, FewRunsVerdict, ThresholdOutcome,
    exact_proportion_interval, few_runs_verdict, lag1_autocorrelation, lower_bound_rule,
    mad_scaled, normal_cdf, student_t_cdf, three_outcome_rule, two_sided_normal_p,
};

/// `|got − want| ≤ rel·|want|` (or `≤ rel` when `want` is 0).
#[track_caller]
fn close(got: f64, want: f64, rel: f64) {
    let tol = if want == 0.0 { rel } else { rel * want.abs() };
    assert!(
        (got - want).abs() <= tol,
        "got {got:e}, want {want:e} (relative tolerance {rel:e})"
    );
}

const ODD: [f64; 7] = [7.0, 1.0, 3.0, 15.0, 9.0, 4.0, 12.0];
const EVEN: [f64; 8] = [3.1, 1.4, 4.1, 5.9, 2.6, 5.3, 5.8, 9.7];

#[test]
fn quantiles_type_7_odd_n() {
    let cases = [
        (0.0, 1.0),                // np.quantile(ODD, 0.0, method="linear")
        (0.1, 2.2),                // np.quantile(ODD, 0.1, method="linear")
        (0.25, 3.5),               // np.quantile(ODD, 0.25, method="linear")
        (0.3, 3.8),                // np.quantile(ODD, 0.3, method="linear")
        (0.5, 7.0),                // np.quantile(ODD, 0.5, method="linear")
        (0.9, 13.200000000000001), // np.quantile(ODD, 0.9, method="linear")
        (1.0, 15.0),               // np.quantile(ODD, 1.0, method="linear")
    ];
    for (q, want) in cases {
        close(quantile(&ODD, q).unwrap(), want, 1e-14);
    }
}

#[test]
fn quantiles_type_7_even_n() {
    let cases = [
        (0.0, 1.4),               // np.quantile(EVEN, 0.0, method="linear")
        (0.1, 2.24),              // np.quantile(EVEN, 0.1, method="linear")
        (0.25, 2.975),            // np.quantile(EVEN, 0.25, method="linear")
        (0.3, 3.2),               // np.quantile(EVEN, 0.3, method="linear")
        (0.5, 4.699999999999999), // np.quantile(EVEN, 0.5, method="linear")
        (0.9, 7.039999999999999), // np.quantile(EVEN, 0.9, method="linear")
        (1.0, 9.7),               // np.quantile(EVEN, 1.0, method="linear")
    ];
    for (q, want) in cases {
        close(quantile(&EVEN, q).unwrap(), want, 1e-14);
    }
    // The extremes are the order statistics themselves, exactly.
    assert_eq!(quantile(&EVEN, 0.0).unwrap(), 1.4);
    assert_eq!(quantile(&EVEN, 1.0).unwrap(), 9.7);
}

#[test]
fn medians_and_spreads() {
    assert_eq!(median(&ODD).unwrap(), 7.0); // np.median(ODD)
    close(median(&EVEN).unwrap(), 4.699999999999999, 1e-15); // np.median(EVEN)
    assert_eq!(median(&[42.0]).unwrap(), 42.0); // np.median([42.0])
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]).unwrap(), 2.5); // np.median([4, 1, 3, 2])

    assert_eq!(mad(&ODD).unwrap(), 4.0); // st.median_abs_deviation(ODD)
    close(mad(&EVEN).unwrap(), 1.4000000000000001, 1e-14); // st.median_abs_deviation(EVEN)
    // st.median_abs_deviation(ODD, scale="normal")
    close(mad_scaled(&ODD).unwrap(), 5.930408874022408, 1e-14);
    // st.median_abs_deviation(EVEN, scale="normal")
    close(mad_scaled(&EVEN).unwrap(), 2.075643105907843, 1e-14);

    assert_eq!(iqr(&ODD).unwrap(), 7.0); // st.iqr(ODD)
    close(iqr(&EVEN).unwrap(), 2.849999999999999, 1e-14); // st.iqr(EVEN)
}

#[test]
fn moments() {
    close(mean(&ODD).unwrap(), 7.285714285714286, 1e-15); // np.mean(ODD)
    close(mean(&EVEN).unwrap(), 4.7375, 1e-15); // np.mean(EVEN)
    close(variance(&ODD).unwrap(), 25.571428571428573, 1e-14); // np.var(ODD, ddof=1)
    close(variance(&EVEN).unwrap(), 6.60267857142857, 1e-14); // np.var(EVEN, ddof=1)
    close(std_dev(&ODD).unwrap(), 5.056820005836531, 1e-14); // np.std(ODD, ddof=1)
    close(std_dev(&EVEN).unwrap(), 2.569567779107718, 1e-14); // np.std(EVEN, ddof=1)
}

/// The autocorrelation formula in NumPy, for `s` and lag `k`:
/// `d = s - s.mean(); np.sum(d[:-k] * d[k:]) / np.sum(d * d)`.
#[test]
fn autocorrelations() {
    let s = [4.2, 4.5, 4.4, 4.9, 5.1, 4.8, 5.3, 5.6, 5.2, 5.0];
    close(lag1_autocorrelation(&s).unwrap(), 0.5529411764705882, 1e-12); // k = 1
    close(autocorrelation(&s, 2).unwrap(), 0.26470588235294085, 1e-12); // k = 2
    close(autocorrelation(&s, 3).unwrap(), 0.0705882352941174, 1e-10); // k = 3
    let alt = [1.0, 3.0, 1.0, 3.0, 1.0, 3.0, 2.0];
    close(
        lag1_autocorrelation(&alt).unwrap(),
        -0.8333333333333334,
        1e-12,
    ); // k = 1
}

/// (series, rho, z, p, first_half, second_half, relative_shift)
type DriftCase<'a> = (&'a [f64], f64, f64, f64, f64, f64, f64);

/// ρ from `st.spearmanr(np.arange(n), x).statistic` (tie-corrected, average ranks). SciPy's
/// own p-value uses a t distribution, so the p-value here is our normal approximation
/// computed in Python as `sp.erfc(abs(rho * sqrt(n - 1)) / sqrt(2))`. The halves are
/// `np.median(x[:n//2])` and `np.median(x[n - n//2:])`, the shift `second / first - 1`.
#[test]
fn drift_known_answers() {
    let trend: Vec<f64> = (1..=20).map(f64::from).collect();
    let step: Vec<f64> = [100.0; 10].into_iter().chain([110.0; 10]).collect();
    let cases: [DriftCase; 6] = [
        // x = 1..20
        (
            &trend,
            1.0,
            4.358898943540674,
            1.3071845366762976e-05,
            5.5,
            15.5,
            1.8181818181818183,
        ),
        // x = [100]*10 + [110]*10 (heavy ties)
        (
            &step,
            0.8671099695241199,
            3.779644730092272,
            0.00015705228423075165,
            100.0,
            110.0,
            0.10000000000000009,
        ),
        // x = [1, 2, 3, 4]: a perfect trend that is not significant at 5 %
        (
            &[1.0, 2.0, 3.0, 4.0],
            1.0,
            1.7320508075688772,
            0.08326451666355045,
            1.5,
            3.5,
            1.3333333333333335,
        ),
        // odd N with ties; the middle value is excluded from the halves
        (
            &[
                10.0, 10.0, 11.0, 10.0, 11.0, 11.0, 12.0, 11.0, 12.0, 12.0, 13.0, 12.0, 13.0,
            ],
            0.9052667704619539,
            3.1359360816877935,
            0.0017130653515985417,
            10.5,
            12.0,
            0.1428571428571428,
        ),
        // ties, weak trend
        (
            &[5.0, 3.0, 5.0, 5.0, 2.0, 8.0, 8.0, 1.0, 9.0, 9.0, 9.0, 4.0],
            0.3801551485074345,
            1.2608319897209959,
            0.2073693856309493,
            5.0,
            8.5,
            0.7,
        ),
        // downward trend with ties
        (
            &[9.0, 9.0, 8.0, 9.0, 7.0, 7.0, 6.0, 7.0, 5.0, 5.0],
            -0.9224810301416777,
            -2.767443090425033,
            0.005649790863033247,
            9.0,
            6.0,
            -0.33333333333333337,
        ),
    ];
    for (x, rho, z, p, first, second, shift) in cases {
        let d = detect_drift(x).unwrap();
        assert_eq!(d.n, x.len());
        close(d.spearman, rho, 1e-12);
        close(d.z, z, 1e-12);
        close(d.p_value, p, 1e-9);
        close(d.first_half, first, 1e-15);
        close(d.second_half, second, 1e-15);
        close(d.relative_shift, shift, 1e-12);
    }
    assert!(!detect_drift(&[1.0, 2.0, 3.0, 4.0]).unwrap().drifted(0.05));
}

/// `r = st.ttest_ind(a, b, equal_var=False)`: `r.statistic`, `r.df`, `r.pvalue`. The df also
/// agrees with the Welch–Satterthwaite formula in NumPy,
/// `(va + vb)**2 / (va**2 / (na - 1) + vb**2 / (nb - 1))` with `va = np.var(a, ddof=1) / na`.
#[test]
fn welch_known_answers() {
    let a = [12.1, 11.8, 12.5, 12.0, 11.9, 12.3];
    let b = [12.9, 13.4, 12.7, 13.8, 13.1, 12.6, 13.0, 14.0];
    let w = welch_t_test(&a, &b).unwrap();
    close(w.t, -5.227682871273516, 1e-12);
    close(w.df, 10.923369888529304, 1e-12);
    close(w.p_value, 0.00028868453750455236, 1e-9);

    let a = [1.0, 2.0, 3.0, 4.0, 5.0];
    let b = [2.0, 2.5, 4.5, 6.0, 3.5, 5.5, 3.0];
    let w = welch_t_test(&a, &b).unwrap();
    close(w.t, -0.94087507228077, 1e-12);
    close(w.df, 8.541239763285313, 1e-12);
    close(w.p_value, 0.37261453161043456, 1e-9);
    close(w.mean_a, 3.0, 1e-15); // np.mean(a)
    close(w.std_dev_a, 1.5811388300841898, 1e-14); // np.std(a, ddof=1)

    // Swapping the samples negates t and keeps df and p.
    let s = welch_t_test(&b, &a).unwrap();
    close(s.t, 0.94087507228077, 1e-12);
    close(s.df, w.df, 1e-14);
    close(s.p_value, w.p_value, 1e-14);
}

#[test]
fn t_quantiles() {
    let cases = [
        (0.975, 4.0, 2.7764451051977934),      // st.t.ppf(0.975, 4)
        (0.995, 1.0, 63.656741162871526),      // st.t.ppf(0.995, 1)
        (0.05, 2.5, -2.5582186141359364),      // st.t.ppf(0.05, 2.5)
        (0.9, 30.0, 1.3104150253913955),       // st.t.ppf(0.9, 30)
        (0.975, 1e6, 1.959966356814107),       // st.t.ppf(0.975, 1e6)
        (1e-10, 3.0, -2225.769284683093),      // st.t.ppf(1e-10, 3)
        (0.975, 0.5, 164.55767348048818),      // st.t.ppf(0.975, 0.5)
        (0.6, 7.3, 0.2627568052507191),        // st.t.ppf(0.6, 7.3)
        (1e-300, 1.0, -3.183098861837907e299), // st.t.ppf(1e-300, 1)
    ];
    for (p, df, want) in cases {
        close(student_t_quantile(p, df).unwrap(), want, 1e-9);
    }
    assert_eq!(student_t_quantile(0.5, 3.0).unwrap(), 0.0);
}

#[test]
fn t_cdf() {
    let cases = [
        (-2.0, 3.0, 0.06966298427942152),     // st.t.cdf(-2.0, 3)
        (1.5, 7.5, 0.912759714706768),        // st.t.cdf(1.5, 7.5)
        (-1e20, 0.5, 3.2070097541422284e-11), // st.t.cdf(-1e20, 0.5)
        (-3.0, 1e9, 0.0013498980648689565),   // st.t.cdf(-3.0, 1e9)
        (0.25, 1.0, 0.5779791303773694),      // st.t.cdf(0.25, 1)
        (-40.0, 2.0, 0.0003122073360923703),  // st.t.cdf(-40.0, 2)
        (4.0, 2e5, 0.999968317381146),        // st.t.cdf(4.0, 2e5)
    ];
    for (x, df, want) in cases {
        close(student_t_cdf(x, df).unwrap(), want, 1e-9);
    }
}

/// The CDF side goes through statrs 0.19.1's `erfc`, which is accurate to about 1e-10
/// relative (its interval constants are truncated; statrs-dev/statrs#412), hence the looser
/// tolerance there. The quantile side uses `erfc_inv` and is accurate to a few ulps.
#[test]
fn normal_distribution() {
    close(normal_quantile(0.975).unwrap(), 1.959963984540054, 1e-14); // st.norm.ppf(0.975)
    close(normal_quantile(0.001).unwrap(), -3.090232306167813, 1e-14); // st.norm.ppf(0.001)
    close(normal_quantile(0.3).unwrap(), -0.5244005127080409, 1e-14); // st.norm.ppf(0.3)
    close(normal_quantile(1e-300).unwrap(), -37.0470962993612, 1e-14); // st.norm.ppf(1e-300)
    assert_eq!(normal_quantile(0.5).unwrap(), 0.0); // st.norm.ppf(0.5)
    close(normal_cdf(-1.5).unwrap(), 0.06680720126885807, 1e-9); // st.norm.cdf(-1.5)
    close(normal_cdf(2.5).unwrap(), 0.9937903346742238, 1e-9); // st.norm.cdf(2.5)
    close(normal_cdf(-30.0).unwrap(), 4.906713927147908e-198, 1e-9); // st.norm.cdf(-30)
    assert_eq!(normal_cdf(0.0).unwrap(), 0.5); // st.norm.cdf(0)
    // sp.erfc(abs(z) / sqrt(2))
    close(
        two_sided_normal_p(1.959963984540054).unwrap(),
        0.050000000000000024,
        1e-9,
    );
    close(two_sided_normal_p(-0.5).unwrap(), 0.6170750774519739, 1e-9);
    close(
        two_sided_normal_p(8.0).unwrap(),
        1.2441921148543658e-15,
        1e-9,
    );
}

#[test]
fn three_outcome_rule_branches() {
    let o = |d, l, h, t| three_outcome_rule(d, l, h, t).unwrap();
    assert_eq!(o(0.06, 0.03, 0.09, 0.02).outcome, ThresholdOutcome::Faster);
    assert_eq!(
        o(-0.06, -0.09, -0.03, 0.02).outcome,
        ThresholdOutcome::Slower
    );
    assert_eq!(
        o(0.06, -0.01, 0.13, 0.02).reason(),
        Some(CannotTellReason::IntervalContainsZero)
    );
    assert_eq!(
        o(0.01, 0.004, 0.016, 0.02).reason(),
        Some(CannotTellReason::BelowThreshold)
    );
    assert_eq!(o(0.06, 0.03, 0.09, 0.02).reason(), None);
}

#[test]
fn lower_bound_rule_uses_the_bound_not_the_estimate() {
    // The cJSON example of the reference: p50 win +6.2 % [+5.8 %, +7.2 %] against 2 %.
    let d = lower_bound_rule(0.058, 0.02).unwrap();
    assert!(d.accepted);
    close(d.margin, 0.038, 1e-12);
    // An estimate of +6 % whose interval reaches below the threshold is rejected.
    let d = lower_bound_rule(0.01, 0.02).unwrap();
    assert!(!d.accepted);
    close(d.margin, -0.01, 1e-12);
}

/// Expected values for the few-runs rule, computed in NumPy/SciPy as
/// `ma, mb = np.median(a), np.median(b)`; `ratio = ma / mb`; `best = min(a) / min(b)`;
/// `noise = max(st.iqr(a) / ma, st.iqr(b) / mb)`;
/// `tol = max(0.04, noise, 25000 / min(ma, mb))`; `btol = max(0.04, 25000 / min(min(a), min(b)))`.
/// All run times are in nanoseconds.
#[track_caller]
fn check_few_runs(
    a: &[f64],
    b: &[f64],
    outcome: FewRunsOutcome,
    want: (f64, f64, f64, f64, f64),
) -> FewRunsVerdict {
    let (ratio, best, tol, btol, noise) = want;
    let v = few_runs_verdict(a, b, &FewRunsRule::default()).unwrap();
    assert_eq!(v.outcome, outcome, "{v}");
    close(v.ratio, ratio, 1e-12);
    close(v.best_ratio, best, 1e-12);
    close(v.tolerance, tol, 1e-12);
    close(v.best_tolerance, btol, 1e-12);
    close(v.noise, noise, 1e-12);
    v
}

#[test]
fn few_runs_win_and_loss() {
    // A smooth cloud, every run of a faster than every run of b.
    let a = [500e3, 505e3, 510e3, 502e3, 508e3];
    let b = [600e3, 610e3, 605e3, 615e3, 603e3];
    let want = (
        0.8347107438016529,
        0.8333333333333334,
        0.04950495049504951, // the floor: 25000 / 505000
        0.05,
        0.011881188118811881,
    );
    check_few_runs(&a, &b, FewRunsOutcome::Win, want);
    let swapped = (1.198019801980198, 1.2, want.2, want.3, want.4);
    check_few_runs(&b, &a, FewRunsOutcome::Loss, swapped);
}

#[test]
fn few_runs_parity_because_of_the_spread() {
    // a scatters so widely (noise 0.78) that even a clear difference in minimums is not enough.
    let a = [300e3, 310e3, 500e3, 700e3, 720e3];
    let b = [800e3, 810e3, 820e3, 830e3, 840e3];
    let want = (0.6097560975609756, 0.375, 0.78, 0.08333333333333333, 0.78);
    check_few_runs(&a, &b, FewRunsOutcome::Parity, want);
}

#[test]
fn few_runs_parity_from_timing_modes() {
    // Both arms have a fast mode near 570 µs; most of b's runs landed in the slow mode. The
    // medians differ by 21 %, beyond their tolerance, but the best runs agree within 4.4 %.
    let a = [566e3, 568e3, 570e3, 572e3, 720e3];
    let b = [587e3, 715e3, 718e3, 720e3, 722e3];
    let want = (
        0.7938718662952646,
        0.9642248722316865,
        0.043859649122807015,
        0.044169611307420496,
        0.007017543859649123,
    );
    let v = check_few_runs(&a, &b, FewRunsOutcome::Parity, want);
    assert!(v.ratio < 1.0 / (1.0 + v.tolerance)); // the medians alone would say "win"
}

#[test]
fn few_runs_parity_from_the_floor() {
    // A 50 µs workload: the 25 µs floor makes the tolerance about 50 %.
    let a = [50e3, 51e3, 52e3, 51e3, 50e3];
    let b = [60e3, 61e3, 62e3, 61e3, 60e3];
    let want = (
        0.8360655737704918,
        0.8333333333333334,
        0.49019607843137253,
        0.5,
        0.0196078431372549,
    );
    check_few_runs(&a, &b, FewRunsOutcome::Parity, want);
}

#[test]
fn few_runs_noise_is_the_iqr_not_the_mad() {
    // b has two modes (3 runs near 605 µs, 4 near 710 µs). Its IQR/median is 0.143, which makes
    // this parity; the MAD/median would be only 0.021
    // (max(st.median_abs_deviation(a) / ma, st.median_abs_deviation(b) / mb) = 0.02142857142857143),
    // and a tolerance built from it (0.0407) would have called a win.
    let a = [560e3, 600e3, 610e3, 615e3, 620e3, 625e3, 630e3];
    let b = [600e3, 605e3, 610e3, 700e3, 705e3, 710e3, 715e3];
    let want = (
        0.8785714285714286,
        0.9333333333333333,
        0.14285714285714285,
        0.044642857142857144,
        0.14285714285714285,
    );
    check_few_runs(&a, &b, FewRunsOutcome::Parity, want);
}

#[test]
fn few_runs_serialises_like_the_source_schema() {
    let a = [566e3, 568e3, 570e3, 572e3, 720e3];
    let b = [587e3, 715e3, 718e3, 720e3, 722e3];
    let v = few_runs_verdict(&a, &b, &FewRunsRule::default()).unwrap();
    let json = serde_json::to_value(v).unwrap();
    assert_eq!(json["outcome"], "parity");
    for key in ["ratio", "best_ratio", "tolerance", "noise"] {
        assert!(json[key].is_f64(), "{key}");
    }
    let back: FewRunsVerdict = serde_json::from_value(json).unwrap();
    assert_eq!(back, v);
}

#[test]
fn exact_proportion_interval_is_clopper_pearson() {
    // With α = 1 − level: low = st.beta.ppf(α/2, k, n − k + 1) (0 for k = 0) and
    // high = st.beta.ppf(1 − α/2, k + 1, n − k) (1 for k = n).
    let cases = [
        // (k, n, level, low, high)
        (0, 20, 0.95, 0.0, 0.1684334709830853),
        (5, 20, 0.95, 0.08657146910143462, 0.49104587170795744),
        (19, 20, 0.95, 0.7512672372279723, 0.9987349105020502),
        (3, 10, 0.90, 0.0872644339141503, 0.6066242161054123),
        (17, 40, 0.99, 0.2307905498287123, 0.6373783434032138),
        (40, 40, 0.99, 0.8759397804706243, 1.0),
    ];
    for (k, n, level, low, high) in cases {
        let p = exact_proportion_interval(k, n, level).unwrap();
        // statrs' Beta quantile agrees with SciPy's to about 1e-14 here.
        close(p.low, low, 1e-12);
        close(p.high, high, 1e-12);
        assert_eq!((p.successes, p.trials, p.level), (k, n, level));
        close(p.proportion, k as f64 / n as f64, 0.0);
    }
    assert!(exact_proportion_interval(0, 0, 0.95).is_err());
    assert!(exact_proportion_interval(3, 2, 0.95).is_err());
    assert!(exact_proportion_interval(1, 2, 1.0).is_err());
}
