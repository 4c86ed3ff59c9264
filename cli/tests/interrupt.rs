//! Ctrl-C while a command runs: the command gets SIGINT first, and time to clean up.
//!
//! Its own test binary: the signal goes to the `rtcompare` binary, never to the test process,
//! but keeping it apart keeps the other tests' timing out of its way.
//!
//! Unix only (signals and process groups); `platform_skips.rs` says so elsewhere.

#![cfg(unix)]

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_rtcompare");

/// A fresh directory, removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn ctrl_c_gives_the_running_command_sigint_before_sigkill() {
    let dir = TempDir(std::env::temp_dir().join(format!("rtcompare-int-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&dir.0);
    std::fs::create_dir_all(&dir.0).unwrap();
    // `sh -c` runs without job control, so its foreground `sleep` stays in the group and dies of
    // the SIGINT; the shell then runs its trap.
    let a = "trap 'touch got_int; exit 1' INT; touch started; sleep 5";
    let child = Command::new(BIN)
        .args(["cmd", "--warmup", "1", a, "true"])
        .current_dir(&dir.0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while !dir.0.join("started").exists() {
        assert!(Instant::now() < until, "A never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    // The trap is set before `started` is touched.
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) sends a signal; no memory is touched.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(
        dir.0.join("got_int").exists(),
        "A was killed before its trap ran: {err}"
    );
}
