//! The margin of one comparison, measured: `compare()` at its defaults on identical candidates
//! (README's short example, `iter().sum()` against a `fold` that compiles to the same code) and
//! on nearly identical ones (a dependent chain of 2,000 steps against 2,020, 2,060 and 2,100:
//! 1 %, 3 % and 5 % more work), several times each, with the verdict in the words every front
//! end prints and the warnings each run raised.
//!
//! Run: `cargo run --release -p rtcompare-lab --example margin` (six runs of each case; `-- --runs R` for R).
//! docs/background.md, "The margin of one comparison", holds its table.

use std::hint::black_box;
use std::time::Instant;

use rtcompare::stats::Change;
use rtcompare::support::compare::DEFAULT_COMPARE_MARGIN;
use rtcompare::{Candidate, CompareOptions, Report, compare};

/// A dependent multiply chain of `steps` steps: its time is proportional to `steps`.
fn chain(steps: u64) -> u64 {
    let mut x = 1u64;
    for _ in 0..black_box(steps) {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
    }
    x
}

/// One line: the case, the run, A's change against B in words, the floor and the warnings.
fn line(case: &str, run: usize, r: &Report, seconds: f64) -> String {
    let e = &r.estimate;
    let words = r
        .verdict
        .in_words_with(Change::of_delta(e.delta, e.low, e.high));
    let warnings: Vec<&str> = r.warnings.iter().map(|w| w.code()).collect();
    format!(
        "| {case} | {run} | {words} | {:.2} % | {} | {seconds:.1} s |",
        100.0 * r.noise_floor,
        if warnings.is_empty() {
            "–".to_string()
        } else {
            warnings.join(", ")
        }
    )
}

// The fold is the point: README's example compares it with `sum()`, which it compiles to.
#[allow(clippy::unnecessary_fold)]
fn main() -> Result<(), rtcompare::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs = match args.as_slice() {
        [flag, n] if flag == "--runs" => n.parse().unwrap_or(6),
        _ => 6,
    };
    let input: Vec<u64> = (0..512).collect();
    println!(
        "compare() at its defaults (margin ±{:.1} %), {runs} runs of each case\n",
        100.0 * DEFAULT_COMPARE_MARGIN
    );
    println!("| case | run | A against B | A/A floor | warnings | time |");
    println!("|---|--:|---|--:|---|--:|");
    let mut tally: Vec<(String, usize, usize, usize, usize)> = Vec::new();
    let cases: [(&str, u64); 4] = [
        ("sum against fold (identical)", 0),
        ("chain 2,020 against 2,000 (+1 %)", 2_020),
        ("chain 2,060 against 2,000 (+3 %)", 2_060),
        ("chain 2,100 against 2,000 (+5 %)", 2_100),
    ];
    for (case, steps) in cases {
        let mut counts = (0, 0, 0, 0);
        for run in 1..=runs {
            let (a, b) = if steps == 0 {
                (
                    Candidate::from_fn("iter().sum", || black_box(&input).iter().sum::<u64>()),
                    Candidate::from_fn("fold", || {
                        black_box(&input).iter().fold(0u64, |s, x| s + x)
                    }),
                )
            } else {
                (
                    Candidate::from_fn("longer chain", move || chain(steps)),
                    Candidate::from_fn("chain", || chain(2_000)),
                )
            };
            let started = Instant::now();
            let r = compare(a, b, &CompareOptions::default())?;
            println!("{}", line(case, run, &r, started.elapsed().as_secs_f64()));
            match r.verdict {
                rtcompare::Verdict::Equivalent { .. } => counts.0 += 1,
                rtcompare::Verdict::AFaster | rtcompare::Verdict::BFaster => counts.1 += 1,
                rtcompare::Verdict::CannotTell(_) => counts.2 += 1,
            }
            counts.3 += usize::from(!r.warnings.is_empty());
        }
        tally.push((case.to_string(), counts.0, counts.1, counts.2, counts.3));
    }
    println!("\n| case | equivalent | a side proven faster | cannot tell | runs with a warning |");
    println!("|---|--:|--:|--:|--:|");
    for (case, eq, claim, unsure, warned) in tally {
        println!("| {case} | {eq} | {claim} | {unsure} | {warned} |");
    }
    Ok(())
}
