//! The timer a benchmark's closure drives: `b.iter(…)` and its relatives time their own region,
//! as criterion's do, and hand the duration to the harness as the batch's measurement.
//!
//! The harness asks for a batch of `n` iterations; the layer calls the benchmark's closure
//! once with a [`Bencher`] set to `n`, and whatever the closure does outside `iter` (building
//! an input, say) is not timed. Timing here rather than around the closure is what keeps
//! criterion's meaning of "setup outside the timed region" for every method below.

use std::hint::black_box;
use std::marker::PhantomData;
use std::time::Instant;

use crate::measurement::{Measurement, WallTime};

/// How many inputs [`Bencher::iter_batched`] builds before timing a run over them (criterion's
/// sizes): the smaller the batch, the less memory, the more timer reads per iteration.
#[derive(Debug, Eq, PartialEq, Copy, Hash, Clone)]
#[non_exhaustive]
pub enum BatchSize {
    /// Inputs small enough to hold a tenth of a sample's iterations at once (ten runs a
    /// sample).
    SmallInput,
    /// Large inputs: a thousandth of a sample's iterations at once.
    LargeInput,
    /// One input at a time, each iteration timed alone (a timer read per iteration, some tens
    /// of nanoseconds, is then part of each reading).
    PerIteration,
    /// This many runs per sample.
    NumBatches(u64),
    /// This many inputs per run.
    NumIterations(u64),
}

impl BatchSize {
    /// Inputs per run for a sample of `iters` iterations (criterion's rule), at least 1.
    fn per_batch(self, iters: u64) -> u64 {
        let per = match self {
            BatchSize::SmallInput => iters.div_ceil(10),
            BatchSize::LargeInput => iters.div_ceil(1000),
            BatchSize::PerIteration => 1,
            BatchSize::NumBatches(batches) => iters.div_ceil(batches.max(1)),
            BatchSize::NumIterations(size) => size,
        };
        per.max(1)
    }
}

/// What a benchmark's closure receives: run the code under test through one of its `iter`
/// methods, once per call of the closure. Only that method's timed region is measured.
pub struct Bencher<'a, M: Measurement = WallTime> {
    iters: u64,
    /// The timed region's nanoseconds, once an `iter` method ran.
    elapsed_ns: Option<u64>,
    _measurement: PhantomData<&'a M>,
}

impl<M: Measurement> Bencher<'_, M> {
    /// A timer for a batch of `iters` iterations.
    pub(crate) fn new(iters: u64) -> Self {
        Bencher {
            iters,
            elapsed_ns: None,
            _measurement: PhantomData,
        }
    }

    /// The nanoseconds the closure's `iter` method timed; `None` when it called none.
    pub(crate) fn elapsed_ns(&self) -> Option<u64> {
        self.elapsed_ns
    }

    fn record(&mut self, ns: u64) {
        self.elapsed_ns = Some(ns);
    }

    /// Times `routine`, run as many times as the harness asks for; its result goes through
    /// [`black_box`] and is dropped inside the timed region (use
    /// [`iter_with_large_drop`](Self::iter_with_large_drop) when dropping it is costly).
    #[inline(never)]
    pub fn iter<O, R>(&mut self, mut routine: R)
    where
        R: FnMut() -> O,
    {
        let start = Instant::now();
        for _ in 0..self.iters {
            black_box(routine());
        }
        self.record(elapsed_ns(start));
    }

    /// `routine(iters)` runs `iters` iterations and returns the time they took, measured as the
    /// bench file chooses; that duration is the batch's measurement. The harness still pairs,
    /// interleaves and compares these batches as it does timed ones, so the duration must
    /// cover exactly `iters` iterations (a fixed cost per call inflates small batches, which
    /// calibration then avoids by choosing larger ones).
    #[inline(never)]
    pub fn iter_custom<R>(&mut self, mut routine: R)
    where
        R: FnMut(u64) -> M::Value,
    {
        let value = routine(self.iters);
        self.record(M::to_nanoseconds(&value));
    }

    /// [`iter_batched`](Self::iter_batched) with one input per timed run
    /// ([`BatchSize::PerIteration`]).
    pub fn iter_with_setup<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// [`iter`](Self::iter) with the results kept and dropped after the timed region, for a
    /// result whose drop is costly.
    pub fn iter_with_large_drop<O, R>(&mut self, mut routine: R)
    where
        R: FnMut() -> O,
    {
        self.iter_batched(|| (), |_| routine(), BatchSize::SmallInput);
    }

    /// Times `routine` on inputs it consumes: `setup` builds a batch of inputs (`size` says how
    /// many) outside the timed region, then `routine` runs on each inside it; results are
    /// dropped outside it.
    #[inline(never)]
    pub fn iter_batched<I, O, S, R>(&mut self, setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.time_batches(setup, size, |inputs, outputs| {
            outputs.extend(inputs.drain(..).map(&mut routine))
        });
    }

    /// [`iter_batched`](Self::iter_batched) with each input lent to `routine` mutably rather
    /// than consumed; inputs and results are dropped outside the timed region.
    #[inline(never)]
    pub fn iter_batched_ref<I, O, S, R>(&mut self, setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        self.time_batches(setup, size, |inputs, outputs| {
            outputs.extend(inputs.iter_mut().map(&mut routine))
        });
    }

    /// The batched methods' loop: `setup` fills a run's inputs untimed, `run` turns them into
    /// outputs timed, and both are dropped untimed; the runs' times add up to the reading.
    #[inline(always)]
    fn time_batches<I, O>(
        &mut self,
        mut setup: impl FnMut() -> I,
        size: BatchSize,
        mut run: impl FnMut(&mut Vec<I>, &mut Vec<O>),
    ) {
        let per_batch = size.per_batch(self.iters);
        let mut total = 0u64;
        let mut done = 0u64;
        while done < self.iters {
            let count = per_batch.min(self.iters - done);
            let mut inputs = black_box((0..count).map(|_| setup()).collect::<Vec<_>>());
            let mut outputs = Vec::with_capacity(count as usize);
            let start = Instant::now();
            run(&mut inputs, &mut outputs);
            total = total.saturating_add(elapsed_ns(start));
            black_box((inputs, outputs));
            done += count;
        }
        self.record(total);
    }
}

