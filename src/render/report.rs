//! The pages of a [`Report`], a [`Pooled`] result and a [`PoolRun`].

use std::path::Path;

use super::chart::{
    BootstrapPlot, Distributions, Forest, NumberLine, RunOrder, TimeBar, TimeScale,
    candidate_ratios, half_medians,
};
use super::page::{COLOUR_A, COLOUR_B, COLOUR_FLOOR, Page, Panel};
use crate::compare::report::Report;
use crate::display::{Bytes, Level, Ns, Pct, Share, Sig, SignedPct};
use crate::env::Environment;
use crate::error::{Error, Result};
use crate::pool::PoolRun;
use crate::stats::{BootstrapDistribution, Change, Confidences, EstimateOptions, Pooled};

/// Writes `html` to `path`. Errors: [`Error::Io`] naming the path (a missing directory, no
/// permission).
pub(crate) fn write(path: &Path, html: &str) -> Result<()> {
    // Written beside the file and renamed over it, so that a run stopped mid-write never
    // leaves a truncated page where the last good one was.
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, html)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Error::io(path, e)
        })
}

fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref()
        .map_or_else(|| "unknown".to_string(), |v| v.to_string())
}

fn bytes(b: u64) -> String {
    Bytes(b as f64).to_string()
}

/// The confidence of each threshold asked about, as a sentence in A's change (+ = slower): at
/// least so much less time (a change of at most −threshold) for a threshold of 0 or more, at
/// most so much more time (a change of at most +|threshold|) for a negative one.
fn confidence_items(cs: &Confidences) -> Vec<String> {
    cs.iter()
        .map(|c| {
            if c.threshold >= 0.0 {
                format!(
                    "Confidence that A needs at least {} less time than B (A's change at most \
                     {}): {}",
                    Pct(c.threshold),
                    SignedPct(-c.threshold),
                    Pct(c.confidence)
                )
            } else {
                format!(
                    "Confidence that A needs at most {} more time than B (A's change at most \
                     {}): {}",
                    Pct(-c.threshold),
                    SignedPct(-c.threshold),
                    Pct(c.confidence)
                )
            }
        })
        .collect()
}

fn loads(l: &Option<[f64; 3]>) -> String {
    l.map_or_else(
        || "unknown".to_string(),
        |[a, b, c]| format!("{a:.2}, {b:.2}, {c:.2}"),
    )
}

/// The environment stamp as `(name, value)` rows for a [`Panel::table`]: the crate's version,
/// the compiler, the build, target, kernel, CPU, cores, governor, turbo, clock source,
/// hypervisor, last-level cache, load averages, peak resident memory and start time
/// (`unknown` where the stamp has no value).
pub fn environment_rows(env: &Environment) -> Vec<(String, String)> {
    vec![
        ("rtcompare".into(), env.crate_version.clone()),
        ("Compiler".into(), opt(&env.rustc_version)),
        (
            "Build".into(),
            format!(
                "profile {}, opt-level {}, debug assertions {}",
                opt(&env.profile),
                opt(&env.opt_level),
                if env.debug_assertions { "on" } else { "off" }
            ),
        ),
        (
            "Target".into(),
            env.target
                .clone()
                .unwrap_or_else(|| format!("{}-{}", env.arch, env.os)),
        ),
        ("Kernel".into(), opt(&env.kernel)),
        ("CPU".into(), opt(&env.cpu_model)),
        ("Logical cores".into(), opt(&env.logical_cores)),
        ("Governor".into(), opt(&env.governor)),
        ("Turbo".into(), opt(&env.turbo)),
        ("Clock source".into(), opt(&env.clock_source)),
        ("Hypervisor".into(), opt(&env.hypervisor)),
        (
            "Last-level cache".into(),
            env.last_level_cache_bytes.map_or("unknown".into(), bytes),
        ),
        (
            "Load average (1, 5, 15 min)".into(),
            format!(
                "{} at the start, {} at the end",
                loads(&env.load_average_start),
                loads(&env.load_average_end)
            ),
        ),
        (
            "Peak resident memory".into(),
            format!(
                "{} at the start, {} at the end",
                env.max_rss_start.map_or("unknown".into(), bytes),
                env.max_rss_end.map_or("unknown".into(), bytes)
            ),
        ),
        ("Started".into(), opt(&env.start_time)),
    ]
}

