//! The worker protocol: a bench target started by a parent serves one benchmark's timed
//! batches, so that two builds of it can be compared batch by batch.
//!
//! The parent starts the bench binary with [`WORKER_ENV`] set and two pipes on file
//! descriptors 3 (requests, parent to worker) and 4 (answers, worker to parent); the worker's
//! stdout stays the benchmark's own, since a benchmark may print. Messages are JSON, one per
//! line. The marker names the protocol's version and the task, `v2\tlist` or
//! `v2\tserve\tSEED\tNAME`, and the worker's first answer is `hello` with its own version,
//! sent before the registration runs anything:
//!
//! 1. `list`: the worker answers one `name` per benchmark it registers, then `end`, and exits;
//! 2. `serve`: the worker perturbs its heap from SEED before the registration runs (as pool
//!    children do before `main`), so that the fixtures it builds land elsewhere in each
//!    worker; runs the registration until it reaches NAME, answers `ready`, then answers
//!    every `batch` request of `n` operations with the nanoseconds its own clock measured
//!    (setup and teardown outside them), until `finish`.
//!
//! **Why a version, and why first.** A bench binary built against an rtcompare whose protocol
//! differs (a baseline revision that pins an older one) must be named at once, not after the
//! answer timeout. A worker of protocol 1 cannot parse a versioned marker, so it takes itself
//! for no worker, runs its whole harness and never answers; the parent gives the `hello`
//! [`HANDSHAKE_TIMEOUT`] instead of the answer timeout, and an exit, a timeout or a first
//! answer without a version all say that the build speaks another protocol and what to do. In
//! the other direction, a worker of this version started by a parent of another (the marker
//! `list` or `serve\tNAME\tSEED` of protocol 1, or `vN`) answers an `error` saying so, which
//! every version's parent shows.
//!
//! The parent never times anything: each batch is timed inside the worker, as `compare()`
//! times batches in one process, and a [`Candidate::timed_elsewhere`] hands the worker's
//! figure to the comparison.
//!
//! **Unix only.** The pipes reach the worker as inherited descriptors 3 and 4 (and the worker
//! is pinned between fork and exec), which only Unix offers. Elsewhere no worker is started:
//! a comparison of two builds answers [`Error::Unsupported`] before anything is built (see
//! [`unsupported`]), and a process that finds the marker set runs as a plain bench target.

use std::ffi::OsString;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
#[cfg(unix)]
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
#[cfg(unix)]
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Child;
#[cfg(unix)]
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::measure::CancelToken;
use crate::measure::candidate::Candidate;
use crate::measure::clock::MonotonicClock;

/// The environment variable that makes a bench binary a worker: `v2\tlist`, or
/// `v2\tserve\tSEED\tNAME` (the version is [`WORKER_PROTOCOL`]).
pub const WORKER_ENV: &str = "RTCOMPARE_BENCH_WORKER";

/// The version of the worker protocol this rtcompare speaks, in the marker ([`WORKER_ENV`])
/// and in the worker's first answer. Two builds compared by
/// [`compare_builds`](super::builds::compare_builds) must both speak it; a build that speaks another
/// is an [`Error::Worker`] saying so. Protocol 1 had no version.
pub const WORKER_PROTOCOL: u32 = 2;

/// Longest wait for a worker's first answer, the version handshake (10 s, or the answer
/// timeout when that is shorter). A worker sends it before the registration runs, so only
/// the process's start and what the bench target's `main` does before calling
/// [`main`](super::main) precede it; a bench binary of an older rtcompare, which runs its
/// whole harness instead, is named after this rather than after the answer timeout.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// What to do about a build whose worker speaks `protocol` (`None`: no versioned one).
fn mismatch_advice(protocol: Option<u32>) -> String {
    let p = WORKER_PROTOCOL;
    match protocol {
        Some(newer) if newer > p => {
            format!("update this rtcompare (and rtcompare-cli) to one that speaks protocol {newer}")
        }
        _ => format!(
            "update that build's rtcompare dependency to one that speaks protocol {p}, or with \
             `--baseline REV` use a baseline revision whose rtcompare has it"
        ),
    }
}

/// The worker's request pipe (read end) and answer pipe (write end).
#[cfg(unix)]
const REQUEST_FD: i32 = 3;
#[cfg(unix)]
const ANSWER_FD: i32 = 4;

