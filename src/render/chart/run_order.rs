//! Panel 2's figure: the pairs in measurement order, times above and the candidate's time over
//! the other's below, with each half's median and the drift tests' p-values.

use plotters::prelude::*;

use super::{
    Area, Chart, DESC, FIGURE_WIDTH, dashes, err, font, grid, rgb, sides, svg, tick, time_unit,
    view,
};
use crate::render::page::{
    COLOUR_A, COLOUR_B, COLOUR_FLOOR, COLOUR_INK, COLOUR_RATIO, Figure, LegendEntry, Mark,
};
use crate::stats::DriftReport;

/// Panel 2: A's and B's samples and the candidate's time over the other's (A/B, or B/A where
/// B is the candidate) against the pair index, with each half's median and the drift tests'
/// p-values.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOrder {
    /// Candidate A's name.
    pub name_a: String,
    /// Candidate B's name.
    pub name_b: String,
    /// A's samples in measurement order, nanoseconds (per operation or per run).
    pub a: Vec<f64>,
    /// B's samples; `b[i]` paired with `a[i]`.
    pub b: Vec<f64>,
    /// What one sample is, for the axis: `"per operation"`, `"per run"`.
    pub per: String,
    /// Drift test of A's series ([`detect_drift`](crate::stats::detect_drift);
    /// a report with `n` = 0 when it could not run: no half medians are drawn).
    pub drift_a: DriftReport,
    /// Drift test of B's series.
    pub drift_b: DriftReport,
    /// Drift test of the pairs' ratios (B/A or A/B: its p-value is a rank test's, the same
    /// for either; `n` = 0 when it could not run, and then no half medians are drawn).
    pub drift_ratio: DriftReport,
    /// Whether B is the candidate (a command against its reference): the ratio drawn is the
    /// candidate's time over the other's, B/A then and A/B otherwise, so that it rises when
    /// the candidate is slower, as every change rtcompare prints does.
    pub b_is_candidate: bool,
}

/// The pairs' ratios, the candidate's time over the other's (`a[i] / b[i]`, or `b[i] / a[i]`
/// where B is the candidate); non-finite ones are left out of figures.
pub(crate) fn candidate_ratios(a: &[f64], b: &[f64], b_is_candidate: bool) -> Vec<f64> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| if b_is_candidate { y / x } else { x / y })
        .collect()
}

/// The medians of the first and the last `n/2` of `r` (the halves the drift test compares),
/// or `None` with fewer than two values or a non-finite one.
pub(crate) fn half_medians(r: &[f64]) -> Option<(f64, f64)> {
    let half = r.len() / 2;
    if half == 0 {
        return None;
    }
    let first = crate::stats::median(&r[..half]).ok()?;
    let second = crate::stats::median(&r[r.len() - half..]).ok()?;
    Some((first, second))
}

/// A drift test's p-value for a caption; `not run` for a test that could not run (`n` = 0).
fn p_text(d: &DriftReport) -> String {
    let p = d.p_value;
    if d.n == 0 {
        "not run".into()
    } else if p.is_finite() {
        if p < 0.001 {
            "< 0.001".into()
        } else {
            format!("{p:.3}")
        }
    } else {
        "n/a".into()
    }
}

/// The right end of the pair axis: one slot per pair, two at least.
fn x_end(n: usize) -> f64 {
    (n.max(2)) as f64 + 0.5
}

/// Each half's median of a series of `n` pairs, as a segment `(from, to, median)` over its
/// pairs; none for a test that did not run.
fn halves(d: &DriftReport, n: usize) -> Vec<(f64, f64, f64)> {
    if d.n == 0 {
        return Vec::new();
    }
    let half = n / 2;
    let first_end = half as f64 + 0.5;
    let second_start = (n - half) as f64 + 0.5;
    vec![
        (0.5, first_end, d.first_half),
        (second_start, n as f64 + 0.5, d.second_half),
    ]
}

