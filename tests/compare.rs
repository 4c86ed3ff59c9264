//! compare() as a user calls it. Real-clock tests assert only effects far larger than any
//! noise on a busy 2-core machine; the protocol's logic is exercised on a simulated clock.

use std::time::Duration;

use rtcompare::measure::CancelToken;
use rtcompare::stats::Unresolved;
use rtcompare::stats::{EstimateOptions, estimate_difference};
use rtcompare::support::compare::{compare_with_clock, width_target};
use rtcompare::support::measure::SimulatedClock;
use rtcompare::support::rng::Rng;
use rtcompare::{Candidate, CompareOptions, Error, Report, Verdict, compare};

use rtcompare::support::selftest::workload as work;

/// A simulated candidate: `cost(i)` ns per operation at its i-th batch, times `1 + noise·ε`
/// with ε standard normal from its own generator, optionally AR(1)-correlated with `rho`.
fn sim<'a>(
    name: &'a str,
    clock: &SimulatedClock,
    cost: impl Fn(usize) -> f64 + 'a,
    noise: f64,
    rho: f64,
    seed: u64,
) -> Candidate<'a> {
    let c = clock.clone();
    let mut rng = Rng::new(seed);
    let mut i = 0usize;
    let mut e = 0.0f64;
    Candidate::new(name, move |n| {
        e = rho * e + (1.0 - rho * rho).sqrt() * rng.next_normal();
        let ns = cost(i) * n as f64 * (1.0 + noise * e);
        c.advance(ns.max(1.0) as u64);
        i += 1;
    })
}

fn quick() -> CompareOptions {
    CompareOptions::default()
        .seed(7)
        .resamples(1_000)
        .validation_runs(10)
        .warmup_duration(Duration::from_millis(20))
}

#[test]
fn twice_the_work_resolves_in_the_right_direction_at_defaults() {
    let a = Candidate::new("single", work(500));
    let b = Candidate::new("double", work(1_000));
    let r = compare(a, b, &CompareOptions::default().thresholds([0.1, 0.3])).unwrap();
    assert!(r.resolved, "{r}");
    assert_eq!(r.verdict, Verdict::AFaster, "{r}");
    // True δ = 0.5; loop overhead can only shrink it.
    assert!(r.estimate.delta > 0.3 && r.estimate.delta < 0.6, "{r}");
    assert!(r.validated && r.validation_a.as_ref().unwrap().runs == 40);
    assert_eq!(r.samples_a.len(), 101);
    let c = r.confidences.as_ref().unwrap();
    assert_eq!(c.at(0.1), Some(1.0));
    // Swapped roles give the mirror verdict.
    let r = compare(
        Candidate::new("double", work(1_000)),
        Candidate::new("single", work(500)),
        &quick(),
    )
    .unwrap();
    assert_eq!(r.verdict, Verdict::BFaster, "{r}");
    assert!(r.ratio.ratio < 0.8);
}

#[test]
fn identical_candidates_never_claim_a_large_difference() {
    for seed in 1..=3 {
        let r = compare(
            Candidate::new("a", work(200)),
            Candidate::new("a again", work(200)),
            &quick().seed(seed),
        )
        .unwrap();
        // Identical code: whatever the verdict, no resolved difference beyond 10 % (a
        // difference that large would need a machine broken beyond any use).
        assert!(!(r.resolved && r.estimate.delta.abs() > 0.10), "{r}");
        // The floor is the larger of the two A/A floors (it can be exactly 0: with a 20 ns
        // clock and this deterministic workload most A/A pairs tie), and identical code
        // measured against itself does not differ by 25 % on a working machine (10 % was seen
        // with both cores busy compiling, during parallel tests).
        let (va, vb) = (
            r.validation_a.as_ref().unwrap(),
            r.validation_b.as_ref().unwrap(),
        );
        assert_eq!(r.noise_floor, va.noise_floor.max(vb.noise_floor), "{r}");
        assert!(r.validated && r.noise_floor < 0.25, "{r}");
    }
}

