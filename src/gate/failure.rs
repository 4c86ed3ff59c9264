//! Why a gate failed, and the message a failing test prints: the expectation, the reason with
//! the next step, the interval and floor, and the full report.

use std::fmt;

use crate::compare::gate_record::Expectation;
use crate::compare::report::Report;
use crate::display::{Pct, SignedPct};
use crate::error::Error;

/// Why a gate failed: the expectation was not met, or the measurement itself failed.
#[derive(Debug, Clone)]
pub enum GateFailure {
    /// The expectation did not hold; the report says why.
    Expectation {
        /// The expectation checked.
        expectation: Expectation,
        /// Why it failed, in a sentence with the next step.
        explanation: String,
        /// The full report.
        report: Box<Report>,
    },
    /// The comparison could not run (a panicking candidate, bad options, cancellation, …).
    Measurement {
        /// The gate's name.
        name: String,
        /// The error.
        error: Error,
    },
}

impl GateFailure {
    /// The report, when the comparison ran.
    pub fn report(&self) -> Option<&Report> {
        match self {
            GateFailure::Expectation { report, .. } => Some(report),
            GateFailure::Measurement { .. } => None,
        }
    }
}

impl fmt::Display for GateFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GateFailure::Measurement { name, error } => {
                write!(f, "performance gate {name:?} could not measure: {error}")
            }
            GateFailure::Expectation {
                expectation,
                explanation,
                report,
            } => {
                let name = report
                    .context
                    .gate
                    .as_ref()
                    .map_or("gate", |g| g.name.as_str());
                writeln!(f, "performance gate {name:?} FAILED")?;
                writeln!(f, "expected: {expectation}")?;
                writeln!(f, "why: {explanation}")?;
                if let Some(p) = report.context.gate.as_ref().and_then(|g| g.pooled.as_ref()) {
                    writeln!(f, "pooled across processes:")?;
                    write!(f, "{p}")?;
                    writeln!(f)?;
                    writeln!(f, "the median process (A = candidate, B = baseline):")?;
                    return write!(f, "{report}");
                }
                writeln!(f, "verdict: {}", report.verdict)?;
                let e = &report.estimate;
                writeln!(
                    f,
                    "candidate/baseline − 1: {} ({} interval [{}, {}])",
                    SignedPct(-e.delta),
                    crate::display::Level(e.level),
                    SignedPct(-e.high),
                    SignedPct(-e.low)
                )?;
                writeln!(f, "noise floor: {}", Pct(report.noise_floor))?;
                if report.warnings.is_empty() {
                    writeln!(f, "warnings: none")?;
                } else {
                    writeln!(f, "warnings:")?;
                    for w in &report.warnings {
                        writeln!(f, "  - {w}")?;
                    }
                }
                if let Some(p) = report
                    .context
                    .gate
                    .as_ref()
                    .and_then(|g| g.json_path.as_ref())
                {
                    writeln!(f, "report JSON: {p}")?;
                }
                writeln!(f)?;
                writeln!(f, "full report (A = candidate, B = baseline):")?;
                write!(f, "{report}")
            }
        }
    }
}

impl std::error::Error for GateFailure {}
