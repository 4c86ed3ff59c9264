//! The figures, drawn with plotters' SVG backend: plain data in, one
//! [`Figure`](super::Figure) (an inline SVG document and its legend) out. Every figure draws on
//! any finite input, however extreme (values that are not finite are left out), and never
//! panics; if plotters itself fails, the figure is an SVG holding the error's sentence.
//!
//! Text is emitted as SVG `<text>` in the browser's sans-serif font: plotters is built without
//! a font backend (no system fonts or native libraries), so it only estimates text widths for
//! its layout; the label areas are sized with room to spare, and legends are HTML beside the
//! SVG.
//!
//! One file per figure, each a struct of plain data with one method of the same shape,
//! `figure(&self) -> Figure` (an inherent method, so that callers need no trait in scope):
//! [`NumberLine`] (panel 1), [`RunOrder`] (panel 2), [`Distributions`] (panel 3),
//! [`BootstrapPlot`] (panel 4), [`TimeScale`] of [`TimeBar`]s (panel 5), the pooled
//! comparison's forest plot, and [`MachineForest`] for one comparison pooled across machines. This file holds what they share: the SVG canvas, the fonts, the
//! colours, the grid, tick labels and the axis ranges.
//!
//! The figures of a difference take δ = 1 − A/B (positive: A, the candidate, needs less time),
//! as the data hold it, and draw the one direction a person reads: A's change in time against
//! B, `−δ`, + = slower, an interval `[low, high]` of δ as `[−high, −low]`; percentages in the
//! crate's one style (`+1.5 %`, `−2 %`, a space before `%`, the minus sign U+2212).

use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::page::COLOUR_INK;
use crate::display::Pct;

mod bootstrap;
mod distributions;
mod forest;
mod machines;
mod number_line;
mod run_order;
mod time;

pub use bootstrap::BootstrapPlot;
pub use distributions::Distributions;
pub(crate) use forest::Forest;
pub use machines::MachineForest;
pub use number_line::NumberLine;
pub use run_order::RunOrder;
pub(crate) use run_order::{candidate_ratios, half_medians};
pub use time::{TimeBar, TimeScale};

/// Width of every figure, in SVG pixels (shown at this size in a 1,080-pixel column and scaled
/// down in narrower windows).
pub(crate) const FIGURE_WIDTH: u32 = 1000;

/// Font size of tick labels handed to plotters (it writes `size / 1.24` as the CSS font size:
/// 14.5 px).
const LABEL: u32 = 18;
/// Font size of axis descriptions and captions (16 px).
const DESC: u32 = 20;

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A chart with both axes in plain `f64` coordinates, as every figure here builds.
type Chart<'a> = ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

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

/// A value with its sign, `+` or the minus sign U+2212 as [`SignedPct`](crate::display::SignedPct)
/// writes it (`+12.3`, `−0.5`, `0`), for percentages on an axis of A's change.
fn signed(v: f64) -> String {
    let t = tick(v.abs());
    if t == "0" {
        t
    } else if v > 0.0 {
        format!("+{t}")
    } else {
        format!("−{t}")
    }
}

/// A tick label on an axis of A's change in percent: the value with its sign and a space
/// before `%` (`+1.5 %`, `−2 %`, `0 %`), in the style of
/// [`SignedPct`](crate::display::SignedPct) without its fixed decimals.
fn change_tick(v: f64) -> String {
    format!("{} %", signed(v))
}

/// A change (fraction, + = slower) in words without its interval, as
/// [`Change`](crate::stats::Change)'s `Display` begins: `2.1 % slower`, `0.45 % faster`,
/// `no change`; a NaN is `NaN %`.
fn change_words(change: f64) -> String {
    if change > 0.0 {
        format!("{} slower", Pct(change))
    } else if change < 0.0 {
        format!("{} faster", Pct(-change))
    } else if change == 0.0 {
        "no change".to_string()
    } else {
        Pct(change).to_string()
    }
}

/// The description of every axis of A's change: A's time against B's minus 1, in percent,
/// + = slower (`−δ` for a report's `δ = 1 − A/B`).
const CHANGE_AXIS: &str = "A's change in time against B, % of B's time (+ = slower)";

