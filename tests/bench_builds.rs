//! Two builds of one bench target compared benchmark by benchmark through workers. The test
//! binary is its own bench target: started with `rtcompare::support::bench::WORKER_ENV`, the test
//! below serves its benchmarks instead of testing. A copy of the binary whose name ends in
//! `-head` plays the head build: there the benchmark `work` costs 20 % more, `only/head` exists
//! and `only/base` does not.
//!
//! Most tests set `decide(false)`: they check mechanics through the precision plan's fixed pair
//! counts and Holm's family; the deciding tests (`deciding_…`, `a_spent_suite_budget_…`) use the
//! default.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rtcompare::CompareOptions;
use rtcompare::bench::{BenchOptions, Bencher};
use rtcompare::stats::Verdict;
use rtcompare::support::bench::{self, BuildStatus, BuildsOptions, compare_builds};
use rtcompare::support::stats::{DecisionEnd, PlanEnd};

/// A dependent chain: its time is proportional to `steps` on any machine. Nothing but
/// registers inside the loop, so where a process's stack lands does not change its speed
/// (a `black_box` per step, a store and a load, made processes differ by ±15 %).
fn chain(steps: u64) -> u64 {
    let mut x = 1u64;
    for _ in 0..black_box(steps) {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    }
    black_box(x)
}

/// A file whose presence in a worker's directory registers the benchmark `cwd/marked`.
const CWD_MARKER: &str = "rtcompare-cwd-marker";

fn register(b: &mut Bencher) {
    let head = std::env::current_exe()
        .ok()
        .and_then(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().ends_with("-head"))
        })
        .unwrap_or(false);
    let steps = if head { 2_400 } else { 2_000 };
    b.bench("work", || chain(steps));
    b.bench("same", || chain(1_000));
    if head {
        b.bench("only/head", || chain(10));
    } else {
        b.bench("only/base", || chain(10));
    }
    // Registered only by a worker started in a directory holding the marker file.
    if Path::new(CWD_MARKER).exists() {
        b.bench("cwd/marked", || chain(10));
    }
    // In-binary pairs are not served by workers.
    b.compare(
        "pair",
        rtcompare::Candidate::from_fn("a", || chain(10)),
        rtcompare::Candidate::from_fn("b", || chain(10)),
    );
}

fn quick() -> CompareOptions {
    CompareOptions::default()
        .validation_runs(5)
        .repeats(31)
        .resamples(500)
        .warmup_duration(Duration::from_millis(20))
}

/// Held by every test that copies the binary or starts workers. A copy being written while
/// another test's thread forks leaves the copy's write descriptor in that child until it
/// execs, and starting the copy meanwhile fails with "Text file busy" (ETXTBSY): the tests
/// of this file run one at a time.
static SPAWNING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn spawning() -> std::sync::MutexGuard<'static, ()> {
    SPAWNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Each benchmark's name and status, in the run's order.
fn statuses(run: rtcompare::Result<bench::BuildsRun>) -> Vec<(String, BuildStatus)> {
    run.unwrap()
        .benchmarks
        .into_iter()
        .map(|b| (b.name, b.status))
        .collect()
}

/// The test binary under a second name.
fn head_copy(tag: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let copy =
        std::env::temp_dir().join(format!("rtcompare-bench-{}-{tag}-head", std::process::id()));
    std::fs::copy(&exe, &copy).unwrap();
    copy
}

