//! Warm and cold caches are two experiments: the same comparison run both ways.
//!
//! Two working sets: 1 MiB, which fits this machine's caches, and 64 MiB, which exceeds any
//! last-level cache of common parts. For each, candidate A sums every `u64` of the vector and
//! candidate B sums one `u64` per 64-byte cache line (an eighth of the additions, the same
//! cache lines). Both read the same data in every operation. Each pair is compared warm
//! (batches find the caches as the previous batch left them) and cold (the caches evicted
//! before every batch), and the program prints a markdown table: each candidate's median cost
//! per operation with a distribution-free 95 % interval of the median, the paired change of A
//! against B (A/B − 1, + = slower), the verdict and the time the comparison took.
//!
//! Every comparison runs 10 A/A runs (the cold default, also asked for warm so that rows compare
//! like with like; a warm 64 MiB comparison at 40 runs would take over a minute on its own) and
//! the default 101 pairs.
//!
//! Run: `cargo run --release --example cache_modes`

use std::hint::black_box;

use rtcompare::stats::Unresolved;
use rtcompare::{Cache, Candidate, CompareOptions, Report, Verdict, compare};

const MIB: usize = 1 << 20;
/// `u64`s per 64-byte cache line.
const PER_LINE: usize = 8;

/// Sums every element of `data`.
fn sum_all(data: &[u64]) -> Candidate<'_> {
    Candidate::new("sum all", move |n| {
        for _ in 0..n {
            black_box(black_box(data).iter().fold(0u64, |s, &x| s.wrapping_add(x)));
        }
    })
}

/// Sums the first element of every cache line of `data`.
fn sum_per_line(data: &[u64]) -> Candidate<'_> {
    Candidate::new("one per line", move |n| {
        for _ in 0..n {
            black_box(
                black_box(data)
                    .iter()
                    .step_by(PER_LINE)
                    .fold(0u64, |s, &x| s.wrapping_add(x)),
            );
        }
    })
}

/// The median of `xs` with a distribution-free 95 % interval: the order statistics at ranks
/// n/2 ∓ 1.96·√n/2 (normal approximation to the binomial).
fn median_interval(xs: &[f64]) -> (f64, f64, f64) {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len() as f64;
    let half = 1.96 * n.sqrt() / 2.0;
    let lo = ((n / 2.0 - half).floor().max(1.0) as usize) - 1;
    let hi = ((n / 2.0 + half).ceil() as usize).min(v.len()) - 1;
    let median = rtcompare::stats::median(&v).unwrap_or(f64::NAN);
    (median, v[lo], v[hi])
}

/// Nanoseconds with a unit that keeps three or four digits.
fn ns(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} ms", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} µs", x / 1e3)
    } else {
        format!("{x:.0} ns")
    }
}

fn cost(xs: &[f64]) -> String {
    let (m, lo, hi) = median_interval(xs);
    format!("{} [{}, {}]", ns(m), ns(lo), ns(hi))
}

fn verdict(r: &Report) -> String {
    match r.verdict {
        Verdict::AFaster => "sum all faster".into(),
        Verdict::BFaster => "one per line faster".into(),
        Verdict::Equivalent { .. } => "equivalent".into(),
        Verdict::CannotTell(reason) => match reason {
            Unresolved::IntervalContainsZero { .. } => "cannot tell: interval contains 0".into(),
            Unresolved::Unstable { .. } => "cannot tell: unstable".into(),
            Unresolved::WithinNoiseFloor { .. } => "cannot tell: within the noise floor".into(),
            Unresolved::BelowQuantization { .. } => "cannot tell: below quantization".into(),
            other => format!("cannot tell: {other}"),
        },
    }
}

/// The report's warning codes, comma-separated ("none" when there are none).
fn warnings(r: &Report) -> String {
    if r.warnings.is_empty() {
        return "none".into();
    }
    r.warnings
        .iter()
        .map(|w| format!("`{}`", w.code()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let env = rtcompare::env::Environment::capture();
    println!("# Warm and cold: the same comparison, two experiments");
    println!("command: cargo run --release --example cache_modes");
    println!(
        "machine: {}, {} logical cores, last-level cache {}, hypervisor {:?}",
        env.cpu_model.as_deref().unwrap_or("unknown CPU"),
        env.logical_cores.unwrap_or(0),
        env.last_level_cache_bytes
            .map_or("unknown".to_string(), |b| format!("{} MiB", b >> 20)),
        env.hypervisor,
    );
    println!(
        "start: {}, load average {:?}",
        env.start_time.as_deref().unwrap_or("?"),
        env.load_average_start
    );

    // What one eviction costs: the price every cold batch pays outside its timing.
    let mut evictor = rtcompare::support::measure::Evictor::new();
    let mut sweeps: Vec<f64> = (0..50)
        .map(|_| {
            let t = std::time::Instant::now();
            evictor.evict();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    sweeps.sort_by(f64::total_cmp);
    println!(
        "eviction: {}; one sweep takes {:.2} ms (median of 50; range {:.2}–{:.2} ms)",
        evictor.info(),
        sweeps[25],
        sweeps[0],
        sweeps[49]
    );
    drop(evictor);

    let mut rows = Vec::new();
    let mut medians = Vec::new();
    for mib in [1usize, 64] {
        let data: Vec<u64> = (0..(mib * MIB / 8) as u64).collect();
        for cache in [Cache::Warm, Cache::Cold] {
            eprintln!("{mib} MiB, {cache} …");
            let opts = CompareOptions::default()
                .cache(cache)
                .validation_runs(10)
                .seed(42);
            let r = compare(sum_all(&data), sum_per_line(&data), &opts)?;
            let e = &r.estimate;
            rows.push(format!(
                "| {mib} MiB | {cache} | {} | {} | {} | {:+.1}% [{:+.1}%, {:+.1}%] | {:.2}% | {} | {:.1} s | {} |",
                r.timing.inner_loops,
                cost(&r.samples_a),
                cost(&r.samples_b),
                // A's change against B, + = slower: A/B − 1 = −δ, its interval [−high, −low].
                -100.0 * e.delta,
                -100.0 * e.high,
                -100.0 * e.low,
                100.0 * r.noise_floor,
                verdict(&r),
                r.run.elapsed.as_secs_f64(),
                warnings(&r),
            ));
            medians.push((mib, cache, r.ns_per_op_a, r.ns_per_op_b));
            if let Some(info) = r.run.cache_info {
                eprintln!("  {info}; {} evictions", info.evictions);
            }
            eprintln!(
                "  load average at the end {:?}",
                r.run.environment.load_average_end
            );
        }
    }

    println!();
    println!(
        "| working set | cache | ops per batch | sum all: ns/op [95 % CI of the median] | one per line: ns/op | sum all's change in time, A/B − 1 [95 %], + = slower | A/A floor | verdict | wall time | warnings |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for row in &rows {
        println!("{row}");
    }
    println!();
    println!("| working set | sum all: cold ÷ warm | one per line: cold ÷ warm |");
    println!("|---|---|---|");
    for mib in [1usize, 64] {
        let get = |c: Cache| {
            medians
                .iter()
                .find(|m| m.0 == mib && m.1 == c)
                .map(|m| (m.2, m.3))
        };
        if let (Some(w), Some(c)) = (get(Cache::Warm), get(Cache::Cold)) {
            println!("| {mib} MiB | {:.2}× | {:.2}× |", c.0 / w.0, c.1 / w.1);
        }
    }
    let end = rtcompare::env::load_average();
    println!();
    println!("load average at the end: {end:?}");
    Ok(())
}
