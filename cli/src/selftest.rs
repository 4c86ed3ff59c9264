//! `rtcompare selftest --cmd CMD`: does this machine tell a real difference between two runs
//! of a program from noise?
//!
//! Two bars, as the library's self-test sets them for in-process code:
//!
//! 1. **A/A**: `--trials` comparisons of the command against itself; any verdict (faster,
//!    slower, win or loss) is a false signal, and at most
//!    [`MAX_FALSE_SIGNAL_RATE`] (5 %) may occur;
//! 2. **injected cost**: `--trials` comparisons in which one side carries a real busy-wait of
//!    `--inject` (5 %) of the command's median run time inside its timed window; the slow side
//!    alternates between A and B, and at least [`MIN_DETECTION_RATE`] (95 %) must be detected
//!    in the right direction.
//!
//! Each rate comes with its exact (Clopper–Pearson) 95 % interval from
//! [`binomial_interval`]: 20 trials cannot pin a rate to better than several points.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use rtcompare::env::Environment;
use rtcompare::support::selftest::{MAX_FALSE_SIGNAL_RATE, MIN_DETECTION_RATE, binomial_interval};

use crate::analysis::CommandOutcome;
use crate::cli::{CompareArgs, SelftestArgs};
use crate::commands::Pair;
use crate::error::{CliError, Result};
use crate::export::Exporter;
use crate::export::json::Json;
use crate::session;
use rtcompare::stats::Claim;

/// One bar's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BarResult {
    /// Comparisons run.
    pub trials: usize,
    /// A/A: comparisons that gave a verdict; injected: comparisons that found the slow side.
    pub hits: usize,
    /// Injected: comparisons that called the wrong side slower.
    pub wrong_direction: usize,
    /// `hits / trials`.
    pub rate: f64,
    /// The exact 95 % interval of the rate.
    pub low: f64,
    /// Upper end of that interval.
    pub high: f64,
    /// Each comparison's outcome, in order.
    pub outcomes: Vec<CommandOutcome>,
    /// Each comparison's timed pairs.
    pub pairs: Vec<usize>,
    /// Each comparison's wall time, s.
    pub seconds: Vec<f64>,
    /// Whether the rate met its bar (A/A: at most 5 %; injected: at least 95 %). Absent from
    /// records written before it was added, and read back as `false` there.
    #[serde(default)]
    pub passed: bool,
}

impl BarResult {
    fn new(
        hits: usize,
        wrong: usize,
        outcomes: Vec<CommandOutcome>,
        pairs: Vec<usize>,
        seconds: Vec<f64>,
    ) -> BarResult {
        let trials = outcomes.len();
        let (low, high) = binomial_interval(hits, trials);
        BarResult {
            trials,
            hits,
            wrong_direction: wrong,
            rate: if trials == 0 {
                0.0
            } else {
                hits as f64 / trials as f64
            },
            low,
            high,
            outcomes,
            pairs,
            seconds,
            passed: false,
        }
    }
}

/// The self-test's result, also the `--record` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelftestReport {
    /// Layout version of the record (1).
    pub schema_version: u32,
    /// The command calibrated with.
    pub command: String,
    /// The command's median run time from the first A/A comparison, ns.
    pub median_ns: f64,
    /// The injected busy-wait, ns.
    pub injected_ns: f64,
    /// `--inject` as a fraction of the median.
    pub injected: f64,
    /// The A/A bar.
    pub aa: BarResult,
    /// The injected-cost bar.
    pub detection: BarResult,
    /// Both bars passed: A/A rate ≤ 5 % and detection rate ≥ 95 %.
    pub passed: bool,
    /// The machine (the library's environment stamp; `start_time` is the date).
    pub environment: Environment,
    /// Wall time of the self-test, s.
    pub seconds: f64,
}

