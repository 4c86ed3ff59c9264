//! The child side of a pool: what a process started by [`run`](super::run) does.
//!
//! The parent names the pool, the process's index, the seed and the report's path in
//! [`CHILD_ENV`](super::CHILD_ENV). The child perturbs its layout, runs the user's closure once
//! with a [`Child`] handle, writes a [`ChildResult`] as JSON to a temporary file and renames it
//! into place (so the parent never reads half a file), then exits without returning to the
//! program.

use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::perturb::{self, HeapPerturbation, perturb_heap};
use super::{CHILD_ENV, PAD_ENV, PoolOptions, ProcessTimings};
use crate::compare::CompareOptions;
use crate::compare::report::{BuildOrder, ProcessInfo, Report};
use crate::error::{Error, Result};
use crate::measure::clock::{Clock, MonotonicClock};
use crate::measure::collect::{Progress, Stage};
use crate::rng::derive_seed;

/// What a child process gets: its index, its options and the fixture builder.
#[derive(Debug)]
pub struct Child {
    index: usize,
    options: CompareOptions,
    build_order: Option<BuildOrder>,
    /// What the closure attached for the parent besides its report (the workspace's side
    /// crates' records, through [`support`](crate::support)); `None` when nothing was.
    pub(crate) attachment: Option<serde_json::Value>,
}

impl Child {
    /// The process's index in the pool, from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The options for this process's comparison: the pool's, with a seed derived for this
    /// process (and a progress hook that times the stages for the pool).
    pub fn options(&self) -> &CompareOptions {
        &self.options
    }

    /// Builds both fixtures, A's first in even processes and B's first in odd ones, and
    /// records the order in the report. Returns them as `(a, b)` whatever the order.
    pub fn build<A, B>(&mut self, a: impl FnOnce() -> A, b: impl FnOnce() -> B) -> (A, B) {
        if self.index.is_multiple_of(2) {
            self.build_order = Some(BuildOrder::AFirst);
            let a = a();
            (a, b())
        } else {
            self.build_order = Some(BuildOrder::BFirst);
            let b = b();
            (a(), b)
        }
    }
}

/// What the parent tells a child, through [`CHILD_ENV`].
pub(super) struct ChildSpec {
    pub(super) index: usize,
    pub(super) seed: u64,
    pub(super) site: String,
    pub(super) path: PathBuf,
    pub(super) spawned_ns: u64,
    /// Whether the child perturbs its layout before `main` ([`PoolOptions::perturb`] and
    /// [`PoolOptions::early_perturbation`]); read by the early perturbation, which cannot see
    /// the options.
    pub(super) perturb: bool,
}

impl ChildSpec {
    pub(super) fn encode(&self) -> OsString {
        let mut s = OsString::from(format!(
            "{}\t{}\t{}\t{}\t{}\t",
            self.index,
            self.seed,
            self.spawned_ns,
            u8::from(self.perturb),
            self.site
        ));
        s.push(self.path.as_os_str());
        s
    }

    pub(super) fn from_env() -> Option<ChildSpec> {
        let v = std::env::var(CHILD_ENV).ok()?;
        let mut it = v.splitn(6, '\t');
        Some(ChildSpec {
            index: it.next()?.parse().ok()?,
            seed: it.next()?.parse().ok()?,
            spawned_ns: it.next()?.parse().ok()?,
            perturb: it.next()? == "1",
            site: it.next()?.to_string(),
            path: PathBuf::from(it.next()?),
        })
    }
}

/// What a child hands back: its report, where its time went, and what the closure attached
/// to the [`Child`] (`None` when nothing was).
#[derive(Serialize, Deserialize)]
pub(super) enum ChildResult {
    Report(Box<Report>, ProcessTimings, Option<serde_json::Value>),
    /// `deadline`: the comparison was cancelled by a deadline or token, which biases the pool
    /// as a timeout does.
    Failed {
        reason: String,
        deadline: bool,
    },
}

