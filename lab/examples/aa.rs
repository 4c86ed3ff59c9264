//! Identical code, separately allocated: everything rtcompare reports here is an artefact of
//! the measurement, because the true difference is zero by construction.
//!
//! Two workloads, each on two identical, separately allocated structures:
//! - `chase`: a 16 MiB pointer chase (a random cycle over 4 Mi `u32` slots), 1,000 hops per
//!   operation;
//! - `btree`: a `BTreeMap<u64, u64>` of 1 Mi keys, 1,000 pseudo-random lookups per operation.
//!
//! For each, N single-process comparisons (N processes of one comparison each: how often one
//! process alone resolves a difference between identical structures, and how widely the
//! processes scatter next to their own intervals) and N pooled comparisons of 5 processes
//! each (how often the pooled verdict is a false signal).
//!
//! Run: `cargo run --release -p rtcompare-lab --example aa [-- --runs 20 --only chase|btree --full]`. Each
//! process uses the lighter per-process preset unless `--full`.

use std::collections::BTreeMap;
use std::hint::black_box;

use rtcompare::pool::{self, PoolOptions};
use rtcompare::support::rng::Rng;
use rtcompare::{Candidate, Report, compare};

const CHASE_SLOTS: usize = 4 << 20; // 16 MiB of u32
const KEYS: u64 = 1 << 20;
const STEPS: usize = 1_000;

/// A random single cycle over `n` slots (Sattolo's algorithm), always from the same seed, so
/// both structures hold the same cycle.
fn cycle(n: usize) -> Vec<u32> {
    let mut rng = Rng::new(99);
    let mut next: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = rng.below(i as u64) as usize;
        next.swap(i, j);
    }
    next
}

fn chase(name: &'static str, next: Vec<u32>) -> Candidate<'static> {
    let mut at = 0u32;
    Candidate::new(name, move |n| {
        for _ in 0..n {
            for _ in 0..STEPS {
                at = next[at as usize];
            }
            black_box(at);
        }
    })
}

fn tree() -> BTreeMap<u64, u64> {
    (0..KEYS)
        .map(|k| (k.wrapping_mul(0x9E37_79B9), k))
        .collect()
}

fn lookups(name: &'static str, map: BTreeMap<u64, u64>) -> Candidate<'static> {
    let mut x = 1u64;
    Candidate::new(name, move |n| {
        for _ in 0..n {
            let mut acc = 0u64;
            for _ in 0..STEPS {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let k = (x >> 44).wrapping_mul(0x9E37_79B9);
                acc = acc.wrapping_add(*map.get(&k).unwrap_or(&0));
            }
            black_box(acc);
        }
    })
}

fn one(which: &str, ctx: &mut pool::Child) -> rtcompare::Result<Report> {
    let opts = ctx.options().clone();
    match which {
        "chase" => {
            let (a, b) = ctx.build(|| cycle(CHASE_SLOTS), || cycle(CHASE_SLOTS));
            compare(chase("a", a), chase("a′", b), &opts)
        }
        _ => {
            let (a, b) = ctx.build(tree, tree);
            compare(lookups("a", a), lookups("a′", b), &opts)
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut runs, mut only, mut full) = (20usize, None::<String>, false);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().ok_or("--runs needs a count")?.parse()?,
            "--only" => only = Some(args.next().ok_or("--only needs chase or btree")?),
            "--full" => full = true,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let base = if full {
        PoolOptions::default()
    } else {
        PoolOptions::light()
    }
    // BACKGROUND's table was measured with Stein's precision plan, not the default decision.
    .decide(false);
    println!(
        "| workload | single processes resolved | inflation (single) | pooled false signals | median pooled inflation |"
    );
    println!("|---|---|---|---|---|");
    for which in ["chase", "btree"] {
        if only.as_deref().is_some_and(|o| o != which) {
            continue;
        }
        // Children re-run this program: tell them which workload this parent is on.
        let mut child_args = vec![
            "--runs".to_string(),
            runs.to_string(),
            "--only".into(),
            which.into(),
        ];
        if full {
            child_args.push("--full".into());
        }
        let base = base.clone().args(child_args);
        // N processes of one comparison each.
        let singles = pool::run_detailed(
            &base
                .clone()
                .first_stage(runs)
                .max_processes(runs)
                .target(0.0, 0.0)
                .seed(1),
            |ctx| one(which, ctx),
        )?;
        let resolved = singles.reports.iter().filter(|r| r.resolved).count();
        eprintln!("{which}, single processes:\n{}", singles.pooled);
        // N pooled comparisons of 5 processes each.
        let mut false_signals = 0usize;
        let mut inflations = Vec::new();
        for i in 0..runs {
            let p = pool::run(
                &base
                    .clone()
                    .first_stage(5)
                    .max_processes(5)
                    .target(0.0, 0.0)
                    .seed(100 + i as u64),
                |ctx| one(which, ctx),
            )?;
            eprintln!(
                "{which}, pooled {}/{runs}: δ {:+.2}% [{:+.2}%, {:+.2}%], inflation {:.1}, {}",
                i + 1,
                100.0 * p.delta,
                100.0 * p.low,
                100.0 * p.high,
                p.inflation,
                if p.resolved {
                    "RESOLVED"
                } else {
                    "cannot tell"
                }
            );
            false_signals += usize::from(p.resolved);
            inflations.push(p.inflation);
        }
        inflations.sort_by(f64::total_cmp);
        println!(
            "| {which} | {resolved} of {} | {:.1} | {false_signals} of {runs} | {:.1} |",
            singles.reports.len(),
            singles.pooled.inflation,
            inflations[inflations.len() / 2]
        );
    }
    Ok(())
}
