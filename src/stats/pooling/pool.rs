//! Pooling comparisons across processes: the process, not the batch, as the unit of
//! replication.
//!
//! The explanation users read is this folder's chapter (`mod.rs`, rendered as
//! `rtcompare::stats::pooling`), section "Pooling across processes".
//!
//! **Why one file.** Everything here is one computation: per-process estimates in, one pooled
//! result out. The rules that judge it (the interval, the scatter between processes, the pooled
//! A/A floor, opposite modes, drift over the process index) each read and amend the same
//! [`Pooled`] and share its invariants, so they sit beside it; how many processes to run is a
//! separate question and lives in `pool_plan.rs`, and the summary's words in `pool_summary.rs`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::display::{Level, Pct, Share, SignedPct};
use crate::error::{Error, Result};
use crate::stats::check;
use crate::stats::dist::{normal_quantile, student_t_quantile};
use crate::stats::pooling::pool_plan::PlanEnd;
use crate::stats::series::drift::{DriftReport, detect_drift};
use crate::stats::verdicts::decision::{Unresolved, Verdict, decide};
use crate::stats::{Estimate, mean, median, std_dev};

/// Fewest processes [`combine`] accepts: 3 (two degrees of freedom; five or more advisable).
pub const MIN_PROCESSES: usize = 3;

/// Inflation (between-process spread over within-process spread) above which a warning says
/// one process's interval understates the uncertainty (2). The warning measures the within
/// spread no finer than one clock step, so tie-bound intervals do not fake an inflation.
pub const HIGH_INFLATION: f64 = 2.0;

/// I² above which a warning says between-process variance dominates (0.5).
pub const HIGH_I2: f64 = 0.5;

/// The t quantile may exceed the normal one by this factor before a warning says there are too
/// few processes for the level (1.5: at level 0.95 that is four processes or fewer, at 0.99
/// six or fewer).
pub const FEW_PROCESSES_T_RATIO: f64 = 1.5;

/// A gap between neighbouring sorted per-process deltas counts as a split between modes when
/// it exceeds this many within-process standard errors (20, about ten half-widths of a 95 %
/// interval; one clock step as a share of the batch when that is larger, since ties can shrink
/// a process's interval to nothing) and also `MODE_GAP_CLUSTER_SD` (4.0) times the larger
/// cluster's own standard deviation. At 8 standard errors, single processes 1 % away from
/// four others within 0.3 % of each other were called modes of the sort pair.
pub const MODE_GAP_WITHIN: f64 = 20.0;

/// See `MODE_GAP_WITHIN` (4 here): a gap that is large only next to the within-process errors,
/// but not next to the clusters' own scatter, is a continuous spread, not two modes.
pub const MODE_GAP_CLUSTER_SD: f64 = 4.0;

/// Share of the processes that must resolve against the pooled direction (their own interval
/// excluding zero on the other side, their δ beyond their own A/A floor) before the pooled verdict is refused as
/// [`Unresolved::OppositeModes`] (0.2, one in five). One tight outlier among thirty does not
/// block a verdict; a fifth of the layouts preferring the other candidate does, however broad
/// or tight the clusters are.
pub const OPPOSITE_SHARE: f64 = 0.2;

/// The margin a pooled comparison judges against unless told otherwise (0.02, 2 %): the
/// smallest relative difference that matters. Processes within it never veto a verdict as
/// opposite modes (`combine_processes_with`).
pub const DEFAULT_MARGIN: f64 = 0.02;

/// Significance level of the trend test over the process index that refuses a pooled verdict
/// as [`Unresolved::ProcessDrift`] (0.05, as for one comparison's samples). The trend must
/// also move the halves' medians apart by more than `PROCESS_DRIFT_SHIFT` (2.0) half-widths: few
/// exchangeable pools are refused, and a pool whose deltas trended as the machine quietened,
/// which the stricter 0.01 let through, is (docs/background.md, section "Coverage of the default
/// plan").
pub const PROCESS_DRIFT_LEVEL: f64 = 0.05;

/// How far the halves' medians must move apart, in pooled half-widths, before a significant
/// trend refuses the verdict (2): a trend that moves the estimate by less than the interval's
/// width would not change what the interval says.
pub const PROCESS_DRIFT_SHIFT: f64 = 2.0;

/// Fewest processes on which the trend test runs (8): with fewer, a single monotone run of a
/// handful of deltas is all Spearman's test could see.
pub const PROCESS_DRIFT_MIN: usize = 8;

/// What one process contributed: its estimate and, when it ran A/A validation, its noise floor
/// and signed A/A deltas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ProcessEstimate {
    /// The process's estimate of δ with its interval.
    pub estimate: Estimate,
    /// The process's A/A noise floor (fraction); `None` when it was not validated.
    pub noise_floor: Option<f64>,
    /// The process's signed A/A deltas (both candidates' validations; fractions). Empty when
    /// unknown; the pooled floor then falls back to the median of the processes' floors.
    pub aa_deltas: Vec<f64>,
    /// One clock step as a share of the process's faster batch (fraction); 0 when unknown.
    pub quantization: f64,
}

impl From<Estimate> for ProcessEstimate {
    fn from(estimate: Estimate) -> Self {
        ProcessEstimate {
            estimate,
            noise_floor: None,
            aa_deltas: Vec::new(),
            quantization: 0.0,
        }
    }
}

/// One cluster of per-process deltas.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mode {
    /// Share of the processes in this cluster, in (0, 1].
    pub share: f64,
    /// Median delta of the cluster (fraction).
    pub centre: f64,
    /// Smallest and largest delta of the cluster (fractions).
    pub low: f64,
    /// See [`low`](Self::low).
    pub high: f64,
}

/// Something that undermines a pooled result, with the numbers behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum PoolWarning {
    /// Processes scatter more than `HIGH_INFLATION` (2.0) times as widely as one process resolves
    /// (its own standard error, or one clock step when that is larger): a single process's
    /// verdict does not reproduce.
    HighInflation {
        /// `between / resolution`: the quantity the warning is raised on (0 when the
        /// resolution is 0, as with zero-width intervals and no clock step).
        inflation: f64,
        /// Standard deviation of the per-process deltas (fraction).
        #[serde(default)]
        between: f64,
        /// One process's resolution: the median standard error, or one clock step as a share
        /// of the batch when that is larger (fraction).
        #[serde(default)]
        resolution: f64,
    },
    /// Between-process variance dominates (I² above `HIGH_I2` (0.5)) and the result is not
    /// resolved: more samples per process will not narrow the interval, more processes will.
    /// (A resolved result states I² in its summary instead: there it changes nothing the user
    /// should do.)
    Heterogeneous {
        /// I², in [0, 1].
        i2: f64,
    },
    /// So few processes that the t quantile exceeds the normal one by more than
    /// `FEW_PROCESSES_T_RATIO` (1.5): the interval is wide for want of processes.
    TooFewProcesses {
        /// Processes pooled.
        processes: usize,
        /// Fewest processes that would avoid this warning at this level.
        advisable: usize,
        /// The level.
        level: f64,
    },
    /// A process failed (panicked, exited, timed out); it is not in the pool.
    ProcessFailed {
        /// The process's index.
        index: usize,
        /// What happened, in words.
        reason: String,
    },
    /// The program held this much memory before the pool's closure began, in every process,
    /// and built no fixture through the pool's `Child::build`: whatever it built there was
    /// built in the same order in every process, which the pool cannot randomise (one of two
    /// identical structures can stay faster in every process; docs/background.md, "Fixtures built
    /// in a fixed order").
    FixedBuildOrder {
        /// Median over processes of the resident memory added between the start of the
        /// process (after the early perturbation) and the start of the closure, in bytes.
        bytes: u64,
    },
    /// The per-process deltas form separated clusters: each process landed in one of several
    /// states (layouts, placements), so their mean is not a typical difference.
    Modes {
        /// The clusters, lowest centre first.
        modes: Vec<Mode>,
    },
}