#[test]
fn the_interval_is_recomputed_bit_for_bit_from_the_report() {
    let r = compare(
        Candidate::new("a", work(100)),
        Candidate::new("b", work(120)),
        &quick().seed(0).thresholds([0.05]),
    )
    .unwrap();
    assert_ne!(r.seed, 0, "a drawn seed is recorded");
    let e = estimate_difference(
        &r.samples_a,
        &r.samples_b,
        &EstimateOptions::default()
            .level(r.estimate.level)
            .resamples(r.estimate.resamples)
            .block_length(r.diagnostics.block_length)
            .seed(r.seed)
            .paired(true),
    )
    .unwrap();
    assert_eq!(e.delta.to_bits(), r.estimate.delta.to_bits());
    assert_eq!(e.low.to_bits(), r.estimate.low.to_bits());
    assert_eq!(e.high.to_bits(), r.estimate.high.to_bits());
    assert_eq!(e, r.estimate);
    assert_eq!(r.recompute_estimate().unwrap(), r.estimate);
}

#[test]
fn the_report_survives_a_json_round_trip() {
    let r = compare(
        Candidate::new("a", work(100)),
        Candidate::new("b", work(150)),
        &quick().thresholds([0.05, 0.1]),
    )
    .unwrap();
    let json = r.to_json().unwrap();
    assert!(json.contains("\"schema_version\": 1"));
    let back = Report::from_json(&json).unwrap();
    assert_eq!(back, r);
    // The display reads like a summary.
    let text = r.to_string();
    assert!(text.contains("per operation (median)") && text.contains("Verdict:"));
    assert!(matches!(Report::from_json("{}"), Err(Error::Json { .. })));
}

#[test]
fn bad_options_are_typed_errors() {
    let run = |o: CompareOptions| {
        compare(
            Candidate::new("a", work(1)),
            Candidate::new("b", work(1)),
            &o,
        )
        .unwrap_err()
    };
    assert!(matches!(
        run(quick().thresholds([f64::NAN])),
        Error::InvalidOption {
            name: "thresholds",
            ..
        }
    ));
    assert!(matches!(
        run(quick().level(1.0)),
        Error::OutOfRange { name: "level", .. }
    ));
    assert!(matches!(run(quick().level(-0.5)), Error::OutOfRange { .. }));
    assert!(matches!(
        run(quick().repeats(3)),
        Error::TooFewSamples {
            what: "repeats",
            ..
        }
    ));
    assert!(matches!(
        run(quick().validation_runs(1)),
        Error::TooFewSamples {
            what: "validation runs",
            ..
        }
    ));
    assert!(matches!(
        run(quick().max_quantization_error(2.0)),
        Error::OutOfRange {
            name: "max_quantization_error",
            ..
        }
    ));
    assert!(matches!(
        run(quick().timeout(Duration::ZERO)),
        Error::InvalidOption { .. }
    ));
}

#[test]
fn cancellation_and_panics_are_errors_not_aborts() {
    let token = CancelToken::new();
    let t = token.clone();
    let mut count = 0u32;
    let a = Candidate::new("a", move |n| {
        count += 1;
        if count == 50 {
            t.cancel();
        }
        work(10)(n)
    });
    let e = compare(a, Candidate::new("b", work(10)), &quick().cancel(token)).unwrap_err();
    assert!(matches!(e, Error::Cancelled { .. }), "{e:?}");

    let b = Candidate::new("flaky", |_| panic!("flaky failed"));
    let e = compare(Candidate::new("a", work(10)), b, &quick()).unwrap_err();
    assert!(
        matches!(e, Error::CandidatePanicked { ref candidate, .. } if candidate == "flaky"),
        "{e:?}"
    );
}

#[test]
fn simulated_two_x_resolves_and_identical_does_not() {
    let clock = SimulatedClock::new(20);
    let opts = quick().inner_loops(100);
    let a = sim("a", &clock, |_| 100.0, 0.01, 0.0, 1);
    let b = sim("b", &clock, |_| 200.0, 0.01, 0.0, 2);
    let r = compare_with_clock(a, b, &opts, &clock).unwrap();
    assert_eq!(r.verdict, Verdict::AFaster);
    assert!((r.estimate.delta - 0.5).abs() < 0.01);
    assert_eq!(r.timing.instrument.clock, "simulated");
    assert!((r.timing.quantization - 20.0 / (100.0 * 100.0)).abs() < 1e-3);

    let a = sim("a", &clock, |_| 100.0, 0.01, 0.0, 3);
    let b = sim("b", &clock, |_| 100.0, 0.01, 0.0, 4);
    let r = compare_with_clock(a, b, &opts, &clock).unwrap();
    // Seeded noise of 1 % on equal costs: the interval straddles zero, so no verdict.
    assert!(!r.resolved, "{r}");
    assert!(
        matches!(
            r.verdict,
            Verdict::CannotTell(Unresolved::IntervalContainsZero { low, high })
                if low < 0.0 && high > 0.0 && low <= r.estimate.delta && r.estimate.delta <= high
        ),
        "{r}"
    );
    assert!(r.estimate.delta.abs() < 0.01, "{r}");
}

