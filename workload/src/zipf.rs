//! Zipf sampling in O(1) per draw: one alias table over blocks of ranks.
//!
//! The ranks 1..=4,096 are one block each; above them each block spans at most 1 % of its
//! first rank (about 1,400 blocks up to 2³² ranks). Walker's alias method (two uniform draws,
//! no search) picks a block by its mass; inside a wide block a rank is uniform and kept with
//! probability (k / first)^(−s), which is at least (1.01)^(−s), so a draw is nearly always
//! accepted at once and a power is evaluated only when the uniform falls between that bound
//! and 1. The draw is exact within a block; a wide block's mass is the midpoint rule's
//! integral, within a relative s(s + 1) / (24 × 4,096²) < 10⁻⁷ of its sum.
//!
//! This replaces rejection-inversion (Hörmann and Derflinger, ACM TOMACS 6(3), 1996) for the
//! ranks above the table, which cost two logarithms and two exponentials per draw (about
//! 40 ns here, 17 ns with its squeeze), and a cumulative table with binary search, which
//! measured 40–60 ns per draw from branch mispredictions.

use rtcompare::support::rng::Rng;

/// Ranks that are a block of their own (4,096); above them blocks widen with the rank.
pub(crate) const HEAD_RANKS: u64 = 4_096;
/// Widest relative block: a block starting at rank a spans at most a / 100 ranks.
const BLOCK_SPAN: u64 = 100;
/// Ranks of the absent set that [`AbsentHead`] keeps exactly (2¹⁶); ranks above are drawn
/// from [`Zipf::sample_tail`] and rejected when present.
pub(crate) const ABSENT_HEAD_RANKS: u64 = 1 << 16;

/// An alias table over blocks of consecutive ranks.
#[derive(Debug, Clone)]
struct Blocks {
    exponent: f64,
    /// Per block: keep probability, its first rank and its alias's (16 bytes, so that the
    /// table of about 5,500 blocks takes 88 KiB).
    table: Vec<Block>,
    /// The highest rank.
    hi: u64,
    /// The smallest acceptance ratio ((first + width − 1) / first)^(−s) of any wide block,
    /// times 2³²: a uniform 32-bit draw below it accepts without evaluating a power.
    floor: u64,
    /// Sum of the blocks' masses (rank 1 has mass 1).
    mass: f64,
}

#[derive(Debug, Clone, Copy)]
struct Block {
    /// Keep probability × 2³² (saturating at 2³² − 1 for 1).
    keep: u32,
    /// First rank of this block.
    first: u32,
    /// First rank of its alias block: a draw reads one entry whichever it picks (a block's
    /// width follows from its first rank, [`Blocks::width`]).
    alias_first: u32,
    /// Keeps an entry within one cache line.
    _pad: u32,
}

impl Blocks {
    /// Blocks over ranks `lo..=hi` (1 ≤ lo ≤ hi < 2³²): single ranks up to [`HEAD_RANKS`],
    /// then blocks of at most 1 % of their first rank.
    fn new(lo: u64, hi: u64, exponent: f64) -> Blocks {
        let mut spans = Vec::new();
        let mut masses = Vec::new();
        let mut a = lo;
        while a <= hi {
            let w = if a <= HEAD_RANKS {
                1
            } else {
                (a / BLOCK_SPAN).max(1).min(hi - a + 1)
            };
            let af = a as f64;
            let mass = if w == 1 {
                (-exponent * af.ln()).exp()
            } else {
                h_integral(af + w as f64 - 0.5, exponent) - h_integral(af - 0.5, exponent)
            };
            let floor = (((a + w - 1) as f64) / af).powf(-exponent);
            spans.push((a, w, floor));
            masses.push(mass);
            a += w;
        }
        let total: f64 = masses.iter().sum();
        let (keep, alias) = alias_table(&masses, total);
        let floor = spans.iter().map(|s| s.2).fold(1.0f64, f64::min);
        let table = spans
            .iter()
            .zip(keep.iter().zip(&alias))
            .map(|(&(first, _, _), (&keep, &alias))| Block {
                // 1 (kept always) saturates to 2³² − 1: off by 2⁻³², as every keep value.
                keep: (keep * 4_294_967_296.0).min(4_294_967_295.0) as u32,
                first: first as u32,
                alias_first: spans[alias as usize].0 as u32,
                _pad: 0,
            })
            .collect();
        Blocks {
            exponent,
            table,
            hi,
            floor: (floor * 4_294_967_296.0) as u64,
            mass: total,
        }
    }

