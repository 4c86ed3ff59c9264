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
//! The building blocks are public so that other front ends (the `rtcompare` command) draw the
//! same panels from their own data: a [`Page`] of [`Panel`]s, each holding one [`Figure`] from
//! [`NumberLine`], [`RunOrder`], [`Distributions`], [`BootstrapPlot`] or [`TimeScale`], or
//! [`MachineForest`] for one comparison pooled across machines (`rtcompare combine --html`).
//! Colours are the Okabe–Ito palette, which stays distinguishable under the common forms of
//! colour blindness: A blue, B vermillion, the ratio reddish purple.
//!
//! The figures are drawn with `plotters` restricted to its SVG backend, without a font
//! backend: no system font or native library is linked; text is SVG `<text>` in the browser's
//! sans-serif font.
//!
//! ```
//! # #[cfg(feature = "html")] {
//! use rtcompare::render::{NumberLine, Page, Panel};
//! let line = NumberLine {
//!     delta: 0.12, low: 0.10, high: 0.14, level: 0.95,
//!     noise_floor: Some(0.02), thresholds: vec![0.05],
//! };
//! let html = Page::new("δ").panel(Panel::new("answer", "The answer").figure(line.figure())).to_html();
//! assert!(html.contains("<svg") && !html.contains("<script"));
//! # }
//! ```

#[cfg(feature = "html")]
mod bench;
#[cfg(feature = "html")]
mod chart;
#[cfg(feature = "html")]
mod page;
#[cfg(feature = "html")]
mod report;

#[cfg(feature = "html")]
pub use chart::{
    BootstrapPlot, Distributions, MachineForest, NumberLine, RunOrder, TimeBar, TimeScale,
};
#[cfg(feature = "html")]
pub use page::{COLOUR_A, COLOUR_B, COLOUR_FLOOR, Figure, LegendEntry, Mark, Page, Panel, escape};
#[cfg(feature = "html")]
pub use report::environment_rows;
