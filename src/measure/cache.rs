//! Cold or warm caches: which of two experiments a comparison runs.
//!
//! The same code costs different amounts depending on what the caches hold when it starts. Run
//! it in a loop and its data stay in the caches from one batch to the next: that is the
//! **warm** cost, what the code costs when it is the only thing running. Run it after something
//! else has filled the caches with other data and every first touch goes to memory: that is the
//! **cold** cost, what it costs the first time. Neither is the noise in the other; they answer
//! two different questions, and a real program does some of each. A harness must not let the
//! difference arrive by accident, so rtcompare makes the mode an option ([`Cache`]), records it
//! in every [`Report`](crate::Report) and prints it in the report's summary.
//!
//! [`Cache::Warm`] is the default and changes nothing: batches follow one another and find the
//! caches as the previous batch left them. [`Cache::Cold`] **evicts** the caches before every
//! batch (warm-up, A/A validation and measurement alike), after the candidate's setup and
//! outside the timed region, by reading and writing one byte per cache line of a buffer
//! ([`Evictor`]) at least `EVICTION_FACTOR` (2) times the last-level cache. The buffer is
//! allocated once per comparison and its pages are faulted in when it is made, so the first
//! batch does not pay for that; it counts as the harness's own memory, never as the
//! candidates' working set.
//!
//! The size of the last-level cache is read from Linux's sysfs
//! (`/sys/devices/system/cpu/cpu0/cache/index*/{level,type,size}`: the largest level among the
//! data and unified caches). Where sysfs cannot tell (another system, a container hiding
//! `/sys`), the buffer is `FALLBACK_EVICTION_BYTES` (64 << 20) (64 MiB), twice the largest last-level
//! cache of common desktop and single-socket server parts.
//!
//! An eviction costs milliseconds, paid before every batch but never inside one (docs/background.md,
//! section "Warm and cold caches: two experiments").

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Where sysfs describes CPU 0's caches on Linux.
pub(crate) const SYSFS_CACHE_DIR: &str = "/sys/devices/system/cpu/cpu0/cache";

/// The eviction buffer is this many times the last-level cache (2): one pass over a buffer the
/// size of the cache leaves part of the old contents behind under the replacement policies of
/// real caches; two sizes displace all of it.
pub(crate) const EVICTION_FACTOR: u64 = 2;

/// Size of the eviction buffer in bytes when the last-level cache's size is unknown (64 MiB).
pub(crate) const FALLBACK_EVICTION_BYTES: u64 = 64 << 20;

/// Distance between two touches of the eviction buffer, in bytes, when sysfs does not report
/// the cache line size (64, the line of every current x86-64 and most ARM cores).
pub(crate) const DEFAULT_LINE_BYTES: u64 = 64;

/// What the caches hold when a batch starts: which of the two experiments is run.
///
/// ```
/// use rtcompare::{Cache, CompareOptions};
/// let opts = CompareOptions::default().cache(Cache::Cold);
/// assert_eq!(Cache::default(), Cache::Warm);
/// assert_eq!(Cache::Cold.to_string(), "cold");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Cache {
    /// Batches follow one another and find the caches as the previous batch left them: the
    /// cost of code running in a loop. Batches are calibrated against the clock. The default,
    /// and the protocol of every earlier version.
    #[default]
    Warm,
    /// The caches are evicted before every batch (outside the timed region, after the
    /// candidate's setup): the cost of code whose data are in memory but not in any cache.
    /// Batches hold **one operation** unless `inner_loops` is fixed, since the second operation
    /// of a batch would find the caches warm; a comparison runs fewer A/A runs by default
    /// ([`DEFAULT_COLD_VALIDATION_RUNS`](crate::compare::validate::DEFAULT_COLD_VALIDATION_RUNS)).
    Cold,
}

impl Cache {
    /// The mode's name in lower case (`"warm"`, `"cold"`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Cache::Warm => "warm",
            Cache::Cold => "cold",
        }
    }
}

impl fmt::Display for Cache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The caches of this machine as far as cold runs need them, and the eviction a cold run did.
///
/// ```
/// let info = rtcompare::support::measure::CacheInfo::detect();
/// // Twice the last-level cache, or the fallback when sysfs cannot tell.
/// assert!(info.buffer_bytes >= 2 * info.llc_bytes.unwrap_or(0));
/// assert_eq!(info.evictions, 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheInfo {
    /// Level of the last-level cache (3 on most machines); `None` if sysfs could not tell.
    pub llc_level: Option<u8>,
    /// Size of the last-level cache in bytes; `None` if sysfs could not tell.
    pub llc_bytes: Option<u64>,
    /// Bytes between two touches of the eviction buffer: the cache line size reported for the
    /// last-level cache, else `DEFAULT_LINE_BYTES` (64).
    pub line_bytes: u64,
    /// Size of the eviction buffer in bytes: `EVICTION_FACTOR` (2) × `llc_bytes`, or
    /// `FALLBACK_EVICTION_BYTES` (64 << 20) (64 MiB) when that is unknown.
    pub buffer_bytes: u64,
    /// How many times the buffer was swept: one per batch of a cold run (0 before any run).
    pub evictions: u64,
}

