//! Cost of `rtcompare::alloc::Counting` per allocation: alloc + dealloc pairs through the
//! counting wrapper and straight to `std::alloc::System`, for three sizes. Both call the
//! allocators' `GlobalAlloc` methods directly, so the only difference is the counting.
//!
//! Run with `cargo bench --bench alloc` (add `-- --warm-up-time 1 --measurement-time 3` for a
//! quick figure). `cargo run --release --example alloc_cost` gives the same comparison with an
//! interval and an A/A floor; BACKGROUND.md records what this machine measured.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rtcompare::alloc::Counting;

/// One alloc + dealloc pair; the pointer goes through `black_box` so the pair is not removed.
#[inline(always)]
fn pair<A: GlobalAlloc>(allocator: &A, layout: Layout) {
    // SAFETY: the layouts used below have non-zero sizes; the block is freed with the allocator
    // and layout it came from.
    unsafe {
        let p = black_box(allocator.alloc(layout));
        assert!(!p.is_null(), "out of memory");
        allocator.dealloc(p, layout);
    }
}

fn alloc_dealloc(c: &mut Criterion) {
    let mut group = c.benchmark_group("alloc_dealloc");
    for size in [16usize, 256, 4096] {
        let layout = Layout::from_size_align(size, 8).expect("a valid layout");
        group.bench_with_input(BenchmarkId::new("system", size), &layout, |b, &l| {
            b.iter(|| pair(&System, l))
        });
        group.bench_with_input(BenchmarkId::new("counting", size), &layout, |b, &l| {
            b.iter(|| pair(&Counting::new(), l))
        });
    }
    group.finish();
}

criterion_group!(benches, alloc_dealloc);
criterion_main!(benches);
