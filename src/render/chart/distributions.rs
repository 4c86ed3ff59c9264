//! Panel 3's figure: A's and B's samples as empirical cumulative distributions on one axis.

use plotters::prelude::*;

use super::{Area, FIGURE_WIDTH, dashes, err, grid, rgb, sorted, svg, tick, time_unit, view};
use crate::display::Ns;
use crate::render::page::{COLOUR_A, COLOUR_B, COLOUR_FLOOR, Figure, LegendEntry, Mark};

/// Panel 3: A's and B's samples as empirical cumulative distributions on one axis, medians
/// as lines and minima as triangles.
#[derive(Debug, Clone, PartialEq)]
pub struct Distributions {
    /// Candidate A's name.
    pub name_a: String,
    /// Candidate B's name.
    pub name_b: String,
    /// A's samples, nanoseconds.
    pub a: Vec<f64>,
    /// B's samples, nanoseconds.
    pub b: Vec<f64>,
    /// What one sample is, for the axis: `"per operation"`, `"per run"`.
    pub per: String,
}

/// One side's samples as drawn: the finite ones, ascending, and their median.
struct DrawnSamples {
    sorted: Vec<f64>,
    /// The type-7 median ([`crate::stats::quantile`] at 0.5); `None` when no sample is finite
    /// (the only input it refuses once [`sorted`] has dropped the rest).
    median: Option<f64>,
}

impl DrawnSamples {
    fn of(values: &[f64]) -> DrawnSamples {
        let sorted = sorted(values);
        let median = crate::stats::quantile(&sorted, 0.5).ok();
        DrawnSamples { sorted, median }
    }
}

impl Distributions {
    /// The figure (1000 × 360 SVG pixels) with its legend.
    pub fn figure(&self) -> Figure {
        let (a, b) = (DrawnSamples::of(&self.a), DrawnSamples::of(&self.b));
        let (x0, x1, out) = view(&[&a.sorted, &b.sorted], 0.05, 3.0);
        let svg = svg(FIGURE_WIDTH, 360, |root| self.draw(root, &a, &b, (x0, x1)));
        Figure {
            svg,
            legend: self.legend(&a, &b, out),
        }
    }

    /// Draws both sides on the axis `x0..x1` (ns): each distribution as a staircase (values
    /// beyond the axis at its edge), its median dashed and its minimum as a triangle.
    fn draw(
        &self,
        root: &Area<'_>,
        a: &DrawnSamples,
        b: &DrawnSamples,
        (x0, x1): (f64, f64),
    ) -> Result<(), String> {
        let (div, unit) = time_unit(x1);
        let mut chart = ChartBuilder::on(root)
            .margin_left(10)
            .margin_right(30)
            .margin_top(12)
            .x_label_area_size(56)
            .y_label_area_size(100)
            .build_cartesian_2d(x0 / div..x1 / div, 0.0..1.02)
            .map_err(err)?;
        grid(&mut chart)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| format!("{:.0} %", 100.0 * v))
            .x_desc(format!("time {} ({unit})", self.per))
            .y_desc("samples at or below")
            .draw()
            .map_err(err)?;
        for (side, colour) in [(a, COLOUR_A), (b, COLOUR_B)] {
            let s = &side.sorted;
            if s.is_empty() {
                continue;
            }
            let c = rgb(colour);
            let k = s.len() as f64;
            let clip = |v: f64| v.clamp(x0, x1) / div;
            let mut path = Vec::with_capacity(2 * s.len() + 1);
            path.push((clip(s[0]), 0.0));
            for (i, &v) in s.iter().enumerate() {
                path.push((clip(v), i as f64 / k));
                path.push((clip(v), (i + 1) as f64 / k));
            }
            path.push((x1 / div, 1.0));
            chart
                .draw_series([PathElement::new(path, c.stroke_width(3))])
                .map_err(err)?;
            if let Some(m) = side.median {
                let m = clip(m);
                chart
                    .draw_series(
                        dashes((m, 0.0), (m, 1.0), 14)
                            .into_iter()
                            .map(|d| PathElement::new(d, c.stroke_width(2))),
                    )
                    .map_err(err)?;
            }
            chart
                .draw_series([TriangleMarker::new((clip(s[0]), 0.025), 9, c.filled())])
                .map_err(err)?;
        }
        Ok(())
    }

    /// The legend: each side's median and minimum and, if any, how many values (`out`) lie
    /// beyond the axis.
    fn legend(&self, a: &DrawnSamples, b: &DrawnSamples, out: usize) -> Vec<LegendEntry> {
        let mut legend = vec![
            LegendEntry::new(
                COLOUR_A,
                Mark::Line,
                describe(&format!("A ({})", self.name_a), a),
            ),
            LegendEntry::new(
                COLOUR_B,
                Mark::Line,
                describe(&format!("B ({})", self.name_b), b),
            ),
        ];
        if out > 0 {
            legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Line,
                format!("{out} far outlier(s) beyond the axis, drawn at its edge"),
            ));
        }
        legend
    }
}

/// A side's legend text: its median and minimum, or that it has no samples.
fn describe(name: &str, side: &DrawnSamples) -> String {
    match (side.median, side.sorted.first()) {
        (Some(m), Some(&min)) => format!(
            "{name}: median {} (dashed), minimum {} (triangle)",
            Ns(m),
            Ns(min)
        ),
        _ => format!("{name}: no samples"),
    }
}
