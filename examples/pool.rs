//! A comparison pooled across processes: two µs-scale functions (the built-in dependent
//! multiply chain, 2,700 units, against itself or with an injected extra cost), each process
//! with its heap perturbed and its own seed, the total planned from a first stage of five.
//!
//! Run: `cargo run --release --example pool` for the pooled report and where the time went;
//! `-- --json` prints the pooled JSON instead. Other flags:
//! `--extra F` (B costs F more, for example 0.05), `--repeat R` (R pooled comparisons, tallied),
//! `--light` (the lighter per-process preset), `--processes K` (first stage),
//! `--no-target` (exactly the first stage), `--no-perturb`.

use std::time::Instant;

use rtcompare::measure::Stage;
use rtcompare::pool::{self, PoolOptions, PoolRun};
use rtcompare::{Candidate, Verdict, compare};

const UNITS: u64 = 2_700;

/// A batch of `units` dependent multiply-adds per operation, each result fed to the next
/// through `black_box`, so the compiler can neither fold nor remove it: its time is
/// proportional to `units` (about 1 ns a unit on a current x86-64 core).
fn workload(units: u64) -> impl FnMut(u64) {
    move |n| {
        let mut acc = 0u64;
        for i in 0..n * units {
            acc = std::hint::black_box(acc.wrapping_mul(31).wrapping_add(i));
        }
        std::hint::black_box(acc);
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { 0.0 } else { v[v.len() / 2] }
}

fn time_split(run: &PoolRun) {
    let t = &run.timings;
    let stage = |s: Stage| {
        median(
            t.iter()
                .map(|p| p.stages.iter().filter(|x| x.0 == s).map(|x| x.1).sum())
                .collect(),
        )
    };
    let startup = median(t.iter().map(|p| p.startup).collect());
    let wall = median(t.iter().map(|p| p.wall).collect());
    let closure = median(t.iter().map(|p| p.closure).collect());
    eprintln!(
        "{} processes in {:.2} s. Per process (medians): {:.3} s wall = {:.3} s start-up (spawn, \
         load, heap perturbation) + {:.3} s comparison ({:.3} calibrating, {:.3} validating A/A, \
         {:.3} warming up, {:.3} measuring, {:.3} resampling) + {:.3} s exit and reap.",
        t.len(),
        run.elapsed.as_secs_f64(),
        wall,
        startup,
        closure,
        stage(Stage::Calibrating),
        stage(Stage::Validating),
        stage(Stage::WarmingUp),
        stage(Stage::Measuring),
        stage(Stage::Resampling),
        (wall - startup - closure).max(0.0)
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut json, mut extra, mut repeat) = (false, 0.0f64, 1usize);
    // BACKGROUND's tables were measured with Stein's precision plan; `--decide` gives the
    // default sequential decision.
    let (mut light, mut processes, mut no_target, mut decide, mut perturb) =
        (false, None, false, false, true);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--json" => json = true,
            "--extra" => extra = args.next().ok_or("--extra needs a fraction")?.parse()?,
            "--repeat" => repeat = args.next().ok_or("--repeat needs a count")?.parse()?,
            "--light" => light = true,
            "--processes" => {
                let k: usize = args.next().ok_or("--processes needs a count")?.parse()?;
                processes = Some(k);
            }
            "--no-target" => no_target = true,
            "--decide" => decide = true,
            "--no-perturb" => perturb = false,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let mut options = if light {
        PoolOptions::light()
    } else {
        PoolOptions::default()
    };
    options = options.decide(decide).perturb(perturb);
    if let Some(k) = processes {
        options = options.first_stage(k).max_processes(k.max(30));
    }
    if no_target {
        options = options.target(0.0, 0.0);
    }
    let b_units = (UNITS as f64 * (1.0 + extra)).round() as u64;
    let mut tally = [0usize; 3];
    for r in 0..repeat {
        let started = Instant::now();
        let run = pool::run_detailed(&options, |ctx| {
            let (a, b) = ctx.build(|| workload(UNITS), || workload(b_units));
            compare(
                Candidate::new("a", a),
                Candidate::new("b", b),
                ctx.options(),
            )
        })?;
        let p = &run.pooled;
        match p.verdict {
            Verdict::AFaster => tally[0] += 1,
            Verdict::BFaster => tally[1] += 1,
            Verdict::Equivalent { .. } | Verdict::CannotTell(_) => tally[2] += 1,
        }
        if repeat > 1 {
            eprintln!(
                "pooled comparison {}/{repeat}: {} processes, δ {:+.2}% [{:+.2}%, {:+.2}%], \
                 inflation {:.1}, {} in {:.1} s",
                r + 1,
                p.processes,
                100.0 * p.delta,
                100.0 * p.low,
                100.0 * p.high,
                p.inflation,
                if p.resolved {
                    "resolved"
                } else {
                    "cannot tell"
                },
                started.elapsed().as_secs_f64()
            );
        } else if json {
            println!("{}", serde_json::to_string_pretty(p)?);
        } else {
            println!("{p}");
            time_split(&run);
        }
    }
    if repeat > 1 {
        println!(
            "{repeat} pooled comparisons of B with {:.1} % extra cost: A faster {}, B faster {}, \
             cannot tell {}.",
            100.0 * extra,
            tally[0],
            tally[1],
            tally[2]
        );
    }
    Ok(())
}
