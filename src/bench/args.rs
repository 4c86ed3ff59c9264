//! The bench harness's command line: what libtest users type after `cargo bench --`.

use super::revisions::flags;
use crate::error::{Error, Result};

/// What the command line asked for.
///
/// Accepted: one name filter (a benchmark runs when its name contains it), `--exact` (the
/// filter must equal the whole name), `--skip S` (not the benchmarks whose name contains S;
/// repeatable), `--list` (print the names, run nothing), and `--bench`, which `cargo bench`
/// passes: without it, as `cargo test` runs a bench target, each benchmark runs **once**, as a
/// smoke test ([`test`](Self::test)). libtest's other flags that `cargo test` users pass
/// (`--nocapture`, `--test-threads N`, `--quiet`, `--color C`, `--format F`, `--show-output`,
/// `--include-ignored`, `--ignored`, `-Z X`, …) are accepted and change nothing. Anything
/// else starting with `-` is refused rather than ignored, so a flag meant for another harness
/// does not silently run every benchmark. criterion's `--output-format bencher` prints each
/// result as libtest's bench line instead of a table row ([`OutputFormat`]).
///
/// `--baseline REV` compares this bench target at the git revision REV with the working tree
/// ([`revisions`](Self::revisions)), taking `rtcompare bench`'s flags: `--head`, `--json`,
/// `--export-markdown`, `--html`, `--fail-on-regression[=BUDGET]`, `--budget`, `--margin`,
/// `--layouts`, `--seed`, `--pairs`, `--max-pairs`, `--per-benchmark`, `--precision`,
/// `--no-cpu-per-pair`, `--no-step-summary`; the filter, `--exact` and `--skip` select the
/// benchmarks compared. criterion's `--save-baseline` and `--load-baseline` are refused with
/// what to do instead: this harness keeps no saved results.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Args {
    /// The name filter, if one was given.
    pub filter: Option<String>,
    /// The filter must match the whole name.
    pub exact: bool,
    /// List the selected names instead of running them.
    pub list: bool,
    /// Names containing any of these are not selected (`--skip`).
    pub skip: Vec<String>,
    /// Run each selected benchmark once instead of measuring it: set by [`parse`](Self::parse)
    /// when the command line has no `--bench` (`cargo test`, `cargo test --benches`); false
    /// in [`Args::default`].
    pub test: bool,
    /// How each result is printed on stdout (`--output-format`; default the table row).
    pub output: OutputFormat,
    /// With `--baseline REV`: compare the bench target at two revisions instead of running
    /// it ([`compare_revisions`](super::compare_revisions)); the filter, `--exact` and
    /// `--skip` are copied in when it runs.
    pub revisions: Option<super::RevisionsOptions>,
    /// `--help` or `-h`: print the harness's flags (`HELP`) and run nothing.
    pub help: bool,
}

/// What `cargo bench --bench NAME -- --help` prints: every flag the harness takes.
pub const HELP: &str = "\
The rtcompare bench harness: cargo bench --bench NAME -- [FILTER] [OPTIONS]

Running the benchmarks of this target:
  FILTER                     run the benchmarks whose name contains FILTER
      --exact                FILTER must equal the whole name
      --skip S               leave out the benchmarks whose name contains S (repeatable)
      --list                 print the names, run nothing
      --output-format F      `bencher`: libtest's bench line per result; `criterion`: the table
  Without --bench (cargo test --benches) each benchmark runs once; libtest's flags
  (--nocapture, --test-threads N, --quiet, --color C, --format F, ...) are accepted.

Comparing with another revision of this target (nothing to install):
      --baseline REV         build REV (a git revision) in a temporary worktree and compare
      --head REV             compare REV instead of the working tree
      --fail-on-regression[=BUDGET]
                             exit 1 when a benchmark is proven slower and its
                             estimated slowdown exceeds BUDGET
                             (default 0: by any amount)
      --budget DURATION      time for the worker pairs in all (e.g. 5m; 0: none)
      --margin PCT           changes within it are equivalent (default 1%; a wider
                             --fail-on-regression budget is the margin instead)
      --layouts N            code layouts per build
      --seed N               seed of the layouts and the pairs' order
      --pairs N, --max-pairs N, --per-benchmark, --precision, --no-cpu-per-pair
      --json FILE            the result as JSON (- for stdout)
      --export-markdown FILE the summary as Markdown (--markdown likewise)
      --html FILE            the result as an HTML page
      --no-step-summary      do not append the summary to $GITHUB_STEP_SUMMARY

