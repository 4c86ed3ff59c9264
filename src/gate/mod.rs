//! Performance gates for `cargo test`: fail a pull request when the evidence says a change made
//! code slower, and never because the machine was noisy.
//!
//! A gate compares a **candidate** (the new code, role A) with a **baseline** (role B) under the
//! whole [`compare`](crate::compare()) protocol and checks one expectation, fixed before
//! measuring:
//!
//! | expectation | passes when | "cannot tell" |
//! |---|---|---|
//! | [`Expectation::NotSlower`] `{ budget }` | unless the slowdown is proven (its interval above zero and the A/A noise floor) **and** its estimate exceeds the budget ([`over_budget`](crate::stats::over_budget)), in a second measurement too (a would-be failure measured in one process is measured again before it stands) | passes (the message says so) |
//! | [`Expectation::Faster`] `{ by }` | the interval's **lower bound** of the time saved clears `by` and the result is resolved (the lower-bound rule) | fails, saying which kind and what to do |
//! | [`Expectation::Equivalent`] `{ margin }` | the whole interval lies inside ±margin and the noise floor is below the margin | fails |
//!
//! All figures are fractions of the baseline's time: the slowdown is `candidate/baseline − 1`,
//! the time saved `1 − candidate/baseline` (the report's δ).
//!
//! The shortest gate is one line:
//!
//! ```no_run
//! # fn parse(s: &str) -> usize { s.len() }
//! # fn parse_old(s: &str) -> usize { s.len() }
//! # const INPUT: &str = "1,2,3";
//! use std::hint::black_box;
//! rtcompare::assert_not_slower!(|| parse(black_box(INPUT)), || parse_old(black_box(INPUT)), budget = 0.05);
//! ```
//!
//! # Behaviour inside a test harness
//!
//! - **One at a time.** Every gate and every comparison started through this module takes a
//!   process-wide lock, so parallel test threads never measure at the same time. The report
//!   records how much CPU the process's other threads used meanwhile and warns when they were
//!   busy (run such test binaries with `--test-threads=1` for the cleanest numbers).
//! - **Debug builds.** A debug build (debug assertions on, as in plain `cargo test`) never
//!   produces a false failure: the assertion macros and [`run`] **skip** the gate and print how to
//!   run it (`cargo test --release`), unless `RTCOMPARE_GATE=force` (or
//!   [`GateOptions::force`]) asks for it anyway; [`check`] measures, and downgrades a failure in
//!   a debug build to a pass with a printed notice.
//! - **Emulators.** Under Valgrind or QEMU user mode (see
//!   [`Environment::instrumented_by`](crate::env::Environment::instrumented_by)) timings
//!   mean nothing: the macros and [`run`] **skip** the gate with a notice, whatever
//!   `RTCOMPARE_GATE` says, unless the gate's
//!   [`CompareOptions::allow_instrumented`](crate::CompareOptions::allow_instrumented) is set;
//!   [`check`] measures anyway and downgrades a failure to a pass with a printed notice.
//! - **Environment.** `RTCOMPARE_GATE=off` turns every gate off (they pass with a message);
//!   `RTCOMPARE_GATE=force` runs them in debug builds too. `RTCOMPARE_EFFORT=quick` runs a
//!   shorter protocol (10 A/A runs, 51 pairs, 2,000 resamples, 100 ms warm-up: for local runs);
//!   `RTCOMPARE_EFFORT=full` (the default) runs the full one (for CI). Both are recorded in the
//!   report's [`GateInfo`].
//! - **Artifacts.** Every measured gate writes its report as JSON to
//!   `target/rtcompare/<test name>.json` (honouring `CARGO_TARGET_DIR`), so CI can keep it.
//!
//! # Where the parts live
//!
//! A gate is one decision taken three ways (the macros, [`run`] and [`check`]), and all three
//! go through the same skip rules, the same lock and the same judgement. Each job has its file:
//!
//! * `options.rs`: [`GateOptions`] and the environment variables it defers to (`GATE_ENV`
//!   ("RTCOMPARE_GATE"), `EFFORT_ENV` ("RTCOMPARE_EFFORT"));
//! * `skip.rs`: when a gate does not measure at all ([`Skip`], [`skip_reason`]);
//! * `protocol.rs`: the gate's stages: the process-wide lock (`compare_exclusive`), one
//!   comparison or a pooled one, the judgement, the JSON record, and whether a failure stands
//!   ([`check`], [`run`], `assert_gate` (the macros' body), [`IntoCandidate`]);
//! * `judgement.rs`: an expectation against a report or a pooled result, pure (`judge`,
//!   `judge_pooled`);
//! * `failure.rs`: [`GateFailure`] and the message a failing test prints;
//! * `artifact.rs`: where the report's JSON goes (`target/rtcompare/<test name>.json`);
//! * `macros.rs`: [`assert_not_slower!`](crate::assert_not_slower),
//!   [`assert_faster!`](crate::assert_faster) and [`assert_equivalent!`](crate::assert_equivalent),
//!   exported at the crate root.
//!
//! The expectation types a gate records ([`Expectation`], [`Effort`], [`GateInfo`]) live in
//! `compare/gate_record.rs`, beside the report that carries them.

mod artifact;
mod failure;
mod judgement;
mod macros;
mod options;
pub(crate) mod protocol;
mod skip;

pub use crate::compare::gate_record::{Effort, Expectation, GateInfo};
pub use failure::GateFailure;
pub use options::GateOptions;
pub use protocol::{IntoCandidate, check, run};
pub use skip::{Skip, skip_reason};
