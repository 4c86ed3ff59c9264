//! The table of `criterion/scripts/versus.sh`: one bench file's results from criterion 0.8
//! and from rtcompare-criterion, round by round, benchmark by benchmark.
//!
//! ```text
//! cargo run --release -p rtcompare-criterion --example versus_criterion -- RESULTS
//! ```
//!
//! RESULTS holds `criterion-R/` (a copy of criterion's `target/criterion` after round R),
//! `layer-R.json` (the layer's JSON after round R) and `times.tsv` (`tool  round  ms`). For
//! each benchmark: criterion's mean time per iteration with its 95 % bootstrap interval, the
//! layer's mean with its 95 % batch-means interval, the layer's mean over criterion's, and
//! whether the layer's mean lies inside criterion's interval and whether the two intervals
//! overlap; then each tool's time per benchmark.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rtcompare::bench::{BenchRun, Outcome};
use serde_json::Value;

/// A mean with its interval, in ns per iteration.
#[derive(Debug, Clone, Copy)]
struct Estimate {
    mean: f64,
    low: f64,
    high: f64,
}

impl Estimate {
    fn overlaps(&self, other: &Estimate) -> bool {
        self.low <= other.high && other.low <= self.high
    }
    fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// criterion's estimates under `dir`: each `new/benchmark.json` names the benchmark
/// (`full_id`) and `new/estimates.json` beside it holds its mean and interval.
fn criterion_estimates(dir: &Path) -> BTreeMap<String, Estimate> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.ends_with("new/benchmark.json") {
                let read = |p: PathBuf| -> Value {
                    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
                };
                let id = read(path.clone())["full_id"].as_str().unwrap().to_string();
                let est = read(path.with_file_name("estimates.json"));
                let mean = &est["mean"];
                let ci = &mean["confidence_interval"];
                found.insert(
                    id,
                    Estimate {
                        mean: mean["point_estimate"].as_f64().unwrap(),
                        low: ci["lower_bound"].as_f64().unwrap(),
                        high: ci["upper_bound"].as_f64().unwrap(),
                    },
                );
            }
        }
    }
    found
}

fn layer_estimates(path: &Path) -> BTreeMap<String, Estimate> {
    let run: BenchRun = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    run.results
        .into_iter()
        .filter_map(|r| match r.outcome {
            Outcome::Measured(m) => {
                let e = m.estimate?;
                Some((
                    r.name,
                    Estimate {
                        mean: e.mean,
                        low: e.mean - e.half_width,
                        high: e.mean + e.half_width,
                    },
                ))
            }
            _ => None,
        })
        .collect()
}

fn ns(x: f64) -> String {
    if x >= 10_000.0 {
        format!("{:.2} µs", x / 1_000.0)
    } else {
        format!("{x:.1} ns")
    }
}

/// How often each tool's next round lands inside its previous round's interval: the yardstick
/// for "inside the other tool's interval".
fn self_agreement(rounds: &[BTreeMap<String, Estimate>]) -> (usize, usize) {
    let (mut inside, mut total) = (0, 0);
    for pair in rounds.windows(2) {
        for (name, before) in &pair[0] {
            if let Some(after) = pair[1].get(name) {
                total += 1;
                inside += usize::from(before.contains(after.mean));
            }
        }
    }
    (inside, total)
}

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .expect("usage: versus_criterion RESULTS"),
    );
    let times = std::fs::read_to_string(dir.join("times.tsv")).expect("RESULTS/times.tsv");
    let rounds: usize = times
        .lines()
        .filter_map(|l| l.split('\t').nth(1)?.parse().ok())
        .max()
        .unwrap_or(0);
    let crit: Vec<_> = (1..=rounds)
        .map(|r| criterion_estimates(&dir.join(format!("criterion-{r}"))))
        .collect();
    let layer: Vec<_> = (1..=rounds)
        .map(|r| layer_estimates(&dir.join(format!("layer-{r}.json"))))
        .collect();
    let (mut inside, mut overlapping, mut total) = (0, 0, 0);
    let mut ratios = Vec::new();
    println!(
        "| round | benchmark | criterion mean [95 %] | layer mean [95 %] | layer / criterion | \
         layer's mean in criterion's interval | intervals overlap |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (round, (crit, layer)) in crit.iter().zip(&layer).enumerate() {
        for (name, l) in layer {
            let Some(c) = crit.get(name) else {
                println!("| {} | {name} | (none) | {} | | | |", round + 1, ns(l.mean));
                continue;
            };
            total += 1;
            inside += usize::from(c.contains(l.mean));
            overlapping += usize::from(c.overlaps(l));
            ratios.push(l.mean / c.mean);
            println!(
                "| {} | {name} | {} [{}, {}] | {} [{}, {}] | {:.3} | {} | {} |",
                round + 1,
                ns(c.mean),
                ns(c.low),
                ns(c.high),
                ns(l.mean),
                ns(l.low),
                ns(l.high),
                l.mean / c.mean,
                if c.contains(l.mean) { "yes" } else { "no" },
                if c.overlaps(l) { "yes" } else { "no" },
            );
        }
    }
    ratios.sort_by(f64::total_cmp);
    let (ci, ct) = self_agreement(&crit);
    let (li, lt) = self_agreement(&layer);
    println!(
        "\nThe layer's mean inside criterion's interval: {inside} of {total}; the intervals \
         overlap: {overlapping} of {total}. layer / criterion: median {:.3}, from {:.3} to \
         {:.3}.\ncriterion's next round inside its previous round's interval: {ci} of {ct}; \
         the layer's: {li} of {lt}.",
        ratios.get(ratios.len() / 2).copied().unwrap_or(f64::NAN),
        ratios.first().copied().unwrap_or(f64::NAN),
        ratios.last().copied().unwrap_or(f64::NAN),
    );
    let count = layer.first().map_or(1, BTreeMap::len).max(1);
    println!("\n| tool | round | whole run | per benchmark |");
    println!("|---|---|---|---|");
    for line in times.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let ms: f64 = f[2].parse().unwrap();
        println!(
            "| {} | {} | {:.3} s | {:.4} s |",
            f[0],
            f[1],
            ms / 1e3,
            ms / 1e3 / count as f64
        );
    }
}
