//! One worker pair of a cross-revision comparison: two workers of each build, all four on one
//! CPU, serving their batches in rounds of four in a random order.
//!
//! Why each part is there (docs/background.md, "Cross-revision pairs: one CPU, a null in the same
//! rounds"):
//! - **One CPU.** Two processes that take turns on a 2-vCPU virtual machine each stay on "their"
//!   vCPU, and two vCPUs can run the same code 20 % apart at a given moment. ABBA interleaving
//!   cancels what changes in time, not what differs in place; on one CPU the place is shared.
//!   The CPU is drawn per pair and balanced over the pairs, so the pooled interval covers the
//!   CPUs; the parent waits on another CPU while batches run.
//! - **Two workers of each build, in the same rounds.** Every round gives the head-against-
//!   baseline difference and, from the same batches regrouped so that each side holds one
//!   worker of each build, two A/A differences between processes: the null costs no batch of
//!   its own (where a per-worker A/A validation cost 80 batches per measured one), and it is
//!   measured at the level at which builds differ, between processes.
//! - **Random order.** Each round runs the four workers in a fresh random order, so neither
//!   build holds a slot of the schedule (first after the parent's wake-up, last before it).
//!
//! The stages: [`start`](Quartet::start) the four workers (in a random order, each with its
//! own heap perturbation, environment padding and seed), move the parent, calibrate, warm up,
//! [`measure`](Quartet::measure) the rounds within the pair's time budget, then
//! [`report`](Measured::report) the paired estimate, its A/A differences and the verdict.

use std::time::{Duration, Instant};

use super::worker::{Launch, Worker};
use crate::compare::report::{
    Context, Diagnostics, REPORT_SCHEMA_VERSION, Report, Resources, RunInfo, Series, Timing,
    Warning, WorkerPair,
};
use crate::compare::warnings::{WarningInputs, warnings};
use crate::compare::{CompareOptions, PairAnalysis};
use crate::env::Environment;
use crate::error::Result;
use crate::measure::calibrate::{Calibration, calibrate};
use crate::measure::candidate::Candidate;
use crate::measure::clock::{Instrument, SuspendWatch};
use crate::measure::pin::{PinGuard, pin_current_thread};
use crate::rng::{Rng, derive_seed};
use crate::stats::{self, Verdict, decide};

/// Fewest rounds a pair measures, whatever its time budget: the bootstrap and the drift test
/// need a series, and 20 rounds are 80 batches.
pub(crate) const MIN_ROUNDS: usize = 20;

/// Worker indices: the baseline's two, then the head's two.
const BASE_1: usize = 0;
const BASE_2: usize = 1;
const HEAD_1: usize = 2;
const HEAD_2: usize = 3;

/// Where a pair runs: the CPU of its four workers, the one its parent waits on, and how many
/// the run may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    pub(crate) cpu: Option<usize>,
    pub(crate) parent_cpu: Option<usize>,
    pub(crate) cpus_allowed: usize,
}

impl Placement {
    /// The placement of pair `k` of a benchmark whose pairs start at `offset` in `allowed`:
    /// consecutive pairs take consecutive CPUs, so that over the pairs every allowed CPU holds
    /// as many as any other, give or take one. The parent waits on the next allowed CPU.
    /// Without pinning (`pin` false, or no CPU list), nothing is placed.
    pub(crate) fn of(allowed: &[usize], pin: bool, offset: usize, k: usize) -> Placement {
        if !pin || allowed.is_empty() {
            return Placement {
                cpu: None,
                parent_cpu: None,
                cpus_allowed: allowed.len(),
            };
        }
        let i = (offset + k) % allowed.len();
        Placement {
            cpu: Some(allowed[i]),
            parent_cpu: (allowed.len() > 1).then(|| allowed[(i + 1) % allowed.len()]),
            cpus_allowed: allowed.len(),
        }
    }
}

