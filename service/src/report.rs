//! What a load run and a comparison return: plain data with `Display` and serde.

use std::fmt;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use crate::options::{
    DEFAULT_MIN_DIFFERENCE, LatencyOrigin, LoadOptions, Schedule, ServiceOptions,
};
use rtcompare::Estimate;
use rtcompare::env::Environment;
use rtcompare::stats::Unresolved;
use rtcompare::support::display::{Ns, Pct};

/// Version of the JSON layout of [`LoadReport`] and [`ServiceReport`]; raised when a field
/// changes meaning or is removed.
pub const SERVICE_SCHEMA_VERSION: u32 = 1;

/// A percentile of one target's latencies with its interval, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PercentileInterval {
    /// The percentile as a fraction (0.99 for p99).
    pub percentile: f64,
    /// The percentile of all measured windows pooled, in ns.
    pub value_ns: f64,
    /// Lower end of its block-bootstrap interval over windows, in ns.
    pub low_ns: f64,
    /// Upper end, in ns.
    pub high_ns: f64,
}

/// Points of the distribution of the send lag, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct LagSummary {
    /// Median, in ns.
    pub p50_ns: f64,
    /// 0.95 quantile, in ns (what a p50 verdict checks).
    pub p95_ns: f64,
    /// 0.99 quantile, in ns (what the generator-behind warning and a p90 verdict check).
    pub p99_ns: f64,
    /// 0.999 quantile, in ns (what a p99 verdict checks).
    pub p999_ns: f64,
    /// Largest, in ns.
    pub max_ns: f64,
}

/// The generator could not keep its schedule: the send lag's 0.99 quantile exceeded the bound.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GeneratorBehind {
    /// The target whose windows showed it.
    pub side: ServiceSide,
    /// Send lag p99, in ns.
    pub p99_lag_ns: f64,
    /// The bound ([`LoadOptions::max_send_lag`]), in ns.
    pub bound_ns: f64,
    /// The offered rate, in requests per second.
    pub rate: f64,
}

/// Which target of a comparison (a single run's target is `A`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServiceSide {
    /// The first target.
    A,
    /// The second target.
    B,
}

/// One measured time window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WindowSummary {
    /// Position in the run, from 0 (in an interleaved comparison, lane `l` of time window `q`
    /// is `4q + l`).
    pub index: usize,
    /// Which target it loaded.
    pub side: ServiceSide,
    /// Which lane of its time window it is (0 unless the comparison was interleaved, where
    /// the window's requests are dealt to lanes 0–3 in turn: A, B, B, A).
    #[serde(default)]
    pub lane: usize,
    /// Its start, in seconds after the schedule's start.
    pub start_s: f64,
    /// Requests due in it.
    pub scheduled: u64,
    /// Requests completed.
    pub completed: u64,
    /// Requests that failed.
    pub errors: u64,
    /// Requests that timed out.
    pub timeouts: u64,
    /// Requests never sent (the run's time limit passed).
    pub unsent: u64,
    /// The window's own percentiles, in the order of the options, in ns (`None`: no latency
    /// recorded).
    pub percentiles_ns: Vec<Option<f64>>,
}

/// One target's figures over its measured windows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetSummary {
    /// The target's name.
    pub name: String,
    /// Measured time windows this target was loaded in (in an interleaved comparison both
    /// targets are loaded in every window).
    pub windows: usize,
    /// Their total length, in seconds.
    pub measured_s: f64,
    /// Requests due in them.
    pub scheduled: u64,
    /// Requests completed.
    pub completed: u64,
    /// Requests that failed (not in the percentiles).
    pub errors: u64,
    /// Requests that timed out (in the percentiles, as lower bounds).
    pub timeouts: u64,
    /// Requests never sent because the run's time limit passed.
    pub unsent: u64,
    /// Requests of the warm-up (latencies discarded).
    pub warmup_requests: u64,
    /// The first error's message, if any.
    pub first_error: Option<String>,
    /// Offered rate to this target while its windows ran, in requests per second: the load's
    /// rate, or half of it in an interleaved comparison (the other half goes to the other
    /// target).
    pub offered_rate: f64,
    /// Requests answered (completed, failed or timed out) per second of measured windows.
    pub achieved_rate: f64,
    /// The percentiles with intervals.
    pub percentiles: Vec<PercentileInterval>,
    /// Mean latency, in ns.
    pub mean_ns: f64,
    /// Largest latency, in ns.
    pub max_ns: f64,
    /// Send lag: actual start minus due time.
    pub send_lag: LagSummary,
}

impl TargetSummary {
    /// The interval of percentile `p` (as given in the options), if it was reported.
    pub fn percentile(&self, p: f64) -> Option<&PercentileInterval> {
        self.percentiles.iter().find(|x| x.percentile == p)
    }
}

