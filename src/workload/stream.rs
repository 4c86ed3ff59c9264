//! [`Stream`]: the operations a [`Spec`] generates, and their [`Summary`].

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rng::{Rng, derive_seed, resolve_seed};
use crate::workload::spec::{KeyDistribution, Removal, Spec};
use crate::workload::zipf::{AbsentHead, Zipf};
use crate::{Error, Result};

/// One operation of a stream; the key is the `u64` a structure receives (or, for string
/// keys, the `u64` that [`key_string`](crate::workload::key_string) turns into its string).
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

/// Tries of a Zipf draw before a hit's pick of a present key falls back to a uniform present
/// key. Under skew the present keys hold most of the mass (about 80 % at steady state with
/// Zipf 1.1 at the default key space), so the first try nearly always succeeds and the draw
/// is exactly the distribution conditioned on presence; the cap only bounds the worst case
/// (a key space far larger than the steady size).
const CONDITIONED_TRIES: usize = 32;
/// Tries of a Zipf absent-key draw (an absent popular id from [`AbsentHead`], or a word of
/// 64 tail ids with an absent one) before it falls back to a uniform absent key. A word is
/// rarely full, so the cap only bounds the worst case.
const ZIPF_ABSENT_TRIES: usize = 32;
/// Tries of a uniform draw over a sparse key space kept in a bitset (Zipf keys with random
/// removals, where a uniform absent id is only a fallback) before the exact count through
/// the bitset's words.
const ABSENT_TRIES: usize = 4;

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

