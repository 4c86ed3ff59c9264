//! The crate's own `cargo bench` harness on a few small operations, as a bench target of a
//! user's crate would register them: `cargo bench --bench harness` (all), `-- sort/` (those
//! whose name contains `sort/`), `-- --exact sum/1000`, `-- --skip sort/`, `-- --list`. The table goes to stdout and the JSON to
//! `target/rtcompare/bench/harness.json`.

use std::hint::black_box;

use rtcompare::Candidate;
use rtcompare::bench::Throughput;

fn main() {
    rtcompare::bench::main(|b| {
        let words: Vec<u32> = (0..1_000u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        // A group of parameterised benchmarks, `sum/1000` and `sum/100000`, each shown with
        // its rate; each input is built only when its benchmark runs.
        b.group("sum", |g| {
            for n in [1_000u32, 100_000] {
                g.throughput(Throughput::Elements(n as u64));
                g.bench_with_input(
                    n,
                    |&n| {
                        (0..n)
                            .map(|i| i.wrapping_mul(2_654_435_761))
                            .collect::<Vec<_>>()
                    },
                    |w| w.iter().map(|&w| w as u64).sum::<u64>(),
                );
            }
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
