//! Running one command as a whole process and measuring it: wall time from spawn to reap on
//! the monotonic clock, user and system CPU time and the maximum resident set size from
//! `wait4`, and the exit status.
//!
//! Every child runs in a process group of its own, with stdin from `/dev/null` and its output
//! discarded unless asked for. A watchdog thread kills the whole group (a shell, and the
//! pipeline it started) when the run's time limit passes. When SIGINT or SIGTERM arrives it
//! passes SIGINT on to the group first, as Ctrl-C would have had the child been in the
//! terminal's foreground, and kills the group only if the child is still there after
//! [`INTERRUPT_GRACE`]. The main thread waits with `waitid(WNOWAIT)` first and tells the
//! watchdog before it reaps, so the watchdog can never signal a process id that has been reused.
//!
//! **Why one file.** Spawning, waiting, the watchdog and the signals' hand-over share one
//! protocol on one process group; split, each part would have to know the others' order. Only
//! the system calls live apart, one file per platform behind one shape: `process/unix.rs`
//! (the above), and `process/other.rs` elsewhere (Windows), where a run is waited for with
//! the standard library, a timeout kills the child's tree, Ctrl-C is not passed on (the
//! console delivers it to the child itself) and CPU times and peak memory are not measured
//! (reported as 0).

use std::ffi::OsString;
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::{CliError, Result};
use crate::signals;

#[cfg(unix)]
#[path = "process/unix.rs"]
mod os;
#[cfg(not(unix))]
#[path = "process/other.rs"]
mod os;

use os::Stop;

/// How often the watchdog looks at the interrupt flag: 20 ms, so Ctrl-C takes effect at once to
/// a person while the idle thread costs nothing measurable (50 wake-ups a second).
const WATCHDOG_POLL: Duration = Duration::from_millis(20);

/// How long a child has, after the SIGINT that Ctrl-C (or SIGTERM to `rtcompare`) passes on to
/// its process group, to clean up and exit before the group is killed with SIGKILL: 2 s, long
/// enough for a build tool to remove its lock and temporary files, short enough that a child
/// ignoring SIGINT does not leave a person waiting at a terminal that looks stuck.
pub const INTERRUPT_GRACE: Duration = Duration::from_secs(2);

/// The shell that runs each command unless `--shell` says otherwise, as hyperfine's: `sh -c`,
/// and `cmd.exe /C` on Windows, which has no `sh`.
#[cfg(not(windows))]
pub const DEFAULT_SHELL: &str = "sh -c";
/// The shell that runs each command unless `--shell` says otherwise, as hyperfine's: `sh -c`,
/// and `cmd.exe /C` on Windows, which has no `sh`.
#[cfg(windows)]
pub const DEFAULT_SHELL: &str = "cmd.exe /C";

/// How a command string becomes a program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shell {
    /// Run through this shell and its arguments, the command appended as one argument (the
    /// default: [`DEFAULT_SHELL`]).
    Program(Vec<String>),
    /// `--shell none`: split the command into words (single and double quotes group, a
    /// backslash escapes the next character) and execute the first word directly.
    None,
}

impl Default for Shell {
    fn default() -> Self {
        Shell::Program(DEFAULT_SHELL.split(' ').map(String::from).collect())
    }
}

impl Shell {
    /// Parses a `--shell` value: `none`, or a shell command line such as `bash -c` or
    /// `zsh -fc` (split into words like a command under `--shell none`). A bare program name
    /// (`bash`) gets `-c` appended.
    pub fn parse(value: &str) -> Result<Shell> {
        if value.trim() == "none" {
            return Ok(Shell::None);
        }
        let mut words = split_words(value)?;
        if words.is_empty() {
            return Err(CliError::Usage(
                "--shell is empty: give a shell such as `sh -c`, or `none` to run commands \
                 directly"
                    .into(),
            ));
        }
        if words.len() == 1 {
            words.push("-c".into());
        }
        Ok(Shell::Program(words))
    }

    /// The argument vector that runs `command` under this shell. Errors: an empty command, or
    /// unbalanced quotes under `--shell none`.
    pub fn argv(&self, command: &str) -> Result<Vec<OsString>> {
        if command.trim().is_empty() {
            return Err(CliError::Usage(
                "a command is empty: give each command as one argument, quoted if it has spaces"
                    .into(),
            ));
        }
        Ok(match self {
            Shell::Program(words) => words
                .iter()
                .map(OsString::from)
                .chain(std::iter::once(OsString::from(command)))
                .collect(),
            Shell::None => split_words(command)?
                .into_iter()
                .map(OsString::from)
                .collect(),
        })
    }
}

