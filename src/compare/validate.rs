//! A/A validation: what this setup reports when there is nothing to find.
//!
//! Before a difference between A and B can mean anything, one has to know how large a
//! difference the setup invents on its own. Validation measures each candidate **against
//! itself**, many times, under exactly the options the real comparison uses, and summarises the
//! spurious differences. Their 0.90 quantile is the **noise floor**: about one A/A run in ten
//! exceeds it by construction. A real comparison must clear it (and the larger of the two
//! candidates' floors is used), otherwise the answer is "cannot tell".
//!
//! The two candidates' validations are interleaved batch by batch in the balanced order
//! A, B, B′, A′ and back (A′, B′, B, A), so neither ever has the caches to itself and neither
//! runs more than two batches in a row: the floors describe the two candidates competing as
//! they will in the comparison. The reference saw a head start of tens of percent for
//! identical code when validations ran one after the other.
//!
//! A quiet, well-calibrated setup shows a false-signal rate near 2·(1 − level) (10 % at 0.95),
//! a mean confidence near 0.5, a drift rate near 5 % and a lag-1 autocorrelation near 0.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::measure::cache::Cache;
use crate::measure::candidate::Candidate;
use crate::measure::clock::{Clock, MonotonicClock};
use crate::measure::collect::{CollectOptions, Session, Stage};
use crate::rng::{derive_seed, resolve_seed};
use crate::stats::{
    self, BootstrapDistribution, DEFAULT_RESAMPLES, DRIFT_LEVEL, EstimateOptions, detect_drift,
    lag1_autocorrelation,
};

/// Default number of A/A runs per candidate (40): the false-signal and drift rates are
/// proportions whose standard error is √(p(1−p)/runs), 4.7 points at p = 0.10 with 40 runs
/// against 9.5 with 10.
pub(crate) const DEFAULT_VALIDATION_RUNS: usize = 40;

/// Default number of A/A runs per candidate in a cold run ([`Cache::Cold`]): 10.
///
/// Every cold batch pays an eviction of milliseconds outside its timing, and one A/A run of a
/// pair is 4 × `repeats` batches, so the warm default's 16,160 evictions (40 runs of 101
/// repeats) would take most of a minute before the first measured pair; 10 runs take a quarter
/// of that (docs/background.md, section "Warm and cold caches: two experiments"). The price is a
/// rougher floor: the false-signal rate's standard error is 9.5 points instead of 4.7, and
/// the 0.9 quantile of 10 |δ| rests on the largest two. Ask for more with
/// [`CompareOptions::validation_runs`](crate::CompareOptions::validation_runs) when the time is
/// there.
pub const DEFAULT_COLD_VALIDATION_RUNS: usize = 10;

/// The default number of A/A runs for a cache mode: `DEFAULT_VALIDATION_RUNS` (40) warm,
/// [`DEFAULT_COLD_VALIDATION_RUNS`] (10) cold.
pub(crate) fn default_validation_runs(cache: Cache) -> usize {
    match cache {
        Cache::Warm => DEFAULT_VALIDATION_RUNS,
        Cache::Cold => DEFAULT_COLD_VALIDATION_RUNS,
    }
}

/// Default level against which A/A runs are judged for false signals (0.95).
pub(crate) const DEFAULT_VALIDATION_LEVEL: f64 = 0.95;

/// Quantile of the A/A absolute differences reported as the noise floor (0.90). The maximum,
/// used earlier by the reference, grows without limit with the number of runs; the quantile
/// settles.
pub(crate) const NOISE_FLOOR_QUANTILE: f64 = 0.90;

/// Fewest runs a time budget may cut a validation to (10, or all requested if fewer).
pub(crate) const MIN_RUNS_UNDER_BUDGET: usize = 10;

