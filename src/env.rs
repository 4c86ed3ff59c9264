//! The environment stamp: the conditions a number was taken under, written beside it.
//!
//! A result can only be judged later if the machine and build that produced it are recorded
//! with it: a 3 % difference measured in a debug build, under a power-saving governor, inside a
//! virtual machine, with the load average at 4 means something else than the same figure from a
//! quiet, pinned release build. Every [`Report`](crate::Report) carries an [`Environment`].
//!
//! Every field is always present. What this machine cannot answer is recorded as `None` (null
//! in JSON), never left out: a missing key would say the harness never looked, a null says it
//! looked and the machine could not tell.
//!
//! # Timings that mean nothing
//!
//! Under Valgrind or QEMU user-mode emulation every instruction is translated before it runs,
//! so a timing measures the translator, not the code. The stamp records such a host in
//! [`Environment::instrumented_by`] (found by [`detect_instrumentation`]), and
//! [`compare`](crate::compare()) refuses to time code under one unless asked to. The checks,
//! each verified under both tools (docs/background.md, section "Timings under an emulator: refuse,
//! not warn"):
//!
//! - **Valgrind's client request** (x86_64): the magic no-op sequence that Valgrind's
//!   `RUNNING_ON_VALGRIND` macro executes. Natively it leaves its result register at 0; Valgrind
//!   recognises it and answers 1.
//! - **The kernel's view of the executable**: both tools answer `readlink("/proc/self/exe")`
//!   (and `/proc/<pid>/exe`) with the guest program's path, but not the equivalent
//!   `/proc/thread-self/exe`, which names what the kernel actually runs:
//!   `/usr/bin/qemu-x86_64` or `/usr/libexec/valgrind/memcheck-amd64-linux`. Only a different
//!   *file name* counts, so a path translated by a chroot-like tool (same name, other
//!   directory) is not taken for an emulator.
//! - **QEMU's processor** (x86_64): QEMU answers the `cpuid` instruction itself, with the
//!   brand `"QEMU TCG CPU version 2.5+"` by default, while the kernel's `/proc/cpuinfo` names
//!   the real processor. (In a virtual machine both name the same processor.)
//! - **Valgrind's preloaded libraries**: `vgpreload_*.so` in `LD_PRELOAD` or in
//!   `/proc/self/maps`, for the architectures without the client request.

use std::fmt;
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The environment a report was measured in. Fields that describe the end of a run
/// (`load_average_end`, `max_rss_end`) are filled by [`Environment::finish`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Environment {
    /// Version of rtcompare that measured (`CARGO_PKG_VERSION`).
    pub crate_version: String,
    /// The compiler that built rtcompare (`rustc --version`), if known.
    pub rustc_version: Option<String>,
    /// Cargo profile rtcompare was built with (`"release"`, `"debug"`), if known. In one build
    /// all crates normally share the profile, so this is also the measured code's profile.
    pub profile: Option<String>,
    /// Optimisation level of the build (`"0"` … `"3"`, `"s"`, `"z"`), if known.
    pub opt_level: Option<String>,
    /// Whether debug assertions were on.
    pub debug_assertions: bool,
    /// Whether this is a debug build: debug assertions on or no optimisation. Timings of such
    /// code say little about optimised code.
    pub debug_build: bool,
    /// Target triple (for example `"x86_64-unknown-linux-gnu"`), if known.
    pub target: Option<String>,
    /// Target architecture (for example `"x86_64"`).
    pub arch: String,
    /// Target operating system (for example `"linux"`).
    pub os: String,
    /// Kernel release (`uname -r`), if the system reports one.
    pub kernel: Option<String>,
    /// CPU model name, if the system reports one.
    pub cpu_model: Option<String>,
    /// Logical cores available to this process, if known.
    pub logical_cores: Option<usize>,
    /// CPUs the measuring thread was allowed to run on when the stamp was taken
    /// (`sched_getaffinity`), if known.
    pub affinity: Option<Vec<usize>>,
    /// CPU frequency governor of CPU 0 (for example `"performance"`, `"powersave"`), if
    /// exposed.
    pub governor: Option<String>,
    /// Whether turbo/boost is enabled, if exposed (`intel_pstate/no_turbo` or
    /// `cpufreq/boost`).
    pub turbo: Option<bool>,
    /// The kernel's clock source (for example `"tsc"`), if exposed.
    pub clock_source: Option<String>,
    /// Whether the CPU reports running under a hypervisor, if known.
    pub hypervisor: Option<bool>,
    /// Size of the last-level cache in bytes as sysfs reports it for CPU 0, if known: what a
    /// working set must exceed to spill to memory, and what a cold run's eviction buffer is
    /// sized from (`cache`). Absent from JSON written before it was
    /// recorded: `None`.
    #[serde(default)]
    pub last_level_cache_bytes: Option<u64>,
    /// 1-, 5- and 15-minute load averages when the run started, if known.
    pub load_average_start: Option<[f64; 3]>,
    /// Load averages when the run ended, if known.
    pub load_average_end: Option<[f64; 3]>,
    /// Peak resident set size of the process when the run started, in bytes, if known.
    pub max_rss_start: Option<u64>,
    /// Peak resident set size of the process when the run ended, in bytes, if known.
    pub max_rss_end: Option<u64>,
    /// Start of the run, UTC, RFC 3339 (`"2026-12-01T08:10:00Z"`), if the clock is sane.
    pub start_time: Option<String>,
    /// The emulator or instrumentation framework this process runs under, which makes its
    /// timings meaningless ([`detect_instrumentation`]); `None` when none of the checks found
    /// one, which includes systems where they cannot run (no `/proc`, not Linux).
    pub instrumented_by: Option<Instrumentation>,
}