/// The result of [`run`](crate::run): one target under open-loop load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadReport {
    /// [`SERVICE_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The options the run used.
    pub options: LoadOptions,
    /// The target's figures.
    pub target: TargetSummary,
    /// Every measured window in time order.
    pub windows: Vec<WindowSummary>,
    /// Set when the generator could not keep its schedule.
    pub generator_behind: Option<GeneratorBehind>,
    /// The bootstrap seed used (pass it back to reproduce the intervals).
    pub seed: u64,
    /// Warnings, one sentence each.
    pub warnings: Vec<String>,
    /// Where and how it was measured.
    pub environment: Environment,
    /// Wall time of the load, in seconds.
    pub elapsed_s: f64,
    /// Every latency of the measured windows in ns (window by window, in completion order),
    /// when the run scheduled at most [`RAW_LIMIT`](crate::RAW_LIMIT) requests. Not
    /// serialised.
    #[serde(skip)]
    pub latencies_ns: Option<Vec<u64>>,
    /// All measured latencies in one lossless histogram (ns). Not serialised.
    #[serde(skip)]
    pub histogram: Option<Histogram<u64>>,
}

impl LoadReport {
    /// `Err(Error::GeneratorBehind)` if the generator could not keep up, else `Ok(())`.
    pub fn ensure_generator_kept_up(&self) -> crate::Result<()> {
        match self.generator_behind {
            Some(g) => Err(g.to_error()),
            None => Ok(()),
        }
    }
}

impl GeneratorBehind {
    /// The same as [`Error::GeneratorBehind`](crate::Error::GeneratorBehind).
    pub fn to_error(&self) -> crate::Error {
        crate::Error::GeneratorBehind {
            rate: self.rate,
            p99_lag: std::time::Duration::from_nanos(self.p99_lag_ns as u64),
            bound: std::time::Duration::from_nanos(self.bound_ns as u64),
        }
    }
}

/// Why a percentile got no verdict.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "bar", rename_all = "snake_case")]
pub enum ServiceUnresolved {
    /// The interval of the percentile's ratio is wider than the bound allows: the measurement
    /// does not pin the percentile down.
    TooWide {
        /// The percentile (fraction).
        percentile: f64,
        /// Half-width of the ratio's interval as a share of the ratio.
        relative_half_width: f64,
        /// The bound ([`ServiceOptions::max_relative_half_width`]).
        bound: f64,
        /// Lower end of the ratio B/A's interval.
        ratio_low: f64,
        /// Upper end.
        ratio_high: f64,
    },
    /// The generator could not keep its schedule for enough of the requests that decide this
    /// percentile: the send lag at `lag_quantile` = 1 − (1 − p)/10 (p95 for p50, p99 for
    /// p90, p99.9 for p99) exceeded the bound, so more than a tenth of the requests beyond
    /// the percentile may have started late.
    GeneratorBehind {
        /// The quantile of the send lag that was checked.
        lag_quantile: f64,
        /// The send lag at that quantile for the worse target, in ns.
        lag_ns: f64,
        /// The bound ([`LoadOptions::max_send_lag`]), in ns.
        bound_ns: f64,
    },
    /// Requests were lost to errors or never sent: the percentiles miss them.
    Incomplete {
        /// Failed requests of both targets.
        errors: u64,
        /// Requests never sent.
        unsent: u64,
    },
    /// The interval was tight but the library's verdict rule said no (interval contains zero,
    /// estimate unstable, or within the A/A noise floor).
    Rule(Unresolved),
    /// Every other bar was cleared, but the interval's end nearest zero is no larger than
    /// [`ServiceOptions::min_difference`] (the core's judge,
    /// [`rtcompare::stats::judge`](rtcompare::stats::judge): the number one can defend is the bound, not the
    /// estimate), the smallest difference the user accepts as one between the targets rather
    /// than between two instances of one server. Its default
    /// ([`DEFAULT_MIN_DIFFERENCE`](crate::DEFAULT_MIN_DIFFERENCE)) is what fresh
    /// instances of one server differed by between comparisons on the library's development
    /// machine, not a property of servers in general.
    BelowMinDifference {
        /// The estimate δ (fraction).
        delta: f64,
        /// The interval's end nearest zero, |δ| at least (fraction; reports written before
        /// this field existed read as 0).
        #[serde(default)]
        bound: f64,
        /// The bar (fraction).
        min_difference: f64,
    },
}

