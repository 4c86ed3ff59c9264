//! Pooling across real processes: the test binary re-executes itself for one test.

use std::time::{Duration, Instant};

use rtcompare::pool::{self, PoolOptions};
use rtcompare::report::BuildOrder;
use rtcompare::selftest::workload;
use rtcompare::{CancelToken, Candidate, CompareOptions, Error};

/// The tests share this process's temporary-file names and children, and two cores: one at a
/// time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// A quick per-process protocol: the test checks the machinery, not the statistics.
fn quick() -> PoolOptions {
    PoolOptions::default()
        .this_test()
        .first_stage(3)
        .target(0.0, 0.0)
        .seed(11)
        .compare(
            CompareOptions::default()
                .validation_runs(5)
                .repeats(21)
                .resamples(500)
                .warmup_duration(Duration::from_millis(20)),
        )
}

/// Files the pool left in the temporary directory for this process.
fn leftovers() -> Vec<String> {
    let prefix = format!("rtcompare-pool-{}-", std::process::id());
    std::fs::read_dir(std::env::temp_dir())
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(&prefix))
                .collect()
        })
        .unwrap_or_default()
}

/// This process's live children.
fn children() -> String {
    let me = std::process::id();
    let mut all = String::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{me}/task")) {
        for t in tasks.flatten() {
            all += &std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
        }
    }
    all.trim().to_string()
}

#[test]
fn identical_code_pooled_over_three_processes_is_not_called_different() {
    let _serial = serial();
    let run = pool::run_detailed(&quick(), |ctx| {
        let (a, b) = ctx.build(|| workload(300), || workload(300));
        rtcompare::compare(
            Candidate::new("a", a),
            Candidate::new("b", b),
            ctx.options(),
        )
    })
    .unwrap();
    let p = &run.pooled;
    assert_eq!(p.processes, 3, "{p}");
    assert!(p.delta.abs() < 0.10, "{p}");
    assert!(
        p.validated && p.warnings.iter().all(|w| w.code() != "process_failed"),
        "{p}"
    );
    let infos: Vec<_> = run
        .reports
        .iter()
        .map(|r| r.process.clone().unwrap())
        .collect();
    assert_eq!(infos.iter().map(|i| i.index).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(infos[0].build_order, Some(BuildOrder::AFirst));
    assert_eq!(infos[1].build_order, Some(BuildOrder::BFirst));
    assert!(infos.iter().all(|i| i.filler_bytes > 0), "{infos:?}");
    // Seeds differ per process, and the summary says which process a report is.
    assert_ne!(run.reports[0].seed, run.reports[1].seed);
    assert!(
        run.reports[1]
            .to_string()
            .contains("Process 1 of a pooled comparison")
    );
    assert!(
        run.timings
            .iter()
            .all(|t| t.startup > 0.0 && t.closure > 0.0)
    );
    assert!(leftovers().is_empty(), "{:?}", leftovers());
    assert_eq!(children(), "");
}

#[test]
fn a_child_that_panics_is_named_and_the_rest_are_pooled() {
    let _serial = serial();
    let p = pool::run(&quick().max_processes(5), |ctx| {
        if ctx.index() == 1 {
            panic!("fixture exploded");
        }
        rtcompare::compare(
            Candidate::new("a", workload(200)),
            Candidate::new("b", workload(200)),
            ctx.options(),
        )
    })
    .unwrap();
    assert_eq!(p.processes, 3, "{p}");
    let failed: Vec<_> = p
        .warnings
        .iter()
        .filter(|w| w.code() == "process_failed")
        .map(|w| w.to_string())
        .collect();
    assert_eq!(failed.len(), 1, "{p}");
    assert!(
        failed[0].contains("process 1") && failed[0].contains("fixture exploded"),
        "{p}"
    );
    assert!(leftovers().is_empty());
}

#[test]
fn too_many_failures_are_a_typed_error_naming_each() {
    let _serial = serial();
    let e = pool::run(&quick().max_processes(3), |ctx| {
        if ctx.index() > 0 {
            return Err(Error::Cancelled {
                stage: "a test",
                elapsed: Duration::ZERO,
            });
        }
        rtcompare::compare(
            Candidate::new("a", workload(200)),
            Candidate::new("b", workload(200)),
            ctx.options(),
        )
    })
    .unwrap_err();
    match e {
        Error::ProcessesFailed {
            succeeded,
            started,
            failures,
            ..
        } => {
            assert_eq!((succeeded, started, failures.len()), (1, 3, 2));
            assert!(failures[0].contains("process 1"), "{failures:?}");
        }
        other => panic!("{other}"),
    }
    assert!(leftovers().is_empty());
}

#[test]
fn cancelling_kills_the_child_and_removes_its_files() {
    let _serial = serial();
    let token = CancelToken::new();
    let t = token.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        t.cancel();
    });
    let started = Instant::now();
    let e = pool::run(&quick().cancel(token), |_ctx| {
        // A child that would run for a minute.
        std::thread::sleep(Duration::from_secs(60));
        unreachable!("the parent kills this child")
    })
    .unwrap_err();
    canceller.join().unwrap();
    assert!(matches!(e, Error::Cancelled { .. }), "{e}");
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(leftovers().is_empty(), "{:?}", leftovers());
    assert_eq!(children(), "", "no child outlives the pool");
}

