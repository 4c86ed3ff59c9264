//! Allocations per operation and the live heap, from a counting global allocator.
//!
//! # The problem
//!
//! Time is the noisiest thing a benchmark can measure; the number of allocations an operation
//! makes is one of the quietest. When two candidates differ in time, "B allocates once per
//! operation and A does not" often explains why, and it does not change from one run to the
//! next. Rust has no garbage collector whose statistics would say how large the heap is, and the
//! peak resident set size, the one figure the operating system gives for free, only ever grows:
//! a comparison sees how much it grew *during* the comparison, not the fixtures a benchmark
//! built before calling [`compare`](crate::compare()), which is the usual place for a large data
//! set.
//!
//! # The allocator
//!
//! [`Counting`] wraps [`std::alloc::System`] and counts every call with atomic counters: no
//! locks, nothing allocated inside the allocator. Install it in the binary that runs the
//! comparison (a benchmark, an example, an integration test: each is its own binary):
//!
//! ```
//! #[global_allocator]
//! static ALLOC: rtcompare::alloc::Counting = rtcompare::alloc::Counting::new();
//!
//! fn main() {
//!     let before = rtcompare::alloc::snapshot().expect("Counting is installed");
//!     let v: Vec<u64> = Vec::with_capacity(100);
//!     let after = rtcompare::alloc::snapshot().unwrap();
//!     let d = after.delta_since(&before);
//!     assert_eq!((d.allocations, d.bytes_allocated), (1, 800));
//!     drop(v);
//! }
//! ```
//!
//! Once it is installed, [`compare`](crate::compare()) reads the counters just outside the two
//! clock reads of every measured batch (never inside the timed region) and reports each side's
//! median allocations and bytes per operation in the report's
//! [`resources.allocations`](crate::compare::report::Resources::allocations), and the live heap at the
//! start, at its peak and at the end of the comparison in
//! [`resources.live_heap`](crate::compare::report::Resources::live_heap). The large-working-set warning
//! then judges the live heap instead of the growth of the resident set. Without it both fields
//! are `None` and nothing else changes.
//!
//! # What the counts mean
//!
//! - The counters are **process-wide**: an allocation by another thread during a batch counts
//!   for that batch. The per-operation figures are medians over batches, so an occasional
//!   stray allocation does not move them; run comparisons alone for exact figures.
//! - Bytes are the sizes **requested** ([`Layout::size`]), not what the system allocator rounds
//!   them up to.
//! - A `realloc` counts as a reallocation, not as an allocation and a deallocation; its growth
//!   counts as bytes allocated and its shrinkage as bytes deallocated, so
//!   `bytes_allocated − bytes_deallocated` is always the live heap.
//! - The cost: two uncontended atomic additions per allocation and two per deallocation, kept
//!   that few because every addition shows in the cost of a small allocation (docs/background.md,
//!   section "The counting allocator: its cost per allocation on this machine").

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use serde::{Deserialize, Serialize};

use crate::display::{Bytes, Count};

/// A global allocator that counts allocations, reallocations, deallocations and bytes, and
/// keeps the live heap and its peak, on top of [`System`].
///
/// Install it once per binary with `#[global_allocator]` (see the [module docs](self)); then
/// [`snapshot`] reads the counts and [`compare`](crate::compare()) reports allocations per
/// operation and the live heap. All values share one set of process-wide counters: calling a
/// `Counting`'s [`GlobalAlloc`] methods directly counts too, and marks it installed.
///
/// Every method forwards to [`System`] and, when that succeeds, updates the counters with
/// relaxed atomic operations (no locks, no allocation). A failed allocation (null) counts
/// nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counting {
    _private: (),
}

impl Counting {
    /// A counting allocator, ready for `#[global_allocator] static A: Counting = Counting::new();`.
    pub const fn new() -> Self {
        Counting { _private: () }
    }
}

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract, and returns what `System` returned; the counting around it touches
// only atomics and never allocates or unwinds.
unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            COUNTERS.on_alloc(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            COUNTERS.on_alloc(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator, that is by `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        COUNTERS.on_dealloc(layout.size());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`; the caller upholds the rest.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            COUNTERS.on_realloc(layout.size(), new_size);
        }
        p
    }
}