impl PoolWarning {
    /// A stable identifier (`"high_inflation"`, `"modes"`, …).
    pub fn code(&self) -> &'static str {
        match self {
            PoolWarning::HighInflation { .. } => "high_inflation",
            PoolWarning::Heterogeneous { .. } => "heterogeneous",
            PoolWarning::TooFewProcesses { .. } => "too_few_processes",
            PoolWarning::ProcessFailed { .. } => "process_failed",
            PoolWarning::FixedBuildOrder { .. } => "fixed_build_order",
            PoolWarning::Modes { .. } => "modes",
        }
    }
}

impl fmt::Display for PoolWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolWarning::HighInflation {
                inflation,
                between,
                resolution,
            } => {
                if *resolution > 0.0 {
                    write!(
                        f,
                        "processes scatter by {} (standard deviation), {inflation:.1} times what \
                         one process resolves ({}, its standard error or one clock step): a \
                         single process's verdict would not reproduce in the next one",
                        Pct(*between),
                        Pct(*resolution)
                    )
                } else {
                    write!(
                        f,
                        "processes scatter by {} (standard deviation) while each one's own \
                         interval has zero width: a single process's verdict would not \
                         reproduce in the next one",
                        Pct(*between)
                    )
                }
            }
            PoolWarning::Heterogeneous { i2 } => write!(
                f,
                "I² = {}: most of the variation is between processes, so more samples per \
                 process will not narrow the interval; more processes will",
                Share(*i2)
            ),
            PoolWarning::TooFewProcesses {
                processes,
                advisable,
                level,
            } => write!(
                f,
                "only {processes} processes: at {} the interval is wide for want of \
                 processes; pool at least {advisable}",
                Level(*level)
            ),
            PoolWarning::ProcessFailed { index, reason } => {
                write!(f, "process {index} failed and is not pooled: {reason}")
            }
            PoolWarning::FixedBuildOrder { bytes } => write!(
                f,
                "the program built {:.0} MiB before the pool's closure began, in the same order \
                 in every process: the pool perturbs their layout but cannot alternate their \
                 order, and one of the two can stay faster in every process; build what you \
                 compare with ctx.build(a, b)",
                *bytes as f64 / (1u64 << 20) as f64
            ),
            PoolWarning::Modes { modes } => {
                f.write_str("the processes fall into separate modes (")?;
                for (i, m) in modes.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(
                        f,
                        "{:.0} % of them around A's change {}",
                        100.0 * m.share,
                        SignedPct(-m.centre)
                    )?;
                }
                f.write_str(
                    "): each process landed in one state, so the mean is not a typical \
                     difference; read the modes",
                )
            }
        }
    }
}

/// The pooled result of one comparison run in several processes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pooled {
    /// k, the number of processes pooled.
    pub processes: usize,
    /// The unweighted mean of the per-process deltas (fraction; positive: A needs less time).
    pub delta: f64,
    /// Lower end of the interval: Student t on k − 1 degrees of freedom ([`combine`]) or
    /// Stein's ([`combine_staged`]).
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// The first stage's size for [`combine_staged`]; 0 for [`combine`].
    pub first_stage: usize,
    /// Coverage level of `[low, high]`.
    pub level: f64,
    /// Sample standard deviation of the per-process deltas (fraction).
    pub spread_between: f64,
    /// Median over processes of `(high − low) / (2z)`, z the normal quantile at each
    /// interval's level: one process's own standard error (fraction).
    pub spread_within: f64,
    /// `spread_between / spread_within`, 0 when `spread_within` is 0. About 1 when processes
    /// agree as well as their intervals claim; 5 and more on large pointer-heavy data.
    pub inflation: f64,
    /// Cochran's Q with inverse-variance weights; about k − 1 without heterogeneity. NaN
    /// (`null` in JSON) when some process's interval has zero width.
    #[serde(with = "nan_as_null")]
    pub q: f64,
    /// `max(0, (Q − (k − 1)) / Q)`, in [0, 1]; NaN (`null`) when Q is.
    #[serde(with = "nan_as_null")]
    pub i2: f64,
    /// Whether every process ran A/A validation.
    pub validated: bool,
    /// Mean over processes of each process's mean signed A/A delta (fraction): the harness's
    /// systematic error. 0 when the processes carry no A/A deltas.
    pub bias: f64,
    /// What |δ| must clear (fraction): `|bias| + t · SE(bias)` when every validated process
    /// carries A/A deltas, else the median of the processes' floors; 0 when none was
    /// validated.
    pub noise_floor: f64,
    /// `true` when the interval excludes zero, |δ| clears the floor and the quantization gate,
    /// fewer than `OPPOSITE_SHARE` (0.2) of the processes resolved the other way, the deltas do
    /// not drift with the process index, and no failed process biases the pool.
    pub resolved: bool,
    /// The verdict, with the bar missed when it is "cannot tell".
    pub verdict: Verdict,
    /// The per-process deltas, in process order (fractions).
    pub deltas: Vec<f64>,
    /// The per-process intervals' half-widths, in process order (fractions).
    pub half_widths: Vec<f64>,
    /// The clusters when the processes split into modes; empty otherwise.
    pub modes: Vec<Mode>,
    /// Whether the precision target of a planned run was met (`None` when the processes were
    /// not planned against a target, as in [`combine`]).
    #[serde(default)]
    pub target_met: Option<bool>,
    /// Processes the two-stage plan asked for (0 when there was no plan); more than
    /// `processes` when the cap stopped the run first.
    #[serde(default)]
    pub planned_processes: usize,
    /// How the plan ended (`None` without a plan).
    #[serde(default)]
    pub plan_end: Option<PlanEnd>,
    /// The trend test of the deltas over the process index; `None` below
    /// `PROCESS_DRIFT_MIN` (8) processes.
    #[serde(default)]
    pub drift: Option<DriftReport>,
    /// Processes started that failed and are not pooled (0 for [`combine`]).
    #[serde(default)]
    pub failed_processes: usize,
    /// Of those, the ones killed by the process timeout or cancelled by a deadline.
    #[serde(default)]
    pub timed_out_processes: usize,
    /// The sequential decision that stopped the run, when it was run as one
    /// ([`PoolOptions::decide`](crate::pool::PoolOptions::decide)): its looks, why it stopped
    /// and its margin. The interval above is then its deciding look's, at that look's level.
    #[serde(default)]
    pub decision: Option<crate::stats::SequentialDecision>,
    /// Everything that undermines the result; empty is the good case.
    pub warnings: Vec<PoolWarning>,
}

impl Pooled {
    /// Half the interval's width (fraction).
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Whether the interval is narrow enough: half-width at most `abs` (a fraction) **or** at
    /// most `rel · |delta|`. Negative or NaN targets count as 0.
    pub fn precise(&self, abs: f64, rel: f64) -> bool {
        let hw = self.half_width();
        hw <= abs.max(0.0) || hw <= rel.max(0.0) * self.delta.abs()
    }

    /// The total number of processes needed for a half-width of `max(abs, rel·|delta|)`,
    /// judged from this result as a first stage: `⌈(t · s / h)²⌉` with s the spread between
    /// processes and t the quantile at this level on k − 1 degrees of freedom. At least
    /// [`processes`](Self::processes); `usize::MAX` when the target is 0 (both 0, or only a
    /// relative target on a delta of 0) or not a number.
    pub fn processes_for(&self, abs: f64, rel: f64) -> usize {
        let h = abs.max(0.0).max(rel.max(0.0) * self.delta.abs());
        if h.is_nan() || h <= 0.0 {
            return usize::MAX;
        }
        let Ok(t) = t_two_sided(self.level, self.processes.saturating_sub(1)) else {
            return usize::MAX;
        };
        let need = (t * self.spread_between / h).powi(2).ceil();
        if !need.is_finite() || need >= usize::MAX as f64 {
            return usize::MAX;
        }
        (need as usize).max(self.processes)
    }

    /// Whether a warning with this [`code`](PoolWarning::code) is present.
    pub fn has_warning(&self, code: &str) -> bool {
        self.warnings.iter().any(|w| w.code() == code)
    }
}

/// Pools `estimates` (one per process, same comparison, same roles) with a Student t interval
/// at `level` (0 selects 0.95). The processes carry no A/A information, so the result has no
/// noise floor; use `combine_processes` for estimates with validations.
///
/// Errors: fewer than `MIN_PROCESSES` (3) estimates ([`Error::TooFewSamples`]); a level outside
/// (0, 1) ([`Error::OutOfRange`]); a non-finite estimate ([`Error::NonFinite`]).
pub fn combine(estimates: &[Estimate], level: f64) -> Result<Pooled> {
    let ps: Vec<ProcessEstimate> = estimates.iter().copied().map(Into::into).collect();
    combine_processes(&ps, 0, level)
}

