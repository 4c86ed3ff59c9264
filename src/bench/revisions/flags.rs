//! The flags of a comparison of revisions on the harness's command line
//! (`cargo bench --bench NAME -- --baseline REV …`): the same names, values and defaults as
//! `rtcompare bench`, whose parser calls the value parsers here.

use std::path::PathBuf;
use std::time::Duration;

use super::RevisionsOptions;
use crate::error::{Error, Result};

/// Parses a fraction written as `2%`, `0.5 %` or `0.02`: from 0 to just under 1. Errors: the
/// sentence to show, naming the value and what is expected.
///
/// ```
/// use rtcompare::support::bench::parse_fraction;
/// assert_eq!(parse_fraction("2%"), Ok(0.02));
/// assert!(parse_fraction("150%").is_err() && parse_fraction("two").is_err());
/// ```
pub fn parse_fraction(s: &str) -> std::result::Result<f64, String> {
    let t = s.trim();
    let (number, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 0.01),
        None => (t, 1.0),
    };
    let v: f64 = number.parse().map_err(|_| {
        format!("`{s}` is not a number; write a percentage such as 1% or a fraction such as 0.01")
    })?;
    let v = v * scale;
    if !(v.is_finite() && (0.0..1.0).contains(&v)) {
        return Err(format!(
            "`{s}` is out of range: expected 0% to just under 100%"
        ));
    }
    Ok(v)
}

