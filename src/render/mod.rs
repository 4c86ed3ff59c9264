//! What people look at after a comparison runs: a self-contained HTML report (feature `html`,
//! on by default). The terminal progress shown while it runs is `rtcompare::progress` (feature
//! `progress`), a module of its own at the crate root.
//!
//! [`Report::to_html`](crate::Report::to_html) draws one page of five panels, each with one
//! inline SVG figure: the answer on a number line against the noise floor and the thresholds,
//! the pairs in run order with the drift tests, both distributions, the bootstrap's replicates
//! beside the A/A deltas, and the instrument and the machine.
//! [`Pooled::to_html`](crate::stats::Pooled::to_html) draws the forest plot of a pooled comparison, and
//! [`PoolRun::to_html`](crate::pool::PoolRun::to_html) both. The pages need nothing but a
//! browser: no script, no external resource, inline CSS.
//!
//! The command-line tool draws the same panels from its own data with the building blocks
//! (a `Page` of `Panel`s, each holding one `Figure` from `NumberLine`, `RunOrder`,
//! `Distributions`, `BootstrapPlot` or `TimeScale`, or `MachineForest` for one comparison
//! pooled across machines), which it reaches through the hidden `support` module: they are
//! not API.
//! Colours are the Okabe–Ito palette, which stays distinguishable under the common forms of
//! colour blindness: A blue, B vermillion, the ratio reddish purple.
//!
//! The figures are drawn with `plotters` restricted to its SVG backend, without a font
//! backend: no system font or native library is linked; text is SVG `<text>` in the browser's
//! sans-serif font.

#[cfg(feature = "html")]
mod bench;
#[cfg(feature = "html")]
pub(crate) mod chart;
#[cfg(feature = "html")]
pub(crate) mod page;
#[cfg(feature = "html")]
pub(crate) mod report;
