//! One benchmark at two builds: each benchmark of two bench binaries compared batch by batch
//! through worker pairs (two workers of each build on one CPU, `pair.rs`), repeated over fresh
//! pairs and pooled (on the staged plan, `staged.rs`, or decided as they come, `decide.rs`,
//! both through what `suite.rs` shares), the benchmarks judged together.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use super::layouts::{LayoutSpread, VariantSource, Variants};
use super::options::BuildsOptions;
use super::run::{BUILDS_SCHEMA_VERSION, BuildComparison, BuildStatus, BuildsRun};
use super::suite::{Builds, Outcome, Side, Stop, launch, pool_pairs};
use super::worker::Worker;
use crate::error::{Error, Result};
use crate::measure::clock::{Clock, MonotonicClock};
use crate::rng::{Rng, derive_seed, resolve_seed};
use crate::stats::{MIN_PROCESSES, Pooled, holm};

/// Compares every benchmark two bench binaries both register, in one code layout each (see
/// [`compare_layouts`] for the protocol; this is it with a single layout, so the intervals do
/// not cover code placement and [`BuildsOptions::layouts`] is not used).
///
/// Errors: those of [`compare_layouts`].
pub fn compare_builds(base: &Path, head: &Path, o: &BuildsOptions) -> Result<BuildsRun> {
    let (base, head) = (base.to_path_buf(), head.to_path_buf());
    let one = o.clone().layouts(1);
    compare_layouts(move |_| Ok((base.clone(), head.clone())), &one)
}

/// [`compare_layouts`] over layout variants already built: `base[i]` and `head[i]` are the
/// two builds linked with the same code-order seed (up to [`BuildsOptions::layouts`] of them
/// are used).
///
/// Errors: [`Error::InvalidOption`] when the two lists are empty or differ in length; those of
/// [`compare_layouts`].
pub fn compare_variants(
    base: &[PathBuf],
    head: &[PathBuf],
    o: &BuildsOptions,
) -> Result<BuildsRun> {
    if base.is_empty() || base.len() != head.len() {
        return Err(Error::invalid_option(
            "variants",
            format!(
                "give as many layout variants of the head as of the baseline, at least one; \
                 got {} and {}",
                base.len(),
                head.len()
            ),
        ));
    }
    let o = o.clone().layouts(o.layouts.min(base.len()));
    compare_layouts(|i| Ok((base[i].clone(), head[i].clone())), &o)
}