/// What a pair needs from the run: how to start each build's workers, the comparison's
/// options (level, resamples, thresholds, rounds, warm-up), the pair's budget and the clock's
/// figures, measured once per run.
pub(crate) struct PairPlan<'a> {
    pub(crate) base: Launch<'a>,
    pub(crate) head: Launch<'a>,
    /// The caller's comparison options, as given (recorded in the report).
    pub(crate) options: &'a CompareOptions,
    /// The same, resolved.
    pub(crate) resolved: &'a CompareOptions,
    pub(crate) budget: Duration,
    pub(crate) instrument: &'a Instrument,
    /// The code layout both builds' executables were linked with (recorded in the report).
    pub(crate) variant: usize,
}

/// Runs one worker pair of benchmark `name` at `placement`, seeded by `seed`, and returns its
/// report (A the head, B the baseline). Errors: [`Error::Worker`](crate::Error::Worker) naming the build when a
/// worker fails; the calibration's and the statistics' own errors. Every worker is killed and
/// reaped on every path (dropping a [`Worker`] does it), and the parent's affinity restored.
pub(crate) fn run(
    plan: &PairPlan<'_>,
    name: &str,
    placement: Placement,
    seed: u64,
) -> Result<Report> {
    let started = Instant::now();
    let mut quartet = Quartet::start(plan, name, placement, seed)?;
    let measured = quartet.measure(plan, seed)?;
    drop(quartet);
    measured.report(plan, placement, seed, started.elapsed())
}

/// The four workers of a pair, and the parent's pin while they run.
struct Quartet {
    workers: [Worker; 4],
    /// Restores the parent's affinity when the pair ends; dropped after the workers.
    _parent: Option<PinGuard>,
}

/// The rounds of a pair and what was known when they were measured.
struct Measured {
    n: u64,
    calibration: (Calibration, Calibration),
    batch_ns: [Vec<u64>; 4],
    orders: Vec<[u8; 4]>,
    requested_rounds: usize,
    environment: Environment,
    suspend: SuspendWatch,
}

impl Quartet {
    /// Starts the four workers in a random order (each with its own padding and seed, on the
    /// pair's CPU), then moves the parent to its own CPU.
    fn start(plan: &PairPlan<'_>, name: &str, at: Placement, seed: u64) -> Result<Quartet> {
        let mut rng = Rng::new(derive_seed(seed, 10));
        let mut order = [BASE_1, BASE_2, HEAD_1, HEAD_2];
        rng.shuffle(&mut order);
        let mut started: [Option<Worker>; 4] = [None, None, None, None];
        for w in order {
            let launch = Launch {
                padding: rng.below(4097) as usize,
                cpu: at.cpu,
                ..(if w >= HEAD_1 { &plan.head } else { &plan.base }).clone()
            };
            started[w] = Some(Worker::serve(
                &launch,
                name,
                derive_seed(seed, 20 + w as u64),
            )?);
        }
        let workers = started.map(|w| w.expect("every worker was started above"));
        // Waiting for an answer on the workers' CPU would wake there between their batches.
        let parent = at.parent_cpu.map(pin_current_thread).transpose()?;
        Ok(Quartet {
            workers,
            _parent: parent,
        })
    }

    /// Calibrates the batch size (the larger of one head and one baseline worker's), warms
    /// up, and measures rounds until the requested number or the pair's budget, whichever
    /// comes first (never fewer than [`MIN_ROUNDS`]).
    fn measure(&mut self, plan: &PairPlan<'_>, seed: u64) -> Result<Measured> {
        let started = Instant::now();
        let environment = Environment::capture();
        let suspend = SuspendWatch::start();
        let collect = &plan.resolved.collect;
        let copts = collect.calibration_options();
        let calibrate_worker = |w: &mut Worker| {
            calibrate(
                &mut Candidate::timed_elsewhere("worker", |n| w.batch(n)),
                &copts,
            )
        };
        let head = calibrate_worker(&mut self.workers[HEAD_1])?;
        let base = calibrate_worker(&mut self.workers[BASE_1])?;
        // A batch size the bench target fixed (`Bencher::set_options`), the larger of the two
        // builds' so that both run the same; the caller's own fixed size comes first.
        let fixed = self
            .workers
            .iter()
            .map(Worker::inner_loops)
            .max()
            .unwrap_or(0);
        let n = if collect.inner_loops > 0 {
            collect.inner_loops
        } else if fixed > 0 {
            fixed
        } else {
            head.inner_loops.max(base.inner_loops)
        };
        let mut rng = Rng::new(derive_seed(seed, 30));
        // Warm-up: whole rounds, at least the options' count and duration, but never more
        // than a quarter of the pair's budget.
        let warm_until = started + collect.warmup_duration.min(plan.budget / 4);
        let mut warm = 0usize;
        while warm < collect.warmup.max(2) || Instant::now() < warm_until {
            self.round(n, &mut rng)?;
            warm += 1;
        }
        let requested_rounds = collect.repeats.max(MIN_ROUNDS);
        let deadline = started + plan.budget;
        let mut batch_ns: [Vec<u64>; 4] = Default::default();
        let mut orders = Vec::with_capacity(requested_rounds);
        for r in 0..requested_rounds {
            if r >= MIN_ROUNDS && Instant::now() >= deadline {
                break;
            }
            let (order, ns) = self.round(n, &mut rng)?;
            for (series, ns) in batch_ns.iter_mut().zip(ns) {
                series.push(ns);
            }
            orders.push(order);
        }
        Ok(Measured {
            n,
            calibration: (head, base),
            batch_ns,
            orders,
            requested_rounds,
            environment,
            suspend,
        })
    }

