//! The counters on Linux: the events opened with `perf_event_open` as one perf event group,
//! read with one `read` of its leader, and every refusal put in words.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use super::{Counter, CounterFailure, CounterReading, Unavailable, perf_event_paranoid};

const PERF_TYPE_HARDWARE: u32 = 0;
const PERF_COUNT_HW_CPU_CYCLES: u64 = 0;
const PERF_COUNT_HW_INSTRUCTIONS: u64 = 1;
const PERF_COUNT_HW_CACHE_MISSES: u64 = 3;
const PERF_COUNT_HW_BRANCH_MISSES: u64 = 5;
const PERF_FORMAT_TOTAL_TIME_ENABLED: u64 = 1 << 0;
const PERF_FORMAT_TOTAL_TIME_RUNNING: u64 = 1 << 1;
const PERF_FORMAT_GROUP: u64 = 1 << 3;
const PERF_FLAG_FD_CLOEXEC: libc::c_ulong = 1 << 3;
// Bits of the flags word of `perf_event_attr` (the C bitfield, from bit 0).
const ATTR_DISABLED: u64 = 1 << 0;
const ATTR_INHERIT: u64 = 1 << 1;
const ATTR_EXCLUDE_KERNEL: u64 = 1 << 5;
const ATTR_EXCLUDE_HV: u64 = 1 << 6;
const ATTR_ENABLE_ON_EXEC: u64 = 1 << 12;

/// Whose events a group counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    /// The calling thread, from now on.
    ThisThread,
    /// The processes the calling thread starts from now on, each from its `exec`
    /// (disabled, inherited, enabled on exec), and their descendants.
    Children,
}

/// `struct perf_event_attr` up to `config2` (`PERF_ATTR_SIZE_VER1`, 72 bytes), which every
/// kernel since 2.6.33 accepts; the fields after it are zero by the kernel's convention for
/// a smaller `size`. libc 0.2 does not define this struct.
#[repr(C)]
#[derive(Default)]
struct PerfEventAttr {
    type_: u32,
    size: u32,
    config: u64,
    sample_period: u64,
    sample_type: u64,
    read_format: u64,
    flags: u64,
    wakeup_events: u32,
    bp_type: u32,
    config1: u64,
    config2: u64,
}

const _: () = assert!(std::mem::size_of::<PerfEventAttr>() == 72);

/// The events to open: which counter, perf type and config.
type Spec = (Counter, u32, u64);

const HARDWARE: [Spec; 4] = [
    (
        Counter::Cycles,
        PERF_TYPE_HARDWARE,
        PERF_COUNT_HW_CPU_CYCLES,
    ),
    (
        Counter::Instructions,
        PERF_TYPE_HARDWARE,
        PERF_COUNT_HW_INSTRUCTIONS,
    ),
    (
        Counter::CacheMisses,
        PERF_TYPE_HARDWARE,
        PERF_COUNT_HW_CACHE_MISSES,
    ),
    (
        Counter::BranchMisses,
        PERF_TYPE_HARDWARE,
        PERF_COUNT_HW_BRANCH_MISSES,
    ),
];

#[derive(Debug)]
pub(super) struct Group {
    /// The group's file descriptors; `fds[0]` is the leader. Closed on drop.
    fds: Vec<OwnedFd>,
    /// The counter of each descriptor, in group (and therefore read) order.
    order: Vec<Counter>,
    failures: Vec<CounterFailure>,
}

