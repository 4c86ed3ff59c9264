//! [`run`] (one target under load) and [`compare`] (two targets under one load): the
//! schedule, the load, and the analysis of what it recorded.

use hdrhistogram::Histogram;

use crate::analysis::{WindowDist, paired_percentile, pooled_percentile, relative_half_width};
use crate::load::{Recorded, SegRecord, execute, histogram};
use crate::options::{LoadOptions, Schedule, ServiceOptions, windows_in};
use crate::pace::Pacer;
use crate::report::{
    GeneratorBehind, LagSummary, LoadReport, PName, PercentileComparison, PercentileInterval,
    SERVICE_SCHEMA_VERSION, ServiceReport, ServiceSide, ServiceUnresolved, ServiceVerdict,
    TargetSummary, WindowSummary,
};
use crate::schedule::{
    Pair, Part, Plan, Which, abba, abba_pairs, interleaved, interleaved_pairs, plan, segments,
    stretches,
};
use crate::target::Target;
use crate::{Error, Result};
use rtcompare::Verdict;
use rtcompare::env::Environment;
use rtcompare::stats::{Bounds, Scale};
use rtcompare::stats::{Estimate, decide};
use rtcompare::support::measure::MonotonicClock;
use rtcompare::support::rng::{derive_seed, resolve_seed};
use rtcompare::support::stats::bar;

/// The relative resolution of the latency histograms (3 significant digits: at worst one part
/// in 1,024), passed to the verdict rule as its quantization step.
const HISTOGRAM_RESOLUTION: f64 = 1.0 / 1024.0;

/// Loads `target` open-loop with `options` on the monotonic clock and reports its latency
/// percentiles with intervals, throughput, errors, timeouts and send lag.
///
/// The schedule is the warm-up followed by `duration` rounded down to whole windows; request
/// `i` is due at `t0 + i / rate` (or at Poisson times), and its latency runs from its due time
/// to its completion.
///
/// Errors: [`Error::InvalidRate`], [`Error::ZeroDuration`] (duration, window or timeout),
/// [`Error::WindowTooShort`] (the run holds too few requests for a percentile),
/// [`Error::InvalidOption`] (workers, percentiles, resamples, fewer than
/// [`MIN_WINDOWS`](crate::MIN_WINDOWS) windows, too many requests),
/// [`Error::OutOfRange`] (level), [`Error::NotEnoughData`] (no request completed). A generator
/// that fell behind is not an error: the report says so in
/// [`LoadReport::generator_behind`] (and [`LoadReport::ensure_generator_kept_up`] turns it
/// into [`Error::GeneratorBehind`]).
///
/// ```no_run
/// use std::time::Duration;
/// use rtcompare_service::{self as service, Call, LoadOptions};
/// let t = Call::new("sum", |i: u64| -> Result<(), String> {
///     std::hint::black_box((0..100).fold(i, |s, x| s ^ x));
///     Ok(())
/// });
/// let r = service::run(&t, &LoadOptions::default().rate(2_000.0).duration(Duration::from_secs(5)))?;
/// println!("{r}");
/// # Ok::<(), rtcompare_service::Error>(())
/// ```
pub fn run<T: Target>(target: &T, options: &LoadOptions) -> Result<LoadReport> {
    run_with_pacer(target, options, &MonotonicClock)
}