/// A program hosting this process that translates every instruction before it runs, so any
/// timing measures the translation and not the code: recorded in
/// [`Environment::instrumented_by`].
///
/// Serialised as `"valgrind"`, `"qemu-user"` or `{"host": "/path/to/program"}`.
///
/// ```
/// use rtcompare::env::Instrumentation;
/// assert_eq!(Instrumentation::QemuUser.to_string(), "QEMU user-mode emulation");
/// assert_eq!(serde_json::to_string(&Instrumentation::Valgrind).unwrap(), r#""valgrind""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Instrumentation {
    /// Valgrind, with any of its tools (memcheck, cachegrind, callgrind, …): code runs
    /// translated, typically 10 to 50 times slower, and threads one at a time.
    Valgrind,
    /// QEMU user-mode emulation: `qemu-x86_64 ./program`, or a binary of a foreign
    /// architecture run through `binfmt_misc`. Code runs translated by QEMU's TCG.
    QemuUser,
    /// Another program that the kernel runs in this process's place and that shows the process
    /// a different executable (an emulator or instrumentation framework not known by name).
    /// Holds the program's path as the kernel reports it.
    Host(String),
}

impl fmt::Display for Instrumentation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Instrumentation::Valgrind => f.write_str("Valgrind"),
            Instrumentation::QemuUser => f.write_str("QEMU user-mode emulation"),
            Instrumentation::Host(program) => write!(
                f,
                "{program} (the kernel runs it in this process's place, and it shows the \
                 process a different executable)"
            ),
        }
    }
}

/// The emulator or instrumentation framework this process runs under, if any check finds one
/// (the checks are listed in the [module documentation](self)).
///
/// Checked on the first call and cached: a process cannot leave or enter an emulator while it
/// lives. The first call costs a few system calls and one read of `/proc/self/maps`; the
/// rest, an atomic load. Never fails and never panics: `None` when nothing was found,
/// including where the checks cannot run.
///
/// ```
/// // Natively, nothing is hosting the doctest.
/// assert_eq!(rtcompare::env::detect_instrumentation(), None);
/// ```
pub fn detect_instrumentation() -> Option<Instrumentation> {
    static FOUND: OnceLock<Option<Instrumentation>> = OnceLock::new();
    FOUND.get_or_init(probe_instrumentation).clone()
}

fn probe_instrumentation() -> Option<Instrumentation> {
    if valgrind_client_request() {
        return Some(Instrumentation::Valgrind);
    }
    if cfg!(target_os = "linux") {
        if let (Ok(seen), Ok(real)) = (
            std::fs::read_link("/proc/self/exe"),
            std::fs::read_link("/proc/thread-self/exe"),
        ) && let Some(host) = host_of(&seen, &real)
        {
            return Some(host);
        }
        if let Some(brand) = cpuid_brand()
            && brand.contains("QEMU")
            && cpu_model().is_some_and(|model| qemu_translates_cpuid(&brand, &model))
        {
            return Some(Instrumentation::QemuUser);
        }
        if std::env::var_os("LD_PRELOAD").is_some_and(|v| preloads_valgrind(&v.to_string_lossy())) {
            return Some(Instrumentation::Valgrind);
        }
        if std::fs::read_to_string("/proc/self/maps").is_ok_and(|m| maps_show_valgrind(&m)) {
            return Some(Instrumentation::Valgrind);
        }
    }
    None
}

