//! criterion's API run as `criterion_main!` runs it (`__private::run`, in this thread): names,
//! throughputs, what is timed, failures, the command line, and the JSON the run writes.
//! Each test runs on its own thread, which holds its own run.

extern crate rtcompare_criterion as criterion;

use std::path::PathBuf;
use std::time::Duration;

use criterion::{BatchSize, Bencher, BenchmarkId, Criterion, Throughput, black_box};
use rtcompare::bench::{BenchRun, Outcome, Throughput as Rate};

/// The test's own output directory (removed first).
fn dir(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("rtcompare-criterion-{tag}-{}", std::process::id()))
}

/// Short benchmarks: these tests check the layer, not the numbers. A benchmark stops as soon
/// as its mean is ±5 % precise (milliseconds here); the bound of 1 s is for a busy machine.
fn config(tag: &str) -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(50))
        .measurement_time(Duration::from_secs(1))
        .output_directory(&dir(tag))
}

fn run(tag: &str, args: &[&str], groups: &[fn()]) -> (i32, Option<BenchRun>) {
    let _ = std::fs::remove_dir_all(dir(tag));
    let code = criterion::__private::run(args.iter().map(|s| s.to_string()), groups);
    // The JSON is named after the test binary (the bench target's name in real use).
    let json = std::fs::read_dir(dir(tag)).ok().and_then(|entries| {
        entries
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "json"))
    });
    let run = json.map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap());
    let _ = std::fs::remove_dir_all(dir(tag));
    (code, run)
}

fn outcome<'r>(run: &'r BenchRun, name: &str) -> &'r Outcome {
    let names: Vec<&str> = run.results.iter().map(|r| r.name.as_str()).collect();
    &run.results
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no {name:?} in {names:?}"))
        .outcome
}

fn mean_ns(run: &BenchRun, name: &str) -> f64 {
    match outcome(run, name) {
        Outcome::Measured(m) => m.estimate.as_ref().expect("an estimate").mean,
        other => panic!("{name}: {other:?}"),
    }
}

fn named(c: &mut Criterion) {
    c.bench_function("plain", |b| b.iter(|| black_box(3u64).pow(5)));
    c.bench_with_input(BenchmarkId::new("input", 7), &7u64, |b, &n| {
        b.iter(|| black_box(n).pow(3))
    });
    let mut g = c.benchmark_group("group");
    g.throughput(Throughput::Bytes(64));
    g.bench_with_input(BenchmarkId::from_parameter(64), &[1u8; 64], |b, d| {
        b.iter(|| d.iter().map(|&x| u64::from(x)).sum::<u64>())
    });
    g.throughput(Throughput::ElementsAndBytes {
        elements: 8,
        bytes: 64,
    });
    g.bench_function(BenchmarkId::new("f", "x"), |b| b.iter(|| black_box(1)));
    g.finish();
}

fn named_group() {
    let mut c = config("named").configure_from_args();
    named(&mut c);
}

#[test]
fn names_throughputs_and_json_are_criterions() {
    let args = ["--bench", "--noplot"];
    let (code, run) = run("named", &args, &[named_group]);
    assert_eq!(code, 0);
    let run = run.expect("the JSON is written");
    let names: Vec<&str> = run.results.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["plain", "input/7", "group/64", "group/f/x"]);
    let rates: Vec<Option<Rate>> = run.results.iter().map(|r| r.throughput).collect();
    assert_eq!(
        rates,
        [None, None, Some(Rate::Bytes(64)), Some(Rate::Elements(8))]
    );
    for name in names {
        assert!(mean_ns(&run, name) > 0.0, "{name}");
    }
}

/// The closure sleeps 2 ms before `iter` (once a batch), and `iter_batched`'s setup builds
/// 1,000 inputs per batch, around routines of a few nanoseconds: were either timed, a
/// reading would hold milliseconds. (The bencher's own tests time a sleeping setup per input.)
fn outside_the_timed_region(c: &mut Criterion) {
    c.bench_function("sleep-then-iter", |b| {
        std::thread::sleep(Duration::from_millis(2));
        b.iter(|| black_box(2u64).pow(9))
    });
    c.bench_function("costly-setup", |b| {
        b.iter_batched(
            || (0..1_000u64).map(black_box).sum::<u64>(),
            |x| black_box(x).pow(2),
            BatchSize::SmallInput,
        )
    });
}

fn outside_group() {
    let mut c = config("outside").configure_from_args();
    outside_the_timed_region(&mut c);
}

#[test]
fn only_the_iter_methods_region_is_timed() {
    let (code, run) = run("outside", &["--bench"], &[outside_group]);
    assert_eq!(code, 0);
    let run = run.unwrap();
    // A timed sleep would add 2,000,000 ns to a batch, and calibration would then keep its
    // batches at one operation; a timed setup, about 1,000 ns per operation (a sum of 1,000
    // numbers). 200 ns leaves room for a busy machine.
    for name in ["sleep-then-iter", "costly-setup"] {
        let ns = mean_ns(&run, name);
        assert!(ns < 200.0, "{name}: {ns} ns per operation");
    }
}

