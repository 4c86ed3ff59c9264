//! What a gate records in a [`Report`](crate::Report): the expectation, the effort and the
//! outcome. Plain data, below the report, so the report never imports the gate that fills it.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::compare::options::CompareOptions;
use crate::display::Pct;
use crate::error::Error;

/// What a gate expects of the candidate, fixed before measuring. Fractions of the baseline's
/// time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Expectation {
    /// The candidate is not slower than the baseline by more than `budget` (0.05 = 5 %): it
    /// fails when proven slower with an estimated slowdown above the budget
    /// ([`over_budget`](crate::stats::over_budget)); measured in one process, a would-be
    /// failure is measured again and stands only when the second measurement fails too.
    NotSlower {
        /// Tolerated slowdown, `candidate/baseline − 1`, at least 0.
        budget: f64,
    },
    /// The candidate needs at least `by` less time than the baseline (0.10 = 10 % less).
    Faster {
        /// Required time saved, `1 − candidate/baseline`, in [0, 1).
        by: f64,
    },
    /// The two are equivalent within ±`margin`.
    Equivalent {
        /// Half-width of the equivalence band, in (0, 1).
        margin: f64,
    },
}

impl Expectation {
    pub(crate) fn check(&self) -> Result<(), Error> {
        let (name, v, ok, expected) = match *self {
            Expectation::NotSlower { budget } => (
                "budget",
                budget,
                budget >= 0.0 && budget.is_finite(),
                "a finite budget >= 0",
            ),
            Expectation::Faster { by } => ("by", by, (0.0..1.0).contains(&by), "0 <= by < 1"),
            Expectation::Equivalent { margin } => (
                "margin",
                margin,
                margin > 0.0 && margin < 1.0,
                "0 < margin < 1",
            ),
        };
        if ok {
            Ok(())
        } else {
            Err(Error::out_of_range(name, v, expected))
        }
    }
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Expectation::NotSlower { budget } => {
                write!(
                    f,
                    "candidate not slower than baseline by more than {}",
                    Pct(budget)
                )
            }
            Expectation::Faster { by } => {
                write!(
                    f,
                    "candidate needs at least {} less time than baseline",
                    Pct(by)
                )
            }
            Expectation::Equivalent { margin } => {
                write!(
                    f,
                    "candidate equivalent to baseline within ±{}",
                    Pct(margin)
                )
            }
        }
    }
}

/// How much of the protocol a gate runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effort {
    /// 10 A/A runs, 51 pairs, 2,000 resamples, 100 ms warm-up: about a third of the time, for
    /// local runs. The floor is rougher.
    Quick,
    /// The full protocol at its defaults (40 A/A runs, 101 pairs, 5,000 resamples, 300 ms).
    #[default]
    Full,
}

impl Effort {
    /// Applies this effort to options the caller left at their defaults.
    pub(crate) fn apply(self, mut o: CompareOptions) -> CompareOptions {
        if self == Effort::Quick {
            let d = CompareOptions::default();
            if o.validation_runs == d.validation_runs {
                o.validation_runs = 10;
            }
            if o.collect.repeats == d.collect.repeats {
                o.collect.repeats = 51;
            }
            if o.resamples == d.resamples {
                o.resamples = 2_000;
            }
            if o.collect.warmup_duration == d.collect.warmup_duration {
                o.collect.warmup_duration = Duration::from_millis(100);
            }
        }
        o
    }
}

/// What a gate recorded about itself, carried in the report's
/// [`context.gate`](crate::compare::report::Context::gate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateInfo {
    /// The gate's name (the test's name by default).
    pub name: String,
    /// The expectation checked.
    pub expectation: Expectation,
    /// The effort used.
    pub effort: Effort,
    /// The value of `RTCOMPARE_EFFORT` when the gate ran (`None` if unset).
    pub effort_env: Option<String>,
    /// The value of `RTCOMPARE_GATE` when the gate ran (`None` if unset).
    pub gate_env: Option<String>,
    /// Whether the expectation held.
    pub passed: bool,
    /// Why, in a sentence.
    pub explanation: String,
    /// Where the JSON was written, if it was.
    pub json_path: Option<String>,
    /// The result pooled across processes the gate decided on, when it ran in several
    /// ([`GateOptions::processes`](crate::gate::GateOptions::processes)).
    #[serde(default)]
    pub pooled: Option<crate::stats::Pooled>,
}