/// `perf_event_open` for the calling thread on any CPU, user space only: for
/// [`Target::ThisThread`] enabled at once and not inherited; for [`Target::Children`]
/// inherited by the processes the thread starts, and the leader disabled until a child's
/// `exec` (the members follow their leader).
fn open_event(
    type_: u32,
    config: u64,
    group_fd: libc::c_int,
    target: Target,
) -> Result<OwnedFd, i32> {
    let leader = group_fd < 0;
    let flags = ATTR_EXCLUDE_KERNEL
        | ATTR_EXCLUDE_HV
        | match target {
            Target::ThisThread => 0,
            Target::Children if leader => ATTR_INHERIT | ATTR_DISABLED | ATTR_ENABLE_ON_EXEC,
            Target::Children => ATTR_INHERIT,
        };
    let attr = PerfEventAttr {
        type_,
        size: std::mem::size_of::<PerfEventAttr>() as u32,
        config,
        read_format: PERF_FORMAT_GROUP
            | PERF_FORMAT_TOTAL_TIME_ENABLED
            | PERF_FORMAT_TOTAL_TIME_RUNNING,
        flags,
        ..PerfEventAttr::default()
    };
    let pid: libc::pid_t = 0;
    let cpu: libc::c_int = -1;
    // SAFETY: `attr` is a valid, initialised perf_event_attr whose `size` field states its
    // true size, and it outlives the call; the kernel only reads it. The other arguments
    // are plain integers. The syscall returns a new descriptor or -1 with errno set.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_perf_event_open,
            &attr as *const PerfEventAttr,
            pid,
            cpu,
            group_fd,
            PERF_FLAG_FD_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
    }
    let Ok(fd) = libc::c_int::try_from(fd) else {
        return Err(libc::EBADF);
    };
    // SAFETY: the kernel just returned `fd` as a new descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn errno_name(errno: i32) -> &'static str {
    match errno {
        libc::ENOENT => "ENOENT",
        libc::EACCES => "EACCES",
        libc::EPERM => "EPERM",
        libc::EOPNOTSUPP => "EOPNOTSUPP",
        libc::ENODEV => "ENODEV",
        libc::ENOSYS => "ENOSYS",
        libc::EINVAL => "EINVAL",
        libc::EMFILE => "EMFILE",
        libc::EBUSY => "EBUSY",
        libc::E2BIG => "E2BIG",
        _ => "errno",
    }
}

/// `"ENOENT 2: No such file or directory"`.
fn errno_text(errno: i32) -> String {
    let text = std::io::Error::from_raw_os_error(errno).to_string();
    let suffix = format!(" (os error {errno})");
    let text = text.strip_suffix(&suffix).unwrap_or(&text);
    format!("{} {errno}: {text}", errno_name(errno))
}

/// What a refusal usually means, in words. `all`: every counter was refused this way.
fn meaning(errno: i32, in_group: bool, all: bool) -> String {
    match errno {
        libc::ENOENT | libc::EOPNOTSUPP | libc::ENODEV if all => {
            "the kernel or the virtual machine does not expose hardware counters \
             (no PMU driver)"
                .to_string()
        }
        libc::ENOENT | libc::EOPNOTSUPP | libc::ENODEV => {
            "this CPU's PMU, its driver or the virtual machine does not provide this event"
                .to_string()
        }
        libc::EACCES | libc::EPERM => format!(
            "not permitted: {} (user-space counting of one's own thread needs 2 or less) \
             or a seccomp filter, as in many containers, blocks perf_event_open",
            paranoid_text()
        ),
        libc::ENOSYS => "this kernel was built without perf events".to_string(),
        libc::EINVAL if in_group => {
            "the PMU cannot count it together with the counters already open".to_string()
        }
        libc::EMFILE => "this process has too many open files".to_string(),
        _ => std::io::Error::from_raw_os_error(errno).to_string(),
    }
}

impl Group {
    pub(super) fn open(target: Target) -> Result<Group, Unavailable> {
        Self::open_specs(&HARDWARE, target)
    }

    /// Opens `specs` as one group, the first that opens leading; keeps what opens.
    fn open_specs(specs: &[Spec], target: Target) -> Result<Group, Unavailable> {
        let mut group = Group {
            fds: Vec::new(),
            order: Vec::new(),
            failures: Vec::new(),
        };
        for &(counter, type_, config) in specs {
            let leader = group.fds.first().map_or(-1, |fd| fd.as_raw_fd());
            match open_event(type_, config, leader, target) {
                Ok(fd) => {
                    group.fds.push(fd);
                    group.order.push(counter);
                }
                Err(errno) => group.failures.push(CounterFailure {
                    counter,
                    errno: Some(errno),
                    reason: format!(
                        "perf_event_open refused ({}): {}",
                        errno_text(errno),
                        meaning(errno, leader >= 0, false)
                    ),
                }),
            }
        }
        if group.fds.is_empty() {
            return Err(Unavailable {
                reason: summarise(&group.failures),
            });
        }
        Ok(group)
    }