/// The process-wide counters every [`Counting`] updates.
static COUNTERS: Counters = Counters::new();

/// The counters themselves, on one cache line of their own: every allocation touches most of
/// them, and nothing else should share the line they bounce on.
///
/// The live heap is not a counter of its own but `bytes_allocated − bytes_deallocated`, so an
/// allocation costs two atomic additions and a deallocation two: the designs that kept a live
/// counter, updated on both paths, were measurably slower on small blocks (docs/background.md,
/// section "The counting allocator: its cost per allocation on this machine").
#[repr(align(64))]
struct Counters {
    installed: AtomicBool,
    allocations: AtomicU64,
    reallocations: AtomicU64,
    deallocations: AtomicU64,
    bytes_allocated: AtomicU64,
    bytes_deallocated: AtomicU64,
    peak: AtomicU64,
}

impl Counters {
    const fn new() -> Self {
        Counters {
            installed: AtomicBool::new(false),
            allocations: AtomicU64::new(0),
            reallocations: AtomicU64::new(0),
            deallocations: AtomicU64::new(0),
            bytes_allocated: AtomicU64::new(0),
            bytes_deallocated: AtomicU64::new(0),
            peak: AtomicU64::new(0),
        }
    }

    #[inline]
    fn on_alloc(&self, size: usize) {
        // A load first: after the first call the flag's line is only read.
        if !self.installed.load(Relaxed) {
            self.installed.store(true, Relaxed);
        }
        self.allocations.fetch_add(1, Relaxed);
        self.grow(size as u64);
    }

    #[inline]
    fn on_dealloc(&self, size: usize) {
        self.deallocations.fetch_add(1, Relaxed);
        self.bytes_deallocated.fetch_add(size as u64, Relaxed);
    }

    #[inline]
    fn on_realloc(&self, old: usize, new: usize) {
        self.reallocations.fetch_add(1, Relaxed);
        if new >= old {
            self.grow((new - old) as u64);
        } else {
            self.bytes_deallocated
                .fetch_add((old - new) as u64, Relaxed);
        }
    }

    /// Adds `by` to the bytes allocated and raises the peak if the live heap passed it. The
    /// peak is only written when it moves, so the common case costs two loads.
    #[inline]
    fn grow(&self, by: u64) {
        let allocated = self.bytes_allocated.fetch_add(by, Relaxed).wrapping_add(by);
        // Saturating: a free on another thread may be counted before its allocation is seen.
        let live = allocated.saturating_sub(self.bytes_deallocated.load(Relaxed));
        if live > self.peak.load(Relaxed) {
            self.peak.fetch_max(live, Relaxed);
        }
    }

    /// The live heap now, in bytes.
    fn live(&self) -> u64 {
        // Deallocated first: every block freed was allocated before, so reading the
        // allocations second never leaves fewer allocated bytes than freed ones behind.
        let deallocated = self.bytes_deallocated.load(Relaxed);
        self.bytes_allocated
            .load(Relaxed)
            .saturating_sub(deallocated)
    }

    /// Sets the peak to the live heap now and returns it.
    fn reset_peak(&self) -> u64 {
        let live = self.live();
        self.peak.store(live, Relaxed);
        // Another thread may have grown the heap between the read and the store.
        self.peak.fetch_max(self.live(), Relaxed);
        live
    }

    fn snapshot(&self) -> AllocSnapshot {
        let bytes_deallocated = self.bytes_deallocated.load(Relaxed);
        let bytes_allocated = self.bytes_allocated.load(Relaxed);
        let live_bytes = bytes_allocated.saturating_sub(bytes_deallocated);
        AllocSnapshot {
            allocations: self.allocations.load(Relaxed),
            reallocations: self.reallocations.load(Relaxed),
            deallocations: self.deallocations.load(Relaxed),
            bytes_allocated,
            bytes_deallocated,
            live_bytes,
            peak_live_bytes: self.peak.load(Relaxed).max(live_bytes),
        }
    }
}