#[test]
fn two_builds_are_compared_benchmark_by_benchmark() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register, std::iter::empty());
    }
    let _serial = spawning();
    let base = std::env::current_exe().unwrap();
    let head = head_copy("two");
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = calls.clone();
    let o = BuildsOptions::default()
        .decide(false)
        .progress(move |p| {
            assert!(
                p.pairs_done <= p.pairs_planned && p.benchmarks == 2,
                "{p:?}"
            );
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .pairs(5)
        .seed(5)
        .compare(quick())
        .args([
            "--exact",
            "two_builds_are_compared_benchmark_by_benchmark",
            "--nocapture",
        ]);
    let run = compare_builds(&base, &head, &o);
    let _ = std::fs::remove_file(&head);
    let run = run.unwrap();
    let seen: Vec<(&str, BuildStatus)> = run
        .benchmarks
        .iter()
        .map(|b| (b.name.as_str(), b.status))
        .collect();
    assert_eq!(
        seen,
        [
            ("work", BuildStatus::Compared),
            ("same", BuildStatus::Compared),
            ("only/head", BuildStatus::New),
            ("only/base", BuildStatus::Removed),
        ]
    );
    let work = run.benchmarks[0].pooled.as_ref().unwrap();
    assert!(work.processes >= 5, "{work}");
    // The two compared benchmarks are judged together (Holm): the one with the smaller
    // p-value at α/2, so its interval is at 97.5 %.
    assert_eq!(run.family_level, Some(0.95));
    let holm = run.benchmarks[0].holm.unwrap();
    assert!((holm.alpha - 0.025).abs() < 1e-12, "{holm:?}");
    assert!((work.level - 0.975).abs() < 1e-12, "{work}");
    assert_eq!(run.benchmarks[0].reports.len(), work.processes);
    // 2,400 steps against 2,000: the head is about 20 % slower, δ = 1 − head/base ≈ −0.2.
    assert_eq!(work.verdict, Verdict::BFaster, "{work}");
    assert!(work.delta < -0.1 && work.delta > -0.3, "{work}");
    // The same code in both builds is not declared different by much.
    let same = run.benchmarks[1].pooled.as_ref().unwrap();
    assert!(same.delta.abs() < 0.1, "{same}");
    // Every pair ran its four workers on one CPU of those allowed, the parent elsewhere,
    // and the pairs are spread over the CPUs: no CPU holds more than one pair beyond another.
    let allowed = rtcompare::support::measure::current_affinity().unwrap_or_default();
    for b in &run.benchmarks[..2] {
        let mut per_cpu = std::collections::BTreeMap::new();
        for r in &b.reports {
            let pair = r
                .context
                .worker_pair
                .as_ref()
                .expect("a worker pair's report");
            assert_eq!(pair.cpus_allowed, allowed.len());
            if let Some(cpu) = pair.cpu {
                assert!(allowed.contains(&cpu), "{pair:?}");
                assert_eq!(r.run.pinned_cpu, Some(cpu));
                assert_ne!(pair.parent_cpu, Some(cpu));
                *per_cpu.entry(cpu).or_insert(0usize) += 1;
            }
            // Four series of one batch per round, each round a permutation of the four.
            assert!(pair.batch_ns.iter().all(|s| s.len() == pair.rounds));
            assert_eq!(pair.orders.len(), pair.rounds);
            for order in &pair.orders {
                let mut o = *order;
                o.sort_unstable();
                assert_eq!(o, [0, 1, 2, 3]);
            }
            // The pair's floor is the larger of its two A/A differences.
            let floor = pair.null_deltas[0].abs().max(pair.null_deltas[1].abs());
            assert_eq!(r.noise_floor, floor);
            assert!(r.validated && r.validation_a.is_none());
        }
        if allowed.len() > 1 {
            let counts: Vec<usize> = per_cpu.values().copied().collect();
            let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
            assert!(hi - lo <= 1 && counts.len() == allowed.len().min(b.reports.len()));
        }
    }
    // Whether the precision target was met is judged at the level Holm judged the benchmark
    // at, the level its interval is reported at, not the unadjusted one.
    for b in &run.benchmarks[..2] {
        let p = b.pooled.as_ref().unwrap();
        let o = BuildsOptions::default().decide(false);
        assert_eq!(
            p.target_met,
            Some(p.precise(o.target_abs, o.target_rel)),
            "{p}"
        );
    }
    // The headline benchmark's nulls see nothing of its 20 %.
    for r in &run.benchmarks[0].reports {
        let nulls = r.context.worker_pair.as_ref().unwrap().null_deltas;
        assert!(nulls.iter().all(|d| d.abs() < 0.1), "{nulls:?}");
    }
    // One progress report per worker pair.
    assert_eq!(
        calls.load(std::sync::atomic::Ordering::Relaxed),
        work.processes + same.processes
    );
    // Every worker was reaped and its stderr file removed.
    let prefix = format!("rtcompare-worker-{}-", std::process::id());
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_filter_selects_benchmarks_by_name() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register, std::iter::empty());
    }
    let _serial = spawning();
    let base = std::env::current_exe().unwrap();
    let head = head_copy("filter");
    let o = BuildsOptions::default()
        .decide(false)
        .filter("only/")
        .args([
            "--exact",
            "a_filter_selects_benchmarks_by_name",
            "--nocapture",
        ]);
    let run = compare_builds(&base, &head, &o);
    let _ = std::fs::remove_file(&head);
    let seen = statuses(run);
    assert_eq!(
        seen,
        [
            ("only/head".to_string(), BuildStatus::New),
            ("only/base".to_string(), BuildStatus::Removed),
        ]
    );
    // `--exact` and `--skip`, as the harness reads them.
    let only = |o: BuildsOptions| {
        let head = head_copy("filter");
        let o = o.args([
            "--exact",
            "a_filter_selects_benchmarks_by_name",
            "--nocapture",
        ]);
        let run = compare_builds(&base, &head, &o);
        let _ = std::fs::remove_file(&head);
        statuses(run)
    };
    let exact = only(
        BuildsOptions::default()
            .decide(false)
            .filter("only/head")
            .exact(true),
    );
    assert_eq!(exact, [("only/head".to_string(), BuildStatus::New)]);
    assert!(
        only(
            BuildsOptions::default()
                .decide(false)
                .filter("only/hea")
                .exact(true)
        )
        .is_empty()
    );
    let skipped = only(
        BuildsOptions::default()
            .decide(false)
            .skip("work")
            .skip("same")
            .skip("/head"),
    );
    assert_eq!(skipped, [("only/base".to_string(), BuildStatus::Removed)]);
}

