//! `rtcompare cmd`'s sequential decision: look at the rounds so far at planned counts, stop as
//! soon as every comparison is settled against `--threshold` (the margin), and keep the error
//! rates at the family's level under that stopping.
//!
//! **The deltas.** One delta is one block of [`BLOCK`] consecutive rounds: the median, over the
//! block, of ln(A/B) of each round's two runs (positive when B took less time: the library's
//! sign, the first side named being the one judged). Four rounds are two ABBA cycles, so every block
//! holds each order twice and a steady cost of going first cancels inside it; the median keeps
//! one run hit by another process from moving a block; and blocks of adjacent rounds are far
//! less correlated than single rounds, which the t interval of
//! [`sequential_look`](rtcompare::stats::sequential_look) assumes independent.
//!
//! **The plan.** The most blocks a decision may take is fixed once, after the first block, from
//! that block's duration: as many as fit in `--max-time`, at most [`MAX_BLOCKS`] and at most
//! `--max-runs` / [`BLOCK`]. Fixing it before any look is what lets the spending function hand
//! each look a share of α that does not depend on what the looks saw. The first look comes at a
//! tenth of the plan (at least [`FIRST_LOOK`] blocks, so its t interval has 7 degrees of
//! freedom), each later one at 1.5 times the last, the last at the plan's end.
//!
//! **What settles a comparison.** The threshold is the margin of the decision and the smallest
//! difference the command claims, as in the bootstrap rule: a comparison is settled when its
//! interval on B's time over A's lies inside 1 ± threshold (equivalent) or wholly beyond it on
//! one side (faster or slower by more than the threshold). An interval that excludes no change
//! but straddles the threshold is a real difference too small to claim yet; measuring goes on.
//! Each outcome needs an interval that misses the truth to be wrong, so both the false-verdict
//! and the false-equivalence rate stay within 1 − level.

use rtcompare::stats::{self, DecisionEnd, SequentialDecision, SequentialLook, SequentialOptions};

use crate::analysis::{self, CommandOutcome, VerdictSummary};
use crate::error::Result;
use crate::judge::{self, Bar, Bounds, Judgement};

/// Rounds behind one delta: 4 (two ABBA cycles).
pub const BLOCK: usize = 4;
/// Fewest blocks before the first look: 8 (32 rounds).
pub const FIRST_LOOK: usize = 8;
/// Most blocks a decision plans for: 250 (1,000 rounds). Beyond that a decision's interval
/// narrows by less than the extra rounds cost, and the last look's share of α stays usable.
pub const MAX_BLOCKS: usize = 250;
/// Each look after the first at this many times the last one's blocks.
const LOOK_GROWTH: f64 = 1.5;

/// The decisions of one session: one per comparison, all looked at together.
#[derive(Debug, Clone)]
pub struct Decisions {
    plan: SequentialOptions,
    next: usize,
    looks: Vec<Vec<SequentialLook>>,
    settled: Vec<bool>,
}

/// The blocks a decision may take, from the first block's duration (`block_s`, seconds), the
/// time budget (`budget_s`) and `--max-runs`: at least [`FIRST_LOOK`] + 1, at most
/// [`MAX_BLOCKS`].
pub fn planned_blocks(block_s: f64, budget_s: f64, max_runs: usize) -> usize {
    let by_time = if block_s > 0.0 {
        (budget_s / block_s).floor().min(MAX_BLOCKS as f64) as usize
    } else {
        MAX_BLOCKS
    };
    by_time
        .min(max_runs / BLOCK)
        .clamp(FIRST_LOOK + 1, MAX_BLOCKS)
}

impl Decisions {
    /// Decisions for `comparisons` comparisons, each at `level`, against `margin` (the
    /// threshold, a fraction), over at most `max_blocks` blocks.
    pub fn new(comparisons: usize, level: f64, margin: f64, max_blocks: usize) -> Decisions {
        let plan = SequentialOptions::default()
            .level(level)
            .margin(margin)
            .max_n(max_blocks);
        Decisions {
            plan,
            next: (max_blocks / 10).max(FIRST_LOOK).min(max_blocks),
            looks: vec![Vec::new(); comparisons],
            settled: vec![false; comparisons],
        }
    }