#[test]
fn simulated_warnings_fire_on_their_conditions() {
    let clock = SimulatedClock::new(1);
    // Validation skipped.
    let a = sim("a", &clock, |_| 100.0, 0.01, 0.0, 1);
    let b = sim("b", &clock, |_| 150.0, 0.01, 0.0, 2);
    let r = compare_with_clock(
        a,
        b,
        &quick().inner_loops(100).skip_validation(true),
        &clock,
    )
    .unwrap();
    assert!(r.has_warning("validation_skipped"));
    assert!(!r.validated && r.noise_floor == 0.0);

    // Validation cut short by the time limit (simulated time: 1 ms per run at these sizes).
    let a = sim("a", &clock, |_| 100.0, 0.01, 0.0, 1);
    let b = sim("b", &clock, |_| 150.0, 0.01, 0.0, 2);
    let opts = quick()
        .inner_loops(100)
        .validation_runs(40)
        .max_duration(Duration::from_micros(10));
    let r = compare_with_clock(a, b, &opts, &clock).unwrap();
    assert!(r.has_warning("validation_cut_short"), "{r}");
    assert_eq!(r.validation_a.as_ref().unwrap().runs, 10);

    // B slows down steadily during the measurement: drift in B and in the ratio.
    let a = sim("a", &clock, |_| 100.0, 0.002, 0.0, 1);
    let b = sim(
        "b",
        &clock,
        |i| 100.0 * (1.0 + 0.001 * i as f64),
        0.002,
        0.0,
        2,
    );
    let r = compare_with_clock(
        a,
        b,
        &quick().inner_loops(100).skip_validation(true),
        &clock,
    )
    .unwrap();
    // The ratio carries the verdict and drifted; B's own shift (a few percent) is below the
    // 10 % that would make it the machine's problem.
    assert!(r.has_warning("drift_ratio"), "{r}");
    assert!(
        r.diagnostics.drift_b.relative_shift > 0.0 && r.diagnostics.drift_b.p_value < 0.01,
        "{r}"
    );
    assert!(
        r.diagnostics.drift_b.relative_shift < rtcompare::support::compare::MACHINE_DRIFT_SHIFT
    );
    assert!(
        !r.has_warning("drift_a") && !r.has_warning("drift_b"),
        "{r}"
    );

    // Strongly autocorrelated noise: blocks are used and a warning says they do not suffice.
    let a = sim("a", &clock, |_| 100.0, 0.02, 0.9, 5);
    let b = sim("b", &clock, |_| 100.0, 0.02, 0.9, 6);
    let r = compare_with_clock(
        a,
        b,
        &quick().inner_loops(100).skip_validation(true),
        &clock,
    )
    .unwrap();
    assert!(r.diagnostics.autocorrelation > 0.4, "{r}");
    assert_eq!(r.diagnostics.block_length, 5);
    assert!(r.has_warning("high_autocorrelation"), "{r}");

    // A difference of a fraction of a clock step: coarse clock, tiny batches.
    let coarse = SimulatedClock::new(1_000);
    let a = sim("a", &coarse, |_| 100.0, 0.0, 0.0, 1);
    let b = sim("b", &coarse, |_| 100.5, 0.0, 0.0, 2);
    let r = compare_with_clock(
        a,
        b,
        &quick().inner_loops(100).skip_validation(true),
        &coarse,
    )
    .unwrap();
    assert!(!r.resolved, "{r}");
    // Every batch reads the same whole number of ticks: every replicate ties at zero, the
    // interval collapses to [0, 0], and the tie warning says a finer clock could move it.
    assert_eq!(
        (r.estimate.low, r.estimate.high, r.diagnostics.tie_rate),
        (0.0, 0.0, 1.0),
        "{r}"
    );
    assert!(r.has_warning("high_tie_rate"), "{r}");
    assert!(!r.has_warning("quantization_near_difference"), "{r}");

    // A floor larger than the difference asked about.
    let a = sim("a", &clock, |_| 100.0, 0.2, 0.0, 1);
    let b = sim("b", &clock, |_| 100.0, 0.2, 0.0, 2);
    let r =
        compare_with_clock(a, b, &quick().inner_loops(100).thresholds([0.001]), &clock).unwrap();
    assert!(r.has_warning("noisy_floor"), "{r}");
    assert!(matches!(
        r.verdict,
        Verdict::CannotTell(
            Unresolved::IntervalContainsZero { .. } | Unresolved::WithinNoiseFloor { .. }
        )
    ));

    // cargo test builds with debug assertions: the report says so.
    assert!(r.has_warning("debug_build") == cfg!(debug_assertions));
}

