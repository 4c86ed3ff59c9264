//! Whether an A/B comparison inside one binary depends on where the linker put A and B: a
//! scratch program compares, with `rtcompare::compare`, two copies of the same function for a
//! few workloads (the same instructions with another constant, so that the compiler, which
//! merges identical functions, keeps both); it is linked with several section-shuffle
//! seeds, and each build runs several times. If the spread of δ between builds exceeds the
//! spread between runs of one build, code placement decides part of an in-binary verdict.
//!
//! ```text
//! cargo run --release -p rtcompare-cli --example in_binary_layouts -- [--seeds 6] [--runs 3] [--keep]
//! ```
//!
//! Prints, per workload, every build's δ per run, the split of the spread into layouts' and
//! processes' parts (one-way analysis of variance), and how many of the runs resolved.

// Shared with the cross-revision examples, of which this one needs the repository only.
#[allow(dead_code)]
mod scratch;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use scratch::{Res, median, workspace};

/// The scratch program: three workloads, each compared as two identical copies.
const PROGRAM: &str = r#"use std::hint::black_box;
use rtcompare::{compare, Candidate, CompareOptions};

#[inline(never)]
fn chain_a(steps: u64) -> u64 {
    let mut x = 1u64;
    for i in 0..black_box(steps) {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i);
    }
    x
}

#[inline(never)]
fn chain_b(steps: u64) -> u64 {
    let mut x = 1u64;
    for i in 0..black_box(steps) {
        x = x.wrapping_mul(6_364_136_223_846_793_007).wrapping_add(i);
    }
    x
}

#[inline(never)]
fn fnv_a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

#[inline(never)]
fn fnv_b(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2327u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

#[inline(never)]
fn search_a(v: &[u32], keys: &[u32]) -> usize {
    keys.iter().filter(|k| v.binary_search(k).is_ok()).count() ^ 0x11
}

#[inline(never)]
fn search_b(v: &[u32], keys: &[u32]) -> usize {
    keys.iter().filter(|k| v.binary_search(k).is_ok()).count() ^ 0x22
}

fn main() {
    let o = CompareOptions::default().skip_validation(true);
    let bytes: Vec<u8> = (0..64u32).map(|i| (i * 37) as u8).collect();
    let sorted: Vec<u32> = (0..4096u32).map(|i| i * 3).collect();
    let keys: Vec<u32> = (0..64u32).map(|i| i.wrapping_mul(2_654_435_761) % 12_288).collect();
    let (b1, b2, s1, s2, k1, k2) = (bytes.clone(), bytes, sorted.clone(), sorted, keys.clone(), keys);
    let runs: Vec<(&str, Candidate<'static>, Candidate<'static>)> = vec![
        ("chain/20ns", Candidate::from_fn("a", || chain_a(224)), Candidate::from_fn("b", || chain_b(224))),
        ("fnv/64B", Candidate::from_fn("a", move || fnv_a(black_box(&b1))), Candidate::from_fn("b", move || fnv_b(black_box(&b2)))),
        ("search/64", Candidate::from_fn("a", move || search_a(black_box(&s1), black_box(&k1))), Candidate::from_fn("b", move || search_b(black_box(&s2), black_box(&k2)))),
    ];
    for (name, a, b) in runs {
        let r = compare(a, b, &o).expect("compare");
        println!("{name} {} {} {} {}", r.estimate.delta, r.estimate.low, r.estimate.high, r.resolved);
    }
}
"#;

/// Where the copies landed: each `_a`/`_b` function's address (`nm`), to show that both
/// exist and that the seeds move them.
fn addresses(exe: &Path) -> String {
    let Ok(out) = Command::new("nm").arg(exe).output() else {
        return "(no nm)".into();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| {
            [
                "chain_a", "chain_b", "fnv_a", "fnv_b", "search_a", "search_b",
            ]
            .iter()
            .any(|f| l.contains(f))
        })
        .filter_map(|l| {
            let addr = l.split_whitespace().next()?;
            let name = [
                "chain_a", "chain_b", "fnv_a", "fnv_b", "search_a", "search_b",
            ]
            .into_iter()
            .find(|f| l.contains(f))?;
            Some(format!("{name}@{}", addr.trim_start_matches('0')))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() -> Res<()> {
    let (mut seeds, mut runs, mut keep) = (6u64, 3usize, false);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seeds" => seeds = args.next().ok_or("--seeds needs a number")?.parse()?,
            "--runs" => runs = args.next().ok_or("--runs needs a number")?.parse()?,
            "--keep" => keep = true,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let repo = scratch::Repo::new("in-binary-layouts", &workspace()?, PROGRAM, keep)?;
    let d = &repo.dir;
    println!(
        "scratch program: {} ({seeds} layouts × {runs} runs)",
        d.display()
    );
    // δ by workload, then by layout, one per run; and the runs that resolved.
    let mut deltas: BTreeMap<String, Vec<Vec<f64>>> = BTreeMap::new();
    let mut resolved: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 1..=seeds {
        let exe = scratch::relink(d, None, seed)?;
        println!("layout {seed}: {}", addresses(&exe));
        for _ in 0..runs {
            let out = Command::new(&exe).current_dir(d).output()?;
            if !out.status.success() {
                return Err(format!(
                    "the program failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                )
                .into());
            }
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                let f: Vec<&str> = line.split_whitespace().collect();
                let [name, delta, _, _, res] = f[..] else {
                    continue;
                };
                let per_layout = deltas.entry(name.into()).or_default();
                if per_layout.len() < seed as usize {
                    per_layout.push(Vec::new());
                }
                per_layout[seed as usize - 1].push(delta.parse()?);
                if res == "true" {
                    *resolved.entry(name.into()).or_default() += 1;
                }
            }
        }
        println!(
            "layout {seed}: {}",
            deltas
                .iter()
                .map(|(n, v)| format!(
                    "{n} {}",
                    v[seed as usize - 1]
                        .iter()
                        .map(|d| format!("{:+.2} %", 100.0 * d))
                        .collect::<Vec<_>>()
                        .join(" ")
                ))
                .collect::<Vec<_>>()
                .join(" | ")
        );
    }
    println!();
    println!(
        "| workload | δ per layout (median of runs) | sd between layouts | sd within one layout (between runs) | layouts' share | runs resolved |"
    );
    println!("|---|---|--:|--:|--:|--:|");
    for (name, per_layout) in &deltas {
        // One-way analysis of variance, balanced: MSW within layouts, MSB between their means.
        let k = per_layout.len() as f64;
        let r = runs as f64;
        let means: Vec<f64> = per_layout
            .iter()
            .map(|v| v.iter().sum::<f64>() / r)
            .collect();
        let grand = means.iter().sum::<f64>() / k;
        let msb = means.iter().map(|m| (m - grand).powi(2)).sum::<f64>() * r / (k - 1.0);
        let msw = per_layout
            .iter()
            .zip(&means)
            .map(|(v, m)| v.iter().map(|x| (x - m).powi(2)).sum::<f64>())
            .sum::<f64>()
            / (k * (r - 1.0));
        let between = ((msb - msw) / r).max(0.0);
        println!(
            "| {name} | {} | {:.2} % | {:.2} % | {:.0} % | {}/{} |",
            per_layout
                .iter()
                .map(|v| format!("{:+.2}", 100.0 * median(v)))
                .collect::<Vec<_>>()
                .join(", "),
            100.0 * between.sqrt(),
            100.0 * msw.sqrt(),
            100.0 * between / (between + msw).max(f64::MIN_POSITIVE),
            resolved.get(name).copied().unwrap_or(0),
            seeds as usize * runs
        );
    }
    Ok(())
}
