//! Cost of `rtcompare::alloc::Counting` per allocation: alloc + dealloc pairs through the
//! counting wrapper against straight to `std::alloc::System`, for three sizes, each pair of
//! paths compared in one interleaved run (the crate's own harness: `b.compare`). Both call the
//! allocators' `GlobalAlloc` methods directly, so the only difference is the counting.
//!
//! Run with `cargo bench --bench alloc` (`-- 4096` for one size). `cargo run --release
//! -p rtcompare-lab --example alloc_cost` gives the same comparison with more sizes; docs/background.md records what
//! this machine measured.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;

use rtcompare::Candidate;
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

fn main() {
    rtcompare::bench::main(|b| {
        for size in [16usize, 256, 4096] {
            let layout = Layout::from_size_align(size, 8).expect("a valid layout");
            b.compare(
                &format!("alloc_dealloc/{size}/counting-vs-system"),
                Candidate::from_fn("counting", move || pair(&Counting::new(), layout)),
                Candidate::from_fn("system", move || pair(&System, layout)),
            );
        }
    });
}
