//! The counting allocator as a user installs it: exact counts on known allocation patterns,
//! realloc, the live heap and its peak, and what a comparison reports.
//!
//! This binary installs `rtcompare::alloc::Counting` as its global allocator. Its counters are
//! process-wide, and libtest runs tests on several threads and allocates on its own thread
//! between them, which would make exact counts flaky. So this file has no libtest harness
//! (`harness = false` in Cargo.toml): `main` runs the checks one after another on one thread,
//! takes libtest's usual name filters, `--exact`, `--skip` and `--list`, and exits non-zero
//! when a check fails. Timing plays no part: comparisons run on a simulated clock.

use std::hint::black_box;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use rtcompare::alloc::{self, AllocSnapshot, Counting};
use rtcompare::compare::report::{Warning, WorkingSetMeasure};
use rtcompare::support::compare::{compare_with_clock, width_target};
use rtcompare::support::measure::SimulatedClock;
use rtcompare::{Cache, Candidate, CompareOptions, Report};

#[global_allocator]
static ALLOC: Counting = Counting::new();

fn now() -> AllocSnapshot {
    alloc::snapshot().expect("Counting is this binary's global allocator")
}

fn installed_and_snapshots_are_some() {
    assert!(alloc::snapshot().is_some());
    let s = now();
    assert!(
        s.allocations > 0,
        "the runtime and main allocated already: {s}"
    );
    assert_eq!(s.live_bytes, s.bytes_allocated - s.bytes_deallocated, "{s}");
    assert!(s.peak_live_bytes >= s.live_bytes, "{s}");
}

fn one_vec_is_one_allocation_of_its_capacity() {
    let before = now();
    let v: Vec<u64> = black_box(Vec::with_capacity(100));
    let mid = now();
    drop(v);
    let after = now();
    let d = mid.delta_since(&before);
    assert_eq!((d.allocations, d.bytes_allocated), (1, 800), "{d:?}");
    assert_eq!((d.deallocations, d.reallocations), (0, 0), "{d:?}");
    assert_eq!(mid.live_bytes - before.live_bytes, 800);
    let d = after.delta_since(&mid);
    assert_eq!((d.deallocations, d.bytes_deallocated), (1, 800), "{d:?}");
    assert_eq!(d.allocations, 0);
    assert_eq!(after.live_bytes, before.live_bytes);

    // Many small boxes: one allocation each, the size of the value.
    let before = now();
    let boxes: Vec<Box<[u8; 24]>> = (0..1_000).map(|_| Box::new([7u8; 24])).collect();
    let mid = now();
    drop(black_box(boxes));
    let d = mid.delta_since(&before);
    assert_eq!(
        d.allocations, 1_001,
        "1000 boxes and the vector holding them"
    );
    assert_eq!(d.bytes_allocated, 1_000 * 24 + 1_000 * 8);
    assert_eq!(now().live_bytes, before.live_bytes);

    // Zeroed memory goes through alloc_zeroed and counts the same.
    let before = now();
    let z = black_box(vec![0u8; 4_096]);
    let d = now().delta_since(&before);
    assert_eq!((d.allocations, d.bytes_allocated), (1, 4_096), "{d:?}");
    drop(z);
}

fn realloc_counts_growth_and_shrinkage() {
    let before = now();
    let mut v: Vec<u8> = Vec::with_capacity(10);
    v.reserve_exact(1_000);
    assert_eq!(v.capacity(), 1_000);
    let grown = now();
    let d = grown.delta_since(&before);
    assert_eq!((d.allocations, d.reallocations), (1, 1), "{d:?}");
    assert_eq!(d.bytes_allocated, 1_000, "10 allocated, then 990 by growth");
    assert_eq!(grown.live_bytes - before.live_bytes, 1_000);
    assert!(grown.peak_live_bytes >= grown.live_bytes);

    v.shrink_to(100);
    assert_eq!(v.capacity(), 100);
    let shrunk = now();
    let d = shrunk.delta_since(&grown);
    assert_eq!((d.reallocations, d.deallocations), (1, 0), "{d:?}");
    assert_eq!(d.bytes_deallocated, 900);
    assert_eq!(shrunk.live_bytes - before.live_bytes, 100);

    drop(v);
    let after = now();
    let d = after.delta_since(&shrunk);
    assert_eq!((d.deallocations, d.bytes_deallocated), (1, 100), "{d:?}");
    assert_eq!(after.live_bytes, before.live_bytes);
    // Over the whole life of the vector, bytes in equal bytes out.
    let d = after.delta_since(&before);
    assert_eq!(d.bytes_allocated, d.bytes_deallocated);
}