    pub(super) fn read(&self) -> CounterReading {
        let mut reading = CounterReading::default();
        let Some(leader) = self.fds.first() else {
            return reading;
        };
        // { nr, time_enabled, time_running, value[nr] } for PERF_FORMAT_GROUP.
        let mut buf = [0u64; 3 + Counter::ALL.len()];
        // SAFETY: `buf` is a valid, writable buffer of the length passed; read writes at
        // most that many bytes into it. The descriptor is open (owned by `self`).
        let got = unsafe {
            libc::read(
                leader.as_raw_fd(),
                buf.as_mut_ptr().cast::<libc::c_void>(),
                std::mem::size_of_val(&buf),
            )
        };
        let n = self.order.len();
        let expected = (3 + n) * std::mem::size_of::<u64>();
        if usize::try_from(got).ok() != Some(expected) || buf[0] != n as u64 {
            return reading;
        }
        reading.enabled_ns = buf[1];
        reading.running_ns = buf[2];
        for (&counter, &value) in self.order.iter().zip(&buf[3..3 + n]) {
            let slot = match counter {
                Counter::Cycles => &mut reading.cycles,
                Counter::Instructions => &mut reading.instructions,
                Counter::CacheMisses => &mut reading.cache_misses,
                Counter::BranchMisses => &mut reading.branch_misses,
            };
            *slot = Some(value);
        }
        reading
    }

    pub(super) fn counters(&self) -> Vec<Counter> {
        self.order.clone()
    }

    pub(super) fn failures(&self) -> &[CounterFailure] {
        &self.failures
    }
}

/// One reason for a set of failures, naming the counters and errnos once each.
fn summarise(failures: &[CounterFailure]) -> String {
    let mut errnos: Vec<i32> = failures.iter().filter_map(|f| f.errno).collect();
    errnos.sort_unstable();
    errnos.dedup();
    if errnos.len() == 1 {
        let errno = errnos[0];
        let names: Vec<&str> = failures.iter().map(|f| f.counter.name()).collect();
        let mut reason = format!(
            "perf_event_open refused {} ({}): {}",
            names.join(", "),
            errno_text(errno),
            meaning(errno, false, true)
        );
        if !reason.contains("perf_event_paranoid") {
            reason.push_str("; ");
            reason.push_str(&paranoid_text());
        }
        reason
    } else {
        let parts: Vec<String> = failures
            .iter()
            .map(|f| format!("{}: {}", f.counter, f.reason))
            .collect();
        format!("{}; {}", parts.join("; "), paranoid_text())
    }
}

