//! The measurement engine on the real clock. Only effects so large that a busy 2-core machine
//! cannot hide them are asserted here; exact ordering and calibration logic is tested on a
//! simulated clock in the unit tests.

use std::time::{Duration, Instant};

use rtcompare::measure::CancelToken;
use rtcompare::support::measure::Instrument;
use rtcompare::support::measure::{CalibrationOptions, CollectOptions, calibrate, collect};
use rtcompare::{Candidate, Error};

use rtcompare::support::selftest::workload as work;

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[test]
fn twice_the_work_measures_about_twice_the_time() {
    let mut a = Candidate::new("single", work(50));
    let mut b = Candidate::new("double", work(100));
    let opts = CollectOptions::default()
        .repeats(51)
        .warmup_duration(Duration::from_millis(20));
    let s = collect(&mut a, &mut b, &opts).unwrap();
    assert_eq!(s.a.len(), 51);
    assert_eq!(s.b.len(), 51);
    let ratios: Vec<f64> = s.b.iter().zip(&s.a).map(|(b, a)| b / a).collect();
    let r = median(&ratios);
    assert!((1.6..=2.5).contains(&r), "median ratio {r}");
    let (ca, cb) = s.calibration.unwrap();
    assert_eq!(s.inner_loops, ca.inner_loops.max(cb.inner_loops));
}

#[test]
fn calibration_meets_its_bound_on_the_real_clock() {
    let mut c = Candidate::new("w", work(10));
    let cal = calibrate(&mut c, &CalibrationOptions::default()).unwrap();
    assert!(cal.batch_ns >= cal.target_ns);
    assert!(cal.quantization_error <= 0.001);
}

#[test]
fn a_batch_that_ignores_n_is_caught_on_the_real_clock() {
    // Always one operation, whatever n asks for.
    let mut one = work(1);
    let mut lazy = Candidate::new("lazy", move |_n| one(1));
    let e = calibrate(&mut lazy, &CalibrationOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::BatchIgnoresN { .. } | Error::CalibrationCapReached { .. }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("black_box"));
}

#[test]
fn a_panicking_candidate_returns_its_name() {
    let mut a = Candidate::new("fine", work(1));
    let mut b = Candidate::new("fragile", |n| {
        if n > 3 {
            panic!("index out of bounds in fragile");
        }
    });
    let e = collect(&mut a, &mut b, &CollectOptions::default().inner_loops(10)).unwrap_err();
    match e {
        Error::CandidatePanicked {
            candidate, message, ..
        } => {
            assert_eq!(candidate, "fragile");
            assert!(message.contains("index out of bounds"));
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn cancellation_stops_promptly() {
    let token = CancelToken::new();
    let t = token.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        t.cancel();
    });
    let mut a = Candidate::new("a", work(10));
    let mut b = Candidate::new("b", work(10));
    // A warm-up of an hour: only cancellation can end this call in time.
    let opts = CollectOptions::default()
        .warmup_duration(Duration::from_secs(3600))
        .cancel(token);
    let started = Instant::now();
    let e = collect(&mut a, &mut b, &opts).unwrap_err();
    canceller.join().unwrap();
    assert!(matches!(e, Error::Cancelled { .. }), "{e:?}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    // And a timeout.
    let opts = CollectOptions::default()
        .warmup_duration(Duration::from_secs(3600))
        .timeout(Duration::from_millis(30));
    let started = Instant::now();
    let e = collect(&mut a, &mut b, &opts).unwrap_err();
    assert!(matches!(e, Error::Cancelled { .. }), "{e:?}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn the_instrument_is_measured() {
    let i = Instrument::measure();
    // Bounds a broken probe would cross (a unit slip, a sleep in the loop), far from what a
    // busy 2-core machine shows: a 20 ns clock step, 25 ns reads, 20 ns empty batches.
    assert!(i.precision_ns < 1_000_000, "{i:?}");
    assert!(i.read_cost_ns > 0.0 && i.read_cost_ns < 100_000.0, "{i:?}");
    // The shortest of 1,001 empty batches is a pair of clock reads, not a time slice; the
    // median dodges the odd preemption.
    assert!(i.empty_batch_min_ns < 100_000.0, "{i:?}");
    assert!(i.empty_batch_median_ns < 1_000_000.0, "{i:?}");
}
