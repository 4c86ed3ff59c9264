//! Panel 1's figure: the answer on a number line, the interval of A's change in time (+ =
//! slower) against zero, the A/A noise floor and the thresholds asked about.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::{
    Area, DESC, FIGURE_WIDTH, LABEL, anchored, change_axis, change_tick, change_words, dashes, err,
    grid, rgb, sides, span, svg,
};
use crate::display::{Level, Pct, SignedPct};
use crate::render::page::{
    COLOUR_FLOOR, COLOUR_INK, COLOUR_INTERVAL, COLOUR_THRESHOLD, Figure, LegendEntry, Mark,
};
use crate::stats::Change;

/// Panel 1's number line: A's change in time against B (+ = slower) with its interval, zero,
/// ± the A/A noise floor and ± the thresholds asked about, on one axis in percent.
///
/// The fields hold a report's `δ = 1 − A/B` (positive: A needs less time), A the candidate;
/// the figure draws A's change `−δ`, its interval `[−high, −low]`.
#[derive(Debug, Clone, PartialEq)]
pub struct NumberLine {
    /// The point estimate of δ = 1 − A/B (fraction; positive: A needs less time), drawn as
    /// A's change −δ.
    pub delta: f64,
    /// Lower end of δ's interval (fraction), drawn as the upper end of A's change.
    pub low: f64,
    /// Upper end of δ's interval (fraction), drawn as the lower end of A's change.
    pub high: f64,
    /// The interval's coverage level, in (0, 1).
    pub level: f64,
    /// The A/A noise floor (fraction); `None` when it was not measured.
    pub noise_floor: Option<f64>,
    /// The thresholds asked about (fractions); each is drawn at ± its absolute value. Zero
    /// and non-finite thresholds are left out.
    pub thresholds: Vec<f64>,
    /// Whether the words name B the candidate (a command against its reference): then the
    /// caller passes δ from B's side, `1 − B/A`, and the figure says "B's change against A".
    pub b_is_candidate: bool,
}

impl NumberLine {
    /// The figure (1000 × 190 SVG pixels) with its legend.
    pub fn figure(&self) -> Figure {
        let ts = self.shown_thresholds();
        let floor = self.noise_floor.filter(|f| f.is_finite() && *f > 0.0);
        let svg = svg(FIGURE_WIDTH, 190, |root| self.draw(root, &ts, floor));
        Figure {
            svg,
            legend: self.legend(&ts, floor),
        }
    }

    /// The thresholds as drawn: absolute values, zero and non-finite ones left out, ascending,
    /// each once.
    fn shown_thresholds(&self) -> Vec<f64> {
        let mut ts: Vec<f64> = self
            .thresholds
            .iter()
            .map(|t| t.abs())
            .filter(|t| t.is_finite() && *t > 0.0)
            .collect();
        ts.sort_unstable_by(f64::total_cmp);
        ts.dedup();
        ts
    }

    /// A's change with its interval: `−δ`, the ends swapped.
    fn change(&self) -> Change {
        Change::of_delta(self.delta, self.low, self.high)
    }

    /// Draws the axis of A's change in percent, the floor's band, the thresholds (`ts`,
    /// fractions), zero and the interval with its estimate.
    fn draw(&self, root: &Area<'_>, ts: &[f64], floor: Option<f64>) -> Result<(), String> {
        let pc = |v: f64| 100.0 * v;
        let c = self.change();
        let mut xs = vec![pc(c.low), pc(c.high), pc(c.change), 0.0];
        xs.extend(ts.iter().flat_map(|&t| [pc(t), -pc(t)]));
        if let Some(f) = floor {
            xs.extend([pc(f), -pc(f)]);
        }
        let (x0, x1) = span(xs, 0.06);
        let mut chart = ChartBuilder::on(root)
            .margin_left(20)
            .margin_right(30)
            .margin_top(10)
            .x_label_area_size(58)
            .y_label_area_size(0)
            .build_cartesian_2d(x0..x1, 0.0..1.0)
            .map_err(err)?;
        grid(&mut chart)
            .disable_y_mesh()
            .disable_y_axis()
            .x_labels(12)
            .x_label_formatter(&|v| change_tick(*v))
            .x_desc(change_axis(self.b_is_candidate))
            .draw()
            .map_err(err)?;
        if let Some(f) = floor {
            chart
                .draw_series([Rectangle::new(
                    [(-pc(f), 0.08), (pc(f), 0.92)],
                    rgb(COLOUR_FLOOR).mix(0.6).filled(),
                )])
                .map_err(err)?;
        }
        let orange = rgb(COLOUR_THRESHOLD);
        for &t in ts {
            for x in [pc(t), -pc(t)] {
                chart
                    .draw_series(
                        dashes((x, 0.0), (x, 0.8), 8)
                            .into_iter()
                            .map(|d| PathElement::new(d, orange.stroke_width(3))),
                    )
                    .map_err(err)?;
                chart
                    .draw_series([Text::new(
                        SignedPct(x / 100.0).to_string(),
                        (x, 0.83),
                        anchored(LABEL, HPos::Center, VPos::Bottom),
                    )])
                    .map_err(err)?;
            }
        }
        chart
            .draw_series([PathElement::new(
                vec![(0.0, 0.0), (0.0, 1.0)],
                rgb(COLOUR_INK).stroke_width(2),
            )])
            .map_err(err)?;
        let green = rgb(COLOUR_INTERVAL);
        let (lo, hi, d) = (pc(c.low), pc(c.high), pc(c.change));
        chart
            .draw_series([
                PathElement::new(vec![(lo, 0.42), (hi, 0.42)], green.stroke_width(7)),
                PathElement::new(vec![(lo, 0.3), (lo, 0.54)], green.stroke_width(3)),
                PathElement::new(vec![(hi, 0.3), (hi, 0.54)], green.stroke_width(3)),
            ])
            .map_err(err)?;
        chart
            .draw_series([Circle::new((d, 0.42), 7, rgb(COLOUR_INK).filled())])
            .map_err(err)?;
        chart
            .draw_series([Text::new(
                change_words(c.change),
                (d, 0.6),
                anchored(DESC, HPos::Center, VPos::Bottom),
            )])
            .map_err(err)?;
        Ok(())
    }

    /// The legend: the interval, zero, the floor (or that there is none) and the thresholds.
    fn legend(&self, ts: &[f64], floor: Option<f64>) -> Vec<LegendEntry> {
        let (who, other) = sides(self.b_is_candidate);
        let mut legend = vec![
            LegendEntry::new(
                COLOUR_INTERVAL,
                Mark::Line,
                format!(
                    "{} interval of {who}'s change in time against {other}, + = slower: {} \
                     (dot: the estimate)",
                    Level(self.level),
                    self.change()
                ),
            ),
            LegendEntry::new(COLOUR_INK, Mark::Line, "zero: no difference"),
        ];
        match floor {
            Some(f) => legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Band,
                format!(
                    "± the A/A noise floor ({}): what identical code measured here can differ by",
                    Pct(f)
                ),
            )),
            None => legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Band,
                "no noise floor: A/A validation was skipped",
            )),
        }
        if !ts.is_empty() {
            let list: Vec<String> = ts.iter().map(|&t| format!("±{}", Pct(t))).collect();
            legend.push(LegendEntry::new(
                COLOUR_THRESHOLD,
                Mark::Dashed,
                format!("thresholds asked about: {}", list.join(", ")),
            ));
        }
        legend
    }
}
