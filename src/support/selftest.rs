//! The self-test (calibration before trust: does this machine tell a real difference from
//! noise?), which the command-line tool's `selftest` bars, the `selftest` example and the
//! lab programs use, with its known-answer workload that the tests and examples time.

pub use crate::selftest::{
    Bar, MAX_FALSE_SIGNAL_RATE, MIN_DETECTION_RATE, SelfTestOptions, SelfTestReport,
    binomial_interval, expected_duration, selftest, workload,
};
