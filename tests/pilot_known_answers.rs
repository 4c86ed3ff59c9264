//! Known answers for Pilot's analyses: every figure the Pilot essay quotes, and values from an
//! independent tool (SciPy 1.17 / NumPy 2.4, the call beside each constant) on data built here.
//! Nothing here calls Python.

use rtcompare::Error;
use rtcompare::stats::required_batches;
use rtcompare::stats::{
    BatchMeansOptions, batch_means, effective_sample_size, proportion_interval, rank_sum_p,
    welch_t_test,
};
use rtcompare::support::rng::Rng;
use rtcompare::support::stats::{
    MeasuredSummary, NewSamples, Readings, ar1_batch_mean_autocorrelation, ar1_gamma,
    ar1_gamma_limit, batch_autocorrelation, fisher_exact_p, harmonic_mean_interval,
    iid_interval_coverage, new_samples_needed, samples_per_system, welch_from_summaries, work_rate,
};

fn close(got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1e-300),
        "got {got}, want {want} (relative tolerance {tol})"
    );
}

// ---------------------------------------------------------------- the essay's figures

#[test]
fn gamma_n_is_8_96_at_n_1000_rho_0_8() {
    // python3: 1 + 2*(0.8/0.2 - 0.8*(1 - 0.8**1000)/(1000*0.2**2)) = 8.96
    let g = ar1_gamma(1000, 0.8).unwrap();
    close(g, 8.96, 1e-12);
    // n_eff = 1000/8.96 = 111.607… ≈ 112; the limit is 9.
    let n_eff = effective_sample_size(1000, g).unwrap();
    close(n_eff, 111.607_142_857_142_85, 1e-12);
    assert_eq!(n_eff.round(), 112.0);
    close(ar1_gamma_limit(0.8).unwrap(), 9.0, 1e-15);
    // Bias of s²: (n − γ)/(n − 1) = 0.992.
    assert_eq!(((1000.0 - g) / 999.0 * 1000.0).round() / 1000.0, 0.992);
    // 50 readings at ρ = 0.8 are worth about 6: 50(1 − ρ)/(1 + ρ) = 5.56.
    let six = effective_sample_size(50, ar1_gamma_limit(0.8).unwrap()).unwrap();
    close(six, 5.555_555_555_555_555, 1e-12);
}

#[test]
fn coverage_of_a_nominal_95_interval_at_rho_0_8_is_0_486() {
    // python3: 2*stats.norm.cdf(stats.norm.ppf(0.975)/math.sqrt((1+r)/(1-r))) - 1
    for (rho, want) in [
        (0.1, 0.923_747_118_667_515_9),
        (0.2, 0.890_468_816_147_624_9),
        (0.5, 0.742_191_359_463_930_7),
        (0.8, 0.486_450_854_708_305_3),
        (0.9, 0.347_034_701_309_731_7),
    ] {
        let c = iid_interval_coverage(ar1_gamma_limit(rho).unwrap(), 0.95).unwrap();
        close(c, want, 1e-9);
    }
    let c = iid_interval_coverage(9.0, 0.95).unwrap();
    assert_eq!((c * 1000.0).round() / 1000.0, 0.486);
    assert!(c < 0.5, "less than half");
}

#[test]
fn batch_mean_autocorrelation_by_simulation() {
    // A seeded AR(1) series of 2¹⁷ readings with ρ = 0.8; the essay's 0.80 / 0.36 / 0.08 at
    // q = 1 / 8 / 32 (theory 0.8, 0.358, 0.0805). With h = 4096 batch means at q = 32 the
    // estimator's standard error is about 0.016.
    let mut rng = Rng::new(20_260_927);
    let rho: f64 = 0.8;
    let s = (1.0 - rho * rho).sqrt();
    let mut x = rng.next_normal();
    for _ in 0..500 {
        x = rho * x + s * rng.next_normal();
    }
    let xs: Vec<f64> = (0..1 << 17)
        .map(|_| {
            x = rho * x + s * rng.next_normal();
            x
        })
        .collect();
    for (q, essay, tol) in [(1, 0.80, 0.02), (8, 0.36, 0.04), (32, 0.08, 0.05)] {
        let r = batch_autocorrelation(&xs, q).unwrap();
        assert!((r - essay).abs() < tol, "q {q}: {r}");
        let theory = ar1_batch_mean_autocorrelation(rho, q).unwrap();
        assert!((theory - essay).abs() < 0.005, "q {q}: theory {theory}");
    }
}

#[test]
fn required_sizes_99_2404_and_7() {
    // python3: smallest h ≥ 2 with h >= (stats.t.ppf(0.975, h-1)*cv/p)**2
    assert_eq!(required_batches(0.25, 0.05, 0.95).unwrap(), 99);
    assert_eq!(required_batches(0.25, 0.01, 0.95).unwrap(), 2404);
    // The essay's "ten runs are enough" is a sufficiency claim; the rule gives 7.
    assert_eq!(required_batches(0.05, 0.05, 0.95).unwrap(), 7);
}

