//! Panel 5's figure: durations on one logarithmic axis, the clock's step and read cost next
//! to the batches they time.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::{Area, FIGURE_WIDTH, LABEL, anchored, err, grid, rgb, svg, tick};
use crate::display::Ns;
use crate::render::page::Figure;

/// One bar of a [`TimeScale`].
#[derive(Debug, Clone, PartialEq)]
pub struct TimeBar {
    /// What the duration is (`"clock step"`, `"A's batch (median)"`).
    pub label: String,
    /// The duration, nanoseconds (a zero is labelled `0 ns`, a negative or non-finite one `not
    /// measured`, both without a bar: a logarithmic axis has no zero).
    pub ns: f64,
    /// The bar's colour, as CSS (`#0072B2`).
    pub colour: String,
}

impl TimeBar {
    /// A bar with this label, duration (ns) and colour.
    pub fn new(label: impl Into<String>, ns: f64, colour: &str) -> TimeBar {
        TimeBar {
            label: label.into(),
            ns,
            colour: colour.to_string(),
        }
    }
}

/// Panel 5's figure: durations on one logarithmic axis (the clock's step and read cost next to
/// the batches they time), each bar labelled with its value.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeScale {
    /// The bars, top to bottom.
    pub bars: Vec<TimeBar>,
}

impl TimeScale {
    /// The figure (1000 pixels wide, 40 per bar) with its legend (empty: the bars carry their
    /// labels).
    pub fn figure(&self) -> Figure {
        let k = self.bars.len().max(1);
        let height = 90 + 40 * k as u32;
        let svg = svg(FIGURE_WIDTH, height, |root| self.draw(root));
        Figure {
            svg,
            legend: Vec::new(),
        }
    }

    /// The axis, in decades of nanoseconds (log₁₀ ns): the whole decades around the bars'
    /// durations (1 ns to 1 µs when none is positive), widened on the right for the value
    /// label of the longest bar.
    fn axis(&self) -> (f64, f64) {
        let logs: Vec<f64> = self
            .bars
            .iter()
            .filter(|b| b.ns.is_finite() && b.ns > 0.0)
            .map(|b| b.ns.log10())
            .collect();
        let lo = logs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if lo <= hi {
            (lo.floor().min(hi.ceil() - 1.0), hi.ceil())
        } else {
            (0.0, 3.0)
        };
        // Room for the value label right of the longest bar.
        let hi = hi + 0.25 * (hi - lo).max(1.0);
        (lo, hi)
    }

    /// Draws the bars top to bottom on a log axis, each named on the left and labelled with its
    /// value; a zero or unmeasured duration gets its label and no bar.
    fn draw(&self, root: &Area<'_>) -> Result<(), String> {
        let (lo, hi) = self.axis();
        let k = self.bars.len().max(1);
        let names: Vec<String> = self.bars.iter().map(|b| b.label.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .margin_left(10)
            .margin_right(30)
            .margin_top(10)
            .x_label_area_size(56)
            .y_label_area_size(250)
            .build_cartesian_2d(lo..hi, -0.5..(k as f64 - 0.5))
            .map_err(err)?;
        let name_of = |v: &f64| -> String {
            let i = (k as f64 - 1.0 - v).round();
            if (k as f64 - 1.0 - v - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        grid(&mut chart)
            .disable_y_mesh()
            .y_labels(2 * k + 1)
            .y_label_formatter(&name_of)
            .x_labels(((hi - lo).ceil() as usize + 1).min(16))
            .x_label_formatter(&|v| {
                if (v - v.round()).abs() < 1e-6 {
                    decade(v.round() as i32)
                } else {
                    String::new()
                }
            })
            .x_desc("duration (logarithmic scale)")
            .draw()
            .map_err(err)?;
        for (i, b) in self.bars.iter().enumerate() {
            let y = k as f64 - 1.0 - i as f64;
            if !(b.ns.is_finite() && b.ns > 0.0) {
                chart
                    .draw_series([Text::new(
                        if b.ns == 0.0 {
                            " 0 ns"
                        } else {
                            " not measured"
                        },
                        (lo, y),
                        anchored(LABEL, HPos::Left, VPos::Center),
                    )])
                    .map_err(err)?;
                continue;
            }
            let x = b.ns.log10();
            chart
                .draw_series([Rectangle::new(
                    [(lo, y - 0.3), (x, y + 0.3)],
                    rgb(&b.colour).filled(),
                )])
                .map_err(err)?;
            chart
                .draw_series([Text::new(
                    format!("{}", Ns(b.ns)),
                    (x + 0.01 * (hi - lo), y),
                    anchored(LABEL, HPos::Left, VPos::Center),
                )])
                .map_err(err)?;
        }
        Ok(())
    }
}

/// A power of ten of nanoseconds as a short label: `1 ns`, `100 ns`, `10 µs`, `1 s`.
fn decade(power: i32) -> String {
    let (unit, base) = match power {
        p if p < 3 => ("ns", 0),
        p if p < 6 => ("µs", 3),
        p if p < 9 => ("ms", 6),
        _ => ("s", 9),
    };
    let v = 10f64.powi(power - base);
    format!("{} {unit}", tick(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_are_short() {
        assert_eq!(decade(0), "1 ns");
        assert_eq!(decade(2), "100 ns");
        assert_eq!(decade(4), "10 µs");
        assert_eq!(decade(9), "1 s");
        assert_eq!(decade(-1), "0.1 ns");
    }
}
