//! `rtcompare cmd`'s sequential decision: look at the rounds so far at planned counts, stop as
//! soon as every comparison is settled against `--threshold` (the margin), and keep the error
//! rates at the family's level under that stopping.
//!
//! **Each look's interval** is the bootstrap rule's own: the paired (block) bootstrap of B's
//! time over A's ([`analysis::estimate`]), at the level 1 − α_j that the spending function
//! releases for this look. The plan, the shares of α, the rule a look applies and where a
//! decision ends are the library's one sequential driver's ([`Sequential`], Pocock-like
//! spending over the planned rounds), as for `pool::run` and `rtcompare bench`; only the
//! interval is this command's. The shares sum to at most α however the looks fall, so by the union bound every look's interval holds at once with probability at
//! least 1 − α, and any decision read from any of them keeps its error rate within α. A first
//! version took the mean of blocks' median log ratios with a t interval, as the library does
//! with whole processes; on the busy test machine its intervals came out two to three times as
//! wide as the bootstrap's over the same rounds (one slow run moves a block's median, and the
//! t interval counts that block at full weight), so an unchanged pair of commands ended
//! "cannot tell" at the time budget (docs/background.md, "`rtcompare cmd` decides").
//!
//! **The plan.** The most rounds a decision may take is fixed once, after the first
//! [`PLAN_ROUNDS`] rounds, from their duration: as many as fit in `--max-time`, at most
//! [`MAX_ROUNDS`] and at most `--max-runs`. Fixing it before any look is what lets the spending
//! hand each look a share of α that does not depend on what the looks saw. The first look
//! comes at a tenth of the plan (at least [`FIRST_LOOK`] rounds), each later one at 1.5 times
//! the last, the last at the plan's end.
//!
//! **What settles a comparison.** The threshold is the margin of the decision and the smallest
//! difference the command claims, as in the bootstrap rule: a comparison is settled when its
//! interval on B's time over A's lies inside 1 ± threshold (equivalent) or wholly beyond it on
//! one side (faster or slower by more than the threshold). An interval that excludes no change
//! but straddles the threshold is a real difference too small to claim yet; measuring goes on.
//! Each outcome needs an interval that misses the truth to be wrong, so both the false-verdict
//! and the false-equivalence rate stay within 1 − level.

use serde::{Deserialize, Serialize};

use rtcompare::support::display::{Level, Pct, SignedPct};
use rtcompare::support::stats::{DecisionEnd, Sequential, SequentialOptions, Spending};

use crate::analysis::{self, AnalysisOptions, CommandOutcome, VerdictSummary};
use crate::error::Result;
use rtcompare::stats::{Bounds, Judgement, Scale, judge};

/// Rounds timed before the plan is fixed: 4.
pub const PLAN_ROUNDS: usize = 4;
/// Fewest rounds before the first look: 20.
pub const FIRST_LOOK: usize = 20;
/// Most rounds a decision plans for: 1,000. Beyond that an interval narrows by less than the
/// extra rounds cost, and the last look's share of α stays usable.
pub const MAX_ROUNDS: usize = 1_000;
/// Each look after the first at this many times the last one's rounds.
const LOOK_GROWTH: f64 = 1.5;
/// Bootstrap replicates in each tail a look's interval rests on, at least: 25. A look at
/// α_j gets max(5,000, 2 × 25/α_j) replicates, so a small share of α still has its quantile
/// read from more than a handful of replicates.
const TAIL_REPLICATES: f64 = 25.0;

/// One look of a command's decision.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Look {
    /// Rounds (timed pairs) the look saw.
    pub rounds: usize,
    /// The share of α this look spent (its interval's level is 1 − `alpha`).
    pub alpha: f64,
    /// B's time over A's (the paired estimate).
    pub ratio: f64,
    /// Lower end of its interval on the ratio.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Whether it settled the comparison (inside ±margin, or beyond it on one side).
    pub settled: bool,
}

/// A command's decision as the session made it: the margin, the plan, every look, and why it
/// stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The margin (`--threshold`, a fraction).
    pub margin: f64,
    /// The spending function.
    pub spending: Spending,
    /// The most rounds the decision planned for.
    pub max_rounds: usize,
    /// Every look, in order; the last one is the deciding (or final) one.
    pub looks: Vec<Look>,
    /// Why it stopped.
    pub end: DecisionEnd,
}