impl Spec {
    /// Generates the fill (inserts up to the steady size), `ops` churn operations and, if
    /// the spec asks for it, the drain. Bit-for-bit reproducible from the spec and its seed
    /// (seed 0 draws one, recorded in [`Stream::seed`]). Time: O(key space + steady size +
    /// ops), every operation O(1), and for a moving hot set O(1 + min(width, width /
    /// period)) where the window moves (`cargo bench --bench workload` measures it per
    /// spec; BACKGROUND.md has the figures); memory: 16 bytes per operation, plus 8 bytes
    /// per key of the key space, or 1 bit per key and 4 bytes per present key in a dense key
    /// space above 2¹⁸ keys and for Zipf keys with random removals (1 bit only with an
    /// age-ordered policy); for Zipf keys 9 bytes per popular rank (at most 65,536), for a
    /// hot set 8 bytes per key of its window; sequential keys 4 bytes per present key (and
    /// 4 per key ever inserted with an age-ordered removal policy).
    ///
    /// Errors: those of [`Spec::validate`]; [`Error::OutOfRange`] for sequential streams
    /// with more than 2³² − 2 keys.
    ///
    /// ```
    /// use rtcompare::workload::{Op, Spec};
    /// let stream = Spec::default().steady_size(100).seed(3).stream(1_000)?;
    /// assert_eq!(stream.fill().len(), 100);
    /// assert_eq!(stream.churn().len(), 1_000);
    /// assert!(stream.fill().iter().all(|op| matches!(op, Op::Insert(_))));
    /// assert_eq!(stream, Spec::default().steady_size(100).seed(3).stream(1_000)?);
    /// # Ok::<(), rtcompare::Error>(())
    /// ```
    pub fn stream(&self, ops: usize) -> Result<Stream> {
        self.validate()?;
        let seed = resolve_seed(self.seed);
        let mut g = Gen::new(self, seed, ops)?;
        let (_, high) = self.band();
        let drain_cap = if self.drain { high as usize } else { 0 };
        let mut out = Vec::with_capacity(self.steady_size as usize + ops + drain_cap);
        for _ in 0..self.steady_size {
            let id = g.absent();
            out.push(Op::Insert(g.insert(id)));
        }
        let fill = out.len();
        for _ in 0..ops {
            let op = g.churn_op();
            out.push(op);
        }
        let churn = ops;
        if self.drain {
            while g.len > 0 {
                let k = g.remove_by_policy();
                out.push(Op::Remove(k));
            }
        }
        Ok(Stream {
            spec: self.clone(),
            seed,
            ops: out,
            fill,
            churn,
        })
    }
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
    /// use rtcompare::workload::Spec;
    /// let s = Spec::default().steady_size(1_000).stream(100_000)?.summary();
    /// assert!((s.insert - 0.40).abs() < 0.01);
    /// assert!(s.min_size >= s.band.0 && s.max_size <= s.band.1);
    /// # Ok::<(), rtcompare::Error>(())
    /// ```
    pub fn summary(&self) -> Summary {
        let mut present: HashSet<u64> = HashSet::with_capacity(self.spec.steady_size as usize);
        for op in self.fill() {
            present.insert(op.key());
        }
        let (mut ins, mut rem, mut hit, mut miss) = (0u64, 0u64, 0u64, 0u64);
        let mut min_size = present.len() as u64;
        let mut max_size = min_size;
        let mut freq: HashMap<u64, u64> = HashMap::new();
        // For a Zipf spec, the keys of the top ranks (rank r is id r − 1), their hits, and the
        // operations during which each was present: a hit names a present key, so the hits of
        // a key per operation present estimate its unconditioned weight.
        let zipf = matches!(self.spec.distribution, KeyDistribution::Zipf { .. });
        let top: HashMap<u64, usize> = if zipf {
            (0..FIT_RANKS).map(|r| (scatter(r as u64), r)).collect()
        } else {
            HashMap::new()
        };
        let mut top_hits = [0u64; FIT_RANKS];
        let mut top_present = [0u64; FIT_RANKS];
        let mut since: [Option<u64>; FIT_RANKS] = [None; FIT_RANKS];
        for (&k, &r) in &top {
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
        let final_size = present.len() as u64;
        let total = self.churn.max(1) as f64;
        let mut counts: Vec<u64> = freq.values().copied().collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let space = self.spec.resolved_key_space();
        let population = if space == u64::MAX {
            counts.len() as u64
        } else {
            space
        };
        let hottest = population.div_ceil(100).max(1) as usize;
        let hot_ops: u64 = counts.iter().take(hottest).sum();
        for (r, from) in since.iter().enumerate() {
            if let Some(from) = from {
                top_present[r] += t - from;
            }
        }
        let fitted_exponent = if zipf {
            fit_exponent(&top_hits, &top_present)
        } else {
            None
        };
        Summary {
            fill_ops: self.fill as u64,
            churn_ops: self.churn as u64,
            drain_ops: self.drain().len() as u64,
            insert: ins as f64 / total,
            remove: rem as f64 / total,
            hit: hit as f64 / total,
            miss: miss as f64 / total,
            band: self.spec.band(),
            min_size,
            max_size,
            final_size,
            distinct_keys: counts.len() as u64,
            hottest_share: hot_ops as f64 / total,
            fitted_exponent,
        }
    }
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

enum Dist {
    Uniform,
    Zipf(Zipf),
    Sequential,
    Hot { width: u64, share: f64, period: u64 },
}

/// Large dense key spaces (more than [`DENSE_MIN_SPACE`] ids, at most this many ids per
/// present key at the band's lower edge, and at least one id in this many absent at its upper
/// edge) keep presence in a bitset and draw a uniform present or absent id by rejection: at
/// most 8 expected draws, each a read of a bitset that fits in the second-level cache
/// (0.5 MiB for 4 × 10⁶ ids). Position tables (8 bytes per id) would miss the cache two or
/// three times per insert or removal at 10⁶ keys: measured 110–150 ns per operation here,
/// against about 20 with the bitset.
const DENSE_FACTOR: u64 = 8;
/// Key spaces up to 2¹⁸ ids keep the position tables (2 MiB, within the second-level
/// cache): exact draws without rejection, whose unpredictable branches cost more at that
/// size (10³ keys: 8–15 ns per operation with the tables, 26–29 with the bitset).
const DENSE_MIN_SPACE: u64 = 1 << 18;

/// Candidates a dense key space draws ahead of their use (see [`Ahead`]).
const AHEAD: usize = 8;

/// Ids drawn ahead of their use from their own generator, so that what a draw reads is in
/// the cache when it is needed: at 10⁶ keys the bitset (0.5 MiB) and the alias tables
/// (88 KiB each) share the second-level cache with the output, and a read that waits for
/// memory costs more than the rest of an operation. A Zipf candidate goes through two
/// stages of [`AHEAD`] uses each: its random words are drawn and its alias-table entry
/// prefetched; then its rank is computed and its bitset word prefetched. A uniform
/// candidate has the second stage only. A candidate is a draw from a fixed distribution,
/// independent of the state it is tested against, so a rejection loop over candidates
/// drawn early is the same exact draw as over candidates drawn late; the stream is still a
/// fixed function of the spec and the seed.
struct Ahead {
    ids: [u32; AHEAD],
    words: [(u64, u64); AHEAD],
    at: usize,
    rng: Rng,
}

/// Which distribution an [`Ahead`] draws from.
#[derive(Clone, Copy, PartialEq)]
enum Draw {
    /// Uniform over the key space.
    Uniform,
    /// The whole Zipf distribution (rank − 1).
    Zipf,
    /// The Zipf ranks above the absent head (rank − 1).
    Tail,
}

impl Ahead {
    fn new(seed: u64, which: Draw, space: u64, zipf: Option<&Zipf>, bits: &[u64]) -> Ahead {
        let mut a = Ahead {
            ids: [0; AHEAD],
            words: [(0, 0); AHEAD],
            at: 0,
            rng: Rng::new(derive_seed(seed, which as u64 + 1)),
        };
        for i in 0..AHEAD {
            a.ids[i] = match (which, zipf) {
                (Draw::Uniform, _) | (_, None) => a.rng.below(space) as u32,
                (_, Some(z)) => {
                    (z.sample_from(
                        which == Draw::Tail,
                        a.rng.next_u64(),
                        a.rng.next_u64(),
                        &mut a.rng,
                    ) - 1) as u32
                }
            };
            prefetch(bits.as_ptr().wrapping_add((a.ids[i] >> 6) as usize).cast());
        }
        if which != Draw::Uniform {
            for w in &mut a.words {
                *w = (a.rng.next_u64(), a.rng.next_u64());
            }
        }
        a
    }
}

/// Index words for [`Gen::live`], drawn [`AHEAD`] uses ahead from their own generator (so
/// that the entry each will read is prefetched); each is a uniform 64-bit word, turned into
/// an index only at its use, against the length then.
struct Picks {
    words: [u64; AHEAD],
    at: usize,
    rng: Rng,
}

impl Picks {
    fn new(seed: u64) -> Picks {
        let mut rng = Rng::new(derive_seed(seed, Draw::Tail as u64 + 2));
        let words = std::array::from_fn(|_| rng.next_u64());
        Picks { words, at: 0, rng }
    }
}

/// Asks the processor to bring the cache line at `p` into the cache: a hint only.
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing the program sees, whatever the
    // address (computed with wrapping arithmetic and never dereferenced).
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast())
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The moving hot set's window, `width` consecutive ids (cyclically) from `first_id`, with
/// its ids partitioned into present and absent, so that a uniform present or absent id of
/// the window is one index draw: an insert or a miss takes an absent id from the hot
/// distribution conditioned on absence exactly (a lookup that hits, a present id from it
/// conditioned on presence), by the mixture of "uniform over the window's absent ids" and
/// "uniform over all absent ids" with their weights ([`Gen::hot_pick`]).
///
/// The window is indexed by virtual positions `v` (the window covers `offset..offset +
/// width`, id `v mod space`); position `v` sits in slot `v mod width`, so a step of the
/// window hands the slot of the id that leaves to the id that enters. Moving costs O(1) per
/// id the window moves (the spec's `width / period` per operation, at most `width`: a
/// window that moves its whole width at once is rebuilt in O(width)).
struct HotWindow {
    width: u64,
    /// Virtual position of the window's first id.
    offset: u128,
    /// `offset mod space` and `offset mod width`.
    first_id: u64,
    first_slot: u64,
    /// Slots: `slots[..present]` hold present ids, the rest absent ones.
    slots: Vec<u32>,
    /// Each slot's index in `slots`.
    at: Vec<u32>,
    present: usize,
}

impl HotWindow {
    /// The window at offset 0 over an empty key space.
    fn new(width: u64) -> HotWindow {
        HotWindow {
            width,
            offset: 0,
            first_id: 0,
            first_slot: 0,
            slots: (0..width as u32).collect(),
            at: (0..width as u32).collect(),
            present: 0,
        }
    }

