//! Performance gates as a test author uses them. Effects asserted here are so large (identical
//! code against a 10 % budget, three times the work) that a busy 2-core machine cannot flip them.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rtcompare::gate::{self, Effort, Expectation, GateFailure, GateOptions, Skip};
use rtcompare::{Candidate, Verdict};

use rtcompare::support::selftest::workload as work;

fn spin(units: u64) -> u64 {
    let mut acc = 0u64;
    for i in 0..units {
        acc = black_box(acc.wrapping_mul(31).wrapping_add(i));
    }
    acc
}

/// Quick effort, forced in debug builds, no JSON unless asked.
fn opts(name: &str) -> GateOptions {
    GateOptions::default()
        .effort(Effort::Quick)
        .force(true)
        .write_json(false)
        .name(name)
}

#[test]
fn an_a_a_gate_passes_twenty_times_in_a_row() {
    for i in 0..20 {
        let r = gate::check(
            Candidate::new("same", work(300)),
            Candidate::new("same again", work(300)),
            Expectation::NotSlower { budget: 0.10 },
            &opts("aa"),
        );
        match r {
            Ok(report) => assert!(report.context.gate.unwrap().passed),
            Err(f) => panic!("A/A gate failed on repetition {i}:\n{f}"),
        }
    }
}

#[test]
fn three_times_the_work_fails_not_slower_and_passes_faster_in_reverse() {
    let failure = gate::check(
        Candidate::new("triple", work(900)),
        Candidate::new("single", work(300)),
        Expectation::NotSlower { budget: 0.10 },
        &opts("triple_not_slower"),
    )
    .unwrap_err();
    let text = failure.to_string();
    assert!(text.contains("FAILED"), "{text}");
    assert!(
        text.contains("verdict: RESOLVED. B is faster than A"),
        "{text}"
    );
    assert!(text.contains("interval ["), "{text}");
    assert!(text.contains("noise floor"), "{text}");
    let report = failure.report().unwrap();
    assert_eq!(report.verdict, Verdict::BFaster);

    // The same pair the other way round: the single-work candidate is faster by far more than 10 %.
    let report = gate::check(
        Candidate::new("single", work(300)),
        Candidate::new("triple", work(900)),
        Expectation::Faster { by: 0.10 },
        &opts("single_faster"),
    )
    .unwrap();
    assert!(report.estimate.low > 0.10, "{report}");
}

#[test]
fn closures_are_candidates_and_identical_code_is_equivalent_within_15_percent() {
    // Equivalence needs the A/A floor below the margin, and a burst of load on a shared
    // 2-core machine during the quick A/A runs can raise it past 15 % (a CI run measured a
    // 56 % floor from a few batches at 2.5 times the rest): the gate then rightly refuses to
    // claim equivalence. Identical code must read equivalent in one of three tries.
    let mut refusals = Vec::new();
    let report = loop {
        match gate::check(
            || spin(black_box(200)),
            || spin(black_box(200)),
            Expectation::Equivalent { margin: 0.15 },
            &opts("equivalent"),
        ) {
            Ok(report) => break report,
            Err(e) if refusals.len() < 2 => refusals.push(e.to_string()),
            Err(e) => panic!("refused three times: {refusals:?}, then {e}"),
        }
    };
    assert_eq!(report.name_a, "candidate");
    assert_eq!(report.name_b, "baseline");
}

#[test]
fn a_claimed_speedup_that_is_not_there_fails_with_the_kind_of_cannot_tell() {
    let failure = gate::check(
        || spin(black_box(200)),
        || spin(black_box(200)),
        Expectation::Faster { by: 0.05 },
        &opts("no_speedup"),
    )
    .unwrap_err();
    let text = failure.to_string();
    assert!(text.contains("verdict:"), "{text}");
    // Identical code is "equivalent" when the interval lies inside compare()'s margin, else
    // "cannot tell"; either way the claimed speedup is not established.
    assert!(
        text.contains("cannot tell")
            || text.contains("equivalent")
            || text.contains("slower")
            || text.contains("lower bound"),
        "{text}"
    );
    assert!(
        text.contains("not established") || text.contains("cannot tell"),
        "{text}"
    );
}

#[test]
fn bad_expectations_are_typed_errors() {
    for e in [
        Expectation::NotSlower { budget: -0.1 },
        Expectation::Faster { by: 1.5 },
        Expectation::Equivalent { margin: 0.0 },
        Expectation::Equivalent { margin: f64::NAN },
    ] {
        let f = gate::check(|| 1, || 1, e, &opts("bad")).unwrap_err();
        assert!(
            matches!(
                f,
                GateFailure::Measurement {
                    error: rtcompare::Error::OutOfRange { .. },
                    ..
                }
            ),
            "{f}"
        );
    }
}

#[test]
fn a_panicking_candidate_is_a_measurement_failure_naming_it() {
    let f = gate::check(
        Candidate::new("broken", |_| panic!("broken on purpose")),
        || 1,
        Expectation::NotSlower { budget: 0.1 },
        &opts("panics"),
    )
    .unwrap_err();
    let text = f.to_string();
    assert!(
        text.contains("broken") && text.contains("could not measure"),
        "{text}"
    );
}

