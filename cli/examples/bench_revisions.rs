//! `rtcompare bench` measured as a pull request uses it: a scratch crate with a bench file of
//! eight benchmarks (about 10 ns to 1 ms per operation; the program prints each one's measured
//! time) in a git repository of two commits,
//! the second slowing one benchmark (`chain/10us`) by 5 % (5 % more steps of a dependent
//! chain: a real busy-wait inside the operation). Each round runs, in alternation:
//! - the A/A: the working tree checked out clean at the first commit, `rtcompare bench
//!   --baseline HEAD`;
//! - the injected 5 %: the second commit checked out, `rtcompare bench --baseline HEAD~1`;
//!
//! and tallies, over all benchmarks and rounds, the false verdicts of the A/A, the detections
//! of the injected slowdown and any other benchmark called in those runs, with the time of
//! each run (builds included) and of each benchmark's worker pairs (builds excluded).
//!
//! ```text
//! cargo build --release -p rtcompare-cli
//! cargo run --release -p rtcompare-cli --example bench_revisions -- [--rounds 20] [--pairs 5]
//! ```
//!
//! The scratch repository lives in the system's temporary directory and is removed at the
//! end (`--keep` keeps it, with every run's JSON).

// Shared with the other cross-revision examples; this one does not relink layouts.
#[allow(dead_code)]
mod scratch;

use std::process::{Command, Stdio};
use std::time::Instant;

use scratch::{FIXTURE_FUNCTIONS, Repo, Res, git, median, rtcompare_bin, workspace};

/// The benchmark the second commit slows down.
const INJECTED: &str = "chain/10us";