/// Whether a [`Counting`] allocator is installed (has counted an allocation) in this process.
///
/// A `Counting` knows it is installed from its first allocation. If none has been counted yet,
/// this makes one small allocation of its own and looks again, so the answer is exact even
/// before the program allocated anything: `false` means the global allocator is not
/// `Counting`.
pub(crate) fn is_installed() -> bool {
    if COUNTERS.installed.load(Relaxed) {
        return true;
    }
    drop(std::hint::black_box(Box::new(0u8)));
    COUNTERS.installed.load(Relaxed)
}

/// Heap bytes the harness itself holds on purpose (a pool child's heap-perturbation filler, a
/// cold run's eviction buffer):
/// the large-working-set warning leaves them out of the live heap.
static HARNESS_BYTES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts `bytes` more (or, with `held == false`, fewer) of the harness's own filler.
pub(crate) fn harness_holds(bytes: u64, held: bool) {
    if held {
        HARNESS_BYTES.fetch_add(bytes, Relaxed);
    } else {
        let _ = HARNESS_BYTES.fetch_update(Relaxed, Relaxed, |b| Some(b.saturating_sub(bytes)));
    }
}

/// The harness's own filler now in the heap, in bytes.
pub(crate) fn harness_bytes() -> u64 {
    HARNESS_BYTES.load(Relaxed)
}

/// The counters now, or `None` when no [`Counting`] allocator is installed.
///
/// Each field is exact; the fields are read one after another, so while other threads allocate
/// they may describe slightly different moments (and a peak taken while several threads
/// allocate and free at once can be off by the bytes in flight between them).
pub fn snapshot() -> Option<AllocSnapshot> {
    is_installed().then(|| COUNTERS.snapshot())
}

/// Sets the peak live heap to the live heap now and returns that figure in bytes; `None` (and
/// nothing changed) when no [`Counting`] allocator is installed.
///
/// [`compare`](crate::compare()) calls it when it starts, so the peak it reports is the peak
/// during the comparison; a peak you track yourself across a comparison is reset by it.
pub fn reset_peak() -> Option<u64> {
    is_installed().then(|| COUNTERS.reset_peak())
}

/// The counters of a [`Counting`] allocator at one moment, cumulative since the process
/// started (the peak since the last [`reset_peak`]). Counts are calls, bytes are requested
/// sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AllocSnapshot {
    /// Successful `alloc` and `alloc_zeroed` calls.
    pub allocations: u64,
    /// Successful `realloc` calls (not counted as allocations or deallocations).
    pub reallocations: u64,
    /// `dealloc` calls.
    pub deallocations: u64,
    /// Bytes allocated: the sizes of new blocks plus the growth of reallocated ones.
    pub bytes_allocated: u64,
    /// Bytes deallocated: the sizes of freed blocks plus the shrinkage of reallocated ones.
    pub bytes_deallocated: u64,
    /// Bytes live now: `bytes_allocated − bytes_deallocated`.
    pub live_bytes: u64,
    /// The largest `live_bytes` since the process started or the last [`reset_peak`].
    pub peak_live_bytes: u64,
}

impl AllocSnapshot {
    /// What happened between `earlier` and this snapshot: the differences of the cumulative
    /// counts. A count that went backwards (snapshots passed in the wrong order) gives 0, never
    /// a wrapped-around figure.
    pub fn delta_since(&self, earlier: &AllocSnapshot) -> AllocDelta {
        AllocDelta {
            allocations: self.allocations.saturating_sub(earlier.allocations),
            reallocations: self.reallocations.saturating_sub(earlier.reallocations),
            deallocations: self.deallocations.saturating_sub(earlier.deallocations),
            bytes_allocated: self.bytes_allocated.saturating_sub(earlier.bytes_allocated),
            bytes_deallocated: self
                .bytes_deallocated
                .saturating_sub(earlier.bytes_deallocated),
        }
    }
}

