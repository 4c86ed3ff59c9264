//! Regenerates the Pilot tables of docs/background.md: the change-point detector's false-change and
//! power rates, the batch means' autocorrelation by batch size, interval coverage under
//! autocorrelation (naive and batch means at each preset's limit), the required-size table,
//! and sessions of `measure` under each preset on a simulated clock.
//!
//! Run: `cargo run --release -p rtcompare-lab --example pilot_tables` (a few minutes on two cores);
//! `cargo run --release -p rtcompare-lab --example pilot_tables -- 200` uses 200 samples per cell instead of
//! 1,000. Every number is deterministic: each cell draws from its own fixed seed.

use std::cell::RefCell;
use std::time::Instant;

use rtcompare::Candidate;
use rtcompare::env::Environment;
use rtcompare::precision::{Precision, StopReason};
use rtcompare::stats::required_batches;
use rtcompare::stats::{BatchMeansOptions, batch_means, change_points};
use rtcompare::support::measure::SimulatedClock;
use rtcompare::support::measure::measure_with_clock;
use rtcompare::support::rng::{Rng, derive_seed};
use rtcompare::support::stats::{
    ar1_batch_mean_autocorrelation, ar1_gamma_limit, batch_autocorrelation, batch_means_at,
    iid_interval_coverage,
};

const SEED: u64 = 20_260_927;

#[derive(Clone, Copy)]
enum Noise {
    Normal,
    Exponential,
    LogNormal,
    Cauchy,
    FiveValues,
    Bernoulli(f64),
    Sine,
    Ar(f64),
}

impl Noise {
    fn name(self) -> String {
        match self {
            Noise::Normal => "normal".into(),
            Noise::Exponential => "exponential".into(),
            Noise::LogNormal => "lognormal σ = 1".into(),
            Noise::Cauchy => "Cauchy".into(),
            Noise::FiveValues => "five values".into(),
            Noise::Bernoulli(p) => format!("0/1 at {:.0} %", p * 100.0),
            Noise::Sine => "normal + sine of period 40".into(),
            Noise::Ar(r) => format!("AR(1) ρ = {r}"),
        }
    }

    /// The standard deviation that warm-up shifts are scaled by.
    fn sigma(self) -> f64 {
        match self {
            Noise::LogNormal => ((1f64.exp() - 1.0) * 1f64.exp()).sqrt(),
            _ => 1.0,
        }
    }

    fn draw(self, n: usize, rng: &mut Rng) -> Vec<f64> {
        match self {
            Noise::Normal => (0..n).map(|_| rng.next_normal()).collect(),
            Noise::Exponential => (0..n).map(|_| -(1.0 - rng.next_f64()).ln()).collect(),
            Noise::LogNormal => (0..n).map(|_| rng.next_normal().exp()).collect(),
            Noise::Cauchy => (0..n)
                .map(|_| {
                    let d = rng.next_normal();
                    rng.next_normal() / if d == 0.0 { f64::MIN_POSITIVE } else { d }
                })
                .collect(),
            Noise::FiveValues => (0..n).map(|_| (rng.next_u64() % 5) as f64).collect(),
            Noise::Bernoulli(p) => (0..n)
                .map(|_| if rng.next_f64() < p { 1.0 } else { 0.0 })
                .collect(),
            Noise::Sine => (0..n)
                .map(|i| rng.next_normal() + (std::f64::consts::TAU * i as f64 / 40.0).sin())
                .collect(),
            Noise::Ar(rho) => ar1(rho, n, rng),
        }
    }
}

fn ar1(rho: f64, n: usize, rng: &mut Rng) -> Vec<f64> {
    let s = (1.0 - rho * rho).sqrt();
    let mut x = rng.next_normal();
    for _ in 0..500 {
        x = rho * x + s * rng.next_normal();
    }
    (0..n)
        .map(|_| {
            x = rho * x + s * rng.next_normal();
            x
        })
        .collect()
}

fn pct(count: usize, of: usize) -> String {
    format!("{:.1} %", 100.0 * count as f64 / of as f64)
}

fn main() {
    let samples: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000);
    let env = Environment::capture();
    let started = Instant::now();
    println!("# rtcompare: Pilot's analyses, simulated");
    println!("command: cargo run --release -p rtcompare-lab --example pilot_tables");
    println!(
        "machine: {} ({} logical cores, {} {})",
        env.cpu_model.as_deref().unwrap_or("unknown CPU"),
        env.logical_cores.unwrap_or(0),
        env.os,
        env.arch
    );
    println!(
        "date: {}",
        env.start_time.as_deref().unwrap_or("unknown (no clock)")
    );
    println!("samples per cell: {samples} (base seed {SEED})");
    println!();
    null_table(samples);
    power_table(samples, 500, 50);
    power_table((samples / 4).max(50), 2000, 200);
    bernoulli_power(samples);
    batch_ac_table();
    coverage_table(samples);
    required_table();
    session_table((samples / 5).max(50));
    println!("total time: {:.1} s", started.elapsed().as_secs_f64());
}

