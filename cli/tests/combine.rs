//! `rtcompare combine`: one comparison pooled across machines, from the JSON files of runs on
//! several machines. The files are one real `rtcompare cmd --json` result with its estimate
//! set to chosen values, so the pooled numbers are known; the pooled `compare` kind is a real
//! `PoolRun` of simulated-clock reports, written as the `compare` example writes it.

mod common;

use std::path::Path;

use common::{TempDir, rtcompare, rtcompare_in_project, text};

/// Runs `rtcompare cmd` on `reference` and `command` (11 rounds, no validation) with its
/// JSON written to `file` in `dir`, and returns that JSON.
fn cmd_json(dir: &Path, file: &str, reference: &str, command: &str) -> serde_json::Value {
    let o = rtcompare(
        dir,
        &[
            "cmd",
            "-r",
            "11",
            "-w",
            "0",
            "--no-validation",
            "--json",
            file,
            reference,
            command,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap()
}

/// A real result of `rtcompare cmd`, to be edited into machines.
fn template(dir: &Path) -> serde_json::Value {
    cmd_json(dir, "t.json", "true", "true")
}

/// Writes machine files with these deltas (each ±1 point) and returns their names. The
/// comparison is labelled `name` and compares `true name` with the reference: a comparison is
/// what it compares, so another name is another comparison.
fn machines(dir: &Path, t: &serde_json::Value, deltas: &[f64], name: &str) -> Vec<String> {
    deltas
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let mut v = t.clone();
            let e = &mut v["comparisons"][0]["estimate"];
            e["delta"] = d.into();
            e["low"] = (d - 0.01).into();
            e["high"] = (d + 0.01).into();
            v["comparisons"][0]["name"] = name.into();
            v["commands"][1]["name"] = name.into();
            v["commands"][1]["command"] = format!("true {name}").into();
            let file = format!("{name}-{i}.json");
            std::fs::write(dir.join(&file), v.to_string()).unwrap();
            file
        })
        .collect()
}

#[test]
fn machines_are_pooled_with_the_machine_as_the_unit() {
    let d = TempDir::new("combine-pool");
    let t = template(&d.0);
    let files = machines(&d.0, &t, &[0.10, 0.11, 0.12], "B");
    let mut args = vec!["combine", "--json", "out.json", "--markdown", "out.md"];
    args.extend(files.iter().map(String::as_str));
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.0.join("out.json")).unwrap()).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["machines"], 3);
    let r = &v["results"][0];
    assert_eq!(r["name"], "B vs A");
    // The mean of 0.10, 0.11, 0.12 with a t interval on 2 degrees of freedom:
    // scipy.stats.t.ppf(0.975, 2) = 4.302652729911275; sd 0.01 → ±0.024841.
    assert!((r["delta"].as_f64().unwrap() - 0.11).abs() < 1e-12);
    assert!((r["high"].as_f64().unwrap() - 0.134841).abs() < 1e-5, "{r}");
    assert_eq!(r["resolved"], true);
    assert!(r["i2"].as_f64().is_some());
    let md = std::fs::read_to_string(d.0.join("out.md")).unwrap();
    assert!(
        // Each machine's δ = 1 − A/B as the command's change in time, + = slower: B/A − 1.
        md.contains("| `B vs A` |") && md.contains("+11.1 %, +12.4 %, +13.6 %"),
        "{md}"
    );
    // The gate: every machine says the command is 10–12 % slower.
    let gate = |budget: &str| {
        let mut args = vec!["combine", "--fail-on-regression", budget];
        args.extend(files.iter().map(String::as_str));
        rtcompare(&d.0, &args).status.code()
    };
    assert_eq!(gate("5%"), Some(1));
    // A budget inside the interval (+9.3 % to +15.6 % in time) is held to the estimate,
    // +12.4 %: 12 % fails (the whole interval is not beyond it, which passed it before), 13 %
    // passes.
    assert_eq!(gate("12%"), Some(1));
    assert_eq!(gate("13%"), Some(0));
}

