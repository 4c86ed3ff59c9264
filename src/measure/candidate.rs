//! A candidate: one of the code paths being compared.
//!
//! A [`Candidate`] owns a **batch**: a closure that runs the code under test exactly `n` times
//! and owns its own loop. Owning the loop matters: the compiler optimises the body as it would in
//! production (inlining, hoisting), and the harness pays one indirect call per batch instead of
//! one per operation. Work that is not being compared belongs in the optional **setup** and
//! **teardown**, which run before and after every batch (warm-up batches included), outside the
//! measured region. In a cold run ([`Cache::Cold`](crate::Cache::Cold)) the caches are evicted
//! between the setup and the batch, so what the setup prepared is cold too.
//!
//! A panic in any of the three is caught and returned as
//! [`Error::CandidatePanicked`], naming the candidate; it never
//! unwinds into the caller.

use std::any::Any;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::alloc::{self, AllocDelta};
use crate::error::{Error, Result};
use crate::measure::cache::Evictor;
use crate::measure::clock::{Clock, time_call};
use crate::measure::counters::{CounterDelta, CounterSet};

/// One code path under comparison: a name, an optional setup, the batch, an optional teardown.
///
/// ```
/// use std::hint::black_box;
/// use rtcompare::Candidate;
///
/// let data: Vec<u32> = (0..1000).rev().collect();
/// let mut buf = data.clone();
/// let sort = Candidate::new("sort_unstable", move |n: u64| {
///     for _ in 0..n {
///         buf.copy_from_slice(&data);
///         buf.sort_unstable();
///         black_box(&buf);
///     }
/// });
/// assert_eq!(sort.name(), "sort_unstable");
/// ```
pub struct Candidate<'a> {
    name: String,
    batch: Box<dyn FnMut(u64) + 'a>,
    /// Set for a candidate whose batches are timed elsewhere (another process's clock): it
    /// returns the batch's duration in nanoseconds, and `batch` is unused.
    timed_elsewhere: Option<Box<dyn FnMut(u64) -> Result<u64> + 'a>>,
    setup: Option<Box<dyn FnMut() + 'a>>,
    teardown: Option<Box<dyn FnMut() + 'a>>,
}

impl fmt::Debug for Candidate<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Candidate")
            .field("name", &self.name)
            .field("setup", &self.setup.is_some())
            .field("teardown", &self.teardown.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a> Candidate<'a> {
    /// A candidate named `name` whose `batch(n)` runs the code under test exactly `n` times.
    ///
    /// The batch's cost must depend on nothing but `n`; wrap inputs and results in
    /// [`std::hint::black_box`] so the compiler cannot remove the work (calibration reports an
    /// error if the batch's time does not grow with `n`).
    pub fn new(name: impl Into<String>, batch: impl FnMut(u64) + 'a) -> Self {
        Candidate {
            name: name.into(),
            batch: Box::new(batch),
            timed_elsewhere: None,
            setup: None,
            teardown: None,
        }
    }

    /// A candidate whose batches are run **and timed** elsewhere: `timed_batch(n)` has `n`
    /// operations run (in a worker process, say) and returns the duration that side's own clock
    /// measured, in nanoseconds, or an error that ends the comparison. Nothing of this process
    /// is timed around it, so the round trip to the worker never enters a measurement; hardware
    /// counters and allocation counts, which belong to the other process, are not read.
    pub fn timed_elsewhere(
        name: impl Into<String>,
        timed_batch: impl FnMut(u64) -> Result<u64> + 'a,
    ) -> Self {
        Candidate {
            name: name.into(),
            batch: Box::new(|_| {}),
            timed_elsewhere: Some(Box::new(timed_batch)),
            setup: None,
            teardown: None,
        }
    }

    /// A candidate from a closure that performs **one** operation; the candidate runs it `n`
    /// times per batch and passes each result through [`std::hint::black_box`].
    ///
    /// The loop adds about a nanosecond per operation, which shrinks relative differences of
    /// very cheap operations (it never flips their sign); for operations of a few nanoseconds,
    /// write the batch yourself with [`Candidate::new`].
    pub fn from_fn<R>(name: impl Into<String>, mut op: impl FnMut() -> R + 'a) -> Self {
        Candidate::new(name, move |n: u64| {
            for _ in 0..n {
                std::hint::black_box(op());
            }
        })
    }

    /// Runs `setup` before every batch, outside the measured region (replaces an earlier one).
    pub fn with_setup(mut self, setup: impl FnMut() + 'a) -> Self {
        self.setup = Some(Box::new(setup));
        self
    }

    /// Runs `teardown` after every batch, outside the measured region (replaces an earlier one).
    pub fn with_teardown(mut self, teardown: impl FnMut() + 'a) -> Self {
        self.teardown = Some(Box::new(teardown));
        self
    }

    /// The candidate's name, as given to [`Candidate::new`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs setup, one timed batch of `n` operations, then teardown; returns the batch's
    /// duration in nanoseconds as read from `clock`.
    ///
    /// Only the two clock reads and the batch call lie between the reads: nothing allocates,
    /// logs or locks inside the measured region.
    pub(crate) fn time_batch<C: Clock>(&mut self, clock: &C, n: u64) -> Result<u64> {
        Ok(self.time_batch_counted(clock, n, None)?.0)
    }

    /// [`time_batch`](Self::time_batch), also reading hardware `counters` just outside the two
    /// clock reads (a read costs about 0.5 µs and must not be timed); returns the counters'
    /// difference over the batch.
    pub(crate) fn time_batch_counted<C: Clock>(
        &mut self,
        clock: &C,
        n: u64,
        counters: Option<&CounterSet>,
    ) -> Result<(u64, Option<CounterDelta>)> {
        let (ns, delta, _) = self.time_batch_measured(clock, n, counters, false, None)?;
        Ok((ns, delta))
    }

    /// [`time_batch_counted`](Self::time_batch_counted), also reading the counting allocator
    /// around the batch when `count_allocs` is set (and a [`Counting`](crate::alloc::Counting)
    /// is installed): setup and teardown allocate outside the counted region, and the
    /// allocator's snapshots (a few atomic loads) sit outside the hardware counters' reads, so
    /// neither measure sees the other. An `evictor` (cold runs) sweeps the caches after the
    /// setup and before the allocator, the counters and the clock are read, so neither the
    /// sweep nor its misses are timed or counted.
    pub(crate) fn time_batch_measured<C: Clock>(
        &mut self,
        clock: &C,
        n: u64,
        counters: Option<&CounterSet>,
        count_allocs: bool,
        evictor: Option<&mut Evictor>,
    ) -> Result<(u64, Option<CounterDelta>, Option<AllocDelta>)> {
        if let Some(setup) = self.setup.as_mut() {
            catch_unwind(AssertUnwindSafe(setup)).map_err(|p| panicked(&self.name, "setup", p))?;
        }
        if let Some(e) = evictor {
            e.evict();
        }
        let (ns, delta, allocs) = if let Some(timed) = self.timed_elsewhere.as_mut() {
            let ns = catch_unwind(AssertUnwindSafe(|| timed(n)))
                .map_err(|p| panicked(&self.name, "batch", p))??;
            (ns, None, None)
        } else {
            let batch = &mut self.batch;
            catch_unwind(AssertUnwindSafe(|| {
                let heap_before = if count_allocs {
                    alloc::snapshot()
                } else {
                    None
                };
                let before = counters.map(CounterSet::read);
                let ns = time_call(clock, batch.as_mut(), n);
                let delta = counters
                    .zip(before)
                    .map(|(c, b)| CounterSet::delta(&b, &c.read()));
                let allocs = heap_before
                    .zip(alloc::snapshot())
                    .map(|(b, a)| a.delta_since(&b));
                (ns, delta, allocs)
            }))
            .map_err(|p| panicked(&self.name, "batch", p))?
        };
        if let Some(teardown) = self.teardown.as_mut() {
            catch_unwind(AssertUnwindSafe(teardown))
                .map_err(|p| panicked(&self.name, "teardown", p))?;
        }
        Ok((ns, delta, allocs))
    }
}

