//! How often does each warning fire, on healthy comparisons and on comparisons built to deserve
//! it? A warning that fires on most healthy runs teaches people to ignore all of them; one that
//! stays silent when the run is broken is worse.
//!
//! Healthy runs use the real clock at the crate's defaults: identical code (A/A, the built-in
//! 2.7 µs dependent multiply chain on both sides, and again a 2.2 µs chain, whose calibrated
//! batch puts one clock step nearest the 0.1 % bound and so tests the quantization warning
//! hardest) and a real 5 % extra cost on B. All of them run side by side in this one process,
//! as a user's suite of comparisons does. Constructed runs use a simulated clock, so what is
//! wrong with them is known exactly:
//!
//! - `ratio step`: B becomes 5 % slower halfway through the measurement (deserves `drift_ratio`);
//! - `ratio trend`: B's cost rises steadily by 5 % across the measurement (`drift_ratio`);
//! - `AR(1) ρ=0.6`: each side's noise is autocorrelated (`high_autocorrelation`);
//! - `coarse tick, 5 %`: batches of one operation on a 60 ns clock (one step is 2.2 % of a
//!   batch, the gate 3.3 %), so the 5 % difference, read as 4.3 %, sits within one clock step
//!   of the quantization gate (`quantization_near_difference`);
//! - `coarse tick, ties`: batches of one operation on a 1 µs clock (`high_tie_rate`);
//! - `periodic interference`: every 8th batch of the process pays 5 % more, in step with the
//!   validation's rounds of four batches, so the harness favours one position
//!   (`unreliable_validation`);
//! - `switch penalty`: a batch that follows the other candidate pays 3 % more (informational:
//!   the ABBA orders balance it, so nothing is wrong with the verdict);
//! - `machine step`: both sides become 20 % slower halfway through (informational: the paired
//!   ratio is unaffected, so the verdict is too).
//!
//! Run: `cargo run --release -p rtcompare-lab --example warning_rates` (about 4 minutes), or
//! `cargo run --release -p rtcompare-lab --example warning_rates -- --real 50 --sim 50`; `--sim 0` runs the
//! healthy rows alone. Every healthy comparison that warned is listed on stderr with its
//! estimate, clock step and floor, and every report is written to
//! `target/rtcompare/warning_rates.json` for re-analysis.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rtcompare::env::{Environment, load_average};
use rtcompare::measure::{Progress, Stage};
use rtcompare::support::compare::compare_with_clock;
use rtcompare::support::measure::SimulatedClock;
use rtcompare::support::rng::Rng;
use rtcompare::support::selftest::workload;
use rtcompare::{Candidate, CompareOptions, Report, compare};

/// Work units of the built-in workload: about 2.7 µs per operation on this machine.
const UNITS: u64 = 2_700;
/// Work units of the shorter chain: about 2.2 µs per operation, the length whose A/A
/// comparisons warned about quantization before the rule asked what one step can change.
const SHORT_UNITS: u64 = 2_200;

/// Where the measurement is, as a fraction of its pairs in millionths; `u64::MAX` outside it.
type Phase = Arc<AtomicU64>;

fn phase_tracker() -> (Phase, impl Fn(Progress) + Send + Sync + 'static) {
    let phase: Phase = Arc::new(AtomicU64::new(u64::MAX));
    let p = phase.clone();
    let cb = move |pr: Progress| {
        let v = if pr.stage == Stage::Measuring && pr.total > 0 {
            (pr.done as u64 * 1_000_000) / pr.total as u64
        } else {
            u64::MAX
        };
        p.store(v, Ordering::Relaxed);
    };
    (phase, cb)
}

/// How a simulated side behaves.
#[derive(Clone, Copy)]
struct Sim {
    /// Cost per operation, ns.
    ns: f64,
    /// Relative noise (standard deviation of the multiplicative error).
    noise: f64,
    /// AR(1) coefficient of the noise.
    rho: f64,
    /// Extra relative cost after the measurement's midpoint.
    step: f64,
    /// Extra relative cost growing linearly across the measurement.
    trend: f64,
    /// Extra relative cost of a batch that follows the other candidate's batch.
    switch_penalty: f64,
    /// Extra relative cost of every 8th batch of the whole process (either candidate): a
    /// periodic interference in step with the validation's rounds of four batches.
    periodic: f64,
}

impl Sim {
    fn plain(ns: f64) -> Sim {
        Sim {
            ns,
            noise: 0.01,
            rho: 0.0,
            step: 0.0,
            trend: 0.0,
            switch_penalty: 0.0,
            periodic: 0.0,
        }
    }
}

/// State both simulated candidates see: who ran last, and how many batches ran.
#[derive(Clone, Default)]
struct Shared {
    last: Arc<AtomicU64>,
    batches: Arc<AtomicU64>,
}

