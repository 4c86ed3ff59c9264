//! The forest plot of one comparison pooled across machines: each machine's interval of the
//! candidate's change in time (+ = slower) on a row of its own, labelled, the outlier machines
//! marked, and the t interval over machines as a bar beneath.

use plotters::prelude::*;

use super::{Area, Chart, FIGURE_WIDTH, change_tick, err, grid, rgb, span, svg};
use crate::display::{Level, Pct};
use crate::render::page::{
    COLOUR_A, COLOUR_B, COLOUR_FLOOR, COLOUR_INK, COLOUR_RATIO, Figure, LegendEntry, Mark,
};
use crate::stats::Change;
use crate::stats::{MachineEstimate, MachinesPooled};

/// Longest row label drawn, in characters: a longer one keeps its start and its end around an
/// ellipsis. The label area is sized from the labels (about 9 pixels a character at the tick
/// font), and 40 characters keep the plot itself at least 600 of the figure's 1000 pixels.
const MAX_LABEL_CHARS: usize = 40;

/// The forest plot of one comparison pooled over machines
/// ([`combine_machines`](crate::stats::combine_machines)), drawn in the candidate's change in
/// time against the baseline (+ = slower): the inputs hold δ = 1 − candidate/baseline
/// (positive: the candidate is faster, as [`MachineEstimate`] defines it with A the
/// candidate), and each δ is drawn as `−δ`, an interval `[low, high]` as `[−high, −low]`. One
/// row per machine, top to bottom in input order, with its interval as a bar and its change as
/// a dot, labelled by its
/// [`label`](MachineEstimate::label) (one longer than 40 characters keeps its start and its end
/// around an ellipsis); machines the outlier rule flagged
/// ([`MachinesPooled::outliers`], by index) drawn in another colour with a ring; beneath them
/// the t interval over machines as a wide bar with a tick at the mean; a vertical line at
/// zero; and ± the median noise floor as a grey band when it is known (above 0).
///
/// Never fails and never panics: non-finite values are left out, an outlier index without a
/// machine is ignored, and no machines draws the pooled bar alone.
///
/// ```
/// # #[cfg(feature = "html")] {
/// use rtcompare::support::render::MachineForest;
/// use rtcompare::stats::{MachineEstimate, combine_machines};
/// let machines: Vec<MachineEstimate> = [0.10, 0.11, 0.12]
///     .iter()
///     .enumerate()
///     .map(|(i, &d)| MachineEstimate {
///         delta: d, low: d - 0.01, high: d + 0.01, level: 0.95,
///         noise_floor: 0.02, label: format!("runner-{i}.json"),
///     })
///     .collect();
/// let pooled = combine_machines(&machines, 0.95, 0.02)?;
/// let axis = "A's change in time against B, % (+ = slower)".into();
/// let figure = MachineForest { machines, pooled, axis }.figure();
/// assert!(figure.svg.contains("runner-2.json"));
/// # }
/// # Ok::<(), rtcompare::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MachineForest {
    /// Each machine's δ with its interval (fractions), drawn in this order from the top as the
    /// candidate's change −δ.
    pub machines: Vec<MachineEstimate>,
    /// The pooled result: its t interval (`delta`, `low`, `high`, `level`; drawn as −δ), its
    /// noise floor and its outliers.
    pub pooled: MachinesPooled,
    /// The axis's description: whose change in time the axis shows, against what, with its
    /// direction (for example "the head's change in time against the baseline, % (+ =
    /// slower)"). The axis shows −δ in percent, + = the candidate is slower.
    pub axis: String,
}

impl MachineForest {
    /// The figure (1000 pixels wide, 30 per row: one per machine and the pooled one) with its
    /// legend.
    pub fn figure(&self) -> Figure {
        let floor = self.floor();
        let rows = self.machines.len() + 1;
        let height = 110 + 30 * rows as u32;
        let svg = svg(FIGURE_WIDTH, height, |root| self.draw(root, floor));
        Figure {
            svg,
            legend: self.legend(floor),
        }
    }

    /// The median noise floor in percent, if it is finite and positive.
    fn floor(&self) -> Option<f64> {
        Some(100.0 * self.pooled.noise_floor).filter(|f| f.is_finite() && *f > 0.0)
    }

    /// Whether machine `i` is one the outlier rule flagged.
    fn is_outlier(&self, i: usize) -> bool {
        self.pooled.outliers.iter().any(|o| o.index == i)
    }

