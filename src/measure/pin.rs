//! Pinning the measuring thread to one CPU.
//!
//! When the scheduler moves the measuring thread between CPUs, each move costs cold caches and
//! a different core's state; a benchmark runner in the reference saw its A/A interval tighten
//! about 5× when pinned. [`pin_current_thread`] restricts the calling thread to one CPU with
//! `sched_setaffinity` and returns a guard that restores the previous affinity when dropped.
//! [`CompareOptions::pin_to_cpu`](crate::CompareOptions::pin_to_cpu) does this around a whole
//! comparison.
//!
//! Linux only; elsewhere pinning is an [`Error::Unsupported`] and the affinity is reported
//! as unknown.

use crate::error::{Error, Result};

/// The CPUs the calling thread may run on, in ascending order (`sched_getaffinity`), or `None`
/// where the system cannot say.
pub fn current_affinity() -> Option<Vec<usize>> {
    #[cfg(target_os = "linux")]
    {
        let set = get_affinity()?;
        Some(
            (0..libc::CPU_SETSIZE as usize)
                // SAFETY: `set` is an initialised cpu_set_t and i < CPU_SETSIZE.
                .filter(|&i| unsafe { libc::CPU_ISSET(i, &set) })
                .collect(),
        )
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

#[cfg(target_os = "linux")]
fn get_affinity() -> Option<libc::cpu_set_t> {
    // SAFETY: an all-zero cpu_set_t is a valid empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: pid 0 is the calling thread; the size and pointer describe `set`.
    let rc =
        unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    (rc == 0).then_some(set)
}

/// Restores the thread's previous CPU affinity when dropped. Returned by
/// [`pin_current_thread`]; must be dropped on the thread that created it (it is `!Send`).
#[derive(Debug)]
pub struct PinGuard {
    cpu: usize,
    #[cfg(target_os = "linux")]
    previous: libc::cpu_set_t,
    _not_send: std::marker::PhantomData<*const ()>,
}

impl PinGuard {
    /// The CPU the thread is pinned to.
    pub fn cpu(&self) -> usize {
        self.cpu
    }
}

impl Drop for PinGuard {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        // SAFETY: `previous` is the set read from this thread before pinning; restoring it can
        // only fail if CPUs went offline, in which case the thread keeps the pinned set.
        unsafe {
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &self.previous);
        }
    }
}

/// Pins the calling thread to `cpu` until the returned guard is dropped.
///
/// Errors: [`Error::InvalidOption`] naming the allowed CPUs when `cpu` is not among them or
/// when the kernel refuses; [`Error::Unsupported`] on systems without `sched_setaffinity`
/// (every one but Linux).
///
/// ```
/// # #[cfg(target_os = "linux")] {
/// let allowed = rtcompare::support::measure::current_affinity().unwrap();
/// let last = *allowed.last().unwrap();
/// {
///     let _guard = rtcompare::support::measure::pin_current_thread(last)?;
///     assert_eq!(rtcompare::support::measure::current_affinity().unwrap(), vec![last]);
/// }
/// assert_eq!(rtcompare::support::measure::current_affinity().unwrap(), allowed);
/// # }
/// # Ok::<(), rtcompare::Error>(())
/// ```
pub fn pin_current_thread(cpu: usize) -> Result<PinGuard> {
    #[cfg(target_os = "linux")]
    {
        let previous = get_affinity().ok_or_else(|| {
            Error::invalid_option("pin_cpu", "sched_getaffinity failed; cannot pin")
        })?;
        let allowed = current_affinity().unwrap_or_default();
        if !allowed.contains(&cpu) {
            return Err(Error::invalid_option(
                "pin_cpu",
                format!("CPU {cpu} is not available to this thread; allowed: {allowed:?}"),
            ));
        }
        // SAFETY: an all-zero cpu_set_t is a valid empty set; cpu < CPU_SETSIZE since it is
        // in the allowed set.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        unsafe { libc::CPU_SET(cpu, &mut set) };
        // SAFETY: pid 0 is the calling thread; size and pointer describe `set`.
        let rc =
            unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
        if rc != 0 {
            return Err(Error::invalid_option(
                "pin_cpu",
                format!(
                    "sched_setaffinity to CPU {cpu} failed: {}",
                    std::io::Error::last_os_error()
                ),
            ));
        }
        Ok(PinGuard {
            cpu,
            previous,
            _not_send: std::marker::PhantomData,
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = cpu;
        Err(Error::unsupported(
            "pinning to a CPU",
            "pinning needs Linux's sched_setaffinity; leave `pin_to_cpu` unset to measure \
             wherever the scheduler runs the thread",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn pinning_restores_the_previous_affinity() {
        let before = current_affinity().unwrap();
        let cpu = before[0];
        {
            let g = pin_current_thread(cpu).unwrap();
            assert_eq!(g.cpu(), cpu);
            assert_eq!(current_affinity().unwrap(), vec![cpu]);
        }
        assert_eq!(current_affinity().unwrap(), before);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_cpu_outside_the_set_is_an_error() {
        let e = pin_current_thread(100_000).unwrap_err();
        assert!(
            matches!(
                e,
                Error::InvalidOption {
                    name: "pin_cpu",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    #[cfg(not(target_os = "linux"))]
    fn pinning_elsewhere_is_unsupported_and_names_the_platform() {
        let e = pin_current_thread(0).unwrap_err();
        assert!(
            matches!(e, Error::Unsupported { platform, .. } if platform == std::env::consts::OS),
            "{e}"
        );
        assert_eq!(current_affinity(), None);
    }
}
