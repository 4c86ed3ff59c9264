//! The pages of the benchmark harness: one page for a `cargo bench` run, and for two builds
//! compared an index with one row per benchmark, each linking its own page (the forest plot
//! of its worker pairs and the panels of the median pair).

use std::path::{Path, PathBuf};

use super::page::{Page, Panel};
use super::report::write;
use crate::bench::{BenchRun, BuildComparison, BuildStatus, BuildsRun, Outcome};
use crate::display::{Level, Ns, Pct, SignedPct};
use crate::error::{Error, Result};
use crate::stats::Change;

impl BenchRun {
    /// The run as one self-contained HTML page: a table of every benchmark (ns/op with its
    /// interval's half-width and, with a throughput, the rate; or the comparison's change of A
    /// against B in time, + = slower, and verdict, or the failure), then the
    /// answer panel of each in-binary comparison.
    pub fn to_html(&self) -> String {
        let rows: Vec<(Option<String>, Vec<String>)> = self
            .results
            .iter()
            .map(|r| {
                let cells = match &r.outcome {
                    Outcome::Measured(m) => match &m.estimate {
                        Some(e) => vec![
                            r.name.clone(),
                            match r.rate() {
                                Some(rate) => format!("{} per operation, {rate}", Ns(e.mean)),
                                None => format!("{} per operation", Ns(e.mean)),
                            },
                            format!(
                                "± {} ({} readings{})",
                                Pct(e.half_width / e.mean.abs().max(f64::MIN_POSITIVE)),
                                m.used,
                                if m.target_met { "" } else { "; target NOT met" }
                            ),
                        ],
                        None => vec![
                            r.name.clone(),
                            "no estimate".into(),
                            format!("{:?}", m.stop),
                        ],
                    },
                    Outcome::Compared(rep) => vec![
                        r.name.clone(),
                        format!(
                            "{} against {}: {}",
                            rep.name_a,
                            rep.name_b,
                            Change::of_delta(
                                rep.estimate.delta,
                                rep.estimate.low,
                                rep.estimate.high
                            )
                        ),
                        rep.verdict.in_words(&rep.name_a, &rep.name_b),
                    ],
                    Outcome::Failed { reason } => {
                        vec![r.name.clone(), "FAILED".into(), reason.clone()]
                    }
                };
                (None, cells)
            })
            .collect();
        let mut page = Page::new("rtcompare bench").panel(
            Panel::new("results", "Every benchmark").grid(&["benchmark", "result", ""], &rows),
        );
        for r in &self.results {
            if let Outcome::Compared(rep) = &r.outcome
                && let Some(answer) = rep.html_panels().into_iter().next()
            {
                page = page.panel(answer.retitle(&format!("{}: the answer", r.name)));
            }
        }
        page.to_html()
    }

    /// Writes [`to_html`](Self::to_html) to `path`. Errors: [`Error::Io`] naming the path.
    pub fn write_html(&self, path: impl AsRef<Path>) -> Result<()> {
        write(path.as_ref(), &self.to_html())
    }
}

impl BuildsRun {
    /// The pages of two builds compared: `(file name, HTML)`, the index first. The index is
    /// named `index_name`; each compared benchmark's page is named after it and its position
    /// (`<stem>-<n>-<name>.html`, characters other than letters and digits replaced by `-`),
    /// so the pages link to each other when written side by side.
    pub fn html_pages(&self, index_name: &str) -> Vec<(String, String)> {
        let stem = index_name.strip_suffix(".html").unwrap_or(index_name);
        let mut pages = Vec::new();
        let mut rows = Vec::new();
        for (i, b) in self.benchmarks.iter().enumerate() {
            let file = (b.status == BuildStatus::Compared).then(|| page_name(stem, i, &b.name));
            rows.push((file.clone(), row(b)));
            if let Some(file) = file {
                pages.push((file, benchmark_page(b)));
            }
        }
        let decided = self
            .benchmarks
            .iter()
            .any(|b| b.pooled.as_ref().is_some_and(|p| p.decision.is_some()));
        let family = match self.family_level {
            Some(level) if decided => format!(
                "The verdicts hold together: each of the {} compared benchmarks was decided \
                 sequentially at 1 − {}/m (Bonferroni), which keeps the chance of any false \
                 verdict or false equivalence among them at most {} under every benchmark's \
                 stopping.",
                self.benchmarks
                    .iter()
                    .filter(|b| b.status == BuildStatus::Compared)
                    .count(),
                Pct(1.0 - level),
                Pct(1.0 - level)
            ),
            Some(level) => format!(
                "The verdicts hold together: Holm's procedure over the {} compared benchmarks \
                 keeps the chance of any false verdict among them at most {}.",
                self.benchmarks
                    .iter()
                    .filter(|b| b.status == BuildStatus::Compared)
                    .count(),
                Pct(1.0 - level)
            ),
            None => "Each benchmark was judged on its own: with many benchmarks, a false \
                     verdict somewhere is likely."
                .to_string(),
        };
        let family = match &self.stop_reason {
            Some(why) => {
                format!("{family} The run stopped early: {why}; what it measured is kept.")
            }
            None => family,
        };
        let index = Page::new("rtcompare bench: two builds, benchmark by benchmark")
            .intro(
                "Change: the head's time against the baseline's, + = slower. Each benchmark's \
                 name links its page: the forest plot of its worker pairs and the panels of \
                 the median pair.",
            )
            .intro(&family)
            .panel(Panel::new("benchmarks", "Benchmarks").grid(
                &[
                    "benchmark",
                    "baseline / op",
                    "head / op",
                    "change [interval]",
                    "verdict",
                    "pairs",
                    "layouts move the change by",
                ],
                &rows,
            ))
            .to_html();
        pages.insert(0, (format!("{stem}.html"), index));
        pages
    }