#[test]
fn a_worker_that_leaves_mid_protocol_is_named() {
    let _serial = spawning();
    // Started with a filter that matches no test, the worker exits without answering.
    let exe = std::env::current_exe().unwrap();
    let o = BuildsOptions::default()
        .decide(false)
        .args(["--exact", "no_such_test"])
        .answer_timeout(Duration::from_secs(20));
    match compare_builds(&exe, &exe, &o) {
        Err(rtcompare::Error::Worker {
            build,
            benchmark,
            reason,
        }) => {
            assert_eq!(Path::new(&build), exe.as_path());
            assert_eq!(benchmark, "(listing)");
            assert!(reason.contains("exited"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn each_builds_workers_start_in_its_own_directory() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register, std::iter::empty());
    }
    let _serial = spawning();
    let exe = std::env::current_exe().unwrap();
    // The marker is in the head's directory only; the test's own directory has none.
    assert!(!Path::new(CWD_MARKER).exists());
    let root = std::env::temp_dir().join(format!("rtcompare-dirs-{}", std::process::id()));
    let (base_dir, head_dir) = (root.join("base"), root.join("head"));
    std::fs::create_dir_all(&base_dir).unwrap();
    std::fs::create_dir_all(&head_dir).unwrap();
    std::fs::write(head_dir.join(CWD_MARKER), "").unwrap();
    let o = BuildsOptions::default()
        .decide(false)
        .filter("cwd/")
        .working_dirs(&base_dir, &head_dir)
        .args([
            "--exact",
            "each_builds_workers_start_in_its_own_directory",
            "--nocapture",
        ]);
    let run = compare_builds(&exe, &exe, &o);
    let _ = std::fs::remove_dir_all(&root);
    let seen = statuses(run);
    assert_eq!(seen, [("cwd/marked".to_string(), BuildStatus::New)]);
}

#[test]
fn every_pair_runs_its_own_layout_and_the_layouts_cap_the_pairs() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register, std::iter::empty());
    }
    let _serial = spawning();
    let exe = std::env::current_exe().unwrap();
    let head = head_copy("layouts");
    // Five "layouts" of each build (the same files: the index is what a pair records), and a
    // precision target no five pairs meet, so the plan asks for more than the layouts allow.
    let o = BuildsOptions::default()
        .decide(false)
        .filter("same")
        .pairs(5)
        .seed(9)
        .target(1e-6, 0.0)
        .compare(quick())
        .args([
            "--exact",
            "every_pair_runs_its_own_layout_and_the_layouts_cap_the_pairs",
            "--nocapture",
        ]);
    let run = bench::compare_variants(&vec![exe.clone(); 5], &vec![head.clone(); 5], &o);
    let _ = std::fs::remove_file(&head);
    let run = run.unwrap();
    assert_eq!(run.layout_variants, 5);
    let same = &run.benchmarks[0];
    let variants: Vec<usize> = same
        .reports
        .iter()
        .map(|r| r.context.worker_pair.as_ref().unwrap().layout_variant)
        .collect();
    assert_eq!(variants, [0, 1, 2, 3, 4]);
    let pooled = same.pooled.as_ref().unwrap();
    assert_eq!(pooled.processes, 5, "{pooled}");
    assert!(
        matches!(
            pooled.plan_end,
            Some(PlanEnd::Cap { cap: 5 } | PlanEnd::Unreachable { cap: 5, .. })
        ),
        "{pooled}"
    );
    let layout = same.layout.as_ref().expect("a split over five layouts");
    assert_eq!(layout.layout_variants, 5);
    assert!((0.0..=1.0).contains(&layout.layout_share), "{layout:?}");
    assert!(
        layout.process_sd > 0.0 && layout.layout_sd >= 0.0,
        "{layout:?}"
    );
    // Held to the default margin.
    assert_eq!(layout.margin, bench::DEFAULT_MARGIN);
    assert_eq!(
        layout.beyond_margin,
        layout.layout_p < 0.05 && layout.layout_moves > layout.margin
    );
}

