//! One benchmark at two builds: each benchmark of two bench binaries compared batch by batch,
//! a worker of each build serving its timed batches, repeated over fresh worker pairs and
//! pooled.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::worker::{Launch, Worker};
use crate::compare::CompareOptions;
use crate::compare::report::Report;
use crate::rng::{Rng, derive_seed, resolve_seed};
use crate::stats::{MIN_PROCESSES, Pooled};
use crate::{Error, Result};

/// Version of [`BuildsRun`]'s JSON.
pub const BUILDS_SCHEMA_VERSION: u32 = 1;

/// Options of [`compare_builds`]: a builder whose methods consume and return `Self`.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct BuildsOptions {
    /// The comparison run on every worker pair (default [`CompareOptions::default`]).
    pub compare: CompareOptions,
    /// Worker pairs per benchmark, pooled as processes are (default 5, at least 3).
    pub pairs: usize,
    /// Coverage of the pooled interval, in (0, 1) (default 0.95).
    pub level: f64,
    /// Arguments for every worker (default none; a test binary passes `--exact NAME`).
    pub args: Vec<OsString>,
    /// Longest wait for one answer of a worker (default 60 s); a worker past it is killed and
    /// the comparison fails with [`Error::Worker`].
    pub answer_timeout: Duration,
    /// Seed of the workers' perturbations and the comparisons; 0 draws one.
    pub seed: u64,
}

impl Default for BuildsOptions {
    fn default() -> Self {
        BuildsOptions {
            compare: CompareOptions::default(),
            pairs: 5,
            level: 0.95,
            args: Vec::new(),
            answer_timeout: Duration::from_secs(60),
            seed: 0,
        }
    }
}

impl BuildsOptions {
    /// Sets [`compare`](Self::compare).
    pub fn compare(mut self, c: CompareOptions) -> Self {
        self.compare = c;
        self
    }
    /// Sets [`pairs`](Self::pairs).
    pub fn pairs(mut self, k: usize) -> Self {
        self.pairs = k;
        self
    }
    /// Sets [`level`](Self::level).
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Sets [`args`](Self::args).
    pub fn args(mut self, args: impl IntoIterator<Item = impl Into<OsString>>) -> Self {
        self.args = args.into_iter().map(Into::into).collect();
        self
    }
    /// Sets [`answer_timeout`](Self::answer_timeout).
    pub fn answer_timeout(mut self, d: Duration) -> Self {
        self.answer_timeout = d;
        self
    }
    /// Sets [`seed`](Self::seed).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
}

/// Whether a benchmark was in both builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuildStatus {
    /// In both: compared.
    Compared,
    /// Only in the head build.
    New,
    /// Only in the baseline build.
    Removed,
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
}

/// Everything [`compare_builds`] found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildsRun {
    /// [`BUILDS_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The seed the run used.
    pub seed: u64,
    /// Compared benchmarks first (in the head's order), then new, then removed ones.
    pub benchmarks: Vec<BuildComparison>,
}