    /// One draw. The block and the alias coin come from one 64-bit word (the block is the
    /// high half of word × blocks, the coin the low half's top 32 bits, so keep
    /// probabilities are exact to 2⁻³²); a wide block's rank and its acceptance from another
    /// (rank from the high 32 bits, bias at most width / 2³² ≤ 10⁻⁵ of a rank's probability;
    /// acceptance to 2⁻³²).
    #[inline(always)]
    fn sample(&self, rng: &mut Rng) -> u64 {
        let w = rng.next_u64();
        let first = self.first_of(w);
        if self.width(first) == 1 {
            return first;
        }
        let y = rng.next_u64();
        self.within(first, y, rng)
    }

    /// The table entry that the draw word `w` reads, to prefetch it.
    #[inline]
    fn column(&self, w: u64) -> *const Block {
        let i = ((u128::from(w) * self.table.len() as u128) >> 64) as usize;
        self.table.as_ptr().wrapping_add(i)
    }

    /// A draw from two words, `w` for the block and `y` for the rank inside a wide block
    /// (unused for a single rank): the same rank [`sample`](Self::sample) gives when its
    /// generator yields `w` then `y`.
    #[inline]
    fn sample_from(&self, w: u64, y: u64, rng: &mut Rng) -> u64 {
        let first = self.first_of(w);
        if self.width(first) == 1 {
            return first;
        }
        self.within(first, y, rng)
    }

    /// The first rank of the block that the draw word `w` picks.
    #[inline(always)]
    fn first_of(&self, w: u64) -> u64 {
        let m = u128::from(w) * self.table.len() as u128;
        let i = (m >> 64) as usize;
        let coin = ((m as u64) >> 32) as u32;
        let column = self.table[i];
        // Without a branch: under skew the coin is a coin toss for the branch predictor.
        u64::from(if coin < column.keep {
            column.first
        } else {
            column.alias_first
        })
    }

    /// A rank of the wide block that starts at `first`, from the word `y` (and more words
    /// from `rng` in the rare case that `y` is rejected).
    #[inline]
    fn within(&self, first: u64, y: u64, rng: &mut Rng) -> u64 {
        let width = self.width(first);
        let k = first + (((y >> 32) * width) >> 32);
        if (y & 0xFFFF_FFFF) < self.floor {
            return k;
        }
        self.sample_wide(rng, first, width, y)
    }

    /// The width of the block that starts at rank `first`, as [`Blocks::new`] made it.
    #[inline]
    fn width(&self, first: u64) -> u64 {
        if first <= HEAD_RANKS {
            1
        } else {
            (first / BLOCK_SPAN).max(1).min(self.hi - first + 1)
        }
    }

    /// The rest of a wide block's draw when the uniform `y` fell above the acceptance floor
    /// (about 1 % of wide-block draws): the exact test, then fresh draws.
    #[cold]
    fn sample_wide(&self, rng: &mut Rng, first: u64, width: u64, mut y: u64) -> u64 {
        loop {
            let k = first + (((y >> 32) * width) >> 32);
            let u = y & 0xFFFF_FFFF;
            if u < self.floor
                || (u as f64) * (1.0 / 4_294_967_296.0)
                    < (k as f64 / first as f64).powf(-self.exponent)
            {
                return k;
            }
            y = rng.next_u64();
        }
    }
}

/// Samples ranks 1..=n with P(k) ∝ k^(−s) (see the [module](self)), and ranks above
/// [`ABSENT_HEAD_RANKS`] alone for [`AbsentHead`].
#[derive(Debug, Clone)]
pub(crate) struct Zipf {
    n: u64,
    exponent: f64,
    all: Blocks,
    /// Ranks above [`ABSENT_HEAD_RANKS`], when n has any.
    tail: Option<Blocks>,
}

