//! The schedule of a load: when each request is due, which target it goes to and which time
//! window records it, and how a comparison's windows pair up. Pure: no clock is read here.

use std::time::Duration;

use crate::options::Arrivals;
use rtcompare::support::rng::Rng;

/// Which of the two targets of a plan a segment loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Which {
    A,
    B,
}

/// A stretch of the schedule: `[start_ns, end_ns)` from the start, one target, and the
/// measured window it records into (`None`: warm-up, discarded). Segments that share their
/// stretch of time are the lanes of one part: the stretch's requests are dealt to them
/// `lanes` at a time, each lane once per run in a seeded order ([`plan`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Segment {
    pub start_ns: u64,
    pub end_ns: u64,
    pub which: Which,
    pub window: Option<usize>,
    /// This segment's position among the lanes of its stretch, from 0.
    pub lane: usize,
    /// Lanes of its stretch (1: the stretch is this segment's alone).
    pub lanes: usize,
}

/// One stretch of a schedule: its length and its lanes in dealing order, each a target and
/// whether it is recorded (a measured window) or discarded (warm-up, settle).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Part {
    pub len: Duration,
    pub lanes: Vec<(Which, bool)>,
}

impl Part {
    /// A stretch that loads one target.
    pub fn single(len: Duration, which: Which, measured: bool) -> Self {
        Part {
            len,
            lanes: vec![(which, measured)],
        }
    }
}

/// Due offsets and the segment of every request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plan {
    pub segments: Vec<Segment>,
    /// Due time of request `i`, in nanoseconds after the start; increasing.
    pub due_ns: Vec<u64>,
    /// Index into `segments` of request `i`.
    pub segment_of: Vec<u32>,
    /// Number of measured windows.
    pub windows: usize,
}

impl Plan {
    /// The end of the schedule, in nanoseconds after the start.
    pub fn end_ns(&self) -> u64 {
        self.segments.last().map_or(0, |s| s.end_ns)
    }
}

/// Builds segments from the parts in order (a part of zero length, or without lanes, is
/// skipped); measured lanes are numbered as windows in order.
pub(crate) fn segments(parts: &[Part]) -> (Vec<Segment>, usize) {
    let mut out = Vec::new();
    let mut t = 0u64;
    let mut windows = 0;
    for part in parts {
        let len = part.len.as_nanos() as u64;
        if len == 0 || part.lanes.is_empty() {
            continue;
        }
        for (lane, &(which, measured)) in part.lanes.iter().enumerate() {
            let window = measured.then(|| {
                windows += 1;
                windows - 1
            });
            out.push(Segment {
                start_ns: t,
                end_ns: t + len,
                which,
                window,
                lane,
                lanes: part.lanes.len(),
            });
        }
        t += len;
    }
    (out, windows)
}

/// The due offsets of requests at `rate` per second over `[0, end_ns)`: `i · 10⁹ / rate`
/// rounded to the nanosecond for fixed spacing, cumulative exponential gaps for Poisson.
pub(crate) fn due_offsets(rate: f64, end_ns: u64, arrivals: Arrivals) -> Vec<u64> {
    let spacing = 1e9 / rate;
    let expected = (end_ns as f64 / spacing).ceil() as usize;
    let mut out = Vec::with_capacity(expected + 1);
    match arrivals {
        Arrivals::Fixed => {
            for i in 0.. {
                let t = (i as f64 * spacing).round() as u64;
                if t >= end_ns {
                    break;
                }
                out.push(t);
            }
        }
        Arrivals::Poisson { seed } => {
            let mut rng = Rng::new(seed);
            let mut t = 0.0f64;
            loop {
                let ti = t.round() as u64;
                if ti >= end_ns {
                    break;
                }
                out.push(ti);
                // 1 − u lies in (0, 1], so the logarithm is finite.
                t += -spacing * (1.0 - rng.next_f64()).ln();
            }
        }
    }
    out
}