/// Valgrind's `RUNNING_ON_VALGRIND` client request on x86_64: the number of Valgrind layers
/// the code runs under (0 natively).
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn valgrind_client_request() -> bool {
    // VG_USERREQ__RUNNING_ON_VALGRIND and five unused arguments, as valgrind.h lays them out.
    let request: [u64; 6] = [0x1001, 0, 0, 0, 0, 0];
    let mut result: u64 = 0;
    // SAFETY: the four rotations of rdi add up to 128 bits, a full turn, and `xchg rbx, rbx`
    // exchanges a register with itself: natively the sequence changes nothing and rdx keeps
    // the default 0. Valgrind recognises the sequence, reads the six words at rax (a live,
    // readable array) and writes its answer to rdx. No memory is written and the stack is
    // not touched.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") request.as_ptr(),
            inout("rdi") 0u64 => _,
            options(nostack, readonly),
        );
    }
    result != 0
}

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
fn valgrind_client_request() -> bool {
    false
}

/// The processor's brand string as the `cpuid` instruction reports it to this process (x86_64).
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn cpuid_brand() -> Option<String> {
    use core::arch::x86_64::__cpuid;
    // SAFETY: cpuid exists on every x86_64 processor; leaves above the maximum extended leaf
    // are not read. (`__cpuid` is a safe function in newer compilers.)
    #[allow(unused_unsafe)]
    let leaf = |l: u32| unsafe { __cpuid(l) };
    if leaf(0x8000_0000).eax < 0x8000_0004 {
        return None;
    }
    let mut bytes = Vec::with_capacity(48);
    for l in 0x8000_0002..=0x8000_0004 {
        let r = leaf(l);
        for word in [r.eax, r.ebx, r.ecx, r.edx] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
    }
    let brand = String::from_utf8_lossy(&bytes);
    Some(brand.trim_end_matches('\0').trim().to_string()).filter(|b| !b.is_empty())
}

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
fn cpuid_brand() -> Option<String> {
    None
}

/// Whether QEMU answers the `cpuid` instruction while the kernel reports another processor:
/// user-mode emulation. (A virtual machine with a QEMU processor model shows the same name to
/// both, because its kernel reads the same `cpuid`; so does a whole emulated machine.)
fn qemu_translates_cpuid(cpuid_brand: &str, kernel_model: &str) -> bool {
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    cpuid_brand.contains("QEMU") && words(cpuid_brand) != words(kernel_model)
}

/// The host running in this process's place, from the executable the process is shown
/// (`seen`, `/proc/self/exe`) and the one the kernel runs (`real`, `/proc/thread-self/exe`).
/// Only a different file name counts: a tool that translates paths (a chroot, proot) changes
/// the directory, not the name.
fn host_of(seen: &std::path::Path, real: &std::path::Path) -> Option<Instrumentation> {
    let real_name = real.file_name()?.to_string_lossy();
    if seen.file_name().map(|n| n.to_string_lossy()) == Some(real_name.clone()) {
        return None;
    }
    if real_name.starts_with("qemu-") {
        Some(Instrumentation::QemuUser)
    } else if real_name.contains("valgrind")
        || real.components().any(|c| c.as_os_str() == "valgrind")
    {
        Some(Instrumentation::Valgrind)
    } else {
        Some(Instrumentation::Host(real.display().to_string()))
    }
}

/// Whether an `LD_PRELOAD` value (separated by colons or spaces) preloads one of Valgrind's
/// `vgpreload_*.so` libraries.
fn preloads_valgrind(ld_preload: &str) -> bool {
    ld_preload
        .split([':', ' '])
        .any(|lib| is_vgpreload(lib.trim()))
}

/// Whether a `/proc/<pid>/maps` text maps one of Valgrind's `vgpreload_*.so` libraries.
fn maps_show_valgrind(maps: &str) -> bool {
    // Fields: address, permissions, offset, device, inode, then the path (which may contain
    // spaces, and is absent for anonymous mappings).
    maps.lines()
        .filter_map(|line| line.split_whitespace().nth(5))
        .any(is_vgpreload)
}

