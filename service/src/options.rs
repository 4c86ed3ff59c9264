//! The options of a load run ([`LoadOptions`]) and of a comparison ([`ServiceOptions`]), with
//! their checks. Pure: nothing here reads a clock.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// The highest rate a load accepts: 1,000,000 requests per second. The generator's own
/// ceiling on a small machine is far lower (docs/background.md has the measurement); the cap only
/// stops a typo from scheduling billions of requests.
pub const MAX_RATE: f64 = 1_000_000.0;

/// The most requests one run schedules: 10,000,000 (the due times alone take 80 MB). Longer
/// runs are rejected with [`Error::InvalidOption`].
pub const MAX_REQUESTS: usize = 10_000_000;

/// Runs of at most this many requests also keep every latency (as well as the histograms):
/// 1,000,000, 8 MB.
pub const RAW_LIMIT: usize = 1_000_000;

/// A percentile is claimed from a window only when the window expects at least this many
/// requests beyond it: 10, so p99 needs 1,000 requests per window and p99.9 needs 10,000.
pub const TAIL_REQUESTS: f64 = 10.0;

/// Fewest windows of one target a run measures: 4, the fewest a block bootstrap over windows
/// can resample in blocks of 2.
pub const MIN_WINDOWS: usize = 4;

/// Fewest ABBA groups a comparison runs: 6, which give 12 A/B pairs and 11 A/A pairs as
/// windows, 12 interleaved (the bootstrap needs 11).
pub const MIN_QUADS: usize = 6;

/// The default of [`ServiceOptions::min_difference`]: 0.015 (1.5 %), what fresh instances
/// of one loopback server differed by between comparisons on the library's development
/// machine, for users to replace with their own (docs/background.md, section "What each change
/// did").
pub const DEFAULT_MIN_DIFFERENCE: f64 = 0.015;

/// The percentiles reported when none are given: p50, p90, p99 and p99.9 (as fractions).
pub const DEFAULT_PERCENTILES: [f64; 4] = [0.5, 0.9, 0.99, 0.999];

/// How requests are spaced in time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Arrivals {
    /// Request `i` is due at `t0 + i / rate` exactly (the default).
    Fixed,
    /// Poisson arrivals: independent exponential gaps of mean `1 / rate`, drawn from the
    /// crate's generator with this seed (0 draws a seed), so the schedule is reproducible.
    Poisson {
        /// Seed of the gaps; 0 draws one.
        seed: u64,
    },
}

/// Where a request's latency is measured from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LatencyOrigin {
    /// From the request's due time (the default): a request that waited because the target
    /// or the generator was busy carries that wait, as a real client's would. This is the
    /// open-loop measurement, free of coordinated omission.
    Due,
    /// From the moment the request was actually sent: what a closed-loop client reports. A
    /// stall then delays the sending of the requests behind it, and their wait is omitted.
    /// Offered only to demonstrate coordinated omission.
    Sent,
}