#[test]
fn layouts_are_checked_and_a_failing_layout_is_named() {
    let _serial = spawning();
    let exe = std::env::current_exe().unwrap();
    // Fewer layouts than the first stage's pairs: some pairs would share a layout.
    match bench::compare_variants(
        &vec![exe.clone(); 3],
        &vec![exe.clone(); 3],
        &BuildsOptions::default().decide(false),
    ) {
        Err(rtcompare::Error::InvalidOption {
            name: "layouts", ..
        }) => {}
        other => panic!("{other:?}"),
    }
    match bench::compare_variants(
        &vec![exe.clone(); 5],
        &vec![exe.clone(); 4],
        &BuildsOptions::default().decide(false),
    ) {
        Err(rtcompare::Error::InvalidOption {
            name: "variants", ..
        }) => {}
        other => panic!("{other:?}"),
    }
    match bench::compare_builds(
        &exe,
        &exe,
        &BuildsOptions::default().decide(false).margin(f64::NAN),
    ) {
        Err(rtcompare::Error::InvalidOption { name: "margin", .. }) => {}
        other => panic!("{other:?}"),
    }
    // The source's error for the first layout comes back as it was given.
    let failing = |i: usize| -> rtcompare::Result<(PathBuf, PathBuf)> {
        Err(rtcompare::Error::Variant {
            variant: i,
            reason: "the linker said no".into(),
        })
    };
    match bench::compare_layouts(failing, &BuildsOptions::default().decide(false)) {
        Err(rtcompare::Error::Variant { variant: 0, reason }) => {
            assert_eq!(reason, "the linker said no")
        }
        other => panic!("{other:?}"),
    }
}

/// A benchmark whose fixture starts a subprocess that outlives it (`sleep 30`), and whose batch
/// crashes the worker; and one that fails when its subprocesses see the worker's marker.
fn register_leaky(b: &mut Bencher) {
    let _sleeper = std::process::Command::new("sleep").arg("30").spawn();
    b.bench("crashes", || -> u64 { std::process::abort() });
    let marker_seen = std::process::Command::new("sh")
        .args(["-c", &format!("test -n \"${}\"", bench::WORKER_ENV)])
        .status()
        .is_ok_and(|s| s.success());
    b.bench("marker", move || {
        if marker_seen {
            std::process::abort();
        }
        chain(10)
    });
}

#[test]
fn a_benchmarks_subprocesses_inherit_neither_the_pipes_nor_the_marker() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register_leaky, std::iter::empty());
    }
    let _serial = spawning();
    let exe = std::env::current_exe().unwrap();
    let o = |filter: &str| {
        BuildsOptions::default()
            .decide(false)
            .filter(filter)
            .pairs(3)
            .compare(quick())
            .answer_timeout(Duration::from_secs(20))
            .args([
                "--exact",
                "a_benchmarks_subprocesses_inherit_neither_the_pipes_nor_the_marker",
                "--nocapture",
            ])
    };
    // The crash is seen when the worker dies, not when the answer timeout runs out: before the
    // descriptors were close-on-exec, `sleep` held the answers pipe open for 20 s. (It crashes
    // twice: its first pair and the retry.)
    let started = std::time::Instant::now();
    let run = compare_builds(&exe, &exe, &o("crashes")).unwrap();
    let crashed = &run.benchmarks[0];
    assert_eq!(crashed.status, BuildStatus::Failed);
    let reason = &crashed.failure.as_ref().unwrap().reason;
    assert!(reason.contains("exited"), "{reason}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // The benchmark's own subprocess did not see RTCOMPARE_BENCH_WORKER.
    let run = compare_builds(&exe, &exe, &o("marker")).unwrap();
    assert_eq!(run.benchmarks[0].status, BuildStatus::Compared);
}

