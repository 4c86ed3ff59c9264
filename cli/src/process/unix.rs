//! The Unix side of a run: a process group per child, `waitid(WNOWAIT)` to wait without
//! reaping, `wait4` to reap with the resource usage, and signals to the group.

use std::process::{Child, Command, Stdio};

use super::Reaped;

/// What a signal to a child's group asks.
#[derive(Debug, Clone, Copy)]
pub(super) enum Stop {
    /// SIGINT, as Ctrl-C in the terminal's foreground would have delivered it.
    Interrupt,
    /// SIGKILL.
    Kill,
}

/// Makes the child the leader of a process group of its own.
pub(super) fn own_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

/// A copy of this process's stderr, for a child's stdout (a build's output belongs with the
/// diagnostics); `/dev/null` when it cannot be copied.
pub(super) fn stderr_copy() -> Stdio {
    use std::os::fd::AsFd;
    std::io::stderr()
        .as_fd()
        .try_clone_to_owned()
        .map_or_else(|_| Stdio::null(), Stdio::from)
}

/// Sends `stop` to the process group `pid` leads. Errors (the group is already empty) are
/// ignored.
pub(super) fn signal_group(pid: u32, stop: Stop) {
    let signal = match stop {
        Stop::Interrupt => libc::SIGINT,
        Stop::Kill => libc::SIGKILL,
    };
    // The pid fits: Linux pids are below 2^22, other Unix systems' below 2^31.
    let pgid = pid as libc::pid_t;
    // SAFETY: kill(2) with a negative pid signals a process group; no memory is touched.
    unsafe {
        libc::kill(-pgid, signal);
    }
}

/// After the leader's exit (not yet reaped, so its group id is still ours): anything it left
/// running in the group (a background job) goes with it.
pub(super) fn kill_leftovers(child: &Child) {
    signal_group(child.id(), Stop::Kill);
}

/// Blocks until `child` has exited, without reaping it; retries on EINTR.
pub(super) fn wait_exited(child: &mut Child) -> std::io::Result<()> {
    let pid = child.id() as libc::id_t;
    loop {
        // SAFETY: waitid writes only into the zeroed siginfo it is given.
        let rc = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT)
        };
        if rc == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Reaps `child` with `wait4`: its status and resource usage; retries on EINTR. (`child`'s own
/// `wait` then finds nothing to reap, which nothing calls.)
pub(super) fn reap(child: &mut Child) -> std::io::Result<Reaped> {
    let pid = child.id() as libc::pid_t;
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: wait4 writes only into the status and the zeroed rusage it is given.
        let (rc, usage) = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let rc = libc::wait4(pid, &mut status, 0, &mut usage);
            (rc, usage)
        };
        if rc == pid {
            return Ok(reaped(status, &usage));
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// The exit code or signal from a wait status, and the CPU times and peak memory from the
/// resource usage.
fn reaped(status: libc::c_int, usage: &libc::rusage) -> Reaped {
    let (exit_code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    // ru_maxrss is in kibibytes on Linux and in bytes on macOS and the BSDs.
    let rss_unit = if cfg!(target_os = "linux") { 1024 } else { 1 };
    Reaped {
        user_ns: timeval_ns(usage.ru_utime),
        sys_ns: timeval_ns(usage.ru_stime),
        max_rss_bytes: u64::try_from(usage.ru_maxrss).unwrap_or(0) * rss_unit,
        exit_code,
        signal,
    }
}

fn timeval_ns(t: libc::timeval) -> u64 {
    let s = u64::try_from(t.tv_sec).unwrap_or(0);
    let us = u64::try_from(t.tv_usec).unwrap_or(0);
    s.saturating_mul(1_000_000_000).saturating_add(us * 1_000)
}
