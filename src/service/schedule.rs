//! The schedule of a load: when each request is due, which target it goes to and which time
//! window records it, and how a comparison's windows pair up. Pure: no clock is read here.

use std::time::Duration;

use crate::rng::Rng;
use crate::service::options::Arrivals;

/// Which of the two targets of a plan a segment loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Which {
    A,
    B,
}

/// A stretch of the schedule: `[start_ns, end_ns)` from the start, one target, and the
/// measured window it records into (`None`: warm-up, discarded).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Segment {
    pub start_ns: u64,
    pub end_ns: u64,
    pub which: Which,
    pub window: Option<usize>,
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

/// Builds segments from `(length, target, measured)` in order.
pub(crate) fn segments(parts: &[(Duration, Which, bool)]) -> (Vec<Segment>, usize) {
    let mut out = Vec::new();
    let mut t = 0u64;
    let mut windows = 0;
    for &(len, which, measured) in parts {
        let len = len.as_nanos() as u64;
        if len == 0 {
            continue;
        }
        let window = measured.then(|| {
            windows += 1;
            windows - 1
        });
        out.push(Segment {
            start_ns: t,
            end_ns: t + len,
            which,
            window,
        });
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

/// The full plan for `segments` at `rate`.
pub(crate) fn plan(segments: Vec<Segment>, windows: usize, rate: f64, arrivals: Arrivals) -> Plan {
    let end = segments.last().map_or(0, |s| s.end_ns);
    let due_ns = due_offsets(rate, end, arrivals);
    let mut segment_of = Vec::with_capacity(due_ns.len());
    let mut s = 0usize;
    for &t in &due_ns {
        while t >= segments[s].end_ns {
            s += 1;
        }
        segment_of.push(s as u32);
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

/// Two window indices.
pub(crate) type Pair = (usize, usize);

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
            (ms(2), Which::A, false),
            (ms(3), Which::A, true),
            (ms(0), Which::B, true),
            (ms(5), Which::B, true),
        ]);
        assert_eq!(w, 2);
        assert_eq!(segs.len(), 3);
        let p = plan(segs, w, 1_000.0, Arrivals::Fixed);
        assert_eq!(p.due_ns.len(), 10);
        assert_eq!(p.segment_of, vec![0, 0, 1, 1, 1, 2, 2, 2, 2, 2]);
        assert_eq!(p.segments[2].window, Some(1));
        assert_eq!(p.end_ns(), 10_000_000);
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
