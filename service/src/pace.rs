//! The clock a load generator reads and waits on: the real monotonic clock, or a simulated
//! one for exact tests of the schedule.

use std::time::Duration;

use rtcompare::support::measure::{Clock, MonotonicClock, SimulatedClock};

/// A clock the load generator can read and wait on, in nanoseconds.
///
/// [`MonotonicClock`] sleeps and then spins briefly; [`SimulatedClock`] and
/// [`SimulatedPacer`] move their time forward instead of waiting, so a test sees exactly the
/// due times the schedule intends. On a simulated pacer the load runs on the calling thread,
/// one request at a time, whatever the number of workers.
pub trait Pacer: Sync {
    /// Nanoseconds since a fixed origin; never decreases.
    fn now_ns(&self) -> u64;
    /// Returns at `t_ns` or later (immediately if that time has passed).
    fn wait_until(&self, t_ns: u64);
    /// Whether the time is made up by the program (default `false`).
    fn is_simulated(&self) -> bool {
        false
    }
    /// Called once on every worker thread before its first request (default: nothing).
    fn prepare_thread(&self) {}
}

/// The last stretch before a due time that the real pacer spins (yielding) instead of
/// sleeping: 50 µs. Worker threads ask Linux for a timer slack of 1 µs
/// ([`Pacer::prepare_thread`]), so a sleep overshoots by tens of microseconds, not the default
/// slack's 50 µs on top; a longer spin would take a core from the target on a small machine.
const SPIN: u64 = 50_000;

impl Pacer for MonotonicClock {
    #[inline]
    fn now_ns(&self) -> u64 {
        Clock::now_ns(self)
    }

    fn prepare_thread(&self) {
        #[cfg(target_os = "linux")]
        // SAFETY: PR_SET_TIMERSLACK takes one integer argument and changes only the calling
        // thread's timer slack; it cannot touch memory.
        unsafe {
            libc::prctl(libc::PR_SET_TIMERSLACK, 1_000 as libc::c_ulong);
        }
    }

    fn wait_until(&self, t_ns: u64) {
        loop {
            let now = Clock::now_ns(self);
            if now >= t_ns {
                return;
            }
            let left = t_ns - now;
            if left > SPIN {
                std::thread::sleep(Duration::from_nanos(left - SPIN));
            } else {
                std::thread::yield_now();
            }
        }
    }
}

impl Pacer for SimulatedClock {
    fn now_ns(&self) -> u64 {
        self.exact_ns()
    }

    fn wait_until(&self, t_ns: u64) {
        let now = self.exact_ns();
        if t_ns > now {
            self.advance(t_ns - now);
        }
    }

    fn is_simulated(&self) -> bool {
        true
    }
}

/// A simulated clock that wakes late by a fixed amount after every wait: a generator that
/// cannot keep its schedule, for tests of the send-lag bound.
///
/// ```
/// use rtcompare::support::measure::SimulatedClock;
/// use rtcompare_service::{Pacer, SimulatedPacer};
/// let p = SimulatedPacer::new(SimulatedClock::new(1)).wake_late_by(5);
/// p.wait_until(100);
/// assert_eq!(p.now_ns(), 105);
/// ```
#[derive(Debug, Clone)]
pub struct SimulatedPacer {
    clock: SimulatedClock,
    late_ns: u64,
}

impl SimulatedPacer {
    /// A pacer on `clock` that wakes exactly on time.
    pub fn new(clock: SimulatedClock) -> Self {
        SimulatedPacer { clock, late_ns: 0 }
    }

    /// Wakes `ns` nanoseconds after every time it waits for.
    #[must_use]
    pub fn wake_late_by(mut self, ns: u64) -> Self {
        self.late_ns = ns;
        self
    }

    /// The simulated clock, to advance it from a target.
    pub fn clock(&self) -> &SimulatedClock {
        &self.clock
    }
}

impl Pacer for SimulatedPacer {
    fn now_ns(&self) -> u64 {
        self.clock.exact_ns()
    }

    fn wait_until(&self, t_ns: u64) {
        let now = self.clock.exact_ns();
        if t_ns > now {
            self.clock.advance(t_ns - now + self.late_ns);
        }
    }

    fn is_simulated(&self) -> bool {
        true
    }
}
