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
//! Run: `cargo run --release --example alloc_cost [-- --sizes 16,256,4096]`

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;

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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut sizes = vec![16usize, 256, 4096];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--sizes" {
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
        "command: cargo run --release --example alloc_cost -- --sizes {}",
        list.join(",")
    );
    let env = rtcompare::Environment::capture();
    println!(
        "machine: {} logical cores, {}, hypervisor {:?}, load average at start {:?}, {}",
        env.logical_cores.unwrap_or(0),
        env.cpu_model.as_deref().unwrap_or("unknown CPU"),
        env.hypervisor,
        env.load_average_start,
        env.start_time.as_deref().unwrap_or("unknown time"),
    );
    let mut rows = Vec::new();
    for &size in &sizes {
        let a = pairs("System", System, size);
        let b = pairs("Counting", Counting::new(), size);
        let r = compare(a, b, &CompareOptions::default().seed(42))?;
        eprintln!("\n## {size} B\n{r}");
        // δ = 1 − A/B; B/A = ratio. The extra cost per pair is (B/A − 1) × A.
        let extra = |ratio: f64| (ratio - 1.0) * r.ns_per_op_a;
        let (lo, hi) = (r.ratio.low.min(r.ratio.high), r.ratio.low.max(r.ratio.high));
        rows.push(format!(
            "| {size} B | {:.2} ns | {:.2} ns | {:+.2} ns [{:+.2}, {:+.2}] | {:.1}% [{:.1}%, {:.1}%] | {:.2}% | {} |",
            r.ns_per_op_a,
            r.ns_per_op_b,
            extra(r.ratio.ratio),
            extra(lo),
            extra(hi),
            100.0 * (r.ratio.ratio - 1.0),
            100.0 * (lo - 1.0),
            100.0 * (hi - 1.0),
            100.0 * r.noise_floor,
            if r.resolved { "resolved" } else { "cannot tell" },
        ));
    }
    println!();
    println!(
        "| size | System, ns per pair (median) | Counting, ns per pair (median) | Counting's extra cost per pair [95 % interval] | relative [95 % interval] | A/A noise floor | verdict |"
    );
    println!("|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
    let end = rtcompare::env::load_average();
    println!("\nload average at the end: {end:?}");
    Ok(())
}
