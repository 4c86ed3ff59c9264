//! The ids the generator's operations name: a present id for a hit (and for a random
//! removal), an absent one for an insert or a miss, each drawn from the spec's distribution
//! conditioned on presence or absence.

use super::lookahead::Draw;
use super::{Dist, Gen};

/// Tries of a Zipf draw before a hit's pick of a present key falls back to a uniform present
/// key. Under skew the present keys hold most of the mass (about 80 % at steady state with
/// Zipf 1.1 at the default key space), so the first try nearly always succeeds and the draw
/// is exactly the distribution conditioned on presence; the cap only bounds the worst case
/// (a key space far larger than the steady size).
const CONDITIONED_TRIES: usize = 32;
/// Tries of a Zipf absent-key draw (an absent popular id from [`AbsentHead`], or a word of
/// 64 tail ids with an absent one) before it falls back to a uniform absent key. A word is
/// rarely full, so the cap only bounds the worst case.
///
/// [`AbsentHead`]: crate::zipf::AbsentHead
const ZIPF_ABSENT_TRIES: usize = 32;
/// Tries of a uniform draw over a sparse key space kept in a bitset (Zipf keys with random
/// removals, where a uniform absent id is only a fallback) before the exact count through
/// the bitset's words.
const ABSENT_TRIES: usize = 4;

impl Gen {
    /// A draw from the distribution, ignoring presence (not for sequential keys).
    #[inline]
    fn draw(&mut self) -> u32 {
        match &self.dist {
            Dist::Uniform | Dist::Sequential => self.rng.below(self.space) as u32,
            Dist::Zipf(z) => (z.sample(&mut self.rng) - 1) as u32,
            Dist::Hot { .. } => self.rng.below(self.space) as u32,
        }
    }

    #[inline(always)]
    pub(super) fn uniform_present(&mut self) -> u32 {
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
    pub(super) fn uniform_absent(&mut self) -> u32 {
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
    pub(super) fn absent(&mut self) -> u32 {
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
    ///
    /// [`AbsentHead`]: crate::zipf::AbsentHead
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
    pub(super) fn present(&mut self) -> u32 {
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
    pub(super) fn miss_key(&mut self) -> u64 {
        match self.dist {
            // Above every key inserted so far, within one steady size of the next new key.
            Dist::Sequential => u64::from(self.next_id) + self.rng.below(self.steady.max(1)),
            _ => {
                let id = self.absent();
                self.key(id)
            }
        }
    }
}