fn is_vgpreload(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|name| name.starts_with("vgpreload_") && name.contains(".so"))
}

impl Environment {
    /// Reads the environment of this process and thread now. Cheap (a few small file reads);
    /// never fails.
    pub fn capture() -> Environment {
        let opt_level = build_value(option_env!("RTCOMPARE_OPT_LEVEL"));
        let debug_assertions = cfg!(debug_assertions);
        Environment {
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            rustc_version: build_value(option_env!("RTCOMPARE_RUSTC_VERSION")),
            profile: build_value(option_env!("RTCOMPARE_PROFILE")),
            debug_build: debug_assertions || opt_level.as_deref() == Some("0"),
            opt_level,
            debug_assertions,
            target: build_value(option_env!("RTCOMPARE_TARGET")),
            arch: std::env::consts::ARCH.to_string(),
            os: std::env::consts::OS.to_string(),
            kernel: read_trimmed("/proc/sys/kernel/osrelease"),
            cpu_model: cpu_model(),
            logical_cores: std::thread::available_parallelism().ok().map(|n| n.get()),
            affinity: crate::measure::pin::current_affinity(),
            governor: read_trimmed("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
            turbo: turbo(),
            clock_source: read_trimmed(
                "/sys/devices/system/clocksource/clocksource0/current_clocksource",
            ),
            hypervisor: hypervisor(),
            last_level_cache_bytes: crate::measure::cache::last_level_cache_bytes(),
            load_average_start: load_average(),
            load_average_end: None,
            max_rss_start: max_rss_bytes(),
            max_rss_end: None,
            start_time: rfc3339_now(),
            instrumented_by: detect_instrumentation(),
        }
    }

    /// Records the end of the run: load averages and peak resident set size now (each `None`
    /// where the platform does not report it). Call it once, when the measuring is done.
    pub fn finish(&mut self) {
        self.load_average_end = load_average();
        self.max_rss_end = max_rss_bytes();
    }

    /// Growth of the peak resident set during the run, in bytes (0 if unknown or before
    /// [`finish`](Self::finish)).
    pub fn max_rss_growth(&self) -> u64 {
        match (self.max_rss_start, self.max_rss_end) {
            (Some(s), Some(e)) => e.saturating_sub(s),
            _ => 0,
        }
    }
}

fn build_value(v: Option<&str>) -> Option<String> {
    v.map(str::trim).filter(|s| !s.is_empty()).map(String::from)
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name") || l.starts_with("Model"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, m)| m.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn hypervisor() -> Option<bool> {
    if std::path::Path::new("/sys/hypervisor/type").exists() {
        return Some(true);
    }
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let flags = info.lines().find(|l| l.starts_with("flags"))?;
    Some(flags.split_whitespace().any(|f| f == "hypervisor"))
}

fn turbo() -> Option<bool> {
    if let Some(v) = read_trimmed("/sys/devices/system/cpu/intel_pstate/no_turbo") {
        return Some(v == "0");
    }
    read_trimmed("/sys/devices/system/cpu/cpufreq/boost").map(|v| v == "1")
}

/// The 1-, 5- and 15-minute load averages (`getloadavg`) now, to set beside a measurement
/// (a load near or above the CPU count means other work shared the machine); `None` where the
/// platform has none (Windows).
pub fn load_average() -> Option<[f64; 3]> {
    #[cfg(unix)]
    {
        let mut l = [0.0f64; 3];
        // SAFETY: getloadavg writes at most 3 doubles into the valid 3-element buffer.
        let n = unsafe { libc::getloadavg(l.as_mut_ptr(), 3) };
        (n == 3).then_some(l)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Peak resident set size of this process in bytes (`getrusage`), if available.
pub(crate) fn max_rss_bytes() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage writes a complete rusage into the valid pointer it is given.
        let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
        if rc != 0 {
            return None;
        }
        // SAFETY: rc == 0, so the struct was filled in.
        let usage = unsafe { usage.assume_init() };
        let raw = u64::try_from(usage.ru_maxrss).ok()?;
        // Linux reports kibibytes, macOS bytes.
        if cfg!(target_os = "macos") {
            Some(raw)
        } else {
            Some(raw * 1024)
        }
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The current UTC time as RFC 3339 with second precision.
fn rfc3339_now() -> Option<String> {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).ok()?.as_secs();
    Some(rfc3339(secs))
}

/// Formats seconds since the Unix epoch as `YYYY-MM-DDThh:mm:ssZ` (proleptic Gregorian).
fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days to civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key of the stamp, in sorted order: adding or removing a field must be a deliberate
    /// change of the report's schema.
    const KEYS: [&str; 24] = [
        "affinity",
        "arch",
        "clock_source",
        "cpu_model",
        "crate_version",
        "debug_assertions",
        "debug_build",
        "governor",
        "hypervisor",
        "instrumented_by",
        "kernel",
        "last_level_cache_bytes",
        "load_average_end",
        "load_average_start",
        "logical_cores",
        "max_rss_end",
        "max_rss_start",
        "opt_level",
        "os",
        "profile",
        "rustc_version",
        "start_time",
        "target",
        "turbo",
    ];

    fn keys(v: &serde_json::Value) -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    }

