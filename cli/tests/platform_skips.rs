//! What the tests leave out off Unix, said where a run of `cargo test` shows it: the parts of
//! the tool that only Unix offers have tests that are compiled on Unix only.

/// Off Unix: names the tests not compiled here and why, on stderr, and passes.
#[test]
#[cfg(not(unix))]
fn unix_only_tests_are_skipped_here() {
    eprintln!(
        "skipped on {}: tests/bench.rs and tests/harness_baseline.rs (comparing two builds \
         needs the worker protocol's inherited Unix descriptors: rtcompare answers \
         Error::Unsupported here), tests/interrupt.rs, cmd.rs's \
         sigterm_kills_and_reaps_the_running_child and git.rs's \
         ctrl_c_during_the_checkout_is_an_interruption (signals and process groups), \
         tests/pipelines.rs (the pipelines' steps are `sh` on Linux runners)",
        std::env::consts::OS
    );
}
