//! [`compare`]: two structures under the same pre-generated stream.

use std::cell::RefCell;
use std::hint::black_box;
use std::rc::Rc;

use crate::record::{Memory, Record};
use crate::report::StructureReport;
use crate::spec::Spec;
use crate::stream::{Op, Stream, payload};
use crate::structure::{Key, Structure};
use crate::{Error, Result};
use rtcompare::Cache;
use rtcompare::Candidate;
use rtcompare::alloc;
use rtcompare::compare::CompareOptions;
use rtcompare::compare::report::Report;
use rtcompare::pool::Child;
use rtcompare::support;
use rtcompare::support::env::max_rss_bytes;
use rtcompare::support::measure::{CalibrationOptions, calibrate_with_clock};
use rtcompare::support::measure::{Clock, MonotonicClock};

/// Churn operations generated for a comparison (2²¹ ≈ 2.1 million, 32 MiB of operations),
/// or twice the steady size if that is more. Each batch runs the next operations of this one
/// stream; a comparison that needs more wraps around to the churn's start on both sides
/// alike (recorded in [`Record::passes`]).
pub const COMPARE_STREAM_OPS: usize = 1 << 21;

/// Compares structure `A` with structure `B` under the spec's workload, with the whole
/// protocol of [`compare`](rtcompare::compare()) on the process's monotonic clock.
///
/// 1. The stream (fill and [`COMPARE_STREAM_OPS`] churn operations) and the keys it names are
///    generated before anything is measured; string keys are built then too.
/// 2. Both structures are filled to the steady size outside the measured region, A first
///    (the pooled variant [`compare_child`] alternates the order by process), each fill's
///    memory measured ([`Memory`]).
/// 3. The batch size is calibrated on both sides, then the side that ran fewer operations
///    catches up outside the measured region, so from then on both sides have run the same
///    operations: the i-th batch of A and the i-th batch of B run the same n operations of
///    the same stream, which is what the paired bootstrap compares.
/// 4. [`compare`](rtcompare::compare()) measures, with that batch size. Its report comes back
///    in a [`StructureReport`], beside the [`Record`] of the workload.
///
/// Errors: those of [`Spec::validate`]; [`Error::InvalidOption`] when a structure's key type
/// does not match the spec's ([`Key::from_key`] returns `None`); those of
/// [`compare`](rtcompare::compare()).
///
/// ```no_run
/// use std::collections::{BTreeMap, HashMap};
/// use rtcompare::CompareOptions;
/// use rtcompare_workload::{self as workload, Spec};
/// let report = workload::compare::<HashMap<u64, u64>, BTreeMap<u64, u64>>(
///     &Spec::default().steady_size(100_000).zipf(1.1),
///     &CompareOptions::default(),
/// )?;
/// println!("{report}");
/// println!("HashMap's fill: {:?}", report.record.memory_a);
/// # Ok::<(), rtcompare_workload::Error>(())
/// ```
pub fn compare<A: Structure, B: Structure>(
    spec: &Spec,
    options: &CompareOptions,
) -> Result<StructureReport> {
    compare_with_clock::<A, B, _>(spec, options, &MonotonicClock, true)
}

/// [`compare`] inside a [`pool::run`](rtcompare::pool::run) child: the fill order alternates by
/// process ([`Child::build`]: A first in even processes) and the options are the child's.
///
/// It returns what `pool::run`'s closure takes, the core's [`Report`] and
/// [`Result`](rtcompare::Result) (this crate's errors as the core's variants of the same
/// names). The [`Record`] goes to the pool's parent beside the report, where a pooled
/// [`Suite`](crate::Suite) reads it; a pool of your own keeps the reports only.
///
/// ```no_run
/// use std::collections::{BTreeMap, HashMap};
/// use rtcompare::pool::{self, PoolOptions};
/// use rtcompare_workload::{self as workload, Spec};
/// let spec = Spec::default().steady_size(100_000);
/// let pooled = pool::run(&PoolOptions::default(), |child| {
///     workload::compare_child::<HashMap<u64, u64>, BTreeMap<u64, u64>>(&spec, child)
/// })?;
/// println!("{pooled}");
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn compare_child<A: Structure, B: Structure>(
    spec: &Spec,
    child: &mut Child,
) -> rtcompare::Result<Report> {
    let options = child.options().clone();
    let prepared = Prepared::<A, B>::new(spec)?;
    let (fa, fb) = child.build(|| prepared.fill_a(), || prepared.fill_b());
    let a_first = child.index().is_multiple_of(2);
    let StructureReport { record, report } =
        prepared.run(fa, fb, a_first, &options, &MonotonicClock)?;
    let record = serde_json::to_value(&record).map_err(|e| rtcompare::Error::Json {
        source: rtcompare::JsonSource::from(e),
    })?;
    rtcompare::support::pool::attach(child, record);
    Ok(report)
}

