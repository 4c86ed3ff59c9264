//! Cost of generating a workload stream, per operation (fill and churn together), for the
//! suite's specs. `cargo bench -p rtcompare-workload --bench workload`; the budget is 30 ns
//! per operation.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rtcompare_workload::{KeyDistribution, Mix, Spec};

const OPS: usize = 1_000_000;

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("workload_stream");
    group.sample_size(10);
    for steady in [1_000u64, 1_000_000] {
        for (dist_name, dist) in [
            ("uniform", KeyDistribution::Uniform),
            ("zipf1.1", KeyDistribution::Zipf { exponent: 1.1 }),
            ("sequential", KeyDistribution::Sequential),
        ] {
            for (mix_name, mix) in [("churn", Mix::churn()), ("read_heavy", Mix::read_heavy())] {
                let spec = Spec::default()
                    .steady_size(steady)
                    .distribution(dist)
                    .mix(mix);
                group.throughput(Throughput::Elements(steady + OPS as u64));
                group.bench_with_input(
                    BenchmarkId::new(format!("{dist_name}/{mix_name}"), steady),
                    &spec,
                    |b, spec| b.iter(|| spec.stream(OPS).unwrap()),
                );
            }
        }
    }
    group.finish();
}

criterion_group!(benches, generation);
criterion_main!(benches);