#[test]
fn an_outlier_machine_is_named_and_kept() {
    let d = TempDir::new("combine-outlier");
    let t = template(&d.0);
    let files = machines(
        &d.0,
        &t,
        &[
            0.100, 0.101, 0.099, 0.100, 0.102, 0.098, 0.101, 0.099, 0.100, 0.300,
        ],
        "B",
    );
    let mut args = vec!["combine", "--html", "page.html"];
    args.extend(files.iter().map(String::as_str));
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("outlier") && out.contains("B-9.json"), "{out}");
    // The page marks it too: in the figure's legend and in its row.
    let html = std::fs::read_to_string(d.0.join("page.html")).unwrap();
    assert!(html.contains("an outlier machine (ringed)"), "{html}");
    assert_eq!(html.matches("<td>outlier</td>").count(), 1, "{html}");
}

/// Writes machine files with two comparisons, `B vs A` at these deltas and `C vs A` at their
/// negatives (each ±1 point), and returns their names.
fn two_comparisons(dir: &Path, t: &serde_json::Value, deltas: &[f64]) -> Vec<String> {
    deltas
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let mut v = t.clone();
            let c = v["comparisons"][0].clone();
            let set = |name: &str, index: usize, d: f64| {
                let mut c = c.clone();
                c["name"] = name.into();
                c["index"] = index.into();
                c["estimate"]["delta"] = d.into();
                c["estimate"]["low"] = (d - 0.01).into();
                c["estimate"]["high"] = (d + 0.01).into();
                c
            };
            v["comparisons"] = serde_json::json!([set("B", 1, d), set("C", 2, -d)]);
            // C is a third command of its own.
            let mut third = v["commands"][1].clone();
            third["name"] = "C".into();
            third["command"] = "true C".into();
            v["commands"].as_array_mut().unwrap().push(third);
            let file = format!("runner-{i}.json");
            std::fs::write(dir.join(&file), v.to_string()).unwrap();
            file
        })
        .collect()
}

#[test]
fn the_html_page_draws_every_comparison_and_every_machine() {
    let d = TempDir::new("combine-html");
    let t = template(&d.0);
    let files = two_comparisons(&d.0, &t, &[0.10, 0.11, 0.12, 0.11]);
    let mut args = vec!["combine", "--html", "page.html"];
    args.extend(files.iter().map(String::as_str));
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let html = std::fs::read_to_string(d.0.join("page.html")).unwrap();
    // One figure per comparison, and nothing fetched or run.
    assert_eq!(html.matches("<svg").count(), 2, "{html}");
    assert!(
        !html.contains("<script") && !html.contains("src="),
        "{html}"
    );
    for (i, name) in ["B vs A", "C vs A"].iter().enumerate() {
        assert!(
            html.contains(&format!("<h2>{}. {name}</h2>", i + 1)),
            "{html}"
        );
    }
    for f in &files {
        // In each comparison's figure (a row label, SVG text on a line of its own) and in its
        // table.
        assert_eq!(
            html.matches(&format!("\n{f}\n</text>")).count(),
            2,
            "{f}: {html}"
        );
        assert_eq!(
            html.matches(&format!("<td>{f}</td>")).count(),
            2,
            "{f}: {html}"
        );
    }
    // The numbers: B vs A pooled at δ = +11 %, C vs A at −11 % (cmd inputs, δ = 1 −
    // reference/command), printed as the command's change: 1/(1 − δ) − 1 = +12.4 % and −9.9 %;
    // I² and the random effects beside.
    assert!(
        html.contains("+12.4 % [") && html.contains("−9.9 % ["),
        "{html}"
    );
    assert!(
        html.contains("Random effects") && html.contains("I²"),
        "{html}"
    );
    // The page is written whole, with no temporary file left beside it.
    assert!(html.trim_end().ends_with("</html>"));
    assert!(!d.0.join("page.html.tmp").exists());
}