impl Report {
    /// The replicate deltas of the report's bootstrap, drawn again from its own samples with
    /// its seed, level, replicates and block length (the same draw that gave
    /// [`estimate`](Self::estimate), see [`recompute_estimate`](Self::recompute_estimate)),
    /// sorted. Errors: those of [`BootstrapDistribution::new`] (a report edited into bad
    /// samples).
    pub fn bootstrap_replicates(&self) -> Result<Vec<f64>> {
        let opts = EstimateOptions::default()
            .level(self.estimate.level)
            .resamples(self.estimate.resamples)
            .block_length(self.diagnostics.block_length)
            .seed(self.seed)
            .paired(true);
        let dist = BootstrapDistribution::new(&self.samples_a, &self.samples_b, &opts)?;
        Ok(dist.sorted_replicates().to_vec())
    }

    /// The five panels of the report's page: the answer, run order, distributions, the
    /// bootstrap, the instrument and the machine.
    pub(crate) fn html_panels(&self) -> Vec<Panel> {
        vec![
            self.answer_panel(),
            self.run_order_panel(),
            self.distributions_panel(),
            self.bootstrap_panel(),
            self.machine_panel(),
        ]
    }

    fn answer_panel(&self) -> Panel {
        let e = &self.estimate;
        let level = Level(e.level);
        let change = Change::of_delta(e.delta, e.low, e.high);
        let (ratio, low, high) = e.a_over_b();
        let mut p = Panel::new("answer", "The answer")
            .lead(&format!("Verdict: {}.", self.verdict))
            .text(&format!(
                "A's change in time against B (+ = slower): {change} ({level} interval). As \
                 a ratio: A takes {} times as long as B ({level} interval {} to {}).",
                Sig(ratio),
                Sig(low),
                Sig(high)
            ))
            .text(&format!(
                "A ({}): {} per operation (median); B ({}): {} per operation (median).",
                self.name_a,
                Ns(self.ns_per_op_a),
                self.name_b,
                Ns(self.ns_per_op_b)
            ))
            .text(&if self.validated {
                format!(
                    "Noise floor: {}. Identical code measured against itself on this setup \
                     differed by up to that much (0.9 quantile of the A/A runs), so smaller \
                     differences mean nothing.",
                    Pct(self.noise_floor)
                )
            } else {
                "Noise floor: unknown (A/A validation was skipped).".to_string()
            });
        let thresholds: Vec<f64> = self
            .confidences
            .as_ref()
            .map(|c| c.iter().map(|t| t.threshold).collect())
            .unwrap_or_default();
        p = p.figure(
            NumberLine {
                delta: e.delta,
                low: e.low,
                high: e.high,
                level: e.level,
                noise_floor: self.validated.then_some(self.noise_floor),
                thresholds,
                b_is_candidate: false,
            }
            .figure(),
        );
        if let Some(cs) = &self.confidences {
            p = p.list("confidences", &confidence_items(cs));
        }
        if let (Some(met), Some(t)) = (self.run.width_target_met, &self.run.options.width_target) {
            p = p.text(&format!(
                "Width target ±{}: {} after {} pairs.",
                Pct(t.max_half_width),
                if met { "met" } else { "NOT met" },
                self.samples_a.len()
            ));
        }
        p.text(&match &self.context.process {
            None => "This interval covers the noise within this one process; another process \
                     (another memory layout) can land further away: pool several with \
                     rtcompare::pool before trusting the direction."
                .to_string(),
            Some(info) => format!("{info}."),
        })
    }