/// What comparing two builds answers on a platform without inherited descriptors.
pub(crate) fn unsupported() -> Error {
    Error::unsupported(
        "comparing two builds (the bench worker protocol)",
        "workers receive their pipes as inherited Unix file descriptors; here compare the two \
         built bench binaries as commands with `rtcompare cmd`, or the two code paths in one \
         process with `compare()`",
    )
}

/// What a worker was asked to do, from [`WORKER_ENV`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mode {
    List,
    Serve { name: String, seed: u64 },
}

/// The marker as a worker reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Marker {
    /// A parent of this protocol, and its task.
    Current(Mode),
    /// A parent of another protocol: `vN` with N other than [`WORKER_PROTOCOL`], or 1 for the
    /// unversioned `list` and `serve\tNAME\tSEED` of protocol 1.
    Other { version: u32 },
}

impl Marker {
    /// Parses a marker; `None` when it is none of the forms (the process is no worker).
    fn parse(v: &str) -> Option<Marker> {
        if v == "list" || v.starts_with("serve\t") {
            return Some(Marker::Other { version: 1 });
        }
        let (version, task) = v.strip_prefix('v')?.split_once('\t')?;
        let version: u32 = version.parse().ok()?;
        if version != WORKER_PROTOCOL {
            return Some(Marker::Other { version });
        }
        if task == "list" {
            return Some(Marker::Current(Mode::List));
        }
        // The name last, so that whatever it holds (a tab, even) is taken whole.
        let mut it = task.splitn(3, '\t');
        match (it.next(), it.next(), it.next()) {
            (Some("serve"), Some(seed), Some(name)) => Some(Marker::Current(Mode::Serve {
                name: name.to_string(),
                seed: seed.parse().ok()?,
            })),
            _ => None,
        }
    }
}

#[cfg_attr(not(unix), allow(dead_code))]
impl Mode {
    fn encode(&self) -> String {
        let v = WORKER_PROTOCOL;
        match self {
            Mode::List => format!("v{v}\tlist"),
            Mode::Serve { name, seed } => format!("v{v}\tserve\t{seed}\t{name}"),
        }
    }
}

/// A request from the parent.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Request {
    Batch { n: u64 },
    Finish,
}

/// An answer from the worker.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Answer {
    /// The first answer of every version from 2 on: the worker's protocol version.
    Hello {
        protocol: u32,
    },
    Name {
        name: String,
    },
    End,
    /// Serving: the benchmark is found; `inner_loops` is the batch size the bench target's
    /// options fix for it (0: none, calibrate).
    Ready {
        #[serde(default)]
        inner_loops: u64,
    },
    Ns {
        ns: u64,
    },
    Error {
        message: String,
    },
}

/// The worker's side: the pipes the parent handed it.
pub(crate) struct Serving {
    pub(crate) mode: Mode,
    requests: BufReader<File>,
    answers: File,
    /// Whether the benchmark asked for was found and served.
    pub(crate) served: bool,
    /// The names listed so far (listing only).
    listed: Vec<String>,
}

impl Serving {
    /// Whether a parent started this process as a worker (the marker is set, whatever its
    /// version), without taking the pipes.
    pub(crate) fn marked() -> bool {
        std::env::var_os(WORKER_ENV).is_some()
    }

    /// The worker's pipes, when this process is a worker, after the handshake. Started by a
    /// parent of another protocol, it says so on the answers pipe and exits the process.
    pub(crate) fn from_env() -> Option<Serving> {
        let marker = Marker::parse(&std::env::var(WORKER_ENV).ok()?)?;
        // A benchmark's own subprocesses must not inherit the protocol: a child holding the
        // answers pipe would hide this worker's crash from the parent until the answer timeout,
        // and a child that is itself a bench target would take itself for a worker.
        // SAFETY: called from `Bencher::start`, at the start of the bench target's main, before the
        // registration runs any code that could start a thread reading the environment.
        unsafe { std::env::remove_var(WORKER_ENV) };
        let (requests, answers) = inherited_pipes()?;
        let mut serving = Serving {
            mode: Mode::List,
            requests: BufReader::new(requests),
            answers,
            served: false,
            listed: Vec::new(),
        };
        match marker {
            Marker::Current(mode) => {
                serving.mode = mode;
                serving.answer(&Answer::Hello {
                    protocol: WORKER_PROTOCOL,
                });
                Some(serving)
            }
            Marker::Other { version } => {
                // Protocol 1 knows no `hello`, and shows an `error`'s message; later versions
                // read the `hello` first and word the mismatch themselves.
                if version >= 2 {
                    serving.answer(&Answer::Hello {
                        protocol: WORKER_PROTOCOL,
                    });
                }
                let message = format!(
                    "this bench binary speaks rtcompare's worker protocol {WORKER_PROTOCOL} and \
                     was started by a parent speaking protocol {version}: use an rtcompare (and \
                     rtcompare-cli) that speaks protocol {WORKER_PROTOCOL}"
                );
                serving.answer(&Answer::Error { message });
                std::process::exit(2);
            }
        }
    }