/// A quick benchmark, then registration code that takes 1.5 s (a large fixture of a later
/// benchmark, say).
fn register_slow_tail(b: &mut Bencher) {
    b.bench("quick", || chain(10));
    std::thread::sleep(Duration::from_millis(1_500));
    b.bench("after", || chain(10));
}

#[test]
fn a_worker_exits_when_served_not_after_the_rest_of_the_registration() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register_slow_tail, std::iter::empty());
    }
    let _serial = spawning();
    let exe = std::env::current_exe().unwrap();
    let o = BuildsOptions::default()
        .decide(false)
        .filter("quick")
        .pairs(3)
        .target(0.0, 0.0)
        .compare(quick())
        .args([
            "--exact",
            "a_worker_exits_when_served_not_after_the_rest_of_the_registration",
            "--nocapture",
        ]);
    let run = compare_builds(&exe, &exe, &o).unwrap();
    // Three pairs of a 10-step chain: well under a second each. A worker that ran on into the
    // 1.5 s of registration after it was served held each of its pair's four drops for 0.5 s.
    let seconds = run.benchmarks[0].seconds;
    assert!(seconds < 3.5, "{seconds} s for three pairs");
}

/// An executable shell script `body` in the temporary directory, standing in for a bench
/// binary. Written while the caller holds [`spawning`], so no other thread forks while it is
/// open for writing.
fn script(tag: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::temp_dir().join(format!("rtcompare-{}-{tag}.sh", std::process::id()));
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_build_of_an_older_protocol_is_named_quickly_with_what_to_do() {
    let _serial = spawning();
    // Answers as a worker did before the protocol had a version: its list, without a version.
    let unversioned = script(
        "unversioned",
        "echo '{\"kind\":\"name\",\"name\":\"work\"}' >&4\necho '{\"kind\":\"end\"}' >&4\n",
    );
    // What an older bench binary does with a marker it cannot parse: it is no worker, so it
    // runs its harness and measures every benchmark, the answers pipe open all the while.
    let harness = script("harness", "echo 'work  12.0 ns/op'\nexec sleep 100\n");
    let runs: Vec<_> = [&unversioned, &harness]
        .into_iter()
        .map(|exe| {
            let started = std::time::Instant::now();
            let run = compare_builds(exe, exe, &BuildsOptions::default().decide(false).pairs(3));
            (exe.clone(), run, started.elapsed())
        })
        .collect();
    // Removed before anything is checked, so that a failing check leaves no script behind.
    let _ = std::fs::remove_file(&unversioned);
    let _ = std::fs::remove_file(&harness);
    for (exe, run, elapsed) in runs {
        match run {
            Err(rtcompare::Error::Worker { build, reason, .. }) => {
                assert_eq!(Path::new(&build), exe.as_path());
                assert!(
                    reason.contains("protocol") && reason.contains("rtcompare dependency"),
                    "{reason}"
                );
            }
            other => panic!("{}: {other:?}", exe.display()),
        }
        // Before the handshake had a version, the harness ran until the 60 s answer timeout.
        assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    }
}

/// The same name registered twice, around another benchmark.
fn register_twice(b: &mut Bencher) {
    b.bench("twice", || chain(10));
    b.bench("between", || chain(10));
    b.bench("twice", || chain(20));
}

#[test]
fn a_name_registered_twice_is_refused_with_the_name() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register_twice, std::iter::empty());
    }
    let _serial = spawning();
    let exe = std::env::current_exe().unwrap();
    let o = BuildsOptions::default()
        .decide(false)
        .filter("twice")
        .pairs(3)
        .target(0.0, 0.0)
        .compare(quick())
        .args([
            "--exact",
            "a_name_registered_twice_is_refused_with_the_name",
            "--nocapture",
        ]);
    // Before, both were listed and "twice" was compared twice, as two rows.
    match compare_builds(&exe, &exe, &o) {
        Err(rtcompare::Error::Worker {
            benchmark, reason, ..
        }) => {
            assert_eq!(benchmark, "(listing)");
            assert!(
                reason.contains("\"twice\"") && reason.contains("registered twice"),
                "{reason}"
            );
        }
        Ok(run) => panic!("{:?}", statuses(Ok(run))),
        Err(e) => panic!("{e}"),
    }
}

/// A benchmark whose batch size the bench target fixes with `set_options`.
fn register_fixed_batch(b: &mut Bencher) {
    b.bench("calibrated", || chain(10));
    b.set_options(
        BenchOptions::default().precision(rtcompare::precision::Precision::quick().inner_loops(37)),
    );
    b.bench("fixed", || chain(10));
}