fn the_peak_follows_the_live_heap_and_resets() {
    let start = alloc::reset_peak().expect("installed");
    assert_eq!(now().peak_live_bytes, start);
    let big = black_box(vec![1u8; 1 << 20]);
    let with_big = now();
    assert_eq!(with_big.live_bytes, start + (1 << 20));
    assert_eq!(with_big.peak_live_bytes, with_big.live_bytes);
    drop(big);
    let after = now();
    assert_eq!(after.live_bytes, start);
    assert_eq!(after.peak_live_bytes, start + (1 << 20), "the peak stays");
    assert_eq!(alloc::reset_peak(), Some(start));
    assert_eq!(now().peak_live_bytes, start);
}

/// A candidate costing `ns` simulated nanoseconds per operation; `allocating` ones make one
/// `Vec::with_capacity(100)` of u64 per operation. Their setup allocates too, outside the
/// counted region.
fn candidate<'a>(
    name: &'a str,
    clock: &SimulatedClock,
    ns: u64,
    allocating: bool,
) -> Candidate<'a> {
    let c = clock.clone();
    let mut scratch: Vec<String> = Vec::new();
    Candidate::new(name, move |n| {
        for _ in 0..n {
            if allocating {
                let v: Vec<u64> = Vec::with_capacity(100);
                black_box(&v);
            }
        }
        c.advance(ns * n);
    })
    .with_setup(move || {
        scratch.clear();
        scratch.push(black_box(String::from(
            "setup allocates, and is not counted",
        )));
    })
}

fn options() -> CompareOptions {
    CompareOptions::default()
        .seed(7)
        .resamples(1_000)
        .validation_runs(10)
        .inner_loops(100)
        .warmup_duration(Duration::from_millis(1))
}

fn a_comparison_reports_allocations_per_operation() {
    let clock = SimulatedClock::new(1);
    let a = candidate("allocates", &clock, 150, true);
    let b = candidate("does not", &clock, 100, false);
    let r = compare_with_clock(a, b, &options(), &clock).unwrap();
    let s = r.resources.allocations.expect("Counting is installed");
    assert_eq!(s.inner_loops, 100);
    assert_eq!(s.a.allocations_per_op, 1.0, "{s}");
    assert_eq!(s.a.bytes_per_op, 800.0, "{s}");
    assert_eq!(s.a.deallocations_per_op, 1.0, "{s}");
    assert_eq!(s.a.reallocations_per_op, 0.0, "{s}");
    assert_eq!(s.a.mean_allocations_per_op, 1.0, "{s}");
    assert_eq!(s.a.mean_bytes_per_op, 800.0, "{s}");
    assert_eq!(s.b.allocations_per_op, 0.0, "{s}");
    assert_eq!(s.b.bytes_per_op, 0.0, "{s}");
    assert_eq!(s.a.batches, r.samples_a.len());
    assert_eq!(s.b.batches, r.samples_b.len());

    let h = r.resources.live_heap.expect("Counting is installed");
    assert!(
        h.start_bytes <= h.peak_bytes && h.end_bytes <= h.peak_bytes,
        "{h}"
    );
    // rtcompare's own working memory during a comparison is small.
    assert!(h.peak_bytes - h.start_bytes < 4 << 20, "{h}");
    assert!(!r.has_warning("large_working_set"), "{r}");

    let text = r.to_string();
    assert!(
        text.contains("A: 1 allocation (800 B), 0 reallocations, 1 deallocation"),
        "{text}"
    );
    assert!(text.contains("B: 0 allocations (0 B)"), "{text}");
    assert!(text.contains("Live heap: "), "{text}");

    // JSON round trip, and a report from before these fields existed still reads.
    let json = r.to_json().unwrap();
    assert_eq!(Report::from_json(&json).unwrap(), r);
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let object = value.as_object_mut().unwrap();
    assert!(object.remove("allocations").is_some());
    assert!(object.remove("live_heap").is_some());
    let old = Report::from_json(&value.to_string()).unwrap();
    assert_eq!(
        (old.resources.allocations, old.resources.live_heap),
        (None, None)
    );
}

