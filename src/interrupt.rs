//! Ctrl-C and SIGTERM while a long run is in charge of children (a pool's processes, the
//! builds and workers of a comparison of revisions): the signal is noted instead of ending the
//! process, so that the run kills its children, removes its files and worktrees, and returns
//! what it measured rather than dying with orphans measuring on.
//!
//! Unix only: elsewhere no handler is installed, the flag stays down, and Ctrl-C ends the
//! process as it always does (on Windows the console delivers it to the children too).

#[cfg(unix)]
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The first signal noted (0: none), for the exit status a shell expects (130, 143).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
static GUARDS: AtomicUsize = AtomicUsize::new(0);
#[cfg(unix)]
static PREVIOUS: Mutex<Option<Previous>> = Mutex::new(None);

#[cfg(unix)]
type Previous = [libc::sigaction; 2];

#[cfg(unix)]
const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGTERM];

/// The handlers that were installed before the first guard, for SIGINT and SIGTERM, as
/// addresses (0: none to call; the default action or "ignore").
#[cfg(unix)]
static CHAINED: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

#[cfg(unix)]
extern "C" fn note(signal: libc::c_int) {
    // Only atomic operations and the previous handler: async-signal-safe when it is.
    INTERRUPTED.store(true, Ordering::SeqCst);
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    // A program's own handler (the command-line tool's, which stops its other work) still
    // hears of the signal.
    let slot = usize::from(signal == libc::SIGTERM);
    let previous = CHAINED[slot].load(Ordering::SeqCst);
    if previous != 0 {
        // SAFETY: the address was a plain `fn(c_int)` handler (no SA_SIGINFO), saved by
        // `install` from sigaction's own record.
        let handler: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(previous) };
        handler(signal);
    }
}

/// The exit status a shell gives a process the last noted signal ended: 128 + its number (130
/// for SIGINT, 143 for SIGTERM); 130 when none was noted. Kept after the guards are gone, for
/// the exit status of a run that returned [`Error::Cancelled`](crate::Error::Cancelled).
pub(crate) fn exit_code() -> i32 {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => 130,
        s => 128 + s,
    }
}

/// While alive, SIGINT and SIGTERM set a flag instead of ending the process; the previous
/// handlers come back when the last guard drops.
pub(crate) struct InterruptGuard(());

impl InterruptGuard {
    pub(crate) fn install() -> InterruptGuard {
        if GUARDS.fetch_add(1, Ordering::SeqCst) == 0 {
            INTERRUPTED.store(false, Ordering::SeqCst);
            SIGNAL.store(0, Ordering::SeqCst);
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
                    for (slot, old) in CHAINED.iter().zip(old.iter()) {
                        let plain = old.sa_flags & libc::SA_SIGINFO == 0;
                        let handler = old.sa_sigaction;
                        let real = handler != libc::SIG_DFL && handler != libc::SIG_IGN;
                        slot.store(if plain && real { handler } else { 0 }, Ordering::SeqCst);
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

    /// The flag as a closure another thread can poll.
    pub(crate) fn flag(&self) -> impl Fn() -> bool + Send + 'static {
        || INTERRUPTED.load(Ordering::SeqCst)
    }

    /// The exit status a shell gives a process the noted signal ended ([`exit_code`]).
    pub(crate) fn exit_code(&self) -> i32 {
        exit_code()
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