/// How to load one target: rate, duration, windows, workers, timeout, arrivals, and the
/// statistics of the report.
///
/// Build it from [`Default`] with the consuming setters; everything is checked when the load
/// starts ([`run`](crate::run), [`compare`](crate::compare())).
///
/// ```
/// use std::time::Duration;
/// use rtcompare_service::LoadOptions;
/// let o = LoadOptions::default().rate(500.0).duration(Duration::from_secs(20)).workers(4);
/// assert_eq!(o.rate, 500.0);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Offered rate in requests per second (default 1,000). Must be positive, finite and at
    /// most [`MAX_RATE`], else [`Error::InvalidRate`].
    pub rate: f64,
    /// Measured duration of a [`run`](crate::run) (default 10 s), after the warm-up.
    /// Zero is [`Error::ZeroDuration`]. [`compare`](crate::compare()) ignores it:
    /// there the windows set the length.
    pub duration: Duration,
    /// Warm-up before the measured part (default 1 s; in a comparison, for each target):
    /// requests are sent at the same rate and their latencies discarded (they are counted).
    pub warmup: Duration,
    /// Length of one time window of a [`run`](crate::run) (default 1 s): the unit
    /// the percentile intervals resample. The run must hold at least [`MIN_WINDOWS`].
    /// [`compare`](crate::compare()) uses [`ServiceOptions::window`] instead.
    pub window: Duration,
    /// Worker threads sending requests (default 8). A request whose due time comes while
    /// every worker is busy starts late, and its send lag says so; give enough workers that
    /// `rate × latency` of them are never all busy. At least 1, at most 1,024.
    pub workers: usize,
    /// Per-request timeout (default 1 s): a network target gives up after it, and a closure
    /// that takes longer is counted as timed out. Timed-out requests are counted and their
    /// latency (a lower bound) is recorded. Zero is [`Error::ZeroDuration`].
    pub timeout: Duration,
    /// Fixed spacing (default) or Poisson arrivals with a seed.
    pub arrivals: Arrivals,
    /// The bound on the send lag (actual start minus due time), default 2 ms. When the lag's
    /// 0.99 quantile exceeds it the run reports
    /// [`GeneratorBehind`](crate::GeneratorBehind) with a warning; a comparison
    /// refuses the verdict of percentile `p` when the lag's `1 − (1 − p)/10` quantile (p95 for
    /// p50, p99 for p90, p99.9 for p99) exceeds it, that is when more than a tenth of the
    /// requests beyond the percentile may have started late.
    pub max_send_lag: Duration,
    /// Percentiles to report, as fractions strictly between 0 and 1 (default
    /// [`DEFAULT_PERCENTILES`]).
    pub percentiles: Vec<f64>,
    /// Coverage level of the intervals (default 0.95).
    pub level: f64,
    /// Bootstrap replicates per interval (default 2,000).
    pub resamples: usize,
    /// Seed of the bootstrap; 0 (default) draws one, recorded in the report.
    pub seed: u64,
    /// Where latency is measured from (default [`LatencyOrigin::Due`], open loop).
    pub latency_from: LatencyOrigin,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            rate: 1_000.0,
            duration: Duration::from_secs(10),
            warmup: Duration::from_secs(1),
            window: Duration::from_secs(1),
            workers: 8,
            timeout: Duration::from_secs(1),
            arrivals: Arrivals::Fixed,
            max_send_lag: Duration::from_millis(2),
            percentiles: DEFAULT_PERCENTILES.to_vec(),
            level: 0.95,
            resamples: 2_000,
            seed: 0,
            latency_from: LatencyOrigin::Due,
        }
    }
}

impl LoadOptions {
    /// Sets the offered rate in requests per second.
    #[must_use]
    pub fn rate(mut self, rate: f64) -> Self {
        self.rate = rate;
        self
    }
    /// Sets the measured duration of a run.
    #[must_use]
    pub fn duration(mut self, d: Duration) -> Self {
        self.duration = d;
        self
    }
    /// Sets the warm-up (zero: none).
    #[must_use]
    pub fn warmup(mut self, d: Duration) -> Self {
        self.warmup = d;
        self
    }
    /// Sets the window length of a run.
    #[must_use]
    pub fn window(mut self, d: Duration) -> Self {
        self.window = d;
        self
    }
    /// Sets the number of worker threads.
    #[must_use]
    pub fn workers(mut self, n: usize) -> Self {
        self.workers = n;
        self
    }
    /// Sets the per-request timeout.
    #[must_use]
    pub fn timeout(mut self, d: Duration) -> Self {
        self.timeout = d;
        self
    }
    /// Poisson arrivals with this seed (0 draws one) instead of fixed spacing.
    #[must_use]
    pub fn poisson(mut self, seed: u64) -> Self {
        self.arrivals = Arrivals::Poisson { seed };
        self
    }
    /// Sets the send-lag bound.
    #[must_use]
    pub fn max_send_lag(mut self, d: Duration) -> Self {
        self.max_send_lag = d;
        self
    }
    /// Sets the percentiles (fractions, for example `[0.5, 0.99]`).
    #[must_use]
    pub fn percentiles(mut self, ps: &[f64]) -> Self {
        self.percentiles = ps.to_vec();
        self
    }
    /// Sets the coverage level of the intervals.
    #[must_use]
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Sets the bootstrap replicates per interval.
    #[must_use]
    pub fn resamples(mut self, n: usize) -> Self {
        self.resamples = n;
        self
    }
    /// Sets the bootstrap seed (0: draw one).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// Sets where latency is measured from.
    #[must_use]
    pub fn latency_from(mut self, origin: LatencyOrigin) -> Self {
        self.latency_from = origin;
        self
    }

