//! `rtcompare combine`: one comparison pooled across machines, from the JSON files of runs on
//! several machines. The files are one real `rtcompare cmd --json` result with its estimate
//! set to chosen values, so the pooled numbers are known.

mod common;

use std::path::Path;

use common::{TempDir, rtcompare, text};

/// A real result of `rtcompare cmd`, to be edited into machines.
fn template(dir: &Path) -> serde_json::Value {
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
            "t.json",
            "true",
            "true",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(dir.join("t.json")).unwrap()).unwrap()
}

/// Writes machine files with these deltas (each ±1 point) and returns their names.
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
        md.contains("| `B vs A` |") && md.contains("+10.00, +11.00, +12.00"),
        "{md}"
    );
    // The gate: every machine says the command is 10–12 % slower.
    let mut args = vec!["combine", "--fail-on-regression", "5%"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(rtcompare(&d.0, &args).status.code(), Some(1));
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
    let mut args = vec!["combine"];
    args.extend(files.iter().map(String::as_str));
    let o = rtcompare(&d.0, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("outlier") && out.contains("B-9.json"), "{out}");
}

#[test]
fn inputs_that_do_not_match_are_refused() {
    let d = TempDir::new("combine-refused");
    let t = template(&d.0);
    // Two machines cannot estimate how much machines differ.
    let two = machines(&d.0, &t, &[0.1, 0.1], "B");
    let o = rtcompare(&d.0, &["combine", &two[0], &two[1]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("at least 3"),
        "{}",
        text(&o.stderr)
    );
    // Different comparisons: the names that differ are listed.
    let other = machines(&d.0, &t, &[0.1], "C");
    let o = rtcompare(&d.0, &["combine", &two[0], &two[1], &other[0]]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("B vs A") && e.contains("C vs A"), "{e}");
    // Not a result at all.
    std::fs::write(d.0.join("x.json"), "{\"hello\": 1}").unwrap();
    let o = rtcompare(&d.0, &["combine", &two[0], &two[1], "x.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("x.json"), "{}", text(&o.stderr));
}

/// The ready pipelines in docs/ci, for GitHub Actions and GitLab CI: every `rtcompare` command
/// line in them parses with this version's flags (the YAML's own structure is checked by the
/// keys a runner needs; `.ci/run` lints the YAML itself).
#[test]
fn the_ci_workflow_calls_flags_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let github = std::fs::read_to_string(root.join("docs/ci/bench-matrix.yml")).unwrap();
    for key in [
        "jobs:",
        "matrix:",
        "needs: measure",
        "upload-artifact",
        "download-artifact",
    ] {
        assert!(github.contains(key), "{key}");
    }
    commands_parse(&github, "env");
    let gitlab = std::fs::read_to_string(root.join("docs/ci/bench-matrix.gitlab-ci.yml")).unwrap();
    for key in [
        "parallel: 5",
        "needs:",
        "- job: measure",
        "runner-$CI_NODE_INDEX.json",
        "expose_as:",
        "when: always",
    ] {
        assert!(gitlab.contains(key), "{key}");
    }
    commands_parse(&gitlab, "variables");
}

/// Checks that the pipeline's two `rtcompare` command lines (bench, then combine) parse, each
/// `"$NAME"` replaced by its value from the top-level `block:` mapping (GitHub's `env:`,
/// GitLab's `variables:`), which must define BUDGET.
fn commands_parse(yml: &str, block: &str) {
    use clap::Parser;
    let env: Vec<(String, String)> = yml
        .split(&format!("\n{block}:\n"))
        .nth(1)
        .unwrap_or("")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| {
            let (k, v) = l.trim().split_once(':')?;
            let v = v.split('#').next()?.trim();
            Some((k.to_string(), v.to_string()))
        })
        .collect();
    assert!(env.iter().any(|(k, _)| k == "BUDGET"), "{env:?}");
    // A command is a line of its own in a `run: |` or `- |` block, or a `- ` script item.
    let lines: Vec<&str> = yml
        .lines()
        .map(|l| l.trim().trim_start_matches("- "))
        .filter(|l| l.starts_with("rtcompare "))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("rtcompare bench ") && lines[1].starts_with("rtcompare combine "),
        "{lines:?}"
    );
    for line in lines {
        // Shell words, with the `|| status=$?` tail left out.
        let mut command = line.split(" || ").next().unwrap().to_string();
        // The pipeline's own variables take their values; the CI system's (such as GitLab's
        // `$CI_NODE_INDEX`) stay as they are, one word each.
        for (key, value) in &env {
            command = command.replace(&format!("\"${key}\""), value);
        }
        // GitHub's `${{ … }}` expressions become one word.
        while let Some(start) = command.find("${{") {
            let end = command[start..]
                .find("}}")
                .map_or(command.len(), |e| start + e + 2);
            command.replace_range(start..end, "X");
        }
        let words: Vec<String> = command
            .split_whitespace()
            .map(|w| w.trim_matches('"').to_string())
            .collect();
        let parsed = rtcompare_cli::cli::Cli::try_parse_from(&words);
        assert!(parsed.is_ok(), "{command}: {:?}", parsed.err());
    }
}
