//! What the ready progress bar (`rtcompare::progress::bar()`) costs a default comparison:
//! default comparisons of the compare example's pair (`sort_unstable` against `sort` on 1,000
//! random `u32`) with and without the bar, interleaved ABBA, each timed whole (wall clock,
//! options to report). Two answers, both with 95 % bootstrap intervals from the library's own
//! statistics (paired, seed 42):
//!
//! 1. **End to end**: the paired ratio of medians, with-bar time over plain time. Honest but
//!    wide on a shared machine, where whole comparisons vary by several per cent.
//! 2. **Inside the callback**: the bar runs only inside its callback (no thread, no timer), so
//!    its direct cost is the time spent in that call. Each call is timed (two clock reads,
//!    ~50 ns, counted against the bar), and the share of each comparison's wall time spent
//!    there is estimated as δ between `wall − in_callback` and `wall`, i.e. the median
//!    per-comparison share.
//!
//! The bar draws on stderr when stderr is a terminal and writes one line per stage otherwise,
//! so run it both ways:
//!
//! ```text
//! script -qc 'cargo run --release -p rtcompare-lab --example progress_cost' /dev/null   # a terminal
//! cargo run --release -p rtcompare-lab --example progress_cost 2>progress.log            # a log file
//! ```
//!
//! `-- --pairs N` sets the number of pairs (default 30).

use std::hint::black_box;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rtcompare::stats::{EstimateOptions, estimate_difference};
use rtcompare::support::rng::Rng;
use rtcompare::{Candidate, CompareOptions, compare, progress};

const LEN: usize = 1_000;

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

/// One timed comparison: its wall time, the time spent inside the progress callback and the
/// number of calls (both 0 without the bar), in seconds.
struct Run {
    wall: f64,
    in_callback: f64,
    calls: usize,
}

/// One default comparison, with the bar or without.
fn one(data: &[u32], bar: bool) -> Result<Run, rtcompare::Error> {
    let a = sorter("slice::sort_unstable", data, |v| v.sort_unstable());
    let b = sorter("slice::sort", data, |v| v.sort());
    let spent = Arc::new(AtomicU64::new(0));
    let calls = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut opts = CompareOptions::default();
    if bar {
        let f = progress::bar();
        let (spent, calls) = (spent.clone(), calls.clone());
        opts = opts.progress(move |p| {
            let t = Instant::now();
            f(p);
            spent.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
            calls.fetch_add(1, Ordering::Relaxed);
        });
    }
    let report = compare(a, b, &opts)?;
    let wall = started.elapsed().as_secs_f64();
    black_box(report);
    Ok(Run {
        wall,
        in_callback: spent.load(Ordering::Relaxed) as f64 * 1e-9,
        calls: calls.load(Ordering::Relaxed),
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut pairs = 30usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--pairs" => pairs = args.next().ok_or("--pairs needs a count")?.parse()?,
            other => return Err(format!("unknown argument {other:?}; use --pairs N").into()),
        }
    }
    if pairs < 11 {
        return Err("--pairs must be at least 11 (the bootstrap's minimum)".into());
    }
    let mut rng = Rng::new(2026);
    let data: Vec<u32> = (0..LEN).map(|_| rng.next_u64() as u32).collect();
    let mode = if std::io::stderr().is_terminal() {
        "a terminal (bars drawn by indicatif)"
    } else {
        "not a terminal (one line per stage)"
    };
    let (mut plain, mut with_bar) = (Vec::with_capacity(pairs), Vec::with_capacity(pairs));
    for i in 0..pairs {
        // ABBA: even pairs run the plain comparison first, odd pairs the one with the bar.
        if i % 2 == 0 {
            plain.push(one(&data, false)?);
            with_bar.push(one(&data, true)?);
        } else {
            with_bar.push(one(&data, true)?);
            plain.push(one(&data, false)?);
        }
    }
    let wall = |v: &[Run]| v.iter().map(|r| r.wall).collect::<Vec<f64>>();
    let (plain_wall, bar_wall) = (wall(&plain), wall(&with_bar));
    let opts = EstimateOptions::default().paired(true).seed(42);
    // δ = 1 − median(plain/bar); its ratio is bar time over plain time.
    let r = estimate_difference(&plain_wall, &bar_wall, &opts)?.ratio();
    // δ = 1 − median((wall − in callback)/wall) = the median share spent in the callback.
    let outside: Vec<f64> = with_bar.iter().map(|r| r.wall - r.in_callback).collect();
    let share = estimate_difference(&outside, &bar_wall, &opts)?;
    let median = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        s[s.len() / 2]
    };
    let calls = median(&with_bar.iter().map(|r| r.calls as f64).collect::<Vec<_>>());
    let per_call = median(
        &with_bar
            .iter()
            .map(|r| r.in_callback / r.calls.max(1) as f64)
            .collect::<Vec<_>>(),
    );
    let worst = with_bar
        .iter()
        .map(|r| r.in_callback / r.wall)
        .fold(0.0, f64::max);
    println!("stderr: {mode}");
    println!(
        "{pairs} pairs of default comparisons; median {:.3} s without the bar, {:.3} s with it",
        median(&plain_wall),
        median(&bar_wall)
    );
    println!(
        "end to end, with bar / without: {:.4}, 95 % interval [{:.4}, {:.4}] (paired ratio of \
         medians)",
        r.ratio, r.low, r.high
    );
    println!(
        "inside the callback: {:.4} % of the comparison's wall time, 95 % interval [{:.4} %, \
         {:.4} %]; largest {:.4} %; {calls:.0} calls per comparison, {:.2} µs per call \
         (medians)",
        100.0 * share.delta,
        100.0 * share.low,
        100.0 * share.high,
        100.0 * worst,
        per_call * 1e6
    );
    Ok(())
}
