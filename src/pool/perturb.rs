//! Heap perturbation: moves where a process's later allocations land, so that processes of a
//! pooled comparison sample different memory layouts instead of repeating one.
//!
//! Two moments: [`perturb_heap`] at the start of the pool's closure, and an early perturbation
//! before `main` (a constructor that runs only in pool children), which reaches the fixtures a
//! program builds in `main` before it calls [`run`](super::run): heap filler, and an anonymous
//! mapping of random size that shifts where later large blocks land relative to 2 MiB pages.
//! The pool cannot alternate the order of fixtures it does not build; docs/background.md ("Fixtures
//! built in a fixed order") measures what the early perturbation does for them.

use std::sync::OnceLock;

use crate::rng::Rng;

/// Block sizes that get filler: every small size class of common allocators (16-byte steps to
/// 256, then powers of two and their midpoints to 32 KiB).
const SIZE_CLASSES: &[usize] = &[
    8, 16, 32, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 640, 768, 896,
    1024, 1280, 1536, 1792, 2048, 2560, 3072, 3584, 4096, 6144, 8192, 12288, 16384, 24576, 32768,
];

/// Most filler blocks per size class (exclusive): 0 to 63, half of them touched.
const MAX_BLOCKS_PER_CLASS: u64 = 64;

/// Largest single filler block (16 MiB), allocated once and left mostly untouched.
pub(crate) const MAX_LARGE_FILLER: usize = 16 << 20;

/// The filler of [`perturb_heap`]: keep it alive for as long as the layout should stay
/// perturbed (dropping it frees the filler and lets later allocations reuse the holes).
#[derive(Debug)]
pub struct HeapPerturbation {
    seed: u64,
    blocks: Vec<Vec<u8>>,
    bytes: u64,
}

impl HeapPerturbation {
    /// The seed the filler was drawn from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Bytes of filler allocated (touched or not).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Number of filler blocks.
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }
}

/// Allocates a pseudo-random amount of filler in every small size class, half of it written to
/// and half only reserved, plus one large block of up to `MAX_LARGE_FILLER` (16 << 20) whose pages stay
/// mostly untouched, all drawn from `seed` (any value, 0 included). Call it at process start,
/// before building fixtures, and keep the returned guard alive. It moves only the heap; the
/// pool also varies the environment's size (which moves the stack) and the order in which
/// fixtures are built. After Curtsinger and Berger's STABILIZER (2013). About a millisecond and
/// a few MiB of resident memory.
///
/// ```
/// let filler = rtcompare::support::pool::perturb_heap(7);
/// assert!(filler.bytes() > 0);
/// assert_eq!(rtcompare::support::pool::perturb_heap(7).bytes(), filler.bytes()); // same seed, same sizes
/// ```
pub fn perturb_heap(seed: u64) -> HeapPerturbation {
    // Stream 0x9E37 keeps the filler independent of any other use of the same seed.
    let mut rng = Rng::new(crate::rng::derive_seed(seed, 0x9E37) | 1);
    let mut blocks = Vec::new();
    let mut bytes = 0u64;
    for &size in SIZE_CLASSES {
        let count = rng.below(MAX_BLOCKS_PER_CLASS);
        for i in 0..count {
            let mut v: Vec<u8> = Vec::with_capacity(size);
            if i.is_multiple_of(2) {
                // Touched: its pages are resident and its cache lines have been written.
                v.resize(size, 0xA5);
            }
            bytes += size as u64;
            blocks.push(v);
        }
    }
    let large = rng.below(MAX_LARGE_FILLER as u64 + 1) as usize;
    if large > 0 {
        let mut v: Vec<u8> = Vec::with_capacity(large);
        // Touch only the first page, so the block moves the heap without costing its size in
        // resident memory.
        v.resize(large.min(4096), 0x5A);
        bytes += large as u64;
        blocks.push(v);
    }
    std::hint::black_box(&blocks);
    crate::alloc::harness_holds(bytes, true);
    HeapPerturbation {
        seed,
        blocks,
        bytes,
    }
}

