//! Warm and cold comparisons as a user asks for them. Nothing here asserts a timing: the real
//! clock runs only check what was done (batch size, evictions, what the report records and
//! prints); the verdict logic is checked on a simulated clock.

use std::hint::black_box;
use std::time::Duration;

use rtcompare::stats::Unresolved;
use rtcompare::support;
use rtcompare::support::compare::DEFAULT_COLD_VALIDATION_RUNS;
use rtcompare::support::compare::compare_with_clock;
use rtcompare::support::measure::SimulatedClock;
use rtcompare::{Cache, Candidate, CompareOptions, Report, Verdict, compare};

/// Sums a vector of `len` u64: the same data every operation.
fn summing(name: &str, len: usize) -> Candidate<'_> {
    let data: Vec<u64> = (0..len as u64).collect();
    Candidate::new(name, move |n| {
        for _ in 0..n {
            black_box(black_box(&data).iter().sum::<u64>());
        }
    })
}

fn quick() -> CompareOptions {
    CompareOptions::default()
        .seed(7)
        .repeats(11)
        .validation_runs(2)
        .resamples(500)
        .warmup_duration(Duration::from_millis(10))
}

/// Cold comparisons allocate an eviction buffer of twice the last-level cache; two at once in
/// one test process raise the peak resident memory the other one judges its working set by.
/// One at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn a_cold_comparison_runs_one_operation_per_batch_and_says_so() {
    let _serial = serial();
    let opts = quick().cache(Cache::Cold);
    let r = compare(summing("4 KiB", 512), summing("8 KiB", 1024), &opts).unwrap();
    assert_eq!(r.cache, Cache::Cold);
    assert_eq!(r.timing.inner_loops, 1, "cold batches hold one operation");
    assert!(r.timing.calibration_a.is_none() && r.timing.calibration_b.is_none());
    let info = r
        .run
        .cache_info
        .expect("a cold report describes its eviction");
    assert!(info.buffer_bytes >= 2 * info.llc_bytes.unwrap_or(0));
    assert!(info.buffer_bytes >= 1 << 20);
    // Every batch evicts: 2 A/A runs × 11 repeats × 4, 11 measured pairs, plus the warm-ups.
    assert!(info.evictions >= 2 * 11 * 4 + 2 * 11 + 4, "{info:?}");
    assert_eq!(r.run.environment.last_level_cache_bytes, info.llc_bytes);
    let text = r.to_string();
    assert!(
        text.contains("Cache: cold (caches evicted before every batch"),
        "{text}"
    );
    assert!(text.contains("MiB buffer"), "{text}");
    // The eviction buffer is not taken for the candidates' working set.
    assert!(!r.has_warning("large_working_set"), "{r}");
    let back = Report::from_json(&r.to_json().unwrap()).unwrap();
    assert_eq!(back, r);
}

#[test]
fn a_fixed_batch_size_is_kept_cold() {
    let _serial = serial();
    let opts = quick()
        .cache(Cache::Cold)
        .inner_loops(3)
        .skip_validation(true);
    let r = compare(summing("a", 64), summing("b", 64), &opts).unwrap();
    assert_eq!((r.cache, r.timing.inner_loops), (Cache::Cold, 3));
}

#[test]
fn warm_is_the_default_and_is_printed() {
    let _serial = serial();
    assert_eq!(
        support::compare::collect_options(&CompareOptions::default()).cache,
        Cache::Warm
    );
    let r = compare(
        summing("a", 256),
        summing("b", 256),
        &quick().skip_validation(true),
    )
    .unwrap();
    assert_eq!((r.cache, r.run.cache_info), (Cache::Warm, None));
    assert!(r.to_string().contains("Cache: warm"), "{r}");
}

#[test]
fn reports_written_before_the_cache_mode_read_as_warm() {
    let _serial = serial();
    let r = compare(
        summing("a", 256),
        summing("b", 256),
        &quick().skip_validation(true),
    )
    .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&r.to_json().unwrap()).unwrap();
    let o = v.as_object_mut().unwrap();
    assert_eq!(o.remove("cache").unwrap(), "warm");
    assert!(o.remove("cache_info").unwrap().is_null());
    o["options"]["collect"]
        .as_object_mut()
        .unwrap()
        .remove("cache")
        .unwrap();
    o["environment"]
        .as_object_mut()
        .unwrap()
        .remove("last_level_cache_bytes")
        .unwrap();
    let old = Report::from_json(&v.to_string()).unwrap();
    assert_eq!(old.cache, Cache::Warm);
    assert_eq!(old.run.cache_info, None);
    assert_eq!(
        support::compare::collect_options(&old.run.options).cache,
        Cache::Warm
    );
    assert_eq!(old.run.environment.last_level_cache_bytes, None);
}

/// A simulated candidate costing exactly `ns` per operation.
fn exact<'a>(name: &'a str, clock: &SimulatedClock, ns: u64, jitter: u64) -> Candidate<'a> {
    let c = clock.clone();
    let mut i = 0u64;
    Candidate::new(name, move |n| {
        i += 1;
        c.advance(ns * n + jitter * (i % 3));
    })
}

#[test]
fn one_operation_below_the_clock_step_cannot_tell() {
    let _serial = serial();
    // A 1-op batch of 200 ns against 300 ns on a 100 ns clock: the difference (33 %) is
    // within 1.5 clock steps of the faster batch (75 %), so the clock could have made it.
    let clock = SimulatedClock::new(100);
    let opts = quick().cache(Cache::Cold).skip_warmup(true);
    let r = compare_with_clock(
        exact("a", &clock, 200, 0),
        exact("b", &clock, 300, 0),
        &opts,
        &clock,
    )
    .unwrap();
    assert_eq!(r.timing.inner_loops, 1);
    assert!(
        matches!(
            r.verdict,
            Verdict::CannotTell(Unresolved::BelowQuantization { .. })
        ),
        "{r}"
    );
    // The same difference in warm, calibrated batches clears the gate.
    let warm = compare_with_clock(
        exact("a", &clock, 200, 0),
        exact("b", &clock, 300, 0),
        &quick().skip_warmup(true),
        &clock,
    )
    .unwrap();
    assert!(warm.timing.inner_loops > 1 && warm.resolved, "{warm}");
}

#[test]
fn a_cold_comparison_runs_fewer_validation_runs_by_default() {
    let _serial = serial();
    let clock = SimulatedClock::new(1);
    let opts = CompareOptions::default()
        .cache(Cache::Cold)
        .repeats(11)
        .resamples(200)
        .skip_warmup(true)
        .seed(3);
    let r = compare_with_clock(
        exact("a", &clock, 1_000, 7),
        exact("b", &clock, 1_000, 5),
        &opts,
        &clock,
    )
    .unwrap();
    let va = r.validation_a.as_ref().unwrap();
    assert_eq!(va.runs, DEFAULT_COLD_VALIDATION_RUNS);
    assert_eq!(
        r.run.cache_info.unwrap().evictions,
        (DEFAULT_COLD_VALIDATION_RUNS * 11 * 4 + 2 * 11) as u64
    );
    // An explicit count is honoured.
    let r = compare_with_clock(
        exact("a", &clock, 1_000, 7),
        exact("b", &clock, 1_000, 5),
        &opts.validation_runs(3),
        &clock,
    )
    .unwrap();
    assert_eq!(r.validation_a.unwrap().runs, 3);
}
