//! criterion's async benchmarks, refused at compile time.
//!
//! criterion runs a future's benchmark on an executor (`b.to_async(&runtime).iter(|| async
//! {…})`). This harness runs no executor, so that an executor's scheduling never sits inside a
//! timed batch unannounced: nothing is an [`AsyncExecutor`], and a bench file that calls
//! [`Bencher::to_async`](crate::Bencher::to_async) fails to compile with a message saying
//! what to write instead. criterion's executor names exist so that the failure lands there
//! and not on an import.
//!
//! ```compile_fail
//! # extern crate rtcompare_criterion as criterion;
//! use criterion::{Criterion, async_executor::FuturesExecutor};
//! fn f(c: &mut Criterion) {
//!     // error: rtcompare-criterion runs no async executor: `to_async(FuturesExecutor)` is not
//!     // supported; note: run the future to completion inside the timed region instead
//!     c.bench_function("a", |b| b.to_async(FuturesExecutor).iter(|| async { 1 }));
//! }
//! ```

use std::convert::Infallible;
use std::future::Future;
use std::marker::PhantomData;

use crate::measurement::{Measurement, WallTime};

mod sealed {
    pub trait Sealed {}
}

/// What criterion runs async benchmarks on. Nothing implements it here (see the module).
#[diagnostic::on_unimplemented(
    message = "rtcompare-criterion runs no async executor: `to_async({Self})` is not supported",
    note = "run the future to completion inside the timed region instead: \
            `b.iter(|| runtime.block_on(work()))`"
)]
pub trait AsyncExecutor: sealed::Sealed {
    /// Never called: no type implements the trait.
    #[doc(hidden)]
    fn refuse<'a, 'b, M: Measurement>(self) -> AsyncBencher<'a, 'b, Self, M>
    where
        Self: Sized;
}

/// criterion's executor for the `futures` crate; not an executor here.
#[derive(Debug, Clone, Copy)]
pub struct FuturesExecutor;

/// criterion's executor for `smol`; not an executor here.
#[derive(Debug, Clone, Copy)]
pub struct SmolExecutor;

/// criterion's executor for `async-std`; not an executor here.
#[derive(Debug, Clone, Copy)]
pub struct AsyncStdExecutor;

/// What [`Bencher::to_async`](crate::Bencher::to_async) would return; no value of it can
/// exist, so its methods never run.
pub struct AsyncBencher<'a, 'b, A: AsyncExecutor, M: Measurement = WallTime> {
    never: Infallible,
    _borrow: PhantomData<(&'b mut crate::Bencher<'a, M>, A)>,
}

impl<A: AsyncExecutor, M: Measurement> AsyncBencher<'_, '_, A, M> {
    /// criterion's `iter` for a future; unreachable.
    pub fn iter<O, R, F>(&mut self, _routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        match self.never {}
    }
}