    fn answer(&mut self, a: &Answer) {
        // A parent that went away ends the worker at the next read; nothing to do here.
        let _ = serde_json::to_string(a)
            .map(|line| writeln!(self.answers, "{line}").and_then(|()| self.answers.flush()));
    }

    /// Listing: one name. A name listed before ends the listing with an error naming it and
    /// exits the process: two benchmarks of one name would be compared as one, twice.
    pub(crate) fn list(&mut self, name: &str) {
        if self.listed.iter().any(|n| n == name) {
            let message =
                format!("the benchmark {name:?} is registered twice; give each its own name");
            self.answer(&Answer::Error { message });
            std::process::exit(1);
        }
        self.listed.push(name.to_string());
        self.answer(&Answer::Name {
            name: name.to_string(),
        });
    }

    /// Whether `name` is the benchmark this worker serves.
    pub(crate) fn wants(&self, name: &str) -> bool {
        matches!(&self.mode, Mode::Serve { name: n, .. } if n == name) && !self.served
    }

    /// Serves `candidate`'s batches until the parent says finish (or goes away), telling the
    /// parent the batch size the options fix (`inner_loops`, 0 for none).
    pub(crate) fn serve(&mut self, mut candidate: Candidate<'_>, inner_loops: u64) {
        self.served = true;
        if let Mode::Serve { .. } = self.mode {
            self.answer(&Answer::Ready { inner_loops });
            let mut line = String::new();
            loop {
                line.clear();
                match self.requests.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                match serde_json::from_str::<Request>(&line) {
                    Ok(Request::Batch { n }) => {
                        let a = match candidate.time_batch(&MonotonicClock, n) {
                            Ok(ns) => Answer::Ns { ns },
                            Err(e) => Answer::Error {
                                message: e.to_string(),
                            },
                        };
                        self.answer(&a);
                    }
                    Ok(Request::Finish) => break,
                    Err(e) => {
                        self.answer(&Answer::Error {
                            message: format!("a request outside the protocol: {e}"),
                        });
                        break;
                    }
                }
            }
            // Served: the rest of the registration (other benchmarks' fixtures, drops) is of
            // no use, and the parent waits for this exit before it kills.
            std::process::exit(0);
        }
    }

    /// After the registration: says the list is over, or that the benchmark was not found.
    pub(crate) fn finish(mut self) {
        match &self.mode {
            Mode::List => self.answer(&Answer::End),
            Mode::Serve { name, .. } if !self.served => {
                let message = format!("this build registers no benchmark named {name:?}");
                self.answer(&Answer::Error { message });
            }
            Mode::Serve { .. } => {}
        }
    }
}

