//! The HTML report: well-formed (the page and every SVG parse as XML), every panel present with
//! exactly one SVG, no script or external resource, the numbers printed are the report's, and
//! unusual reports (validation skipped, a width target, ratios of 10⁴ either way) render.
//! Reports are built on a simulated clock, so the tests are fast and deterministic.
#![cfg(feature = "html")]

use std::time::Duration;

use rtcompare::stats::{Estimate, combine};
use rtcompare::support::compare::{compare_with_clock, width_target};
use rtcompare::support::measure::SimulatedClock;
use rtcompare::support::rng::Rng;
use rtcompare::support::stats::WidthTarget;
use rtcompare::{Candidate, CompareOptions, Error, Report};

/// A simulated candidate costing `ns` per operation times `1 + noise·ε`, ε standard normal.
fn sim<'a>(name: &'a str, clock: &SimulatedClock, ns: f64, noise: f64, seed: u64) -> Candidate<'a> {
    let c = clock.clone();
    let mut rng = Rng::new(seed);
    Candidate::new(name, move |n| {
        let t = ns * n as f64 * (1.0 + noise * rng.next_normal()).max(0.05);
        c.advance(t.max(1.0) as u64);
    })
}

fn quick() -> CompareOptions {
    CompareOptions::default()
        .seed(7)
        .resamples(1_000)
        .validation_runs(10)
        .warmup_duration(Duration::from_millis(20))
        .thresholds([0.05, 0.10])
}

fn report(ns_a: f64, ns_b: f64, opts: &CompareOptions) -> Report {
    let clock = SimulatedClock::new(1);
    let a = sim("fast <path> & co", &clock, ns_a, 0.02, 1);
    let b = sim("slow \"path\"", &clock, ns_b, 0.02, 2);
    compare_with_clock(a, b, opts, &clock).unwrap()
}

fn parse(html: &str) -> roxmltree::Document<'_> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(html, opts)
        .unwrap_or_else(|e| panic!("the page is not well-formed XML: {e}"))
}

/// Checks the page's structure and returns the panels' ids in order.
fn check_page(html: &str, panels: usize) -> Vec<String> {
    assert!(!html.contains("<script"), "a script in the page");
    for bad in ["src=", "url(", "@import", "<link", "<iframe", "<img"] {
        assert!(
            !html.contains(bad),
            "external resource marker {bad:?} in the page"
        );
    }
    let doc = parse(html);
    for a in doc.descendants().filter(|n| n.has_tag_name("a")) {
        let href = a.attribute("href").unwrap_or("");
        assert!(href.starts_with('#'), "a link out of the page: {href}");
    }
    let sections: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("section") && n.attribute("class") == Some("panel"))
        .collect();
    assert_eq!(sections.len(), panels, "panels");
    assert_eq!(html.matches("<svg").count(), panels, "one <svg per panel");
    let mut ids = Vec::new();
    for s in &sections {
        let svgs: Vec<_> = s
            .descendants()
            .filter(|n| n.tag_name().name() == "svg")
            .collect();
        assert_eq!(
            svgs.len(),
            1,
            "panel {:?} holds {} svg",
            s.attribute("id"),
            svgs.len()
        );
        let text = &html[s.range()];
        assert_eq!(text.matches("<svg").count(), 1);
        // Each SVG is a document of its own, too.
        let svg_text = &html[svgs[0].range()];
        let svg = roxmltree::Document::parse(svg_text)
            .unwrap_or_else(|e| panic!("an SVG is not well-formed: {e}"));
        assert_eq!(
            svg.root_element().tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        ids.push(s.attribute("id").unwrap().to_string());
    }
    ids
}

/// The page's text content, entities decoded.
fn text(html: &str) -> String {
    let doc = parse(html);
    let mut s = String::new();
    for n in doc.descendants().filter(|n| n.is_text()) {
        s.push_str(n.text().unwrap());
        s.push(' ');
    }
    s
}

/// A fraction in the library's percentage style (`2.1 %`, `−0.45 %`).
fn pct(v: f64) -> String {
    rtcompare::support::display::Pct(v).to_string()
}

/// A's change (+ = slower) from a δ = 1 − A/B, as the pages print it (`+2.1 %`).
fn change(delta: f64) -> String {
    rtcompare::support::display::SignedPct(-delta).to_string()
}

/// Four significant digits, as the report's `Display` writes ratios.
fn sig(v: f64) -> String {
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (3 - magnitude).clamp(0, 12) as usize;
    format!("{v:.decimals$}")
}