    fn run_order_panel(&self) -> Panel {
        let n = self.samples_a.len().min(self.samples_b.len());
        let half = |name: &str, d: &crate::stats::DriftReport, unit: &dyn Fn(f64) -> String| {
            format!(
                "{name}: {} in the first half, {} in the second ({}, drift test p = {})",
                unit(d.first_half),
                unit(d.second_half),
                SignedPct(d.relative_shift),
                if d.p_value.is_finite() {
                    format!("{:.3}", d.p_value)
                } else {
                    "n/a".into()
                }
            )
        };
        let ns = |v: f64| Ns(v).to_string();
        let ratio = |v: f64| Sig(v).to_string();
        let inner_loops = self.timing.inner_loops;
        // The ratio in the one direction, A's time over B's; the drift test's p-value is a
        // rank test's, the same for B/A.
        let d = &self.diagnostics.drift_ratio;
        let ratio_halves = match half_medians(&candidate_ratios(
            &self.samples_a[..n],
            &self.samples_b[..n],
            false,
        )) {
            Some((first, second)) if d.n > 0 => format!(
                "Ratio A/B: {} in the first half, {} in the second ({}, drift test p = {})",
                ratio(first),
                ratio(second),
                SignedPct(second / first - 1.0),
                if d.p_value.is_finite() {
                    format!("{:.3}", d.p_value)
                } else {
                    "n/a".into()
                }
            ),
            _ => "Ratio A/B: the drift test did not run".to_string(),
        };
        Panel::new("run-order", "Run order")
            .text(&format!(
                "{n} pairs in the order they were measured; each sample is one batch of {} \
                 operation{}, in nanoseconds per operation, and each pair's A and B ran next to \
                 each other. A steady machine gives flat, trendless clouds; the drift test \
                 (Spearman's rank correlation with the pair index) gives a small p-value for a \
                 trend. The warm-up batches ran before pair 1 and were discarded; the report \
                 does not keep them, so they are not drawn.",
                inner_loops,
                if inner_loops == 1 { "" } else { "s" }
            ))
            .figure(
                RunOrder {
                    name_a: self.name_a.clone(),
                    name_b: self.name_b.clone(),
                    a: self.samples_a.clone(),
                    b: self.samples_b.clone(),
                    per: "per operation".into(),
                    drift_a: self.diagnostics.drift_a,
                    drift_b: self.diagnostics.drift_b,
                    drift_ratio: self.diagnostics.drift_ratio,
                    b_is_candidate: false,
                }
                .figure(),
            )
            .list(
                "halves",
                &[
                    half("A", &self.diagnostics.drift_a, &ns),
                    half("B", &self.diagnostics.drift_b, &ns),
                    ratio_halves,
                ],
            )
    }

    fn distributions_panel(&self) -> Panel {
        Panel::new("distributions", "Distributions")
            .text(
                "Each curve climbs by one step per sample, from the fastest on the left to the \
                 slowest on the right: a curve further left is faster, a steeper one steadier. \
                 A long flat tail on the right is a few slow batches (interruptions).",
            )
            .figure(
                Distributions {
                    name_a: self.name_a.clone(),
                    name_b: self.name_b.clone(),
                    a: self.samples_a.clone(),
                    b: self.samples_b.clone(),
                    per: "per operation".into(),
                }
                .figure(),
            )
    }

