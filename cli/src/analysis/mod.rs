//! The analysis of a finished measurement: which rule decides, the verdict, the summaries and
//! the warnings. Pure: it reads run times and never a clock or a process, so every path can be
//! tested on constructed timings. Every statistic comes from the `rtcompare` library.
//!
//! Conventions: `a[i]` and `b[i]` are the wall times (ns) of pair `i`; ratios are **B's time
//! over A's** (below 1: B is faster); outcomes are B's (`faster` / `win`: B needs less time).
//! The roles are fixed: A is the **baseline** (`cmd`'s reference, the first command or
//! `--reference`; `git`'s base revision) and B the **candidate** (the command judged, the
//! head), which is how the judge ([`rtcompare::stats::judge`]) reads them
//! ([`Scale::Slowdown`](rtcompare::stats::Scale::Slowdown): δ = 1 − A/B above 0 means the
//! candidate is slower). A and B remain the labels users see for two commands.
//!
//! The rules, the floor and the summaries are here; the warnings, which read all of them, are
//! in `warnings.rs` (re-exported here, their one public path).

use serde::{Deserialize, Serialize};

use rtcompare::stats::{
    self, Estimate, EstimateOptions, Unresolved, Verdict, aa_noise_floor, decide,
    estimate_difference,
};
use rtcompare::stats::{Bar, Bounds, Claim, Judgement, judge};
use rtcompare::support::compare::AUTOCORRELATION_THRESHOLD;
use rtcompare::support::display::{Pct, SignedPct};
use rtcompare::support::stats::{
    FewRunsOutcome, FewRunsRule, FewRunsVerdict, MINIMUM_DATA_POINTS, few_runs_verdict,
    ratio_block_length,
};

use crate::error::Result;

mod warnings;
pub use warnings::{Compared, Warning, comparison_warnings, series_warnings};

/// Default `--threshold`: 0.02. A difference is claimed only when its interval's lower bound
/// exceeds 2 %, the default of the benchmark runner whose discipline the tool follows.
pub const DEFAULT_THRESHOLD: f64 = 0.02;

/// Which verdict rule decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// 11 or more pairs: the paired bootstrap interval of the ratio, the A/A floor and the
    /// threshold, with the lower-bound rule.
    Bootstrap,
    /// Fewer than 11 pairs: the few-runs rule (ratio of medians and ratio of minimums against
    /// their tolerances).
    FewRuns,
    /// The sequential decision (`rtcompare cmd` without `--runs` or `--precision`): blocks'
    /// median log ratios, a t interval at the look's share of α, settled against the threshold
    /// (`rtcompare cmd`'s default).
    Sequential,
}

impl Rule {
    /// The rule for `pairs` pairs: [`Rule::Bootstrap`] from
    /// [`MINIMUM_DATA_POINTS`] (11) pairs on, else [`Rule::FewRuns`].
    pub fn for_pairs(pairs: usize) -> Rule {
        if pairs >= MINIMUM_DATA_POINTS {
            Rule::Bootstrap
        } else {
            Rule::FewRuns
        }
    }
}

/// The outcome, from B's point of view. The bootstrap rule says `faster`, `slower` or
/// `cannot_tell`; the few-runs rule says `win`, `parity` or `loss`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandOutcome {
    /// Bootstrap rule: B needs less time than A, beyond the tolerance.
    Faster,
    /// Bootstrap rule: B needs more time than A, beyond the tolerance.
    Slower,
    /// Bootstrap or sequential rule: no verdict (the reason says why).
    CannotTell,
    /// Sequential rule: the interval lies inside ±threshold, no change beyond it.
    Equivalent,
    /// Few-runs rule: B is ahead on both ratios.
    Win,
    /// Few-runs rule: neither a win nor a loss.
    Parity,
    /// Few-runs rule: B is behind on both ratios.
    Loss,
}

impl CommandOutcome {
    /// Whether B was found slower (`slower` or `loss`): what `--fail-on-regression` acts on.
    pub fn is_regression(self) -> bool {
        self.claim() == Some(Claim::Slower)
    }

