//! The crate's one error type.
//!
//! Every fallible function in rtcompare returns [`Result<T>`](crate::Result). Each variant
//! carries what a caller needs to fix the call: which argument was wrong, the value received,
//! and what was expected.

use std::fmt;
use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Shorthand for `std::result::Result<T, rtcompare::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in rtcompare.
///
/// The `Display` text is a sentence that names the offending argument, the value received and
/// how to fix the call. [`Error::Io`] and [`Error::Json`] keep the error that caused them:
/// [`source`](std::error::Error::source) returns an [`IoSource`] or a [`JsonSource`], whose
/// [`get`](IoSource::get) is the [`std::io::Error`] or [`serde_json::Error`] itself; every other
/// variant originates in rtcompare and has no source.
///
/// ```
/// let err = rtcompare::Report::from_json("{").unwrap_err();
/// let rtcompare::Error::Json { source } = &err else { panic!("{err:?}") };
/// assert!(source.get().is_eof());
/// // Through the standard trait, as a generic error reporter sees it:
/// let dyn_source = std::error::Error::source(&err).expect("a source");
/// assert!(dyn_source.downcast_ref::<rtcompare::JsonSource>().is_some());
/// ```
///
/// # Design
///
/// `Error` is `Clone` and `PartialEq`: a [`GateFailure`](crate::gate::GateFailure), which is
/// `Clone`, holds one, and tests compare errors with `assert_eq!`. Neither [`std::io::Error`]
/// nor [`serde_json::Error`] is `Clone` or `PartialEq`, so [`Error::Io`] and [`Error::Json`]
/// hold them in [`IoSource`] and [`JsonSource`], which share the error through an [`Arc`]: a
/// clone is a reference-count increment and every clone reaches the same original error, with
/// its kind, OS error code and position intact.
///
/// The wrappers are transparent in a chain of causes: their `Display` is the wrapped error's
/// text and their own `source` is the wrapped error's source, so a reporter that walks the
/// chain prints each cause once.
///
/// Equality compares what a caller can observe. Two [`IoSource`]s are equal when their
/// [`ErrorKind`](std::io::ErrorKind)s and messages are equal (an OS error's message includes its
/// code); two [`JsonSource`]s when their [`Category`](serde_json::error::Category), line, column
/// and message are equal. The other variants compare field by field (so, as for `f64`, an error
/// holding NaN is not equal to itself).
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
    /// [`Environment::instrumented_by`](crate::env::Environment::instrumented_by) and
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
    #[error("i/o on {path}: {source}")]
    Io {
        /// The file involved.
        path: String,
        /// The operating system's error, with its kind and code.
        #[source]
        source: IoSource,
    },
    /// A report could not be serialised or parsed.
    #[error("report JSON: {source}")]
    Json {
        /// serde_json's error, with its category and position.
        #[source]
        source: JsonSource,
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
    /// A code layout of the two builds of a cross-revision comparison could not be made: the
    /// relink that makes it failed.
    #[error("layout variant {variant} of the builds could not be made: {reason}")]
    Variant {
        /// The layout's index, from 0.
        variant: usize,
        /// What the source said (for `rtcompare bench`, the build's last lines).
        reason: String,
    },
    /// A git command of a comparison of revisions failed: a revision that names no commit, a
    /// directory outside a repository, a checkout that failed.
    #[error("`{command}` failed: {reason}")]
    Git {
        /// The git command.
        command: String,
        /// git's words, with what to do.
        reason: String,
    },
    /// A build of the bench target at one revision failed.
    #[error("the build of bench `{bench}` at {revision} failed ({status}): {detail}")]
    Build {
        /// The bench target.
        bench: String,
        /// Which revision, in words (`the baseline (origin/main)`, `the working tree`).
        revision: String,
        /// `exit status 101`.
        status: String,
        /// Where the compiler's messages are, or the linker's last lines when they were not
        /// shown.
        detail: String,
    },
    /// What was asked needs something this operating system does not offer: pinning to a CPU
    /// (Linux's `sched_setaffinity`), or the worker protocol that compares two builds
    /// (descriptors a Unix parent hands its child). Nothing was run; [`Error::Unsupported`]'s
    /// `instead` says what works here. Hardware counters and shuffled code layouts are not
    /// errors where they are missing: the report says they were unavailable, and why.
    #[error("{what} is not available on {platform}: {instead}")]
    Unsupported {
        /// What was asked, in words (for example `"pinning to a CPU"`).
        what: &'static str,
        /// The platform it was asked on: [`std::env::consts::OS`] (`"windows"`, `"macos"`).
        platform: &'static str,
        /// What to do instead on this platform.
        instead: &'static str,
    },
}

impl Error {
    /// Builds [`Error::Io`] for `error` on `path`.
    pub(crate) fn io(path: &Path, error: std::io::Error) -> Self {
        Error::Io {
            path: path.display().to_string(),
            source: IoSource::new(error),
        }
    }

    /// Builds [`Error::Json`] from serde_json's `error`.
    pub(crate) fn json(error: serde_json::Error) -> Self {
        Error::Json {
            source: JsonSource::new(error),
        }
    }

