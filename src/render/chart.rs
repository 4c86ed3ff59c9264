//! The figures, drawn with plotters' SVG backend: plain data in, one [`Figure`] (an inline SVG
//! document and its legend) out. Every figure draws on any finite input, however extreme
//! (values that are not finite are left out), and never panics; if plotters itself fails, the
//! figure is an SVG holding the error's sentence.
//!
//! Text is emitted as SVG `<text>` in the browser's sans-serif font: plotters is built without
//! a font backend (no system fonts or native libraries), so it only estimates text widths for
//! its layout; the label areas are sized with room to spare, and legends are HTML beside the
//! SVG.

use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::page::{
    COLOUR_A, COLOUR_B, COLOUR_FLOOR, COLOUR_INK, COLOUR_INTERVAL, COLOUR_RATIO, COLOUR_THRESHOLD,
    Figure, LegendEntry, Mark,
};
use crate::display::{Ns, Pct};
use crate::stats::DriftReport;

/// Width of every figure, in SVG pixels (shown at this size in a 1,080-pixel column and scaled
/// down in narrower windows).
pub const FIGURE_WIDTH: u32 = 1000;

/// Font size of tick labels handed to plotters (it writes `size / 1.24` as the CSS font size:
/// 14.5 px).
const LABEL: u32 = 18;
/// Font size of axis descriptions and captions (16 px).
const DESC: u32 = 20;
/// Sample colour of the bootstrap histogram: Okabe–Ito sky blue.
const COLOUR_HIST: &str = "#56B4E9";

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn rgb(hex: &str) -> RGBColor {
    let h = hex.trim_start_matches('#');
    let p = |i: usize| h.get(i..i + 2).and_then(|s| u8::from_str_radix(s, 16).ok());
    match (p(0), p(2), p(4)) {
        (Some(r), Some(g), Some(b)) => RGBColor(r, g, b),
        _ => RGBColor(0, 0, 0),
    }
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Draws on a fresh white SVG of `width` × `height`; a drawing error becomes a figure that says
/// so.
fn svg(width: u32, height: u32, draw: impl FnOnce(&Area<'_>) -> Result<(), String>) -> String {
    let mut buf = String::new();
    let outcome = {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        let drawn = root.fill(&WHITE).map_err(err).and_then(|()| draw(&root));
        drawn.and(root.present().map_err(err))
    };
    match outcome {
        Ok(()) => buf,
        Err(e) => format!(
            "<svg width=\"{width}\" height=\"60\" viewBox=\"0 0 {width} 60\" \
             xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"35\" font-family=\"sans-serif\" \
             font-size=\"15\">The figure could not be drawn: {}</text></svg>\n",
            super::page::escape(&e)
        ),
    }
}

/// A tick label: about four significant digits, trailing zeros trimmed.
pub(crate) fn tick(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (3 - magnitude).clamp(0, 9) as usize;
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".into() } else { s }
}

/// A value with its sign (`+12.3`), for percentages on a δ axis.
fn signed(v: f64) -> String {
    let t = tick(v);
    if v > 0.0 { format!("+{t}") } else { t }
}

/// The divisor and unit name that show durations around `ns` with a few digits.
pub(crate) fn time_unit(ns: f64) -> (f64, &'static str) {
    let a = ns.abs();
    if a < 1e3 {
        (1.0, "ns")
    } else if a < 1e6 {
        (1e3, "µs")
    } else if a < 1e9 {
        (1e6, "ms")
    } else {
        (1e9, "s")
    }
}

fn finite(values: &[f64]) -> Vec<f64> {
    values.iter().copied().filter(|v| v.is_finite()).collect()
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = finite(values);
    v.sort_unstable_by(f64::total_cmp);
    v
}

fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let h = p.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (i, f) = (h.floor() as usize, h - h.floor());
    let j = (i + 1).min(sorted.len() - 1);
    sorted[i] + f * (sorted[j] - sorted[i])
}

/// The range `[low, high]` of `values` widened by `pad` (a share of the width) on both sides;
/// a single value gets a width of its own. Always finite with `low < high`.
fn span(values: impl IntoIterator<Item = f64>, pad: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.into_iter().filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return (0.0, 1.0);
    }
    let width = hi - lo;
    let w = if width > 0.0 && width.is_finite() {
        width
    } else {
        lo.abs().max(1e-9) * 0.1
    };
    let (l, h) = (lo - pad * w, hi + pad * w);
    if l.is_finite() && h.is_finite() && l < h {
        (l, h)
    } else {
        (lo.max(-f64::MAX / 4.0), hi.min(f64::MAX / 4.0) + 1.0)
    }
}

