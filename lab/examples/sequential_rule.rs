//! How the sequential three-way rule (`rtcompare::support::stats::sequential_look`) behaves when it may stop at any
//! look: seeded simulations of process-level deltas, both spending functions, looks every
//! `--step` deltas up to `--max-n`. For each true change and process scatter: the share of runs
//! ending faster/slower (false when the change is 0), equivalent within ±2 % (false when the
//! change is beyond 2 %), cannot tell, and the mean deltas used. "two-mode" draws each process
//! from one of two modes 2 × scatter apart (a fifth in the far one, the mean unchanged), as
//! layouts split processes on some machines.
//!
//! `cargo run --release -p rtcompare-lab --example sequential_rule -- [--runs N] [--step K] [--max-n N]`
//! (docs/background.md, "Sequential decisions"). Pure arithmetic: no clock, so any machine gives the
//! same table for a seed.

use rtcompare::support::rng::Rng;
use rtcompare::support::stats::{SequentialOptions, SequentialOutcome, Spending, sequential_look};

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One simulated decision: deltas drawn by `draw`, a look every `step` (the first at
/// max(step, 3)), stopping at the first decision or the last look. Returns the outcome and the
/// deltas used.
fn decide(
    rng: &mut Rng,
    draw: &dyn Fn(&mut Rng) -> f64,
    o: &SequentialOptions,
    step: usize,
) -> (SequentialOutcome, usize) {
    let mut deltas = Vec::new();
    let mut previous = 0;
    loop {
        let want = (previous + step).max(3).min(o.max_n);
        while deltas.len() < want {
            deltas.push(draw(rng));
        }
        let look = sequential_look(&deltas, previous, o).expect("valid simulated deltas");
        if look.outcome.decided() || look.last {
            return (look.outcome, deltas.len());
        }
        previous = deltas.len();
    }
}

fn main() {
    let runs = arg("--runs", 4_000);
    let step = arg("--step", 5);
    let max_n = arg("--max-n", 30);
    let margin = 0.02;
    println!(
        "{runs} seeded runs per row; looks every {step} deltas up to {max_n}; margin ±2 %; \
         level 95 %\n"
    );
    println!(
        "| spending | change | scatter (sd) | faster/slower | equivalent | cannot tell | mean deltas |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|");
    for spending in [Spending::OBrienFleming, Spending::Pocock] {
        let o = SequentialOptions::default()
            .spending(spending)
            .margin(margin)
            .max_n(max_n);
        for &(change, sd, two_mode) in &[
            (0.0, 0.005, false),
            (0.0, 0.01, false),
            (0.0, 0.03, false),
            (0.0, 0.01, true),
            (0.0, 0.05, false),
            (0.01, 0.01, false),
            (0.02, 0.01, false),
            (0.03, 0.01, false),
            (0.03, 0.03, false),
            (0.05, 0.01, false),
            (0.10, 0.01, false),
            (0.10, 0.05, false),
        ] {
            let mut rng = Rng::new(0x5e9_0000 + (1000.0 * change) as u64 + (1000.0 * sd) as u64);
            // Two modes 2 × sd apart, a fifth of the processes in the far one, centred so that
            // the mean delta is still `change`.
            let draw = move |r: &mut Rng| -> f64 {
                let mode = match (two_mode, r.next_f64() < 0.2) {
                    (true, true) => 2.0 * sd - 0.4 * sd,
                    (true, false) => -0.4 * sd,
                    (false, _) => 0.0,
                };
                change + mode + sd * r.next_normal()
            };
            let (mut verdicts, mut equivalent, mut unsure, mut used) = (0, 0, 0, 0);
            for _ in 0..runs {
                let (outcome, n) = decide(&mut rng, &draw, &o, step);
                used += n;
                match outcome {
                    SequentialOutcome::Equivalent => equivalent += 1,
                    SequentialOutcome::Undecided => unsure += 1,
                    _ => verdicts += 1,
                }
            }
            let pct = |k: usize| format!("{:.1} %", 100.0 * k as f64 / runs as f64);
            println!(
                "| {spending:?} | {:+.0} % | {:.1} %{} | {} | {} | {} | {:.1} |",
                100.0 * change,
                100.0 * sd,
                if two_mode { ", two-mode" } else { "" },
                pct(verdicts),
                pct(equivalent),
                pct(unsure),
                used as f64 / runs as f64
            );
        }
    }
}