impl fmt::Display for AllocSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} allocations ({}), {} reallocations, {} deallocations ({}); live {}, peak {}",
            self.allocations,
            Bytes(self.bytes_allocated as f64),
            self.reallocations,
            self.deallocations,
            Bytes(self.bytes_deallocated as f64),
            Bytes(self.live_bytes as f64),
            Bytes(self.peak_live_bytes as f64),
        )
    }
}

/// The allocator calls between two [`AllocSnapshot`]s, for example around one batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AllocDelta {
    /// `alloc` and `alloc_zeroed` calls.
    pub allocations: u64,
    /// `realloc` calls.
    pub reallocations: u64,
    /// `dealloc` calls.
    pub deallocations: u64,
    /// Bytes allocated (new blocks plus growth by `realloc`).
    pub bytes_allocated: u64,
    /// Bytes deallocated (freed blocks plus shrinkage by `realloc`).
    pub bytes_deallocated: u64,
}

/// One side's allocations per operation over the measured batches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SideAllocations {
    /// Median over batches of `allocations / inner_loops`.
    pub allocations_per_op: f64,
    /// Median over batches of `bytes_allocated / inner_loops`, in bytes.
    pub bytes_per_op: f64,
    /// Median over batches of `reallocations / inner_loops`.
    pub reallocations_per_op: f64,
    /// Median over batches of `deallocations / inner_loops`.
    pub deallocations_per_op: f64,
    /// All allocations of all batches over all their operations: the amortised figure, which
    /// sees an allocation made once every few batches that the median does not.
    pub mean_allocations_per_op: f64,
    /// All bytes allocated by all batches over all their operations, in bytes.
    pub mean_bytes_per_op: f64,
    /// Batches counted.
    pub batches: usize,
}

impl SideAllocations {
    /// `None` for no batches or `inner_loops == 0`.
    fn from_batches(batches: &[AllocDelta], inner_loops: u64) -> Option<Self> {
        if batches.is_empty() || inner_loops == 0 {
            return None;
        }
        let n = inner_loops as f64;
        let median_of = |f: fn(&AllocDelta) -> u64| {
            let per_op: Vec<f64> = batches.iter().map(|d| f(d) as f64 / n).collect();
            crate::stats::median(&per_op).ok()
        };
        let ops = n * batches.len() as f64;
        let total = |f: fn(&AllocDelta) -> u64| batches.iter().map(|d| f(d) as f64).sum::<f64>();
        Some(SideAllocations {
            allocations_per_op: median_of(|d| d.allocations)?,
            bytes_per_op: median_of(|d| d.bytes_allocated)?,
            reallocations_per_op: median_of(|d| d.reallocations)?,
            deallocations_per_op: median_of(|d| d.deallocations)?,
            mean_allocations_per_op: total(|d| d.allocations) / ops,
            mean_bytes_per_op: total(|d| d.bytes_allocated) / ops,
            batches: batches.len(),
        })
    }
}

/// Both sides' allocations per operation, counted around every measured batch (outside the
/// timed region) when a [`Counting`] allocator is installed. Like hardware counters, they
/// explain a difference; they never decide the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AllocSummary {
    /// Side A.
    pub a: SideAllocations,
    /// Side B.
    pub b: SideAllocations,
    /// Operations per batch the counts were divided by.
    pub inner_loops: u64,
}

