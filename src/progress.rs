//! Ready progress callbacks (feature `progress`): a bar per stage on a terminal, one line per
//! stage in a log file; and [`Status`], a one-line message for front ends that run their own
//! loop (the `rtcompare` command-line tool's progress line).
//!
//! [`bar()`] goes to [`CompareOptions::progress`](crate::CompareOptions::progress) (or any
//! option that takes an `Fn(Progress)`); [`pool_bar()`] goes to
//! [`PoolOptions::progress`](crate::pool::PoolOptions::progress). When stderr is a terminal one
//! bar, drawn by indicatif, shows the running stage (calibrating, warming up, validating with
//! its A/A runs, measuring with its pairs, resampling) and is removed when the comparison ends,
//! so the report follows on a clean screen; when stderr is not a terminal (a CI log, a
//! redirected file) each stage writes exactly one line, when it starts, with the time since the
//! callback was made. [`lines`] writes those lines to any writer.
//!
//! **When it draws.** The measuring loop calls a progress callback only between batches (the
//! callback contract of [`Progress`]), and these callbacks draw or write only inside that call:
//! no background thread, no ticking timer (indicatif's steady tick is never enabled), so
//! nothing runs while a batch is timed. On a terminal the bar is redrawn at most four times a
//! second; the calls in between take a lock and read the clock. The cost is measured by
//! `lab/examples/progress_cost.rs` (docs/background.md, "Progress bar overhead").
//!
//! ```no_run
//! use rtcompare::{CompareOptions, compare, Candidate};
//! let a = Candidate::from_fn("a", || std::hint::black_box(1 + 1));
//! let b = Candidate::from_fn("b", || std::hint::black_box(2 + 2));
//! let opts = CompareOptions::default().progress(rtcompare::progress::bar());
//! let report = compare(a, b, &opts)?;
//! println!("{report}");
//! # Ok::<(), rtcompare::Error>(())
//! ```
//!
//! [`Status`] is the same drawing for a message rather than a count: a spinner line on a
//! terminal, set between the caller's own steps (never a ticking timer either), and on a log
//! only the lines the caller [logs](Status::log). Every bar and line here is made by one
//! function and decides terminal or not in one place, so the callbacks and the status line
//! cannot disagree about where they draw.
//!
//! Write errors (a closed pipe, a full disk) are ignored: progress never fails a comparison.

use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::measure::collect::{Progress, Stage};
use crate::pool::PoolProgress;

/// A comparison's progress on stderr: on a terminal a bar of the running stage, redrawn at most
/// four times a second and removed when the comparison ends; otherwise one line per stage, as
/// [`lines`] writes them (decided once, when called). Pass it to
/// [`CompareOptions::progress`](crate::CompareOptions::progress); clones share one display, so
/// one callback can serve several comparisons run one after another.
pub fn bar() -> impl Fn(Progress) + Clone + Send + Sync + 'static {
    stages(stderr_out())
}

/// A comparison's progress as one line per stage, written to `w` when the stage starts
/// (`[  1.23 s] validating: 40 A/A runs`); nothing else is ever written. For log files, or to
/// keep the lines.
pub fn lines(w: impl Write + Send + 'static) -> impl Fn(Progress) + Clone + Send + Sync + 'static {
    stages(Out::Lines(Box::new(w)))
}

/// A pooled run's progress on stderr (for
/// [`PoolOptions::progress`](crate::pool::PoolOptions::progress)): a bar of processes done out
/// of planned, with the last process's δ, on a terminal; one line per process otherwise.
pub fn pool_bar() -> impl Fn(&PoolProgress) + Clone + Send + Sync + 'static {
    processes(stderr_out())
}

/// A pooled run's progress as one line per finished process (`[ 12.3 s] process 3/5: δ
/// +1.23 %`, or `failed`), written to `w`.
pub fn pool_lines(
    w: impl Write + Send + 'static,
) -> impl Fn(&PoolProgress) + Clone + Send + Sync + 'static {
    processes(Out::Lines(Box::new(w)))
}

/// Makes a fresh draw target for every bar (a draw target cannot be shared or cloned).
type TargetFn = Box<dyn Fn() -> ProgressDrawTarget + Send>;

/// Where the progress goes.
enum Out {
    Bars(Bars),
    Lines(Box<dyn Write + Send>),
}