impl Zipf {
    /// `n ≥ 1` elements (below 2³²), exponent `s > 0` (checked by the spec). Time:
    /// O(min(n, 4,096) + blocks), about 6,000 powers at most.
    pub(crate) fn new(n: u64, exponent: f64) -> Zipf {
        Zipf {
            n,
            exponent,
            all: Blocks::new(1, n, exponent),
            tail: (n > ABSENT_HEAD_RANKS).then(|| Blocks::new(ABSENT_HEAD_RANKS + 1, n, exponent)),
        }
    }

    /// A rank in 1..=n.
    #[inline(always)]
    pub(crate) fn sample(&self, rng: &mut Rng) -> u64 {
        self.all.sample(rng)
    }

    /// The alias-table entry a draw word `w` reads (of the tail's table if `tail`), for a
    /// prefetch.
    #[inline]
    pub(crate) fn column(&self, tail: bool, w: u64) -> *const u8 {
        match (&self.tail, tail) {
            (Some(t), true) => t.column(w).cast(),
            _ => self.all.column(w).cast(),
        }
    }

    /// The rank [`sample`](Self::sample) (or, if `tail`, [`sample_tail`](Self::sample_tail))
    /// draws when its generator yields `w` and then `y` (and then `rng`'s words).
    #[inline]
    pub(crate) fn sample_from(&self, tail: bool, w: u64, y: u64, rng: &mut Rng) -> u64 {
        match (&self.tail, tail) {
            (Some(t), true) => t.sample_from(w, y, rng),
            _ => self.all.sample_from(w, y, rng),
        }
    }

    /// Whether ranks above [`ABSENT_HEAD_RANKS`] exist.
    #[inline]
    pub(crate) fn has_tail(&self) -> bool {
        self.tail.is_some()
    }

    /// Ranks that [`AbsentHead`] keeps: min(n, [`ABSENT_HEAD_RANKS`]).
    pub(crate) fn head_len(&self) -> usize {
        self.n.min(ABSENT_HEAD_RANKS) as usize
    }

    /// The share of the total mass above [`ABSENT_HEAD_RANKS`], in [0, 1).
    pub(crate) fn tail_share(&self) -> f64 {
        self.tail.as_ref().map_or(0.0, |t| t.mass / self.all.mass)
    }

    /// Rank k's share of the total mass, k^(−s) / Σ.
    pub(crate) fn probability(&self, k: u64) -> f64 {
        (-self.exponent * (k as f64).ln()).exp() / self.all.mass
    }

    /// A rank above [`ABSENT_HEAD_RANKS`] with P(k) ∝ k^(−s); only when
    /// [`has_tail`](Self::has_tail).
    #[inline]
    pub(crate) fn sample_tail(&self, rng: &mut Rng) -> u64 {
        match &self.tail {
            Some(t) => t.sample(rng),
            None => self.sample(rng),
        }
    }
}

/// H(x) = ∫₁ˣ t^(−s) dt = (x^(1−s) − 1) / (1 − s), or ln x for s = 1, computed stably.
fn h_integral(x: f64, exponent: f64) -> f64 {
    let log_x = x.ln();
    helper2((1.0 - exponent) * log_x) * log_x
}

/// Fixed-point scale of [`AbsentHead`]'s weights: a rank's share of the total mass times
/// 2⁶², so that every sum of weights fits in a `u64`.
const WEIGHT_SCALE: f64 = (1u64 << 62) as f64;

