//! Refusing timings that mean nothing: whether a measurement may run under the emulator or
//! instrumentation the environment stamp found, decided by one pure function.
//!
//! Under Valgrind or QEMU user mode every instruction is translated before it runs. The
//! translation's cost has nothing to do with the code's native cost: memcheck adds work to
//! every memory access, QEMU to every basic block, both run threads one at a time and emulate
//! caches and branch predictors not at all. A ratio measured there can shrink, grow or change
//! sign natively, and a report that merely warns is read in a CI log as a verdict. So the
//! default is to refuse, before anything is measured, with
//! [`Error::MeaninglessTimings`] saying what was found and how to proceed; the opt-in
//! ([`CompareOptions::allow_instrumented`](crate::CompareOptions::allow_instrumented),
//! [`Precision::allow_instrumented`](crate::precision::Precision::allow_instrumented)) measures and
//! attaches [`Warning::Instrumented`] as the first warning. A debug build stays a warning:
//! its timings are slower but still those of the machine's own execution, and plain
//! `cargo test` is a debug build (gates skip it separately).
//!
//! A [`SimulatedClock`](crate::measure::clock::SimulatedClock) is exempt: its time is made up
//! by the program, so no emulator can distort it.

use crate::compare::report::Warning;
use crate::env::Instrumentation;
use crate::error::{Error, Result};

/// The decision for a measurement about to start. `found` is what the environment stamp
/// recorded ([`Environment::instrumented_by`](crate::env::Environment::instrumented_by)),
/// `allowed` the caller's opt-in, `simulated` whether the clock is simulated, and `opt_in` the
/// option to name in the error (`"CompareOptions::allow_instrumented(true)"`).
///
/// `Ok(None)`: measure, nothing to say. `Ok(Some(warning))`: measure, and report the warning
/// first. `Err(MeaninglessTimings)`: do not measure. Pure.
pub(crate) fn screen(
    found: Option<&Instrumentation>,
    allowed: bool,
    simulated: bool,
    opt_in: &str,
) -> Result<Option<Warning>> {
    let Some(tool) = found else {
        return Ok(None);
    };
    if simulated {
        return Ok(None);
    }
    if allowed {
        return Ok(Some(Warning::Instrumented { tool: tool.clone() }));
    }
    let natively = match tool {
        Instrumentation::Valgrind => "run the program without valgrind".to_string(),
        Instrumentation::QemuUser => "run the program natively on a machine of its own \
                                      architecture, not through qemu-user or binfmt_misc"
            .to_string(),
        Instrumentation::Host(program) => format!("run the program directly, not under {program}"),
    };
    Err(Error::MeaninglessTimings {
        tool: tool.to_string(),
        hint: format!(
            "{natively}, or opt in with {opt_in} to measure anyway (the result then carries \
             the \"instrumented\" warning)"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPT_IN: &str = "CompareOptions::allow_instrumented(true)";

    #[test]
    fn refuses_under_a_host_unless_allowed_or_simulated() {
        let valgrind = Instrumentation::Valgrind;
        // Natively: measure, no warning, whatever the option.
        for allowed in [false, true] {
            for simulated in [false, true] {
                assert_eq!(screen(None, allowed, simulated, OPT_IN), Ok(None));
            }
        }
        // Instrumented, not allowed: refused, with what was found and both ways forward.
        let e = screen(Some(&valgrind), false, false, OPT_IN).unwrap_err();
        let Error::MeaninglessTimings { tool, hint } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(tool, "Valgrind");
        assert!(
            hint.starts_with("run the program without valgrind"),
            "{hint}"
        );
        assert!(hint.contains(OPT_IN), "{hint}");
        let msg = e.to_string();
        assert!(
            msg.starts_with("refusing to time code under Valgrind:") && msg.contains(OPT_IN),
            "{msg}"
        );
        // Allowed: measured, with the loud warning.
        assert_eq!(
            screen(Some(&Instrumentation::QemuUser), true, false, OPT_IN),
            Ok(Some(Warning::Instrumented {
                tool: Instrumentation::QemuUser
            }))
        );
        // A simulated clock cannot be distorted: measured, silently.
        assert_eq!(screen(Some(&valgrind), false, true, OPT_IN), Ok(None));
    }

    #[test]
    fn the_hint_names_the_way_out_for_each_tool() {
        let hint = |tool: Instrumentation| match screen(Some(&tool), false, false, "X") {
            Err(Error::MeaninglessTimings { hint, .. }) => hint,
            other => panic!("{other:?}"),
        };
        assert!(hint(Instrumentation::QemuUser).contains("not through qemu-user"));
        assert!(
            hint(Instrumentation::Host("/usr/bin/box64".into())).starts_with(
                "run the program directly, not under /usr/bin/box64, or opt in with X"
            )
        );
    }
}
