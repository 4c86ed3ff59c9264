//! `rtcompare cmd` as hyperfine's users call it: more than two commands, parameters, labels,
//! hooks, accepted exit codes, and a JSON file that survives a failed run.

mod common;

use std::path::Path;

use common::{TempDir, rtcompare, text};

fn json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap()
}

/// Quick sessions: no warm-up, no A/A partners, eleven rounds.
const QUICK: [&str; 6] = ["-w", "0", "--no-validation", "-r", "11", "--json"];

#[test]
fn three_commands_are_each_compared_with_the_first() {
    let d = TempDir::new("many-three");
    let mut args = vec!["cmd"];
    args.extend(QUICK);
    args.extend([
        "r.json", "-n", "one", "-n", "two", "-n", "three", "true", "true", ": x",
    ]);
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v = json(&d.0);
    assert_eq!(v["stopped"], serde_json::Value::Null);
    assert_eq!(v["family_level"], 0.975);
    let names: Vec<&str> = v["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["two", "three"]);
    assert_eq!(v["comparisons"][0]["reference"], "one");
    assert!(v["comparisons"][1]["verdict"]["outcome"].is_string());
    // Every command ran once per round.
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 33);
    for c in 0..3 {
        assert_eq!(runs.iter().filter(|r| r["command"] == c).count(), 11);
    }
    let out = text(&o.stdout);
    assert!(out.contains("Bonferroni") && out.contains("three"), "{out}");
}