#[test]
fn progress_reaches_every_stage_in_order() {
    use rtcompare::measure::Stage;
    use std::sync::{Arc, Mutex};
    let clock = SimulatedClock::new(1);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let a = sim("a", &clock, |_| 100.0, 0.01, 0.0, 1);
    let b = sim("b", &clock, |_| 150.0, 0.01, 0.0, 2);
    let opts = quick().progress(move |p| s2.lock().unwrap().push(p.stage));
    compare_with_clock(a, b, &opts, &clock).unwrap();
    let mut stages: Vec<Stage> = seen.lock().unwrap().clone();
    stages.dedup();
    let order = [
        Stage::Calibrating,
        Stage::Validating,
        Stage::Measuring,
        Stage::Resampling,
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|s| stages.iter().position(|x| x == s).expect("stage reported"))
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{stages:?}");
}

#[test]
#[cfg(target_os = "linux")]
fn pinning_is_recorded_and_undone() {
    let before = rtcompare::support::measure::current_affinity().unwrap();
    let cpu = *before.last().unwrap();
    let r = compare(
        Candidate::new("a", work(50)),
        Candidate::new("b", work(50)),
        &quick().skip_validation(true).pin_to_cpu(cpu),
    )
    .unwrap();
    assert_eq!(r.run.pinned_cpu, Some(cpu));
    assert_eq!(r.run.environment.affinity, Some(vec![cpu]));
    assert_eq!(
        rtcompare::support::measure::current_affinity().unwrap(),
        before
    );
    let e = compare(
        Candidate::new("a", work(50)),
        Candidate::new("b", work(50)),
        &quick().pin_to_cpu(99_999),
    )
    .unwrap_err();
    assert!(matches!(
        e,
        Error::InvalidOption {
            name: "pin_cpu",
            ..
        }
    ));
}

#[test]
fn counters_are_reported_or_said_to_be_unavailable() {
    let r = compare(
        Candidate::new("a", work(50)),
        Candidate::new("b", work(100)),
        &quick().skip_validation(true).counters(true),
    )
    .unwrap();
    let c = r
        .resources
        .counters
        .as_ref()
        .expect("requested, so present");
    if c.is_available() {
        // Twice the work: at least half again as many instructions per operation.
        let (ia, ib) = (c.a.instructions_per_op, c.b.instructions_per_op);
        if let (Some(ia), Some(ib)) = (ia, ib) {
            assert!(ib > 1.5 * ia, "{c}");
        }
    } else {
        assert!(c.to_string().contains("unavailable"), "{c}");
    }
    // Counters never decide: the verdict is the same kind as without them.
    assert_eq!(r.verdict, Verdict::AFaster, "{r}");
    let back = Report::from_json(&r.to_json().unwrap()).unwrap();
    assert_eq!(back, r);
    // Not requested: absent.
    let r = compare(
        Candidate::new("a", work(50)),
        Candidate::new("b", work(100)),
        &quick().skip_validation(true),
    )
    .unwrap();
    assert!(r.resources.counters.is_none());
}

#[test]
fn counters_cover_every_round_a_width_target_adds() {
    // An unreachable target with a budget of 150 pairs: the comparison measures more rounds
    // after its first 101 pairs (unless the interval has no width at all), and the counters
    // must count the batches of every round, as the timings do.
    use rtcompare::support::stats::WidthTarget;
    let r = compare(
        Candidate::new("a", work(50)),
        Candidate::new("b", work(100)),
        &width_target(
            quick().skip_validation(true).counters(true),
            WidthTarget::new(1e-9).max_pairs(150),
        ),
    )
    .unwrap();
    let c = r
        .resources
        .counters
        .as_ref()
        .expect("requested, so present");
    if c.is_available() {
        let pairs = r.samples_a.len() as u64;
        assert_eq!((c.a.batches, c.b.batches), (pairs, pairs), "{c}");
    }
}

