//! The warnings of a comparison, decided by one pure function on what was measured.

use std::time::Duration;

use crate::compare::report::{
    BUSY_PROCESS_SHARE, DRIFT_WARNING_LEVEL, HIGH_AUTOCORRELATION, HIGH_TIE_RATE,
    LARGE_WORKING_SET_BYTES, MACHINE_DRIFT_SHIFT, NOISE_CHANGE_FACTOR, Series, VALIDATION_LIMIT_SE,
    Warning, WorkingSetMeasure,
};
use crate::compare::validate::HarnessValidation;
use crate::stats::decide;
use crate::stats::{DriftReport, Estimate, QUANTIZATION_GATE, Verdict};

/// Standard deviation of a confidence spread uniformly over [0, 1]: 1/√12.
const UNIFORM_SD: f64 = 0.288_675_134_594_812_9;

/// Whether an A/A validation misbehaved: its false-signal rate, or its mean confidence's
/// distance from 0.5, more than `VALIDATION_LIMIT_SE` (3.0) standard errors above nominal for its
/// run count and level. Pure.
pub(crate) fn validation_unreliable(v: &HarnessValidation) -> bool {
    let runs = v.runs.max(1) as f64;
    let p = 2.0 * (1.0 - v.level);
    let rate_limit = p + VALIDATION_LIMIT_SE * (p * (1.0 - p) / runs).sqrt();
    let bias_limit = VALIDATION_LIMIT_SE * UNIFORM_SD / runs.sqrt();
    v.false_signal_rate > rate_limit || (v.mean_confidence - 0.5).abs() > bias_limit
}

