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
            load_average_start: load_average(),
            load_average_end: None,
            max_rss_start: max_rss_bytes(),
            max_rss_end: None,
            start_time: rfc3339_now(),
        }
    }

    /// Records the end of the run: load averages and peak resident set size now.
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

/// The 1-, 5- and 15-minute load averages (`getloadavg`), if available.
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
pub fn max_rss_bytes() -> Option<u64> {
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
    const KEYS: [&str; 22] = [
        "affinity",
        "arch",
        "clock_source",
        "cpu_model",
        "crate_version",
        "debug_assertions",
        "debug_build",
        "governor",
        "hypervisor",
        "kernel",
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
        e.load_average_start = None;
        e.load_average_end = None;
        e.max_rss_start = None;
        e.max_rss_end = None;
        e.start_time = None;
        let empty = serde_json::to_value(&e).unwrap();
        let want: Vec<String> = KEYS.iter().map(|s| s.to_string()).collect();
        assert_eq!(keys(&full), want);
        assert_eq!(keys(&empty), want);
        assert!(empty["kernel"].is_null() && empty["affinity"].is_null());
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

    #[test]
    fn max_rss_and_load_are_available_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(max_rss_bytes().unwrap() > 0);
            assert!(load_average().is_some());
        }
    }
}