/// Compares every benchmark two bench binaries both register: per benchmark, `pairs` times, a
/// worker of each build (started in alternating order, each with its heap perturbed and its
/// environment padded) serves its batches, the crate's comparison runs on them, ABBA
/// interleaved, with the A/A validation of each worker against itself, and the pairs are
/// pooled as processes are. Benchmarks of one build only are listed as new or removed.
///
/// Errors: [`Error::InvalidOption`] for fewer than three pairs or a level outside (0, 1);
/// [`Error::Worker`] when a worker cannot start, exits, passes the answer timeout or answers
/// outside the protocol (naming the build and the benchmark); the comparison's own errors.
/// Every worker is killed and reaped on every path.
pub fn compare_builds(base: &Path, head: &Path, o: &BuildsOptions) -> Result<BuildsRun> {
    if o.pairs < MIN_PROCESSES {
        return Err(Error::invalid_option(
            "pairs",
            format!(
                "pooling needs at least {MIN_PROCESSES} worker pairs; got {}",
                o.pairs
            ),
        ));
    }
    if !(o.level > 0.0 && o.level < 1.0) {
        return Err(Error::out_of_range("level", o.level, "0 < level < 1"));
    }
    let seed = resolve_seed(o.seed);
    let mut rng = Rng::new(derive_seed(seed, 0));
    let base_names = Worker::list(&launch(base, o, 0))?;
    let head_names = Worker::list(&launch(head, o, 0))?;
    let (common, new, removed) = match_names(&base_names, &head_names);
    let mut benchmarks = Vec::new();
    for (i, name) in common.iter().enumerate() {
        let mut reports = Vec::with_capacity(o.pairs);
        for k in 0..o.pairs {
            let s = derive_seed(seed, ((i as u64) << 32) | k as u64);
            let (pb, ph) = (rng.below(4097) as usize, rng.below(4097) as usize);
            // Which build starts first alternates, so neither always finds the machine fresh.
            let (base_w, head_w) = if k % 2 == 0 {
                let b = Worker::serve(&launch(base, o, pb), name, derive_seed(s, 1))?;
                (
                    b,
                    Worker::serve(&launch(head, o, ph), name, derive_seed(s, 2))?,
                )
            } else {
                let h = Worker::serve(&launch(head, o, ph), name, derive_seed(s, 2))?;
                (
                    Worker::serve(&launch(base, o, pb), name, derive_seed(s, 1))?,
                    h,
                )
            };
            let options = o.compare.clone().seed(derive_seed(s, 3));
            let report = crate::compare::compare(
                head_w.candidate("head"),
                base_w.candidate("baseline"),
                &options,
            )?;
            reports.push(report);
        }
        let pooled = crate::pool::combine_reports(&reports, o.level)?;
        benchmarks.push(BuildComparison {
            name: name.clone(),
            status: BuildStatus::Compared,
            pooled: Some(pooled),
            reports,
        });
    }
    for (names, status) in [(new, BuildStatus::New), (removed, BuildStatus::Removed)] {
        benchmarks.extend(names.into_iter().map(|name| BuildComparison {
            name,
            status,
            pooled: None,
            reports: Vec::new(),
        }));
    }
    Ok(BuildsRun {
        schema_version: BUILDS_SCHEMA_VERSION,
        seed,
        benchmarks,
    })
}

fn launch<'a>(exe: &'a Path, o: &'a BuildsOptions, padding: usize) -> Launch<'a> {
    Launch {
        exe,
        args: &o.args,
        timeout: o.answer_timeout,
        padding,
    }
}

/// The benchmarks in both builds (in the head's order), only in the head, only in the base.
fn match_names(base: &[String], head: &[String]) -> (Vec<String>, Vec<String>, Vec<String>) {
    let common = head.iter().filter(|n| base.contains(n)).cloned().collect();
    let new = head.iter().filter(|n| !base.contains(n)).cloned().collect();
    let removed = base.iter().filter(|n| !head.contains(n)).cloned().collect();
    (common, new, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_matched_not_required_to_agree() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let (common, new, removed) = match_names(&s(&["a", "b", "old"]), &s(&["b", "fresh", "a"]));
        assert_eq!(common, s(&["b", "a"]));
        assert_eq!(new, s(&["fresh"]));
        assert_eq!(removed, s(&["old"]));
    }

    #[test]
    fn bad_options_are_typed_errors() {
        let exe = Path::new("/nonexistent");
        assert!(matches!(
            compare_builds(exe, exe, &BuildsOptions::default().pairs(2)),
            Err(Error::InvalidOption { name: "pairs", .. })
        ));
        assert!(matches!(
            compare_builds(exe, exe, &BuildsOptions::default().level(1.0)),
            Err(Error::OutOfRange { .. })
        ));
        // A build that cannot start names itself.
        match compare_builds(exe, exe, &BuildsOptions::default()) {
            Err(Error::Worker { build, .. }) => assert_eq!(build, "/nonexistent"),
            other => panic!("{other:?}"),
        }
    }
}
