//! One dependency build for both revisions: a checked-out revision builds in the working
//! tree's own target directory, beside the head, so that the dependencies (registry, git and
//! path crates outside the repository) are compiled once and reused by the user's own
//! `cargo bench` and by the next run.
//!
//! What keeps the two revisions' own crates apart there: cargo names a workspace member's
//! artifacts by a hash of its path *relative to the workspace root*, the same in two
//! checkouts, and judges them fresh by file times, so a second checkout built into the same
//! directory would be handed the first one's crates. cargo mixes the path of
//! `RUSTC_WORKSPACE_WRAPPER` into its members' hashes only, so a checked-out revision builds
//! with a wrapper of its own (`rtcompare/salt/COMMIT/rustc`, which only runs rustc): its
//! members get artifacts of their own, its dependencies are shared. The checkout's files are
//! dated to the commit's time, so that a second run at the same commit finds its members
//! fresh. A path package that is not a workspace member but lives in the checkout would be
//! shared under the same name with different sources; a revision that has one builds in a
//! target directory of its own, as does one built where cargo already has a wrapper (set in
//! the environment).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

/// Where a checked-out revision builds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Place {
    /// The target directory.
    pub(crate) target: PathBuf,
    /// The workspace wrapper that keeps its members apart; `None` in a directory of its own.
    pub(crate) salt: Option<PathBuf>,
    /// Why it builds in a directory of its own, when sharing was refused.
    pub(crate) note: Option<String>,
}

/// Where the checkout `root` of `commit` (whose package is at `package_dir`, named `role` in
/// messages) builds: in `shared` with a salt, or in `own` with a note saying why not.
pub(crate) fn place(
    root: &Path,
    package_dir: &Path,
    commit: &str,
    shared: &Path,
    own: &Path,
    role: &str,
) -> Place {
    let alone = |why: String| Place {
        target: own.to_path_buf(),
        salt: None,
        note: Some(format!(
            "The {role} built in a target directory of its own ({}), so its dependencies were \
             compiled apart from the working tree's: {why}.",
            own.display()
        )),
    };
    if !cfg!(unix) {
        return Place {
            target: own.to_path_buf(),
            salt: None,
            note: None,
        };
    }
    // A wrapper of the user's would be replaced (a workspace wrapper) or handed rtcompare's
    // script as its compiler (a compiler cache): neither is rtcompare's to change.
    let set = |v: &str| std::env::var_os(v).is_some_and(|w| !w.is_empty());
    if let Some(v) = [
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER",
        "RUSTC_WRAPPER",
        "CARGO_BUILD_RUSTC_WRAPPER",
    ]
    .into_iter()
    .find(|v| set(v))
    {
        return alone(format!(
            "{v} is set, and rtcompare keeps the revisions' own crates apart with a workspace \
             wrapper of its own"
        ));
    }
    match in_tree_path_packages(package_dir, root) {
        Ok(found) if found.is_empty() => {}
        Ok(found) => {
            return alone(format!(
                "its path dependencies {} are not workspace members, so cargo would take one \
                 revision's build of them for the other's",
                found.join(", ")
            ));
        }
        Err(why) => return alone(why),
    }
    let salt = match write_salt(shared, commit) {
        Ok(s) => s,
        Err(why) => return alone(why),
    };
    if let Some(when) = commit_time(root, commit) {
        date_files(root, when);
    }
    Place {
        target: shared.to_path_buf(),
        salt: Some(salt),
        note: None,
    }
}

