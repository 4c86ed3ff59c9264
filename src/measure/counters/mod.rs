//! Opt-in hardware counters: cycles, instructions, cache misses and branch misses per side.
//!
//! Wall time decides every verdict; counters only **explain** a wall-time difference ("B retires
//! 30% more instructions", "A misses the cache twice as often"). They never take part in a
//! decision.
//!
//! # Availability
//!
//! The counting code uses Linux `perf_event_open` and is compiled only with the Cargo feature
//! `counters` on Linux. Everywhere else this module still exists, so the types, the report
//! fields and the "unavailable" path are the same on every build: [`CounterSet::open`] then
//! returns [`Unavailable`] with a reason saying how to enable the counters.
//!
//! Even with the feature, counters are often refused: most virtual machines expose no PMU
//! (`perf_event_open` fails with `ENOENT`), `kernel.perf_event_paranoid` above 2 forbids
//! unprivileged use (`EACCES`), and container seccomp profiles block the system call (`EPERM`).
//! Every such refusal becomes [`Unavailable`] (or, for a single counter, a [`CounterFailure`]);
//! nothing in this module panics or fails its caller.
//!
//! # Use in a measuring loop
//!
//! ```
//! use rtcompare::support::measure::{CounterDelta, CounterSet, CounterSummary};
//!
//! let inner_loops = 1_000;
//! let counters = CounterSet::open(); // once, on the measuring thread
//! let (mut deltas_a, mut deltas_b) = (Vec::<CounterDelta>::new(), Vec::<CounterDelta>::new());
//! for _ in 0..10 {
//!     for deltas in [&mut deltas_a, &mut deltas_b] {
//!         if let Ok(set) = &counters {
//!             let before = set.read(); // outside the timed region
//!             // let t0 = clock.now_ns(); run the batch of `inner_loops` operations; let t1 = ...
//!             let after = set.read();
//!             deltas.push(CounterSet::delta(&before, &after));
//!         }
//!     }
//! }
//! let summary = match &counters {
//!     Ok(set) => CounterSummary::from_batches(&deltas_a, &deltas_b, inner_loops)
//!         .with_failures(set.failures()),
//!     Err(unavailable) => CounterSummary::unavailable(unavailable.reason.clone()),
//! };
//! println!("{summary}");
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

// The platform's side of a `CounterSet`, one file per platform: on Linux with the feature, a
// perf event group; on every other build, a stub whose `open` says why there are no counters.
// Both define `Target` and `Group` with the same functions, so the portable code in this file
// compiles unchanged on every build, and only the chosen file is compiled at all.
#[cfg(all(feature = "counters", target_os = "linux"))]
#[path = "linux.rs"]
mod platform;
#[cfg(not(all(feature = "counters", target_os = "linux")))]
#[path = "unsupported.rs"]
mod platform;

/// One of the four hardware events this module counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counter {
    /// CPU cycles (`PERF_COUNT_HW_CPU_CYCLES`), at whatever frequency the core ran.
    Cycles,
    /// Retired instructions (`PERF_COUNT_HW_INSTRUCTIONS`).
    Instructions,
    /// Last-level cache misses (`PERF_COUNT_HW_CACHE_MISSES`; the exact event is the CPU's).
    CacheMisses,
    /// Mispredicted branches (`PERF_COUNT_HW_BRANCH_MISSES`).
    BranchMisses,
}

impl Counter {
    /// The four counters, in the order [`CounterSet::open`] tries them.
    pub const ALL: [Counter; 4] = [
        Counter::Cycles,
        Counter::Instructions,
        Counter::CacheMisses,
        Counter::BranchMisses,
    ];

    /// Human name, plural and lower case (for example `"cache misses"`).
    pub fn name(self) -> &'static str {
        match self {
            Counter::Cycles => "cycles",
            Counter::Instructions => "instructions",
            Counter::CacheMisses => "cache misses",
            Counter::BranchMisses => "branch misses",
        }
    }
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why hardware counters cannot be used here. Never an error of the caller: a comparison goes
/// on without counters and its report says "unavailable" with this reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unavailable {
    /// What was refused and why, in words (errno name and text, the
    /// `kernel.perf_event_paranoid` value, or how to enable the feature).
    pub reason: String,
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unavailable: {}", self.reason)
    }
}