/// The range a figure shows of one or more series that may hold a few far outliers: each
/// series' whole range, unless some of its values lie further than `k` times its range
/// between the `q` and `1 − q` quantiles beyond those quantiles; such values are left beyond
/// the edge (and drawn at it). Returns the range and how many values lie outside.
///
/// The run-order plot uses the quartiles and `k = 6` (Gaussian noise is never cut, at about 8 σ
/// beyond a quartile; interrupted batches at several times the typical time are, so the bulk
/// where drift shows stays readable); the distributions use the 5th and 95th percentiles and
/// `k = 3`, which keeps a tail of a few per cent in view.
fn view(series: &[&[f64]], q: f64, k: f64) -> (f64, f64, usize) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut all = Vec::new();
    for values in series {
        let s = sorted(values);
        if s.is_empty() {
            continue;
        }
        let (ql, qh) = (quantile(&s, q), quantile(&s, 1.0 - q));
        let r = qh - ql;
        let (mut l, mut h) = (s[0], s[s.len() - 1]);
        if r > 0.0 {
            l = l.max(ql - k * r);
            h = h.min(qh + k * r);
        }
        lo = lo.min(l);
        hi = hi.max(h);
        all.extend(s);
    }
    if lo > hi {
        return (0.0, 1.0, 0);
    }
    let outside = all.iter().filter(|&&v| v < lo || v > hi).count();
    let (l, h) = span([lo, hi], 0.05);
    (l, h, outside)
}

fn font(size: u32) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&rgb(COLOUR_INK))
}

fn anchored(size: u32, h: HPos, v: VPos) -> TextStyle<'static> {
    font(size).pos(Pos::new(h, v))
}

/// Dashes along the segment from `p` to `q`, in data coordinates.
fn dashes(p: (f64, f64), q: (f64, f64), count: usize) -> Vec<Vec<(f64, f64)>> {
    let n = 2 * count.max(1) - 1;
    (0..n)
        .step_by(2)
        .map(|i| {
            let t0 = i as f64 / n as f64;
            let t1 = (i + 1) as f64 / n as f64;
            let at = |t: f64| (p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1));
            vec![at(t0), at(t1)]
        })
        .collect()
}

fn grid<'a, 'b, X, Y>(
    chart: &'b mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
) -> MeshStyle<'a, 'b, X, Y, SVGBackend<'a>>
where
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>
        + plotters::coord::ranged1d::ValueFormatter<f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>
        + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let mut m = chart.configure_mesh();
    m.max_light_lines(1)
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(218, 218, 218))
        .axis_style(rgb(COLOUR_INK))
        .label_style(font(LABEL))
        .axis_desc_style(font(DESC));
    m
}

/// Panel 1's number line: the interval of δ = 1 − A/B, zero, ± the A/A noise floor and ± the
/// thresholds asked about, on one axis in percent.
#[derive(Debug, Clone, PartialEq)]
pub struct NumberLine {
    /// The point estimate of δ (fraction; positive: A needs less time).
    pub delta: f64,
    /// Lower end of its interval (fraction).
    pub low: f64,
    /// Upper end of its interval (fraction).
    pub high: f64,
    /// The interval's coverage level, in (0, 1).
    pub level: f64,
    /// The A/A noise floor (fraction); `None` when it was not measured.
    pub noise_floor: Option<f64>,
    /// The thresholds asked about (fractions); each is drawn at ± its absolute value. Zero
    /// and non-finite thresholds are left out.
    pub thresholds: Vec<f64>,
}