fn a_width_target_counts_the_allocations_of_every_round() {
    // A's batches vary by a few simulated nanoseconds, so the interval has a width and an
    // unreachable target makes the comparison measure more rounds until its budget of 150
    // pairs is spent. The allocation counts must cover those rounds too, not only the first
    // 101 pairs.
    let clock = SimulatedClock::new(1);
    let batches = std::cell::Cell::new(0u64);
    let c = clock.clone();
    let a = Candidate::new("allocates, jittery", move |n| {
        for _ in 0..n {
            let v: Vec<u64> = Vec::with_capacity(100);
            black_box(&v);
        }
        batches.set(batches.get() + 1);
        c.advance(150 * n + batches.get() * 7_919 % 13);
    });
    let b = candidate("does not", &clock, 100, false);
    let target = rtcompare::support::stats::WidthTarget::new(1e-9).max_pairs(150);
    let opts = width_target(options().skip_validation(true), target);
    let r = compare_with_clock(a, b, &opts, &clock).unwrap();
    assert_eq!(r.run.width_target_met, Some(false), "{r}");
    let pairs = r.samples_a.len();
    assert!(pairs > 101, "more rounds were measured: {pairs}");
    let s = r.resources.allocations.expect("Counting is installed");
    assert_eq!((s.a.batches, s.b.batches), (pairs, pairs), "{s}");
    assert_eq!(s.a.allocations_per_op, 1.0, "{s}");
    assert_eq!(s.a.mean_allocations_per_op, 1.0, "{s}");
}

fn a_large_fixture_built_beforehand_warns_by_the_live_heap() {
    // 32 MiB of zeroed memory the candidates never touch: its pages are not even resident, so
    // the peak resident set cannot see it, but the live heap does.
    let fixture = black_box(vec![0u8; 32 << 20]);
    let clock = SimulatedClock::new(1);
    let a = candidate("a", &clock, 100, false);
    let b = candidate("b", &clock, 200, false);
    let r = compare_with_clock(a, b, &options().skip_validation(true), &clock).unwrap();
    drop(fixture);
    let h = r.resources.live_heap.unwrap();
    assert!(h.start_bytes >= 32 << 20, "{h}");
    let large: Vec<&Warning> = r
        .warnings
        .iter()
        .filter(|w| w.code() == "large_working_set")
        .collect();
    match large.as_slice() {
        [
            Warning::LargeWorkingSet {
                bytes,
                measure: WorkingSetMeasure::LiveHeap,
            },
        ] => assert_eq!(*bytes, h.peak_bytes),
        other => panic!("expected one live-heap warning, got {other:?}\n{r}"),
    }
    assert!(r.to_string().contains("the live heap reached"), "{r}");
}

