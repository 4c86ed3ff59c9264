//! The warnings of a finished measurement: what the run times, the floor and the intervals
//! show that deserves a second look before the verdict is trusted. Pure, like the rest of the
//! analysis; `Display` words each as one sentence.

use serde::{Deserialize, Serialize};

use rtcompare::stats::{self, Estimate, detect_drift};
use rtcompare::support::display::Pct;
use rtcompare::support::stats::{
    DRIFT_LEVEL, DRIFT_MIN_SAMPLES, FewRunsOutcome, FewRunsRule, few_runs_verdict,
};

use super::{Floor, Rule};

/// A run of the sides' own series that deserves a second look; `Display` is one sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Warning {
    /// A side's run times trend with their position (Spearman test, p < 0.05, and the halves'
    /// medians differ by more than 1 %).
    Drift {
        /// `A` or `B` (with more than two commands, the command's label).
        side: String,
        /// Second half's median over the first's, minus 1 (fraction).
        shift: f64,
        /// The trend test's p-value.
        p_value: f64,
    },
    /// A side's first timed run was much slower than the rest: a cache not yet warm.
    SlowFirstRun {
        /// `A` or `B` (with more than two commands, the command's label).
        side: String,
        /// The first run (ns).
        first_ns: f64,
        /// The median of the others (ns).
        median_ns: f64,
    },
    /// The medians differ but the best runs do not: the signature of two timing modes.
    TimingModes {
        /// `median(B) / median(A)`.
        ratio: f64,
        /// `min(B) / min(A)`.
        best_ratio: f64,
        /// With more than two commands, the label of the command compared with the reference.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<String>,
    },
    /// A side's median run is less than twice the time to start and reap an empty command.
    NearStartFloor {
        /// `A` or `B` (with more than two commands, the command's label).
        side: String,
        /// The side's median (ns).
        median_ns: f64,
        /// The empty command's median (ns).
        floor_ns: f64,
    },
    /// A/A validation was skipped.
    NoValidation,
    /// `--runs N` with N below 22: every run was compared and no A/A floor was measured.
    NoFloorWithinRuns {
        /// The `--runs` given.
        runs: usize,
    },
    /// Under the few-runs rule, identical commands were not judged parity.
    AaNotParity {
        /// `A` or `B` (with more than two commands, the command's label).
        side: String,
        /// The outcome for the identical pair.
        outcome: FewRunsOutcome,
    },
    /// The time budget ran out before the interval reached the requested width.
    NotPrecise {
        /// The interval's half-width on the relative difference (fraction).
        half_width: f64,
        /// The requested `--width` (fraction).
        width: f64,
        /// With more than two commands, the label of the command whose comparison with the
        /// reference this interval is (each too wide one gets its own warning).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<String>,
    },
    /// The time budget ran out before 11 pairs, so the few-runs rule decided.
    CutShort {
        /// Pairs measured.
        pairs: usize,
    },
    /// The runs were imported from hyperfine: unpaired, no A/A floor, no CPU or RSS.
    Imported,
    /// Runs that failed were timed because of `--ignore-failure`.
    FailuresIgnored {
        /// How many timed runs failed.
        failed: usize,
    },
    /// Some of a side's times are 0: hyperfine clamps its shell-corrected times at 0, so an
    /// imported export of a fast command holds them.
    ZeroTimes {
        /// `A` or `B` (with more than two commands, the command's label).
        side: String,
        /// How many times are 0.
        zeros: usize,
        /// How many times the side has.
        runs: usize,
    },
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::Drift { .. }
            | Warning::SlowFirstRun { .. }
            | Warning::NearStartFloor { .. }
            | Warning::ZeroTimes { .. } => self.fmt_runs(f),
            Warning::TimingModes {
                ratio,
                best_ratio,
                command,
            } => write!(
                f,
                "the medians{} differ (ratio {ratio:.3}) but the best runs do not (ratio \
                 {best_ratio:.3}): the signature of two timing modes, not of different code",
                command
                    .as_ref()
                    .map_or(String::new(), |c| format!(" of {c} and the reference"))
            ),
            Warning::NoValidation => f.write_str(
                "A/A validation skipped (--no-validation): the verdict rests on the threshold \
                 alone, with no measured noise floor",
            ),
            Warning::NoFloorWithinRuns { runs } => write!(
                f,
                "--runs {runs} ran each command {runs} times, every run compared, and no A/A \
                 noise floor was measured: the verdict rests on the threshold alone (from \
                 --runs 22 on, half the runs are the A/A partners of the other half)"
            ),
            Warning::AaNotParity { side, outcome } => write!(
                f,
                "identical runs of {side} were judged a {outcome} by the few-runs rule: this \
                 machine is too noisy for so few runs; use more --runs"
            ),
            Warning::NotPrecise {
                half_width,
                width,
                command,
            } => write!(
                f,
                "--max-time ran out with {} at ±{}, wider than --width {}",
                command
                    .as_ref()
                    .map_or("the interval".into(), |c| format!("{c}'s interval")),
                Pct(*half_width),
                Pct(*width)
            ),
            Warning::CutShort { pairs } => write!(
                f,
                "--max-time ran out after {pairs} pairs, fewer than 11, so the few-runs rule \
                 decided"
            ),
            Warning::Imported => f.write_str(
                "imported from hyperfine: its runs were not interleaved, so the analysis is \
                 unpaired, no A/A floor was measured, and CPU times and max RSS per run are not \
                 known (shown as 0)",
            ),
            Warning::FailuresIgnored { failed } => write!(
                f,
                "{failed} timed runs failed and were timed anyway (--ignore-failure)"
            ),
        }
    }
}