impl NumberLine {
    /// The figure (1000 × 190 SVG pixels) with its legend.
    pub fn figure(&self) -> Figure {
        let pc = |v: f64| 100.0 * v;
        let mut ts: Vec<f64> = self
            .thresholds
            .iter()
            .map(|t| t.abs())
            .filter(|t| t.is_finite() && *t > 0.0)
            .collect();
        ts.sort_unstable_by(f64::total_cmp);
        ts.dedup();
        let floor = self.noise_floor.filter(|f| f.is_finite() && *f > 0.0);
        let mut xs = vec![pc(self.low), pc(self.high), pc(self.delta), 0.0];
        xs.extend(ts.iter().flat_map(|&t| [pc(t), -pc(t)]));
        if let Some(f) = floor {
            xs.extend([pc(f), -pc(f)]);
        }
        let (x0, x1) = span(xs, 0.06);
        let svg = svg(FIGURE_WIDTH, 190, |root| {
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
                .x_label_formatter(&|v| signed(*v))
                .x_desc("δ = 1 − A/B, % of B's time (positive: A needs less time)")
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
            for &t in &ts {
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
                            format!("{}%", signed(x)),
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
            let (lo, hi, d) = (pc(self.low), pc(self.high), pc(self.delta));
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
                    format!("δ {}%", signed(d)),
                    (d, 0.6),
                    anchored(DESC, HPos::Center, VPos::Bottom),
                )])
                .map_err(err)?;
            Ok(())
        });
        let mut legend = vec![
            LegendEntry::new(
                COLOUR_INTERVAL,
                Mark::Line,
                format!(
                    "{:.0}% interval of δ, {} to {} (dot: the estimate {})",
                    100.0 * self.level,
                    Pct(self.low),
                    Pct(self.high),
                    Pct(self.delta)
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
        Figure { svg, legend }
    }
}

/// Panel 2: A's and B's samples and the ratio B/A against the pair index, with each half's
/// median and the drift tests' p-values.
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
    /// [`DriftReport::not_run`] when it could not run: no half medians are drawn).
    pub drift_a: DriftReport,
    /// Drift test of B's series.
    pub drift_b: DriftReport,
    /// Drift test of the ratios B/A.
    pub drift_ratio: DriftReport,
}

/// The pairs' ratios `b[i] / a[i]`, non-finite ones left out of figures.
fn ratios(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(&x, &y)| y / x).collect()
}

/// A drift test's p-value for a caption; `not run` for [`DriftReport::not_run`].
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