fn sim_candidate<'a>(
    name: &'a str,
    id: u64,
    s: Sim,
    clock: &SimulatedClock,
    phase: &Phase,
    shared: &Shared,
    seed: u64,
) -> Candidate<'a> {
    let (clock, phase, shared) = (clock.clone(), phase.clone(), shared.clone());
    let mut rng = Rng::new(seed);
    let mut e = 0.0f64;
    Candidate::new(name, move |n| {
        e = s.rho * e + (1.0 - s.rho * s.rho).sqrt() * rng.next_normal();
        let p = phase.load(Ordering::Relaxed);
        let mut factor = 1.0 + s.noise * e;
        if p != u64::MAX {
            let frac = p as f64 / 1e6;
            if frac >= 0.5 {
                factor += s.step;
            }
            factor += s.trend * frac;
        }
        if shared.last.swap(id, Ordering::Relaxed) != id {
            factor += s.switch_penalty;
        }
        if shared.batches.fetch_add(1, Ordering::Relaxed) % 8 == 0 {
            factor += s.periodic;
        }
        clock.advance((s.ns * n as f64 * factor).max(1.0) as u64);
    })
}

fn simulated(a: Sim, b: Sim, tick: u64, inner_loops: u64, seed: u64) -> rtcompare::Result<Report> {
    let clock = SimulatedClock::new(tick);
    let (phase, cb) = phase_tracker();
    let shared = Shared::default();
    let ca = sim_candidate("a", 1, a, &clock, &phase, &shared, seed * 2 + 1);
    let cb_ = sim_candidate("b", 2, b, &clock, &phase, &shared, seed * 2 + 2);
    let opts = CompareOptions::default()
        .seed(seed)
        .inner_loops(inner_loops)
        .progress(cb);
    compare_with_clock(ca, cb_, &opts, &clock)
}

fn real(units: u64, extra: f64, seed: u64) -> rtcompare::Result<Report> {
    let a = Candidate::new("a", workload(units));
    let b = Candidate::new("b", workload((units as f64 * (1.0 + extra)).round() as u64));
    compare(a, b, &CompareOptions::default().seed(seed))
}