#[test]
fn samples_per_system_1201_and_2453() {
    // python3: z = stats.norm.ppf(0.975); 2*(z*0.25/0.02)**2 = 1200.4558814669
    //          zb = stats.norm.ppf(0.8); 2*((z+zb)*0.25/0.02)**2 = 2452.7749169841
    assert_eq!(samples_per_system(0.25, 0.02, 0.05, None).unwrap(), 1201);
    assert_eq!(
        samples_per_system(0.25, 0.02, 0.05, Some(0.8)).unwrap(),
        2453
    );
}

#[test]
fn smallest_rank_sum_p_of_3_among_100() {
    let low = [1.0, 2.0, 3.0];
    let high: Vec<f64> = (4..=100).map(f64::from).collect();
    // 2/C(100, 3) = 2/161700, exactly.
    assert_eq!(rank_sum_p(&low, &high).unwrap(), 2.0 / 161_700.0);
    // Welch's test on the same ranks, the rejected design:
    // python3: stats.ttest_ind([1,2,3], list(range(4,101)), equal_var=False).pvalue = 5.0012e-31
    let w = welch_t_test(&low, &high).unwrap();
    assert!(w.p_value < 1e-29 && w.p_value > 1e-32, "{}", w.p_value);
}

// ---------------------------------------------------------------- independent tool

#[test]
fn rank_sum_matches_scipy_exact() {
    // python3: stats.mannwhitneyu(a, b, method='exact').pvalue
    let a = [1.1, 2.3, 0.7, 5.2, 3.3];
    let b = [4.4, 6.1, 5.9, 7.2, 3.9, 8.0, 6.6];
    close(
        rank_sum_p(&a, &b).unwrap(),
        0.010_101_010_101_010_102,
        1e-12,
    );
    let a2 = [10.5, 11.2, 9.8, 12.4, 10.1, 11.9, 10.7, 12.8];
    let b2 = [12.1, 13.5, 11.8, 14.2, 12.9, 13.1, 12.6, 14.8, 13.9, 12.2];
    close(
        rank_sum_p(&a2, &b2).unwrap(),
        0.003_062_297_179_944_238_6,
        1e-12,
    );
    close(
        rank_sum_p(&b2, &a2).unwrap(),
        0.003_062_297_179_944_238_6,
        1e-12,
    );
}

#[test]
fn fisher_matches_hypergeometric_sums() {
    // python3: rv = stats.hypergeom(N, L, k); sum(rv.pmf(x) for x with |xN − kL| ≥ |x_obs·N − kL|)
    // (equal to stats.fisher_exact(t).pvalue for these three tables)
    for (t, want) in [
        ([[7, 2], [3, 8]], 0.069_778_518_694_927_35),
        ([[1, 9], [11, 3]], 0.002_759_456_185_220_083_6),
        ([[12, 5], [9, 11]], 0.184_525_319_438_507_97),
    ] {
        close(fisher_exact_p(t).unwrap(), want, 1e-10);
    }
    // Where the rules differ: distance from the expectation gives 11/21, SciPy's
    // "probabilities ≤ observed" rule gives 1.0.
    close(
        fisher_exact_p([[0, 2], [2, 3]]).unwrap(),
        11.0 / 21.0,
        1e-14,
    );
    assert!(fisher_exact_p([[0, 0], [0, 0]]).is_err());
}

#[test]
fn welch_on_summaries_matches_scipy() {
    // python3: stats.ttest_ind_from_stats(100, 4, 40, 97.5, 5, 30, equal_var=False)
    //   statistic 2.2511258444537408, pvalue 0.028452133388000886, df 54.230639907533885,
    //   95 % interval of the difference 0.2736872949734446 .. 4.726312705026555
    let a = MeasuredSummary::new(100.0, 16.0, 40).unwrap();
    let b = MeasuredSummary::new(97.5, 25.0, 30).unwrap();
    let c = welch_from_summaries(&a, &b, 0.95).unwrap();
    close(c.t, 2.251_125_844_453_740_8, 1e-12);
    close(c.df, 54.230_639_907_533_885, 1e-12);
    close(c.p_value, 0.028_452_133_388_000_886, 1e-7);
    close(c.low, 0.273_687_294_973_444_6, 1e-7);
    close(c.high, 4.726_312_705_026_555, 1e-8);
    // Required new samples: impossible when the baseline alone is too uncertain.
    let wide = MeasuredSummary::new(100.0, 1e6, 3).unwrap();
    assert_eq!(
        new_samples_needed(&wide, &b, 0.05, None).unwrap(),
        NewSamples::Impossible
    );
    match new_samples_needed(&a, &b, 0.05, Some(0.8)).unwrap() {
        NewSamples::Needed(n) => assert!(n > 30, "{n}"),
        NewSamples::Impossible => panic!("should be possible"),
    }
}

