//! SIGINT and SIGTERM: noted instead of ending the process, so that the running child is
//! killed and reaped, temporary files and worktrees are removed, and what was measured is
//! written before `rtcompare` exits.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicI32, Ordering};

use rtcompare::measure::collect::CancelToken;

/// The signal that arrived first (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The token the library's long runs (`rtcompare bench`'s worker pairs) stop on; cancelled by
/// the handler itself, so a run never sees a worker killed by Ctrl-C before it sees the stop.
static TOKEN: OnceLock<CancelToken> = OnceLock::new();

extern "C" fn note(signal: libc::c_int) {
    // Only atomic operations: async-signal-safe. The token was created before the handler was
    // installed, so `get` only loads a pointer, and `cancel` stores a flag.
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    if let Some(token) = TOKEN.get() {
        token.cancel();
    }
}

/// Installs the handler for SIGINT and SIGTERM for the rest of the process's life. The
/// [`Watchdog`](crate::process) polls [`interrupted`], passes SIGINT on to the running child's
/// process group and kills the group if it outlives the grace; the measuring loop checks it
/// between runs; the library's runs watch [`token`].
pub fn install() {
    TOKEN.get_or_init(CancelToken::new);
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

/// A clone of the token the signal handler cancels (one that is never cancelled when
/// [`install`] has not run).
pub fn token() -> CancelToken {
    TOKEN.get().cloned().unwrap_or_default()
}

/// The exit status after the signal that arrived: 128 + its number, as a shell reports a
/// process it ended (130 for SIGINT, 143 for SIGTERM); 130 when none did.
pub fn exit_code() -> i32 {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => 128 + libc::SIGINT,
        s => 128 + s,
    }
}
