//! How often a not-slower gate fails, as a test author runs it (release build, default effort,
//! unpinned): on identical code, on a slowdown inside the budget and on two beyond it, each
//! gate counted twice from the same run: as its first measurement alone would have decided
//! it, and as the confirmed rule decides it (a would-be failure is measured again and stands
//! only when the second measurement fails too).
//!
//! Run: `cargo run --release -p rtcompare-lab --example gate_rates` (100 identical pairs, 50 of
//! each slowdown; `-- --reps R` for R identical pairs and R/2 of each slowdown; about 4
//! minutes).
//! docs/background.md, "Gates: why "cannot tell" passes one gate and fails another", holds its
//! table.

use std::hint::black_box;
use std::time::Instant;

use rtcompare::Candidate;
use rtcompare::gate::{self, Expectation, GateOptions};

/// A dependent multiply chain of `steps` steps per operation: its time is proportional to
/// `steps`, so 2,100 against 2,000 is 5 % more work, 2,240 is 12 % and 2,400 is 20 %.
fn chain(name: &str, steps: u64) -> Candidate<'static> {
    Candidate::new(name, move |n| {
        let mut x = 1u64;
        for _ in 0..n {
            for _ in 0..black_box(steps) {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
            }
        }
        black_box(x);
    })
}

/// What one gate did: its first measurement failed, the gate failed (confirmed), seconds.
struct Outcome {
    first_failed: bool,
    failed: bool,
    seconds: f64,
}

fn run_gate(candidate_steps: u64, budget: f64) -> Outcome {
    let started = Instant::now();
    let options = GateOptions::default().write_json(false).name("gate_rates");
    let result = gate::check(
        chain("candidate", candidate_steps),
        chain("baseline", 2_000),
        Expectation::NotSlower { budget },
        &options,
    );
    let seconds = started.elapsed().as_secs_f64();
    match result {
        Ok(report) => {
            let info = report.context.gate.expect("a gate records its outcome");
            Outcome {
                // A pass after a failed first measurement says so.
                first_failed: info.explanation.contains("not confirmed"),
                failed: false,
                seconds,
            }
        }
        Err(gate::GateFailure::Expectation { .. }) => Outcome {
            first_failed: true,
            failed: true,
            seconds,
        },
        Err(other) => panic!("the gate could not measure: {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let reps: usize = match args.as_slice() {
        [flag, n] if flag == "--reps" => n.parse().unwrap_or(100),
        _ => 100,
    };
    let budget = 0.10;
    println!(
        "not-slower gates, budget {:.0} %, release build, default effort, unpinned\n",
        100.0 * budget
    );
    println!(
        "| case | gates | failed on the first measurement alone | failed, confirmed | median time a gate |"
    );
    println!("|---|--:|--:|--:|--:|");
    for (case, steps, n) in [
        ("identical (2,000 steps each)", 2_000, reps),
        ("candidate 5 % slower (inside the budget)", 2_100, reps / 2),
        (
            "candidate 12 % slower (just beyond the budget)",
            2_240,
            reps / 2,
        ),
        ("candidate 20 % slower (beyond the budget)", 2_400, reps / 2),
    ] {
        let outcomes: Vec<Outcome> = (0..n).map(|_| run_gate(steps, budget)).collect();
        let first = outcomes.iter().filter(|o| o.first_failed).count();
        let failed = outcomes.iter().filter(|o| o.failed).count();
        let mut times: Vec<f64> = outcomes.iter().map(|o| o.seconds).collect();
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
        println!("| {case} | {n} | {first} | {failed} | {median:.2} s |");
    }
}