#[test]
fn a_width_target_collects_until_the_interval_is_narrow_enough() {
    use rtcompare::support::stats::WidthTarget;
    let clock = SimulatedClock::new(1);
    let a = sim("a", &clock, |_| 100.0, 0.05, 0.0, 1);
    let b = sim("b", &clock, |_| 110.0, 0.05, 0.0, 2);
    let target = WidthTarget::new(0.004);
    let opts = width_target(quick().inner_loops(100).skip_validation(true), target);
    let r = compare_with_clock(a, b, &opts, &clock).unwrap();
    assert_eq!(r.run.width_target_met, Some(true), "{r}");
    assert!(r.samples_a.len() > 101, "{}", r.samples_a.len());
    assert_eq!(r.samples_a.len(), r.samples_b.len());
    assert!(r.estimate.half_width() <= 0.004);
    assert!(r.to_string().contains("met its width target"));
    // The interval is still recomputed bit for bit from the grown samples.
    assert_eq!(r.recompute_estimate().unwrap(), r.estimate);

    // A budget too small for the target: reported as missed, never an error.
    let a = sim("a", &clock, |_| 100.0, 0.05, 0.0, 3);
    let b = sim("b", &clock, |_| 110.0, 0.05, 0.0, 4);
    let tight = WidthTarget::new(0.0001).max_pairs(300);
    let opts = width_target(quick().inner_loops(100).skip_validation(true), tight);
    let r = compare_with_clock(a, b, &opts, &clock).unwrap();
    assert_eq!(r.run.width_target_met, Some(false), "{r}");
    // Without a target: exactly the repeats, no record.
    let a = sim("a", &clock, |_| 100.0, 0.05, 0.0, 5);
    let b = sim("b", &clock, |_| 110.0, 0.05, 0.0, 6);
    let r = compare_with_clock(
        a,
        b,
        &quick().inner_loops(100).skip_validation(true),
        &clock,
    )
    .unwrap();
    assert_eq!((r.samples_a.len(), r.run.width_target_met), (101, None));
    // A nonsensical target is a typed error.
    let a = sim("a", &clock, |_| 100.0, 0.05, 0.0, 5);
    let b = sim("b", &clock, |_| 110.0, 0.05, 0.0, 6);
    let e = compare_with_clock(a, b, &width_target(quick(), WidthTarget::new(-1.0)), &clock)
        .unwrap_err();
    assert!(matches!(e, Error::OutOfRange { .. }), "{e:?}");
}

#[test]
fn a_batch_timed_at_zero_records_the_ratio_drift_as_not_run() {
    // Every 40th batch of A reads 0 ns (a fixed batch of one operation on a clock that did not
    // move): the ratio B/A is infinite there, so its drift test cannot run. The comparison
    // still answers, with the drift report saying n = 0.
    let clock = SimulatedClock::new(1);
    let c = clock.clone();
    let mut i = 0u64;
    let a = Candidate::new("a", move |n| {
        i += 1;
        if !i.is_multiple_of(40) {
            c.advance(1_000 * n);
        }
    });
    let b = sim("b", &clock, |_| 1_000.0, 0.01, 0.0, 2);
    let r =
        compare_with_clock(a, b, &quick().inner_loops(1).skip_validation(true), &clock).unwrap();
    assert!(r.samples_a.contains(&0.0), "{r}");
    assert_eq!(r.diagnostics.drift_ratio.n, 0, "{r}");
    assert_eq!(r.diagnostics.autocorrelation_ratio, 0.0);
    assert!(!r.has_warning("drift_ratio"), "{r}");
    assert!(r.diagnostics.drift_a.n > 0 && r.diagnostics.drift_b.n > 0);
}

#[test]
fn without_the_counting_allocator_there_are_no_allocation_figures() {
    // This binary runs on the system allocator.
    assert!(rtcompare::alloc::snapshot().is_none());
    let clock = SimulatedClock::new(1);
    let a = sim("a", &clock, |_| 100.0, 0.01, 0.0, 1);
    let b = sim("b", &clock, |_| 150.0, 0.01, 0.0, 2);
    let r = compare_with_clock(
        a,
        b,
        &quick().inner_loops(100).skip_validation(true),
        &clock,
    )
    .unwrap();
    assert_eq!(
        (r.resources.allocations, r.resources.live_heap),
        (None, None)
    );
    let text = r.to_string();
    assert!(
        !text.contains("Allocations") && !text.contains("Live heap"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&r.to_json().unwrap()).unwrap();
    assert!(json["allocations"].is_null() && json["live_heap"].is_null());
    assert_eq!(Report::from_json(&r.to_json().unwrap()).unwrap(), r);
}
