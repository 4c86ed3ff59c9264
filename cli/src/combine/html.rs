//! `rtcompare combine --html FILE`: the pooled comparisons as one self-contained HTML page,
//! drawn with the library's `rtcompare::support::render` panels. Per comparison one panel: the verdict,
//! the forest plot of the machines ([`MachineForest`]: each machine's interval, outliers
//! ringed, the t interval over machines as a bar beneath, zero), the pooled numbers and a row
//! per machine.

use rtcompare::support::render::{MachineForest, Page, Panel};

use super::inputs::MachineFile;
use super::machines::{
    CombineJson, CombinedResult, change_of, fleet_note, outlier_words, signed_interval,
    verdict_word,
};

/// The panel of one comparison: `i` numbers its `id`.
fn panel(i: usize, r: &CombinedResult, c: &CombineJson, files: &[MachineFile]) -> Panel {
    let p = &r.pooled;
    // The candidate's change (+ = slower) in the words every front end prints; a verdict
    // that could not be given says why.
    let lead = match p.verdict {
        rtcompare::Verdict::CannotTell(_) => format!(
            "Over {} machines, the candidate against the baseline: {}. {}.",
            p.machines, r.words, p.verdict
        ),
        _ => format!(
            "Over {} machines, the candidate against the baseline: {} ({}).",
            p.machines,
            r.words,
            verdict_word(r)
        ),
    };
    // The forest draws −δ of a δ = 1 − A/B: each machine's and the pool's change (+ = slower)
    // in this kind's sign is handed over as such a δ, −change, with the ends swapped.
    let as_delta = |d: f64, l: f64, h: f64| {
        let ch = change_of(c.kind, d, l, h);
        (-ch.change, -ch.high, -ch.low)
    };
    let machines = r
        .per_machine
        .iter()
        .map(|m| {
            let mut m = m.clone();
            (m.delta, m.low, m.high) = as_delta(m.delta, m.low, m.high);
            m
        })
        .collect();
    let mut pooled = p.clone();
    (pooled.delta, pooled.low, pooled.high) = as_delta(p.delta, p.low, p.high);
    Panel::new(&format!("comparison-{i}"), &r.name)
        .lead(&lead)
        .figure(
            MachineForest {
                machines,
                pooled,
                axis: c.kind.axis().to_string(),
            }
            .figure(),
        )
        .table(&numbers(r, c))
        .grid(
            &[
                "input",
                "machine",
                "change (+ = slower) [interval]",
                "level",
                "",
            ],
            &machine_rows(r, c, files),
        )
}

/// The pooled numbers of `r`: δ with its t interval, the verdict, I², the random effects, the
/// floor, the outliers and the fleet.
fn numbers(r: &CombinedResult, c: &CombineJson) -> [(&'static str, String); 7] {
    let p = &r.pooled;
    let outliers = if p.outliers.is_empty() {
        "none".to_string()
    } else {
        p.outliers
            .iter()
            .map(|o| outlier_words(c.kind, o))
            .collect::<Vec<_>>()
            .join("; ")
    };
    [
        (
            "change over machines (+ = slower)",
            format!(
                "{} ({:.0} % t interval on {} degrees of freedom)",
                signed_interval(&r.change),
                100.0 * p.level,
                p.machines.saturating_sub(1)
            ),
        ),
        ("Verdict", verdict_word(r).to_string()),
        (
            "I²",
            format!(
                "{:.0} %: the share of the spread between machines beyond their own noise",
                100.0 * r.i2
            ),
        ),
        (
            "Random effects",
            format!(
                "{} (DerSimonian–Laird, Hartung–Knapp interval); machines scatter by τ = {:.2} %",
                signed_interval(&change_of(c.kind, p.re_delta, p.re_low, p.re_high)),
                100.0 * p.tau2.sqrt()
            ),
        ),
        (
            "Noise floor",
            format!("{:.2} % (median over machines)", 100.0 * p.noise_floor),
        ),
        ("Outlier machines", outliers),
        ("Fleet", fleet_note(c)),
    ]
}

/// One row per machine of `r`: its input, its machine, its change (+ = slower) with its
/// interval, its level, and whether it is an outlier.
fn machine_rows(
    r: &CombinedResult,
    c: &CombineJson,
    files: &[MachineFile],
) -> Vec<(Option<String>, Vec<String>)> {
    let p = &r.pooled;
    r.per_machine
        .iter()
        .enumerate()
        .map(|(j, m)| {
            let machine = files.get(j).map_or(String::new(), |f| {
                format!(
                    "{}, {} cores, kernel {}",
                    f.machine.cpu, f.machine.cores, f.machine.kernel
                )
            });
            let outlier = p.outliers.iter().any(|o| o.index == j);
            (
                None,
                vec![
                    m.label.clone(),
                    machine,
                    signed_interval(&change_of(c.kind, m.delta, m.low, m.high)),
                    format!("{:.0} %", 100.0 * m.level),
                    if outlier { "outlier" } else { "" }.to_string(),
                ],
            )
        })
        .collect()
}

/// The page: an introduction with the sign convention and the fleet, then one panel per
/// comparison in the inputs' order. `files` are the inputs in the order `c` pooled them (their
/// machines name the rows). Never fails: a figure that cannot be drawn says so in its place.
pub fn page(c: &CombineJson, files: &[MachineFile]) -> String {
    let mut page = Page::new(&format!(
        "rtcompare combine: {} comparison{} over {} machines",
        c.results.len(),
        if c.results.len() == 1 { "" } else { "s" },
        c.machines
    ))
    .intro(&format!(
        "Each input file is one machine; every comparison is pooled with the machine as the \
         unit: the mean of the machines' δ with a Student t interval on k − 1 degrees of \
         freedom, the random-effects estimate and I² beside it. A machine outside the others' \
         prediction interval is an outlier: named, ringed, and still pooled. {}.",
        c.kind.axis()
    ))
    .intro(&fleet_note(c));
    for (i, r) in c.results.iter().enumerate() {
        page = page.panel(panel(i + 1, r, c, files));
    }
    page.to_html()
}