/// Largest early mapping (2 MiB, one huge page): enough to shift later large blocks to any
/// offset within a huge page.
#[cfg(target_os = "linux")]
const MAX_EARLY_MAPPING: u64 = 2 << 20;

/// What the early perturbation did in this process: `(filler bytes, mapping bytes)`; unset
/// outside pool children and when the pool's perturbation is off.
static EARLY: OnceLock<(u64, u64)> = OnceLock::new();

/// Resident memory of this pool child before `main` (after the early perturbation), in bytes.
static RESIDENT_AT_START: OnceLock<u64> = OnceLock::new();

/// This process's resident memory in bytes (Linux: `/proc/self/statm`), `None` elsewhere or
/// when it cannot be read.
#[cfg(target_os = "linux")]
pub(crate) fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(page).ok().map(|p| pages * p)
}

/// Off Linux there is no `/proc/self/statm`: unknown.
#[cfg(not(target_os = "linux"))]
pub(crate) fn resident_bytes() -> Option<u64> {
    None
}

/// Resident memory the program added between the start of this pool child and now, in bytes:
/// what it built before calling the pool. `None` outside pool children or off Linux.
pub(crate) fn resident_added_since_start() -> Option<u64> {
    let start = *RESIDENT_AT_START.get()?;
    resident_bytes().map(|now| now.saturating_sub(start))
}

/// The early perturbation of this process, `(heap filler bytes, mapping bytes)`, or `None`
/// when none ran (not a pool child, or perturbation off). Reading it from the child's report
/// also keeps the constructor's object linked in.
pub(crate) fn early_perturbation() -> Option<(u64, u64)> {
    EARLY.get().copied()
}

// Runs before `main` in every program that links the crate, and does something only in a pool
// child whose pool perturbs: the environment names it (see `super::ChildSpec`).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static EARLY_CONSTRUCTOR: extern "C" fn() = early_constructor;

#[cfg(target_os = "linux")]
extern "C" fn early_constructor() {
    // Nothing here may unwind across the C boundary, and std is initialised enough for the
    // environment and the allocator (glibc runs constructors after its own set-up).
    let _ = std::panic::catch_unwind(perturb_early);
}

#[cfg(target_os = "linux")]
fn perturb_early() {
    let Some(spec) = super::ChildSpec::from_env() else {
        return;
    };
    if !spec.perturb {
        if let Some(r) = resident_bytes() {
            let _ = RESIDENT_AT_START.set(r);
        }
        return;
    }
    let seed = crate::rng::derive_seed(crate::rng::derive_seed(spec.seed, 0xEA), spec.index as u64);
    let filler = perturb_heap(seed);
    let mut rng = Rng::new(crate::rng::derive_seed(seed, 1) | 1);
    let pages = rng.below(MAX_EARLY_MAPPING / 4096 + 1);
    let len = (pages * 4096) as usize;
    let mapped = if len > 0 {
        // SAFETY: an anonymous private mapping that is never touched, never unmapped, and
        // never read through: it only occupies address space.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED { 0 } else { len as u64 }
    } else {
        0
    };
    let _ = EARLY.set((filler.bytes(), mapped));
    if let Some(r) = resident_bytes() {
        let _ = RESIDENT_AT_START.set(r);
    }
    // The filler must outlive everything the program builds after it.
    std::mem::forget(filler);
}

impl Drop for HeapPerturbation {
    fn drop(&mut self) {
        crate::alloc::harness_holds(self.bytes, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filler_is_reproducible_and_seed_dependent() {
        let a = perturb_heap(1);
        let b = perturb_heap(1);
        let c = perturb_heap(2);
        assert_eq!((a.bytes(), a.blocks()), (b.bytes(), b.blocks()));
        assert_ne!(a.bytes(), c.bytes());
        assert_eq!(a.seed(), 1);
        // Every class gets 0..63 blocks and at most one large block.
        let most: u64 = SIZE_CLASSES.iter().map(|&s| s as u64 * 63).sum();
        for p in [&a, &c, &perturb_heap(0)] {
            assert!(p.bytes() <= most + MAX_LARGE_FILLER as u64, "{}", p.bytes());
            assert!(p.blocks() <= SIZE_CLASSES.len() * 63 + 1);
        }
    }
}