/// The decisions of one session: one per comparison, all looked at together. Each is the
/// library's sequential driver ([`Sequential`]) fed the bootstrap interval; beside it, each
/// look as this command reports it, on B's time over A's.
#[derive(Debug, Clone)]
pub struct Decisions {
    margin: f64,
    max_rounds: usize,
    next: usize,
    each: Vec<Sequential>,
    looks: Vec<Vec<Look>>,
}

/// The rounds a decision may take, from the first [`PLAN_ROUNDS`] rounds' duration
/// (`plan_s`, seconds), the time budget (`budget_s`) and `--max-runs`: at least
/// [`FIRST_LOOK`] + 1, at most [`MAX_ROUNDS`].
pub fn planned_rounds(plan_s: f64, budget_s: f64, max_runs: usize) -> usize {
    let per_round = plan_s / PLAN_ROUNDS as f64;
    let by_time = if per_round > 0.0 {
        (budget_s / per_round).floor().min(MAX_ROUNDS as f64) as usize
    } else {
        MAX_ROUNDS
    };
    by_time.min(max_runs).clamp(FIRST_LOOK + 1, MAX_ROUNDS)
}

impl Decisions {
    /// Decisions for `comparisons` comparisons, each at `level`, against `margin` (the
    /// threshold, a fraction), over at most `max_rounds` rounds, spending α the Pocock-like
    /// way, the first look at no fewer than `min_rounds` rounds (`--min-runs`; a look skipped
    /// only leaves its share of α unspent).
    ///
    /// Errors: the library's for a bad plan (a level outside (0, 1), a negative margin, fewer
    /// than 2 rounds).
    pub fn new(
        comparisons: usize,
        level: f64,
        margin: f64,
        max_rounds: usize,
        min_rounds: usize,
    ) -> Result<Decisions> {
        let plan = SequentialOptions::default()
            .level(level)
            .margin(margin)
            .max_n(max_rounds)
            .spending(Spending::Pocock);
        Ok(Decisions {
            margin,
            max_rounds,
            next: (max_rounds / 10)
                .max(FIRST_LOOK)
                .max(min_rounds)
                .min(max_rounds),
            each: vec![Sequential::new(plan)?; comparisons],
            looks: vec![Vec::new(); comparisons],
        })
    }

    /// Whether `rounds` complete rounds reach the next planned look.
    pub fn due(&self, rounds: usize) -> bool {
        rounds >= self.next
    }

    /// For the progress line: the widest unsettled comparison's largest change its interval
    /// still allows (a fraction), `None` before the first look.
    pub fn widest(&self) -> Option<f64> {
        self.each
            .iter()
            .filter(|d| d.is_open())
            .filter_map(|d| d.looks().last())
            .map(|l| l.rules_out_beyond)
            .reduce(f64::max)
    }

    /// Looks at every unsettled comparison: `reference` is the reference's timed wall times,
    /// `others[c]` comparison c's command's, over the same complete rounds; `opts` the
    /// analysis options (seed, pairing). `forced` makes this the last look (the time budget
    /// ran out). Returns why to stop, or `None` to measure on.
    pub fn look(
        &mut self,
        reference: &[f64],
        others: &[&[f64]],
        opts: &AnalysisOptions,
        forced: bool,
    ) -> Result<Option<DecisionEnd>> {
        let rounds = reference.len();
        for (c, other) in others.iter().enumerate() {
            let d = &mut self.each[c];
            if !d.is_open() || rounds <= d.seen() || rounds < FIRST_LOOK.min(self.max_rounds) {
                continue;
            }
            let share = d.share(rounds)?;
            if share <= 0.0 {
                continue;
            }
            let resamples = ((2.0 * TAIL_REPLICATES / share).ceil() as usize).max(opts.resamples);
            let at = AnalysisOptions {
                level: 1.0 - share,
                resamples,
                ..*opts
            };
            let r = analysis::estimate(reference, other, &at)?.ratio();
            // On δ = 1 − B/A (δ > 0: B needs less time), without a floor: the verdict holds
            // the last look to the A/A floor ([`verdict`]).
            let look =
                d.look_at_interval(rounds, 0.0, (1.0 - r.ratio, 1.0 - r.high, 1.0 - r.low))?;
            self.looks[c].push(Look {
                rounds,
                alpha: share,
                ratio: r.ratio,
                low: r.low,
                high: r.high,
                settled: look.outcome.decided(),
            });
        }
        self.next = ((rounds as f64 * LOOK_GROWTH).ceil() as usize).min(self.max_rounds);
        let settled = |d: &Sequential| d.end() == Some(DecisionEnd::Decided);
        Ok(if self.each.iter().all(settled) {
            Some(DecisionEnd::Decided)
        } else if rounds >= self.max_rounds {
            Some(DecisionEnd::LastLook)
        } else if forced {
            Some(DecisionEnd::TimeBudget)
        } else {
            None
        })
    }