    /// The claim this outcome makes about B against A, if any: `faster` and `win` claim
    /// faster, `slower` and `loss` slower; the others none.
    pub(crate) fn claim(self) -> Option<Claim> {
        match self {
            CommandOutcome::Faster | CommandOutcome::Win => Some(Claim::Faster),
            CommandOutcome::Slower | CommandOutcome::Loss => Some(Claim::Slower),
            _ => None,
        }
    }
}

/// The verdict object of the JSON result, with the fields of the few-runs document's schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictSummary {
    /// The outcome, from B's point of view.
    pub outcome: CommandOutcome,
    /// B's time over A's: the paired estimate `1 / median_i(A[i]/B[i])` under the bootstrap
    /// rule (`median(B) / median(A)` for unpaired imported runs), `median(B) / median(A)`
    /// under the few-runs rule.
    pub ratio: f64,
    /// `min(B) / min(A)`: the ratio of the best runs (under the bootstrap rule over the times
    /// above 0: an imported hyperfine time of 0 is its clamp, not a best run).
    pub best_ratio: f64,
    /// What the difference was judged against, a fraction: under the bootstrap rule
    /// `max(threshold, A/A floor)`, which the interval's lower bound on the relative
    /// difference must exceed; under the few-runs rule `max(parity, noise, floor / median)`.
    pub tolerance: f64,
    /// The noise inside the tolerance, a fraction: the A/A floor (bootstrap rule; 0 without
    /// validation) or the larger relative interquartile range (few-runs rule).
    pub noise: f64,
    /// Lower end of the interval on `ratio` (bootstrap rule only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    /// Upper end of the interval on `ratio` (bootstrap rule only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
    /// Coverage level of `[low, high]` (bootstrap rule only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<f64>,
    /// The reason, in one sentence.
    pub reason: String,
}

/// The A/A floor measured before the comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Floor {
    /// A/A pairs per side (A against A′, B against B′).
    pub pairs: usize,
    /// A's floor, a fraction (0.9 quantile of |δ*| of A against A′); `None` under the few-runs
    /// rule.
    pub a: Option<f64>,
    /// B's floor, a fraction; `None` under the few-runs rule.
    pub b: Option<f64>,
    /// The floor the comparison must clear: the larger of `a` and `b` (0 under the few-runs
    /// rule, which has its own tolerances).
    pub floor: f64,
    /// Under the few-runs rule: the rule applied to A against A′ and to B against B′; each
    /// should be parity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub few_runs: Option<[FewRunsVerdict; 2]>,
}

impl Floor {
    /// The floor from the A/A series `a`, `a2` (A against A′) and `b`, `b2`, paired by index:
    /// the library's [`aa_noise_floor`] per side from 11 pairs on, else the few-runs rule on
    /// each pair of series.
    pub fn from_series(
        a: &[f64],
        a2: &[f64],
        b: &[f64],
        b2: &[f64],
        opts: &AnalysisOptions,
    ) -> Result<Floor> {
        let pairs = a.len().min(b.len());
        if Rule::for_pairs(pairs) == Rule::Bootstrap {
            let est = opts.estimate_options();
            let fa = aa_noise_floor(a, a2, &est)?;
            let fb = aa_noise_floor(b, b2, &est)?;
            Ok(Floor {
                pairs,
                a: Some(fa),
                b: Some(fb),
                floor: fa.max(fb),
                few_runs: None,
            })
        } else {
            Ok(Floor {
                pairs,
                a: None,
                b: None,
                floor: 0.0,
                few_runs: Some([
                    few_runs_verdict(a2, a, &opts.few_runs)?,
                    few_runs_verdict(b2, b, &opts.few_runs)?,
                ]),
            })
        }
    }
}

/// Options of the analysis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnalysisOptions {
    /// `--threshold`, a fraction (default [`DEFAULT_THRESHOLD`]).
    pub threshold: f64,
    /// Coverage level of the interval (0.95).
    pub level: f64,
    /// Bootstrap replicates (5,000).
    pub resamples: usize,
    /// The bootstrap's seed (never 0 here: the caller resolves it and records it).
    pub seed: u64,
    /// The few-runs rule's parity band and absolute floor (the library's defaults: 4 %,
    /// 25 µs).
    pub few_runs: FewRunsRule,
    /// Whether `a[i]` and `b[i]` were measured together (true for `cmd`; false for imported
    /// hyperfine results, whose runs were not interleaved): paired bootstrap of the ratios,
    /// or an unpaired bootstrap of the ratio of medians.
    pub paired: bool,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            threshold: DEFAULT_THRESHOLD,
            level: 0.95,
            resamples: rtcompare::support::stats::DEFAULT_RESAMPLES,
            seed: 1,
            few_runs: FewRunsRule::default(),
            paired: true,
        }
    }
}

