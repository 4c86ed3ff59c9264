//! What can be concluded: the verdict and the rules that earn it, for one comparison, for a
//! handful of whole-process runs, and for replicates judged as they arrive.
//!
//! # The verdict
//!
//! The verdict: which candidate is faster, or why no verdict can be given, and the rule
//! [`decide`] that turns an estimate, a noise floor and a clock step into one. Pure.
//!
//! A verdict is earned: resolved means the interval excludes zero, the point estimate lies on
//! the same side, the difference clears what identical code showed against itself (the A/A
//! noise floor) and it clears what the clock could round into existence
//! (`QUANTIZATION_GATE` (1.5) clock steps). Everything else is [`Verdict::CannotTell`] with the
//! first bar missed.
//!
//! # The A/A noise floor
//!
//! A noise floor from one A/A series: how large a difference identical code can show.
//!
//! [`compare`](crate::compare()) measures its noise floor from many A/A comparisons (40 by
//! default), each of `repeats` pairs, and takes the 0.9 quantile of their `|δ|`. When one
//! measurement is a whole process, forty A/A comparisons cost forty times the comparison itself.
//! [`aa_noise_floor`] gets a floor from **one** A/A series instead: the paired bootstrap of
//! the series `x` against `y` (the same code, measured interleaved) approximates the
//! sampling distribution of `δ̂` for identical code at this many pairs, and the floor is the
//! `AA_FLOOR_QUANTILE` (0.90) quantile of the replicates' `|δ*|`.
//!
//! The replicates are centred on the observed `δ̂` rather than on zero, so the floor is, if
//! anything, larger than the spread alone: an A/A series that happened to differ by 3 % yields
//! a floor of at least about 3 %. That errs towards "cannot tell", the safe side.
//!
//! ```
//! use rtcompare::stats::{aa_noise_floor, EstimateOptions};
//!
//! // Two series of the same program, in milliseconds, measured in alternation.
//! let x = [10.0, 10.2, 9.9, 10.1, 10.0, 10.3, 9.8, 10.0, 10.1, 9.9, 10.2];
//! let y = [10.1, 10.0, 10.0, 10.2, 9.9, 10.1, 9.9, 10.1, 10.0, 10.0, 10.1];
//! let floor = aa_noise_floor(&x, &y, &EstimateOptions::default().seed(7))?;
//! assert!(floor > 0.0 && floor < 0.05);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Verdict rules
//!
//! Verdict rules: turning an estimate and its interval into a decision.
//!
//! An interval on the relative difference between two candidates is evidence, not yet an
//! answer. Two questions remain: is the difference real (does the interval exclude zero?), and
//! is it worth caring about (is it at least as large as a threshold chosen *before* measuring)?
//! A threshold picked after seeing the result merely restates the result. Two pure rules answer
//! them, each with its own result type.
//!
//! Convention for every argument: a relative difference `δ = 1 − A/B`, as a fraction, where
//! positive means the first candidate (A) needs less time (0.05 = A takes 5 % less time than
//! B). Thresholds are fractions on the same scale.
//!
//! * [`three_outcome_rule`] gives *faster*, *slower* or *cannot tell*, and, when it cannot tell,
//!   says which of the two very different reasons applies: the interval contains zero (the
//!   experiment did not separate the candidates: measure more, or on a quieter machine), or
//!   the difference is real but smaller than the threshold (accept that it is too small to
//!   matter).
//! * [`lower_bound_rule`] is the stricter acceptance test for a claimed speedup: the interval's
//!   *lower bound*, not the point estimate, must clear the threshold, so the number one commits
//!   to is the one that survives the uncertainty.
//!
//! ```
//! use rtcompare::support::stats::{
//!     lower_bound_rule, three_outcome_rule, CannotTellReason, ThresholdOutcome,
//! };
//!
//! // A is 6 % faster, 95 % interval [3 %, 9 %], threshold 2 %.
//! let v = three_outcome_rule(0.06, 0.03, 0.09, 0.02)?;
//! assert_eq!(v.outcome, ThresholdOutcome::Faster);
//! assert!(lower_bound_rule(0.03, 0.02)?.accepted);
//!
//! // Real (the interval excludes zero) but below the 2 % threshold.
//! let v = three_outcome_rule(0.01, 0.005, 0.015, 0.02)?;
//! assert_eq!(v.outcome, ThresholdOutcome::CannotTell(CannotTellReason::BelowThreshold));
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # The judge
//!
//! One rule decides every claim about a candidate against its baseline, whatever measured it:
//! the cargo-test gates ([`crate::gate`]), the sequential looks, and the command line's `cmd`,
//! `bench` and `combine`. [`judge`] takes the interval's [`Bounds`] (how large a change it
//! guarantees each way, at its least favourable end), a [`Bar`] (a threshold fixed before
//! measuring, which is a gate's budget, a claimed speedup or a margin of equivalence, and the
//! A/A floor) and whether equivalence is asked about, and returns a [`Judgement`]: the claim
//! with its bound, equivalent, or why there is none.
//!
//! The bound, never the point estimate, must clear the larger of the threshold and the floor:
//! an interval that excludes zero but reaches below the bar is a real difference too small to
//! claim. Each caller turns its interval into bounds once, naming which way its δ points
//! ([`Scale`]), so no caller flips a sign to ask the rule. [`decide`] stays the verdict of a
//! symmetric comparison (A against B, no baseline); the judge names roles.
//!
//! A regression budget (`--fail-on-regression 2%`, `assert_not_slower!(…, budget = 0.02)`) asks
//! a different question, how large a slowdown is, and [`over_budget`] answers it in two parts:
//! the judge must find the candidate slower at all (the interval above zero and the floor), and
//! the point estimate of the slowdown must exceed the budget. Holding the whole interval to
//! the budget would let a slowdown of the budget plus the interval's half-width pass half the
//! time.
//!
//! ```
//! use rtcompare::stats::{Bar, Bounds, Claim, Judgement, Scale, judge};
//!
//! // A regression gate with a 5 % budget over an interval of the slowdown of [6 %, 10 %].
//! let b = Bounds::of_interval(0.06, 0.10, Scale::Slowdown)?;
//! assert_eq!(judge(b, Bar::new(0.05, 0.0)?, false).claim(), Some(Claim::Slower));
//! // Equivalence within ±2 %, on a setup whose identical code differs by 3 %: not shown.
//! let tight = Bounds::of_interval(-0.01, 0.01, Scale::Slowdown)?;
//! assert_eq!(judge(tight, Bar::new(0.02, 0.03)?, true), Judgement::FloorAboveMargin);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Few runs
//!
//! A verdict for a handful of whole-process runs: win, parity or loss.
//!
//! Some comparisons cannot be repeated thousands of times inside one process: a benchmark
//! table that runs each program five or seven times, say, for workloads that last well under a
//! millisecond. At that scale the time is dominated by things no code change moves (process
//! start, which core the scheduler picks, the clock ramping up), and these often show up as
//! *timing modes*: the runs fall into a fast cluster and one roughly a quarter slower, and how
//! many runs land in each differs from one binary to the next. A fixed percentage rule on the
//! ratio of medians then calls wins and losses that are only a different share of slow runs.
//!
//! [`few_runs_verdict`] applies the rule described in "Telling a real benchmark difference from
//! noise" (Jaiswal, 2026). Two ratios must both leave their tolerance before it calls a win or a
//! loss:
//!
//! 1. `ratio = median(a) / median(b)` against `tolerance = max(parity, noise, floor / median)`,
//! 2. `best_ratio = min(a) / min(b)` against `best_tolerance = max(parity, floor / minimum)`.
//!
//! Noise only adds time, so the best run is the steadiest estimate of what the code costs and
//! the median says what a run usually costs. A real difference moves both; equal minimums with
//! different medians is the signature of timing modes, and is parity.
//!
//! **Why the spread is the interquartile range and not the MAD.** When more than half of one
//! arm's runs sit in one mode, the median absolute deviation is the deviation *within* that
//! mode, close to zero, and the rule would report nearly 0 % noise for a series that jumps
//! between 570 µs and 720 µs. The interquartile range spans the middle half of the runs, so
//! it sees both modes whenever the minority mode holds a quarter of the runs or more.
//!
//! Decisions this implementation makes where the source leaves room (all symmetric in the
//! two arms, so that swapping `a` and `b` turns `ratio` into `1/ratio` and a win into a loss):
//!
//! * `noise` is the larger of the two arms' relative spreads, `iqr(x) / median(x)`, with the
//!   type-7 quartiles of [`quantile`];
//! * the floor is divided by the smaller of the two medians (respectively minimums), which gives
//!   the larger, more cautious, relative floor;
//! * "beyond the tolerance" means `ratio > 1 + tolerance` on the slow side and
//!   `ratio < 1 / (1 + tolerance)` on the fast side (the mirror image on a log scale; for a
//!   tolerance of 0.04 the fast bound is 0.9615 rather than 0.96).
//!
//! The rule is not a significance test. Five runs a side cannot support a p-value, and
//! interleaved runs are not independent draws. It also assumes noise only adds time; a
//! fastest run that is an outlier downwards would mislead it, so read the raw runs when a
//! verdict surprises you.
//!
//! ```
//! use rtcompare::support::stats::{few_runs_verdict, FewRunsOutcome, FewRunsRule};
//!
//! // Run times in nanoseconds: 5 runs of the candidate and of the other arm.
//! let a = [500e3, 505e3, 510e3, 502e3, 508e3];
//! let b = [600e3, 610e3, 605e3, 615e3, 603e3];
//! let v = few_runs_verdict(&a, &b, &FewRunsRule::default())?;
//! assert_eq!(v.outcome, FewRunsOutcome::Win);
//! assert!(v.ratio < 1.0);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Sequential decisions
//!
//! When the replicates arrive one stage at a time (processes, worker pairs), looking after each
//! stage and stopping at the first interval that decides can save much of the work
//! (docs/background.md, "Sequential decisions"), but keeps its error rates only if every look is
//! paid for. [`sequential_look`] builds each look's Student t
//! interval at the level an alpha-spending function ([`Spending`], [`spent`]) releases for it,
//! so that all the looks' intervals hold at once with probability at least 1 − α; it answers
//! faster, slower, equivalent within a margin, or undecided ([`SequentialOutcome`]), and at the
//! last look "cannot tell" with the largest difference the interval still allows
//! ([`SequentialDecision`]). [`Sequential`] is the one driver every front end that decides as
//! it measures runs (`pool::run`, the bench engine, `rtcompare cmd`): it holds the plan and
//! the looks, spends α, and records why the decision ended, whether the caller hands it its
//! deltas or an interval of its own. `StagedPlan` (Stein's two stages toward a precision
//! target) is the one alternative.

// The chapter's links name each item by its one path, `stats::NAME`.
#[cfg(doc)]
use crate::stats::*;

// `sequential.rs` names the stats-wide helpers as `super::check` and `super::dist`.
use crate::stats::{check, dist};

// One file per rule: `decision.rs` (the verdict and `decide`), `aa_floor.rs` (the floor from one
// A/A series), `verdict.rs` (the threshold rules), `few_runs.rs`, `sequential.rs`.
pub(crate) mod aa_floor;
pub(crate) mod decision;
pub(crate) mod few_runs;
pub(crate) mod judge;
pub(crate) mod sequential;
pub(crate) mod verdict;