    /// Checks everything but the duration and the window (which depend on the caller).
    pub(crate) fn check_common(&self) -> Result<()> {
        if !(self.rate.is_finite() && self.rate > 0.0 && self.rate <= MAX_RATE) {
            return Err(Error::InvalidRate {
                rate: self.rate,
                max: MAX_RATE,
            });
        }
        if self.timeout.is_zero() {
            return Err(Error::ZeroDuration { what: "timeout" });
        }
        if self.workers == 0 || self.workers > 1_024 {
            return Err(Error::invalid_option(
                "workers",
                format!(
                    "{} worker threads requested; give between 1 and 1024",
                    self.workers
                ),
            ));
        }
        if self.percentiles.is_empty() {
            return Err(Error::invalid_option(
                "percentiles",
                "no percentile requested; give at least one, for example [0.5, 0.99]",
            ));
        }
        for &p in &self.percentiles {
            if !(p > 0.0 && p < 1.0) {
                return Err(Error::out_of_range(
                    "percentile",
                    p,
                    "a fraction strictly between 0 and 1 (0.99 for p99)",
                ));
            }
        }
        if !(self.level > 0.0 && self.level < 1.0) {
            return Err(Error::out_of_range("level", self.level, "0 < level < 1"));
        }
        if self.resamples < 100 || self.resamples > rtcompare::support::MAX_RESAMPLES {
            return Err(Error::invalid_option(
                "resamples",
                format!(
                    "{} replicates requested; give between 100 and {}",
                    self.resamples,
                    rtcompare::support::MAX_RESAMPLES
                ),
            ));
        }
        Ok(())
    }

    /// Checks the options of a single run.
    pub(crate) fn check_run(&self) -> Result<()> {
        self.check_common()?;
        if self.duration.is_zero() {
            return Err(Error::ZeroDuration { what: "duration" });
        }
        if self.window.is_zero() {
            return Err(Error::ZeroDuration { what: "window" });
        }
        let windows = windows_in(self.duration, self.window);
        if windows < MIN_WINDOWS {
            return Err(Error::invalid_option(
                "window",
                format!(
                    "a duration of {:?} holds {windows} windows of {:?}; the intervals need at \
                     least {MIN_WINDOWS}, so shorten the window or lengthen the run",
                    self.duration, self.window
                ),
            ));
        }
        // A run's percentile is read from the pooled windows: the whole run must hold enough.
        check_percentiles(&self.percentiles, self.rate, self.duration)?;
        check_requests(self.rate, self.duration + self.warmup)
    }
}

/// Whole windows of `window` in `duration`.
pub(crate) fn windows_in(duration: Duration, window: Duration) -> usize {
    (duration.as_nanos() / window.as_nanos().max(1)) as usize
}

/// Requests a percentile needs in one stretch of time: [`TAIL_REQUESTS`] beyond it.
pub(crate) fn needed_for(p: f64) -> u64 {
    // Less a hair, so that 10 / 0.1 = 100.00000000000001 asks for 100, not 101.
    (TAIL_REQUESTS / (1.0 - p) - 1e-9).ceil() as u64
}

/// `Err(WindowTooShort)` for the first percentile that `span` at `rate` cannot pin down.
pub(crate) fn check_percentiles(ps: &[f64], rate: f64, span: Duration) -> Result<()> {
    check_percentiles_in(ps, rate, span, 1)
}

/// [`check_percentiles`] for a span whose requests are dealt to `lanes` lanes in turn, each
/// lane needing enough for every percentile.
pub(crate) fn check_percentiles_in(
    ps: &[f64],
    rate: f64,
    span: Duration,
    lanes: u32,
) -> Result<()> {
    let lanes = f64::from(lanes.max(1));
    let expected = rate * span.as_secs_f64() / lanes;
    for &p in ps {
        let needed = needed_for(p);
        // A tiny tolerance so that exactly 1,000 requests at 1,000/s in 1 s pass.
        if expected + 1e-6 < needed as f64 {
            return Err(Error::WindowTooShort {
                percentile: p,
                window: span,
                rate,
                expected,
                needed,
                min_window: Duration::from_secs_f64(needed as f64 * lanes / rate),
            });
        }
    }
    Ok(())
}

/// `Err` when a schedule of `span` at `rate` would exceed [`MAX_REQUESTS`].
pub(crate) fn check_requests(rate: f64, span: Duration) -> Result<()> {
    let n = rate * span.as_secs_f64();
    if n > MAX_REQUESTS as f64 {
        return Err(Error::invalid_option(
            "duration",
            format!(
                "{n:.0} requests would be scheduled, at most {MAX_REQUESTS} are accepted; \
                 shorten the run or lower the rate"
            ),
        ));
    }
    Ok(())
}