impl std::error::Error for Unavailable {}

/// One counter that could not be opened while others could.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterFailure {
    /// The counter that is missing.
    pub counter: Counter,
    /// The `errno` of the refusal, if there was one.
    pub errno: Option<i32>,
    /// The refusal in words (errno name and text, and what it usually means).
    pub reason: String,
}

/// Raw cumulative counts of one [`CounterSet`] at one instant, as returned by
/// [`CounterSet::read`]. Only differences between two readings mean anything
/// (see [`CounterSet::delta`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CounterReading {
    /// Cycles counted since the set was opened; `None` if the counter is not open or the read
    /// failed.
    pub cycles: Option<u64>,
    /// Instructions retired since the set was opened; `None` as for `cycles`.
    pub instructions: Option<u64>,
    /// Cache misses since the set was opened; `None` as for `cycles`.
    pub cache_misses: Option<u64>,
    /// Branch misses since the set was opened; `None` as for `cycles`.
    pub branch_misses: Option<u64>,
    /// Nanoseconds the counters have been enabled (`PERF_FORMAT_TOTAL_TIME_ENABLED`); 0 if the
    /// read failed.
    pub enabled_ns: u64,
    /// Nanoseconds the counters were actually on the PMU (`PERF_FORMAT_TOTAL_TIME_RUNNING`).
    /// Less than `enabled_ns` when the kernel multiplexed them with other users of the PMU.
    pub running_ns: u64,
}

/// Counts of one batch: the difference between the readings after and before it.
///
/// The counts are raw. If the kernel multiplexed the counters during the batch,
/// `running_ns < enabled_ns` and [`CounterSummary::from_batches`] extrapolates the counts by
/// `enabled_ns / running_ns`; if they never ran (`running_ns == 0`) the batch contributes
/// nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CounterDelta {
    /// Cycles during the batch; `None` if the counter is not open, a read failed or the count
    /// went backwards.
    pub cycles: Option<u64>,
    /// Instructions retired during the batch; `None` as for `cycles`.
    pub instructions: Option<u64>,
    /// Cache misses during the batch; `None` as for `cycles`.
    pub cache_misses: Option<u64>,
    /// Branch misses during the batch; `None` as for `cycles`.
    pub branch_misses: Option<u64>,
    /// Nanoseconds the counters were enabled during the batch.
    pub enabled_ns: u64,
    /// Nanoseconds the counters were running on the PMU during the batch.
    pub running_ns: u64,
}

impl CounterDelta {
    /// The count of `counter` in this batch (`None` as for the fields).
    pub fn get(&self, counter: Counter) -> Option<u64> {
        match counter {
            Counter::Cycles => self.cycles,
            Counter::Instructions => self.instructions,
            Counter::CacheMisses => self.cache_misses,
            Counter::BranchMisses => self.branch_misses,
        }
    }

    /// Whether the kernel multiplexed the counters during the batch (they ran for part of it
    /// only, so their counts are extrapolated).
    pub fn multiplexed(&self) -> bool {
        self.running_ns < self.enabled_ns
    }

    /// The count of `counter` extrapolated to the whole batch (`count × enabled / running`);
    /// `None` if there is no count or the counters never ran.
    fn scaled(&self, counter: Counter) -> Option<f64> {
        let count = self.get(counter)? as f64;
        if self.running_ns == 0 {
            return None;
        }
        if self.multiplexed() {
            Some(count * self.enabled_ns as f64 / self.running_ns as f64)
        } else {
            Some(count)
        }
    }
}

impl CounterReading {
    /// The counts since the set was opened, as a delta: what a set opened with
    /// [`CounterSet::open_for_children`] holds for one child once it has exited. Counters that
    /// are `None` here stay `None`.
    pub fn as_delta(&self) -> CounterDelta {
        CounterDelta {
            cycles: self.cycles,
            instructions: self.instructions,
            cache_misses: self.cache_misses,
            branch_misses: self.branch_misses,
            enabled_ns: self.enabled_ns,
            running_ns: self.running_ns,
        }
    }

    fn get(&self, counter: Counter) -> Option<u64> {
        match counter {
            Counter::Cycles => self.cycles,
            Counter::Instructions => self.instructions,
            Counter::CacheMisses => self.cache_misses,
            Counter::BranchMisses => self.branch_misses,
        }
    }
}