/// The one decision between drawing and writing lines, for everything in this module: a draw
/// target on stderr when it is a terminal; `None` (write lines instead) when it is a CI log or a
/// redirected file, where redrawn bars would leave a line per redraw.
fn stderr_target() -> Option<TargetFn> {
    std::io::stderr()
        .is_terminal()
        .then(|| Box::new(ProgressDrawTarget::stderr) as TargetFn)
}

/// The progress of [`bar`] and [`pool_bar`]: bars on a terminal, lines elsewhere.
fn stderr_out() -> Out {
    match stderr_target() {
        Some(target) => Out::Bars(Bars::new(target)),
        None => Out::Lines(Box::new(std::io::stderr())),
    }
}

/// The one place an indicatif bar is made: on `target`, without a length, styled by
/// `template`, and never ticking on its own (no steady tick: it draws only when its owner
/// updates it, so nothing is drawn while a batch or a run is timed).
fn new_bar(
    target: ProgressDrawTarget,
    template: &str,
    fallback: fn() -> ProgressStyle,
) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, target);
    bar.set_style(style(template, fallback));
    bar
}

/// The terminal: one bar, which shows the running stage.
struct Bars {
    target: TargetFn,
    bar: Option<ProgressBar>,
    /// The stage the bar was last drawn for, and when it was drawn.
    drawn: Option<(Stage, Instant)>,
    /// The shortest interval between two draws.
    every: Duration,
}

/// The shortest interval between two draws of a comparison's bar: four a second. Each draw
/// writes a line to the terminal, which costs tens of microseconds on a quiet machine and up to
/// a millisecond on a loaded one, where the write wakes the terminal and it takes the CPU
/// (measured by `lab/examples/progress_cost.rs`; docs/background.md).
const REDRAW: Duration = Duration::from_millis(250);

impl Bars {
    fn new(target: TargetFn) -> Bars {
        Bars {
            target,
            bar: None,
            drawn: None,
            every: REDRAW,
        }
    }

    /// The bar, made on first use: `{prefix} [bar] pos/len {msg} (elapsed)`.
    fn bar(&mut self) -> &ProgressBar {
        let target = &self.target;
        self.bar.get_or_insert_with(|| {
            new_bar(
                target(),
                &format!("{{prefix:>12}} {BAR} {{msg}}"),
                ProgressStyle::default_bar,
            )
        })
    }

    /// Leaves the bar, if any, on its line as it stands.
    fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish();
        }
        self.drawn = None;
    }

    /// Removes the bar, if any, from the terminal.
    fn clear(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        self.drawn = None;
    }
}

impl Drop for Bars {
    /// A comparison that ended early (an error, a cancellation) leaves no half-drawn bar.
    fn drop(&mut self) {
        self.clear();
    }
}

/// The bar and counter part of every template.
const BAR: &str = "[{bar:30}] {pos:>5}/{len:<5}";

/// A style from `template`, `fallback()` if it does not parse. The bars' templates always parse
/// (they are fixed, and the stage names and units they embed have no braces); a [`Status`]'s
/// comes from its caller. The bar's characters apply only to templates with a `{bar}`.
fn style(template: &str, fallback: fn() -> ProgressStyle) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| fallback())
}

/// What a stage counts, for its bar or its line.
fn unit(stage: Stage) -> &'static str {
    match stage {
        Stage::Calibrating => "candidates",
        Stage::WarmingUp => "% of the warm-up",
        Stage::Validating => "A/A runs",
        Stage::Measuring => "pairs",
        Stage::Resampling => "bootstrap",
    }
}

/// The one line of a stage, when it starts.
fn stage_line(p: Progress, seconds: f64) -> String {
    let what = match p.stage {
        Stage::Calibrating => "sizing the batches".to_string(),
        Stage::WarmingUp => "unmeasured batches".to_string(),
        Stage::Resampling => "the bootstrap".to_string(),
        s => format!("{} {}", p.total, unit(s)),
    };
    format!("[{seconds:>7.2} s] {}: {what}", p.stage)
}

/// The comparison's display: the running stage and where it stood.
struct Stages {
    out: Out,
    started: Instant,
    /// The running stage and its last `done`.
    current: Option<(Stage, usize)>,
}

