//! The pooled comparison's figure: a forest plot of each process's interval above the pooled
//! one, in A's change in time against B (+ = slower).

use plotters::prelude::*;

use super::{Area, CHANGE_AXIS, Chart, FIGURE_WIDTH, change_tick, err, grid, rgb, span, svg};
use crate::display::{Level, Pct};
use crate::render::page::{
    COLOUR_A, COLOUR_FLOOR, COLOUR_INK, COLOUR_RATIO, Figure, LegendEntry, Mark,
};
use crate::stats::Change;

/// The forest plot of a pooled comparison: each process's interval, and the pooled interval as
/// a diamond beneath, on one axis of A's change (+ = slower) with zero and ± the pooled noise
/// floor. The fields hold δ = 1 − A/B (positive: A needs less time); each is drawn as A's
/// change −δ, an interval `[low, high]` as `[−high, −low]`.
pub(crate) struct Forest<'a> {
    pub deltas: &'a [f64],
    pub half_widths: &'a [f64],
    pub delta: f64,
    pub low: f64,
    pub high: f64,
    pub level: f64,
    pub noise_floor: Option<f64>,
}

impl Forest<'_> {
    /// The figure (1000 pixels wide, 30 per row: one per process and the pooled one) with its
    /// legend.
    pub(crate) fn figure(&self) -> Figure {
        let floor = self.floor();
        let rows = self.deltas.len() + 1;
        let height = 110 + 30 * rows as u32;
        let svg = svg(FIGURE_WIDTH, height, |root| self.draw(root, floor));
        Figure {
            svg,
            legend: self.legend(floor),
        }
    }

    /// The pooled noise floor in percent, if it is finite and positive.
    fn floor(&self) -> Option<f64> {
        self.noise_floor
            .filter(|f| f.is_finite() && *f > 0.0)
            .map(|f| 100.0 * f)
    }

    /// Draws the axis of A's change in percent, the floor's band (`floor`, percent), zero,
    /// each process's interval with its estimate (those that are not finite left out) and the
    /// pooled diamond.
    fn draw(&self, root: &Area<'_>, floor: Option<f64>) -> Result<(), String> {
        let pc = |v: f64| 100.0 * v;
        let rows = self.deltas.len() + 1;
        let (x0, x1) = self.x_span(floor);
        let mut chart = ChartBuilder::on(root)
            .margin_left(10)
            .margin_right(30)
            .margin_top(10)
            .x_label_area_size(56)
            .y_label_area_size(110)
            .build_cartesian_2d(x0..x1, -0.7..(rows as f64 - 0.5))
            .map_err(err)?;
        // Process i sits at row rows − 1 − i (the first on top), the pooled diamond at 0.
        let label = |v: &f64| -> String {
            let r = v.round();
            if (v - r).abs() > 1e-6 || r < 0.0 {
                return String::new();
            }
            if r == 0.0 {
                "pooled".into()
            } else {
                format!("process {}", rows - 1 - r as usize)
            }
        };
        grid(&mut chart)
            .disable_y_mesh()
            .y_labels(2 * rows + 2)
            .y_label_formatter(&label)
            .x_labels(12)
            .x_label_formatter(&|v| change_tick(*v))
            .x_desc(CHANGE_AXIS)
            .draw()
            .map_err(err)?;
        if let Some(f) = floor {
            chart
                .draw_series([Rectangle::new(
                    [(-f, -0.7), (f, rows as f64 - 0.5)],
                    rgb(COLOUR_FLOOR).mix(0.6).filled(),
                )])
                .map_err(err)?;
        }
        chart
            .draw_series([PathElement::new(
                vec![(0.0, -0.7), (0.0, rows as f64 - 0.5)],
                rgb(COLOUR_INK).stroke_width(2),
            )])
            .map_err(err)?;
        self.draw_processes(&mut chart)?;
        let c = self.change();
        let (l, d, h) = (pc(c.low), pc(c.change), pc(c.high));
        chart
            .draw_series([Polygon::new(
                vec![(l, 0.0), (d, 0.32), (h, 0.0), (d, -0.32)],
                rgb(COLOUR_RATIO).filled(),
            )])
            .map_err(err)?;
        Ok(())
    }

    /// The pooled change of A with its interval: `−δ`, the ends swapped.
    fn change(&self) -> Change {
        Change::of_delta(self.delta, self.low, self.high)
    }

    /// Process `i`'s half-width (0 when it has none).
    fn half_width(&self, i: usize) -> f64 {
        self.half_widths.get(i).copied().unwrap_or(0.0)
    }

    /// The axis's range in percent of A's change: every process's interval, the pooled
    /// interval, zero and ± the floor (`floor`, percent), with a margin.
    fn x_span(&self, floor: Option<f64>) -> (f64, f64) {
        let pc = |v: f64| 100.0 * v;
        let hw = |i: usize| self.half_width(i);
        let mut xs: Vec<f64> = (0..self.deltas.len())
            .flat_map(|i| [pc(-self.deltas[i] - hw(i)), pc(-self.deltas[i] + hw(i))])
            .collect();
        let c = self.change();
        xs.extend([pc(c.low), pc(c.high), 0.0]);
        if let Some(f) = floor {
            xs.extend([f, -f]);
        }
        span(xs, 0.05)
    }

    /// Draws each process's interval of A's change (−δ ± its half-width) with a dot at its
    /// estimate on its row (the first on top), leaving out those that are not finite.
    fn draw_processes(&self, chart: &mut Chart<'_>) -> Result<(), String> {
        let pc = |v: f64| 100.0 * v;
        let k = self.deltas.len();
        let rows = k + 1;
        let blue = rgb(COLOUR_A);
        for i in 0..k {
            let y = (rows - 1 - i) as f64;
            let (d, h) = (pc(-self.deltas[i]), pc(self.half_width(i)));
            if !(d.is_finite() && h.is_finite()) {
                continue;
            }
            chart
                .draw_series([PathElement::new(
                    vec![(d - h, y), (d + h, y)],
                    blue.stroke_width(3),
                )])
                .map_err(err)?;
            chart
                .draw_series([Circle::new((d, y), 5, blue.filled())])
                .map_err(err)?;
        }
        Ok(())
    }

    /// The legend: the processes' intervals, the pooled interval and, if drawn, the floor
    /// (`floor`, percent).
    fn legend(&self, floor: Option<f64>) -> Vec<LegendEntry> {
        let mut legend = vec![
            LegendEntry::new(
                COLOUR_A,
                Mark::Line,
                "each process's own interval of A's change (dot: its estimate)",
            ),
            LegendEntry::new(
                COLOUR_RATIO,
                Mark::Band,
                format!(
                    "pooled {} interval of A's change: {} (centre: the mean)",
                    Level(self.level),
                    self.change()
                ),
            ),
        ];
        if let Some(f) = floor {
            legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Band,
                format!("± the pooled noise floor ({})", Pct(f / 100.0)),
            ));
        }
        legend
    }
}
