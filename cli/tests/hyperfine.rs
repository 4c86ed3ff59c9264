//! `--export-hyperfine` writes hyperfine's layout; `--import-hyperfine` reads it back for an
//! unpaired analysis, and an unreadable or malformed file is a clear error with status 2.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_rtcompare");

fn rtcompare(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("rtcompare-hf-{name}-{}", std::process::id()))
}

#[test]
fn an_export_reads_back_as_an_unpaired_analysis() {
    let (export, json) = (temp("export.json"), temp("import.json"));
    let o = rtcompare(&[
        "cmd",
        "--no-validation",
        "--warmup",
        "1",
        "--runs",
        "11",
        "--export-hyperfine",
        export.to_str().unwrap(),
        "sleep 0.02",
        "sleep 0.04",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["command"], "sleep 0.02");
    assert_eq!(results[1]["times"].as_array().unwrap().len(), 11);
    assert!(results[1]["mean"].as_f64().unwrap() > 0.03);

    let o = rtcompare(&[
        "cmd",
        "--import-hyperfine",
        export.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--fail-on-regression",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("unpaired bootstrap"), "{out}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(r["comparisons"][0]["verdict"]["outcome"], "slower");
    assert_eq!(r["comparisons"][0]["estimate"]["paired"], false);
    let _ = std::fs::remove_file(export);
    let _ = std::fs::remove_file(json);
}

#[test]
fn unreadable_or_malformed_hyperfine_files_are_errors() {
    let o = rtcompare(&["cmd", "--import-hyperfine", "/no/such/file.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read /no/such/file.json"));

    let bad = temp("bad.json");
    for (text, says) in [
        ("not json", "not a hyperfine JSON export"),
        (
            r#"{"results": [{"command": "a", "times": [0.1]}]}"#,
            "fewer than two results",
        ),
        (
            r#"{"results": [{"command": "a", "times": [0.1, -1]}, {"command": "b", "times": [0.1, 0.2]}]}"#,
            "not a number of seconds (0 or more)",
        ),
    ] {
        std::fs::write(&bad, text).unwrap();
        let o = rtcompare(&["cmd", "--import-hyperfine", bad.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
    }
    let _ = std::fs::remove_file(bad);

    let o = rtcompare(&["cmd", "--import-hyperfine", "x.json", "true", "true"]);
    assert_eq!(o.status.code(), Some(2));
}

/// hyperfine subtracts the shell's spawning time from every run and clamps the result at 0
/// (`executor.rs`: `(time_real - spawning_time.time_real).max(0.0)`), so a fast command's
/// export holds times of exactly 0. They are data, not a malformed file.
#[test]
fn times_of_zero_from_hyperfines_clamp_are_accepted() {
    let file = temp("zeros.json");
    let json = temp("zeros-result.json");
    let a = [
        0.0, 0.0011, 0.0010, 0.0012, 0.0, 0.0011, 0.0010, 0.0011, 0.0012, 0.0010, 0.0011, 0.0010,
    ];
    let b: Vec<f64> = (0..12)
        .map(|i| 0.0030 + 0.0001 * f64::from(i % 3))
        .collect();
    let doc = serde_json::json!({"results": [
        {"command": "fast", "times": a},
        {"command": "slow", "times": b},
    ]});
    std::fs::write(&file, doc.to_string()).unwrap();
    let o = rtcompare(&[
        "cmd",
        "--import-hyperfine",
        file.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("2 of A's 12 times are 0"), "{out}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(r["comparisons"][0]["verdict"]["outcome"], "slower");
    // The best-run ratio is over the times above 0: 0.0030 / 0.0010, a number, not ∞.
    let best = r["comparisons"][0]["verdict"]["best_ratio"]
        .as_f64()
        .unwrap();
    assert!((best - 3.0).abs() < 1e-9, "{best}");
    assert_eq!(r["commands"][0]["min_ns"], 0.0);

    // Where a zero leaves a statistic undefined, the error says so instead of a number.
    for (times_a, says) in [
        (vec![0.0, 0.001, 0.001, 0.001, 0.001], "fewer than 11"),
        (vec![0.0; 12], "`fast`'s median time is 0"),
    ] {
        let doc = serde_json::json!({"results": [
            {"command": "fast", "times": times_a},
            {"command": "slow", "times": b},
        ]});
        std::fs::write(&file, doc.to_string()).unwrap();
        let o = rtcompare(&["cmd", "--import-hyperfine", file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
    }
    let _ = std::fs::remove_file(file);
    let _ = std::fs::remove_file(json);
}

/// rtcompare compares exactly two commands and has no `--reference` to pick two of many, so a
/// third result is refused by name rather than silently dropped.
#[test]
fn more_than_two_hyperfine_results_are_refused_by_name() {
    let file = temp("three.json");
    let times: Vec<f64> = (0..12).map(|i| 0.01 + 0.0001 * f64::from(i)).collect();
    let doc = serde_json::json!({"results": [
        {"command": "first", "times": times},
        {"command": "second", "times": times},
        {"command": "third one", "times": times},
    ]});
    std::fs::write(&file, doc.to_string()).unwrap();
    let o = rtcompare(&["cmd", "--import-hyperfine", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("holds 3 results (`first`, `second`, `third one`)"),
        "{err}"
    );
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let _ = std::fs::remove_file(file);
}
