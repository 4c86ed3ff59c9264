//! The moving hot set: its window ([`HotWindow`]), which the generator moves with the
//! operations, and the draws conditioned on presence or absence that read it.

use super::{Dist, Gen};

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
pub(super) struct HotWindow {
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
    pub(super) fn new(width: u64) -> HotWindow {
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
    pub(super) fn slot_of(&self, id: u32, space: u64) -> Option<u64> {
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
    pub(super) fn set(&mut self, slot: u64, present: bool) {
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

impl Gen {
    /// Moves the hot window to where it is at the current operation: offset
    /// `op_index × width / period`.
    #[inline]
    pub(super) fn hot_sync(&mut self) {
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
    pub(super) fn hot_pick(&mut self, absent: bool) -> u32 {
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
}
