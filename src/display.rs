//! Number formats shared by every `Display` in the crate and by the workspace's other crates
//! (through the hidden `support` module): percentages, ratios, levels, durations, counts and
//! sizes in bytes. Percentages have one style (`2.1 %`, `+1.7 %`, `−0.30 %`, `95 %`); a
//! difference is printed as the candidate's change in time, + = slower (`stats::Change`). The
//! one place where a unit switches: durations at 10³ of a unit (999.9 ns, then 1.000 µs),
//! sizes at 1024. Pure; imports nothing of the crate.

use std::fmt;

/// A count per operation: whole numbers as such, others to three significant digits.
pub struct Count(pub f64);

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.fract() == 0.0 && self.0.abs() < 1e15 {
            write!(f, "{}", self.0 as i64)
        } else {
            write!(f, "{}", Sig(self.0))
        }
    }
}

/// A large count with an SI prefix, for hardware counters: `812`, `45.3 k`, `21.34 M`,
/// `1.23 G`.
pub struct SiCount(pub f64);

impl fmt::Display for SiCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        match v.abs() {
            a if a < 1e3 => write!(f, "{v:.0}"),
            a if a < 1e6 => write!(f, "{:.1} k", v / 1e3),
            a if a < 1e9 => write!(f, "{:.2} M", v / 1e6),
            _ => write!(f, "{:.2} G", v / 1e9),
        }
    }
}

/// A size in bytes, in B, KiB, MiB or GiB.
pub struct Bytes(pub f64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        let (value, unit) = match b.abs() {
            x if x < 1024.0 => return write!(f, "{} B", Count(b)),
            x if x < (1u64 << 20) as f64 => (b / 1024.0, "KiB"),
            x if x < (1u64 << 30) as f64 => (b / (1u64 << 20) as f64, "MiB"),
            _ => (b / (1u64 << 30) as f64, "GiB"),
        };
        write!(f, "{value:.1} {unit}")
    }
}

/// A share between 0 and 1 (such as I²) to two decimals, or `undefined` when it is NaN (the
/// statistic could not be computed, e.g. no spread within processes).
pub struct Share(pub f64);

impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_nan() {
            f.write_str("undefined")
        } else {
            write!(f, "{:.2}", self.0)
        }
    }
}

/// A fraction as a percentage: one decimal, two below 1 % so that a small figure keeps two
/// significant digits, a space before the sign and a minus sign (U+2212) only when negative:
/// `2.1 %`, `0.45 %`, `−1.2 %`. The crate's one percentage style, for every figure a person
/// reads (the terminal, Markdown, HTML, warnings); a NaN prints as `NaN %`.
pub struct Pct(pub f64);

impl fmt::Display for Pct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0.0 { "−" } else { "" };
        write!(f, "{sign}{}", Magnitude(self.0))
    }
}

/// A fraction as a percentage that always carries its sign, rounded as [`Pct`]: `+1.7 %`,
/// `−0.30 %`, `+0.00 %`. For a change in time, + = slower, and for the ends of its interval.
pub struct SignedPct(pub f64);

impl fmt::Display for SignedPct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0.0 { "−" } else { "+" };
        write!(f, "{sign}{}", Magnitude(self.0))
    }
}

/// The size of a fraction as a percentage, without sign, rounded as [`Pct`].
struct Magnitude(f64);

impl fmt::Display for Magnitude {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0.abs() * 100.0;
        if p < 1.0 {
            write!(f, "{p:.2} %")
        } else {
            write!(f, "{p:.1} %")
        }
    }
}

/// A ratio with four significant digits (1.771, 0.3293, 12.34).
pub struct Sig(pub f64);

impl fmt::Display for Sig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if !v.is_finite() || v == 0.0 {
            return write!(f, "{v}");
        }
        let magnitude = v.abs().log10().floor() as i32;
        let decimals = (3 - magnitude).clamp(0, 12) as usize;
        write!(f, "{v:.decimals$}")
    }
}

/// A level as a percentage to at most two decimals, without trailing zeros (`95 %`, `99.9 %`,
/// `99.16 %` for a sequential look's 0.991636), so that a level such as 0.57 prints as 57 %,
/// not as its binary neighbour 56.99999999999999 %.
pub struct Level(pub f64);

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.2}", self.0 * 100.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        write!(f, "{text} %")
    }
}

/// A duration in nanoseconds with four significant digits and a fitting unit: `712.7 ns`,
/// `1.262 µs`, `48.00 µs`, `1.762 ms`, `12.34 s`; 0 is `0 ns`.
pub struct Ns(pub f64);

impl fmt::Display for Ns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = self.0;
        if ns == 0.0 || !ns.is_finite() {
            return write!(f, "{ns} ns");
        }
        let (v, unit) = match ns.abs() {
            a if a < 1e3 => (ns, "ns"),
            a if a < 1e6 => (ns / 1e3, "µs"),
            a if a < 1e9 => (ns / 1e6, "ms"),
            _ => (ns / 1e9, "s"),
        };
        let decimals = match v.abs() {
            a if a < 10.0 => 3,
            a if a < 100.0 => 2,
            _ => 1,
        };
        write!(f, "{v:.decimals$} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(Ns(712.74).to_string(), "712.7 ns");
        assert_eq!(Ns(1262.0).to_string(), "1.262 µs");
        assert_eq!(Ns(1_762_000.0).to_string(), "1.762 ms");
        assert_eq!(Ns(0.0).to_string(), "0 ns");
        assert_eq!(Ns(1.234e10).to_string(), "12.34 s");
        assert_eq!(Ns(2.13).to_string(), "2.130 ns");
        assert_eq!(Ns(48_000.0).to_string(), "48.00 µs");
        assert_eq!(Pct(0.4353).to_string(), "43.5 %");
        assert_eq!(Pct(-0.2).to_string(), "−20.0 %");
        assert_eq!(Pct(0.0045).to_string(), "0.45 %");
        assert_eq!(SignedPct(0.017).to_string(), "+1.7 %");
        assert_eq!(SignedPct(-0.003).to_string(), "−0.30 %");
        assert_eq!(SignedPct(0.0).to_string(), "+0.00 %");
        assert_eq!(Level(0.95).to_string(), "95 %");
        assert_eq!(Level(0.999).to_string(), "99.9 %");
        assert_eq!(Level(0.57).to_string(), "57 %");
        assert_eq!(Level(0.991_636).to_string(), "99.16 %");
        assert_eq!(Sig(1.7712).to_string(), "1.771");
        assert_eq!(Sig(0.329_33).to_string(), "0.3293");
        assert_eq!(Sig(12.345).to_string(), "12.35");
        assert_eq!(Share(0.5612).to_string(), "0.56");
        assert_eq!(Share(f64::NAN).to_string(), "undefined");
        assert_eq!(Count(3.0).to_string(), "3");
        assert_eq!(SiCount(812.0).to_string(), "812");
        assert_eq!(SiCount(45_300.0).to_string(), "45.3 k");
        assert_eq!(SiCount(21_340_000.0).to_string(), "21.34 M");
        assert_eq!(SiCount(1.234e9).to_string(), "1.23 G");
        assert_eq!(Count(2.5).to_string(), "2.500");
        assert_eq!(Bytes(812.0).to_string(), "812 B");
        assert_eq!(Bytes(16.0 * 1024.0).to_string(), "16.0 KiB");
        assert_eq!(Bytes(21.3 * 1024.0 * 1024.0).to_string(), "21.3 MiB");
        assert_eq!(
            Bytes(1.25 * 1024.0 * 1024.0 * 1024.0).to_string(),
            "1.2 GiB"
        );
    }
}