#[test]
fn an_unwritable_output_fails_before_anything_is_written() {
    let d = TempDir::new("combine-unwritable");
    let t = template(&d.0);
    let files = machines(&d.0, &t, &[0.10, 0.11, 0.12], "B");
    for bad in ["--json", "--html", "--markdown"] {
        let mut args = vec!["combine"];
        for (flag, file) in [
            ("--json", "out.json"),
            ("--html", "out.html"),
            ("--markdown", "out.md"),
        ] {
            args.extend([flag, if flag == bad { "missing/out" } else { file }]);
        }
        args.extend(files.iter().map(String::as_str));
        let o = rtcompare(&d.0, &args);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", text(&o.stderr));
        let e = text(&o.stderr);
        assert!(e.contains("cannot write missing/out"), "{bad}: {e}");
        // Checked before any input was read: no table, no other output.
        assert_eq!(text(&o.stdout), "", "{bad}");
        for file in ["out.json", "out.html", "out.md"] {
            assert!(!d.0.join(file).exists(), "{bad}: {file} was written");
        }
    }
    // Two outputs naming one file: the second would overwrite the first.
    let mut args = vec!["combine", "--json", "same", "--html", "same"];
    args.extend(files.iter().map(String::as_str));
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--json and --html both write same"),
        "{}",
        text(&o.stderr)
    );
    // An output over an input.
    let mut args = vec!["combine", "--markdown", &files[0]];
    args.extend(files.iter().map(String::as_str));
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("would overwrite one of the inputs"),
        "{}",
        text(&o.stderr)
    );
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.0.join(&files[0])).unwrap()).unwrap();
    assert_eq!(kept["comparisons"][0]["name"], "B");
}

#[test]
fn inputs_of_different_or_newer_layouts_are_refused() {
    let d = TempDir::new("combine-versions");
    let t = template(&d.0);
    assert_eq!(t["schema_version"], 2);
    let files = machines(&d.0, &t, &[0.10, 0.11, 0.12], "B");
    let edit = |file: &str, version: Option<u64>| {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.0.join(file)).unwrap()).unwrap();
        match version {
            Some(n) => v["schema_version"] = n.into(),
            None => {
                v.as_object_mut().unwrap().remove("schema_version");
            }
        }
        std::fs::write(d.0.join(file), v.to_string()).unwrap();
    };
    // A layout newer than this tool reads: refused, naming the file and both versions.
    edit(&files[2], Some(3));
    let o = rtcompare(&d.0, &["combine", &files[0], &files[1], &files[2]]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("B-2.json") && e.contains("schema_version 3 is newer") && e.contains("up to 2"),
        "{e}"
    );
    // Layouts that differ: refused, naming both files and both versions.
    edit(&files[2], None);
    let o = rtcompare(&d.0, &["combine", &files[0], &files[1], &files[2]]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("B-0.json has schema_version 2") && e.contains("B-2.json has no schema_version"),
        "{e}"
    );
}

/// The issue's case: three `cmd --json` results whose comparisons carry the same labels (`B`
/// against `A`) over different commands are different comparisons, refused with the commands
/// named, not pooled as one "B vs A".
#[test]
fn results_of_other_commands_under_the_same_labels_are_refused() {
    let d = TempDir::new("combine-same-labels");
    cmd_json(&d.0, "r0.json", "sleep 0.01", "sleep 0.02");
    cmd_json(&d.0, "r1.json", "sleep 0.01", "sleep 0.02");
    cmd_json(&d.0, "r2.json", "sleep 0.002", "sleep 0.003");
    let o = rtcompare(&d.0, &["combine", "r0.json", "r1.json", "r2.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    let e = text(&o.stderr);
    assert!(
        e.contains("`sleep 0.02` against `sleep 0.01`")
            && e.contains("`sleep 0.003` against `sleep 0.002`")
            && e.contains("r0.json")
            && e.contains("r2.json"),
        "{e}"
    );
    assert_eq!(text(&o.stdout), "");
}

/// A schema-1 result (the layout with the first comparison repeated at the top level) is read
/// as schema 2: three copies pool as one comparison.
#[test]
fn schema_one_results_still_combine() {
    let d = TempDir::new("combine-schema-one");
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cmd-schema1.json");
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
    assert_eq!(t["schema_version"], 1);
    let files = machines(&d.0, &t, &[0.10, 0.11, 0.12], "B");
    let mut args = vec!["combine", "--json", "out.json"];
    args.extend(files.iter().map(String::as_str));
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.0.join("out.json")).unwrap()).unwrap();
    assert_eq!(v["results"][0]["name"], "B vs A");
    assert!((v["results"][0]["delta"].as_f64().unwrap() - 0.11).abs() < 1e-12);
}

