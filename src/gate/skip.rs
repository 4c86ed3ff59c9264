//! When a gate does not measure: gates turned off, a debug build, or timings that an emulator
//! would make meaningless.

use std::fmt;

use super::options::{GATE_ENV, GateOptions};
use crate::env::{Instrumentation, detect_instrumentation};

/// Why a gate did not run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Skip {
    /// `RTCOMPARE_GATE=off`.
    Disabled,
    /// A debug build without `RTCOMPARE_GATE=force`.
    DebugBuild,
    /// The process runs under an emulator or instrumentation framework (Valgrind, QEMU user mode)
    /// and the gate's
    /// [`CompareOptions::allow_instrumented`](crate::CompareOptions::allow_instrumented) is off:
    /// its timings would mean nothing. `RTCOMPARE_GATE=force` does not change this.
    Instrumented(Instrumentation),
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Disabled => write!(f, "gates are turned off ({GATE_ENV}=off)"),
            Skip::DebugBuild => write!(
                f,
                "this is a debug build, whose timings say little about optimised code; run \
                 `cargo test --release` (or set {GATE_ENV}=force to measure anyway)"
            ),
            Skip::Instrumented(tool) => write!(
                f,
                "this process runs under {tool}, which translates every instruction, so its \
                 timings say nothing about native speed; run the test natively (or set \
                 allow_instrumented(true) in the gate's CompareOptions to measure anyway)"
            ),
        }
    }
}

/// Whether a gate would run now: `Err(Skip)` when gates are turned off, under an emulator or
/// instrumentation (unless the gate's options allow it), or in a debug build (unless forced),
/// checked in that order.
pub fn skip_reason(options: &GateOptions) -> Result<(), Skip> {
    let env = std::env::var(GATE_ENV).ok();
    match env.as_deref().map(str::trim) {
        Some(v) if v.eq_ignore_ascii_case("off") || v == "0" => return Err(Skip::Disabled),
        _ => {}
    }
    if let Some(tool) = unallowed_instrumentation(options) {
        return Err(Skip::Instrumented(tool));
    }
    let forced = options.force
        || env
            .as_deref()
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("force"));
    if cfg!(debug_assertions) && !forced {
        return Err(Skip::DebugBuild);
    }
    Ok(())
}

/// What hosts this process when the gate's options do not allow it (see
/// [`Skip::Instrumented`]).
pub(super) fn unallowed_instrumentation(options: &GateOptions) -> Option<Instrumentation> {
    if options.compare.allow_instrumented {
        None
    } else {
        detect_instrumentation()
    }
}
