//! An A/A that users write by hand: two identical 16 MiB pointer-chase lists (random cycles
//! over 4 Mi `u32` slots, 20,000 steps an operation), pooled at the defaults. The true
//! difference is zero by construction, so any resolved verdict is a false signal.
//!
//! - `--build main` (the default): both lists are built in `main`, A first, before
//!   `pool::run` — in every process, in the same order, as most programs are written;
//! - `--build pool`: built through `Child::build`, which alternates the order by process;
//! - `--light` uses `PoolOptions::light()` (10 A/A runs a process instead of 40);
//! - `--early off` turns off the perturbation before `main` (on by default), to measure what
//!   it does for lists built in `main`;
//! - `--accept` sets `PoolOptions::accept_fixed_build_order(true)`, so that lists built in
//!   `main` are not refused for their order and the statistics alone decide;
//! - `--positions N` pools nothing: in this one process it compares the two lists N times
//!   with `compare()` (20 s each at most), swapping which list sits in the A position every
//!   time, to see whether the A position itself leans.
//!
//! Without `--accept`, lists built in `main` are refused as `fixed_build_order`; the line
//! still prints the pooled interval and whether it excluded zero, which is what the
//! statistics alone would have said of it (before the noise floor).
//!
//! One pooled comparison per run, on one line: the verdict, δ with its interval, the
//! processes, how the plan ended, and the wall time. Reproduce docs/background.md's table with
//! `for s in 1 2 3 4 5; do cargo run --release -p rtcompare-lab --example fixed_order -- --seed $s; done`
//! (and `--build pool`, `--early off`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use rtcompare::pool::{self, PoolOptions};
use rtcompare::support::rng::Rng;
use rtcompare::{Candidate, compare};

const SLOTS: usize = 4 << 20; // 16 MiB of u32
const STEPS: usize = 20_000;

/// A random single cycle over `n` slots (Sattolo's algorithm), always from the same seed, so
/// both lists hold the same cycle.
fn cycle(n: usize) -> Vec<u32> {
    let mut rng = Rng::new(99);
    let mut next: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = rng.below(i as u64) as usize;
        next.swap(i, j);
    }
    next
}

fn chase<'a>(name: &'static str, next: impl AsRef<[u32]> + 'a) -> Candidate<'a> {
    let mut at = 0u32;
    Candidate::new(name, move |n| {
        for _ in 0..n {
            for _ in 0..STEPS {
                at = next.as_ref()[at as usize];
            }
            black_box(at);
        }
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut build_in_main = true;
    let mut early = true;
    let mut seed = 1u64;
    let mut light = false;
    let mut accept = false;
    let mut positions = None::<usize>;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--build" => match args.next().as_deref() {
                Some("main") => build_in_main = true,
                Some("pool") => build_in_main = false,
                other => return Err(format!("--build takes main or pool, got {other:?}").into()),
            },
            "--early" => match args.next().as_deref() {
                Some("on") => early = true,
                Some("off") => early = false,
                other => return Err(format!("--early takes on or off, got {other:?}").into()),
            },
            "--light" => light = true,
            "--accept" => accept = true,
            "--positions" => {
                positions = Some(args.next().ok_or("--positions needs a count")?.parse()?)
            }
            "--seed" => seed = args.next().ok_or("--seed needs a number")?.parse()?,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    if let Some(n) = positions {
        return swap_positions(n);
    }
    let started = Instant::now();
    // The way most programs are written: the fixtures first, A then B, then the comparison.
    let fixtures = build_in_main.then(|| (cycle(SLOTS), cycle(SLOTS)));
    let base = if light {
        PoolOptions::light()
    } else {
        PoolOptions::default()
    };
    // BACKGROUND's table was measured with Stein's precision plan.
    let options = base
        .decide(false)
        .seed(seed)
        .accept_fixed_build_order(accept);
    let options = rtcompare::support::pool::early_perturbation(options, early);
    let run = pool::run_detailed(&options, |ctx| {
        let opts = ctx.options().clone();
        let (a, b) = match fixtures {
            Some(ab) => ab,
            None => ctx.build(|| cycle(SLOTS), || cycle(SLOTS)),
        };
        compare(chase("a", a), chase("a′", b), &opts)
    })?;
    let p = &run.pooled;
    let first: Vec<String> = p
        .deltas
        .iter()
        .map(|d| format!("{:+.1}", 100.0 * d))
        .collect();
    println!(
        "build {} early {} seed {seed}: {} δ {:+.2} % [{:+.2}, {:+.2}], {} processes (planned {}), \
         {}, {:.0} s; deltas {}",
        if build_in_main { "main" } else { "pool" },
        if early { "on" } else { "off" },
        if p.resolved {
            "RESOLVED"
        } else {
            "cannot tell"
        },
        100.0 * p.delta,
        100.0 * p.low,
        100.0 * p.high,
        p.processes,
        p.planned_processes,
        p.plan_end.map_or("no plan".to_string(), |e| {
            let s = e.to_string();
            s.split(':').next().unwrap_or(&s).to_string()
        }),
        started.elapsed().as_secs_f64(),
        first.join(" ")
    );
    if !p.resolved {
        println!("  reason: {}", p.verdict);
        if p.low > 0.0 || p.high < 0.0 {
            println!("  (the pooled interval excludes zero)");
        }
    }
    for w in p
        .warnings
        .iter()
        .filter(|w| w.code() == "fixed_build_order")
    {
        println!("  warning: {w}");
    }
    let mut walls: Vec<f64> = run.timings.iter().map(|t| t.wall).collect();
    walls.sort_by(f64::total_cmp);
    if let Some(median) = walls.get(walls.len() / 2) {
        println!("  median process: {median:.1} s wall");
    }
    Ok(())
}

/// Two identical lists compared `n` times in one process, the list in the A position swapped
/// every time: a lean of the position shows as the same sign whichever list sits there.
fn swap_positions(n: usize) -> Result<(), Box<dyn std::error::Error>> {
    let (x, y) = (cycle(SLOTS), cycle(SLOTS));
    println!("x at {:p}, y at {:p}", x.as_ptr(), y.as_ptr());
    let opts = rtcompare::CompareOptions::default().max_duration(Duration::from_secs(20));
    let mut deltas = [Vec::new(), Vec::new()];
    for i in 0..n {
        let (a, b, in_a) = if i % 2 == 0 {
            (&x, &y, "x")
        } else {
            (&y, &x, "y")
        };
        let r = compare(chase("a", a.as_slice()), chase("a′", b.as_slice()), &opts)?;
        let e = &r.estimate;
        println!(
            "comparison {i}: {in_a} in A, δ {:+.2} % [{:+.2}, {:+.2}]",
            100.0 * e.delta,
            100.0 * e.low,
            100.0 * e.high
        );
        deltas[i % 2].push(e.delta);
    }
    for (list, d) in ["x", "y"].iter().zip(&deltas) {
        let mean = d.iter().sum::<f64>() / d.len().max(1) as f64;
        println!(
            "{list} in A: mean δ {:+.2} % over {}",
            100.0 * mean,
            d.len()
        );
    }
    Ok(())
}