fn a_cold_runs_eviction_buffer_is_not_the_working_set() {
    let clock = SimulatedClock::new(1);
    let a = candidate("a", &clock, 100, false);
    let b = candidate("b", &clock, 200, false);
    let opts = options()
        .cache(Cache::Cold)
        .skip_validation(true)
        .repeats(11)
        .skip_warmup(true);
    let r = compare_with_clock(a, b, &opts, &clock).unwrap();
    let info = r.run.cache_info.expect("a cold run");
    let h = r.resources.live_heap.unwrap();
    // The buffer is on the live heap for the whole comparison …
    assert!(h.start_bytes >= info.buffer_bytes, "{h} {info}");
    // … but it is rtcompare's, so it is not taken for the candidates' working set.
    assert!(!r.has_warning("large_working_set"), "{r}");
}

fn main() {
    let checks: [(&str, fn()); 8] = [
        (
            "installed_and_snapshots_are_some",
            installed_and_snapshots_are_some,
        ),
        (
            "one_vec_is_one_allocation_of_its_capacity",
            one_vec_is_one_allocation_of_its_capacity,
        ),
        (
            "realloc_counts_growth_and_shrinkage",
            realloc_counts_growth_and_shrinkage,
        ),
        (
            "the_peak_follows_the_live_heap_and_resets",
            the_peak_follows_the_live_heap_and_resets,
        ),
        (
            "a_comparison_reports_allocations_per_operation",
            a_comparison_reports_allocations_per_operation,
        ),
        (
            "a_width_target_counts_the_allocations_of_every_round",
            a_width_target_counts_the_allocations_of_every_round,
        ),
        (
            "a_large_fixture_built_beforehand_warns_by_the_live_heap",
            a_large_fixture_built_beforehand_warns_by_the_live_heap,
        ),
        (
            "a_cold_runs_eviction_buffer_is_not_the_working_set",
            a_cold_runs_eviction_buffer_is_not_the_working_set,
        ),
    ];
    let args = Args::parse();
    let chosen: Vec<_> = checks.iter().filter(|(name, _)| args.runs(name)).collect();
    if args.list {
        for (name, _) in &chosen {
            println!("{name}: test");
        }
        return;
    }
    println!("\nrunning {} tests (one thread, no harness)", chosen.len());
    let mut failed = Vec::new();
    for (name, check) in &chosen {
        let ok = catch_unwind(AssertUnwindSafe(check)).is_ok();
        println!("test {name} ... {}", if ok { "ok" } else { "FAILED" });
        if !ok {
            failed.push(*name);
        }
    }
    let skipped = checks.len() - chosen.len();
    if failed.is_empty() {
        println!(
            "\ntest result: ok. {} passed; 0 failed; {skipped} filtered out\n",
            chosen.len()
        );
    } else {
        println!(
            "\ntest result: FAILED. {} passed; {} failed ({}); {skipped} filtered out\n",
            chosen.len() - failed.len(),
            failed.len(),
            failed.join(", ")
        );
        std::process::exit(101);
    }
}

/// The subset of libtest's command line that selects tests; other options are accepted and
/// ignored (with their values), so `cargo test` can pass them to every test binary.
#[derive(Default)]
struct Args {
    filters: Vec<String>,
    skip: Vec<String>,
    exact: bool,
    list: bool,
}

impl Args {
    fn parse() -> Args {
        const TAKES_VALUE: [&str; 6] = [
            "--test-threads",
            "--color",
            "--format",
            "--logfile",
            "--shuffle-seed",
            "-Z",
        ];
        let mut args = Args::default();
        let mut it = std::env::args().skip(1);
        while let Some(a) = it.next() {
            match a.as_str() {
                "--skip" => args.skip.extend(it.next()),
                "--exact" => args.exact = true,
                "--list" => args.list = true,
                flag if TAKES_VALUE.contains(&flag) => {
                    it.next();
                }
                flag if flag.starts_with('-') => {}
                filter => args.filters.push(filter.to_string()),
            }
        }
        args
    }

    fn runs(&self, name: &str) -> bool {
        let matches = |pattern: &String| {
            if self.exact {
                name == pattern
            } else {
                name.contains(pattern.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skip.iter().any(matches)
    }
}