fn null_table(samples: usize) {
    println!("## No change: share of series in which any change point is reported");
    println!();
    println!("| readings | n = 100 | 300 | 1000 | 3000 |");
    println!("|---|---|---|---|---|");
    let noises = [
        Noise::Normal,
        Noise::Exponential,
        Noise::LogNormal,
        Noise::Cauchy,
        Noise::FiveValues,
        Noise::Bernoulli(0.5),
        Noise::Bernoulli(0.95),
        Noise::Sine,
        Noise::Ar(0.5),
        Noise::Ar(0.8),
        Noise::Ar(0.9),
    ];
    for (i, noise) in noises.into_iter().enumerate() {
        let mut row = format!("| {} |", noise.name());
        for (j, n) in [100usize, 300, 1000, 3000].into_iter().enumerate() {
            // n = 3000 costs most; a quarter of the samples keeps the run short.
            let s = if n == 3000 {
                (samples / 4).max(50)
            } else {
                samples
            };
            let mut rng = Rng::new(derive_seed(SEED, (i * 10 + j) as u64));
            let flagged = (0..s)
                .filter(|_| !change_points(&noise.draw(n, &mut rng)).unwrap().is_empty())
                .count();
            row += &format!(" {} |", pct(flagged, s));
        }
        println!("{row}");
    }
    println!();
    println!(
        "(n = 3000 uses {} series per cell; the others {samples}.)",
        (samples / 4).max(50)
    );
    println!();
}

fn power_table(samples: usize, n: usize, warm: usize) {
    println!(
        "## Power: a warm-up of {warm} of {n} readings, slower by k σ, found within ±20 \
         readings ({samples} series per cell)"
    );
    println!();
    println!("| noise | 0.5 σ | 1 σ | 2 σ | 4 σ |");
    println!("|---|---|---|---|---|");
    let noises = [
        Noise::Normal,
        Noise::Exponential,
        Noise::LogNormal,
        Noise::Ar(0.5),
        Noise::Ar(0.8),
    ];
    for (i, noise) in noises.into_iter().enumerate() {
        let mut row = format!("| {} |", noise.name());
        for (j, k) in [0.5, 1.0, 2.0, 4.0].into_iter().enumerate() {
            let mut rng = Rng::new(derive_seed(SEED, (1000 + n + i * 10 + j) as u64));
            let found = (0..samples)
                .filter(|_| {
                    let mut xs = noise.draw(n, &mut rng);
                    for x in &mut xs[..warm] {
                        *x += k * noise.sigma();
                    }
                    change_points(&xs)
                        .unwrap()
                        .iter()
                        .any(|&c| c.abs_diff(warm) <= 20)
                })
                .count();
            row += &format!(" {} |", pct(found, samples));
        }
        println!("{row}");
    }
    println!();
}

fn bernoulli_power(samples: usize) {
    println!("## 0/1 readings whose success rate changes, found within ±20 readings");
    println!();
    println!("| change | after | of readings | found |");
    println!("|---|---|---|---|");
    for (i, (p0, p1, at, n)) in [
        (0.50, 0.95, 300usize, 1000usize),
        (0.80, 0.95, 100, 500),
        (0.85, 0.95, 200, 1000),
        (0.90, 0.99, 300, 1000),
    ]
    .into_iter()
    .enumerate()
    {
        let mut rng = Rng::new(derive_seed(SEED, 3000 + i as u64));
        let found = (0..samples)
            .filter(|_| {
                let xs: Vec<f64> = (0..n)
                    .map(|j| {
                        let p = if j < at { p0 } else { p1 };
                        if rng.next_f64() < p { 1.0 } else { 0.0 }
                    })
                    .collect();
                change_points(&xs)
                    .unwrap()
                    .iter()
                    .any(|&c| c.abs_diff(at) <= 20)
            })
            .count();
        println!(
            "| {p0:.2} → {p1:.2} | {at} | {n} | {} |",
            pct(found, samples)
        );
    }
    println!();
}

fn batch_ac_table() {
    println!(
        "## Lag-1 autocorrelation of batch means of an AR(1) series, ρ = 0.8 (one series of 2²⁰)"
    );
    println!();
    println!("| q | theory | simulated |");
    println!("|---|---|---|");
    let mut rng = Rng::new(derive_seed(SEED, 4000));
    let xs = ar1(0.8, 1 << 20, &mut rng);
    for q in [1usize, 2, 4, 8, 16, 32, 64] {
        println!(
            "| {q} | {:.4} | {:.4} |",
            ar1_batch_mean_autocorrelation(0.8, q).unwrap(),
            batch_autocorrelation(&xs, q).unwrap()
        );
    }
    println!();
}

