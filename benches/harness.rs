//! The crate's own `cargo bench` harness on a few small operations, as a bench target of a
//! user's crate would register them: `cargo bench --bench harness` (all), `-- sort/` (those
//! whose name contains `sort/`), `-- --list`. The table goes to stdout and the JSON to
//! `target/rtcompare/bench/harness.json`.

use std::hint::black_box;

use rtcompare::Candidate;

fn main() {
    rtcompare::bench::main(|b| {
        let words: Vec<u32> = (0..1_000u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        b.bench("sum/1000", || {
            black_box(&words).iter().map(|&w| w as u64).sum::<u64>()
        });
        b.bench_batched(
            "sort/unstable",
            || words.clone(),
            |mut v| {
                v.sort_unstable();
                v
            },
        );
        b.bench_batched(
            "sort/stable",
            || words.clone(),
            |mut v| {
                v.sort();
                v
            },
        );
        b.compare(
            "sort/unstable-vs-stable",
            Candidate::from_fn("sort_unstable", || {
                let mut v = black_box(&words).clone();
                v.sort_unstable();
                v
            }),
            Candidate::from_fn("sort", || {
                let mut v = black_box(&words).clone();
                v.sort();
                v
            }),
        );
    });
}