impl AllocSummary {
    /// Summarises per-batch deltas of side A (`a`) and side B (`b`), each batch running
    /// `inner_loops` operations: per side, the medians over batches of each count divided by
    /// `inner_loops`, and the amortised means. Pure; never panics.
    ///
    /// Returns `None` on input that has nothing to summarise: `inner_loops == 0`, or no batch on
    /// either side.
    ///
    /// ```
    /// use rtcompare::alloc::{AllocDelta, AllocSummary};
    /// let one = AllocDelta { allocations: 10, deallocations: 10, bytes_allocated: 8_000, ..AllocDelta::default() };
    /// let s = AllocSummary::from_batches(&[one; 3], &[AllocDelta::default(); 3], 10).unwrap();
    /// assert_eq!((s.a.allocations_per_op, s.a.bytes_per_op), (1.0, 800.0));
    /// assert_eq!(s.b.allocations_per_op, 0.0);
    /// assert!(AllocSummary::from_batches(&[one], &[], 10).is_none());
    /// ```
    pub fn from_batches(a: &[AllocDelta], b: &[AllocDelta], inner_loops: u64) -> Option<Self> {
        Some(AllocSummary {
            a: SideAllocations::from_batches(a, inner_loops)?,
            b: SideAllocations::from_batches(b, inner_loops)?,
            inner_loops,
        })
    }
}

impl fmt::Display for AllocSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Allocations (median per operation, counted around each measured batch; they \
             explain, they do not decide):"
        )?;
        for (name, s) in [("A", &self.a), ("B", &self.b)] {
            write!(
                f,
                "\n  {name}: {} ({}), {}, {}",
                Counted(s.allocations_per_op, "allocation"),
                Bytes(s.bytes_per_op),
                Counted(s.reallocations_per_op, "reallocation"),
                Counted(s.deallocations_per_op, "deallocation"),
            )?;
            if s.mean_allocations_per_op != s.allocations_per_op
                || s.mean_bytes_per_op != s.bytes_per_op
            {
                write!(
                    f,
                    "; amortised over all batches {} ({})",
                    Counted(s.mean_allocations_per_op, "allocation"),
                    Bytes(s.mean_bytes_per_op)
                )?;
            }
        }
        Ok(())
    }
}

/// The live heap during a comparison, from a [`Counting`] allocator: everything the process
/// holds, fixtures built before the comparison included, and rtcompare's own working memory
/// (samples and bootstrap replicates, well under a mebibyte at the defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveHeap {
    /// Live bytes when the comparison started (the peak was reset to it).
    pub start_bytes: u64,
    /// The largest live heap during the comparison, in bytes.
    pub peak_bytes: u64,
    /// Live bytes when the comparison ended.
    pub end_bytes: u64,
}

impl fmt::Display for LiveHeap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Live heap: {} at the start, {} at its peak, {} at the end.",
            Bytes(self.start_bytes as f64),
            Bytes(self.peak_bytes as f64),
            Bytes(self.end_bytes as f64)
        )
    }
}

