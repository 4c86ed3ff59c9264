//! The session: calibrate once, then time rounds of batches and reanalyse everything after each
//! round (warm-up, batch size, interval, requirement) until the target or a budget is reached.

use std::time::Duration;

use super::measurement::{Measurement, StopReason};
use super::options::Precision;
use crate::compare::instrumented::screen;
use crate::env::detect_instrumentation;
use crate::error::{Error, Result};
use crate::measure::CancelToken;
use crate::measure::calibrate::{CalibrationOptions, calibrate_with_clock};
use crate::measure::candidate::Candidate;
use crate::measure::clock::{Clock, MonotonicClock};
use crate::stats::{
    BatchMeans, BatchMeansOptions, ChangePointOptions, RequiredSize, batch_means, required_size,
    warm_up,
};

/// Measures `candidate` on the process's monotonic clock until `precision` is reached or a
/// budget runs out. See the [module documentation](crate::precision).
///
/// Errors: invalid options ([`Error::OutOfRange`], [`Error::InvalidOption`]); calibration
/// failures ([`Error::BatchIgnoresN`], [`Error::CalibrationCapReached`]); a panicking
/// candidate ([`Error::CandidatePanicked`]); a process running under Valgrind or QEMU user
/// mode, unless [`Precision::allow_instrumented`] ([`Error::MeaninglessTimings`], before
/// anything is measured). Budgets and cancellation are not errors: they end the session with
/// its result and a [`StopReason`].
pub fn measure(candidate: Candidate<'_>, precision: &Precision) -> Result<Measurement> {
    measure_with_clock(candidate, precision, &MonotonicClock)
}

/// [`measure`] on any [`Clock`], for example a
/// [`SimulatedClock`](crate::measure::clock::SimulatedClock) in tests (reached as
/// `rtcompare::support::measure::measure_with_clock`).
pub fn measure_with_clock<C: Clock>(
    mut candidate: Candidate<'_>,
    precision: &Precision,
    clock: &C,
) -> Result<Measurement> {
    let p = precision.resolved()?;
    let found = if clock.is_simulated() {
        None
    } else {
        detect_instrumentation()
    };
    screen(
        found.as_ref(),
        p.allow_instrumented,
        false,
        "Precision::allow_instrumented(true)",
    )?;
    let start = clock.now_ns();
    let elapsed = || Duration::from_nanos(clock.now_ns().saturating_sub(start));
    let n = if p.inner_loops > 0 {
        p.inner_loops
    } else {
        let copts = CalibrationOptions::default().max_quantization_error(p.max_quantization_error);
        calibrate_with_clock(&mut candidate, &copts, clock)?.inner_loops
    };
    let mut readings: Vec<f64> = Vec::new();
    let mut rounds = 0usize;
    let mut next_round = p.round_readings;
    let stop;
    let mut analysis;
    loop {
        let interrupted = time_round(
            &mut candidate,
            clock,
            n,
            next_round,
            &p,
            &mut readings,
            &elapsed,
        )?;
        rounds += 1;
        analysis = analyse(&readings, &p)?;
        if analysis.met {
            stop = StopReason::TargetMet;
            break;
        }
        if let Some(reason) = interrupted.or_else(|| budget_spent(&p, readings.len(), elapsed())) {
            stop = reason;
            break;
        }
        next_round = next_round_size(&p, &analysis, readings.len());
    }
    let used = readings.len() - analysis.discarded;
    Ok(Measurement {
        name: candidate.name().to_string(),
        target_half_width: analysis
            .estimate
            .as_ref()
            .and_then(|e| p.target.half_width_for(e.mean)),
        estimate: analysis.estimate,
        required: analysis.required,
        target_met: analysis.met,
        stop,
        discarded: analysis.discarded,
        used,
        later_shift: analysis.later_shift,
        readings,
        rounds,
        inner_loops: n,
        elapsed: elapsed(),
        instrumented_by: found,
    })
}

/// One round: up to `count` batches of `n`, each reading pushed onto `readings` per
/// operation, with the budgets checked before every batch. Returns the budget that cut the
/// round short, if one did.
fn time_round<C: Clock>(
    candidate: &mut Candidate<'_>,
    clock: &C,
    n: u64,
    count: usize,
    p: &Precision,
    readings: &mut Vec<f64>,
    elapsed: &impl Fn() -> Duration,
) -> Result<Option<StopReason>> {
    for _ in 0..count {
        if let Some(reason) = budget_spent(p, readings.len(), elapsed()) {
            return Ok(Some(reason));
        }
        let ns = candidate.time_batch(clock, n)?;
        readings.push(ns as f64 / n as f64);
    }
    Ok(None)
}

