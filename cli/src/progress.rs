//! The one progress line of the command line, on standard error: on a terminal a spinner with
//! a message, drawn by indicatif only when a message is set (between runs or worker pairs,
//! never while one is timed: no steady tick) and cleared when it is dropped or finished;
//! elsewhere (a CI log) nothing but the lines a caller asks to [`log`](Progress::log).
//! `cmd` sets its round, `bench` its benchmark and pair.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The progress line.
pub(crate) struct Progress(Option<ProgressBar>);

impl Progress {
    /// A line drawn with `template` (indicatif's: `{spinner}`, `{elapsed}`, `{msg}`) if stderr
    /// is a terminal, else a silent one.
    pub(crate) fn new(template: &str) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        Progress(Some(bar))
    }

    /// Whether the line is drawn (stderr is a terminal).
    pub(crate) fn drawn(&self) -> bool {
        self.0.is_some()
    }

    /// Shows `msg`.
    pub(crate) fn set(&self, msg: String) {
        if let Some(bar) = &self.0 {
            bar.set_message(msg);
            bar.tick();
        }
    }

    /// Where the line is not drawn, writes `msg` as a line of its own (for logs); on a
    /// terminal, shows it as [`set`](Self::set) does.
    pub(crate) fn log(&self, msg: String) {
        if self.drawn() {
            self.set(msg);
        } else {
            eprintln!("{msg}");
        }
    }

    /// Removes the line.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
