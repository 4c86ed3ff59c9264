//! criterion's command line: what `cargo bench -- …` passes to a criterion bench target,
//! split into what the harness reads (the core's `support::bench::Args`), the regular-expression
//! filter, the settings it overrides, and the flags that are accepted with no effect.

use std::time::Duration;

use regex::Regex;

use crate::error::Error;
use crate::session::Note;

/// What `cargo bench -- --help` prints for a criterion bench file on this layer, before the
/// harness's own flags.
pub(crate) const HELP: &str = "\
A criterion bench file on rtcompare-criterion. criterion's flags:
  FILTER                     a regular expression a benchmark's name must match
      --warm-up-time S, --measurement-time S, --confidence-level L
                             applied (the measurement time bounds a benchmark's time)
      --sample-size, --nresamples, --noise-threshold, --significance-level, --noplot,
      --plotting-backend, --color, --quiet, --verbose, --quick, --discard-baseline
                             accepted; each is named once as having no effect here
      --ignored, --test, --format F
                             as criterion's
      --profile-time, --baseline-lenient, --save-baseline, --load-baseline
                             refused, with what to do instead

";

/// A parsed command line.
#[derive(Debug)]
pub(crate) struct CommandLine {
    /// What the harness reads: `--bench` (else a test run), `--exact` with its filter,
    /// `--skip`, `--list`, `--output-format` and libtest's flags.
    pub(crate) harness: rtcompare::support::bench::Args,
    /// criterion's filter, a regular expression a name must match somewhere (without
    /// `--exact`; with it the harness compares the whole name).
    pub(crate) filter: Option<Regex>,
    /// `--ignored`: criterion runs no benchmark (none is ignored-only).
    pub(crate) reject_all: bool,
    /// Settings given on the command line, which override the bench file's.
    pub(crate) overrides: Overrides,
    /// Flags accepted that change nothing here, each to be named once.
    pub(crate) notes: Vec<Note>,
}

/// Settings the command line overrides (criterion's `--warm-up-time S`, …), where they mean
/// something here.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub(crate) struct Overrides {
    pub(crate) warm_up_time: Option<Duration>,
    pub(crate) measurement_time: Option<Duration>,
    pub(crate) confidence_level: Option<f64>,
}

impl CommandLine {
    /// Parses the arguments after the program's name.
    pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<CommandLine, Error> {
        let mut flags = Flags::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            flags.read(arg, &mut args)?;
        }
        let mut harness = rtcompare::support::bench::Args::parse(flags.rest)?;
        harness.test |= flags.force_test;
        let filter = regex_filter(&mut harness)?;
        Ok(CommandLine {
            harness,
            filter,
            reject_all: flags.reject_all,
            overrides: flags.overrides,
            notes: flags.notes,
        })
    }
}

/// What criterion's own flags said, and the arguments left for the harness to parse.
#[derive(Default)]
struct Flags {
    /// The arguments the harness parses, criterion's short forms spelled as its long flags.
    rest: Vec<String>,
    /// Flags accepted that change nothing here ([`CommandLine::notes`]).
    notes: Vec<Note>,
    /// Settings given on the command line ([`CommandLine::overrides`]).
    overrides: Overrides,
    /// `--ignored`.
    reject_all: bool,
    /// `--test`: a test run even under `cargo bench`.
    force_test: bool,
}

impl Flags {
    /// Reads `arg`, taking its value from `args` when it is a flag with a separate one; an
    /// argument that is not criterion's is kept for the harness. Errors: [`Error::Value`] for a
    /// missing or bad value, [`Error::Unsupported`] for a flag this harness cannot honour.
    fn read(&mut self, arg: String, args: &mut impl Iterator<Item = String>) -> Result<(), Error> {
        // criterion's long flags take `--flag value` and `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |expected| take_value(&flag, inline.clone(), args, expected);
        match flag.as_str() {
            "--ignored" => self.reject_all = true,
            "--test" => self.force_test = true,
            // criterion's list format and libtest's output format: both lists print
            // `NAME: benchmark` lines here, and a test run prints its own lines.
            "--format" => {
                value("a format")?;
            }
            "--warm-up-time" => self.overrides.warm_up_time = Some(seconds(&flag, value("s")?)?),
            "--measurement-time" => {
                self.overrides.measurement_time = Some(seconds(&flag, value("s")?)?);
            }
            "--confidence-level" => {
                let v = value("a level between 0 and 1")?;
                self.overrides.confidence_level = Some(level(&flag, v)?);
            }
            "--profile-time" => {
                return Err(Error::Unsupported {
                    flag: "--profile-time",
                    instead: "run the bench binary under your profiler with a filter \
                              and --bench (`perf record target/release/deps/NAME-HASH \
                              --bench FILTER`): each selected benchmark is then measured \
                              as usual while the profiler samples it",
                });
            }
            "--baseline-lenient" => {
                return Err(Error::Unsupported {
                    flag: "--baseline-lenient",
                    instead: "this harness keeps no saved baselines; compare against \
                              another revision with `--baseline REV` (a git revision), \
                              which builds it and runs both builds in the same seconds on \
                              one CPU",
                });
            }
            // criterion's short forms, refused by the harness under their long names.
            "-s" => self.rest.push("--save-baseline".to_string()),
            "-b" => self.rest.push("--baseline".to_string()),
            _ => match no_effect(&flag, value)? {
                Some(note) => self.notes.push(note),
                None => self.rest.push(arg),
            },
        }
        Ok(())
    }
}

