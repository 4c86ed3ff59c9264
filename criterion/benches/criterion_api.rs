//! A bench file written against criterion's API as its users write one. Users rename the
//! crate to `criterion` in their Cargo.toml; a crate's own bench target cannot, so the line
//! below does it. `cargo test --benches` runs each benchmark once; `cargo bench -p
//! rtcompare-criterion` measures them.

extern crate rtcompare_criterion as criterion;

use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{
    BatchSize, Bencher, BenchmarkGroup, BenchmarkId, Criterion, PlotConfiguration, SamplingMode,
    Throughput, black_box, criterion_group, criterion_main,
};

fn fibonacci(n: u64) -> u64 {
    (0..n)
        .fold((0u64, 1u64), |(a, b), _| (b, a.wrapping_add(b)))
        .0
}

fn plain(c: &mut Criterion) {
    c.bench_function("fib 20", |b| b.iter(|| fibonacci(black_box(20))));
    c.bench_with_input(BenchmarkId::new("fib", 30), &30u64, |b, &n| {
        b.iter(|| fibonacci(black_box(n)))
    });
}

fn sum_into(group: &mut BenchmarkGroup<'_, WallTime>, data: &[u64]) {
    group.bench_with_input(BenchmarkId::new("sum", data.len()), data, |b, d| {
        b.iter(|| d.iter().sum::<u64>())
    });
}

fn groups(c: &mut Criterion) {
    let mut group = c.benchmark_group("slices");
    group
        .sample_size(20)
        .sampling_mode(SamplingMode::Flat)
        .plot_config(PlotConfiguration::default());
    for n in [64usize, 1_024] {
        let data: Vec<u64> = (0..n as u64).collect();
        group.throughput(Throughput::Elements(n as u64));
        sum_into(&mut group, &data);
        group.throughput(Throughput::Bytes(8 * n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &data, |b, d| {
            b.iter(|| d.iter().max().copied())
        });
    }
    group.finish();
}

fn batched(c: &mut Criterion) {
    let mut group = c.benchmark_group("sort");
    group.bench_function("batched", |b| {
        b.iter_batched(
            || vec![5u32, 3, 9, 1, 7],
            |mut v| {
                v.sort();
                v
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("batched_ref", |b| {
        b.iter_batched_ref(
            || vec![5u32, 3, 9, 1, 7],
            |v| v.sort(),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("with_setup", |b| {
        b.iter_with_setup(
            || vec![2u8; 64],
            |v| v.into_iter().map(u64::from).sum::<u64>(),
        )
    });
    group.bench_function("large_drop", |b| {
        b.iter_with_large_drop(|| vec![0u8; 4_096])
    });
    group.finish();
}

fn custom(b: &mut Bencher) {
    b.iter_custom(|iters| {
        let start = Instant::now();
        for i in 0..iters {
            black_box(fibonacci(black_box(i % 16)));
        }
        start.elapsed()
    });
}

fn timed_by_the_file(c: &mut Criterion) {
    c.bench_function("custom", custom);
}

criterion_group!(benches, plain, groups, batched);
criterion_group! {
    name = configured;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1))
        .confidence_level(0.9)
        .without_plots();
    targets = timed_by_the_file
}
criterion_main!(benches, configured);