impl<'a, M: Measurement> Bencher<'a, M> {
    /// criterion's async benchmarks: **not supported**, and a call does not compile (no type is
    /// an [`AsyncExecutor`](crate::async_executor::AsyncExecutor) here), with a message that
    /// says what to do instead: run the future to completion inside the timed region,
    /// `b.iter(|| runtime.block_on(work()))`.
    pub fn to_async<'b, A: crate::async_executor::AsyncExecutor>(
        &'b mut self,
        runner: A,
    ) -> crate::async_executor::AsyncBencher<'a, 'b, A, M> {
        crate::async_executor::AsyncExecutor::refuse(runner)
    }
}

fn elapsed_ns(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::time::Duration;

    #[test]
    fn batch_sizes_split_a_sample_as_criterion_does() {
        assert_eq!(BatchSize::SmallInput.per_batch(95), 10);
        assert_eq!(BatchSize::LargeInput.per_batch(2_500), 3);
        assert_eq!(BatchSize::PerIteration.per_batch(50), 1);
        assert_eq!(BatchSize::NumBatches(4).per_batch(10), 3);
        assert_eq!(BatchSize::NumIterations(7).per_batch(1_000), 7);
        // Never zero: an empty sample or a zero count still makes progress.
        assert_eq!(BatchSize::SmallInput.per_batch(0), 1);
        assert_eq!(BatchSize::NumBatches(0).per_batch(5), 5);
        assert_eq!(BatchSize::NumIterations(0).per_batch(5), 1);
    }

    #[test]
    fn every_method_runs_the_routine_once_per_iteration() {
        for size in [
            BatchSize::SmallInput,
            BatchSize::LargeInput,
            BatchSize::PerIteration,
            BatchSize::NumBatches(3),
            BatchSize::NumIterations(4),
        ] {
            let (setups, runs) = (Cell::new(0u64), Cell::new(0u64));
            let mut b = Bencher::<WallTime>::new(11);
            b.iter_batched(
                || setups.set(setups.get() + 1),
                |()| runs.set(runs.get() + 1),
                size,
            );
            assert_eq!((setups.get(), runs.get()), (11, 11), "{size:?}");
            let runs = Cell::new(0u64);
            let mut b = Bencher::<WallTime>::new(11);
            b.iter_batched_ref(|| 5u8, |x| runs.set(runs.get() + u64::from(*x)), size);
            assert_eq!(runs.get(), 55, "{size:?}");
        }
        let runs = Cell::new(0u64);
        let mut b = Bencher::<WallTime>::new(9);
        assert_eq!(b.elapsed_ns(), None);
        b.iter(|| runs.set(runs.get() + 1));
        b.iter_with_large_drop(|| runs.set(runs.get() + 1));
        b.iter_with_setup(|| (), |()| runs.set(runs.get() + 1));
        assert_eq!(runs.get(), 27);
        assert!(b.elapsed_ns().is_some());
    }

    #[test]
    fn iter_custom_returns_the_bench_files_own_duration() {
        let mut b = Bencher::<WallTime>::new(40);
        b.iter_custom(|iters| Duration::from_nanos(3 * iters));
        assert_eq!(b.elapsed_ns(), Some(120));
        let mut b = Bencher::<WallTime>::new(1);
        b.iter_custom(|_| Duration::MAX);
        assert_eq!(b.elapsed_ns(), Some(u64::MAX));
    }

    #[test]
    fn setup_is_outside_the_timed_region() {
        // A setup that sleeps 20 ms per input against a routine that does nothing: the timed
        // region must hold none of the 100 ms of sleeping (half of it left for a busy machine
        // to preempt five empty timed regions).
        let mut b = Bencher::<WallTime>::new(5);
        b.iter_batched(
            || std::thread::sleep(Duration::from_millis(20)),
            |()| (),
            BatchSize::PerIteration,
        );
        assert!(b.elapsed_ns().unwrap() < 50_000_000, "{:?}", b.elapsed_ns());
    }
}
