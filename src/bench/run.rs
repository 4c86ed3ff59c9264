//! What a cross-revision run found: a row per benchmark ([`BuildComparison`]) with its
//! status, and the run ([`BuildsRun`]).

use serde::{Deserialize, Serialize};

#[cfg(doc)]
use super::BuildsOptions;
#[cfg(doc)]
use super::builds::{compare_builds, compare_layouts};
use super::layouts::LayoutSpread;
use crate::compare::report::Report;
use crate::error::Error;
#[cfg(doc)]
use crate::stats::PlanEnd;
use crate::stats::{HolmStep, Pooled};

/// Version of [`BuildsRun`]'s JSON.
pub(crate) const BUILDS_SCHEMA_VERSION: u32 = 1;

/// What became of a benchmark: compared, in one build only, failed, or not reached. Its JSON
/// word is the variant's name in snake case (`"compared"`, `"new"`, `"removed"`, `"failed"`,
/// `"stopped"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum BuildStatus {
    /// In both: compared.
    Compared,
    /// Only in the head build.
    New,
    /// Only in the baseline build.
    Removed,
    /// In both, but a worker pair failed twice (a panic, a batch that ignores n, a crash, an
    /// answer timeout): [`BuildComparison::failure`] says which pair, which build and why. The
    /// other benchmarks were compared as usual.
    Failed,
    /// In both, but the run stopped ([`BuildsRun::stopped`]) before it had the pairs to pool
    /// (the first stage's); the pairs it had are kept in [`BuildComparison::reports`].
    Stopped,
}

impl BuildStatus {
    /// The status's JSON word: `"compared"`, `"new"`, `"removed"`, `"failed"` or `"stopped"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BuildStatus::Compared => "compared",
            BuildStatus::New => "new",
            BuildStatus::Removed => "removed",
            BuildStatus::Failed => "failed",
            BuildStatus::Stopped => "stopped",
        }
    }
}

/// A worker pair that did not give a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairFailure {
    /// The pair's index among the benchmark's pairs, from 0.
    pub pair: usize,
    /// The code layout it ran (an index, from 0).
    pub layout: usize,
    /// The executable of the build whose worker failed, when one did.
    pub build: Option<String>,
    /// What happened, in words: the worker's error with the last lines of its stderr (a
    /// panic's message), or the statistics' or the calibration's error.
    pub reason: String,
}

impl std::fmt::Display for PairFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pair {} (layout {})", self.pair + 1, self.layout)?;
        if let Some(build) = &self.build {
            write!(f, ", build {build}")?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl PairFailure {
    pub(super) fn of(pair: usize, layout: usize, e: &Error) -> PairFailure {
        let (build, reason) = match e {
            Error::Worker { build, reason, .. } => (Some(build.clone()), reason.clone()),
            other => (None, other.to_string()),
        };
        PairFailure {
            pair,
            layout,
            build,
            reason,
        }
    }
}

/// Why a [`compare_layouts`] run ended before every benchmark had its pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Stopped {
    /// The options' cancellation token was cancelled (`rtcompare bench` sets it on SIGINT and
    /// SIGTERM); the run stopped at the next batch.
    Interrupted,
    /// A code layout the next pair needed could not be made ([`BuildsRun::stop_reason`] says
    /// why); the run kept what it had measured.
    LayoutFailed,
}

/// One benchmark's result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildComparison {
    /// The benchmark's registered name.
    pub name: String,
    /// Whether it was compared.
    pub status: BuildStatus,
    /// The pooled comparison over worker pairs, δ = 1 − head/baseline (negative when the head
    /// is slower); `None` unless compared.
    pub pooled: Option<Pooled>,
    /// Every worker pair's report (A the head, B the baseline).
    pub reports: Vec<Report>,
    /// Its place in Holm's procedure over the compared benchmarks; `None` when not compared
    /// or when [`BuildsOptions::family_wise`] is off.
    #[serde(default)]
    pub holm: Option<HolmStep>,
    /// Wall time spent on its worker pairs, in seconds (0 when not compared), without the
    /// time spent making layout variants.
    #[serde(default)]
    pub seconds: f64,
    /// How much code placement moves it: its pairs' spread split into the layouts' part and
    /// the processes'; `None` unless its pairs ran at least two layouts.
    #[serde(default)]
    pub layout: Option<LayoutSpread>,
    /// The pair that failed the benchmark (status [`BuildStatus::Failed`]); `None` otherwise.
    #[serde(default)]
    pub failure: Option<PairFailure>,
    /// A pair that failed once and was run again with fresh workers (each benchmark gets
    /// one such retry); empty when none failed.
    #[serde(default)]
    pub retried: Vec<PairFailure>,
}

/// Everything [`compare_builds`] found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildsRun {
    /// `BUILDS_SCHEMA_VERSION` (1).
    pub schema_version: u32,
    /// The seed the run used.
    pub seed: u64,
    /// The family-wise level the verdicts hold at together (Holm over the compared
    /// benchmarks), or `None` when each was judged on its own at [`BuildsOptions::level`].
    #[serde(default)]
    pub family_level: Option<f64>,
    /// Layout variants of each build the worker pairs ran (1: one layout, code placement not
    /// varied).
    #[serde(default = "one")]
    pub layout_variants: usize,
    /// Wall time spent making layout variants during the run (in the source
    /// [`compare_layouts`] was given), in seconds.
    #[serde(default)]
    pub layout_seconds: f64,
    /// Why the run ended early, or `None` when every benchmark had its pairs. A stopped run
    /// still holds every pair measured: benchmarks with a first stage of pairs are pooled
    /// ([`PlanEnd::Interrupted`]), the others have status [`BuildStatus::Stopped`].
    #[serde(default)]
    pub stopped: Option<Stopped>,
    /// What stopped it, in words; `None` when it was not stopped.
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// Benchmarks in both builds first (in the head's order; compared, failed or stopped),
    /// then new, then removed ones.
    pub benchmarks: Vec<BuildComparison>,
}

impl BuildsRun {
    /// The benchmarks that failed (status [`BuildStatus::Failed`]).
    pub fn failed(&self) -> impl Iterator<Item = &BuildComparison> {
        self.benchmarks
            .iter()
            .filter(|b| b.status == BuildStatus::Failed)
    }
}

impl BuildComparison {
    /// A benchmark no pair ran for: new, removed, or not reached.
    pub(super) fn without_pairs(name: &str, status: BuildStatus) -> BuildComparison {
        BuildComparison {
            name: name.to_string(),
            status,
            pooled: None,
            reports: Vec::new(),
            holm: None,
            seconds: 0.0,
            layout: None,
            failure: None,
            retried: Vec::new(),
        }
    }
}

/// The serde default of [`BuildsRun::layout_variants`]: runs written before layouts had one.
fn one() -> usize {
    1
}