/// [`run`] on any [`Pacer`], for example a simulated clock in tests (the load then runs on the
/// calling thread, one request at a time).
pub fn run_with_pacer<T: Target, P: Pacer>(
    target: &T,
    options: &LoadOptions,
    pacer: &P,
) -> Result<LoadReport> {
    let o = options;
    o.check_run()?;
    let k = windows_in(o.duration, o.window);
    let mut parts = vec![Part::single(o.warmup, Which::A, false)];
    parts.extend(std::iter::repeat_n(
        Part::single(o.window, Which::A, true),
        k,
    ));
    let Executed {
        plan,
        rec,
        environment,
        seed,
        dists,
    } = run_schedule(target, target, &parts, o, pacer);
    let side = side_data(target.name(), Which::A, &plan, &rec, &dists, o, seed)?;
    let generator_behind = behind(&side, ServiceSide::A, o);
    let mut warnings = Vec::new();
    common_warnings(&mut warnings, &environment, &[&side.summary], o);
    Ok(LoadReport {
        schema_version: SERVICE_SCHEMA_VERSION,
        options: o.clone(),
        target: side.summary,
        windows: window_summaries(&plan, &rec, &dists, o),
        generator_behind,
        seed,
        warnings,
        environment,
        elapsed_s: rec.elapsed_ns as f64 / 1e9,
        latencies_ns: side.raw,
        histogram: Some(side.histogram),
    })
}

/// Compares two targets under the same open-loop load on the monotonic clock, alternating them
/// at one rate by [`ServiceOptions::schedule`], and estimates for each percentile `p` the
/// relative difference `δ = 1 − Q_A / Q_B`, where `Q_A` is the `p` percentile of A's paired
/// windows pooled and `Q_B` that of B's, with a paired bootstrap interval over the pairs (a
/// replicate draws the pairs by the stretch of time they share, both pairs of an interleaved
/// window together and an ABBA pair alone, in moving blocks when the stretches' window
/// ratios are autocorrelated, and pools both windows of every pair it draws). The A/A pairs give each percentile its noise
/// floor: the `level` quantile (0.99) of `|δ*|` over the same bootstrap of those pairs.
///
/// - [`Schedule::Interleaved`] (the default): each window's requests are dealt, four at a time
///   in a seeded random order, to four lanes, A's two and B's two, so both targets share every
///   window; A/B pairs are A's and B's lanes of one window, A/A pairs a mix of one A and one B
///   lane against the other two.
/// - [`Schedule::Windows`]: ABBA windows of one target each; A/B pairs are neighbouring A and B
///   windows, A/A pairs neighbouring windows of one target (B B inside a group, A A across).
///
/// A percentile's verdict is given only when the generator kept up, no request failed or went
/// unsent, the half-width of the interval of the ratio B/A is at most
/// [`ServiceOptions::max_relative_half_width`] of the ratio, the library's verdict rule
/// ([`decide`]) resolves it against the A/A floor, and the core's judge
/// ([`rtcompare::stats::judge`](rtcompare::stats::judge)) finds the interval's end nearest zero beyond
/// [`ServiceOptions::min_difference`]; otherwise "cannot tell" with the reason.
///
/// The schedule: interleaved, a warm-up of `2 × warmup` dealing A and B in turn, then `quads`
/// windows of [`ServiceOptions::window`]; as windows, a warm-up of A, a warm-up of B, then
/// `4 × quads` windows, each switch of target preceded by an unrecorded
/// [`ServiceOptions::settle`] (`2 × warmup + 4 × quads × window + 2 × quads × settle` in all).
///
/// Errors: those of [`run`] for the load options, [`Error::WindowTooShort`] when a window (or
/// lane) holds too few requests for a percentile, [`Error::InvalidOption`] for fewer than
/// [`MIN_QUADS`](crate::MIN_QUADS) groups, [`Error::OutOfRange`] for the width bound,
/// [`Error::NotEnoughData`] when a window recorded no latency at all.
pub fn compare<A: Target, B: Target>(
    a: &A,
    b: &B,
    options: &ServiceOptions,
) -> Result<ServiceReport> {
    compare_with_pacer(a, b, options, &MonotonicClock)
}