#[test]
fn a_report_page_has_five_panels_and_the_reports_numbers() {
    let r = report(100.0, 130.0, &quick());
    let html = r.to_html();
    let ids = check_page(&html, 5);
    assert_eq!(
        ids,
        [
            "answer",
            "run-order",
            "distributions",
            "bootstrap",
            "machine"
        ]
    );
    let t = text(&html);
    // Names are escaped in the markup and read back intact.
    assert!(
        t.contains("fast <path> & co") && t.contains("slow \"path\""),
        "{t}"
    );
    assert!(t.contains(&format!("Verdict: {}.", r.verdict)), "verdict");
    assert!(t.contains(&format!(
        "A takes {} times as long as B",
        sig(1.0 - r.estimate.delta)
    )));
    // A's change, + = slower: the interval of δ turned round.
    let e = &r.estimate;
    assert!(
        t.contains(&format!("[{}, {}]", change(e.high), change(e.low))),
        "{t}"
    );
    assert!(t.contains(&format!("Noise floor: {}", pct(r.noise_floor))));
    for c in r.confidences.as_ref().unwrap().iter() {
        assert!(t.contains(&format!("{:.1} %", 100.0 * c.confidence)), "{t}");
    }
    assert!(t.contains(&format!("{} operations per batch", r.timing.inner_loops)));
    assert!(t.contains(&format!("{} ns per step", r.timing.instrument.precision_ns)));
    assert!(t.contains(&format!(
        "{} replicates of A's change",
        r.estimate.resamples
    )));
    assert!(t.contains(&format!("seed ({})", r.seed)));
    assert!(t.contains(&format!(
        "{} A/A runs",
        r.validation_a.as_ref().unwrap().runs
    )));
    assert!(
        t.contains(&format!("p = {:.3}", r.diagnostics.drift_ratio.p_value))
            || r.diagnostics.drift_ratio.p_value < 0.001
    );
    assert!(t.contains(&format!("{} pairs", r.samples_a.len())));
    for w in &r.warnings {
        assert!(t.contains(&w.to_string()), "warning {w}");
    }
    // Axes say what they measure, with units.
    assert!(t.contains("time per operation (ns)"), "{t}");
    assert!(t.contains("pair, in measurement order"));
    assert!(t.contains("% of B's time"));
    // The run order's ratio is A's time over B's, as every change is said: below 1 for the
    // faster A (it read B/A, 1.3, before).
    assert!(t.contains("A's time ÷ B's"), "{t}");
    let line = t.split("Ratio A/B: ").nth(1).expect("the ratio's halves");
    let first: f64 = line.split_whitespace().next().unwrap().parse().unwrap();
    assert!((0.7..0.85).contains(&first), "{line}");
    // The replicates drawn again are the interval's own.
    let reps = r.bootstrap_replicates().unwrap();
    assert_eq!(reps.len(), r.estimate.resamples);
    assert_eq!(r.recompute_estimate().unwrap(), r.estimate);
    assert!(reps.first().unwrap() <= &r.estimate.low && reps.last().unwrap() >= &r.estimate.high);
    // Deterministic: the same report draws the same page.
    assert_eq!(html, r.to_html());
}

#[test]
fn a_page_read_back_from_json_is_the_same_page() {
    let r = report(100.0, 103.0, &quick());
    let back = Report::from_json(&r.to_json().unwrap()).unwrap();
    assert_eq!(back.to_html(), r.to_html());
}

#[test]
fn validation_skipped_and_width_target_render() {
    let r = report(100.0, 120.0, &quick().skip_validation(true));
    assert!(!r.validated);
    let html = r.to_html();
    check_page(&html, 5);
    let t = text(&html);
    assert!(t.contains("Noise floor: unknown"), "{t}");
    assert!(t.contains("no noise floor: A/A validation was skipped"));
    assert!(t.contains("identical code was not measured against itself"));

    let r = report(100.0, 101.0, &width_target(quick(), WidthTarget::new(0.01)));
    let html = r.to_html();
    check_page(&html, 5);
    let t = text(&html);
    assert!(r.run.width_target_met.is_some());
    assert!(t.contains("Width target ±1.0 %"), "{t}");
}

