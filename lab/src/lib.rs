//! The lab programs behind rtcompare's notebook, `docs/background.md`: each example under
//! `lab/examples/` regenerates a table or a measurement of one of its sections, and the
//! section names the machine, the date and the command. Run one with
//! `cargo run --release -p rtcompare-lab --example NAME`; each program's first comment says
//! what it measures and which flags it takes.
//!
//! | program | what it regenerates |
//! |---|---|
//! | `aa` | identical structures compared in one process and pooled: how often each resolves |
//! | `alloc_cost` | the counting allocator's cost per allocation |
//! | `builds` | two builds of one bench target compared through worker pairs, with times |
//! | `compare_speed` | how long one `compare()` takes, with and without validation |
//! | `coverage` | the bootstrap's coverage, blocks against autocorrelation, paired against unpaired |
//! | `fixed_order` | fixtures built in a fixed order: the refusal and what it prevents |
//! | `instrument` | the clock's precision and cost, calibration, warm-up |
//! | `machines_coverage` | a simulated fleet of runners for `rtcompare combine` |
//! | `margin` | the margin of one comparison on identical and nearly identical code |
//! | `one_answer` | one question asked of the pool and of a gate (`scripts/one_answer.sh` adds the rest) |
//! | `pilot_tables` | the measure-until-precise driver's simulated tables |
//! | `pool_coverage` | the coverage of pooled intervals and of the default plan |
//! | `progress_cost` | what the ready progress bar costs a comparison |
//! | `sequential_rule` | the sequential rule's error rates when it may stop at any look |
//! | `warning_rates` | how often each warning fires on healthy and on broken comparisons |
//!
//! The crate has no code of its own and is never published (`publish = false`): the programs
//! are kept apart from the library's `examples/`, which hold what a user runs.