/// Options for [`validate_pair`] and `validate_harness`. Zero means the default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ValidationOptions {
    /// The options the real comparison will use. A zero `inner_loops` is calibrated once and
    /// then held fixed for all runs.
    pub collect: CollectOptions,
    /// A/A runs per candidate; at least 2. 0 (the default) selects the cache mode's default:
    /// `DEFAULT_VALIDATION_RUNS` (40) warm, [`DEFAULT_COLD_VALIDATION_RUNS`] (10) cold.
    pub runs: usize,
    /// Bootstrap replicates per run. Default 5,000.
    pub resamples: usize,
    /// Level for the false-signal rate, in (0.5, 1). Default 0.95.
    pub level: f64,
    /// Seed of the runs' bootstraps (run j of A uses `derive_seed(seed, 2j+1)`, of B
    /// `derive_seed(seed, 2j+2)`); 0 draws one.
    pub seed: u64,
    /// Stop starting new runs once this much time has passed, provided at least
    /// `MIN_RUNS_UNDER_BUDGET` (10) ran. Zero: no limit.
    pub time_budget: Duration,
}

impl Default for ValidationOptions {
    fn default() -> Self {
        ValidationOptions {
            collect: CollectOptions::default(),
            runs: 0,
            resamples: DEFAULT_RESAMPLES,
            level: DEFAULT_VALIDATION_LEVEL,
            seed: 0,
            time_budget: Duration::ZERO,
        }
    }
}

impl ValidationOptions {
    /// Sets [`collect`](Self::collect).
    pub fn collect(mut self, c: CollectOptions) -> Self {
        self.collect = c;
        self
    }
    /// Sets [`runs`](Self::runs).
    pub fn runs(mut self, runs: usize) -> Self {
        self.runs = runs;
        self
    }
    /// Sets [`resamples`](Self::resamples).
    pub fn resamples(mut self, r: usize) -> Self {
        self.resamples = r;
        self
    }
    /// Sets [`level`](Self::level).
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Sets [`seed`](Self::seed).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// Sets [`time_budget`](Self::time_budget).
    pub fn time_budget(mut self, d: Duration) -> Self {
        self.time_budget = d;
        self
    }

    fn resolved(&self) -> Result<ValidationOptions> {
        let mut o = self.clone();
        o.collect = self.collect.resolved()?;
        if o.runs == 0 {
            o.runs = default_validation_runs(o.collect.cache);
        }
        if o.runs < 2 {
            return Err(Error::TooFewSamples {
                what: "validation runs",
                needed: 2,
                got: o.runs,
            });
        }
        if o.resamples == 0 {
            o.resamples = DEFAULT_RESAMPLES;
        }
        if o.level == 0.0 {
            o.level = DEFAULT_VALIDATION_LEVEL;
        }
        check_validation_level(o.level)?;
        Ok(o)
    }
}

/// `Err(OutOfRange)` unless 0.5 < level < 1.
pub(crate) fn check_validation_level(level: f64) -> Result<()> {
    if level > 0.5 && level < 1.0 {
        Ok(())
    } else {
        Err(Error::out_of_range(
            "validation level",
            level,
            "0.5 < level < 1 (0 selects 0.95)",
        ))
    }
}

/// What one A/A run of one candidate produced.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ValidationRun {
    /// The paired relative difference between the two identical series (fraction).
    pub delta: f64,
    /// Tie-split bootstrap confidence that the first series is faster.
    pub confidence: f64,
    /// Share of bootstrap replicates with a difference of exactly zero.
    pub tie_rate: f64,
    /// Drift-test p-values of the two series.
    pub drift_p: [f64; 2],
    /// Relative shifts (second-half median over first-half median, minus one) of the two
    /// series.
    pub drift_shift: [f64; 2],
    /// Lag-1 autocorrelations of the two series.
    pub autocorrelation: [f64; 2],
}