fn coverage_table(samples: usize) {
    println!(
        "## Coverage of nominal 95 % intervals for the mean of n = 1000 AR(1) readings \
         ({samples} series per row)"
    );
    println!();
    println!(
        "| ρ | theory, iid formula | iid t interval | batch means, limit 0.8 | 0.2 | 0.1 | mean q at 0.1 |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (i, rho) in [0.0, 0.5, 0.8, 0.9].into_iter().enumerate() {
        let mut rng = Rng::new(derive_seed(SEED, 5000 + i as u64));
        let mut naive = 0;
        let mut hit = [0usize; 3];
        let mut tried = [0usize; 3];
        let mut q_sum = 0usize;
        for _ in 0..samples {
            let xs = ar1(rho, 1000, &mut rng);
            let b = batch_means_at(&xs, 1, 0.95).unwrap();
            naive += usize::from(b.low <= 0.0 && 0.0 <= b.high);
            for (k, limit) in [0.8, 0.2, 0.1].into_iter().enumerate() {
                if let Ok(b) = batch_means(&xs, &BatchMeansOptions::default().ac_limit(limit)) {
                    tried[k] += 1;
                    hit[k] += usize::from(b.low <= 0.0 && 0.0 <= b.high);
                    if k == 2 {
                        q_sum += b.q;
                    }
                }
            }
        }
        let theory = if rho == 0.0 {
            0.95
        } else {
            iid_interval_coverage(ar1_gamma_limit(rho).unwrap(), 0.95).unwrap()
        };
        let cell = |k: usize| {
            if tried[k] == samples {
                pct(hit[k], tried[k])
            } else {
                format!("{} ({} with a q)", pct(hit[k], tried[k].max(1)), tried[k])
            }
        };
        println!(
            "| {rho} | {:.3} | {} | {} | {} | {} | {:.1} |",
            theory,
            pct(naive, samples),
            cell(0),
            cell(1),
            cell(2),
            q_sum as f64 / tried[2].max(1) as f64
        );
    }
    println!();
}

fn required_table() {
    println!("## Batch means required at 95 % (smallest h with h ≥ (t*(h−1)·c_v/p)²)");
    println!();
    println!("| c_v | ±1 % | ±2 % | ±5 % | ±10 % |");
    println!("|---|---|---|---|---|");
    for cv in [0.01, 0.02, 0.05, 0.10, 0.25, 0.50] {
        let cells: Vec<String> = [0.01, 0.02, 0.05, 0.10]
            .iter()
            .map(|&p| required_batches(cv, p, 0.95).unwrap().to_string())
            .collect();
        println!("| {:.0} % | {} |", cv * 100.0, cells.join(" | "));
    }
    println!();
}

fn session_table(sessions: usize) {
    println!(
        "## `measure` sessions on a simulated clock ({sessions} per row): readings of \
         1000 ns with c_v 15 %, true mean 1000 ns"
    );
    println!();
    println!(
        "| noise | preset | target met | coverage of the true mean | median readings | median q | warm-up dropped |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (i, (label, rho, warm)) in [
        ("iid normal", 0.0, 0usize),
        ("AR(1) ρ = 0.5", 0.5, 0),
        ("AR(1) ρ = 0.8", 0.8, 0),
        ("iid, 100 readings +50 %", 0.0, 100),
    ]
    .into_iter()
    .enumerate()
    {
        for (j, (name, preset)) in [
            ("quick", Precision::quick()),
            ("normal", Precision::normal()),
            ("strict", Precision::strict()),
        ]
        .into_iter()
        .enumerate()
        {
            let mut met = 0;
            let mut covered = 0;
            let mut readings = Vec::new();
            let mut qs = Vec::new();
            let mut dropped = Vec::new();
            for s in 0..sessions {
                let clock = SimulatedClock::new(1);
                let c = clock.clone();
                let rng = RefCell::new(Rng::new(derive_seed(
                    SEED,
                    (6000 + i * 100 + j * 10) as u64 * 100_000 + s as u64,
                )));
                let state = RefCell::new((0.0f64, 0usize));
                let cand = Candidate::new("sim", move |n| {
                    let e = rng.borrow_mut().next_normal();
                    let mut st = state.borrow_mut();
                    st.0 = rho * st.0 + (1.0 - rho * rho).sqrt() * e;
                    let base = if st.1 < warm { 1500.0 } else { 1000.0 };
                    st.1 += 1;
                    c.advance(((base + 150.0 * st.0) * n as f64) as u64);
                });
                let m = measure_with_clock(cand, &preset.clone().inner_loops(1), &clock).unwrap();
                met += usize::from(m.stop == StopReason::TargetMet);
                if let Some(e) = &m.estimate {
                    covered += usize::from(e.low <= 1000.0 && 1000.0 <= e.high);
                    qs.push(e.q);
                }
                readings.push(m.readings.len());
                dropped.push(m.discarded);
            }
            readings.sort_unstable();
            qs.sort_unstable();
            dropped.sort_unstable();
            println!(
                "| {label} | {name} | {} | {} | {} | {} | {} |",
                pct(met, sessions),
                pct(covered, sessions),
                readings[sessions / 2],
                qs.get(qs.len() / 2).copied().unwrap_or(0),
                dropped[sessions / 2]
            );
        }
    }
    println!();
}