#[test]
fn a_batch_size_set_in_the_registration_is_the_pairs_batch_size() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register_fixed_batch, std::iter::empty());
    }
    let _serial = spawning();
    let exe = std::env::current_exe().unwrap();
    let o = BuildsOptions::default()
        .decide(false)
        .pairs(3)
        .target(0.0, 0.0)
        .compare(quick())
        .args([
            "--exact",
            "a_batch_size_set_in_the_registration_is_the_pairs_batch_size",
            "--nocapture",
        ]);
    let run = compare_builds(&exe, &exe, &o).unwrap();
    let sizes = |i: usize| -> Vec<u64> {
        run.benchmarks[i]
            .reports
            .iter()
            .map(|r| r.timing.inner_loops)
            .collect()
    };
    assert_eq!(run.benchmarks[1].name, "fixed");
    // Before, workers ignored set_options and every pair calibrated its own size.
    assert_eq!(sizes(1), [37, 37, 37]);
    // The benchmark registered before the options changed still calibrates.
    assert!(sizes(0).iter().all(|&n| n != 37), "{:?}", sizes(0));
}

/// The file a worker's fixtures are logged to: named after its parent, this test process.
fn fixture_log(parent: u32) -> PathBuf {
    std::env::temp_dir().join(format!("rtcompare-fixtures-{parent}.log"))
}

/// Builds the fixture of size `n`, appending `n` to the log of this worker's parent.
fn logged_fixture(n: u64) -> Vec<u64> {
    use std::io::Write;
    let log = fixture_log(std::os::unix::process::parent_id());
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(log)
        .unwrap();
    writeln!(f, "{n}").unwrap();
    (0..n * 16).collect()
}

/// Four parameterised benchmarks, `lazy/1` to `lazy/4`, each with its own fixture, and one
/// more whose fixture is built by `bench_with_setup`.
fn register_lazy(b: &mut Bencher) {
    b.group("lazy", |g| {
        for n in 1..=4u64 {
            g.bench_with_input(n, |&n| logged_fixture(n), |v| v.iter().sum::<u64>());
        }
    });
    b.bench_with_setup("lazy/set-up", || logged_fixture(5), |v| v.len());
}

#[test]
fn a_worker_builds_only_the_fixture_of_the_benchmark_it_serves() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register_lazy, std::iter::empty());
    }
    let _serial = spawning();
    let log = fixture_log(std::process::id());
    let _ = std::fs::remove_file(&log);
    let exe = std::env::current_exe().unwrap();
    let o = BuildsOptions::default()
        .decide(false)
        .filter("lazy/3")
        .pairs(3)
        .target(0.0, 0.0)
        .compare(quick())
        .args([
            "--exact",
            "a_worker_builds_only_the_fixture_of_the_benchmark_it_serves",
            "--nocapture",
        ]);
    let run = compare_builds(&exe, &exe, &o);
    let built = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    assert_eq!(
        statuses(run),
        [("lazy/3".to_string(), BuildStatus::Compared)]
    );
    let mut counts = std::collections::BTreeMap::new();
    for line in built.lines() {
        *counts.entry(line.to_string()).or_insert(0usize) += 1;
    }
    // Three pairs of four workers, each building its own fixture and no other; the two
    // listing workers build none. Before, with the inputs built by the registration (as
    // `Bencher::bench_with_input` takes them), every worker built the fixtures of the
    // benchmarks registered before its own and the listing workers built all four:
    // {"1": 14, "2": 14, "3": 14, "4": 2}.
    assert_eq!(
        counts,
        [("3".to_string(), 12)].into_iter().collect(),
        "{built}"
    );
}

/// Three benchmarks; the middle one panics in the head build only (a copy named `*-head`).
fn register_panics_at_head(b: &mut Bencher) {
    let head = std::env::current_exe()
        .ok()
        .and_then(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().ends_with("-head"))
        })
        .unwrap_or(false);
    b.bench("first", || chain(50));
    b.bench("middle", move || {
        if head {
            panic!("index out of bounds in the new parser");
        }
        chain(50)
    });
    b.bench("last", || chain(50));
}