criterion's --save-baseline and --load-baseline are refused: give --baseline a git revision.
More: docs/guide/cargo-bench.md and docs/topics/cross-revision.md.
";

/// How the harness prints each result on stdout.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputFormat {
    /// One table row per benchmark ([`BenchResult`](super::BenchResult)'s `Display`); also
    /// criterion's name for its own format, `--output-format criterion`.
    #[default]
    Table,
    /// `--output-format bencher`: libtest's line, `test NAME ... bench: 1,234 ns/iter (+/- 5)`,
    /// which github-action-benchmark and bencher read: the mean in whole nanoseconds per
    /// operation and, after `+/-`, its interval's half-width (criterion prints its standard
    /// deviation there). A benchmark with no estimate or that failed keeps its table row.
    Bencher,
}

impl OutputFormat {
    /// Parses `--output-format`'s value. Errors: [`Error::InvalidOption`] naming the values.
    fn parse(value: &str) -> Result<OutputFormat> {
        match value {
            "bencher" => Ok(OutputFormat::Bencher),
            "criterion" | "table" => Ok(OutputFormat::Table),
            other => Err(Error::invalid_option(
                "argument",
                format!(
                    "--output-format {other:?}: use `bencher` (libtest's lines) or `criterion` \
                     (the table, the default)"
                ),
            )),
        }
    }
}

/// libtest's flags without a value that `cargo test` users pass; accepted, and ignored.
const LIBTEST_SWITCHES: [&str; 11] = [
    "--nocapture",
    "--show-output",
    "--quiet",
    "-q",
    "--include-ignored",
    "--ignored",
    "--report-time",
    "--ensure-time",
    "--force-run-in-process",
    "--shuffle",
    "--test",
];

/// libtest's flags that take a value (as the next argument or after `=`); accepted, and
/// their value ignored.
const LIBTEST_VALUED: [&str; 6] = [
    "--test-threads",
    "--color",
    "--format",
    "-Z",
    "--logfile",
    "--shuffle-seed",
];

/// criterion's flags for saved baselines: refused with the paired run to use instead, since a
/// saved baseline compares today's machine with another day's.
const CRITERION_BASELINE: [&str; 2] = ["--save-baseline", "--load-baseline"];