impl AnalysisOptions {
    fn estimate_options(&self) -> EstimateOptions {
        EstimateOptions::default()
            .paired(true)
            .level(self.level)
            .resamples(self.resamples)
            .seed(self.seed)
    }
}

/// The result of [`analyse`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandAnalysis {
    /// Which rule decided.
    pub rule: Rule,
    /// The verdict object.
    pub verdict: VerdictSummary,
    /// The library's estimate (bootstrap rule): `delta = 1 − median_i(A[i]/B[i])`, positive
    /// when B is slower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimate>,
    /// The library's few-runs verdict with B as the candidate (few-runs rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub few_runs: Option<FewRunsVerdict>,
}

/// The paired estimate of `a` against `b` (the relative difference `1 − median_i(A[i]/B[i])`
/// and its bootstrap interval), resampling blocks when the paired ratios are autocorrelated.
pub fn estimate(a: &[f64], b: &[f64], opts: &AnalysisOptions) -> Result<Estimate> {
    if !opts.paired {
        return Ok(estimate_difference(
            a,
            b,
            &opts.estimate_options().paired(false),
        )?);
    }
    Ok(estimate_difference(
        a,
        b,
        &opts.estimate_options().block_length(block_length(a, b)),
    )?)
}

/// The bootstrap's block length for the paired series `a` and `b`: the library's rule
/// ([`ratio_block_length`] of the pairs' ratios B/A against [`AUTOCORRELATION_THRESHOLD`]),
/// the one `compare()` and rtcompare-service use. The ratios, not each series: for a command
/// whose runs alternate between two times, a drift common to both raises each series' lag-1
/// and blocks of two would hold one of each, leaving the interval far too narrow
/// (`many::a_wide_interval_of_any_comparison_is_warned_about_by_name`).
pub fn block_length(a: &[f64], b: &[f64]) -> usize {
    let ratios: Vec<f64> = a.iter().zip(b).map(|(a, b)| b / a).collect();
    ratio_block_length(&ratios, AUTOCORRELATION_THRESHOLD)
}

/// Decides on the paired wall times `a` and `b` (ns, `a[i]` and `b[i]` from pair `i`) with
/// the rule for their number of pairs (see [`Rule::for_pairs`]), against `floor` (`None`:
/// validation was skipped).
pub fn analyse(
    a: &[f64],
    b: &[f64],
    floor: Option<&Floor>,
    opts: &AnalysisOptions,
) -> Result<CommandAnalysis> {
    let pairs = a.len().min(b.len());
    let (a, b) = if opts.paired {
        (&a[..pairs], &b[..pairs])
    } else {
        (a, b)
    };
    match Rule::for_pairs(pairs) {
        Rule::FewRuns => few_runs_analysis(a, b, opts),
        // `for_pairs` never chooses the sequential rule: the session applies it on top.
        Rule::Bootstrap | Rule::Sequential => bootstrap_analysis(a, b, floor, opts),
    }
}

/// The few-runs rule: the library's few-runs verdict with B as the candidate, and its reason.
fn few_runs_analysis(a: &[f64], b: &[f64], opts: &AnalysisOptions) -> Result<CommandAnalysis> {
    let v = few_runs_verdict(b, a, &opts.few_runs)?;
    let outcome = match v.outcome {
        FewRunsOutcome::Win => CommandOutcome::Win,
        FewRunsOutcome::Parity => CommandOutcome::Parity,
        FewRunsOutcome::Loss => CommandOutcome::Loss,
    };
    let reason = match v.outcome {
        FewRunsOutcome::Parity => format!(
            "parity: the median ratio {:.3} (tolerance {:.3}) and the best-run ratio \
             {:.3} (tolerance {:.3}) do not both leave their tolerance",
            v.ratio, v.tolerance, v.best_ratio, v.best_tolerance
        ),
        _ => format!(
            "{}: both the median ratio {:.3} (tolerance {:.3}) and the best-run ratio \
             {:.3} (tolerance {:.3}) leave their tolerance",
            v.outcome, v.ratio, v.tolerance, v.best_ratio, v.best_tolerance
        ),
    };
    Ok(CommandAnalysis {
        rule: Rule::FewRuns,
        verdict: VerdictSummary {
            outcome,
            ratio: v.ratio,
            best_ratio: v.best_ratio,
            tolerance: v.tolerance,
            noise: v.noise,
            low: None,
            high: None,
            level: None,
            reason,
        },
        estimate: None,
        few_runs: Some(v),
    })
}

