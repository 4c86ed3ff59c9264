//! The verdict rule, [`decide`]: pure, on an estimate, a floor and a clock step.

use crate::compare::report::{QUANTIZATION_GATE, Unresolved, Verdict};
use crate::stats::Estimate;

/// The verdict rule of [`compare`](crate::compare()), as a pure function: `AFaster`/`BFaster` only when the
/// interval excludes zero, the point estimate lies on the same side, |δ| exceeds
/// `noise_floor`, and |δ| exceeds [`QUANTIZATION_GATE`] × `quantization`; otherwise
/// `CannotTell` naming the first bar missed in that order. All arguments are fractions.
///
/// ```
/// use rtcompare::{decide, Verdict, stats::{estimate_difference, EstimateOptions}};
/// let a = [90.0, 91.0, 89.0, 90.5, 90.0, 89.5, 90.2, 90.1, 89.9, 90.3, 90.0];
/// let b = [100.0, 101.0, 99.0, 100.5, 100.0, 99.5, 100.2, 100.1, 99.9, 100.3, 100.0];
/// let e = estimate_difference(&a, &b, &EstimateOptions::default().paired(true).seed(1))?;
/// assert_eq!(decide(&e, 0.01, 0.0001), Verdict::AFaster);
/// assert!(matches!(decide(&e, 0.5, 0.0001), Verdict::CannotTell(_)));
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn decide(estimate: &Estimate, noise_floor: f64, quantization: f64) -> Verdict {
    let Estimate {
        delta, low, high, ..
    } = *estimate;
    if !estimate.excludes(0.0) {
        return Verdict::CannotTell(Unresolved::IntervalContainsZero { low, high });
    }
    if (low > 0.0) != (delta > 0.0) || delta == 0.0 {
        return Verdict::CannotTell(Unresolved::Unstable { delta, low, high });
    }
    if delta.abs() <= noise_floor {
        return Verdict::CannotTell(Unresolved::WithinNoiseFloor { delta, noise_floor });
    }
    let gate = QUANTIZATION_GATE * quantization;
    if delta.abs() <= gate {
        return Verdict::CannotTell(Unresolved::BelowQuantization { delta, gate });
    }
    if delta > 0.0 {
        Verdict::AFaster
    } else {
        Verdict::BFaster
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{self, EstimateOptions};

    fn est(delta: f64, low: f64, high: f64) -> Estimate {
        let a = [100.0; 11];
        let mut e =
            stats::estimate_difference(&a, &a, &EstimateOptions::default().seed(1)).unwrap();
        e.delta = delta;
        e.low = low;
        e.high = high;
        e
    }

    #[test]
    fn decide_names_the_first_bar_missed() {
        assert_eq!(decide(&est(0.1, 0.08, 0.12), 0.01, 0.001), Verdict::AFaster);
        assert_eq!(
            decide(&est(-0.1, -0.12, -0.08), 0.01, 0.001),
            Verdict::BFaster
        );
        assert!(matches!(
            decide(&est(0.01, -0.01, 0.03), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::IntervalContainsZero { .. })
        ));
        assert!(matches!(
            decide(&est(0.0, 0.0, 0.01), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::IntervalContainsZero { .. })
        ));
        assert!(matches!(
            decide(&est(-0.001, 0.001, 0.01), 0.0, 0.0),
            Verdict::CannotTell(Unresolved::Unstable { .. })
        ));
        assert!(matches!(
            decide(&est(0.01, 0.008, 0.012), 0.01, 0.0),
            Verdict::CannotTell(Unresolved::WithinNoiseFloor { .. })
        ));
        assert!(matches!(
            decide(&est(0.01, 0.008, 0.012), 0.005, 0.01),
            Verdict::CannotTell(Unresolved::BelowQuantization { .. })
        ));
    }
}
