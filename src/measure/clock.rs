//! The instrument: the clock every measurement is read through, and what it costs.
//!
//! A duration is only as good as the clock it was read from. Reading a clock takes time, the
//! clock only moves in steps, and the harness around a measured region costs something too. If
//! the work under test is of the same order as any of these, the instrument is most of what is
//! measured. This module therefore measures the instrument instead of assuming it:
//!
//! - the **precision**: the smallest non-zero step two back-to-back reads ever report, probed
//!   until that minimum stops improving and cached for the life of the process. On a machine with
//!   a 1 ns clock the step is set by the cost of the read itself, so this is the practical
//!   measurement floor (the larger of the tick and the read cost), not the nominal resolution;
//! - the **cost of one read**, averaged over a long run of reads;
//! - the **harness floor**: what the crate's own measuring loop reports for a batch that does
//!   nothing (see [`Instrument::measure`]).
//!
//! It also detects **suspension**: on Linux it compares `CLOCK_BOOTTIME`, which keeps counting
//! while the machine sleeps, with `CLOCK_MONOTONIC`, which does not (`SuspendWatch`).
//!
//! Only this module reads a clock directly; everything else goes through the [`Clock`] trait so
//! that the measuring logic can be driven by a [`SimulatedClock`] in tests.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A monotonic clock the measuring loop reads.
///
/// Implemented by [`MonotonicClock`] (the real one) and [`SimulatedClock`] (for deterministic
/// tests of calibration and ordering). Implementations must never go backwards.
pub trait Clock {
    /// Nanoseconds since an arbitrary, fixed origin.
    fn now_ns(&self) -> u64;

    /// The smallest interval this clock can resolve, in nanoseconds (at least 1).
    fn precision_ns(&self) -> u64;

    /// The instrument figures a report records for this clock. The default gives the
    /// precision and zero costs, right for a simulated clock; [`MonotonicClock`] measures them.
    fn instrument(&self) -> Instrument {
        Instrument {
            clock: "simulated".to_string(),
            precision_ns: self.precision_ns(),
            read_cost_ns: 0.0,
            empty_batch_min_ns: 0.0,
            empty_batch_median_ns: 0.0,
        }
    }

    /// Whether this clock's time is made up by the program ([`SimulatedClock`]) rather than read
    /// from the machine. An emulator cannot distort simulated time, so
    /// [`compare`](crate::compare()) does not refuse to run on such a clock under Valgrind or QEMU
    /// (see [`Environment::instrumented_by`](crate::env::Environment::instrumented_by)).
    /// Default `false`: a clock is taken to read real time.
    fn is_simulated(&self) -> bool {
        false
    }
}

/// The process's monotonic clock (`CLOCK_MONOTONIC` on Unix, [`std::time::Instant`] elsewhere).
///
/// Its [`precision_ns`](Clock::precision_ns) is probed once per process (a few milliseconds on
/// first use) and cached.
#[derive(Debug, Clone, Copy, Default)]
pub struct MonotonicClock;

impl Clock for MonotonicClock {
    #[inline(always)]
    fn now_ns(&self) -> u64 {
        monotonic_ns()
    }

    fn precision_ns(&self) -> u64 {
        clock_precision_ns()
    }

    fn instrument(&self) -> Instrument {
        Instrument::measure()
    }
}

/// Reads `CLOCK_MONOTONIC` in nanoseconds.
#[cfg(unix)]
#[inline(always)]
fn monotonic_ns() -> u64 {
    read_clock(libc::CLOCK_MONOTONIC)
}

/// Reads the monotonic clock in nanoseconds.
#[cfg(not(unix))]
#[inline(always)]
fn monotonic_ns() -> u64 {
    static ORIGIN: OnceLock<std::time::Instant> = OnceLock::new();
    let origin = *ORIGIN.get_or_init(std::time::Instant::now);
    origin.elapsed().as_nanos() as u64
}

