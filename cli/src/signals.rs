//! SIGINT and SIGTERM: noted instead of ending the process, so that the running child is
//! killed and reaped, temporary files and worktrees are removed, and what was measured is
//! written before `rtcompare` exits.
//!
//! Unix only. Elsewhere nothing is installed and [`interrupted`] stays false: on Windows
//! Ctrl-C ends `rtcompare` as it ends any console program, and the console delivers it to the
//! running child too.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that arrived first (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn note(signal: libc::c_int) {
    // Only an atomic operation: async-signal-safe.
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
}

/// Installs the handler for SIGINT and SIGTERM for the rest of the process's life. The
/// [`Watchdog`](crate::process) polls [`interrupted`], passes SIGINT on to the running child's
/// process group and kills the group if it outlives the grace; the measuring loop checks it
/// between runs. The library's long runs (`rtcompare bench`'s) install their own handler while
/// they run, which passes each signal on to this one.
pub fn install() {
    #[cfg(unix)]
    // SAFETY: sigaction with a handler that only does atomic operations. SA_RESTART is not
    // set, so a blocking wait returns EINTR, which the callers retry after checking the flag.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = note as *const () as usize;
        libc::sigemptyset(&mut action.sa_mask);
        for signal in [libc::SIGINT, libc::SIGTERM] {
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// Whether SIGINT or SIGTERM has arrived since [`install`].
pub fn interrupted() -> bool {
    SIGNAL.load(Ordering::SeqCst) != 0
}

/// The exit status after the signal that arrived: 128 + its number, as a shell reports a
/// process it ended (130 for SIGINT, 143 for SIGTERM); 130 when none did.
pub fn exit_code() -> i32 {
    match SIGNAL.load(Ordering::SeqCst) {
        // SIGINT's number is 2 on every platform that has it.
        0 => 130,
        s => 128 + s,
    }
}