/// [`compare`] on any clock (a [`SimulatedClock`](rtcompare::support::measure::SimulatedClock) in
/// tests), with the fill order chosen: `a_first` fills A before B.
pub fn compare_with_clock<A: Structure, B: Structure, C: Clock>(
    spec: &Spec,
    options: &CompareOptions,
    clock: &C,
    a_first: bool,
) -> Result<StructureReport> {
    let prepared = Prepared::<A, B>::new(spec)?;
    let (fa, fb) = if a_first {
        let fa = prepared.fill_a();
        (fa, prepared.fill_b())
    } else {
        let fb = prepared.fill_b();
        (prepared.fill_a(), fb)
    };
    prepared.run(fa, fb, a_first, options, clock)
}

/// The stream and both sides' keys, generated before anything is measured.
struct Prepared<A: Structure, B: Structure> {
    stream: Stream,
    keys_a: Vec<A::Key>,
    keys_b: Vec<B::Key>,
}

/// One side during a comparison: the structure and where it is in the churn.
struct RunningStructure<S> {
    structure: S,
    cursor: usize,
    ops_run: u64,
}

impl<A: Structure, B: Structure> Prepared<A, B> {
    fn new(spec: &Spec) -> Result<Self> {
        spec.validate()?;
        for (name, ok) in [
            (
                std::any::type_name::<A>(),
                A::Key::from_key(0, spec.key_type).is_some(),
            ),
            (
                std::any::type_name::<B>(),
                B::Key::from_key(0, spec.key_type).is_some(),
            ),
        ] {
            if !ok {
                return Err(Error::invalid_option(
                    "key_type",
                    format!(
                        "{name} cannot be keyed by the spec's {:?} keys; use a structure with \
                         u64 keys for KeyType::U64 and String keys for KeyType::String",
                        spec.key_type
                    ),
                ));
            }
        }
        let ops = COMPARE_STREAM_OPS.max(2 * spec.steady_size as usize);
        let stream = spec.stream(ops)?;
        let kt = spec.key_type;
        let keys = |ops: &[Op]| -> Vec<_> { ops.iter().map(|op| op.key()).collect() };
        let churn = keys(stream.churn());
        // Checked above: from_key succeeds for this key type.
        let keys_a = churn
            .iter()
            .map(|&k| A::Key::from_key(k, kt).expect("key"))
            .collect();
        let keys_b = churn
            .iter()
            .map(|&k| B::Key::from_key(k, kt).expect("key"))
            .collect();
        Ok(Prepared {
            stream,
            keys_a,
            keys_b,
        })
    }

    fn fill_a(&self) -> (A, Memory) {
        fill::<A>(&self.stream)
    }

    fn fill_b(&self) -> (B, Memory) {
        fill::<B>(&self.stream)
    }

