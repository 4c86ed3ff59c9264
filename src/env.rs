//! The environment stamp: the conditions a number was taken under, written beside it.
//!
//! A result can only be judged later if the machine and build that produced it are recorded
//! with it. Every field is always present; what this machine cannot answer is recorded as
//! `None` (null in JSON), never left out: a missing key would say the harness never looked.

use serde::{Deserialize, Serialize};

/// The environment a report was measured in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Environment {
    /// Version of rtcompare that measured (`CARGO_PKG_VERSION`).
    pub crate_version: String,
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
    /// Whether rtcompare was built with debug assertions (an unoptimised or test build):
    /// timings of unoptimised code say little about optimised code.
    pub debug_build: bool,
}

impl Environment {
    /// Reads the environment of this process. Cheap (a few file reads); never fails.
    pub fn capture() -> Environment {
        Environment {
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            arch: std::env::consts::ARCH.to_string(),
            os: std::env::consts::OS.to_string(),
            kernel: kernel_release(),
            cpu_model: cpu_model(),
            logical_cores: std::thread::available_parallelism().ok().map(|n| n.get()),
            debug_build: cfg!(debug_assertions),
        }
    }
}

fn kernel_release() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_serialised_even_when_unknown() {
        let mut e = Environment::capture();
        e.kernel = None;
        e.cpu_model = None;
        e.logical_cores = None;
        let v: serde_json::Value = serde_json::to_value(&e).unwrap();
        let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "arch",
                "cpu_model",
                "crate_version",
                "debug_build",
                "kernel",
                "logical_cores",
                "os"
            ]
        );
        assert!(v["kernel"].is_null());
        let back: Environment = serde_json::from_value(v).unwrap();
        assert_eq!(back, e);
    }

    #[test]
    fn max_rss_is_positive_on_unix() {
        if cfg!(unix) {
            assert!(max_rss_bytes().unwrap() > 0);
        }
    }
}