/// Pools `estimates` with Stein's two-stage interval: the first `first_stage` estimates were
/// the first stage, from which the total was planned. δ is still the mean over all of them.
///
/// Errors: those of [`combine`], and `first_stage` below 3 or above the number of estimates
/// ([`Error::OutOfRange`]).
pub fn combine_staged(estimates: &[Estimate], first_stage: usize, level: f64) -> Result<Pooled> {
    let ps: Vec<ProcessEstimate> = estimates.iter().copied().map(Into::into).collect();
    combine_processes(&ps, first_stage, level)
}

/// The general form of [`combine`] (`first_stage` = 0) and [`combine_staged`], on processes
/// that may carry A/A floors and deltas and their quantization.
///
/// Errors: as [`combine_staged`] (`first_stage` = 0 selects the plain t interval), plus a
/// non-finite noise floor, A/A delta or quantization.
pub fn combine_processes(
    processes: &[ProcessEstimate],
    first_stage: usize,
    level: f64,
) -> Result<Pooled> {
    combine_processes_with(processes, first_stage, level, DEFAULT_MARGIN)
}

/// `combine_processes` with the margin the opposite-modes veto measures against: a process
/// counts as resolving a way only when its δ lies beyond `margin` (fraction) as well as beyond
/// its own A/A floor, so that processes within ±`margin` — equivalent by the user's own
/// standard — never veto a verdict however tight their intervals.
///
/// Errors: those of `combine_processes`; [`Error::OutOfRange`] for a negative or
/// non-finite margin.
pub fn combine_processes_with(
    processes: &[ProcessEstimate],
    first_stage: usize,
    level: f64,
    margin: f64,
) -> Result<Pooled> {
    if !(margin.is_finite() && margin >= 0.0) {
        return Err(Error::out_of_range(
            "margin",
            margin,
            "a finite margin >= 0",
        ));
    }
    let level = check_inputs(processes, first_stage, level)?;
    let deltas: Vec<f64> = processes.iter().map(|p| p.estimate.delta).collect();
    let interval = PooledInterval::of(&deltas, first_stage, level)?;
    let scatter = Scatter::of(processes, &deltas, interval.spread_between)?;
    let floor = PooledFloor::of(processes, interval.t);
    let quantizations: Vec<f64> = processes.iter().map(|p| p.quantization).collect();
    let quantization = median(&quantizations).unwrap_or(0.0);
    // One process's resolution: its own standard error, but never finer than one clock step
    // (a tie-bound interval of width 0 does not make a process exact).
    let resolution = scatter.spread_within.max(quantization);
    let modes = find_modes(&deltas, resolution);
    let (verdict, drift) = judge(
        processes,
        &deltas,
        &interval,
        level,
        (floor.noise_floor, margin),
        quantization,
    )?;
    let resolved = matches!(verdict, Verdict::AFaster | Verdict::BFaster);
    let warnings = pool_warnings(
        processes.len(),
        level,
        &interval,
        &scatter,
        resolution,
        resolved,
        &modes,
    );
    Ok(Pooled {
        processes: processes.len(),
        delta: interval.delta,
        low: interval.low,
        high: interval.high,
        first_stage,
        level,
        spread_between: interval.spread_between,
        spread_within: scatter.spread_within,
        inflation: scatter.inflation,
        q: scatter.q,
        i2: scatter.i2,
        validated: floor.validated,
        bias: floor.bias,
        noise_floor: floor.noise_floor,
        resolved,
        verdict,
        half_widths: processes.iter().map(|p| p.estimate.half_width()).collect(),
        deltas,
        modes,
        target_met: None,
        planned_processes: 0,
        plan_end: None,
        drift,
        failed_processes: 0,
        timed_out_processes: 0,
        decision: None,
        warnings,
    })
}

/// Checks the processes, the first stage and the level, in that order, and returns the level
/// with 0 resolved to 0.95. Errors: fewer than `MIN_PROCESSES` (3) processes
/// ([`Error::TooFewSamples`]); a level outside (0, 1) or a first stage that is neither 0 nor
/// between `MIN_PROCESSES` (3) and the number of processes ([`Error::OutOfRange`]); a
/// non-finite delta, interval end, A/A delta, noise floor or quantization
/// ([`Error::NonFinite`]).
fn check_inputs(processes: &[ProcessEstimate], first_stage: usize, level: f64) -> Result<f64> {
    let k = processes.len();
    if k < MIN_PROCESSES {
        return Err(Error::TooFewSamples {
            what: "processes",
            needed: MIN_PROCESSES,
            got: k,
        });
    }
    let level = if level == 0.0 { 0.95 } else { level };
    check::open_unit("level", level)?;
    if first_stage != 0 && !(MIN_PROCESSES..=k).contains(&first_stage) {
        return Err(Error::out_of_range(
            "first_stage",
            first_stage as f64,
            "3 <= first_stage <= the number of processes (0: no first stage)",
        ));
    }
    let column = |f: fn(&ProcessEstimate) -> f64| processes.iter().map(f).collect::<Vec<f64>>();
    check::finite("process deltas", &column(|p| p.estimate.delta))?;
    check::finite("process interval lows", &column(|p| p.estimate.low))?;
    check::finite("process interval highs", &column(|p| p.estimate.high))?;
    for p in processes {
        check::finite("process A/A deltas", &p.aa_deltas)?;
        check::finite("process noise floors", &[p.noise_floor.unwrap_or(0.0)])?;
        check::finite("process quantizations", &[p.quantization])?;
    }
    Ok(level)
}

/// The pooled mean of the per-process deltas and its interval. Shared with
/// `stats::machines`, which pools machines with the same t interval.
pub(super) struct PooledInterval {
    /// The unweighted mean of the deltas (fraction).
    pub(super) delta: f64,
    /// Sample standard deviation of the deltas (fraction).
    pub(super) spread_between: f64,
    /// The two-sided t quantile at the level on k − 1 degrees of freedom.
    pub(super) t: f64,
    /// Half the interval's width (fraction).
    pub(super) half: f64,
    pub(super) low: f64,
    pub(super) high: f64,
}

impl PooledInterval {
    /// The unweighted mean with a Student t interval on all k deltas or, with a first stage,
    /// Stein's two-stage interval, never narrower than the plain one. Errors: those of the t
    /// quantile (none for checked input).
    pub(super) fn of(deltas: &[f64], first_stage: usize, level: f64) -> Result<PooledInterval> {
        let k = deltas.len();
        let delta = mean(deltas)?;
        let spread_between = std_dev(deltas)?;
        let t = t_two_sided(level, k - 1)?;
        let plain = t * spread_between / (k as f64).sqrt();
        let half = if first_stage > 0 {
            let first = &deltas[..first_stage];
            let stein = t_two_sided(level, first_stage - 1)? * std_dev(first)? / (k as f64).sqrt();
            // Stein's width trusts the first stage's spread; when later processes scatter more
            // (processes of one machine are not always exchangeable), the plain t interval on
            // all of them is the honest one, so the wider of the two is reported.
            stein.max(plain)
        } else {
            plain
        };
        Ok(PooledInterval {
            delta,
            spread_between,
            t,
            half,
            low: delta - half,
            high: delta + half,
        })
    }
}

/// How the processes scatter next to what each one's own interval claims.
struct Scatter {
    /// Median over processes of each one's standard error (fraction).
    spread_within: f64,
    /// `spread_between / spread_within`, 0 when `spread_within` is 0.
    inflation: f64,
    /// Cochran's Q with inverse-variance weights; NaN when some interval has zero width.
    q: f64,
    /// I², in [0, 1]; NaN when Q is.
    i2: f64,
}

