//! Ctrl-C and SIGTERM while a pool runs: the parent notes the signal, kills its child, removes
//! the child's files and returns [`Error::Cancelled`](crate::Error::Cancelled), instead of
//! dying with an orphan measuring on.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static GUARDS: AtomicUsize = AtomicUsize::new(0);
static PREVIOUS: Mutex<Option<Previous>> = Mutex::new(None);

#[cfg(unix)]
type Previous = [libc::sigaction; 2];
#[cfg(not(unix))]
type Previous = ();

#[cfg(unix)]
const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGTERM];

#[cfg(unix)]
extern "C" fn note(_signal: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// While alive, SIGINT and SIGTERM set a flag instead of ending the process; the previous
/// handlers come back when the last guard drops.
pub(crate) struct InterruptGuard(());

impl InterruptGuard {
    pub(crate) fn install() -> InterruptGuard {
        if GUARDS.fetch_add(1, Ordering::SeqCst) == 0 {
            INTERRUPTED.store(false, Ordering::SeqCst);
            #[cfg(unix)]
            {
                // SAFETY: sigaction with a handler that only stores an atomic; the old actions
                // are kept and restored by the last guard.
                let previous = unsafe {
                    let mut new: libc::sigaction = std::mem::zeroed();
                    new.sa_sigaction = note as *const () as usize;
                    libc::sigemptyset(&mut new.sa_mask);
                    let mut old: [libc::sigaction; 2] = std::mem::zeroed();
                    for (sig, old) in SIGNALS.iter().zip(old.iter_mut()) {
                        libc::sigaction(*sig, &new, old);
                    }
                    old
                };
                if let Ok(mut p) = PREVIOUS.lock() {
                    *p = Some(previous);
                }
            }
        }
        InterruptGuard(())
    }

    /// Whether SIGINT or SIGTERM arrived since the first guard was installed.
    pub(crate) fn interrupted(&self) -> bool {
        INTERRUPTED.load(Ordering::SeqCst)
    }
}

impl Drop for InterruptGuard {
    fn drop(&mut self) {
        if GUARDS.fetch_sub(1, Ordering::SeqCst) == 1 {
            #[cfg(unix)]
            if let Ok(mut p) = PREVIOUS.lock()
                && let Some(old) = p.take()
            {
                // SAFETY: restores the actions saved by `install`.
                unsafe {
                    for (sig, old) in SIGNALS.iter().zip(old.iter()) {
                        libc::sigaction(*sig, old, std::ptr::null_mut());
                    }
                }
            }
        }
    }
}
