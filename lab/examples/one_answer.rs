//! One question asked of two library front ends: is a candidate that does `1 + F` times the
//! work of the baseline slower, judged against a margin M? `pool::run` (its sequential
//! decision) and a cargo-test gate (`gate::check`, not slower than M) measure the same two
//! functions, a dependent chain of 20,000 steps against `20,000 · (1 + F)`, and each prints its
//! answer in the words every front end uses (+ = the candidate is slower).
//!
//! Run: `cargo run --release -p rtcompare-lab --example one_answer -- --extra 0.01 --margin 0.02` (the
//! defaults). `scripts/one_answer.sh` asks `rtcompare cmd` and the bench target the same
//! question; docs/background.md, "One rule in every front end", holds the table.

use std::hint::black_box;

use rtcompare::gate::{self, Expectation, GateOptions};
use rtcompare::pool::{self, PoolOptions};
use rtcompare::stats::Change;
use rtcompare::{Candidate, compare};

/// A dependent multiply chain: its time is proportional to `steps`.
fn chain(steps: u64) -> u64 {
    let mut x = 1u64;
    for i in 0..black_box(steps) {
        x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i));
    }
    x
}

fn main() -> Result<(), rtcompare::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str, default: f64| -> f64 {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (extra, margin) = (flag("--extra", 0.01), flag("--margin", 0.02));
    const BASE: u64 = 20_000;
    let slow = (BASE as f64 * (1.0 + extra)).round() as u64;

    // A pool's child processes run this program again and end inside `run_detailed`, so
    // nothing after it runs in them.
    let options = PoolOptions::default().margin(margin);
    let run = pool::run_detailed(&options, |ctx| {
        compare(
            Candidate::from_fn("candidate", move || chain(slow)),
            Candidate::from_fn("baseline", || chain(BASE)),
            ctx.options(),
        )
    })?;
    let p = &run.pooled;
    println!(
        "pool::run ({} processes): {}",
        p.processes,
        p.verdict
            .in_words_with(Change::of_delta(p.delta, p.low, p.high))
    );

    let passed = gate::check(
        move || chain(slow),
        || chain(BASE),
        Expectation::NotSlower { budget: margin },
        &GateOptions::default().name("one_answer"),
    );
    match passed {
        Ok(report) => {
            let g = report
                .context
                .gate
                .expect("a gate's report records the gate");
            println!("gate (passed): {}", g.explanation);
        }
        Err(failure) => println!("gate (failed): {failure}"),
    }
    Ok(())
}
