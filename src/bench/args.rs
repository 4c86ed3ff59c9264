//! The bench harness's command line: what libtest users type after `cargo bench --`.

use crate::{Error, Result};

/// What the command line asked for.
///
/// Accepted: one name filter (a benchmark runs when its name contains it), `--exact` (the
/// filter must equal the whole name), `--list` (print the names, run nothing), and `--bench`,
/// which `cargo bench` passes and which changes nothing here. Anything else starting with `-`
/// is refused rather than ignored, so a flag meant for another harness does not silently run
/// every benchmark.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Args {
    /// The name filter, if one was given.
    pub filter: Option<String>,
    /// The filter must match the whole name.
    pub exact: bool,
    /// List the selected names instead of running them.
    pub list: bool,
}

impl Args {
    /// Parses the arguments after the program's name. Errors: [`Error::InvalidOption`] for an
    /// unknown flag or a second filter, naming it and what is accepted.
    ///
    /// ```
    /// use rtcompare::bench::Args;
    /// let a = Args::parse(["--bench", "parse/"].map(String::from))?;
    /// assert_eq!(a.filter.as_deref(), Some("parse/"));
    /// assert!(Args::parse(["--sample-size", "10"].map(String::from)).is_err());
    /// # Ok::<(), rtcompare::Error>(())
    /// ```
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Args> {
        let mut parsed = Args::default();
        for arg in args {
            match arg.as_str() {
                "--bench" => {}
                "--exact" => parsed.exact = true,
                "--list" => parsed.list = true,
                flag if flag.starts_with('-') => {
                    return Err(Error::invalid_option(
                        "argument",
                        format!(
                            "unknown flag {flag:?}: the rtcompare bench harness accepts a name \
                             filter, --exact, --list and --bench"
                        ),
                    ));
                }
                filter => {
                    if let Some(first) = &parsed.filter {
                        return Err(Error::invalid_option(
                            "argument",
                            format!(
                                "a second filter {filter:?} after {first:?}: give one filter \
                                 (a benchmark runs when its name contains it)"
                            ),
                        ));
                    }
                    parsed.filter = Some(filter.to_string());
                }
            }
        }
        Ok(parsed)
    }

    /// Whether the benchmark `name` is selected: no filter selects all; otherwise the name
    /// contains the filter, or equals it with `--exact`.
    pub fn selects(&self, name: &str) -> bool {
        match &self.filter {
            None => true,
            Some(f) if self.exact => name == f,
            Some(f) => name.contains(f.as_str()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(a: &[&str]) -> Result<Args> {
        Args::parse(a.iter().map(|s| s.to_string()))
    }

    #[test]
    fn libtest_arguments_select_as_libtest_does() {
        let all = parse(&["--bench"]).unwrap();
        assert!(all.selects("anything") && !all.list);
        let some = parse(&["--bench", "parse/"]).unwrap();
        assert!(some.selects("parse/small") && !some.selects("hash/fx"));
        let exact = parse(&["parse/small", "--exact"]).unwrap();
        assert!(exact.selects("parse/small") && !exact.selects("parse/small/2"));
        let list = parse(&["--list"]).unwrap();
        assert!(list.list && list.filter.is_none());
    }

    #[test]
    fn unknown_flags_and_second_filters_are_refused() {
        for bad in [&["--nocapture"][..], &["--save-baseline", "x"], &["a", "b"]] {
            match parse(bad) {
                Err(Error::InvalidOption {
                    name: "argument",
                    reason,
                }) => {
                    assert!(reason.contains("filter"), "{reason}")
                }
                other => panic!("{bad:?}: {other:?}"),
            }
        }
    }
}
