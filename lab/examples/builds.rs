//! Two builds of one bench target compared benchmark by benchmark through workers
//! (`rtcompare::bench::compare_builds`), with the wall time of each benchmark.
//!
//! `cargo run --release -p rtcompare-lab --example builds -- BASE_EXE HEAD_EXE [--pairs K] [--repeat N]`, where
//! the executables are bench targets built on `rtcompare::bench::main` (for an A/A, the same
//! binary twice: `cargo bench --bench harness --no-run` prints its path).

use std::path::PathBuf;
use std::time::Instant;

use rtcompare::support::bench::{BuildStatus, BuildsOptions, compare_builds};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut paths = Vec::new();
    let mut pairs = 5usize;
    let mut repeat = 1usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--pairs" => pairs = args.next().ok_or("--pairs needs a number")?.parse()?,
            "--repeat" => repeat = args.next().ok_or("--repeat needs a number")?.parse()?,
            other => paths.push(PathBuf::from(other)),
        }
    }
    let [base, head] = paths.as_slice() else {
        return Err("give two bench executables: BASE_EXE HEAD_EXE".into());
    };
    for r in 0..repeat {
        let started = Instant::now();
        let run = compare_builds(
            base,
            head,
            &BuildsOptions::default().pairs(pairs).decide(false),
        )?;
        let total = started.elapsed().as_secs_f64();
        for b in &run.benchmarks {
            match (&b.status, &b.pooled) {
                (BuildStatus::Compared, Some(p)) => println!(
                    "run {r} {:<24} δ {:+.2} % [{:+.2}, {:+.2}] {} ({} pairs)",
                    b.name,
                    100.0 * p.delta,
                    100.0 * p.low,
                    100.0 * p.high,
                    if p.resolved {
                        "RESOLVED"
                    } else {
                        "cannot tell"
                    },
                    p.processes
                ),
                (status, _) => println!("run {r} {:<24} {status:?}", b.name),
            }
        }
        let compared = run
            .benchmarks
            .iter()
            .filter(|b| b.status == BuildStatus::Compared)
            .count();
        println!(
            "run {r}: {compared} benchmarks in {total:.1} s ({:.1} s each)",
            total / compared.max(1) as f64
        );
    }
    Ok(())
}