/// Parses a positive duration written as `60`, `60s`, `1.5s`, `500ms` or `2m`. Errors: the
/// sentence to show, naming the value and what is expected.
///
/// ```
/// use rtcompare::support::bench::parse_duration;
/// assert_eq!(parse_duration("2m"), Ok(std::time::Duration::from_secs(120)));
/// assert!(parse_duration("-1s").is_err() && parse_duration("soon").is_err());
/// ```
pub fn parse_duration(s: &str) -> std::result::Result<Duration, String> {
    let t = s.trim();
    let (number, unit) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let v: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a duration; write 60, 90s, 500ms or 2m"))?;
    let secs = v * unit;
    if !(secs.is_finite() && secs > 0.0 && secs < 1e9) {
        return Err(format!(
            "`{s}` is out of range: expected a positive duration"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Parses a time budget: `0` for none, else a duration as [`parse_duration`] reads it.
/// Errors: the sentence to show.
///
/// ```
/// use rtcompare::support::bench::parse_budget;
/// assert_eq!(parse_budget("0"), Ok(std::time::Duration::ZERO));
/// assert_eq!(parse_budget("90s"), Ok(std::time::Duration::from_secs(90)));
/// ```
pub fn parse_budget(s: &str) -> std::result::Result<Duration, String> {
    if s.trim() == "0" {
        Ok(Duration::ZERO)
    } else {
        parse_duration(s)
    }
}

/// The widest `--fail-on-regression` budget a run decides at (50 %): beyond it "equivalent
/// within ±budget" would span halving and doubling, and the margin stays.
const MAX_DECISION_MARGIN: f64 = 0.5;

/// The margin a comparison is decided at, in every front end with `--fail-on-regression`:
/// `margin`, or the regression `budget` when that is wider (up to 50 %), so that each look
/// goes on until the interval answers the check (beyond the budget, or within ±budget)
/// instead of stopping at the first interval beyond the margin, which can still straddle
/// the budget. Fractions; `None` (no check) or a budget of 0 (any amount) leave the margin.
///
/// ```
/// use rtcompare::support::bench::decision_margin;
/// assert_eq!(decision_margin(0.01, Some(0.02)), 0.02);
/// assert_eq!(decision_margin(0.01, None), 0.01);
/// ```
pub fn decision_margin(margin: f64, budget: Option<f64>) -> f64 {
    match budget {
        Some(budget) if budget > margin && budget <= MAX_DECISION_MARGIN => budget,
        _ => margin,
    }
}

/// The flags that take a value, with what the value is.
pub(crate) const VALUED: [(&str, &str); 14] = [
    ("--baseline", "a git revision"),
    ("--head", "a git revision"),
    ("--json", "a file"),
    ("--export-json", "a file"),
    ("--markdown", "a file"),
    ("--export-markdown", "a file"),
    ("--html", "a file"),
    ("--budget", "a duration such as 5m"),
    ("--margin", "a percentage such as 2%"),
    ("--threshold", "a percentage such as 2%"),
    ("--layouts", "a whole number"),
    ("--seed", "a whole number"),
    ("--pairs", "a whole number"),
    ("--max-pairs", "a whole number"),
];

/// The switches (no value); `--fail-on-regression` takes an optional budget.
pub(crate) const SWITCHES: [&str; 5] = [
    "--per-benchmark",
    "--precision",
    "--no-cpu-per-pair",
    "--no-step-summary",
    "--fail-on-regression",
];

/// Whether `flag` (without `=value`) is one of the revision flags.
pub(crate) fn is_revision_flag(flag: &str) -> bool {
    VALUED.iter().any(|(f, _)| *f == flag) || SWITCHES.contains(&flag)
}

/// Sets what `flag` says on `o`. `value` is the value after `=` or the next argument; `peek`
/// tells whether the next argument is one `--fail-on-regression` takes as its budget (a
/// fraction), which is then consumed. Errors: [`Error::InvalidOption`] naming the flag and
/// the value expected.
pub(crate) fn apply(
    o: &mut RevisionsOptions,
    flag: &str,
    inline: Option<String>,
    next: &mut dyn FnMut(bool) -> Option<String>,
) -> Result<()> {
    let bad = |reason: String| Error::invalid_option("argument", format!("{flag}: {reason}"));
    if flag == "--fail-on-regression" {
        // The budget is optional: the next argument is taken only when it is one.
        let value = match inline {
            Some(v) => Some(v),
            None => next(true),
        };
        o.fail_on_regression = Some(match value {
            Some(v) => parse_fraction(&v).map_err(bad)?,
            None => 0.0,
        });
        return Ok(());
    }
    match flag {
        "--per-benchmark" => o.per_benchmark = true,
        "--precision" => o.precision = true,
        "--no-cpu-per-pair" => o.cpu_per_pair = false,
        "--no-step-summary" => o.step_summary = false,
        _ => {
            let expected = VALUED
                .iter()
                .find(|(f, _)| *f == flag)
                .map_or("a value", |(_, e)| *e);
            let value = inline
                .or_else(|| next(false))
                .ok_or_else(|| bad(format!("needs {expected} after it")))?;
            let whole = |v: &str| {
                v.parse::<u64>()
                    .map_err(|_| bad(format!("`{v}` is not {expected}")))
            };
            match flag {
                "--baseline" => o.baseline = value,
                "--head" => o.head = Some(value),
                "--json" | "--export-json" => o.json = Some(PathBuf::from(value)),
                "--markdown" | "--export-markdown" => o.markdown = Some(PathBuf::from(value)),
                "--html" => o.html = Some(PathBuf::from(value)),
                "--budget" => o.budget = parse_budget(&value).map_err(bad)?,
                "--margin" | "--threshold" => o.margin = parse_fraction(&value).map_err(bad)?,
                "--layouts" => o.layouts = whole(&value)? as usize,
                "--seed" => o.seed = whole(&value)?,
                "--pairs" => o.pairs = whole(&value)? as usize,
                "--max-pairs" => o.max_pairs = whole(&value)? as usize,
                _ => return Err(bad("not a flag of a comparison of revisions".into())),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_durations_and_budgets_parse() {
        assert_eq!(parse_fraction("1%").unwrap(), 0.01);
        assert_eq!(parse_fraction(" 2.5 % ").unwrap(), 0.025);
        assert_eq!(parse_fraction("0.03").unwrap(), 0.03);
        for bad in ["x", "100%", "-1%", "1.5", "nan"] {
            assert!(parse_fraction(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_duration("60").unwrap(), Duration::from_secs(60));
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        for bad in ["0", "-1s", "soon", "inf"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_budget("0").unwrap(), Duration::ZERO);
        assert!(parse_budget("-1s").is_err());
    }
}