/// Splits a command line into words: whitespace separates, single quotes keep everything
/// literally, double quotes group (a backslash inside escapes `"` and `\`), and a backslash
/// outside quotes escapes the next character. No expansion of any kind.
pub fn split_words(line: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    let unbalanced = |q: char| {
        CliError::Usage(format!(
            "unbalanced {q} in `{line}`; close the quote, or use the default --shell to have a \
             shell parse the command"
        ))
    };
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(unbalanced('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(unbalanced('"')),
                        },
                        Some(c) => word.push(c),
                        None => return Err(unbalanced('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// What one finished run measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Measured {
    /// Wall time from just before the spawn to just after the reap, on the monotonic clock
    /// (`std::time::Instant`), in nanoseconds.
    pub wall_ns: u64,
    /// User CPU time of the child and its waited-for descendants (`wait4`'s `ru_utime`), ns;
    /// 0 off Unix, where it is not measured.
    pub user_ns: u64,
    /// System CPU time of the child and its waited-for descendants (`ru_stime`), ns; 0 off
    /// Unix.
    pub sys_ns: u64,
    /// Largest resident set size of the child or any waited-for descendant (`ru_maxrss`,
    /// kibibytes on Linux, converted to bytes); 0 off Unix.
    pub max_rss_bytes: u64,
    /// The exit code, or `None` when a signal ended the process.
    pub exit_code: Option<i32>,
    /// The signal that ended the process, if one did.
    pub signal: Option<i32>,
}

impl Measured {
    /// Whether the run succeeded: exit code 0.
    pub fn success(&self) -> bool {
        self.exit_code == Some(0)
    }

    /// `exit status 3`, `killed by signal 9`, or `exit status 0`.
    pub fn status_text(&self) -> String {
        match (self.exit_code, self.signal) {
            (Some(code), _) => format!("exit status {code}"),
            (None, Some(sig)) => format!("killed by signal {sig}"),
            (None, None) => "unknown status".into(),
        }
    }
}

/// What reaping a run tells besides its wall time (the platform's side fills it in).
#[derive(Debug, Clone, Copy)]
struct Reaped {
    user_ns: u64,
    sys_ns: u64,
    max_rss_bytes: u64,
    exit_code: Option<i32>,
    signal: Option<i32>,
}

/// The child the watchdog watches: its process id (also its process group id) and the instant
/// after which it is killed.
#[derive(Debug, Default)]
struct Slot {
    watched: Option<(u32, Option<Instant>)>,
    /// When the watchdog passed SIGINT on to the watched child's group (after Ctrl-C); the
    /// group is killed once [`INTERRUPT_GRACE`] has passed since.
    interrupt_sent: Option<Instant>,
    /// Set by the watchdog when it killed the watched child because its time was up.
    timed_out: bool,
    shutdown: bool,
}

/// Spawns and measures commands; owns the watchdog thread (stopped on drop).
pub struct Runner {
    shared: Arc<(Mutex<Slot>, Condvar)>,
    watchdog: Option<thread::JoinHandle<()>>,
    show_output: bool,
    stdout_to_stderr: bool,
    /// Variables set in every child's environment on top of this process's own.
    env: Vec<(OsString, OsString)>,
    /// `--input`: each run's stdin, opened afresh for every run (`None`: `/dev/null`).
    input: Option<std::path::PathBuf>,
    /// `--output`: where each run's stdout goes (stderr goes to `/dev/null` unless it is
    /// [`Output::Inherit`]).
    output: Output,
}

/// Where a timed command's standard output goes (`--output`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Output {
    /// `/dev/null` (the default).
    #[default]
    Null,
    /// A pipe that this process reads and discards: a program may write differently to a
    /// pipe than to `/dev/null` (buffering, `isatty`, skipped work).
    Pipe,
    /// This terminal (as `--show-output`), stderr too.
    Inherit,
    /// A file, truncated before every run.
    File(std::path::PathBuf),
}

impl Output {
    /// Parses `null`, `pipe`, `inherit` or a file name.
    pub fn parse(s: &str) -> Result<Output, String> {
        Ok(match s {
            "null" => Output::Null,
            "pipe" => Output::Pipe,
            "inherit" => Output::Inherit,
            "" => return Err("--output needs null, pipe, inherit or a file name".into()),
            file => Output::File(file.into()),
        })
    }
}

/// Why a run did not produce a measurement.
#[derive(Debug)]
pub enum RunFailure {
    /// The program could not be started.
    Spawn(std::io::Error),
    /// The time limit passed; the process group was killed and reaped.
    Timeout,
    /// SIGINT or SIGTERM; the process group was killed and reaped.
    Interrupted,
    /// A system call failed.
    System(&'static str, std::io::Error),
}

impl RunFailure {
    /// The error of a run of `command` (labelled `name` in the message) that failed so;
    /// `limit_s` is its time limit (0 for none), named when it timed out.
    pub(crate) fn into_error(self, name: String, command: String, limit_s: f64) -> CliError {
        match self {
            RunFailure::Spawn(source) => CliError::Spawn {
                name,
                command,
                source,
            },
            RunFailure::Timeout => CliError::Timeout {
                name,
                command,
                limit_s,
            },
            RunFailure::Interrupted => CliError::Interrupted,
            RunFailure::System(call, source) => CliError::System { call, source },
        }
    }
}

impl Runner {
    /// A runner whose children inherit stdout and stderr when `show_output` is set (else both
    /// go to `/dev/null`). Starts the watchdog thread.
    ///
    /// Errors: [`CliError::Watchdog`] when the thread cannot be started. There is no running
    /// without it: the watchdog is what enforces the time limit and passes Ctrl-C on, so a
    /// runner without one could hang forever on a stuck child and leave it running after
    /// Ctrl-C.
    pub fn new(show_output: bool) -> Result<Runner> {
        let shared = Arc::new((Mutex::new(Slot::default()), Condvar::new()));
        let watched = Arc::clone(&shared);
        let watchdog = thread::Builder::new()
            .name("rtcompare-watchdog".into())
            .spawn(move || watch(&watched))
            .map_err(|source| CliError::Watchdog { source })?;
        Ok(Runner {
            shared,
            watchdog: Some(watchdog),
            show_output,
            stdout_to_stderr: false,
            env: Vec::new(),
            input: None,
            output: if show_output {
                Output::Inherit
            } else {
                Output::Null
            },
        })
    }

    /// Feeds every run's stdin from `file` (opened afresh for each run) instead of
    /// `/dev/null`.
    pub fn input(mut self, file: Option<std::path::PathBuf>) -> Runner {
        self.input = file;
        self
    }

    /// Sends every run's stdout to `output`.
    pub fn output(mut self, output: Output) -> Runner {
        self.show_output = output == Output::Inherit;
        self.output = output;
        self
    }

    /// A runner for build commands: their stdout and stderr both go to this process's stderr,
    /// so the summary on stdout stays clean and a failing build's messages are seen.
    pub fn for_builds() -> Result<Runner> {
        let mut runner = Runner::new(true)?;
        runner.stdout_to_stderr = true;
        Ok(runner)
    }

    /// Sets `key` to `value` in the environment of every child this runner starts (the rest
    /// of the environment is inherited).
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Runner {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Runs `argv` once and measures it; the process group is killed after `limit`.
    pub fn run(
        &self,
        argv: &[OsString],
        dir: Option<&std::path::Path>,
        limit: Option<Duration>,
    ) -> std::result::Result<Measured, RunFailure> {
        self.run_injected(argv, dir, limit, Duration::ZERO)
    }

    /// [`Runner::run`] with a busy-wait of `inject` inside the timed window, after the reap
    /// and before the end time is read: a real extra cost of known size, as the self-test's
    /// injected regression needs (a spinning loop, not a sleep, so it costs what work costs).
    pub fn run_injected(
        &self,
        argv: &[OsString],
        dir: Option<&std::path::Path>,
        limit: Option<Duration>,
        inject: Duration,
    ) -> std::result::Result<Measured, RunFailure> {
        self.spawn_and_measure(
            argv,
            dir,
            limit,
            inject,
            self.input.as_deref(),
            &self.output,
        )
    }

    /// [`Runner::run`] for a hook (`--prepare`, `--setup`, …): `--input` and `--output` are
    /// the timed commands' alone (as in hyperfine), so a hook reads `/dev/null` and writes
    /// where `--show-output` says.
    pub fn run_hook(
        &self,
        argv: &[OsString],
        dir: Option<&std::path::Path>,
        limit: Option<Duration>,
    ) -> std::result::Result<Measured, RunFailure> {
        let output = if self.show_output {
            Output::Inherit
        } else {
            Output::Null
        };
        self.spawn_and_measure(argv, dir, limit, Duration::ZERO, None, &output)
    }

    /// One run of `argv`: the command built, then spawned, waited for under the watchdog,
    /// reaped and measured; the timed window runs from just before the spawn to just after
    /// the reap (and the injected busy-wait).
    fn spawn_and_measure(
        &self,
        argv: &[OsString],
        dir: Option<&std::path::Path>,
        limit: Option<Duration>,
        inject: Duration,
        input: Option<&std::path::Path>,
        output_to: &Output,
    ) -> std::result::Result<Measured, RunFailure> {
        if signals::interrupted() {
            return Err(RunFailure::Interrupted);
        }
        let mut command = self.command(argv, dir, input, output_to)?;

        let start = Instant::now();
        let mut child = command.spawn().map_err(RunFailure::Spawn)?;
        // `--output pipe`: the pipe is read to its end and discarded on a thread of its own,
        // so a program that writes much never blocks on a full pipe. The thread ends when the
        // process group closes its end (at the latest when it is killed).
        let drain = child
            .stdout
            .take()
            .map(|mut out| thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink())));
        let (waited, timed_out) = self.wait_watched(&mut child, limit.map(|l| start + l));
        // The leader has exited but is not reaped, so its group id is still ours: anything it
        // left running in the group (a background job) goes with it. After Ctrl-C that is at
        // once, not after the rest of the grace: the group had its SIGINT, and the leader,
        // which answers for its children, has finished cleaning up.
        os::kill_leftovers(&child);
        if let Err(e) = waited {
            let _ = os::reap(&mut child);
            return Err(RunFailure::System("waitid", e));
        }
        let reaped = os::reap(&mut child).map_err(|e| RunFailure::System("wait4", e))?;
        if let Some(drain) = drain {
            let _ = drain.join();
        }
        if !inject.is_zero() {
            let until = Instant::now() + inject;
            while Instant::now() < until {
                std::hint::spin_loop();
            }
        }
        let wall = start.elapsed();
        drop(child);
        if signals::interrupted() {
            return Err(RunFailure::Interrupted);
        }
        if timed_out {
            return Err(RunFailure::Timeout);
        }
        Ok(Measured {
            wall_ns: u64::try_from(wall.as_nanos()).unwrap_or(u64::MAX),
            user_ns: reaped.user_ns,
            sys_ns: reaped.sys_ns,
            max_rss_bytes: reaped.max_rss_bytes,
            exit_code: reaped.exit_code,
            signal: reaped.signal,
        })
    }

    /// The command for `argv`, in `dir`, in a process group of its own, its stdin from
    /// `input` (else `/dev/null`), its stdout to `output_to` and its stderr shown or not.
    fn command(
        &self,
        argv: &[OsString],
        dir: Option<&std::path::Path>,
        input: Option<&std::path::Path>,
        output_to: &Output,
    ) -> std::result::Result<Command, RunFailure> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| RunFailure::Spawn(std::io::Error::other("empty command")))?;
        let output = || {
            if self.show_output {
                Stdio::inherit()
            } else {
                Stdio::null()
            }
        };
        let stdout = if self.show_output && self.stdout_to_stderr {
            // A build's output belongs with the diagnostics, not with the summary on stdout.
            os::stderr_copy()
        } else {
            match output_to {
                Output::Pipe => Stdio::piped(),
                Output::File(path) => {
                    Stdio::from(std::fs::File::create(path).map_err(RunFailure::Spawn)?)
                }
                Output::Null | Output::Inherit => output(),
            }
        };
        let stdin = match input {
            Some(path) => Stdio::from(std::fs::File::open(path).map_err(RunFailure::Spawn)?),
            None => Stdio::null(),
        };
        let stderr = output();
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(stdin)
            .stdout(stdout)
            .stderr(stderr)
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        os::own_group(&mut command);
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        Ok(command)
    }

    /// Hands `child` to the watchdog (killed at `deadline`, Ctrl-C passed on) and waits for
    /// its exit without reaping, so the pid stays ours while the watchdog may still signal it;
    /// returns the wait's outcome and whether the deadline passed.
    fn wait_watched(
        &self,
        child: &mut std::process::Child,
        deadline: Option<Instant>,
    ) -> (std::io::Result<()>, bool) {
        let pid = child.id();
        {
            let (lock, cvar) = &*self.shared;
            let mut slot = lock.lock().unwrap_or_else(|e| e.into_inner());
            slot.watched = Some((pid, deadline));
            slot.interrupt_sent = None;
            slot.timed_out = false;
            cvar.notify_one();
        }
        let waited = os::wait_exited(child);
        let timed_out = {
            let (lock, _) = &*self.shared;
            let mut slot = lock.lock().unwrap_or_else(|e| e.into_inner());
            slot.watched = None;
            slot.timed_out
        };
        (waited, timed_out)
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        {
            let (lock, cvar) = &*self.shared;
            let mut slot = lock.lock().unwrap_or_else(|e| e.into_inner());
            slot.shutdown = true;
            cvar.notify_one();
        }
        if let Some(handle) = self.watchdog.take() {
            let _ = handle.join();
        }
    }
}

