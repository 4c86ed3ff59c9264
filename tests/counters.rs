//! Hardware counters: never an error, "unavailable" where refused, and a stable JSON shape.
//!
//! Run both ways: `cargo test --test counters` and `cargo test --test counters --features counters`.

use std::collections::BTreeSet;

use rtcompare::support::measure::{
    CounterDelta, CounterSet, CounterStatus, CounterSummary, Unavailable,
};

fn keys(value: &serde_json::Value) -> BTreeSet<String> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

const SIDE_KEYS: [&str; 6] = [
    "cycles_per_op",
    "instructions_per_op",
    "cache_misses_per_op",
    "branch_misses_per_op",
    "batches",
    "multiplexed_batches",
];

#[test]
fn summary_serialises_every_field_including_nulls() {
    let delta = CounterDelta {
        cycles: Some(5_000),
        instructions: None,
        cache_misses: None,
        branch_misses: Some(7),
        enabled_ns: 10,
        running_ns: 10,
    };
    let summary = CounterSummary::from_batches(&[delta], &[delta], 1_000);
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(
        keys(&json),
        set(&["status", "a", "b", "inner_loops", "failures"])
    );
    for side in ["a", "b"] {
        assert_eq!(keys(&json[side]), set(&SIDE_KEYS), "side {side}");
        assert!(json[side]["instructions_per_op"].is_null());
        assert!(json[side]["cache_misses_per_op"].is_null());
        assert_eq!(json[side]["cycles_per_op"], 5.0);
    }
    assert_eq!(json["status"], serde_json::json!({ "state": "available" }));
    let back: CounterSummary = serde_json::from_value(json).unwrap();
    assert_eq!(back, summary);

    // The unavailable summary has exactly the same keys, all values null.
    let unavailable = serde_json::to_value(CounterSummary::unavailable("no PMU")).unwrap();
    assert_eq!(
        keys(&unavailable),
        set(&["status", "a", "b", "inner_loops", "failures"])
    );
    for side in ["a", "b"] {
        assert_eq!(keys(&unavailable[side]), set(&SIDE_KEYS));
        for key in &SIDE_KEYS[..4] {
            assert!(unavailable[side][key].is_null(), "{side}.{key}");
        }
    }
    assert_eq!(
        unavailable["status"],
        serde_json::json!({ "state": "unavailable", "reason": "no PMU" })
    );
}

#[test]
fn medians_of_constructed_batches() {
    let batch = |cycles: u64| CounterDelta {
        cycles: Some(cycles),
        instructions: Some(2 * cycles),
        cache_misses: Some(cycles / 1_000),
        branch_misses: None,
        enabled_ns: 1,
        running_ns: 1,
    };
    let a: Vec<CounterDelta> = [9_000, 1_000, 5_000, 7_000, 3_000]
        .into_iter()
        .map(batch)
        .collect();
    let b: Vec<CounterDelta> = [2_000, 8_000].into_iter().map(batch).collect();
    let s = CounterSummary::from_batches(&a, &b, 100);
    assert_eq!(s.a.cycles_per_op, Some(50.0));
    assert_eq!(s.a.instructions_per_op, Some(100.0));
    assert_eq!(s.a.cache_misses_per_op, Some(0.05));
    assert_eq!(s.a.branch_misses_per_op, None);
    assert_eq!(s.b.cycles_per_op, Some(50.0)); // (20 + 80) / 2
    assert_eq!(s.b.instructions_per_op, Some(100.0));
}

#[test]
fn unavailable_summary_says_unavailable() {
    let reason = "perf_event_open refused (ENOENT)";
    let summary = CounterSummary::unavailable(reason);
    assert!(!summary.is_available());
    assert_eq!(
        summary.status,
        CounterStatus::Unavailable {
            reason: reason.to_string()
        }
    );
    let text = summary.to_string();
    assert!(text.contains("unavailable"), "{text}");
    assert!(text.contains(reason), "{text}");
    let u = Unavailable {
        reason: reason.to_string(),
    };
    assert_eq!(u.to_string(), format!("unavailable: {reason}"));
}

#[cfg(not(feature = "counters"))]
#[test]
fn without_the_feature_open_is_unavailable_and_names_the_feature() {
    let err = CounterSet::open().unwrap_err();
    assert!(err.reason.contains("`counters`"), "{err}");
    assert!(err.to_string().starts_with("unavailable: "), "{err}");
    let summary = CounterSummary::unavailable(err.reason);
    assert!(summary.to_string().contains("unavailable"));
}

/// With the feature: open either works (then a million dependent adds retire at least a million
/// instructions) or says why not. Neither is an error or a panic.
#[cfg(feature = "counters")]
#[test]
fn with_the_feature_open_succeeds_or_is_unavailable() {
    use std::hint::black_box;

    match CounterSet::open() {
        Ok(set) => {
            eprintln!(
                "counters open: {:?}; failures: {:?}",
                set.counters(),
                set.failures()
            );
            let before = set.read();
            let mut x = 1u64;
            for i in 0..1_000_000u64 {
                x = black_box(x.wrapping_add(i));
            }
            black_box(x);
            let after = set.read();
            let d = CounterSet::delta(&before, &after);
            if let Some(instructions) = d.instructions
                && d.running_ns > 0
                && !d.multiplexed()
            {
                assert!(instructions >= 1_000_000, "{d:?}");
            }
            let cost = set.read_cost_ns(10_000);
            eprintln!("read cost: {cost:.0} ns");
            let summary =
                CounterSummary::from_batches(&[d], &[d], 1_000_000).with_failures(set.failures());
            eprintln!("{summary}");
        }
        Err(unavailable) => {
            eprintln!("{unavailable}");
            assert!(
                unavailable.reason.contains("perf_event_open"),
                "{unavailable}"
            );
            let summary = CounterSummary::unavailable(unavailable.reason);
            assert!(summary.to_string().contains("unavailable"));
        }
    }
}