/// A bench file's own clock: 1,000 ns per iteration, whatever the machine does.
fn custom(b: &mut Bencher) {
    b.iter_custom(|iters| Duration::from_nanos(1_000 * iters + iters % 3));
}

fn custom_group() {
    let mut c = config("custom").configure_from_args();
    c.bench_function("custom", custom);
}

#[test]
fn iter_customs_duration_is_the_measurement() {
    let (code, run) = run("custom", &["--bench"], &[custom_group]);
    assert_eq!(code, 0);
    let ns = mean_ns(&run.unwrap(), "custom");
    assert!((ns - 1_000.0).abs() < 1.0, "{ns}");
}

fn failing(c: &mut Criterion) {
    c.bench_function("forgets-iter", |_b: &mut Bencher| {});
    c.bench_function("panics", |b| b.iter(|| -> u64 { panic!("always") }));
    c.bench_function("plain", |b| b.iter(|| black_box(1u8)));
    c.bench_function("plain", |b| b.iter(|| black_box(2u8)));
    // A benchmark started inside another's closure is refused, not run inside its batches.
    c.bench_function("outer", |b| {
        let mut inner = Criterion::default();
        inner.bench_function("inner", |b| b.iter(|| 1));
        b.iter(|| 1)
    });
}

fn failing_group() {
    let mut c = config("failing").configure_from_args();
    failing(&mut c);
    let mut c = config("failing").confidence_level(1.5);
    c.bench_function("level-1.5", |b| b.iter(|| 1));
}

#[test]
fn failures_are_rows_that_say_why_and_the_others_run() {
    let (code, run) = run("failing", &["--bench"], &[failing_group]);
    assert_eq!(code, 1);
    let run = run.unwrap();
    let reason = |name: &str| match outcome(&run, name) {
        Outcome::Failed { reason } => reason.clone(),
        other => panic!("{name}: {other:?}"),
    };
    assert!(reason("forgets-iter").contains("Bencher::iter"));
    assert!(reason("panics").contains("always"));
    assert!(
        reason("level-1.5").contains("1.5"),
        "{}",
        reason("level-1.5")
    );
    assert!(mean_ns(&run, "plain") > 0.0);
    assert_eq!(run.results.iter().filter(|r| r.name == "plain").count(), 2);
    assert!(mean_ns(&run, "outer") > 0.0);
    assert!(run.results.iter().all(|r| r.name != "inner"));
}

static RAN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

fn counting(c: &mut Criterion) {
    for name in ["sum/64", "sum/640", "max/64", "vec(3)"] {
        c.bench_function(name, |b| {
            RAN.lock().unwrap().push(name.to_string());
            b.iter(|| 1)
        });
    }
}

fn counting_group() {
    let mut c = config("select").configure_from_args();
    counting(&mut c);
}

fn filtered_group() {
    let mut c = config("select").with_filter("0$").configure_from_args();
    counting(&mut c);
}

fn ran_with(args: &[&str]) -> (i32, Vec<String>) {
    RAN.lock().unwrap().clear();
    let (code, _) = run("select", args, &[counting_group]);
    let mut ran = RAN.lock().unwrap().clone();
    ran.dedup();
    (code, ran)
}

#[test]
fn the_command_line_selects_as_criterions_does() {
    // One test for every selection, since they share the record of what ran.
    // Under `cargo test --benches` (no --bench): each benchmark once.
    assert_eq!(
        ran_with(&["--nocapture"]),
        (
            0,
            vec![
                "sum/64".into(),
                "sum/640".into(),
                "max/64".into(),
                "vec(3)".into()
            ]
        )
    );
    assert_eq!(
        ran_with(&["--test", "--bench", "^sum/64$"]),
        (0, vec!["sum/64".into()])
    );
    assert_eq!(
        ran_with(&["--test", "sum|max", "--skip", "640"]).1,
        ["sum/64", "max/64"]
    );
    assert_eq!(ran_with(&["--test", "--exact", "vec(3)"]).1, ["vec(3)"]);
    assert_eq!(ran_with(&["--test", "--ignored"]), (0, vec![]));
    assert_eq!(ran_with(&["--list"]), (0, vec![]));
    assert_eq!(ran_with(&["--bench", "vec(3"]), (2, vec![]));
    // A filter in the bench file applies beside the command line's.
    RAN.lock().unwrap().clear();
    run("select", &["--test", "sum"], &[filtered_group]);
    assert_eq!(*RAN.lock().unwrap(), ["sum/640"]);
    assert_eq!(
        ran_with(&["--bench", "--save-baseline", "main"]),
        (2, vec![])
    );
}