impl fmt::Display for ServiceUnresolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ServiceUnresolved::TooWide {
                percentile,
                relative_half_width,
                bound,
                ratio_low,
                ratio_high,
            } => write!(
                f,
                "the interval of {} is too wide (A's time over B's in [{:.3}, {:.3}], \
                 half-width {} of the ratio; a verdict needs at most {})",
                PName(percentile),
                // The fields hold B/A; said as A/B, the one direction (+ = A slower).
                ratio_high.recip(),
                ratio_low.recip(),
                Pct(relative_half_width),
                Pct(bound)
            ),
            ServiceUnresolved::GeneratorBehind {
                lag_quantile,
                lag_ns,
                bound_ns,
            } => write!(
                f,
                "the generator could not keep up (send lag at {} is {}, above the bound {}); \
                 lower the rate, add workers or quieten the machine",
                PName(lag_quantile),
                Ns(lag_ns),
                Ns(bound_ns)
            ),
            ServiceUnresolved::Incomplete { errors, unsent } => write!(
                f,
                "{errors} requests failed and {unsent} were never sent, so the percentiles \
                 miss them"
            ),
            ServiceUnresolved::Rule(u) => write!(f, "{u}"),
            ServiceUnresolved::BelowMinDifference {
                delta,
                bound,
                min_difference,
            } => {
                write!(
                    f,
                    "the difference ({}, at least {} by its interval) clears this \
                     comparison's own bars but not ServiceOptions::min_difference ({})",
                    Pct(delta.abs()),
                    Pct(bound),
                    Pct(min_difference)
                )?;
                // Only the default needs its origin told: a value the user set is theirs.
                if min_difference == DEFAULT_MIN_DIFFERENCE {
                    write!(
                        f,
                        ", the default: fresh instances of one server differed by that much \
                         between comparisons on the library's development machine \
                         (docs/background.md, \"Service mode\"); set it to what two instances of \
                         your server differ by, or 0 to turn the bar off"
                    )
                } else {
                    write!(f, ", as set for this comparison")
                }
            }
        }
    }
}

/// A percentile's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum ServiceVerdict {
    /// A's percentile is lower (A answers faster), and every bar was cleared.
    AFaster,
    /// B's percentile is lower.
    BFaster,
    /// No verdict, and why.
    CannotTell(ServiceUnresolved),
}

impl ServiceVerdict {
    /// Whether a winner was named.
    pub fn is_resolved(&self) -> bool {
        !matches!(self, ServiceVerdict::CannotTell(_))
    }
}

/// One percentile of a comparison: the estimate, the noise floor and the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PercentileComparison {
    /// The percentile as a fraction.
    pub percentile: f64,
    /// `δ = 1 − Q_A / Q_B`, the percentile of A's windows of the A/B pairs pooled against
    /// that of B's, with its paired bootstrap interval over the pairs, drawn by the stretch
    /// of time they share (an interleaved window's two pairs together; positive: A's
    /// percentile is lower).
    pub estimate: Estimate,
    /// The A/A noise floor of this percentile from the A/A pairs (fraction): the comparison's
    /// level quantile of `|δ*|` over their bootstrap.
    pub noise_floor: f64,
    /// Half-width of the interval of the ratio B/A as a share of the ratio.
    pub relative_half_width: f64,
    /// The verdict.
    pub verdict: ServiceVerdict,
}

/// The result of [`compare`](crate::compare()).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServiceReport {
    /// [`SERVICE_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The options used.
    pub options: ServiceOptions,
    /// Target A's figures.
    pub a: TargetSummary,
    /// Target B's figures.
    pub b: TargetSummary,
    /// Per percentile, in the order of the options: estimate, noise floor, verdict.
    pub comparisons: Vec<PercentileComparison>,
    /// Every measured window in time order (ABBA), or interleaved every lane of every window
    /// (lane `l` of window `q` at index `4q + l`).
    pub windows: Vec<WindowSummary>,
    /// Set when the generator could not keep its schedule for one of the targets.
    pub generator_behind: Option<GeneratorBehind>,
    /// The bootstrap seed used.
    pub seed: u64,
    /// Warnings, one sentence each.
    pub warnings: Vec<String>,
    /// Where and how it was measured.
    pub environment: Environment,
    /// Wall time of the load, in seconds.
    pub elapsed_s: f64,
}

impl ServiceReport {
    /// The comparison of percentile `p` (as given in the options), if it was made.
    pub fn percentile(&self, p: f64) -> Option<&PercentileComparison> {
        self.comparisons.iter().find(|c| c.percentile == p)
    }
}

/// A percentile's name: 0.5 → "p50", 0.999 → "p99.9".
pub(crate) struct PName(pub f64);

impl fmt::Display for PName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = format!("{:.4}", 100.0 * self.0);
        let s = s.trim_end_matches('0').trim_end_matches('.');
        write!(f, "p{s}")
    }
}

