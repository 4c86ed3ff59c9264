//! The open-loop generator: worker threads that send every request at its due time, and the
//! recording of latencies, send lag, errors and timeouts per time window.
//!
//! The workers share one request counter. A free worker takes the next request, waits until
//! it is due (if it is not already), sends it, and records its latency from the **due time**
//! (or from the send, in the [`LatencyOrigin::Sent`] demonstration), so a request that waited
//! for a busy target or a busy generator carries that wait. Its send lag (start minus due) is
//! recorded separately. Every scheduled request is accounted for: completed, failed, timed out,
//! or never sent because the run's time limit (the schedule's end plus the timeout plus one
//! second) had passed.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use hdrhistogram::Histogram;

use crate::options::{LatencyOrigin, LoadOptions, RAW_LIMIT};
use crate::pace::Pacer;
use crate::schedule::{Plan, Which};
use crate::target::{RequestOutcome, Target};

/// A histogram of nanoseconds with 3 significant digits (0.1 % resolution) that grows as
/// needed.
pub(crate) fn histogram() -> Histogram<u64> {
    Histogram::new(3).expect("3 significant digits are valid")
}

/// Records `v`, growing the histogram as needed (`saturating_record` would clamp to its
/// current top instead).
pub(crate) fn record(h: &mut Histogram<u64>, v: u64) {
    if h.record(v).is_err() {
        h.saturating_record(v);
    }
}

/// What one segment of the schedule recorded.
#[derive(Debug, Clone)]
pub(crate) struct SegRecord {
    /// Latencies of completed and timed-out requests, in ns.
    pub latency: Histogram<u64>,
    /// The same latencies, in completion order, when the run is small enough.
    pub raw: Option<Vec<u64>>,
    /// Send lag (start − due) of every sent request, in ns.
    pub lag: Histogram<u64>,
    /// Requests due in the segment.
    pub scheduled: u64,
    pub ok: u64,
    pub errors: u64,
    pub timeouts: u64,
    pub unsent: u64,
    pub first_error: Option<String>,
}

impl SegRecord {
    fn new(keep_raw: bool) -> Self {
        SegRecord {
            latency: histogram(),
            raw: keep_raw.then(Vec::new),
            lag: histogram(),
            scheduled: 0,
            ok: 0,
            errors: 0,
            timeouts: 0,
            unsent: 0,
            first_error: None,
        }
    }
}

/// Everything a load recorded.
#[derive(Debug, Clone)]
pub(crate) struct Recorded {
    pub segments: Vec<SegRecord>,
    /// From the schedule's start to the last completion, in ns.
    pub elapsed_ns: u64,
}

/// Extra time after the schedule's end before unsent requests are given up: the timeout plus
/// this.
const GRACE_NS: u64 = 1_000_000_000;

/// Runs `plan` against `a` and `b` (the segments say which) and records it.
pub(crate) fn execute<A: Target, B: Target, P: Pacer>(
    a: &A,
    b: &B,
    plan: &Plan,
    o: &LoadOptions,
    pacer: &P,
) -> Recorded {
    let n = plan.due_ns.len();
    let keep_raw = n <= RAW_LIMIT;
    let mut segs: Vec<SegRecord> = plan
        .segments
        .iter()
        .map(|_| SegRecord::new(keep_raw))
        .collect();
    for &s in &plan.segment_of {
        segs[s as usize].scheduled += 1;
    }
    let rec = Mutex::new(segs);
    let next = AtomicUsize::new(0);
    let inline = o.workers == 1 || pacer.is_simulated();
    // Real workers get 2 ms to start before the first request is due.
    let lead = if pacer.is_simulated() { 0 } else { 2_000_000 };
    let t0 = pacer.now_ns() + lead;
    let timeout_ns = o.timeout.as_nanos().min(u64::MAX as u128) as u64;
    let deadline = t0 + plan.end_ns() + timeout_ns.saturating_add(GRACE_NS);
    let job = || worker_loop(a, b, plan, o, pacer, &rec, &next, t0, deadline, timeout_ns);
    if inline {
        job();
    } else {
        // The scope joins every worker before it returns, also when one panics.
        std::thread::scope(|s| {
            for _ in 0..o.workers {
                s.spawn(job);
            }
        });
    }
    let elapsed_ns = pacer.now_ns().saturating_sub(t0);
    Recorded {
        segments: rec.into_inner().unwrap_or_else(|e| e.into_inner()),
        elapsed_ns,
    }
}

#[allow(clippy::too_many_arguments)]
fn worker_loop<A: Target, B: Target, P: Pacer>(
    a: &A,
    b: &B,
    plan: &Plan,
    o: &LoadOptions,
    pacer: &P,
    rec: &Mutex<Vec<SegRecord>>,
    next: &AtomicUsize,
    t0: u64,
    deadline: u64,
    timeout_ns: u64,
) {
    let n = plan.due_ns.len();
    pacer.prepare_thread();
    let mut wa = a.worker();
    let mut wb = b.worker();
    let lock = || rec.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            return;
        }
        let due = t0 + plan.due_ns[i];
        let mut now = pacer.now_ns();
        if now > deadline {
            // Out of time: this request and every one not yet taken are counted as unsent.
            let rest = next.swap(n, Ordering::Relaxed).max(i + 1);
            let mut r = lock();
            r[plan.segment_of[i] as usize].unsent += 1;
            for j in rest..n {
                r[plan.segment_of[j] as usize].unsent += 1;
            }
            return;
        }
        if now < due {
            pacer.wait_until(due);
            now = pacer.now_ns();
        }
        let start = now;
        let seg = plan.segment_of[i] as usize;
        let timeout = o.timeout;
        let outcome = match plan.segments[seg].which {
            Which::A => a.call(&mut wa, i as u64, timeout),
            Which::B => b.call(&mut wb, i as u64, timeout),
        };
        let end = pacer.now_ns();
        let took = end.saturating_sub(start);
        let outcome = if outcome == RequestOutcome::Ok && took > timeout_ns {
            RequestOutcome::TimedOut
        } else {
            outcome
        };
        let latency = match o.latency_from {
            LatencyOrigin::Due => end.saturating_sub(due),
            LatencyOrigin::Sent => took,
        };
        let lag = start.saturating_sub(due);
        let mut r = lock();
        record_request(&mut r[seg], outcome, latency, lag);
    }
}

/// Records one request in its segment's record: its send lag, then its latency (completed or
/// timed out) or its error (the first one kept).
fn record_request(s: &mut SegRecord, outcome: RequestOutcome, latency: u64, lag: u64) {
    record(&mut s.lag, lag);
    match outcome {
        RequestOutcome::Ok | RequestOutcome::TimedOut => {
            if outcome == RequestOutcome::Ok {
                s.ok += 1;
            } else {
                s.timeouts += 1;
            }
            record(&mut s.latency, latency);
            if let Some(raw) = s.raw.as_mut() {
                raw.push(latency);
            }
        }
        RequestOutcome::Error(msg) => {
            s.errors += 1;
            if s.first_error.is_none() {
                s.first_error = Some(msg);
            }
        }
    }
}