/// [`compare`] on any [`Pacer`].
pub fn compare_with_pacer<A: Target, B: Target, P: Pacer>(
    a: &A,
    b: &B,
    options: &ServiceOptions,
    pacer: &P,
) -> Result<ServiceReport> {
    let so = options;
    so.check()?;
    let o = &so.load;
    let parts = comparison_parts(so);
    let Executed {
        plan,
        rec,
        environment,
        seed,
        dists,
    } = run_schedule(a, b, &parts, o, pacer);
    let sa = side_data(
        a.name(),
        Which::A,
        &plan,
        &rec,
        &dists,
        o,
        derive_seed(seed, 1),
    )?;
    let sb = side_data(
        b.name(),
        Which::B,
        &plan,
        &rec,
        &dists,
        o,
        derive_seed(seed, 2),
    )?;
    let generator_behind =
        behind(&sa, ServiceSide::A, o).or_else(|| behind(&sb, ServiceSide::B, o));
    let errors = sa.summary.errors + sb.summary.errors;
    let unsent = sa.summary.unsent + sb.summary.unsent;

    let (ab, aa) = paired_stretches(so, &plan);
    every_window_recorded(&dists)?;
    let mut comparisons = Vec::with_capacity(o.percentiles.len());
    for (k, &p) in o.percentiles.iter().enumerate() {
        let (estimate, noise_floor) = paired_percentile(
            &dists,
            &ab,
            &aa,
            p,
            so.level,
            o.resamples,
            derive_seed(seed, 100 + k as u64),
        )?;
        let rhw = relative_half_width(&estimate);
        let lag = lag_for(p, &sa, &sb, o);
        let verdict = percentile_verdict(so, p, &estimate, noise_floor, &lag, (errors, unsent));
        comparisons.push(PercentileComparison {
            percentile: p,
            estimate,
            noise_floor,
            relative_half_width: rhw,
            verdict,
        });
    }
    let mut warnings = Vec::new();
    common_warnings(&mut warnings, &environment, &[&sa.summary, &sb.summary], o);
    Ok(ServiceReport {
        schema_version: SERVICE_SCHEMA_VERSION,
        options: so.clone(),
        a: sa.summary,
        b: sb.summary,
        comparisons,
        windows: window_summaries(&plan, &rec, &dists, o),
        generator_behind,
        seed,
        warnings,
        environment,
        elapsed_s: rec.elapsed_ns as f64 / 1e9,
    })
}

/// The A/B and the A/A pairs of the schedule, grouped by the stretch of time they share: the
/// bootstrap draws the pairs that share a stretch of time together (both pairs of an
/// interleaved window), never one without the other.
fn paired_stretches(so: &ServiceOptions, plan: &Plan) -> (Vec<Vec<Pair>>, Vec<Vec<Pair>>) {
    let (ab, aa) = match so.schedule {
        Schedule::Interleaved => interleaved_pairs(so.quads),
        Schedule::Windows => abba_pairs(so.quads),
    };
    (
        stretches(&ab, &plan.segments),
        stretches(&aa, &plan.segments),
    )
}

/// Errors: [`Error::NotEnoughData`] naming the first window that recorded no latency.
fn every_window_recorded(dists: &[WindowDist]) -> Result<()> {
    if let Some(w) = dists.iter().position(|d| d.len() == 0) {
        return Err(Error::NotEnoughData {
            what: "service comparison",
            reason: format!(
                "window {w} recorded no latency (every request failed or went unsent); fix the \
                 target or lengthen the timeout"
            ),
        });
    }
    Ok(())
}

/// How far the generator fell behind for percentile `p`: the larger of both sides' send lags at
/// the quantile that matters, against the load's bound.
fn lag_for(p: f64, sa: &SideData, sb: &SideData, o: &LoadOptions) -> Lag {
    // The generator's lag may touch at most a tenth of the requests beyond the percentile.
    let lag_quantile = 1.0 - (1.0 - p) / 10.0;
    let lag_ns = sa
        .lag
        .value_at_quantile(lag_quantile)
        .max(sb.lag.value_at_quantile(lag_quantile)) as f64;
    let bound_ns = o.max_send_lag.as_nanos() as f64;
    Lag {
        quantile: lag_quantile,
        ns: lag_ns,
        bound_ns,
    }
}