    /// The slot of `id`, if the window holds it.
    #[inline]
    fn slot_of(&self, id: u32, space: u64) -> Option<u64> {
        let d = (u64::from(id) + space - self.first_id) % space;
        (d < self.width).then(|| (self.first_slot + d) % self.width)
    }

    /// The id in slot `slot`.
    #[inline]
    fn id_of(&self, slot: u32, space: u64) -> u32 {
        let d = (u64::from(slot) + self.width - self.first_slot) % self.width;
        ((self.first_id + d) % space) as u32
    }

    /// Moves `slot` to the present part (`present`) or the absent part.
    #[inline]
    fn set(&mut self, slot: u64, present: bool) {
        let i = self.at[slot as usize] as usize;
        let is_present = i < self.present;
        if is_present == present {
            return;
        }
        let j = if present {
            self.present += 1;
            self.present - 1
        } else {
            self.present -= 1;
            self.present
        };
        let other = self.slots[j];
        self.slots.swap(i, j);
        self.at[other as usize] = i as u32;
        self.at[slot as usize] = j as u32;
    }
}

/// The generator's state. Sparse key spaces partition the key ids into present
/// (`slots[..len]`) and absent (`slots[len..]`), with each id's position, so that a uniform
/// present or absent id, an insert and a removal each cost O(1); dense key spaces keep only
/// a bitset of the present ids (see [`DENSE_FACTOR`]). Sequential keys keep the present ids
/// in `slots` (a random removal is a swap-remove at a random index) and their positions only
/// when a removal policy names ids by age.
struct Gen {
    rng: Rng,
    slots: Vec<u32>,
    pos: Vec<u32>,
    /// Zipf only: the absent popular ids with their weights.
    head: Option<AbsentHead>,
    /// Sequential only: the next new id.
    next_id: u32,
    /// One bit per id, set while present (when `bitset`).
    bits: Vec<u64>,
    dense: bool,
    /// Presence is kept in `bits` (dense key spaces, and Zipf keys with random removals),
    /// not in `slots` and `pos`.
    bitset: bool,
    /// Dense key spaces only: uniform, Zipf and Zipf-tail candidates drawn ahead.
    uni: Option<Box<Ahead>>,
    zipf_ahead: Option<Box<Ahead>>,
    tail_ahead: Option<Box<Ahead>>,
    /// Dense key spaces with random removals only: the present ids in no particular order,
    /// so that a removal or a uniform hit is one index draw instead of a rejection over the
    /// key space (where three ids in four are absent), and the index words drawn ahead
    /// ([`Picks`]).
    live: Vec<u32>,
    picks: Option<Box<Picks>>,
    /// Hot-set keys only: the window.
    hot: Option<HotWindow>,
    len: usize,
    order: VecDeque<u32>,
    track_order: bool,
    removal: Removal,
    dist: Dist,
    space: u64,
    steady: u64,
    band: (u64, u64),
    thresholds: [f64; 3],
    op_index: u64,
}

impl Gen {
    fn new(spec: &Spec, seed: u64, ops: usize) -> Result<Gen> {
        let sequential = spec.distribution == KeyDistribution::Sequential;
        let space = spec.resolved_key_space();
        let (low, high) = spec.band();
        let dense = !sequential
            && space > DENSE_MIN_SPACE
            && space <= DENSE_FACTOR.saturating_mul(low)
            && (space - high).saturating_mul(DENSE_FACTOR) >= space;
        let random_removal = spec.removal == Removal::Random;
        // Zipf keys draw absent ids from the absent head and the tail's words, never from the
        // absent part of `slots`: with random removals, presence bits and the present ids
        // suffice (no positions to update on every insert and removal).
        let zipf = matches!(spec.distribution, KeyDistribution::Zipf { .. });
        let bitset = dense || (zipf && random_removal);
        let (slots, pos) = if sequential {
            let max_ids = spec.steady_size as u128 + ops as u128;
            if max_ids > u128::from(u32::MAX - 1) {
                return Err(Error::out_of_range(
                    "ops",
                    ops as f64,
                    "a sequential stream of at most 2^32 - 2 keys (steady size + ops)",
                ));
            }
            (Vec::with_capacity(high as usize), Vec::new())
        } else if bitset {
            (Vec::new(), Vec::new())
        } else {
            let ids: Vec<u32> = (0..space as u32).collect();
            (ids.clone(), ids)
        };
        let bits = if bitset {
            vec![0u64; space.div_ceil(64) as usize]
        } else {
            Vec::new()
        };
        let dist = match spec.distribution {
            KeyDistribution::Uniform => Dist::Uniform,
            KeyDistribution::Zipf { exponent } => Dist::Zipf(Zipf::new(space, exponent)),
            KeyDistribution::Sequential => Dist::Sequential,
            KeyDistribution::HotSet {
                hot_fraction,
                hot_share,
                period,
            } => Dist::Hot {
                width: ((hot_fraction * space as f64).round() as u64).clamp(1, space),
                share: hot_share,
                period,
            },
        };
        let head = match &dist {
            Dist::Zipf(z) => Some(AbsentHead::new(z)),
            _ => None,
        };
        let hot = match dist {
            Dist::Hot { width, .. } => Some(HotWindow::new(width)),
            _ => None,
        };
        let (mut uni, mut zipf_ahead, mut tail_ahead) = (None, None, None);
        if dense {
            uni = Some(Box::new(Ahead::new(
                seed,
                Draw::Uniform,
                space,
                None,
                &bits,
            )));
            if let Dist::Zipf(z) = &dist {
                zipf_ahead = Some(Box::new(Ahead::new(
                    seed,
                    Draw::Zipf,
                    space,
                    Some(z),
                    &bits,
                )));
                if z.has_tail() {
                    tail_ahead = Some(Box::new(Ahead::new(
                        seed,
                        Draw::Tail,
                        space,
                        Some(z),
                        &bits,
                    )));
                }
            }
        }
        let (live, picks) = if bitset && random_removal {
            (
                Vec::with_capacity(high as usize),
                Some(Box::new(Picks::new(seed))),
            )
        } else {
            (Vec::new(), None)
        };
        let m = &spec.mix;
        Ok(Gen {
            rng: Rng::new(seed),
            slots,
            pos,
            head,
            next_id: 0,
            bits,
            dense,
            bitset,
            uni,
            zipf_ahead,
            tail_ahead,
            live,
            picks,
            hot,
            len: 0,
            order: VecDeque::new(),
            track_order: spec.removal != Removal::Random,
            removal: spec.removal,
            dist,
            space,
            steady: spec.steady_size,
            band: spec.band(),
            thresholds: [m.insert, m.insert + m.remove, m.insert + m.remove + m.hit],
            op_index: 0,
        })
    }

