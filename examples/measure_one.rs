//! Measures one operation until its mean is known to the `normal` preset's precision (±5 % at
//! 95 %), and prints what the driver did.
//!
//! Run: `cargo run --release --example measure_one`

use rtcompare::Candidate;
use rtcompare::precision::{Precision, measure};
use rtcompare::support::selftest::workload;

fn main() -> Result<(), rtcompare::Error> {
    for (name, preset) in [
        ("quick", Precision::quick()),
        ("normal", Precision::normal()),
        ("strict", Precision::strict()),
    ] {
        let m = measure(
            Candidate::new("1,000 multiply-adds", workload(1_000)),
            &preset,
        )?;
        println!("{name}: {m}");
    }
    Ok(())
}
