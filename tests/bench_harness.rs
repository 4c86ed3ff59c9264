//! The `cargo bench` harness as a bench target uses it: registration, libtest's filters, a
//! failing benchmark that does not stop the others, and the JSON it writes.

use std::hint::black_box;
use std::time::Duration;

use rtcompare::bench::{BenchOptions, BenchResult, BenchRun, Bencher, Outcome, Throughput};
use rtcompare::precision::Precision;
use rtcompare::support::bench::{self, Args};
use rtcompare::{Candidate, CompareOptions};

/// Short sessions: these tests check the harness, not the numbers.
fn quick(dir: &std::path::Path) -> BenchOptions {
    BenchOptions::default()
        .precision(Precision::quick().max_duration(Some(Duration::from_millis(300))))
        .compare(
            CompareOptions::default()
                .validation_runs(3)
                .repeats(21)
                .resamples(300)
                .warmup_duration(Duration::from_millis(10)),
        )
        .output_dir(dir)
}

fn register(b: &mut Bencher, dir: &std::path::Path) {
    b.set_options(quick(dir));
    // Borrowed by the closures: each benchmark runs as it is registered.
    let data: Vec<u64> = (0..256).collect();
    b.bench("sum/small", || black_box(&data).iter().sum::<u64>());
    b.bench_with_input("sum/large", (0..4_096u64).collect::<Vec<_>>(), |v| {
        v.iter().sum::<u64>()
    });
    b.bench_batched(
        "sort/consumed",
        || vec![5u32, 3, 1, 4, 2],
        |mut v| {
            v.sort_unstable();
            v
        },
    );
    b.bench("panics", || -> u64 {
        panic!("this benchmark always fails")
    });
    b.compare(
        "mul/3-vs-9",
        Candidate::from_fn("pow7", || black_box(3u64).pow(7)),
        Candidate::from_fn("pow9", || black_box(3u64).pow(9)),
    );
    // Registered twice: a failed row of its own, the first keeps its result.
    b.bench("sum/small", || 0u64);
}

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("rtcompare-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn a_filter_runs_only_what_it_names() {
    let dir = temp_dir("filter");
    let args = Args::parse(["--bench", "sum/l"].map(String::from)).unwrap();
    let mut b = bench::bencher(BenchOptions::default(), args);
    register(&mut b, &dir);
    assert_eq!(bench::names(&b), ["sum/large"]);
    let run = bench::into_run(b);
    assert_eq!(run.results.len(), 1);
    match &run.results[0].outcome {
        Outcome::Measured(m) => {
            let e = m.estimate.as_ref().expect("an estimate");
            assert!(e.mean > 0.0 && e.mean.is_finite(), "{}", run.results[0]);
            // `--output-format bencher`'s line: what github-action-benchmark's parser reads.
            let line = bench::bencher_line(&run.results[0]).unwrap();
            let (head, tail) = line.split_once(" ... bench: ").unwrap();
            assert_eq!(head, "test sum/large", "{line}");
            let (mean, spread) = tail.trim_start().split_once(" ns/iter (+/- ").unwrap();
            let number = |s: &str| s.replace(',', "").parse::<u64>().unwrap();
            assert_eq!(number(mean), e.mean.round() as u64, "{line}");
            assert_eq!(
                number(spread.trim_end_matches(')')),
                e.half_width.round() as u64
            );
        }
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_whole_target_runs_reports_the_failure_and_writes_json() {
    let dir = temp_dir("all");
    let d = dir.clone();
    let code = bench::run_main(move |b| register(b, &d), ["--bench".to_string()]);
    assert_eq!(code, 1, "one benchmark panics, so the run exits 1");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| e.path().extension().is_some_and(|x| x == "json"))
        .expect("a JSON file")
        .path();
    let run: BenchRun = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(run.schema_version, bench::BENCH_SCHEMA_VERSION);
    let names: Vec<&str> = run.results.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "sum/small",
            "sum/large",
            "sort/consumed",
            "panics",
            "mul/3-vs-9",
            "sum/small"
        ]
    );
    assert!(matches!(&run.results[0].outcome, Outcome::Measured(_)));
    assert!(
        matches!(&run.results[5].outcome, Outcome::Failed { reason } if reason.contains("twice"))
    );
    assert!(
        matches!(&run.results[3].outcome, Outcome::Failed { reason } if reason.contains("panic"))
    );
    assert!(matches!(&run.results[2].outcome, Outcome::Measured(_)));
    match &run.results[4].outcome {
        // Only the machinery is checked here, not a direction.
        Outcome::Compared(r) => assert!(r.estimate.low <= r.estimate.high, "{r}"),
        other => panic!("{other:?}"),
    }
    // The page beside the JSON: every benchmark in its table, the comparison's answer drawn.
    let page = std::fs::read_to_string(file.with_extension("html")).expect("an HTML page");
    assert!(
        page.contains("sort/consumed") && page.contains("FAILED"),
        "{page}"
    );
    assert!(page.contains("mul/3-vs-9: the answer") && page.contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_command_lines_are_refused_and_lists_run_nothing() {
    assert_eq!(bench::run_main(|_| {}, ["--save-baseline".to_string()]), 2);
    // --list runs nothing.
    assert_eq!(
        bench::run_main(
            |b| b.bench("never", || -> u64 { panic!("listed, not run") }),
            ["--list".to_string()]
        ),
        0
    );
    // A name registered twice fails a listing too, as it fails a run (exit 1).
    assert_eq!(
        bench::run_main(
            |b| {
                b.bench("twice", || 1u64);
                b.bench("twice", || 2u64);
            },
            ["--list".to_string()]
        ),
        1
    );
}

#[test]
fn under_cargo_test_each_benchmark_runs_once_and_nothing_is_written() {
    let dir = temp_dir("test-mode");
    let calls = std::cell::Cell::new(0u32);
    // What `cargo test --benches -- --nocapture --test-threads 1` passes: no `--bench`.
    let args = ["--nocapture", "--test-threads", "1"].map(String::from);
    let code = bench::run_main(
        |b| {
            b.set_options(quick(&dir));
            b.bench("counted", || calls.set(calls.get() + 1));
            b.compare(
                "pair",
                Candidate::from_fn("a", || calls.set(calls.get() + 1)),
                Candidate::from_fn("b", || calls.set(calls.get() + 1)),
            );
        },
        args.clone(),
    );
    assert_eq!(code, 0);
    // One operation of the benchmark and one of each candidate: nothing was measured.
    assert_eq!(calls.get(), 3);
    assert!(!dir.exists(), "a test run wrote {}", dir.display());
    // A benchmark that panics fails the test run; the others still run.
    let after = std::cell::Cell::new(false);
    let code = bench::run_main(
        |b| {
            b.set_options(quick(&dir));
            b.bench("panics", || -> u64 { panic!("fixture broken") });
            b.bench("after", || after.set(true));
        },
        args,
    );
    assert_eq!(code, 1);
    assert!(after.get());
    assert!(!dir.exists());
}

#[test]
fn groups_prefix_their_names_and_carry_their_throughput_and_options() {
    let dir = temp_dir("groups");
    let mut b = bench::bencher(
        BenchOptions::default(),
        Args::parse(["--bench".into()]).unwrap(),
    );
    b.set_options(quick(&dir));
    let data: Vec<u8> = vec![7; 1_024];
    b.group("parse", |g| {
        g.throughput(Throughput::Bytes(1_024));
        // Options set in a group hold for its benchmarks and end with it.
        let fixed = g.options().clone().precision(
            Precision::quick()
                .inner_loops(7)
                .max_duration(Some(Duration::from_millis(300))),
        );
        g.set_options(fixed);
        g.bench("small", || {
            black_box(&data).iter().map(|&x| x as u64).sum::<u64>()
        });
        for n in [16u64, 256] {
            g.throughput(Throughput::Elements(n));
            g.bench_with_input(
                n,
                |&n| (0..n).collect::<Vec<u64>>(),
                |v| v.iter().sum::<u64>(),
            );
        }
        g.group("nested", |g| g.bench("x", || black_box(3u64).pow(5)));
    });
    b.bench("plain", || black_box(3u64).pow(5));
    let run = bench::into_run(b);
    let seen: Vec<(&str, Option<Throughput>)> = run
        .results
        .iter()
        .map(|r| (r.name.as_str(), r.throughput))
        .collect();
    assert_eq!(
        seen,
        [
            ("parse/small", Some(Throughput::Bytes(1_024))),
            ("parse/16", Some(Throughput::Elements(16))),
            ("parse/256", Some(Throughput::Elements(256))),
            // A nested group starts with its parent's throughput.
            ("parse/nested/x", Some(Throughput::Elements(256))),
            ("plain", None),
        ]
    );
    let batch = |r: &BenchResult| match &r.outcome {
        Outcome::Measured(m) => m.inner_loops,
        other => panic!("{}: {other:?}", r.name),
    };
    assert!(run.results[..4].iter().all(|r| batch(r) == 7));
    assert_ne!(batch(&run.results[4]), 7, "the group's options outlived it");
    // The rate beside the time, in the row and in the JSON.
    let row = run.results[0].to_string();
    assert!(row.contains("ns/op") && row.contains("B/s"), "{row}");
    assert!(run.results[1].to_string().contains("elem/s"));
    assert!(!run.results[4].to_string().contains("/s"));
    let json = serde_json::to_string(&run).unwrap();
    assert!(json.contains(r#""throughput":{"bytes":1024}"#), "{json}");
    let back: BenchRun = serde_json::from_str(&json).unwrap();
    assert_eq!(back.results[2].throughput, Some(Throughput::Elements(256)));
    assert!(back.results[0].rate().is_some() && back.results[4].rate().is_none());
}

#[test]
fn a_fixture_is_built_only_for_a_benchmark_that_runs() {
    let built = std::cell::RefCell::new(Vec::new());
    let fixture = |n: u64| {
        built.borrow_mut().push(n);
        (0..n).collect::<Vec<u64>>()
    };
    // `cargo test --benches -- --exact sizes/2`: one benchmark runs, once.
    let args = Args::parse(["--exact", "sizes/2"].map(String::from)).unwrap();
    let mut b = bench::bencher(BenchOptions::default(), args);
    b.group("sizes", |g| {
        for n in 1..=3u64 {
            g.bench_with_input(n, |&n| fixture(n), |v| v.len());
        }
    });
    b.bench_with_setup("sizes/4", || fixture(4), |v| v.len());
    assert_eq!(bench::names(&b), ["sizes/2"]);
    assert_eq!(*built.borrow(), [2]);
    // A panicking setup is the benchmark's failure, named; the others still run.
    let args = Args::parse(["--nocapture"].map(String::from)).unwrap();
    let mut b = bench::bencher(BenchOptions::default(), args);
    b.bench_with_setup(
        "broken",
        || -> Vec<u64> { panic!("no fixture") },
        |v| v.len(),
    );
    b.bench_with_setup("fine", || fixture(5), |v| v.len());
    let run = bench::into_run(b);
    assert_eq!(
        run.results.len(),
        1,
        "only the failure is a result in a test run"
    );
    match &run.results[0].outcome {
        Outcome::Failed { reason } => {
            assert!(
                reason.contains("setup") && reason.contains("no fixture"),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(*built.borrow(), [2, 5]);
}
