//! [`Stream`]: the operations a [`Spec`] generates, and their [`Summary`].
//!
//! This file holds the types and their API. [`Spec::stream`] and the generator behind it are
//! in the `generator` submodule, which builds a [`Stream`] from its private fields.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::spec::{KeyDistribution, Spec};

mod generator;

/// One operation of a stream; the key is the `u64` a structure receives (or, for string
/// keys, the `u64` that [`key_string`](crate::key_string) turns into its string).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Insert a key that is absent, with the value [`payload`](Op::payload).
    Insert(u64),
    /// Remove a key that is present.
    Remove(u64),
    /// Look a key up: present (a hit) or absent (a miss), as the spec's mix asked.
    Get(u64),
}

impl Op {
    /// The key the operation names.
    pub fn key(self) -> u64 {
        match self {
            Op::Insert(k) | Op::Remove(k) | Op::Get(k) => k,
        }
    }

    /// The value stored with a key: a fixed function of the key ([`payload`]), so that a
    /// lookup's result can be checked and both structures store the same bytes.
    pub fn payload(self) -> u64 {
        payload(self.key())
    }
}

/// The value a stream stores with `key`: `key × 0x9E3779B97F4A7C15` (wrapping), a fixed
/// bijection.
#[inline]
pub fn payload(key: u64) -> u64 {
    key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The murmur3 64-bit finaliser, a bijection of `u64`: turns key ids into keys so that ids
/// that are neighbours (popular Zipf ranks, a hot window) are scattered in an ordered
/// structure.
#[inline]
fn scatter(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The operations a [`Spec`] generated: fill, then churn, then (optionally) drain.
///
/// Valid by construction when replayed from an empty structure: every [`Op::Insert`] names
/// an absent key, every [`Op::Remove`] a present one, a [`Op::Get`] names a present key when
/// the mix drew a hit and an absent one when it drew a miss, and during the churn the size
/// stays within [`Spec::band`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stream {
    spec: Spec,
    seed: u64,
    ops: Vec<Op>,
    fill: usize,
    churn: usize,
}

impl Stream {
    /// Every operation, in order: fill, churn, drain.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }
    /// The fill phase: `steady_size` inserts from empty.
    pub fn fill(&self) -> &[Op] {
        &self.ops[..self.fill]
    }
    /// The churn phase: the mix, with the size within the band. Starts where
    /// [`fill`](Self::fill) left the structure.
    pub fn churn(&self) -> &[Op] {
        &self.ops[self.fill..self.fill + self.churn]
    }
    /// The drain phase (empty unless the spec asks for one): removals until empty.
    pub fn drain(&self) -> &[Op] {
        &self.ops[self.fill + self.churn..]
    }
    /// The spec the stream came from.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }
    /// The seed actually used (the spec's, or the one drawn for 0).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Measures what was generated, by replaying the stream against a hash-set model; see
    /// [`Summary`]. Time: O(operations) hash operations plus a sort of the distinct keys.
    ///
    /// ```
    /// use rtcompare_workload::Spec;
    /// let s = Spec::default().steady_size(1_000).stream(100_000)?.summary();
    /// assert!((s.insert - 0.40).abs() < 0.01);
    /// assert!(s.min_size >= s.band.0 && s.max_size <= s.band.1);
    /// # Ok::<(), rtcompare_workload::Error>(())
    /// ```
    pub fn summary(&self) -> Summary {
        let mut present: HashSet<u64> = HashSet::with_capacity(self.spec.steady_size as usize);
        for op in self.fill() {
            present.insert(op.key());
        }
        // For a Zipf spec, the keys of the top ranks (rank r is id r − 1), their hits, and the
        // operations during which each was present: a hit names a present key, so the hits of
        // a key per operation present estimate its unconditioned weight.
        let zipf = matches!(self.spec.distribution, KeyDistribution::Zipf { .. });
        let top: HashMap<u64, usize> = if zipf {
            (0..FIT_RANKS).map(|r| (scatter(r as u64), r)).collect()
        } else {
            HashMap::new()
        };
        let tally = self.replay_churn(&mut present, &top);
        let final_size = present.len() as u64;
        let total = self.churn.max(1) as f64;
        let mut counts: Vec<u64> = tally.freq.values().copied().collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let space = self.spec.resolved_key_space();
        let population = if space == u64::MAX {
            counts.len() as u64
        } else {
            space
        };
        let hottest = population.div_ceil(100).max(1) as usize;
        let hot_ops: u64 = counts.iter().take(hottest).sum();
        let fitted_exponent = if zipf {
            fit_exponent(&tally.top_hits, &tally.top_present)
        } else {
            None
        };
        Summary {
            fill_ops: self.fill as u64,
            churn_ops: self.churn as u64,
            drain_ops: self.drain().len() as u64,
            insert: tally.ins as f64 / total,
            remove: tally.rem as f64 / total,
            hit: tally.hit as f64 / total,
            miss: tally.miss as f64 / total,
            band: self.spec.band(),
            min_size: tally.min_size,
            max_size: tally.max_size,
            final_size,
            distinct_keys: counts.len() as u64,
            hottest_share: hot_ops as f64 / total,
            fitted_exponent,
        }
    }

    /// Replays the churn phase against `present` (the keys present after the fill): counts
    /// each kind of operation, the set's smallest and largest size and each key's operations,
    /// and for the keys in `top` (a Zipf spec's top ranks, by key) their hits and the
    /// operations during which each was present.
    fn replay_churn(&self, present: &mut HashSet<u64>, top: &HashMap<u64, usize>) -> ChurnTally {
        let (mut ins, mut rem, mut hit, mut miss) = (0u64, 0u64, 0u64, 0u64);
        let mut min_size = present.len() as u64;
        let mut max_size = min_size;
        let mut freq: HashMap<u64, u64> = HashMap::new();
        let mut top_hits = [0u64; FIT_RANKS];
        let mut top_present = [0u64; FIT_RANKS];
        let mut since: [Option<u64>; FIT_RANKS] = [None; FIT_RANKS];
        for (&k, &r) in top {
            if present.contains(&k) {
                since[r] = Some(0);
            }
        }
        let mut t = 0u64;
        for op in self.churn() {
            t += 1;
            match *op {
                Op::Insert(k) => {
                    ins += 1;
                    present.insert(k);
                    if let Some(&r) = top.get(&k) {
                        since[r] = since[r].or(Some(t));
                    }
                }
                Op::Remove(k) => {
                    rem += 1;
                    present.remove(&k);
                    if let Some(&r) = top.get(&k)
                        && let Some(from) = since[r].take()
                    {
                        top_present[r] += t - from;
                    }
                }
                Op::Get(k) => {
                    if present.contains(&k) {
                        hit += 1;
                        if let Some(&r) = top.get(&k) {
                            top_hits[r] += 1;
                        }
                    } else {
                        miss += 1;
                    }
                }
            }
            *freq.entry(op.key()).or_default() += 1;
            let n = present.len() as u64;
            min_size = min_size.min(n);
            max_size = max_size.max(n);
        }
        for (r, from) in since.iter().enumerate() {
            if let Some(from) = from {
                top_present[r] += t - from;
            }
        }
        ChurnTally {
            ins,
            rem,
            hit,
            miss,
            min_size,
            max_size,
            freq,
            top_hits,
            top_present,
        }
    }
}

/// What [`Stream::summary`] counts by replaying the churn phase.
struct ChurnTally {
    /// Inserts, removals, hits and misses.
    ins: u64,
    rem: u64,
    hit: u64,
    miss: u64,
    /// The smallest and largest size of the set, from the fill's end on.
    min_size: u64,
    max_size: u64,
    /// Operations per key.
    freq: HashMap<u64, u64>,
    /// Hits of the top ranks' keys, by rank.
    top_hits: [u64; FIT_RANKS],
    /// Operations during which each top rank's key was present, by rank.
    top_present: [u64; FIT_RANKS],
}

impl fmt::Display for Stream {
    /// One line: the phases' lengths, the seed and the spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ops (fill {}, churn {}, drain {}), seed {}: {}",
            self.ops.len(),
            self.fill,
            self.churn,
            self.drain().len(),
            self.seed,
            self.spec
        )
    }
}

