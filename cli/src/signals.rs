//! SIGINT and SIGTERM: noted in a flag instead of ending the process, so that the running
//! child is killed and reaped and temporary files are removed before `rtcompare` exits.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn note(_signal: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Installs the handler for SIGINT and SIGTERM for the rest of the process's life. The
/// [`Watchdog`](crate::process) polls [`interrupted`], passes SIGINT on to the running child's
/// process group and kills the group if it outlives the grace; the measuring loop checks it
/// between runs.
pub fn install() {
    // SAFETY: sigaction with a handler that only stores an atomic. SA_RESTART is not set, so a
    // blocking wait returns EINTR, which the callers retry after checking the flag.
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
    INTERRUPTED.load(Ordering::SeqCst)
}