fn bench_source(inject: bool) -> String {
    // 56,000 steps of the chain against 58,800: 5 % more work in the same operation. The
    // compiler folds eight steps of this chain into one multiply-add (the constant's eighth
    // power), about 1.4 ns each here, so 56,000 steps take about 10 µs.
    let steps_10us = if inject { 58_800 } else { 56_000 };
    format!(
        r#"use std::collections::BTreeMap;
use std::hint::black_box;

{FIXTURE_FUNCTIONS}
fn main() {{
    rtcompare::bench::main(|b| {{
        b.bench("chain/10ns", || chain(56));
        let bytes: Vec<u8> = (0..64u32).map(|i| (i * 37) as u8).collect();
        b.bench("fnv/64B", || fnv(black_box(&bytes)));
        b.bench("chain/1us", || chain(5_600));
        let words: Vec<u32> = (0..256u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        b.bench_batched("sort/256", || words.clone(), |mut v| {{ v.sort_unstable(); v }});
        b.bench("{INJECTED}", || chain({steps_10us}));
        let map: BTreeMap<u64, u64> = (0..4_096u64).map(|i| (i * 7, i)).collect();
        b.bench("btree/200-lookups", || {{
            (0..200u64).map(|i| map.get(&black_box(i * 13)).copied().unwrap_or(0)).sum::<u64>()
        }});
        let big: Vec<u64> = (0..200_000u64).collect();
        b.bench("sum/200k", || black_box(&big).iter().sum::<u64>());
        b.bench("chain/1ms", || chain(5_600_000));
    }});
}}
"#
    )
}

fn repo(keep: bool) -> Res<Repo> {
    let repo = Repo::new("bench-revisions", &workspace()?, &bench_source(false), keep)?;
    repo.commit(&bench_source(true), "chain/10us: 5 % more steps")?;
    Ok(repo)
}

#[derive(Default)]
struct Tally {
    runs: usize,
    /// Benchmark verdicts (resolved either way) per run.
    calls: Vec<usize>,
    /// Runs in which the injected benchmark was proven slower.
    detected: usize,
    /// Verdicts on benchmarks other than the injected one.
    others_called: usize,
    /// Benchmark results seen (runs × benchmarks).
    results: usize,
    run_seconds: Vec<f64>,
    bench_seconds: Vec<f64>,
    pairs: Vec<u64>,
    injected_changes: Vec<f64>,
    /// Each benchmark's baseline time per operation (ns), every run.
    sizes: std::collections::BTreeMap<String, Vec<f64>>,
}

fn main() -> Res<()> {
    let mut rounds = 20usize;
    let mut pairs = 5usize;
    let mut keep = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().ok_or("--rounds needs a number")?.parse()?,
            "--pairs" => pairs = args.next().ok_or("--pairs needs a number")?.parse()?,
            "--keep" => keep = true,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let bin = rtcompare_bin()?;
    let repo = repo(keep)?;
    let d = repo.dir.clone();
    let base_commit = git(&d, &["rev-parse", "HEAD~1"])?;
    let head_commit = git(&d, &["rev-parse", "HEAD"])?;
    println!(
        "scratch repository: {} ({rounds} rounds, {pairs} pairs)",
        d.display()
    );
    let (mut aa, mut inj) = (Tally::default(), Tally::default());
    let started = Instant::now();
    for round in 0..rounds {
        for injected in [false, true] {
            let (checkout, baseline, tally) = if injected {
                (&head_commit, base_commit.as_str(), &mut inj)
            } else {
                (&base_commit, "HEAD", &mut aa)
            };
            git(&d, &["checkout", "--quiet", "--detach", checkout])?;
            let json = d.join(format!(
                "{}-{round}.json",
                if injected { "inj" } else { "aa" }
            ));
            let t = Instant::now();
            let out = Command::new(&bin)
                .args([
                    "bench",
                    "--baseline",
                    baseline,
                    "--pairs",
                    &pairs.to_string(),
                ])
                .arg("--json")
                .arg(&json)
                .current_dir(&d)
                .env_remove("CARGO_TARGET_DIR")
                .env_remove("GITHUB_STEP_SUMMARY")
                .stdin(Stdio::null())
                .output()?;
            let secs = t.elapsed().as_secs_f64();
            if !out.status.success() {
                return Err(format!(
                    "rtcompare bench failed ({}): {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                )
                .into());
            }
            let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json)?)?;
            let rows = v["benchmarks"].as_array().ok_or("no benchmarks")?;
            let mut called = 0;
            for r in rows {
                let name = r["name"].as_str().unwrap_or("");
                let resolved = r["resolved"].as_bool().unwrap_or(false);
                tally.results += 1;
                if resolved {
                    called += 1;
                }
                if injected && name == INJECTED {
                    if r["regression"].as_bool().unwrap_or(false) {
                        tally.detected += 1;
                    }
                    // The head's change in time, + = slower: −δ, δ = 1 − head/baseline.
                    tally
                        .injected_changes
                        .push(-r["delta"].as_f64().unwrap_or(f64::NAN));
                } else if injected && resolved {
                    tally.others_called += 1;
                }
                tally.pairs.push(r["processes"].as_u64().unwrap_or(0));
                if let Some(ns) = r["baseline_ns"].as_f64() {
                    tally.sizes.entry(name.to_string()).or_default().push(ns);
                }
            }
            for b in v["details"]["benchmarks"].as_array().into_iter().flatten() {
                tally
                    .bench_seconds
                    .push(b["seconds"].as_f64().unwrap_or(0.0));
            }
            tally.runs += 1;
            tally.calls.push(called);
            tally.run_seconds.push(secs);
            println!(
                "round {round:>2} {:<8} {called} of {} benchmarks called{} in {secs:.0} s",
                if injected { "5 %" } else { "A/A" },
                rows.len(),
                if injected {
                    format!(
                        "; {INJECTED} {:+.2} % (+ = slower)",
                        100.0 * tally.injected_changes.last().copied().unwrap_or(f64::NAN)
                    )
                } else {
                    String::new()
                }
            );
        }
    }
    let aa_false: usize = aa.calls.iter().sum();
    let aa_runs_false = aa.calls.iter().filter(|&&c| c > 0).count();
    println!();
    println!(
        "| | runs | benchmark results | verdicts | runs with any verdict | median run (builds included) | median benchmark (5 pairs) |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|");
    println!(
        "| A/A (`--baseline HEAD`, clean tree) | {} | {} | {aa_false} | {aa_runs_false} | {:.0} s | {:.1} s |",
        aa.runs,
        aa.results,
        median(&aa.run_seconds),
        median(&aa.bench_seconds)
    );
    println!(
        "| injected 5 % on `{INJECTED}` | {} | {} | {} detected, {} others | – | {:.0} s | {:.1} s |",
        inj.runs,
        inj.results,
        inj.detected,
        inj.others_called,
        median(&inj.run_seconds),
        median(&inj.bench_seconds)
    );
    println!(
        "median change of {INJECTED} with the 5 % injected: {:+.2} % (+ = slower); pairs per benchmark: median {}, max {}",
        100.0 * median(&inj.injected_changes),
        median(
            &aa.pairs
                .iter()
                .chain(&inj.pairs)
                .map(|&p| p as f64)
                .collect::<Vec<_>>()
        ),
        aa.pairs
            .iter()
            .chain(&inj.pairs)
            .max()
            .copied()
            .unwrap_or(0)
    );
    println!("baseline time per operation (median over runs):");
    for (name, ns) in &aa.sizes {
        println!("  {name:<20} {:>12.1} ns", median(ns));
    }
    println!("total {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}
