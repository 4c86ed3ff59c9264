//! Batch calibration: how many operations go into one timed batch.
//!
//! A batch is read with two clock reads, and the clock can be off by up to one step of its
//! precision p. Relative to the batch, that error is p / (batch duration), whatever the batch
//! size: so a bound on the quantization error is a bound on the batch's **duration**. With a
//! maximum error e, the batch must last at least T = p / e; at the default e = 0.1 % and a
//! 20 ns step that is 20 µs.
//!
//! [`calibrate`] finds the smallest batch size reaching T. It starts at one operation and grows
//! geometrically: each measurement predicts the size that would reach T, a safety margin of 10 %
//! is added, and growth is capped at ×10 per step so a batch that fits inside one clock tick
//! cannot send the prediction to infinity. Each size is judged by the **shortest** of several
//! runs, so a scheduler hiccup cannot make a batch look long enough.
//!
//! Two failures are reported as errors instead of being hidden: a batch whose time does not grow
//! with `n` (it ignores `n`, or the compiler removed the work), and a batch that is still too
//! short at `max_inner_loops`.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::measure::candidate::Candidate;
use crate::measure::clock::{Clock, MonotonicClock};

/// Default largest share of a batch's duration that one clock step may be (0.1 %).
///
/// It is well below the A/A noise floors the reference measured (a few tenths of a percent to
/// over 1 %): 0.6 % noise and 0.1 % quantization add in quadrature to 0.608 %.
pub(crate) const DEFAULT_MAX_QUANTIZATION_ERROR: f64 = 0.001;

/// Default cap on the batch size calibration may grow to (10⁸ operations).
pub(crate) const DEFAULT_MAX_INNER_LOOPS: u64 = 100_000_000;

/// Default number of runs per candidate size; the shortest one judges the size.
pub(crate) const DEFAULT_RUNS_PER_SIZE: u32 = 5;

/// Safety margin on each predicted size (10 % above the prediction).
const SAFETY: f64 = 1.1;
/// Largest growth factor of the batch size between two steps.
const MAX_GROWTH: u64 = 10;
/// Batch size from which a batch whose time has not at least quadrupled since one operation is
/// judged to ignore `n`. At 2¹⁶ operations even 0.001 ns of work per operation against a 20 ns
/// harness floor would have quadrupled the time.
const IGNORES_N_AT: u64 = 1 << 16;

/// Options for [`calibrate`]. Zero means the default for every field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CalibrationOptions {
    /// Largest share of a batch that one clock step may be; must lie in (0, 1). Default
    /// `DEFAULT_MAX_QUANTIZATION_ERROR` (0.001). Tighten it tenfold when asking whether two
    /// nearly equal candidates differ at all: fewer bootstrap ties.
    pub max_quantization_error: f64,
    /// Cap on the batch size. Default `DEFAULT_MAX_INNER_LOOPS` (100_000_000) (10⁸).
    pub max_inner_loops: u64,
    /// Runs per candidate size, the shortest of which judges the size. Default
    /// `DEFAULT_RUNS_PER_SIZE` (5).
    pub runs_per_size: u32,
}

impl Default for CalibrationOptions {
    fn default() -> Self {
        CalibrationOptions {
            max_quantization_error: DEFAULT_MAX_QUANTIZATION_ERROR,
            max_inner_loops: DEFAULT_MAX_INNER_LOOPS,
            runs_per_size: DEFAULT_RUNS_PER_SIZE,
        }
    }
}

impl CalibrationOptions {
    /// Sets [`max_quantization_error`](Self::max_quantization_error) (0 = default).
    pub fn max_quantization_error(mut self, e: f64) -> Self {
        self.max_quantization_error = e;
        self
    }

    /// Sets [`max_inner_loops`](Self::max_inner_loops) (0 = default).
    pub fn max_inner_loops(mut self, n: u64) -> Self {
        self.max_inner_loops = n;
        self
    }

    /// Sets [`runs_per_size`](Self::runs_per_size) (0 = default).
    pub fn runs_per_size(mut self, runs: u32) -> Self {
        self.runs_per_size = runs;
        self
    }