impl Args {
    /// Parses the arguments after the program's name. Errors: [`Error::InvalidOption`] for an
    /// unknown flag or a second filter, naming it and what is accepted.
    ///
    /// ```
    /// use rtcompare::support::bench::Args;
    /// let a = Args::parse(["--bench", "parse/"].map(String::from))?;
    /// assert_eq!(a.filter.as_deref(), Some("parse/"));
    /// assert!(Args::parse(["--sample-size", "10"].map(String::from)).is_err());
    /// # Ok::<(), rtcompare::Error>(())
    /// ```
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Args> {
        let mut parsed = Args::default();
        let mut bench = false;
        let mut revisions = super::RevisionsOptions::default();
        let mut revision_flags = Vec::new();
        let mut args = args.into_iter().peekable();
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
                _ => (arg.clone(), None),
            };
            if flags::is_revision_flag(&name) {
                let mut next = |optional: bool| {
                    if optional {
                        // Only a budget is taken: a filter stays a filter.
                        args.next_if(|v| flags::parse_fraction(v).is_ok())
                    } else {
                        args.next()
                    }
                };
                flags::apply(&mut revisions, &name, inline, &mut next)?;
                revision_flags.push(name);
                continue;
            }
            parsed.apply_harness_arg(&arg, &mut bench, &mut args)?;
        }
        parsed.test = !bench;
        parsed.take_revisions(revisions, &revision_flags)?;
        Ok(parsed)
    }

    /// Keeps the revision options when any revision flag (`revision_flags`, in the order
    /// given) was seen. Errors: [`Error::InvalidOption`] when `--baseline` was not among them.
    fn take_revisions(
        &mut self,
        revisions: super::RevisionsOptions,
        revision_flags: &[String],
    ) -> Result<()> {
        if !revision_flags.is_empty() {
            if !revision_flags.iter().any(|f| f == "--baseline") {
                return Err(Error::invalid_option(
                    "argument",
                    format!(
                        "{} compares two revisions: give the baseline too, --baseline REV",
                        revision_flags[0]
                    ),
                ));
            }
            self.revisions = Some(revisions);
        }
        Ok(())
    }

    /// Applies one argument that is not a revision flag: the harness's own flags, libtest's
    /// (accepted and ignored, with their values), and else [`Self::take_filter_or_refuse`].
    /// `args` gives the values of flags that take one.
    fn apply_harness_arg(
        &mut self,
        arg: &str,
        bench: &mut bool,
        args: &mut impl Iterator<Item = String>,
    ) -> Result<()> {
        let valued = |flag: &str| LIBTEST_VALUED.contains(&flag);
        match arg {
            "--bench" => *bench = true,
            "--exact" => self.exact = true,
            "--list" => self.list = true,
            "--help" | "-h" => self.help = true,
            "--output-format" => match args.next() {
                Some(v) => self.output = OutputFormat::parse(&v)?,
                None => {
                    return Err(Error::invalid_option(
                        "argument",
                        "--output-format needs `bencher` or `criterion` after it",
                    ));
                }
            },
            flag if flag.starts_with("--output-format=") => {
                self.output = OutputFormat::parse(&flag["--output-format=".len()..])?;
            }
            "--skip" => match args.next() {
                Some(s) => self.skip.push(s),
                None => {
                    return Err(Error::invalid_option(
                        "argument",
                        "--skip needs a name filter after it",
                    ));
                }
            },
            flag if LIBTEST_SWITCHES.contains(&flag) => {}
            flag if valued(flag) => {
                args.next();
            }
            flag if flag
                .split_once('=')
                .is_some_and(|(f, _)| valued(f) || f == "--skip") =>
            {
                if let Some(s) = flag.strip_prefix("--skip=") {
                    self.skip.push(s.to_string());
                }
            }
            other => self.take_filter_or_refuse(other)?,
        }
        Ok(())
    }

    /// Takes an argument no flag of the harness took: criterion's saved-baseline flags and
    /// unknown flags are refused, naming what to use instead; anything else is the filter, of
    /// which there is one.
    fn take_filter_or_refuse(&mut self, arg: &str) -> Result<()> {
        match arg {
            flag if CRITERION_BASELINE.contains(&flag.split('=').next().unwrap_or(flag)) => {
                return Err(Error::invalid_option(
                    "argument",
                    format!(
                        "{flag} is criterion's; this harness keeps no saved results: \
                         compare against another revision with `--baseline REV` (a git \
                         revision such as main or HEAD~1), which builds it and runs both \
                         builds in the same seconds on one CPU \
                         (docs/topics/cross-revision.md)"
                    ),
                ));
            }
            flag if flag.starts_with('-') => {
                return Err(Error::invalid_option(
                    "argument",
                    format!(
                        "unknown flag {flag:?}: the rtcompare bench harness accepts a name \
                         filter, --exact, --skip, --list, --bench, --output-format, libtest's \
                         flags, and --baseline REV with its flags; `-- --help` lists them"
                    ),
                ));
            }
            filter => {
                if let Some(first) = &self.filter {
                    return Err(Error::invalid_option(
                        "argument",
                        format!(
                            "a second filter {filter:?} after {first:?}: give one filter \
                             (a benchmark runs when its name contains it)"
                        ),
                    ));
                }
                self.filter = Some(filter.to_string());
            }
        }
        Ok(())
    }

    /// Whether the benchmark `name` is selected: not when it contains a `--skip` filter; then
    /// no filter selects all; otherwise the name contains the filter, or equals it with
    /// `--exact`.
    pub fn selects(&self, name: &str) -> bool {
        if self.skip.iter().any(|s| name.contains(s.as_str())) {
            return false;
        }
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
        assert!(all.skip.is_empty() && !all.test);
    }

    #[test]
    fn without_bench_it_is_a_test_run_that_takes_libtests_flags() {
        // What `cargo test --benches -- --nocapture --test-threads 1 --skip slow` passes.
        let t = parse(&[
            "--nocapture",
            "--test-threads",
            "1",
            "--color=never",
            "-q",
            "--skip",
            "slow",
            "--skip=huge",
            "parse",
        ])
        .unwrap();
        assert!(t.test);
        assert_eq!(t.filter.as_deref(), Some("parse"));
        assert!(t.selects("parse/small") && !t.selects("parse/slow") && !t.selects("parse/huge"));
        assert!(parse(&[]).unwrap().test);
        assert!(matches!(
            parse(&["--skip"]),
            Err(Error::InvalidOption { .. })
        ));
    }

    #[test]
    fn output_format_bencher_is_read_in_both_spellings() {
        assert_eq!(parse(&["--bench"]).unwrap().output, OutputFormat::Table);
        for args in [
            &["--bench", "--output-format", "bencher"][..],
            &["--output-format=bencher", "--bench"],
        ] {
            assert_eq!(
                parse(args).unwrap().output,
                OutputFormat::Bencher,
                "{args:?}"
            );
        }
        let criterion = parse(&["--output-format", "criterion"]).unwrap();
        assert_eq!(criterion.output, OutputFormat::Table);
        for bad in [&["--output-format", "json"][..], &["--output-format"]] {
            assert!(
                matches!(parse(bad), Err(Error::InvalidOption { .. })),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn criterions_saved_baselines_point_to_the_paired_run() {
        for flag in ["--save-baseline", "--load-baseline"] {
            let joined = format!("{flag}=main");
            for args in [&["--bench", flag, "main"][..], &["--bench", &joined]] {
                match parse(args) {
                    Err(Error::InvalidOption { reason, .. }) => assert!(
                        reason.contains(flag) && reason.contains("--baseline REV"),
                        "{reason}"
                    ),
                    other => panic!("{args:?}: {other:?}"),
                }
            }
        }
    }

    #[test]
    fn baseline_takes_rtcompare_benchs_flags() {
        let a = parse(&[
            "--bench",
            "--baseline",
            "HEAD~1",
            "--fail-on-regression",
            "2%",
            "--markdown=s.md",
            "--layouts",
            "10",
            "--budget",
            "0",
            "parse/",
        ])
        .unwrap();
        let r = a.revisions.expect("a comparison of revisions");
        assert_eq!(r.baseline, "HEAD~1");
        assert_eq!(r.fail_on_regression, Some(0.02));
        assert_eq!(r.markdown.as_deref(), Some(std::path::Path::new("s.md")));
        assert_eq!((r.layouts, r.budget), (10, std::time::Duration::ZERO));
        assert_eq!(a.filter.as_deref(), Some("parse/"));
        // Without a budget the next argument stays the filter.
        let b = parse(&["--baseline=main", "--fail-on-regression", "parse/"]).unwrap();
        assert_eq!(b.revisions.unwrap().fail_on_regression, Some(0.0));
        assert_eq!(b.filter.as_deref(), Some("parse/"));
        assert!(parse(&["--bench"]).unwrap().revisions.is_none());
    }

    #[test]
    fn revision_flags_without_a_baseline_or_with_bad_values_are_refused() {
        for (bad, says) in [
            (&["--bench", "--json", "x.json"][..], "--baseline REV"),
            (&["--baseline", "main", "--layouts", "many"], "whole number"),
            (&["--baseline", "main", "--margin", "200%"], "out of range"),
            (&["--baseline"], "needs a git revision"),
        ] {
            match parse(bad) {
                Err(Error::InvalidOption { reason, .. }) => {
                    assert!(reason.contains(says), "{bad:?}: {reason}")
                }
                other => panic!("{bad:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn help_is_a_flag_and_names_every_flag_the_harness_takes() {
        assert!(parse(&["--help"]).unwrap().help && parse(&["-h"]).unwrap().help);
        assert!(!parse(&["--bench"]).unwrap().help);
        let named =
            |flag: &str| HELP.contains(&format!("{flag} ")) || HELP.contains(&format!("{flag}["));
        for flag in ["--exact", "--skip", "--list", "--output-format"] {
            assert!(named(flag), "{flag} missing from HELP");
        }
        let hidden_aliases = ["--export-json", "--threshold"];
        for (flag, _) in flags::VALUED {
            assert!(
                named(flag) || hidden_aliases.contains(&flag),
                "{flag} missing from HELP"
            );
        }
        for flag in flags::SWITCHES {
            assert!(
                named(flag)
                    || HELP.contains(&format!("{flag},"))
                    || HELP.contains(&format!("{flag}\n")),
                "{flag} missing from HELP"
            );
        }
    }

    #[test]
    fn unknown_flags_and_second_filters_are_refused() {
        for bad in [&["--sample-size"][..], &["a", "b"]] {
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