#[test]
fn bad_pool_options_are_typed_errors() {
    let _serial = serial();
    let never = |_: &mut pool::Child| -> rtcompare::Result<rtcompare::Report> {
        unreachable!("bad options start no process")
    };
    assert!(matches!(
        pool::run(&quick().first_stage(2), never),
        Err(Error::TooFewSamples { .. })
    ));
    assert!(matches!(
        pool::run(&quick().max_processes(2), never),
        Err(Error::InvalidOption { .. })
    ));
    assert!(matches!(
        pool::run(&quick().target(f64::NAN, 0.0), never),
        Err(Error::OutOfRange { .. })
    ));
    assert!(matches!(
        pool::run(&quick().level(1.0), never),
        Err(Error::OutOfRange { .. })
    ));
}

#[test]
fn ctrl_c_cancels_the_pool_and_leaves_nothing_behind() {
    let _serial = serial();
    let me = std::process::id() as i32;
    let interrupter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: sends SIGINT to this process; the pool's handler is installed while it runs.
        unsafe { libc::kill(me, libc::SIGINT) };
    });
    let e = pool::run(&quick(), |_ctx| {
        std::thread::sleep(Duration::from_secs(60));
        unreachable!("the parent kills this child")
    })
    .unwrap_err();
    interrupter.join().unwrap();
    assert!(matches!(e, Error::Cancelled { .. }), "{e}");
    assert!(leftovers().is_empty(), "{:?}", leftovers());
    assert_eq!(children(), "");
}

#[test]
fn a_gate_across_processes_decides_on_the_pooled_interval() {
    let _serial = serial();
    use rtcompare::gate::{self, Effort, Expectation, GateOptions};
    let opts = GateOptions::default()
        .effort(Effort::Quick)
        .force(true)
        .write_json(false)
        .processes(3);
    let r = gate::check(
        Candidate::new("same", workload(300)),
        Candidate::new("same again", workload(300)),
        Expectation::NotSlower { budget: 0.10 },
        &opts,
    )
    .unwrap();
    let g = r.gate.as_ref().unwrap();
    let p = g
        .pooled
        .as_ref()
        .expect("a pooled gate carries the pooled result");
    assert_eq!(p.processes, 3, "{p}");
    assert!(p.delta.abs() < 0.10, "{p}");
    assert!(
        g.passed && g.explanation.starts_with("pooled over 3 processes"),
        "{}",
        g.explanation
    );
    // Two processes cannot be pooled.
    let e = gate::check(
        Candidate::new("same", workload(300)),
        Candidate::new("same again", workload(300)),
        Expectation::NotSlower { budget: 0.10 },
        &opts.clone().processes(2),
    )
    .unwrap_err();
    assert!(e.to_string().contains("first_stage"), "{e}");
    assert!(leftovers().is_empty());
}
