//! Panel 4's figure: the bootstrap's replicates of A's change in time (+ = slower) as a
//! histogram, above the interval beside the A/A differences of identical code measured against
//! itself.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::{
    Area, Chart, DESC, FIGURE_WIDTH, anchored, change_axis, change_tick, change_words, dashes, err,
    finite, font, grid, rgb, sides, span, svg,
};
use crate::display::{Level, Pct, SignedPct};
use crate::render::page::{
    COLOUR_A, COLOUR_B, COLOUR_FLOOR, COLOUR_INK, COLOUR_INTERVAL, Figure, LegendEntry, Mark,
};
use crate::stats::Change;

/// Sample colour of the bootstrap histogram: Okabe–Ito sky blue.
const COLOUR_HIST: &str = "#56B4E9";

/// Histogram bins of the replicate deltas.
const BINS: usize = 60;

/// Panel 4: the histogram of the bootstrap's replicates with the interval's ends and the point
/// estimate, above a strip of the A/A differences of both validations on the same axis.
///
/// The fields hold δ = 1 − A/B (positive: A needs less time), as the bootstrap draws it; the
/// figure draws every value as A's change −δ (+ = slower), an interval `[low, high]` as
/// `[−high, −low]`, both axes in percent.
#[derive(Debug, Clone, PartialEq)]
pub struct BootstrapPlot {
    /// The replicate deltas (fractions), any order.
    pub replicates: Vec<f64>,
    /// The point estimate of δ (fraction).
    pub delta: f64,
    /// Lower end of the interval (fraction).
    pub low: f64,
    /// Upper end of the interval (fraction).
    pub high: f64,
    /// Coverage level of the interval.
    pub level: f64,
    /// A's A/A deltas, A against A′ (fractions); empty when not measured.
    pub aa_a: Vec<f64>,
    /// B's A/A deltas, B against B′ (fractions); empty when not measured.
    pub aa_b: Vec<f64>,
    /// The noise floor (fraction), drawn as a band; `None` when not measured.
    pub noise_floor: Option<f64>,
    /// Whether the words name B the candidate (a command against its reference): then the
    /// caller passes every δ from B's side, `1 − B/A`, and the figure says "B's change".
    pub b_is_candidate: bool,
    /// What one A/A dot is, for the legend (`"A/A runs"`; `"quantiles of the A/A bootstrap"`
    /// when the dots summarise one A/A series' replicates).
    pub aa_what: String,
}

/// What the plot draws, in percent of A's change (−δ, + = slower): the finite replicates and
/// A/A differences, the floor if it is finite and positive, the interval's ends and the
/// estimate.
struct Percent {
    /// The axis's description and the candidate's name (see [`change_axis`], [`sides`]).
    axis: &'static str,
    who: &'static str,
    reps: Vec<f64>,
    aa_a: Vec<f64>,
    aa_b: Vec<f64>,
    floor: Option<f64>,
    lo: f64,
    hi: f64,
    d: f64,
}

impl Percent {
    /// Whether any A/A delta is drawn.
    fn has_aa(&self) -> bool {
        !(self.aa_a.is_empty() && self.aa_b.is_empty())
    }
}

/// The replicates' histogram: [`BINS`] bins of `width` from `h0`, each bin's share of the
/// replicates, and the top of the share axis.
struct Histogram {
    h0: f64,
    h1: f64,
    width: f64,
    share: Vec<f64>,
    top: f64,
}

impl Histogram {
    /// Bins spanning the replicates, the interval's ends and the estimate.
    fn of(p: &Percent) -> Histogram {
        let (reps, lo, hi, d) = (&p.reps, p.lo, p.hi, p.d);
        let (h0, h1) = span(reps.iter().copied().chain([lo, hi, d]), 0.0);
        let width = (h1 - h0) / BINS as f64;
        let mut counts = [0usize; BINS];
        for &v in reps {
            let i = (((v - h0) / width).floor().max(0.0) as usize).min(BINS - 1);
            counts[i] += 1;
        }
        let share: Vec<f64> = counts
            .iter()
            .map(|&c| c as f64 / reps.len().max(1) as f64)
            .collect();
        let top = share.iter().copied().fold(0.0, f64::max).max(1e-9) * 1.12;
        Histogram {
            h0,
            h1,
            width,
            share,
            top,
        }
    }
}