impl Scatter {
    /// Each process's standard error from its own interval and level, their median, the
    /// inflation of `spread_between` over it, and Cochran's Q and I². Errors: those of the
    /// normal quantile (none for checked input).
    fn of(processes: &[ProcessEstimate], deltas: &[f64], spread_between: f64) -> Result<Scatter> {
        let k = processes.len();
        let mut ses = Vec::with_capacity(k);
        for p in processes {
            let z = normal_quantile(0.5 + p.estimate.level / 2.0)?;
            ses.push((p.estimate.high - p.estimate.low) / (2.0 * z));
        }
        let spread_within = median(&ses).unwrap_or(0.0);
        let inflation = if spread_within > 0.0 {
            spread_between / spread_within
        } else {
            0.0
        };
        let (q, i2) = if ses.iter().all(|&s| s > 0.0) {
            let w: Vec<f64> = ses.iter().map(|s| 1.0 / (s * s)).collect();
            let wsum: f64 = w.iter().sum();
            let dw = w.iter().zip(deltas).map(|(w, d)| w * d).sum::<f64>() / wsum;
            let q: f64 = w
                .iter()
                .zip(deltas)
                .map(|(w, d)| w * (d - dw).powi(2))
                .sum();
            let i2 = if q > 0.0 {
                ((q - (k - 1) as f64) / q).max(0.0)
            } else {
                0.0
            };
            (q, i2)
        } else {
            (f64::NAN, f64::NAN)
        };
        Ok(Scatter {
            spread_within,
            inflation,
            q,
            i2,
        })
    }
}

/// The noise floor the pooled difference must clear, from the processes' A/A validations.
struct PooledFloor {
    /// Whether every process ran A/A validation.
    validated: bool,
    /// Mean over processes of each one's mean signed A/A delta (fraction); 0 without A/A
    /// deltas.
    bias: f64,
    /// What |δ| must clear (fraction); 0 when no process was validated.
    noise_floor: f64,
}

impl PooledFloor {
    /// `|bias| + t · SE(bias)` when every process is validated and carries A/A deltas (`t` the
    /// pooled interval's quantile), else the median of the floors of the validated processes,
    /// else 0.
    fn of(processes: &[ProcessEstimate], t: f64) -> PooledFloor {
        let k = processes.len();
        let validated = processes.iter().all(|p| p.noise_floor.is_some());
        let with_aa = processes.iter().all(|p| !p.aa_deltas.is_empty());
        let biases: Vec<f64> = processes
            .iter()
            .filter(|p| !p.aa_deltas.is_empty())
            .map(|p| p.aa_deltas.iter().sum::<f64>() / p.aa_deltas.len() as f64)
            .collect();
        let bias = if biases.is_empty() {
            0.0
        } else {
            biases.iter().sum::<f64>() / biases.len() as f64
        };
        let any_validated = processes.iter().any(|p| p.noise_floor.is_some());
        let noise_floor = if validated && with_aa {
            bias.abs() + t * std_dev(&biases).unwrap_or(0.0) / (k as f64).sqrt()
        } else if any_validated {
            let floors: Vec<f64> = processes.iter().filter_map(|p| p.noise_floor).collect();
            median(&floors).unwrap_or(0.0)
        } else {
            0.0
        };
        PooledFloor {
            validated,
            bias,
            noise_floor,
        }
    }
}

/// The verdict on the pooled interval against the floor and the clock step (the same bars as
/// one comparison's), then its vetoes in order: processes that resolve in opposite
/// directions ([`Unresolved::OppositeModes`]), then a trend of the deltas over the process
/// index ([`Unresolved::ProcessDrift`]), whose test is returned too (`None` below
/// `PROCESS_DRIFT_MIN` (8) processes). Errors: those of the estimate and of the trend test
/// (none for checked input).
fn judge(
    processes: &[ProcessEstimate],
    deltas: &[f64],
    interval: &PooledInterval,
    level: f64,
    (noise_floor, margin): (f64, f64),
    quantization: f64,
) -> Result<(Verdict, Option<DriftReport>)> {
    let pooled_estimate =
        Estimate::from_interval(interval.delta, interval.low, interval.high, level)?;
    let mut verdict = decide(&pooled_estimate, margin, noise_floor, quantization);
    if let Some(opposite) = opposite_modes(processes, interval.delta, &verdict, margin) {
        verdict = Verdict::CannotTell(opposite);
    }
    let drift = (deltas.len() >= PROCESS_DRIFT_MIN)
        .then(|| detect_drift(deltas))
        .transpose()?;
    if let Some(trend) = drift
        .as_ref()
        .and_then(|d| process_drift(d, interval.half, &verdict))
    {
        verdict = Verdict::CannotTell(trend);
    }
    Ok((verdict, drift))
}

/// The veto of a trend over the process index: `Some` when the deltas trend at
/// `PROCESS_DRIFT_LEVEL` (0.05) and the halves' medians lie more than `PROCESS_DRIFT_SHIFT` (2.0)
/// half-widths apart, unless opposite modes already refused the verdict (their reason says
/// more).
fn process_drift(drift: &DriftReport, half: f64, verdict: &Verdict) -> Option<Unresolved> {
    let vetoes = drift.drifted(PROCESS_DRIFT_LEVEL)
        && (drift.second_half - drift.first_half).abs() > PROCESS_DRIFT_SHIFT * half
        && !matches!(
            verdict,
            Verdict::CannotTell(Unresolved::OppositeModes { .. })
        );
    vetoes.then_some(Unresolved::ProcessDrift {
        spearman: drift.spearman,
        p_value: drift.p_value,
        first_half: drift.first_half,
        second_half: drift.second_half,
    })
}

/// The pooled result's warnings, in a fixed order: high inflation (judged against one
/// process's `resolution`), heterogeneity (only when unresolved), too few processes for the
/// level, modes.
fn pool_warnings(
    k: usize,
    level: f64,
    interval: &PooledInterval,
    scatter: &Scatter,
    resolution: f64,
    resolved: bool,
    modes: &[Mode],
) -> Vec<PoolWarning> {
    let spread_between = interval.spread_between;
    let mut warnings = Vec::new();
    if spread_between > HIGH_INFLATION * resolution {
        warnings.push(PoolWarning::HighInflation {
            inflation: if resolution > 0.0 {
                spread_between / resolution
            } else {
                0.0
            },
            between: spread_between,
            resolution,
        });
    }
    if scatter.i2 > HIGH_I2 && !resolved {
        warnings.push(PoolWarning::Heterogeneous { i2: scatter.i2 });
    }
    let advisable = advisable_processes(level);
    if k < advisable {
        warnings.push(PoolWarning::TooFewProcesses {
            processes: k,
            advisable,
            level,
        });
    }
    if !modes.is_empty() {
        warnings.push(PoolWarning::Modes {
            modes: modes.to_vec(),
        });
    }
    warnings
}

/// The veto of processes that resolve in opposite directions: `Some` when at least
/// `OPPOSITE_SHARE` (0.2) of them resolved (interval beyond zero, δ beyond their own floor and
/// beyond `margin`) against the pooled direction and the verdict would
/// otherwise stand, or when a verdict is missing anyway and a fifth resolved each way (then
/// "collect more samples" would be the wrong advice).
fn opposite_modes(
    processes: &[ProcessEstimate],
    delta: f64,
    verdict: &Verdict,
    margin: f64,
) -> Option<Unresolved> {
    let k = processes.len() as f64;
    // A process resolves a way only as one comparison would: its interval excludes zero and
    // its δ clears its own A/A floor. A process within its floor could not tell, and a layout
    // in which the two candidates tie is not one in which the other wins. Nor is one within
    // the margin: a process at −0.3 % is equivalent by the user's standard, not an opposite
    // mode, however tight its own interval (docs/background.md, "Sequential decisions").
    let beyond_floor = |p: &&ProcessEstimate| {
        p.noise_floor.is_none_or(|f| p.estimate.delta.abs() > f) && p.estimate.delta.abs() > margin
    };
    let a: Vec<f64> = processes
        .iter()
        .filter(|p| p.estimate.low > 0.0)
        .filter(beyond_floor)
        .map(|p| p.estimate.delta)
        .collect();
    let b: Vec<f64> = processes
        .iter()
        .filter(|p| p.estimate.high < 0.0)
        .filter(beyond_floor)
        .map(|p| p.estimate.delta)
        .collect();
    let (a_share, b_share) = (a.len() as f64 / k, b.len() as f64 / k);
    let against = if delta >= 0.0 { b_share } else { a_share };
    let resolved = matches!(verdict, Verdict::AFaster | Verdict::BFaster);
    let veto = if resolved {
        against >= OPPOSITE_SHARE
    } else {
        a_share.min(b_share) >= OPPOSITE_SHARE
    };
    veto.then(|| Unresolved::OppositeModes {
        a_faster_share: a_share,
        // A side no process resolved to has no centre: 0.
        a_faster_centre: median(&a).unwrap_or(0.0),
        b_faster_share: b_share,
        b_faster_centre: median(&b).unwrap_or(0.0),
    })
}