/// The hardware counters of the calling thread, open and counting.
///
/// Counts user space only (`exclude_kernel`, `exclude_hv`), so it works with the common
/// `kernel.perf_event_paranoid = 2`, and only the thread that called [`open`](Self::open)
/// (`pid = 0`, `cpu = -1`, no inheritance): open it on the thread that runs the batches (a read
/// from another thread still returns the opening thread's counts). The
/// counters that open form one perf event group, so they are scheduled together and one
/// `read` system call returns all of them. The file descriptors close on drop.
#[derive(Debug)]
pub struct CounterSet {
    group: platform::Group,
}

impl CounterSet {
    /// Opens cycles, instructions, cache misses and branch misses for the calling thread,
    /// counting from now.
    ///
    /// Counters that open are kept even if others are refused ([`failures`](Self::failures)
    /// says which and why). Returns [`Unavailable`] if none opens, and always without the Cargo
    /// feature `counters` or off Linux (the reason then says how to enable them). Never panics.
    /// Cost: four `perf_event_open` calls, some microseconds.
    pub fn open() -> Result<CounterSet, Unavailable> {
        platform::Group::open(platform::Target::ThisThread).map(|group| CounterSet { group })
    }

    /// Opens the four counters for the **processes the calling thread starts next**, not for
    /// the thread itself: a child process, from its `exec` on, and everything it starts in turn
    /// (a shell and its pipeline). For whole-program measurement, as `rtcompare cmd --counters`
    /// does.
    ///
    /// How: the group is opened on the calling thread disabled, inherited
    /// (`inherit = 1`) and enabled on exec (`enable_on_exec = 1`, set on the leader). A child
    /// the thread forks or spawns gets its own copy of the group, which the kernel switches on
    /// when the child calls `exec`; the thread's own copy is never switched on (it never
    /// execs), so nothing of the parent is counted, nor the child's time between `fork` and
    /// `exec`. As each counted process exits, the kernel adds its counts into this group, so
    /// [`read`](Self::read) after the child has been waited for returns its totals (use
    /// [`CounterReading::as_delta`] to summarise them). Descendants still running at the read
    /// are included only as far as they have counted.
    ///
    /// Use one set per child: open it right before spawning, read it after reaping, drop it.
    /// Every process the calling thread starts while the set is open is counted into it, and
    /// processes started by other threads are not. This needs no cooperation from the child
    /// and no hook between `fork` and `exec`, so `std::process::Command::spawn` (which returns
    /// only once the child has exec'd) works unchanged; opening counters on the child's pid
    /// instead would need the child stopped before its `exec` until the parent has opened
    /// them, which `spawn` cannot do without a second thread.
    ///
    /// Errors and availability as [`open`](Self::open): never panics, and without the feature
    /// `counters`, off Linux, or where the kernel or the VM refuses, [`Unavailable`] with the
    /// reason.
    pub fn open_for_children() -> Result<CounterSet, Unavailable> {
        platform::Group::open(platform::Target::Children).map(|group| CounterSet { group })
    }

    /// The current cumulative counts. One `read` system call for the whole group, about
    /// 0.5 µs on the machine this was written on (0.44–0.65 µs for a three-event group, where a
    /// bare system call costs 0.12 µs; see docs/background.md), so read outside the timed region,
    /// before and after the batch; [`read_cost_ns`](Self::read_cost_ns) measures it here. A
    /// failed read gives `None` for every counter (and its delta `None` too). Never panics.
    pub fn read(&self) -> CounterReading {
        self.group.read()
    }

    /// The counters that are open, in group order.
    pub fn counters(&self) -> Vec<Counter> {
        self.group.counters()
    }

    /// The counters that could not be opened, with why. Empty when all four are open.
    pub fn failures(&self) -> &[CounterFailure] {
        self.group.failures()
    }

    /// Per-batch counts from the readings `before` and `after` a batch. A counter is `None` in
    /// the result if it is `None` in either reading or went backwards (the times saturate at
    /// 0). Pure and cheap.
    pub fn delta(before: &CounterReading, after: &CounterReading) -> CounterDelta {
        let diff = |c: Counter| after.get(c)?.checked_sub(before.get(c)?);
        CounterDelta {
            cycles: diff(Counter::Cycles),
            instructions: diff(Counter::Instructions),
            cache_misses: diff(Counter::CacheMisses),
            branch_misses: diff(Counter::BranchMisses),
            enabled_ns: after.enabled_ns.saturating_sub(before.enabled_ns),
            running_ns: after.running_ns.saturating_sub(before.running_ns),
        }
    }