    #[test]
    fn every_field_is_serialised_even_when_unknown() {
        let mut e = Environment::capture();
        e.finish();
        let full = serde_json::to_value(&e).unwrap();
        // Blank out every optional field: the keys must all still be there, as nulls.
        e.rustc_version = None;
        e.profile = None;
        e.opt_level = None;
        e.target = None;
        e.kernel = None;
        e.cpu_model = None;
        e.logical_cores = None;
        e.affinity = None;
        e.governor = None;
        e.turbo = None;
        e.clock_source = None;
        e.hypervisor = None;
        e.last_level_cache_bytes = None;
        e.load_average_start = None;
        e.load_average_end = None;
        e.max_rss_start = None;
        e.max_rss_end = None;
        e.start_time = None;
        e.instrumented_by = None;
        let empty = serde_json::to_value(&e).unwrap();
        let want: Vec<String> = KEYS.iter().map(|s| s.to_string()).collect();
        assert_eq!(keys(&full), want);
        assert_eq!(keys(&empty), want);
        assert!(empty["kernel"].is_null() && empty["affinity"].is_null());
        assert!(empty["instrumented_by"].is_null());
        let back: Environment = serde_json::from_value(empty).unwrap();
        assert_eq!(back, e);
    }

    #[test]
    fn the_build_is_described() {
        let e = Environment::capture();
        assert_eq!(e.debug_assertions, cfg!(debug_assertions));
        assert!(
            e.rustc_version
                .as_deref()
                .unwrap_or("rustc")
                .starts_with("rustc")
        );
        if cfg!(debug_assertions) {
            assert!(e.debug_build);
        }
        assert!(e.start_time.as_deref().is_some_and(|t| t.ends_with('Z')));
    }

