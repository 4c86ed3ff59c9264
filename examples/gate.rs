//! What a passing and a failing performance gate print.
//!
//! Run: `cargo run --release --example gate`

use std::hint::black_box;

use rtcompare::gate::{self, Expectation, GateOptions};

/// A parser whose cost grows with `passes`: the "regression" does three passes instead of one.
fn checksum(input: &[u8], passes: u32) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for _ in 0..passes {
        for &b in input {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn main() {
    let input: Vec<u8> = (0..2_000u32).map(|i| (i * 7 + 3) as u8).collect();
    let opts = GateOptions::default().name("checksum_not_slower");

    println!("== a passing gate: the same code against itself, budget 5% ==");
    match gate::check(
        || checksum(black_box(&input), 1),
        || checksum(black_box(&input), 1),
        Expectation::NotSlower { budget: 0.05 },
        &opts,
    ) {
        Ok(report) => println!("PASSED: {}", report.context.gate.unwrap().explanation),
        Err(f) => println!("{f}"),
    }

    println!();
    println!("== a failing gate: three passes instead of one, budget 5% ==");
    match gate::check(
        || checksum(black_box(&input), 3),
        || checksum(black_box(&input), 1),
        Expectation::NotSlower { budget: 0.05 },
        &opts.clone().name("checksum_regression"),
    ) {
        Ok(report) => println!("PASSED: {}", report.context.gate.unwrap().explanation),
        Err(f) => println!("{f}"),
    }
}