impl fmt::Display for TargetSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} windows, {} requests due, {} completed, {} errors, {} timeouts, {} unsent; \
             {:.1} answered/s of {:.1} offered",
            self.name,
            self.windows,
            self.scheduled,
            self.completed,
            self.errors,
            self.timeouts,
            self.unsent,
            self.achieved_rate,
            self.offered_rate
        )?;
        for p in &self.percentiles {
            writeln!(
                f,
                "    {:>6} {:>10}  [{}, {}]",
                PName(p.percentile).to_string(),
                Ns(p.value_ns).to_string(),
                Ns(p.low_ns),
                Ns(p.high_ns)
            )?;
        }
        write!(
            f,
            "    mean {}, max {}; send lag p50 {}, p99 {}, max {}",
            Ns(self.mean_ns),
            Ns(self.max_ns),
            Ns(self.send_lag.p50_ns),
            Ns(self.send_lag.p99_ns),
            Ns(self.send_lag.max_ns)
        )
    }
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let origin = match self.options.latency_from {
            LatencyOrigin::Due => "open loop, latency from the due time",
            LatencyOrigin::Sent => "closed-loop measurement, latency from the send",
        };
        writeln!(
            f,
            "load: {} requests/s for {:?} ({origin}), {} workers",
            self.options.rate, self.options.duration, self.options.workers
        )?;
        writeln!(f, "  {}", self.target)?;
        if let Some(g) = self.generator_behind {
            writeln!(
                f,
                "  GENERATOR BEHIND: send lag p99 {} exceeds {}",
                Ns(g.p99_lag_ns),
                Ns(g.bound_ns)
            )?;
        }
        for w in &self.warnings {
            writeln!(f, "  warning: {w}")?;
        }
        Ok(())
    }
}

impl fmt::Display for ServiceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options;
        let schedule = match o.schedule {
            Schedule::Interleaved => format!(
                "{} windows of {:?}, requests dealt A B B A within each",
                o.quads, o.window
            ),
            _ => format!("{} ABBA windows of {:?}", 4 * o.quads, o.window),
        };
        writeln!(
            f,
            "service comparison: A = {}, B = {}; {} requests/s, {schedule}, {} workers",
            self.a.name, self.b.name, o.load.rate, o.load.workers
        )?;
        writeln!(f, "  A {}", self.a)?;
        writeln!(f, "  B {}", self.b)?;
        for c in &self.comparisons {
            let e = &c.estimate;
            write!(
                f,
                "  {:>6}: A's change {}, A/A floor {}: ",
                PName(c.percentile).to_string(),
                rtcompare::stats::Change::of_delta(e.delta, e.low, e.high),
                Pct(c.noise_floor)
            )?;
            match c.verdict {
                ServiceVerdict::AFaster => writeln!(
                    f,
                    "A FASTER ({} answers in {} less time)",
                    self.a.name,
                    Pct(c.estimate.delta)
                )?,
                ServiceVerdict::BFaster => writeln!(
                    f,
                    "B FASTER ({} answers in {} less time)",
                    self.b.name,
                    Pct(1.0 - (1.0 - c.estimate.delta).recip())
                )?,
                ServiceVerdict::CannotTell(reason) => writeln!(f, "CANNOT TELL: {reason}")?,
            }
        }
        for w in &self.warnings {
            writeln!(f, "  warning: {w}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentence says where the default bar came from and that it is the user's to set,
    /// and does not tell a user who set their own bar about the development machine.
    #[test]
    fn the_minimum_difference_is_the_users_bar() {
        let at = |min_difference| {
            ServiceUnresolved::BelowMinDifference {
                delta: -0.009,
                bound: 0.004,
                min_difference,
            }
            .to_string()
        };
        let default = at(DEFAULT_MIN_DIFFERENCE);
        assert!(default.contains("(0.90 %, at least 0.40 %"), "{default}");
        assert!(default.contains("min_difference (1.5 %)"), "{default}");
        assert!(default.contains("development machine"), "{default}");
        assert!(default.contains("docs/background.md"), "{default}");
        assert!(default.contains("set it to"), "{default}");
        let own = at(0.01);
        assert!(own.contains("min_difference (1.0 %)"), "{own}");
        assert!(own.contains("as set for this comparison"), "{own}");
        assert!(!own.contains("development machine"), "{own}");
    }

    #[test]
    fn names_and_units() {
        assert_eq!(PName(0.5).to_string(), "p50");
        assert_eq!(PName(0.999).to_string(), "p99.9");
        assert_eq!(PName(0.99).to_string(), "p99");
        // Durations come from the core's one formatter (four significant digits).
        assert_eq!(Ns(1_500.0).to_string(), "1.500 µs");
        assert_eq!(Ns(2_500_000.0).to_string(), "2.500 ms");
        assert_eq!(Ns(12.0).to_string(), "12.00 ns");
    }
}