impl ValidationRun {
    /// Analyses one A/A run: two series of the same candidate, `x[i]` and `y[i]` measured in
    /// the same round. Pure: the bootstrap uses `seed` and `resamples`.
    pub fn analyse(x: &[f64], y: &[f64], seed: u64, resamples: usize) -> Result<ValidationRun> {
        let opts = EstimateOptions::default()
            .paired(true)
            .seed(seed)
            .resamples(resamples);
        let dist = BootstrapDistribution::new(x, y, &opts)?;
        let ties = dist.tie_split();
        let (dx, dy) = (detect_drift(x)?, detect_drift(y)?);
        Ok(ValidationRun {
            delta: dist.estimate().delta,
            confidence: ties.confidence,
            tie_rate: ties.tie_rate,
            drift_p: [dx.p_value, dy.p_value],
            drift_shift: [dx.relative_shift, dy.relative_shift],
            autocorrelation: [lag1_autocorrelation(x)?, lag1_autocorrelation(y)?],
        })
    }
}

/// The summary of a candidate's A/A validation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HarnessValidation {
    /// A/A runs performed.
    pub runs: usize,
    /// A/A runs requested (more than `runs` when a time budget cut the validation short).
    pub requested_runs: usize,
    /// Batch size used, fixed across runs.
    pub inner_loops: u64,
    /// The `NOISE_FLOOR_QUANTILE` (0.90) quantile of |δ| across runs (fraction): about one
    /// run in ten of identical code differs by more.
    pub noise_floor: f64,
    /// The largest |δ| across runs (fraction); grows with the number of runs.
    pub max_observed_noise: f64,
    /// The median |δ| across runs (fraction).
    pub typical_noise: f64,
    /// Mean tie-split confidence across runs; an unbiased setup centres on 0.5.
    pub mean_confidence: f64,
    /// Median tie-split confidence across runs.
    pub median_confidence: f64,
    /// Median across runs of the share of replicates tied at exactly zero.
    pub tie_rate: f64,
    /// Share of runs whose confidence fell outside [1 − level, level]; nominally
    /// 2·(1 − level).
    pub false_signal_rate: f64,
    /// Level used for the false-signal rate.
    pub level: f64,
    /// Share of runs in which at least one of the two series drifted at
    /// [`DRIFT_LEVEL`] (0.05); near 0.05 on a quiet machine.
    pub drift_rate: f64,
    /// Median |relative shift| across runs and both series (fraction, no direction).
    pub median_drift_shift: f64,
    /// Median lag-1 autocorrelation across runs and both series.
    pub autocorrelation: f64,
    /// Per-run δ in run order; a trend across them is drift.
    pub deltas: Vec<f64>,
    /// Per-run tie-split confidences in run order.
    pub confidences: Vec<f64>,
}

impl HarnessValidation {
    /// Summarises A/A runs. Errors: fewer than 2 runs ([`Error::TooFewSamples`]); a level
    /// outside (0.5, 1) ([`Error::OutOfRange`]).
    pub fn from_runs(
        runs: &[ValidationRun],
        inner_loops: u64,
        level: f64,
        requested_runs: usize,
    ) -> Result<HarnessValidation> {
        if runs.len() < 2 {
            return Err(Error::TooFewSamples {
                what: "validation runs",
                needed: 2,
                got: runs.len(),
            });
        }
        check_validation_level(level)?;
        let k = runs.len() as f64;
        let deltas: Vec<f64> = runs.iter().map(|r| r.delta).collect();
        let confidences: Vec<f64> = runs.iter().map(|r| r.confidence).collect();
        let abs: Vec<f64> = deltas.iter().map(|d| d.abs()).collect();
        let ties: Vec<f64> = runs.iter().map(|r| r.tie_rate).collect();
        let shifts: Vec<f64> = runs
            .iter()
            .flat_map(|r| r.drift_shift.map(f64::abs))
            .collect();
        let acs: Vec<f64> = runs.iter().flat_map(|r| r.autocorrelation).collect();
        let false_signals = confidences
            .iter()
            .filter(|&&c| c < 1.0 - level || c > level)
            .count();
        let drifted = runs
            .iter()
            .filter(|r| r.drift_p.iter().any(|&p| p < DRIFT_LEVEL))
            .count();
        Ok(HarnessValidation {
            runs: runs.len(),
            requested_runs: requested_runs.max(runs.len()),
            inner_loops,
            noise_floor: stats::quantile(&abs, NOISE_FLOOR_QUANTILE)?,
            max_observed_noise: stats::max(&abs)?,
            typical_noise: stats::median(&abs)?,
            mean_confidence: stats::mean(&confidences)?,
            median_confidence: stats::median(&confidences)?,
            tie_rate: stats::median(&ties)?,
            false_signal_rate: false_signals as f64 / k,
            level,
            drift_rate: drifted as f64 / k,
            median_drift_shift: stats::median(&shifts)?,
            autocorrelation: stats::median(&acs)?,
            deltas,
            confidences,
        })
    }