#[test]
fn ols_fit_matches_scipy_linregress() {
    // python3: r = stats.linregress(w, t); d = stats.t.ppf(0.975, 6)*r.stderr
    //   intercept 1.9803571428571445, 1/slope 49.90494296577947,
    //   1/(slope+d) 49.76478644293376, 1/(slope-d) 50.045891186253066
    // (residual lag-1 autocorrelation 0.0016, so q = 1 and the fit uses every round)
    let w = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0];
    let t = [3.99, 5.98, 7.97, 10.01, 12.02, 14.0, 16.01, 18.0];
    let fit = work_rate(&w, &t, 0.95).unwrap();
    assert_eq!(fit.q, 1);
    close(fit.alpha, 1.980_357_142_857_144_5, 1e-10);
    close(fit.rate, 49.904_942_965_779_47, 1e-12);
    close(fit.low, 49.764_786_442_933_76, 1e-10);
    close(fit.high, 50.045_891_186_253_066, 1e-10);
    // Total work over total time is biased low by the overhead.
    assert!(fit.naive_rate < fit.low);
}

#[test]
fn harmonic_interval_matches_numpy() {
    // python3: x = [120, 95, 110, 130, 105, 98, 115, 125]; y = 1/x;
    //   stats.hmean(x) = 111.00872216010654; d = stats.t.ppf(0.975, 7)*y.std(ddof=1)/sqrt(8)
    //   1/(y.mean()+d) = 101.39359513961374, 1/(y.mean()-d) = 122.63849748569457
    let x = [120.0, 95.0, 110.0, 130.0, 105.0, 98.0, 115.0, 125.0];
    let r = harmonic_mean_interval(&x, 0.95).unwrap();
    close(r.mean, 111.008_722_160_106_54, 1e-12);
    close(r.low, 101.393_595_139_613_74, 1e-10);
    close(r.high, 122.638_497_485_694_57, 1e-10);
}

#[test]
fn wilson_interval_matches_the_formula() {
    // python3: z = stats.norm.ppf(0.975); Wilson's centre ± half-width for 17/20 and 0/10
    let p = proportion_interval(17, 20, 0.95).unwrap();
    close(p.low, 0.639_581_135_259_243_1, 1e-10);
    close(p.high, 0.947_631_254_103_783_5, 1e-10);
    let z = proportion_interval(0, 10, 0.95).unwrap();
    assert_eq!(z.low, 0.0);
    close(z.high, 0.277_532_799_862_889_2, 1e-10);
}

// ---------------------------------------------------------------- the admitted defects

#[test]
fn defect_rates_averaged_arithmetically() {
    // Pilot stored no mean method, so a rate of 10 and one of 1000 averaged to 505. The
    // throughput of the run (equal work per reading) is the harmonic mean, 19.8.
    let r = Readings::rates(vec![10.0, 1000.0]).unwrap();
    close(r.mean(), 2.0 / (0.1 + 0.001), 1e-12);
    assert!(r.mean() < 20.0);
    let three = Readings::rates(vec![10.0, 1000.0, 10.0]).unwrap();
    let s = three
        .summary(&BatchMeansOptions::default().ac_limit(1.0))
        .unwrap();
    close(s.mean(), 3.0 / 0.201, 1e-12);
    // A non-positive rate is an error, not a value.
    assert!(Readings::rates(vec![10.0, 0.0]).is_err());
}

#[test]
fn defect_ignored_limits_and_levels() {
    // Pilot's snapshot searched q with 0.1 and used 0.95 whatever was asked.
    let mut rng = Rng::new(42);
    let mut x = 0.0;
    let xs: Vec<f64> = (0..5000)
        .map(|_| {
            x = 0.6 * x + rng.next_normal();
            100.0 + x
        })
        .collect();
    let q_at = |limit: f64| {
        batch_means(&xs, &BatchMeansOptions::default().ac_limit(limit))
            .unwrap()
            .q
    };
    assert!(q_at(0.8) < q_at(0.2) && q_at(0.2) <= q_at(0.1));
    let w90 = batch_means(&xs, &BatchMeansOptions::default().level(0.90)).unwrap();
    let w99 = batch_means(&xs, &BatchMeansOptions::default().level(0.99)).unwrap();
    assert_eq!((w90.level, w99.level), (0.90, 0.99));
    assert!(w99.half_width > w90.half_width);
    assert!(
        required_batches(0.25, 0.05, 0.99).unwrap() > required_batches(0.25, 0.05, 0.95).unwrap()
    );
}

#[test]
fn defect_infinite_requirement_counted_as_satisfied() {
    // A mean of 0 with a relative target: Pilot cast +∞ to an integer, got 0, and stopped.
    assert!(matches!(
        required_batches(f64::INFINITY, 0.05, 0.95),
        Err(Error::NotEnoughData { .. })
    ));
}