/// Three processes' reports on a simulated clock (A at 100 ns, B at 110–130 ns), pooled.
fn pool_run() -> rtcompare::pool::PoolRun {
    use rtcompare::support::compare::compare_with_clock;
    use rtcompare::support::measure::SimulatedClock;
    use rtcompare::{Candidate, CompareOptions};
    let reports: Vec<rtcompare::Report> = [110, 120, 130]
        .into_iter()
        .map(|ns_b| {
            let clock = SimulatedClock::new(1);
            let (ca, cb) = (clock.clone(), clock.clone());
            let a = Candidate::new("a", move |n| ca.advance(100 * n));
            let b = Candidate::new("b", move |n| cb.advance(ns_b * n));
            let opts = CompareOptions::default()
                .seed(3)
                .resamples(500)
                .validation_runs(10)
                .warmup_duration(std::time::Duration::from_millis(5));
            compare_with_clock(a, b, &opts, &clock).unwrap()
        })
        .collect();
    rtcompare::pool::PoolRun {
        pooled: rtcompare::pool::combine_reports(&reports, 0.95).unwrap(),
        reports,
        timings: Vec::new(),
        seed: 1,
        elapsed: std::time::Duration::from_secs(1),
    }
}

/// Writes `json` as machine files with these deltas (each ±1 point) under `stem`.
fn pooled_files(dir: &Path, json: &str, deltas: &[f64], stem: &str) -> Vec<String> {
    let t: serde_json::Value = serde_json::from_str(json).unwrap();
    deltas
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let mut v = t.clone();
            v["delta"] = d.into();
            v["low"] = (d - 0.01).into();
            v["high"] = (d + 0.01).into();
            if v.get("environment").is_some() {
                // One runner of another CPU model: a mixed fleet.
                v["environment"]["cpu_model"] = format!("CPU {}", i.min(1)).into();
            }
            let file = format!("{stem}-{i}.json");
            std::fs::write(dir.join(&file), v.to_string()).unwrap();
            file
        })
        .collect()
}