    /// `true` if a relative difference `d` exceeds this floor (the sign is ignored).
    /// Necessary, not sufficient: a result just above the floor is still weak evidence.
    pub fn resolves(&self, d: f64) -> bool {
        d.abs() > self.noise_floor
    }

    /// Whether a time budget stopped the validation before all requested runs.
    pub fn cut_short(&self) -> bool {
        self.runs < self.requested_runs
    }
}

impl std::fmt::Display for HarnessValidation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} A/A runs at {} operations per batch:",
            self.runs, self.inner_loops
        )?;
        writeln!(
            f,
            "  noise floor {:.2} % (0.9 quantile of |difference|), typical {:.2} %, largest {:.2} %",
            100.0 * self.noise_floor,
            100.0 * self.typical_noise,
            100.0 * self.max_observed_noise
        )?;
        writeln!(
            f,
            "  false signals {:.1} % at level {} (nominal {:.0} %), mean confidence {:.3}, ties {:.1} %",
            100.0 * self.false_signal_rate,
            self.level,
            200.0 * (1.0 - self.level),
            self.mean_confidence,
            100.0 * self.tie_rate
        )?;
        write!(
            f,
            "  drift in {:.1} % of runs (median shift {:.2} %), lag-1 autocorrelation {:+.2}",
            100.0 * self.drift_rate,
            100.0 * self.median_drift_shift,
            self.autocorrelation
        )
    }
}

/// Validates two candidates together, interleaved batch by batch (A, B, B′, A′ and back), on
/// the process's monotonic clock. Returns the validations of A and of B.
///
/// A zero `inner_loops` calibrates both and uses the larger size for both (one operation per
/// batch in a cold run, whose every batch follows an eviction). One warm-up of the options'
/// duration precedes the first run. Errors: invalid options, calibration failures, a
/// panicking candidate, cancellation.
pub fn validate_pair(
    a: &mut Candidate<'_>,
    b: &mut Candidate<'_>,
    options: &ValidationOptions,
) -> Result<(HarnessValidation, HarnessValidation)> {
    validate_pair_with_clock(a, b, options, &MonotonicClock)
}

/// [`validate_pair`] on any [`Clock`].
pub(crate) fn validate_pair_with_clock<C: Clock>(
    a: &mut Candidate<'_>,
    b: &mut Candidate<'_>,
    options: &ValidationOptions,
    clock: &C,
) -> Result<(HarnessValidation, HarnessValidation)> {
    let o = options.resolved()?;
    let session = Session::new(clock, &o.collect);
    let (n, _) = session.batch_size(a, b, &o.collect)?;
    if !o.collect.skip_warmup {
        session.warm_up(a, b, n, o.collect.warmup, o.collect.warmup_duration)?;
    }
    let seed = resolve_seed(o.seed);
    run_pair(&session, a, b, n, &o, seed, o.time_budget)
}

fn per_op(batch_ns: &[u64], n: u64) -> Vec<f64> {
    batch_ns.iter().map(|&ns| ns as f64 / n as f64).collect()
}