impl Stages {
    fn update(&mut self, p: Progress) {
        // A different stage, or the same one counting from the start again (a second
        // measuring round), starts a new bar or line.
        let new = self
            .current
            .is_none_or(|(stage, done)| stage != p.stage || p.done < done);
        self.current = Some((p.stage, p.done));
        match &mut self.out {
            Out::Lines(w) => {
                if new {
                    let line = stage_line(p, self.started.elapsed().as_secs_f64());
                    let _ = writeln!(w, "{line}");
                    let _ = w.flush();
                }
            }
            Out::Bars(bars) => {
                let now = Instant::now();
                let last = p.stage == Stage::Resampling && p.done >= p.total;
                let due = bars
                    .drawn
                    .is_none_or(|(_, at)| now.duration_since(at) >= bars.every);
                if last {
                    // The comparison is over: the report follows on a clean line.
                    bars.clear();
                } else if due {
                    // At most one draw per `every`: the calls in between cost a lock and a
                    // clock read. The stage's name and unit are in the template, so that a
                    // new stage is one draw too.
                    let restyle = bars.drawn.is_none_or(|(stage, _)| stage != p.stage);
                    bars.drawn = Some((p.stage, now));
                    let bar = bars.bar();
                    if restyle {
                        bar.set_style(style(
                            &format!(
                                "{:>12} {BAR} {} ({{elapsed}})",
                                p.stage.as_str(),
                                unit(p.stage)
                            ),
                            ProgressStyle::default_bar,
                        ));
                    }
                    let (done, total) = (p.done as u64, p.total as u64);
                    bar.update(|s| {
                        s.set_len(total);
                        s.set_pos(done);
                    });
                }
            }
        }
    }
}

fn stages(out: Out) -> impl Fn(Progress) + Clone + Send + Sync + 'static {
    let state = Arc::new(Mutex::new(Stages {
        out,
        started: Instant::now(),
        current: None,
    }));
    move |p| {
        if let Ok(mut s) = state.lock() {
            s.update(p);
        }
    }
}

/// The pool's display.
struct Processes {
    out: Out,
    started: Instant,
}

impl Processes {
    fn update(&mut self, p: &PoolProgress) {
        let delta = p.delta.map_or("failed".to_string(), |d| {
            // The one direction: A's change against B, + = slower (δ = 1 − A/B).
            format!("A {}", crate::display::SignedPct(-d))
        });
        match &mut self.out {
            Out::Lines(w) => {
                let seconds = self.started.elapsed().as_secs_f64();
                let _ = writeln!(
                    w,
                    "[{seconds:>7.2} s] process {}/{}: {delta}",
                    p.done, p.planned
                );
                let _ = w.flush();
            }
            Out::Bars(bars) => {
                // A bar per stage of the plan: the first stage's processes, then the rest
                // once the plan has grown. Processes take seconds: every report is drawn.
                let fresh = bars.bar.is_none();
                let bar = bars.bar();
                if fresh {
                    bar.set_style(style(
                        &format!("{:>12} {BAR} {{msg}}", "processes"),
                        ProgressStyle::default_bar,
                    ));
                }
                let (done, planned) = (p.done as u64, p.planned as u64);
                bar.update(|s| {
                    s.set_len(planned);
                    s.set_pos(done);
                });
                bar.set_message(format!("last: {delta}"));
                if p.done >= p.planned {
                    bars.finish();
                }
            }
        }
    }
}

fn processes(out: Out) -> impl Fn(&PoolProgress) + Clone + Send + Sync + 'static {
    let state = Arc::new(Mutex::new(Processes {
        out,
        started: Instant::now(),
    }));
    move |p: &PoolProgress| {
        if let Ok(mut s) = state.lock() {
            s.update(p);
        }
    }
}

/// How a [`Status`] line looks on a terminal: a spinner, the time since it started, the
/// message. One look for every front end, so that the tool's lines and the harness's read alike.
const STATUS_TEMPLATE: &str = "{spinner} {elapsed:>4} {msg}";

/// A one-line status on stderr, for a front end that runs its own loop and says where it stands
/// in words (`warm-up 2/3 (A)`, `benchmark 1/4 parse: pair 3/5`): on a terminal a spinner line
/// that [`set`](Status::set) replaces, cleared by [`finish`](Status::finish) or when the status
/// is dropped; on anything else (a CI log, a redirected file) nothing but the lines the caller
/// [logs](Status::log), one a line, so that a log reads as a record rather than as redraws.
///
/// It draws only inside [`set`](Status::set) and [`log`](Status::log), never on a timer (no
/// steady tick, no thread), so a caller that sets it between timed runs draws nothing while one
/// is timed. indicatif limits a terminal's redraws to 20 a second.
///
/// ```no_run
/// let status = rtcompare::progress::Status::new();
/// for round in 1..=3 {
///     status.set(format!("round {round}/3"));
///     // … one round, timed, with nothing drawn meanwhile …
/// }
/// status.log("3 rounds done"); // the one line a CI log gets
/// status.finish();
/// ```
pub struct Status {
    /// The line on a terminal; `None` elsewhere.
    bar: Option<ProgressBar>,
    /// Where logged lines go when no line is drawn: stderr (a writer of the caller's in
    /// tests). Behind a lock so that a status can be shared by a `Send + Sync` callback.
    lines: Mutex<Box<dyn Write + Send>>,
}