    fn bootstrap_panel(&self) -> Panel {
        let e = &self.estimate;
        let (replicates, note) = match self.bootstrap_replicates() {
            Ok(r) => (r, None),
            Err(err) => (
                Vec::new(),
                Some(format!("The replicates could not be drawn again: {err}.")),
            ),
        };
        let aa = |v: &Option<crate::compare::validate::HarnessValidation>| {
            v.as_ref().map(|v| v.deltas.clone()).unwrap_or_default()
        };
        let mut p = Panel::new("bootstrap", "The bootstrap").text(&format!(
            "The {} replicates of A's change in time against B (+ = slower) that gave the \
             interval, drawn again from the report's own samples with its seed ({}) and {}, on \
             an axis zoomed to them. Below, on an axis wide enough for everything, the \
             interval again beside the A/A runs, one dot each: a candidate measured against \
             itself under the same protocol. Their spread is the noise floor, what identical \
             code produced here; a real difference lies well clear of it.",
            e.resamples,
            self.seed,
            match self.diagnostics.block_length {
                0 | 1 => "single pairs resampled".to_string(),
                blocks => format!("blocks of {blocks} consecutive pairs"),
            }
        ));
        if let Some(n) = &note {
            p = p.text(n);
        }
        p.figure(
            BootstrapPlot {
                replicates,
                delta: e.delta,
                low: e.low,
                high: e.high,
                level: e.level,
                aa_a: aa(&self.validation_a),
                aa_b: aa(&self.validation_b),
                noise_floor: self.validated.then_some(self.noise_floor),
                aa_what: "A/A runs".into(),
                b_is_candidate: false,
            }
            .figure(),
        )
    }

    fn machine_panel(&self) -> Panel {
        let bars = self.time_bars();
        let env = &self.run.environment;
        let mut rows = self.instrument_rows();
        if let Some(v) = &self.validation_a {
            rows.push((
                "A/A validation".into(),
                format!(
                    "{} runs per candidate; false signals A {}, B {} (nominal {})",
                    v.runs,
                    Pct(v.false_signal_rate),
                    self.validation_b
                        .as_ref()
                        .map_or("n/a".to_string(), |b| Pct(b.false_signal_rate).to_string()),
                    Pct(2.0 * (1.0 - v.level))
                ),
            ));
        }
        rows.extend([(
            "Pinned CPU".into(),
            self.run
                .pinned_cpu
                .map_or("not pinned".to_string(), |c| c.to_string()),
        )]);
        rows.extend(environment_rows(env));
        let warnings: Vec<String> = self
            .warnings
            .iter()
            .map(|w| format!("{w}. [{}]", w.code()))
            .collect();
        let mut p = Panel::new("machine", "The instrument and the machine")
            .text(
                "How coarse the clock is next to the batches it timed (a logarithmic axis), \
                 then the figures the verdict rests on and the machine it ran on.",
            )
            .figure(TimeScale { bars }.figure())
            .table(&rows);
        if warnings.is_empty() {
            p = p.text("Warnings: none.");
        } else {
            p = p.text("Warnings:").list("warnings", &warnings);
        }
        p
    }

    /// The machine panel's bars: the clock's step and read cost, an empty batch and each
    /// candidate's median batch.
    fn time_bars(&self) -> Vec<TimeBar> {
        let i = &self.timing.instrument;
        let batch = self.timing.inner_loops as f64;
        vec![
            TimeBar::new(
                format!("clock step ({})", i.clock),
                i.precision_ns as f64,
                COLOUR_FLOOR,
            ),
            TimeBar::new("one clock read", i.read_cost_ns, COLOUR_FLOOR),
            TimeBar::new(
                "empty batch (median)",
                i.empty_batch_median_ns,
                COLOUR_FLOOR,
            ),
            TimeBar::new("A's batch (median)", self.ns_per_op_a * batch, COLOUR_A),
            TimeBar::new("B's batch (median)", self.ns_per_op_b * batch, COLOUR_B),
        ]
    }