/// The bootstrap rule: the interval of B's time over A's against the tolerance, the larger of
/// the threshold and the A/A floor.
fn bootstrap_analysis(
    a: &[f64],
    b: &[f64],
    floor: Option<&Floor>,
    opts: &AnalysisOptions,
) -> Result<CommandAnalysis> {
    let est = estimate(a, b, opts)?;
    let bar = rtcompare::support::stats::bar(opts.threshold, floor.map_or(0.0, |f| f.floor));
    let ratio = est.ratio();
    // δ = 1 exactly, a median of A of 0, makes the ratio infinite; only imported times
    // of 0 can do that, and JSON has no number for it.
    if ![ratio.ratio, ratio.low, ratio.high]
        .iter()
        .all(|r| r.is_finite())
    {
        return Err(rtcompare::Error::Undefined {
            what: "B's time over A's",
            reason: format!(
                "the interval [{}, {}] around {} is not finite: A's median time is 0 in \
                 too many bootstrap replicates (its times hold too many zeros)",
                ratio.low, ratio.high, ratio.ratio
            ),
        }
        .into());
    }
    let (outcome, reason) = bootstrap_outcome(&est, bar);
    Ok(CommandAnalysis {
        rule: Rule::Bootstrap,
        verdict: VerdictSummary {
            outcome,
            ratio: ratio.ratio,
            best_ratio: best(b)? / best(a)?,
            tolerance: bar.tolerance(),
            noise: bar.floor,
            low: Some(ratio.low),
            high: Some(ratio.high),
            level: Some(est.level),
            reason,
        },
        estimate: Some(est),
        few_runs: None,
    })
}

/// The bootstrap rule's outcome and its reason: the library's verdict on whether the interval
/// shows a difference at all (zero excluded, beyond the A/A floor), then the lower-bound rule
/// ([`judge`](rtcompare::stats::judge)) on its size ([`bootstrap_bounds`]).
fn bootstrap_outcome(est: &Estimate, bar: Bar) -> (CommandOutcome, String) {
    if let Verdict::CannotTell(why) = decide(est, 0.0, bar.floor, 0.0) {
        return (CommandOutcome::CannotTell, unresolved_in_b_terms(&why, est));
    }
    let bounds = bootstrap_bounds(est);
    let clears = |word: &str, bound: f64| {
        format!(
            "B is {word}: the interval's least favourable end, {}, clears the tolerance {} (the \
             larger of the {} threshold and the {} A/A floor)",
            Pct(bound),
            Pct(bar.tolerance()),
            Pct(bar.threshold),
            Pct(bar.floor)
        )
    };
    match judge(bounds, bar, false) {
        Judgement::Clears { claim, bound } => {
            let outcome = outcome_of(claim);
            (outcome, clears(outcome.word(), bound))
        }
        Judgement::Short {
            leaning: Some((claim, bound)),
        } => (
            CommandOutcome::CannotTell,
            format!(
                "B looks {} and the interval excludes zero, but its least favourable end, {}, \
                 does not clear the tolerance {} (the larger of the {} threshold and the {} A/A \
                 floor); too small to claim",
                outcome_of(claim).word(),
                Pct(bound),
                Pct(bar.tolerance()),
                Pct(bar.threshold),
                Pct(bar.floor)
            ),
        ),
        // The library's verdict passed: the interval excludes zero on one side.
        Judgement::Short { leaning: None }
        | Judgement::Equivalent
        | Judgement::FloorAboveMargin => (
            CommandOutcome::CannotTell,
            "the interval does not lean towards either command".into(),
        ),
    }
}