impl Warning {
    /// The sentence of a warning about one command's own run times.
    fn fmt_runs(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::Drift {
                side,
                shift,
                p_value,
            } => write!(
                f,
                "{side}'s run times drifted: the second half's median is {:+.1} % from the first's \
                 (trend test p = {p_value:.3}); something on the machine changed during the runs",
                100.0 * shift
            ),
            Warning::SlowFirstRun {
                side,
                first_ns,
                median_ns,
            } => write!(
                f,
                "{side}'s first timed run ({}) was much slower than the rest (median {}); caches \
                 may not have been warm: consider more --warmup runs",
                crate::units::duration(*first_ns),
                crate::units::duration(*median_ns)
            ),
            Warning::NearStartFloor {
                side,
                median_ns,
                floor_ns,
            } => write!(
                f,
                "{side}'s median run ({}) is less than twice the time to start and reap an empty \
                 command ({}): most of what is measured is process start",
                crate::units::duration(*median_ns),
                crate::units::duration(*floor_ns)
            ),
            Warning::ZeroTimes { side, zeros, runs } => write!(
                f,
                "{zeros} of {side}'s {runs} times are 0 (hyperfine clamps its shell-corrected \
                 times at 0): they count in the medians and the interval, the ratio of best runs \
                 is over the times above 0, and a command this close to the shell's own cost is \
                 better timed without a shell (`hyperfine -N`)"
            ),
            _ => Ok(()),
        }
    }
}

/// The warnings that the run times alone support: times of 0 (imported), drift, a slow first
/// run, timing modes, and runs near the process-start floor (`start_floor_ns`, the empty command's median, if
/// measured). `a` and `b` are in measurement order.
pub fn series_warnings(
    a: &[f64],
    b: &[f64],
    start_floor_ns: Option<f64>,
    rule: &FewRunsRule,
) -> Vec<Warning> {
    let mut out = Vec::new();
    for (side, xs) in [("A", a), ("B", b)] {
        let zeros = xs.iter().filter(|&&x| x == 0.0).count();
        if zeros > 0 {
            out.push(Warning::ZeroTimes {
                side: side.into(),
                zeros,
                runs: xs.len(),
            });
        }
        if xs.len() >= DRIFT_MIN_SAMPLES.max(8)
            && let Ok(d) = detect_drift(xs)
            && d.drifted(DRIFT_LEVEL)
            && d.relative_shift.abs() > 0.01
        {
            out.push(Warning::Drift {
                side: side.into(),
                shift: d.relative_shift,
                p_value: d.p_value,
            });
        }
        if xs.len() >= 3
            && let (Ok(m), Ok(iqr)) = (stats::median(&xs[1..]), stats::iqr(&xs[1..]))
            && xs[0] > m + (3.0 * iqr).max(0.2 * m)
        {
            out.push(Warning::SlowFirstRun {
                side: side.into(),
                first_ns: xs[0],
                median_ns: m,
            });
        }
    }
    if let Ok(v) = few_runs_verdict(b, a, rule) {
        let within = |r: f64| r <= 1.0 + rule.parity && r * (1.0 + rule.parity) >= 1.0;
        if !within(v.ratio) && within(v.best_ratio) {
            out.push(Warning::TimingModes {
                ratio: v.ratio,
                best_ratio: v.best_ratio,
                command: None,
            });
        }
    }
    if let Some(floor) = start_floor_ns {
        for (side, xs) in [("A", a), ("B", b)] {
            if let Ok(m) = stats::median(xs)
                && m < 2.0 * floor
            {
                out.push(Warning::NearStartFloor {
                    side: side.into(),
                    median_ns: m,
                    floor_ns: floor,
                });
            }
        }
    }
    out
}

