//! The crate's one error type.
//!
//! Every fallible function of rtcompare-workload returns [`Result<T>`](crate::Result) (but
//! [`compare_child`](crate::compare_child), which returns what
//! [`pool::run`](rtcompare::pool::run)'s closure takes). Each variant carries what a caller
//! needs to fix the call: which field was wrong, the value received, and what was expected. A
//! failure of the core's measurement or pooling arrives as [`Error::Core`], with the core's
//! own error inside.

/// Shorthand for `std::result::Result<T, rtcompare_workload::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in a workload, a structure comparison or a suite.
///
/// The `Display` text is a sentence that names the offending field, the value received and
/// how to fix the call. Like [`rtcompare::Error`], it is `Clone` and `PartialEq`, so tests can
/// compare errors with `assert_eq!`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The core library failed (the comparison's measurement, a pool's processes, the
    /// options of either): its error, unchanged.
    #[error(transparent)]
    Core(#[from] rtcompare::Error),
    /// A numeric field of a [`Spec`](crate::Spec) outside its valid range.
    #[error("{name} = {value} is out of range: expected {expected}")]
    OutOfRange {
        /// Name of the field (for example `"band"`, `"zipf exponent"`).
        name: &'static str,
        /// The value received.
        value: f64,
        /// The valid range, in words (for example `"0 <= band < 1"`).
        expected: &'static str,
    },
    /// A spec, structure or suite that is invalid for a reason other than a numeric range: a
    /// mix that does not sum to one, a structure whose key type does not match the spec's
    /// (`name` is `"key_type"`), a suite without specs or structures (`"suite"`).
    #[error("invalid option {name}: {reason}")]
    InvalidOption {
        /// Name of the field or option.
        name: &'static str,
        /// What is wrong and how to fix it.
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

impl From<Error> for rtcompare::Error {
    /// The core's error with the same fields, for closures that must return the core's
    /// [`Result`](rtcompare::Result) (a [`pool::run`](rtcompare::pool::run) closure): a core
    /// error unwrapped, [`Error::OutOfRange`] and [`Error::InvalidOption`] as the core's
    /// variants of the same names.
    fn from(e: Error) -> Self {
        match e {
            Error::Core(e) => e,
            Error::OutOfRange {
                name,
                value,
                expected,
            } => rtcompare::Error::OutOfRange {
                name,
                value,
                expected,
            },
            Error::InvalidOption { name, reason } => {
                rtcompare::Error::InvalidOption { name, reason }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_cross_into_the_core_with_their_fields() {
        let core = rtcompare::Error::TooFewSamples {
            what: "processes",
            needed: 3,
            got: 2,
        };
        assert_eq!(rtcompare::Error::from(Error::from(core.clone())), core);
        let e = Error::invalid_option("key_type", "String keys for a u64 spec");
        let text = e.to_string();
        let crossed = rtcompare::Error::from(e);
        assert!(matches!(
            crossed,
            rtcompare::Error::InvalidOption {
                name: "key_type",
                ..
            }
        ));
        assert_eq!(crossed.to_string(), text);
        let e = Error::out_of_range("band", 1.5, "0 <= band < 1");
        assert_eq!(rtcompare::Error::from(e.clone()).to_string(), e.to_string());
    }
}
