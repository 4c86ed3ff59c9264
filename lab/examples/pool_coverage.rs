//! Coverage of the pooled intervals, simulated: does a nominal 95 % interval across processes
//! contain the true difference 95 % of the time, and why the two-stage plan exists?
//!
//! Each simulated process reports δ = μ + (a between-process effect, SD `ratio`·σw) + (its own
//! noise, SD σw), with its own interval ±1.96·σw: exactly what a process reports when its
//! interval is honest about the noise inside it and blind to the layout it drew. Three rules:
//!
//! - `combine`: k processes, t interval on k − 1 df;
//! - `combine_staged` (Stein): a first stage of k processes, the total planned with
//!   `processes_for` for a half-width target, pooled with the first stage's spread;
//! - naive: start with k processes, add one at a time until the t interval is narrow enough
//!   (the rule the reference measured at 92–94 %).
//!
//! A second table simulates the **default plan** of `pool::run` exactly as it runs: a first
//! stage of k processes, [`plan_processes`] with the default targets (±1 point, or a quarter of
//! the first stage's |δ|), the default cap of 30 and its stop when the target is out of reach,
//! then `combine_staged` over all of them, for true differences of 3 % and 10 %.
//!
//! Run: `cargo run --release -p rtcompare-lab --example pool_coverage [-- --trials 4000]`.

use rtcompare::Estimate;
use rtcompare::stats::combine;
use rtcompare::support::pool::{DEFAULT_MAX_PROCESSES, DEFAULT_TARGET_ABS, DEFAULT_TARGET_REL};
use rtcompare::support::rng::Rng;
use rtcompare::support::stats::{PlanEnd, combine_staged, plan_processes};

const MU: f64 = 0.03;
const WITHIN: f64 = 0.002;

fn process(rng: &mut Rng, ratio: f64) -> Estimate {
    process_at(rng, MU, ratio)
}

fn process_at(rng: &mut Rng, mu: f64, ratio: f64) -> Estimate {
    let d = mu + ratio * WITHIN * rng.next_normal() + WITHIN * rng.next_normal();
    let hw = 1.959_964 * WITHIN;
    Estimate::from_interval(d, d - hw, d + hw, 0.95).expect("finite")
}

fn covers(low: f64, high: f64) -> bool {
    low <= MU && MU <= high
}

/// The default plan, simulated: coverage, mean processes and the share of runs stopped after
/// the first stage for want of reach.
fn default_plan(trials: usize) -> Result<(), Box<dyn std::error::Error>> {
    println!();
    println!(
        "The default plan (first stage k, target ±{:.0} point or {:.0} % of |δ₁|, cap {}, \
         stop when the target needs more than twice the cap), {trials} trials per cell (seed 2):",
        100.0 * DEFAULT_TARGET_ABS,
        100.0 * DEFAULT_TARGET_REL,
        DEFAULT_MAX_PROCESSES
    );
    println!();
    println!(
        "| true δ | first stage k | between/within | coverage | mean processes | stopped after the first stage | resolved |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut rng = Rng::new(2);
    for &mu in &[0.03f64, 0.10] {
        for &k in &[3usize, 5, 10, 20] {
            for &ratio in &[1.0f64, 5.0, 15.0] {
                let (mut covered, mut n, mut stopped, mut resolved) = (0usize, 0usize, 0, 0);
                for _ in 0..trials {
                    let mut es: Vec<Estimate> =
                        (0..k).map(|_| process_at(&mut rng, mu, ratio)).collect();
                    let first = combine(&es, 0.95)?;
                    let plan = plan_processes(
                        &first,
                        DEFAULT_TARGET_ABS,
                        DEFAULT_TARGET_REL,
                        DEFAULT_MAX_PROCESSES,
                        false,
                    );
                    stopped += usize::from(matches!(plan.end, Some(PlanEnd::Unreachable { .. })));
                    while es.len() < plan.total {
                        es.push(process_at(&mut rng, mu, ratio));
                    }
                    let p = combine_staged(&es, k, 0.95)?;
                    covered += usize::from(p.low <= mu && mu <= p.high);
                    resolved += usize::from(p.resolved);
                    n += es.len();
                }
                let pct = |c: usize| 100.0 * c as f64 / trials as f64;
                println!(
                    "| {:.0} % | {k} | {ratio} | {:.1} % | {:.1} | {:.1} % | {:.1} % |",
                    100.0 * mu,
                    pct(covered),
                    n as f64 / trials as f64,
                    pct(stopped),
                    pct(resolved)
                );
            }
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut trials = 4_000usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--trials" => trials = args.next().ok_or("--trials needs a number")?.parse()?,
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let cap = 400usize;
    println!(
        "Coverage of nominal 95 % intervals, {trials} simulated pooled comparisons per cell \
         (seed 1). The planned rules aim at a half-width of half the SD of one process's delta \
         (σ = σw·√(1 + ratio²)), which needs about 16 processes for a known σ."
    );
    println!();
    println!(
        "| first stage k | between/within | combine (k processes) | combine_staged (Stein) | mean processes | naive sequential | mean processes |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut rng = Rng::new(1);
    for &k in &[3usize, 5, 10, 20] {
        for &ratio in &[1.0f64, 5.0, 15.0] {
            let sigma = WITHIN * (1.0 + ratio * ratio).sqrt();
            let target = sigma / 2.0;
            let (mut c_fixed, mut c_stein, mut c_naive) = (0usize, 0usize, 0usize);
            let (mut n_stein, mut n_naive) = (0usize, 0usize);
            for _ in 0..trials {
                let mut es: Vec<Estimate> = (0..k).map(|_| process(&mut rng, ratio)).collect();
                let p = combine(&es, 0.95)?;
                c_fixed += usize::from(covers(p.low, p.high));
                // Stein: plan the total from the first stage, then pool with its spread.
                let total = p.processes_for(target, 0.0).min(cap);
                let mut stein = es.clone();
                while stein.len() < total {
                    stein.push(process(&mut rng, ratio));
                }
                let s = combine_staged(&stein, k, 0.95)?;
                c_stein += usize::from(covers(s.low, s.high));
                n_stein += stein.len();
                // Naive: keep adding until the t interval is narrow enough.
                let mut q = p;
                while q.half_width() > target && es.len() < cap {
                    es.push(process(&mut rng, ratio));
                    q = combine(&es, 0.95)?;
                }
                c_naive += usize::from(covers(q.low, q.high));
                n_naive += es.len();
            }
            let pct = |c: usize| 100.0 * c as f64 / trials as f64;
            println!(
                "| {k} | {ratio} | {:.1} % | {:.1} % | {:.1} | {:.1} % | {:.1} |",
                pct(c_fixed),
                pct(c_stein),
                n_stein as f64 / trials as f64,
                pct(c_naive),
                n_naive as f64 / trials as f64
            );
        }
    }
    default_plan(trials)
}
