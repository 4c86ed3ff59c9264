//! The warnings of a comparison, decided by one pure function on what was measured.

use std::time::Duration;

use crate::compare::report::{
    BUSY_PROCESS_SHARE, DRIFT_WARNING_LEVEL, HIGH_AUTOCORRELATION, HIGH_TIE_RATE,
    LARGE_WORKING_SET_BYTES, QUANTIZATION_GATE, Series, Warning,
};
use crate::compare::validate::HarnessValidation;
use crate::stats::DriftReport;

/// Mean A/A confidence further than this from 0.5, or a false-signal rate above
/// [`MAX_FALSE_SIGNAL_RATE`], marks a validation as unreliable.
const MAX_CONFIDENCE_BIAS: f64 = 0.15;
/// False-signal rate above which a validation is unreliable (0.25: nominal 0.10, and three
/// standard errors above it at 40 runs).
const MAX_FALSE_SIGNAL_RATE: f64 = 0.25;

/// What the warnings are decided on.
pub(crate) struct WarningInputs<'a> {
    pub(crate) validation_a: Option<&'a HarnessValidation>,
    pub(crate) validation_b: Option<&'a HarnessValidation>,
    pub(crate) drift: [(Series, &'a DriftReport); 3],
    pub(crate) autocorrelation: f64,
    pub(crate) suspended: Duration,
    pub(crate) tie_rate: f64,
    pub(crate) delta: f64,
    pub(crate) quantization: f64,
    pub(crate) noise_floor: f64,
    pub(crate) thresholds: &'a [f64],
    pub(crate) memory_growth: u64,
    pub(crate) other_cpu_share: f64,
    pub(crate) load_average: Option<f64>,
    pub(crate) cores: Option<usize>,
    pub(crate) debug_build: bool,
}

/// The warnings of a comparison, in a fixed order. Pure.
pub(crate) fn warnings(i: &WarningInputs<'_>) -> Vec<Warning> {
    let mut w = Vec::new();
    if i.debug_build {
        w.push(Warning::DebugBuild);
    }
    match (i.validation_a, i.validation_b) {
        (Some(va), Some(vb)) => {
            if va.cut_short() {
                w.push(Warning::ValidationCutShort {
                    runs: va.runs,
                    requested: va.requested_runs,
                });
            }
            for (series, v) in [(Series::A, va), (Series::B, vb)] {
                if v.false_signal_rate > MAX_FALSE_SIGNAL_RATE
                    || (v.mean_confidence - 0.5).abs() > MAX_CONFIDENCE_BIAS
                {
                    w.push(Warning::UnreliableValidation {
                        series,
                        false_signal_rate: v.false_signal_rate,
                        mean_confidence: v.mean_confidence,
                    });
                }
            }
        }
        _ => w.push(Warning::ValidationSkipped),
    }
    for (series, d) in i.drift {
        if d.drifted(DRIFT_WARNING_LEVEL) {
            w.push(Warning::Drift {
                series,
                relative_shift: d.relative_shift,
                p_value: d.p_value,
            });
        }
    }
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
    if i.tie_rate > HIGH_TIE_RATE {
        w.push(Warning::HighTieRate {
            tie_rate: i.tie_rate,
        });
    }
    if i.delta.abs() <= 2.0 * QUANTIZATION_GATE * i.quantization {
        w.push(Warning::QuantizationNearDifference {
            delta: i.delta,
            quantization: i.quantization,
        });
    }
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
    if i.memory_growth > LARGE_WORKING_SET_BYTES {
        w.push(Warning::LargeWorkingSet {
            growth_bytes: i.memory_growth,
        });
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::detect_drift;

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

    #[test]
    fn every_warning_has_a_constructed_trigger() {
        let quiet = drift(0.5, 0.0);
        let va = validation(0.002, 0.1, 40, 40);
        let base = WarningInputs {
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
            delta: 0.2,
            quantization: 0.001,
            noise_floor: 0.002,
            thresholds: &[0.05],
            memory_growth: 0,
            other_cpu_share: 0.0,
            load_average: Some(0.5),
            cores: Some(2),
            debug_build: false,
        };
        assert!(warnings(&base).is_empty());
        let codes = |i: &WarningInputs<'_>| -> Vec<&'static str> {
            warnings(i).iter().map(Warning::code).collect()
        };
        assert_eq!(
            codes(&WarningInputs {
                debug_build: true,
                ..base
            }),
            ["debug_build"]
        );
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
        let biased = validation(0.002, 0.4, 40, 40);
        assert_eq!(
            codes(&WarningInputs {
                validation_b: Some(&biased),
                ..base
            }),
            ["unreliable_validation"]
        );
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
            ["drift_a", "drift_b", "drift_ratio"]
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
        assert_eq!(
            codes(&WarningInputs {
                tie_rate: 0.5,
                ..base
            }),
            ["high_tie_rate"]
        );
        assert_eq!(
            codes(&WarningInputs {
                delta: 0.002,
                noise_floor: 0.0,
                ..base
            }),
            ["quantization_near_difference"]
        );
        assert_eq!(
            codes(&WarningInputs {
                noise_floor: 0.08,
                ..base
            }),
            ["noisy_floor"]
        );
        assert_eq!(
            codes(&WarningInputs {
                memory_growth: 64 << 20,
                ..base
            }),
            ["large_working_set"]
        );
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
    }
}
