//! `rtcompare bench` as pull requests meet it, three kinds in alternation: a scratch crate with
//! a bench file of eight benchmarks (about 20 ns to 1 ms per operation) in a git repository of
//! three commits:
//! - `c0`, the baseline;
//! - `c1`, from `c0`: an unrelated change that only moves code (a large function that runs
//!   once, outside every measured region, placed before the benchmarks' code);
//! - `c2`, from `c0`: `chain/2us` does 2 % more steps and `chain/10us` 5 % more (a dependent
//!   chain: the work grows by exactly that share).
//!
//! Each round runs, unpinned, at the defaults, as a user types it:
//! - A/A: `c0` checked out clean, `rtcompare bench --baseline HEAD`;
//! - slow: `c2` checked out, `rtcompare bench --baseline c0`;
//! - unrelated: `c1` checked out, `rtcompare bench --baseline c0`;
//! - seeds: identical source (`c0`) whose two sides differ only in code order: the library's
//!   `compare_layouts` over layouts of the bench target linked with one set of section-shuffle
//!   seeds against layouts linked with another (each made when a pair first needs it);
//! - seeds, one layout: the same, one layout per side (`compare_builds` on the first
//!   layout of each), as a tool that builds each revision once compares them;
//!
//! and the program tallies false verdicts, detections, every verdict on the unrelated commit,
//! each benchmark's interval, how far code layouts move it, and the time per benchmark and
//! per run.
//!
//! ```text
//! cargo build --release -p rtcompare-cli
//! cargo run --release -p rtcompare-cli --example bench_scenarios -- [--rounds 10] \
//!     [--scenarios aa,slow,unrelated,seeds,seeds1] [--short-rounds N] [--neighbour] \
//!     [--bin PATH] [--lib PATH] [--keep] [-- ARGS FOR rtcompare bench]
//! ```
//!
//! `--short-rounds N` runs the A/A and slow scenarios in the first N rounds only.
//! `--neighbour` runs, for the whole experiment, a thread pinned to the first allowed CPU that
//! spins half of every 10 ms, as a shared CI runner's neighbour does: it makes the two vCPUs
//! of a machine whose vCPUs happen to agree disagree. `--bin` runs another `rtcompare` binary
//! and `--lib` builds the scratch crate against another checkout of the library (both to
//! measure an earlier revision of the protocol). The repository lives in the system's
//! temporary directory and is removed at the end (`--keep` keeps it, with every run's JSON).

mod scratch;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rtcompare::support::bench::{BuildsOptions, BuildsRun};
use scratch::{FIXTURE_FUNCTIONS, Repo, Res, git, median, rtcompare_bin, workspace};

/// The benchmarks the slow commit slows, with the work it adds.
const SLOWED: [(&str, f64); 2] = [("chain/2us", 0.02), ("chain/10us", 0.05)];
/// The benchmarks of a few microseconds, whose time per benchmark the issue bounds at 3 s.
const MICRO: [&str; 4] = ["chain/2us", "sort/256", "chain/10us", "btree/200-lookups"];

