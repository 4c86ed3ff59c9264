//! Calibration before trust: does this machine tell a real difference from noise?
//!
//! A machine's numbers deserve trust only after it has passed two bars with the crate's own
//! protocol:
//!
//! 1. **A/A**: comparisons of identical code must not produce a verdict. Every resolved A/A
//!    comparison is a false signal; the rate must stay at or below [`MAX_FALSE_SIGNAL_RATE`]
//!    (5 %).
//! 2. **Regression injection**: comparisons where one side carries a real extra cost of 5 %
//!    inside the timed region (more of the same dependent arithmetic, which cannot be optimised
//!    away; not a sleep) must be detected, in the right direction, in at least
//!    [`MIN_DETECTION_RATE`] (95 %) of the runs. The slow side alternates between A and B.
//!
//! 1 % and 2 % injections are reported as information: they show where this machine's
//! resolution ends. Every rate comes with its exact (Clopper–Pearson) 95 % binomial interval
//! ([`binomial_interval`], from [`exact_proportion_interval`]), because 20 runs cannot pin a
//! rate down to better than several points.

use std::fmt;
use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::compare::{CompareOptions, compare_with_clock};
use crate::env::Environment;
use crate::error::{Error, Result};
use crate::measure::candidate::Candidate;
use crate::measure::clock::{Clock, MonotonicClock};
use crate::stats::Verdict;
use crate::stats::exact_proportion_interval;

/// Largest A/A false-signal rate a trustworthy machine may show (5 %).
pub const MAX_FALSE_SIGNAL_RATE: f64 = 0.05;
/// Smallest detection rate of the injected regression a trustworthy machine must reach (95 %).
pub const MIN_DETECTION_RATE: f64 = 0.95;

/// Options of [`selftest`]. Zero means the default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SelfTestOptions {
    /// Comparisons for each of the two bars (A/A and the injected regression). Default 20.
    pub runs: usize,
    /// Comparisons for each informational injection. Default 10.
    pub info_runs: usize,
    /// The injected extra cost that must be detected, as a fraction. Default 0.05.
    pub injected: f64,
    /// Extra costs reported as information only. Default `[0.01, 0.02]`.
    pub informational: Vec<f64>,
    /// Dependent multiply-adds per operation of the built-in workload (about 1 ns each on a
    /// current x86-64 core). Default 2,000, an operation of about 2 µs.
    pub work_units: u64,
    /// Options of every comparison. Default: the crate's defaults.
    pub compare: CompareOptions,
}

impl Default for SelfTestOptions {
    fn default() -> Self {
        SelfTestOptions {
            runs: 20,
            info_runs: 10,
            injected: 0.05,
            informational: vec![0.01, 0.02],
            work_units: 2_000,
            compare: CompareOptions::default(),
        }
    }
}

impl SelfTestOptions {
    /// Sets [`runs`](Self::runs).
    pub fn runs(mut self, runs: usize) -> Self {
        self.runs = runs;
        self
    }
    /// Sets [`info_runs`](Self::info_runs).
    pub fn info_runs(mut self, runs: usize) -> Self {
        self.info_runs = runs;
        self
    }
    /// Sets [`injected`](Self::injected).
    pub fn injected(mut self, extra: f64) -> Self {
        self.injected = extra;
        self
    }
    /// Sets [`informational`](Self::informational).
    pub fn informational(mut self, extras: impl IntoIterator<Item = f64>) -> Self {
        self.informational = extras.into_iter().collect();
        self
    }
    /// Sets [`work_units`](Self::work_units).
    pub fn work_units(mut self, units: u64) -> Self {
        self.work_units = units;
        self
    }
    /// Sets [`compare`](Self::compare).
    pub fn compare(mut self, o: CompareOptions) -> Self {
        self.compare = o;
        self
    }

    fn resolved(&self) -> Result<SelfTestOptions> {
        let mut o = self.clone();
        let d = SelfTestOptions::default();
        if o.runs == 0 {
            o.runs = d.runs;
        }
        if o.info_runs == 0 {
            o.info_runs = d.info_runs;
        }
        if o.injected == 0.0 {
            o.injected = d.injected;
        }
        if o.work_units == 0 {
            o.work_units = d.work_units;
        }
        for &x in std::iter::once(&o.injected).chain(&o.informational) {
            if !(x > 0.0 && x < 10.0) {
                return Err(Error::out_of_range(
                    "injected",
                    x,
                    "an extra cost 0 < x < 10 (a fraction of the base cost)",
                ));
            }
        }
        Ok(o)
    }
}