impl CacheInfo {
    /// Reads CPU 0's caches from sysfs (`SYSFS_CACHE_DIR`) and sizes the eviction buffer.
    /// Never fails: what sysfs cannot tell is `None`, and the buffer then takes its fallback
    /// size.
    pub fn detect() -> CacheInfo {
        CacheInfo::from_llc(last_level_cache_in(Path::new(SYSFS_CACHE_DIR)))
    }

    /// The figures for a known (or unknown) last-level cache, with no evictions yet.
    fn from_llc(llc: Option<LastLevelCache>) -> CacheInfo {
        CacheInfo {
            llc_level: llc.map(|c| c.level),
            llc_bytes: llc.map(|c| c.bytes),
            line_bytes: llc
                .and_then(|c| c.line_bytes)
                .filter(|&l| l > 0)
                .unwrap_or(DEFAULT_LINE_BYTES),
            buffer_bytes: eviction_buffer_bytes(llc.map(|c| c.bytes)),
            evictions: 0,
        }
    }
}

impl fmt::Display for CacheInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} buffer", Mib(self.buffer_bytes))?;
        match (self.llc_level, self.llc_bytes) {
            (Some(level), Some(bytes)) => write!(
                f,
                ", {EVICTION_FACTOR} times the {} L{level} cache",
                Mib(bytes)
            ),
            _ => f.write_str(", the fallback size: the last-level cache's size is unknown"),
        }
    }
}

/// Bytes shown in MiB, without decimals when whole.
struct Mib(u64);

impl fmt::Display for Mib {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mib = self.0 as f64 / (1u64 << 20) as f64;
        if self.0.is_multiple_of(1 << 20) {
            write!(f, "{mib:.0} MiB")
        } else {
            write!(f, "{mib:.1} MiB")
        }
    }
}

/// The size of this machine's last-level cache in bytes as sysfs reports it for CPU 0, or
/// `None` where it cannot tell (not Linux, `/sys` hidden, no data or unified cache listed).
pub fn last_level_cache_bytes() -> Option<u64> {
    last_level_cache_in(Path::new(SYSFS_CACHE_DIR)).map(|c| c.bytes)
}

/// The eviction buffer's size in bytes for a last-level cache of `llc_bytes`:
/// `EVICTION_FACTOR` (2) times it, or `FALLBACK_EVICTION_BYTES` (64 << 20) when it is `None` or zero.
pub(crate) fn eviction_buffer_bytes(llc_bytes: Option<u64>) -> u64 {
    match llc_bytes {
        Some(b) if b > 0 => b.saturating_mul(EVICTION_FACTOR),
        _ => FALLBACK_EVICTION_BYTES,
    }
}

/// A last-level cache as read from sysfs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LastLevelCache {
    pub(crate) level: u8,
    pub(crate) bytes: u64,
    pub(crate) line_bytes: Option<u64>,
}

/// The largest-level data or unified cache listed under `dir` (`index*/level`, `type`, `size`,
/// optionally `coherency_line_size`); the larger one when a level lists several. Entries with
/// a missing or unreadable file are skipped; `None` when none is left.
pub(crate) fn last_level_cache_in(dir: &Path) -> Option<LastLevelCache> {
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    let mut best: Option<LastLevelCache> = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with("index") {
            continue;
        }
        let p = entry.path();
        let Some(kind) = read(&p.join("type")) else {
            continue;
        };
        if !matches!(kind.trim(), "Data" | "Unified") {
            continue;
        }
        let Some(level) = read(&p.join("level")).and_then(|s| s.trim().parse::<u8>().ok()) else {
            continue;
        };
        let Some(bytes) = read(&p.join("size")).and_then(|s| parse_cache_size(&s)) else {
            continue;
        };
        let line_bytes = read(&p.join("coherency_line_size")).and_then(|s| parse_cache_size(&s));
        let this = LastLevelCache {
            level,
            bytes,
            line_bytes,
        };
        if best.is_none_or(|b| (level, bytes) > (b.level, b.bytes)) {
            best = Some(this);
        }
    }
    best
}

