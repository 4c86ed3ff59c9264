//! The stream generator: [`Spec::stream`], and the state ([`Gen`]) it drives through the
//! fill, the churn and the drain.
//!
//! This file holds the state, its construction and the operations that change it (insert,
//! remove, and the churn's choice among the mix). The ids those operations name are chosen
//! by the child modules, which see the state's private fields: `draws.rs` (uniform and Zipf,
//! conditioned on presence or absence), `lookahead.rs` (a dense key space's candidates,
//! drawn ahead of their use) and `hot_set.rs` (the moving hot set's window).

use std::collections::VecDeque;

use super::{Op, Stream, scatter};
use crate::spec::{KeyDistribution, Removal, Spec};
use crate::zipf::{AbsentHead, Zipf};
use crate::{Error, Result};
use rtcompare::support::rng::{Rng, resolve_seed};

mod draws;
mod hot_set;
mod lookahead;

use hot_set::HotWindow;
use lookahead::{Ahead, Draw, Picks};

impl Spec {
    /// Generates the fill (inserts up to the steady size), `ops` churn operations and, if
    /// the spec asks for it, the drain. Bit-for-bit reproducible from the spec and its seed
    /// (seed 0 draws one, recorded in [`Stream::seed`]). Time: O(key space + steady size +
    /// ops), every operation O(1), and for a moving hot set O(1 + min(width, width /
    /// period)) where the window moves (`cargo bench -p rtcompare-workload --bench workload`
    /// measures it per spec; docs/background.md has the figures); memory: 16 bytes per operation, plus 8 bytes
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
    /// use rtcompare_workload::{Op, Spec};
    /// let stream = Spec::default().steady_size(100).seed(3).stream(1_000)?;
    /// assert_eq!(stream.fill().len(), 100);
    /// assert_eq!(stream.churn().len(), 1_000);
    /// assert!(stream.fill().iter().all(|op| matches!(op, Op::Insert(_))));
    /// assert_eq!(stream, Spec::default().steady_size(100).seed(3).stream(1_000)?);
    /// # Ok::<(), rtcompare_workload::Error>(())
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

/// The present/absent partition of the key ids and each id's position: for sequential keys,
/// room for the present ids only; for a bitset, nothing; else every id, all absent. Errors:
/// [`Error::OutOfRange`] for a sequential stream of more ids than fit in a `u32`.
fn id_tables(
    spec: &Spec,
    sequential: bool,
    bitset: bool,
    space: u64,
    high: u64,
    ops: usize,
) -> Result<(Vec<u32>, Vec<u32>)> {
    Ok(if sequential {
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
    })
}

/// The generator's key distribution for `spec` over `space` ids (a hot set's width in ids).
fn dist_of(spec: &Spec, space: u64) -> Dist {
    match spec.distribution {
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
    }
}

/// Candidates drawn ahead of one kind, when the generator draws them.
type AheadSlot = Option<Box<Ahead>>;

/// Dense key spaces only: the uniform, Zipf and Zipf-tail candidates drawn ahead (each only
/// when the distribution draws it).
fn draws_ahead(
    dense: bool,
    seed: u64,
    space: u64,
    dist: &Dist,
    bits: &[u64],
) -> (AheadSlot, AheadSlot, AheadSlot) {
    let (mut uni, mut zipf_ahead, mut tail_ahead) = (None, None, None);
    if dense {
        uni = Some(Box::new(Ahead::new(seed, Draw::Uniform, space, None, bits)));
        if let Dist::Zipf(z) = dist {
            zipf_ahead = Some(Box::new(Ahead::new(seed, Draw::Zipf, space, Some(z), bits)));
            if z.has_tail() {
                tail_ahead = Some(Box::new(Ahead::new(seed, Draw::Tail, space, Some(z), bits)));
            }
        }
    }
    (uni, zipf_ahead, tail_ahead)
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
        let (slots, pos) = id_tables(spec, sequential, bitset, space, high, ops)?;
        let bits = if bitset {
            vec![0u64; space.div_ceil(64) as usize]
        } else {
            Vec::new()
        };
        let dist = dist_of(spec, space);
        let head = match &dist {
            Dist::Zipf(z) => Some(AbsentHead::new(z)),
            _ => None,
        };
        let hot = match dist {
            Dist::Hot { width, .. } => Some(HotWindow::new(width)),
            _ => None,
        };
        let (uni, zipf_ahead, tail_ahead) = draws_ahead(dense, seed, space, &dist, &bits);
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
    use crate::spec::Mix;

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