/// One bar of the self-test: how often something happened in `runs` comparisons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    /// What was measured, in words.
    pub name: String,
    /// Extra cost injected on the slow side (0 for A/A), as a fraction.
    pub injected: f64,
    /// Comparisons run.
    pub runs: usize,
    /// Comparisons that resolved (A/A: false signals; injections: detections in the right
    /// direction).
    pub hits: usize,
    /// Injections resolved in the wrong direction.
    pub wrong_direction: usize,
    /// `hits / runs`.
    pub rate: f64,
    /// Lower end of the exact 95 % binomial interval of the rate.
    pub low: f64,
    /// Upper end of the exact 95 % binomial interval of the rate.
    pub high: f64,
    /// Whether the bar was met; `None` for informational rows.
    pub passed: Option<bool>,
}

/// The self-test's result: both bars, the informational rows, the time taken and the
/// environment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelfTestReport {
    /// A/A comparisons: hits are false signals.
    pub aa: Bar,
    /// The injected regression that must be detected.
    pub detection: Bar,
    /// Informational injections.
    pub informational: Vec<Bar>,
    /// Wall time of the whole self-test, in seconds.
    pub seconds: f64,
    /// Median noise floor of the comparisons (fraction).
    pub median_noise_floor: f64,
    /// Where it ran.
    pub environment: Environment,
    /// Both bars met.
    pub passed: bool,
}

impl fmt::Display for Bar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = match self.passed {
            Some(true) => "PASS",
            Some(false) => "FAIL",
            None => "info",
        };
        write!(
            f,
            "[{verdict}] {}: {}/{} = {:.1} % (95 % interval {:.1} %–{:.1} %)",
            self.name,
            self.hits,
            self.runs,
            100.0 * self.rate,
            100.0 * self.low,
            100.0 * self.high
        )?;
        if self.wrong_direction > 0 {
            write!(f, ", {} in the wrong direction", self.wrong_direction)?;
        }
        Ok(())
    }
}

impl fmt::Display for SelfTestReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.aa)?;
        writeln!(f, "{}", self.detection)?;
        for b in &self.informational {
            writeln!(f, "{b}")?;
        }
        writeln!(
            f,
            "median noise floor {:.2} %, {:.1} s",
            100.0 * self.median_noise_floor,
            self.seconds
        )?;
        let e = &self.environment;
        writeln!(
            f,
            "environment: {} on {} ({} logical cores, hypervisor {}), {} {}, rtcompare {}",
            e.cpu_model.as_deref().unwrap_or("unknown CPU"),
            e.kernel.as_deref().unwrap_or(&e.os),
            e.logical_cores.map_or("?".to_string(), |n| n.to_string()),
            e.hypervisor
                .map_or("unknown".to_string(), |h| h.to_string()),
            e.rustc_version.as_deref().unwrap_or("rustc ?"),
            e.profile.as_deref().unwrap_or("?"),
            e.crate_version
        )?;
        if let Some(tool) = &e.instrumented_by {
            writeln!(
                f,
                "THE TIMINGS MEAN NOTHING: measured under {tool}, which translates every \
                 instruction; these rates describe the translation, not this machine"
            )?;
        }
        write!(
            f,
            "{}",
            if self.passed {
                "SELF-TEST PASSED: this machine's verdicts can be trusted at these settings"
            } else {
                "SELF-TEST FAILED: do not trust this machine's verdicts at these settings"
            }
        )
    }
}

/// Exact (Clopper–Pearson) two-sided 95 % interval of a binomial proportion `hits / runs`, as
/// `(low, high)`: [`exact_proportion_interval`] at 0.95, in the shape the self-test's bars (and
/// the command line's) store. Hits beyond `runs` count as `runs`; `runs == 0` gives `(0, 1)`,
/// the interval that knows nothing.
pub fn binomial_interval(hits: usize, runs: usize) -> (f64, f64) {
    exact_proportion_interval(hits.min(runs) as u64, runs as u64, 0.95)
        .map_or((0.0, 1.0), |p| (p.low, p.high))
}

