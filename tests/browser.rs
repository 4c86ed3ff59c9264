//! The HTML report in a real browser: headless Chromium renders a report's page to a PNG at
//! 1,200 pixels wide; the screenshot must not be blank (its pixel variance is above a bound)
//! and the browser's console must stay silent (the page has no script, so any console message
//! is an error: a refused resource, a parse failure).
//!
//! `.ci/run` installs Debian's `chromium` when no browser is present. The test skips, saying
//! so, only when no browser binary can be found at all: set `RTCOMPARE_BROWSER` to a
//! Chromium or Chrome binary to use another one.
#![cfg(feature = "html")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rtcompare::support::compare::compare_with_clock;
use rtcompare::support::measure::SimulatedClock;
use rtcompare::support::rng::Rng;
use rtcompare::{Candidate, CompareOptions};

/// Width of the screenshot, CSS pixels.
const WIDTH: u32 = 1200;
/// Height of the screenshot: the whole five-panel page.
const HEIGHT: u32 = 5200;
/// Longest a browser run may take before it is killed.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(120);
/// Smallest variance of the screenshot's luminance (0–255 scale) that counts as drawn. A blank
/// page has 0; the report's page, mostly white with text, lines and coloured marks, had about
/// 1,250 on the development machine.
const MIN_VARIANCE: f64 = 100.0;

fn browser() -> Option<PathBuf> {
    if let Some(b) = std::env::var_os("RTCOMPARE_BROWSER") {
        return Some(PathBuf::from(b));
    }
    let path = std::env::var_os("PATH")?;
    for name in [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
        "chrome",
    ] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Renders `page` headless to `png`, returning the console lines the browser logged. Kills the
/// browser if it outlives [`BROWSER_TIMEOUT`].
fn screenshot(browser: &Path, page: &Path, png: &Path, dir: &Path) -> Vec<String> {
    let log = dir.join("browser.log");
    let profile = dir.join("profile");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--no-default-browser-check",
            "--force-device-scale-factor=1",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--window-size={WIDTH},{HEIGHT}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > BROWSER_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{} did not finish within {BROWSER_TIMEOUT:?}",
                browser.display()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        status.success(),
        "{} failed ({status}):\n{text}",
        browser.display()
    );
    text.lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect()
}

/// The luminance variance of a PNG (0–255 scale) and its width and height.
fn variance(png: &Path) -> (f64, u32, u32) {
    let mut decoder = png::Decoder::new(std::fs::File::open(png).unwrap());
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let (mut sum, mut sq, mut n) = (0.0, 0.0, 0.0);
    for px in buf[..info.buffer_size()].chunks_exact(channels) {
        let y = match channels {
            1 | 2 => px[0] as f64,
            _ => 0.299 * px[0] as f64 + 0.587 * px[1] as f64 + 0.114 * px[2] as f64,
        };
        sum += y;
        sq += y * y;
        n += 1.0;
    }
    let mean = sum / n;
    (sq / n - mean * mean, info.width, info.height)
}

fn sim<'a>(name: &'a str, clock: &SimulatedClock, ns: f64, seed: u64) -> Candidate<'a> {
    let c = clock.clone();
    let mut rng = Rng::new(seed);
    Candidate::new(name, move |n| {
        let t = ns * n as f64 * (1.0 + 0.02 * rng.next_normal()).max(0.05);
        c.advance(t.max(1.0) as u64);
    })
}

#[test]
fn the_page_renders_in_a_real_browser_without_console_errors() {
    let Some(browser) = browser() else {
        println!(
            "SKIPPED: no Chromium or Chrome binary found (looked for chromium, \
             chromium-browser, google-chrome, chrome on PATH and RTCOMPARE_BROWSER); install \
             Debian's chromium (.ci/run does) to render the HTML report in a real browser"
        );
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    // The console check must be able to fail: a page that logs must be caught.
    let control = dir.join("control.html");
    std::fs::write(
        &control,
        "<!DOCTYPE html><html><body><p>control</p>\
         <script>console.error('rtcompare-control')</script></body></html>",
    )
    .unwrap();
    let lines = screenshot(&browser, &control, &dir.join("control.png"), &dir);
    assert!(
        lines.iter().any(|l| l.contains("rtcompare-control")),
        "the browser's console log cannot be read, so the check would be vacuous: {lines:?}"
    );

    // And the variance bound must be able to fail: a blank page stays below it.
    let blank = dir.join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html><body></body></html>").unwrap();
    let _ = std::fs::remove_dir_all(dir.join("profile"));
    screenshot(&browser, &blank, &dir.join("blank.png"), &dir);
    let (v, _, _) = variance(&dir.join("blank.png"));
    assert!(v < MIN_VARIANCE, "a blank page has variance {v:.1}");

    let clock = SimulatedClock::new(1);
    let opts = CompareOptions::default()
        .seed(11)
        .resamples(2_000)
        .validation_runs(20)
        .warmup_duration(Duration::from_millis(20))
        .thresholds([0.05, 0.10]);
    let report = compare_with_clock(
        sim("sort_unstable", &clock, 5_800.0, 1),
        sim("sort", &clock, 7_400.0, 2),
        &opts,
        &clock,
    )
    .unwrap();
    let page = dir.join("report.html");
    report.write_html(&page).unwrap();
    let png = dir.join("report.png");
    let _ = std::fs::remove_dir_all(dir.join("profile"));
    let lines = screenshot(&browser, &page, &png, &dir);
    assert!(lines.is_empty(), "the browser's console logged: {lines:#?}");
    let (v, w, h) = variance(&png);
    println!(
        "{}: {w} × {h} pixels, luminance variance {v:.0} (bound {MIN_VARIANCE})",
        png.display()
    );
    assert_eq!((w, h), (WIDTH, HEIGHT));
    assert!(
        v > MIN_VARIANCE,
        "the screenshot looks blank: variance {v:.1}"
    );
}