/// Why the library's verdict could not tell, said as the rest of `cmd`'s output says a change:
/// B's time against A's, + = slower (the library's own words speak of A's change, and A is
/// the reference here).
fn unresolved_in_b_terms(why: &Unresolved, est: &Estimate) -> String {
    let r = est.ratio();
    let (change, low, high) = (r.ratio - 1.0, r.low - 1.0, r.high - 1.0);
    match *why {
        Unresolved::IntervalContainsZero { .. } => format!(
            "the interval of B's change [{}, {}] contains zero, so these runs do not separate \
             A from B; collect more runs or quieten the machine",
            SignedPct(low),
            SignedPct(high)
        ),
        Unresolved::Unstable { .. } => format!(
            "B's change {} lies outside its own interval [{}, {}], so it is unstable; collect \
             more runs",
            SignedPct(change),
            SignedPct(low),
            SignedPct(high)
        ),
        Unresolved::WithinNoiseFloor { noise_floor, .. } => format!(
            "B's change {} [{}, {}] is real but does not clear the A/A floor ({}): identical \
             commands differ that much on this setup",
            SignedPct(change),
            SignedPct(low),
            SignedPct(high),
            Pct(noise_floor)
        ),
        _ => why.to_string(),
    }
}

/// What the bootstrap rule's interval guarantees: B slower by `est.low` at least on the
/// 1 − A/B scale, faster by 1 − the ratio's upper end on the 1 − B/A scale (each relative to
/// the slower command's time).
pub(crate) fn bootstrap_bounds(est: &Estimate) -> Bounds {
    Bounds::new(
        est.low,
        1.0 - est.ratio().high,
        est.low.abs().max(est.high.abs()),
    )
    .unwrap_or_else(|_| rtcompare::support::stats::unbounded())
}

/// The outcome that makes `claim` about B.
pub(crate) fn outcome_of(claim: Claim) -> CommandOutcome {
    match claim {
        Claim::Slower => CommandOutcome::Slower,
        Claim::Faster => CommandOutcome::Faster,
    }
}

/// The fastest run above 0. A time of 0 is hyperfine's clamp of a shell-corrected time (see
/// [`crate::hyperfine::import`]), not a run faster than every other, and would make the ratio
/// of best runs 0 or infinite.
fn best(xs: &[f64]) -> Result<f64> {
    let positive: Vec<f64> = xs.iter().copied().filter(|&x| x > 0.0).collect();
    Ok(stats::min(&positive)?)
}

/// A side's summary for the terminal and the JSON result (times in ns, sizes in bytes).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// Timed runs.
    pub runs: usize,
    /// Median wall time.
    pub median_ns: f64,
    /// Fastest run.
    pub min_ns: f64,
    /// Slowest run.
    pub max_ns: f64,
    /// Mean wall time.
    pub mean_ns: f64,
    /// Sample standard deviation of the wall times (0 for one run).
    pub std_dev_ns: f64,
    /// Median user CPU time.
    pub user_median_ns: f64,
    /// Median system CPU time.
    pub sys_median_ns: f64,
    /// Median maximum resident set size.
    pub max_rss_median_bytes: f64,
    /// Largest maximum resident set size of any run.
    pub max_rss_max_bytes: f64,
}

