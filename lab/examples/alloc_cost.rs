//! What `rtcompare::alloc::Counting` costs per allocation: alloc + dealloc pairs through the
//! counting wrapper against the same pairs straight to `std::alloc::System`, compared with
//! rtcompare's own `compare()` so the cost comes with an interval.
//!
//! Both candidates call the allocators' `GlobalAlloc` methods directly, so one binary holds
//! both and the only difference between them is the counting. The program also installs
//! `Counting` as its global allocator, so each report's allocation section shows the counts at
//! work: one allocation per operation for the counting side, none for the system side (its
//! calls bypass the counters).
//!
//! With `--variants` it also compares `Counting` with the two designs it replaced, which kept
//! the live heap in a counter of its own (updated on both paths): one that also counted bytes
//! deallocated (three additions per allocation, three per deallocation) and one that derived
//! them from the live counter (three and two). `Counting` keeps no live counter and derives the
//! live heap as bytes allocated − bytes deallocated (two and two).
//!
//! Run: `cargo run --release -p rtcompare-lab --example alloc_cost [-- --sizes 16,256,4096] [--variants]`

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rtcompare::alloc::Counting;
use rtcompare::{Candidate, CompareOptions, compare};

#[global_allocator]
static ALLOC: Counting = Counting::new();

/// `n` alloc + dealloc pairs of `size` bytes through `allocator`. The pointer goes through
/// `black_box`, so the compiler cannot pair the two calls away.
fn pairs<A: GlobalAlloc + 'static>(name: &str, allocator: A, size: usize) -> Candidate<'static> {
    let layout = Layout::from_size_align(size, 8).expect("a valid layout");
    Candidate::new(name.to_string(), move |n| {
        for _ in 0..n {
            // SAFETY: the layout has a non-zero size; the block is freed with the allocator
            // and layout it came from.
            unsafe {
                let p = black_box(allocator.alloc(layout));
                assert!(!p.is_null(), "out of memory");
                allocator.dealloc(p, layout);
            }
        }
    })
}

/// The counters of a replaced design: a live counter of its own, and optionally bytes
/// deallocated counted separately.
#[repr(align(64))]
struct LiveCounter {
    allocations: AtomicU64,
    deallocations: AtomicU64,
    bytes_allocated: AtomicU64,
    bytes_deallocated: AtomicU64,
    live: AtomicU64,
    peak: AtomicU64,
}

impl LiveCounter {
    const fn new() -> Self {
        LiveCounter {
            allocations: AtomicU64::new(0),
            deallocations: AtomicU64::new(0),
            bytes_allocated: AtomicU64::new(0),
            bytes_deallocated: AtomicU64::new(0),
            live: AtomicU64::new(0),
            peak: AtomicU64::new(0),
        }
    }
}

/// A replaced design over `System`; `COUNT_FREED` says whether it also counted bytes freed.
struct LiveCounting<const COUNT_FREED: bool>(&'static LiveCounter);

static FIRST: LiveCounter = LiveCounter::new();
static SECOND: LiveCounter = LiveCounter::new();

// SAFETY: forwards unchanged to `System`; the counting touches only atomics.
unsafe impl<const COUNT_FREED: bool> GlobalAlloc for LiveCounting<COUNT_FREED> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, which `System` shares.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let (c, size) = (self.0, layout.size() as u64);
            c.allocations.fetch_add(1, Relaxed);
            c.bytes_allocated.fetch_add(size, Relaxed);
            let live = c.live.fetch_add(size, Relaxed).wrapping_add(size);
            if live > c.peak.load(Relaxed) {
                c.peak.fetch_max(live, Relaxed);
            }
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        let (c, size) = (self.0, layout.size() as u64);
        c.deallocations.fetch_add(1, Relaxed);
        if COUNT_FREED {
            c.bytes_deallocated.fetch_add(size, Relaxed);
        }
        c.live.fetch_sub(size, Relaxed);
    }
}