impl RunOrder {
    /// The figure (1000 × 560 SVG pixels: times above, ratios below) with its legend.
    pub fn figure(&self) -> Figure {
        let n = self.a.len().min(self.b.len());
        let (a, b) = (&self.a[..n], &self.b[..n]);
        let (t0, t1, t_out) = view(&[a, b], 0.25, 6.0);
        let (div, unit) = time_unit(t1);
        let r = ratios(a, b);
        let (r0, r1, r_out) = view(&[&r], 0.25, 6.0);
        let x1 = (n.max(2)) as f64 + 0.5;
        let half = n / 2;
        // Each half's median, as a segment over its pairs; none for a test that did not run.
        let halves = |d: &DriftReport| -> Vec<(f64, f64, f64)> {
            if d.n == 0 {
                return Vec::new();
            }
            let first_end = half as f64 + 0.5;
            let second_start = (n - half) as f64 + 0.5;
            vec![
                (0.5, first_end, d.first_half),
                (second_start, n as f64 + 0.5, d.second_half),
            ]
        };
        let svg = svg(FIGURE_WIDTH, 560, |root| {
            let (top, bottom) = root.split_vertically(310);
            let clamp = |v: f64, lo: f64, hi: f64| {
                let span = hi - lo;
                v.clamp(lo + 0.01 * span, hi - 0.01 * span)
            };
            {
                let mut chart = ChartBuilder::on(&top)
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
                for (series, colour, drift) in
                    [(a, COLOUR_A, &self.drift_a), (b, COLOUR_B, &self.drift_b)]
                {
                    let c = rgb(colour);
                    if n >= 2 {
                        for (x0, x1, m) in halves(drift) {
                            if m.is_finite() {
                                let y = clamp(m, t0, t1) / div;
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
                        .draw_series(series.iter().enumerate().filter(|(_, v)| inside(v)).map(
                            |(i, &v)| {
                                Circle::new(((i + 1) as f64, v / div), 3, c.mix(0.8).filled())
                            },
                        ))
                        .map_err(err)?;
                    chart
                        .draw_series(
                            series
                                .iter()
                                .enumerate()
                                .filter(|(_, v)| v.is_finite() && !inside(v))
                                .map(|(i, &v)| {
                                    TriangleMarker::new(
                                        ((i + 1) as f64, clamp(v, t0, t1) / div),
                                        6,
                                        c.filled(),
                                    )
                                }),
                        )
                        .map_err(err)?;
                }
            }
            let mut chart = ChartBuilder::on(&bottom)
                .margin_left(10)
                .margin_right(30)
                .margin_top(16)
                .caption(
                    format!(
                        "Ratio B/A by pair — drift test p = {}",
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
                .y_desc("B's time ÷ A's")
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
            if n >= 2 {
                for (x0, x1, m) in halves(&self.drift_ratio) {
                    if m.is_finite() {
                        let y = clamp(m, r0, r1);
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
                            TriangleMarker::new(((i + 1) as f64, clamp(v, r0, r1)), 6, c.filled())
                        }),
                )
                .map_err(err)?;
            Ok(())
        });
        let mut legend = vec![
            LegendEntry::new(COLOUR_A, Mark::Dot, format!("A: {}", self.name_a)),
            LegendEntry::new(COLOUR_B, Mark::Dot, format!("B: {}", self.name_b)),
            LegendEntry::new(COLOUR_RATIO, Mark::Dot, "ratio B/A of the pair"),
            LegendEntry::new(
                COLOUR_INK,
                Mark::Line,
                "thick lines: median of each half (in the series' colour above)",
            ),
        ];
        if t_out + r_out > 0 {
            legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Dot,
                format!(
                    "triangles: {} far outlier{} beyond the axis, drawn at its edge",
                    t_out + r_out,
                    if t_out + r_out == 1 { "" } else { "s" }
                ),
            ));
        }
        Figure { svg, legend }
    }
}

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

impl Distributions {
    /// The figure (1000 × 360 SVG pixels) with its legend.
    pub fn figure(&self) -> Figure {
        let (sa, sb) = (sorted(&self.a), sorted(&self.b));
        let (x0, x1, out) = view(&[&sa, &sb], 0.05, 3.0);
        let (div, unit) = time_unit(x1);
        let median = |s: &[f64]| quantile(s, 0.5);
        let svg = svg(FIGURE_WIDTH, 360, |root| {
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
                .y_label_formatter(&|v| format!("{:.0}%", 100.0 * v))
                .x_desc(format!("time {} ({unit})", self.per))
                .y_desc("samples at or below")
                .draw()
                .map_err(err)?;
            for (s, colour) in [(&sa, COLOUR_A), (&sb, COLOUR_B)] {
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
                let m = clip(median(s));
                chart
                    .draw_series(
                        dashes((m, 0.0), (m, 1.0), 14)
                            .into_iter()
                            .map(|d| PathElement::new(d, c.stroke_width(2))),
                    )
                    .map_err(err)?;
                chart
                    .draw_series([TriangleMarker::new((clip(s[0]), 0.025), 9, c.filled())])
                    .map_err(err)?;
            }
            Ok(())
        });
        let describe = |name: &str, s: &[f64]| {
            if s.is_empty() {
                format!("{name}: no samples")
            } else {
                format!(
                    "{name}: median {} (dashed), minimum {} (triangle)",
                    Ns(median(s)),
                    Ns(s[0])
                )
            }
        };
        let mut legend = vec![
            LegendEntry::new(
                COLOUR_A,
                Mark::Line,
                describe(&format!("A ({})", self.name_a), &sa),
            ),
            LegendEntry::new(
                COLOUR_B,
                Mark::Line,
                describe(&format!("B ({})", self.name_b), &sb),
            ),
        ];
        if out > 0 {
            legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Line,
                format!("{out} far outlier(s) beyond the axis, drawn at its edge"),
            ));
        }
        Figure { svg, legend }
    }
}

/// Panel 4: the histogram of the bootstrap's replicate deltas with the interval's ends and
/// the point estimate, above a strip of the A/A deltas of both validations on the same axis.
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
    /// What one A/A dot is, for the legend (`"A/A runs"`; `"quantiles of the A/A bootstrap"`
    /// when the dots summarise one A/A series' replicates).
    pub aa_what: String,
}

/// Histogram bins of the replicate deltas.
const BINS: usize = 60;