    /// The machine panel's rows on the instrument and the run: the clock, the batches, the
    /// quantization, the resampling, the pairs, the cache, the seed and the time taken.
    fn instrument_rows(&self) -> Vec<(String, String)> {
        let i = &self.timing.instrument;
        let calibrated = match (&self.timing.calibration_a, &self.timing.calibration_b) {
            (Some(_), Some(_)) => "calibrated",
            _ => "fixed by the options",
        };
        vec![
            ("Clock".into(), i.clock.clone()),
            (
                "Clock precision".into(),
                format!("{} ns per step", i.precision_ns),
            ),
            (
                "Clock read cost".into(),
                format!("{:.1} ns", i.read_cost_ns),
            ),
            (
                "Empty batch".into(),
                format!(
                    "{} minimum, {} median",
                    Ns(i.empty_batch_min_ns),
                    Ns(i.empty_batch_median_ns)
                ),
            ),
            (
                "Batch size".into(),
                format!(
                    "{} operations per batch ({calibrated})",
                    self.timing.inner_loops
                ),
            ),
            (
                "Quantization".into(),
                format!(
                    "one clock step is {} of the faster batch",
                    Pct(self.timing.quantization)
                ),
            ),
            (
                "Tie rate".into(),
                format!(
                    "{} of the bootstrap replicates exactly zero",
                    Pct(self.diagnostics.tie_rate)
                ),
            ),
            (
                "Block length".into(),
                format!(
                    "{} (lag-1 autocorrelation: A {:+.3}, B {:+.3}, ratio {:+.3})",
                    self.diagnostics.block_length,
                    self.diagnostics.autocorrelation_a,
                    self.diagnostics.autocorrelation_b,
                    self.diagnostics.autocorrelation_ratio
                ),
            ),
            ("Pairs".into(), self.samples_a.len().to_string()),
            ("Cache".into(), format!("{:?}", self.cache).to_lowercase()),
            ("Seed".into(), self.seed.to_string()),
            (
                "Elapsed".into(),
                format!("{:.2} s", self.run.elapsed.as_secs_f64()),
            ),
        ]
    }

    /// The report as one self-contained HTML page (inline CSS and SVG, no script, no external
    /// resource; about 60 KB for a default comparison): five panels, each holding one SVG
    /// figure. 1. **The answer**: the verdict, A's change in time against B (+ = slower) and
    /// the ratio A/B with their interval, and a number line of the change's interval against
    /// zero, ± the noise floor and ± the thresholds. 2. **Run order**: A, B and the ratio B/A
    /// by pair with each half's median and the drift tests' p-values. 3. **Distributions**:
    /// both samples' empirical CDFs with medians and minima. 4. **The bootstrap**: the
    /// replicates (drawn again with [`bootstrap_replicates`](Self::bootstrap_replicates), shown
    /// as A's change −δ) as a histogram with the interval's ends and the estimate, above the
    /// A/A differences of both validations. 5. **The instrument and the machine**: the clock
    /// against the batches, a table of the instrument, quantization, tie rate, block length and
    /// environment, and every warning's sentence.
    ///
    /// Never fails: a figure that cannot be drawn says why in its place.
    pub fn to_html(&self) -> String {
        self.html_page().to_html()
    }

    fn html_page(&self) -> Page {
        let mut page = Page::new(&format!(
            "rtcompare: A = {} against B = {}",
            self.name_a, self.name_b
        ))
        .intro(&format!(
            "A comparison of {} pairs measured by rtcompare {}{}. Every figure is drawn from \
             the report's own samples; its JSON holds them all.",
            self.samples_a.len(),
            self.run.environment.crate_version,
            self.run
                .environment
                .start_time
                .as_ref()
                .map_or(String::new(), |t| format!(", started {t}"))
        ));
        for p in self.html_panels() {
            page = page.panel(p);
        }
        page
    }

    /// Writes [`to_html`](Self::to_html) to `path`. Errors: [`Error::Io`] naming the path
    /// when it cannot be written (a missing directory, no permission).
    pub fn write_html(&self, path: impl AsRef<Path>) -> Result<()> {
        write(path.as_ref(), &self.to_html())
    }
}