/// The absent ids among the alias table's ranks (id = rank − 1), with their Zipf weights, for
/// drawing an absent key exactly from the distribution conditioned on absence.
///
/// Under skew the popular ranks are nearly all present, so drawing from the whole
/// distribution and rejecting present ids wastes most draws (at 10⁶ keys and Zipf 1.1 about
/// four in five). Instead the draw is a mixture: with probability proportional to the absent
/// head's weight, an absent head id by its weight (exact, from this set); otherwise a tail
/// rank, rejected if present. Its acceptance is the tail's absent share (about two thirds at
/// steady state), and every absent id keeps probability ∝ its weight.
///
/// The set keeps the absent head ids in classes by weight: class c holds the weights in
/// [2⁶³⁻ᶜ, 2⁶⁴⁻ᶜ) (c = the weight's leading zeros), so a class is drawn from the running totals of the
/// classes' weights and an id inside it by rejection that accepts at least half the time.
/// Inserting or removing an id is a swap-remove or a push: O(1). A weight is kept as its
/// class and a 16-bit acceptance within the class, a ∈ [2¹⁵, 2¹⁶) (the weight's top 16
/// bits), and counts in the totals as a × 2⁴⁸⁻ᶜ: Zipf's weights to within 2⁻¹⁵ of
/// themselves, in 9 bytes per id (against 20 with 64-bit weights and entries), so that the
/// tables stay in the first- and second-level caches (36 KiB at 4,000 ids).
#[derive(Debug, Clone)]
pub(crate) struct AbsentHead {
    /// Per head id: its position in `members` (low 16 bits, meaningful while absent) and
    /// its acceptance (high 16).
    meta: Vec<u32>,
    /// Per head id: its class.
    class: Vec<u8>,
    /// The absent ids, class by class: class c owns `members[start[c]..start[c + 1]]`, of
    /// which the first `count[c]` are its absent ids. Each entry is the id in the low 16
    /// bits and its acceptance in the high 16, so that a try reads one entry.
    members: Vec<u32>,
    start: Vec<u32>,
    count: Vec<u32>,
    totals: Vec<u64>,
    /// Sum of `totals`.
    total: u64,
    /// The tail's fixed-point weight (0 without a tail).
    tail: u64,
    /// The tail's absent share as the tail draws see it, × 2³²: a moving average (over
    /// about 256 draws) of whether the drawn tail id was absent.
    tail_absent: u64,
    /// `tail × tail_absent`: the tail's weight in the mixture.
    tail_weight: u64,
    /// The classes that can hold an id: those of rank 1 to that of the lightest rank with
    /// a weight above 0 (ids of weight 0 are never drawn).
    classes: std::ops::RangeInclusive<usize>,
}

/// Ranks whose weight [`head_weights`] computes directly; above them, from the rank below.
const DIRECT_WEIGHTS: u64 = 4_096;

/// The fixed-point weights of ranks 1..=`head`: k^(−s) / Σ × 2⁶², directly up to
/// [`DIRECT_WEIGHTS`] (a logarithm and an exponential each), then each from the one below,
/// p(k) = p(k − 1) × (1 + x)^(−s) with x = 1 / (k − 1) < 2.5 × 10⁻⁴, by three terms of the
/// series of ln(1 + x) and of the exponential (each truncated below 10⁻¹⁵ of the result):
/// 65,536 weights in a tenth of the time of a logarithm and an exponential each, within
/// 10⁻¹⁰ of them, far below the 2⁻¹⁵ that the set keeps.
fn head_weights(zipf: &Zipf, head: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(head);
    let mut p = 0.0;
    for k in 1..=head as u64 {
        p = if k <= DIRECT_WEIGHTS {
            zipf.probability(k)
        } else {
            let x = 1.0 / (k - 1) as f64;
            let t = -zipf.exponent * (x - x * x * (0.5 - x / 3.0));
            p * (1.0 + t * (1.0 + t * (0.5 + t / 6.0)))
        };
        out.push((p * WEIGHT_SCALE) as u64);
    }
    out
}

/// The weight that class `c` and acceptance `a` stand for: a × 2⁴⁸⁻ᶜ (0 for weight 0,
/// whose acceptance is 0).
#[inline]
fn class_weight(c: usize, a: u32) -> u64 {
    let a = u64::from(a);
    if c <= 48 {
        a << (48 - c)
    } else {
        a >> (c - 48)
    }
}