impl Default for Status {
    /// [`Status::new`].
    fn default() -> Status {
        Status::new()
    }
}

impl Status {
    /// A status on stderr, drawn as a spinner, the seconds since it started and the message
    /// if stderr is a terminal (decided once, here), else silent but for
    /// [logged](Status::log) lines.
    pub fn new() -> Status {
        Status::to(
            stderr_target().map(|target| target()),
            STATUS_TEMPLATE,
            Box::new(std::io::stderr()),
        )
    }

    /// A status drawn on `target` when there is one, else writing logged lines to `lines`.
    fn to(
        target: Option<ProgressDrawTarget>,
        template: &str,
        lines: Box<dyn Write + Send>,
    ) -> Status {
        Status {
            bar: target.map(|t| new_bar(t, template, ProgressStyle::default_spinner)),
            lines: Mutex::new(lines),
        }
    }

    /// Whether the line is drawn (stderr is a terminal). A caller that logs only some messages
    /// on a log can still [`set`](Status::set) every one on a terminal.
    pub fn is_drawn(&self) -> bool {
        self.bar.is_some()
    }

    /// Shows `msg` on the line, drawn within this call (between the caller's steps, not
    /// later) unless the last draw was under 1/20 s ago, when the next call shows the newer
    /// message; does nothing where the line is not drawn, nor after [`finish`](Status::finish).
    pub fn set(&self, msg: impl Into<Cow<'static, str>>) {
        if let Some(bar) = &self.bar {
            bar.set_message(msg);
            bar.tick();
        }
    }

    /// On a terminal, shows `msg` as [`set`](Status::set) does (the next message replaces
    /// it); elsewhere writes it as a line of its own, for logs. A failed write (a closed
    /// pipe) is ignored.
    pub fn log(&self, msg: impl Into<Cow<'static, str>>) {
        if self.is_drawn() {
            self.set(msg);
        } else if let Ok(mut w) = self.lines.lock() {
            let _ = writeln!(w, "{}", msg.into());
            let _ = w.flush();
        }
    }

    /// Removes the line from the terminal, so that what the caller prints next starts on a
    /// clean one; later [`set`](Status::set)s draw nothing. Calling it again does nothing.
    /// Dropping the status does the same.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Status {
    /// A caller that ends early (an error, Ctrl-C) leaves no half-drawn line.
    fn drop(&mut self) {
        self.finish();
    }
}