/// The axis of the candidate's change: A's ([`CHANGE_AXIS`]) or, where the caller names B
/// the candidate (a command against its reference), B's.
fn change_axis(b_is_candidate: bool) -> &'static str {
    if b_is_candidate {
        "B's change in time against A, % of A's time (+ = slower)"
    } else {
        CHANGE_AXIS
    }
}

/// The names of the candidate and the baseline in a figure's words: `("A", "B")`, or
/// `("B", "A")` where the caller names B the candidate.
fn sides(b_is_candidate: bool) -> (&'static str, &'static str) {
    if b_is_candidate {
        ("B", "A")
    } else {
        ("A", "B")
    }
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
        return (l, h);
    }
    // Values near the ends of f64: keep the range a quarter of the way in, where a margin and
    // the axis arithmetic stay finite, and never inverted (a range whose ends both clamp to
    // the same quarter still gets a width).
    let edge = f64::MAX / 4.0;
    let (l, h) = (lo.clamp(-edge, edge), hi.clamp(-edge, edge));
    if l < h {
        (l, h)
    } else {
        (l - 0.1 * l.abs().max(1.0), l + 0.1 * l.abs().max(1.0))
    }
}

/// The range a figure shows of one or more series that may hold a few far outliers: each
/// series' whole range, unless some of its values lie further than `k` times its range
/// between the `q` and `1 − q` quantiles beyond those quantiles; such values are left beyond
/// the edge (and drawn at it). Returns the range and how many values lie outside.
///
/// The quantiles are the crate's own ([`crate::stats::quantile`], type 7). They exist for any
/// series here (non-empty and finite after [`sorted`]) and any `q` in `[0, 1]`; a series
/// without them is shown whole.
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
        let (mut l, mut h) = (s[0], s[s.len() - 1]);
        let quantiles = (
            crate::stats::quantile(&s, q),
            crate::stats::quantile(&s, 1.0 - q),
        );
        if let (Ok(ql), Ok(qh)) = quantiles {
            let r = qh - ql;
            if r > 0.0 {
                l = l.max(ql - k * r);
                h = h.min(qh + k * r);
            }
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
        assert_eq!(signed(-5.0), "−5");
        assert_eq!(signed(0.0), "0");
        assert_eq!(change_tick(-0.25), "−0.25 %");
        assert_eq!(change_tick(1.5), "+1.5 %");
        assert_eq!(change_words(0.021), "2.1 % slower");
        assert_eq!(change_words(-0.0045), "0.45 % faster");
        assert_eq!(change_words(0.0), "no change");
    }

    #[test]
    fn spans_are_finite_and_ordered() {
        for vs in [
            vec![],
            vec![1.0],
            vec![f64::NAN, 2.0, 2.0],
            vec![-f64::MAX, f64::MAX],
            vec![1e-300, 2e-300],
            // Both ends beyond a quarter of f64's range: the fallback once returned an
            // inverted range, on which the run-order and distribution plots' clamps panicked.
            vec![f64::MAX, f64::MAX, f64::MAX / 2.0],
            vec![-f64::MAX, -f64::MAX / 2.0],
        ] {
            let (l, h) = span(vs.clone(), 0.05);
            assert!(l.is_finite() && h.is_finite() && l < h, "{vs:?}: {l} {h}");
        }
        let mut v: Vec<f64> = (0..100).map(|i| 100.0 + i as f64 * 0.1).collect();
        v.push(1e6);
        let (_, h, out) = view(&[&v], 0.05, 3.0);
        assert!(h < 200.0 && out == 1, "{h} {out}");
    }

    #[test]
    fn figures_draw_values_near_the_end_of_f64() {
        let huge = vec![f64::MAX, f64::MAX, f64::MAX / 2.0];
        let not_run = crate::stats::DriftReport::not_run();
        let run_order = RunOrder {
            name_a: "a".into(),
            name_b: "b".into(),
            a: huge.clone(),
            b: huge.clone(),
            per: "per operation".into(),
            drift_a: not_run,
            drift_b: not_run,
            drift_ratio: not_run,
            b_is_candidate: false,
        };
        assert!(run_order.figure().svg.contains("<svg"));
        let distributions = Distributions {
            name_a: "a".into(),
            name_b: "b".into(),
            a: huge.clone(),
            b: huge,
            per: "per operation".into(),
        };
        assert!(distributions.figure().svg.contains("<svg"));
    }
}