/// The request and answer pipes the parent left on [`REQUEST_FD`] and [`ANSWER_FD`], made
/// close-on-exec so that the benchmark's own children do not inherit them.
#[cfg(unix)]
fn inherited_pipes() -> Option<(File, File)> {
    for fd in [REQUEST_FD, ANSWER_FD] {
        // SAFETY: fcntl on a descriptor number only sets its close-on-exec flag; the parent
        // opened both for this process alone (see `spawn`).
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    // SAFETY: the parent opened these two descriptors for this process alone (see `spawn`),
    // and nothing else in the process uses them.
    Some(unsafe {
        (
            File::from(OwnedFd::from_raw_fd(REQUEST_FD)),
            File::from(OwnedFd::from_raw_fd(ANSWER_FD)),
        )
    })
}

/// No parent starts workers here ([`Worker::spawn`] answers [`unsupported`]), so a marker was
/// set by hand: the process runs as a plain bench target.
#[cfg(not(unix))]
fn inherited_pipes() -> Option<(File, File)> {
    None
}

/// A running worker, seen from the parent. Dropping it kills the process and reaps it.
/// (Never made off Unix, where [`Worker::spawn`] answers [`unsupported`].)
#[cfg_attr(not(unix), allow(dead_code))]
pub(crate) struct Worker {
    child: Child,
    requests: File,
    answers: BufReader<File>,
    exe: PathBuf,
    benchmark: String,
    timeout: Duration,
    stderr: PathBuf,
    /// The batch size the served benchmark's options fix (0: none), from its `ready`.
    inner_loops: u64,
    cancel: Option<CancelToken>,
}

/// Sets up, for the child `cmd` starts, its pin to `cpu` (when given) and the request pipe's
/// read end `r` and the answer pipe's write end `w` on [`REQUEST_FD`] and [`ANSWER_FD`].
#[cfg(unix)]
fn wire_child(cmd: &mut Command, r: std::os::fd::RawFd, w: std::os::fd::RawFd, cpu: Option<usize>) {
    // SAFETY: between fork and exec only async-signal-safe calls (dup2, fcntl,
    // sched_setaffinity) run.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(cpu) = cpu {
                pin_self(cpu)?;
            }
            // The answer pipe must not sit where the request pipe goes.
            let w = if w == REQUEST_FD {
                libc::fcntl(w, libc::F_DUPFD, 10)
            } else {
                w
            };
            if w < 0 {
                return Err(std::io::Error::last_os_error());
            }
            for (from, to) in [(r, REQUEST_FD), (w, ANSWER_FD)] {
                if from == to {
                    // dup2 onto itself keeps close-on-exec; clear it instead.
                    if libc::fcntl(to, libc::F_SETFD, 0) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                } else if libc::dup2(from, to) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}

/// Longest a wait for an answer goes without looking at the cancellation.
const CANCEL_SLICE: Duration = Duration::from_millis(100);

/// How the parent starts workers.
#[derive(Debug, Clone)]
#[cfg_attr(not(unix), allow(dead_code))]
pub(crate) struct Launch<'a> {
    pub(crate) exe: &'a Path,
    /// The directory the worker starts in (none: the parent's).
    pub(crate) dir: Option<&'a Path>,
    pub(crate) args: &'a [OsString],
    pub(crate) timeout: Duration,
    /// Bytes of environment padding (moves the initial stack, as in pool children).
    pub(crate) padding: usize,
    /// The one CPU the worker may run on (`sched_setaffinity` before it starts); `None`:
    /// wherever the parent may run.
    pub(crate) cpu: Option<usize>,
    /// The run's cancellation: a wait for an answer ends with [`Error::Cancelled`] once it
    /// is set.
    pub(crate) cancel: Option<CancelToken>,
}

#[cfg_attr(not(unix), allow(dead_code))]
impl Worker {
    /// Off Unix: [`unsupported`], nothing started.
    #[cfg(not(unix))]
    pub(crate) fn spawn(_launch: &Launch<'_>, _mode: &Mode) -> Result<Worker> {
        Err(unsupported())
    }

    /// Starts `launch.exe` as a worker in `mode`.
    #[cfg(unix)]
    pub(crate) fn spawn(launch: &Launch<'_>, mode: &Mode) -> Result<Worker> {
        let benchmark = match mode {
            Mode::List => "(listing)".to_string(),
            Mode::Serve { name, .. } => name.clone(),
        };
        let fail = |reason: String| Error::Worker {
            build: launch.exe.display().to_string(),
            benchmark: benchmark.clone(),
            reason,
        };
        let (req_read, req_write) = pipe().map_err(|e| fail(format!("no pipe: {e}")))?;
        let (ans_read, ans_write) = pipe().map_err(|e| fail(format!("no pipe: {e}")))?;
        let stderr = std::env::temp_dir().join(format!(
            "rtcompare-worker-{}-{}.stderr",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let err_file = File::create(&stderr).map_err(|e| fail(format!("no stderr file: {e}")))?;
        let (r, w) = (req_read.as_raw_fd(), ans_write.as_raw_fd());
        let cpu = launch.cpu;
        let mut cmd = Command::new(launch.exe);
        cmd.args(launch.args)
            .env(WORKER_ENV, mode.encode())
            .env("RTCOMPARE_BENCH_PAD", "x".repeat(launch.padding))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(err_file);
        if let Some(dir) = launch.dir {
            cmd.current_dir(dir);
        }
        wire_child(&mut cmd, r, w, cpu);
        let child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                let _ = std::fs::remove_file(&stderr);
                return Err(fail(format!("could not start: {e}")));
            }
        };
        // The child's ends belong to it now.
        drop((req_read, ans_write));
        let mut worker = Worker {
            child,
            requests: File::from(req_write),
            answers: BufReader::new(File::from(ans_read)),
            exe: launch.exe.to_path_buf(),
            benchmark,
            timeout: launch.timeout,
            stderr,
            inner_loops: 0,
            cancel: launch.cancel.clone(),
        };
        worker.handshake()?;
        Ok(worker)
    }

