//! The counters where they are not compiled in (without the Cargo feature `counters`) or not
//! supported (off Linux): nothing opens, and the reason says how to get them.

use super::{Counter, CounterFailure, CounterReading, Unavailable};

/// Whose events a group counts (see the Linux implementation).
pub(super) enum Target {
    ThisThread,
    Children,
}

/// Never constructed: without the feature or off Linux, opening always fails.
#[derive(Debug)]
pub(super) struct Group {
    never: std::convert::Infallible,
}

impl Group {
    pub(super) fn open(_: Target) -> Result<Group, Unavailable> {
        let reason = if cfg!(target_os = "linux") {
            "hardware counters are not compiled in: build rtcompare with the Cargo feature \
             `counters` (for example `cargo test --features counters`, or \
             `rtcompare = { features = [\"counters\"] }`)"
                .to_string()
        } else {
            format!(
                "hardware counters need Linux perf_event_open (the Cargo feature `counters` \
                 on Linux); this target is {}",
                std::env::consts::OS
            )
        };
        Err(Unavailable { reason })
    }

    pub(super) fn read(&self) -> CounterReading {
        match self.never {}
    }

    pub(super) fn counters(&self) -> Vec<Counter> {
        match self.never {}
    }

    pub(super) fn failures(&self) -> &[CounterFailure] {
        match self.never {}
    }
}

#[cfg(test)]
mod tests {
    use crate::measure::counters::CounterSet;

    #[test]
    fn without_the_feature_open_says_how_to_enable_it() {
        let err = CounterSet::open().unwrap_err();
        assert!(err.reason.contains("`counters`"), "{err}");
        assert!(err.to_string().starts_with("unavailable: "));
    }
}