    /// One round: a batch of `n` from every worker, in a fresh random order. Returns the order
    /// and the four durations by worker.
    fn round(&mut self, n: u64, rng: &mut Rng) -> Result<([u8; 4], [u64; 4])> {
        let mut order = [0u8, 1, 2, 3];
        rng.shuffle(&mut order);
        let mut ns = [0u64; 4];
        for w in order {
            ns[w as usize] = self.workers[w as usize].batch(n)?;
        }
        Ok((order, ns))
    }
}

/// What [`Measured::analyse`] finds in a pair's series, for its report.
struct PairFindings {
    /// The head's per-operation times, one per round (its two workers' mean).
    head: Vec<f64>,
    /// The baseline's, likewise.
    base: Vec<f64>,
    /// The paired analysis of head against baseline.
    analysis: PairAnalysis,
    /// The seed the analysis resampled with.
    analysis_seed: u64,
    /// The two A/A differences of the regroupings.
    null_deltas: [f64; 2],
    /// The larger of the two A/A differences.
    noise_floor: f64,
    /// The head's median time per operation.
    ns_per_op_a: f64,
    /// The baseline's median time per operation.
    ns_per_op_b: f64,
    /// One clock step as a share of the faster batch.
    quantization: f64,
    /// The verdict against the floor and the clock step.
    verdict: Verdict,
    /// How long the machine was suspended, beyond the threshold.
    suspended: Duration,
    /// The comparison's warnings.
    warnings: Vec<Warning>,
}

impl Measured {
    /// The pair's report: δ from the head's and the baseline's per-round means, its two A/A
    /// differences from the regroupings, the larger of them as the pair's noise floor, and the
    /// verdict against it and the clock step.
    fn report(
        mut self,
        plan: &PairPlan<'_>,
        at: Placement,
        seed: u64,
        elapsed: Duration,
    ) -> Result<Report> {
        let found = self.analyse(plan, seed)?;
        Ok(self.into_report(plan, at, elapsed, found))
    }