#[cfg(unix)]
#[inline(always)]
fn read_clock(id: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; clock_gettime only writes into it. The clock
    // ids used here exist on every supported Unix, so the call cannot fail.
    unsafe {
        libc::clock_gettime(id, &mut ts);
    }
    (ts.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(ts.tv_nsec as u64)
}

/// A clock whose time only moves when told to, for exact tests of the measuring logic.
///
/// Clones share one time. A test candidate holds a clone and calls [`advance`](Self::advance)
/// inside its batch, so the measuring loop sees exactly the time the test intends. Reads are
/// rounded down to a multiple of the tick, like a real clock with coarse resolution.
///
/// ```
/// use rtcompare::support::measure::{Clock, SimulatedClock};
/// let clock = SimulatedClock::new(40);
/// clock.advance(100);
/// assert_eq!(clock.now_ns(), 80); // two whole ticks of 40 ns
/// ```
#[derive(Debug, Clone)]
pub struct SimulatedClock {
    now: Arc<AtomicU64>,
    tick: u64,
}

impl SimulatedClock {
    /// A simulated clock at time 0 that resolves steps of `tick_ns` nanoseconds (0 is taken
    /// as 1).
    pub fn new(tick_ns: u64) -> Self {
        SimulatedClock {
            now: Arc::new(AtomicU64::new(0)),
            tick: tick_ns.max(1),
        }
    }

    /// Moves the time forward by `ns` nanoseconds (saturating at `u64::MAX`).
    pub fn advance(&self, ns: u64) {
        let _ = self
            .now
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(ns))
            });
    }

    /// The exact simulated time in nanoseconds, before rounding to the tick.
    pub fn exact_ns(&self) -> u64 {
        self.now.load(Ordering::Relaxed)
    }
}

impl Clock for SimulatedClock {
    fn now_ns(&self) -> u64 {
        let t = self.exact_ns();
        t - t % self.tick
    }

    fn precision_ns(&self) -> u64 {
        self.tick
    }

    fn is_simulated(&self) -> bool {
        true
    }
}

/// How long the precision probe goes on without finding a smaller step before it stops.
///
/// The minimum settles early, so 2 ms without improvement keeps the whole probe to a few ms
/// (docs/background.md, section "The instrument is measured, not assumed").
const PROBE_QUIET: Duration = Duration::from_millis(2);
/// Upper bound on the probe's duration, whatever happens.
const PROBE_MAX: Duration = Duration::from_millis(50);
/// Pairs read between checks of the probe's stopping rule.
const PROBE_CHUNK: usize = 1_000;

/// The clock's precision in nanoseconds: the smallest non-zero difference between two
/// back-to-back reads of the monotonic clock.
///
/// Probed on first use until the minimum has not improved for 2 ms (at most 50 ms), then cached
/// for the life of the process, so every later call is free. Never returns 0.
pub(crate) fn clock_precision_ns() -> u64 {
    static PRECISION: OnceLock<u64> = OnceLock::new();
    *PRECISION.get_or_init(probe_precision)
}

fn probe_precision() -> u64 {
    let start = monotonic_ns();
    let mut best = u64::MAX;
    let mut last_improvement = start;
    loop {
        for _ in 0..PROBE_CHUNK {
            let t1 = monotonic_ns();
            let t2 = monotonic_ns();
            let d = t2.wrapping_sub(t1);
            if d > 0 && d < best {
                best = d;
                last_improvement = t2;
            }
        }
        let now = monotonic_ns();
        let quiet = now.saturating_sub(last_improvement) >= PROBE_QUIET.as_nanos() as u64;
        let too_long = now.saturating_sub(start) >= PROBE_MAX.as_nanos() as u64;
        if (quiet && best != u64::MAX) || too_long {
            break;
        }
    }
    if best == u64::MAX { 1 } else { best }
}

/// Measures the cost of one read of `clock` in nanoseconds: the shortest of several rounds of
/// many back-to-back reads, divided by the number of reads.
pub fn read_cost_ns<C: Clock>(clock: &C) -> f64 {
    const READS: u64 = 10_000;
    const ROUNDS: usize = 7;
    let mut best = f64::INFINITY;
    for _ in 0..ROUNDS {
        let t0 = clock.now_ns();
        let mut sink = 0u64;
        for _ in 0..READS {
            sink = sink.wrapping_add(clock.now_ns());
        }
        std::hint::black_box(sink);
        let t1 = clock.now_ns();
        // READS reads in the loop plus the closing read.
        let per = t1.saturating_sub(t0) as f64 / (READS + 1) as f64;
        best = best.min(per);
    }
    best
}

/// The measured properties of the instrument: the clock and the harness around a batch.
///
/// Every report carries one, so a reader can judge how large the instrument was next to the
/// work measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Instrument {
    /// Name of the clock read (for example `"CLOCK_MONOTONIC"`).
    pub clock: String,
    /// Smallest non-zero step between two reads, in nanoseconds (`clock_precision_ns`).
    pub precision_ns: u64,
    /// Cost of one clock read, in nanoseconds ([`read_cost_ns`]).
    pub read_cost_ns: f64,
    /// Shortest duration the harness measured for a batch that does nothing, in nanoseconds.
    pub empty_batch_min_ns: f64,
    /// Median duration the harness measured for a batch that does nothing, in nanoseconds:
    /// the harness's own floor, included in every batch it times.
    pub empty_batch_median_ns: f64,
}