impl BootstrapPlot {
    /// The figure (1000 × 560 SVG pixels) with its legend: above, the histogram on an axis
    /// zoomed to the replicates; below, on an axis wide enough for everything, the interval
    /// beside the A/A deltas and the noise floor.
    pub fn figure(&self) -> Figure {
        let pc = |v: f64| 100.0 * v;
        let reps: Vec<f64> = finite(&self.replicates).into_iter().map(pc).collect();
        let aa_a: Vec<f64> = finite(&self.aa_a).into_iter().map(pc).collect();
        let aa_b: Vec<f64> = finite(&self.aa_b).into_iter().map(pc).collect();
        let floor = self
            .noise_floor
            .filter(|f| f.is_finite() && *f > 0.0)
            .map(pc);
        let (lo, hi, d) = (pc(self.low), pc(self.high), pc(self.delta));
        let (h0, h1) = span(reps.iter().copied().chain([lo, hi, d]), 0.0);
        let width = (h1 - h0) / BINS as f64;
        let mut counts = [0usize; BINS];
        for &v in &reps {
            let i = (((v - h0) / width).floor().max(0.0) as usize).min(BINS - 1);
            counts[i] += 1;
        }
        let share: Vec<f64> = counts
            .iter()
            .map(|&c| c as f64 / reps.len().max(1) as f64)
            .collect();
        let top = share.iter().copied().fold(0.0, f64::max).max(1e-9) * 1.12;
        let (z0, z1) = span([h0, h1], 0.08);
        let mut xs = vec![lo, hi, d, 0.0];
        xs.extend(aa_a.iter().chain(&aa_b).copied());
        if let Some(f) = floor {
            xs.extend([f, -f]);
        }
        let (x0, x1) = span(xs, 0.05);
        let has_aa = !(aa_a.is_empty() && aa_b.is_empty());
        let axis = "δ = 1 − A/B, % of B's time (positive: A needs less time)";
        let svg =
            svg(FIGURE_WIDTH, 560, |root| {
                let (upper, lower) = root.split_vertically(320);
                let mut chart = ChartBuilder::on(&upper)
                    .margin_left(10)
                    .margin_right(30)
                    .margin_top(8)
                    .caption(
                        "The bootstrap replicates of δ (axis zoomed to them)",
                        font(DESC),
                    )
                    .x_label_area_size(50)
                    .y_label_area_size(120)
                    .build_cartesian_2d(z0..z1, 0.0..top)
                    .map_err(err)?;
                grid(&mut chart)
                    .x_labels(12)
                    .x_label_formatter(&|v| signed(*v))
                    .y_label_formatter(&|v| format!("{:.0}%", 100.0 * v))
                    .y_desc("share of replicates")
                    .x_desc(axis)
                    .draw()
                    .map_err(err)?;
                let hist = rgb(COLOUR_HIST);
                chart
                    .draw_series(share.iter().enumerate().filter(|(_, s)| **s > 0.0).map(
                        |(i, &s)| {
                            let l = h0 + i as f64 * width;
                            Rectangle::new([(l, 0.0), (l + width, s)], hist.filled())
                        },
                    ))
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
                let mut strip = ChartBuilder::on(&lower)
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
                    .x_label_formatter(&|v| signed(*v))
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
                    .x_desc(axis)
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
                for (values, colour, y) in [(&aa_a, COLOUR_A, 1.0), (&aa_b, COLOUR_B, 0.0)] {
                    let c = rgb(colour);
                    strip
                        .draw_series(values.iter().enumerate().map(|(i, &v)| {
                            // A fixed, deterministic jitter so that equal deltas stay visible.
                            let j = ((i as f64 * 0.618_034).fract() - 0.5) * 0.5;
                            Circle::new((v, y + j), 4, c.mix(0.85).filled())
                        }))
                        .map_err(err)?;
                }
                if !has_aa {
                    strip
                        .draw_series([Text::new(
                            "no A/A validation: identical code was not measured against itself",
                            ((x0 + x1) / 2.0, 0.5),
                            anchored(DESC, HPos::Center, VPos::Center),
                        )])
                        .map_err(err)?;
                }
                Ok(())
            });
        let mut legend = vec![
            LegendEntry::new(
                COLOUR_HIST,
                Mark::Band,
                format!("{} bootstrap replicates of δ", reps.len()),
            ),
            LegendEntry::new(
                COLOUR_INK,
                Mark::Line,
                format!("estimate {}", Pct(self.delta)),
            ),
            LegendEntry::new(
                COLOUR_INTERVAL,
                Mark::Dashed,
                format!(
                    "{:.0}% interval, {} to {}",
                    100.0 * self.level,
                    Pct(self.low),
                    Pct(self.high)
                ),
            ),
        ];
        if has_aa {
            legend.push(LegendEntry::new(
                COLOUR_A,
                Mark::Dot,
                format!("A against itself ({} {})", aa_a.len(), self.aa_what),
            ));
            legend.push(LegendEntry::new(
                COLOUR_B,
                Mark::Dot,
                format!("B against itself ({} {})", aa_b.len(), self.aa_what),
            ));
        }
        if let Some(f) = floor {
            legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Band,
                format!("± the noise floor ({})", Pct(f / 100.0)),
            ));
        }
        Figure { svg, legend }
    }
}

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
        let k = self.bars.len().max(1);
        let height = 90 + 40 * k as u32;
        let names: Vec<String> = self.bars.iter().map(|b| b.label.clone()).collect();
        let svg = svg(FIGURE_WIDTH, height, |root| {
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
        });
        Figure {
            svg,
            legend: Vec::new(),
        }
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