/// Parses a sysfs cache size (`"32K"`, `"32768K"`, `"1M"`, `"64"`) into bytes. The suffixes
/// K, M and G are binary (×1024). `None` for anything else, for zero and on overflow.
pub(crate) fn parse_cache_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (digits, scale) = match s.as_bytes().last()? {
        b'K' | b'k' => (&s[..s.len() - 1], 1u64 << 10),
        b'M' | b'm' => (&s[..s.len() - 1], 1 << 20),
        b'G' | b'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    let n: u64 = digits.trim().parse().ok()?;
    n.checked_mul(scale).filter(|&b| b > 0)
}

/// The eviction buffer of a cold run: allocated and faulted in once, swept before every batch.
///
/// A sweep reads and writes one byte per cache line with volatile accesses, so the compiler
/// can neither drop nor merge them, then fences so that its stores have left the store buffer
/// before the batch's clock is read. Writing, not only reading, matters: it leaves the caches
/// full of dirty lines of this buffer, as a real program's writes would.
pub struct Evictor {
    buffer: Box<[u8]>,
    info: CacheInfo,
    /// Runs after each sweep; tests use it to record the sweep and move a simulated clock.
    #[cfg(test)]
    hook: Option<Box<dyn FnMut()>>,
}

impl fmt::Debug for Evictor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Evictor")
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl Evictor {
    /// An evictor sized for this machine ([`CacheInfo::detect`]), its pages already touched.
    /// Allocates [`CacheInfo::buffer_bytes`] (64 MiB on a 32 MiB L3).
    pub fn new() -> Evictor {
        Evictor::for_info(CacheInfo::detect())
    }

    /// An evictor with a buffer as `info` sizes it (at least one line).
    pub(crate) fn for_info(mut info: CacheInfo) -> Evictor {
        info.line_bytes = info.line_bytes.max(1);
        info.buffer_bytes = info.buffer_bytes.max(info.line_bytes);
        let len = usize::try_from(info.buffer_bytes).unwrap_or(usize::MAX);
        let mut e = Evictor {
            buffer: vec![0u8; len].into_boxed_slice(),
            info,
            #[cfg(test)]
            hook: None,
        };
        // The harness's own memory, not the candidates' working set: the large-working-set
        // warning leaves it out of the live heap.
        crate::alloc::harness_holds(e.buffer.len() as u64, true);
        // Fault the pages in now, so that the first batch's sweep costs what every other does.
        e.sweep();
        e
    }

    /// Sweeps the buffer once (one read and one write per cache line) and counts the eviction.
    pub fn evict(&mut self) {
        self.sweep();
        self.info.evictions += 1;
        #[cfg(test)]
        if let Some(h) = self.hook.as_mut() {
            h();
        }
    }

    /// The cache figures and the evictions done so far.
    pub fn info(&self) -> CacheInfo {
        self.info
    }

    fn sweep(&mut self) {
        let step = usize::try_from(self.info.line_bytes).unwrap_or(usize::MAX);
        for i in (0..self.buffer.len()).step_by(step) {
            let cell = &mut self.buffer[i];
            // SAFETY: `cell` is a valid, aligned, exclusive reference to one byte.
            unsafe {
                let v = std::ptr::read_volatile(cell);
                std::ptr::write_volatile(cell, v.wrapping_add(1));
            }
        }
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
    }

    /// A small evictor whose `hook` runs after every sweep.
    #[cfg(test)]
    pub(crate) fn with_hook(bytes: u64, hook: impl FnMut() + 'static) -> Evictor {
        let mut e = Evictor::for_info(CacheInfo {
            llc_level: None,
            llc_bytes: None,
            line_bytes: DEFAULT_LINE_BYTES,
            buffer_bytes: bytes,
            evictions: 0,
        });
        e.hook = Some(Box::new(hook));
        e
    }
}

impl Drop for Evictor {
    fn drop(&mut self) {
        crate::alloc::harness_holds(self.buffer.len() as u64, false);
    }
}

