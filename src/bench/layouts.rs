//! Code layouts: the variants of the two builds a run compares (each linked with its own code
//! order), handed to worker pairs as they need them, and what a benchmark's pairs say about how
//! much its layout alone moves it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::compare::report::Report;
use crate::error::Result;
use crate::stats::{normal_quantile, split_spread};

/// Default [`BuildsOptions::layouts`](super::BuildsOptions::layouts): as many layouts as a
/// benchmark may run worker pairs (30), so that every pair runs a layout of its own.
pub const DEFAULT_LAYOUTS: usize = crate::pool::DEFAULT_MAX_PROCESSES;

/// Default [`BuildsOptions::margin`](super::BuildsOptions::margin): 1 %, criterion's default
/// noise threshold. Under the one rule a slowdown is proven only when its whole interval lies
/// beyond the margin, and the cross-revision runs are measured to find 2 % slowdowns
/// (docs/background.md, "One rule in every front end"), which a 2 % margin could never claim.
pub const DEFAULT_MARGIN: f64 = 0.01;

/// The level at which a benchmark's layouts must be shown to differ before it is named as
/// moved by its layout alone.
pub(crate) const LAYOUT_TEST_LEVEL: f64 = 0.95;

/// Where the executables of layout variant `i` (from 0) come from: the baseline's and the
/// head's, linked with the same code-order seed. Called once per variant, in order, when the
/// first worker pair that runs it starts.
pub type VariantSource<'a> = dyn FnMut(usize) -> Result<(PathBuf, PathBuf)> + 'a;

/// The variants asked for so far, and the time spent making them.
pub(crate) struct Variants<'a> {
    source: Box<VariantSource<'a>>,
    /// Distinct variants a run may use; pair k runs variant k mod `count`.
    count: usize,
    made: Vec<(PathBuf, PathBuf)>,
    /// Wall time spent in `source`.
    pub(crate) making: Duration,
}

impl<'a> Variants<'a> {
    pub(crate) fn new(source: Box<VariantSource<'a>>, count: usize) -> Variants<'a> {
        Variants {
            source,
            count: count.max(1),
            made: Vec::new(),
            making: Duration::ZERO,
        }
    }

    /// The variant worker pair `k` runs, with its two executables, made first if need be.
    /// Errors: the source's.
    pub(crate) fn of_pair(&mut self, k: usize) -> Result<(usize, PathBuf, PathBuf)> {
        let v = k % self.count;
        while self.made.len() <= v {
            let started = Instant::now();
            let made = (self.source)(self.made.len());
            self.making += started.elapsed();
            self.made.push(made?);
        }
        let (base, head) = self.made[v].clone();
        Ok((v, base, head))
    }

    /// Variants made so far.
    pub(crate) fn made(&self) -> usize {
        self.made.len()
    }
}

/// How much code placement moves one benchmark: the spread of its worker pairs' δ, each pair
/// on a layout of its own, split into the part between layouts and the part within one (the
/// processes'), the latter estimated from each pair's own A/A differences
/// ([`split_spread`](crate::stats::split_spread)). All spreads are fractions, as δ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayoutSpread {
    /// Distinct layout variants among the benchmark's worker pairs.
    pub layout_variants: usize,
    /// Standard deviation of δ between layouts: how far another code order moves the
    /// comparison.
    pub layout_sd: f64,
    /// Standard deviation of δ within one layout: the processes' part.
    pub process_sd: f64,
    /// The layouts' share of the pairs' variance, in [0, 1].
    pub layout_share: f64,
    /// The p-value of "the layouts do not move it" (1 when the pairs agree as closely as their
    /// own A/A differences).
    pub layout_p: f64,
    /// How far δ moves between layouts for 95 % of them: 1.96 × `layout_sd`.
    pub layout_moves: f64,
    /// The margin it was held to ([`BuildsOptions::margin`](super::BuildsOptions::margin)).
    pub margin: f64,
    /// Whether the layouts were shown to move it (`layout_p` below 1 − `LAYOUT_TEST_LEVEL` (0.95))
    /// by more than the margin (`layout_moves` above it): one build's figure for this
    /// benchmark says little, and a single-layout tool would report placement as a change.
    pub beyond_margin: bool,
}

impl LayoutSpread {
    /// The split over `reports` (worker pairs that recorded their layout variant and their
    /// A/A differences); `None` when they ran fewer than two distinct layouts. Errors: the
    /// statistics' (none for a pair's own figures).
    pub(crate) fn of(reports: &[Report], margin: f64) -> Result<Option<LayoutSpread>> {
        let pairs: Vec<_> = reports
            .iter()
            .filter_map(|r| r.context.worker_pair.as_ref().map(|p| (r, p)))
            .collect();
        let mut variants: Vec<usize> = pairs.iter().map(|(_, p)| p.layout_variant).collect();
        variants.sort_unstable();
        variants.dedup();
        if variants.len() < 2 || pairs.len() < 2 {
            return Ok(None);
        }
        let deltas: Vec<f64> = pairs.iter().map(|(r, _)| r.estimate.delta).collect();
        let within: Vec<f64> = pairs
            .iter()
            .map(|(_, p)| (p.null_deltas[0].powi(2) + p.null_deltas[1].powi(2)) / 2.0)
            .collect();
        let split = split_spread(&deltas, &within)?;
        let z = normal_quantile(0.5 + LAYOUT_TEST_LEVEL / 2.0)?;
        let layout_moves = z * split.between_sd;
        Ok(Some(LayoutSpread {
            layout_variants: variants.len(),
            layout_sd: split.between_sd,
            process_sd: split.within_sd,
            layout_share: split.between_share,
            layout_p: split.p_value,
            layout_moves,
            margin,
            beyond_margin: split.p_value < 1.0 - LAYOUT_TEST_LEVEL && layout_moves > margin,
        }))
    }
}