impl Warning {
    /// The warning with its sides labelled `a` (the reference) and `b` (the command compared)
    /// and a comparison's warning naming `b`: with more than two commands, `A` and `B` would
    /// not say which command is meant.
    fn named(self, a: &str, b: &str) -> Warning {
        let label = |side: String| if side == "A" { a.into() } else { b.into() };
        match self {
            Warning::Drift {
                side,
                shift,
                p_value,
            } => Warning::Drift {
                side: label(side),
                shift,
                p_value,
            },
            Warning::SlowFirstRun {
                side,
                first_ns,
                median_ns,
            } => Warning::SlowFirstRun {
                side: label(side),
                first_ns,
                median_ns,
            },
            Warning::NearStartFloor {
                side,
                median_ns,
                floor_ns,
            } => Warning::NearStartFloor {
                side: label(side),
                median_ns,
                floor_ns,
            },
            Warning::ZeroTimes { side, zeros, runs } => Warning::ZeroTimes {
                side: label(side),
                zeros,
                runs,
            },
            Warning::AaNotParity { side, outcome } => Warning::AaNotParity {
                side: label(side),
                outcome,
            },
            Warning::TimingModes {
                ratio, best_ratio, ..
            } => Warning::TimingModes {
                ratio,
                best_ratio,
                command: Some(b.into()),
            },
            Warning::NotPrecise {
                half_width, width, ..
            } => Warning::NotPrecise {
                half_width,
                width,
                command: Some(b.into()),
            },
            other => other,
        }
    }
}

/// One command compared with the reference, as [`comparison_warnings`] reads it.
#[derive(Debug, Clone, Copy)]
pub struct Compared<'a> {
    /// The command's label.
    pub name: &'a str,
    /// Its timed wall times, one per round, in measurement order.
    pub series: &'a [f64],
    /// The rule that decided its comparison.
    pub rule: Rule,
    /// Its interval (bootstrap rule).
    pub estimate: Option<&'a Estimate>,
    /// Its A/A floor (`None` with `--no-validation`).
    pub floor: Option<&'a Floor>,
}

/// The warnings of a session over every comparison of `compared` with the reference
/// (`reference`: its label and its series): each pair's [`series_warnings`], no validation
/// (unless `validated`), identical runs not judged parity, and when `--max-time` ran out
/// (`ran_out`: the `--width` asked for) too few pairs for the bootstrap or an interval wider
/// than asked. Every comparison counts, not only the first. With one comparison the sides are
/// `A` and `B` as always; with more, each warning names its command, and one about the
/// reference alone is given once.
pub fn comparison_warnings(
    reference: (&str, &[f64]),
    compared: &[Compared<'_>],
    start_floor_ns: Option<f64>,
    validated: bool,
    ran_out: Option<f64>,
) -> Vec<Warning> {
    let many = compared.len() > 1;
    let name = |w: Warning, c: &Compared<'_>| {
        if many {
            w.named(reference.0, c.name)
        } else {
            w
        }
    };
    let mut out: Vec<Warning> = Vec::new();
    let mut push = |w: Warning| {
        if !out.contains(&w) {
            out.push(w);
        }
    };
    for c in compared {
        let rule = FewRunsRule::default();
        for w in series_warnings(reference.1, c.series, start_floor_ns, &rule) {
            push(name(w, c));
        }
    }
    if !validated {
        push(Warning::NoValidation);
    }
    for c in compared {
        if let Some(Floor {
            few_runs: Some(v), ..
        }) = c.floor
        {
            for (side, v) in ["A", "B"].iter().zip(v) {
                if v.outcome != FewRunsOutcome::Parity {
                    let w = Warning::AaNotParity {
                        side: (*side).into(),
                        outcome: v.outcome,
                    };
                    push(name(w, c));
                }
            }
        }
    }
    if let Some(width) = ran_out {
        for c in compared {
            if c.rule == Rule::FewRuns {
                // Every comparison has the same rounds: said once.
                push(Warning::CutShort {
                    pairs: c.series.len(),
                });
            } else if let Some(e) = c.estimate
                && e.half_width() > width
            {
                let w = Warning::NotPrecise {
                    half_width: e.half_width(),
                    width,
                    command: None,
                };
                push(name(w, c));
            }
        }
    }
    out
}