#[test]
fn a_benchmark_that_fails_at_head_is_a_row_and_the_others_are_compared() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register_panics_at_head, std::iter::empty());
    }
    let _serial = spawning();
    let base = std::env::current_exe().unwrap();
    let head = head_copy("panics");
    let o = BuildsOptions::default()
        .decide(false)
        .pairs(3)
        .target(0.0, 0.0)
        .seed(3)
        .compare(quick())
        .args([
            "--exact",
            "a_benchmark_that_fails_at_head_is_a_row_and_the_others_are_compared",
            "--nocapture",
        ]);
    let run = compare_builds(&base, &head, &o);
    let _ = std::fs::remove_file(&head);
    // Before failures became rows, the panic ended the whole run with Error::Worker and the
    // first benchmark's pairs were lost.
    let run = run.unwrap();
    let seen: Vec<(&str, BuildStatus)> = run
        .benchmarks
        .iter()
        .map(|b| (b.name.as_str(), b.status))
        .collect();
    assert_eq!(
        seen,
        [
            ("first", BuildStatus::Compared),
            ("middle", BuildStatus::Failed),
            ("last", BuildStatus::Compared),
        ]
    );
    let middle = &run.benchmarks[1];
    let failure = middle.failure.as_ref().unwrap();
    // The second attempt's failure, after one retry with fresh workers.
    assert_eq!(middle.retried.len(), 1);
    assert_eq!(failure.pair, 0);
    assert!(
        failure
            .reason
            .contains("index out of bounds in the new parser"),
        "{failure}"
    );
    assert!(
        failure.build.as_deref().unwrap().ends_with("-head"),
        "{failure}"
    );
    assert!(middle.pooled.is_none());
    assert!(run.stopped.is_none());
    assert_eq!(run.failed().count(), 1);
    // Holm's family is the two compared benchmarks: the stricter step is α/2, not α/3.
    let strictest = [0, 2]
        .iter()
        .map(|&i| run.benchmarks[i].holm.as_ref().unwrap().alpha)
        .fold(1.0, f64::min);
    assert!((strictest - 0.025).abs() < 1e-12, "{strictest}");
    // Said once in the JSON word of the status.
    let json = serde_json::to_value(&run).unwrap();
    assert_eq!(json["benchmarks"][1]["status"], "failed");
}

/// A benchmark whose worker dies on its first batch once in the whole run (the first worker
/// to get there leaves a file behind), as a worker killed from outside would.
fn register_crashes_once(b: &mut Bencher) {
    b.bench("flaky", || {
        let marker = std::env::temp_dir().join(format!(
            "rtcompare-crash-once-{}",
            std::env::var("RTCOMPARE_TEST_RUN").unwrap_or_default()
        ));
        if std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&marker)
            .is_ok()
        {
            std::process::abort();
        }
        chain(50)
    });
}

#[test]
fn a_worker_that_dies_once_is_retried_with_a_fresh_pair() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register_crashes_once, std::iter::empty());
    }
    let _serial = spawning();
    let exe = std::env::current_exe().unwrap();
    let tag = format!("{}", std::process::id());
    let marker = std::env::temp_dir().join(format!("rtcompare-crash-once-{tag}"));
    let _ = std::fs::remove_file(&marker);
    // SAFETY: the tests of this file that start workers run one at a time (`spawning`), and
    // the workers read the variable after they start.
    unsafe { std::env::set_var("RTCOMPARE_TEST_RUN", &tag) };
    let o = BuildsOptions::default()
        .decide(false)
        .pairs(3)
        .target(0.0, 0.0)
        .compare(quick())
        .args([
            "--exact",
            "a_worker_that_dies_once_is_retried_with_a_fresh_pair",
            "--nocapture",
        ]);
    let run = compare_builds(&exe, &exe, &o).unwrap();
    let _ = std::fs::remove_file(&marker);
    let flaky = &run.benchmarks[0];
    assert_eq!(flaky.status, BuildStatus::Compared);
    assert_eq!(flaky.reports.len(), 3);
    assert_eq!(flaky.retried.len(), 1, "{:?}", flaky.retried);
    assert!(
        flaky.retried[0].reason.contains("exited"),
        "{:?}",
        flaky.retried
    );
}

