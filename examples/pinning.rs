//! What pinning the measuring thread to one CPU does to the A/A noise floor and the interval.
//!
//! Alternates pinned and unpinned A/A comparisons of identical code, so both see the same
//! machine conditions, and reports the median floor and interval half-width of each.
//!
//! Run: `cargo run --release --example pinning [-- --runs N]`

use std::hint::black_box;

use rtcompare::{Candidate, CompareOptions, compare};

/// A candidate walking its own 256 KiB buffer (cache-sensitive, so migrations show).
fn walker(name: &str) -> Candidate<'static> {
    let buf: Vec<u64> = (0..32 * 1024).collect();
    Candidate::new(name, move |n| {
        for _ in 0..n {
            let mut s = 0u64;
            for x in buf.iter().step_by(8) {
                s = s.wrapping_add(*x);
            }
            black_box(s);
        }
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut runs = 10;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args.next().ok_or("--runs needs a number")?.parse()?;
        }
    }
    let cpu = *rtcompare::support::measure::current_affinity()
        .and_then(|a| a.last().copied().map(|c| vec![c]))
        .ok_or("cannot read this thread's CPU affinity")?
        .first()
        .ok_or("no CPU")?;
    println!("# pinning and the A/A floor");
    println!("command: cargo run --release --example pinning -- --runs {runs}");
    let env = rtcompare::env::Environment::capture();
    println!(
        "machine: {} logical cores, {}, hypervisor {:?}, load average at start {:?}",
        env.logical_cores.unwrap_or(0),
        env.cpu_model.as_deref().unwrap_or("unknown CPU"),
        env.hypervisor,
        env.load_average_start
    );
    let mut floors = [Vec::new(), Vec::new()];
    let mut widths = [Vec::new(), Vec::new()];
    for i in 0..2 * runs {
        let pinned = i % 2 == 1;
        let mut opts = CompareOptions::default();
        if pinned {
            opts = opts.pin_to_cpu(cpu);
        }
        let r = compare(walker("a"), walker("a again"), &opts)?;
        floors[pinned as usize].push(r.noise_floor);
        widths[pinned as usize].push(r.estimate.half_width());
        eprintln!(
            "{} floor {:.3}% half-width {:.3}%",
            if pinned { "pinned  " } else { "unpinned" },
            100.0 * r.noise_floor,
            100.0 * r.estimate.half_width()
        );
    }
    println!();
    println!("| | median A/A noise floor | median interval half-width | comparisons |");
    println!("|---|---|---|---|");
    for (label, k) in [("unpinned", 0), ("pinned to CPU {cpu}", 1)] {
        println!(
            "| {} | {:.3}% | {:.3}% | {runs} |",
            label.replace("{cpu}", &cpu.to_string()),
            100.0 * median(floors[k].clone()),
            100.0 * median(widths[k].clone())
        );
    }
    let ratio = median(floors[0].clone()) / median(floors[1].clone()).max(1e-12);
    println!();
    println!("unpinned floor / pinned floor = {ratio:.2}");
    Ok(())
}
