//! A short real self-test: a 50 % injected difference must be detected, in the right direction,
//! on any machine that can run the test suite at all.

use std::time::Duration;

use rtcompare::CompareOptions;
use rtcompare::support::selftest::{SelfTestOptions, selftest};

#[test]
fn a_fifty_percent_injection_is_detected_on_the_real_clock() {
    let opts = SelfTestOptions::default()
        .runs(2)
        .informational([])
        .injected(0.5)
        .work_units(500)
        .compare(
            CompareOptions::default()
                .validation_runs(10)
                .resamples(1_000)
                .warmup_duration(Duration::from_millis(20)),
        );
    let r = selftest(&opts).unwrap();
    assert_eq!(r.detection.runs, 2);
    assert_eq!(r.detection.hits, 2, "{r}");
    assert_eq!(r.detection.wrong_direction, 0, "{r}");
    assert!(r.to_string().contains("50 % regression detected"));
}