/// The full plan for `segments` at `rate`. In a stretch of several lanes, each run of
/// `lanes` consecutive requests goes to the lanes in an order drawn from `deal_seed` (every
/// lane once per run), so that no lane is tied to a position in the sequence: the generator's
/// workers take requests in rotation, and a fixed order would send a lane's requests always
/// through the same worker and connection.
pub(crate) fn plan(
    segments: Vec<Segment>,
    windows: usize,
    rate: f64,
    arrivals: Arrivals,
    deal_seed: u64,
) -> Plan {
    let end = segments.last().map_or(0, |s| s.end_ns);
    let due_ns = due_offsets(rate, end, arrivals);
    let mut segment_of = Vec::with_capacity(due_ns.len());
    // `s`: the first lane of the current stretch; `j`: requests dealt in it so far; `order`:
    // the lanes of the current run of requests.
    let mut rng = Rng::new(deal_seed);
    let mut order: Vec<usize> = Vec::new();
    let mut s = 0usize;
    let mut j = 0usize;
    for &t in &due_ns {
        while t >= segments[s].end_ns {
            s += segments[s].lanes;
            j = 0;
        }
        let lanes = segments[s].lanes;
        if j.is_multiple_of(lanes) {
            order.clear();
            order.extend(0..lanes);
            // Fisher–Yates.
            for k in (1..lanes).rev() {
                order.swap(k, rng.below(k as u64 + 1) as usize);
            }
        }
        segment_of.push((s + order[j % lanes]) as u32);
        j += 1;
    }
    Plan {
        segments,
        due_ns,
        segment_of,
        windows,
    }
}

/// The targets of `4 × quads` windows in ABBA order: A B B A, A B B A, …
pub(crate) fn abba(quads: usize) -> Vec<Which> {
    (0..4 * quads)
        .map(|w| match w % 4 {
            0 | 3 => Which::A,
            _ => Which::B,
        })
        .collect()
}

/// The parts of an interleaved comparison after its warm-up: `quads` windows of `window`, each
/// dealing its requests to the lanes A B B A (windows `4q`, `4q + 1`, `4q + 2`, `4q + 3` of
/// group `q`).
pub(crate) fn interleaved(quads: usize, window: Duration) -> Vec<Part> {
    (0..quads)
        .map(|_| Part {
            len: window,
            lanes: vec![
                (Which::A, true),
                (Which::B, true),
                (Which::B, true),
                (Which::A, true),
            ],
        })
        .collect()
}

/// Two window indices.
pub(crate) type Pair = (usize, usize);

/// The lane pairs of `quads` interleaved windows: `(a, b)` A/B pairs of neighbouring lanes
/// (A₀ B₁ and A₃ B₂ of each window) and `(first, second)` A/A pairs of one target's two lanes
/// of the same window (B₁ B₂ and A₀ A₃).
pub(crate) fn interleaved_pairs(quads: usize) -> (Vec<Pair>, Vec<Pair>) {
    let mut ab = Vec::with_capacity(2 * quads);
    let mut aa = Vec::with_capacity(2 * quads);
    for q in 0..quads {
        let w = 4 * q;
        ab.push((w, w + 1));
        ab.push((w + 3, w + 2));
        aa.push((w + 1, w + 2));
        aa.push((w, w + 3));
    }
    (ab, aa)
}

/// The window pairs of an ABBA sequence of `quads` groups, by window index:
/// `(a, b)` A/B pairs of neighbours (2 per group) and `(first, second)` A/A pairs of
/// neighbouring windows of the same target (B B inside a group, A A across two groups),
/// both in time order.
pub(crate) fn abba_pairs(quads: usize) -> (Vec<Pair>, Vec<Pair>) {
    let mut ab = Vec::with_capacity(2 * quads);
    let mut aa = Vec::with_capacity(2 * quads);
    for q in 0..quads {
        let w = 4 * q;
        ab.push((w, w + 1));
        aa.push((w + 1, w + 2));
        ab.push((w + 3, w + 2));
        if q + 1 < quads {
            aa.push((w + 3, w + 4));
        }
    }
    (ab, aa)
}