/// Compares every benchmark two builds both register, over code layouts. `variant(i)` gives
/// the baseline's and the head's executables of layout i (the same source linked with the
/// same code-order seed), and is called once per layout, in order, when the first worker pair
/// that runs it starts; the time it takes is reported apart ([`BuildsRun::layout_seconds`]).
///
/// Per benchmark, `pairs` times (then as many more as Stein's plan asks, within `max_pairs`,
/// `max_duration` and, with more than one layout, `layouts`), a worker pair runs: pair k runs
/// layout k mod `layouts`, so that with several layouts every pair is one draw of code
/// placement and the spread between pairs, which sets the pooled interval, includes it. A pair
/// is two workers of each build, all four on one CPU (drawn per pair and balanced over the
/// allowed CPUs), each started with its heap perturbed before its fixtures are built and its
/// environment padded, serving batches in rounds of four in a random order. Each pair's δ
/// compares the head's two workers with the baseline's; the same batches regrouped so that
/// each side holds one worker of each build give the pair's two A/A differences, its noise
/// floor and the spread within one layout. The pairs are pooled as processes are, and a
/// pooled verdict must clear both the pooled floor (the A/A differences' mean and its
/// uncertainty) and the median pair's own floor. Each benchmark's spread is split into its
/// layouts' part and its processes' ([`BuildComparison::layout`]). Benchmarks of one build
/// only are listed as new or removed.
///
/// Nothing measured is lost to one failure. A worker pair that fails (a worker that cannot
/// start, exits, passes the answer timeout or answers outside the protocol, a calibration
/// that fails) is run once more with fresh workers, and a second failure of the same
/// benchmark marks it [`BuildStatus::Failed`] with the pair, the build and the reason; the
/// others are compared as usual, and the family-wise level holds over those compared. A
/// cancelled token ([`BuildsOptions::cancel`]) or a layout `variant` cannot make after the
/// first stops the run at the next batch with [`BuildsRun::stopped`]: a benchmark with its
/// first stage of pairs is pooled ([`PlanEnd::Interrupted`](crate::stats::PlanEnd::Interrupted)), the rest are
/// [`BuildStatus::Stopped`].
///
/// Errors: [`Error::InvalidOption`] for fewer than three pairs, a zero pair duration, no
/// layouts, more than one layout but fewer than `pairs`, or a negative or non-finite
/// margin; [`Error::OutOfRange`] for a level outside (0, 1); [`Error::Worker`] when a build
/// cannot list its benchmarks (naming the build); the error `variant` returns for the first
/// layout. Every worker is killed and reaped on every path.
pub fn compare_layouts<'a>(
    variant: impl FnMut(usize) -> Result<(PathBuf, PathBuf)> + 'a,
    o: &BuildsOptions,
) -> Result<BuildsRun> {
    check_options(o)?;
    let resolved = o.compare.resolved()?;
    let seed = resolve_seed(o.seed);
    let mut rng = Rng::new(derive_seed(seed, 0));
    let source: Box<VariantSource<'a>> = Box::new(variant);
    let mut variants = Variants::new(source, o.layouts);
    let (_, base, head) = variants.of_pair(0)?;
    let base_names = Worker::list(&launch(&base, Side::Base, o))?;
    let head_names = Worker::list(&launch(&head, Side::Head, o))?;
    let selection = selection(o);
    let selected = |names: Vec<String>| -> Vec<String> {
        names.into_iter().filter(|n| selection.selects(n)).collect()
    };
    let (common, new, removed) = match_names(&selected(base_names), &selected(head_names));
    let builds = Builds {
        variants: RefCell::new(variants),
        options: &o.compare,
        resolved: &resolved,
        instrument: &MonotonicClock.instrument(),
        allowed: crate::measure::pin::current_affinity().unwrap_or_default(),
        o,
        benchmarks: common.len(),
    };
    let outcomes = if o.decide {
        super::decide::suite(&builds, &common, seed, &mut rng)?
    } else {
        super::staged::suite(&builds, &common, seed, &mut rng)
    };
    let (mut benchmarks, stop) = compared(&common, outcomes, o)?;
    let family_level = if o.family_wise && o.decide {
        // Each benchmark was decided at the Bonferroni level already: the family holds.
        Some(o.level)
    } else if o.family_wise {
        judge_family(&mut benchmarks, o)?;
        Some(o.level)
    } else {
        None
    };
    for (names, status) in [(new, BuildStatus::New), (removed, BuildStatus::Removed)] {
        benchmarks.extend(
            names
                .iter()
                .map(|name| BuildComparison::without_pairs(name, status)),
        );
    }
    let variants = builds.variants.into_inner();
    Ok(BuildsRun {
        schema_version: BUILDS_SCHEMA_VERSION,
        seed,
        family_level,
        layout_variants: variants.made(),
        layout_seconds: variants.making.as_secs_f64(),
        stop_reason: stop.as_ref().map(|(_, why)| why.clone()),
        stopped: stop.map(|(how, _)| how),
        benchmarks,
    })
}

/// The compared benchmarks' rows from their outcomes (each with its layouts' share of the
/// spread), and the first stop among them, which ends the run.
fn compared(
    common: &[String],
    outcomes: Vec<(Outcome, f64)>,
    o: &BuildsOptions,
) -> Result<(Vec<BuildComparison>, Option<Stop>)> {
    let mut benchmarks = Vec::with_capacity(common.len());
    let mut stop: Option<Stop> = None;
    for (name, (outcome, seconds)) in common.iter().zip(outcomes) {
        if stop.is_none() {
            stop = outcome.stop;
        }
        let layout = match outcome.status {
            BuildStatus::Compared => LayoutSpread::of(&outcome.reports, o.margin)?,
            _ => None,
        };
        benchmarks.push(BuildComparison {
            name: name.clone(),
            status: outcome.status,
            pooled: outcome.pooled,
            layout,
            reports: outcome.reports,
            holm: None,
            seconds,
            failure: outcome.failure,
            retried: outcome.retried,
        });
    }
    Ok((benchmarks, stop))
}