/// How many readings the next round takes after `len`: what the requirement still asks for
/// (or half as many again when there is none yet), within the round's bounds.
fn next_round_size(p: &Precision, analysis: &PrecisionAnalysis, len: usize) -> usize {
    let wanted = match analysis.required {
        Some(req) => (req.readings + analysis.discarded).saturating_sub(len),
        None => len / 2,
    };
    // At least 1 % more readings per round (Pilot's detection schedule), so that the
    // number of analyses, each redone from scratch, grows only logarithmically.
    let least = p.round_readings.max(len / 100);
    wanted.clamp(least, least.max(len))
}

fn budget_spent(p: &Precision, taken: usize, elapsed: Duration) -> Option<StopReason> {
    if p.cancel.as_ref().is_some_and(CancelToken::is_cancelled) {
        Some(StopReason::Cancelled)
    } else if taken >= p.max_readings {
        Some(StopReason::ReadingBudget)
    } else if p.max_duration.is_some_and(|d| elapsed >= d) {
        Some(StopReason::TimeBudget)
    } else {
        None
    }
}

/// The state of a session after a round.
struct PrecisionAnalysis {
    estimate: Option<BatchMeans>,
    required: Option<RequiredSize>,
    discarded: usize,
    later_shift: bool,
    met: bool,
}