struct Row {
    name: &'static str,
    deserves: &'static [&'static str],
    reports: Vec<Report>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut real_runs, mut sim_runs) = (50usize, 50usize);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v: usize = args.next().ok_or("a flag needs a number")?.parse()?;
        match a.as_str() {
            "--real" => real_runs = v,
            "--sim" => sim_runs = v,
            other => return Err(format!("unknown flag {other}; use --real N --sim N").into()),
        }
    }
    let env = Environment::capture();
    let load_start = load_average();
    let started = Instant::now();
    let mut rows: Vec<Row> = Vec::new();

    let base = Sim::plain(2_700.0);
    let slower = Sim::plain(2_835.0);
    type Maker = Box<dyn Fn(u64) -> rtcompare::Result<Report>>;
    let mut scenarios: Vec<(&'static str, &'static [&'static str], usize, Maker)> = vec![
        (
            "healthy A/A (real clock)",
            &[],
            real_runs,
            Box::new(|s| real(UNITS, 0.0, s)),
        ),
        (
            "healthy A/A, 2.2 µs chain (real clock)",
            &[],
            real_runs,
            Box::new(|s| real(SHORT_UNITS, 0.0, s)),
        ),
        (
            "healthy +5 % (real clock)",
            &[],
            real_runs,
            Box::new(|s| real(UNITS, 0.05, s)),
        ),
    ];
    scenarios.push((
        "simulated A/A, 1 % noise",
        &[],
        sim_runs,
        Box::new(move |s| simulated(base, base, 1, 0, s)),
    ));
    scenarios.push((
        "ratio step +5 %",
        &["drift_ratio"],
        sim_runs,
        Box::new(move |s| simulated(base, Sim { step: 0.05, ..base }, 1, 0, s)),
    ));
    scenarios.push((
        "ratio trend +5 %",
        &["drift_ratio"],
        sim_runs,
        Box::new(move |s| {
            simulated(
                base,
                Sim {
                    trend: 0.05,
                    ..base
                },
                1,
                0,
                s,
            )
        }),
    ));
    scenarios.push((
        "AR(1) ρ=0.6",
        &["high_autocorrelation"],
        sim_runs,
        Box::new(move |s| {
            simulated(
                Sim { rho: 0.6, ..base },
                Sim { rho: 0.6, ..slower },
                1,
                0,
                s,
            )
        }),
    ));
    scenarios.push((
        "coarse tick (60 ns), 5 %",
        &["quantization_near_difference"],
        sim_runs,
        Box::new(move |s| {
            simulated(
                Sim { noise: 0.0, ..base },
                Sim {
                    noise: 0.0,
                    ..slower
                },
                60,
                1,
                s,
            )
        }),
    ));
    scenarios.push((
        "coarse tick (1 µs), ties",
        &["high_tie_rate"],
        sim_runs,
        Box::new(move |s| simulated(base, base, 1_000, 1, s)),
    ));
    scenarios.push((
        "periodic interference",
        &["unreliable_validation"],
        sim_runs,
        Box::new(move |s| {
            let p = Sim {
                periodic: 0.05,
                ..base
            };
            simulated(p, p, 1, 0, s)
        }),
    ));
    scenarios.push((
        "switch penalty 3 %",
        &[],
        sim_runs,
        Box::new(move |s| {
            let p = Sim {
                switch_penalty: 0.03,
                ..base
            };
            simulated(p, p, 1, 0, s)
        }),
    ));
    scenarios.push((
        "machine step +20 % (both)",
        &[],
        sim_runs,
        Box::new(move |s| {
            simulated(
                Sim { step: 0.2, ..base },
                Sim { step: 0.2, ..base },
                1,
                0,
                s,
            )
        }),
    ));

    for (name, deserves, runs, make) in &scenarios {
        if *runs == 0 {
            continue;
        }
        eprint!("{name}: ");
        let mut reports = Vec::with_capacity(*runs);
        for i in 0..*runs {
            reports.push(make(1_000 + i as u64)?);
            if i % 10 == 9 {
                eprint!("{} ", i + 1);
            }
        }
        eprintln!();
        rows.push(Row {
            name,
            deserves,
            reports,
        });
    }
    let load_end = load_average();

    // The healthy rows' warnings, one line each, so a rule can be checked against the case
    // that tripped it without re-reading the JSON.
    let healthy = rows.iter().filter(|r| r.name.starts_with("healthy"));
    let (mut healthy_runs, mut healthy_warned, mut healthy_rule) = (0usize, 0usize, 0usize);
    for row in healthy {
        healthy_runs += row.reports.len();
        for (k, r) in row.reports.iter().enumerate() {
            if r.warnings.is_empty() {
                continue;
            }
            healthy_warned += 1;
            // `busy_machine` reports the machine, not a rule misjudging a healthy run.
            if r.warnings.iter().any(|w| w.code() != "busy_machine") {
                healthy_rule += 1;
            }
            let codes: Vec<&str> = r.warnings.iter().map(|w| w.code()).collect();
            eprintln!(
                "{} #{k}: δ {:+.4} % [{:+.4}, {:+.4}], step {:.4} %, floor {:.4} %, {} ops a \
                 batch: {}",
                row.name,
                100.0 * r.estimate.delta,
                100.0 * r.estimate.low,
                100.0 * r.estimate.high,
                100.0 * r.timing.quantization,
                100.0 * r.noise_floor,
                r.timing.inner_loops,
                codes.join(", ")
            );
        }
    }

    let mut codes: Vec<&'static str> = Vec::new();
    for r in rows.iter().flat_map(|r| &r.reports) {
        for w in &r.warnings {
            if !codes.contains(&w.code()) {
                codes.push(w.code());
            }
        }
    }
    for row in &rows {
        for d in row.deserves {
            if !codes.contains(d) {
                codes.push(d);
            }
        }
    }
    println!(
        "Machine: {} ({} logical cores), {}; {}.",
        env.cpu_model.as_deref().unwrap_or("unknown CPU"),
        env.logical_cores.unwrap_or(0),
        env.os,
        env.start_time.as_deref().unwrap_or("unknown date"),
    );
    println!(
        "Load average (1 min) at start {:.2}, at end {:.2}; {:.0} s in all.\n",
        load_start.map_or(f64::NAN, |l| l[0]),
        load_end.map_or(f64::NAN, |l| l[0]),
        started.elapsed().as_secs_f64()
    );
    print!("| scenario | runs | no warning | resolved | deserved fired |");
    for c in &codes {
        print!(" `{c}` |");
    }
    println!();
    print!("|---|---|---|---|---|");
    for _ in &codes {
        print!("---|");
    }
    println!();
    for row in &rows {
        let n = row.reports.len();
        let clean = row.reports.iter().filter(|r| r.warnings.is_empty()).count();
        let resolved = row.reports.iter().filter(|r| r.resolved).count();
        let deserved = if row.deserves.is_empty() {
            "–".to_string()
        } else {
            let hit = row
                .reports
                .iter()
                .filter(|r| row.deserves.iter().all(|d| r.has_warning(d)))
                .count();
            format!("{hit}/{n}")
        };
        print!(
            "| {} | {n} | {clean}/{n} | {resolved}/{n} | {deserved} |",
            row.name
        );
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for r in &row.reports {
            for w in &r.warnings {
                *counts.entry(w.code()).or_default() += 1;
            }
        }
        for c in &codes {
            match counts.get(c) {
                Some(k) => print!(" {k} |"),
                None => print!(" · |"),
            }
        }
        println!();
    }

    if healthy_runs > 0 {
        println!(
            "\nHealthy comparisons that warned: {healthy_warned} of {healthy_runs} ({:.1} %); \
             of something other than a busy machine: {healthy_rule} ({:.1} %).",
            100.0 * healthy_warned as f64 / healthy_runs as f64,
            100.0 * healthy_rule as f64 / healthy_runs as f64
        );
    }

    let dir = std::path::Path::new("target/rtcompare");
    std::fs::create_dir_all(dir)?;
    let all: BTreeMap<&str, &Vec<Report>> = rows.iter().map(|r| (r.name, &r.reports)).collect();
    std::fs::write(dir.join("warning_rates.json"), serde_json::to_string(&all)?)?;
    eprintln!("reports: {}", dir.join("warning_rates.json").display());
    Ok(())
}
