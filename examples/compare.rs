//! The main job: is `sort_unstable` really faster than `sort` on 1,000 random `u32`, by how
//! much, and can this machine tell?
//!
//! Run: `cargo run --release --example compare`. The comparison runs in several processes
//! (each with its heap perturbed), because one process's interval covers only the noise inside
//! that process, and decides sequentially: a look after five processes and after every five
//! more, stopping at the first whose interval says faster, slower or equivalent within ±2 %
//! (`PoolOptions::decide`); the pooled verdict, the looks, the inflation and the per-process
//! deltas are printed. `-- --precision` runs Stein's plan to a ±1 point interval instead;
//! `-- --single` compares in this one process, with the full single-process report.
//!
//! Progress goes to stderr (`rtcompare::progress`: bars on a terminal, a line per stage or
//! process in a log), the report to stdout, the report's JSON to
//! `target/rtcompare/compare.json` and its page to `target/rtcompare/compare.html` (open it in
//! any browser; pooled: the forest plot of the processes, then the five panels of the median
//! process). The pooled JSON is [`PoolRun::to_json`](rtcompare::pool::PoolRun::to_json): the
//! pooled result with the machine's environment stamp, which `rtcompare combine` reads as one
//! machine.

use std::hint::black_box;
use std::time::Instant;

use rtcompare::pool::{self, PoolOptions};
use rtcompare::stats::Change;
use rtcompare::support::rng::Rng;
use rtcompare::{Candidate, CompareOptions, Verdict, compare, progress};

const LEN: usize = 1_000;

/// A candidate that copies the unsorted input into a buffer and sorts it with `sort`, once per
/// operation. The copy costs the same in both candidates.
fn sorter(name: &str, data: &[u32], sort: fn(&mut [u32])) -> Candidate<'static> {
    let data = data.to_vec();
    let mut buf = data.clone();
    Candidate::new(name, move |n| {
        for _ in 0..n {
            buf.copy_from_slice(black_box(&data));
            sort(&mut buf);
            black_box(&buf);
        }
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut single, mut processes, mut repeat) = (false, None::<usize>, 1usize);
    // The main job decides: it stops at the first look whose interval says faster, slower or
    // equivalent within ±2 % (docs/background.md, "Sequential decisions: the main job").
    let mut decide = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--single" => single = true,
            "--processes" => {
                processes = Some(args.next().ok_or("--processes needs a count")?.parse()?)
            }
            "--repeat" => repeat = args.next().ok_or("--repeat needs a count")?.parse()?,
            "--decide" => decide = true,
            "--precision" => decide = false,
            other => {
                return Err(format!(
                    "unknown argument {other:?}; use --single, --processes K (exactly K \
                     processes), --repeat R (R pooled comparisons, tallied), --precision (run \
                     Stein's plan to a ±1 point interval instead of deciding)"
                )
                .into());
            }
        }
    }
    let data = || {
        let mut rng = Rng::new(2026);
        (0..LEN)
            .map(|_| rng.next_u64() as u32)
            .collect::<Vec<u32>>()
    };
    let dir = std::path::Path::new("target").join("rtcompare");
    let path = dir.join("compare.json");
    let html = dir.join("compare.html");
    let started = Instant::now();
    if single {
        let data = data();
        let a = sorter("slice::sort_unstable", &data, |v| v.sort_unstable());
        let b = sorter("slice::sort", &data, |v| v.sort());
        let opts = CompareOptions::default()
            .thresholds([0.05, 0.10, 0.20])
            .progress(progress::bar());
        let report = compare(a, b, &opts)?;
        eprintln!("compared in {:.2} s", started.elapsed().as_secs_f64());
        println!("{report}");
        std::fs::create_dir_all(&dir)?;
        std::fs::write(&path, report.to_json()?)?;
        report.write_html(&html)?;
    } else {
        let mut options = PoolOptions::default()
            .compare(CompareOptions::default().thresholds([0.05, 0.10, 0.20]));
        if let Some(k) = processes {
            options = options.first_stage(k).max_processes(k).target(0.0, 0.0);
        }
        options = options.decide(decide);
        let options = options.progress(progress::pool_bar());
        let mut tally = [0usize; 3];
        for r in 0..repeat {
            let run = pool::run_detailed(&options, |ctx| {
                let (da, db) = ctx.build(data, data);
                let a = sorter("slice::sort_unstable", &da, |v| v.sort_unstable());
                let b = sorter("slice::sort", &db, |v| v.sort());
                compare(a, b, ctx.options())
            })?;
            let pooled = &run.pooled;
            eprintln!("compared in {:.2} s", started.elapsed().as_secs_f64());
            if repeat > 1 {
                eprintln!("pooled comparison {}/{repeat}", r + 1);
            }
            println!("A = slice::sort_unstable, B = slice::sort\n");
            println!("{pooled}");
            let verdicts: Vec<String> = run
                .reports
                .iter()
                .map(|r| match r.verdict {
                    Verdict::AFaster => "A".to_string(),
                    Verdict::BFaster => "B".to_string(),
                    Verdict::Equivalent { .. } => "=".to_string(),
                    Verdict::CannotTell(_) => "?".to_string(),
                })
                .collect();
            println!(
                "Each process alone (A faster, B faster, = equivalent, ? cannot tell): {}\n",
                verdicts.join(" ")
            );
            tally[match pooled.verdict {
                Verdict::AFaster => 0,
                Verdict::BFaster => 1,
                Verdict::Equivalent { .. } | Verdict::CannotTell(_) => 2,
            }] += 1;
            // One line per comparison, for tables of consecutive runs.
            // A's change in time against B, + = slower, in the words every front end uses.
            let change = Change::of_delta(pooled.delta, pooled.low, pooled.high);
            eprintln!(
                "run {}: A {} over {} processes, {:.1} s",
                r + 1,
                pooled.verdict.in_words_with(change),
                pooled.processes,
                run.elapsed.as_secs_f64()
            );
            std::fs::create_dir_all(&dir)?;
            // The pooled fields with the machine's environment stamp and a layout version:
            // `rtcompare combine` reads this file as one machine.
            std::fs::write(&path, run.to_json()?)?;
            run.write_html(&html)?;
        }
        if repeat > 1 {
            println!(
                "{repeat} pooled comparisons: sort_unstable faster {}, sort faster {}, equivalent or \
                 cannot tell {}.",
                tally[0], tally[1], tally[2]
            );
        }
    }
    eprintln!("report written to {}", path.display());
    let kb = std::fs::metadata(&html).map_or(0, |m| m.len()) as f64 / 1000.0;
    println!("HTML report: {} ({kb:.0} KB)", html.display());
    Ok(())
}
