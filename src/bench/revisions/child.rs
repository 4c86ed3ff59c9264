//! A build's child process (cargo, and the compiler and linker under it): in a process group of
//! its own, watched, so that Ctrl-C or SIGTERM reaches the whole build and nothing outlives the
//! run.

use std::process::{Child, Command, ExitStatus};
use std::time::Duration;
#[cfg(unix)]
use std::time::Instant;

use crate::error::{Error, Result};
use crate::interrupt::InterruptGuard;

/// How long a build has to stop after the signal is passed on, before its group is killed.
#[cfg(unix)]
const GRACE: Duration = Duration::from_secs(2);

/// How often the child and the signal flag are looked at.
const POLL: Duration = Duration::from_millis(20);

/// Runs `command` to its end and returns its status. It starts in a process group of its own
/// (on Unix), so that the terminal's Ctrl-C reaches this process only; when SIGINT or SIGTERM
/// arrives, the signal is passed on to the whole group, which is killed if it outlives a grace
/// of two seconds. Errors: [`Error::Io`] when it cannot be started or waited for (its path
/// names `what`); [`Error::Cancelled`] after a signal, with the group reaped.
pub(crate) fn run(command: Command, what: &str, interrupt: &InterruptGuard) -> Result<ExitStatus> {
    run_until(command, what, &|| interrupt.interrupted())
}

/// [`run`] for any thread: the child's group is stopped as soon as `stop` says so (a signal,
/// or the run that wanted its output ending). Errors: those of [`run`].
pub(crate) fn run_until(
    mut command: Command,
    what: &str,
    stop: &dyn Fn() -> bool,
) -> Result<ExitStatus> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    if stop() {
        return Err(cancelled());
    }
    let child = command
        .spawn()
        .map_err(|e| Error::io(std::path::Path::new(what), e))?;
    let mut child = Group(child);
    loop {
        if let Some(status) = child
            .0
            .try_wait()
            .map_err(|e| Error::io(std::path::Path::new(what), e))?
        {
            return Ok(status);
        }
        if stop() {
            child.stop();
            return Err(cancelled());
        }
        std::thread::sleep(POLL);
    }
}

fn cancelled() -> Error {
    Error::Cancelled {
        stage: "building",
        elapsed: Duration::ZERO,
    }
}

/// A running child whose whole group is stopped and reaped when this drops before it ended
/// (an error, a panic).
struct Group(Child);

impl Group {
    /// Passes SIGINT on to the group, waits out the grace, then kills the group; reaps.
    fn stop(&mut self) {
        #[cfg(unix)]
        {
            let pgid = self.0.id() as libc::pid_t;
            // SAFETY: signals a process group this process created (its leader is our child,
            // not yet reaped, so the id cannot have been reused).
            unsafe { libc::kill(-pgid, libc::SIGINT) };
            let started = Instant::now();
            while started.elapsed() < GRACE {
                if matches!(self.0.try_wait(), Ok(Some(_))) {
                    // The leader is gone; what it left in the group goes too.
                    // SAFETY: as above; a group without members makes this a harmless ESRCH.
                    unsafe { libc::kill(-pgid, libc::SIGKILL) };
                    return;
                }
                std::thread::sleep(POLL);
            }
            // SAFETY: as above.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            self.stop();
        }
    }
}