    fn run<C: Clock>(
        &self,
        (a, memory_a): (A, Memory),
        (b, memory_b): (B, Memory),
        a_first: bool,
        options: &CompareOptions,
        clock: &C,
    ) -> Result<StructureReport> {
        let churn = self.stream.churn();
        let side_a = Rc::new(RefCell::new(RunningStructure {
            structure: a,
            cursor: 0,
            ops_run: 0,
        }));
        let side_b = Rc::new(RefCell::new(RunningStructure {
            structure: b,
            cursor: 0,
            ops_run: 0,
        }));
        let name_a = side_a.borrow().structure.name();
        let name_b = side_b.borrow().structure.name();
        let (sa, ka) = (Rc::clone(&side_a), &self.keys_a);
        let mut cand_a =
            Candidate::new(name_a, move |n| run_ops(&mut sa.borrow_mut(), churn, ka, n));
        let (sb, kb) = (Rc::clone(&side_b), &self.keys_b);
        let mut cand_b =
            Candidate::new(name_b, move |n| run_ops(&mut sb.borrow_mut(), churn, kb, n));

        let mut opts = options.clone();
        let co = support::compare::collect_options(options);
        let mut calibrations = None;
        if co.inner_loops == 0 && co.cache != Cache::Cold {
            let copts = CalibrationOptions::default()
                .max_quantization_error(co.max_quantization_error)
                .max_inner_loops(co.max_inner_loops);
            let ca = calibrate_with_clock(&mut cand_a, &copts, clock)?;
            let cb = calibrate_with_clock(&mut cand_b, &copts, clock)?;
            opts = opts.inner_loops(ca.inner_loops.max(cb.inner_loops));
            calibrations = Some((ca, cb));
        }
        // Catch up outside the measured region: from here on both sides have run the same
        // operations, so equal-numbered batches run equal operations.
        let (ran_a, ran_b) = (side_a.borrow().ops_run, side_b.borrow().ops_run);
        if ran_a < ran_b {
            run_ops(&mut side_a.borrow_mut(), churn, &self.keys_a, ran_b - ran_a);
        } else if ran_b < ran_a {
            run_ops(&mut side_b.borrow_mut(), churn, &self.keys_b, ran_a - ran_b);
        }

        let mut report =
            rtcompare::support::compare::compare_with_clock(cand_a, cand_b, &opts, clock)?;
        report.run.options = options.clone();
        if let Some((ca, cb)) = calibrations {
            report.timing.calibration_a = Some(ca);
            report.timing.calibration_b = Some(cb);
        }
        let ops_run = side_a.borrow().ops_run.max(side_b.borrow().ops_run);
        let passes = ops_run.div_ceil(churn.len().max(1) as u64);
        let record = Record {
            spec: self.stream.spec().clone(),
            stream_seed: self.stream.seed(),
            stream_ops: churn.len() as u64,
            ops_run,
            passes,
            a_filled_first: a_first,
            memory_a,
            memory_b,
            summary: format!(
                "Workload: {}; both sides ran the same {} pre-generated churn operations \
                 (stream seed {}, {passes} pass{}), {} filled first.",
                self.stream.spec(),
                churn.len(),
                self.stream.seed(),
                if passes == 1 { "" } else { "es" },
                if a_first { "A" } else { "B" }
            ),
        };
        Ok(StructureReport { record, report })
    }
}

/// Runs the next `n` churn operations on one side, wrapping to the churn's start.
#[inline]
fn run_ops<S: Structure>(side: &mut RunningStructure<S>, churn: &[Op], keys: &[S::Key], n: u64) {
    let RunningStructure {
        structure,
        cursor,
        ops_run,
    } = side;
    let mut c = *cursor;
    for _ in 0..n {
        match churn[c] {
            Op::Insert(k) => structure.insert(keys[c].clone(), payload(k)),
            Op::Remove(_) => {
                black_box(structure.remove(&keys[c]));
            }
            Op::Get(_) => {
                black_box(structure.get(&keys[c]));
            }
        }
        c += 1;
        if c == churn.len() {
            c = 0;
        }
    }
    *cursor = c;
    *ops_run += n;
}

/// Fills a new structure with the stream's fill phase and measures what that cost.
fn fill<S: Structure>(stream: &Stream) -> (S, Memory) {
    let kt = stream.spec().key_type;
    let keys: Vec<S::Key> = stream
        .fill()
        .iter()
        .map(|op| S::Key::from_key(op.key(), kt).expect("key type checked"))
        .collect();
    let rss0 = current_rss_bytes();
    let peak0 = max_rss_bytes();
    let heap0 = alloc::snapshot();
    let mut s = S::default();
    // Cloned, not moved, so that the key table's own buffer is neither freed nor counted
    // inside the measured window.
    for (op, k) in stream.fill().iter().zip(keys.iter().cloned()) {
        s.insert(k, op.payload());
    }
    let heap1 = alloc::snapshot();
    drop(keys);
    let memory = Memory {
        rss_growth_bytes: current_rss_bytes()
            .zip(rss0)
            .map(|(b, a)| b.saturating_sub(a)),
        peak_rss_growth_bytes: max_rss_bytes().zip(peak0).map(|(b, a)| b.saturating_sub(a)),
        live_bytes: heap0
            .zip(heap1)
            .map(|(a, b)| b.live_bytes.saturating_sub(a.live_bytes)),
        allocations: heap0
            .zip(heap1)
            .map(|(a, b)| b.allocations.saturating_sub(a.allocations)),
    };
    (s, memory)
}

/// The resident set now, in bytes (`/proc/self/statm`, Linux); `None` elsewhere.
#[cfg(target_os = "linux")]
fn current_rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    (page > 0).then(|| pages * page as u64)
}

/// Off Linux there is no `/proc/self/statm`: unknown.
#[cfg(not(target_os = "linux"))]
fn current_rss_bytes() -> Option<u64> {
    None
}