/// The schedule of a comparison: the warm-up of both targets, then the measured windows in the
/// order [`ServiceOptions::schedule`] asks for.
fn comparison_parts(so: &ServiceOptions) -> Vec<Part> {
    let o = &so.load;
    let mut parts = Vec::new();
    match so.schedule {
        Schedule::Interleaved => {
            // Both targets warm up together, dealt A B A B, each getting as many warm-up
            // requests as it would alone in `warmup`.
            parts.push(Part {
                len: o.warmup * 2,
                lanes: vec![(Which::A, false), (Which::B, false)],
            });
            parts.extend(interleaved(so.quads, so.window));
        }
        Schedule::Windows => {
            parts.push(Part::single(o.warmup, Which::A, false));
            parts.push(Part::single(o.warmup, Which::B, false));
            // Each switch to the other target is followed by an unrecorded settle, so that a
            // window does not pay for the switch (caches, idle connection threads waking up).
            let mut last = Which::B;
            for w in abba(so.quads) {
                if w != last {
                    parts.push(Part::single(so.settle, w, false));
                    last = w;
                }
                parts.push(Part::single(so.window, w, true));
            }
        }
    }
    parts
}

/// How far the generator fell behind its schedule, at the quantile that matters for one
/// percentile, against the bound it may reach.
struct Lag {
    quantile: f64,
    ns: f64,
    bound_ns: f64,
}

/// The verdict on one percentile: "cannot tell" when the generator fell behind, a request
/// failed or went unsent, or the interval is too wide; else the core's rule, with differences
/// whose interval reaches within [`ServiceOptions::min_difference`] called unresolved (the
/// judge, on the side δ favours: the comparison is symmetric, so A stands as the candidate).
fn percentile_verdict(
    so: &ServiceOptions,
    p: f64,
    estimate: &Estimate,
    noise_floor: f64,
    lag: &Lag,
    (errors, unsent): (u64, u64),
) -> ServiceVerdict {
    let rhw = relative_half_width(estimate);
    if lag.ns > lag.bound_ns {
        ServiceVerdict::CannotTell(ServiceUnresolved::GeneratorBehind {
            lag_quantile: lag.quantile,
            lag_ns: lag.ns,
            bound_ns: lag.bound_ns,
        })
    } else if errors + unsent > 0 {
        ServiceVerdict::CannotTell(ServiceUnresolved::Incomplete { errors, unsent })
    } else if rhw > so.max_relative_half_width {
        let r = estimate.ratio();
        ServiceVerdict::CannotTell(ServiceUnresolved::TooWide {
            percentile: p,
            relative_half_width: rhw,
            bound: so.max_relative_half_width,
            ratio_low: r.low,
            ratio_high: r.high,
        })
    } else {
        let judged = Bounds::of_interval(estimate.low, estimate.high, Scale::Speedup)
            .map(|b| rtcompare::stats::judge(b, bar(so.min_difference, 0.0), false));
        // Margin 0 here: the service's own smallest difference is judged just below, with
        // its own reason.
        match decide(estimate, 0.0, noise_floor, HISTOGRAM_RESOLUTION) {
            Verdict::CannotTell(u) => ServiceVerdict::CannotTell(ServiceUnresolved::Rule(u)),
            _ if !judged.is_ok_and(|j| j.claim().is_some()) => {
                ServiceVerdict::CannotTell(ServiceUnresolved::BelowMinDifference {
                    delta: estimate.delta,
                    bound: estimate.low.max(-estimate.high).max(0.0),
                    min_difference: so.min_difference,
                })
            }
            // Not reached at margin 0: nothing lies inside ±0.
            Verdict::Equivalent { .. } => {
                ServiceVerdict::CannotTell(ServiceUnresolved::BelowMinDifference {
                    delta: estimate.delta,
                    bound: 0.0,
                    min_difference: so.min_difference,
                })
            }
            Verdict::AFaster => ServiceVerdict::AFaster,
            Verdict::BFaster => ServiceVerdict::BFaster,
        }
    }
}