impl BootstrapPlot {
    /// The figure (1000 × 560 SVG pixels) with its legend: above, the histogram on an axis
    /// zoomed to the replicates; below, on an axis wide enough for everything, the interval
    /// beside the A/A deltas and the noise floor.
    pub fn figure(&self) -> Figure {
        let p = self.percent();
        let hist = Histogram::of(&p);
        let svg = svg(FIGURE_WIDTH, 560, |root| {
            let (upper, lower) = root.split_vertically(320);
            draw_replicates(&upper, &p, &hist)?;
            draw_beside_aa(&lower, &p)
        });
        Figure {
            svg,
            legend: self.legend(&p),
        }
    }

    /// A's change with its interval: `−δ`, the ends swapped.
    fn change(&self) -> Change {
        Change::of_delta(self.delta, self.low, self.high)
    }

    /// The values to draw, in percent of A's change: each δ as `−100 δ`.
    fn percent(&self) -> Percent {
        let pc = |v: f64| 100.0 * v;
        let flip = |v: f64| -100.0 * v;
        let reps: Vec<f64> = finite(&self.replicates).into_iter().map(flip).collect();
        let aa_a: Vec<f64> = finite(&self.aa_a).into_iter().map(flip).collect();
        let aa_b: Vec<f64> = finite(&self.aa_b).into_iter().map(flip).collect();
        let floor = self
            .noise_floor
            .filter(|f| f.is_finite() && *f > 0.0)
            .map(pc);
        let c = self.change();
        Percent {
            axis: change_axis(self.b_is_candidate),
            who: sides(self.b_is_candidate).0,
            reps,
            aa_a,
            aa_b,
            floor,
            lo: pc(c.low),
            hi: pc(c.high),
            d: pc(c.change),
        }
    }

    /// The legend: the replicates, the estimate, the interval and, when measured, the A/A
    /// differences and the noise floor.
    fn legend(&self, p: &Percent) -> Vec<LegendEntry> {
        let c = self.change();
        let mut legend = vec![
            LegendEntry::new(
                COLOUR_HIST,
                Mark::Band,
                format!(
                    "{} bootstrap replicates of {}'s change (+ = slower)",
                    p.reps.len(),
                    p.who
                ),
            ),
            LegendEntry::new(
                COLOUR_INK,
                Mark::Line,
                format!("estimate {}", change_words(c.change)),
            ),
            LegendEntry::new(
                COLOUR_INTERVAL,
                Mark::Dashed,
                format!(
                    "{} interval, {} to {}",
                    Level(self.level),
                    SignedPct(c.low),
                    SignedPct(c.high)
                ),
            ),
        ];
        if p.has_aa() {
            legend.push(LegendEntry::new(
                COLOUR_A,
                Mark::Dot,
                format!("A against itself ({} {})", p.aa_a.len(), self.aa_what),
            ));
            legend.push(LegendEntry::new(
                COLOUR_B,
                Mark::Dot,
                format!("B against itself ({} {})", p.aa_b.len(), self.aa_what),
            ));
        }
        if let Some(f) = p.floor {
            legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Band,
                format!("± the noise floor ({})", Pct(f / 100.0)),
            ));
        }
        legend
    }
}

/// The upper chart: the histogram on an axis zoomed to the replicates, the interval's ends
/// dashed and the estimate as a line.
fn draw_replicates(area: &Area<'_>, p: &Percent, histogram: &Histogram) -> Result<(), String> {
    let (lo, hi, d) = (p.lo, p.hi, p.d);
    let (h0, width, share, top) = (
        histogram.h0,
        histogram.width,
        &histogram.share,
        histogram.top,
    );
    let (z0, z1) = span([h0, histogram.h1], 0.08);
    let mut chart = ChartBuilder::on(area)
        .margin_left(10)
        .margin_right(30)
        .margin_top(8)
        .caption(
            format!(
                "The bootstrap replicates of {}'s change (axis zoomed to them)",
                p.who
            ),
            font(DESC),
        )
        .x_label_area_size(50)
        .y_label_area_size(120)
        .build_cartesian_2d(z0..z1, 0.0..top)
        .map_err(err)?;
    grid(&mut chart)
        .x_labels(12)
        .x_label_formatter(&|v| change_tick(*v))
        .y_label_formatter(&|v| format!("{:.0} %", 100.0 * v))
        .y_desc("share of replicates")
        .x_desc(p.axis)
        .draw()
        .map_err(err)?;
    let hist = rgb(COLOUR_HIST);
    chart
        .draw_series(
            share
                .iter()
                .enumerate()
                .filter(|(_, s)| **s > 0.0)
                .map(|(i, &s)| {
                    let l = h0 + i as f64 * width;
                    Rectangle::new([(l, 0.0), (l + width, s)], hist.filled())
                }),
        )
        .map_err(err)?;
    let green = rgb(COLOUR_INTERVAL);
    for x in [lo, hi] {
        chart
            .draw_series(
                dashes((x, 0.0), (x, top), 12)
                    .into_iter()
                    .map(|d| PathElement::new(d, green.stroke_width(3))),
            )
            .map_err(err)?;
    }
    chart
        .draw_series([PathElement::new(
            vec![(d, 0.0), (d, top)],
            rgb(COLOUR_INK).stroke_width(3),
        )])
        .map_err(err)?;
    Ok(())
}

