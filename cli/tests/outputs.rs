//! Where `rtcompare`'s outputs go: each output file is checked before the first run, `-` is
//! standard output (the summary then goes to stderr), the Markdown and CSV exports hold
//! hyperfine's columns and rtcompare's verdict, and `selftest` honours `--json` and refuses the
//! outputs it has nothing for.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use rtcompare_cli::result::CmdResult;

const BIN: &str = env!("CARGO_BIN_EXE_rtcompare");

fn rtcompare_in(dir: Option<&PathBuf>, args: &[&str]) -> Output {
    let mut c = Command::new(BIN);
    if let Some(dir) = dir {
        c.current_dir(dir);
    }
    c.args(args).stdin(Stdio::null()).output().unwrap()
}

fn rtcompare(args: &[&str]) -> Output {
    rtcompare_in(None, args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("rtcompare-out-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self, file: &str) -> String {
        self.0.join(file).to_str().unwrap().into()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Before the check, `true` against `true` was measured to the end (up to --max-time, 60 s)
/// and only then did writing the JSON fail.
#[test]
fn an_unwritable_output_fails_before_the_first_run() {
    for flag in [
        "--json",
        "--html",
        "--export-hyperfine",
        "--export-markdown",
        "--export-csv",
        "--export-asciidoc",
        "--export-orgmode",
    ] {
        let started = Instant::now();
        let o = rtcompare(&["cmd", flag, "/nonexistent/dir/x.json", "true", "true"]);
        let elapsed = started.elapsed();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag}: {err}");
        assert!(elapsed < Duration::from_secs(5), "{flag}: {elapsed:?}");
        assert!(
            err.contains("cannot write /nonexistent/dir/x.json"),
            "{flag}: {err}"
        );
        assert!(o.stdout.is_empty(), "{flag}: {}", text(&o.stdout));
    }
}

#[test]
fn the_check_changes_no_file_and_leaves_none_behind() {
    let dir = TempDir::new("keep");
    let (old, new) = (dir.path("old.json"), dir.path("new.csv"));
    std::fs::write(&old, "earlier result\n").unwrap();
    // B fails on its first run: the comparison stops with status 2 after the check.
    let o = rtcompare(&[
        "cmd",
        "--json",
        &old,
        "--export-csv",
        &new,
        "--warmup",
        "0",
        "true",
        "false",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("B `false` failed"),
        "{}",
        text(&o.stderr)
    );
    // The check left the files alone; the stopped session then wrote what it measured to
    // the JSON (with `stopped`), and nothing else.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&old).unwrap()).unwrap();
    assert_eq!(v["stopped"], "run_failed");
    assert!(!std::path::Path::new(&new).exists());
}

#[test]
fn outputs_to_stdout_are_one_at_most_and_never_mixed_with_the_commands() {
    for (args, says) in [
        (
            &["--json", "-", "--export-csv", "-"][..],
            "--json and --export-csv all ask for standard output",
        ),
        (
            &["--export-markdown", "-", "--show-output"][..],
            "--export-markdown - writes to standard output, where --show-output",
        ),
        (
            &["--json", "same.out", "--html", "same.out"][..],
            "--json and --html both write same.out",
        ),
    ] {
        let started = Instant::now();
        let o = rtcompare(&[&["cmd"], args, &["sleep 1", "sleep 1"]].concat());
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    assert!(!std::path::Path::new("same.out").exists());
}

#[test]
fn json_to_stdout_leaves_the_summary_on_stderr() {
    let dir = TempDir::new("stdout");
    let o = rtcompare_in(
        Some(&dir.0),
        &[
            "cmd",
            "--runs",
            "3",
            "--warmup",
            "0",
            "--no-validation",
            "--json",
            "-",
            "true",
            "true",
        ],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let r: CmdResult = serde_json::from_slice(&o.stdout).expect("stdout is the JSON alone");
    assert_eq!(r.pairs, 3);
    assert!(err.contains("Verdict:"), "{err}");
    // Before, `--json -` created a file named `-`.
    assert!(!dir.0.join("-").exists());
}

#[test]
fn markdown_and_csv_exports_carry_hyperfines_columns_and_the_verdict() {
    let dir = TempDir::new("tables");
    let (csv, org) = (dir.path("r.csv"), dir.path("r.org"));
    let o = rtcompare(&[
        "cmd",
        "--runs",
        "11",
        "--warmup",
        "1",
        "--no-validation",
        "--export-markdown",
        "-",
        "--export-csv",
        &csv,
        "--export-orgmode",
        &org,
        "sleep 0.02",
        "sleep 0.04",
    ]);
    let (md, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{err}");
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(
        lines[0],
        "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative | Ratio to A [95 % CI] | Verdict |"
    );
    assert_eq!(lines[1], "|:---|---:|---:|---:|---:|---:|:---|");
    assert!(lines[2].starts_with("| `sleep 0.02` | "), "{md}");
    assert!(lines[2].ends_with(" | 1.00 | reference |  |"), "{md}");
    assert!(lines[3].starts_with("| `sleep 0.04` | "), "{md}");
    assert!(lines[3].ends_with(" | **slower** |"), "{md}");
    assert_eq!(lines[4], "");
    // The change in the words every front end prints, + = slower, then the verdict.
    assert!(lines[5].starts_with("B against A: "), "{md}");
    assert!(lines[5].contains(" slower [+"), "{md}");
    assert_eq!(lines[6], "");
    assert!(
        lines[7].starts_with(
            "**B is SLOWER** (A: `sleep 0.02`, B: `sleep 0.04`; bootstrap rule, 11 pairs): "
        ),
        "{md}"
    );
    assert!(err.contains("Verdict: B is SLOWER"), "{err}");

    let csv = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "command", "mean", "stddev", "median", "user", "system", "min", "max", "ratio", "low",
            "high", "verdict"
        ]
    );
    assert_eq!(rows.len(), 3, "{csv}");
    assert_eq!(rows[1][0], "sleep 0.02");
    assert_eq!(rows[1][8..], ["", "", "", ""]);
    let num = |s: &str| s.parse::<f64>().unwrap();
    // Seconds, as hyperfine writes them (20 ms and start-up, generous for a busy machine).
    assert!((0.015..0.1).contains(&num(rows[1][1])), "{csv}");
    let (ratio, low, high) = (num(rows[2][8]), num(rows[2][9]), num(rows[2][10]));
    // 40 ms against 20 ms plus the same start-up: about 1.8 on a quiet machine; a start-up
    // slowed by load (10 ms or more on a busy 2-core machine) pulls it toward 1, so the test
    // asks only that the interval sits clearly above 1.
    assert!(low <= ratio && ratio <= high && low > 1.2, "{csv}");
    assert_eq!(rows[2][11], "slower");

    let org = std::fs::read_to_string(&org).unwrap();
    assert!(org.contains("| =sleep 0.04= | "), "{org}");
    assert!(org.contains("|---+---+"), "{org}");
}

/// A script written for `hyperfine --export-json` reads rtcompare's: every key hyperfine 1.15
/// writes for a result, with its type and meaning, `times` holding every timed run as
/// `--runs N` asks (the A/A partner runs included), `parameters` for a parameter scan, and
/// rtcompare's figures only under keys of their own.
#[test]
fn export_json_is_hyperfines_layout() {
    let dir = TempDir::new("hyperfine-json");
    let file = dir.path("h.json");
    let o = rtcompare(&[
        "cmd",
        "-N",
        "--runs",
        "22",
        "-L",
        "n",
        "1,2",
        "--export-json",
        &file,
        "true {n}",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for (r, n) in results.iter().zip(["1", "2"]) {
        assert_eq!(r["command"], format!("true {n}"));
        let times: Vec<f64> = r["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_f64().unwrap())
            .collect();
        assert_eq!(times.len(), 22, "{r}");
        assert_eq!(r["exit_codes"].as_array().unwrap().len(), 22, "{r}");
        assert!(r["exit_codes"].as_array().unwrap().iter().all(|c| c == 0));
        let mean = times.iter().sum::<f64>() / 22.0;
        assert!((r["mean"].as_f64().unwrap() - mean).abs() < 1e-12, "{r}");
        let (min, max) = (r["min"].as_f64().unwrap(), r["max"].as_f64().unwrap());
        assert!(min <= r["median"].as_f64().unwrap() && r["median"].as_f64().unwrap() <= max);
        for key in ["stddev", "user", "system"] {
            assert!(r[key].as_f64().is_some_and(|x| x >= 0.0), "{key}: {r}");
        }
        assert_eq!(r["parameters"], serde_json::json!({ "n": n }), "{r}");
        assert!(r["rtcompare"].is_object(), "{r}");
        // Times in seconds: `true` takes well under one.
        assert!(max < 1.0, "{r}");
    }
    assert!(doc["rtcompare"]["rounds"].as_u64().is_some(), "{doc}");
}

#[test]
fn selftest_honours_json_and_refuses_what_it_cannot_write() {
    let dir = TempDir::new("selftest");
    let json = dir.path("selftest.json");
    let common = [
        "selftest",
        "--cmd",
        "true",
        "--trials",
        "1",
        "--runs",
        "3",
        "--warmup",
        "0",
        "--no-validation",
    ];
    // Before, --json was accepted and nothing was written.
    let o = rtcompare(&[&common[..], &["--json", &json]].concat());
    let err = text(&o.stderr);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{err}");
    assert!(text(&o.stdout).contains("self-test of `true`"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for bar in ["aa", "detection"] {
        assert_eq!(v[bar]["trials"], 1, "{v}");
        assert!(v[bar]["hits"].is_u64(), "{v}");
        assert!(v[bar]["passed"].is_boolean(), "{v}");
    }
    assert_eq!(v["passed"], o.status.code() == Some(0));

    for flag in [
        "--html",
        "--export-markdown",
        "--export-csv",
        "--export-json",
    ] {
        let started = Instant::now();
        let o = rtcompare(&[&common[..], &[flag, &dir.path("x")]].concat());
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag}: {err}");
        assert!(
            err.contains(&format!("rtcompare selftest does not take {flag}")),
            "{err}"
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}

#[test]
fn selftest_checks_its_record_directory_before_the_first_run() {
    let dir = TempDir::new("selftest-record");
    std::fs::write(dir.0.join("file"), "not a directory\n").unwrap();
    let log = dir.path("log");
    let cmd = format!("echo ran >> {log}");
    // A path under a plain file can never be a directory, even for root (whom permission
    // bits do not stop). Before, every comparison ran and the record failed at the end.
    let o = rtcompare(&[
        "selftest",
        "--cmd",
        &cmd,
        "--trials",
        "1",
        "--runs",
        "3",
        "--warmup",
        "0",
        "--no-validation",
        "--record",
        &dir.path("file/records"),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("file/records"), "{err}");
    assert!(
        !std::path::Path::new(&log).exists(),
        "the command ran: {err}"
    );
    assert!(text(&o.stdout).is_empty(), "{}", text(&o.stdout));
    // A directory that does not exist yet is fine: it is created, and the record lands in it.
    let o = rtcompare(&[
        "selftest",
        "--cmd",
        "true",
        "--trials",
        "1",
        "--runs",
        "3",
        "--warmup",
        "0",
        "--no-validation",
        "--record",
        &dir.path("new/records"),
    ]);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        text(&o.stderr)
    );
    let records: Vec<_> = std::fs::read_dir(dir.0.join("new/records"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        matches!(&records[..], [one] if one.starts_with("selftest-")),
        "{records:?}"
    );
}