    /// The options with defaults filled in and checked: `Err(OutOfRange)` if the quantization
    /// error is not in (0, 1).
    pub(crate) fn resolved(&self) -> Result<CalibrationOptions> {
        let mqe = if self.max_quantization_error == 0.0 {
            DEFAULT_MAX_QUANTIZATION_ERROR
        } else {
            self.max_quantization_error
        };
        if !(mqe > 0.0 && mqe < 1.0) {
            return Err(Error::out_of_range(
                "max_quantization_error",
                mqe,
                "0 < max_quantization_error < 1 (0 selects the default 0.001)",
            ));
        }
        Ok(CalibrationOptions {
            max_quantization_error: mqe,
            max_inner_loops: if self.max_inner_loops == 0 {
                DEFAULT_MAX_INNER_LOOPS
            } else {
                self.max_inner_loops
            },
            runs_per_size: if self.runs_per_size == 0 {
                DEFAULT_RUNS_PER_SIZE
            } else {
                self.runs_per_size
            },
        })
    }
}

/// The result of [`calibrate`]: the batch size and what it was based on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// The batch size to use: operations per timed batch.
    pub inner_loops: u64,
    /// Rough cost of one operation in nanoseconds (one shortest batch divided by its size): for
    /// sanity checks only, not an estimate to report.
    pub ns_per_op: f64,
    /// Shortest measured duration of one batch of `inner_loops` operations, in nanoseconds.
    pub batch_ns: f64,
    /// The batch duration calibration aimed for, in nanoseconds (precision / maximum error).
    pub target_ns: f64,
    /// The clock precision the target was derived from, in nanoseconds.
    pub clock_precision_ns: u64,
    /// One clock step as a share of the batch: `clock_precision_ns / batch_ns`, at most the
    /// requested maximum.
    pub quantization_error: f64,
}

/// Finds the smallest batch size whose batch lasts at least clock precision /
/// `max_quantization_error`, on the process's monotonic clock.
///
/// Setup and teardown run around every trial batch. Errors: an option out of range
/// ([`Error::OutOfRange`]); a batch whose time does not grow with `n`
/// ([`Error::BatchIgnoresN`]); the cap reached ([`Error::CalibrationCapReached`]); a panic in
/// the candidate ([`Error::CandidatePanicked`]).
///
/// ```no_run
/// use rtcompare::{Candidate};
/// use rtcompare::support::measure::{calibrate, CalibrationOptions};
/// let mut c = Candidate::from_fn("sqrt", || std::hint::black_box(2.0_f64).sqrt());
/// let cal = calibrate(&mut c, &CalibrationOptions::default())?;
/// println!("{} operations per batch, {:.0} ns per batch", cal.inner_loops, cal.batch_ns);
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn calibrate(
    candidate: &mut Candidate<'_>,
    options: &CalibrationOptions,
) -> Result<Calibration> {
    calibrate_with_clock(candidate, options, &MonotonicClock)
}

