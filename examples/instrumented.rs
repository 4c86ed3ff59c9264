//! What the environment stamp finds about emulators and instrumentation, and what
//! `compare()` does with it. Run it natively, under Valgrind and under QEMU user mode:
//!
//! ```text
//! cargo build --release --example instrumented
//! target/release/examples/instrumented
//! valgrind -q target/release/examples/instrumented
//! qemu-x86_64 target/release/examples/instrumented          # qemu-user of the same arch
//! valgrind -q target/release/examples/instrumented --allow  # measure anyway
//! ```
//!
//! It prints the raw observations the detection rests on (read here with std alone), the
//! stamp's `instrumented_by`, how long the first detection took, what a gate would do, and the
//! outcome of a short comparison of two 64-step dependency chains: floating-point
//! multiply-adds (A) against integer multiply-xor-shift rounds (B). `--allow` sets
//! `CompareOptions::allow_instrumented(true)` so the comparison runs under a tool too; it shows
//! why the default is to refuse (docs/background.md, "Timings under an emulator").

use std::hint::black_box;
use std::time::{Duration, Instant};

use rtcompare::env::Environment;
use rtcompare::env::detect_instrumentation;
use rtcompare::gate::{GateOptions, skip_reason};
use rtcompare::{Candidate, CompareOptions, compare};

fn main() {
    let allow = std::env::args().any(|a| a == "--allow");
    println!("# rtcompare: emulator and instrumentation detection");

    // The first call probes (a few system calls and one read of /proc/self/maps); later calls
    // return the cached answer.
    let t = Instant::now();
    let found = detect_instrumentation();
    let first = t.elapsed();
    let t = Instant::now();
    let again = detect_instrumentation();
    let cached = t.elapsed();
    assert_eq!(found, again);

    println!("raw observations:");
    for path in ["/proc/self/exe", "/proc/thread-self/exe"] {
        let target = std::fs::read_link(path)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|e| format!("unreadable ({e})"));
        println!("  readlink {path:<22} {target}");
    }
    println!(
        "  LD_PRELOAD                      {:?}",
        std::env::var("LD_PRELOAD").ok()
    );
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    println!(
        "  /proc/self/maps                 {} lines, {} naming vgpreload_",
        maps.lines().count(),
        maps.lines().filter(|l| l.contains("/vgpreload_")).count()
    );
    let comm = std::fs::read_to_string("/proc/self/comm").unwrap_or_default();
    println!("  /proc/self/comm                 {:?}", comm.trim());

    let env = Environment::capture();
    println!(
        "stamp: instrumented_by = {} (first detection {:.1} µs, cached {:.2} µs)",
        serde_json::to_string(&env.instrumented_by).expect("plain data"),
        first.as_secs_f64() * 1e6,
        cached.as_secs_f64() * 1e6
    );
    match &env.instrumented_by {
        Some(tool) => println!("       meaning: {tool}"),
        None => println!("       meaning: nothing found"),
    }
    match skip_reason(&GateOptions::default().force(true)) {
        Ok(()) => println!("gate (forced in debug builds): would run"),
        Err(skip) => println!("gate (forced in debug builds): skipped: {skip}"),
    }

    // Two dependency chains of 64 steps: floating-point multiply-adds against integer
    // multiply-xor-shift rounds. Natively the float chain is the shorter one; QEMU runs
    // floating point through software helpers and integers almost natively.
    let a = Candidate::from_fn("float", || {
        let mut x = black_box(1.5f64);
        for _ in 0..64 {
            x = x * 1.000_000_1 + 0.5;
        }
        x
    });
    let b = Candidate::from_fn("integer", || {
        let mut x = black_box(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..64 {
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd) ^ (x >> 29);
            x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53) ^ (x >> 32);
        }
        x
    });
    let opts = CompareOptions::default()
        .seed(1)
        .skip_validation(true)
        .repeats(21)
        .resamples(1_000)
        .warmup_duration(Duration::from_millis(50))
        .allow_instrumented(allow);
    println!(
        "compare(float, integer), 21 pairs, allow_instrumented({allow}), {} build:",
        if env.debug_build { "debug" } else { "release" }
    );
    let t = Instant::now();
    match compare(a, b, &opts) {
        Ok(r) => {
            println!(
                "  {:.1} ns against {:.1} ns per chain: integer/float = {:.2} [{:.2}, {:.2}]; {:.1} s",
                r.ns_per_op_a,
                r.ns_per_op_b,
                r.ratio.ratio,
                r.ratio.low.min(r.ratio.high),
                r.ratio.low.max(r.ratio.high),
                t.elapsed().as_secs_f64()
            );
            println!("  verdict: {}", r.verdict);
            for w in &r.warnings {
                println!("  warning [{}]: {w}", w.code());
            }
        }
        Err(e) => println!("  error: {e}"),
    }
}
