//! Regenerates the bootstrap tables of docs/background.md: coverage of the percentile interval,
//! false signals of the plain and the block bootstrap on autocorrelated A/A series, and paired
//! against unpaired resampling under a disturbance common to both members of a pair.
//!
//! Run: `cargo run --release -p rtcompare-lab --example coverage` (about a minute on two cores). Every number
//! is deterministic: the trials use fixed seeds. `cargo run --release -p rtcompare-lab --example coverage --
//! 500` runs 500 trials per cell instead of 2,000.

use rtcompare::stats::{EstimateOptions, auto_block_length, estimate_difference};
use rtcompare::support::rng::{Rng, derive_seed};
use rtcompare::support::stats::tie_split_confidence;
use std::time::Instant;

/// Replicates per bootstrap (as in the reference's coverage table).
const RESAMPLES: usize = 1_000;

/// Medians of the two candidates' populations: the true δ is 1 − 100/125 = 0.2.
const MEDIAN_A: f64 = 100.0;
const MEDIAN_B: f64 = 125.0;

/// A noise model: a positive multiplicative factor with median exactly 1, so that a sample
/// of `median · factor` has population median `median` and the true δ is known.
#[derive(Clone, Copy)]
enum Noise {
    /// `1 + 0.05·Z`, Z standard normal.
    Normal,
    /// `exp(0.25·Z)`: right-skewed, like most timing distributions.
    Lognormal,
    /// `1 + 0.02·Z`, and in 10 % of draws additionally a one-sided slowdown by a factor
    /// uniform in [1.2, 2.0] (an interrupt, a page fault). The factor's median is then not
    /// exactly 1, but it is the same for A and B, so the ratio of the medians is still
    /// 100/125.
    Contaminated,
}

impl Noise {
    fn name(self) -> &'static str {
        match self {
            Noise::Normal => "normal",
            Noise::Lognormal => "lognormal",
            Noise::Contaminated => "one-sided contamination",
        }
    }

    fn factor(self, rng: &mut Rng) -> f64 {
        match self {
            Noise::Normal => 1.0 + 0.05 * rng.next_normal(),
            Noise::Lognormal => (0.25 * rng.next_normal()).exp(),
            Noise::Contaminated => {
                let base = 1.0 + 0.02 * rng.next_normal();
                let u = rng.next_f64();
                if u < 0.1 {
                    base * (1.2 + 0.8 * rng.next_f64())
                } else {
                    base
                }
            }
        }
    }
}

/// Tallies of interval outcomes over trials.
#[derive(Default)]
struct Tally {
    trials: usize,
    covered: usize,
    /// The whole interval above the truth.
    miss_low: usize,
    /// The whole interval below the truth.
    miss_high: usize,
    width_sum: f64,
}

impl Tally {
    fn add(&mut self, truth: f64, low: f64, high: f64) {
        self.trials += 1;
        if truth < low {
            self.miss_low += 1;
        } else if truth > high {
            self.miss_high += 1;
        } else {
            self.covered += 1;
        }
        self.width_sum += high - low;
    }

    fn pct(&self, k: usize) -> f64 {
        100.0 * k as f64 / self.trials as f64
    }

    fn mean_width(&self) -> f64 {
        self.width_sum / self.trials as f64
    }
}