/// A count per operation followed by its noun, singular only for exactly one.
struct Counted(f64, &'static str);

impl fmt::Display for Counted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.0 == 1.0 { "" } else { "s" };
        write!(f, "{} {}{plural}", Count(self.0), self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_follow_alloc_realloc_and_dealloc() {
        // A private set of counters: the process-wide ones belong to the global allocator.
        let c = Counters::new();
        assert!(!c.installed.load(Relaxed));
        c.on_alloc(800);
        c.on_alloc(200);
        assert!(c.installed.load(Relaxed));
        let s = c.snapshot();
        assert_eq!((s.allocations, s.bytes_allocated), (2, 1_000));
        assert_eq!((s.live_bytes, s.peak_live_bytes), (1_000, 1_000));
        // Growth by realloc is allocated bytes, shrinkage deallocated bytes.
        c.on_realloc(200, 1_200);
        c.on_realloc(1_200, 100);
        let s = c.snapshot();
        assert_eq!(s.reallocations, 2);
        assert_eq!(s.allocations, 2, "a realloc is not an allocation");
        assert_eq!((s.bytes_allocated, s.bytes_deallocated), (2_000, 1_100));
        assert_eq!((s.live_bytes, s.peak_live_bytes), (900, 2_000));
        c.on_dealloc(800);
        c.on_dealloc(100);
        let s = c.snapshot();
        assert_eq!((s.deallocations, s.bytes_deallocated), (2, 2_000));
        assert_eq!(s.live_bytes, 0);
        assert_eq!(s.live_bytes, s.bytes_allocated - s.bytes_deallocated);
        assert_eq!(s.peak_live_bytes, 2_000);
        // Reset: the peak restarts from the live heap now.
        c.on_alloc(50);
        assert_eq!(c.reset_peak(), 50);
        assert_eq!(c.snapshot().peak_live_bytes, 50);
        c.on_alloc(10);
        assert_eq!(c.snapshot().peak_live_bytes, 60);
    }

    #[test]
    fn deltas_saturate_instead_of_wrapping() {
        let c = Counters::new();
        let before = c.snapshot();
        c.on_alloc(64);
        c.on_dealloc(64);
        let after = c.snapshot();
        let d = after.delta_since(&before);
        assert_eq!(
            d,
            AllocDelta {
                allocations: 1,
                reallocations: 0,
                deallocations: 1,
                bytes_allocated: 64,
                bytes_deallocated: 64,
            }
        );
        assert_eq!(before.delta_since(&after), AllocDelta::default());
    }

    #[test]
    fn not_installed_in_this_binary() {
        // The unit tests run on the system allocator: no Counting, so no figures.
        assert!(!is_installed());
        assert_eq!(snapshot(), None);
        assert_eq!(reset_peak(), None);
    }

    #[test]
    fn summary_is_medians_and_amortised_means() {
        let batch = |allocations, bytes| AllocDelta {
            allocations,
            bytes_allocated: bytes,
            deallocations: allocations,
            bytes_deallocated: bytes,
            reallocations: 0,
        };
        // 100 operations per batch; one batch in five also grows a buffer once.
        let a: Vec<AllocDelta> = (0..5)
            .map(|i| {
                if i == 0 {
                    batch(101, 80_000 + 4_096)
                } else {
                    batch(100, 80_000)
                }
            })
            .collect();
        let b = vec![AllocDelta::default(); 5];
        let s = AllocSummary::from_batches(&a, &b, 100).unwrap();
        assert_eq!(s.a.allocations_per_op, 1.0);
        assert_eq!(s.a.bytes_per_op, 800.0);
        assert_eq!(s.a.deallocations_per_op, 1.0);
        assert!((s.a.mean_allocations_per_op - 501.0 / 500.0).abs() < 1e-12);
        assert!((s.a.mean_bytes_per_op - (400_000.0 + 4_096.0) / 500.0).abs() < 1e-9);
        assert_eq!(s.a.batches, 5);
        assert_eq!(s.b.allocations_per_op, 0.0);
        assert_eq!(s.inner_loops, 100);
        let text = s.to_string();
        assert!(
            text.contains("A: 1 allocation (800 B), 0 reallocations, 1 deallocation;"),
            "{text}"
        );
        assert!(
            text.contains("amortised over all batches 1.002 allocations (808.2 B)"),
            "{text}"
        );
        assert!(
            text.ends_with("B: 0 allocations (0 B), 0 reallocations, 0 deallocations"),
            "{text}"
        );
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<AllocSummary>(&json).unwrap(), s);
        // Nothing to summarise: None, never a panic or NaN.
        assert!(AllocSummary::from_batches(&a, &b, 0).is_none());
        assert!(AllocSummary::from_batches(&[], &b, 100).is_none());
        assert!(AllocSummary::from_batches(&a, &[], 100).is_none());
    }

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(Bytes(800.0).to_string(), "800 B");
        assert_eq!(Bytes(2.5).to_string(), "2.500 B");
        assert_eq!(Bytes(16.0 * 1024.0).to_string(), "16.0 KiB");
        assert_eq!(Bytes((24u64 << 20) as f64).to_string(), "24.0 MiB");
        assert_eq!(Bytes((3u64 << 30) as f64).to_string(), "3.0 GiB");
        let h = LiveHeap {
            start_bytes: 32 << 20,
            peak_bytes: 33 << 20,
            end_bytes: 32 << 20,
        };
        assert_eq!(
            h.to_string(),
            "Live heap: 32.0 MiB at the start, 33.0 MiB at its peak, 32.0 MiB at the end."
        );
    }
}
