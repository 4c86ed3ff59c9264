//! A suite of benchmarks decided within one time budget ([`BuildsOptions::decide`] with
//! [`BuildsOptions::budget`]).
//!
//! 1. **First stages.** Every benchmark gets its first `pairs` worker pairs and a first look,
//!    whatever the budget: a benchmark never measured has nothing to say, and the first look
//!    alone settles the large changes and the benchmarks that layout does not move.
//! 2. **The rest of the budget, most promising first.** While time is left, the undecided
//!    benchmark closest to deciding gets `pairs` more pairs and a look: the one whose interval
//!    must shed the smallest share of its half-width to lie beyond ±margin (and the
//!    floor) or to fit inside it.
//!    A benchmark stops at its first deciding look, its last planned look (`max_pairs`, the
//!    layouts) or its own `max_duration`.
//! 3. **When the budget runs out,** the undecided end there, each with the largest change its
//!    interval still allows ("cannot tell below ±X %").
//!
//! **Why the family-wise level holds under this allocation.** Each benchmark is decided at
//! 1 − (1 − level)/m, and its looks come only at multiples of `pairs` (a cut-short stage's
//! look spends no more than the full stage's would), each spending the share of α its count of
//! pairs releases. Which benchmark gets the next stage depends on the data, but that only
//! decides where a benchmark *stops* on its fixed grid of looks; the union bound over the grid
//! holds whatever the stopping, so every benchmark's chance of a false verdict or a false
//! equivalence stays within (1 − level)/m and the family's within 1 − level (Bonferroni).

use std::time::{Duration, Instant};

use super::run::PairFailure;
use super::suite::{Builds, Halt, Outcome, Ran, most_pairs, pool_pairs};
use crate::error::Result;
use crate::rng::{Rng, derive_seed};
use crate::stats::{
    DecisionEnd, MIN_PROCESSES, Pooled, Sequential, SequentialLook, SequentialOptions,
};

/// Every benchmark of `names` decided within the run's budget (see the module's protocol),
/// each with the seconds it spent on worker pairs (making layouts left out).
///
/// Errors: those of a bad plan ([`Sequential::new`]), which the run's options were checked
/// against before.
pub(super) fn suite(
    b: &Builds<'_, '_>,
    names: &[String],
    seed: u64,
    rng: &mut Rng,
) -> Result<Vec<(Outcome, f64)>> {
    let o = b.o;
    let plan = SequentialOptions::default()
        .level(b.plan_level())
        .margin(o.margin)
        .max_n(most_pairs(o));
    let mut all = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        // Where this benchmark's pairs start among the allowed CPUs: drawn, so that over
        // benchmarks no CPU always takes the odd pair.
        let offset = rng.index(b.allowed.len().max(1));
        all.push(Deciding {
            name,
            position: i,
            seed: derive_seed(seed, 1 + i as u64),
            offset,
            decision: Sequential::new(plan)?,
            ran: Ran::default(),
            spent: Duration::ZERO,
            halt: None,
        });
    }
    let stopped = first_stages(b, &mut all);
    if !stopped {
        rest_of_budget(b, &mut all);
    }
    Ok(all.into_iter().map(|d| d.finish(b)).collect())
}