impl Pooled {
    /// Accounts for processes that were started but failed (`failed`, of which `timed_out` by
    /// the process timeout or a deadline): the verdict is refused as
    /// [`Unresolved::FailedProcesses`] when any timed out or more than a fifth of the started
    /// ones failed, since the processes that finished are then no fair sample of those
    /// started.
    pub(crate) fn account_failures(&mut self, failed: usize, timed_out: usize) {
        self.failed_processes = failed;
        self.timed_out_processes = timed_out;
        let started = self.processes + failed;
        if timed_out > 0 || 5 * failed > started {
            self.verdict = Verdict::CannotTell(Unresolved::FailedProcesses {
                failed,
                started,
                timed_out,
            });
            self.resolved = false;
        }
    }

    /// Raises the noise floor to `floor` (a fraction; ignored when lower, or not a number):
    /// a resolved verdict whose |δ| does not clear it becomes
    /// [`Unresolved::WithinNoiseFloor`]. `compare_builds` holds its pooled verdicts to the
    /// median worker pair's own floor this way.
    pub(crate) fn raise_floor(&mut self, floor: f64) {
        if floor.is_nan() || floor <= self.noise_floor {
            return;
        }
        self.noise_floor = floor;
        // The one rule's floor: a claim's nearer end must clear it, and equivalence needs it
        // below the margin.
        let near = self.low.abs().min(self.high.abs());
        match self.verdict {
            Verdict::AFaster | Verdict::BFaster if near <= floor => {
                self.verdict = Verdict::CannotTell(Unresolved::WithinNoiseFloor {
                    delta: self.delta,
                    noise_floor: floor,
                });
            }
            Verdict::Equivalent { margin } if floor >= margin => {
                self.verdict = Verdict::CannotTell(Unresolved::FloorAboveMargin {
                    noise_floor: floor,
                    margin,
                });
            }
            _ => {}
        }
        self.resolved = self.verdict.is_resolved();
    }

    /// Refuses the verdict as [`Unresolved::FixedBuildOrder`]: the processes built `bytes` of
    /// fixtures before the pool began, in one order, which no process randomised.
    pub(crate) fn refuse_fixed_build_order(&mut self, bytes: u64) {
        self.verdict = Verdict::CannotTell(Unresolved::FixedBuildOrder { bytes });
        self.resolved = false;
    }
}

/// Fewest processes for which the t quantile at `level` is within `FEW_PROCESSES_T_RATIO` (1.5)
/// of the normal one.
fn advisable_processes(level: f64) -> usize {
    let Ok(z) = normal_quantile(0.5 + level / 2.0) else {
        return MIN_PROCESSES;
    };
    (MIN_PROCESSES..1_000)
        .find(|&k| t_two_sided(level, k - 1).is_ok_and(|t| t <= FEW_PROCESSES_T_RATIO * z))
        .unwrap_or(1_000)
}

/// Splits the per-process deltas at gaps far larger than both one process's resolution (its
/// standard error, or the clock step if larger) and the clusters' own scatter. Empty when the
/// deltas form one cluster.
fn find_modes(deltas: &[f64], resolution: f64) -> Vec<Mode> {
    let mut sorted = deltas.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    // Recursive splitting at the largest qualifying gap, clusters kept in order.
    let mut clusters: Vec<(usize, usize)> = vec![(0, n)];
    loop {
        let mut best: Option<(usize, usize, f64)> = None; // (cluster, split index, gap)
        for (ci, &(a, b)) in clusters.iter().enumerate() {
            for i in a + 1..b {
                let gap = sorted[i] - sorted[i - 1];
                let (left, right) = (&sorted[a..i], &sorted[i..b]);
                // The clusters' own scatter, from those with two members or more: two lone
                // values cannot tell two modes from a spread.
                let scatter = [left, right]
                    .iter()
                    .filter(|c| c.len() >= 2)
                    .map(|c| std_dev(c).unwrap_or(0.0))
                    .reduce(f64::max);
                let qualifies = scatter.is_some_and(|s| {
                    gap > MODE_GAP_WITHIN * resolution && gap > MODE_GAP_CLUSTER_SD * s
                }) && gap > 0.0;
                if qualifies && best.is_none_or(|(_, _, g)| gap > g) {
                    best = Some((ci, i, gap));
                }
            }
        }
        match best {
            Some((ci, i, _)) => {
                let (a, b) = clusters[ci];
                clusters.splice(ci..=ci, [(a, i), (i, b)]);
            }
            None => break,
        }
    }
    if clusters.len() < 2 {
        return Vec::new();
    }
    clusters
        .into_iter()
        .map(|(a, b)| {
            let c = &sorted[a..b];
            Mode {
                share: c.len() as f64 / n as f64,
                centre: median(c).unwrap_or(0.0),
                low: c[0],
                high: c[c.len() - 1],
            }
        })
        .collect()
}

/// Two-sided t quantile at `level` on `df` degrees of freedom.
pub(super) fn t_two_sided(level: f64, df: usize) -> Result<f64> {
    student_t_quantile(0.5 + level / 2.0, df as f64)
}