impl SideSummary {
    /// Summarises one side's runs: `wall`, `user`, `sys` in ns and `rss` in bytes, run by run.
    pub fn new(wall: &[f64], user: &[f64], sys: &[f64], rss: &[f64]) -> Result<SideSummary> {
        Ok(SideSummary {
            runs: wall.len(),
            median_ns: stats::median(wall)?,
            min_ns: stats::min(wall)?,
            max_ns: stats::max(wall)?,
            mean_ns: stats::mean(wall)?,
            std_dev_ns: stats::std_dev(wall).unwrap_or(0.0),
            user_median_ns: stats::median(user)?,
            sys_median_ns: stats::median(sys)?,
            max_rss_median_bytes: stats::median(rss)?,
            max_rss_max_bytes: stats::max(rss)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(base: f64, n: usize) -> Vec<f64> {
        (0..n)
            .map(|i| base * (1.0 + 0.002 * ((i * 7) % 5) as f64))
            .collect()
    }

    /// A "cannot tell" from the bootstrap rule speaks of B's change, + = slower, as the line
    /// above it does (it said "the interval of A's change [−3.0 %, +2.0 %]" for a B that
    /// leans slower, the library's words about the reference).
    #[test]
    fn cannot_tell_names_bs_change_in_its_direction() {
        // δ = 1 − A/B: B leans slower (A needs 1 % less time), the interval holds zero.
        let est = Estimate::from_interval(0.01, -0.02, 0.03, 0.95).unwrap();
        let bar = rtcompare::support::stats::bar(0.02, 0.0);
        let (outcome, why) = bootstrap_outcome(&est, bar);
        assert_eq!(outcome, CommandOutcome::CannotTell);
        assert!(
            why.contains("the interval of B's change [−2.0 %, +3.1 %] contains zero"),
            "{why}"
        );
        // B slower by 1–5 %, inside an A/A floor of 2 %.
        let floored = Estimate::from_interval(0.03, 0.01, 0.05, 0.95).unwrap();
        let (_, why) = bootstrap_outcome(&floored, rtcompare::support::stats::bar(0.0, 0.02));
        assert!(
            why.starts_with("B's change +3.1 % [+1.0 %, +5.3 %] is real but does not clear"),
            "{why}"
        );
    }

    #[test]
    fn twice_the_time_is_slower_under_both_rules() {
        let o = AnalysisOptions::default();
        let (a, b) = (series(1e7, 15), series(2e7, 15));
        let v = analyse(&a, &b, None, &o).unwrap();
        assert_eq!(
            (v.rule, v.verdict.outcome),
            (Rule::Bootstrap, CommandOutcome::Slower)
        );
        assert!((v.verdict.ratio - 2.0).abs() < 0.02);
        let v = analyse(&a[..5], &b[..5], None, &o).unwrap();
        assert_eq!(
            (v.rule, v.verdict.outcome),
            (Rule::FewRuns, CommandOutcome::Loss)
        );
        let v = analyse(&b[..5], &a[..5], None, &o).unwrap();
        assert_eq!(v.verdict.outcome, CommandOutcome::Win);
        let v = analyse(&b, &a, None, &o).unwrap();
        assert_eq!(v.verdict.outcome, CommandOutcome::Faster);
    }

    #[test]
    fn identical_series_cannot_tell_or_are_parity() {
        let o = AnalysisOptions::default();
        let a = series(1e7, 21);
        let v = analyse(&a, &a, None, &o).unwrap();
        assert_eq!(v.verdict.outcome, CommandOutcome::CannotTell);
        let v = analyse(&a[..7], &a[..7], None, &o).unwrap();
        assert_eq!(v.verdict.outcome, CommandOutcome::Parity);
    }

    #[test]
    fn a_floor_or_threshold_above_the_difference_gives_cannot_tell() {
        let mut o = AnalysisOptions::default();
        let (a, b) = (series(1e7, 15), series(1.03e7, 15));
        assert_eq!(
            analyse(&a, &b, None, &o).unwrap().verdict.outcome,
            CommandOutcome::Slower
        );
        let floor = Floor {
            pairs: 11,
            a: Some(0.05),
            b: Some(0.01),
            floor: 0.05,
            few_runs: None,
        };
        let v = analyse(&a, &b, Some(&floor), &o).unwrap();
        assert_eq!(v.verdict.outcome, CommandOutcome::CannotTell);
        assert_eq!((v.verdict.noise, v.verdict.tolerance), (0.05, 0.05));
        o.threshold = 0.04;
        let v = analyse(&a, &b, None, &o).unwrap();
        assert_eq!(v.verdict.outcome, CommandOutcome::CannotTell);
        assert!(
            v.verdict.reason.contains("does not clear"),
            "{}",
            v.verdict.reason
        );
    }

    #[test]
    fn times_of_zero_give_a_finite_best_ratio_or_an_error() {
        let o = AnalysisOptions {
            paired: false,
            ..AnalysisOptions::default()
        };
        let b = series(2e6, 12);
        let mut a = series(1e6, 12);
        a[0] = 0.0;
        let v = analyse(&a, &b, None, &o).unwrap();
        // The fastest run above 0 (a[5] = 1e6), not the zero: B's best over it.
        assert!((v.verdict.best_ratio - 2.0).abs() < 1e-9, "{v:?}");
        // A's median is 0: B's time over A's is infinite, which JSON cannot hold.
        a[..7].fill(0.0);
        let err = analyse(&a, &b, None, &o).unwrap_err();
        assert!(err.to_string().contains("not finite"), "{err}");
    }

    #[test]
    fn every_comparison_is_warned_about_by_name() {
        let o = AnalysisOptions::default();
        // The reference's first run is slow; B is steady and close to it; C rises run by run
        // and spreads widely.
        let mut reference = series(1e7, 20);
        reference[0] = 3e7;
        let b = series(1e7, 20);
        let c: Vec<f64> = (0..20)
            .map(|i| 1e7 * (1.0 + 0.05 * f64::from(i) + 0.3 * f64::from(i % 2)))
            .collect();
        let (eb, ec) = (
            estimate(&reference, &b, &o).unwrap(),
            estimate(&reference, &c, &o).unwrap(),
        );
        let width = 0.5 * (eb.half_width() + ec.half_width());
        assert!(eb.half_width() < width && width < ec.half_width());
        let compared = |name, series, estimate| Compared {
            name,
            series,
            rule: Rule::Bootstrap,
            estimate: Some(estimate),
            floor: None,
        };
        let w = comparison_warnings(
            ("A", &reference),
            &[compared("B", &b, &eb), compared("C", &c, &ec)],
            None,
            true,
            Some(width),
        );
        // Only C's interval is too wide, and the warning says it is C's (before, only A
        // against B was looked at).
        let wide: Vec<&Warning> = w
            .iter()
            .filter(|w| matches!(w, Warning::NotPrecise { .. }))
            .collect();
        assert_eq!(wide.len(), 1, "{w:?}");
        assert!(
            wide[0]
                .to_string()
                .starts_with("--max-time ran out with C's interval")
        );
        // C's drift is C's; the reference's slow first run is said once, not per comparison.
        assert!(
            w.iter()
                .any(|w| matches!(w, Warning::Drift { side, .. } if side == "C")),
            "{w:?}"
        );
        let slow: Vec<&Warning> = w
            .iter()
            .filter(|w| matches!(w, Warning::SlowFirstRun { .. }))
            .collect();
        assert!(
            matches!(slow[..], [Warning::SlowFirstRun { side, .. }] if side == "A"),
            "{w:?}"
        );
        // One comparison: the sides stay A and B, and nothing is named.
        let w = comparison_warnings(
            ("ref", &reference),
            &[compared("C", &c, &ec)],
            None,
            true,
            Some(width),
        );
        assert!(w.contains(&Warning::NotPrecise {
            half_width: ec.half_width(),
            width,
            command: None,
        }));
        assert!(
            w.iter()
                .any(|w| matches!(w, Warning::Drift { side, .. } if side == "B"))
        );
    }

    #[test]
    fn warnings_from_constructed_series() {
        let rule = FewRunsRule::default();
        let rising: Vec<f64> = (0..20).map(|i| 1e7 * (1.0 + 0.01 * f64::from(i))).collect();
        let w = series_warnings(&rising, &rising, None, &rule);
        assert!(
            w.iter()
                .any(|w| matches!(w, Warning::Drift { side, .. } if side == "A"))
        );
        let mut slow_first = series(1e7, 10);
        slow_first[0] = 3e7;
        let w = series_warnings(&slow_first, &series(1e7, 10), Some(6e6), &rule);
        assert!(w.iter().any(|w| matches!(w, Warning::SlowFirstRun { .. })));
        assert!(
            w.iter()
                .any(|w| matches!(w, Warning::NearStartFloor { .. }))
        );
        // Two modes: same best runs, B's median in the slow mode.
        let a = [570.0, 572.0, 575.0, 720.0, 571.0].map(|x| x * 1e3);
        let b = [566.0, 715.0, 722.0, 719.0, 574.0].map(|x| x * 1e3);
        let w = series_warnings(&a, &b, None, &rule);
        assert!(
            w.iter().any(|w| matches!(w, Warning::TimingModes { .. })),
            "{w:?}"
        );
    }
}