#[test]
fn ratios_of_ten_thousand_either_way_render() {
    for (a, b) in [(1.0, 10_000.0), (10_000.0, 1.0)] {
        let r = report(a, b, &quick());
        assert!(r.ratio.ratio.is_finite());
        let html = r.to_html();
        check_page(&html, 5);
        assert!(text(&html).contains(&sig(1.0 - r.estimate.delta)));
        assert!(
            !html.contains("NaN") && !html.contains("inf%") && !html.contains("inf\""),
            "a non-finite number drawn"
        );
    }
}

#[test]
fn a_report_edited_into_bad_samples_still_renders() {
    let mut r = report(100.0, 110.0, &quick());
    r.samples_b.truncate(3);
    let html = r.to_html();
    check_page(&html, 5);
    assert!(text(&html).contains("could not be drawn again"));
}

#[test]
fn write_html_writes_the_page_and_names_an_unwritable_path() {
    let r = report(100.0, 110.0, &quick());
    let dir = std::env::temp_dir().join(format!("rtcompare-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("page.html");
    r.write_html(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), r.to_html());
    let bad = dir.join("no such directory").join("page.html");
    match r.write_html(&bad) {
        Err(Error::Io { path, source }) => {
            assert!(path.contains("no such directory"), "{path}");
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("expected Error::Io, got {other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_pooled_page_is_a_forest_plot_with_inflation_and_i2() {
    let ests: Vec<Estimate> = [0.10, 0.12, 0.09, 0.15, 0.11]
        .iter()
        .map(|&d| Estimate::from_interval(d, d - 0.01, d + 0.01, 0.95).unwrap())
        .collect();
    let pooled = combine(&ests, 0.95).unwrap();
    let html = pooled.to_html();
    assert_eq!(check_page(&html, 1), ["processes"]);
    let t = text(&html);
    assert!(
        t.contains(&format!("Inflation {:.2}", pooled.inflation)),
        "{t}"
    );
    assert!(t.contains(&format!("I² = {:.2}", pooled.i2)), "{t}");
    assert!(
        t.contains(&change(pooled.low)) && t.contains(&change(pooled.high)),
        "{t}"
    );
    assert!(t.contains("process 0") && t.contains("process 4") && t.contains("pooled"));
    // Extreme and degenerate pools draw too.
    let ests: Vec<Estimate> = [-9_999.0, 0.9999, 0.5]
        .iter()
        .map(|&d| Estimate::from_interval(d, d, d, 0.95).unwrap())
        .collect();
    check_page(&combine(&ests, 0.95).unwrap().to_html(), 1);
}

#[test]
fn the_building_blocks_escape_and_hold_one_svg() {
    use rtcompare::support::render::{NumberLine, Page, Panel, TimeBar, TimeScale, escape};
    assert_eq!(
        escape("a<b & \"c\" 'd'>"),
        "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;"
    );
    let line = NumberLine {
        delta: 0.0,
        low: 0.0,
        high: 0.0,
        level: 0.95,
        noise_floor: None,
        thresholds: vec![f64::NAN, 0.0, 0.05, -0.05],
        b_is_candidate: false,
    };
    let scale = TimeScale {
        bars: vec![
            TimeBar::new("zero", 0.0, "#000000"),
            TimeBar::new("one", 1.0, "#0072B2"),
        ],
    };
    let html = Page::new("<t>")
        .panel(Panel::new("a b", "x").figure(line.figure()))
        .panel(Panel::new("c", "y").figure(scale.figure()))
        .panel(Panel::new("d", "no figure").text("still one svg"))
        .to_html();
    assert_eq!(check_page(&html, 3), ["a-b", "c", "d"]);
}

#[test]
fn a_pool_runs_page_is_the_forest_plot_then_the_median_process() {
    use rtcompare::pool::{PoolRun, combine_reports};
    let reports: Vec<Report> = [110.0, 130.0, 120.0]
        .iter()
        .map(|&b| report(100.0, b, &quick()))
        .collect();
    let pooled = combine_reports(&reports, 0.95).unwrap();
    let run = PoolRun {
        pooled,
        reports: reports.clone(),
        timings: Vec::new(),
        seed: 1,
        elapsed: Duration::from_secs(1),
    };
    // The median δ is the B = 120 ns process.
    assert_eq!(run.median_report(), Some(&reports[2]));
    let html = run.to_html();
    let ids = check_page(&html, 6);
    assert_eq!(
        ids,
        [
            "processes",
            "answer",
            "run-order",
            "distributions",
            "bootstrap",
            "machine"
        ]
    );
    assert!(text(&html).contains(&format!("I² = {:.2}", run.pooled.i2)));
    assert!(text(&html).contains(&change(reports[2].estimate.delta)));
}