    /// Whether `rounds` complete rounds reach the next planned look.
    pub fn due(&self, rounds: usize) -> bool {
        rounds / BLOCK >= self.next
    }

    /// The margin's half-width at the latest look, for the progress line: the widest
    /// unsettled comparison's `rules_out_beyond` (a fraction), `None` before the first look.
    pub fn widest(&self) -> Option<f64> {
        self.looks
            .iter()
            .zip(&self.settled)
            .filter(|(_, s)| !**s)
            .filter_map(|(l, _)| l.last().map(|l| l.rules_out_beyond))
            .reduce(f64::max)
    }

    /// Looks at every unsettled comparison: `reference` is the reference's timed wall times,
    /// `others[c]` comparison c's command's. Returns why to stop, or `None` to measure on.
    /// `forced` makes this the last look (the time budget ran out).
    pub fn look(
        &mut self,
        reference: &[f64],
        others: &[&[f64]],
        forced: bool,
    ) -> Result<Option<DecisionEnd>> {
        let mut last = false;
        for (c, other) in others.iter().enumerate() {
            if self.settled[c] {
                continue;
            }
            let deltas = block_deltas(reference, other);
            let previous = self.looks[c].last().map_or(0, |l| l.n);
            if deltas.len() <= previous || deltas.len() < 2 {
                continue;
            }
            let look = stats::sequential_look(&deltas, previous, &self.plan)?;
            self.settled[c] = settles(&look, self.plan.margin);
            last |= look.last;
            self.looks[c].push(look);
        }
        let blocks = reference.len() / BLOCK;
        self.next = ((blocks as f64 * LOOK_GROWTH).ceil() as usize).min(self.plan.max_n);
        Ok(if self.settled.iter().all(|s| *s) {
            Some(DecisionEnd::Decided)
        } else if last {
            Some(DecisionEnd::LastLook)
        } else if forced {
            Some(DecisionEnd::TimeBudget)
        } else {
            None
        })
    }

    /// Each comparison's decision (`None` for one never looked at), ended by `end`.
    pub fn finish(self, end: DecisionEnd) -> Vec<Option<SequentialDecision>> {
        let plan = self.plan;
        self.looks
            .into_iter()
            .zip(self.settled)
            .map(|(looks, settled)| {
                let end = if settled { DecisionEnd::Decided } else { end };
                (!looks.is_empty()).then(|| SequentialDecision::new(&plan, looks, end))
            })
            .collect()
    }
}

/// One delta per complete block of [`BLOCK`] rounds: the median of ln(a[i] / b[i]) over the
/// block (positive: B took less time). Rounds with a time of 0 or below are left out of their
/// block (only imported times can be 0).
pub fn block_deltas(a: &[f64], b: &[f64]) -> Vec<f64> {
    let n = a.len().min(b.len()) / BLOCK * BLOCK;
    a[..n]
        .chunks(BLOCK)
        .zip(b[..n].chunks(BLOCK))
        .filter_map(|(a, b)| {
            let logs: Vec<f64> = a
                .iter()
                .zip(b)
                .filter(|(a, b)| **a > 0.0 && **b > 0.0)
                .map(|(a, b)| (a / b).ln())
                .collect();
            stats::median(&logs).ok()
        })
        .collect()
}

/// `look`'s interval on ln(A/B) as B's time over A's: (ratio, low, high).
fn on_ratio(look: &SequentialLook) -> (f64, f64, f64) {
    ((-look.mean).exp(), (-look.high).exp(), (-look.low).exp())
}

/// What the interval `[low, high]` on B's time over A's guarantees, on the ratio's own scale
/// (relative to A's time): B slower by `low − 1`, faster by `1 − high`, and no change beyond
/// the larger distance from 1.
pub(crate) fn bounds(low: f64, high: f64) -> Bounds {
    Bounds {
        slower_by: low - 1.0,
        faster_by: 1.0 - high,
        at_most: (high - 1.0).max(1.0 - low),
    }
}

/// Whether `look` settles the comparison against `margin`: the rule ([`judge`]) without a
/// floor makes a claim or finds equivalence.
fn settles(look: &SequentialLook, margin: f64) -> bool {
    let (_, low, high) = on_ratio(look);
    let judged = judge::judge(bounds(low, high), Bar::budget(margin), true);
    !matches!(judged, Judgement::Short { .. })
}