/// Writes (once) the workspace wrapper of `commit` under `shared/rtcompare/salt/` and returns
/// its path: a shell script that runs what it is given. Errors: in words.
fn write_salt(shared: &Path, commit: &str) -> Result<PathBuf, String> {
    let dir = shared.join("rtcompare").join("salt").join(commit);
    let path = dir.join("rustc");
    let script = "#!/bin/sh\n# rtcompare: keeps this revision's workspace members apart in a \
                  shared target directory.\nexec \"$@\"\n";
    if std::fs::read_to_string(&path).is_ok_and(|s| s == script) {
        return Ok(path);
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let tmp = dir.join(format!("rustc.{}", std::process::id()));
    std::fs::write(&tmp, script).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("cannot make {} executable: {e}", tmp.display()))?;
    }
    std::fs::rename(&tmp, &path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The path packages of the workspace at `package_dir` (its whole dependency graph, as
/// `cargo metadata` resolves it) that are not workspace members and live under `root`.
/// Errors: cargo's words when it cannot say.
pub(crate) fn in_tree_path_packages(
    package_dir: &Path,
    root: &Path,
) -> Result<Vec<String>, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(package_dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "`cargo metadata` could not list its packages ({})",
            said.lines().last().unwrap_or("").trim()
        ));
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let members: Vec<&serde_json::Value> = meta["workspace_members"]
        .as_array()
        .map(|m| m.iter().collect())
        .unwrap_or_default();
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut found: Vec<String> = meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["source"].is_null() && !members.contains(&&p["id"]))
        .filter(|p| {
            p["manifest_path"]
                .as_str()
                .map(|m| Path::new(m).canonicalize().unwrap_or_else(|_| m.into()))
                .is_some_and(|m| m.starts_with(&root))
        })
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect();
    found.sort();
    found.dedup();
    Ok(found)
}

/// The committer time of `commit`, from git in `root`.
fn commit_time(root: &Path, commit: &str) -> Option<SystemTime> {
    let t = super::git::git(root, &["show", "-s", "--format=%ct", commit]).ok()?;
    let secs: u64 = t.trim().parse().ok()?;
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
}

/// Dates every file under `root` (but git's own, and the targets of symbolic links) to
/// `when`. A file that cannot be dated keeps its time: cargo then only rebuilds more.
pub(crate) fn date_files(root: &Path, when: SystemTime) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if entry.file_name() == ".git" || kind.is_symlink() {
            continue;
        }
        let path = entry.path();
        if kind.is_dir() {
            date_files(&path, when);
        } else if let Ok(f) = std::fs::File::options().write(true).open(&path) {
            let _ = f.set_modified(when);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_salt_is_one_script_per_commit() {
        let dir = std::env::temp_dir().join(format!("rtcompare-salt-{}", std::process::id()));
        let a = write_salt(&dir, "aaaa").unwrap();
        assert_eq!(write_salt(&dir, "aaaa").unwrap(), a);
        let b = write_salt(&dir, "bbbb").unwrap();
        assert_ne!(a, b);
        assert!(std::fs::read_to_string(&b).unwrap().contains("exec \"$@\""));
        let out = Command::new(&a).args(["echo", "ran"]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ran");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn files_are_dated_but_not_through_links() {
        let dir = std::env::temp_dir().join(format!("rtcompare-date-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/lib.rs"), "").unwrap();
        let when = SystemTime::UNIX_EPOCH + Duration::from_secs(1_600_000_000);
        date_files(&dir, when);
        let t = std::fs::metadata(dir.join("src/lib.rs"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(t, when);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    #[cfg(unix)]
    fn an_in_tree_path_package_that_is_no_member_keeps_its_revision_apart() {
        let root = std::env::temp_dir().join(format!("rtcompare-vendor-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (dir, manifest) in [
            (
                "",
                "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                 [dependencies]\nvend = { path = \"vendor/vend\" }\n\n\
                 [workspace]\nexclude = [\"vendor/vend\"]\n",
            ),
            (
                "vendor/vend",
                "[package]\nname = \"vend\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            ),
        ] {
            std::fs::create_dir_all(root.join(dir).join("src")).unwrap();
            std::fs::write(root.join(dir).join("Cargo.toml"), manifest).unwrap();
            std::fs::write(root.join(dir).join("src/lib.rs"), "").unwrap();
        }
        assert_eq!(in_tree_path_packages(&root, &root).unwrap(), ["vend"]);
        let (shared, own) = (
            root.join("target"),
            root.join("target/rtcompare/bench-baseline"),
        );
        let p = place(&root, &root, "abc", &shared, &own, "baseline");
        assert_eq!((p.target, p.salt), (own, None));
        let note = p.note.unwrap();
        assert!(
            note.contains("vend") && note.contains("not workspace members"),
            "{note}"
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn this_workspace_has_no_path_package_outside_its_members() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(
            in_tree_path_packages(root, root).unwrap(),
            Vec::<String>::new()
        );
    }
}
