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
    assert_eq!(r["verdict"]["outcome"], "slower");
    assert_eq!(r["estimate"]["paired"], false);
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
            "not a positive number",
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
