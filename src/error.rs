//! The crate's one error type.
//!
//! Every fallible function in rtcompare returns [`Result<T>`](crate::Result). Each variant
//! carries what a caller needs to fix the call: which argument was wrong, the value received,
//! and what was expected.

use std::time::Duration;

/// Shorthand for `std::result::Result<T, rtcompare::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in rtcompare.
///
/// The `Display` text is a sentence that names the offending argument, the value received and
/// how to fix the call.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A sample had fewer values than the computation needs.
    #[error("{what}: needs at least {needed} values, got {got}")]
    TooFewSamples {
        /// Which input was short (for example `"a"`, `"samples"`).
        what: &'static str,
        /// The minimum number of values the computation accepts.
        needed: usize,
        /// The number of values received.
        got: usize,
    },
    /// A value was NaN or infinite where only finite numbers make sense.
    #[error("{what}[{index}] is {value}, but every value must be finite")]
    NonFinite {
        /// Which input held the value.
        what: &'static str,
        /// Position of the first offending value.
        index: usize,
        /// The value itself (NaN or ±inf).
        value: f64,
    },
    /// Paired inputs of different lengths.
    #[error("paired samples must have equal lengths, got {a} values for A and {b} for B")]
    LengthMismatch {
        /// Length of the first input.
        a: usize,
        /// Length of the second input.
        b: usize,
    },
    /// A numeric argument outside its valid range.
    #[error("{name} = {value} is out of range: expected {expected}")]
    OutOfRange {
        /// Name of the argument or option.
        name: &'static str,
        /// The value received.
        value: f64,
        /// The valid range, in words (for example `"0 < level < 1"`).
        expected: &'static str,
    },
    /// An option that is invalid for a reason other than a numeric range.
    #[error("invalid option {name}: {reason}")]
    InvalidOption {
        /// Name of the option.
        name: &'static str,
        /// What is wrong and how to fix it.
        reason: String,
    },
    /// The data do not define the requested quantity (for example a median of zero as the
    /// denominator of a ratio).
    #[error("{what} is undefined: {reason}")]
    Undefined {
        /// The quantity that could not be computed.
        what: &'static str,
        /// Why, in words.
        reason: String,
    },
    /// The data are valid but not yet enough for the requested analysis (for example no
    /// batch size brings the batch means' autocorrelation within the limit). Collecting more
    /// readings may cure it; it is a state to act on, not a mistake in the call.
    #[error("not enough data for {what}: {reason}")]
    NotEnoughData {
        /// The analysis that could not be completed.
        what: &'static str,
        /// Why, in words, and what more data would change.
        reason: String,
    },
    /// A candidate's setup, batch or teardown panicked; the panic was caught.
    #[error("candidate {candidate:?} panicked in its {stage}: {message}")]
    CandidatePanicked {
        /// Name of the candidate.
        candidate: String,
        /// `"setup"`, `"batch"` or `"teardown"`.
        stage: &'static str,
        /// The panic payload, if it was a string.
        message: String,
    },
    /// The batch's duration does not grow with `n`: the batch ignores its argument or the
    /// compiler removed the work.
    #[error(
        "candidate {candidate:?}: the batch took {ns_small:.0} ns for n = {n_small} and {ns_large:.0} ns \
         for n = {n_large}; its time does not grow with n. Run the code exactly n times and wrap inputs \
         and results in std::hint::black_box so the compiler cannot remove the work"
    )]
    BatchIgnoresN {
        /// Name of the candidate.
        candidate: String,
        /// The smaller batch size tried.
        n_small: u64,
        /// Shortest duration measured at `n_small`, in nanoseconds.
        ns_small: f64,
        /// The larger batch size tried.
        n_large: u64,
        /// Shortest duration measured at `n_large`, in nanoseconds.
        ns_large: f64,
    },
    /// Calibration reached `max_inner_loops` before a batch lasted long enough.
    #[error(
        "candidate {candidate:?}: a batch of {max_inner_loops} operations lasted only {batch_ns:.0} ns, \
         short of the {target_ns:.0} ns target; the batch probably ignores n or the work was optimised \
         away (use std::hint::black_box), or raise max_inner_loops"
    )]
    CalibrationCapReached {
        /// Name of the candidate.
        candidate: String,
        /// The cap that was reached.
        max_inner_loops: u64,
        /// Shortest batch duration measured at the cap, in nanoseconds.
        batch_ns: f64,
        /// The batch duration calibration aimed for, in nanoseconds.
        target_ns: f64,
    },
    /// The process runs under an emulator or instrumentation framework (Valgrind, QEMU user
    /// mode, …) that translates every instruction before it runs, so any timing would measure
    /// the translation, not the code. Refused before anything is measured; see
    /// [`Environment::instrumented_by`](crate::measure::env::Environment::instrumented_by) and
    /// [`CompareOptions::allow_instrumented`](crate::CompareOptions::allow_instrumented).
    #[error(
        "refusing to time code under {tool}: it translates every instruction before running it, \
         so timings measure the translation, not the code, and say nothing about native speed; \
         {hint}"
    )]
    MeaninglessTimings {
        /// What was detected, in words (for example `"Valgrind"`).
        tool: String,
        /// How to proceed: run natively, or the option that measures anyway.
        hint: String,
    },
    /// The caller cancelled the run (through a token or a deadline).
    #[error("cancelled during {stage} after {elapsed:?}")]
    Cancelled {
        /// The stage that was running (for example `"measuring"`).
        stage: &'static str,
        /// Time since the run started.
        elapsed: Duration,
    },
    /// Too few of a pooled comparison's processes succeeded to pool them.
    #[error(
        "only {succeeded} of {started} processes succeeded and pooling needs {needed}: {}",
        failures.join("; ")
    )]
    ProcessesFailed {
        /// Processes that returned a report.
        succeeded: usize,
        /// Processes started.
        started: usize,
        /// Fewest processes pooling accepts.
        needed: usize,
        /// What happened to each failed process, one sentence each.
        failures: Vec<String>,
    },
    /// Writing or reading a report failed.
    #[error("i/o on {path}: {message}")]
    Io {
        /// The file involved.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// A report could not be serialised or parsed.
    #[error("report JSON: {0}")]
    Json(String),
    /// A load's rate is not a positive finite number of requests per second, or exceeds
    /// [`MAX_RATE`](crate::service::MAX_RATE).
    #[error(
        "rate = {rate} requests per second is unusable: give a positive finite rate of at most \
         {max} per second"
    )]
    InvalidRate {
        /// The rate received, in requests per second.
        rate: f64,
        /// The largest rate accepted, in requests per second.
        max: f64,
    },
    /// A duration that must be positive was zero (the measured duration of a load, or the
    /// length of a time window).
    #[error("{what} is zero: give it a positive length")]
    ZeroDuration {
        /// Which duration (for example `"duration"`, `"window"`).
        what: &'static str,
    },
    /// A time window holds too few requests for one of the percentiles asked for: at the
    /// rate given it expects fewer requests than the percentile needs to be pinned down.
    #[error(
        "windows too short for p{}: a window of {window:?} at {rate} requests per second holds \
         about {expected:.0} requests for each percentile (a lane's quarter of the window in an \
         interleaved comparison), and p{} needs at least {needed} (10 beyond the percentile); \
         lengthen the window to at least {min_window:?}, raise the rate, or drop the \
         percentile",
        100.0 * percentile, 100.0 * percentile
    )]
    WindowTooShort {
        /// The percentile as a fraction (0.999 for p99.9).
        percentile: f64,
        /// The window length given.
        window: Duration,
        /// The rate given, in requests per second.
        rate: f64,
        /// Requests a window (or, interleaved, one lane of a window) holds at that rate.
        expected: f64,
        /// Requests the percentile needs in one window.
        needed: u64,
        /// The shortest window that holds enough at this rate.
        min_window: Duration,
    },
    /// A network target's address is neither a loopback address nor one of this machine's
    /// own: the service mode only loads servers on this machine.
    #[error(
        "refusing to send load to {address}: only loopback addresses (127.0.0.0/8, ::1) and \
         this machine's own addresses are accepted, so that a load test never floods another \
         machine"
    )]
    NotLocal {
        /// The address as given or resolved.
        address: String,
    },
    /// The load generator could not send requests on time: the send lag (actual start minus
    /// due time) exceeded the bound, so latencies would describe the generator, not the
    /// target.
    #[error(
        "the load generator could not keep up at {rate} requests per second: send lag p99 \
         {p99_lag:?} exceeds the bound {bound:?}; lower the rate, add workers, or quieten the \
         machine"
    )]
    GeneratorBehind {
        /// The offered rate, in requests per second.
        rate: f64,
        /// The 0.99 quantile of the send lag.
        p99_lag: Duration,
        /// The bound it exceeded.
        bound: Duration,
    },
    /// A benchmark worker process (see [`bench`](crate::bench)) failed: it could not be
    /// started, exited, timed out, or answered outside the protocol.
    #[error("benchmark worker of {build} for {benchmark:?} failed: {reason}")]
    Worker {
        /// The build: the worker executable's path.
        build: String,
        /// The benchmark it served, or `"(listing)"` while listing.
        benchmark: String,
        /// What happened, with the worker's last stderr lines when there are any.
        reason: String,
    },
}

impl Error {
    /// Builds [`Error::OutOfRange`].
    pub(crate) fn out_of_range(name: &'static str, value: f64, expected: &'static str) -> Self {
        Error::OutOfRange {
            name,
            value,
            expected,
        }
    }

    /// Builds [`Error::InvalidOption`].
    pub(crate) fn invalid_option(name: &'static str, reason: impl Into<String>) -> Self {
        Error::InvalidOption {
            name,
            reason: reason.into(),
        }
    }
}