#[test]
fn the_report_is_written_as_json_named_after_the_gate() {
    let report = gate::check(
        || spin(black_box(100)),
        || spin(black_box(100)),
        Expectation::NotSlower { budget: 0.2 },
        &opts("json_artifact").write_json(true),
    )
    .unwrap();
    let info = report.context.gate.as_ref().unwrap();
    let path = info.json_path.as_ref().expect("written");
    assert!(path.ends_with("rtcompare/json_artifact.json"), "{path}");
    let back = rtcompare::Report::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(back.context.gate.as_ref().unwrap().name, "json_artifact");
    assert_eq!(back.context.gate.unwrap().effort, Effort::Quick);
}

#[test]
fn parallel_gates_never_measure_at_the_same_time() {
    // Each gate's batches record the first and last time they ran; the two spans must not
    // overlap, although both gates start together on two threads.
    let base = Instant::now();
    let spans: Arc<[[AtomicU64; 2]; 2]> = Arc::new(std::array::from_fn(|_| {
        [AtomicU64::new(u64::MAX), AtomicU64::new(0)]
    }));
    let threads: Vec<_> = (0..2)
        .map(|g| {
            let spans = spans.clone();
            std::thread::spawn(move || {
                let mark = move |spans: &[[AtomicU64; 2]; 2]| {
                    let t = base.elapsed().as_nanos() as u64;
                    spans[g][0].fetch_min(t, Ordering::Relaxed);
                    spans[g][1].fetch_max(t, Ordering::Relaxed);
                };
                let (s1, s2) = (spans.clone(), spans.clone());
                let mut w1 = work(200);
                let mut w2 = work(200);
                let a = Candidate::new("a", move |n| {
                    mark(&s1);
                    w1(n)
                });
                let b = Candidate::new("b", move |n| {
                    mark(&s2);
                    w2(n)
                });
                gate::check(
                    a,
                    b,
                    Expectation::NotSlower { budget: 0.5 },
                    &opts(&format!("parallel_{g}")),
                )
                .unwrap();
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let span = |g: usize| {
        (
            spans[g][0].load(Ordering::Relaxed),
            spans[g][1].load(Ordering::Relaxed),
        )
    };
    let ((s0, e0), (s1, e1)) = (span(0), span(1));
    assert!(
        e0 < s1 || e1 < s0,
        "gate spans overlap: {s0}..{e0} and {s1}..{e1}"
    );
}

#[test]
fn the_debug_build_policy_is_honoured() {
    let unforced = GateOptions::default().write_json(false).name("policy");
    if cfg!(debug_assertions) {
        if std::env::var("RTCOMPARE_GATE").is_err() {
            assert_eq!(gate::skip_reason(&unforced), Err(Skip::DebugBuild));
            // run() skips without measuring: a candidate that would take an hour is never called.
            let started = Instant::now();
            let r = gate::run(
                Candidate::new("slow", |_| std::thread::sleep(Duration::from_secs(3600))),
                || 1,
                Expectation::NotSlower { budget: 0.0 },
                &unforced,
            )
            .unwrap();
            assert!(r.is_none());
            assert!(started.elapsed() < Duration::from_secs(5));
            // check() measures, and a failing expectation is not a failure in a debug build.
            let r = gate::check(
                Candidate::new("triple", work(900)),
                Candidate::new("single", work(300)),
                Expectation::NotSlower { budget: 0.0 },
                &unforced.clone().effort(Effort::Quick),
            )
            .unwrap();
            assert!(!r.context.gate.unwrap().passed);
        }
        assert_eq!(gate::skip_reason(&unforced.clone().force(true)), Ok(()));
    } else {
        assert_eq!(gate::skip_reason(&unforced), Ok(()));
    }
}

#[test]
fn the_macros_are_one_line() {
    let o = opts("macro_not_slower");
    rtcompare::assert_not_slower!(
        || spin(black_box(100)),
        || spin(black_box(100)),
        budget = 0.25,
        options = o
    );
    // A 4x difference, checked at most twice: on a shared CI machine one quick gate saw its
    // A/A validation fail 10 runs of 10 (a floor of 149 %, lag-1 autocorrelation +0.53) and
    // said "cannot tell" at 80 % faster. The test is about the macro's form; a second episode
    // in a row still fails it.
    let faster = || {
        rtcompare::assert_faster!(
            || spin(black_box(100)),
            || spin(black_box(400)),
            by = 0.2,
            options = opts("macro_faster")
        );
    };
    if std::panic::catch_unwind(faster).is_err() {
        eprintln!("macro_faster: the first gate failed (printed above); checking once more");
        faster();
    }
    let o = opts("macro_equivalent");
    // Equivalence needs the whole interval inside the margin; under three compilers' load on
    // two cores a debug build's interval reached ±32 %, so the margin here is wide: the test is
    // about the macro's form, not the machine's quiet.
    rtcompare::assert_equivalent!(
        || spin(black_box(100)),
        || spin(black_box(100)),
        within = 0.5,
        options = o
    );
}

#[test]
#[should_panic(expected = "FAILED")]
fn a_failing_macro_panics_with_the_report() {
    let o = opts("macro_fails");
    rtcompare::assert_not_slower!(
        || spin(black_box(900)),
        || spin(black_box(300)),
        budget = 0.05,
        options = o
    );
}