/// Each measured window's distribution, by window index: from the raw latencies when kept
/// (exact), else from the histogram's buckets.
/// What running a schedule produced: the plan, what was recorded, the environment stamp taken
/// around it, the seed the analysis uses, and each window's latency distribution.
struct Executed {
    plan: Plan,
    rec: Recorded,
    environment: Environment,
    seed: u64,
    dists: Vec<WindowDist>,
}

/// Plans the schedule `parts` (duration, target, recorded?) at the load's rate and arrivals,
/// runs it on `a` and `b` under an environment stamp, and summarises every window.
fn run_schedule<A: Target, B: Target, P: Pacer>(
    a: &A,
    b: &B,
    parts: &[Part],
    o: &LoadOptions,
    pacer: &P,
) -> Executed {
    let (segs, windows) = segments(parts);
    let seed = resolve_seed(o.seed);
    let plan = plan(segs, windows, o.rate, o.arrivals, derive_seed(seed, 3));
    let mut environment = Environment::capture();
    let rec = execute(a, b, &plan, o, pacer);
    environment.finish();
    let dists = window_dists(&plan, &rec);
    Executed {
        plan,
        rec,
        environment,
        seed,
        dists,
    }
}

fn window_dists(plan: &Plan, rec: &Recorded) -> Vec<WindowDist> {
    let mut out = vec![WindowDist::default(); plan.windows];
    for (seg, r) in plan.segments.iter().zip(&rec.segments) {
        if let Some(w) = seg.window {
            out[w] = dist_of(r);
        }
    }
    out
}

fn dist_of(r: &SegRecord) -> WindowDist {
    match &r.raw {
        Some(raw) => WindowDist::from_raw(raw),
        None => WindowDist::from_counts(
            r.latency
                .iter_recorded()
                .map(|v| (v.value_iterated_to(), v.count_at_value())),
        ),
    }
}

struct SideData {
    summary: TargetSummary,
    histogram: Histogram<u64>,
    lag: Histogram<u64>,
    raw: Option<Vec<u64>>,
}

fn side_data(
    name: &str,
    which: Which,
    plan: &Plan,
    rec: &Recorded,
    dists: &[WindowDist],
    o: &LoadOptions,
    seed: u64,
) -> Result<SideData> {
    let mut hist = histogram();
    let mut lag = histogram();
    let mut raw: Option<Vec<u64>> = Some(Vec::new());
    let mut mine = Vec::new();
    let mut s = empty_summary(name, o);
    // The stretch of time last counted, so that two lanes of one window count its time once.
    let mut counted: Option<u64> = None;
    let mut own_lanes = 0usize;
    let mut lanes = 1usize;
    for (seg, r) in plan.segments.iter().zip(&rec.segments) {
        if seg.which != which {
            continue;
        }
        if seg.window.is_none() {
            s.warmup_requests += r.scheduled;
            continue;
        }
        let w = seg.window.expect("checked above");
        if counted != Some(seg.start_ns) {
            counted = Some(seg.start_ns);
            s.windows += 1;
            s.measured_s += (seg.end_ns - seg.start_ns) as f64 / 1e9;
            own_lanes = 0;
            lanes = seg.lanes;
        }
        own_lanes += 1;
        count_requests(&mut s, r);
        // Both histograms grow on demand, so adding never fails.
        let _ = hist.add(&r.latency);
        let _ = lag.add(&r.lag);
        match (&mut raw, &r.raw) {
            (Some(all), Some(part)) => all.extend_from_slice(part),
            _ => raw = None,
        }
        mine.push(dists[w].clone());
    }
    // A target that had `own_lanes` of a window's `lanes` was offered that share of the rate.
    s.offered_rate = o.rate * own_lanes.max(1) as f64 / lanes as f64;
    if s.measured_s > 0.0 {
        s.achieved_rate = (s.completed + s.errors + s.timeouts) as f64 / s.measured_s;
    }
    if hist.is_empty() {
        return Err(Error::NotEnoughData {
            what: "latency percentiles",
            reason: format!(
                "no request to {name} completed in the measured windows ({} failed, {} unsent{}); \
                 check the target",
                s.errors,
                s.unsent,
                s.first_error
                    .as_ref()
                    .map(|e| format!(", first error: {e}"))
                    .unwrap_or_default()
            ),
        });
    }
    s.mean_ns = hist.mean();
    s.max_ns = hist.max() as f64;
    if !lag.is_empty() {
        s.send_lag = lag_summary(&lag);
    }
    s.percentiles = percentile_intervals(&mine, o, seed)?;
    Ok(SideData {
        summary: s,
        histogram: hist,
        lag,
        raw,
    })
}