/// One comparison of `a` against `b`, as a table row.
fn row(
    label: &str,
    a: Candidate<'static>,
    b: Candidate<'static>,
) -> Result<String, rtcompare::Error> {
    let r = compare(a, b, &CompareOptions::default().seed(42))?;
    eprintln!("\n## {label}\n{r}");
    // δ = 1 − A/B; B/A = ratio. The extra cost per pair is (B/A − 1) × A.
    let extra = |ratio: f64| (ratio - 1.0) * r.ns_per_op_a;
    let (lo, hi) = (r.ratio.low.min(r.ratio.high), r.ratio.low.max(r.ratio.high));
    Ok(format!(
        "| {label} | {:.2} ns | {:.2} ns | {:+.2} ns [{:+.2}, {:+.2}] | {:+.1}% [{:+.1}%, {:+.1}%] | {:.2}% | {} |",
        r.ns_per_op_a,
        r.ns_per_op_b,
        extra(r.ratio.ratio),
        extra(lo),
        extra(hi),
        100.0 * (r.ratio.ratio - 1.0),
        100.0 * (lo - 1.0),
        100.0 * (hi - 1.0),
        100.0 * r.noise_floor,
        if r.resolved {
            "resolved"
        } else {
            "cannot tell"
        },
    ))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut sizes = vec![16usize, 256, 4096];
    let mut variants = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--variants" {
            variants = true;
        } else if a == "--sizes" {
            sizes = args
                .next()
                .ok_or("--sizes needs a comma-separated list")?
                .split(',')
                .map(str::parse)
                .collect::<Result<_, _>>()?;
        }
    }
    if sizes.contains(&0) {
        return Err("sizes must be at least 1 byte".into());
    }
    let list: Vec<String> = sizes.iter().map(usize::to_string).collect();
    println!("# Counting's cost per alloc + dealloc pair");
    println!(
        "command: cargo run --release -p rtcompare-lab --example alloc_cost -- --sizes {}{}",
        list.join(","),
        if variants { " --variants" } else { "" }
    );
    let env = rtcompare::env::Environment::capture();
    println!(
        "machine: {} logical cores, {}, hypervisor {:?}, load average at start {:?}, {}",
        env.logical_cores.unwrap_or(0),
        env.cpu_model.as_deref().unwrap_or("unknown CPU"),
        env.hypervisor,
        env.load_average_start,
        env.start_time.as_deref().unwrap_or("unknown time"),
    );
    let header = |a: &str, b: &str| {
        println!();
        println!(
            "| size | {a}, ns per pair (median) | {b}, ns per pair (median) | {b}'s extra cost per pair [95 % interval] | relative [95 % interval] | A/A noise floor | verdict |"
        );
        println!("|---|---|---|---|---|---|---|");
    };
    let mut rows = Vec::new();
    for &size in &sizes {
        let label = format!("{size} B");
        rows.push(row(
            &label,
            pairs("System", System, size),
            pairs("Counting", Counting::new(), size),
        )?);
    }
    header("System", "Counting");
    rows.iter().for_each(|r| println!("{r}"));
    if variants {
        let (mut first, mut second) = (Vec::new(), Vec::new());
        for &size in &sizes {
            let label = format!("{size} B");
            first.push(row(
                &label,
                pairs("Counting", Counting::new(), size),
                pairs("live + freed counters", LiveCounting::<true>(&FIRST), size),
            )?);
            second.push(row(
                &label,
                pairs("Counting", Counting::new(), size),
                pairs("live counter", LiveCounting::<false>(&SECOND), size),
            )?);
        }
        header("Counting", "live + freed counters (3 + 3 additions)");
        first.iter().for_each(|r| println!("{r}"));
        header("Counting", "live counter (3 + 2 additions)");
        second.iter().for_each(|r| println!("{r}"));
    }
    let end = rtcompare::env::load_average();
    println!("\nload average at the end: {end:?}");
    Ok(())
}