/// Ranks used to fit the Zipf exponent back: the spec's 30 most popular ranks (those of them
/// hit at least [`FIT_MIN_COUNT`] times). Each rank's hits are divided by the operations its
/// key was present for: a hit can only name a present key, and with a small steady size even
/// the top ranks are absent part of the time, which would otherwise bend the line (by +0.035
/// on average at s = 0.8 and 10³ keys, read-heavy, over 40 seeds); and the ranks are the
/// spec's, not the order of the observed counts, whose sorting steepens the top.
pub const FIT_RANKS: usize = 30;
/// Fewest hits a key needs to enter the fit (20): below that the count's own noise (±1/√20
/// ≈ 22 %) dominates.
pub const FIT_MIN_COUNT: u64 = 20;

/// Weighted least-squares slope of ln(hits / operations present) on ln(rank), negated, over the ranks
/// `1..=hits.len()` with at least [`FIT_MIN_COUNT`] hits: the fitted Zipf exponent. `None`
/// with fewer than 5 usable ranks.
fn fit_exponent(hits: &[u64], present_ops: &[u64]) -> Option<f64> {
    // (ln rank, ln rate, weight): a count c has a log whose variance is about 1/c, so each
    // rank is weighted by its count.
    let pts: Vec<(f64, f64, f64)> = hits
        .iter()
        .zip(present_ops)
        .enumerate()
        .filter(|&(_, (&c, &t))| c >= FIT_MIN_COUNT && t > 0)
        .map(|(i, (&c, &t))| (((i + 1) as f64).ln(), (c as f64 / t as f64).ln(), c as f64))
        .collect();
    if pts.len() < 5 {
        return None;
    }
    let w: f64 = pts.iter().map(|p| p.2).sum();
    let mx = pts.iter().map(|p| p.2 * p.0).sum::<f64>() / w;
    let my = pts.iter().map(|p| p.2 * p.1).sum::<f64>() / w;
    let sxy: f64 = pts.iter().map(|p| p.2 * (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| p.2 * (p.0 - mx).powi(2)).sum();
    Some(-sxy / sxx)
}

/// What a stream's churn phase realised, to check against its spec
/// ([`Stream::summary`]). Fractions are of the churn operations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Operations of the fill phase.
    pub fill_ops: u64,
    /// Operations of the churn phase.
    pub churn_ops: u64,
    /// Operations of the drain phase.
    pub drain_ops: u64,
    /// Realised fraction of inserts.
    pub insert: f64,
    /// Realised fraction of removals.
    pub remove: f64,
    /// Realised fraction of lookups that hit.
    pub hit: f64,
    /// Realised fraction of lookups that missed.
    pub miss: f64,
    /// The spec's size band, `(lowest, highest)` keys.
    pub band: (u64, u64),
    /// Smallest size during the churn, in keys.
    pub min_size: u64,
    /// Largest size during the churn, in keys.
    pub max_size: u64,
    /// Size at the end of the churn, in keys.
    pub final_size: u64,
    /// Distinct keys the churn named.
    pub distinct_keys: u64,
    /// Share of the churn operations that named one of the hottest 1 % of keys (by observed
    /// frequency; 1 % of the key space, or of the distinct keys for sequential keys; at least
    /// one key). Uniform over 4 × 10⁴ keys gives about 0.01–0.02; Zipf 1.1 far more.
    pub hottest_share: f64,
    /// For a Zipf spec, the exponent fitted back from the hits' key frequencies (least
    /// squares of ln(hits per operation present) on ln rank over the spec's top
    /// [`FIT_RANKS`] ranks hit at least [`FIT_MIN_COUNT`] times); `None` for other
    /// distributions or too few hits.
    pub fitted_exponent: Option<f64>,
}

