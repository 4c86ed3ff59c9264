//! Numbers with their units, as every summary, table and page prints them: durations in
//! nanoseconds, sizes in bytes and counts, in the library's formats (`rtcompare`'s one place
//! for them), so that the tool and the library's reports print a figure alike.

use std::sync::OnceLock;

use rtcompare::support::display::{Bytes, Ns, SiCount};

/// The unit of times in the summary and the tables (`--time-unit`), hyperfine's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TimeUnit {
    /// µs.
    Microsecond,
    /// ms.
    Millisecond,
    /// s.
    Second,
}

/// `--time-unit`, set once for the process when given: one flag of one command line, read by
/// every summary and table it prints.
static TIME_UNIT: OnceLock<TimeUnit> = OnceLock::new();

/// Fixes the unit every [`duration`] is written in (`--time-unit`); the first call wins.
pub fn set_time_unit(unit: TimeUnit) {
    let _ = TIME_UNIT.set(unit);
}

/// `--time-unit`, when given.
pub fn time_unit() -> Option<TimeUnit> {
    TIME_UNIT.get().copied()
}

/// A duration in nanoseconds with about four significant digits: `712.7 ns`, `48.00 µs`,
/// `21.34 ms`, `1.234 s`; in the `--time-unit` when one was given (`48.000 µs`,
/// `0.048 ms`).
pub fn duration(ns: f64) -> String {
    match time_unit() {
        None => Ns(ns).to_string(),
        Some(unit) => fixed(ns, unit),
    }
}

/// `ns` in `unit`, with three decimals.
fn fixed(ns: f64, unit: TimeUnit) -> String {
    let (scale, name) = match unit {
        TimeUnit::Microsecond => (1e3, "µs"),
        TimeUnit::Millisecond => (1e6, "ms"),
        TimeUnit::Second => (1e9, "s"),
    };
    format!("{:.3} {name}", ns / scale)
}

/// A size in bytes: `812 B`, `45.3 KiB`, `21.3 MiB`, `1.2 GiB`.
pub fn bytes(b: f64) -> String {
    Bytes(b).to_string()
}

/// A count as `812`, `45.3 k`, `21.34 M` or `1.23 G`.
pub fn count(v: f64) -> String {
    SiCount(v).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(duration(812.0), "812.0 ns");
        assert_eq!(duration(1_762_000.0), "1.762 ms");
        assert_eq!(duration(45_300.0), "45.30 µs");
        assert_eq!(duration(21_340_000.0), "21.34 ms");
        assert_eq!(duration(1.234e10), "12.34 s");
        assert_eq!(bytes(100.0), "100 B");
        assert_eq!(bytes(2048.0), "2.0 KiB");
        assert_eq!(bytes(50.0 * 1024.0 * 1024.0), "50.0 MiB");
        assert_eq!(count(45_300.0), "45.3 k");
        assert_eq!(fixed(1_762_000.0, TimeUnit::Millisecond), "1.762 ms");
        assert_eq!(fixed(1_762_000.0, TimeUnit::Second), "0.002 s");
        assert_eq!(fixed(45_300.0, TimeUnit::Microsecond), "45.300 µs");
    }
}