    /// The statistics of the pair's series: the paired estimate, the A/A differences and the
    /// floor, the medians, the clock step, the verdict and the warnings (finishing the
    /// environment's watch first, so the warnings see the whole run).
    fn analyse(&mut self, plan: &PairPlan<'_>, seed: u64) -> Result<PairFindings> {
        let o = plan.resolved;
        let n = self.n as f64;
        let per_op = |x: usize, y: usize| -> Vec<f64> {
            self.batch_ns[x]
                .iter()
                .zip(&self.batch_ns[y])
                .map(|(&p, &q)| (p as f64 + q as f64) / (2.0 * n))
                .collect()
        };
        let head = per_op(HEAD_1, HEAD_2);
        let base = per_op(BASE_1, BASE_2);
        let analysis_seed = derive_seed(seed, 40);
        let analysis = PairAnalysis::of(&head, &base, o, analysis_seed)?;
        let null_deltas = [
            stats::paired_relative_difference(&per_op(HEAD_1, BASE_1), &per_op(HEAD_2, BASE_2))?,
            stats::paired_relative_difference(&per_op(HEAD_1, BASE_2), &per_op(HEAD_2, BASE_1))?,
        ];
        let noise_floor = null_deltas[0].abs().max(null_deltas[1].abs());
        let ns_per_op_a = stats::median(&head)?;
        let ns_per_op_b = stats::median(&base)?;
        let faster_batch_ns = n * ns_per_op_a.min(ns_per_op_b);
        let quantization = if faster_batch_ns > 0.0 {
            plan.instrument.precision_ns as f64 / faster_batch_ns
        } else {
            f64::MAX
        };
        let verdict = decide(&analysis.estimate, o.margin, noise_floor, quantization);
        self.environment.finish();
        let suspended = self
            .suspend
            .suspended_beyond_threshold()
            .unwrap_or_default();
        let warnings = self.warnings(o, &analysis, noise_floor, quantization, suspended);
        Ok(PairFindings {
            head,
            base,
            analysis,
            analysis_seed,
            null_deltas,
            noise_floor,
            ns_per_op_a,
            ns_per_op_b,
            quantization,
            verdict,
            suspended,
            warnings,
        })
    }

    /// The report of the pair from what [`Self::analyse`] found, with the pair's series, its
    /// rounds' orders and where it ran.
    fn into_report(
        self,
        plan: &PairPlan<'_>,
        at: Placement,
        elapsed: Duration,
        found: PairFindings,
    ) -> Report {
        let o = plan.resolved;
        let n = self.n as f64;
        let analysis = found.analysis;
        let rounded = |v: &[f64]| v.iter().map(|x| (x * n).round() as u64).collect::<Vec<_>>();
        Report {
            schema_version: REPORT_SCHEMA_VERSION,
            name_a: "head".to_string(),
            name_b: "baseline".to_string(),
            ns_per_op_a: found.ns_per_op_a,
            ns_per_op_b: found.ns_per_op_b,
            ratio: analysis.estimate.ratio(),
            estimate: analysis.estimate,
            confidences: analysis.confidences,
            // The pair's A/A differences stand in for a validation: they are its floor.
            validated: true,
            validation_a: None,
            validation_b: None,
            noise_floor: found.noise_floor,
            margin: o.margin,
            diagnostics: analysis.diagnostics,
            timing: self.timing(plan, found.quantization, found.suspended),
            seed: found.analysis_seed,
            batch_ns_a: rounded(&found.head),
            batch_ns_b: rounded(&found.base),
            samples_a: found.head,
            samples_b: found.base,
            resources: Resources {
                counters: None,
                allocations: None,
                live_heap: None,
            },
            cache: o.collect.cache,
            run: RunInfo {
                cache_info: None,
                width_target_met: None,
                options: plan.options.clone(),
                pinned_cpu: at.cpu,
                environment: self.environment,
                elapsed,
                other_threads_cpu: None,
            },
            context: Context {
                worker_pair: Some(WorkerPair {
                    cpu: at.cpu,
                    parent_cpu: at.parent_cpu,
                    cpus_allowed: at.cpus_allowed,
                    rounds: self.orders.len(),
                    requested_rounds: self.requested_rounds,
                    batch_ns: self.batch_ns,
                    orders: self.orders,
                    null_deltas: found.null_deltas,
                    seconds: elapsed.as_secs_f64(),
                    layout_variant: plan.variant,
                }),
                ..Context::default()
            },
            resolved: matches!(found.verdict, Verdict::AFaster | Verdict::BFaster),
            verdict: found.verdict,
            warnings: found.warnings,
        }
    }

    /// The report's timing: the batch size, both calibrations, the instrument, the clock step
    /// and the suspension.
    fn timing(&self, plan: &PairPlan<'_>, quantization: f64, suspended: Duration) -> Timing {
        let (calibration_a, calibration_b) = self.calibration;
        Timing {
            inner_loops: self.n,
            calibration_a: Some(calibration_a),
            calibration_b: Some(calibration_b),
            instrument: plan.instrument.clone(),
            quantization,
            suspended,
        }
    }