/// A target's summary before any window is counted: its name and the offered rate, zeros.
fn empty_summary(name: &str, o: &LoadOptions) -> TargetSummary {
    TargetSummary {
        name: name.to_string(),
        windows: 0,
        measured_s: 0.0,
        scheduled: 0,
        completed: 0,
        errors: 0,
        timeouts: 0,
        unsent: 0,
        warmup_requests: 0,
        first_error: None,
        offered_rate: o.rate,
        achieved_rate: 0.0,
        percentiles: Vec::new(),
        mean_ns: 0.0,
        max_ns: 0.0,
        send_lag: LagSummary::default(),
    }
}

/// Adds one measured segment's requests to the summary, keeping the first error seen.
fn count_requests(s: &mut TargetSummary, r: &SegRecord) {
    s.scheduled += r.scheduled;
    s.completed += r.ok;
    s.errors += r.errors;
    s.timeouts += r.timeouts;
    s.unsent += r.unsent;
    if s.first_error.is_none() {
        s.first_error.clone_from(&r.first_error);
    }
}

/// The send lag's percentiles and maximum from its histogram (not empty).
fn lag_summary(lag: &Histogram<u64>) -> LagSummary {
    LagSummary {
        p50_ns: lag.value_at_quantile(0.5) as f64,
        p95_ns: lag.value_at_quantile(0.95) as f64,
        p99_ns: lag.value_at_quantile(0.99) as f64,
        p999_ns: lag.value_at_quantile(0.999) as f64,
        max_ns: lag.max() as f64,
    }
}

/// Each of the load's percentiles over a target's windows `mine` pooled, with its bootstrap
/// interval; a percentile the windows cannot give is left out.
fn percentile_intervals(
    mine: &[WindowDist],
    o: &LoadOptions,
    seed: u64,
) -> Result<Vec<PercentileInterval>> {
    let mut out = Vec::new();
    for (k, &p) in o.percentiles.iter().enumerate() {
        if let Some(pp) =
            pooled_percentile(mine, p, o.level, o.resamples, derive_seed(seed, k as u64))?
        {
            out.push(PercentileInterval {
                percentile: p,
                value_ns: pp.value,
                low_ns: pp.low,
                high_ns: pp.high,
            });
        }
    }
    Ok(out)
}

fn behind(side: &SideData, which: ServiceSide, o: &LoadOptions) -> Option<GeneratorBehind> {
    let bound = o.max_send_lag.as_nanos() as f64;
    (side.summary.send_lag.p99_ns > bound).then_some(GeneratorBehind {
        side: which,
        p99_lag_ns: side.summary.send_lag.p99_ns,
        bound_ns: bound,
        rate: o.rate,
    })
}

