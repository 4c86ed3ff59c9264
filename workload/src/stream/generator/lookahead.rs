//! A dense key space's look-ahead: candidate ids drawn ahead of their use ([`Ahead`]), and
//! index words for the live set ([`Picks`]), so that what a draw reads is in the cache when
//! it is needed.

use super::{Dist, Gen};
use crate::zipf::Zipf;
use rtcompare::support::rng::{Rng, derive_seed};

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
pub(super) struct Ahead {
    ids: [u32; AHEAD],
    words: [(u64, u64); AHEAD],
    at: usize,
    rng: Rng,
}

/// Which distribution an [`Ahead`] draws from.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Draw {
    /// Uniform over the key space.
    Uniform,
    /// The whole Zipf distribution (rank − 1).
    Zipf,
    /// The Zipf ranks above the absent head (rank − 1).
    Tail,
}

impl Ahead {
    pub(super) fn new(
        seed: u64,
        which: Draw,
        space: u64,
        zipf: Option<&Zipf>,
        bits: &[u64],
    ) -> Ahead {
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
pub(super) struct Picks {
    words: [u64; AHEAD],
    at: usize,
    rng: Rng,
}

impl Picks {
    pub(super) fn new(seed: u64) -> Picks {
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

impl Gen {
    /// The next candidate of a dense key space's look-ahead `which`; moves the candidates
    /// behind it one stage on (see [`Ahead`]).
    #[inline(always)]
    pub(super) fn ahead(&mut self, which: Draw) -> u32 {
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
    pub(super) fn live_index(&mut self) -> usize {
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
}
