//! What many replicates say together: one comparison pooled across processes or across
//! machines, the plan that sizes such a run, and a family of comparisons judged at once.
//!
//! # Pooling across processes
//!
//! Pooling comparisons across processes: the process, not the batch, as the unit of
//! replication.
//!
//! One process is one memory layout, one placement of code, one draw of whatever the loader
//! and the allocator decided. A comparison's interval covers the noise *inside* its process
//! only, so two processes can each resolve the same comparison, tightly, in opposite
//! directions. Pooling treats each process's point estimate as one observation:
//!
//! - [`combine`]: δ is the **unweighted** mean of the per-process deltas (the per-process
//!   intervals understate the real uncertainty, so weighting by them would trust the least
//!   trustworthy), with a Student t interval on k − 1 degrees of freedom;
//! - [`combine_staged`]: Stein's two-stage interval, for a run whose total size k was chosen
//!   from a first stage of `first_stage` processes ([`Pooled::processes_for`]): half-width
//!   t(level, first_stage − 1) · s₁ / √k with s₁ the first stage's standard deviation, but
//!   never narrower than the plain t interval on all k processes. Stein's coverage is exact
//!   for normal, exchangeable deltas however k was chosen from the first stage's spread, which
//!   a "stop once the interval is narrow enough" rule's is not; the plain t floor keeps a
//!   first stage that happened to agree closely from speaking for later processes that did
//!   not (docs/background.md, "Coverage of the default plan").
//!
//! Besides the interval, a [`Pooled`] result says how much wider the processes scatter than
//! each one's own interval claimed ([`Pooled::inflation`]), Cochran's Q and I², a noise floor
//! pooled from every process's A/A deltas, a [`Verdict`] with the same bars as a single
//! comparison, and [`PoolWarning`]s, among them **modes**: per-process deltas that form
//! separated clusters, whose mean is no typical difference at all.
//!
//! ```
//! use rtcompare::stats::{combine, Estimate};
//! let est: Vec<Estimate> = [0.10, 0.14, 0.12, 0.11, 0.13]
//!     .iter()
//!     .map(|&d| Estimate::from_interval(d, d - 0.002, d + 0.002, 0.95))
//!     .collect::<Result<_, _>>()?;
//! let p = combine(&est, 0.95)?;
//! assert!((p.delta - 0.12).abs() < 1e-12);
//! assert!((p.inflation - 15.4949).abs() < 1e-3); // processes scatter 15 times as widely
//! assert_eq!(p.processes_for(0.01, 0.0), 20);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! When every process (or worker pair) ran its own code layout, [`split_spread`] says how much
//! of their spread is the layouts' and how much the processes': each replicate's own A/A
//! differences estimate the spread within one layout, and the excess of the replicates' spread
//! over it is the part between layouts ([`SpreadSplit`]).
//!
//! # Planning a pooled comparison
//!
//! The two-stage plan of a pooled comparison, as pure arithmetic: after a first stage of
//! processes, how many more to run for a precision target, and when to stop instead.
//!
//! Stein's rule sizes the run from the first stage's spread: `⌈(t · s₁ / h)²⌉` processes for a
//! half-width `h` ([`Pooled::processes_for`]). Two cases need more than that rule:
//!
//! - the first stage already meets the target: no second stage;
//! - the target is out of reach: when the first stage says it needs more than
//!   `UNREACHABLE_FACTOR` (2.0) times the cap, running to the cap costs the whole budget and still
//!   leaves the interval at least √`UNREACHABLE_FACTOR` (2.0) times too wide. The plan stops at
//!   the first stage and says how many processes the target would need, unless the caller asked
//!   to run to the cap anyway (what going on regardless costs: docs/background.md, section
//!   "Fixtures built in a fixed order").
//!
//! ```
//! use rtcompare::stats::{combine, Estimate};
//! use rtcompare::support::stats::{plan_processes, PlanEnd};
//! let first: Vec<Estimate> = [0.01, 0.09, -0.05, 0.06, -0.02]
//!     .iter()
//!     .map(|&d| Estimate::from_interval(d, d - 0.002, d + 0.002, 0.95))
//!     .collect::<Result<_, _>>()?;
//! let p = combine(&first, 0.95)?;
//! // ±1 point needs about 250 processes: far beyond a cap of 30, so the plan stops here.
//! let plan = plan_processes(&p, 0.01, 0.25, 30, false);
//! assert_eq!(plan.total, 5);
//! assert!(matches!(plan.end, Some(PlanEnd::Unreachable { .. })));
//! // Asked to run to the cap, it does.
//! assert_eq!(plan_processes(&p, 0.01, 0.25, 30, true).total, 30);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Across machines
//!
//! Pooling one comparison across machines (CI runners): the machine, not the process, as the
//! unit of replication.
//!
//! A machine's pooled result covers the processes *on that machine*; another CPU model, another
//! kernel or another neighbour on the host can move δ beyond that interval. [`combine_machines`]
//! takes one [`MachineEstimate`] per machine and treats each machine's δ as one observation:
//!
//! - δ is the **unweighted** mean of the machine deltas with a Student t interval on k − 1
//!   degrees of freedom, exactly as [`combine`] does for processes;
//! - beside it, the DerSimonian–Laird random-effects estimate ([`MachinesPooled::re_delta`])
//!   with the Hartung–Knapp–Sidik–Jonkman t interval (its scale floored at 1, so it is never
//!   narrower than the plain random-effects t interval), the between-machine variance τ²,
//!   Cochran's Q and I², each machine's standard error read from its interval as
//!   `(high − low) / (2 z)`;
//! - the noise floor is the median of the machines' floors, and the [`Verdict`] is [`decide`]
//!   on the t interval against it;
//! - a machine whose δ lies outside the others' leave-one-out prediction interval (Bonferroni
//!   over the fleet, `OUTLIER_FLEET_ALPHA` (0.05)) is listed in [`MachinesPooled::outliers`] with
//!   the pooled result without it, but never dropped from the main result.
//!
//! At least [`MIN_MACHINES`] (3) machines: two cannot estimate the spread between machines.
//!
//! ```
//! use rtcompare::stats::{combine_machines, MachineEstimate};
//! let machines: Vec<MachineEstimate> = [0.021, 0.015, 0.034, 0.019, 0.027]
//!     .iter()
//!     .enumerate()
//!     .map(|(i, &d)| MachineEstimate {
//!         delta: d,
//!         low: d - 0.006,
//!         high: d + 0.006,
//!         level: 0.95,
//!         noise_floor: 0.005,
//!         label: format!("runner-{i}"),
//!     })
//!     .collect();
//! // Judged against a 1 % margin: the smallest difference that matters here.
//! let p = combine_machines(&machines, 0.95, 0.01)?;
//! assert!((p.delta - 0.0232).abs() < 1e-12);
//! assert!(p.low > 0.01 && p.resolved); // the interval lies beyond the margin and the floor
//! assert!(p.tau2 > 0.0 && p.outliers.is_empty());
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Many comparisons at once
//!
//! A bench target of twenty benchmarks, each judged at 95 %, gives a false verdict somewhere in
//! about 64 % of runs that change nothing. [`holm`] is Holm's step-down procedure: the smallest
//! p-value is compared with α/m, the next with α/(m − 1), and so on until one fails, which keeps
//! the chance of any false rejection at most α whatever the dependence between the tests.
//! [`Pooled::p_value`] is the p-value that matches a pooled interval (the interval at coverage
//! 1 − p just reaches zero), so each comparison's interval can be shown at the level its rank
//! was judged at ([`HolmStep::alpha`]).
//!
//! ```
//! use rtcompare::stats::holm;
//! let steps = holm(&[0.01, 0.04, 0.03, 0.005, 0.2], 0.05)?;
//! let rejected: Vec<bool> = steps.iter().map(|s| s.rejected).collect();
//! assert_eq!(rejected, [true, false, false, true, false]);
//! assert!((steps[3].alpha - 0.01).abs() < 1e-12); // the smallest, at α/5
//! # Ok::<(), rtcompare::Error>(())
//! ```

// The chapter's links name each item by its one path, `stats::NAME`.
#[cfg(doc)]
use crate::stats::*;

// `pool.rs` pools processes into a `Pooled` (its summary's words in `pool_summary.rs`, the split
// of its spread by layout in `spread_split.rs`); `pool_plan.rs` plans the second stage;
// `machines.rs` pools machines; `multiplicity.rs` judges a family of pooled comparisons.
pub(crate) mod machines;
pub(crate) mod multiplicity;
pub(crate) mod pool;
pub(crate) mod pool_plan;
mod pool_summary;
pub(crate) mod spread_split;