    /// Writes [`html_pages`](Self::html_pages) with the index at `index` and the benchmarks'
    /// pages beside it; returns the paths written. Errors: [`Error::Io`] naming the path: the
    /// operating system's error for a page that cannot be written, or one of kind
    /// [`InvalidInput`](std::io::ErrorKind::InvalidInput) when `index` does not end in a UTF-8
    /// file name (for example `/` or `..`).
    pub fn write_html(&self, index: impl AsRef<Path>) -> Result<Vec<PathBuf>> {
        let index = index.as_ref();
        let name = index.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
            let e = std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a file name: the path must end in a UTF-8 file name",
            );
            Error::io(index, e)
        })?;
        let dir = index.parent().unwrap_or(Path::new(""));
        let mut written = Vec::new();
        for (file, html) in self.html_pages(name) {
            let path = dir.join(file);
            write(&path, &html)?;
            written.push(path);
        }
        Ok(written)
    }
}

/// `<stem>-<n>-<name>.html`, the name reduced to letters, digits and `-`.
fn page_name(stem: &str, n: usize, name: &str) -> String {
    let slug: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("{stem}-{n}-{slug}.html")
}

/// The index row of one benchmark.
fn row(b: &BuildComparison) -> Vec<String> {
    let per_op = |pick: fn(&crate::compare::report::Report) -> f64| {
        let v: Vec<f64> = b.reports.iter().map(pick).collect();
        crate::stats::median(&v).map_or("–".to_string(), |ns| Ns(ns).to_string())
    };
    match (&b.status, &b.pooled) {
        (BuildStatus::Compared, Some(p)) => vec![
            b.name.clone(),
            per_op(|r| r.ns_per_op_b),
            per_op(|r| r.ns_per_op_a),
            // The head's change in time, + = slower, and the verdict in the words every front
            // end prints.
            format!(
                "{} [{}, {}]",
                SignedPct(-p.delta),
                SignedPct(-p.high),
                SignedPct(-p.low)
            ),
            p.verdict
                .in_words_with(Change::of_delta(p.delta, p.low, p.high)),
            p.processes.to_string(),
            layout_cell(b),
        ],
        (status, _) => vec![
            b.name.clone(),
            String::new(),
            String::new(),
            String::new(),
            match (status, &b.failure) {
                (BuildStatus::New, _) => "new (head only)".to_string(),
                (BuildStatus::Removed, _) => "removed (baseline only)".to_string(),
                (BuildStatus::Failed, Some(f)) => format!("FAILED: {f}"),
                (BuildStatus::Failed, None) => "FAILED".to_string(),
                (BuildStatus::Stopped, _) => "not compared: the run stopped first".to_string(),
                _ => "not pooled".to_string(),
            },
            String::new(),
            String::new(),
        ],
    }
}

/// How far code layouts move a benchmark's change (δ's spread, the same in either direction),
/// marked when beyond the margin; a dash with one layout.
fn layout_cell(b: &BuildComparison) -> String {
    match &b.layout {
        Some(l) if l.beyond_margin => format!("±{} (beyond the margin)", Pct(l.layout_moves)),
        Some(l) => format!("±{}", Pct(l.layout_moves)),
        None => "–".to_string(),
    }
}

/// One benchmark's page: its verdict, its place in Holm's procedure, the forest plot and the
/// median pair's panels.
fn benchmark_page(b: &BuildComparison) -> String {
    let mut page = Page::new(&format!("rtcompare bench: {}", b.name));
    if let Some(p) = &b.pooled {
        page = page.intro(&format!(
            "A = the head build, B = the baseline build; every change is the head's time \
             against the baseline's, + = slower. {} worker pairs pooled: {}",
            p.processes, p.verdict
        ));
        if let Some(h) = &b.holm {
            page = page.intro(&format!(
                "Judged with the other benchmarks by Holm's procedure: p = {:.2e}, adjusted \
                 p = {:.2e}, compared with α = {:.4} at its rank; the interval is at coverage \
                 {}.",
                h.p,
                h.adjusted,
                h.alpha,
                Level(p.level)
            ));
        }
        if let Some(d) = &p.decision {
            page = page.intro(&format!(
                "{d}; with the other benchmarks, each was decided at 1 − α/m (Bonferroni), so \
                 the family's chance of any false verdict stays at most α whatever each one's \
                 stopping."
            ));
        }
        if let Some(l) = &b.layout {
            page = page.intro(&format!(
                "Each pair ran its own code layout ({} layouts): between layouts the head's \
                 change spreads by {} (standard deviation), within one by {}; the layouts hold \
                 {} of the spread, and move the change by ±{} for 95 % of them{}.",
                l.layout_variants,
                Pct(l.layout_sd),
                Pct(l.process_sd),
                Pct(l.layout_share),
                Pct(l.layout_moves),
                if l.beyond_margin {
                    format!(
                        ", beyond the {} margin: one build's figure for it says little",
                        Pct(l.margin)
                    )
                } else {
                    String::new()
                }
            ));
        }
        page = page.panel(p.forest_panel());
    }
    let mut order: Vec<&crate::compare::report::Report> = b.reports.iter().collect();
    order.sort_by(|x, y| x.estimate.delta.total_cmp(&y.estimate.delta));
    if let Some(r) = order.get(order.len().saturating_sub(1) / 2) {
        for panel in r.html_panels() {
            page = page.panel(panel);
        }
    }
    page.to_html()
}