    /// Measures the cost of one [`read`](Self::read) in nanoseconds: `reads` back-to-back reads
    /// timed in blocks of 16 (at least one block), the median of the per-read block means.
    /// Takes about `reads ×` the cost.
    pub fn read_cost_ns(&self, reads: u32) -> f64 {
        const BLOCK: u32 = 16;
        let blocks = reads.div_ceil(BLOCK).max(1);
        let per_read: Vec<f64> = (0..blocks)
            .map(|_| {
                let start = std::time::Instant::now();
                for _ in 0..BLOCK {
                    std::hint::black_box(self.read());
                }
                start.elapsed().as_nanos() as f64 / f64::from(BLOCK)
            })
            .collect();
        crate::stats::median(&per_read).unwrap_or(f64::NAN)
    }
}

/// `kernel.perf_event_paranoid` (from `/proc/sys/kernel/perf_event_paranoid`), if readable:
/// −1 allows everything, 0–2 allow a user to count their own threads' user space (2 is the
/// usual default), 3 and above (Debian, Android) forbid unprivileged use. `None` off Linux or
/// if the file is missing or unparsable.
pub fn perf_event_paranoid() -> Option<i64> {
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Whether counters were measured, and if not why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CounterStatus {
    /// At least one counter produced a value (missing ones are `null` in the summary and
    /// listed in [`CounterSummary::failures`]).
    Available,
    /// No counter values: the kernel, the virtual machine, the build or the input refused.
    Unavailable {
        /// Why, in words.
        reason: String,
    },
}

impl fmt::Display for CounterStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CounterStatus::Available => f.write_str("available"),
            CounterStatus::Unavailable { reason } => write!(f, "unavailable: {reason}"),
        }
    }
}

/// Per-operation medians of one side's counters.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SideCounters {
    /// Median over batches of cycles per operation; `None` (null) if unknown.
    pub cycles_per_op: Option<f64>,
    /// Median over batches of instructions retired per operation; `None` if unknown.
    pub instructions_per_op: Option<f64>,
    /// Median over batches of cache misses per operation; `None` if unknown.
    pub cache_misses_per_op: Option<f64>,
    /// Median over batches of branch misses per operation; `None` if unknown.
    pub branch_misses_per_op: Option<f64>,
    /// Batches given for this side.
    pub batches: u64,
    /// Of those, batches in which the kernel multiplexed the counters (counts extrapolated).
    pub multiplexed_batches: u64,
}

impl SideCounters {
    fn from_batches(deltas: &[CounterDelta], inner_loops: u64) -> SideCounters {
        let per_op = |c: Counter| {
            let values: Vec<f64> = deltas
                .iter()
                .filter_map(|d| d.scaled(c))
                .map(|v| v / inner_loops as f64)
                .filter(|v| v.is_finite())
                .collect();
            crate::stats::median(&values).ok()
        };
        SideCounters {
            cycles_per_op: per_op(Counter::Cycles),
            instructions_per_op: per_op(Counter::Instructions),
            cache_misses_per_op: per_op(Counter::CacheMisses),
            branch_misses_per_op: per_op(Counter::BranchMisses),
            batches: deltas.len() as u64,
            multiplexed_batches: deltas.iter().filter(|d| d.multiplexed()).count() as u64,
        }
    }

    fn any(&self) -> bool {
        self.cycles_per_op.is_some()
            || self.instructions_per_op.is_some()
            || self.cache_misses_per_op.is_some()
            || self.branch_misses_per_op.is_some()
    }
}

/// Hardware counters of a comparison, as per-operation medians for side A and side B.
/// Diagnostics only: they explain a wall-time difference and never decide a verdict.
///
/// Every field is always present in JSON; what is unknown is `null`, never left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CounterSummary {
    /// Whether counters were measured, and if not why.
    pub status: CounterStatus,
    /// Side A's per-operation medians.
    pub a: SideCounters,
    /// Side B's per-operation medians.
    pub b: SideCounters,
    /// Operations per batch the counts were divided by.
    pub inner_loops: u64,
    /// Counters that could not be opened while others could (empty if none).
    pub failures: Vec<CounterFailure>,
}