impl Default for Evictor {
    fn default() -> Self {
        Evictor::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn sizes_parse_in_binary_units() {
        assert_eq!(parse_cache_size("32K"), Some(32 << 10));
        assert_eq!(parse_cache_size("32768K\n"), Some(32 << 20));
        assert_eq!(parse_cache_size("1M"), Some(1 << 20));
        assert_eq!(parse_cache_size("2G"), Some(2 << 30));
        assert_eq!(parse_cache_size(" 64 "), Some(64));
        for bad in [
            "",
            "K",
            "abc",
            "12X",
            "-1K",
            "0K",
            "1.5M",
            "99999999999999999999K",
        ] {
            assert_eq!(parse_cache_size(bad), None, "{bad:?}");
        }
    }

    /// A fake sysfs cache directory under the system's temporary directory.
    struct FakeSysfs(PathBuf);

    impl FakeSysfs {
        fn new(name: &str, entries: &[(&str, &[(&str, &str)])]) -> FakeSysfs {
            let root =
                std::env::temp_dir().join(format!("rtcompare-cache-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&root);
            std::fs::create_dir_all(&root).unwrap();
            for (index, files) in entries {
                let d = root.join(index);
                std::fs::create_dir_all(&d).unwrap();
                for (file, content) in *files {
                    std::fs::write(d.join(file), format!("{content}\n")).unwrap();
                }
            }
            FakeSysfs(root)
        }
    }

    impl Drop for FakeSysfs {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn the_largest_level_of_data_or_unified_caches_is_the_last() {
        let fake = FakeSysfs::new(
            "epyc",
            &[
                (
                    "index0",
                    &[("level", "1"), ("type", "Data"), ("size", "32K")],
                ),
                (
                    "index1",
                    &[("level", "1"), ("type", "Instruction"), ("size", "32K")],
                ),
                (
                    "index2",
                    &[("level", "2"), ("type", "Unified"), ("size", "1024K")],
                ),
                (
                    "index3",
                    &[
                        ("level", "3"),
                        ("type", "Unified"),
                        ("size", "32768K"),
                        ("coherency_line_size", "64"),
                    ],
                ),
                ("uevent", &[]),
            ],
        );
        let llc = last_level_cache_in(&fake.0).unwrap();
        assert_eq!(
            llc,
            LastLevelCache {
                level: 3,
                bytes: 32 << 20,
                line_bytes: Some(64)
            }
        );
        let info = CacheInfo::from_llc(Some(llc));
        assert_eq!(info.buffer_bytes, 64 << 20);
        assert_eq!(info.llc_level, Some(3));
        assert_eq!(
            info.to_string(),
            "64 MiB buffer, 2 times the 32 MiB L3 cache"
        );
    }

    #[test]
    fn instruction_caches_and_broken_entries_are_skipped() {
        let fake = FakeSysfs::new(
            "broken",
            &[
                (
                    "index0",
                    &[("level", "1"), ("type", "Data"), ("size", "48K")],
                ),
                (
                    "index1",
                    &[("level", "2"), ("type", "Instruction"), ("size", "8M")],
                ),
                // No size file: skipped.
                ("index2", &[("level", "3"), ("type", "Unified")]),
                // Unparsable size: skipped.
                (
                    "index3",
                    &[("level", "3"), ("type", "Unified"), ("size", "lots")],
                ),
            ],
        );
        let llc = last_level_cache_in(&fake.0).unwrap();
        assert_eq!((llc.level, llc.bytes, llc.line_bytes), (1, 48 << 10, None));
        assert_eq!(
            CacheInfo::from_llc(Some(llc)).line_bytes,
            DEFAULT_LINE_BYTES
        );
    }

    #[test]
    fn missing_sysfs_falls_back() {
        let missing = std::env::temp_dir().join("rtcompare-cache-no-such-dir");
        assert_eq!(last_level_cache_in(&missing), None);
        let empty = FakeSysfs::new("empty", &[]);
        assert_eq!(last_level_cache_in(&empty.0), None);
        let info = CacheInfo::from_llc(None);
        assert_eq!(info.buffer_bytes, FALLBACK_EVICTION_BYTES);
        assert_eq!((info.llc_level, info.llc_bytes), (None, None));
        assert!(info.to_string().contains("unknown"), "{info}");
        assert_eq!(eviction_buffer_bytes(Some(0)), FALLBACK_EVICTION_BYTES);
        assert_eq!(eviction_buffer_bytes(Some(8 << 20)), 16 << 20);
    }

    #[test]
    fn an_evictor_counts_its_sweeps_and_writes_every_line() {
        let mut e = Evictor::for_info(CacheInfo {
            llc_level: None,
            llc_bytes: None,
            line_bytes: 64,
            buffer_bytes: 4096 + 1,
            evictions: 0,
        });
        e.evict();
        e.evict();
        assert_eq!(e.info().evictions, 2);
        // One construction sweep and two evictions: every line's first byte went up by 3.
        assert!(e.buffer.iter().step_by(64).all(|&b| b == 3));
        assert!(
            e.buffer
                .iter()
                .enumerate()
                .all(|(i, &b)| i % 64 == 0 || b == 0)
        );
        assert_eq!(e.buffer.len(), 4097);
    }

    #[test]
    fn modes_read_and_write_as_lower_case() {
        assert_eq!(serde_json::to_string(&Cache::Cold).unwrap(), "\"cold\"");
        assert_eq!(
            serde_json::from_str::<Cache>("\"warm\"").unwrap(),
            Cache::Warm
        );
        assert_eq!(Cache::Warm.to_string(), "warm");
        let info = CacheInfo::from_llc(None);
        let json = serde_json::to_string(&info).unwrap();
        assert_eq!(serde_json::from_str::<CacheInfo>(&json).unwrap(), info);
    }
}