/// The run of a bench target the baseline does not have (the change that adds it): every
/// benchmark `head` registers (those [`BuildsOptions::filter`] selects) is listed as
/// [`BuildStatus::New`], and nothing is measured.
///
/// Errors: [`Error::Worker`] when `head` cannot list its benchmarks.
pub fn only_head(head: &Path, o: &BuildsOptions) -> Result<BuildsRun> {
    let names = Worker::list(&launch(head, Side::Head, o))?;
    Ok(BuildsRun {
        schema_version: BUILDS_SCHEMA_VERSION,
        seed: resolve_seed(o.seed),
        family_level: None,
        layout_variants: 1,
        layout_seconds: 0.0,
        stopped: None,
        stop_reason: None,
        benchmarks: names
            .iter()
            .filter(|n| selection(o).selects(n))
            .map(|n| BuildComparison::without_pairs(n, BuildStatus::New))
            .collect(),
    })
}

/// The benchmarks the options select, by the harness's own rule, so that a name is chosen here
/// as `cargo bench -- …` chooses it.
fn selection(o: &BuildsOptions) -> super::Args {
    super::Args {
        filter: o.filter.clone(),
        exact: o.exact,
        skip: o.skip.clone(),
        ..super::Args::default()
    }
}

/// The options' own errors, before anything starts: see [`compare_layouts`].
fn check_options(o: &BuildsOptions) -> Result<()> {
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
    if o.pair_duration.is_zero() {
        return Err(Error::invalid_option(
            "pair_duration",
            "a worker pair needs time to measure; give a positive duration",
        ));
    }
    if o.layouts == 0 || (o.layouts > 1 && o.layouts < o.pairs) {
        return Err(Error::invalid_option(
            "layouts",
            format!(
                "give 1 layout, or at least as many as the first stage's {} pairs so that \
                 each pair runs its own; got {}",
                o.pairs, o.layouts
            ),
        ));
    }
    if !(o.margin.is_finite() && o.margin >= 0.0) {
        return Err(Error::invalid_option(
            "margin",
            format!("a margin is a fraction of at least 0; got {}", o.margin),
        ));
    }
    Ok(())
}

/// Holm's procedure over the compared benchmarks: each one's p-value from its pooled result,
/// its pooled interval recomputed at the level its rank is judged at (and whether it met the
/// precision target there), and its verdict refused when Holm does not reject it.
fn judge_family(benchmarks: &mut [BuildComparison], o: &BuildsOptions) -> Result<()> {
    // The family is the benchmarks with a pooled result: a failed or stopped one has no
    // verdict to protect.
    let mut family: Vec<&mut BuildComparison> = benchmarks
        .iter_mut()
        .filter(|b| b.pooled.is_some())
        .collect();
    let p: Vec<f64> = family
        .iter()
        .map(|b| b.pooled.as_ref().map_or(1.0, Pooled::p_value))
        .collect();
    let alpha = 1.0 - o.level;
    let steps = holm(&p, alpha)?;
    let m = family.len();
    for (b, step) in family.iter_mut().zip(steps) {
        let Some(before) = b.pooled.take() else {
            continue;
        };
        let mut pooled = pool_pairs(&b.reports, before.first_stage, 1.0 - step.alpha, o.margin)?;
        pooled.target_met = before
            .target_met
            .map(|_| pooled.precise(o.target_abs, o.target_rel));
        pooled.planned_processes = before.planned_processes;
        pooled.plan_end = before.plan_end;
        if !step.rejected {
            pooled.refuse_by_multiplicity(step.adjusted, alpha, m);
        }
        b.pooled = Some(pooled);
        b.holm = Some(step);
    }
    Ok(())
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