    #[inline(always)]
    fn key(&self, id: u32) -> u64 {
        match self.dist {
            Dist::Sequential => u64::from(id),
            _ => scatter(u64::from(id)),
        }
    }

    #[inline(always)]
    fn is_present(&self, id: u32) -> bool {
        if self.bitset {
            self.bits[(id >> 6) as usize] & (1 << (id & 63)) != 0
        } else {
            (self.pos[id as usize] as usize) < self.len
        }
    }

    /// The next candidate of a dense key space's look-ahead `which`; moves the candidates
    /// behind it one stage on (see [`Ahead`]).
    #[inline(always)]
    fn ahead(&mut self, which: Draw) -> u32 {
        let a = match which {
            Draw::Uniform => self.uni.as_deref_mut(),
            Draw::Zipf => self.zipf_ahead.as_deref_mut(),
            Draw::Tail => self.tail_ahead.as_deref_mut(),
        }
        .expect("look-ahead of a dense key space");
        let at = a.at;
        let id = a.ids[at];
        let new = match (which, &self.dist) {
            (Draw::Zipf | Draw::Tail, Dist::Zipf(z)) => {
                let tail = which == Draw::Tail;
                let (w, y) = a.words[at];
                let new = (z.sample_from(tail, w, y, &mut a.rng) - 1) as u32;
                let w = a.rng.next_u64();
                a.words[at] = (w, a.rng.next_u64());
                prefetch(z.column(tail, w));
                new
            }
            _ => a.rng.below(self.space) as u32,
        };
        a.ids[at] = new;
        a.at = (at + 1) % AHEAD;
        prefetch(self.bits.as_ptr().wrapping_add((new >> 6) as usize).cast());
        id
    }