impl Instrument {
    /// Measures the instrument on this machine: the cached clock precision, the read cost and
    /// the empty-batch floor (1,001 empty batches through the same code path as a real batch).
    /// Takes about a millisecond after the first call in a process (which pays for the
    /// precision probe, a few milliseconds).
    pub fn measure() -> Instrument {
        let clock = MonotonicClock;
        let precision_ns = clock.precision_ns();
        let read_cost_ns = read_cost_ns(&clock);
        let (empty_batch_min_ns, empty_batch_median_ns) = empty_batch_floor(&clock, 1_001);
        Instrument {
            clock: CLOCK_NAME.to_string(),
            precision_ns,
            read_cost_ns,
            empty_batch_min_ns,
            empty_batch_median_ns,
        }
    }
}

#[cfg(unix)]
const CLOCK_NAME: &str = "CLOCK_MONOTONIC";
#[cfg(not(unix))]
const CLOCK_NAME: &str = "std::time::Instant";

/// Times one call of `batch(n)` between two reads of `clock`, in nanoseconds. The one timed
/// region of the crate: every candidate's batch and the empty-batch floor go through it, so the
/// floor measures exactly the harness a real batch pays for. Nothing but the call lies between
/// the two reads.
#[inline(always)]
pub(crate) fn time_call<C: Clock + ?Sized>(clock: &C, batch: &mut dyn FnMut(u64), n: u64) -> u64 {
    let t0 = clock.now_ns();
    batch(n);
    let t1 = clock.now_ns();
    t1.saturating_sub(t0)
}

/// Runs `batches` empty batches through the measuring loop and returns the minimum and median
/// measured duration in nanoseconds.
fn empty_batch_floor<C: Clock>(clock: &C, batches: usize) -> (f64, f64) {
    let mut empty = |n: u64| {
        std::hint::black_box(n);
    };
    let mut times: Vec<f64> = (0..batches)
        .map(|_| time_call(clock, &mut empty, 1) as f64)
        .collect();
    if times.is_empty() {
        return (0.0, 0.0);
    }
    times.sort_by(f64::total_cmp);
    let median = if times.len() % 2 == 1 {
        times[times.len() / 2]
    } else {
        (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
    };
    (times[0], median)
}

/// Suspension longer than this during a run is reported (1 s, as in the reference: the sleeps
/// that actually paused comparisons lasted 15 to 25 minutes).
pub(crate) const SUSPEND_THRESHOLD: Duration = Duration::from_secs(1);

/// Watches for the machine being suspended during a run.
///
/// On Linux, `CLOCK_BOOTTIME` keeps counting while the machine sleeps and `CLOCK_MONOTONIC`
/// does not, so the growth of their difference is the time spent suspended. Elsewhere the wall
/// clock is compared with the monotonic clock instead, which also catches some clock
/// adjustments.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SuspendWatch {
    start_gap_ns: i128,
}

impl SuspendWatch {
    /// Starts watching now.
    pub fn start() -> SuspendWatch {
        SuspendWatch {
            start_gap_ns: sleep_gap_ns(),
        }
    }

    /// Time the machine spent suspended since [`start`](Self::start) (zero if none or if the
    /// clocks disagree in the other direction).
    pub fn suspended(&self) -> Duration {
        let grown = sleep_gap_ns() - self.start_gap_ns;
        if grown > 0 {
            Duration::from_nanos(grown.min(u64::MAX as i128) as u64)
        } else {
            Duration::ZERO
        }
    }

    /// Suspended time if it exceeds `SUSPEND_THRESHOLD`, else `None`.
    pub fn suspended_beyond_threshold(&self) -> Option<Duration> {
        let s = self.suspended();
        (s > SUSPEND_THRESHOLD).then_some(s)
    }
}

/// Difference between a clock that counts sleep and one that does not, in nanoseconds.
#[cfg(target_os = "linux")]
fn sleep_gap_ns() -> i128 {
    read_clock(libc::CLOCK_BOOTTIME) as i128 - read_clock(libc::CLOCK_MONOTONIC) as i128
}

#[cfg(not(target_os = "linux"))]
fn sleep_gap_ns() -> i128 {
    let wall = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0);
    wall - monotonic_ns() as i128
}