/// How a comparison alternates its two targets in time.
///
/// Both schedules send at the load's rate throughout and pair an A percentile with a B
/// percentile from neighbouring requests; they differ in how near the neighbours are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Schedule {
    /// The default: every time window loads both targets, its requests going to A, B, B, A,
    /// A, B, B, A, … in turn, and each target's requests in the window form two *lanes* (A's
    /// first and fourth slot of every four, B's second and third). A lane's percentile is
    /// paired with the other target's lane next to it (A₀ with B₁, A₃ with B₂), and the two
    /// lanes of one target give the A/A pairs (B₁ with B₂, A₀ with A₃). Whatever the machine
    /// does during a window, both targets see it, whereas neighbouring windows of one target
    /// at a time catch different stretches of a machine that changes speed (docs/background.md,
    /// section "What the noise was"). Each lane holds a quarter of a window's requests,
    /// so windows are four times longer than [`Schedule::Windows`] needs for the same
    /// percentiles. The two targets' requests may overlap when latencies approach the
    /// spacing between requests.
    #[default]
    Interleaved,
    /// ABBA windows: a window loads one target only, in the order A B B A, A B B A, …, each
    /// switch followed by [`ServiceOptions::settle`]; a window is paired with its neighbour of
    /// the other target, and neighbouring windows of one target (B B inside a group, A A
    /// across groups) give the A/A pairs. For targets that must not be loaded at the same
    /// time (two versions of a server sharing a port or a database, say).
    Windows,
}

impl Schedule {
    /// Requests of one target's unit of analysis per window's requests: 4 for
    /// [`Schedule::Interleaved`] (a lane is every fourth request), 1 for [`Schedule::Windows`].
    pub fn lanes(self) -> u32 {
        match self {
            Schedule::Interleaved => 4,
            Schedule::Windows => 1,
        }
    }
}

/// How to compare two targets under the same load: the load, the schedule, the window length,
/// the number of ABBA groups and the width bound of a verdict.
///
/// ```
/// use std::time::Duration;
/// use rtcompare_service::{LoadOptions, ServiceOptions};
/// let o = ServiceOptions::default()
///     .load(LoadOptions::default().rate(2_000.0).percentiles(&[0.5, 0.9, 0.99]))
///     .window(Duration::from_millis(500))
///     .quads(6);
/// assert_eq!(o.max_relative_half_width, 0.05);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ServiceOptions {
    /// The load both targets get (rate, warm-up, workers, timeout, arrivals, percentiles,
    /// level, resamples, seed); its `duration` and `window` are not used.
    pub load: LoadOptions,
    /// How the targets alternate (default [`Schedule::Interleaved`]).
    pub schedule: Schedule,
    /// Length of one time window (default 40 s: at 1,000 requests per second, the 10,000 a
    /// lane needs for p99.9). Every window must be long enough for every
    /// percentile (in [`Schedule::Interleaved`], every lane: a quarter of the window's
    /// requests), else [`Error::WindowTooShort`]; at 1,000 requests per second p99.9 needs
    /// 10 s per lane-window, 40 s interleaved.
    pub window: Duration,
    /// ABBA groups (default 6, at least [`MIN_QUADS`]); each gives 2 A/B pairs and 2 A/A
    /// pairs (`2q − 1` over the run in [`Schedule::Windows`]). In [`Schedule::Interleaved`] a
    /// group is one window whose requests cycle A B B A; in [`Schedule::Windows`], four
    /// windows A B B A.
    pub quads: usize,
    /// A percentile's verdict is given only when the half-width of the interval of its ratio
    /// B/A is at most this share of the ratio (default 0.05, 5 %).
    pub max_relative_half_width: f64,
    /// A percentile's verdict also needs `|δ|` above this (fraction, default
    /// [`DEFAULT_MIN_DIFFERENCE`], 1.5 %). Instances of one server started afresh for each
    /// comparison can differ a little from one comparison to the next (where the kernel put
    /// their threads, what their allocator holds), which the A/A pairs inside one comparison
    /// cannot see; this bar is where a user says how much of that their servers show.
    ///
    /// The default is one machine's measurement for loopback servers, not a property of
    /// servers (docs/background.md, section "What each change did"). Measure your own with A/A
    /// comparisons of fresh instances (the `service` example's `--selftest` does it for its
    /// servers) and set what they show. Zero turns the bar off.
    pub min_difference: f64,
    /// [`Schedule::Windows`] only: unrecorded time after each switch from one target to the
    /// other, before its window (default 50 ms): requests are sent at the rate and their
    /// latencies discarded, so that the first window after a switch does not carry the
    /// switch's cost, which the idle server's threads and caches pay (docs/background.md, section
    /// "Before: ABBA windows and per-pair statistics").
    pub settle: Duration,
    /// Coverage level of the paired intervals of the comparison (default 0.99; the load's
    /// `level`, 0.95, is used for each target's own percentile intervals). A comparison's
    /// unit is a pair of windows, a few dozen of them; at 0.95 one A/A comparison in twenty
    /// would show an interval excluding zero, and a calibration of ten A/A comparisons would
    /// fail four times in ten.
    pub level: f64,
}

