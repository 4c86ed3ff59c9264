//! Measures the instrument on this machine: clock precision, read cost, the harness's
//! empty-batch floor, calibrated batch sizes for candidates of different cost, and the spread
//! of A/A samples with and without warm-up.
//!
//! Run: `cargo run --release -p rtcompare-lab --example instrument`

use std::hint::black_box;
use std::time::Duration;

use rtcompare::Candidate;
use rtcompare::support::measure::Instrument;
use rtcompare::support::measure::{CalibrationOptions, CollectOptions, calibrate, collect};

use rtcompare::support::selftest::workload as work;

fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

fn median(xs: &[f64]) -> f64 {
    let v = sorted(xs);
    v[v.len() / 2]
}

/// Interquartile range over the median (type-7 quartiles).
fn rel_iqr(xs: &[f64]) -> f64 {
    let v = sorted(xs);
    let q = |p: f64| {
        let h = (v.len() - 1) as f64 * p;
        let lo = h.floor() as usize;
        let hi = (lo + 1).min(v.len() - 1);
        v[lo] + (h - lo as f64) * (v[hi] - v[lo])
    };
    (q(0.75) - q(0.25)) / median(xs)
}

fn main() -> Result<(), rtcompare::Error> {
    println!("# rtcompare instrument figures");
    println!("command: cargo run --release -p rtcompare-lab --example instrument");
    println!(
        "machine: {} logical cores, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        rtcompare::env::Environment::capture()
            .cpu_model
            .unwrap_or_else(|| "unknown CPU".into())
    );
    println!();

    // Several measurements of the instrument, to show their spread.
    let mut rows = Vec::new();
    for _ in 0..5 {
        rows.push(Instrument::measure());
    }
    let i = &rows[0];
    println!("clock: {}", i.clock);
    println!(
        "precision (smallest non-zero step, cached): {} ns",
        i.precision_ns
    );
    let cost: Vec<f64> = rows.iter().map(|r| r.read_cost_ns).collect();
    let emin: Vec<f64> = rows.iter().map(|r| r.empty_batch_min_ns).collect();
    let emed: Vec<f64> = rows.iter().map(|r| r.empty_batch_median_ns).collect();
    println!(
        "read cost: median {:.1} ns over 5 measurements (range {:.1}-{:.1})",
        median(&cost),
        sorted(&cost)[0],
        sorted(&cost)[4]
    );
    println!(
        "empty batch: min {:.0} ns, median {:.0} ns (medians of 5 measurements of 1,001 batches)",
        median(&emin),
        median(&emed)
    );
    println!(
        "harness per-batch floor: {:.0} ns = {:.2} clock reads (bound: two reads plus a few ns = {:.0} ns)",
        median(&emed),
        median(&emed) / median(&cost),
        2.0 * median(&cost)
    );
    println!();

    println!("## calibrated batch sizes (max quantization error 0.001)");
    println!("| candidate | inner loops | ns/op | batch | target | quantization |");
    println!("|---|---|---|---|---|---|");
    for units in [1u64, 10, 100, 1_000, 100_000] {
        let mut c = Candidate::new(format!("{units} multiply-adds"), work(units));
        let cal = calibrate(&mut c, &CalibrationOptions::default())?;
        println!(
            "| {} | {} | {:.2} | {:.1} µs | {:.1} µs | {:.5} |",
            c.name(),
            cal.inner_loops,
            cal.ns_per_op,
            cal.batch_ns / 1e3,
            cal.target_ns / 1e3,
            cal.quantization_error
        );
    }
    println!();

    // A/A spread with and without warm-up: a candidate that walks a freshly allocated 8 MiB
    // buffer, so the first batches pay for page faults and cold caches.
    println!("## A/A spread, 8 MiB buffer walk, 51 repeats, 5 runs each");
    println!(
        "| warm-up | median relative IQR | median first-sample excess over median | median A/A ratio deviation |"
    );
    println!("|---|---|---|---|");
    for (label, skip, dur) in [
        ("none", true, Duration::ZERO),
        ("default (1 batch, 300 ms)", false, Duration::ZERO),
    ] {
        let mut iqrs = Vec::new();
        let mut first_excess = Vec::new();
        let mut aa = Vec::new();
        for _ in 0..5 {
            let (mut a, mut b) = (walker(), walker());
            let mut opts = CollectOptions::default()
                .repeats(51)
                .inner_loops(1)
                .skip_warmup(skip);
            if !dur.is_zero() {
                opts = opts.warmup_duration(dur);
            }
            let s = collect(&mut a, &mut b, &opts)?;
            let all: Vec<f64> = s.a.iter().chain(&s.b).copied().collect();
            iqrs.push(rel_iqr(&all));
            let m = median(&all);
            first_excess.push((s.a[0].max(s.b[0]) / m) - 1.0);
            aa.push((median(&s.a) / median(&s.b) - 1.0).abs());
        }
        println!(
            "| {label} | {:.2}% | {:.1}% | {:.2}% |",
            100.0 * median(&iqrs),
            100.0 * median(&first_excess),
            100.0 * median(&aa)
        );
    }
    Ok(())
}

/// Sums every 64th byte of its own freshly allocated 8 MiB buffer, once per operation.
fn walker() -> Candidate<'static> {
    let mut buf: Vec<u8> = Vec::with_capacity(8 << 20);
    // Reserve without touching, so the first walk faults the pages in.
    let mut filled = false;
    Candidate::new("walk", move |n| {
        if !filled {
            buf.resize(8 << 20, 1);
            filled = true;
        }
        for _ in 0..n {
            let mut s = 0u64;
            for chunk in buf.chunks_exact(64) {
                s = s.wrapping_add(chunk[0] as u64);
            }
            black_box(s);
        }
    })
}