/// The lower chart, on an axis wide enough for everything: the interval and its estimate
/// beside the A/A differences of A and of B (or a sentence that there are none) and the floor.
fn draw_beside_aa(area: &Area<'_>, p: &Percent) -> Result<(), String> {
    let (lo, hi, d, floor) = (p.lo, p.hi, p.d, p.floor);
    let mut xs = vec![lo, hi, d, 0.0];
    xs.extend(p.aa_a.iter().chain(&p.aa_b).copied());
    if let Some(f) = floor {
        xs.extend([f, -f]);
    }
    let (x0, x1) = span(xs, 0.05);
    let green = rgb(COLOUR_INTERVAL);
    let mut strip = ChartBuilder::on(area)
        .margin_left(10)
        .margin_right(30)
        .margin_top(14)
        .caption(
            "The interval beside identical code measured against itself (whole range)",
            font(DESC),
        )
        .x_label_area_size(56)
        .y_label_area_size(120)
        .build_cartesian_2d(x0..x1, -0.6..2.6)
        .map_err(err)?;
    grid(&mut strip)
        .disable_y_mesh()
        .x_labels(12)
        .y_labels(7)
        .x_label_formatter(&|v| change_tick(*v))
        .y_label_formatter(&|v: &f64| {
            if (v - 2.0).abs() < 1e-6 {
                "interval".into()
            } else if (v - 1.0).abs() < 1e-6 {
                "A/A of A".into()
            } else if v.abs() < 1e-6 {
                "A/A of B".into()
            } else {
                String::new()
            }
        })
        .x_desc(p.axis)
        .draw()
        .map_err(err)?;
    if let Some(f) = floor {
        strip
            .draw_series([Rectangle::new(
                [(-f, -0.6), (f, 2.6)],
                rgb(COLOUR_FLOOR).mix(0.5).filled(),
            )])
            .map_err(err)?;
    }
    strip
        .draw_series([PathElement::new(
            vec![(0.0, -0.6), (0.0, 2.6)],
            rgb(COLOUR_INK).stroke_width(1),
        )])
        .map_err(err)?;
    strip
        .draw_series([
            PathElement::new(vec![(lo, 2.0), (hi, 2.0)], green.stroke_width(7)),
            PathElement::new(vec![(lo, 1.8), (lo, 2.2)], green.stroke_width(3)),
            PathElement::new(vec![(hi, 1.8), (hi, 2.2)], green.stroke_width(3)),
        ])
        .map_err(err)?;
    strip
        .draw_series([Circle::new((d, 2.0), 6, rgb(COLOUR_INK).filled())])
        .map_err(err)?;
    draw_aa_rows(&mut strip, p, (x0, x1))?;
    Ok(())
}

/// Draws the A/A differences of A and of B as dots on their rows of the lower chart (axis
/// `x0..x1`), or, when there are none, a sentence saying that identical code was not
/// measured against itself.
fn draw_aa_rows(strip: &mut Chart<'_>, p: &Percent, (x0, x1): (f64, f64)) -> Result<(), String> {
    for (values, colour, y) in [(&p.aa_a, COLOUR_A, 1.0), (&p.aa_b, COLOUR_B, 0.0)] {
        let c = rgb(colour);
        strip
            .draw_series(values.iter().enumerate().map(|(i, &v)| {
                // A fixed, deterministic jitter so that equal differences stay visible.
                let j = ((i as f64 * 0.618_034).fract() - 0.5) * 0.5;
                Circle::new((v, y + j), 4, c.mix(0.85).filled())
            }))
            .map_err(err)?;
    }
    if !p.has_aa() {
        strip
            .draw_series([Text::new(
                "no A/A validation: identical code was not measured against itself",
                ((x0 + x1) / 2.0, 0.5),
                anchored(DESC, HPos::Center, VPos::Center),
            )])
            .map_err(err)?;
    }
    Ok(())
}