impl std::fmt::Debug for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Status")
            .field("drawn", &self.is_drawn())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::CompareOptions;
    use crate::compare::compare_with_clock;
    use crate::measure::candidate::Candidate;
    use crate::measure::clock::SimulatedClock;
    use std::io;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// Set while a candidate's batch runs; anything drawn meanwhile is counted.
    #[derive(Clone, Default)]
    struct Watch {
        in_batch: Arc<AtomicBool>,
        drawn_in_batch: Arc<AtomicUsize>,
        /// Draws completed (indicatif flushes once per draw).
        flushes: Arc<AtomicUsize>,
        text: Arc<Mutex<String>>,
    }

    impl Watch {
        fn saw(&self, s: &str) {
            if self.in_batch.load(Ordering::SeqCst) {
                self.drawn_in_batch.fetch_add(1, Ordering::SeqCst);
            }
            self.text.lock().unwrap().push_str(s);
        }
        fn text(&self) -> String {
            self.text.lock().unwrap().clone()
        }
        /// A simulated candidate of `ns` per operation that flags its batches.
        fn candidate(
            &self,
            name: &'static str,
            clock: &SimulatedClock,
            ns: u64,
        ) -> Candidate<'static> {
            let (c, flag) = (clock.clone(), self.in_batch.clone());
            Candidate::new(name, move |n| {
                flag.store(true, Ordering::SeqCst);
                c.advance(ns * n);
                flag.store(false, Ordering::SeqCst);
            })
        }
        /// A terminal bar drawing into this watch, at most once per `every`.
        fn bars(&self, every: Duration) -> Bars {
            let w = self.clone();
            let mut bars = Bars::new(Box::new(move || {
                ProgressDrawTarget::term_like(Box::new(w.clone()))
            }));
            bars.every = every;
            bars
        }
    }

    impl Write for Watch {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.saw(&String::from_utf8_lossy(buf));
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl std::fmt::Debug for Watch {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("Watch")
        }
    }

    /// A terminal that records what indicatif draws.
    impl indicatif::TermLike for Watch {
        fn width(&self) -> u16 {
            100
        }
        fn move_cursor_up(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            self.saw(&format!("{s}\n"));
            Ok(())
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            self.saw(s);
            Ok(())
        }
        fn clear_line(&self) -> io::Result<()> {
            self.saw("\r");
            Ok(())
        }
        fn flush(&self) -> io::Result<()> {
            self.flushes.fetch_add(1, Ordering::SeqCst);
            Ok(())
        }
    }

    fn quick() -> CompareOptions {
        CompareOptions::default()
            .seed(7)
            .resamples(500)
            .validation_runs(6)
            .repeats(21)
            .inner_loops(100)
            .warmup_duration(Duration::from_millis(20))
    }

    /// Runs a simulated comparison with `f` as its callback; returns the stages in the order
    /// they ran (consecutive repeats merged) as the library reported them.
    fn run(watch: &Watch, f: impl Fn(Progress) + Send + Sync + 'static) -> Vec<Stage> {
        let clock = SimulatedClock::new(20);
        let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
        let log = seen.clone();
        let opts = quick().progress(move |p| {
            log.lock().unwrap().push(p);
            f(p);
        });
        let a = watch.candidate("a", &clock, 100);
        let b = watch.candidate("b", &clock, 200);
        compare_with_clock(a, b, &opts, &clock).unwrap();
        let seen = seen.lock().unwrap();
        let mut runs: Vec<(Stage, usize)> = Vec::new();
        for p in seen.iter() {
            match runs.last_mut() {
                Some((s, d)) if *s == p.stage && p.done >= *d => *d = p.done,
                _ => runs.push((p.stage, p.done)),
            }
        }
        runs.into_iter().map(|(s, _)| s).collect()
    }

    #[test]
    fn a_log_gets_one_line_per_stage_and_nothing_during_batches() {
        let watch = Watch::default();
        let stages = run(&watch, lines(watch.clone()));
        let text = watch.text();
        let got: Vec<&str> = text.lines().collect();
        assert_eq!(got.len(), stages.len(), "{text}");
        for (line, stage) in got.iter().zip(&stages) {
            assert!(line.contains(&format!("] {stage}: ")), "{line} for {stage}");
        }
        for s in [
            Stage::WarmingUp,
            Stage::Validating,
            Stage::Measuring,
            Stage::Resampling,
        ] {
            assert!(stages.contains(&s), "{s} missing from {stages:?}");
        }
        assert!(text.contains("validating: 6 A/A runs"), "{text}");
        assert!(text.contains("measuring: 21 pairs"), "{text}");
        assert_eq!(watch.drawn_in_batch.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_terminal_bar_shows_every_stage_between_batches_only_and_is_removed() {
        // Drawn on every call (no throttle; a test terminal has no rate limit either).
        let watch = Watch::default();
        let stages = run(&watch, self::stages(Out::Bars(watch.bars(Duration::ZERO))));
        let text = watch.text();
        assert_eq!(watch.drawn_in_batch.load(Ordering::SeqCst), 0);
        for s in &stages {
            assert!(text.contains(s.as_str()), "{s} not drawn: {text:?}");
        }
        assert!(text.contains("6/6     A/A runs"), "{text:?}");
        assert!(text.contains("21/21    pairs"), "{text:?}");
        // The last draw clears the line: nothing follows the final carriage return.
        assert!(text.ends_with('\r'), "the bar was not removed: {text:?}");
    }

    #[test]
    fn a_terminal_bar_is_drawn_at_most_four_times_a_second() {
        let watch = Watch::default();
        let f = stages(Out::Bars(watch.bars(REDRAW)));
        let t = Instant::now();
        for i in 0..100_000 {
            f(Progress {
                stage: Stage::Measuring,
                done: i,
                total: 100_000,
            });
        }
        let allowed = 1 + (t.elapsed().as_secs_f64() / REDRAW.as_secs_f64()) as usize;
        let draws = watch.flushes.load(Ordering::SeqCst);
        assert!(
            draws >= 1 && draws <= allowed,
            "{draws} draws, {allowed} allowed"
        );
    }

    #[test]
    fn pool_lines_name_every_process() {
        let watch = Watch::default();
        let f = pool_lines(watch.clone());
        for (i, d) in [Some(0.0123), None, Some(-0.5)].into_iter().enumerate() {
            f(&PoolProgress {
                done: i + 1,
                planned: 3,
                index: i,
                delta: d,
            });
        }
        let text = watch.text();
        let got: Vec<&str> = text.lines().collect();
        assert_eq!(got.len(), 3, "{text}");
        assert!(got[0].ends_with("process 1/3: A −1.2 %"), "{text}");
        assert!(got[1].ends_with("process 2/3: failed"), "{text}");
        assert!(got[2].ends_with("process 3/3: A +50.0 %"), "{text}");
    }

    #[test]
    fn a_pool_bar_follows_a_growing_plan() {
        let watch = Watch::default();
        let f = processes(Out::Bars(watch.bars(REDRAW)));
        for (done, planned) in [(1, 2), (2, 2), (3, 4), (4, 4)] {
            f(&PoolProgress {
                done,
                planned,
                index: done - 1,
                delta: Some(0.01),
            });
        }
        let text = watch.text();
        assert!(text.contains("2/2") && text.contains("4/4"), "{text:?}");
    }

    /// A status drawn on `watch` as on a terminal, its logged lines (if any) into `lines`.
    fn drawn_status(watch: &Watch, lines: &Watch) -> Status {
        let target = ProgressDrawTarget::term_like(Box::new(watch.clone()));
        Status::to(Some(target), "{spinner} {msg}", Box::new(lines.clone()))
    }

    #[test]
    fn a_status_on_a_terminal_draws_only_when_set_and_is_cleared() {
        let (watch, lines) = (Watch::default(), Watch::default());
        let status = drawn_status(&watch, &lines);
        assert!(status.is_drawn());
        // Made but not set: nothing drawn, no tick of its own.
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(watch.text(), "");
        status.set("round 1/3");
        assert!(watch.text().contains("round 1/3"), "{:?}", watch.text());
        // On a terminal a logged message is shown in place, not written as a line.
        status.log("benchmark 1/2 done");
        assert!(
            watch.text().contains("benchmark 1/2 done"),
            "{:?}",
            watch.text()
        );
        assert_eq!(lines.text(), "");
        status.finish();
        let cleared = watch.text();
        assert!(
            cleared.ends_with('\r'),
            "the line was not removed: {cleared:?}"
        );
        // Finished: later messages and the drop show nothing.
        status.set("round 2/3");
        drop(status);
        assert!(!watch.text().contains("round 2/3"), "{:?}", watch.text());
    }

    #[test]
    fn a_status_is_cleared_when_dropped() {
        let (watch, lines) = (Watch::default(), Watch::default());
        let status = drawn_status(&watch, &lines);
        status.set("pair 3/5");
        drop(status);
        assert!(watch.text().ends_with('\r'), "{:?}", watch.text());
    }

    #[test]
    fn a_status_elsewhere_writes_nothing_but_logged_lines() {
        let lines = Watch::default();
        let status = Status::to(None, "{spinner} {msg}", Box::new(lines.clone()));
        assert!(!status.is_drawn());
        status.set("round 1/3");
        status.log("benchmark 1/2 parse: pair 5/5");
        status.set(String::from("round 2/3"));
        status.log(String::from("benchmark 2/2 print: pair 5/5"));
        status.finish();
        drop(status);
        assert_eq!(
            lines.text(),
            "benchmark 1/2 parse: pair 5/5\nbenchmark 2/2 print: pair 5/5\n"
        );
    }

    #[test]
    fn a_status_with_a_bad_template_still_shows_its_message() {
        let (watch, lines) = (Watch::default(), Watch::default());
        let target = ProgressDrawTarget::term_like(Box::new(watch.clone()));
        let status = Status::to(Some(target), "{msg:<x}", Box::new(lines.clone()));
        status.set("round 1/3");
        assert!(watch.text().contains("round 1/3"), "{:?}", watch.text());
    }
}