#[test]
fn a_cancelled_run_stops_and_keeps_what_it_measured() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register_panics_at_head, std::iter::empty());
    }
    let _serial = spawning();
    let exe = std::env::current_exe().unwrap();
    let token = rtcompare::measure::CancelToken::new();
    let o = BuildsOptions::default()
        .decide(false)
        .pairs(3)
        .target(0.0, 0.0)
        .compare(quick())
        .cancel(token.clone())
        .args([
            "--exact",
            "a_cancelled_run_stops_and_keeps_what_it_measured",
            "--nocapture",
        ]);
    // Cancelled in the second benchmark's first stage, after its second pair.
    let progress = token.clone();
    let o = o.progress(move |p| {
        if p.benchmark == 1 && p.pairs_done == 2 {
            progress.cancel();
        }
    });
    let run = compare_builds(&exe, &exe, &o).unwrap();
    // Before, the cancellation was not seen at all: the run went on to its end.
    assert_eq!(run.stopped, Some(bench::Stopped::Interrupted));
    assert!(run.stop_reason.is_some());
    let statuses: Vec<BuildStatus> = run.benchmarks.iter().map(|b| b.status).collect();
    assert_eq!(
        statuses,
        [
            BuildStatus::Compared,
            BuildStatus::Stopped,
            BuildStatus::Stopped
        ]
    );
    // The pairs measured are kept: the first benchmark's pooled, the second's two as they are.
    assert!(run.benchmarks[0].pooled.is_some());
    assert_eq!(run.benchmarks[1].reports.len(), 2);
    assert!(run.benchmarks[2].reports.is_empty());
    assert_eq!(
        serde_json::to_value(&run).unwrap()["stopped"],
        "interrupted"
    );
}

#[test]
fn deciding_calls_a_large_change_once_the_signs_agree() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register, std::iter::empty());
    }
    let _serial = spawning();
    let base = std::env::current_exe().unwrap();
    let head = head_copy("decide");
    let o = BuildsOptions::default()
        .decide(true)
        .pairs(3)
        .seed(9)
        .compare(quick())
        .filter("work")
        .args([
            "--exact",
            "deciding_calls_a_large_change_once_the_signs_agree",
            "--nocapture",
        ]);
    let run = compare_builds(&base, &head, &o);
    let _ = std::fs::remove_file(&head);
    let run = run.unwrap();
    let work = &run.benchmarks[0];
    assert_eq!(work.name, "work");
    let pooled = work.pooled.as_ref().unwrap();
    // 20 % more steps at head: slower by more than the margin at the third look, nine pairs
    // all on one side (three or six are too few for the sign test at those looks' shares of
    // α; see tests/pool.rs, deciding_stops_at_the_first_look_that_decides…).
    let d = pooled.decision.as_ref().expect("a decision");
    assert_eq!(d.looks.len(), 3, "{pooled}");
    assert_eq!(
        d.outcome(),
        rtcompare::support::stats::SequentialOutcome::Slower,
        "{pooled}"
    );
    assert_eq!(pooled.verdict, Verdict::BFaster, "{pooled}");
    assert_eq!(work.reports.len(), 9);
    assert_eq!(run.family_level, Some(0.95));
}

/// A suite budget too small for anything beyond the first stages: every benchmark still gets
/// its first stage and its look, and none gets more; the one the first look did not settle
/// ends at the budget, and says so.
#[test]
fn a_spent_suite_budget_gives_every_benchmark_its_first_stage_and_no_more() {
    if std::env::var_os(bench::WORKER_ENV).is_some() {
        bench::run_main(register, std::iter::empty());
    }
    let _serial = spawning();
    let base = std::env::current_exe().unwrap();
    let head = head_copy("budget");
    let o = BuildsOptions::default()
        .decide(true)
        .pairs(3)
        .seed(11)
        .compare(quick())
        .budget(Duration::from_nanos(1))
        .args([
            "--exact",
            "a_spent_suite_budget_gives_every_benchmark_its_first_stage_and_no_more",
            "--nocapture",
        ]);
    let run = compare_builds(&base, &head, &o);
    let _ = std::fs::remove_file(&head);
    let run = run.unwrap();
    for name in ["work", "same"] {
        let b = run.benchmarks.iter().find(|b| b.name == name).unwrap();
        assert_eq!(b.status, BuildStatus::Compared, "{name}");
        assert_eq!(b.reports.len(), 3, "{name}");
        let d = b.pooled.as_ref().unwrap().decision.as_ref().unwrap();
        assert_eq!(d.looks.len(), 1, "{name}");
        // A look that decided ends the decision, unless the pooled verdict vetoes it (on a
        // loaded machine the pool's own checks refused "same" once);
        // one that did not decide ends at the spent budget, never at a later look.
        let expected: &[DecisionEnd] = if d.outcome().decided() {
            &[DecisionEnd::Decided, DecisionEnd::Refused]
        } else {
            &[DecisionEnd::TimeBudget]
        };
        assert!(expected.contains(&d.end), "{name}: {:?}", d.end);
    }
}