fn window_summaries(
    plan: &Plan,
    rec: &Recorded,
    dists: &[WindowDist],
    o: &LoadOptions,
) -> Vec<WindowSummary> {
    plan.segments
        .iter()
        .zip(&rec.segments)
        .filter_map(|(seg, r)| {
            let w = seg.window?;
            Some(WindowSummary {
                index: w,
                side: match seg.which {
                    Which::A => ServiceSide::A,
                    Which::B => ServiceSide::B,
                },
                lane: seg.lane,
                start_s: seg.start_ns as f64 / 1e9,
                scheduled: r.scheduled,
                completed: r.ok,
                errors: r.errors,
                timeouts: r.timeouts,
                unsent: r.unsent,
                percentiles_ns: o
                    .percentiles
                    .iter()
                    .map(|&p| dists[w].quantile(p).map(|v| v as f64))
                    .collect(),
            })
        })
        .collect()
}

fn common_warnings(
    out: &mut Vec<String>,
    env: &Environment,
    sides: &[&TargetSummary],
    o: &LoadOptions,
) {
    if env.debug_build {
        out.push(
            "built without optimisation: latencies of a debug build say little about a \
             release build; run with --release"
                .into(),
        );
    }
    for s in sides {
        if s.errors > 0 {
            out.push(format!(
                "{}: {} of {} requests failed (first: {}); they are not in the percentiles",
                s.name,
                s.errors,
                s.scheduled,
                s.first_error.as_deref().unwrap_or("no message")
            ));
        }
        if s.timeouts > 0 {
            out.push(format!(
                "{}: {} requests timed out after {:?}; their latencies are lower bounds, and so \
                 may be the tail percentiles",
                s.name, s.timeouts, o.timeout
            ));
        }
        if s.unsent > 0 {
            out.push(format!(
                "{}: {} requests were never sent: the run's time limit passed while they waited",
                s.name, s.unsent
            ));
        }
        let bound = o.max_send_lag.as_nanos() as f64;
        if s.send_lag.p99_ns > bound {
            out.push(format!(
                "{}: the generator fell behind (send lag p99 {:.3} ms > {:.3} ms): requests \
                 started late because every one of the {} workers was busy or the machine did \
                 not run them; add workers or lower the rate",
                s.name,
                s.send_lag.p99_ns / 1e6,
                bound / 1e6,
                o.workers
            ));
        }
        for p in &s.percentiles {
            if p.value_ns >= o.timeout.as_nanos() as f64 {
                out.push(format!(
                    "{}: {} reached the timeout; it is a lower bound",
                    s.name,
                    PName(p.percentile)
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bar is judged on the interval's end nearest zero: an estimate beyond
    /// `min_difference` whose interval reaches inside it is "cannot tell" (the point estimate
    /// alone called it A faster before the judge decided), and one whose whole interval clears
    /// it is a verdict.
    #[test]
    fn min_difference_is_cleared_by_the_interval_not_the_estimate() {
        let so = ServiceOptions::default().min_difference(0.015);
        let lag = Lag {
            quantile: 0.99,
            ns: 0.0,
            bound_ns: 1e6,
        };
        let verdict = |delta, low, high| {
            let e = Estimate::from_interval(delta, low, high, 0.99).unwrap();
            percentile_verdict(&so, 0.5, &e, 0.001, &lag, (0, 0))
        };
        assert!(matches!(
            verdict(0.02, 0.01, 0.03),
            ServiceVerdict::CannotTell(ServiceUnresolved::BelowMinDifference { bound, .. })
                if (bound - 0.01).abs() < 1e-12
        ));
        assert!(matches!(
            verdict(-0.02, -0.03, -0.01),
            ServiceVerdict::CannotTell(ServiceUnresolved::BelowMinDifference { .. })
        ));
        assert_eq!(verdict(0.03, 0.02, 0.04), ServiceVerdict::AFaster);
        assert_eq!(verdict(-0.03, -0.04, -0.02), ServiceVerdict::BFaster);
    }
}
