//! The command-line tool's one error type, and the exit status each error maps to.

use std::path::PathBuf;

/// Exit status of a comparison that reached a verdict (any verdict, including "cannot tell").
pub const EXIT_OK: i32 = 0;
/// Exit status with `--fail-on-regression` when B was found slower than A.
pub const EXIT_REGRESSION: i32 = 1;
/// Exit status of a usage error (a bad flag or value) or a run error (a command that cannot
/// start, fails, or times out; a file that cannot be read or written).
pub const EXIT_ERROR: i32 = 2;
/// Exit status of `rtcompare bench` when a benchmark failed (a panic, a crash, a batch that
/// ignores n, a timeout, twice): the others were compared and every output written, with the
/// failed one's row saying why. It wins over [`EXIT_REGRESSION`], since a benchmark that did
/// not run cannot pass a gate.
pub const EXIT_BENCH_FAILED: i32 = 3;
/// Exit status after SIGINT: 128 + 2, as a shell reports a process ended by Ctrl-C. Every
/// child has been killed and reaped by then.
pub const EXIT_INTERRUPTED: i32 = 130;
/// Exit status after SIGTERM: 128 + 15, as a shell reports a process it ended (a CI job's
/// cancellation). Every child has been killed and reaped, and `rtcompare bench` has written
/// what it measured.
pub const EXIT_TERMINATED: i32 = 143;

/// Everything that can stop `rtcompare` before it reports a verdict.
///
/// The `Display` text is one sentence that names what went wrong and how to fix it; `main`
/// prints it after `error: ` on stderr and exits with [`CliError::exit_code`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CliError {
    /// A flag or value that cannot be used (checked after clap's own parsing).
    #[error("{0}")]
    Usage(String),
    /// A command could not be started at all (for example the program does not exist).
    #[error("cannot start {name} `{command}`: {source}")]
    Spawn {
        /// Which command: `A`, `B`, or `--prepare`.
        name: String,
        /// The command as given.
        command: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A command ran but failed: a non-zero exit status or a signal.
    #[error(
        "{name} `{command}` failed ({status}){hint}; the comparison stopped. Fix the command, or \
         pass --ignore-failure to time failing runs too"
    )]
    Failed {
        /// Which command: `A`, `B`, or `--prepare`.
        name: String,
        /// The command as given.
        command: String,
        /// `exit status 3` or `killed by signal 9`.
        status: String,
        /// An extra hint (for example for exit status 127, "command not found"), or empty.
        hint: String,
    },
    /// A run took longer than its time limit and was killed.
    #[error(
        "{name} `{command}` ran longer than {limit_s} s and was killed; raise --max-time if \
         one run really takes that long"
    )]
    Timeout {
        /// Which command.
        name: String,
        /// The command as given.
        command: String,
        /// The limit in seconds.
        limit_s: f64,
    },
    /// A build of one revision failed; the compiler's messages were shown above.
    #[error("the build of bench `{bench}` at {revision} failed ({status}){hint}")]
    Build {
        /// The bench target.
        bench: String,
        /// Which revision, in words (`the baseline (origin/main)`, `the working tree`).
        revision: String,
        /// `exit status 101`.
        status: String,
        /// Where the compiler's messages are, or the linker's last lines when they were not
        /// shown.
        hint: String,
    },
    /// SIGINT or SIGTERM arrived; the running child was killed and reaped.
    #[error("interrupted; the running command was killed and reaped")]
    Interrupted,
    /// The watchdog thread, which enforces the time limit and passes Ctrl-C on to the running
    /// command, could not be started; nothing is run without it.
    #[error(
        "cannot start the watchdog thread that enforces --max-time and passes Ctrl-C on to the \
         commands ({source}); refusing to run commands without it. The system may be out of \
         threads or memory: try again, or raise the process or thread limit (ulimit -u)"
    )]
    Watchdog {
        /// Why `std::thread::Builder::spawn` refused.
        source: std::io::Error,
    },
    /// A system call the runner depends on failed.
    #[error("{call} failed: {source}")]
    System {
        /// The call (`wait4`, `waitid`, …).
        call: &'static str,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A file could not be read or written.
    #[error("cannot {action} {}: {source}", path.display())]
    File {
        /// `read`, `write`, `create` or `write into` (a directory).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A file was read but its contents are not what was expected.
    #[error("{}: {reason}", path.display())]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The library's statistics refused the data (for example a run time of zero).
    #[error(transparent)]
    Stats(#[from] rtcompare::Error),
}

impl CliError {
    /// The process exit status for this error: [`EXIT_INTERRUPTED`] (130) after SIGINT,
    /// [`EXIT_TERMINATED`] (143) after SIGTERM, [`EXIT_ERROR`] (2) for everything else.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Interrupted => crate::signals::exit_code(),
            _ => EXIT_ERROR,
        }
    }
}

/// Shorthand for `Result<T, CliError>`.
pub type Result<T, E = CliError> = std::result::Result<T, E>;