impl fmt::Display for SelftestReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |x: f64| 100.0 * x;
        let median = |xs: &[usize]| {
            let mut v = xs.to_vec();
            v.sort_unstable();
            v.get(v.len() / 2).copied().unwrap_or(0)
        };
        writeln!(
            f,
            "self-test of `{}` (median run {})",
            self.command,
            crate::units::duration(self.median_ns)
        )?;
        writeln!(
            f,
            "A/A: {}/{} false signals ({:.0} %, 95 % interval {:.1}–{:.1} %; bar ≤ {:.0} %): {}; median {} pairs",
            self.aa.hits,
            self.aa.trials,
            pct(self.aa.rate),
            pct(self.aa.low),
            pct(self.aa.high),
            pct(MAX_FALSE_SIGNAL_RATE),
            if self.aa.rate <= MAX_FALSE_SIGNAL_RATE {
                "pass"
            } else {
                "FAIL"
            },
            median(&self.aa.pairs)
        )?;
        writeln!(
            f,
            "injected {:.0} % ({}): {}/{} detected ({:.0} %, 95 % interval {:.1}–{:.1} %; bar ≥ {:.0} %), {} in the wrong direction: {}; median {} pairs",
            pct(self.injected),
            crate::units::duration(self.injected_ns),
            self.detection.hits,
            self.detection.trials,
            pct(self.detection.rate),
            pct(self.detection.low),
            pct(self.detection.high),
            pct(MIN_DETECTION_RATE),
            self.detection.wrong_direction,
            if self.detection.rate >= MIN_DETECTION_RATE {
                "pass"
            } else {
                "FAIL"
            },
            median(&self.detection.pairs)
        )?;
        writeln!(
            f,
            "{} ({:.0} s)",
            if self.passed {
                "SELF-TEST PASSED: verdicts on this machine can be trusted at these settings"
            } else {
                "SELF-TEST FAILED: do not trust verdicts on this machine at these settings"
            },
            self.seconds
        )
    }
}

/// Checks `args` before anything runs. Errors (usage): `--trials 0`, `--inject 0%`, and the
/// comparison flags a self-test cannot honour: `--html` and the `--export-*` tables describe
/// one comparison, not two bars of many, and `--fail-on-regression` has no comparison to act
/// on (a failed bar already exits 1). They are refused rather than accepted and ignored;
/// `--json FILE` and `--record DIR` keep the result. A file error when `--record DIR` cannot
/// be created or written into, so that it fails now and not after every comparison.
pub fn check(args: &SelftestArgs) -> Result<()> {
    if args.trials == 0 {
        return Err(CliError::Usage("--trials must be at least 1".into()));
    }
    if args.inject <= 0.0 {
        return Err(CliError::Usage(
            "--inject must be above 0%, for example 5%".into(),
        ));
    }
    let o = &args.options;
    let refused: Vec<&str> = [
        ("--html", o.html.is_some()),
        ("--export-json", o.export_json.is_some()),
        ("--export-markdown", o.export_markdown.is_some()),
        ("--export-csv", o.export_csv.is_some()),
        ("--export-asciidoc", o.export_asciidoc.is_some()),
        ("--export-orgmode", o.export_orgmode.is_some()),
        ("--fail-on-regression", o.fail_on_regression.is_some()),
    ]
    .into_iter()
    .filter_map(|(flag, given)| given.then_some(flag))
    .collect();
    if !refused.is_empty() {
        return Err(CliError::Usage(format!(
            "rtcompare selftest does not take {}: they describe one comparison, and a self-test \
             is two bars over many (it exits 1 when a bar fails). Keep its result with --json \
             FILE or --record DIR",
            refused.join(", ")
        )));
    }
    if let Some(dir) = &args.record {
        writable_dir(dir)?;
    }
    Ok(())
}