    /// Draws the axis of the change (−δ) in percent, the floor's band (`floor`, percent), zero,
    /// each machine's interval with its change and the pooled bar.
    fn draw(&self, root: &Area<'_>, floor: Option<f64>) -> Result<(), String> {
        let k = self.machines.len();
        let rows = k + 1;
        let (x0, x1) = self.x_span(floor);
        let labels: Vec<String> = self.machines.iter().map(|m| short(&m.label)).collect();
        let widest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        // About 9 pixels a character at the tick font, with room for the tick itself.
        let label_area = (24 + 9 * widest as u32).clamp(130, 24 + 9 * MAX_LABEL_CHARS as u32);
        let top = rows as f64 - 0.5;
        let mut chart = ChartBuilder::on(root)
            .margin_left(10)
            .margin_right(30)
            .margin_top(10)
            .x_label_area_size(56)
            .y_label_area_size(label_area)
            .build_cartesian_2d(x0..x1, -0.7..top)
            .map_err(err)?;
        // Machine i sits at row rows − 1 − i (the first on top), the pooled bar at 0.
        let label = |v: &f64| -> String {
            let r = v.round();
            if (v - r).abs() > 1e-6 || r < 0.0 || r as usize >= rows {
                return String::new();
            }
            if r == 0.0 {
                "over machines".into()
            } else {
                labels[rows - 1 - r as usize].clone()
            }
        };
        grid(&mut chart)
            .disable_y_mesh()
            .y_labels(2 * rows + 2)
            .y_label_formatter(&label)
            .x_labels(12)
            .x_label_formatter(&|v| change_tick(*v))
            .x_desc(self.axis.as_str())
            .draw()
            .map_err(err)?;
        if let Some(f) = floor {
            chart
                .draw_series([Rectangle::new(
                    [(-f, -0.7), (f, top)],
                    rgb(COLOUR_FLOOR).mix(0.6).filled(),
                )])
                .map_err(err)?;
        }
        chart
            .draw_series([PathElement::new(
                vec![(0.0, -0.7), (0.0, top)],
                rgb(COLOUR_INK).stroke_width(2),
            )])
            .map_err(err)?;
        self.draw_machines(&mut chart, rows)?;
        self.draw_pooled(&mut chart)?;
        Ok(())
    }

    /// The axis's range in percent of the change: every machine's interval and change, the
    /// pooled interval, zero and ± the floor (`floor`, percent), with a margin.
    fn x_span(&self, floor: Option<f64>) -> (f64, f64) {
        let flip = |v: f64| -100.0 * v;
        let p = &self.pooled;
        let mut xs: Vec<f64> = self
            .machines
            .iter()
            .flat_map(|m| [flip(m.low), flip(m.delta), flip(m.high)])
            .collect();
        xs.extend([flip(p.low), flip(p.high), 0.0]);
        if let Some(f) = floor {
            xs.extend([f, -f]);
        }
        span(xs, 0.05)
    }

    /// Draws each machine's interval and change (−δ) on its row (of `rows`, the first on
    /// top), the outliers in another colour with a ring.
    fn draw_machines(&self, chart: &mut Chart<'_>, rows: usize) -> Result<(), String> {
        let flip = |v: f64| -100.0 * v;
        for (i, m) in self.machines.iter().enumerate() {
            let y = (rows - 1 - i) as f64;
            let (l, d, h) = (flip(m.high), flip(m.delta), flip(m.low));
            let outlier = self.is_outlier(i);
            let colour = rgb(if outlier { COLOUR_B } else { COLOUR_A });
            if l.is_finite() && h.is_finite() {
                chart
                    .draw_series([PathElement::new(
                        vec![(l, y), (h, y)],
                        colour.stroke_width(3),
                    )])
                    .map_err(err)?;
            }
            if d.is_finite() {
                chart
                    .draw_series([Circle::new((d, y), 5, colour.filled())])
                    .map_err(err)?;
                if outlier {
                    chart
                        .draw_series([Circle::new((d, y), 10, colour.stroke_width(2))])
                        .map_err(err)?;
                }
            }
        }
        Ok(())
    }

    /// Draws the pooled t interval as a wide bar on row 0, with a tick at its change (−δ).
    fn draw_pooled(&self, chart: &mut Chart<'_>) -> Result<(), String> {
        let pc = |v: f64| 100.0 * v;
        let c = self.change();
        let (l, d, h) = (pc(c.low), pc(c.change), pc(c.high));
        if l.is_finite() && h.is_finite() {
            chart
                .draw_series([Rectangle::new(
                    [(l, -0.25), (h, 0.25)],
                    rgb(COLOUR_RATIO).filled(),
                )])
                .map_err(err)?;
        }
        if d.is_finite() {
            chart
                .draw_series([PathElement::new(
                    vec![(d, -0.38), (d, 0.38)],
                    rgb(COLOUR_INK).stroke_width(3),
                )])
                .map_err(err)?;
        }
        Ok(())
    }