impl CounterSummary {
    /// Summarises per-batch counts of side A (`a`) and side B (`b`), each batch running
    /// `inner_loops` operations: per counter and side, the median over batches of
    /// `count / inner_loops` (multiplexed batches extrapolated, batches without a count
    /// skipped). Pure; never panics.
    ///
    /// Bad input gives an [`Unavailable`](CounterStatus::Unavailable) summary with all values
    /// `None`: `inner_loops == 0`, no batches at all, or no batch with any count.
    pub fn from_batches(a: &[CounterDelta], b: &[CounterDelta], inner_loops: u64) -> Self {
        if inner_loops == 0 {
            return Self::unavailable("inner_loops is 0: there are no operations to divide by");
        }
        if a.is_empty() && b.is_empty() {
            return Self::unavailable("no batches were counted");
        }
        let side_a = SideCounters::from_batches(a, inner_loops);
        let side_b = SideCounters::from_batches(b, inner_loops);
        let status = if side_a.any() || side_b.any() {
            CounterStatus::Available
        } else {
            CounterStatus::Unavailable {
                reason: "no batch produced a counter value (counters never ran)".to_string(),
            }
        };
        CounterSummary {
            status,
            a: side_a,
            b: side_b,
            inner_loops,
            failures: Vec::new(),
        }
    }

    /// A summary that says "unavailable" with `reason` (for example the reason of the
    /// [`Unavailable`] that [`CounterSet::open`] returned); every value `None`.
    pub fn unavailable(reason: impl Into<String>) -> Self {
        CounterSummary {
            status: CounterStatus::Unavailable {
                reason: reason.into(),
            },
            a: SideCounters::default(),
            b: SideCounters::default(),
            inner_loops: 0,
            failures: Vec::new(),
        }
    }

    /// Records the counters that could not be opened ([`CounterSet::failures`]).
    pub fn with_failures(mut self, failures: &[CounterFailure]) -> Self {
        self.failures = failures.to_vec();
        self
    }

    /// Whether any counter value is present.
    pub fn is_available(&self) -> bool {
        self.status == CounterStatus::Available
    }
}