/// Warm-up, q, interval and requirement of the readings so far: recomputed from scratch every
/// round, so nothing stale survives from an earlier, smaller sample.
fn analyse(readings: &[f64], p: &Precision) -> Result<PrecisionAnalysis> {
    let (discarded, later_shift) = if p.remove_warm_up && !readings.is_empty() {
        let w = warm_up(readings, &ChangePointOptions::default())?;
        (w.end, w.later_shift)
    } else {
        (0, false)
    };
    let used = &readings[discarded..];
    let opts = BatchMeansOptions::default()
        .ac_limit(p.ac_limit)
        .level(p.level);
    let estimate = match batch_means(used, &opts) {
        Ok(b) => Some(b),
        Err(Error::NotEnoughData { .. } | Error::TooFewSamples { .. }) => None,
        Err(e) => return Err(e),
    };
    let required = match &estimate {
        Some(b) => match required_size(b, &p.target, p.min_batches) {
            Ok(r) => Some(r),
            Err(Error::NotEnoughData { .. }) => None,
            Err(e) => return Err(e),
        },
        None => None,
    };
    let met = estimate.as_ref().is_some_and(|b| {
        b.batches >= p.min_batches
            && p.target
                .half_width_for(b.mean)
                .is_some_and(|e| b.half_width <= e)
    });
    Ok(PrecisionAnalysis {
        estimate,
        required,
        discarded,
        later_shift,
        met,
    })
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::clock::SimulatedClock;
    use crate::rng::Rng;
    use std::cell::RefCell;

    /// A candidate whose batch of n ops costs n·(base·(1 + noise)) ns of simulated time.
    fn noisy<'a>(clock: &SimulatedClock, seed: u64, base: f64, cv: f64) -> Candidate<'a> {
        let c = clock.clone();
        let rng = RefCell::new(Rng::new(seed));
        Candidate::new("noisy", move |n| {
            let x = base * (1.0 + cv * rng.borrow_mut().next_normal());
            c.advance((x.max(1.0) * n as f64) as u64);
        })
    }

    #[test]
    fn bad_options_are_rejected_not_ignored() {
        let clock = SimulatedClock::new(1);
        for p in [
            Precision::quick().ac_limit(0.0),
            Precision::quick().ac_limit(1.5),
            Precision::quick().level(1.0),
            Precision::quick().half_width(0.0),
            Precision::quick().min_batches(1),
            Precision::quick().max_duration(Some(Duration::ZERO)),
            Precision::quick().max_quantization_error(2.0),
        ] {
            assert!(measure_with_clock(noisy(&clock, 1, 1000.0, 0.1), &p, &clock).is_err());
        }
    }

    #[test]
    fn strict_session_finishes() {
        let clock = SimulatedClock::new(1);
        let m = measure_with_clock(
            noisy(&clock, 2, 1000.0, 0.1),
            &Precision::strict().inner_loops(1),
            &clock,
        )
        .unwrap();
        assert!(m.target_met, "{:?}", m.stop);
        assert_eq!(m.stop, StopReason::TargetMet);
        let e = m.estimate.unwrap();
        assert!(e.batches >= 200 && e.half_width <= 0.05 * e.mean);
        assert!((e.mean - 1000.0).abs() < 30.0);
        assert_eq!(m.discarded, 0);
    }

    #[test]
    fn budgets_and_cancellation_end_the_session_with_a_result() {
        let clock = SimulatedClock::new(1);
        // ±0.1 % of a 50 % cv cannot be reached in 300 readings.
        let p = Precision::normal()
            .half_width(0.001)
            .inner_loops(1)
            .max_readings(300);
        let m = measure_with_clock(noisy(&clock, 3, 1000.0, 0.5), &p, &clock).unwrap();
        assert_eq!(m.stop, StopReason::ReadingBudget);
        assert!(!m.target_met && m.readings.len() == 300);
        assert!(m.estimate.is_some() && m.required.unwrap().readings > 300);

        let p = Precision::normal()
            .half_width(0.001)
            .inner_loops(1)
            .max_duration(Some(Duration::from_micros(200)));
        let m = measure_with_clock(noisy(&clock, 4, 1000.0, 0.5), &p, &clock).unwrap();
        assert_eq!(m.stop, StopReason::TimeBudget);
        assert!(m.readings.len() <= 201);

        let token = CancelToken::new();
        let t2 = token.clone();
        let c = clock.clone();
        let count = RefCell::new(0);
        let cand = Candidate::new("c", move |n| {
            c.advance(100 * n);
            *count.borrow_mut() += 1;
            if *count.borrow() == 25 {
                t2.cancel();
            }
        });
        let p = Precision::strict().inner_loops(1).cancel(token);
        let m = measure_with_clock(cand, &p, &clock).unwrap();
        assert_eq!(m.stop, StopReason::Cancelled);
        assert_eq!(m.readings.len(), 25);
    }

    #[test]
    fn warm_up_is_dropped_and_rate_is_inverted() {
        let clock = SimulatedClock::new(1);
        let c = clock.clone();
        let rng = RefCell::new(Rng::new(5));
        let i = RefCell::new(0usize);
        let cand = Candidate::new("warm", move |n| {
            let k = *i.borrow();
            *i.borrow_mut() += 1;
            let base = if k < 80 { 1500.0 } else { 1000.0 };
            let x = base + 100.0 * rng.borrow_mut().next_normal();
            c.advance((x * n as f64) as u64);
        });
        // Strict needs 200 batch means, so the session outlasts the warm-up and sees it end.
        let m = measure_with_clock(cand, &Precision::strict().inner_loops(1), &clock).unwrap();
        assert!(m.target_met);
        assert!(m.discarded.abs_diff(80) <= 3, "{}", m.discarded);
        let e = m.estimate.clone().unwrap();
        assert!((e.mean - 1000.0).abs() < 25.0, "{}", e.mean);
        let r = m.rate().unwrap();
        assert!((r.mean - 1e9 / e.mean).abs() < 1e-6);
        assert!(r.low < r.mean && r.mean < r.high);
        assert!(r.high - r.mean > r.mean - r.low);
    }

    #[test]
    fn the_limit_and_level_are_used() {
        // AR(1) readings: quick accepts q = 1, strict needs larger batches.
        let run = |p: Precision| {
            let clock = SimulatedClock::new(1);
            let c = clock.clone();
            let rng = RefCell::new(Rng::new(8));
            let x = RefCell::new(0.0f64);
            let cand = Candidate::new("ar", move |n| {
                let v = 0.7 * *x.borrow() + rng.borrow_mut().next_normal() * 0.714;
                *x.borrow_mut() = v;
                c.advance(((1000.0 + 50.0 * v) * n as f64) as u64);
            });
            measure_with_clock(cand, &p.inner_loops(1).remove_warm_up(false), &clock).unwrap()
        };
        let quick = run(Precision::quick());
        let strict = run(Precision::strict());
        let (eq, es) = (quick.estimate.unwrap(), strict.estimate.unwrap());
        assert!(eq.q < es.q, "{} vs {}", eq.q, es.q);
        assert!(es.autocorrelation.abs() <= 0.1 && strict.target_met);
        let s99 = run(Precision::strict().level(0.99)).estimate.unwrap();
        assert_eq!(s99.level, 0.99);
    }
}