/// The forest plot of a pooled comparison: each process's interval, and the pooled interval as
/// a diamond beneath, on one δ axis with zero and ± the pooled noise floor.
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
    pub(crate) fn figure(&self) -> Figure {
        let pc = |v: f64| 100.0 * v;
        let k = self.deltas.len();
        let rows = k + 1;
        let hw = |i: usize| self.half_widths.get(i).copied().unwrap_or(0.0);
        let floor = self
            .noise_floor
            .filter(|f| f.is_finite() && *f > 0.0)
            .map(pc);
        let mut xs: Vec<f64> = (0..k)
            .flat_map(|i| [pc(self.deltas[i] - hw(i)), pc(self.deltas[i] + hw(i))])
            .collect();
        xs.extend([pc(self.low), pc(self.high), 0.0]);
        if let Some(f) = floor {
            xs.extend([f, -f]);
        }
        let (x0, x1) = span(xs, 0.05);
        let height = 110 + 30 * rows as u32;
        let svg = svg(FIGURE_WIDTH, height, |root| {
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
                .x_label_formatter(&|v| signed(*v))
                .x_desc("δ = 1 − A/B, % of B's time (positive: A needs less time)")
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
            let blue = rgb(COLOUR_A);
            for i in 0..k {
                let y = (rows - 1 - i) as f64;
                let (d, h) = (pc(self.deltas[i]), pc(hw(i)));
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
            let (l, d, h) = (pc(self.low), pc(self.delta), pc(self.high));
            chart
                .draw_series([Polygon::new(
                    vec![(l, 0.0), (d, 0.32), (h, 0.0), (d, -0.32)],
                    rgb(COLOUR_RATIO).filled(),
                )])
                .map_err(err)?;
            Ok(())
        });
        let mut legend = vec![
            LegendEntry::new(
                COLOUR_A,
                Mark::Line,
                "each process's own interval of δ (dot: its estimate)",
            ),
            LegendEntry::new(
                COLOUR_RATIO,
                Mark::Band,
                format!(
                    "pooled {:.0}% interval, {} to {} (centre: the mean {})",
                    100.0 * self.level,
                    Pct(self.low),
                    Pct(self.high),
                    Pct(self.delta)
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
        Figure { svg, legend }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(-0.0001234), "-0.0001234");
        assert_eq!(tick(999_900.0), "999900");
        assert_eq!(tick(12.0), "12");
        assert_eq!(signed(5.0), "+5");
        assert_eq!(signed(-5.0), "-5");
        assert_eq!(decade(0), "1 ns");
        assert_eq!(decade(2), "100 ns");
        assert_eq!(decade(4), "10 µs");
        assert_eq!(decade(9), "1 s");
        assert_eq!(decade(-1), "0.1 ns");
    }

    #[test]
    fn spans_are_finite_and_ordered() {
        for vs in [
            vec![],
            vec![1.0],
            vec![f64::NAN, 2.0, 2.0],
            vec![-f64::MAX, f64::MAX],
            vec![1e-300, 2e-300],
        ] {
            let (l, h) = span(vs.clone(), 0.05);
            assert!(l.is_finite() && h.is_finite() && l < h, "{vs:?}: {l} {h}");
        }
        let mut v: Vec<f64> = (0..100).map(|i| 100.0 + i as f64 * 0.1).collect();
        v.push(1e6);
        let (_, h, out) = view(&[&v], 0.05, 3.0);
        assert!(h < 200.0 && out == 1, "{h} {out}");
    }
}
