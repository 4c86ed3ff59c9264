//! A gate's options, and the environment variables they defer to when a field is left unset.

use crate::compare::CompareOptions;
use crate::compare::gate_record::Effort;

/// The environment variable that turns gates off (`off`) or forces them in debug builds
/// (`force`).
pub(crate) const GATE_ENV: &str = "RTCOMPARE_GATE";
/// The environment variable that scales the effort: `quick` or `full` (default).
pub(crate) const EFFORT_ENV: &str = "RTCOMPARE_EFFORT";

/// Options of a gate: a builder whose methods consume and return `Self`. `Default` reads
/// nothing; the environment is consulted when the gate runs unless a setter overrides it.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct GateOptions {
    /// The comparison's options ([`compare`](Self::compare)).
    pub(crate) compare: CompareOptions,
    /// Effort; `None` reads `RTCOMPARE_EFFORT` ([`effort`](Self::effort)).
    pub(crate) effort: Option<Effort>,
    /// Run in a debug build too ([`force`](Self::force)).
    pub(crate) force: bool,
    /// Name for messages and the JSON file; `None`: the test's ([`name`](Self::name)).
    pub(crate) name: Option<String>,
    /// Write the report's JSON; `None`: yes ([`write_json`](Self::write_json)).
    pub(crate) write_json: Option<bool>,
    /// Processes to pool; 0 or 1: this one ([`processes`](Self::processes)).
    pub(crate) processes: usize,
}

impl GateOptions {
    /// The comparison's options (default [`CompareOptions::default`]: the full protocol, which
    /// the effort may shorten). Options [`compare`](crate::compare()) refuses make the gate a
    /// [`GateFailure::Measurement`](super::GateFailure::Measurement) naming the bad value.
    pub fn compare(mut self, o: CompareOptions) -> Self {
        self.compare = o;
        self
    }
    /// The effort: [`Effort::Quick`] (10 A/A runs, 51 pairs, 2,000 resamples, 100 ms warm-up,
    /// for local runs) or [`Effort::Full`] (the whole protocol, for CI). Unset, the gate reads
    /// `RTCOMPARE_EFFORT` when it runs (`quick`, else full).
    pub fn effort(mut self, e: Effort) -> Self {
        self.effort = Some(e);
        self
    }
    /// Measure in a debug build too, as `RTCOMPARE_GATE=force` does (default false: the
    /// macros and [`run`](super::run) skip a gate in a debug build). An emulator still skips
    /// it unless the comparison's options allow instrumentation.
    pub fn force(mut self, force: bool) -> Self {
        self.force = force;
        self
    }
    /// The gate's name in messages and in its JSON file's name (characters other than ASCII
    /// letters, digits, `-` and `_` become `_`). Unset: the test's name (the thread's name
    /// under libtest), else `gate`.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
    /// Whether a measured gate writes its report as JSON to `target/rtcompare/<name>.json`
    /// (default true). A file that cannot be written is a notice on stderr, not a failure.
    pub fn write_json(mut self, write: bool) -> Self {
        self.write_json = Some(write);
        self
    }
    /// Processes to pool (see [`pool`](crate::pool)), default 0: 0 or 1 measures in the test's
    /// own process; 3 or more re-run the test binary for this one test that many times and
    /// gate on the pooled interval and floor. 2 is rejected
    /// ([`Error::TooFewSamples`](crate::Error::TooFewSamples)).
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
