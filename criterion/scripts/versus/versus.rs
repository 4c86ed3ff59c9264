//! One bench file, run by criterion itself and by rtcompare-criterion (criterion/scripts/
//! versus.sh builds it against each): nine benchmarks from nanoseconds to tens of
//! microseconds, across a plain function, groups with inputs and throughputs, and
//! `iter_batched`/`iter_batched_ref`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};

fn fibonacci(n: u64) -> u64 {
    (0..n).fold((0u64, 1u64), |(a, b), _| (b, a.wrapping_add(b))).0
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Numbers in a fixed pseudo-random order (a linear congruential generator).
fn shuffled(n: usize) -> Vec<u32> {
    let mut x = 12_345u64;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) as u32
        })
        .collect()
}

fn plain(c: &mut Criterion) {
    c.bench_function("fib/40", |b| b.iter(|| fibonacci(black_box(40))));
    let text = (0..200).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
    c.bench_function("parse/200", |b| {
        b.iter(|| black_box(&text).split(',').map(|s| s.parse::<u32>().unwrap()).sum::<u32>())
    });
}

fn groups(c: &mut Criterion) {
    let mut sum = c.benchmark_group("sum");
    for n in [64u64, 4_096] {
        let v: Vec<u64> = (0..n).collect();
        sum.throughput(Throughput::Elements(n));
        sum.bench_with_input(BenchmarkId::from_parameter(n), &v, |b, v| {
            b.iter(|| black_box(v).iter().sum::<u64>())
        });
    }
    sum.finish();
    let mut hash = c.benchmark_group("hash");
    for n in [64usize, 16_384] {
        let data = vec![0xa5u8; n];
        hash.throughput(Throughput::Bytes(n as u64));
        hash.bench_with_input(BenchmarkId::new("fnv1a", n), &data, |b, d| {
            b.iter(|| fnv1a(black_box(d)))
        });
    }
    hash.finish();
}

fn batched(c: &mut Criterion) {
    let mut sort = c.benchmark_group("sort");
    let small = shuffled(256);
    sort.bench_function("batched/256", |b| {
        b.iter_batched(|| small.clone(), |mut v| { v.sort_unstable(); v }, BatchSize::SmallInput)
    });
    let large = shuffled(10_000);
    sort.bench_function("batched_ref/10000", |b| {
        b.iter_batched_ref(|| large.clone(), |v| v.sort_unstable(), BatchSize::LargeInput)
    });
    sort.finish();
    c.bench_function("format/u64", |b| b.iter(|| black_box(1_234_567_890u64).to_string()));
}

criterion_group!(benches, plain, groups, batched);
criterion_main!(benches);