    /// Builds [`Error::OutOfRange`].
    pub(crate) fn out_of_range(name: &'static str, value: f64, expected: &'static str) -> Self {
        Error::OutOfRange {
            name,
            value,
            expected,
        }
    }

    /// Builds [`Error::Unsupported`] for `what` on this build's platform. Only the code
    /// compiled for a platform that lacks `what` calls it.
    #[cfg_attr(target_os = "linux", allow(dead_code))]
    pub(crate) fn unsupported(what: &'static str, instead: &'static str) -> Self {
        Error::Unsupported {
            what,
            platform: std::env::consts::OS,
            instead,
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

/// The [`std::io::Error`] behind an [`Error::Io`], shared through an [`Arc`] so that
/// [`Error`] can be `Clone` (see [`Error`]'s `# Design`).
///
/// It stands in for the error it wraps: `Display` and `Debug` print the wrapped error's own
/// text, [`source`](std::error::Error::source) is the wrapped error's source, and
/// [`get`](Self::get) (or `*`, through `Deref`) reaches the [`std::io::Error`] itself, with its
/// [`kind`](std::io::Error::kind) and [`raw_os_error`](std::io::Error::raw_os_error).
///
/// Two `IoSource`s are equal when their [`ErrorKind`](std::io::ErrorKind)s are equal and their
/// messages (`Display` texts, which for an OS error include its code) are equal; clones of one
/// `IoSource` are always equal.
#[derive(Clone)]
pub struct IoSource(Arc<std::io::Error>);

impl IoSource {
    /// Wraps `error` (users convert with `From`).
    pub(crate) fn new(error: std::io::Error) -> Self {
        IoSource(Arc::new(error))
    }

    /// The wrapped [`std::io::Error`], the same one every clone shares.
    pub fn get(&self) -> &std::io::Error {
        &self.0
    }

    /// The wrapped error's [`kind`](std::io::Error::kind), for example
    /// [`NotFound`](std::io::ErrorKind::NotFound).
    pub fn kind(&self) -> std::io::ErrorKind {
        self.0.kind()
    }
}

impl From<std::io::Error> for IoSource {
    /// Wraps `error`. Accepts any [`std::io::Error`]; there is no bad input.
    fn from(error: std::io::Error) -> Self {
        IoSource::new(error)
    }
}

impl Deref for IoSource {
    type Target = std::io::Error;

    /// The wrapped [`std::io::Error`], as [`IoSource::get`].
    fn deref(&self) -> &std::io::Error {
        &self.0
    }
}

impl fmt::Debug for IoSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for IoSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl std::error::Error for IoSource {
    /// The wrapped error's own source (usually `None`), not the wrapped error: an `IoSource`
    /// stands in for it.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl PartialEq for IoSource {
    /// Equal kinds and equal messages (see [`IoSource`]).
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.kind() == other.0.kind() && self.0.to_string() == other.0.to_string())
    }
}

impl Eq for IoSource {}

/// The [`serde_json::Error`] behind an [`Error::Json`], shared through an [`Arc`] so that
/// [`Error`] can be `Clone` (see [`Error`]'s `# Design`).
///
/// It stands in for the error it wraps: `Display` and `Debug` print the wrapped error's own
/// text, [`source`](std::error::Error::source) is the wrapped error's source, and
/// [`get`](Self::get) (or `*`, through `Deref`) reaches the [`serde_json::Error`] itself, with
/// its [`classify`](serde_json::Error::classify), [`line`](serde_json::Error::line) and
/// [`column`](serde_json::Error::column).
///
/// Two `JsonSource`s are equal when their [`Category`](serde_json::error::Category), line,
/// column and message (`Display` text) are equal; clones of one `JsonSource` are always equal.
#[derive(Clone)]
pub struct JsonSource(Arc<serde_json::Error>);

impl JsonSource {
    /// Wraps `error` (users convert with `From`).
    pub(crate) fn new(error: serde_json::Error) -> Self {
        JsonSource(Arc::new(error))
    }

    /// The wrapped [`serde_json::Error`], the same one every clone shares.
    pub fn get(&self) -> &serde_json::Error {
        &self.0
    }
}

impl From<serde_json::Error> for JsonSource {
    /// Wraps `error`. Accepts any [`serde_json::Error`]; there is no bad input.
    fn from(error: serde_json::Error) -> Self {
        JsonSource::new(error)
    }
}

impl Deref for JsonSource {
    type Target = serde_json::Error;

    /// The wrapped [`serde_json::Error`], as [`JsonSource::get`].
    fn deref(&self) -> &serde_json::Error {
        &self.0
    }
}

impl fmt::Debug for JsonSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for JsonSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl std::error::Error for JsonSource {
    /// The wrapped error's own source (an I/O error when serde_json read from a reader,
    /// otherwise `None`), not the wrapped error: a `JsonSource` stands in for it.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl PartialEq for JsonSource {
    /// Equal categories, lines, columns and messages (see [`JsonSource`]).
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&*self.0, &*other.0);
        Arc::ptr_eq(&self.0, &other.0)
            || (a.classify() == b.classify()
                && a.line() == b.line()
                && a.column() == b.column()
                && a.to_string() == b.to_string())
    }
}