/// The note for `flag` when it is one of criterion's flags that change nothing here, after
/// checking its value (read with `value`) as criterion would; `None` for any other flag.
/// Errors: [`Error::Value`] for a missing or bad value.
fn no_effect(
    flag: &str,
    mut value: impl FnMut(&'static str) -> Result<String, Error>,
) -> Result<Option<Note>, Error> {
    Ok(Some(match flag {
        "--noplot" | "-n" => Note::Plots,
        "--plotting-backend" => {
            one_of(
                flag,
                value("gnuplot or plotters")?,
                &["gnuplot", "plotters"],
            )?;
            Note::Plots
        }
        "--color" | "--colour" | "-c" => {
            let v = value("auto, always or never")?;
            one_of(flag, v, &["auto", "always", "never"])?;
            Note::Color
        }
        "--verbose" | "-v" | "--quiet" => Note::Verbosity,
        "--quick" => Note::Quick,
        "--discard-baseline" => Note::SavedBaselines,
        "--sample-size" => {
            number::<usize>(flag, value("a whole number of samples")?, "a whole number")?;
            Note::SampleSize
        }
        "--nresamples" => {
            number::<usize>(flag, value("a whole number")?, "a whole number")?;
            Note::Resamples
        }
        "--noise-threshold" | "--significance-level" => {
            number::<f64>(flag, value("a number")?, "a number")?;
            Note::BaselineJudgement
        }
        _ => return Ok(None),
    }))
}

/// criterion's filter, taken out of `harness`: a regular expression; `None` where the harness
/// keeps the filter as it is, or where there is none. Errors: [`Error::Filter`] for a filter
/// that is not a regular expression.
fn regex_filter(harness: &mut rtcompare::support::bench::Args) -> Result<Option<Regex>, Error> {
    // The filter stays the harness's in a comparison of revisions, which selects in its parent
    // by substring as `rtcompare bench` does, and with `--exact`, which compares whole names.
    if harness.revisions.is_some() || harness.exact {
        return Ok(None);
    }
    harness
        .filter
        .take()
        .map(|f| {
            Regex::new(&f).map_err(|e| Error::Filter {
                reason: e.to_string(),
                filter: f,
            })
        })
        .transpose()
}

/// The flag's value: after `=`, or the next argument.
fn take_value(
    flag: &str,
    inline: Option<String>,
    args: &mut impl Iterator<Item = String>,
    expected: &'static str,
) -> Result<String, Error> {
    inline.or_else(|| args.next()).ok_or_else(|| Error::Value {
        flag: flag.to_string(),
        value: String::new(),
        expected,
    })
}

fn one_of(flag: &str, value: String, allowed: &[&str]) -> Result<(), Error> {
    if allowed.contains(&value.as_str()) {
        return Ok(());
    }
    Err(Error::Value {
        flag: flag.to_string(),
        value,
        expected: "one of the values criterion takes (see `--help` of criterion)",
    })
}

fn number<T: std::str::FromStr>(
    flag: &str,
    value: String,
    expected: &'static str,
) -> Result<T, Error> {
    value.trim().parse().map_err(|_| Error::Value {
        flag: flag.to_string(),
        value,
        expected,
    })
}

/// A confidence level, strictly between 0 and 1 (criterion's `--confidence-level`).
fn level(flag: &str, value: String) -> Result<f64, Error> {
    let level = number::<f64>(flag, value.clone(), "a level between 0 and 1")?;
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::Value {
            flag: flag.to_string(),
            value,
            expected: "a level between 0 and 1 (0.95 for 95 %)",
        });
    }
    Ok(level)
}