    /// Reads the worker's `hello` within [`HANDSHAKE_TIMEOUT`] and checks its version. No
    /// answer, an exit or a first answer without a version is a build of an older protocol
    /// (or no rtcompare bench target), named as such with what to do.
    fn handshake(&mut self) -> Result<()> {
        let timeout = self.timeout;
        self.timeout = timeout.min(HANDSHAKE_TIMEOUT);
        let first = self.read();
        self.timeout = timeout;
        let older = format!(
            "it answered no protocol handshake: it was built against an rtcompare older than \
             worker protocol {WORKER_PROTOCOL} (or is no rtcompare::bench target): {}",
            mismatch_advice(None)
        );
        match first {
            Ok(Answer::Hello { protocol }) if protocol == WORKER_PROTOCOL => Ok(()),
            Ok(Answer::Hello { protocol }) => Err(self.fail(format!(
                "it speaks rtcompare's worker protocol {protocol}, this rtcompare protocol \
                 {WORKER_PROTOCOL}: {}",
                mismatch_advice(Some(protocol))
            ))),
            Ok(other) => Err(self.fail(format!("{older} (its first answer: {other:?})"))),
            // `read` has killed and reaped it; what it saw (an exit, the timeout, the stderr's
            // last lines) follows the diagnosis.
            Err(Error::Worker {
                build,
                benchmark,
                reason,
            }) => Err(Error::Worker {
                build,
                benchmark,
                reason: format!("{older} (the worker: {reason})"),
            }),
            Err(e) => Err(e),
        }
    }

    fn fail(&mut self, reason: impl Into<String>) -> Error {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let text = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
        let mut reason = reason.into();
        if !tail.is_empty() {
            reason.push_str(&format!("; its stderr ended: {tail}"));
        }
        Error::Worker {
            build: self.exe.display().to_string(),
            benchmark: self.benchmark.clone(),
            reason,
        }
    }

