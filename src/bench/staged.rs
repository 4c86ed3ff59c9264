//! A suite of benchmarks on Stein's staged plan ([`BuildsOptions::decide`] off): each
//! benchmark in turn gets its first stage of worker pairs, then as many more as the precision
//! target needs by the first stage's spread (`StagedPlan`), within `max_pairs`, the layouts
//! and its `max_duration`; its pairs are pooled with Stein's interval.

use std::time::{Duration, Instant};

use super::options::BuildsOptions;
use super::run::PairFailure;
use super::suite::{Builds, Halt, Outcome, Ran, interrupted, most_pairs, pool_pairs};
use crate::error::Error;
use crate::rng::{Rng, derive_seed};
use crate::stats::{Pooled, StagedPlan};

/// Every benchmark of `names` in turn, each to its precision target, with the seconds it spent
/// on worker pairs (making layouts left out); after a stop the rest are [`Outcome::not_run`].
pub(super) fn suite(
    b: &Builds<'_, '_>,
    names: &[String],
    seed: u64,
    rng: &mut Rng,
) -> Vec<(Outcome, f64)> {
    let mut stopped = false;
    let mut outcomes = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        if !stopped && b.cancelled() {
            stopped = true;
            outcomes.push((Outcome::not_run(Some(interrupted())), 0.0));
            continue;
        }
        if stopped {
            outcomes.push((Outcome::not_run(None), 0.0));
            continue;
        }
        let started = Instant::now();
        let making = b.variants.borrow().making;
        let mut ran = Ran::default();
        let at = At {
            name,
            position: i,
            seed: derive_seed(seed, 1 + i as u64),
            // Where this benchmark's pairs start among the allowed CPUs: drawn, so that over
            // benchmarks no CPU always takes the odd pair.
            offset: rng.index(b.allowed.len().max(1)),
        };
        let pooled = pooled(b, &at, &mut ran);
        let outcome = b.outcome(pooled, ran);
        let seconds = started
            .elapsed()
            .saturating_sub(b.variants.borrow().making - making)
            .as_secs_f64();
        stopped |= outcome.stop.is_some();
        outcomes.push((outcome, seconds));
    }
    outcomes
}

/// Which benchmark a pair belongs to and where its pairs run.
struct At<'n> {
    name: &'n str,
    position: usize,
    seed: u64,
    offset: usize,
}

/// The benchmark's next worker pair, into `ran`, with a progress report against `planned`.
fn next_pair(b: &Builds<'_, '_>, at: &At<'_>, ran: &mut Ran, planned: usize) -> Result<(), Halt> {
    let k = ran.reports.len();
    let report = b.pair(at.name, at.offset, at.seed, k, &mut ran.retried)?;
    ran.reports.push(report);
    b.tell(at.name, at.position, &ran.reports, planned);
    Ok(())
}

/// One benchmark in stages: the first stage of worker pairs, Stein's plan from their spread at
/// the level it will be judged at (within the cap and the time budget), the planned pairs,
/// and the pooled result with the plan's end recorded. The pairs go into `ran` as they
/// finish, so that a halt keeps them.
fn pooled(b: &Builds<'_, '_>, at: &At<'_>, ran: &mut Ran) -> Result<Pooled, Halt> {
    let o = b.o;
    let level = b.plan_level();
    let started = Instant::now();
    let making = b.variants.borrow().making;
    // Time on worker pairs only: making a layout is not the benchmark's cost.
    let spent = || {
        started
            .elapsed()
            .saturating_sub(b.variants.borrow().making - making)
    };
    ran.planned = o.pairs;
    while ran.reports.len() < o.pairs {
        next_pair(b, at, ran, o.pairs)?;
    }
    let pool = |ran: &Ran, first_stage, level| {
        pool_pairs(&ran.reports, first_stage, level, o.margin).map_err(|e| failed(e, ran))
    };
    if !(o.target_abs > 0.0 || o.target_rel > 0.0) {
        return pool(ran, 0, o.level);
    }
    let plan = StagedPlan::new(
        &pool(ran, 0, level)?,
        (o.target_abs, o.target_rel),
        (
            most_pairs(o),
            pairs_in_budget(o, spent(), ran.reports.len()),
        ),
        false,
        o.max_duration.as_secs_f64(),
    );
    ran.planned = plan.total;
    let mut out_of_time = false;
    while plan.goes_on() && ran.reports.len() < plan.total {
        if !o.max_duration.is_zero() && spent() >= o.max_duration {
            out_of_time = true;
            break;
        }
        next_pair(b, at, ran, plan.total)?;
    }
    // Whether the target was met is judged at the level the plan aimed at.
    let met = pool(ran, o.pairs, level)?.precise(o.target_abs, o.target_rel);
    let mut pooled = pool(ran, o.pairs, o.level)?;
    pooled.target_met = Some(met);
    pooled.planned_processes = plan.total;
    pooled.plan_end = Some(plan.end(met, ran.reports.len(), 0, out_of_time));
    Ok(pooled)
}

/// The statistics' own errors on a benchmark's pairs fail that benchmark.
fn failed(e: Error, ran: &Ran) -> Halt {
    Halt::Failed(PairFailure {
        pair: ran.reports.len(),
        layout: 0,
        build: None,
        reason: format!("its pairs could not be pooled: {e}"),
    })
}

/// Pairs, first stage included, that fit in the time budget at the mean pair time so far;
/// `usize::MAX` without a budget.
fn pairs_in_budget(o: &BuildsOptions, spent: Duration, done: usize) -> usize {
    if o.max_duration.is_zero() || done == 0 {
        return usize::MAX;
    }
    let per_pair = spent.as_secs_f64() / done as f64;
    let left = (o.max_duration.as_secs_f64() - spent.as_secs_f64()).max(0.0);
    done + (left / per_pair.max(1e-9)).floor() as usize
}