/// NaN written as JSON `null` and read back as NaN (serde_json cannot carry NaN).
mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_nan() {
            s.serialize_none()
        } else {
            s.serialize_f64(*v)
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(d: f64, hw: f64) -> Estimate {
        Estimate::from_interval(d, d - hw, d + hw, 0.95).unwrap()
    }

    #[test]
    fn an_undecided_pool_of_scattered_processes_asks_for_processes_not_samples() {
        // Two states, both with A at least as fast: tight processes, a wide mean over five.
        let ps: Vec<Estimate> = [0.15, 0.001, 0.14, 0.002, 0.03]
            .iter()
            .map(|&d| est(d, 0.004))
            .collect();
        let p = combine(&ps, 0.95).unwrap();
        assert!(
            matches!(
                p.verdict,
                Verdict::CannotTell(Unresolved::IntervalContainsZero { .. })
            ),
            "{:?}",
            p.verdict
        );
        assert!(p.i2 >= HIGH_I2, "{}", p.i2);
        let text = p.to_string();
        assert!(
            text.contains("more processes would narrow it, and more samples in each would not"),
            "{text}"
        );
        assert!(!text.contains("collect more samples"), "{text}");
        // Processes that agree within their own noise keep the generic advice.
        let calm: Vec<Estimate> = [0.02, -0.02, 0.024, -0.024, 0.0]
            .iter()
            .map(|&d| est(d, 0.05))
            .collect();
        let p = combine(&calm, 0.95).unwrap();
        assert!(p.i2 < HIGH_I2, "{}", p.i2);
        assert!(p.to_string().contains("collect more samples"), "{p}");
    }

    #[test]
    fn a_raised_floor_refuses_only_what_it_covers() {
        // Five processes near −6 %: resolved, B faster, with no floor of their own.
        let e: Vec<Estimate> = [-0.063, -0.054, -0.075, -0.057, -0.066]
            .iter()
            .map(|&d| est(d, 0.002))
            .collect();
        let resolved = combine(&e, 0.95).unwrap();
        assert_eq!(resolved.verdict, Verdict::BFaster);
        // A lower floor, or none, changes nothing.
        let mut p = resolved.clone();
        p.raise_floor(0.005);
        assert_eq!(p.verdict, Verdict::BFaster);
        assert_eq!(p.noise_floor, 0.005);
        p.raise_floor(f64::NAN);
        p.raise_floor(0.001);
        assert_eq!(p.noise_floor, 0.005);
        // A floor above the interval's nearer end (about 5.4 %) refuses it.
        let mut p = resolved.clone();
        p.raise_floor(0.055);
        assert!(!p.resolved);
        assert!(matches!(
            p.verdict,
            Verdict::CannotTell(Unresolved::WithinNoiseFloor { noise_floor, .. }) if noise_floor == 0.055
        ));
        // An unresolved verdict keeps its own reason.
        let calm: Vec<Estimate> = [0.01, -0.01, 0.0].iter().map(|&d| est(d, 0.01)).collect();
        let mut p = combine(&calm, 0.95).unwrap();
        let before = p.verdict;
        p.raise_floor(0.5);
        assert_eq!(p.verdict, before);
    }

    #[test]
    fn the_p_value_matches_the_t_test_and_the_interval() {
        // SciPy 1.17.1: d = [-0.021, -0.018, -0.025, -0.019, -0.022];
        // 2 * scipy.stats.t.sf(abs(d.mean() / (d.std(ddof=1) / sqrt(5))), 4) = 6.786912935123918e-05
        let e: Vec<Estimate> = [-0.021, -0.018, -0.025, -0.019, -0.022]
            .iter()
            .map(|&d| est(d, 0.002))
            .collect();
        let p = combine(&e, 0.95).unwrap();
        let pv = p.p_value();
        assert!((pv - 6.786_912_935_123_918e-5).abs() < 1e-12, "{pv}");
        // The interval at coverage 1 − p just reaches zero.
        let at = combine(&e, 1.0 - pv).unwrap();
        assert!(at.high.abs() < 1e-9, "{}", at.high);
        // No difference, or no spread.
        let zero: Vec<Estimate> = [-0.01, 0.0, 0.01].iter().map(|&d| est(d, 0.002)).collect();
        assert_eq!(combine(&zero, 0.95).unwrap().p_value(), 1.0);
        let same: Vec<Estimate> = [0.01; 3].iter().map(|&d| est(d, 0.002)).collect();
        assert_eq!(combine(&same, 0.95).unwrap().p_value(), 0.0);
    }

    #[test]
    fn the_reference_example() {
        // Values: digest C.24; t and z from SciPy:
        // scipy.stats.t.ppf(0.975, 4) = 2.7764451051977987
        // scipy.stats.norm.ppf(0.975) = 1.959963984540054
        let e: Vec<Estimate> = [0.10, 0.14, 0.12, 0.11, 0.13]
            .iter()
            .map(|&d| est(d, 0.002))
            .collect();
        let p = combine(&e, 0.95).unwrap();
        let close = |a: f64, b: f64, tol: f64| (a - b).abs() <= tol;
        assert_eq!(p.processes, 5);
        assert!(close(p.delta, 0.12, 1e-12));
        assert!(close(p.spread_between, 0.015_811_388, 1e-8));
        assert!(close(p.low, 0.100_367_6, 1e-7), "{}", p.low);
        assert!(close(p.high, 0.139_632_4, 1e-7), "{}", p.high);
        assert!(close(p.spread_within, 0.001_020_43, 1e-8));
        assert!(close(p.inflation, 15.4949, 1e-4));
        assert!(close(p.q, 960.365, 1e-3), "{}", p.q);
        assert!(close(p.i2, 0.995_835, 1e-6));
        assert_eq!(p.first_stage, 0);
        assert_eq!(p.processes_for(0.005, 0.0), 78);
        assert_eq!(p.processes_for(0.01, 0.0), 20);
        assert_eq!(p.processes_for(0.02, 0.0), 5);
        assert_eq!(p.processes_for(0.0, 0.0), usize::MAX);
        assert!(p.precise(0.02, 0.0) && !p.precise(0.01, 0.0) && p.precise(0.0, 0.2));
        // Resolved: I² is a line of the summary, not a warning.
        assert!(p.has_warning("high_inflation") && !p.has_warning("heterogeneous"));
        assert!(!p.validated && p.noise_floor == 0.0);
        assert_eq!(p.verdict, Verdict::AFaster);
        assert!(p.modes.is_empty(), "{p}");
    }

    #[test]
    fn stein_uses_the_first_stage_spread() {
        // First stage 0.10, 0.12, 0.14: s1 = 0.02; t(0.975, 2) = 4.302652729749464
        // (scipy.stats.t.ppf(0.975, 2)); k = 6, mean of all six.
        let e: Vec<Estimate> = [0.10, 0.12, 0.14, 0.11, 0.12, 0.13]
            .iter()
            .map(|&d| est(d, 0.01))
            .collect();
        let p = combine_staged(&e, 3, 0.95).unwrap();
        let hw = 4.302_652_729_749_464 * 0.02 / 6f64.sqrt();
        assert!((p.delta - 0.12).abs() < 1e-12);
        assert!(
            (p.half_width() - hw).abs() < 1e-12,
            "{} vs {hw}",
            p.half_width()
        );
        assert_eq!(p.first_stage, 3);
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let e: Vec<Estimate> = (0..4).map(|i| est(0.01 * i as f64, 0.01)).collect();
        assert!(matches!(
            combine(&e[..2], 0.95),
            Err(Error::TooFewSamples { needed: 3, .. })
        ));
        assert!(matches!(
            combine(&e, 1.0),
            Err(Error::OutOfRange { name: "level", .. })
        ));
        assert!(matches!(
            combine_staged(&e, 2, 0.95),
            Err(Error::OutOfRange {
                name: "first_stage",
                ..
            })
        ));
        assert!(combine_staged(&e, 5, 0.95).is_err());
        let mut bad = e.clone();
        bad[1].delta = f64::NAN;
        assert!(matches!(combine(&bad, 0.95), Err(Error::NonFinite { .. })));
        assert!(Estimate::from_interval(0.1, 0.2, 0.3, 0.95).is_err());
        assert!(Estimate::from_interval(0.1, 0.0, 0.2, 1.0).is_err());
        assert!(Estimate::from_interval(f64::NAN, 0.0, 0.2, 0.95).is_err());
    }

    #[test]
    fn zero_width_intervals_make_q_undefined_and_serialise_as_null() {
        let e: Vec<Estimate> = [0.01, 0.02, 0.03].iter().map(|&d| est(d, 0.0)).collect();
        let p = combine(&e, 0.95).unwrap();
        assert!(p.q.is_nan() && p.i2.is_nan());
        assert_eq!(p.inflation, 0.0);
        let json = serde_json::to_string(&p).unwrap();
        assert!(json.contains("\"q\":null"), "{json}");
        let back: Pooled = serde_json::from_str(&json).unwrap();
        assert!(back.q.is_nan());
        assert_eq!(back.deltas, p.deltas);
    }

    #[test]
    fn two_separated_clusters_are_modes_and_block_a_verdict_of_opposite_sign() {
        // Most processes near −4.4 %, two near +18 %, each interval ±0.2 %.
        let ds = [
            -0.044, -0.045, -0.043, -0.046, 0.16, -0.044, -0.042, 0.20, -0.045, -0.044,
        ];
        let e: Vec<Estimate> = ds.iter().map(|&d| est(d, 0.002)).collect();
        let p = combine(&e, 0.95).unwrap();
        assert_eq!(p.modes.len(), 2, "{p}");
        assert!((p.modes[0].share - 0.8).abs() < 1e-12);
        assert!((p.modes[0].centre + 0.044).abs() < 1e-3);
        assert!(p.modes[1].centre > 0.15);
        assert!(!p.resolved, "{p}");
        assert!(p.has_warning("modes"));
        assert!(p.to_string().contains("not a typical difference"), "{p}");
    }

    #[test]
    fn the_sort_pair_on_this_machine_shows_two_modes() {
        // examples/compare --processes 10, 2026-12-01: eight processes near +22 %, two near
        // +28 %, each with a standard error of about 0.08 %.
        let ds = [
            0.2210, 0.2804, 0.2126, 0.2216, 0.2777, 0.2350, 0.2226, 0.2177, 0.2186, 0.2226,
        ];
        let e: Vec<Estimate> = ds.iter().map(|&d| est(d, 0.0016)).collect();
        let p = combine(&e, 0.95).unwrap();
        assert_eq!(p.modes.len(), 2, "{p}");
        assert!((p.modes[0].share - 0.8).abs() < 1e-12, "{p}");
        assert!((p.modes[1].centre - 0.279).abs() < 0.001, "{p}");
        // Same sign: the verdict stands, but the summary shows the modes, not the mean.
        assert!(p.resolved);
        // Five processes within 0.3 % of each other and one 1 % away are not modes.
        let ds = [0.2195, 0.2174, 0.2229, 0.2314, 0.2189];
        let e: Vec<Estimate> = ds.iter().map(|&d| est(d, 0.0016)).collect();
        assert!(combine(&e, 0.95).unwrap().modes.is_empty());
    }

    #[test]
    fn a_continuous_spread_is_not_modes() {
        // Ten draws of a wide normal spread (inflation about 10): no gap dominates the
        // clusters' own scatter.
        let ds = [
            0.012, -0.008, 0.021, 0.003, -0.015, 0.009, 0.000, -0.004, 0.017, -0.011,
        ];
        let e: Vec<Estimate> = ds.iter().map(|&d| est(d, 0.002)).collect();
        let p = combine(&e, 0.95).unwrap();
        assert!(p.modes.is_empty(), "{p}");
        assert!(!p.resolved);
    }

    #[test]
    fn the_floor_pools_the_processes_a_a_deltas() {
        let mk = |d: f64, aa: Vec<f64>| ProcessEstimate {
            estimate: est(d, 0.002),
            noise_floor: Some(0.003),
            aa_deltas: aa,
            quantization: 0.0,
        };
        let ps = vec![
            mk(0.05, vec![0.001, -0.001, 0.002]),
            mk(0.051, vec![0.0, 0.002, 0.001]),
            mk(0.049, vec![0.003, 0.001, -0.001]),
        ];
        let p = combine_processes(&ps, 0, 0.95).unwrap();
        // The bias is the mean of the per-process mean A/A deltas, and the floor the upper end
        // of their one-sample 95 % t interval (the bias is positive). SciPy 1.17.1:
        //   b = numpy.mean([[.001, -.001, .002], [0, .002, .001], [.003, .001, -.001]], axis=1)
        //   b.mean()                                                   # 0.0008888888888888888
        //   scipy.stats.ttest_1samp(b, 0).confidence_interval(0.95).high  # 0.0013669614144166068
        assert!(p.validated);
        assert!((p.bias - 0.0008888888888888888).abs() < 1e-15);
        assert!((p.noise_floor - 0.0013669614144166068).abs() < 1e-12);
        assert_eq!(p.verdict, Verdict::AFaster);
        // Without A/A deltas: the median of the floors.
        let ps: Vec<ProcessEstimate> = ps
            .into_iter()
            .map(|mut p| {
                p.aa_deltas.clear();
                p
            })
            .collect();
        assert_eq!(combine_processes(&ps, 0, 0.95).unwrap().noise_floor, 0.003);
    }

    #[test]
    fn a_process_within_its_own_floor_is_no_opposite_mode() {
        // Deltas like the README's main job's on an Intel Xeon (2026-12-02): four processes
        // with A faster by 12 to 16 %, one at -1.4 % whose interval excludes zero but whose
        // own A/A floor (2 % here) it does not clear, so that process cannot tell. It did not
        // resolve the other way and must not veto the pooled "A faster".
        let mk = |d: f64, floor: f64| ProcessEstimate {
            estimate: est(d, 0.004),
            noise_floor: Some(floor),
            aa_deltas: Vec::new(),
            quantization: 0.0,
        };
        let ps = vec![
            mk(0.16, 0.02),
            mk(0.13, 0.02),
            mk(-0.014, 0.02),
            mk(0.15, 0.02),
            mk(0.12, 0.02),
        ];
        let p = combine_processes(&ps, 0, 0.95).unwrap();
        assert_eq!(p.verdict, Verdict::AFaster, "{p}");
        // The same process beyond its floor (1 %) resolved B faster, but within the default
        // 2 % margin: equivalent by the user's standard, no veto.
        let mut ps = ps;
        ps[2].noise_floor = Some(0.01);
        let p = combine_processes(&ps, 0, 0.95).unwrap();
        assert_eq!(p.verdict, Verdict::AFaster, "{p}");
        // Against a 1 % margin it is beyond both: one in five vetoes.
        let p = combine_processes_with(&ps, 0, 0.95, 0.01).unwrap();
        assert!(
            matches!(
                p.verdict,
                Verdict::CannotTell(Unresolved::OppositeModes { .. })
            ),
            "{p}"
        );
    }

    #[test]
    fn processes_within_the_margin_do_not_veto_as_opposite_modes() {
        // The README's main job on an Intel Xeon (2026-12-03): a quarter of the processes
        // "resolved B faster" by 0.33 to 0.72 %, tight intervals beyond their own floors,
        // against processes at +1.4 to +21 %. Before the margin counted, they vetoed.
        let mk = |d: f64| ProcessEstimate {
            estimate: est(d, 0.001),
            noise_floor: Some(0.002),
            aa_deltas: Vec::new(),
            quantization: 0.0,
        };
        let ds = [0.21, 0.014, -0.0033, 0.09, 0.12, -0.0072, 0.15, 0.06];
        let ps: Vec<_> = ds.into_iter().map(mk).collect();
        let p = combine_processes(&ps, 0, 0.95).unwrap();
        // No veto: the interval [+1.4 %, +14.5 %] only reaches across the 2 % margin.
        assert!(
            matches!(
                p.verdict,
                Verdict::CannotTell(Unresolved::StraddlesMargin { .. })
            ),
            "{p}"
        );
        // With no margin they count, as before: a quarter against vetoes.
        let p = combine_processes_with(&ps, 0, 0.95, 0.0).unwrap();
        assert!(
            matches!(
                p.verdict,
                Verdict::CannotTell(Unresolved::OppositeModes { .. })
            ),
            "{p}"
        );
        assert!(combine_processes_with(&ps, 0, 0.95, f64::NAN).is_err());
        assert!(combine_processes_with(&ps, 0, 0.95, -0.01).is_err());
    }

    #[test]
    fn one_clock_step_apart_is_neither_modes_nor_inflation() {
        // Four processes tie at exactly 0, one lands one clock step (0.04 %) away; the clock
        // step is 0.09 % of a batch.
        let mk = |d: f64| ProcessEstimate {
            estimate: est(d, 0.0),
            noise_floor: Some(0.0),
            aa_deltas: vec![0.0, 0.0003],
            quantization: 0.0009,
        };
        let ps: Vec<_> = [0.0, 0.0004, 0.0, 0.0, 0.0].into_iter().map(mk).collect();
        let p = combine_processes(&ps, 0, 0.95).unwrap();
        assert!(p.modes.is_empty(), "{p}");
        assert!(!p.has_warning("high_inflation"), "{p}");
    }

    #[test]
    fn the_interval_is_never_narrower_than_the_t_interval_on_all_processes() {
        // Five processes within ±0.1 % of 5 %, then 25 spread evenly over 0–10 %
        // (numpy.linspace(0, 0.1, 25)), shuffled so that they do not trend. SciPy:
        // t.ppf(0.975, 4) * std(first five, ddof=1) / sqrt(30) = 0.0004007453322190405 (Stein);
        // t.ppf(0.975, 29) * std(all, ddof=1) / sqrt(30) = 0.010417582261133922 (plain t).
        let mut rest: Vec<f64> = (0..25).map(|i| 0.1 * i as f64 / 24.0).collect();
        let mut rng = crate::rng::Rng::new(5);
        for i in (1..rest.len()).rev() {
            rest.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut ds = vec![0.049, 0.0495, 0.05, 0.0505, 0.051];
        ds.extend(rest);
        let e: Vec<Estimate> = ds.iter().map(|&d| est(d, 0.001)).collect();
        let p = combine_staged(&e, 5, 0.95).unwrap();
        assert!((p.delta - 0.05).abs() < 1e-12);
        assert!(
            (p.half_width() - 0.010_417_582_261_133_922).abs() < 1e-12,
            "{}",
            p.half_width()
        );
        // In index order the same deltas trend upward (Spearman ρ = 0.758, p = 1.2e-6 by
        // scipy.stats.spearmanr), by far more than the half-width: no verdict.
        let mut sorted = ds[5..].to_vec();
        sorted.sort_by(f64::total_cmp);
        let ordered: Vec<Estimate> = ds[..5]
            .iter()
            .chain(&sorted)
            .map(|&d| est(d, 0.001))
            .collect();
        let p = combine_staged(&ordered, 5, 0.95).unwrap();
        assert!(
            matches!(
                p.verdict,
                Verdict::CannotTell(Unresolved::ProcessDrift { spearman, .. }) if spearman > 0.7
            ),
            "{p}"
        );
        assert!(!p.resolved && p.to_string().contains("drift"), "{p}");
    }

    #[test]
    fn a_pool_that_drifted_as_the_machine_quietened_is_refused() {
        // The deltas (in %) of a fixed-order A/A of two identical 16 MiB lists, 30 processes
        // in order (lab/examples/fixed_order, 2026-12-01 23:30–00:00 UTC), which fell from about
        // +4 % to 0 % when a neighbouring measurement ended. Each process's interval is taken
        // as ±2 % (the run printed only its deltas). scipy.stats.spearmanr against the index:
        // ρ = −0.4495, and the normal approximation ρ·√29 gives p = 0.0155.
        let ds = [
            0.5, 6.6, 5.4, 3.9, 4.5, 2.7, 4.1, -3.9, -2.0, 2.4, 3.4, 0.2, 3.9, 5.7, 5.8, -0.1, 3.2,
            0.5, 3.8, -0.6, 1.0, 2.0, 5.0, -5.7, 1.9, -0.9, 0.2, -1.8, -2.1, 1.4,
        ];
        let e: Vec<Estimate> = ds.iter().map(|&d| est(d / 100.0, 0.02)).collect();
        let p = combine_staged(&e, 5, 0.95).unwrap();
        let alone = Estimate::from_interval(p.delta, p.low, p.high, 0.95).unwrap();
        assert_eq!(decide(&alone, 0.0, 0.0, 0.0), Verdict::AFaster, "{p}");
        match p.verdict {
            Verdict::CannotTell(Unresolved::ProcessDrift {
                spearman, p_value, ..
            }) => {
                assert!(
                    (spearman + 0.449_538_246_922_695_6).abs() < 1e-12,
                    "{spearman}"
                );
                assert!((p_value - 0.0155).abs() < 5e-4, "{p_value}");
            }
            other => panic!("{other}"),
        }
    }

    #[test]
    fn a_fifth_resolving_the_other_way_vetoes_the_verdict() {
        // Seven processes around +10 %, three around −2 %, each ±0.5 %: the t interval
        // [+2.17 %, +10.63 %] (SciPy: mean 0.064, t.ppf(0.975, 9)·sd/√10 = 0.042314) excludes
        // zero, so the rule alone would say A is faster; three of ten resolved B faster.
        let ds = [
            0.08, 0.09, 0.10, 0.11, 0.12, 0.095, 0.105, -0.01, -0.02, -0.03,
        ];
        let e: Vec<Estimate> = ds.iter().map(|&d| est(d, 0.005)).collect();
        // Against no margin, so that the three count however small they are (the default
        // 2 % margin would leave only the one at −3 %).
        let ps: Vec<ProcessEstimate> = e.iter().copied().map(Into::into).collect();
        let p = combine_processes_with(&ps, 0, 0.95, 0.0).unwrap();
        assert!(combine(&e, 0.95).unwrap().resolved);
        assert!((p.half_width() - 0.042_314_367_125_321_446).abs() < 1e-12);
        let alone = Estimate::from_interval(p.delta, p.low, p.high, 0.95).unwrap();
        assert_eq!(decide(&alone, 0.0, p.noise_floor, 0.0), Verdict::AFaster);
        match p.verdict {
            Verdict::CannotTell(Unresolved::OppositeModes {
                a_faster_share,
                a_faster_centre,
                b_faster_share,
                b_faster_centre,
            }) => {
                assert!((a_faster_share - 0.7).abs() < 1e-12);
                assert!((b_faster_share - 0.3).abs() < 1e-12);
                assert!((a_faster_centre - 0.10).abs() < 1e-12);
                assert!((b_faster_centre + 0.02).abs() < 1e-12);
            }
            other => panic!("{other}"),
        }
        let json = serde_json::to_string(&p.verdict).unwrap();
        assert!(json.contains(r#""bar":"opposite_modes""#), "{json}");
        assert!(
            p.verdict
                .to_string()
                .contains("more samples will not settle it")
        );
        // One tight process at −0.5 % among 29 at +10 %: one in thirty is no veto.
        let mut ds: Vec<f64> = (0..29).map(|i| 0.10 + 0.001 * (i % 3) as f64).collect();
        ds.push(-0.005);
        let e: Vec<Estimate> = ds.iter().map(|&d| est(d, 0.002)).collect();
        let p = combine(&e, 0.95).unwrap();
        assert_eq!(p.verdict, Verdict::AFaster, "{p}");
        // Half each way with an interval around zero: the reason is the modes, not "collect
        // more samples".
        let ds = [0.05, 0.06, 0.04, -0.05, -0.06, -0.04];
        let e: Vec<Estimate> = ds.iter().map(|&d| est(d, 0.002)).collect();
        let p = combine(&e, 0.95).unwrap();
        assert!(
            matches!(
                p.verdict,
                Verdict::CannotTell(Unresolved::OppositeModes { .. })
            ),
            "{p}"
        );
    }

    #[test]
    fn failed_processes_refuse_the_verdict_when_they_bias_the_pool() {
        let e: Vec<Estimate> = [0.10, 0.11, 0.12, 0.10, 0.11, 0.12, 0.11, 0.10]
            .iter()
            .map(|&d| est(d, 0.002))
            .collect();
        let p = combine(&e, 0.95).unwrap();
        assert!(p.resolved);
        // One panic in nine started: no bias to speak of.
        let mut one = p.clone();
        one.account_failures(1, 0);
        assert!(one.resolved && one.failed_processes == 1, "{one}");
        // One timeout: the slowest draws are missing.
        let mut slow = p.clone();
        slow.account_failures(1, 1);
        assert_eq!(
            slow.verdict,
            Verdict::CannotTell(Unresolved::FailedProcesses {
                failed: 1,
                started: 9,
                timed_out: 1
            })
        );
        assert!(
            !slow.resolved && slow.to_string().contains("timeout"),
            "{slow}"
        );
        // Three failures in eleven started is more than a fifth.
        let mut many = p;
        many.account_failures(3, 0);
        assert!(!many.resolved, "{many}");
    }

    #[test]
    fn warnings_say_what_they_were_raised_on() {
        // Zero-width intervals: no "0.0 times" inflation.
        let e: Vec<Estimate> = [0.01, 0.02, 0.03, 0.04, 0.05]
            .iter()
            .map(|&d| est(d, 0.0))
            .collect();
        let p = combine(&e, 0.95).unwrap();
        let w = p
            .warnings
            .iter()
            .find(|w| w.code() == "high_inflation")
            .unwrap()
            .to_string();
        assert!(w.contains("zero width") && !w.contains("0.0 times"), "{w}");
        // A resolved, heterogeneous pool states I² in its summary and warns of nothing the
        // user could act on.
        let e: Vec<Estimate> = [0.10, 0.14, 0.12, 0.11, 0.13]
            .iter()
            .map(|&d| est(d, 0.002))
            .collect();
        let p = combine(&e, 0.95).unwrap();
        assert!(p.resolved && !p.has_warning("heterogeneous"), "{p}");
        assert!(
            p.to_string()
                .contains("most of the variation is between processes")
        );
        // Unresolved and heterogeneous: more processes, not more samples, is the advice.
        let e: Vec<Estimate> = [0.02, -0.03, 0.01, -0.01, 0.03]
            .iter()
            .map(|&d| est(d, 0.002))
            .collect();
        let p = combine(&e, 0.95).unwrap();
        assert!(!p.resolved && p.has_warning("heterogeneous"), "{p}");
    }

    #[test]
    fn few_processes_are_flagged_by_level() {
        assert_eq!(advisable_processes(0.95), 5);
        assert_eq!(advisable_processes(0.99), 7);
        let e: Vec<Estimate> = [0.01, 0.02, 0.03].iter().map(|&d| est(d, 0.01)).collect();
        assert!(combine(&e, 0.95).unwrap().has_warning("too_few_processes"));
    }
}
