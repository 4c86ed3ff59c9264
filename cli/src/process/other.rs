//! A run off Unix: no process groups, no `wait4`. The child is waited for with the standard
//! library's `wait`; its CPU times and peak memory are not measured (0); a timeout kills the
//! child (on Windows its whole tree, with `taskkill /T`), and Ctrl-C, which the console
//! delivers to the child as well as to `rtcompare`, is not passed on.
//!
//! On Windows a process id is not reused while a handle to the process is open, and the
//! `Child` holds one until it drops after the run, so the watchdog cannot kill a stranger.

use std::process::{Child, Command, Stdio};

use super::Reaped;

/// What a stop asks (see the Unix side); off Unix both end the child.
#[derive(Debug, Clone, Copy)]
pub(super) enum Stop {
    /// Ctrl-C reached the child from the console already: nothing to pass on.
    Interrupt,
    /// The child and what it started.
    Kill,
}

/// No process groups here: nothing to set.
pub(super) fn own_group(_command: &mut Command) {}

/// A copy of this process's stderr, for a child's stdout (a build's output belongs with the
/// diagnostics); `null` when it cannot be copied.
pub(super) fn stderr_copy() -> Stdio {
    #[cfg(windows)]
    {
        use std::os::windows::io::AsHandle;
        std::io::stderr()
            .as_handle()
            .try_clone_to_owned()
            .map_or_else(|_| Stdio::null(), Stdio::from)
    }
    #[cfg(not(windows))]
    {
        Stdio::inherit()
    }
}

/// Ends the child `pid` and its descendants for [`Stop::Kill`] (Windows: `taskkill /T /F`).
pub(super) fn signal_group(pid: u32, stop: Stop) {
    if let Stop::Kill = stop
        && cfg!(windows)
    {
        let _ = Command::new("taskkill")
            .args(["/T", "/F", "/PID", &pid.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// Nothing to do: without process groups, what an exited child left running cannot be found.
pub(super) fn kill_leftovers(_child: &Child) {}

/// Blocks until `child` has exited (which reaps it; its status stays in `child`).
pub(super) fn wait_exited(child: &mut Child) -> std::io::Result<()> {
    child.wait().map(|_| ())
}

/// The exit status `wait` kept; CPU times and peak memory are not measured here (0).
pub(super) fn reap(child: &mut Child) -> std::io::Result<Reaped> {
    let status = child.wait()?;
    Ok(Reaped {
        user_ns: 0,
        sys_ns: 0,
        max_rss_bytes: 0,
        exit_code: status.code(),
        signal: None,
    })
}