    /// The comparison's warnings on the pair's series. The pair has no A/A validation of its
    /// own workers (its regroupings are its null), so "validation skipped" does not apply.
    fn warnings(
        &self,
        o: &CompareOptions,
        analysis: &PairAnalysis,
        noise_floor: f64,
        quantization: f64,
        suspended: Duration,
    ) -> Vec<Warning> {
        let d: &Diagnostics = &analysis.diagnostics;
        warnings(&WarningInputs {
            validation_a: None,
            validation_b: None,
            drift: [
                (Series::A, &d.drift_a),
                (Series::B, &d.drift_b),
                (Series::Ratio, &d.drift_ratio),
            ],
            autocorrelation: d.autocorrelation_ratio,
            suspended,
            tie_rate: d.tie_rate,
            estimate: &analysis.estimate,
            quantization,
            max_quantization_error: o.collect.max_quantization_error,
            noise_floor,
            margin: o.margin,
            thresholds: &o.thresholds,
            memory_growth: 0,
            live_heap_peak: None,
            other_cpu_share: 0.0,
            load_average: self.environment.load_average_start.map(|l| l[0]),
            cores: self.environment.logical_cores,
            debug_build: self.environment.debug_build,
        })
        .into_iter()
        .filter(|w| !matches!(w, Warning::ValidationSkipped))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_spread_evenly_over_the_allowed_cpus() {
        let allowed = [0, 1];
        let cpus: Vec<Option<usize>> = (0..5)
            .map(|k| Placement::of(&allowed, true, 1, k).cpu)
            .collect();
        assert_eq!(
            cpus,
            [Some(1), Some(0), Some(1), Some(0), Some(1)],
            "consecutive pairs alternate"
        );
        // The parent always waits elsewhere.
        for k in 0..5 {
            let p = Placement::of(&allowed, true, 0, k);
            assert_ne!(p.cpu, p.parent_cpu);
            assert!(p.parent_cpu.is_some());
        }
        // Three CPUs, six pairs: two each.
        let three = [2, 5, 7];
        let mut count = [0; 3];
        for k in 0..6 {
            let cpu = Placement::of(&three, true, 2, k).cpu.unwrap();
            count[three.iter().position(|&c| c == cpu).unwrap()] += 1;
        }
        assert_eq!(count, [2, 2, 2]);
    }

    #[test]
    fn one_allowed_cpu_holds_every_pair_and_the_parent_stays() {
        for k in 0..4 {
            let p = Placement::of(&[3], true, 0, k);
            assert_eq!(p.cpu, Some(3));
            assert_eq!(p.parent_cpu, None);
            assert_eq!(p.cpus_allowed, 1);
        }
    }

    #[test]
    fn unpinned_places_nothing() {
        let p = Placement::of(&[0, 1], false, 0, 0);
        assert_eq!((p.cpu, p.parent_cpu, p.cpus_allowed), (None, None, 2));
        let p = Placement::of(&[], true, 0, 0);
        assert_eq!((p.cpu, p.parent_cpu), (None, None));
    }

    #[test]
    fn the_regroupings_cannot_see_a_difference_between_builds() {
        // Two baseline workers at 100 and 104 ns, two head workers 10 % slower than each.
        let rounds = 30;
        let b1 = vec![100.0; rounds];
        let b2 = vec![104.0; rounds];
        let h1: Vec<f64> = b1.iter().map(|x| x * 1.1).collect();
        let h2: Vec<f64> = b2.iter().map(|x| x * 1.1).collect();
        let sum = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(p, q)| p + q).collect::<Vec<_>>();
        let build = stats::paired_relative_difference(&sum(&h1, &h2), &sum(&b1, &b2)).unwrap();
        assert!((build + 0.10).abs() < 1e-12, "{build}");
        // (h1 + b1) against (h2 + b2): only the workers' 4 % apart, not the builds' 10 %.
        let slot = stats::paired_relative_difference(&sum(&h1, &b1), &sum(&h2, &b2)).unwrap();
        assert!((slot - (1.0 - 100.0 / 104.0)).abs() < 1e-12, "{slot}");
        // (h1 + b2) against (h2 + b1): the 4 % shows only through the builds' 10 %.
        let inter = stats::paired_relative_difference(&sum(&h1, &b2), &sum(&h2, &b1)).unwrap();
        assert!(inter.abs() < 0.005, "{inter}");
    }
}
