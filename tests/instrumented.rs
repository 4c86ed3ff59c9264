//! Detection of Valgrind and QEMU user mode, for real: this test binary runs one of its own
//! tests again under each tool it finds on `PATH` and checks that the child sees the tool,
//! refuses to measure, and skips a gate. Without the tool the parent test says so on stderr
//! and checks nothing more; the child test always runs natively too and checks that nothing
//! is found there.
//!
//! CI installs Valgrind, so the Valgrind check runs there (a few seconds: the child's refusals
//! come before anything is measured, and its one measured gate is tiny); the QEMU check runs where `qemu-x86_64` (or the qemu-user of
//! the host's architecture) is installed.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use rtcompare::env::Environment;
use rtcompare::env::{Instrumentation, detect_instrumentation};
use rtcompare::gate::{self, Effort, Expectation, GateOptions, Skip, skip_reason};
use rtcompare::precision::{Precision, measure};
use rtcompare::support::selftest::workload as work;
use rtcompare::{Candidate, CompareOptions, Error, compare};

/// Set by the parent to the tool the child runs under (`valgrind`, `qemu-user`).
const EXPECT: &str = "RTCOMPARE_TEST_EXPECT_INSTRUMENTATION";
/// The child test's name, for `--exact`.
const CHILD: &str = "the_stamp_names_what_this_process_runs_under";

#[test]
fn the_stamp_names_what_this_process_runs_under() {
    let expected = match std::env::var(EXPECT).ok().as_deref() {
        None => None,
        Some("valgrind") => Some(Instrumentation::Valgrind),
        Some("qemu-user") => Some(Instrumentation::QemuUser),
        Some(other) => panic!("{EXPECT}={other:?} is not a tool this test knows"),
    };
    assert_eq!(detect_instrumentation(), expected);
    assert_eq!(Environment::capture().instrumented_by, expected);
    let Some(tool) = expected else {
        // Natively: gates are not skipped for this reason (timings are covered elsewhere).
        assert!(!matches!(
            skip_reason(&GateOptions::default()),
            Err(Skip::Instrumented(_))
        ));
        return;
    };
    // Refused before any batch runs: a batch that panics is never reached.
    let never = || Candidate::new("never", |_| panic!("measured under an emulator"));
    let e = compare(never(), never(), &CompareOptions::default()).unwrap_err();
    match &e {
        Error::MeaninglessTimings { tool: t, hint } => {
            assert_eq!(*t, tool.to_string());
            assert!(
                hint.contains("CompareOptions::allow_instrumented(true)"),
                "{e}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let e = measure(never(), &Precision::quick()).unwrap_err();
    assert!(
        matches!(&e, Error::MeaninglessTimings { hint, .. } if hint.contains("Precision::allow_instrumented(true)")),
        "{e:?}"
    );
    assert_eq!(
        skip_reason(&GateOptions::default().force(true)),
        Err(Skip::Instrumented(tool.clone()))
    );
    // Allowed, the gate's skip policy lets it run (what happens then is the debug-build rule).
    let allowed = GateOptions::default()
        .force(true)
        .compare(CompareOptions::default().allow_instrumented(true));
    assert_eq!(skip_reason(&allowed), Ok(()));
    // check() always measures: here it must, and a failed expectation is not a failure.
    let small = CompareOptions::default()
        .seed(1)
        .skip_validation(true)
        .repeats(31)
        .resamples(200)
        .warmup_duration(Duration::from_millis(10));
    let gate = GateOptions::default()
        .compare(small)
        .effort(Effort::Full)
        .write_json(false)
        .name("instrumented");
    let r = gate::check(
        // Ten times the work: a slowdown no load on the machine can hide, even emulated (three
        // times, over 11 pairs, once came out "cannot tell" under QEMU on a busy machine).
        Candidate::new("tenfold", work(3_000)),
        Candidate::new("single", work(300)),
        Expectation::NotSlower { budget: 0.0 },
        &gate,
    )
    .expect("never a failure under an emulator");
    assert_eq!(r.warnings[0].code(), "instrumented", "{r}");
    assert!(
        r.to_string()
            .starts_with("THE TIMINGS MEAN NOTHING: this ran under "),
        "{r}"
    );
    assert_eq!(r.run.environment.instrumented_by, Some(tool));
    assert!(!r.context.gate.unwrap().passed);
}

/// The first file named `name` in a directory of `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Runs the child test under `tool args…` with [`EXPECT`] set to `expect`, if the tool is
/// installed.
fn child_under(tools: &[&str], args: &[&str], expect: &str) {
    let Some(tool) = tools.iter().find_map(|t| on_path(t)) else {
        eprintln!("skipped: none of {tools:?} is on PATH, so detection under it is not checked");
        return;
    };
    let me = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(&tool)
        .args(args)
        .arg(me)
        .args(["--exact", CHILD, "--test-threads=1", "--nocapture"])
        .env(EXPECT, expect)
        .output()
        .expect("the tool starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{} failed ({}):\n{stdout}\n{stderr}",
        tool.display(),
        out.status
    );
}

#[test]
fn detected_under_valgrind() {
    child_under(&["valgrind"], &["-q"], "valgrind");
}

#[test]
fn detected_under_qemu_user() {
    let arch = std::env::consts::ARCH;
    child_under(
        &[&format!("qemu-{arch}"), &format!("qemu-{arch}-static")],
        &[],
        "qemu-user",
    );
}