/// A positive, finite number of seconds (criterion's unit for these flags).
fn seconds(flag: &str, value: String) -> Result<Duration, Error> {
    let expected = "a positive number of seconds";
    let s = number::<f64>(flag, value.clone(), expected)?;
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or(Error::Value {
            flag: flag.to_string(),
            value,
            expected,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(a: &[&str]) -> Result<CommandLine, Error> {
        CommandLine::parse(a.iter().map(|s| s.to_string()))
    }

    #[test]
    fn help_reaches_the_harness_and_names_criterions_flags() {
        assert!(parse(&["--bench", "--help"]).unwrap().harness.help);
        assert!(parse(&["-h"]).unwrap().harness.help);
        for flag in [
            "--warm-up-time",
            "--measurement-time",
            "--confidence-level",
            "--sample-size",
            "--noplot",
            "--profile-time",
            "--save-baseline",
        ] {
            assert!(HELP.contains(flag), "{flag} missing from HELP");
        }
    }

    #[test]
    fn the_filter_is_a_regular_expression_unless_exact() {
        let c = parse(&["--bench", "^sum/(64|4096)$"]).unwrap();
        let r = c.filter.unwrap();
        assert!(r.is_match("sum/64") && r.is_match("sum/4096") && !r.is_match("sum/640"));
        assert!(c.harness.filter.is_none() && !c.harness.test);
        let exact = parse(&["--bench", "--exact", "sum/(64)"]).unwrap();
        assert!(exact.filter.is_none());
        assert_eq!(exact.harness.filter.as_deref(), Some("sum/(64)"));
        assert!(exact.harness.selects("sum/(64)") && !exact.harness.selects("sum/64"));
        match parse(&["--bench", "vec(100"]) {
            Err(e @ Error::Filter { .. }) => assert!(e.to_string().contains("--exact"), "{e}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn criterions_flags_are_accepted_and_the_no_effect_ones_named() {
        let c = parse(&[
            "--bench",
            "--noplot",
            "--color",
            "never",
            "--verbose",
            "--sample-size=10",
            "--nresamples",
            "1000",
            "--noise-threshold",
            "0.05",
            "--plotting-backend",
            "plotters",
            "--discard-baseline",
            "--quick",
            "--skip",
            "slow",
            "--output-format",
            "bencher",
        ])
        .unwrap();
        assert_eq!(
            c.notes,
            [
                Note::Plots,
                Note::Color,
                Note::Verbosity,
                Note::SampleSize,
                Note::Resamples,
                Note::BaselineJudgement,
                Note::Plots,
                Note::SavedBaselines,
                Note::Quick,
            ]
        );
        assert_eq!(c.harness.skip, ["slow"]);
        assert_eq!(
            c.harness.output,
            rtcompare::support::bench::OutputFormat::Bencher
        );
        assert!(c.filter.is_none() && !c.reject_all);
    }

    #[test]
    fn overrides_that_mean_something_are_read() {
        let c = parse(&[
            "--warm-up-time",
            "0.5",
            "--measurement-time=2",
            "--confidence-level",
            "0.99",
        ])
        .unwrap();
        assert_eq!(
            c.overrides,
            Overrides {
                warm_up_time: Some(Duration::from_millis(500)),
                measurement_time: Some(Duration::from_secs(2)),
                confidence_level: Some(0.99),
            }
        );
        // No --bench: a test run (`cargo test --benches`); --test forces one under cargo bench.
        assert!(c.harness.test);
        assert!(parse(&["--bench", "--test"]).unwrap().harness.test);
        assert!(parse(&["--ignored", "--bench"]).unwrap().reject_all);
        // libtest's flags under `cargo test --benches -- …`, criterion's `--format terse`.
        let t = parse(&[
            "--format",
            "json",
            "--test-threads",
            "1",
            "--nocapture",
            "x",
        ])
        .unwrap();
        assert!(t.harness.test && t.filter.unwrap().is_match("x"));
        assert!(parse(&["--list", "--format=terse"]).unwrap().harness.list);
    }

    #[test]
    fn baseline_is_a_revision_to_compare_with_and_keeps_its_filter_a_substring() {
        for args in [
            &["--bench", "--baseline", "HEAD~1", "parse.*"][..],
            &["--bench", "-b", "HEAD~1", "parse.*"],
        ] {
            let c = parse(args).unwrap();
            let r = c
                .harness
                .revisions
                .as_ref()
                .expect("a comparison of revisions");
            assert_eq!(r.baseline, "HEAD~1");
            assert!(c.filter.is_none(), "{args:?}");
            assert_eq!(c.harness.filter.as_deref(), Some("parse.*"));
        }
    }

    #[test]
    fn bad_values_and_unsupported_flags_are_refused_with_what_to_do() {
        for bad in [
            &["--sample-size", "ten"][..],
            &["--measurement-time", "0"],
            &["--warm-up-time", "-1"],
            &["--measurement-time", "inf"],
            &["--confidence-level", "1.5"],
            &["--color", "purple"],
            &["--sample-size"],
        ] {
            assert!(matches!(parse(bad), Err(Error::Value { .. })), "{bad:?}");
        }
        for (bad, says) in [
            (&["--bench", "--profile-time", "5"][..], "profiler"),
            (&["--baseline-lenient", "main"], "--baseline REV"),
            (&["--bench", "-s", "main"], "--baseline REV"),
            (&["--load-baseline=x"], "--baseline REV"),
            (&["--bench", "--warp-speed"], "unknown flag"),
        ] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }
}