/// Runs the closure once in this child process, hands the result to the parent through the
/// file `spec` names, and exits (code 0 with a report, 1 with a failure, 2 when the file cannot
/// be written).
pub(super) fn child_main(
    spec: ChildSpec,
    options: &PoolOptions,
    f: impl FnOnce(&mut Child) -> Result<Report>,
) -> ! {
    let clock = MonotonicClock;
    let start_ns = clock.now_ns();
    let early = perturb::early_perturbation();
    let built_before = perturb::resident_added_since_start().unwrap_or(0);
    let filler = options
        .perturb
        .then(|| perturb_heap(derive_seed(spec.seed, 2 * spec.index as u64 + 1)));
    let padding = std::env::var_os(PAD_ENV).map_or(0, |v| v.len());
    let stages: Arc<Mutex<Vec<(Stage, u64)>>> = Arc::default();
    let opts = child_options(options, &spec, &stages);
    let mut ctx = Child {
        index: spec.index,
        options: opts,
        build_order: None,
        attachment: None,
    };
    let closure_start = clock.now_ns();
    let outcome = catch_unwind(AssertUnwindSafe(|| f(&mut ctx)));
    let end_ns = clock.now_ns();
    let result = match outcome {
        Ok(Ok(mut report)) => {
            report.context.process = Some(ProcessInfo {
                index: spec.index,
                perturbation_seed: filler.as_ref().map_or(0, HeapPerturbation::seed),
                filler_bytes: filler.as_ref().map_or(0, HeapPerturbation::bytes),
                env_padding_bytes: padding,
                build_order: ctx.build_order,
                early_filler_bytes: early.map_or(0, |e| e.0),
                early_mapping_bytes: early.map_or(0, |e| e.1),
                built_before_closure_bytes: built_before,
            });
            let stages = stage_durations(&stages, end_ns);
            ChildResult::Report(
                Box::new(report),
                ProcessTimings {
                    index: spec.index,
                    startup: start_ns.saturating_sub(spec.spawned_ns) as f64 / 1e9
                        + closure_start.saturating_sub(start_ns) as f64 / 1e9,
                    stages,
                    closure: end_ns.saturating_sub(closure_start) as f64 / 1e9,
                    wall: 0.0,
                },
                ctx.attachment.take(),
            )
        }
        Ok(Err(e)) => ChildResult::Failed {
            deadline: matches!(e, Error::Cancelled { .. }),
            reason: format!("the comparison failed: {e}"),
        },
        Err(payload) => ChildResult::Failed {
            reason: format!("panicked: {}", panic_message(&*payload)),
            deadline: false,
        },
    };
    let code = i32::from(matches!(result, ChildResult::Failed { .. }));
    write_result(&spec, &result);
    drop(filler);
    std::process::exit(code)
}

/// The options of child `spec`'s comparison: the pool's, with the child's own seed and a
/// progress hook that logs when each stage begins into `stages` (then calls the user's hook).
fn child_options(
    options: &PoolOptions,
    spec: &ChildSpec,
    stages: &Arc<Mutex<Vec<(Stage, u64)>>>,
) -> CompareOptions {
    let opts = options
        .compare
        .clone()
        .seed(derive_seed(spec.seed, 2 * spec.index as u64 + 2));
    let user = opts.collect.progress.clone();
    let log = stages.clone();
    opts.progress(move |p: Progress| {
        if let Ok(mut l) = log.lock()
            && l.last().is_none_or(|(s, _)| *s != p.stage)
        {
            l.push((p.stage, MonotonicClock.now_ns()));
        }
        if let Some(u) = &user {
            u(p);
        }
    })
}

/// Each logged stage with its duration in seconds, up to the next stage's start or, for the
/// last, `end_ns`.
fn stage_durations(stages: &Mutex<Vec<(Stage, u64)>>, end_ns: u64) -> Vec<(Stage, f64)> {
    let marks = stages.lock().map(|l| l.clone()).unwrap_or_default();
    marks
        .iter()
        .enumerate()
        .map(|(i, (s, t))| {
            let next = marks.get(i + 1).map_or(end_ns, |m| m.1);
            (*s, next.saturating_sub(*t) as f64 / 1e9)
        })
        .collect()
}

/// Writes `result` as JSON to a temporary file and renames it to the path `spec` names, so
/// the parent never reads half a file; exits with code 2 when it cannot.
fn write_result(spec: &ChildSpec, result: &ChildResult) {
    let written = serde_json::to_string(result)
        .map_err(|e| e.to_string())
        .and_then(|json| {
            let tmp = spec.path.with_extension("partial");
            std::fs::write(&tmp, json)
                .and_then(|()| std::fs::rename(&tmp, &spec.path))
                .map_err(|e| e.to_string())
        });
    if let Err(e) = written {
        eprintln!(
            "rtcompare pool child {}: could not write {}: {e}",
            spec.index,
            spec.path.display()
        );
        std::process::exit(2);
    }
}

/// The text of a panic's payload, or a placeholder for a payload that is not a string.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-string panic payload".to_string()
    }
}