/// Checks that `--record DIR` can take the record, before the minutes of comparisons that
/// precede it: DIR is created (as [`record`] would create it at the end) and a file is
/// created in it and removed again. Errors: a file error naming DIR.
fn writable_dir(dir: &Path) -> Result<()> {
    let cannot = |action, source| CliError::File {
        action,
        path: dir.into(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| cannot("create", e))?;
    let probe = dir.join(format!(".selftest-probe-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| cannot("write into", e))?;
    std::fs::remove_file(&probe).map_err(|e| cannot("write into", e))
}

/// Runs the self-test (its flags checked by [`check`]). Errors: any run error of the
/// comparisons.
pub(crate) fn run(args: &SelftestArgs) -> Result<SelftestReport> {
    let started = Instant::now();
    // `--json` names the self-test's result, not any one comparison's: a session that writes
    // its JSON as it measures must not overwrite it trial by trial.
    let options = CompareArgs {
        json: None,
        ..args.options.clone()
    };
    let mut environment = Environment::capture();
    let cmd = args.cmd.as_str();
    let plain = Pair {
        baseline: cmd,
        candidate: cmd,
        dirs: [None, None],
        inject: [Duration::ZERO; 2],
    };

    let (mut outcomes, mut pairs, mut seconds, mut medians) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..args.trials {
        let r = session::run(&plain, &options)?;
        outcomes.push(outcome(&r));
        pairs.push(r.pairs);
        seconds.push(r.elapsed_s);
        medians.push(r.reference().map_or(f64::NAN, |a| a.summary.median_ns));
    }
    // Any claim on identical commands is a false signal.
    let hits = outcomes.iter().filter(|o| o.claim().is_some()).count();
    let mut aa = BarResult::new(hits, 0, outcomes, pairs, seconds);
    aa.passed = aa.rate <= MAX_FALSE_SIGNAL_RATE;
    let median_ns = rtcompare::stats::median(&medians)?;
    let injected_ns = args.inject * median_ns;
    let spin = Duration::from_nanos(injected_ns.round() as u64);

    let (mut outcomes, mut pairs, mut seconds) = (Vec::new(), Vec::new(), Vec::new());
    let (mut hits, mut wrong) = (0, 0);
    for i in 0..args.trials {
        // The slow side alternates: B on even trials, A on odd ones.
        let b_slow = i % 2 == 0;
        let commands = Pair {
            inject: if b_slow {
                [Duration::ZERO, spin]
            } else {
                [spin, Duration::ZERO]
            },
            ..plain
        };
        let r = session::run(&commands, &options)?;
        let o = outcome(&r);
        let (slow, fast) = if b_slow {
            (Claim::Slower, Claim::Faster)
        } else {
            (Claim::Faster, Claim::Slower)
        };
        let (right, wrong_way) = (o.claim() == Some(slow), o.claim() == Some(fast));
        hits += usize::from(right);
        wrong += usize::from(wrong_way);
        outcomes.push(o);
        pairs.push(r.pairs);
        seconds.push(r.elapsed_s);
    }
    let mut detection = BarResult::new(hits, wrong, outcomes, pairs, seconds);
    detection.passed = detection.rate >= MIN_DETECTION_RATE;
    environment.finish();
    Ok(SelftestReport {
        schema_version: 1,
        command: cmd.into(),
        median_ns,
        injected_ns,
        injected: args.inject,
        passed: aa.passed && detection.passed,
        aa,
        detection,
        environment,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The verdict of a self-test's comparison of two commands (cannot tell if it has none).
fn outcome(r: &crate::result::CmdResult) -> CommandOutcome {
    r.first()
        .map_or(CommandOutcome::CannotTell, |c| c.verdict.outcome)
}

/// Writes `report` as `selftest-<unix seconds>.json` into `dir` (created if missing) and
/// returns the file's path.
pub fn record(report: &SelftestReport, dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|source| CliError::File {
        action: "create",
        path: dir.into(),
        source,
    })?;
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let path = dir.join(format!("selftest-{secs}.json"));
    crate::files::write_atomically(&path, &Json.render(report)?)?;
    Ok(path)
}
