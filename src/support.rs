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

/// The cross-revision run's pieces that `rtcompare bench` drives itself: its flags' parsers,
/// the git helpers and the temporary worktree, and the report's table and notes.
pub mod bench {
    pub use crate::bench::revisions::{
        Revisions, TempWorktree, family_note, git, markdown, parse_budget, parse_duration,
        parse_fraction, table,
    };
}

/// The crate's number formats (durations, sizes, counts, percentages), so that every front end
/// prints a figure the same way.
pub mod display {
    pub use crate::display::{Bytes, Count, Level, MagnitudePct, Ns, Pct, Share, SiCount, Sig};
}