    /// The pooled change with its t interval: `−δ`, the ends swapped.
    fn change(&self) -> Change {
        let p = &self.pooled;
        Change::of_delta(p.delta, p.low, p.high)
    }

    /// The legend: the machines' intervals, the outliers if any, the pooled bar and, if drawn,
    /// the floor (`floor`, percent).
    fn legend(&self, floor: Option<f64>) -> Vec<LegendEntry> {
        let p = &self.pooled;
        let mut legend = vec![LegendEntry::new(
            COLOUR_A,
            Mark::Line,
            "each machine's own interval of the change (dot: its estimate)",
        )];
        if (0..self.machines.len()).any(|i| self.is_outlier(i)) {
            legend.push(LegendEntry::new(
                COLOUR_B,
                Mark::Dot,
                "an outlier machine (ringed): outside the others' prediction interval, still \
                 pooled",
            ));
        }
        legend.push(LegendEntry::new(
            COLOUR_RATIO,
            Mark::Band,
            format!(
                "{} t interval over machines: {} (tick: the mean)",
                Level(p.level),
                self.change()
            ),
        ));
        if let Some(f) = floor {
            legend.push(LegendEntry::new(
                COLOUR_FLOOR,
                Mark::Band,
                format!("± the machines' median noise floor ({})", Pct(f / 100.0)),
            ));
        }
        legend
    }
}

/// `label` shortened to [`MAX_LABEL_CHARS`] characters: its start and its end around `…` (the
/// end usually tells files of one directory apart, the start runners' directories).
fn short(label: &str) -> String {
    let n = label.chars().count();
    if n <= MAX_LABEL_CHARS {
        return label.to_string();
    }
    let head = (MAX_LABEL_CHARS - 1) / 2;
    let tail = MAX_LABEL_CHARS - 1 - head;
    let start: String = label.chars().take(head).collect();
    let end: String = label.chars().skip(n - tail).collect();
    format!("{start}…{end}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::combine_machines;

    fn machine(delta: f64, label: &str) -> MachineEstimate {
        MachineEstimate {
            delta,
            low: delta - 0.01,
            high: delta + 0.01,
            level: 0.95,
            noise_floor: 0.01,
            label: label.into(),
        }
    }

    #[test]
    fn every_machine_is_labelled_and_the_outlier_is_ringed() {
        let mut ms: Vec<MachineEstimate> = (0..9)
            .map(|i| machine(0.10 + 0.001 * (i % 3) as f64, &format!("m{i}.json")))
            .collect();
        ms.push(machine(0.30, "far.json"));
        let pooled = combine_machines(&ms, 0.95, 0.02).unwrap();
        assert_eq!(pooled.outliers.len(), 1, "{pooled}");
        let f = MachineForest {
            machines: ms,
            pooled,
            axis: "change, % (+ = slower)".into(),
        }
        .figure();
        // plotters writes each text on a line of its own.
        for label in (0..9)
            .map(|i| format!("m{i}.json"))
            .chain(["far.json".into()])
        {
            assert!(f.svg.contains(&format!("\n{label}\n</text>")), "{label}");
        }
        assert!(f.svg.contains("\nover machines\n</text>"));
        // One ring: the outlier's, in its colour.
        assert_eq!(f.svg.matches("stroke=\"#D55E00\"").count(), 2, "{}", f.svg);
        assert_eq!(f.legend.len(), 4);
    }

    #[test]
    fn odd_input_still_draws() {
        let pooled = combine_machines(
            &[machine(0.1, "a"), machine(0.1, "b"), machine(0.2, "c")],
            0.95,
            0.0,
        )
        .unwrap();
        let mut nan = machine(f64::NAN, "nan");
        nan.high = f64::INFINITY;
        for machines in [Vec::new(), vec![nan, machine(-f64::MAX, "huge")]] {
            let f = MachineForest {
                machines,
                pooled: pooled.clone(),
                axis: "<change & co>".into(),
            }
            .figure();
            assert!(f.svg.starts_with("<svg") && !f.svg.contains("could not be drawn"));
            assert!(f.svg.contains("&lt;change &amp; co&gt;"), "{}", f.svg);
        }
    }

    #[test]
    fn long_labels_keep_their_ends() {
        let long = format!("runners/{}/bench.json", "x".repeat(60));
        let s = short(&long);
        assert_eq!(s.chars().count(), MAX_LABEL_CHARS);
        assert!(
            s.starts_with("runners/") && s.ends_with("/bench.json"),
            "{s}"
        );
        assert_eq!(short("a.json"), "a.json");
    }
}