/// The verdict of `decision`'s last look: B's time over A's with the look's interval, judged
/// ([`judge`]) against the larger of the threshold and the A/A floor `noise` for a claim of
/// faster or slower, and within ±`threshold` for equivalent; `best_ratio` is kept from the
/// bootstrap rule's summary.
pub fn verdict(
    decision: &SequentialDecision,
    threshold: f64,
    noise: f64,
    best_ratio: f64,
) -> Option<VerdictSummary> {
    let look = decision.looks.last()?;
    let (ratio, low, high) = on_ratio(look);
    let bar = Bar {
        threshold,
        floor: noise,
    };
    let pct = |x: f64| 100.0 * x;
    let interval = format!(
        "the interval [{low:.4}, {high:.4}] on B's time over A's, at look {} of the sequential \
         rule ({} blocks of {BLOCK} rounds)",
        decision.looks.len(),
        look.n
    );
    let b = bounds(low, high);
    let (outcome, reason) = match judge::judge(b, bar, true) {
        Judgement::Clears { claim, .. } => {
            let outcome = analysis::outcome_of(claim);
            (
                outcome,
                format!(
                    "B is {}: {interval} lies beyond the tolerance {:.2} % (the larger of the \
                     {:.2} % threshold and the {:.2} % A/A floor)",
                    outcome.word(),
                    pct(bar.tolerance()),
                    pct(threshold),
                    pct(noise)
                ),
            )
        }
        Judgement::Equivalent => (
            CommandOutcome::Equivalent,
            format!(
                "equivalent: {interval} lies inside ±{:.2} %, no change beyond the threshold",
                pct(threshold)
            ),
        ),
        Judgement::Short { .. } => (
            CommandOutcome::CannotTell,
            format!(
                "cannot tell below ±{:.2} %: {interval} neither lies inside ±{:.2} % nor \
                 beyond the tolerance {:.2} %; it rules out any change beyond ±{:.2} %",
                pct(b.at_most),
                pct(threshold),
                pct(bar.tolerance()),
                pct(b.at_most)
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

    #[test]
    fn block_deltas_are_medians_of_log_ratios_per_block() {
        let a = [100.0; 9];
        let b = [110.0, 110.0, 110.0, 500.0, 90.0, 90.0, 90.0, 90.0, 1.0];
        let d = block_deltas(&a, &b);
        // The ninth round is no complete block; the 500 in the first block is outvoted.
        assert_eq!(d.len(), 2);
        assert!((d[0] + 1.1f64.ln()).abs() < 1e-12);
        assert!((d[1] + 0.9f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn the_plan_fits_the_budget_within_its_bounds() {
        assert_eq!(planned_blocks(0.5, 60.0, 10_000), 120);
        assert_eq!(planned_blocks(0.01, 60.0, 10_000), MAX_BLOCKS);
        assert_eq!(planned_blocks(30.0, 60.0, 10_000), FIRST_LOOK + 1);
        assert_eq!(planned_blocks(0.01, 60.0, 100), 25);
    }

    /// Seeded A/A and a 10 % change: identical commands end equivalent (never a verdict), a
    /// change beyond the threshold ends slower, both at or before the last look.
    #[test]
    fn identical_commands_settle_equivalent_and_a_clear_change_slower() {
        let mut rng = rtcompare::rng::Rng::new(7);
        let mut run = |slower: f64| {
            let mut d = Decisions::new(1, 0.95, 0.02, 60);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            loop {
                for _ in 0..BLOCK {
                    a.push(1e6 * (1.0 + 0.01 * rng.next_normal()));
                    b.push(1e6 * (1.0 + slower) * (1.0 + 0.01 * rng.next_normal()));
                }
                if d.due(a.len())
                    && let Some(end) = d.look(&a, &[&b], false).unwrap()
                {
                    let decision = d.finish(end).remove(0).unwrap();
                    return verdict(&decision, 0.02, 0.0, 1.0).unwrap().outcome;
                }
            }
        };
        for _ in 0..20 {
            assert_eq!(run(0.0), CommandOutcome::Equivalent);
            assert_eq!(run(0.10), CommandOutcome::Slower);
        }
    }
}