impl Default for ServiceOptions {
    fn default() -> Self {
        ServiceOptions {
            load: LoadOptions::default(),
            schedule: Schedule::default(),
            window: Duration::from_secs(40),
            quads: MIN_QUADS,
            max_relative_half_width: 0.05,
            min_difference: DEFAULT_MIN_DIFFERENCE,
            settle: Duration::from_millis(50),
            level: 0.99,
        }
    }
}

impl ServiceOptions {
    /// Sets the load.
    #[must_use]
    pub fn load(mut self, load: LoadOptions) -> Self {
        self.load = load;
        self
    }
    /// Sets the schedule.
    #[must_use]
    pub fn schedule(mut self, schedule: Schedule) -> Self {
        self.schedule = schedule;
        self
    }
    /// Sets the window length.
    #[must_use]
    pub fn window(mut self, d: Duration) -> Self {
        self.window = d;
        self
    }
    /// Sets the number of ABBA groups.
    #[must_use]
    pub fn quads(mut self, q: usize) -> Self {
        self.quads = q;
        self
    }
    /// Sets the width bound of a verdict (a fraction of the ratio).
    #[must_use]
    pub fn max_relative_half_width(mut self, w: f64) -> Self {
        self.max_relative_half_width = w;
        self
    }
    /// Sets the smallest difference a verdict may claim (a fraction; 0: no such bar).
    #[must_use]
    pub fn min_difference(mut self, d: f64) -> Self {
        self.min_difference = d;
        self
    }
    /// Sets the settle time after each switch of target (zero: none).
    #[must_use]
    pub fn settle(mut self, d: Duration) -> Self {
        self.settle = d;
        self
    }
    /// Sets the coverage level of the comparison's paired intervals.
    #[must_use]
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }

    /// Checks the options of a comparison.
    pub(crate) fn check(&self) -> Result<()> {
        self.load.check_common()?;
        if self.window.is_zero() {
            return Err(Error::ZeroDuration { what: "window" });
        }
        if self.quads < MIN_QUADS {
            return Err(Error::invalid_option(
                "quads",
                format!(
                    "{} ABBA groups requested; at least {MIN_QUADS} are needed for 11 A/A pairs",
                    self.quads
                ),
            ));
        }
        if !(self.max_relative_half_width > 0.0 && self.max_relative_half_width.is_finite()) {
            return Err(Error::out_of_range(
                "max_relative_half_width",
                self.max_relative_half_width,
                "a positive fraction (0.05 for 5 %)",
            ));
        }
        if !(self.level > 0.0 && self.level < 1.0) {
            return Err(Error::out_of_range("level", self.level, "0 < level < 1"));
        }
        if !(self.min_difference >= 0.0 && self.min_difference < 1.0) {
            return Err(Error::out_of_range(
                "min_difference",
                self.min_difference,
                "a fraction, 0 ≤ min_difference < 1 (0.015 for 1.5 %)",
            ));
        }
        check_percentiles_in(
            &self.load.percentiles,
            self.load.rate,
            self.window,
            self.schedule.lanes(),
        )?;
        check_requests(self.load.rate, self.total())
    }

    /// The whole length of the comparison's schedule: two warm-ups and `quads` interleaved
    /// windows, or `4 × quads` windows and `2 × quads` settles.
    pub(crate) fn total(&self) -> Duration {
        match self.schedule {
            Schedule::Interleaved => self.load.warmup * 2 + self.window * self.quads as u32,
            Schedule::Windows => {
                self.load.warmup * 2
                    + self.window * (4 * self.quads as u32)
                    + self.settle * (2 * self.quads as u32)
            }
        }
    }
}
