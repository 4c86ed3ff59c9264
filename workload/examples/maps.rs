//! `std::collections::HashMap` against `BTreeMap`, and against a `HashMap` with a faster
//! (Fx-style multiply-rotate) hasher, under the standard workload matrix: 10³ and 10⁶ keys ×
//! uniform and Zipf 1.1 keys × read-heavy 90/5/5 and churn 40/40/20.
//!
//! ```text
//! # the table, then the streams' realised mix
//! cargo run --release -p rtcompare-workload --example maps
//! # the suite's JSON on stdout
//! cargo run --release -p rtcompare-workload --example maps -- --json
//! # every cell pooled over 5 processes
//! cargo run --release -p rtcompare-workload --example maps -- --processes 5
//! ```
//!
//! With `--processes K` (K ≥ 3) every cell runs in K fresh processes of this program
//! ([`Suite::processes`]), and its verdict and interval are the pool's: between-process
//! differences (memory layout, code placement) are then inside the interval instead of
//! outside it.
//!
//! Either way the suite's JSON is written to `target/rtcompare/maps.json` below the directory
//! it runs in; progress goes to stderr. Each cell runs 20 A/A runs instead of the default 40
//! (the other options are the defaults: 101 pairs, 5,000 resamples, 300 ms warm-up), which
//! keeps the sixteen cells to about a minute on a 2-core machine. The counting allocator is installed, so the memory
//! column is each map's live heap at the steady size (it adds 1–2 ns per allocation to both
//! maps alike). docs/background.md holds this table from the development machine.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use rtcompare::CompareOptions;
use rtcompare::alloc::Counting;
use rtcompare_workload::{Suite, standard_specs};

#[global_allocator]
static ALLOC: Counting = Counting::new();

/// The multiply-rotate hash of rustc's `FxHasher`, written out here rather than taken as a
/// dependency: fast on integer keys and not resistant to collision attacks, which is the
/// trade a faster hasher makes.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxHashMap = HashMap<u64, u64, BuildHasherDefault<Fx>>;

/// Churn operations per stream for the realised-vs-spec table and the generation cost.
const SUMMARY_OPS: usize = 1_000_000;

/// `--processes K` or `--processes=K` from the arguments; 1 (one process) without it.
fn processes(args: &[String]) -> Result<usize, Box<dyn std::error::Error>> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let value = if a == "--processes" {
            it.next().cloned()
        } else if let Some(v) = a.strip_prefix("--processes=") {
            Some(v.to_string())
        } else {
            continue;
        };
        let value = value.ok_or("--processes needs a number of processes (at least 3)")?;
        return value
            .parse()
            .map_err(|_| format!("--processes {value}: not a number of processes").into());
    }
    Ok(1)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let processes = processes(&args)?;
    let options = CompareOptions::default().seed(42).validation_runs(20);
    let started = Instant::now();
    let result = Suite::<HashMap<u64, u64>>::standard()
        .structure::<BTreeMap<u64, u64>>()
        .structure::<FxHashMap>()
        .options(options)
        .processes(processes)
        .run_each(|c| {
            eprintln!(
                "[{:5.1} s] {}: {} ({:+.1} %)",
                started.elapsed().as_secs_f64(),
                c.label,
                c.verdict_text(),
                100.0 * c.delta
            )
        })?;
    let text = serde_json::to_string_pretty(&result)?;
    let dir = std::path::Path::new("target").join("rtcompare");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("maps.json"), &text)?;
    if json {
        println!("{text}");
        return Ok(());
    }
    println!("{result}\n");

    // What the streams realised against what the specs asked, and what generating them cost.
    println!(
        "{:<22} | {:>9} | {:>7} | {:>7} | {:>7} | {:>7} | {:>15} | {:>7} | {:>8}",
        "spec (lookups/ins/rem)",
        "gen ns/op",
        "insert",
        "remove",
        "hit",
        "miss",
        "size min..max",
        "hot 1 %",
        "fitted s"
    );
    for spec in standard_specs() {
        let t = Instant::now();
        let stream = spec.stream(SUMMARY_OPS)?;
        let ns = t.elapsed().as_nanos() as f64 / stream.ops().len() as f64;
        let s = stream.summary();
        let m = spec.mix;
        let pair = |got: f64, want: f64| format!("{:.2}/{:.0}", 100.0 * got, 100.0 * want);
        println!(
            "{:<22} | {:>9.1} | {:>7} | {:>7} | {:>7} | {:>7} | {:>15} | {:>6.1}% | {:>8}",
            spec.label(),
            ns,
            pair(s.insert, m.insert),
            pair(s.remove, m.remove),
            pair(s.hit, m.hit),
            pair(s.miss, m.miss),
            format!("{}..{}", s.min_size, s.max_size),
            100.0 * s.hottest_share,
            s.fitted_exponent
                .map_or("-".to_string(), |f| format!("{f:.3}"))
        );
    }
    println!(
        "\nmix columns: realised % / spec %; {SUMMARY_OPS} churn ops per stream; gen ns/op \
         includes the fill"
    );
    Ok(())
}
