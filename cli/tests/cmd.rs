//! `rtcompare cmd` as its users run it: the built binary, real processes, exit statuses.
//!
//! Timing assertions use only effects so large they cannot flake on a busy 2-core machine
//! (a 2× difference in sleep time); everything else checks order, errors and files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use rtcompare_cli::result::{CmdResult, SCHEMA_VERSION};

const BIN: &str = env!("CARGO_BIN_EXE_rtcompare");

fn rtcompare(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the rtcompare binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh directory under the target directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("rtcompare-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn read_result(path: &Path) -> (CmdResult, serde_json::Value) {
    let text = std::fs::read_to_string(path).unwrap();
    (
        serde_json::from_str(&text).unwrap(),
        serde_json::from_str(&text).unwrap(),
    )
}

#[test]
fn bad_flags_and_values_are_usage_errors() {
    let o = rtcompare(&["cmd", "--no-such-flag", "true", "true"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--no-such-flag"), "{}", stderr(&o));

    let o = rtcompare(&["cmd", "true"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    let o = rtcompare(&["cmd", "--width", "wide", "true", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a number"), "{}", stderr(&o));

    let o = rtcompare(&["cmd", "--runs", "1", "true", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--runs 1 is too few"), "{}", stderr(&o));

    let o = rtcompare(&["cmd", "--shell", "none", "echo 'open", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unbalanced"), "{}", stderr(&o));

    let o = rtcompare(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn a_command_that_does_not_exist_is_a_clear_error() {
    let o = rtcompare(&["cmd", "--shell", "none", "true", "/no/such/program"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("cannot start B `/no/such/program`"), "{e}");

    let o = rtcompare(&["cmd", "true", "no-such-program-rtcompare"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("exit status 127") && e.contains("command not found"),
        "{e}"
    );
}

#[test]
fn a_failing_command_stops_with_its_name_and_status() {
    let o = rtcompare(&["cmd", "--warmup", "0", "true", "exit 3"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("B `exit 3` failed (exit status 3)"), "{e}");
    assert!(e.contains("--ignore-failure"), "{e}");

    let o = rtcompare(&["cmd", "--prepare", "false", "true", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--prepare for A `false` failed"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn ignored_failures_are_timed_and_recorded() {
    let dir = TempDir::new("ignore");
    let json = dir.path("r.json");
    let o = rtcompare(&[
        "cmd",
        "--ignore-failure",
        "--no-validation",
        "--warmup",
        "0",
        "--runs",
        "3",
        "--json",
        json.to_str().unwrap(),
        "true",
        "exit 1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (r, _) = read_result(&json);
    assert!(r.runs.iter().any(|x| x.exit_code == Some(1)));
    assert!(stdout(&o).contains("--ignore-failure"), "{}", stdout(&o));
}

#[test]
fn a_child_killed_by_a_signal_is_reported() {
    let o = rtcompare(&["cmd", "--warmup", "1", "true", "kill -9 $$"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("killed by signal 9"), "{}", stderr(&o));
}

#[test]
fn a_run_past_the_time_limit_is_killed() {
    let t = Instant::now();
    let o = rtcompare(&["cmd", "--max-time", "300ms", "true", "sleep 5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("ran longer than 0.3 s"),
        "{}",
        stderr(&o)
    );
    assert!(t.elapsed() < Duration::from_secs(4));
}

/// Process ids whose command line contains `needle` (Linux's /proc).
#[cfg(unix)]
fn processes_with(needle: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(needle) && !cmdline.contains("rtcompare") {
                found.push(pid);
            }
        }
    }
    found
}

/// Unix only (signals and process groups); `platform_skips.rs` says so elsewhere.
#[test]
#[cfg(unix)]
fn sigterm_kills_and_reaps_the_running_child() {
    // A pipeline under the shell: both sleeps must go, not only the shell.
    let marker = format!("4{}.{}", std::process::id() % 1000, 137);
    let command = format!("sleep {marker} | sleep {marker}");
    let dir = TempDir::new("sigterm");
    let json = dir.path("r.json");
    let mut child = Command::new(BIN)
        .args([
            "cmd",
            "--warmup",
            "1",
            "--json",
            json.to_str().unwrap(),
            "true",
            &command,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while processes_with(&marker).is_empty() {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the command never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: kill(2) on the child we spawned.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    // 128 + SIGTERM, as a shell reports a process it ended (130 is for Ctrl-C).
    assert_eq!(status.code(), Some(143));
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(err.contains("interrupted"), "{err}");
    // The JSON says why it stopped, with the runs measured before (A's warm-up here).
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["stopped"], "interrupted");
    assert_eq!(v["warmup_runs"], 0);
    // The killed processes may take a moment to be reaped by init.
    let t = Instant::now();
    while !processes_with(&marker).is_empty() {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "left running: {:?}",
            processes_with(&marker)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn runs_are_interleaved_abba_after_warmups_and_validation() {
    let dir = TempDir::new("order");
    let log = dir.path("log");
    let json = dir.path("r.json");
    let log_s = log.to_str().unwrap();
    let o = rtcompare(&[
        "cmd",
        "--warmup",
        "1",
        "--runs",
        "22",
        "--prepare",
        &format!("printf p >> {log_s}"),
        "--json",
        json.to_str().unwrap(),
        &format!("printf a >> {log_s}"),
        &format!("printf b >> {log_s}"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&log).unwrap();
    // Every run is preceded by --prepare.
    let runs: String = text
        .strip_prefix('p')
        .unwrap()
        .split('p')
        .collect::<Vec<_>>()
        .concat();
    assert_eq!(text.matches('p').count(), runs.len(), "{text}");
    let warmup = "ab";
    // `--runs 22`: 22 runs of each, half of them A/A partners, in 11 rounds A′ A B B′ and
    // B′ B A A′: the comparison pairs (A, B), (B, A) in the middle, each A/A pair adjacent.
    let rounds = "aabbbbaa".repeat(5) + "aabb";
    assert_eq!(runs, format!("{warmup}{rounds}"));

    let (r, _) = read_result(&json);
    let sides: Vec<String> = r
        .runs
        .iter()
        .map(|x| {
            serde_json::to_value(x.side)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let abba = ["a", "b", "b", "a"];
    assert_eq!(sides, [&abba.repeat(5)[..], &["a", "b"]].concat());
    let vsides: Vec<String> = r
        .validation_runs
        .iter()
        .map(|x| {
            serde_json::to_value(x.side)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let partners = ["a2", "b2", "b2", "a2"];
    assert_eq!(vsides, [&partners.repeat(5)[..], &["a2", "b2"]].concat());
    assert_eq!(
        r.comparisons[0].rule,
        rtcompare_cli::analysis::Rule::Bootstrap
    );
}

#[test]
fn without_validation_the_pairs_are_plain_abba() {
    let dir = TempDir::new("order-plain");
    let log = dir.path("log");
    let log_s = log.to_str().unwrap();
    let o = rtcompare(&[
        "cmd",
        "--no-validation",
        "--warmup",
        "2",
        "--runs",
        "3",
        &format!("printf a >> {log_s}"),
        &format!("printf b >> {log_s}"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "abab".to_owned() + "abbaab"
    );
    assert!(stdout(&o).contains("--no-validation"), "{}", stdout(&o));
}

#[test]
fn max_rss_is_captured_per_run() {
    let dir = TempDir::new("rss");
    let json = dir.path("r.json");
    // dd allocates its block and fills it from /dev/zero: 1 MiB against 64 MiB resident.
    let o = rtcompare(&[
        "cmd",
        "--no-validation",
        "--warmup",
        "0",
        "--runs",
        "3",
        "--json",
        json.to_str().unwrap(),
        "dd if=/dev/zero of=/dev/null bs=1M count=1",
        "dd if=/dev/zero of=/dev/null bs=64M count=1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (r, _) = read_result(&json);
    const MIB: u64 = 1024 * 1024;
    for run in &r.runs {
        match serde_json::to_value(run.side).unwrap().as_str().unwrap() {
            "a" => assert!(
                run.max_rss_bytes > 0 && run.max_rss_bytes < 32 * MIB,
                "{run:?}"
            ),
            _ => assert!(run.max_rss_bytes > 60 * MIB, "{run:?}"),
        }
    }
    assert!(stdout(&o).contains("max RSS"), "{}", stdout(&o));
}

#[test]
fn a_twofold_regression_fails_the_gate_and_a_speedup_does_not() {
    let dir = TempDir::new("gate");
    let json = dir.path("r.json");
    let args = |a: &'static str, b: &'static str| {
        vec![
            "cmd".to_owned(),
            "--fail-on-regression".into(),
            "--no-validation".into(),
            "--warmup".into(),
            "1".into(),
            "--runs".into(),
            "11".into(),
            "--json".into(),
            json.to_str().unwrap().into(),
            a.into(),
            b.into(),
        ]
    };
    let run = |v: Vec<String>| {
        let v: Vec<&str> = v.iter().map(String::as_str).collect();
        rtcompare(&v)
    };
    let o = run(args("sleep 0.02", "sleep 0.04"));
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let (r, v) = read_result(&json);
    assert_eq!(v["comparisons"][0]["verdict"]["outcome"], "slower");
    assert!(
        r.comparisons[0].verdict.ratio > 1.5,
        "{}",
        r.comparisons[0].verdict.ratio
    );
    assert!(stdout(&o).contains("B is SLOWER"), "{}", stdout(&o));

    let o = run(args("sleep 0.04", "sleep 0.02"));
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let (r, v) = read_result(&json);
    assert_eq!(v["comparisons"][0]["verdict"]["outcome"], "faster");
    assert!(r.comparisons[0].verdict.ratio < 0.7);
}

#[test]
fn few_runs_use_the_few_runs_rule_and_its_outcomes() {
    let dir = TempDir::new("few");
    let json = dir.path("r.json");
    let o = rtcompare(&[
        "cmd",
        "--fail-on-regression",
        "--warmup",
        "1",
        "--runs",
        "5",
        "--json",
        json.to_str().unwrap(),
        "sleep 0.02",
        "sleep 0.04",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let (_, v) = read_result(&json);
    assert_eq!(v["comparisons"][0]["rule"], "few_runs");
    assert_eq!(v["comparisons"][0]["verdict"]["outcome"], "loss");
    assert!(stdout(&o).contains("few-runs rule"), "{}", stdout(&o));
}

#[test]
fn the_json_result_keeps_its_contract_and_round_trips() {
    let dir = TempDir::new("json");
    let json = dir.path("r.json");
    let o = rtcompare(&[
        "cmd",
        "--shell",
        "none",
        "--warmup",
        "1",
        "--runs",
        "11",
        "--seed",
        "7",
        "--json",
        json.to_str().unwrap(),
        "true",
        "true",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (r, v) = read_result(&json);
    // The fields outside checks rely on: schema 2, every command in `commands`, every
    // verdict in `comparisons`, and nothing of them repeated at the top level.
    assert_eq!(v["schema_version"], SCHEMA_VERSION);
    assert_eq!(SCHEMA_VERSION, 2);
    assert_eq!(v["commands"].as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(v["comparisons"].as_array().map(Vec::len), Some(1), "{v}");
    for gone in ["a", "b", "estimate", "verdict", "rule", "floor", "few_runs"] {
        assert!(v.get(gone).is_none(), "top-level {gone}: {v}");
    }
    assert_eq!(v["comparisons"][0]["rule"], "bootstrap");
    let verdict = &v["comparisons"][0]["verdict"];
    assert!(["faster", "slower", "cannot_tell"].contains(&verdict["outcome"].as_str().unwrap()));
    for key in ["ratio", "best_ratio", "tolerance", "noise"] {
        assert!(verdict[key].is_f64(), "{key}: {verdict}");
    }
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 22);
    for run in runs {
        for key in ["wall_ns", "user_ns", "sys_ns", "max_rss_bytes"] {
            assert!(run[key].is_u64(), "{key}: {run}");
        }
        assert_eq!(run["exit_code"], 0);
        assert!(run["side"] == "a" || run["side"] == "b");
    }
    assert!(v["environment"]["os"].is_string());
    assert_eq!(r.seed, 7);
    // The typed result reads back and writes the same document.
    assert_eq!(serde_json::to_value(&r).unwrap(), v);
    // And the ratio is B's time over A's, recomputable from the runs.
    let walls = |side: &str| -> Vec<f64> {
        runs.iter()
            .filter(|x| x["side"] == side)
            .map(|x| x["wall_ns"].as_f64().unwrap())
            .collect()
    };
    let (a, b) = (walls("a"), walls("b"));
    let best = rtcompare::stats::min(&b).unwrap() / rtcompare::stats::min(&a).unwrap();
    assert_eq!(r.comparisons[0].verdict.best_ratio, best);
}

/// `--counters` never fails a comparison: where the machine refuses (most VMs, this one
/// included) the summary and the JSON say "unavailable" with the reason and the exit status is
/// 0; where counters work, every timed run has positive cycle and instruction counts.
#[test]
fn counters_are_diagnostics_and_unavailable_is_not_an_error() {
    let dir = TempDir::new("counters");
    let json = dir.path("r.json");
    let o = rtcompare(&[
        "cmd",
        "--counters",
        "--warmup",
        "0",
        "--runs",
        "5",
        "--no-validation",
        "--json",
        json.to_str().unwrap(),
        "true",
        "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let (r, v) = read_result(&json);
    let summary = r.counters.expect("--counters writes a counters object");
    let runs = v["runs"].as_array().unwrap();
    if summary.is_available() {
        assert!(text.contains("Hardware counters (user space"), "{text}");
        for run in runs {
            let c = &run["counters"];
            for key in ["cycles", "instructions"] {
                if !c[key].is_null() {
                    assert!(c[key].as_u64().unwrap() > 0, "{key}: {run}");
                }
            }
        }
        assert!(
            summary.a.batches == 5 && summary.b.batches == 5,
            "{summary:?}"
        );
    } else {
        assert!(text.contains("Hardware counters: unavailable: "), "{text}");
        assert_eq!(v["counters"]["status"]["state"], "unavailable");
        assert!(v["counters"]["status"]["reason"].is_string());
        for run in runs {
            assert!(run["counters"].is_null(), "{run}");
        }
    }
    // The verdict is the same kind of object either way: counters never decide.
    assert_eq!(v["comparisons"][0]["rule"], "few_runs");
    // Without the flag there is no counters section at all.
    let o = rtcompare(&[
        "cmd",
        "--warmup",
        "0",
        "--runs",
        "5",
        "--no-validation",
        "true",
        "true",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("Hardware counters"), "{}", stdout(&o));
}

#[test]
fn selftest_detects_a_large_injected_cost_and_records_it() {
    let dir = TempDir::new("selftest");
    let record = dir.path("calibration");
    let o = rtcompare(&[
        "selftest",
        "--cmd",
        "sleep 0.01",
        "--trials",
        "2",
        "--inject",
        "50%",
        "--runs",
        "11",
        "--warmup",
        "0",
        "--no-validation",
        "--record",
        record.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{out}{}",
        stderr(&o)
    );
    assert!(
        out.contains("A/A: ") && out.contains("injected 50 %"),
        "{out}"
    );
    let file = std::fs::read_dir(&record)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    // A busy-wait of half the run time is found in both trials, once on each side.
    assert_eq!(v["detection"]["hits"], 2, "{v}");
    assert_eq!(v["detection"]["outcomes"][0], "slower");
    assert_eq!(v["detection"]["outcomes"][1], "faster");
    assert!(v["environment"]["start_time"].is_string());
}

#[test]
fn html_writes_the_comparison_page_and_names_an_unwritable_path() {
    let dir = TempDir::new("html");
    for (runs, extra) in [("12", None), ("5", None), ("12", Some("--no-validation"))] {
        let (json, html) = (dir.path("r.json"), dir.path("r.html"));
        let mut args = vec![
            "cmd",
            "--warmup",
            "0",
            "--runs",
            runs,
            "--json",
            json.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ];
        args.extend(extra);
        args.extend(["true", "true"]);
        let o = rtcompare(&args);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        let page = std::fs::read_to_string(&html).unwrap();
        let (result, _) = read_result(&json);
        // The page is a function of the recorded result.
        assert_eq!(page, rtcompare_cli::export::html::page(&result));
        assert!(!page.contains("<script"));
        assert_eq!(page.matches("<svg").count(), 5, "one figure per panel");
        assert_eq!(page.matches("<section class=\"panel\"").count(), 5);
        assert!(page.contains("Verdict: "), "{page}");
        assert!(page.contains(&format!(
            "{:.3} times as long",
            result.comparisons[0].verdict.ratio
        )));
        assert!(page.contains("time per run (ms)") || page.contains("time per run (µs)"));
    }
    let bad = dir.path("missing").join("r.html");
    let o = rtcompare(&[
        "cmd",
        "--warmup",
        "0",
        "--runs",
        "3",
        "--no-validation",
        "--html",
        bad.to_str().unwrap(),
        "true",
        "true",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("r.html"), "{}", stderr(&o));
}

/// By default `cmd` decides: a 3× difference is settled at the first look, long before the
/// 60 s time budget, with the decision's looks, margin and end in the JSON.
#[test]
fn a_clear_difference_is_decided_at_the_first_look() {
    let dir = TempDir::new("decide");
    let json = dir.path("r.json");
    let started = Instant::now();
    let o = rtcompare(&[
        "cmd",
        "--no-validation",
        "-w",
        "0",
        "--json",
        json.to_str().unwrap(),
        "sleep 0.01",
        "sleep 0.03",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (r, v) = read_result(&json);
    assert_eq!(v["stop"], "decided", "{v}");
    let c = &v["comparisons"][0];
    assert_eq!(c["rule"], "sequential", "{c}");
    assert_eq!(c["verdict"]["outcome"], "slower", "{c}");
    assert_eq!(c["decision"]["end"], "decided", "{c}");
    assert_eq!(c["decision"]["margin"], 0.02, "{c}");
    assert_eq!(c["decision"]["looks"].as_array().unwrap().len(), 1, "{c}");
    // The first look comes after a tenth of the planned rounds (at most 1,000).
    assert!((20..=100).contains(&r.pairs), "{}", r.pairs);
    assert_eq!(c["decision"]["looks"][0]["rounds"], r.pairs, "{c}");
    assert!(stdout(&o).contains("sequential rule"), "{}", stdout(&o));
    assert!(started.elapsed() < Duration::from_secs(55));
}

/// `--width` belongs to `--precision`'s rule: alone it is a usage error naming the flag.
#[test]
fn width_without_precision_is_refused() {
    let o = rtcompare(&["cmd", "--width", "5%", "true", "false"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--precision"), "{}", stderr(&o));
}
