//! Groups of benchmarks: a shared name prefix, options and a throughput, and parameterised
//! benchmarks named after their parameter, as criterion's users write them.
//!
//! A group is the [`Bencher`] seen through a prefix: `b.group("parse", |g| g.bench("small",
//! …))` registers `parse/small`, which filters, `--exact`, workers and the JSON see as any
//! other name. What the group sets ([`Group::set_options`], [`Group::throughput`]) holds for
//! its later benchmarks and ends with it.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{BenchOptions, Bencher};
use crate::measure::candidate::Candidate;

/// How much work one operation of a benchmark does, so that its time is also shown as a rate:
/// bytes or elements **per operation** (one call of the benchmark's closure).
///
/// ```
/// use rtcompare::bench::Throughput;
/// // 4 KiB per operation at 1,000 ns each: 4,096,000,000 bytes per second, 3.81 GiB/s.
/// let t = Throughput::Bytes(4_096);
/// assert_eq!(t.rate(1_000.0).unwrap().per_second, 4.096e9);
/// assert_eq!(t.rate(1_000.0).unwrap().to_string(), "3.81 GiB/s");
/// assert_eq!(Throughput::Elements(10).rate(2.0).unwrap().to_string(), "5.00 Gelem/s");
/// assert!(t.rate(0.0).is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Throughput {
    /// Bytes per operation; shown in bytes per second, in powers of 1024 (B/s, KiB/s, MiB/s,
    /// GiB/s, TiB/s), as criterion shows them.
    Bytes(u64),
    /// Elements (items, records, keys) per operation; shown in elements per second, in powers
    /// of 1000 (elem/s, Kelem/s, Melem/s, Gelem/s).
    Elements(u64),
    /// Bytes per operation, shown in powers of 1000 (B/s, KB/s, MB/s, GB/s, TB/s), as
    /// criterion's `BytesDecimal` shows them.
    BytesDecimal(u64),
    /// Bits per operation (a network function's), shown in bits per second in powers of 1000
    /// (b/s, Kb/s, Mb/s, Gb/s, Tb/s), as criterion's `Bits` shows them.
    Bits(u64),
}

impl Throughput {
    /// Bytes or elements per second at `ns_per_op` nanoseconds per operation; `None` when
    /// `ns_per_op` is not a positive finite number (no rate can be stated).
    pub(crate) fn per_second(&self, ns_per_op: f64) -> Option<f64> {
        if !(ns_per_op.is_finite() && ns_per_op > 0.0) {
            return None;
        }
        let amount = match self {
            Throughput::Bytes(n)
            | Throughput::Elements(n)
            | Throughput::BytesDecimal(n)
            | Throughput::Bits(n) => *n as f64,
        };
        Some(amount * 1e9 / ns_per_op)
    }

    /// The rate at `ns_per_op` nanoseconds per operation, ready to print (`Display`: three
    /// significant figures and a unit); `None` when `ns_per_op` is not a positive finite number
    /// (no rate can be stated).
    pub fn rate(&self, ns_per_op: f64) -> Option<Rate> {
        Some(Rate {
            per_second: self.per_second(ns_per_op)?,
            unit: match self {
                Throughput::Bytes(_) => RateUnit::Bytes,
                Throughput::Elements(_) => RateUnit::Elements,
                Throughput::BytesDecimal(_) => RateUnit::BytesDecimal,
                Throughput::Bits(_) => RateUnit::Bits,
            },
        })
    }
}

/// A throughput's rate, printed with its unit (see [`Throughput::rate`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Bytes, elements or bits per second.
    pub per_second: f64,
    /// What is counted, and the powers it is shown in.
    pub unit: RateUnit,
}

/// What a [`Rate`] counts: the [`Throughput`]'s kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RateUnit {
    /// Bytes, in powers of 1024.
    Bytes,
    /// Elements, in powers of 1000.
    Elements,
    /// Bytes, in powers of 1000.
    BytesDecimal,
    /// Bits, in powers of 1000.
    Bits,
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (base, units): (f64, [&str; 5]) = match self.unit {
            RateUnit::Bytes => (1024.0, ["B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"]),
            RateUnit::Elements => (
                1000.0,
                ["elem/s", "Kelem/s", "Melem/s", "Gelem/s", "Telem/s"],
            ),
            RateUnit::BytesDecimal => (1000.0, ["B/s", "KB/s", "MB/s", "GB/s", "TB/s"]),
            RateUnit::Bits => (1000.0, ["b/s", "Kb/s", "Mb/s", "Gb/s", "Tb/s"]),
        };
        let mut value = self.per_second;
        let mut unit = 0;
        while value >= base && unit + 1 < units.len() {
            value /= base;
            unit += 1;
        }
        // Three significant figures: enough to compare rates by eye, no more than the
        // measurement's precision (a few per cent) supports.
        let decimals = if value >= 100.0 {
            0
        } else if value >= 10.0 {
            1
        } else {
            2
        };
        write!(f, "{value:.decimals$} {}", units[unit])
    }
}

