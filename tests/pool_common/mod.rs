//! What the pool test binaries share: a quick protocol and the checks that a pool left
//! nothing behind.

use std::time::Duration;

use rtcompare::CompareOptions;
use rtcompare::pool::PoolOptions;

/// A quick per-process protocol: the tests check the machinery, not the statistics.
pub fn quick() -> PoolOptions {
    PoolOptions::default()
        .this_test()
        .first_stage(3)
        // Exactly the first stage: Stein's plan without a target, not the decision, whose
        // looks would add processes when the first one does not decide.
        .decide(false)
        .target(0.0, 0.0)
        .seed(11)
        .compare(
            CompareOptions::default()
                .validation_runs(5)
                .repeats(21)
                .resamples(500)
                .warmup_duration(Duration::from_millis(20)),
        )
}

/// Files the pool left in the temporary directory for this process.
pub fn leftovers() -> Vec<String> {
    let prefix = format!("rtcompare-pool-{}-", std::process::id());
    std::fs::read_dir(std::env::temp_dir())
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(&prefix))
                .collect()
        })
        .unwrap_or_default()
}

/// This process's children, running or not yet reaped, as `pid (state)`.
///
/// Found by reading every `/proc/<pid>/stat` and keeping those whose parent is this process:
/// that works on every Linux kernel, where `/proc/<pid>/task/*/children` exists only with
/// `CONFIG_PROC_CHILDREN`, and a helper that read those files as empty when they are missing
/// could never see a surviving child. For the same reason this one panics when the scan cannot
/// find this very process: an empty answer must mean "no children", never "could not look".
pub fn children() -> Vec<String> {
    let me = std::process::id();
    let entries = std::fs::read_dir("/proc").expect("the child check needs /proc");
    let mut found = Vec::new();
    let mut saw_myself = false;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        // A process may exit between the listing and the read; it is no survivor then.
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so the fields
        // are counted from the last ')'.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let state = fields.next().unwrap_or("?");
        let ppid = fields.next().and_then(|p| p.parse::<u32>().ok());
        saw_myself |= pid == me;
        if ppid == Some(me) {
            found.push(format!("{pid} ({state})"));
        }
    }
    assert!(
        saw_myself,
        "scanning /proc did not find this process ({me}), so it cannot see its children either"
    );
    found
}