/// [`calibrate`] on any [`Clock`], for example a
/// [`SimulatedClock`](crate::measure::clock::SimulatedClock) in tests.
pub fn calibrate_with_clock<C: Clock>(
    candidate: &mut Candidate<'_>,
    options: &CalibrationOptions,
    clock: &C,
) -> Result<Calibration> {
    let opts = options.resolved()?;
    let precision = clock.precision_ns().max(1);
    let target = precision as f64 / opts.max_quantization_error;
    let shortest = |c: &mut Candidate<'_>, n: u64| -> Result<f64> {
        let mut best = u64::MAX;
        for _ in 0..opts.runs_per_size {
            best = best.min(c.time_batch(clock, n)?);
        }
        Ok(best as f64)
    };

    let mut n: u64 = 1;
    let first = shortest(candidate, 1)?;
    let mut d = first;
    loop {
        if d >= target {
            return Ok(Calibration {
                inner_loops: n,
                ns_per_op: d / n as f64,
                batch_ns: d,
                target_ns: target,
                clock_precision_ns: precision,
                quantization_error: precision as f64 / d,
            });
        }
        if n >= IGNORES_N_AT && d < 4.0 * first.max(precision as f64) {
            return Err(Error::BatchIgnoresN {
                candidate: candidate.name().to_string(),
                n_small: 1,
                ns_small: first,
                n_large: n,
                ns_large: d,
            });
        }
        if n >= opts.max_inner_loops {
            return Err(Error::CalibrationCapReached {
                candidate: candidate.name().to_string(),
                max_inner_loops: opts.max_inner_loops,
                batch_ns: d,
                target_ns: target,
            });
        }
        let predicted = if d > 0.0 {
            (n as f64 * (target / d) * SAFETY).ceil()
        } else {
            f64::INFINITY
        };
        let capped = predicted.min((n.saturating_mul(MAX_GROWTH)) as f64);
        n = (capped as u64).max(n + 1).min(opts.max_inner_loops);
        d = shortest(candidate, n)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::clock::SimulatedClock;

    /// A candidate costing `per_op` ns per operation plus `fixed` ns per batch on `clock`.
    fn sim<'a>(clock: &SimulatedClock, per_op: f64, fixed: u64) -> Candidate<'a> {
        let c = clock.clone();
        Candidate::new("sim", move |n| {
            c.advance(fixed + (per_op * n as f64).round() as u64)
        })
    }

    #[test]
    fn reaches_the_bound_without_gross_overshoot() {
        for (tick, per_op) in [
            (20u64, 0.7),
            (42, 3.3),
            (100, 250.0),
            (1, 1e6),
            (20, 12_345.0),
        ] {
            let clock = SimulatedClock::new(tick);
            let mut c = sim(&clock, per_op, 15);
            let cal = calibrate_with_clock(&mut c, &CalibrationOptions::default(), &clock).unwrap();
            let target = tick as f64 / DEFAULT_MAX_QUANTIZATION_ERROR;
            assert!(cal.batch_ns >= target, "{tick} {per_op}: {cal:?}");
            assert!(cal.quantization_error <= DEFAULT_MAX_QUANTIZATION_ERROR);
            // The smallest size that reaches the target, from the simulated cost model.
            let minimal = ((target - 15.0) / per_op).ceil().max(1.0);
            assert!(
                (cal.inner_loops as f64) <= minimal * 1.25 + 1.0,
                "{tick} {per_op}: {} vs minimal {minimal}",
                cal.inner_loops
            );
            assert_eq!(cal.clock_precision_ns, tick);
        }
    }

    #[test]
    fn expensive_operations_calibrate_to_one() {
        let clock = SimulatedClock::new(20);
        let mut c = sim(&clock, 5e6, 0);
        let cal = calibrate_with_clock(&mut c, &CalibrationOptions::default(), &clock).unwrap();
        assert_eq!(cal.inner_loops, 1);
    }

    #[test]
    fn a_batch_that_ignores_n_is_an_error() {
        let clock = SimulatedClock::new(20);
        let c2 = clock.clone();
        let mut c = Candidate::new("lazy", move |_n| c2.advance(300));
        let e = calibrate_with_clock(&mut c, &CalibrationOptions::default(), &clock).unwrap_err();
        assert!(matches!(e, Error::BatchIgnoresN { ref candidate, .. } if candidate == "lazy"));
        assert!(e.to_string().contains("black_box"));
    }

    #[test]
    fn the_cap_is_an_error() {
        let clock = SimulatedClock::new(20);
        let mut c = sim(&clock, 0.01, 0);
        let opts = CalibrationOptions::default().max_inner_loops(1_000);
        let e = calibrate_with_clock(&mut c, &opts, &clock).unwrap_err();
        assert!(
            matches!(
                e,
                Error::CalibrationCapReached {
                    max_inner_loops: 1_000,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("black_box"));
    }

    #[test]
    fn bad_quantization_error_is_rejected() {
        let clock = SimulatedClock::new(20);
        for bad in [-0.1, 1.0, 2.0, f64::NAN] {
            let mut c = sim(&clock, 1.0, 0);
            let opts = CalibrationOptions::default().max_quantization_error(bad);
            let e = calibrate_with_clock(&mut c, &opts, &clock).unwrap_err();
            assert!(matches!(
                e,
                Error::OutOfRange {
                    name: "max_quantization_error",
                    ..
                }
            ));
        }
    }

    #[test]
    fn zero_options_mean_defaults() {
        let o = CalibrationOptions::default()
            .max_quantization_error(0.0)
            .max_inner_loops(0)
            .runs_per_size(0)
            .resolved()
            .unwrap();
        assert_eq!(o, CalibrationOptions::default());
    }
}
