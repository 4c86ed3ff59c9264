//! What the workspace's own crates (the `rtcompare` command-line tool, and the crates beside
//! the core) need from the core and its users do not. Hidden from the documentation and not
//! part of the API: anything here may change in any release. One module, so that the public
//! surface stays what README and the guide show.

/// The HTML report's building blocks, from which the command-line tool draws its own pages
/// with the library's panels: a `Page` of `Panel`s, each holding one `Figure` from a chart.
#[cfg(feature = "html")]
pub mod render {
    pub use crate::render::chart::{
        BootstrapPlot, Distributions, MachineForest, NumberLine, RunOrder, TimeBar, TimeScale,
    };
    pub use crate::render::page::{
        COLOUR_A, COLOUR_B, COLOUR_FLOOR, Figure, LegendEntry, Mark, Page, Panel, escape,
    };
    pub use crate::render::report::environment_rows;
}

/// The crate's number formats (durations, sizes, counts, percentages), so that every front end
/// prints a figure the same way.
pub mod display {
    pub use crate::display::{Bytes, Count, Level, Ns, Pct, Share, SiCount, Sig, SignedPct};
}

/// The most bootstrap replicates one call accepts (the statistics' own limit, 10,000,000):
/// rtcompare-service checks its `resamples` against it before measuring.
pub const MAX_RESAMPLES: usize = crate::stats::MAX_RESAMPLES;

/// The body the assertion macros (`assert_faster!`, `assert_not_slower!`, …) expand to in the
/// user's crate.
pub mod gate {
    pub use crate::gate::protocol::assert_gate;
}

/// A reading of the process that the front ends stamp on their own records.
pub mod env {
    /// Peak resident set size of this process in bytes (`getrusage`); `None` where the
    /// platform does not report it.
    pub fn max_rss_bytes() -> Option<u64> {
        crate::env::max_rss_bytes()
    }
}

pub mod bench;
pub mod compare;
pub mod measure;
pub mod pool;
pub mod rng;
pub mod selftest;
pub mod stats;