/// Where `v` is drawn on an axis from `lo` to `hi`: itself, or just inside the edge (1 % of
/// the range) when it lies beyond.
fn at_edge(v: f64, lo: f64, hi: f64) -> f64 {
    let span = hi - lo;
    v.clamp(lo + 0.01 * span, hi - 0.01 * span)
}

/// Draws one candidate's times `series` in `colour` on the upper chart (axis `t0..t1` ns,
/// shown divided by `div`): each half's median from `drift` as a thick line, each sample inside
/// the axis as a dot and each one beyond it as a triangle at the edge.
fn draw_time_series(
    chart: &mut Chart<'_>,
    series: &[f64],
    colour: &str,
    drift: &DriftReport,
    (t0, t1): (f64, f64),
    div: f64,
) -> Result<(), String> {
    let n = series.len();
    let c = rgb(colour);
    if n >= 2 {
        for (x0, x1, m) in halves(drift, n) {
            if m.is_finite() {
                let y = at_edge(m, t0, t1) / div;
                chart
                    .draw_series([PathElement::new(
                        vec![(x0, y), (x1, y)],
                        c.mix(0.9).stroke_width(3),
                    )])
                    .map_err(err)?;
            }
        }
    }
    // A sample inside the axis is a dot, one beyond it a triangle at the edge.
    let inside = |v: &f64| (t0..=t1).contains(v);
    chart
        .draw_series(
            series
                .iter()
                .enumerate()
                .filter(|(_, v)| inside(v))
                .map(|(i, &v)| Circle::new(((i + 1) as f64, v / div), 3, c.mix(0.8).filled())),
        )
        .map_err(err)?;
    chart
        .draw_series(
            series
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite() && !inside(v))
                .map(|(i, &v)| {
                    TriangleMarker::new(((i + 1) as f64, at_edge(v, t0, t1) / div), 6, c.filled())
                }),
        )
        .map_err(err)?;
    Ok(())
}

impl RunOrder {
    /// The figure (1000 × 560 SVG pixels: times above, ratios below) with its legend.
    pub fn figure(&self) -> Figure {
        let n = self.a.len().min(self.b.len());
        let (a, b) = (&self.a[..n], &self.b[..n]);
        let (t0, t1, t_out) = view(&[a, b], 0.25, 6.0);
        let r = candidate_ratios(a, b, self.b_is_candidate);
        let (r0, r1, r_out) = view(&[&r], 0.25, 6.0);
        let svg = svg(FIGURE_WIDTH, 560, |root| {
            let (top, bottom) = root.split_vertically(310);
            self.draw_times(&top, a, b, (t0, t1))?;
            self.draw_ratios(&bottom, &r, (r0, r1))
        });
        Figure {
            svg,
            legend: self.legend(t_out + r_out),
        }
    }

    /// The upper chart: A's and B's times (`a`, `b`, equally long) by pair on the axis
    /// `t0..t1` (ns), each half's median as a thick line, values beyond the axis as triangles.
    fn draw_times(
        &self,
        area: &Area<'_>,
        a: &[f64],
        b: &[f64],
        (t0, t1): (f64, f64),
    ) -> Result<(), String> {
        let n = a.len();
        let (div, unit) = time_unit(t1);
        let x1 = x_end(n);
        let mut chart = ChartBuilder::on(area)
            .margin_left(10)
            .margin_right(30)
            .margin_top(16)
            .caption(
                format!(
                    "Time {} by pair — drift test: A p = {}, B p = {}",
                    self.per,
                    p_text(&self.drift_a),
                    p_text(&self.drift_b)
                ),
                font(DESC),
            )
            .x_label_area_size(50)
            .y_label_area_size(100)
            .build_cartesian_2d(0.5..x1, t0 / div..t1 / div)
            .map_err(err)?;
        grid(&mut chart)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .x_desc("pair, in measurement order")
            .y_desc(format!("time {} ({unit})", self.per))
            .draw()
            .map_err(err)?;
        for (series, colour, drift) in [(a, COLOUR_A, &self.drift_a), (b, COLOUR_B, &self.drift_b)]
        {
            draw_time_series(&mut chart, series, colour, drift, (t0, t1), div)?;
        }
        Ok(())
    }