/// `kernel.perf_event_paranoid` in words, for a refusal's reason.
fn paranoid_text() -> String {
    match perf_event_paranoid() {
        Some(p) => format!("kernel.perf_event_paranoid = {p}"),
        None => "kernel.perf_event_paranoid unreadable".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::counters::{CounterDelta, CounterSet};

    // Software events exist on every Linux kernel with perf events, PMU or not, so they
    // exercise the group open, read and delta path even in a VM that refuses hardware
    // counters. (Labels are borrowed: task-clock is reported as "cycles", etc.)
    const PERF_TYPE_SOFTWARE: u32 = 1;
    const PERF_COUNT_SW_CPU_CLOCK: u64 = 0;
    const PERF_COUNT_SW_TASK_CLOCK: u64 = 1;
    const PERF_COUNT_SW_PAGE_FAULTS: u64 = 2;

    fn software_group() -> Option<CounterSet> {
        software_group_for(Target::ThisThread)
    }

    fn software_group_for(target: Target) -> Option<CounterSet> {
        let specs = [
            (
                Counter::Cycles,
                PERF_TYPE_SOFTWARE,
                PERF_COUNT_SW_TASK_CLOCK,
            ),
            (
                Counter::Instructions,
                PERF_TYPE_SOFTWARE,
                PERF_COUNT_SW_CPU_CLOCK,
            ),
            (
                Counter::CacheMisses,
                PERF_TYPE_SOFTWARE,
                PERF_COUNT_SW_PAGE_FAULTS,
            ),
            // An invalid config: must become a failure, not break the group.
            (Counter::BranchMisses, PERF_TYPE_SOFTWARE, u64::MAX),
        ];
        match Group::open_specs(&specs, target) {
            Ok(group) => Some(CounterSet { group }),
            Err(u) => {
                // perf events themselves may be blocked (seccomp, paranoid 3): acceptable.
                eprintln!("software perf events {u}");
                None
            }
        }
    }

    #[test]
    fn software_group_reads_increasing_counts() {
        let Some(set) = software_group() else { return };
        assert_eq!(
            set.counters(),
            [Counter::Cycles, Counter::Instructions, Counter::CacheMisses]
        );
        assert_eq!(set.failures().len(), 1);
        assert_eq!(set.failures()[0].counter, Counter::BranchMisses);
        // The kernel says ENOENT or EINVAL for an unknown software event.
        assert!(set.failures()[0].errno.is_some(), "{:?}", set.failures());
        assert!(
            set.failures()[0]
                .reason
                .starts_with("perf_event_open refused ("),
            "{:?}",
            set.failures()
        );

        let before = set.read();
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = std::hint::black_box(x.wrapping_add(i));
        }
        let v: Vec<u8> = vec![1; 1 << 22]; // touch 4 MiB: page faults
        std::hint::black_box(&v);
        let after = set.read();
        let d = CounterSet::delta(&before, &after);
        assert!(d.cycles.is_some_and(|c| c > 0), "{d:?}");
        // cpu-clock and page faults may stay 0 with exclude_kernel; they must be read.
        assert!(d.instructions.is_some(), "{d:?}");
        assert!(d.cache_misses.is_some(), "{d:?}");
        assert_eq!(d.branch_misses, None);
        assert!(d.enabled_ns > 0 && d.running_ns > 0, "{d:?}");

        let cost = set.read_cost_ns(20_000);
        eprintln!("read cost of a 3-event group: {cost:.0} ns");
        assert!(cost.is_finite() && cost > 0.0);
    }

    /// A group for children counts a spawned shell's work and none of the parent's: the
    /// parent spins for 300 ms of CPU while the group is open, an empty child runs for a
    /// millisecond or two, and the child's task clock (labelled cycles) stays far below
    /// the parent's spin; a busy child's task clock is at least a few milliseconds.
    #[test]
    fn a_group_for_children_counts_the_child_from_its_exec_and_not_the_parent() {
        use std::process::{Command, Stdio};
        use std::time::{Duration, Instant};

        let run = |script: &str, spin: Duration| -> Option<CounterDelta> {
            let set = software_group_for(Target::Children)?;
            let until = Instant::now() + spin;
            while Instant::now() < until {
                std::hint::spin_loop();
            }
            let status = Command::new("sh")
                .args(["-c", script])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .status()
                .expect("sh runs");
            assert!(status.success());
            Some(set.read().as_delta())
        };
        let Some(empty) = run(":", Duration::from_millis(300)) else {
            return;
        };
        let task_ns = empty.cycles.expect("task clock read");
        assert!(
            task_ns < 150_000_000,
            "the parent's spin was counted: {empty:?}"
        );
        let busy = run(
            "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done",
            Duration::ZERO,
        )
        .expect("opened once, opens again");
        eprintln!("task clock of an empty child {task_ns} ns, of a busy one {busy:?}");
        let busy_ns = busy.cycles.expect("task clock read");
        assert!(busy_ns > 2_000_000, "the child was not counted: {busy:?}");
        assert!(busy.enabled_ns > 0 && busy.running_ns > 0, "{busy:?}");
        // Page faults (labelled cache misses) of the child: read, at least zero.
        assert!(busy.cache_misses.is_some(), "{busy:?}");
    }

    #[test]
    fn one_errno_for_all_names_every_counter_and_paranoia() {
        let failures: Vec<CounterFailure> = Counter::ALL
            .iter()
            .map(|&counter| CounterFailure {
                counter,
                errno: Some(libc::ENOENT),
                reason: String::new(),
            })
            .collect();
        let reason = summarise(&failures);
        assert!(reason.starts_with("perf_event_open refused cycles, instructions"));
        assert!(reason.contains("ENOENT"), "{reason}");
        assert!(reason.contains("virtual machine"), "{reason}");
        assert!(reason.contains("perf_event_paranoid"), "{reason}");
    }

    #[test]
    fn hardware_open_never_fails_the_caller() {
        for open in [CounterSet::open, CounterSet::open_for_children] {
            match open() {
                Ok(set) => {
                    let r = set.read();
                    assert!(set.counters().iter().all(|&c| r.get(c).is_some()));
                }
                Err(u) => assert!(u.reason.contains("perf_event_open"), "{u}"),
            }
        }
    }
}