fn bench_source(slow: bool, moved: bool) -> String {
    // 11,200 steps against 11,424 (2 %) and 56,000 against 58,800 (5 %). The compiler folds
    // eight steps of this chain into one multiply-add, about 1.3 ns each on the machines here.
    let (s2, s10) = if slow {
        (11_424, 58_800)
    } else {
        (11_200, 56_000)
    };
    let moved_code = if moved {
        // 256 arms of distinct arithmetic: several KiB of code before the benchmarks'.
        let arms: String = (0..256u64)
            .map(|i| {
                format!(
                    "        {i} => x.wrapping_mul({}).rotate_left({}) ^ {},\n",
                    i * 2 + 3,
                    i % 63 + 1,
                    i * 7919
                )
            })
            .collect();
        format!(
            "#[inline(never)]\nfn unrelated(x: u64) -> u64 {{\n    match x % 256 {{\n{arms}        _ => x,\n    }}\n}}\n\n"
        )
    } else {
        String::new()
    };
    let call = if moved {
        "    eprintln!(\"unrelated: {}\", unrelated(black_box(7)));\n"
    } else {
        ""
    };
    format!(
        r#"use std::collections::BTreeMap;
use std::hint::black_box;

{moved_code}{FIXTURE_FUNCTIONS}
fn main() {{
{call}    rtcompare::bench::main(|b| {{
        b.bench("chain/20ns", || chain(224));
        let bytes: Vec<u8> = (0..64u32).map(|i| (i * 37) as u8).collect();
        b.bench("fnv/64B", || fnv(black_box(&bytes)));
        b.bench("chain/2us", || chain({s2}));
        let words: Vec<u32> = (0..256u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        b.bench_batched("sort/256", || words.clone(), |mut v| {{ v.sort_unstable(); v }});
        b.bench("chain/10us", || chain({s10}));
        let map: BTreeMap<u64, u64> = (0..4_096u64).map(|i| (i * 7, i)).collect();
        b.bench("btree/200-lookups", || {{
            (0..200u64).map(|i| map.get(&black_box(i * 13)).copied().unwrap_or(0)).sum::<u64>()
        }});
        let big: Vec<u64> = (0..200_000u64).collect();
        b.bench("sum/200k", || black_box(&big).iter().sum::<u64>());
        b.bench("chain/1ms", || chain(5_600_000));
    }});
}}
"#
    )
}

fn repo(keep: bool, lib: &Path) -> Res<Repo> {
    let repo = Repo::new("bench-scenarios", lib, &bench_source(false, false), keep)?;
    let d = &repo.dir;
    git(d, &["tag", "c0"])?;
    repo.commit(&bench_source(false, true), "unrelated: code moves")?;
    git(d, &["tag", "c1"])?;
    git(d, &["checkout", "--quiet", "c0"])?;
    repo.commit(
        &bench_source(true, false),
        "chain/2us 2 % and chain/10us 5 % slower",
    )?;
    git(d, &["tag", "c2"])?;
    Ok(repo)
}

/// A thread on the first allowed CPU that spins 5 ms of every 10 ms until dropped.
struct Neighbour {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Neighbour {
    fn start() -> Res<Neighbour> {
        let cpu = rtcompare::support::measure::current_affinity()
            .and_then(|a| a.first().copied())
            .ok_or("no CPU list: cannot pin a neighbour")?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let _pin = rtcompare::support::measure::pin_current_thread(cpu);
            while !flag.load(Ordering::Relaxed) {
                let until = Instant::now() + Duration::from_millis(5);
                while Instant::now() < until {
                    std::hint::spin_loop();
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        println!("neighbour: spinning half of every 10 ms on CPU {cpu}");
        Ok(Neighbour {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Neighbour {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[derive(Default)]
struct Tally {
    runs: usize,
    results: usize,
    /// Verdicts (resolved either way) per run.
    calls: Vec<usize>,
    /// Per slowed benchmark: runs in which it was proven slower, and its change each run
    /// (fraction, + = slower).
    detected: BTreeMap<String, usize>,
    slowed_deltas: BTreeMap<String, Vec<f64>>,
    /// Verdicts on benchmarks nothing changed: (round, name, change, low, high), + = slower.
    others: Vec<(usize, String, f64, f64, f64)>,
    run_seconds: Vec<f64>,
    /// Seconds of each benchmark's worker pairs, by benchmark.
    seconds: BTreeMap<String, Vec<f64>>,
    /// Each benchmark's interval half-width (fraction) and pairs, every run.
    half_widths: BTreeMap<String, Vec<f64>>,
    pairs: Vec<f64>,
    /// The baseline's time per operation (ns), by benchmark.
    sizes: BTreeMap<String, Vec<f64>>,
    /// Results whose pooled floor was the median pair's own floor (it exceeded the floor
    /// pooled from the pairs' A/A differences).
    pair_floor_binds: usize,
    /// Results refused because the change stayed within the floor: (round, name, change, floor).
    within_floor: Vec<(usize, String, f64, f64)>,
    /// How far layouts move each benchmark's δ (fraction, 1.96 × the layouts' sd), and its
    /// layouts' share of the spread between pairs, every run.
    layout_moves: BTreeMap<String, Vec<f64>>,
    layout_share: BTreeMap<String, Vec<f64>>,
    /// Benchmarks named as moved by layout beyond the margin, by name.
    named: BTreeMap<String, usize>,
    /// Seconds spent making layouts, every run.
    layout_seconds: Vec<f64>,
}

#[derive(Clone, Copy, PartialEq)]
enum Scenario {
    Aa,
    Slow,
    Unrelated,
    Seeds,
    SeedsOneLayout,
}

impl Scenario {
    fn name(self) -> &'static str {
        match self {
            Scenario::Aa => "A/A",
            Scenario::Slow => "slow",
            Scenario::Unrelated => "unrelated",
            Scenario::Seeds => "seeds",
            Scenario::SeedsOneLayout => "seeds1",
        }
    }

    fn parse(s: &str) -> Res<Scenario> {
        Ok(match s {
            "aa" | "A/A" => Scenario::Aa,
            "slow" => Scenario::Slow,
            "unrelated" => Scenario::Unrelated,
            "seeds" => Scenario::Seeds,
            "seeds1" => Scenario::SeedsOneLayout,
            other => return Err(format!("unknown scenario {other:?}").into()),
        })
    }
}

struct Setup {
    bin: PathBuf,
    extra: Vec<String>,
}

/// Layout `variant` of the checked-out commit: its bench target relinked with the code order
/// `seed` shuffles, in a target directory of its own.
fn shuffled_build(d: &Path, variant: usize, seed: u64) -> rtcompare::Result<PathBuf> {
    scratch::relink(d, Some(&d.join("target-seeds")), seed).map_err(|e| rtcompare::Error::Variant {
        variant,
        reason: e.to_string(),
    })
}

/// The seeds scenarios through the library, written as `rtcompare bench --json` writes its
/// rows (the fields the tally reads).
fn seeds_run(d: &Path, round: usize, one_layout: bool) -> Res<serde_json::Value> {
    git(d, &["checkout", "--quiet", "--detach", "c0"])?;
    // Seeds of the baseline's layouts from 1, the head's from 1,001, new ones every round.
    let base = |i: usize| 1 + (round * 100 + i) as u64;
    let o = BuildsOptions::default();
    let run: BuildsRun = if one_layout {
        let (b, h) = (
            shuffled_build(d, 0, base(0))?,
            shuffled_build(d, 0, 1_000 + base(0))?,
        );
        rtcompare::support::bench::compare_builds(&b, &h, &o)?
    } else {
        rtcompare::support::bench::compare_layouts(
            |i| {
                Ok((
                    shuffled_build(d, i, base(i))?,
                    shuffled_build(d, i, 1_000 + base(i))?,
                ))
            },
            &o,
        )?
    };
    let rows: Vec<serde_json::Value> = run
        .benchmarks
        .iter()
        .map(|b| {
            let p = b.pooled.as_ref();
            let resolved = p.is_some_and(|p| p.resolved);
            serde_json::json!({
                "name": b.name,
                "delta": p.map(|p| p.delta),
                "low": p.map(|p| p.low),
                "high": p.map(|p| p.high),
                "resolved": resolved,
                "regression": resolved && p.is_some_and(|p| p.delta < 0.0),
                "processes": p.map_or(0, |p| p.processes),
                "baseline_ns": median(&b.reports.iter().map(|r| r.ns_per_op_b).collect::<Vec<_>>()),
                "layout_moves": b.layout.as_ref().map(|l| l.layout_moves),
                "layout_share": b.layout.as_ref().map(|l| l.layout_share),
                "layout_beyond_margin": b.layout.as_ref().is_some_and(|l| l.beyond_margin),
            })
        })
        .collect();
    let v = serde_json::json!({
        "layouts": { "seconds": run.layout_seconds },
        "benchmarks": rows,
        "details": run,
    });
    let name = if one_layout { "seeds1" } else { "seeds" };
    std::fs::write(
        d.join(format!("{name}-{round}.json")),
        serde_json::to_string(&v)?,
    )?;
    Ok(v)
}

/// Runs one scenario once and adds it to its tally.
fn run_once(
    d: &Path,
    setup: &Setup,
    scenario: Scenario,
    round: usize,
    tally: &mut Tally,
) -> Res<()> {
    let t = Instant::now();
    let v = match scenario {
        Scenario::Seeds | Scenario::SeedsOneLayout => {
            seeds_run(d, round, scenario == Scenario::SeedsOneLayout)?
        }
        _ => cli_run(d, setup, scenario, round)?,
    };
    let secs = t.elapsed().as_secs_f64();
    add(&v, scenario, round, secs, tally)
}

/// One `rtcompare bench` run of a scenario; its JSON.
fn cli_run(d: &Path, setup: &Setup, scenario: Scenario, round: usize) -> Res<serde_json::Value> {
    let (checkout, baseline) = match scenario {
        Scenario::Aa => ("c0", "HEAD"),
        Scenario::Slow => ("c2", "c0"),
        _ => ("c1", "c0"),
    };
    git(d, &["checkout", "--quiet", "--detach", checkout])?;
    let json = d.join(format!("{}-{round}.json", scenario.name().replace('/', "")));
    let out = Command::new(&setup.bin)
        .args(["bench", "--baseline", baseline])
        .arg("--json")
        .arg(&json)
        .args(&setup.extra)
        .current_dir(d)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .output()?;
    if !out.status.success() && out.status.code() != Some(1) {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("rtcompare bench failed ({}): {err}", out.status).into());
    }
    Ok(serde_json::from_str(&std::fs::read_to_string(&json)?)?)
}

/// Adds one run's JSON to its scenario's tally and prints its line.
fn add(
    v: &serde_json::Value,
    scenario: Scenario,
    round: usize,
    secs: f64,
    tally: &mut Tally,
) -> Res<()> {
    let rows = v["benchmarks"].as_array().ok_or("no benchmarks")?;
    let mut called = 0;
    let mut line = String::new();
    for r in rows {
        let name = r["name"].as_str().unwrap_or("").to_string();
        let resolved = r["resolved"].as_bool().unwrap_or(false);
        let f = |k: &str| r[k].as_f64().unwrap_or(f64::NAN);
        // The head's change in time, + = slower (δ = 1 − head/baseline, so change = −δ).
        let (delta, low, high) = (-f("delta"), -f("high"), -f("low"));
        tally.results += 1;
        called += usize::from(resolved);
        let slowed = scenario == Scenario::Slow && SLOWED.iter().any(|(s, _)| *s == name);
        if slowed {
            if r["regression"].as_bool().unwrap_or(false) {
                *tally.detected.entry(name.clone()).or_default() += 1;
            }
            tally
                .slowed_deltas
                .entry(name.clone())
                .or_default()
                .push(delta);
            line.push_str(&format!(" {name} {:+.2} %", 100.0 * delta));
        } else if resolved {
            tally.others.push((round, name.clone(), delta, low, high));
            line.push_str(&format!(" CALLED {name} {:+.2} %", 100.0 * delta));
        }
        tally
            .half_widths
            .entry(name.clone())
            .or_default()
            .push((high - low) / 2.0);
        tally.pairs.push(r["processes"].as_f64().unwrap_or(0.0));
        if let Some(m) = r["layout_moves"].as_f64() {
            tally.layout_moves.entry(name.clone()).or_default().push(m);
        }
        if let Some(m) = r["layout_share"].as_f64() {
            tally.layout_share.entry(name.clone()).or_default().push(m);
        }
        if r["layout_beyond_margin"].as_bool().unwrap_or(false) {
            *tally.named.entry(name.clone()).or_default() += 1;
            line.push_str(&format!(" (layout: {name})"));
        }
        if let Some(ns) = r["baseline_ns"].as_f64() {
            tally.sizes.entry(name).or_default().push(ns);
        }
    }
    for b in v["details"]["benchmarks"].as_array().into_iter().flatten() {
        let name = b["name"].as_str().unwrap_or("").to_string();
        let s = b["seconds"].as_f64().unwrap_or(0.0);
        let pooled = &b["pooled"];
        let floor = pooled["noise_floor"].as_f64().unwrap_or(f64::NAN);
        let pair_floors: Vec<f64> = b["reports"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["noise_floor"].as_f64())
            .collect();
        if !pair_floors.is_empty() && median(&pair_floors) == floor {
            tally.pair_floor_binds += 1;
        }
        if pooled["verdict"]["bar"] == "within_noise_floor" {
            let change = -pooled["delta"].as_f64().unwrap_or(f64::NAN);
            tally
                .within_floor
                .push((round, name.clone(), change, floor));
        }
        tally.seconds.entry(name).or_default().push(s);
    }
    tally.layout_seconds.push(
        // `time.relink_seconds` since layouts are linked, not rebuilt; older runs wrote
        // `layouts.seconds`.
        v["time"]["relink_seconds"]
            .as_f64()
            .or_else(|| v["layouts"]["seconds"].as_f64())
            .unwrap_or(0.0),
    );
    tally.runs += 1;
    tally.calls.push(called);
    tally.run_seconds.push(secs);
    println!(
        "round {round:>2} {:<9} {called} of {} called in {secs:.0} s{line}",
        scenario.name(),
        rows.len()
    );
    Ok(())
}

fn main() -> Res<()> {
    let mut rounds = 10usize;
    let mut short_rounds = usize::MAX;
    let mut scenarios = vec![Scenario::Aa, Scenario::Slow, Scenario::Unrelated];
    let mut keep = false;
    let mut neighbour = false;
    let mut bin = None;
    let mut lib = None;
    let mut extra = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().ok_or("--rounds needs a number")?.parse()?,
            "--keep" => keep = true,
            "--short-rounds" => {
                short_rounds = args
                    .next()
                    .ok_or("--short-rounds needs a number")?
                    .parse()?
            }
            "--scenarios" => {
                scenarios = args
                    .next()
                    .ok_or("--scenarios needs a list")?
                    .split(',')
                    .map(Scenario::parse)
                    .collect::<Res<_>>()?
            }
            "--neighbour" => neighbour = true,
            "--bin" => bin = Some(PathBuf::from(args.next().ok_or("--bin needs a path")?)),
            "--lib" => lib = Some(PathBuf::from(args.next().ok_or("--lib needs a path")?)),
            "--" => extra.extend(args.by_ref()),
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let bin = match bin {
        Some(b) => b,
        None => rtcompare_bin()?,
    };
    let lib = match lib {
        Some(l) => l,
        None => workspace()?,
    };
    let repo = repo(keep, &lib)?;
    let d = repo.dir.clone();
    let setup = Setup { bin, extra };
    let _neighbour = neighbour.then(Neighbour::start).transpose()?;
    println!(
        "scratch repository: {} ({rounds} rounds; {}; library {})",
        d.display(),
        setup.bin.display(),
        lib.display()
    );
    let mut tallies: Vec<Tally> = scenarios.iter().map(|_| Tally::default()).collect();
    let started = Instant::now();
    for round in 0..rounds {
        for (s, tally) in scenarios.iter().zip(tallies.iter_mut()) {
            if matches!(s, Scenario::Aa | Scenario::Slow) && round >= short_rounds {
                continue;
            }
            run_once(&d, &setup, *s, round, tally)?;
        }
    }
    print_tables(&scenarios, &tallies);
    println!("total {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn print_tables(scenarios: &[Scenario], tallies: &[Tally]) {
    println!();
    println!(
        "| scenario | runs | results | verdicts | runs with any verdict | {} | median µs-scale benchmark | median 1 ms benchmark | median run (builds included) |",
        SLOWED
            .iter()
            .map(|(n, w)| format!("{n} (+{:.0} %) detected", 100.0 * w))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (s, t) in scenarios.iter().zip(tallies) {
        let micro: Vec<f64> = MICRO
            .iter()
            .flat_map(|n| t.seconds.get(*n).cloned().unwrap_or_default())
            .collect();
        let detected = SLOWED
            .iter()
            .map(|(n, _)| {
                if *s == Scenario::Slow {
                    format!("{}/{}", t.detected.get(*n).copied().unwrap_or(0), t.runs)
                } else {
                    "–".to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" | ");
        println!(
            "| {} | {} | {} | {} | {} | {detected} | {:.1} s | {:.1} s | {:.0} s |",
            s.name(),
            t.runs,
            t.results,
            t.calls.iter().sum::<usize>(),
            t.calls.iter().filter(|&&c| c > 0).count(),
            median(&micro),
            median(t.seconds.get("chain/1ms").map_or(&[][..], |v| v)),
            median(&t.run_seconds),
        );
    }
    for (s, t) in scenarios.iter().zip(tallies) {
        for (n, ds) in &t.slowed_deltas {
            println!(
                "{}: {n} change median {:+.2} % (range {:+.2} to {:+.2} %, + = slower)",
                s.name(),
                100.0 * median(ds),
                100.0 * ds.iter().copied().fold(f64::INFINITY, f64::min),
                100.0 * ds.iter().copied().fold(f64::NEG_INFINITY, f64::max)
            );
        }
        println!(
            "{}: the median pair's floor was the pooled floor in {} of {} results",
            s.name(),
            t.pair_floor_binds,
            t.results
        );
        for (round, n, d, floor) in &t.within_floor {
            println!(
                "{}: round {round} {n} {:+.2} % refused within the floor {:.2} %",
                s.name(),
                100.0 * d,
                100.0 * floor
            );
        }
        for (round, n, d, l, h) in &t.others {
            println!(
                "{}: round {round} called {n} {:+.2} % [{:+.2}, {:+.2}]",
                s.name(),
                100.0 * d,
                100.0 * l,
                100.0 * h
            );
        }
    }
    println!();
    let columns = |what: &str| {
        scenarios
            .iter()
            .map(|s| format!("{what} ({})", s.name()))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    println!(
        "| benchmark | baseline per op | {} | {} | {} |",
        columns("median ±"),
        columns("layouts move by ±, median [max]; named"),
        columns("median seconds")
    );
    println!("|---|--:|{}", "--:|".repeat(3 * scenarios.len()));
    let Some(first) = tallies.first() else {
        return;
    };
    for n in first.sizes.keys() {
        let of = |m: &BTreeMap<String, Vec<f64>>| m.get(n).cloned().unwrap_or_default();
        let cells =
            |f: &dyn Fn(&Tally) -> String| tallies.iter().map(f).collect::<Vec<_>>().join(" | ");
        println!(
            "| {n} | {:.1} ns | {} | {} | {} |",
            median(&first.sizes[n]),
            cells(&|t| format!("±{:.2} %", 100.0 * median(&of(&t.half_widths)))),
            cells(&|t| {
                let moves = of(&t.layout_moves);
                if moves.is_empty() {
                    "–".into()
                } else {
                    format!(
                        "±{:.2} % [{:.2}]; {}/{}",
                        100.0 * median(&moves),
                        100.0 * moves.iter().copied().fold(0.0, f64::max),
                        t.named.get(n).copied().unwrap_or(0),
                        t.runs
                    )
                }
            }),
            cells(&|t| format!("{:.1} s", median(&of(&t.seconds)))),
        );
    }
    for (s, t) in scenarios.iter().zip(tallies) {
        println!(
            "{}: making layouts took {:.1} s per run (median)",
            s.name(),
            median(&t.layout_seconds)
        );
    }
    let pairs: Vec<f64> = tallies.iter().flat_map(|t| t.pairs.clone()).collect();
    println!(
        "pairs per benchmark: median {}, max {}",
        median(&pairs),
        pairs.iter().copied().fold(0.0, f64::max)
    );
}