    /// The next answer, within the timeout. The wait is cut into slices so that a cancelled
    /// run stops within one (a signal that interrupts `poll` is only a reason to look again).
    fn read(&mut self) -> Result<Answer> {
        let started = Instant::now();
        while self.answers.buffer().is_empty() {
            if let Some(token) = &self.cancel
                && token.is_cancelled()
            {
                return Err(Error::Cancelled {
                    stage: "waiting for a worker",
                    elapsed: started.elapsed(),
                });
            }
            let left = self.timeout.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Err(self.fail(format!("no answer within {:?}", self.timeout)));
            }
            if self.answer_waiting(left.min(CANCEL_SLICE)) {
                break;
            }
        }
        let mut line = String::new();
        match self.answers.read_line(&mut line) {
            Ok(0) => {
                let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
                Err(self.fail(format!("exited ({status}) mid-protocol")))
            }
            Ok(_) => serde_json::from_str(&line)
                .map_err(|e| self.fail(format!("answered outside the protocol ({e}): {line:?}"))),
            Err(e) => Err(self.fail(format!("unreadable answer: {e}"))),
        }
    }

    /// Whether an answer can be read within `slice` (`poll` on the answer pipe).
    #[cfg(unix)]
    fn answer_waiting(&self, slice: Duration) -> bool {
        let ms = slice.as_millis().clamp(1, i32::MAX as u128) as i32;
        let mut fd = libc::pollfd {
            fd: self.answers.get_ref().as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        unsafe { libc::poll(&mut fd, 1, ms) > 0 }
    }

    /// Never reached off Unix (no worker is started); a blocking read.
    #[cfg(not(unix))]
    fn answer_waiting(&self, _slice: Duration) -> bool {
        true
    }

    fn send(&mut self, r: &Request) -> Result<()> {
        let line = serde_json::to_string(r).map_err(Error::json)?;
        writeln!(self.requests, "{line}")
            .and_then(|()| self.requests.flush())
            .map_err(|e| self.fail(format!("stopped reading requests: {e}")))
    }

    /// Lists the benchmarks of a build.
    pub(crate) fn list(launch: &Launch<'_>) -> Result<Vec<String>> {
        let mut w = Worker::spawn(launch, &Mode::List)?;
        let mut names = Vec::new();
        loop {
            match w.read()? {
                Answer::Name { name } => names.push(name),
                Answer::End => return Ok(names),
                Answer::Error { message } => return Err(w.fail(message)),
                other => return Err(w.fail(format!("answered {other:?} while listing"))),
            }
        }
    }

    /// Starts a worker serving `name` and waits until it is ready.
    pub(crate) fn serve(launch: &Launch<'_>, name: &str, seed: u64) -> Result<Worker> {
        let mode = Mode::Serve {
            name: name.to_string(),
            seed,
        };
        let mut w = Worker::spawn(launch, &mode)?;
        match w.read()? {
            Answer::Ready { inner_loops } => {
                w.inner_loops = inner_loops;
                Ok(w)
            }
            Answer::Error { message } => Err(w.fail(message)),
            other => Err(w.fail(format!("answered {other:?} instead of ready"))),
        }
    }

    /// The batch size the bench target's options fix for the benchmark served
    /// ([`BenchOptions`](super::BenchOptions)' `precision.inner_loops`); 0 when they fix none.
    pub(crate) fn inner_loops(&self) -> u64 {
        self.inner_loops
    }

    /// One batch of `n` operations, timed by the worker.
    pub(crate) fn batch(&mut self, n: u64) -> Result<u64> {
        self.send(&Request::Batch { n })?;
        match self.read()? {
            Answer::Ns { ns } => Ok(ns),
            Answer::Error { message } => Err(self.fail(message)),
            other => Err(self.fail(format!("answered {other:?} to a batch"))),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.send(&Request::Finish);
        // A worker that does not finish promptly is killed; either way it is reaped and its
        // stderr file removed.
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.stderr);
    }
}

/// Restricts the calling process (between fork and exec: the worker) to `cpu`. Only a
/// system call on a set on the stack, so it is safe between fork and exec.
#[cfg(target_os = "linux")]
fn pin_self(cpu: usize) -> std::io::Result<()> {
    // SAFETY: an all-zero cpu_set_t is a valid empty set; CPU_SET checks nothing, so the
    // caller's cpu comes from sched_getaffinity and is below CPU_SETSIZE.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    if cpu >= libc::CPU_SETSIZE as usize {
        return Err(std::io::Error::from_raw_os_error(libc::EINVAL));
    }
    unsafe { libc::CPU_SET(cpu, &mut set) };
    // SAFETY: pid 0 is the calling process; size and pointer describe `set`.
    if unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Pinning needs `sched_setaffinity`; elsewhere a worker runs where the system puts it.
#[cfg(all(unix, not(target_os = "linux")))]
fn pin_self(_cpu: usize) -> std::io::Result<()> {
    Ok(())
}

#[cfg(unix)]
static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A pipe whose two ends close on exec (the child gets its copies through `dup2`): std's, which
/// sets close-on-exec atomically where the system can (`pipe2` on Linux) and right after
/// `pipe` where it cannot (macOS has no `pipe2`).
#[cfg(unix)]
fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let (read, write) = std::io::pipe()?;
    Ok((OwnedFd::from(read), OwnedFd::from(write)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_name_their_version_and_protocol_1_is_recognised() {
        for mode in [
            Mode::List,
            Mode::Serve {
                name: "parse/with\ttab".into(),
                seed: 7,
            },
        ] {
            assert_eq!(Marker::parse(&mode.encode()), Some(Marker::Current(mode)));
        }
        // Protocol 1's markers, and another version's: a worker, which says it cannot serve.
        for (v, version) in [("list", 1), ("serve\twork\t3", 1), ("v3\tlist", 3)] {
            assert_eq!(Marker::parse(v), Some(Marker::Other { version }), "{v}");
        }
        for none in ["", "v2", "vx\tlist", "v2\tserve\tnot-a-seed\twork"] {
            assert_eq!(Marker::parse(none), None, "{none:?}");
        }
    }
}