fn bar(name: String, injected: f64, runs: usize, hits: usize, wrong: usize) -> Bar {
    let (low, high) = binomial_interval(hits, runs);
    Bar {
        name,
        injected,
        runs,
        hits,
        wrong_direction: wrong,
        rate: if runs == 0 {
            0.0
        } else {
            hits as f64 / runs as f64
        },
        low,
        high,
        passed: None,
    }
}

/// The self-test's workload as a batch: `units` dependent multiply-adds per operation, each
/// result fed to the next through [`std::hint::black_box`], so the compiler can neither
/// vectorise, fold nor remove it. About 1 ns per unit on a current x86-64 core; the cost is
/// proportional to `units`, which makes it a known-answer workload for tests and examples
/// (twice the units, twice the time, up to the loop's own small overhead).
///
/// ```
/// let mut batch = rtcompare::support::selftest::workload(1_000);
/// batch(3); // three operations of 1,000 multiply-adds
/// ```
pub fn workload(units: u64) -> impl FnMut(u64) {
    move |n| {
        let mut acc = 0u64;
        for i in 0..n * units {
            acc = black_box(acc.wrapping_mul(31).wrapping_add(i));
        }
        black_box(acc);
    }
}

/// Runs the self-test on this machine with the built-in workload. About a minute at the
/// defaults (60 comparisons of about 1 s each). Errors: options out of range, or a comparison
/// that failed.
pub fn selftest(options: &SelfTestOptions) -> Result<SelfTestReport> {
    let units = options.resolved()?.work_units;
    selftest_with(options, &MonotonicClock, |extra, _| {
        let slow = units + (units as f64 * extra).round() as u64;
        (
            Candidate::new("base", workload(units)),
            Candidate::new("slow", workload(slow)),
        )
    })
}

/// The self-test's logic on any clock and workload: `make(extra, run)` returns a pair
/// `(base, slow)` where `slow` costs `1 + extra` times `base` (`extra == 0` for A/A). The slow
/// side is put in role B on even runs and in role A on odd runs.
pub(crate) fn selftest_with<'a, C: Clock>(
    options: &SelfTestOptions,
    clock: &C,
    mut make: impl FnMut(f64, usize) -> (Candidate<'a>, Candidate<'a>),
) -> Result<SelfTestReport> {
    let o = options.resolved()?;
    let started = Instant::now();
    let environment = Environment::capture();
    let mut floors = Vec::new();
    let mut run_bar = |name: String, extra: f64, runs: usize| -> Result<Bar> {
        let (mut hits, mut wrong) = (0, 0);
        for run in 0..runs {
            let (base, slow) = make(extra, run);
            let slow_is_b = run % 2 == 0;
            let (a, b) = if slow_is_b {
                (base, slow)
            } else {
                (slow, base)
            };
            let r = compare_with_clock(a, b, &o.compare, clock)?;
            floors.push(r.noise_floor);
            if extra == 0.0 {
                hits += usize::from(r.resolved);
            } else {
                let right = if slow_is_b {
                    Verdict::AFaster
                } else {
                    Verdict::BFaster
                };
                match r.verdict {
                    v if v == right => hits += 1,
                    Verdict::AFaster | Verdict::BFaster => wrong += 1,
                    Verdict::Equivalent { .. } | Verdict::CannotTell(_) => {}
                }
            }
        }
        Ok(bar(name, extra, runs, hits, wrong))
    };
    let mut aa = run_bar("A/A false signals".to_string(), 0.0, o.runs)?;
    aa.passed = Some(aa.rate <= MAX_FALSE_SIGNAL_RATE);
    let mut detection = run_bar(
        format!("{:.0} % regression detected", 100.0 * o.injected),
        o.injected,
        o.runs,
    )?;
    detection.passed = Some(detection.rate >= MIN_DETECTION_RATE);
    let mut informational = Vec::new();
    for &extra in &o.informational {
        informational.push(run_bar(
            format!("{} % regression detected", 100.0 * extra),
            extra,
            o.info_runs,
        )?);
    }
    floors.sort_by(f64::total_cmp);
    let median_noise_floor = floors.get(floors.len() / 2).copied().unwrap_or(0.0);
    Ok(SelfTestReport {
        passed: aa.passed == Some(true) && detection.passed == Some(true),
        aa,
        detection,
        informational,
        seconds: started.elapsed().as_secs_f64(),
        median_noise_floor,
        environment,
    })
}

