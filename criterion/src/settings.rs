//! criterion's small setting types, kept so that bench files naming them compile: the
//! throughput of a group (which means something here: a rate beside the time) and the plot
//! and sampling settings (which are accepted and named once as having no effect).

/// How much work one iteration of a benchmark does, so that its row shows a rate beside its
/// time (criterion's variants; bytes in powers of 1024, decimal bytes, bits and elements in
/// powers of 1000).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Throughput {
    /// Bits per iteration.
    Bits(u64),
    /// Bytes per iteration, shown in KiB/s, MiB/s, …
    Bytes(u64),
    /// Bytes per iteration, shown in KB/s, MB/s, …
    BytesDecimal(u64),
    /// Elements per iteration.
    Elements(u64),
    /// Both; the row shows the elements' rate (criterion's primary one), the JSON the elements.
    ElementsAndBytes {
        /// Elements per iteration.
        elements: u64,
        /// Bytes per iteration.
        bytes: u64,
    },
}

impl Throughput {
    /// The harness's throughput for this one.
    pub(crate) fn to_harness(&self) -> rtcompare::bench::Throughput {
        use rtcompare::bench::Throughput as T;
        match *self {
            Throughput::Bits(n) => T::Bits(n),
            Throughput::Bytes(n) => T::Bytes(n),
            Throughput::BytesDecimal(n) => T::BytesDecimal(n),
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => {
                T::Elements(n)
            }
        }
    }
}

/// The scale of a summary plot's axis. Accepted; no effect (the harness draws its own page).
#[derive(Debug, Default, Clone, Copy)]
pub enum AxisScale {
    /// Linear axes.
    #[default]
    Linear,
    /// Logarithmic axes.
    Logarithmic,
}

/// A group's plot settings. Accepted; no effect (the harness draws its own page).
#[derive(Debug, Default, Clone)]
pub struct PlotConfiguration {
    summary_scale: AxisScale,
}

impl PlotConfiguration {
    /// Sets the summary plots' axis scale; no effect here.
    #[must_use]
    pub fn summary_scale(mut self, new_scale: AxisScale) -> PlotConfiguration {
        self.summary_scale = new_scale;
        self
    }
}

/// Which program criterion draws its plots with. Accepted; no effect (the harness draws one
/// HTML page with its own SVG figures).
#[derive(Debug, Clone, Copy)]
pub enum PlottingBackend {
    /// gnuplot.
    Gnuplot,
    /// The plotters crate.
    Plotters,
    /// No plots.
    None,
}

/// How criterion chooses the iteration counts of its samples. Accepted; no effect: the
/// harness calibrates one batch size and takes batches of that size.
#[derive(Debug, Default, Clone, Copy)]
pub enum SamplingMode {
    /// criterion chooses.
    #[default]
    Auto,
    /// Iteration counts grow linearly.
    Linear,
    /// One iteration count.
    Flat,
}
