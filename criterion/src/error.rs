//! The crate's one error type: what went wrong with the bench target's command line.

/// Why the command line cannot be run; the harness prints it and exits with status 2.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// The harness's own part of the command line (libtest's flags, `--exact`, `--skip`,
    /// criterion's saved baselines, …) was refused.
    #[error(transparent)]
    Harness(#[from] rtcompare::Error),
    /// The name filter is not a regular expression.
    #[error(
        "the filter {filter:?} is not a regular expression ({reason}); criterion's filters \
         are regular expressions (escape `(`, `[`, `+`, … with a backslash, or pass --exact \
         to match the whole name literally)"
    )]
    Filter {
        /// The filter as given.
        filter: String,
        /// The regular expression's complaint.
        reason: String,
    },
    /// A flag that takes a value came last, or its value could not be read.
    #[error("{flag} {value:?}: expected {expected}")]
    Value {
        /// The flag.
        flag: String,
        /// The value given (empty when none followed the flag).
        value: String,
        /// What the flag takes.
        expected: &'static str,
    },
    /// criterion's flag for something this harness does not do, with what to do instead.
    #[error("{flag} is not supported by rtcompare-criterion: {instead}")]
    Unsupported {
        /// The flag.
        flag: &'static str,
        /// What to do instead.
        instead: &'static str,
    },
}