/// The time the self-test would take at `options`, as a rough guide for a progress message:
/// about one second per comparison at the default options.
pub fn expected_duration(options: &SelfTestOptions) -> Duration {
    let o = options.resolved().unwrap_or_default();
    let comparisons = 2 * o.runs + o.info_runs * o.informational.len();
    Duration::from_secs(comparisons as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::clock::SimulatedClock;
    use crate::rng::Rng;

    #[test]
    fn binomial_interval_known_answers() {
        // scipy.stats.binomtest(k, n).proportion_ci(method="exact"):
        // k=0, n=20 -> (0.0, 0.16843); k=19, n=20 -> (0.75127, 0.99873); k=5, n=20 ->
        // (0.08657, 0.49105)
        let close = |a: f64, b: f64| (a - b).abs() < 5e-5;
        let (l, h) = binomial_interval(0, 20);
        assert!(l == 0.0 && close(h, 0.16843), "{h}");
        let (l, h) = binomial_interval(19, 20);
        assert!(close(l, 0.75127) && close(h, 0.99873), "{l} {h}");
        let (l, h) = binomial_interval(5, 20);
        assert!(close(l, 0.08657) && close(h, 0.49105), "{l} {h}");
        assert_eq!(binomial_interval(0, 0), (0.0, 1.0));
        assert_eq!(binomial_interval(3, 3).1, 1.0);
    }

    /// A simulated world: `cost` ns per op with 1 % i.i.d. noise per batch.
    fn world(
        clock: &SimulatedClock,
    ) -> impl FnMut(f64, usize) -> (Candidate<'static>, Candidate<'static>) + '_ {
        move |extra, run| {
            let make = |name: &'static str, cost: f64, seed: u64| {
                let c = clock.clone();
                let mut rng = Rng::new(seed);
                Candidate::new(name, move |n| {
                    let e = 1.0 + 0.01 * rng.next_normal();
                    c.advance((cost * n as f64 * e) as u64);
                })
            };
            let seed = 1_000 * (run as u64 + 1) + (extra * 1e4) as u64;
            (
                make("base", 1_000.0, seed),
                make("slow", 1_000.0 * (1.0 + extra), seed + 1),
            )
        }
    }

    fn quick() -> SelfTestOptions {
        SelfTestOptions::default().runs(10).info_runs(4).compare(
            CompareOptions::default()
                .inner_loops(50)
                .validation_runs(10)
                .resamples(500)
                .seed(9)
                .skip_warmup(true),
        )
    }

    #[test]
    fn an_a_a_world_gives_no_signals_and_a_5_percent_world_is_detected() {
        let clock = SimulatedClock::new(1);
        let r = selftest_with(&quick(), &clock, world(&clock)).unwrap();
        assert!(r.aa.hits <= 1, "{r}");
        assert_eq!(r.detection.hits, 10, "{r}");
        assert_eq!(r.detection.wrong_direction, 0);
        assert!(r.passed, "{r}");
        assert_eq!(r.informational.len(), 2);
        assert!(r.informational[1].passed.is_none());
        let text = r.to_string();
        assert!(text.contains("[PASS] A/A false signals") && text.contains("SELF-TEST PASSED"));
    }

    #[test]
    fn a_machine_that_cannot_see_5_percent_fails() {
        // Noise of 30 % per batch hides a 5 % regression in 101 pairs.
        let clock = SimulatedClock::new(1);
        let noisy = |extra: f64, run: usize| {
            let make = |name: &'static str, cost: f64, seed: u64| {
                let c = clock.clone();
                let mut rng = Rng::new(seed);
                Candidate::new(name, move |n| {
                    let e = (1.0 + 0.3 * rng.next_normal()).max(0.05);
                    c.advance((cost * n as f64 * e) as u64);
                })
            };
            let seed = 77 * (run as u64 + 1);
            (
                make("base", 1_000.0, seed),
                make("slow", 1_000.0 * (1.0 + extra), seed + 1),
            )
        };
        let r = selftest_with(&quick().informational([]), &clock, noisy).unwrap();
        assert_eq!(r.detection.passed, Some(false), "{r}");
        assert!(!r.passed);
    }

    #[test]
    fn bad_options_are_rejected() {
        let clock = SimulatedClock::new(1);
        let e = selftest_with(&quick().injected(-0.1), &clock, world(&clock)).unwrap_err();
        assert!(matches!(
            e,
            Error::OutOfRange {
                name: "injected",
                ..
            }
        ));
    }
}
