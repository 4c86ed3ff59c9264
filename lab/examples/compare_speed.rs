//! How long one compare() takes at defaults (40 A/A runs per candidate) and with validation
//! skipped, for candidates of a few microseconds.
//!
//! Run: `cargo run --release -p rtcompare-lab --example compare_speed`

use std::time::Instant;

use rtcompare::{Candidate, CompareOptions, compare};

use rtcompare::support::selftest::workload as work;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), rtcompare::Error> {
    println!("# compare() wall time");
    println!("command: cargo run --release -p rtcompare-lab --example compare_speed");
    println!(
        "machine: {} logical cores, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        rtcompare::env::Environment::capture()
            .cpu_model
            .unwrap_or_else(|| "unknown CPU".into())
    );
    println!();
    println!("| candidates | options | runs | median wall time | range | resolved |");
    println!("|---|---|---|---|---|---|");
    for (units_a, units_b) in [(2_000u64, 2_200u64), (5_000, 5_000)] {
        for (label, opts) in [
            ("defaults", CompareOptions::default()),
            (
                "skip_validation",
                CompareOptions::default().skip_validation(true),
            ),
        ] {
            let mut times = Vec::new();
            let mut resolved = 0;
            let mut ns = 0.0;
            for _ in 0..5 {
                let a = Candidate::new("a", work(units_a));
                let b = Candidate::new("b", work(units_b));
                let t = Instant::now();
                let r = compare(a, b, &opts)?;
                times.push(t.elapsed().as_secs_f64());
                resolved += r.resolved as usize;
                ns = r.ns_per_op_a;
            }
            let lo = times.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = times.iter().copied().fold(0.0, f64::max);
            println!(
                "| {:.1} µs vs {:.1} µs | {label} | 5 | {:.2} s | {lo:.2}-{hi:.2} s | {resolved}/5 |",
                ns / 1e3,
                ns / 1e3 * units_b as f64 / units_a as f64,
                median(times)
            );
        }
    }
    Ok(())
}
