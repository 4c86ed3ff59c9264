//! Numbers with their units, as every summary, table and page prints them: durations in
//! nanoseconds (`21.34 ms`), sizes in bytes (`45.3 KiB`) and counts (`1.23 G`). Pure
//! formatting, no other module of the tool.

/// A duration in nanoseconds as `812 ns`, `45.3 µs`, `21.34 ms` or `1.234 s`.
pub fn duration(ns: f64) -> String {
    let a = ns.abs();
    if a < 1e3 {
        format!("{ns:.0} ns")
    } else if a < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if a < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.3} s", ns / 1e9)
    }
}

/// A size in bytes as `812 B`, `45.3 KiB`, `21.3 MiB` or `1.23 GiB`.
pub fn bytes(b: f64) -> String {
    const K: f64 = 1024.0;
    if b < K {
        format!("{b:.0} B")
    } else if b < K * K {
        format!("{:.1} KiB", b / K)
    } else if b < K * K * K {
        format!("{:.1} MiB", b / (K * K))
    } else {
        format!("{:.2} GiB", b / (K * K * K))
    }
}

/// A count as `812`, `45.3 k`, `21.34 M` or `1.23 G`.
pub fn count(v: f64) -> String {
    let a = v.abs();
    if a < 1e3 {
        format!("{v:.0}")
    } else if a < 1e6 {
        format!("{:.1} k", v / 1e3)
    } else if a < 1e9 {
        format!("{:.2} M", v / 1e6)
    } else {
        format!("{:.2} G", v / 1e9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(duration(812.0), "812 ns");
        assert_eq!(duration(45_300.0), "45.3 µs");
        assert_eq!(duration(21_340_000.0), "21.34 ms");
        assert_eq!(duration(1.234e9), "1.234 s");
        assert_eq!(bytes(100.0), "100 B");
        assert_eq!(bytes(2048.0), "2.0 KiB");
        assert_eq!(bytes(50.0 * 1024.0 * 1024.0), "50.0 MiB");
        assert_eq!(count(812.0), "812");
        assert_eq!(count(45_300.0), "45.3 k");
        assert_eq!(count(21_340_000.0), "21.34 M");
        assert_eq!(count(1.234e9), "1.23 G");
    }
}