impl AbsentHead {
    /// Every head id of `zipf` absent. Time: O(head).
    pub(crate) fn new(zipf: &Zipf) -> AbsentHead {
        let head = zipf.head_len();
        debug_assert!(head as u64 <= ABSENT_HEAD_RANKS && ABSENT_HEAD_RANKS <= 1 << 16);
        let weight = head_weights(zipf, head);
        let class_of = |w: u64| w.leading_zeros() as usize;
        // The weight's top 16 bits: in [2¹⁵, 2¹⁶), or 0 for weight 0.
        let accept = |w: u64| (w.checked_shl(w.leading_zeros()).unwrap_or(0) >> 48) as u32;
        let mut start = vec![0u32; 66];
        for &w in &weight {
            start[class_of(w) + 1] += 1;
        }
        for c in 1..66 {
            start[c] += start[c - 1];
        }
        let mut count = vec![0u32; 65];
        let mut totals = vec![0u64; 65];
        let mut members = vec![0u32; head];
        let mut meta = vec![0u32; head];
        let mut class = vec![0u8; head];
        for (id, &w) in weight.iter().enumerate() {
            let c = class_of(w);
            let a = accept(w);
            let i = start[c] + count[c];
            members[i as usize] = id as u32 | a << 16;
            meta[id] = i | a << 16;
            class[id] = c as u8;
            count[c] += 1;
            totals[c] += class_weight(c, a);
        }
        let tail = if zipf.has_tail() {
            (zipf.tail_share() * WEIGHT_SCALE) as u64
        } else {
            0
        };
        AbsentHead {
            total: totals.iter().sum(),
            tail,
            tail_absent: 1 << 32,
            tail_weight: tail,
            classes: weight.first().map_or(0, |&w| class_of(w))
                ..=weight
                    .iter()
                    .filter(|&&w| w > 0)
                    .map(|&w| class_of(w))
                    .max()
                    .unwrap_or(0),
            meta,
            class,
            members,
            start,
            count,
            totals,
        }
    }

    /// Ids at or above this are tail ids, which the set does not track.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.meta.len()
    }

    /// Marks head id `id` present (it was absent).
    #[inline(always)]
    pub(crate) fn take(&mut self, id: u32) {
        let m = self.meta[id as usize];
        let c = usize::from(self.class[id as usize]);
        let i = (m & 0xFFFF) as usize;
        self.count[c] -= 1;
        let last = (self.start[c] + self.count[c]) as usize;
        let moved = self.members[last];
        self.members[i] = moved;
        let mm = &mut self.meta[(moved & 0xFFFF) as usize];
        *mm = (*mm & 0xFFFF_0000) | i as u32;
        let w = class_weight(c, m >> 16);
        self.totals[c] -= w;
        self.total -= w;
    }

    /// Marks head id `id` absent (it was present).
    #[inline(always)]
    pub(crate) fn put(&mut self, id: u32) {
        let c = usize::from(self.class[id as usize]);
        let m = &mut self.meta[id as usize];
        let a = *m >> 16;
        let i = self.start[c] + self.count[c];
        *m = i | a << 16;
        self.members[i as usize] = id | a << 16;
        self.count[c] += 1;
        let w = class_weight(c, a);
        self.totals[c] += w;
        self.total += w;
    }

    /// Records whether a tail draw found its id absent, for the tail's weight in the
    /// mixture.
    #[inline(always)]
    pub(crate) fn observe_tail(&mut self, absent: bool) {
        // In fixed point, without a division or a conversion: a += (absent − a) / 256.
        self.tail_absent = self.tail_absent - (self.tail_absent >> 8) + (u64::from(absent) << 24);
        self.tail_weight = ((u128::from(self.tail) * u128::from(self.tail_absent)) >> 32) as u64;
    }

    /// One draw of the mixture: `Some(id)` of an absent head id (probability ∝ its weight),
    /// or `None` when the draw falls on the tail, whose weight is its mass times its absent
    /// share ([`observe_tail`](Self::observe_tail)). `None` too when nothing has weight (no
    /// tail, every weighted head id present).
    #[inline(always)]
    pub(crate) fn draw(&self, rng: &mut Rng) -> Option<u32> {
        if self.total == 0 {
            // Every popular id present, the usual case at steady state: no draw needed.
            return None;
        }
        let all = self.total + self.tail_weight;
        if all == 0 {
            return None;
        }
        let u = rng.below(all);
        if u >= self.total {
            return None;
        }
        // The class whose running total (from the lightest: under skew the absent mass
        // sits in the light ones) first exceeds u, counted without a branch: the classes
        // whose running total is at most u are skipped. The last total is `total` > u.
        let (lo, hi) = (*self.classes.start(), *self.classes.end());
        let mut sum = 0u64;
        let mut skipped = 0usize;
        for &t in self.totals[lo..=hi].iter().rev() {
            sum += t;
            skipped += usize::from(sum <= u);
        }
        let c = hi - skipped;
        debug_assert!(self.count[c] > 0, "a class with weight has members");
        let (from, n) = (self.start[c] as usize, u64::from(self.count[c]));
        loop {
            // One word: the member from its high half (× n), the acceptance from the top
            // 16 bits of the low half.
            let m = u128::from(rng.next_u64()) * u128::from(n);
            let e = self.members[from + (m >> 64) as usize];
            if ((m as u64) >> 48) < u64::from(e >> 16) {
                return Some(e & 0xFFFF);
            }
        }
    }
}