/// Step 1: every benchmark's first stage and look, whatever the budget. Returns whether the
/// run stopped.
fn first_stages(b: &Builds<'_, '_>, all: &mut [Deciding<'_>]) -> bool {
    for d in all.iter_mut() {
        if b.cancelled() {
            d.halt = Some(Halt::interrupted());
            return true;
        }
        d.stage(b, None);
        if d.stops_run() {
            return true;
        }
    }
    false
}

/// Steps 2 and 3: while time is left, the most promising undecided benchmark gets a stage;
/// when the budget runs out, the undecided end there.
fn rest_of_budget(b: &Builds<'_, '_>, all: &mut [Deciding<'_>]) {
    let o = b.o;
    loop {
        let spent: Duration = all.iter().map(|d| d.spent).sum();
        let left = (!o.budget.is_zero()).then(|| o.budget.saturating_sub(spent));
        let Some(next) = all
            .iter_mut()
            .filter(|d| d.open())
            .min_by(|x, y| x.promise().total_cmp(&y.promise()))
        else {
            return;
        };
        if left.is_some_and(|l| l.is_zero()) {
            for d in all.iter_mut().filter(|d| d.open()) {
                d.decision.stop(DecisionEnd::TimeBudget);
            }
            return;
        }
        if b.cancelled() {
            next.halt = Some(Halt::interrupted());
            return;
        }
        next.stage(b, left);
        if next.stops_run() {
            return;
        }
    }
}

/// One benchmark's sequential decision in progress.
struct Deciding<'n> {
    name: &'n str,
    position: usize,
    seed: u64,
    offset: usize,
    /// Its looks so far, and why they ended once they have.
    decision: Sequential,
    ran: Ran,
    /// Time on its worker pairs, making layouts left out.
    spent: Duration,
    /// Why its pairs ended early (a failure, or the run's stop).
    halt: Option<Halt>,
}

impl Deciding<'_> {
    /// Whether it may take another stage.
    fn open(&self) -> bool {
        self.decision.is_open() && self.halt.is_none()
    }

    /// Whether its halt stops the whole run (a cancellation, a layout that cannot be made).
    fn stops_run(&self) -> bool {
        matches!(self.halt, Some(Halt::Stopped(..)))
    }

    /// How far its last look is from deciding: the share of its interval's half-width it must
    /// shed to exclude zero or to fit inside ±margin (0 = about to decide); infinite without a
    /// look.
    fn promise(&self) -> f64 {
        self.decision
            .looks()
            .last()
            .map_or(f64::INFINITY, |l| promise(l, self.decision.plan()))
    }

    /// One stage: pairs up to the next look (`pairs` more, within the plan), cut short by its
    /// own `max_duration` or by the suite's time `left` (`None`: the first stage, which the
    /// suite's budget does not cut) once `MIN_PROCESSES` (3) pairs are in; then the look.
    fn stage(&mut self, b: &Builds<'_, '_>, left: Option<Duration>) {
        let o = b.o;
        let want = self.decision.next_look(o.pairs);
        self.ran.planned = want;
        let stage_start = self.spent;
        let over = |d: &Self| {
            let own = !o.max_duration.is_zero() && d.spent >= o.max_duration;
            let suite = left.is_some_and(|l| d.spent - stage_start >= l);
            own || suite
        };
        while self.ran.reports.len() < want {
            if self.ran.reports.len() >= MIN_PROCESSES && over(self) {
                break;
            }
            if let Err(halt) = self.next_pair(b, want) {
                self.halt = Some(halt);
                return;
            }
        }
        if self.ran.reports.len() > self.decision.seen() {
            let deltas: Vec<f64> = self.ran.reports.iter().map(|r| r.estimate.delta).collect();
            // The look judges against the floor the pooled verdict will hold it to: the median
            // pair's own A/A floor.
            let floors: Vec<f64> = self.ran.reports.iter().map(|r| r.noise_floor).collect();
            let floor = crate::stats::median(&floors).unwrap_or(0.0);
            if let Err(e) = self.decision.look_at_deltas(&deltas, floor) {
                self.halt = Some(Halt::Failed(PairFailure {
                    pair: deltas.len(),
                    layout: 0,
                    build: None,
                    reason: format!("its pairs could not be decided on: {e}"),
                }));
                return;
            }
        }
        if over(self) {
            self.decision.stop(DecisionEnd::TimeBudget);
        }
    }

    /// Its next worker pair, its time (making layouts left out) added to what it spent.
    fn next_pair(&mut self, b: &Builds<'_, '_>, want: usize) -> Result<(), Halt> {
        let started = Instant::now();
        let making = b.variants.borrow().making;
        let k = self.ran.reports.len();
        let pair = b.pair(self.name, self.offset, self.seed, k, &mut self.ran.retried);
        self.spent += started
            .elapsed()
            .saturating_sub(b.variants.borrow().making - making);
        self.ran.reports.push(pair?);
        b.tell(self.name, self.position, &self.ran.reports, want);
        Ok(())
    }

    /// Its outcome and seconds: pooled on the last look's interval at its level (with every
    /// floor and veto of a pooled verdict), or what its halt left.
    fn finish(self, b: &Builds<'_, '_>) -> (Outcome, f64) {
        let seconds = self.spent.as_secs_f64();
        if self.ran.reports.is_empty() && self.halt.is_none() {
            return (Outcome::not_run(None), seconds);
        }
        let pooled = match self.halt {
            Some(halt) => Err(halt),
            None => pooled(self.decision, &self.ran, b.o.margin),
        };
        (b.outcome(pooled, self.ran), seconds)
    }
}