/// What the warnings are decided on.
pub(crate) struct WarningInputs<'a> {
    pub(crate) validation_a: Option<&'a HarnessValidation>,
    pub(crate) validation_b: Option<&'a HarnessValidation>,
    pub(crate) drift: [(Series, &'a DriftReport); 3],
    /// Lag-1 autocorrelation of the ratio series B/A.
    pub(crate) autocorrelation: f64,
    pub(crate) suspended: Duration,
    pub(crate) tie_rate: f64,
    pub(crate) estimate: &'a Estimate,
    pub(crate) quantization: f64,
    /// The clock step the batch size was calibrated to stay within (fraction).
    pub(crate) max_quantization_error: f64,
    pub(crate) noise_floor: f64,
    /// The margin the verdict was judged against (fraction).
    pub(crate) margin: f64,
    pub(crate) thresholds: &'a [f64],
    pub(crate) memory_growth: u64,
    /// The peak live heap, when a counting allocator knows it; preferred over `memory_growth`.
    pub(crate) live_heap_peak: Option<u64>,
    pub(crate) other_cpu_share: f64,
    pub(crate) load_average: Option<f64>,
    pub(crate) cores: Option<usize>,
    pub(crate) debug_build: bool,
}

/// The warnings of a comparison, in a fixed order. Pure.
pub(crate) fn warnings(i: &WarningInputs<'_>) -> Vec<Warning> {
    let mut w = Vec::new();
    let far_inside = far_inside_margin(i);
    if i.debug_build {
        w.push(Warning::DebugBuild);
    }
    push_validation_warnings(i, far_inside, &mut w);
    push_drift_warnings(i, &mut w);
    if i.autocorrelation > HIGH_AUTOCORRELATION {
        w.push(Warning::HighAutocorrelation {
            autocorrelation: i.autocorrelation,
        });
    }
    if !i.suspended.is_zero() {
        w.push(Warning::Suspended {
            seconds: i.suspended.as_secs_f64(),
        });
    }
    push_interval_warnings(i, far_inside, &mut w);
    push_floor_warning(i, &mut w);
    push_machine_warnings(i, &mut w);
    w
}

/// Whether the comparison is settled as equivalent with room to spare: an interval, a floor
/// and a clock step all within half the margin.
fn far_inside_margin(i: &WarningInputs<'_>) -> bool {
    // Then neither ties nor an A/A rate that undersells the floor can move either end to the
    // margin. Warning about them told users of identical candidates their settled answer was
    // suspect (README's sum against fold).
    let e = i.estimate;
    i.margin > 0.0
        && e.low.abs().max(e.high.abs()) <= i.margin / 2.0
        && i.noise_floor <= i.margin / 2.0
        && i.quantization <= i.margin / 2.0
}

/// Pushes the A/A validation's warnings: skipped, cut short, or unreliable for either series
/// (the last only when the comparison is not `far_inside` its margin).
fn push_validation_warnings(i: &WarningInputs<'_>, far_inside: bool, w: &mut Vec<Warning>) {
    match (i.validation_a, i.validation_b) {
        (Some(va), Some(vb)) => {
            if va.cut_short() {
                w.push(Warning::ValidationCutShort {
                    runs: va.runs,
                    requested: va.requested_runs,
                });
            }
            for (series, v) in [(Series::A, va), (Series::B, vb)] {
                if validation_unreliable(v) && !far_inside {
                    w.push(Warning::UnreliableValidation {
                        series,
                        false_signal_rate: v.false_signal_rate,
                        mean_confidence: v.mean_confidence,
                        nominal_rate: 2.0 * (1.0 - v.level),
                        runs: v.runs,
                    });
                }
            }
        }
        _ => w.push(Warning::ValidationSkipped),
    }
}

/// Pushes a drift warning for each series whose drift is material.
fn push_drift_warnings(i: &WarningInputs<'_>, w: &mut Vec<Warning>) {
    for (series, d) in i.drift {
        // The ratio carries the verdict; A and B alone mostly see the machine, so their drift
        // is reported only when it is large enough to blend two machine states.
        let material = series == Series::Ratio || d.relative_shift.abs() > MACHINE_DRIFT_SHIFT;
        if d.n > 0 && d.drifted(DRIFT_WARNING_LEVEL) && material {
            w.push(Warning::Drift {
                series,
                relative_shift: d.relative_shift,
                p_value: d.p_value,
            });
        }
    }
}

/// Pushes the warnings about the estimate's interval: ties pinning an end to zero, a verdict
/// resting on one clock step, and an interval much wider than the A/A noise.
fn push_interval_warnings(i: &WarningInputs<'_>, far_inside: bool, w: &mut Vec<Warning>) {
    let e = i.estimate;
    // Ties matter when they pin an end of the interval to exactly zero and the batches are
    // coarser than calibration would have made them (a fixed or cold batch size): then longer
    // batches could move the end across. Batches calibrated to the clock already keep every
    // difference the ties can hide below the quantization gate.
    if i.tie_rate > HIGH_TIE_RATE
        && !far_inside
        && (e.low == 0.0 || e.high == 0.0)
        && i.quantization > i.max_quantization_error
    {
        w.push(Warning::HighTieRate {
            tie_rate: i.tie_rate,
        });
    }
    if quantization_could_change_verdict(e, i.margin, i.noise_floor, i.quantization) {
        w.push(Warning::QuantizationNearDifference {
            delta: e.delta,
            quantization: i.quantization,
        });
    }
    if i.validation_a.is_some() {
        let yardstick = i.noise_floor.max(QUANTIZATION_GATE * i.quantization);
        let half_width = e.half_width();
        if yardstick > 0.0 && half_width > NOISE_CHANGE_FACTOR * yardstick {
            w.push(Warning::NoiseChanged {
                half_width,
                yardstick,
            });
        }
    }
}

/// Pushes the noisy-floor warning when the noise floor exceeds the smallest usable threshold.
fn push_floor_warning(i: &WarningInputs<'_>, w: &mut Vec<Warning>) {
    let smallest = i
        .thresholds
        .iter()
        .map(|t| t.abs())
        .filter(|t| *t > 0.0 && t.is_finite())
        .fold(f64::INFINITY, f64::min);
    if smallest.is_finite() && i.noise_floor > smallest {
        w.push(Warning::NoisyFloor {
            noise_floor: i.noise_floor,
            threshold: smallest,
        });
    }
}

/// Pushes the warnings about the process and machine: a busy process, a busy machine and a
/// large working set.
fn push_machine_warnings(i: &WarningInputs<'_>, w: &mut Vec<Warning>) {
    if i.other_cpu_share > BUSY_PROCESS_SHARE {
        w.push(Warning::BusyProcess {
            other_cpu_share: i.other_cpu_share,
        });
    }
    if let (Some(load), Some(cores)) = (i.load_average, i.cores)
        && load >= cores as f64
    {
        w.push(Warning::BusyMachine {
            load_average: load,
            cores,
        });
    }
    // The live heap sees fixtures built before the comparison; peak-RSS growth does not.
    let (bytes, measure) = match i.live_heap_peak {
        Some(peak) => (peak, WorkingSetMeasure::LiveHeap),
        None => (i.memory_growth, WorkingSetMeasure::PeakRssGrowth),
    };
    if bytes > LARGE_WORKING_SET_BYTES {
        w.push(Warning::LargeWorkingSet { bytes, measure });
    }
}

/// Whether a verdict rests on one clock step: the comparison resolved, and moving the estimate
/// and its interval by one clock step toward zero, as a share of the faster batch
/// (what rounding can do to a ratio of two batches), makes [`decide`] refuse it.
///
/// Only claims are checked. A "cannot tell" states no difference that a clock step could have
/// invented, and rounding of batches whose start falls at a random phase of the clock adds
/// noise to the pairs, already in the interval, rather than a whole step to every one of them;
/// so "a step outward would have resolved it" is no reason to distrust an unresolved report.
/// Warning on it misled: it fired on healthy, correctly unresolved A/A comparisons (docs/background.md,
/// section "Warnings that speak only when they mean something"). When the verdict already
/// is "below quantization" its reason says so, and no warning repeats it.
fn quantization_could_change_verdict(
    e: &Estimate,
    margin: f64,
    floor: f64,
    quantization: f64,
) -> bool {
    let verdict = decide(e, margin, floor, quantization);
    if !matches!(verdict, Verdict::AFaster | Verdict::BFaster) {
        return false;
    }
    // Toward zero: down for a positive δ, up for a negative one.
    let g = -quantization * e.delta.signum();
    let mut moved = *e;
    moved.delta += g;
    moved.low += g;
    moved.high += g;
    decide(&moved, margin, floor, quantization) != verdict
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::detect_drift;
    use crate::stats::est;

    fn drift(p: f64, shift: f64) -> DriftReport {
        let mut d = detect_drift(&[1.0, 2.0, 1.0, 2.0]).unwrap();
        d.p_value = p;
        d.relative_shift = shift;
        d
    }

    fn validation(
        floor: f64,
        false_signals: f64,
        runs: usize,
        requested: usize,
    ) -> HarnessValidation {
        let r = crate::compare::validate::ValidationRun {
            delta: floor,
            confidence: 0.5,
            tie_rate: 0.0,
            drift_p: [0.5; 2],
            drift_shift: [0.0; 2],
            autocorrelation: [0.0; 2],
        };
        let mut v = HarnessValidation::from_runs(&[r, r], 10, 0.95, requested).unwrap();
        v.runs = runs;
        v.false_signal_rate = false_signals;
        v
    }

    /// The quantization warning alone, on an otherwise quiet comparison.
    fn quantization_warns(e: &Estimate, noise_floor: f64, quantization: f64) -> bool {
        let quiet = drift(0.5, 0.0);
        let va = validation(noise_floor, 0.1, 40, 40);
        warnings(&WarningInputs {
            validation_a: Some(&va),
            validation_b: Some(&va),
            drift: [
                (Series::A, &quiet),
                (Series::B, &quiet),
                (Series::Ratio, &quiet),
            ],
            autocorrelation: 0.0,
            suspended: Duration::ZERO,
            tie_rate: 0.0,
            estimate: e,
            quantization,
            max_quantization_error: 0.001,
            noise_floor,
            margin: 0.0,
            thresholds: &[0.05],
            memory_growth: 0,
            live_heap_peak: None,
            other_cpu_share: 0.0,
            load_average: None,
            cores: None,
            debug_build: false,
        })
        .iter()
        .any(|w| w.code() == "quantization_near_difference")
    }

    #[test]
    fn half_a_step_carried_onto_the_gate_does_not_warn() {
        // The reported case: an A/A of a 2.2 µs dependent chain, calibrated to 13 operations
        // a batch (about 29.1 µs) on a 25 ns step, so one step is 0.086 % of a batch and the
        // gate 0.129 %. δ sat at half a step (measured 0.501 of it), the interval within
        // ±0.1 % of zero, the floor at half a step: "cannot tell" on the interval and on the
        // gate at once. One whole step outward lands on the gate (1.502 steps), which only the
        // step's own imprecision pushes past; no clock step decides this verdict.
        let q = 25.0 / 29_070.0;
        let aa = est(0.502 * q, -0.5 * q, 1.05 * q);
        assert!(aa.low > -0.001 && aa.high < 0.001, "{aa:?}");
        assert!(!quantization_warns(&aa, 0.5 * q, q));
        // An unresolved comparison that a whole step outward would resolve makes no claim a
        // step could have invented: no warning (it warned before only claims were checked).
        let one_step = est(q, -0.5 * q, 1.6 * q);
        assert!(!quantization_warns(&one_step, 0.5 * q, q));
        // And a resolved difference one step above the gate, which a step down would refuse.
        let near = est(2.4 * q, 2.0 * q, 2.8 * q);
        assert!(quantization_warns(&near, 0.5 * q, q));
    }

    /// Calls `check` with quiet inputs that raise no warning: every test below changes one
    /// or two of their fields to trigger one warning.
    fn with_quiet_inputs(check: impl FnOnce(WarningInputs<'_>)) {
        let quiet = drift(0.5, 0.0);
        let resolved = est(0.2, 0.198, 0.202);
        let va = validation(0.002, 0.1, 40, 40);
        check(WarningInputs {
            margin: 0.0,
            validation_a: Some(&va),
            validation_b: Some(&va),
            drift: [
                (Series::A, &quiet),
                (Series::B, &quiet),
                (Series::Ratio, &quiet),
            ],
            autocorrelation: 0.05,
            suspended: Duration::ZERO,
            tie_rate: 0.01,
            estimate: &resolved,
            quantization: 0.001,
            max_quantization_error: 0.001,
            noise_floor: 0.002,
            thresholds: &[0.05],
            memory_growth: 0,
            live_heap_peak: None,
            other_cpu_share: 0.0,
            load_average: Some(0.5),
            cores: Some(2),
            debug_build: false,
        });
    }

    /// The codes of the warnings `i` raises, in order.
    fn codes(i: &WarningInputs<'_>) -> Vec<&'static str> {
        warnings(i).iter().map(Warning::code).collect()
    }

    #[test]
    fn every_warning_has_a_constructed_trigger() {
        with_quiet_inputs(|base| {
            assert!(warnings(&base).is_empty());
            assert_eq!(
                codes(&WarningInputs {
                    debug_build: true,
                    ..base
                }),
                ["debug_build"]
            );
        });
    }

    #[test]
    fn validation_warnings_have_constructed_triggers() {
        with_quiet_inputs(|base| {
            assert_eq!(
                codes(&WarningInputs {
                    validation_a: None,
                    validation_b: None,
                    ..base
                }),
                ["validation_skipped"]
            );
            let cut = validation(0.002, 0.1, 10, 40);
            assert_eq!(
                codes(&WarningInputs {
                    validation_a: Some(&cut),
                    validation_b: Some(&cut),
                    ..base
                }),
                ["validation_cut_short"]
            );
            // The limits scale with the runs: 30 % false signals is too many over 40 runs
            // (limit 24 %), not over 10 (limit 38 %).
            let biased = validation(0.002, 0.3, 40, 40);
            let few = validation(0.002, 0.3, 10, 10);
            assert!(
                codes(&WarningInputs {
                    validation_a: Some(&few),
                    validation_b: Some(&few),
                    ..base
                })
                .is_empty()
            );
            let w = warnings(&WarningInputs {
                validation_b: Some(&biased),
                ..base
            });
            assert!(w[0].to_string().contains("(nominal 10 %)"), "{}", w[0]);
            assert_eq!(
                codes(&WarningInputs {
                    validation_b: Some(&biased),
                    ..base
                }),
                ["unreliable_validation"]
            );
        });
    }

    #[test]
    fn series_warnings_have_constructed_triggers() {
        with_quiet_inputs(|base| {
            let quiet = drift(0.5, 0.0);
            let moved = drift(0.001, -0.07);
            assert_eq!(
                codes(&WarningInputs {
                    drift: [
                        (Series::A, &moved),
                        (Series::B, &moved),
                        (Series::Ratio, &moved)
                    ],
                    ..base
                }),
                ["drift_ratio"],
                "a 7 % shift of A or B alone is the machine's, not the verdict's"
            );
            let far = drift(0.001, 0.2);
            assert_eq!(
                codes(&WarningInputs {
                    drift: [
                        (Series::A, &far),
                        (Series::B, &far),
                        (Series::Ratio, &quiet)
                    ],
                    ..base
                }),
                ["drift_a", "drift_b"]
            );
            let untested = DriftReport::not_run();
            assert!(
                codes(&WarningInputs {
                    drift: [
                        (Series::A, &quiet),
                        (Series::B, &quiet),
                        (Series::Ratio, &untested)
                    ],
                    ..base
                })
                .is_empty()
            );
            assert_eq!(
                codes(&WarningInputs {
                    autocorrelation: 0.5,
                    ..base
                }),
                ["high_autocorrelation"]
            );
            assert_eq!(
                codes(&WarningInputs {
                    suspended: Duration::from_secs(5),
                    ..base
                }),
                ["suspended"]
            );
        });
    }

    #[test]
    fn tie_warnings_have_constructed_triggers() {
        with_quiet_inputs(|base| {
            let biased = validation(0.002, 0.3, 40, 40);
            // Ties matter only when they pin an end of the interval to zero.
            assert!(
                codes(&WarningInputs {
                    tie_rate: 0.5,
                    ..base
                })
                .is_empty()
            );
            let pinned = est(0.0, 0.0, 0.0);
            // With batches calibrated to the clock, ties only hide what the gate refuses
            // anyway; with batches fixed shorter (here a 5 % clock step), longer batches could
            // help.
            assert!(
                codes(&WarningInputs {
                    tie_rate: 0.5,
                    estimate: &pinned,
                    ..base
                })
                .is_empty()
            );
            assert_eq!(
                codes(&WarningInputs {
                    tie_rate: 0.5,
                    estimate: &pinned,
                    quantization: 0.05,
                    ..base
                }),
                ["high_tie_rate"]
            );
            // Far inside a margin (an interval, a floor and a clock step within half of it),
            // neither ties nor an A/A rate that undersells the floor can change the answer.
            assert!(
                codes(&WarningInputs {
                    tie_rate: 0.5,
                    estimate: &pinned,
                    quantization: 0.002,
                    validation_b: Some(&biased),
                    margin: 0.005,
                    ..base
                })
                .is_empty()
            );
            // Near the margin they still speak, and so they do when the clock step is coarse.
            for (margin, quantization) in [(0.003, 0.002), (0.005, 0.05)] {
                assert_eq!(
                    codes(&WarningInputs {
                        tie_rate: 0.5,
                        estimate: &pinned,
                        quantization,
                        validation_b: Some(&biased),
                        margin,
                        ..base
                    }),
                    ["unreliable_validation", "high_tie_rate"]
                );
            }
        });
    }

    #[test]
    fn interval_warnings_have_constructed_triggers() {
        with_quiet_inputs(|base| {
            // Resolved 2 % with a 1.5 % gate: one 1 % clock step lower would be "below
            // quantization".
            let near = est(0.02, 0.018, 0.022);
            assert_eq!(
                codes(&WarningInputs {
                    estimate: &near,
                    quantization: 0.01,
                    ..base
                }),
                ["quantization_near_difference"]
            );
            // Identical code a fraction of a gate from zero: no step can produce a verdict.
            let null = est(0.0, -0.001, 0.001);
            assert!(
                codes(&WarningInputs {
                    estimate: &null,
                    quantization: 0.001,
                    ..base
                })
                .is_empty()
            );
            // Already "below quantization": the verdict's reason says it, no warning repeats
            // it.
            let below = est(0.01, 0.008, 0.012);
            assert!(
                codes(&WarningInputs {
                    estimate: &below,
                    quantization: 0.01,
                    ..base
                })
                .is_empty()
            );
            let wide = est(0.2, 0.1, 0.3);
            assert_eq!(
                codes(&WarningInputs {
                    estimate: &wide,
                    ..base
                }),
                ["noise_changed"]
            );
            assert_eq!(
                codes(&WarningInputs {
                    noise_floor: 0.08,
                    ..base
                }),
                ["noisy_floor"]
            );
        });
    }

    #[test]
    fn working_set_warning_has_a_constructed_trigger() {
        with_quiet_inputs(|base| {
            assert_eq!(
                codes(&WarningInputs {
                    memory_growth: 64 << 20,
                    ..base
                }),
                ["large_working_set"]
            );
            // The live heap, when known, decides instead of the RSS growth, and the warning
            // says which it used.
            let large = |i: &WarningInputs<'_>| {
                warnings(i)
                    .into_iter()
                    .filter(|w| w.code() == "large_working_set")
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                large(&WarningInputs {
                    memory_growth: 64 << 20,
                    ..base
                }),
                [Warning::LargeWorkingSet {
                    bytes: 64 << 20,
                    measure: WorkingSetMeasure::PeakRssGrowth
                }]
            );
            assert_eq!(
                large(&WarningInputs {
                    live_heap_peak: Some(40 << 20),
                    ..base
                }),
                [Warning::LargeWorkingSet {
                    bytes: 40 << 20,
                    measure: WorkingSetMeasure::LiveHeap
                }]
            );
            assert!(
                large(&WarningInputs {
                    live_heap_peak: Some(LARGE_WORKING_SET_BYTES),
                    memory_growth: 64 << 20,
                    ..base
                })
                .is_empty(),
                "a known live heap at the threshold is not above it, whatever the RSS did"
            );
        });
    }

    #[test]
    fn load_warnings_have_constructed_triggers() {
        with_quiet_inputs(|base| {
            assert_eq!(
                codes(&WarningInputs {
                    other_cpu_share: 0.9,
                    ..base
                }),
                ["busy_process"]
            );
            assert_eq!(
                codes(&WarningInputs {
                    load_average: Some(2.4),
                    ..base
                }),
                ["busy_machine"]
            );
            // Unknown load or cores: no claim either way.
            assert!(
                codes(&WarningInputs {
                    load_average: None,
                    ..base
                })
                .is_empty()
            );
        });
    }
}