/// `pairs` grouped into the units a paired bootstrap draws whole: consecutive pairs whose
/// windows lie in the same stretches of time (by each window's segment start in `segments`)
/// form one unit, in the order given.
///
/// Under the interleaved schedule the two A/B pairs of a window (A₀ B₁ and A₃ B₂) share one
/// stretch, and so do its two A/A pairs: whatever the machine did in that stretch moved both
/// pairs alike, so they are one draw, not two. Under ABBA windows every pair spans its own two
/// windows and is a unit alone. A window that `segments` does not record gets a stretch of its
/// own (no pair shares it).
pub(crate) fn stretches(pairs: &[Pair], segments: &[Segment]) -> Vec<Vec<Pair>> {
    let mut start = std::collections::HashMap::new();
    for s in segments {
        if let Some(w) = s.window {
            start.insert(w, s.start_ns);
        }
    }
    // A pair's stretches, unordered: (A, B) and (B, A) of one window are the same time.
    let key = |&(x, y): &Pair| {
        let (sx, sy) = (start.get(&x).copied(), start.get(&y).copied());
        match (sx, sy) {
            (Some(a), Some(b)) => Some((a.min(b), a.max(b))),
            _ => None,
        }
    };
    let mut out: Vec<Vec<Pair>> = Vec::new();
    let mut last = None;
    for pair in pairs {
        let k = key(pair);
        match out.last_mut() {
            Some(unit) if k.is_some() && k == last => unit.push(*pair),
            _ => out.push(vec![*pair]),
        }
        last = k;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_due_times_are_exact() {
        let d = due_offsets(1_000.0, 5_000_000, Arrivals::Fixed);
        assert_eq!(d, vec![0, 1_000_000, 2_000_000, 3_000_000, 4_000_000]);
        // 3 per second: rounded to the nanosecond, never drifting.
        let d = due_offsets(3.0, 2_000_000_000, Arrivals::Fixed);
        assert_eq!(
            d,
            vec![
                0,
                333_333_333,
                666_666_667,
                1_000_000_000,
                1_333_333_333,
                1_666_666_667
            ]
        );
    }

    #[test]
    fn poisson_is_reproducible_and_has_the_rate() {
        let a = due_offsets(1_000.0, 10_000_000_000, Arrivals::Poisson { seed: 5 });
        let b = due_offsets(1_000.0, 10_000_000_000, Arrivals::Poisson { seed: 5 });
        assert_eq!(a, b);
        // 10,000 expected, standard deviation 100.
        assert!((a.len() as f64 - 10_000.0).abs() < 500.0, "{}", a.len());
        assert!(a.windows(2).all(|w| w[0] <= w[1]));
        let c = due_offsets(1_000.0, 10_000_000_000, Arrivals::Poisson { seed: 6 });
        assert_ne!(a, c);
    }

    #[test]
    fn requests_land_in_their_segments() {
        let ms = Duration::from_millis;
        let (segs, w) = segments(&[
            Part::single(ms(2), Which::A, false),
            Part::single(ms(3), Which::A, true),
            Part::single(ms(0), Which::B, true),
            Part::single(ms(5), Which::B, true),
        ]);
        assert_eq!(w, 2);
        assert_eq!(segs.len(), 3);
        let p = plan(segs, w, 1_000.0, Arrivals::Fixed, 1);
        assert_eq!(p.due_ns.len(), 10);
        assert_eq!(p.segment_of, vec![0, 0, 1, 1, 1, 2, 2, 2, 2, 2]);
        assert_eq!(p.segments[2].window, Some(1));
        assert_eq!(p.end_ns(), 10_000_000);
    }

    #[test]
    fn interleaved_requests_are_dealt_a_b_b_a() {
        let ms = Duration::from_millis;
        let mut parts = vec![Part {
            len: ms(4),
            lanes: vec![(Which::A, false), (Which::B, false)],
        }];
        parts.extend(interleaved(2, ms(6)));
        let (segs, w) = segments(&parts);
        assert_eq!(w, 8);
        assert_eq!(segs.len(), 10);
        let p = plan(segs.clone(), w, 1_000.0, Arrivals::Fixed, 9);
        assert_eq!(p.due_ns.len(), 16);
        // Warm-up: 4 requests, each pair to lanes 0 and 1 in some order; then each window of
        // 6 requests: its first 4 to lanes 2..6 (window 0) in some order, the last 2 to two
        // distinct lanes of the next run.
        let lanes_of = |r: std::ops::Range<usize>| {
            let mut v: Vec<u32> = p.segment_of[r].to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(lanes_of(0..2), [0, 1]);
        assert_eq!(lanes_of(2..4), [0, 1]);
        assert_eq!(lanes_of(4..8), [2, 3, 4, 5]);
        assert_eq!(lanes_of(10..14), [6, 7, 8, 9]);
        for r in [8..10, 14..16] {
            let v = lanes_of(r.clone());
            assert!(v[0] != v[1] && v.iter().all(|&x| (x - 2) / 4 == (r.start as u32 - 4) / 6));
        }
        // Reproducible from the seed; another seed deals another order.
        assert_eq!(plan(segs.clone(), w, 1_000.0, Arrivals::Fixed, 9), p);
        let other: Vec<Plan> = (0..8)
            .map(|k| plan(segs.clone(), w, 1_000.0, Arrivals::Fixed, 100 + k))
            .collect();
        assert!(other.iter().any(|q| q.segment_of != p.segment_of));
        use Which::*;
        assert!(p.segments[2..6].iter().all(|s| s.start_ns == 4_000_000));
        assert_eq!(p.segments[9].window, Some(7));
        let (ab, aa) = interleaved_pairs(2);
        assert_eq!(ab, vec![(0, 1), (3, 2), (4, 5), (7, 6)]);
        assert_eq!(aa, vec![(1, 2), (0, 3), (5, 6), (4, 7)]);
        // Window w is segment w + 2 here (after two warm-up lanes).
        for &(a, b) in &ab {
            assert_eq!((p.segments[a + 2].which, p.segments[b + 2].which), (A, B));
            assert_eq!(p.segments[a + 2].start_ns, p.segments[b + 2].start_ns);
        }
        for &(x, y) in &aa {
            assert_eq!(p.segments[x + 2].which, p.segments[y + 2].which);
            assert_eq!(p.segments[x + 2].start_ns, p.segments[y + 2].start_ns);
        }
    }

    /// The pairs of an interleaved window are one unit; ABBA pairs are each their own.
    #[test]
    fn pairs_sharing_a_stretch_are_one_unit() {
        let ms = Duration::from_millis;
        let (segs, _) = segments(&interleaved(3, ms(10)));
        let (ab, aa) = interleaved_pairs(3);
        let units = stretches(&ab, &segs);
        assert_eq!(
            units,
            vec![
                vec![(0, 1), (3, 2)],
                vec![(4, 5), (7, 6)],
                vec![(8, 9), (11, 10)]
            ]
        );
        assert_eq!(stretches(&aa, &segs).len(), 3);
        let mut parts = Vec::new();
        for w in abba(6) {
            parts.push(Part::single(ms(10), w, true));
        }
        let (segs, _) = segments(&parts);
        let (ab, aa) = abba_pairs(6);
        let units = stretches(&ab, &segs);
        assert_eq!(units.len(), ab.len());
        assert!(units.iter().zip(&ab).all(|(u, p)| u == &vec![*p]));
        assert_eq!(stretches(&aa, &segs).len(), aa.len());
        // A window no segment records is a stretch of its own.
        assert_eq!(stretches(&[(40, 41), (40, 41)], &segs).len(), 2);
    }

    #[test]
    fn abba_pairs_are_neighbours() {
        let order = abba(2);
        use Which::*;
        assert_eq!(order, vec![A, B, B, A, A, B, B, A]);
        let (ab, aa) = abba_pairs(2);
        assert_eq!(ab, vec![(0, 1), (3, 2), (4, 5), (7, 6)]);
        assert_eq!(aa, vec![(1, 2), (3, 4), (5, 6)]);
        for &(a, b) in &ab {
            assert_eq!((order[a], order[b]), (A, B));
            assert_eq!(a.abs_diff(b), 1);
        }
        for &(x, y) in &aa {
            assert_eq!(order[x], order[y]);
            assert_eq!(y, x + 1);
        }
        let (ab, aa) = abba_pairs(6);
        assert_eq!((ab.len(), aa.len()), (12, 11));
    }
}