impl Pooled {
    /// The panel of the forest plot: each process's interval and the pooled interval beneath,
    /// with the inflation and I² under the figure.
    pub(crate) fn forest_panel(&self) -> Panel {
        let level = Level(self.level);
        let mut p = Panel::new("processes", "Processes side by side")
            .lead(&format!("Verdict: {}.", self.verdict))
            .text(&format!(
                "Pooled over {} processes, A's change in time against B (+ = slower): {} \
                 ({level} {}).",
                self.processes,
                Change::of_delta(self.delta, self.low, self.high),
                if self.first_stage > 0 {
                    format!(
                        "Stein's two-stage interval, first stage {} processes",
                        self.first_stage
                    )
                } else {
                    "Student t interval".to_string()
                }
            ))
            .figure(
                Forest {
                    deltas: &self.deltas,
                    half_widths: &self.half_widths,
                    delta: self.delta,
                    low: self.low,
                    high: self.high,
                    level: self.level,
                    noise_floor: self.validated.then_some(self.noise_floor),
                }
                .figure(),
            )
            .text(&format!(
                "Inflation {:.2}: the processes scatter {:.2} times as widely as one process's \
                 own interval says (between processes {}, within one {}). I² = {}: the share \
                 of the variation that lies between processes rather than within them.",
                self.inflation,
                self.inflation,
                Pct(self.spread_between),
                Pct(self.spread_within),
                Share(self.i2)
            ))
            .text(&if self.validated {
                format!(
                    "Noise floor across processes: {} (harness bias in A's change {}).",
                    Pct(self.noise_floor),
                    SignedPct(-self.bias)
                )
            } else {
                "Noise floor: unknown (not every process was validated).".to_string()
            });
        for m in &self.modes {
            p = p.text(&format!(
                "A mode: {} of the processes around A's change {} (from {} to {}).",
                Pct(m.share),
                SignedPct(-m.centre),
                SignedPct(-m.high),
                SignedPct(-m.low)
            ));
        }
        let warnings: Vec<String> = self
            .warnings
            .iter()
            .map(|w| format!("{w}. [{}]", w.code()))
            .collect();
        if !warnings.is_empty() {
            p = p.text("Warnings:").list("warnings", &warnings);
        }
        p
    }

    /// The pooled result as one self-contained HTML page: a forest plot of the processes'
    /// intervals of A's change (−δ ± half-width, + = slower, in process order) with the
    /// pooled interval as a diamond beneath, and the inflation and I² under it. One panel, one
    /// SVG. For the processes' own panels beside it use [`PoolRun::to_html`].
    pub fn to_html(&self) -> String {
        Page::new(&format!(
            "rtcompare: a comparison pooled over {} processes",
            self.processes
        ))
        .panel(self.forest_panel())
        .to_html()
    }
}

impl PoolRun {
    /// The process whose δ is the median of the processes' (the lower middle one for an even
    /// count): the one [`to_html`](Self::to_html) draws in detail. `None` when no process
    /// returned a report.
    pub fn median_report(&self) -> Option<&Report> {
        let mut order: Vec<&Report> = self.reports.iter().collect();
        order.sort_by(|x, y| x.estimate.delta.total_cmp(&y.estimate.delta));
        order.get(order.len().saturating_sub(1) / 2).copied()
    }

    /// One self-contained HTML page: the forest plot of [`Pooled::to_html`] first, then the
    /// five panels of [`Report::to_html`] for the [`median_report`](Self::median_report)
    /// process. Six panels, one SVG each (one when no report came back).
    pub fn to_html(&self) -> String {
        let mut page = Page::new(&format!(
            "rtcompare: a comparison pooled over {} processes",
            self.pooled.processes
        ));
        if let Some(r) = self.median_report() {
            page = page.intro(&format!(
                "A = {}, B = {}. The first panel pools all processes; the five after it show \
                 the process whose change is the median ({}), as one example of what each \
                 process measured.",
                r.name_a,
                r.name_b,
                r.context
                    .process
                    .as_ref()
                    .map_or("process ?".to_string(), |p| format!("process {}", p.index))
            ));
        }
        page = page.panel(self.pooled.forest_panel());
        if let Some(r) = self.median_report() {
            for p in r.html_panels() {
                page = page.panel(p);
            }
        }
        page.to_html()
    }

    /// Writes [`to_html`](Self::to_html) to `path`. Errors: [`Error::Io`] naming the path.
    pub fn write_html(&self, path: impl AsRef<Path>) -> Result<()> {
        write(path.as_ref(), &self.to_html())
    }
}