/// The watchdog's loop: kill the watched group when its deadline passes; after a signal, pass
/// SIGINT on and kill the group if it is still there [`INTERRUPT_GRACE`] later. Bounded: it
/// ends when the runner drops.
///
/// A timeout kills at once, without the grace: it is `rtcompare`'s own judgement that the run
/// is stuck, and a stuck process is the one least likely to answer SIGINT, so the grace would
/// only stretch every `--max-time` by 2 s. Ctrl-C is a person's request to stop, which the
/// child deserves to see as the terminal would have delivered it.
fn watch(shared: &(Mutex<Slot>, Condvar)) {
    let (lock, cvar) = shared;
    let mut slot = lock.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if slot.shutdown {
            return;
        }
        if let Some((pid, deadline)) = slot.watched {
            let now = Instant::now();
            if slot.interrupt_sent.is_none() && deadline.is_some_and(|d| now >= d) {
                os::signal_group(pid, Stop::Kill);
                slot.timed_out = true;
                // Killed once; the main thread reaps it.
                slot.watched = None;
            } else if let Some(sent) = slot.interrupt_sent {
                if now >= sent + INTERRUPT_GRACE {
                    os::signal_group(pid, Stop::Kill);
                    slot.watched = None;
                }
            } else if signals::interrupted() {
                os::signal_group(pid, Stop::Interrupt);
                slot.interrupt_sent = Some(now);
            }
        }
        let now = Instant::now();
        let wait = match (slot.watched, slot.interrupt_sent) {
            (Some(_), Some(sent)) => (sent + INTERRUPT_GRACE).saturating_duration_since(now),
            (Some((_, Some(d))), None) => d.saturating_duration_since(now),
            _ => WATCHDOG_POLL,
        }
        .min(WATCHDOG_POLL);
        slot = cvar
            .wait_timeout(slot, wait)
            .map(|(s, _)| s)
            .unwrap_or_else(|e| e.into_inner().0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell_without_expansion() {
        assert_eq!(split_words("a  b\tc").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split_words("echo 'x y' \"p \\\" q\"").unwrap(),
            ["echo", "x y", "p \" q"]
        );
        assert_eq!(split_words("a\\ b ''").unwrap(), ["a b", ""]);
        assert!(split_words("echo 'open").is_err());
        assert!(split_words("echo \"open").is_err());
        assert!(split_words("   ").unwrap().is_empty());
    }

    #[test]
    #[cfg(unix)] // `sh`, `true` and `sleep`
    fn shells_parse() {
        assert_eq!(Shell::parse("none").unwrap(), Shell::None);
        assert_eq!(
            Shell::parse("bash").unwrap(),
            Shell::Program(vec!["bash".into(), "-c".into()])
        );
        assert_eq!(
            Shell::parse("zsh -fc").unwrap(),
            Shell::Program(vec!["zsh".into(), "-fc".into()])
        );
        assert!(Shell::parse("  ").is_err());
        assert_eq!(
            Shell::default().argv("sleep 1").unwrap(),
            ["sh", "-c", "sleep 1"].map(OsString::from)
        );
        assert!(Shell::default().argv(" ").is_err());
    }

    #[test]
    #[cfg(unix)] // `sh`, `true` and `sleep`
    fn a_run_is_measured_and_a_missing_program_is_a_spawn_error() {
        let runner = Runner::new(false).unwrap();
        let m = runner
            .run(&Shell::None.argv("true").unwrap(), None, None)
            .unwrap();
        assert!(m.success() && m.wall_ns > 0);
        assert!(m.max_rss_bytes > 0 || cfg!(not(unix)), "{m:?}");
        let m = runner
            .run(&Shell::default().argv("exit 3").unwrap(), None, None)
            .unwrap();
        assert_eq!(m.exit_code, Some(3));
        assert!(matches!(
            runner.run(
                &Shell::None.argv("/nonexistent/program").unwrap(),
                None,
                None
            ),
            Err(RunFailure::Spawn(_))
        ));
    }

    #[test]
    #[cfg(unix)] // `sh`, `true` and `sleep`
    fn a_run_past_its_limit_is_killed() {
        let runner = Runner::new(false).unwrap();
        let t = Instant::now();
        let r = runner.run(
            &Shell::default().argv("sleep 5").unwrap(),
            None,
            Some(Duration::from_millis(100)),
        );
        assert!(matches!(r, Err(RunFailure::Timeout)), "{r:?}");
        assert!(t.elapsed() < Duration::from_secs(3));
    }
}