impl fmt::Display for CounterSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let CounterStatus::Unavailable { reason } = &self.status {
            return write!(f, "Hardware counters: unavailable: {reason}");
        }
        write!(
            f,
            "Hardware counters (user space, median per operation; they explain, they do not decide):"
        )?;
        for (name, side) in [("A", &self.a), ("B", &self.b)] {
            let value = |v: Option<f64>| match v {
                Some(v) if v.abs() >= 100.0 => format!("{v:.0}"),
                Some(v) => format!("{v:.3}"),
                None => "n/a".to_string(),
            };
            write!(
                f,
                "\n  {name}: {} cycles, {} instructions, {} cache misses, {} branch misses",
                value(side.cycles_per_op),
                value(side.instructions_per_op),
                value(side.cache_misses_per_op),
                value(side.branch_misses_per_op),
            )?;
            if side.multiplexed_batches > 0 {
                write!(
                    f,
                    " ({} of {} batches multiplexed, extrapolated)",
                    side.multiplexed_batches, side.batches
                )?;
            }
        }
        for failure in &self.failures {
            write!(f, "\n  {} unavailable: {}", failure.counter, failure.reason)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delta(cycles: u64, instructions: u64) -> CounterDelta {
        CounterDelta {
            cycles: Some(cycles),
            instructions: Some(instructions),
            cache_misses: None,
            branch_misses: Some(cycles / 100),
            enabled_ns: 1_000,
            running_ns: 1_000,
        }
    }

    #[test]
    fn delta_subtracts_and_refuses_to_go_backwards() {
        let before = CounterReading {
            cycles: Some(100),
            instructions: Some(50),
            cache_misses: None,
            branch_misses: Some(10),
            enabled_ns: 1_000,
            running_ns: 900,
        };
        let after = CounterReading {
            cycles: Some(350),
            instructions: Some(40),
            cache_misses: Some(3),
            branch_misses: Some(12),
            enabled_ns: 3_000,
            running_ns: 1_900,
        };
        let d = CounterSet::delta(&before, &after);
        assert_eq!(d.cycles, Some(250));
        assert_eq!(
            d.instructions, None,
            "a count that went backwards is unknown"
        );
        assert_eq!(d.cache_misses, None, "missing before means unknown");
        assert_eq!(d.branch_misses, Some(2));
        assert_eq!((d.enabled_ns, d.running_ns), (2_000, 1_000));
        assert!(d.multiplexed());
        assert_eq!(d.scaled(Counter::Cycles), Some(500.0));
        // Times saturate instead of wrapping.
        let back = CounterSet::delta(&after, &before);
        assert_eq!((back.enabled_ns, back.running_ns), (0, 0));
        assert_eq!(back.scaled(Counter::Cycles), None);
    }

    #[test]
    fn medians_per_operation() {
        // Odd count: the middle value; per op = count / 10.
        let a = [delta(3_000, 100), delta(1_000, 300), delta(2_000, 200)];
        // Even count: the mean of the two middle values.
        let b = [
            delta(1_000, 10),
            delta(4_000, 40),
            delta(2_000, 20),
            delta(3_000, 30),
        ];
        let s = CounterSummary::from_batches(&a, &b, 10);
        assert_eq!(s.status, CounterStatus::Available);
        assert_eq!(s.a.cycles_per_op, Some(200.0));
        assert_eq!(s.a.instructions_per_op, Some(20.0));
        assert_eq!(s.a.cache_misses_per_op, None);
        assert_eq!(s.a.branch_misses_per_op, Some(2.0));
        assert_eq!(s.b.cycles_per_op, Some(250.0));
        assert_eq!(s.b.instructions_per_op, Some(2.5));
        assert_eq!((s.a.batches, s.b.batches), (3, 4));
        assert_eq!(s.a.multiplexed_batches, 0);
        assert_eq!(s.inner_loops, 10);
    }

    #[test]
    fn multiplexed_batches_are_extrapolated_and_idle_ones_skipped() {
        let mut half = delta(1_000, 1_000);
        half.running_ns = 500; // ran half of the time: counts double
        let mut never = delta(0, 0);
        never.running_ns = 0; // never scheduled: contributes nothing
        let s = CounterSummary::from_batches(&[half, never], &[], 1);
        assert_eq!(s.a.cycles_per_op, Some(2_000.0));
        assert_eq!(s.a.multiplexed_batches, 2);
        assert_eq!(s.b, SideCounters::default());
        assert!(s.is_available());
    }

    #[test]
    fn bad_input_is_unavailable_not_a_panic() {
        let a = [delta(1, 1)];
        let zero = CounterSummary::from_batches(&a, &a, 0);
        assert!(!zero.is_available());
        assert!(zero.to_string().contains("inner_loops is 0"));
        let empty = CounterSummary::from_batches(&[], &[], 10);
        assert!(matches!(empty.status, CounterStatus::Unavailable { .. }));
        let never = CounterDelta::default(); // all None, never ran
        let s = CounterSummary::from_batches(&[never], &[never], 10);
        assert!(!s.is_available());
        assert_eq!(s.a.cycles_per_op, None);
    }

    #[test]
    fn display_available_and_unavailable() {
        let s = CounterSummary::from_batches(&[delta(2_000, 3_000)], &[delta(1_000, 500)], 10);
        let text = s.to_string();
        assert!(
            text.contains("A: 200 cycles, 300 instructions, n/a cache misses"),
            "{text}"
        );
        assert!(
            text.contains("B: 100 cycles, 50.000 instructions"),
            "{text}"
        );
        let u = CounterSummary::unavailable("no PMU here");
        assert_eq!(u.to_string(), "Hardware counters: unavailable: no PMU here");
        assert_eq!(
            Unavailable { reason: "x".into() }.to_string(),
            "unavailable: x"
        );
    }

    #[test]
    fn status_serialises_with_a_tag() {
        let json =
            serde_json::to_string(&CounterStatus::Unavailable { reason: "r".into() }).unwrap();
        assert_eq!(json, r#"{"state":"unavailable","reason":"r"}"#);
        assert_eq!(
            serde_json::to_string(&CounterStatus::Available).unwrap(),
            r#"{"state":"available"}"#
        );
    }
}