/// Converts a caught panic into [`Error::CandidatePanicked`].
fn panicked(name: &str, stage: &'static str, payload: Box<dyn Any + Send>) -> Error {
    let message = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(panic payload is not a string)".to_string()
    };
    Error::CandidatePanicked {
        candidate: name.to_string(),
        stage,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::clock::SimulatedClock;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn setup_and_teardown_surround_the_timed_region() {
        let clock = SimulatedClock::new(1);
        let log = Rc::new(RefCell::new(Vec::new()));
        let (l1, l2, l3) = (log.clone(), log.clone(), log.clone());
        let c1 = clock.clone();
        let c2 = clock.clone();
        let c3 = clock.clone();
        let mut c = Candidate::new("x", move |n| {
            l2.borrow_mut().push("batch");
            c2.advance(10 * n);
        })
        .with_setup(move || {
            l1.borrow_mut().push("setup");
            c1.advance(1_000); // must not be counted
        })
        .with_teardown(move || {
            l3.borrow_mut().push("teardown");
            c3.advance(1_000); // must not be counted
        });
        let ns = c.time_batch(&clock, 7).unwrap();
        assert_eq!(ns, 70);
        assert_eq!(*log.borrow(), vec!["setup", "batch", "teardown"]);
    }

    #[test]
    fn panics_are_caught_and_named() {
        let clock = SimulatedClock::new(1);
        let mut c = Candidate::new("boom", |_| panic!("kaput"));
        match c.time_batch(&clock, 1) {
            Err(Error::CandidatePanicked {
                candidate,
                stage,
                message,
            }) => {
                assert_eq!(candidate, "boom");
                assert_eq!(stage, "batch");
                assert_eq!(message, "kaput");
            }
            other => panic!("unexpected {other:?}"),
        }
        let mut s = Candidate::new("s", |_| {}).with_setup(|| panic!("{}", String::from("owned")));
        let e = s.time_batch(&clock, 1).unwrap_err();
        assert!(
            matches!(e, Error::CandidatePanicked { stage: "setup", ref message, .. } if message == "owned")
        );
        let mut t = Candidate::new("t", |_| {}).with_teardown(|| std::panic::panic_any(3_u8));
        let e = t.time_batch(&clock, 1).unwrap_err();
        assert!(matches!(
            e,
            Error::CandidatePanicked {
                stage: "teardown",
                ..
            }
        ));
    }

    #[test]
    fn from_fn_runs_the_operation_n_times() {
        let count = Rc::new(RefCell::new(0u64));
        let c2 = count.clone();
        let mut c = Candidate::from_fn("f", move || *c2.borrow_mut() += 1);
        c.time_batch(&SimulatedClock::new(1), 13).unwrap();
        assert_eq!(*count.borrow(), 13);
    }
}
