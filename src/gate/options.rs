//! A gate's options, and the environment variables they defer to when a field is left unset.

use crate::compare::CompareOptions;
use crate::compare::gate_record::Effort;

/// The environment variable that turns gates off (`off`) or forces them in debug builds
/// (`force`).
pub const GATE_ENV: &str = "RTCOMPARE_GATE";
/// The environment variable that scales the effort: `quick` or `full` (default).
pub(crate) const EFFORT_ENV: &str = "RTCOMPARE_EFFORT";

/// Options of a gate. `Default` reads nothing; the environment is consulted when the gate runs
/// unless a field overrides it.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct GateOptions {
    /// The comparison's options (defaults: the full protocol).
    pub compare: CompareOptions,
    /// Effort; `None` reads `RTCOMPARE_EFFORT` (default full).
    pub effort: Option<Effort>,
    /// Run in a debug build too (as `RTCOMPARE_GATE=force`).
    pub force: bool,
    /// Name of the gate for messages and the JSON file; `None` uses the test's name (the
    /// thread's name under libtest).
    pub name: Option<String>,
    /// Write the report's JSON under `target/rtcompare/` (default true when `None`).
    pub write_json: Option<bool>,
    /// Processes to pool (see [`pool`](crate::pool)): 0 or 1 measures in the test's own process; 3
    /// or more re-run the test binary for this one test that many times and gate on the pooled
    /// interval and floor. 2 is rejected ([`Error::TooFewSamples`](crate::Error::TooFewSamples)).
    pub processes: usize,
}

impl GateOptions {
    /// Sets [`compare`](Self::compare).
    pub fn compare(mut self, o: CompareOptions) -> Self {
        self.compare = o;
        self
    }
    /// Sets [`effort`](Self::effort).
    pub fn effort(mut self, e: Effort) -> Self {
        self.effort = Some(e);
        self
    }
    /// Sets [`force`](Self::force).
    pub fn force(mut self, force: bool) -> Self {
        self.force = force;
        self
    }
    /// Sets [`name`](Self::name).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
    /// Sets [`write_json`](Self::write_json).
    pub fn write_json(mut self, write: bool) -> Self {
        self.write_json = Some(write);
        self
    }
    /// Sets [`processes`](Self::processes).
    pub fn processes(mut self, k: usize) -> Self {
        self.processes = k;
        self
    }
}

/// `EFFORT_ENV` ("RTCOMPARE_EFFORT") read now: `quick`, or the full protocol for anything else or nothing.
pub(super) fn effort_from_env() -> Effort {
    match std::env::var(EFFORT_ENV).ok().as_deref().map(str::trim) {
        Some(v) if v.eq_ignore_ascii_case("quick") => Effort::Quick,
        _ => Effort::Full,
    }
}

/// The gate's name for messages and its JSON file: the option, else the thread's name (libtest
/// names each test's thread after the test), else `gate`.
pub(super) fn gate_name(options: &GateOptions) -> String {
    options.name.clone().unwrap_or_else(|| {
        std::thread::current()
            .name()
            .filter(|n| *n != "main")
            .unwrap_or("gate")
            .to_string()
    })
}