/// Vose's construction of Walker's alias table for `weights` summing to `total`: O(len).
fn alias_table(weights: &[f64], total: f64) -> (Vec<f64>, Vec<u32>) {
    let n = weights.len();
    let mut keep: Vec<f64> = weights.iter().map(|w| w * n as f64 / total).collect();
    let mut alias: Vec<u32> = (0..n as u32).collect();
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| keep[i] < 1.0);
    while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
        alias[s] = l as u32;
        keep[l] -= 1.0 - keep[s];
        if keep[l] < 1.0 {
            large.pop();
            small.push(l);
        }
    }
    // What is left is 1 up to rounding.
    for i in small.into_iter().chain(large) {
        keep[i] = 1.0;
    }
    (keep, alias)
}

/// (eˣ − 1) / x, with its series near 0.
#[inline]
fn helper2(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.exp_m1() / x
    } else {
        1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frequencies of the first ranks match k^(−s) / H(n, s) within 3 standard errors.
    /// H(10, 1.1) = Σ_{k=1}^{10} k^−1.1 = 2.68166 (computed by the sum itself below; the
    /// sampler never sees it).
    #[test]
    fn frequencies_match_the_probabilities() {
        for (n, s) in [
            (10u64, 1.1f64),
            (1_000, 1.0),
            (100, 0.5),
            (50, 2.5),
            (100_000, 1.1),
            (100_000, 0.7),
        ] {
            let z = Zipf::new(n, s);
            let mut rng = Rng::new(11);
            let draws = 400_000;
            let mut counts = vec![0u64; n as usize + 1];
            for _ in 0..draws {
                let k = z.sample(&mut rng);
                assert!((1..=n).contains(&k));
                counts[k as usize] += 1;
            }
            let norm: f64 = (1..=n).map(|k| (k as f64).powf(-s)).sum();
            for k in 1..=5.min(n) {
                let p = (k as f64).powf(-s) / norm;
                let got = counts[k as usize] as f64 / draws as f64;
                let se = (p * (1.0 - p) / draws as f64).sqrt();
                assert!(
                    (got - p).abs() < 4.0 * se,
                    "n {n} s {s} k {k}: {got} vs {p}"
                );
            }
            // The tail's share (ranks above the table) and one bucket inside it.
            for (lo, hi) in [(HEAD_RANKS + 1, n), (HEAD_RANKS + 1, 2 * HEAD_RANKS)] {
                if hi > n || lo > hi {
                    continue;
                }
                let p: f64 = (lo..=hi).map(|k| (k as f64).powf(-s)).sum::<f64>() / norm;
                let got =
                    counts[lo as usize..=hi as usize].iter().sum::<u64>() as f64 / draws as f64;
                let se = (p * (1.0 - p) / draws as f64).sqrt();
                assert!(
                    (got - p).abs() < 4.0 * se,
                    "n {n} s {s} {lo}..={hi}: {got} vs {p}"
                );
            }
        }
    }

    /// Inside the wide blocks and above the absent head: ranks 65,537..=100,000 alone, and a
    /// bucket spanning block edges.
    #[test]
    fn the_tail_alone_follows_the_law() {
        let (n, s) = (100_000u64, 1.1f64);
        let z = Zipf::new(n, s);
        assert!(z.has_tail());
        let mut rng = Rng::new(5);
        let draws = 400_000;
        let (lo, hi) = (ABSENT_HEAD_RANKS + 1, ABSENT_HEAD_RANKS + 5_000);
        let mut inside = 0u64;
        for _ in 0..draws {
            let k = z.sample_tail(&mut rng);
            assert!(k > ABSENT_HEAD_RANKS && k <= n, "{k}");
            inside += u64::from((lo..=hi).contains(&k));
        }
        let mass = |a: u64, b: u64| (a..=b).map(|k| (k as f64).powf(-s)).sum::<f64>();
        let p = mass(lo, hi) / mass(ABSENT_HEAD_RANKS + 1, n);
        let got = inside as f64 / draws as f64;
        let se = (p * (1.0 - p) / draws as f64).sqrt();
        assert!((got - p).abs() < 4.0 * se, "{got} vs {p}");
        let share: f64 = mass(ABSENT_HEAD_RANKS + 1, n) / mass(1, n);
        assert!((z.tail_share() - share).abs() < 1e-6, "{}", z.tail_share());
    }

    /// The absent head draws each absent id with probability ∝ k^(−s), and never a present
    /// one: 100 ranks, every third present.
    #[test]
    fn absent_head_draws_absent_ids_by_weight() {
        let (n, s) = (100u64, 1.1f64);
        let z = Zipf::new(n, s);
        let mut head = AbsentHead::new(&z);
        assert_eq!(head.len(), 100);
        for id in (0..100).step_by(3) {
            head.take(id);
        }
        // A removal and a re-insertion leave it as it was.
        head.put(3);
        head.take(3);
        let mut rng = Rng::new(9);
        let draws = 300_000;
        let mut counts = [0u64; 100];
        for _ in 0..draws {
            let id = head.draw(&mut rng).expect("no tail: always a head id");
            assert!(!id.is_multiple_of(3), "drew present id {id}");
            counts[id as usize] += 1;
        }
        let absent_mass: f64 = (0..100u64)
            .filter(|id| !id.is_multiple_of(3))
            .map(|id| ((id + 1) as f64).powf(-s))
            .sum();
        for id in [1u64, 2, 4, 50, 98] {
            let p = ((id + 1) as f64).powf(-s) / absent_mass;
            let got = counts[id as usize] as f64 / draws as f64;
            let se = (p * (1.0 - p) / draws as f64).sqrt();
            assert!((got - p).abs() < 4.0 * se, "id {id}: {got} vs {p}");
        }
    }

    /// The head's weights from the recurrence match k^(−s) / Σ computed directly.
    #[test]
    fn head_weights_match_the_direct_ones() {
        for s in [0.5, 1.1, 2.5] {
            let z = Zipf::new(100_000, s);
            let w = head_weights(&z, z.head_len());
            assert_eq!(w.len(), ABSENT_HEAD_RANKS as usize);
            for k in [1u64, 4_096, 4_097, 10_000, 40_000, 65_536] {
                let direct = z.probability(k) * WEIGHT_SCALE;
                let got = w[k as usize - 1] as f64;
                // Within 10⁻⁹ of the weight, plus the truncation to an integer.
                assert!(
                    (got - direct).abs() < 1e-9 * direct + 1.0,
                    "s {s} k {k}: {got} vs {direct}"
                );
            }
        }
    }

    #[test]
    fn one_element_always_returns_it() {
        let z = Zipf::new(1, 1.3);
        let mut rng = Rng::new(1);
        assert!((0..100).all(|_| z.sample(&mut rng) == 1));
    }
}