    /// The lower chart: the ratios `r` by pair on the axis `r0..r1`, a dashed line at 1, each
    /// half's median, values beyond the axis as triangles.
    fn draw_ratios(&self, area: &Area<'_>, r: &[f64], (r0, r1): (f64, f64)) -> Result<(), String> {
        let n = r.len();
        let x1 = x_end(n);
        let (who, other) = sides(self.b_is_candidate);
        let mut chart = ChartBuilder::on(area)
            .margin_left(10)
            .margin_right(30)
            .margin_top(16)
            .caption(
                format!(
                    "Ratio {who}/{other} by pair — drift test p = {}",
                    p_text(&self.drift_ratio)
                ),
                font(DESC),
            )
            .x_label_area_size(50)
            .y_label_area_size(100)
            .build_cartesian_2d(0.5..x1, r0..r1)
            .map_err(err)?;
        grid(&mut chart)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .x_desc("pair, in measurement order")
            .y_desc(format!("{who}'s time ÷ {other}'s"))
            .draw()
            .map_err(err)?;
        if r0 < 1.0 && 1.0 < r1 {
            chart
                .draw_series(
                    dashes((0.5, 1.0), (x1, 1.0), 40)
                        .into_iter()
                        .map(|d| PathElement::new(d, rgb(COLOUR_INK).stroke_width(1))),
                )
                .map_err(err)?;
        }
        let medians = half_medians(r).filter(|_| self.drift_ratio.n > 0);
        if let Some((first, second)) = medians {
            let half = n / 2;
            let segments = [
                (0.5, half as f64 + 0.5, first),
                ((n - half) as f64 + 0.5, n as f64 + 0.5, second),
            ];
            for (x0, x1, m) in segments {
                if m.is_finite() {
                    let y = at_edge(m, r0, r1);
                    chart
                        .draw_series([PathElement::new(
                            vec![(x0, y), (x1, y)],
                            rgb(COLOUR_INK).stroke_width(3),
                        )])
                        .map_err(err)?;
                }
            }
        }
        let c = rgb(COLOUR_RATIO);
        let inside = |v: &f64| (r0..=r1).contains(v);
        chart
            .draw_series(
                r.iter()
                    .enumerate()
                    .filter(|(_, v)| inside(v))
                    .map(|(i, &v)| Circle::new(((i + 1) as f64, v), 3, c.filled())),
            )
            .map_err(err)?;
        chart
            .draw_series(
                r.iter()
                    .enumerate()
                    .filter(|(_, v)| v.is_finite() && !inside(v))
                    .map(|(i, &v)| {
                        TriangleMarker::new(((i + 1) as f64, at_edge(v, r0, r1)), 6, c.filled())
                    }),
            )
            .map_err(err)?;
        Ok(())
    }

    /// The legend: both series, the ratio, the half medians and, if any, how many values lie
    /// beyond the axes (`outside`).
    fn legend(&self, outside: usize) -> Vec<LegendEntry> {
        let mut legend = vec![
            LegendEntry::new(COLOUR_A, Mark::Dot, format!("A: {}", self.name_a)),
            LegendEntry::new(COLOUR_B, Mark::Dot, format!("B: {}", self.name_b)),
            LegendEntry::new(COLOUR_RATIO, Mark::Dot, {
                let (who, other) = sides(self.b_is_candidate);
                format!("ratio {who}/{other} of the pair (above 1: {who} slower)")
            }),
            LegendEntry::new(
                COLOUR_INK,
                Mark::Line,
                "thick lines: median of each half (in the series' colour above)",
            ),
        ];
        if outside > 0 {
            legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Dot,
                format!(
                    "triangles: {} far outlier{} beyond the axis, drawn at its edge",
                    outside,
                    if outside == 1 { "" } else { "s" }
                ),
            ));
        }
        legend
    }
}