#[test]
fn pooled_compare_results_carry_their_machine_and_old_ones_still_combine() {
    let d = TempDir::new("combine-pooled");
    let run = pool_run();
    let json = run.to_json().unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // What the `compare` example writes: the pooled fields, the environment, a version.
    assert!(v["processes"].is_number() && v["deltas"].is_array(), "{v}");
    assert!(
        v["environment"].is_object() && v["schema_version"] == 1,
        "{v}"
    );
    let combined = |files: &[String]| {
        let mut args = vec!["combine", "--json", "out.json"];
        args.extend(files.iter().map(String::as_str));
        let o = rtcompare(&d.0, &args);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let out: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.0.join("out.json")).unwrap()).unwrap();
        out
    };
    // The new form: each machine is what its environment says, not "unknown".
    let new = pooled_files(&d.0, &json, &[0.10, 0.11, 0.12], "new");
    let out = combined(&new);
    assert_eq!(out["kind"], "pooled");
    let fleet = out["fleet"].as_array().unwrap();
    assert_eq!(fleet.len(), 2, "{out}");
    assert_eq!(fleet[0][0]["cpu"], "CPU 0");
    assert_eq!(fleet[0][1], 1);
    assert_eq!(fleet[1][0]["cpu"], "CPU 1");
    assert_eq!(fleet[1][1], 2);
    let env = &run.reports[0].run.environment;
    assert_eq!(
        fleet[0][0]["cores"],
        serde_json::json!(env.logical_cores.unwrap_or(0))
    );
    assert!((out["results"][0]["delta"].as_f64().unwrap() - 0.11).abs() < 1e-12);
    // The old form, a bare `Pooled` without environment or version, still combines.
    let bare = serde_json::to_string_pretty(&run.pooled).unwrap();
    let old = pooled_files(&d.0, &bare, &[0.10, 0.11, 0.12], "old");
    let out = combined(&old);
    assert_eq!(out["fleet"][0][0]["cpu"], "unknown", "{out}");
    assert!((out["results"][0]["delta"].as_f64().unwrap() - 0.11).abs() < 1e-12);
    // A machine that refused its own result for a reason that questions its interval is
    // named in the table, the JSON and the Markdown; its interval is still pooled.
    let mut refused: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.0.join(&new[2])).unwrap()).unwrap();
    refused["verdict"] =
        serde_json::json!({"outcome": "cannot_tell", "bar": "fixed_build_order", "bytes": 1});
    std::fs::write(d.0.join(&new[2]), refused.to_string()).unwrap();
    let o = rtcompare(
        &d.0,
        &[
            "combine",
            "--json",
            "out.json",
            "--markdown",
            "out.md",
            &new[0],
            &new[1],
            &new[2],
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let named = "new-2.json: `compare` was refused on that machine alone (fixed_build_order)";
    assert!(text(&o.stdout).contains(named), "{}", text(&o.stdout));
    let out: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.0.join("out.json")).unwrap()).unwrap();
    assert_eq!(out["notes"].as_array().map(Vec::len), Some(1), "{out}");
    assert_eq!(out["machines"], 3);
    assert!(
        std::fs::read_to_string(d.0.join("out.md"))
            .unwrap()
            .contains(named)
    );
    // The two forms together are different layouts: refused.
    let o = rtcompare(&d.0, &["combine", &new[0], &new[1], &old[2]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("old-2.json has no schema_version"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn inputs_that_do_not_match_are_refused() {
    let d = TempDir::new("combine-refused");
    let t = template(&d.0);
    // Two machines cannot estimate how much machines differ.
    let two = machines(&d.0, &t, &[0.1, 0.1], "B");
    let o = rtcompare(&d.0, &["combine", &two[0], &two[1]]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("at least 3"), "{e}");
    // What each machine says on its own is in the message.
    assert!(
        e.contains("B vs A:")
            && e.contains("B-1.json: 11.1 % slower [+9.9 %, +12.4 %] (95 % interval)"),
        "{e}"
    );
    // Different comparisons: the names that differ are listed, with what each compares.
    let other = machines(&d.0, &t, &[0.1], "C");
    let o = rtcompare(&d.0, &["combine", &two[0], &two[1], &other[0]]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("B vs A") && e.contains("C vs A"), "{e}");
    assert!(e.contains("`true C` against `true`"), "{e}");
    // One file given three times, under two spellings: refused, naming both.
    let three = machines(&d.0, &t, &[0.1, 0.11, 0.12], "D");
    let again = format!("./{}", three[0]);
    let o = rtcompare(&d.0, &["combine", &three[0], &three[1], &again]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("same file") && e.contains(&again), "{e}");
    // A copy under another name is combined, with a warning that it is one run.
    std::fs::copy(d.0.join(&three[0]), d.0.join("copy.json")).unwrap();
    let o = rtcompare(&d.0, &["combine", &three[0], &three[1], "copy.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("identical, byte for byte"),
        "{}",
        text(&o.stderr)
    );
    // Not a result at all.
    std::fs::write(d.0.join("x.json"), "{\"hello\": 1}").unwrap();
    let o = rtcompare(&d.0, &["combine", &two[0], &two[1], "x.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("x.json"), "{}", text(&o.stderr));
}

/// In a cargo project `cmd` keeps each comparison's result in
/// `target/rtcompare/history/cmd-….jsonl`, one line per run, and `combine` reads such a file
/// as one run per entry, with the run as the unit.
#[test]
fn cmd_keeps_a_history_that_combine_reads_run_by_run() {
    let d = TempDir::new("combine-history");
    std::fs::create_dir_all(d.0.join("target")).unwrap();
    for _ in 0..3 {
        let o = rtcompare_in_project(
            &d.0,
            &[
                "cmd",
                "-r",
                "11",
                "-w",
                "0",
                "--no-validation",
                "sleep 0.01",
                "sleep 0.02",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    }
    let dir = d.0.join("target/rtcompare/history");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("cmd-sleep_0.02_vs_sleep_0.01-"), "{name}");
    let lines = std::fs::read_to_string(&files[0]).unwrap();
    assert_eq!(lines.lines().count(), 3, "{lines}");
    let path = files[0].to_string_lossy().into_owned();
    let o = rtcompare(&d.0, &["combine", "--json", "c.json", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.0.join("c.json")).unwrap()).unwrap();
    assert_eq!(v["kind"], "cmd", "{v}");
    assert_eq!(v["machines"], 3, "{v}");
    // Twice the sleep: the command is slower, δ = 1 − reference/command well above 0.
    assert!(v["results"][0]["delta"].as_f64().unwrap() > 0.2, "{v}");
    // A directory without `target` gets no history.
    let bare = TempDir::new("combine-no-history");
    let o = rtcompare_in_project(
        &bare.0,
        &[
            "cmd",
            "-r",
            "11",
            "-w",
            "0",
            "--no-validation",
            "true",
            "true",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(!bare.0.join("target").exists());
}
