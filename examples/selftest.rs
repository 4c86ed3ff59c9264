//! Does this machine deserve trust? Runs the crate's protocol on identical code (must give no
//! verdict) and on a 5 % injected regression (must be detected at least 95 % of the time), and
//! reports 1 % and 2 % as information.
//!
//! Run: `cargo run --release --example selftest` (about a minute), or with more runs:
//! `cargo run --release --example selftest -- --runs 60 --info-runs 20 [--pin CPU]`

use rtcompare::CompareOptions;
use rtcompare::support::selftest::{SelfTestOptions, expected_duration, selftest};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut opts = SelfTestOptions::default();
    let mut compare = CompareOptions::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> Result<usize, Box<dyn std::error::Error>> {
            Ok(args
                .next()
                .ok_or_else(|| format!("{name} needs a number"))?
                .parse()?)
        };
        match a.as_str() {
            "--runs" => opts = opts.runs(value("--runs")?),
            "--info-runs" => opts = opts.info_runs(value("--info-runs")?),
            "--pin" => compare = compare.pin_to_cpu(value("--pin")?),
            other => {
                return Err(format!(
                    "unknown argument {other:?}; use --runs N, --info-runs N, --pin CPU"
                )
                .into());
            }
        }
    }
    opts = opts.compare(compare);
    eprintln!(
        "self-test: about {} s …",
        expected_duration(&opts).as_secs()
    );
    let report = selftest(&opts)?;
    println!("{report}");
    if !report.passed {
        std::process::exit(1);
    }
    Ok(())
}
