//! The crate's one error type.
//!
//! Every fallible function of rtcompare-service returns [`Result<T>`](crate::Result). Each
//! variant carries what a caller needs to fix the call: which argument was wrong, the value
//! received, and what was expected. A failure of the core's statistics or measurement
//! arrives as [`Error::Core`], with the core's own error inside.

use std::time::Duration;

/// Shorthand for `std::result::Result<T, rtcompare_service::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in a load run or a service comparison.
///
/// The `Display` text is a sentence that names the offending argument, the value received and
/// how to fix the call. Like [`rtcompare::Error`], it is `Clone` and `PartialEq`, so tests can
/// compare errors with `assert_eq!`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The core library failed (a bootstrap with nothing to resample, a bad interval): its
    /// error, unchanged.
    #[error(transparent)]
    Core(#[from] rtcompare::Error),
    /// A numeric option outside its valid range.
    #[error("{name} = {value} is out of range: expected {expected}")]
    OutOfRange {
        /// Name of the option.
        name: &'static str,
        /// The value received.
        value: f64,
        /// The valid range, in words (for example `"0 < level < 1"`).
        expected: &'static str,
    },
    /// An option that is invalid for a reason other than a numeric range (workers,
    /// percentiles, resamples, windows, a target's address or framing).
    #[error("invalid option {name}: {reason}")]
    InvalidOption {
        /// Name of the option.
        name: &'static str,
        /// What is wrong and how to fix it.
        reason: String,
    },
    /// The run recorded too little to compute what was asked (no request completed, a
    /// window without any latency).
    #[error("not enough data for {what}: {reason}")]
    NotEnoughData {
        /// The analysis that could not be completed.
        what: &'static str,
        /// Why, in words, and what to change.
        reason: String,
    },
    /// The recorded windows do not define the requested quantity (a pairing that names no
    /// window).
    #[error("{what} is undefined: {reason}")]
    Undefined {
        /// The quantity that could not be computed.
        what: &'static str,
        /// Why, in words.
        reason: String,
    },
    /// A load's rate is not a positive finite number of requests per second, or exceeds
    /// [`MAX_RATE`](crate::MAX_RATE).
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
    /// A duration that must be positive was zero (the measured duration of a load, the
    /// length of a time window, the timeout).
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
    /// own: the crate only loads servers on this machine.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_core_error_reads_as_the_core_wrote_it() {
        let core = rtcompare::Report::from_json("{").unwrap_err();
        let text = core.to_string();
        let e = Error::from(core.clone());
        assert_eq!(e, Error::Core(core));
        assert_eq!(e.to_string(), text);
    }

    #[test]
    fn a_short_window_names_the_window_to_give() {
        let e = Error::WindowTooShort {
            percentile: 0.99,
            window: Duration::from_millis(500),
            rate: 1_000.0,
            expected: 500.0,
            needed: 1_000,
            min_window: Duration::from_secs(1),
        };
        let text = e.to_string();
        assert!(text.starts_with("windows too short for p99:"), "{text}");
        assert!(text.contains("at least 1s"), "{text}");
    }
}