/// A decided benchmark's pairs pooled on its last look's interval, at that look's level, its
/// decision recorded and made to agree with the pooled verdict.
fn pooled(decision: Sequential, ran: &Ran, margin: f64) -> Result<Pooled, Halt> {
    let Some(last) = decision.looks().last().copied() else {
        // The run stopped before its first look: what it measured, undecided.
        return Err(Halt::interrupted());
    };
    let level = (1.0 - last.alpha).clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
    let reports = &ran.reports;
    let mut pooled = pool_pairs(reports, 0, level, margin).map_err(|e| {
        Halt::Failed(PairFailure {
            pair: reports.len(),
            layout: 0,
            build: None,
            reason: format!("its pairs could not be pooled: {e}"),
        })
    })?;
    pooled.planned_processes = decision.plan().max_n;
    pooled.decision = decision
        .finish(DecisionEnd::Interrupted)
        .map(|d| d.ending_in(&pooled.verdict));
    Ok(pooled)
}

/// How far `look` is from deciding by the one rule against `plan`'s margin and floor: the
/// share of its half-width the interval must shed to lie wholly beyond the bar (the larger of
/// the two) or to fit inside ±margin (0: about to decide; infinite for an interval without a
/// finite width).
fn promise(l: &SequentialLook, plan: &SequentialOptions) -> f64 {
    let half = (l.high - l.low) / 2.0;
    let bar = plan.margin.max(plan.floor);
    let to_claim = half + bar - l.mean.abs();
    let to_margin = l.mean.abs() + half - plan.margin;
    if half.is_finite() && half > 0.0 {
        (to_claim.min(to_margin) / half).max(0.0)
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn look(mean: f64, half: f64) -> SequentialLook {
        SequentialLook {
            n: 5,
            alpha: 0.01,
            mean,
            low: mean - half,
            high: mean + half,
            outcome: crate::stats::verdicts::sequential::SequentialOutcome::Undecided,
            rules_out_beyond: mean.abs() + half,
            last: false,
            agreeing: 0,
        }
    }

    #[test]
    fn the_look_nearest_a_decision_is_the_most_promising() {
        let plan = SequentialOptions::default().margin(0.02);
        // Nearly beyond the 2 % margin: 3.1 + 2 − 5 = 0.1 of 3.1 to shed.
        let near_zero = promise(&look(0.050, 0.031), &plan);
        // Nearly inside ±2 %: 0.5 + 1.6 − 2 = 0.1 of 1.6.
        let near_margin = promise(&look(0.005, 0.016), &plan);
        // Wide and centred: 8 of 10 points to shed.
        let wide = promise(&look(0.0, 0.10), &plan);
        // A floor above the margin raises the bar a claim must clear.
        let floored = promise(&look(0.050, 0.031), &plan.floor(0.04));
        assert!((floored - 2.1 / 3.1).abs() < 1e-9, "{floored}");
        assert!((near_zero - 0.1 / 3.1).abs() < 1e-9, "{near_zero}");
        assert!((near_margin - 0.1 / 1.6).abs() < 1e-9, "{near_margin}");
        assert!((wide - 0.8).abs() < 1e-9, "{wide}");
        assert!(near_zero < near_margin && near_margin < wide);
        let unbounded = SequentialLook {
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
            ..look(0.0, 0.1)
        };
        assert_eq!(promise(&unbounded, &plan), f64::INFINITY);
    }
}