    /// A uniform index into [`live`](Gen::live) (`len` > 0), from the index words drawn
    /// ahead: the word's share of `len`, exactly uniform (a word whose low half falls below
    /// 2⁶⁴ mod `len` is replaced by fresh words, as [`Rng::below`] does). The word that
    /// replaces it has its entry prefetched at today's length, which differs from the length
    /// at its use by at most [`AHEAD`] keys, so the line is nearly always the right one.
    #[inline(always)]
    fn live_index(&mut self) -> usize {
        let n = self.len as u64;
        let p = self.picks.as_deref_mut().expect("picks with a live set");
        let at = p.at;
        let mut m = u128::from(p.words[at]) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(p.rng.next_u64()) * u128::from(n);
            }
        }
        let new = p.rng.next_u64();
        p.words[at] = new;
        p.at = (at + 1) % AHEAD;
        let ahead = ((u128::from(new) * u128::from(n)) >> 64) as usize;
        prefetch(self.live.as_ptr().wrapping_add(ahead).cast());
        (m >> 64) as usize
    }

    /// A draw from the distribution, ignoring presence (not for sequential keys).
    #[inline]
    fn draw(&mut self) -> u32 {
        match &self.dist {
            Dist::Uniform | Dist::Sequential => self.rng.below(self.space) as u32,
            Dist::Zipf(z) => (z.sample(&mut self.rng) - 1) as u32,
            Dist::Hot { .. } => self.rng.below(self.space) as u32,
        }
    }

    /// Moves the hot window to where it is at the current operation: offset
    /// `op_index × width / period`.
    #[inline]
    fn hot_sync(&mut self) {
        let Dist::Hot { width, period, .. } = self.dist else {
            return;
        };
        let target = u128::from(self.op_index) * u128::from(width) / u128::from(period);
        let Some(w) = self.hot.as_ref() else { return };
        if target == w.offset {
            return;
        }
        let steps = target - w.offset;
        let space = self.space;
        if width == space {
            // The window is the whole key space: every slot keeps its id.
            let w = self.hot.as_mut().expect("hot window");
            w.offset = target;
            w.first_id = (target % u128::from(space)) as u64;
            w.first_slot = w.first_id;
            return;
        }
        if steps >= u128::from(width) {
            let first_id = (target % u128::from(space)) as u64;
            let first_slot = (target % u128::from(width)) as u64;
            let mut w = self.hot.take().expect("hot window");
            w.offset = target;
            w.first_id = first_id;
            w.first_slot = first_slot;
            w.present = 0;
            w.slots.clear();
            let mut absent = Vec::new();
            for d in 0..width {
                let slot = ((first_slot + d) % width) as u32;
                if self.is_present(((first_id + d) % space) as u32) {
                    w.slots.push(slot);
                } else {
                    absent.push(slot);
                }
            }
            w.present = w.slots.len();
            w.slots.extend(absent);
            for (i, &slot) in w.slots.iter().enumerate() {
                w.at[slot as usize] = i as u32;
            }
            self.hot = Some(w);
            return;
        }
        for _ in 0..steps as u64 {
            let w = self.hot.as_ref().expect("hot window");
            let (leaving, slot) = (w.first_id, w.first_slot);
            let entering = ((leaving + width) % space) as u32;
            let present = self.is_present(entering);
            let w = self.hot.as_mut().expect("hot window");
            debug_assert_eq!(w.id_of(slot as u32, space), leaving as u32);
            w.set(slot, present);
            w.offset += 1;
            w.first_id = (leaving + 1) % space;
            w.first_slot = (slot + 1) % width;
        }
    }

    /// An id from the hot distribution conditioned on absence (`absent`) or presence: the
    /// distribution gives each id `share / width` if in the window plus `(1 − share) /
    /// space`, so restricted to the absent (present) ids it is the mixture of uniform over
    /// the window's absent (present) ids, with weight `share × their count / width`, and
    /// uniform over all absent (present) ids, with weight `(1 − share) × their count /
    /// space`. Exact; when both weights are 0 (`hot_share` 1 and the window without such an
    /// id), a uniform one.
    #[inline]
    fn hot_pick(&mut self, absent: bool) -> u32 {
        let Dist::Hot { width, share, .. } = self.dist else {
            unreachable!("a hot pick of a hot-set stream")
        };
        let w = self.hot.as_ref().expect("hot window");
        let (in_window, overall) = if absent {
            (width as usize - w.present, self.space as usize - self.len)
        } else {
            (w.present, self.len)
        };
        let a = share * in_window as f64 / width as f64;
        let b = (1.0 - share) * overall as f64 / self.space as f64;
        let u = self.rng.next_f64() * (a + b);
        if u < a {
            let i = self.rng.index(in_window);
            let slot = w.slots[if absent { w.present + i } else { i }];
            return w.id_of(slot, self.space);
        }
        if absent {
            self.uniform_absent()
        } else {
            self.uniform_present()
        }
    }

    #[inline(always)]
    fn uniform_present(&mut self) -> u32 {
        if self.picks.is_some() {
            let i = self.live_index();
            return self.live[i];
        }
        if self.dense {
            loop {
                let id = self.ahead(Draw::Uniform);
                if self.is_present(id) {
                    return id;
                }
            }
        }
        self.slots[self.rng.index(self.len)]
    }

    #[inline(always)]
    fn uniform_absent(&mut self) -> u32 {
        if self.dense {
            loop {
                let id = self.ahead(Draw::Uniform);
                if !self.is_present(id) {
                    return id;
                }
            }
        }
        if self.bitset {
            return self.uniform_absent_bits();
        }
        let absent = self.slots.len() - self.len;
        self.slots[self.len + self.rng.index(absent)]
    }

    /// A uniform absent id of a sparse key space that keeps presence in `bits` (Zipf keys,
    /// where this is only the fallback of [`zipf_absent`](Self::zipf_absent)): rejection
    /// over the key space for [`ABSENT_TRIES`] tries, then the r-th absent id counted
    /// through the words. Rejection truncated by an exact draw is still the exact draw.
    #[cold]
    fn uniform_absent_bits(&mut self) -> u32 {
        for _ in 0..ABSENT_TRIES {
            let id = self.rng.below(self.space) as u32;
            if !self.is_present(id) {
                return id;
            }
        }
        let absent = self.space - self.len as u64;
        let mut r = self.rng.below(absent);
        for (w, &word) in self.bits.iter().enumerate() {
            let base = w as u64 * 64;
            let valid = (self.space - base).min(64);
            let mask = if valid == 64 { !0 } else { (1u64 << valid) - 1 };
            let mut free = !word & mask;
            let n = u64::from(free.count_ones());
            if r < n {
                for _ in 0..r {
                    free &= free - 1;
                }
                return (base + u64::from(free.trailing_zeros())) as u32;
            }
            r -= n;
        }
        unreachable!("fewer absent ids than space - len")
    }

    /// An absent id for an insert: a new id for sequential keys.
    #[inline(always)]
    fn absent(&mut self) -> u32 {
        match self.dist {
            Dist::Uniform => self.uniform_absent(),
            Dist::Sequential => {
                let id = self.next_id;
                self.next_id += 1;
                id
            }
            Dist::Zipf(_) => self.zipf_absent(),
            Dist::Hot { .. } => self.hot_pick(true),
        }
    }

    /// An absent id drawn from the Zipf distribution conditioned on absence: exactly among
    /// the popular ranks ([`AbsentHead`]); above them at the granularity of 64 consecutive
    /// ranks (one word of the bitset, whose weights differ by less than 0.1 %): a tail rank
    /// that is present gives way to the next absent id of its word (cyclically), and a word
    /// without an absent id is drawn again. A uniform absent id only after
    /// [`ZIPF_ABSENT_TRIES`] full words.
    #[inline(always)]
    fn zipf_absent(&mut self) -> u32 {
        for _ in 0..ZIPF_ABSENT_TRIES {
            let (Some(head), Dist::Zipf(z)) = (&mut self.head, &self.dist) else {
                break;
            };
            if let Some(id) = head.draw(&mut self.rng) {
                return id;
            }
            if !z.has_tail() {
                break;
            }
            let id = if self.dense {
                self.ahead(Draw::Tail)
            } else {
                (z.sample_tail(&mut self.rng) - 1) as u32
            };
            let found = self.absent_in_word(id);
            if let Some(h) = &mut self.head {
                h.observe_tail(found == Some(id));
            }
            if let Some(a) = found {
                return a;
            }
        }
        self.uniform_absent()
    }

    /// `id` if absent, else the next absent id of its word of 64 ids (cyclically, within
    /// the key space), or `None` when the whole word is present.
    #[inline(always)]
    fn absent_in_word(&self, id: u32) -> Option<u32> {
        let base = id & !63;
        let valid = (self.space - u64::from(base)).min(64) as u32;
        let mask = if valid == 64 {
            !0u64
        } else {
            (1u64 << valid) - 1
        };
        let free = mask
            & if self.bitset {
                !self.bits[(id >> 6) as usize]
            } else {
                let mut f = 0u64;
                for i in 0..valid {
                    f |= u64::from(self.pos[(base + i) as usize] as usize >= self.len) << i;
                }
                f
            };
        if free == 0 {
            return None;
        }
        let above = free & (!0u64 << (id & 63));
        let bit = if above != 0 { above } else { free }.trailing_zeros();
        Some(base + bit)
    }

    /// A present id for a hit.
    #[inline(always)]
    fn present(&mut self) -> u32 {
        match self.dist {
            Dist::Uniform | Dist::Sequential => self.uniform_present(),
            Dist::Hot { .. } => self.hot_pick(false),
            Dist::Zipf(_) => {
                for _ in 0..CONDITIONED_TRIES {
                    let id = if self.dense {
                        self.ahead(Draw::Zipf)
                    } else {
                        self.draw()
                    };
                    if self.is_present(id) {
                        return id;
                    }
                }
                self.uniform_present()
            }
        }
    }

    /// A key that is absent, for a miss.
    #[inline]
    fn miss_key(&mut self) -> u64 {
        match self.dist {
            // Above every key inserted so far, within one steady size of the next new key.
            Dist::Sequential => u64::from(self.next_id) + self.rng.below(self.steady.max(1)),
            _ => {
                let id = self.absent();
                self.key(id)
            }
        }
    }

    /// Moves `id` (absent) into the present part; returns its key.
    #[inline(always)]
    fn insert(&mut self, id: u32) -> u64 {
        if let Some(h) = &mut self.head
            && (id as usize) < h.len()
        {
            h.take(id);
        }
        if let Some(w) = &mut self.hot
            && let Some(slot) = w.slot_of(id, self.space)
        {
            w.set(slot, true);
        }
        if matches!(self.dist, Dist::Sequential) {
            if self.track_order {
                self.pos.push(self.len as u32);
                self.order.push_back(id);
            }
            self.slots.push(id);
            self.len += 1;
            return self.key(id);
        }
        if self.bitset {
            self.bits[(id >> 6) as usize] |= 1 << (id & 63);
            self.len += 1;
            if self.picks.is_some() {
                self.live.push(id);
            }
            if self.track_order {
                self.order.push_back(id);
            }
            return self.key(id);
        }
        let i = self.pos[id as usize] as usize;
        debug_assert!(i >= self.len);
        let other = self.slots[self.len];
        self.slots.swap(i, self.len);
        self.pos[other as usize] = i as u32;
        self.pos[id as usize] = self.len as u32;
        self.len += 1;
        if self.track_order {
            self.order.push_back(id);
        }
        self.key(id)
    }

    /// Moves `id` (present) into the absent part; returns its key.
    #[inline(always)]
    fn remove(&mut self, id: u32) -> u64 {
        if let Some(h) = &mut self.head
            && (id as usize) < h.len()
        {
            h.put(id);
        }
        if let Some(w) = &mut self.hot
            && let Some(slot) = w.slot_of(id, self.space)
        {
            w.set(slot, false);
        }
        if matches!(self.dist, Dist::Sequential) {
            // Only the age policies remove by id; their positions are kept.
            let i = self.pos[id as usize] as usize;
            self.slots.swap_remove(i);
            if let Some(&moved) = self.slots.get(i) {
                self.pos[moved as usize] = i as u32;
            }
            self.len -= 1;
            return self.key(id);
        }
        if self.bitset {
            self.bits[(id >> 6) as usize] &= !(1 << (id & 63));
            self.len -= 1;
            return self.key(id);
        }
        let i = self.pos[id as usize] as usize;
        debug_assert!(i < self.len);
        self.len -= 1;
        let other = self.slots[self.len];
        self.slots.swap(i, self.len);
        self.pos[other as usize] = i as u32;
        self.pos[id as usize] = self.len as u32;
        self.key(id)
    }

    /// Removes a present key chosen by the removal policy; returns its key.
    #[inline(always)]
    fn remove_by_policy(&mut self) -> u64 {
        let id = match self.removal {
            Removal::Random if matches!(self.dist, Dist::Sequential) => {
                // The present ids without positions: a swap-remove at a random index.
                let id = self.slots.swap_remove(self.rng.index(self.len));
                self.len -= 1;
                return self.key(id);
            }
            Removal::Random if self.picks.is_some() => {
                let i = self.live_index();
                self.live.swap_remove(i)
            }
            Removal::Random => self.uniform_present(),
            // The order holds exactly the present ids: removals only ever take its ends.
            Removal::Oldest => self.order.pop_front().expect("a present key"),
            Removal::Newest => self.order.pop_back().expect("a present key"),
        };
        self.remove(id)
    }

    #[inline(always)]
    fn churn_op(&mut self) -> Op {
        if self.hot.is_some() {
            self.hot_sync();
        }
        let u = self.rng.next_f64();
        let [t_ins, t_rem, t_hit] = self.thresholds;
        let len = self.len as u64;
        let op = if u < t_rem {
            // A mutation: the mix decides which, the band's edges reflect it.
            let insert = if u < t_ins {
                len < self.band.1
            } else {
                len <= self.band.0
            };
            if insert {
                let id = self.absent();
                Op::Insert(self.insert(id))
            } else {
                Op::Remove(self.remove_by_policy())
            }
        } else if u < t_hit {
            let id = self.present();
            Op::Get(self.key(id))
        } else {
            Op::Get(self.miss_key())
        };
        self.op_index += 1;
        op
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::spec::Mix;

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

    #[test]
    fn insert_only_reaches_the_band_and_reflects() {
        let spec = Spec::default()
            .steady_size(100)
            .mix(Mix::new(1.0, 0.0, 0.0, 0.0));
        let s = spec.stream(1_000).unwrap().summary();
        assert_eq!(s.max_size, 108);
        assert!(s.min_size >= 100);
        assert!(s.remove > 0.4, "{s}");
    }
}