#[test]
fn a_parameter_list_expands_commands_and_labels() {
    let d = TempDir::new("many-params");
    let mut args = vec!["cmd"];
    args.extend(QUICK);
    args.extend(["r.json", "-L", "n", "1,2,3", "-n", "n={n}", "true {n}"]);
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v = json(&d.0);
    let commands: Vec<(&str, &str)> = v["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["command"].as_str().unwrap()))
        .collect();
    assert_eq!(
        commands,
        [("n=1", "true 1"), ("n=2", "true 2"), ("n=3", "true 3")]
    );
    // A scan with a step, against a reference of its own.
    let mut args = vec!["cmd"];
    args.extend(QUICK);
    args.extend([
        "r.json",
        "--reference",
        "true",
        "-P",
        "t",
        "2",
        "6",
        "-D",
        "2",
        "true {t}",
    ]);
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v = json(&d.0);
    let names: Vec<&str> = v["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["true 2", "true 4", "true 6"]);
    assert_eq!(v["comparisons"][0]["reference"], "reference");
}

#[test]
fn hooks_run_when_hyperfine_runs_them() {
    let d = TempDir::new("many-hooks");
    let mut args = vec!["cmd"];
    args.extend(QUICK);
    args.extend([
        "r.json",
        "--setup",
        "echo setup >> log",
        "--conclude",
        "echo conclude >> log",
        "--cleanup",
        "echo cleanup >> log",
        "--prepare",
        "echo prepare-a >> log",
        "--prepare",
        "echo prepare-b >> log",
        "true",
        "true",
    ]);
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let log = std::fs::read_to_string(d.0.join("log")).unwrap();
    let count = |w: &str| log.lines().filter(|l| *l == w).count();
    assert_eq!(count("setup"), 2, "{log}");
    assert_eq!(count("cleanup"), 2, "{log}");
    assert_eq!(count("conclude"), 22, "{log}");
    assert_eq!(count("prepare-a"), 11, "{log}");
    assert_eq!(count("prepare-b"), 11, "{log}");
    assert!(log.starts_with("setup\nsetup\n") && log.ends_with("cleanup\ncleanup\n"));

    // A failing hook names itself and its command; the cleanup still runs.
    std::fs::remove_file(d.0.join("log")).unwrap();
    let o = rtcompare(
        &d.0,
        &[
            "cmd",
            "-w",
            "0",
            "--conclude",
            "exit 7",
            "--cleanup",
            "echo cleanup >> log",
            "true",
            "true",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("--conclude for") && e.contains("exit status 7"),
        "{e}"
    );
    let log = std::fs::read_to_string(d.0.join("log")).unwrap();
    assert_eq!(log, "cleanup\ncleanup\n");
}

#[test]
fn only_the_listed_exit_codes_are_ignored() {
    let d = TempDir::new("many-codes");
    let mut args = vec!["cmd"];
    args.extend(QUICK);
    args.extend(["r.json", "--ignore-failure=3,4", "true", "exit 3"]);
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = rtcompare(
        &d.0,
        &["cmd", "-w", "0", "--ignore-failure=3", "true", "exit 5"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("exit status 5"));
    // -N runs without a shell.
    let mut args = vec!["cmd"];
    args.extend(QUICK);
    args.extend(["r.json", "-N", "true", "true"]);
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

#[test]
fn a_run_that_fails_keeps_every_run_before_it() {
    let d = TempDir::new("many-fails");
    // B succeeds 14 times, then fails: the 14 rounds before are in the file. A fixed 40
    // pairs, so that the precision target cannot end the session before the 15th round.
    let b = "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; [ $n -le 14 ]";
    let o = rtcompare(
        &d.0,
        &[
            "cmd",
            "--runs",
            "40",
            "-w",
            "0",
            "--no-validation",
            "--json",
            "r.json",
            "true",
            b,
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let v = json(&d.0);
    assert_eq!(v["stopped"], "run_failed");
    assert!(v["stopped_message"].as_str().unwrap().contains("B `"));
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.iter().filter(|r| r["command"] == 1).count(), 14);
    // With enough rounds for a verdict the file is a whole result.
    assert!(v["comparisons"].as_array().is_some_and(|c| c.len() == 1));

    // Too few rounds for a verdict: the runs alone, still with `stopped`.
    std::fs::remove_file(d.0.join("count")).unwrap();
    let b = b.replace("14", "2");
    let o = rtcompare(
        &d.0,
        &[
            "cmd",
            "-w",
            "0",
            "--no-validation",
            "--json",
            "r.json",
            "true",
            &b,
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let v = json(&d.0);
    assert_eq!(v["stopped"], "run_failed");
    assert_eq!(v["runs"].as_array().unwrap().len(), 5);
}

#[test]
fn input_and_output_go_where_they_are_told() {
    let d = TempDir::new("many-io");
    std::fs::write(d.0.join("in.txt"), "hello\n").unwrap();
    // Each run reads the file on stdin (it is reopened for every run) and writes to a file
    // truncated before each run.
    let mut args = vec!["cmd"];
    args.extend(QUICK);
    args.extend([
        "r.json",
        "--input",
        "in.txt",
        "--output",
        "out.txt",
        "--conclude",
        "cat out.txt >> seen",
        "cat",
        "cat",
    ]);
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let seen = std::fs::read_to_string(d.0.join("seen")).unwrap();
    assert_eq!(seen, "hello\n".repeat(22));
    // A pipe is drained however much is written (8 MiB here, far beyond a pipe's buffer).
    let mut args = vec!["cmd"];
    args.extend(QUICK);
    args.extend([
        "r.json",
        "--output",
        "pipe",
        "head -c 8388608 /dev/zero",
        "true",
    ]);
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // A missing input is an error before anything runs.
    let o = rtcompare(&d.0, &["cmd", "--input", "missing.txt", "true", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("missing.txt"),
        "{}",
        text(&o.stderr)
    );
}

/// Runs `rtcompare cmd` quickly (see [`QUICK`]) in `d` with `extra` flags and `commands`,
/// and checks that it exits 0.
fn quick(d: &TempDir, extra: &[&str], commands: &[&str]) -> std::process::Output {
    let mut args = vec!["cmd"];
    args.extend(QUICK);
    args.push("r.json");
    args.extend(extra);
    args.extend(commands);
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    o
}

#[test]
fn the_markdown_export_gives_every_comparison_and_the_family_note() {
    let d = TempDir::new("many-markdown");
    quick(&d, &["--export-markdown", "t.md"], &["true", "true", ": x"]);
    let md = std::fs::read_to_string(d.0.join("t.md")).unwrap();
    // A row per command, the reference's marked.
    assert!(
        md.contains("| `true` |") && md.contains("| `: x` |"),
        "{md}"
    );
    assert!(md.contains("| reference |"), "{md}");
    // Under the table: the family-wise note, then one line per comparison naming its command
    // (before, one sentence on A against B alone).
    assert!(
        md.contains("2 comparisons with A") && md.contains("Bonferroni"),
        "{md}"
    );
    let lines: Vec<&str> = md.lines().filter(|l| l.starts_with("- **")).collect();
    assert_eq!(lines.len(), 2, "{md}");
    assert!(
        lines[0].contains("B") && lines[0].contains("`true`"),
        "{md}"
    );
    assert!(lines[1].contains("C") && lines[1].contains("`: x`"), "{md}");
    assert!(!md.contains("(A: `true`, B: `true`"), "{md}");
}

#[test]
fn the_html_page_shows_every_comparison_and_which_pair_its_figures_draw() {
    let d = TempDir::new("many-html");
    quick(&d, &["--html", "p.html"], &["true", "true", ": x"]);
    let page = std::fs::read_to_string(d.0.join("p.html")).unwrap();
    // Every comparison's estimate and verdict: a row each in the table, and an answer each
    // (before, A against B alone).
    assert!(page.contains("3 commands against A"), "{page}");
    assert!(page.contains("id=\"comparisons\""), "{page}");
    for (i, name) in [(1, "B"), (2, "C")] {
        assert!(page.contains(&format!("id=\"answer-{i}\"")), "{page}");
        assert!(page.contains(&format!("{name} takes ")), "{page}");
        assert!(
            page.contains(&format!("The answer: {name} against A")),
            "{page}"
        );
    }
    // The two-command figures say which pair they show, and draw that pair's runs alone
    // (before, every non-reference command's runs were B's: 22 here).
    assert!(page.contains("Run order: A against B"), "{page}");
    assert!(page.contains("11 runs of A and 11 of B"), "{page}");
}

#[test]
fn counters_are_summarised_per_command() {
    let d = TempDir::new("many-counters");
    let o = quick(&d, &["--counters"], &["true", "true", ": x"]);
    let v = json(&d.0);
    // One entry per command, whether or not this machine has counters (most virtual machines
    // have none); before, two sides only, B's holding every command but the reference.
    let per = v["command_counters"].as_array().expect("command_counters");
    let names: Vec<&str> = per.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["A", "B", "C"], "{v}");
    let out = text(&o.stdout);
    assert!(out.contains("Hardware counters"), "{out}");
    if v["counters"]["status"]["state"] == "available" {
        // Each command's own 11 runs (before, B's side counted B's and C's: 22).
        for c in per {
            assert_eq!(c["batches"], 11, "{v}");
        }
        assert_eq!(v["counters"]["b"]["batches"], 11, "{v}");
        for name in ["A", "B", "C"] {
            assert!(out.contains(&format!("   {name}: ")), "{out}");
        }
    }
}

#[test]
fn a_wide_interval_of_any_comparison_is_warned_about_by_name() {
    let d = TempDir::new("many-precise");
    // A against B is tight (twice the same sleep); C alternates 20 ms and 80 ms, so its
    // interval stays far wider than 20 % until --max-time runs out.
    let c = "n=$(cat c 2>/dev/null || echo 0); echo $((n+1)) > c; \
             if [ $((n % 2)) = 0 ]; then sleep 0.02; else sleep 0.08; fi";
    let o = rtcompare(
        &d.0,
        &[
            "cmd",
            "-w",
            "0",
            "--no-validation",
            "--precision",
            "--width",
            "20%",
            "--max-time",
            "3s",
            "--json",
            "r.json",
            "sleep 0.05",
            "sleep 0.05",
            c,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v = json(&d.0);
    assert_eq!(v["stop"], "max_time", "{v}");
    let half = |i: usize| {
        let e = &v["comparisons"][i]["estimate"];
        (e["high"].as_f64().unwrap() - e["low"].as_f64().unwrap()) / 2.0
    };
    assert!(half(1) > 0.2, "C's interval: {v}");
    // Before, only A against B was looked at: no warning unless its own interval was wide.
    let not_precise: Vec<&serde_json::Value> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| &w["warning"])
        .filter(|w| w["kind"] == "not_precise")
        .collect();
    assert!(
        not_precise.iter().any(|w| w["command"] == "C"),
        "{}",
        v["warnings"]
    );
    assert_eq!(not_precise.len(), if half(0) > 0.2 { 2 } else { 1 });
    let out = text(&o.stdout);
    assert!(
        out.contains("warning: --max-time ran out with C's interval"),
        "{out}"
    );
}