/// A group of benchmarks under one name prefix: what [`Bencher::group`] hands its closure.
/// Each method registers as the [`Bencher`] method of the same name does, under
/// `PREFIX/name`.
///
/// ```no_run
/// use rtcompare::bench::Throughput;
///
/// rtcompare::bench::main(|b| {
///     b.group("sum", |g| {
///         for n in [64u64, 4_096] {
///             g.throughput(Throughput::Elements(n));
///             // `sum/64` and `sum/4096`: each fixture built only when its benchmark runs.
///             g.bench_with_input(n, |&n| (0..n).collect::<Vec<u64>>(), |v| {
///                 v.iter().sum::<u64>()
///             });
///         }
///     });
/// });
/// ```
pub struct Group<'b> {
    pub(super) bencher: &'b mut Bencher,
}

impl Group<'_> {
    /// Sets the throughput of the group's later benchmarks (each row then shows a rate beside
    /// its time, and the JSON carries it); until set, the enclosing one (none at the top).
    pub fn throughput(&mut self, t: Throughput) {
        self.bencher.throughput = Some(t);
    }

    /// Replaces the options of the group's later benchmarks (see [`Bencher::set_options`]);
    /// the options before the group return when it ends.
    pub fn set_options(&mut self, options: BenchOptions) {
        self.bencher.set_options(options);
    }

    /// The options the group's next benchmark runs with.
    pub fn options(&self) -> &BenchOptions {
        self.bencher.options()
    }

    /// [`Bencher::bench`] as `PREFIX/name`.
    pub fn bench<T>(&mut self, name: &str, f: impl FnMut() -> T) {
        self.bencher.bench(name, f);
    }

    /// [`Bencher::bench_with_setup`] as `PREFIX/name`: `setup` builds the fixture only when
    /// this benchmark runs or is served.
    pub fn bench_with_setup<I, T>(
        &mut self,
        name: &str,
        setup: impl FnOnce() -> I,
        routine: impl FnMut(&I) -> T,
    ) {
        self.bencher.bench_with_setup(name, setup, routine);
    }

    /// A parameterised benchmark, `PREFIX/param`: `setup` builds its input from `param` only
    /// when this benchmark runs or is served (lazily, unlike [`Bencher::bench_with_input`],
    /// whose input the caller has built), and `routine` is measured on it, one operation per
    /// call. Call it once per parameter, a row each (the example above).
    pub fn bench_with_input<P: fmt::Display, I, T>(
        &mut self,
        param: P,
        setup: impl FnOnce(&P) -> I,
        routine: impl FnMut(&I) -> T,
    ) {
        let name = param.to_string();
        self.bencher
            .bench_with_setup(&name, move || setup(&param), routine);
    }

    /// [`Bencher::bench_batched`] as `PREFIX/name`.
    pub fn bench_batched<I, T>(
        &mut self,
        name: &str,
        setup: impl FnMut() -> I,
        routine: impl FnMut(I) -> T,
    ) {
        self.bencher.bench_batched(name, setup, routine);
    }

    /// [`Bencher::compare`] as `PREFIX/name`.
    pub fn compare(&mut self, name: &str, a: Candidate<'_>, b: Candidate<'_>) {
        self.bencher.compare(name, a, b);
    }

    /// A nested group, `PREFIX/name/…`, with this group's options and throughput to start.
    pub fn group(&mut self, name: &str, register: impl FnOnce(&mut Group<'_>)) {
        self.bencher.group(name, register);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_take_the_unit_that_keeps_them_readable() {
        let b = |bytes: u64, ns: f64| Throughput::Bytes(bytes).rate(ns).unwrap().to_string();
        assert_eq!(b(1, 1e9), "1.00 B/s");
        assert_eq!(b(1_024, 1e9), "1.00 KiB/s");
        assert_eq!(b(1_536, 1e6), "1.46 MiB/s");
        assert_eq!(b(64, 1.0), "59.6 GiB/s");
        assert_eq!(b(1 << 40, 1e9), "1.00 TiB/s");
        assert_eq!(b(1 << 50, 1e9), "1024 TiB/s");
        let e = |n: u64, ns: f64| Throughput::Elements(n).rate(ns).unwrap().to_string();
        assert_eq!(e(999, 1e9), "999 elem/s");
        assert_eq!(e(1, 8.0), "125 Melem/s");
        let d = Throughput::BytesDecimal(1_500)
            .rate(1e3)
            .unwrap()
            .to_string();
        assert_eq!(d, "1.50 GB/s");
        assert_eq!(
            Throughput::Bits(8).rate(1.0).unwrap().to_string(),
            "8.00 Gb/s"
        );
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(Throughput::Bytes(1).per_second(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_throughput_is_written_as_its_kind_and_amount() {
        let json = serde_json::to_string(&Throughput::Bytes(4_096)).unwrap();
        assert_eq!(json, r#"{"bytes":4096}"#);
        let back: Throughput = serde_json::from_str(r#"{"elements":3}"#).unwrap();
        assert_eq!(back, Throughput::Elements(3));
    }
}
