//! Measure one candidate until its mean is known precisely enough.
//!
//! # The problem
//!
//! A fixed number of readings answers the wrong question. Ten readings of a quiet function may
//! pin its cost to ±1 %, while a thousand of a noisy one leave ±10 %; the count that is enough
//! depends on the spread, which is only known once measured. And when neighbouring readings are
//! correlated, counting them as independent makes the interval look far tighter than it is.
//!
//! # What [`measure`] does (after Pilot)
//!
//! It times batches of the candidate in **rounds**. After every round it:
//!
//! 1. looks for a **warm-up** with the change-point detector and the two-clause rule
//!    ([`warm_up`](crate::stats::warm_up)): a prefix is dropped only if a proven change ends it
//!    and it was slower than what follows; the drop is recomputed each round, so a boundary
//!    that stops being significant disappears again;
//! 2. chooses the **batch size** `q` (readings per batch mean) as the smallest whose batch
//!    means have |lag-1 autocorrelation| within [`Precision::ac_limit`]
//!    ([`batch_means()`](crate::stats::batch_means())); until one exists there is not enough data;
//! 3. computes the **interval** of the mean from the batch means (t at `h − 1` degrees of
//!    freedom, at [`Precision::level`]) and the **required size**
//!    (`required_size`): `q·max(h*, min_batches)` readings;
//! 4. stops when the interval's half-width is within the target ([`Precision::half_width`], [`Precision::half_width_ns`]) **and** at
//!    least [`Precision::min_batches`] batch means stand behind it; otherwise it sizes the next
//!    round from the requirement: at least [`Precision::round_readings`] and 1 % of the
//!    readings so far, at most doubling them.
//!
//! A warm-up can only be recognised once the session has outlasted it: the readings after it
//! must be more than half of all. A preset that may stop early (quick stops at 30 batch means)
//! can therefore stop **inside** a long warm-up and report its level; in the simulated tables of
//! docs/background.md a 100-reading warm-up fooled quick and normal every time and strict never.
//! When warm-up matters, use `strict` or raise [`Precision::min_batches`].
//!
//! Budgets bound the session: [`Precision::max_readings`], [`Precision::max_duration`] and a
//! [`CancelToken`](crate::measure::CancelToken), all checked between batches. A session
//! that stops without meeting its target still returns what it measured, says so in
//! [`Measurement::target_met`], and gives the reason in [`Measurement::stop`].
//!
//! The presets are Pilot's: [`Precision::quick`] (autocorrelation limit 0.8, ±10 %, 30 batch
//! means, the default), [`Precision::normal`] (0.2, ±5 %, 50) and [`Precision::strict`] (0.1,
//! ±5 %, 200), all at 95 %. Pilot states its widths as full widths (20 % / 10 % / 10 % of the
//! mean); here they are half-widths. At quick's limit an AR(1) process leaves the interval too
//! narrow by a factor of up to 3 (√9); at normal's by 1.22: use quick for iteration only.
//!
//! Readings are nanoseconds per operation. A throughput is their reciprocal, and its interval
//! the inverted one ([`Measurement::rate`]); it is never averaged arithmetically.
//!
//! ```no_run
//! use rtcompare::Candidate;
//! use rtcompare::precision::{measure, Precision};
//!
//! let data: Vec<u64> = (0..1_000).collect();
//! let sum = Candidate::from_fn("sum", || std::hint::black_box(&data).iter().sum::<u64>());
//! let m = measure(sum, &Precision::normal())?;
//! if let Some(e) = &m.estimate {
//!     println!("{:.1} ns ± {:.1} ({} readings, q = {})", e.mean, e.half_width, m.used, e.q);
//! }
//! println!("target met: {} ({:?})", m.target_met, m.stop);
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! # Where the parts live
//!
//! * `options.rs`: [`Precision`], its presets and budgets, and the defaults it falls back on;
//! * `session.rs`: the session itself, round after round ([`measure`], and `measure_with_clock` for a simulated clock);
//! * `measurement.rs`: what a session returns ([`Measurement`], [`StopReason`]) and how it reads.

mod measurement;
mod options;
pub(crate) mod session;

pub use measurement::{Measurement, StopReason};
pub use options::Precision;
pub use session::measure;
