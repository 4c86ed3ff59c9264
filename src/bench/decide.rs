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

use super::builds::{Builds, Halt, Outcome, Ran, pool_pairs};
use super::options::BuildsOptions;
use super::run::PairFailure;
use crate::rng::{Rng, derive_seed};
use crate::stats::{
    DecisionEnd, MIN_PROCESSES, Pooled, SequentialDecision, SequentialLook, SequentialOptions,
    sequential_look,
};

/// Every benchmark of `names` decided within the run's budget (see the module's protocol),
/// each with the seconds it spent on worker pairs (making layouts left out).
pub(super) fn suite(
    b: &Builds<'_, '_>,
    names: &[String],
    seed: u64,
    rng: &mut Rng,
) -> Vec<(Outcome, f64)> {
    let o = b.o;
    let mut all: Vec<Deciding<'_>> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            // Where this benchmark's pairs start among the allowed CPUs: drawn, so that over
            // benchmarks no CPU always takes the odd pair.
            let offset = rng.index(b.allowed.len().max(1));
            Deciding::new(b, name, i, derive_seed(seed, 1 + i as u64), offset)
        })
        .collect();
    let mut stopped = false;
    for d in &mut all {
        if b.cancelled() {
            d.halt = Some(Halt::interrupted());
            stopped = true;
        }
        if stopped {
            break;
        }
        d.stage(b, None);
        stopped = d.stops_run();
    }
    while !stopped {
        let spent: Duration = all.iter().map(|d| d.spent).sum();
        let left = (!o.budget.is_zero()).then(|| o.budget.saturating_sub(spent));
        let Some(next) = all
            .iter_mut()
            .filter(|d| d.open())
            .min_by(|x, y| x.promise().total_cmp(&y.promise()))
        else {
            break;
        };
        if left.is_some_and(|l| l.is_zero()) {
            for d in all.iter_mut().filter(|d| d.open()) {
                d.end = Some(DecisionEnd::TimeBudget);
            }
            break;
        }
        if b.cancelled() {
            next.halt = Some(Halt::interrupted());
            break;
        }
        next.stage(b, left);
        stopped = next.stops_run();
    }
    all.into_iter().map(|d| d.finish(b)).collect()
}

/// One benchmark's sequential decision in progress.
struct Deciding<'n> {
    name: &'n str,
    position: usize,
    seed: u64,
    offset: usize,
    plan: SequentialOptions,
    ran: Ran,
    looks: Vec<SequentialLook>,
    /// Why its looks ended, once they have.
    end: Option<DecisionEnd>,
    /// Time on its worker pairs, making layouts left out.
    spent: Duration,
    /// Why its pairs ended early (a failure, or the run's stop).
    halt: Option<Halt>,
}

impl<'n> Deciding<'n> {
    fn new(b: &Builds<'_, '_>, name: &'n str, position: usize, seed: u64, offset: usize) -> Self {
        let o = b.o;
        Deciding {
            name,
            position,
            seed,
            offset,
            plan: SequentialOptions::default()
                .level(b.plan_level())
                .margin(o.margin)
                .max_n(most_pairs(o)),
            ran: Ran::default(),
            looks: Vec::new(),
            end: None,
            spent: Duration::ZERO,
            halt: None,
        }
    }

    /// Whether it may take another stage.
    fn open(&self) -> bool {
        self.end.is_none() && self.halt.is_none()
    }

    /// Whether its halt stops the whole run (a cancellation, a layout that cannot be made).
    fn stops_run(&self) -> bool {
        matches!(self.halt, Some(Halt::Stopped(..)))
    }

    /// How far its last look is from deciding: the share of its interval's half-width it must
    /// shed to exclude zero or to fit inside ±margin (0 = about to decide); infinite without a
    /// look.
    fn promise(&self) -> f64 {
        self.looks
            .last()
            .map_or(f64::INFINITY, |l| promise(l, &self.plan))
    }

    /// One stage: pairs up to the next look (`pairs` more, within the plan), cut short by its
    /// own `max_duration` or by the suite's time `left` (`None`: the first stage, which the
    /// suite's budget does not cut) once [`MIN_PROCESSES`] pairs are in; then the look.
    fn stage(&mut self, b: &Builds<'_, '_>, left: Option<Duration>) {
        let o = b.o;
        let previous = self.looks.last().map_or(0, |l| l.n);
        let want = (previous + o.pairs).min(self.plan.max_n);
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
            let started = Instant::now();
            let making = b.variants.borrow().making;
            let k = self.ran.reports.len();
            let pair = b.pair(self.name, self.offset, self.seed, k, &mut self.ran.retried);
            self.spent += started
                .elapsed()
                .saturating_sub(b.variants.borrow().making - making);
            match pair {
                Ok(report) => self.ran.reports.push(report),
                Err(halt) => {
                    self.halt = Some(halt);
                    return;
                }
            }
            b.tell(self.name, self.position, &self.ran.reports, want);
        }
        if self.ran.reports.len() > previous {
            let deltas: Vec<f64> = self.ran.reports.iter().map(|r| r.estimate.delta).collect();
            // The look judges against the floor the pooled verdict will hold it to: the median
            // pair's own A/A floor.
            let floors: Vec<f64> = self.ran.reports.iter().map(|r| r.noise_floor).collect();
            self.plan.floor = crate::stats::median(&floors).unwrap_or(0.0);
            match sequential_look(&deltas, previous, &self.plan) {
                Ok(look) => {
                    if look.outcome.decided() {
                        self.end = Some(DecisionEnd::Decided);
                    } else if look.last {
                        self.end = Some(DecisionEnd::LastLook);
                    }
                    self.looks.push(look);
                }
                Err(e) => {
                    self.halt = Some(Halt::Failed(PairFailure {
                        pair: deltas.len(),
                        layout: 0,
                        build: None,
                        reason: format!("its pairs could not be decided on: {e}"),
                    }));
                    return;
                }
            }
        }
        if self.end.is_none() && over(self) {
            self.end = Some(DecisionEnd::TimeBudget);
        }
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
            None => self.pooled(b.o),
        };
        (b.outcome(pooled, self.ran), seconds)
    }

    fn pooled(&self, o: &BuildsOptions) -> Result<Pooled, Halt> {
        let Some(last) = self.looks.last().copied() else {
            // The run stopped before its first look: what it measured, undecided.
            return Err(Halt::interrupted());
        };
        let level = (1.0 - last.alpha).clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
        let reports = &self.ran.reports;
        let mut pooled = pool_pairs(reports, 0, level, o.margin).map_err(|e| {
            Halt::Failed(PairFailure {
                pair: reports.len(),
                layout: 0,
                build: None,
                reason: format!("its pairs could not be pooled: {e}"),
            })
        })?;
        pooled.planned_processes = self.plan.max_n;
        let end = self.end.unwrap_or(DecisionEnd::Interrupted);
        pooled.decision = Some(
            SequentialDecision::new(&self.plan, self.looks.clone(), end).ending_in(&pooled.verdict),
        );
        Ok(pooled)
    }
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

/// The most pairs a benchmark may take: `max_pairs` (at least the first stage's), and with
/// several layouts no more than there are: a pair beyond the last layout would repeat one, and
/// the pairs would no longer be independent draws of code placement.
pub(super) fn most_pairs(o: &BuildsOptions) -> usize {
    let most = o.max_pairs.max(o.pairs);
    if o.layouts > 1 {
        most.min(o.layouts)
    } else {
        most
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
            outcome: crate::stats::SequentialOutcome::Undecided,
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