impl fmt::Display for Summary {
    /// One line: the realised mix in percent, the size trajectory and the skew.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} churn ops: {:.2} % insert, {:.2} % remove, {:.2} % hit, {:.2} % miss; size {}..={} \
             (band {}..={}), final {}; {:.1} % of ops on the hottest 1 % of keys",
            self.churn_ops,
            100.0 * self.insert,
            100.0 * self.remove,
            100.0 * self.hit,
            100.0 * self.miss,
            self.min_size,
            self.max_size,
            self.band.0,
            self.band.1,
            self.final_size,
            100.0 * self.hottest_share
        )?;
        if let Some(s) = self.fitted_exponent {
            write!(f, "; fitted Zipf s = {s:.3}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scatter_is_injective_on_a_range() {
        let keys: HashSet<u64> = (0..100_000).map(scatter).collect();
        assert_eq!(keys.len(), 100_000);
    }

    #[test]
    fn fit_recovers_an_exact_power_law() {
        let counts: Vec<u64> = (1..=30)
            .map(|r| (1e6 * (r as f64).powf(-1.1)).round() as u64)
            .collect();
        // Present throughout, or for half the time with half the hits: the same rates.
        let s = fit_exponent(&counts, &[1_000; 30]).unwrap();
        assert!((s - 1.1).abs() < 1e-3, "{s}");
        let halved: Vec<u64> = counts.iter().map(|c| c / 2).collect();
        let mut time = vec![1_000; 30];
        time.iter_mut().skip(10).for_each(|t| *t = 500);
        let mixed: Vec<u64> = (0..30)
            .map(|i| if i < 10 { counts[i] } else { halved[i] })
            .collect();
        let s = fit_exponent(&mixed, &time).unwrap();
        assert!((s - 1.1).abs() < 1e-3, "{s}");
        assert_eq!(fit_exponent(&[100, 50, 30], &[1, 1, 1]), None);
    }
}