fn main() -> Result<(), rtcompare::Error> {
    let trials: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000);
    let started = Instant::now();
    println!("# rtcompare bootstrap tables");
    println!("command: cargo run --release -p rtcompare-lab --example coverage");
    println!(
        "machine: {} logical cores, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model()
    );
    println!(
        "date: {}",
        rtcompare::env::Environment::capture()
            .start_time
            .unwrap_or_else(|| "unknown".into())
    );
    println!("trials per cell: {trials}; bootstrap replicates: {RESAMPLES}; level 0.95");
    println!();

    coverage_table(trials)?;
    false_signal_table(trials)?;
    paired_table(trials)?;

    println!("total time: {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Table 1: coverage of the unpaired 95 % percentile interval with a known true δ = 0.2.
fn coverage_table(trials: usize) -> Result<(), rtcompare::Error> {
    println!("## Coverage of the unpaired 95% percentile interval (true δ = 0.2)");
    println!();
    println!("| samples per side | normal | lognormal | one-sided contamination |");
    println!("|---|---|---|---|");
    let truth = 1.0 - MEDIAN_A / MEDIAN_B;
    let mut misses = Vec::new();
    for n in [11usize, 25, 51, 101] {
        let mut row = format!("| {n} |");
        for (k, noise) in [Noise::Normal, Noise::Lognormal, Noise::Contaminated]
            .into_iter()
            .enumerate()
        {
            let mut tally = Tally::default();
            let cell = 1000 * n as u64 + k as u64;
            for t in 0..trials as u64 {
                let mut data = Rng::new(derive_seed(cell, 2 * t + 1));
                let a: Vec<f64> = (0..n).map(|_| MEDIAN_A * noise.factor(&mut data)).collect();
                let b: Vec<f64> = (0..n).map(|_| MEDIAN_B * noise.factor(&mut data)).collect();
                let opts = EstimateOptions::default()
                    .resamples(RESAMPLES)
                    .seed(derive_seed(cell, 2 * t + 2));
                let est = estimate_difference(&a, &b, &opts)?;
                tally.add(truth, est.low, est.high);
            }
            row += &format!(" {:.1}% |", tally.pct(tally.covered));
            misses.push((n, noise.name(), tally));
        }
        println!("{row}");
    }
    println!();
    println!("Misses by side (interval above / below the truth) and mean width:");
    println!();
    println!("| samples per side | noise | above | below | mean width |");
    println!("|---|---|---|---|---|");
    for (n, name, t) in &misses {
        println!(
            "| {n} | {name} | {:.1}% | {:.1}% | {:.1} pp |",
            t.pct(t.miss_low),
            t.pct(t.miss_high),
            100.0 * t.mean_width()
        );
    }
    println!();
    Ok(())
}

/// A stationary Gaussian AR(1) series of length `n` with lag-1 correlation `rho`, as timings
/// around 100 with 2 % noise.
fn ar1(rng: &mut Rng, n: usize, rho: f64) -> Vec<f64> {
    let innovation = (1.0 - rho * rho).sqrt();
    let mut x = rng.next_normal();
    (0..n)
        .map(|_| {
            let v = 100.0 * (1.0 + 0.02 * x);
            x = rho * x + innovation * rng.next_normal();
            v
        })
        .collect()
}

/// Table 2: false signals of the plain and the block bootstrap on A/A series, unpaired (two
/// series resampled independently) and paired (the pairs `(a[i], b[i])` resampled together,
/// as the A/A validation of `compare()` does).
fn false_signal_table(trials: usize) -> Result<(), rtcompare::Error> {
    let n = 101;
    let block = auto_block_length(n);
    println!("## False signals on A/A AR(1) series ({n} values per series, blocks of {block})");
    println!();
    println!(
        "A false signal is a tie-split confidence P*(δ* > 0) + ½P*(δ* = 0) outside [0.05, 0.95] \
         for two independent series of the same process: nominally 10 %."
    );
    println!();
    println!("| lag-1 ρ | unpaired, plain | unpaired, blocks | paired, plain | paired, blocks |");
    println!("|---|---|---|---|---|");
    for (k, rho) in [0.0, 0.08, 0.2, 0.4, 0.6].into_iter().enumerate() {
        let mut signals = [0usize; 4];
        for t in 0..trials as u64 {
            let mut data = Rng::new(derive_seed(7_000 + k as u64, 2 * t + 1));
            let a = ar1(&mut data, n, rho);
            let b = ar1(&mut data, n, rho);
            let plain = EstimateOptions::default()
                .resamples(RESAMPLES)
                .seed(derive_seed(7_000 + k as u64, 2 * t + 2));
            let variants = [
                plain,
                plain.block_length(block),
                plain.paired(true),
                plain.paired(true).block_length(block),
            ];
            for (count, opts) in signals.iter_mut().zip(&variants) {
                let c = tie_split_confidence(&a, &b, opts)?.confidence;
                if !(0.05..=0.95).contains(&c) {
                    *count += 1;
                }
            }
        }
        let pct = |k: usize| 100.0 * k as f64 / trials as f64;
        println!(
            "| {rho:.2} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
            pct(signals[0]),
            pct(signals[1]),
            pct(signals[2]),
            pct(signals[3])
        );
    }
    println!();
    Ok(())
}

/// Table 3: paired against unpaired when a disturbance hits both members of a pair.
fn paired_table(trials: usize) -> Result<(), rtcompare::Error> {
    let n = 51;
    println!(
        "## Paired vs unpaired with a disturbance common to both members of a pair ({n} pairs)"
    );
    println!();
    println!(
        "Each pair shares a factor c; each member has its own 1 % lognormal noise. True δ = 0.2."
    );
    println!();
    println!(
        "| common disturbance c | unpaired coverage | unpaired width | paired coverage | paired width |"
    );
    println!("|---|---|---|---|---|");
    type Disturbance = fn(&mut Rng) -> f64;
    let cases: [(&str, Disturbance); 4] = [
        ("none (c = 1)", |_| 1.0),
        ("lognormal, σ = 0.05", |r| (0.05 * r.next_normal()).exp()),
        ("lognormal, σ = 0.20", |r| (0.20 * r.next_normal()).exp()),
        ("+0–100 % in 30 % of pairs", |r| {
            if r.next_f64() < 0.3 {
                1.0 + r.next_f64()
            } else {
                1.0
            }
        }),
    ];
    let truth = 1.0 - MEDIAN_A / MEDIAN_B;
    for (k, (name, common)) in cases.into_iter().enumerate() {
        let mut unpaired = Tally::default();
        let mut paired = Tally::default();
        for t in 0..trials as u64 {
            let mut data = Rng::new(derive_seed(9_000 + k as u64, 2 * t + 1));
            let mut a = Vec::with_capacity(n);
            let mut b = Vec::with_capacity(n);
            for _ in 0..n {
                let c = common(&mut data);
                a.push(MEDIAN_A * c * (0.01 * data.next_normal()).exp());
                b.push(MEDIAN_B * c * (0.01 * data.next_normal()).exp());
            }
            let opts = EstimateOptions::default()
                .resamples(RESAMPLES)
                .seed(derive_seed(9_000 + k as u64, 2 * t + 2));
            let u = estimate_difference(&a, &b, &opts)?;
            unpaired.add(truth, u.low, u.high);
            let p = estimate_difference(&a, &b, &opts.paired(true))?;
            paired.add(truth, p.low, p.high);
        }
        println!(
            "| {name} | {:.1}% | {:.2} pp | {:.1}% | {:.2} pp |",
            unpaired.pct(unpaired.covered),
            100.0 * unpaired.mean_width(),
            paired.pct(paired.covered),
            100.0 * paired.mean_width()
        );
    }
    println!();
    Ok(())
}

/// The CPU model from /proc/cpuinfo, or "unknown CPU".
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}