/// The interleaved A/A runs of a pair, on an existing session (shared with
/// [`compare`](crate::compare())). `budget` counts from the session's start.
pub(crate) fn run_pair<C: Clock>(
    session: &Session<'_, C>,
    a: &mut Candidate<'_>,
    b: &mut Candidate<'_>,
    n: u64,
    o: &ValidationOptions,
    seed: u64,
    budget: Duration,
) -> Result<(HarnessValidation, HarnessValidation)> {
    let repeats = o.collect.repeats;
    // Buffers for the four series, allocated once and reused by every run.
    let mut series: [Vec<u64>; 4] = std::array::from_fn(|_| Vec::with_capacity(repeats));
    let mut runs_a = Vec::with_capacity(o.runs);
    let mut runs_b = Vec::with_capacity(o.runs);
    let budget_ns = budget.as_nanos().min(u64::MAX as u128) as u64;
    let min_runs = MIN_RUNS_UNDER_BUDGET.min(o.runs);
    session.report(Stage::Validating, 0, o.runs);
    for j in 0..o.runs {
        if budget_ns > 0 && j >= min_runs && session.elapsed_ns() >= budget_ns {
            break;
        }
        for s in series.iter_mut() {
            s.clear();
        }
        // Slots: 0 = A, 1 = B, 2 = B′, 3 = A′; even rounds A B B′ A′, odd rounds reversed.
        for r in 0..repeats {
            for k in 0..4 {
                let slot = if r % 2 == 0 { k } else { 3 - k };
                let ns = if slot == 0 || slot == 3 {
                    session.batch(a, n, Stage::Validating)?
                } else {
                    session.batch(b, n, Stage::Validating)?
                };
                series[slot].push(ns);
            }
        }
        let j64 = j as u64;
        runs_a.push(ValidationRun::analyse(
            &per_op(&series[0], n),
            &per_op(&series[3], n),
            derive_seed(seed, 2 * j64 + 1),
            o.resamples,
        )?);
        runs_b.push(ValidationRun::analyse(
            &per_op(&series[1], n),
            &per_op(&series[2], n),
            derive_seed(seed, 2 * j64 + 2),
            o.resamples,
        )?);
        session.report(Stage::Validating, j + 1, o.runs);
    }
    Ok((
        HarnessValidation::from_runs(&runs_a, n, o.level, o.runs)?,
        HarnessValidation::from_runs(&runs_b, n, o.level, o.runs)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::clock::SimulatedClock;
    use crate::rng::Rng;
    use std::cell::RefCell;
    use std::rc::Rc;

    fn run(delta: f64, confidence: f64) -> ValidationRun {
        ValidationRun {
            delta,
            confidence,
            tie_rate: 0.1,
            drift_p: [0.5, 0.5],
            drift_shift: [0.01, -0.02],
            autocorrelation: [0.1, 0.0],
        }
    }

    #[test]
    fn summary_statistics_follow_their_definitions() {
        // |δ| = 0.001 … 0.010; confidences with two false signals at level 0.95.
        let runs: Vec<ValidationRun> = (1..=10)
            .map(|i| {
                let c = match i {
                    1 => 0.01,
                    2 => 0.99,
                    _ => 0.5,
                };
                let mut r = run(if i % 2 == 0 { 0.001 } else { -0.001 } * i as f64, c);
                if i == 3 {
                    r.drift_p = [0.01, 0.9];
                }
                r
            })
            .collect();
        let v = HarnessValidation::from_runs(&runs, 100, 0.95, 10).unwrap();
        // numpy.quantile([0.001, ..., 0.010], 0.9) = 0.0091
        assert!((v.noise_floor - 0.0091).abs() < 1e-12, "{}", v.noise_floor);
        assert!((v.max_observed_noise - 0.010).abs() < 1e-15);
        assert!((v.typical_noise - 0.0055).abs() < 1e-12);
        assert!((v.false_signal_rate - 0.2).abs() < 1e-15);
        assert!((v.drift_rate - 0.1).abs() < 1e-15);
        assert!((v.median_drift_shift - 0.015).abs() < 1e-12);
        assert!((v.autocorrelation - 0.05).abs() < 1e-12);
        assert!((v.mean_confidence - 0.5).abs() < 1e-12);
        assert_eq!(v.deltas.len(), 10);
        assert!(v.resolves(0.01) && v.resolves(-0.01) && !v.resolves(0.009));
        assert!(!v.cut_short());
    }

    #[test]
    fn from_runs_rejects_bad_input() {
        assert!(matches!(
            HarnessValidation::from_runs(&[run(0.0, 0.5)], 1, 0.95, 1),
            Err(Error::TooFewSamples { .. })
        ));
        let two = [run(0.0, 0.5), run(0.0, 0.5)];
        for bad in [0.5, 1.0, 0.2, f64::NAN] {
            assert!(matches!(
                HarnessValidation::from_runs(&two, 1, bad, 2),
                Err(Error::OutOfRange { .. })
            ));
        }
    }

    /// A simulated candidate: `cost` ns per op with multiplicative noise of relative size
    /// `noise`, drawn from its own generator.
    fn noisy<'a>(
        name: &'a str,
        clock: &SimulatedClock,
        cost: f64,
        noise: f64,
        seed: u64,
    ) -> Candidate<'a> {
        let c = clock.clone();
        let rng = RefCell::new(Rng::new(seed));
        Candidate::new(name, move |n| {
            let e = 1.0 + noise * rng.borrow_mut().next_normal();
            c.advance((cost * n as f64 * e).max(0.0) as u64);
        })
    }

    #[test]
    fn pair_validation_interleaves_a_b_b_a() {
        let clock = SimulatedClock::new(1);
        let log = Rc::new(RefCell::new(String::new()));
        let (la, lb) = (log.clone(), log.clone());
        let (ca, cb) = (clock.clone(), clock.clone());
        let mut a = Candidate::new("a", move |n| {
            la.borrow_mut().push('a');
            ca.advance(1000 * n + la.borrow().len() as u64 % 7);
        });
        let mut b = Candidate::new("b", move |n| {
            lb.borrow_mut().push('b');
            cb.advance(1000 * n + lb.borrow().len() as u64 % 5);
        });
        let opts = ValidationOptions::default()
            .runs(2)
            .resamples(200)
            .seed(1)
            .collect(
                CollectOptions::default()
                    .inner_loops(1)
                    .repeats(11)
                    .skip_warmup(true),
            );
        let (va, vb) = validate_pair_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        assert_eq!((va.runs, vb.runs), (2, 2));
        let s = log.borrow();
        assert_eq!(s.len(), 2 * 11 * 4);
        assert!(s.starts_with("abbaabbaabba"), "{s}");
        assert!(!s.contains("aaa") && !s.contains("bbb"));
    }

    #[test]
    fn cold_validation_evicts_before_every_batch() {
        let clock = SimulatedClock::new(1);
        let log = Rc::new(RefCell::new(String::new()));
        let (la, lb, le) = (log.clone(), log.clone(), log.clone());
        let (ca, cb, ce) = (clock.clone(), clock.clone(), clock.clone());
        let mut a = Candidate::new("a", move |n| {
            la.borrow_mut().push('a');
            ca.advance(1000 * n + la.borrow().len() as u64 % 7);
        });
        let mut b = Candidate::new("b", move |n| {
            lb.borrow_mut().push('b');
            cb.advance(1000 * n + lb.borrow().len() as u64 % 5);
        });
        let evictor = crate::measure::cache::Evictor::with_hook(4096, move || {
            le.borrow_mut().push('e');
            ce.advance(3_000_000);
        });
        let opts = ValidationOptions::default()
            .runs(2)
            .resamples(200)
            .seed(1)
            .collect(
                CollectOptions::default()
                    .cache(Cache::Cold)
                    .repeats(11)
                    .skip_warmup(true),
            )
            .resolved()
            .unwrap();
        let session = Session::new(&clock, &opts.collect).with_evictor(evictor);
        let (n, _) = session.batch_size(&mut a, &mut b, &opts.collect).unwrap();
        assert_eq!(n, 1);
        let (va, vb) = run_pair(&session, &mut a, &mut b, n, &opts, 1, Duration::ZERO).unwrap();
        assert_eq!((va.runs, vb.runs, va.inner_loops), (2, 2, 1));
        let s = log.borrow();
        assert_eq!(s.len(), 2 * 2 * 11 * 4);
        // An eviction, then a batch, every time.
        let evictions: String = s.chars().step_by(2).collect();
        let batches: String = s.chars().skip(1).step_by(2).collect();
        assert!(evictions.chars().all(|c| c == 'e'), "{s}");
        assert!(batches.starts_with("abbaabba"), "{s}");
        assert_eq!(session.cache_info().unwrap().evictions, 2 * 11 * 4);
        // The 3 ms sweeps are in no batch: every A/A difference stays at the candidates' own
        // few-nanosecond jitter on 1 µs.
        assert!(
            va.max_observed_noise < 0.01 && vb.max_observed_noise < 0.01,
            "{va}"
        );
    }

    #[test]
    fn cold_runs_fewer_validation_runs_by_default() {
        let cold = CollectOptions::default().cache(Cache::Cold);
        let o = ValidationOptions::default()
            .collect(cold)
            .resolved()
            .unwrap();
        assert_eq!(o.runs, DEFAULT_COLD_VALIDATION_RUNS);
        let o = ValidationOptions::default().resolved().unwrap();
        assert_eq!(o.runs, DEFAULT_VALIDATION_RUNS);
    }

    #[test]
    fn identical_noise_gives_a_calibrated_validation() {
        let clock = SimulatedClock::new(1);
        let mut a = noisy("a", &clock, 200.0, 0.01, 1);
        let mut b = noisy("b", &clock, 300.0, 0.01, 2);
        let opts = ValidationOptions::default()
            .runs(40)
            .resamples(1000)
            .seed(3)
            .collect(CollectOptions::default().inner_loops(100).skip_warmup(true));
        let (va, vb) = validate_pair_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        for v in [&va, &vb] {
            // i.i.d. noise of 1 % per batch: the median of 101 paired ratios varies by about
            // 0.2 %, so the floor sits well below 1 % and the confidences centre on 0.5.
            assert!(v.noise_floor > 0.0 && v.noise_floor < 0.01, "{v}");
            assert!((v.mean_confidence - 0.5).abs() < 0.15, "{v}");
            assert!(v.false_signal_rate <= 0.3, "{v}");
            assert!(v.autocorrelation.abs() < 0.2, "{v}");
        }
    }

    #[test]
    fn a_time_budget_cuts_after_ten_runs() {
        let clock = SimulatedClock::new(1);
        let mut a = noisy("a", &clock, 1000.0, 0.01, 1);
        let mut b = noisy("b", &clock, 1000.0, 0.01, 2);
        // Each run: 4 × 11 batches of 1 µs → 44 µs; a budget of 1 µs is exhausted at once.
        let opts = ValidationOptions::default()
            .runs(40)
            .resamples(200)
            .seed(3)
            .time_budget(Duration::from_micros(1))
            .collect(
                CollectOptions::default()
                    .inner_loops(1)
                    .repeats(11)
                    .skip_warmup(true),
            );
        let (va, _) = validate_pair_with_clock(&mut a, &mut b, &opts, &clock).unwrap();
        assert_eq!(va.runs, MIN_RUNS_UNDER_BUDGET);
        assert_eq!(va.requested_runs, 40);
        assert!(va.cut_short());
    }

    #[test]
    fn bad_options_are_rejected() {
        let clock = SimulatedClock::new(1);
        let mut a = noisy("a", &clock, 1000.0, 0.01, 1);
        let mut b = noisy("b", &clock, 1000.0, 0.01, 2);
        let base = ValidationOptions::default()
            .collect(CollectOptions::default().inner_loops(1).skip_warmup(true));
        let e = validate_pair_with_clock(&mut a, &mut b, &base.clone().runs(1), &clock);
        assert!(matches!(
            e,
            Err(Error::TooFewSamples {
                what: "validation runs",
                ..
            })
        ));
        let e = validate_pair_with_clock(&mut a, &mut b, &base.clone().level(0.3), &clock);
        assert!(matches!(e, Err(Error::OutOfRange { .. })));
    }
}