/// CPU time consumed so far, in nanoseconds: `(whole process, calling thread)`, or `None`
/// where the system cannot say.
pub(crate) fn cpu_times_ns() -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        Some((
            read_clock(libc::CLOCK_PROCESS_CPUTIME_ID),
            read_clock(libc::CLOCK_THREAD_CPUTIME_ID),
        ))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Measures how much CPU time the process's *other* threads used while the calling thread
/// measured: process CPU time minus this thread's CPU time, over an interval.
///
/// Parallel tests, a logger or a thread pool in the same process compete with the measured code
/// for cores and caches; a comparison reports this figure and warns when it is large.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CpuWatch {
    start: Option<(u64, u64)>,
}

impl CpuWatch {
    /// Starts watching now.
    pub fn start() -> CpuWatch {
        CpuWatch {
            start: cpu_times_ns(),
        }
    }

    /// CPU time used by the other threads of the process since [`start`](Self::start), or
    /// `None` where the system does not report per-thread CPU time.
    pub fn other_threads(&self) -> Option<Duration> {
        let (p0, t0) = self.start?;
        let (p1, t1) = cpu_times_ns()?;
        let process = p1.saturating_sub(p0);
        let thread = t1.saturating_sub(t0);
        Some(Duration::from_nanos(process.saturating_sub(thread)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_is_cached_and_positive() {
        let p1 = clock_precision_ns();
        let p2 = clock_precision_ns();
        assert_eq!(p1, p2);
        assert!(p1 >= 1);
        // Any real clock on a supported machine resolves better than a millisecond.
        assert!(p1 < 1_000_000, "precision {p1} ns");
    }

    #[test]
    fn monotonic_never_goes_back() {
        let mut last = monotonic_ns();
        for _ in 0..10_000 {
            let now = monotonic_ns();
            assert!(now >= last);
            last = now;
        }
    }

    #[test]
    fn simulated_clock_rounds_to_tick_and_shares_time() {
        let c = SimulatedClock::new(25);
        let d = c.clone();
        d.advance(49);
        assert_eq!(c.now_ns(), 25);
        d.advance(1);
        assert_eq!(c.now_ns(), 50);
        assert_eq!(c.precision_ns(), 25);
        assert_eq!(SimulatedClock::new(0).precision_ns(), 1);
    }

    #[test]
    fn instrument_figures_are_sane() {
        let i = Instrument::measure();
        assert!(i.read_cost_ns > 0.0 && i.read_cost_ns < 100_000.0);
        assert!(i.empty_batch_median_ns < 1_000_000.0, "{i:?}");
    }

    /// A clock that returns a script of readings, one per call.
    struct Script(std::cell::RefCell<std::vec::IntoIter<u64>>);

    impl Clock for Script {
        fn now_ns(&self) -> u64 {
            self.0.borrow_mut().next().expect("script long enough")
        }
        fn precision_ns(&self) -> u64 {
            1
        }
    }

    #[test]
    fn the_empty_batch_floor_is_the_minimum_and_median_of_its_batches() {
        let script = |reads: Vec<u64>| Script(std::cell::RefCell::new(reads.into_iter()));
        // Batches of 5, 3, 9 and 1 ns: minimum 1, median (3 + 5) / 2.
        let even = script(vec![0, 5, 10, 13, 20, 29, 30, 31]);
        assert_eq!(empty_batch_floor(&even, 4), (1.0, 4.0));
        // Batches of 5, 3 and 9 ns; a clock stepping back counts as 0, not as a wrap-around.
        let odd = script(vec![0, 5, 10, 13, 20, 29]);
        assert_eq!(empty_batch_floor(&odd, 3), (3.0, 5.0));
        let back = script(vec![10, 4, 10, 17, 20, 22]);
        assert_eq!(empty_batch_floor(&back, 3), (0.0, 2.0));
        assert_eq!(empty_batch_floor(&script(vec![]), 0), (0.0, 0.0));
    }

    #[test]
    fn other_threads_cpu_is_seen() {
        let w = CpuWatch::start();
        let busy = std::thread::spawn(|| {
            let t = std::time::Instant::now();
            let mut x = 0u64;
            while t.elapsed() < Duration::from_millis(60) {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        });
        busy.join().unwrap();
        // Linux always tells; elsewhere `None` is allowed.
        let other = w.other_threads();
        assert!(other.is_some() || !cfg!(target_os = "linux"));
        if let Some(other) = other {
            // The spinning thread burnt most of its 60 ms on a CPU; allow for a busy machine.
            assert!(other >= Duration::from_millis(5), "{other:?}");
        }
    }

    #[test]
    fn no_suspension_in_a_short_run() {
        let w = SuspendWatch::start();
        assert!(w.suspended_beyond_threshold().is_none());
    }
}