    #[test]
    fn rfc3339_known_answers() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        // python3 -c "import datetime; print(datetime.datetime.fromtimestamp(1796112000, datetime.UTC))"
        assert_eq!(rfc3339(1_796_112_000), "2026-12-01T08:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }

    /// Excerpts of `/proc/self/maps` of `cat` under `valgrind -q` 3.19 on the development
    /// machine (Debian 12, x86_64), and natively.
    const MAPS_UNDER_VALGRIND: &str = "\
00108000-0010a000 r--p 00000000 fe:00 247030                             /usr/bin/cat
04033000-04035000 rw-p 00033000 fe:00 325843                             /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
04035000-04036000 rwxp 00000000 00:00 0 
04837000-04838000 r--p 00000000 fe:00 328592                             /usr/libexec/valgrind/vgpreload_core-amd64-linux.so
0483c000-04841000 r--p 00000000 fe:00 328602                             /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so
";
    const MAPS_NATIVE: &str = "\
5623fda52000-5623fda54000 r--p 00000000 fe:00 247030                     /usr/bin/cat
562404ff0000-562405011000 rw-p 00000000 00:00 0                          [heap]
7f4a403da000-7f4a403db000 r--p 00000000 fe:00 325843                     /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
";

    #[test]
    fn valgrind_is_recognised_in_maps_and_preload_lists() {
        assert!(maps_show_valgrind(MAPS_UNDER_VALGRIND));
        assert!(!maps_show_valgrind(MAPS_NATIVE));
        assert!(!maps_show_valgrind(""));
        // A path that merely mentions the name is not a preloaded library.
        assert!(!maps_show_valgrind(
            "00400000-00401000 r--p 00000000 fe:00 1 /home/me/vgpreload_notes.txt\n"
        ));
        assert!(preloads_valgrind(
            "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so:/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so"
        ));
        assert!(preloads_valgrind(
            "libfoo.so vgpreload_memcheck-x86-linux.so"
        ));
        assert!(!preloads_valgrind(""));
        assert!(!preloads_valgrind("/usr/lib/libjemalloc.so.2"));
    }

    #[test]
    fn a_host_is_told_by_the_executable_the_kernel_runs() {
        use std::path::Path;
        let me = Path::new("/work/target/release/examples/instrumented");
        // What /proc/thread-self/exe named on the development machine.
        let host = |real: &str| host_of(me, Path::new(real));
        assert_eq!(
            host("/usr/bin/qemu-x86_64"),
            Some(Instrumentation::QemuUser)
        );
        assert_eq!(
            host("/usr/libexec/qemu-binfmt/aarch64-binfmt-P"),
            Some(Instrumentation::Host(
                "/usr/libexec/qemu-binfmt/aarch64-binfmt-P".to_string()
            ))
        );
        assert_eq!(
            host("/usr/bin/qemu-aarch64-static"),
            Some(Instrumentation::QemuUser)
        );
        assert_eq!(
            host("/usr/libexec/valgrind/memcheck-amd64-linux"),
            Some(Instrumentation::Valgrind)
        );
        assert_eq!(
            host("/usr/lib/x86_64-linux-gnu/valgrind/cachegrind-amd64-linux"),
            Some(Instrumentation::Valgrind)
        );
        assert_eq!(
            host("/usr/local/bin/box64"),
            Some(Instrumentation::Host("/usr/local/bin/box64".to_string()))
        );
        // Natively both name the same file; a chroot-like translation changes only the
        // directory.
        assert_eq!(host("/work/target/release/examples/instrumented"), None);
        assert_eq!(
            host("/data/rootfs/work/target/release/examples/instrumented"),
            None
        );
        assert_eq!(host("/"), None);
    }

    #[test]
    fn qemu_is_told_by_a_cpuid_the_kernel_does_not_see() {
        // Under qemu-x86_64 7.2 on the development machine, and natively there.
        assert!(qemu_translates_cpuid(
            "QEMU TCG CPU version 2.5+",
            "AMD EPYC"
        ));
        assert!(!qemu_translates_cpuid("AMD EPYC", "AMD EPYC"));
        // A virtual machine with a QEMU processor model: the guest kernel sees it too.
        assert!(!qemu_translates_cpuid(
            "QEMU Virtual CPU version 2.5+",
            "QEMU  Virtual CPU version 2.5+ "
        ));
        // Valgrind's made-up processor is not QEMU (Valgrind has checks of its own).
        assert!(!qemu_translates_cpuid(
            "Intel(R) Core(TM) i7-4910MQ CPU @ 2.90GHz",
            "AMD EPYC"
        ));
        if cfg!(target_arch = "x86_64") && detect_instrumentation().is_none() {
            // Natively the kernel's name is the processor's own brand string.
            if let (Some(brand), Some(model)) = (cpuid_brand(), cpu_model()) {
                assert!(!qemu_translates_cpuid(&brand, &model), "{brand} / {model}");
            }
        }
    }

    #[test]
    fn instrumentation_serialises_as_plain_names() {
        for (i, json) in [
            (Instrumentation::Valgrind, r#""valgrind""#),
            (Instrumentation::QemuUser, r#""qemu-user""#),
            (
                Instrumentation::Host("/usr/bin/box64".to_string()),
                r#"{"host":"/usr/bin/box64"}"#,
            ),
        ] {
            assert_eq!(serde_json::to_string(&i).unwrap(), json);
            assert_eq!(serde_json::from_str::<Instrumentation>(json).unwrap(), i);
        }
        assert!(
            Instrumentation::Host("/x/box64".into())
                .to_string()
                .starts_with("/x/box64 (")
        );
        // The stamp records exactly what the cached detection found.
        assert_eq!(
            Environment::capture().instrumented_by,
            detect_instrumentation()
        );
    }

    #[test]
    fn max_rss_and_load_are_available_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(max_rss_bytes().unwrap() > 0);
            assert!(load_average().is_some());
        }
    }
}
