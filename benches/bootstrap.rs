//! Cost of one paired bootstrap as `compare()` runs it: 5,000 replicates of 101 pairs, with
//! single draws and with blocks of 5 (the automatic length for 101 pairs).
//!
//! Run with `cargo bench --bench bootstrap` (add `-- --warm-up-time 1 --measurement-time 3`
//! for a quick figure). The arithmetic floor is about 5,000 × (101 bounded draws + one
//! selection over 101 values) ≈ 1.5 ms; docs/background.md records what this machine measured.

use criterion::{Criterion, criterion_group, criterion_main};
use rtcompare::stats::{EstimateOptions, estimate_difference};
use rtcompare::support::rng::Rng;
use std::hint::black_box;

/// 101 paired timings around 100 and 110 ns with 3 % lognormal-ish noise and a shared
/// disturbance, deterministic.
fn samples() -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng::new(2024);
    let mut a = Vec::with_capacity(101);
    let mut b = Vec::with_capacity(101);
    for _ in 0..101 {
        let common = (0.05 * rng.next_normal()).exp();
        a.push(100.0 * common * (0.03 * rng.next_normal()).exp());
        b.push(110.0 * common * (0.03 * rng.next_normal()).exp());
    }
    (a, b)
}

fn paired_bootstrap(c: &mut Criterion) {
    let (a, b) = samples();
    let plain = EstimateOptions::default()
        .resamples(5_000)
        .seed(1)
        .paired(true);
    let blocks = plain.block_length(5);
    let unpaired = EstimateOptions::default().resamples(5_000).seed(1);
    c.bench_function("paired_101x5000", |bench| {
        bench.iter(|| estimate_difference(black_box(&a), black_box(&b), black_box(&plain)))
    });
    c.bench_function("paired_blocks5_101x5000", |bench| {
        bench.iter(|| estimate_difference(black_box(&a), black_box(&b), black_box(&blocks)))
    });
    c.bench_function("unpaired_101x5000", |bench| {
        bench.iter(|| estimate_difference(black_box(&a), black_box(&b), black_box(&unpaired)))
    });
}

criterion_group!(benches, paired_bootstrap);
criterion_main!(benches);