impl Eq for JsonSource {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;
    use std::io::ErrorKind;

    /// An OS error from a real failed open, with its kind and message.
    fn missing_file() -> (std::path::PathBuf, std::io::Error) {
        let path = std::env::temp_dir()
            .join(format!("rtcompare-error-test-{}", std::process::id()))
            .join("no such directory")
            .join("report.json");
        let e = std::fs::File::open(&path).unwrap_err();
        (path, e)
    }

    #[test]
    fn unsupported_names_what_the_platform_and_what_to_do() {
        let e = Error::unsupported("pinning to a CPU", "run unpinned");
        assert_eq!(
            e.to_string(),
            format!(
                "pinning to a CPU is not available on {}: run unpinned",
                std::env::consts::OS
            )
        );
        assert!(e.source().is_none());
    }

    #[test]
    fn io_source_reaches_the_original_io_error() {
        let (path, e) = missing_file();
        let kind = e.kind();
        let code = e.raw_os_error();
        assert_eq!(kind, ErrorKind::NotFound);
        let err = Error::io(&path, e);
        let io = err
            .source()
            .and_then(|s| s.downcast_ref::<IoSource>())
            .map(IoSource::get)
            .expect("source() is the IoSource of the std::io::Error");
        assert_eq!(io.kind(), kind);
        assert_eq!(io.raw_os_error(), code);
        match &err {
            Error::Io { source, .. } => {
                assert_eq!(source.kind(), kind);
                assert!(std::ptr::eq(source.get(), io));
            }
            other => panic!("expected Error::Io, got {other:?}"),
        }
    }

    #[test]
    fn io_error_built_from_a_message_keeps_its_kind() {
        let e = std::io::Error::new(ErrorKind::InvalidInput, "not a file name");
        let err = Error::io(Path::new("/"), e);
        let io = err
            .source()
            .and_then(|s| s.downcast_ref::<IoSource>())
            .map(IoSource::get)
            .expect("source() is the IoSource of the std::io::Error");
        assert_eq!(io.kind(), ErrorKind::InvalidInput);
        assert_eq!(err.to_string(), "i/o on /: not a file name");
    }

    #[test]
    fn json_source_reaches_the_original_serde_json_error() {
        let e = serde_json::from_str::<serde_json::Value>("{\"a\": [1, 2").unwrap_err();
        let (line, column, category) = (e.line(), e.column(), e.classify());
        let err = Error::json(e);
        let json = err
            .source()
            .and_then(|s| s.downcast_ref::<JsonSource>())
            .map(JsonSource::get)
            .expect("source() is the JsonSource of the serde_json::Error");
        assert_eq!(json.classify(), category);
        assert_eq!((json.line(), json.column()), (line, column));
        assert!(json.is_eof());
        assert_eq!(err.to_string(), format!("report JSON: {json}"));
    }

    #[test]
    fn clones_compare_equal_and_share_the_source() {
        let (path, e) = missing_file();
        let io = Error::io(&path, e);
        let copy = io.clone();
        assert_eq!(io, copy);
        match (&io, &copy) {
            (Error::Io { source: a, .. }, Error::Io { source: b, .. }) => {
                assert!(std::ptr::eq(a.get(), b.get()));
            }
            other => panic!("expected two Error::Io, got {other:?}"),
        }
        let json = Error::json(serde_json::from_str::<u32>("x").unwrap_err());
        assert_eq!(json, json.clone());
        assert_ne!(io, json);
    }

    #[test]
    fn equality_compares_kind_and_message_not_identity() {
        let a = IoSource::new(std::io::Error::new(ErrorKind::NotFound, "gone"));
        assert_eq!(
            a,
            IoSource::new(std::io::Error::new(ErrorKind::NotFound, "gone"))
        );
        assert_ne!(
            a,
            IoSource::new(std::io::Error::new(ErrorKind::PermissionDenied, "gone"))
        );
        assert_ne!(
            a,
            IoSource::new(std::io::Error::new(ErrorKind::NotFound, "moved"))
        );
        let parse = |s: &str| JsonSource::new(serde_json::from_str::<u32>(s).unwrap_err());
        assert_eq!(parse("x"), parse("x"));
        // Same category (syntax), different column.
        assert_ne!(parse("x"), parse(" x"));
        // Different category: a syntax error against a type mismatch.
        assert_ne!(parse("x"), parse("\"x\""));
    }

    #[test]
    fn io_display_names_the_path_and_the_os_message() {
        let (path, e) = missing_file();
        let os_message = e.to_string();
        let err = Error::io(&path, e);
        let text = err.to_string();
        assert_eq!(text, format!("i/o on {}: {os_message}", path.display()));
        assert!(text.contains("no such directory"), "{text}");
        assert!(text.contains(&os_message), "{text}");
    }
}