    /// Each comparison's decision (`None` for one never looked at); one not settled ends as
    /// the session did (`end`).
    pub fn finish(self, end: DecisionEnd) -> Vec<Option<Decision>> {
        let (margin, max_rounds) = (self.margin, self.max_rounds);
        self.each
            .into_iter()
            .zip(self.looks)
            .map(|(d, looks)| {
                let settled = d.end() == Some(DecisionEnd::Decided);
                let end = if settled { DecisionEnd::Decided } else { end };
                (!looks.is_empty()).then_some(Decision {
                    margin,
                    spending: Spending::Pocock,
                    max_rounds,
                    looks,
                    end,
                })
            })
            .collect()
    }
}

/// What the interval `[low, high]` on B's time over A's guarantees, on the ratio's own scale
/// (relative to A's time): B slower by `low − 1`, faster by `1 − high`, and no change beyond
/// the larger distance from 1.
pub(crate) fn bounds(low: f64, high: f64) -> Bounds {
    Bounds::of_interval(low - 1.0, high - 1.0, Scale::Slowdown)
        .unwrap_or_else(|_| rtcompare::support::stats::unbounded())
}

/// The verdict of `decision`'s last look: B's time over A's with the look's interval, judged
/// ([`judge`]) against the larger of the threshold and the A/A floor `noise` for a claim of
/// faster or slower, and within ±`threshold` for equivalent; `best_ratio` is kept from the
/// bootstrap rule's summary.
pub fn verdict(
    decision: &Decision,
    threshold: f64,
    noise: f64,
    best_ratio: f64,
) -> Option<VerdictSummary> {
    let look = decision.looks.last()?;
    let (ratio, low, high) = (look.ratio, look.low, look.high);
    let bar = rtcompare::support::stats::bar(threshold, noise);
    // Said as every change is said: B's time against A's, + = slower.
    let interval = format!(
        "B's change [{}, {}] ({} interval at look {} of the sequential rule, {} rounds)",
        SignedPct(low - 1.0),
        SignedPct(high - 1.0),
        Level(1.0 - look.alpha),
        decision.looks.len(),
        look.rounds
    );
    let against = format!(
        "the tolerance {} (the larger of the {} threshold and the {} A/A floor)",
        Pct(bar.tolerance()),
        Pct(threshold),
        Pct(noise)
    );
    let b = bounds(low, high);
    let allows = Pct(b.at_most);
    let (outcome, reason) = match judge(b, bar, true) {
        Judgement::Clears { claim, .. } => {
            let outcome = analysis::outcome_of(claim);
            let word = outcome.word();
            (
                outcome,
                format!("B is {word}: {interval} lies beyond {against}"),
            )
        }
        Judgement::Equivalent => (
            CommandOutcome::Equivalent,
            format!(
                "equivalent: {interval} lies inside ±{}, no change beyond the threshold",
                Pct(threshold)
            ),
        ),
        Judgement::FloorAboveMargin => (
            CommandOutcome::CannotTell,
            format!(
                "cannot tell: {interval} lies inside ±{}, but the A/A floor ({}) is not below \
                 it, so this setup cannot establish equivalence that tight",
                Pct(threshold),
                Pct(noise)
            ),
        ),
        Judgement::Short { .. } => (
            CommandOutcome::CannotTell,
            format!(
                "cannot tell below ±{allows}: {interval} neither lies inside ±{} nor beyond \
                 {against}; it rules out any change beyond ±{allows}",
                Pct(threshold)
            ),
        ),
    };
    Some(VerdictSummary {
        outcome,
        ratio,
        best_ratio,
        tolerance: bar.tolerance(),
        noise,
        low: Some(low),
        high: Some(high),
        level: Some(1.0 - look.alpha),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The final verdict is the judge's, with the A/A floor: inside ±2 % is equivalent only
    /// when identical code differs by less than 2 % on this setup.
    #[test]
    fn equivalence_needs_a_floor_below_the_margin() {
        let look = Look {
            rounds: 40,
            alpha: 0.01,
            ratio: 1.002,
            low: 0.992,
            high: 1.012,
            settled: true,
        };
        let decision = Decision {
            margin: 0.02,
            spending: Spending::Pocock,
            max_rounds: 400,
            looks: vec![look],
            end: DecisionEnd::Decided,
        };
        let quiet = verdict(&decision, 0.02, 0.005, 1.0).unwrap();
        assert_eq!(
            quiet.outcome,
            CommandOutcome::Equivalent,
            "{}",
            quiet.reason
        );
        let noisy = verdict(&decision, 0.02, 0.03, 1.0).unwrap();
        assert_eq!(noisy.outcome, CommandOutcome::CannotTell);
        assert!(
            noisy.reason.contains("A/A floor (3.0 %)"),
            "{}",
            noisy.reason
        );
        assert!(noisy.reason.contains("inside ±2.0 %"), "{}", noisy.reason);
    }

    #[test]
    fn the_plan_fits_the_budget_within_its_bounds() {
        // 0.5 s for 4 rounds: 480 rounds fit in 60 s.
        assert_eq!(planned_rounds(0.5, 60.0, 10_000), 480);
        assert_eq!(planned_rounds(0.01, 60.0, 10_000), MAX_ROUNDS);
        assert_eq!(planned_rounds(60.0, 60.0, 10_000), FIRST_LOOK + 1);
        assert_eq!(planned_rounds(0.01, 60.0, 100), 100);
    }

    /// Seeded runs of the rule on simulated rounds (lognormal run times, 3 % spread, one run in
    /// fifty twice as slow): identical commands never get a verdict and end equivalent in most
    /// runs; a 10 % change is called slower in every run.
    #[test]
    fn identical_commands_get_no_verdict_and_a_clear_change_is_slower() {
        let mut rng = rtcompare::support::rng::Rng::new(7);
        let time = |slower: f64, rng: &mut rtcompare::support::rng::Rng| {
            let spike = if rng.next_f64() < 0.02 { 2.0 } else { 1.0 };
            1e6 * (1.0 + slower) * (0.03 * rng.next_normal()).exp() * spike
        };
        let mut run = |slower: f64, seed: u64| {
            let mut d = Decisions::new(1, 0.95, 0.02, 200, 0).unwrap();
            let opts = AnalysisOptions {
                seed,
                resamples: 1_000,
                ..AnalysisOptions::default()
            };
            let (mut a, mut b) = (Vec::new(), Vec::new());
            loop {
                a.push(time(0.0, &mut rng));
                b.push(time(slower, &mut rng));
                if d.due(a.len())
                    && let Some(end) = d.look(&a, &[&b], &opts, false).unwrap()
                {
                    let decision = d.finish(end).remove(0).unwrap();
                    return verdict(&decision, 0.02, 0.0, 1.0).unwrap().outcome;
                }
            }
        };
        let mut equivalent = 0;
        for seed in 1..=20 {
            let same = run(0.0, seed);
            assert!(
                matches!(
                    same,
                    CommandOutcome::Equivalent | CommandOutcome::CannotTell
                ),
                "{same:?}"
            );
            equivalent += usize::from(same == CommandOutcome::Equivalent);
            assert_eq!(run(0.10, seed), CommandOutcome::Slower);
        }
        assert!(equivalent >= 15, "{equivalent}");
    }
}
