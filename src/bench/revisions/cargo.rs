//! cargo's side of a comparison of revisions: which package and bench target (from
//! `cargo metadata`), and building that target at one revision, plainly or relinked in another
//! code order (one layout).

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};
use crate::interrupt::InterruptGuard;

/// The bench target a comparison builds, and where: found in the working tree.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// The package's name (what `cargo -p` takes).
    pub(crate) package: String,
    /// The package's directory.
    pub(crate) dir: PathBuf,
    /// The bench target's name.
    pub(crate) bench: String,
    /// The workspace's target directory, as cargo resolves it.
    pub(crate) target_dir: PathBuf,
}

/// What picks the package and its bench target: the options' `--package`, `--manifest-path`
/// and `--bench`, and the directory the run starts in.
pub(crate) struct Pick<'a> {
    pub(crate) dir: &'a Path,
    pub(crate) manifest_path: Option<&'a Path>,
    pub(crate) package: Option<&'a str>,
    pub(crate) bench: Option<&'a str>,
}

/// The cargo binary: the one that runs us (`CARGO`, set by `cargo bench`), else `cargo`.
fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// The workspace's description from `cargo metadata --no-deps`. Errors:
/// [`Error::InvalidOption`] with cargo's own words when there is no workspace here.
fn metadata(dir: &Path, manifest_path: Option<&Path>) -> Result<serde_json::Value> {
    let mut command = Command::new(cargo());
    command
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(dir)
        .stdin(Stdio::null());
    if let Some(m) = manifest_path {
        command.arg("--manifest-path").arg(m);
    }
    let out = command
        .output()
        .map_err(|e| Error::io(Path::new("cargo metadata"), e))?;
    if !out.status.success() {
        return Err(Error::invalid_option(
            "manifest",
            format!(
                "`cargo metadata` found no package in {}: {}",
                dir.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(Error::json)
}

/// The bench targets of one package of `cargo metadata`'s output.
fn benches(package: &serde_json::Value) -> Vec<String> {
    package["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|x| x == "bench"))
        })
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect()
}

/// Finds the package and bench target, as cargo would pick them: `--package` by name; else the
/// package whose manifest is `--manifest-path` or is the nearest `Cargo.toml` at or above the
/// directory (a member's folder); else, at a virtual workspace's root, the one package that has
/// the bench target (or the only bench target of the workspace). A bench target given by name
/// may also be written as its binary's stem (`-` as `_`). Errors: [`Error::InvalidOption`]
/// naming what there is to choose from.
pub(crate) fn locate(pick: &Pick<'_>) -> Result<Target> {
    let meta = metadata(pick.dir, pick.manifest_path)?;
    let packages: Vec<&serde_json::Value> =
        meta["packages"].as_array().into_iter().flatten().collect();
    let target_dir = PathBuf::from(meta["target_directory"].as_str().unwrap_or("target"));
    let package = pick_package(pick, &packages)?;
    let name = package_name(package);
    let bench = pick_bench(pick, package, &name)?;
    let dir = package["manifest_path"]
        .as_str()
        .and_then(|m| Path::new(m).parent())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| pick.dir.to_path_buf());
    Ok(Target {
        package: name,
        dir,
        bench,
        target_dir,
    })
}

/// A package's name in `cargo metadata`'s output (empty when missing).
fn package_name(p: &serde_json::Value) -> String {
    p["name"].as_str().unwrap_or_default().to_string()
}

/// The bench target of package `p` named `bench`, also when written as its binary's stem
/// (`-` as `_`).
fn bench_named(bench: &str, p: &serde_json::Value) -> Option<String> {
    benches(p)
        .into_iter()
        .find(|b| b == bench || b.replace('-', "_") == bench)
}

/// The package whose manifest is `--manifest-path`, else the nearest `Cargo.toml` at or above
/// the directory, when it is one of `packages`.
fn own_package<'m>(
    pick: &Pick<'_>,
    packages: &[&'m serde_json::Value],
) -> Option<&'m serde_json::Value> {
    let manifests: Vec<PathBuf> = match pick.manifest_path {
        Some(m) => vec![pick.dir.join(m)],
        None => pick.dir.ancestors().map(|d| d.join("Cargo.toml")).collect(),
    };
    manifests.iter().find_map(|m| {
        let m = m.canonicalize().ok()?;
        packages.iter().copied().find(|p| {
            p["manifest_path"]
                .as_str()
                .and_then(|q| Path::new(q).canonicalize().ok())
                == Some(m.clone())
        })
    })
}

/// The package [`locate`] picks: `--package` by name; else the directory's own package; else
/// the one package with the bench target (or with bench targets). Errors:
/// [`Error::InvalidOption`] naming the packages to choose from.
fn pick_package<'m>(
    pick: &Pick<'_>,
    packages: &[&'m serde_json::Value],
) -> Result<&'m serde_json::Value> {
    Ok(match pick.package {
        Some(name) => packages
            .iter()
            .copied()
            .find(|p| p["name"] == name)
            .ok_or_else(|| {
                Error::invalid_option(
                    "package",
                    format!(
                        "no package {name:?} in this workspace; its packages are: {}",
                        packages
                            .iter()
                            .map(|p| package_name(p))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?,
        None => match own_package(pick, packages) {
            Some(p) => p,
            None => {
                let with: Vec<&serde_json::Value> = packages
                    .iter()
                    .copied()
                    .filter(|p| match pick.bench {
                        Some(b) => bench_named(b, p).is_some(),
                        None => !benches(p).is_empty(),
                    })
                    .collect();
                match with.as_slice() {
                    [one] => *one,
                    _ => {
                        return Err(Error::invalid_option(
                            "package",
                            format!(
                                "this is a virtual workspace and {} of its packages have {}: \
                                 pick one with --package NAME (`cargo bench -p NAME`); they \
                                 are: {}",
                                with.len(),
                                pick.bench.map_or("bench targets".to_string(), |b| format!(
                                    "a bench target `{b}`"
                                )),
                                with.iter()
                                    .map(|p| package_name(p))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        ));
                    }
                }
            }
        },
    })
}

/// The bench target [`locate`] picks in `package` (named `name`): `--bench` by name, else its
/// only bench target. Errors: [`Error::InvalidOption`] naming its bench targets.
fn pick_bench(pick: &Pick<'_>, package: &serde_json::Value, name: &str) -> Result<String> {
    let all = benches(package);
    Ok(match pick.bench {
        Some(b) => bench_named(b, package).ok_or_else(|| {
            Error::invalid_option(
                "bench",
                format!(
                    "package {name} has no bench target `{b}`; its bench targets are: {}",
                    all.join(", ")
                ),
            )
        })?,
        None => match all.as_slice() {
            [one] => one.clone(),
            [] => {
                return Err(Error::invalid_option(
                    "bench",
                    format!(
                        "package {name} has no bench target: add a [[bench]] with harness = \
                         false that calls rtcompare::bench::main (or a criterion file on \
                         rtcompare-criterion)"
                    ),
                ));
            }
            many => {
                return Err(Error::invalid_option(
                    "bench",
                    format!(
                        "package {name} has {} bench targets ({}): pick one with --bench NAME",
                        many.len(),
                        many.join(", ")
                    ),
                ));
            }
        },
    })
}

/// One revision's copy of the package: its directory, the target directory its builds use,
/// the workspace wrapper that keeps its members apart there (`share.rs`), and its name in
/// messages.
#[derive(Debug, Clone)]
pub(crate) struct Tree {
    pub(crate) dir: PathBuf,
    pub(crate) target: PathBuf,
    pub(crate) salt: Option<PathBuf>,
    pub(crate) revision: String,
}

/// How [`build`] builds the bench target.
#[derive(Debug, Clone, Copy)]
pub(crate) enum How<'a> {
    /// Plainly, as `cargo bench` does; `quiet`: nothing shown (a build whose messages were
    /// already shown once).
    Plain { quiet: bool },
    /// Plainly, keeping the objects (`-C save-temps`) and writing the link command to this
    /// file (`--print link-args`), so that layouts can be made by linking alone.
    Capture(&'a Path),
    /// Relinked in the code order this seed shuffles, by cargo (the bench crate is compiled
    /// again).
    Relink(u64),
}

/// A relink that failed: the error, and whether the linker rejected the section shuffle (a
/// linker other than LLD).
pub(crate) struct RelinkFailure {
    pub(crate) error: Error,
    pub(crate) no_shuffle: bool,
}

/// Builds the bench target in `tree` with cargo's `bench` profile (as `cargo bench` does) and
/// returns the executable: plainly, capturing its link command, or relinked by cargo in the
/// code order a seed shuffles (`cargo rustc`, which compiles the bench target again and gives
/// each seed its own executable); see [`How`]. The build runs in the package's directory with
/// its own manifest and `-p`, so a member of a virtual workspace builds as at its root, in a
/// process group of its own ([`child::run`](super::child::run)). A plain or capturing build's
/// compiler messages go to stderr; a relink is quiet and its failure carries the linker's
/// last lines, as does a capture's. Errors: [`Error::Build`] for a plain build that failed;
/// [`Error::Cancelled`] after a signal; [`Error::Io`] when cargo cannot be started.
pub(crate) fn build(
    tree: &Tree,
    target: &Target,
    how: How<'_>,
    interrupt: &InterruptGuard,
) -> Result<std::result::Result<PathBuf, RelinkFailure>> {
    let files = Scratch::new();
    let command = cargo_command(tree, target, how, &files)?;
    let status = super::child::run(command, "cargo", interrupt)?;
    let messages = std::fs::read_to_string(&files.messages).unwrap_or_default();
    if let How::Capture(_) = how {
        for rendered in rendered(&messages) {
            eprint!("{rendered}");
        }
    }
    let status_text = status.code().map_or_else(
        || "killed by a signal".to_string(),
        |c| format!("exit status {c}"),
    );
    if !status.success() {
        if let How::Plain { .. } = how {
            return Err(Error::Build {
                bench: target.bench.clone(),
                revision: tree.revision.clone(),
                status: status_text,
                detail: "the compiler's messages are above".into(),
            });
        }
        let seed = match how {
            How::Relink(seed) => Some(seed),
            _ => None,
        };
        let errors = std::fs::read_to_string(&files.errors).unwrap_or_default();
        return Ok(Err(relink_failure(
            tree,
            target,
            seed,
            status_text,
            &messages,
            &errors,
        )));
    }
    executable(&messages, tree, target).map(Ok)
}

/// The cargo command that builds the bench target in `tree` as `how` says (see [`build`]):
/// cargo's JSON messages go to `files`' messages file, and a quiet build's stderr to its errors
/// file. A build whose messages are shown says first which build it is ([`said_building`]).
/// Errors: [`Error::Io`] when a scratch file cannot be created.
fn cargo_command(tree: &Tree, target: &Target, how: How<'_>, files: &Scratch) -> Result<Command> {
    let verb = if matches!(how, How::Plain { .. }) {
        "build"
    } else {
        "rustc"
    };
    let manifest = tree.dir.join("Cargo.toml");
    let mut command = Command::new(cargo());
    command
        .args([
            verb,
            "--profile",
            "bench",
            "--bench",
            &target.bench,
            "-p",
            &target.package,
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .current_dir(&tree.dir)
        .env("CARGO_TARGET_DIR", &tree.target)
        .stdin(Stdio::null())
        .stdout(files.create(&files.messages)?);
    if let Some(salt) = &tree.salt {
        command.env("RUSTC_WORKSPACE_WRAPPER", salt);
    }
    match how {
        How::Plain { quiet: true } => {
            command
                .stderr(files.create(&files.errors)?)
                .args(["--quiet", "--message-format=json"]);
        }
        How::Plain { quiet: false } => {
            said_building(tree, target);
            command.arg("--message-format=json-render-diagnostics");
        }
        How::Capture(print) => {
            // The diagnostics are read back and shown after the build, so that a failure that
            // is the capture's own (not the code's) can be told apart by building plainly.
            said_building(tree, target);
            let mut to = std::ffi::OsString::from("link-args=");
            to.push(print);
            command
                .arg("--message-format=json")
                .args(["--", "-C", "save-temps", "--print"])
                .arg(to);
        }
        How::Relink(seed) => {
            // The linker's complaint is read back, not shown: one that cannot shuffle is
            // expected, and the run says so in its own words.
            command.stderr(files.create(&files.errors)?).args([
                "--quiet",
                "--message-format=json",
                "--",
            ]);
            for flag in super::link::layout_flags(seed) {
                command.arg("-C").arg(format!("link-arg={flag}"));
            }
        }
    }
    Ok(command)
}

/// A relink with `seed` (or a capture, without) that failed: the linker's last lines, from the rendered diagnostics in
/// cargo's JSON `messages` or cargo's own `errors`.
fn relink_failure(
    tree: &Tree,
    target: &Target,
    seed: Option<u64>,
    status: String,
    messages: &str,
    errors: &str,
) -> RelinkFailure {
    let text = rendered(messages).join("\n") + errors;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(12)..].join("\n");
    RelinkFailure {
        error: Error::Build {
            bench: target.bench.clone(),
            revision: match seed {
                Some(seed) => format!("{} (relinked with code-order seed {seed})", tree.revision),
                None => format!("{} (built to capture its link command)", tree.revision),
            },
            status,
            detail: tail,
        },
        no_shuffle: text.contains("shuffle-sections"),
    }
}

/// Says on stderr which build starts.
fn said_building(tree: &Tree, target: &Target) {
    eprintln!(
        "building bench `{}` at {} in {}",
        target.bench,
        tree.revision,
        tree.dir.display()
    );
}

/// The compiler's rendered diagnostics in cargo's JSON `messages`, in order.
fn rendered(messages: &str) -> Vec<String> {
    messages
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-message")
        .filter_map(|m| m["message"]["rendered"].as_str().map(str::to_string))
        .collect()
}

/// The bench executable that cargo's JSON `messages` report built. Errors:
/// [`Error::InvalidOption`] when there is none.
fn executable(messages: &str, tree: &Tree, target: &Target) -> Result<PathBuf> {
    messages
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == target.bench)
        .filter(|m| {
            m["target"]["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|x| x == "bench"))
        })
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| {
            Error::invalid_option(
                "bench",
                format!(
                    "cargo built no bench executable named `{}` at {}; is it a [[bench]] \
                     target with harness = false?",
                    target.bench, tree.revision
                ),
            )
        })
}

/// The files a build writes its messages and errors to, removed when dropped (on every path,
/// an interruption included).
struct Scratch {
    messages: PathBuf,
    errors: PathBuf,
}

impl Scratch {
    fn new() -> Scratch {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let file = |kind: &str| {
            std::env::temp_dir().join(format!("rtcompare-build-{}-{n}.{kind}", std::process::id()))
        };
        Scratch {
            messages: file("json"),
            errors: file("stderr"),
        }
    }

    fn create(&self, path: &Path) -> Result<File> {
        File::create(path).map_err(|e| Error::io(path, e))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.messages);
        let _ = std::fs::remove_file(&self.errors);
    }
}

/// The code-order seed of layout `i` in a run seeded `seed`: in 1 ..= 2³² − 2, since LLD
/// reads 0 as "draw one" and −1 as "reverse".
pub(crate) fn layout_seed(seed: u64, i: usize) -> u64 {
    1 + crate::rng::derive_seed(seed, 0x1a70_0000 + i as u64) % (u32::MAX as u64 - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This workspace: the root is a package (rtcompare, with bench targets), `cli` another
    /// without any.
    fn pick<'a>(dir: &'a Path, package: Option<&'a str>, bench: Option<&'a str>) -> Pick<'a> {
        Pick {
            dir,
            manifest_path: None,
            package,
            bench,
        }
    }

    #[test]
    fn the_package_and_bench_target_are_picked_as_cargo_picks_them() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let t = locate(&pick(root, None, Some("harness"))).unwrap();
        assert_eq!(
            (t.package.as_str(), t.bench.as_str()),
            ("rtcompare", "harness")
        );
        assert_eq!(t.dir.canonicalize().unwrap(), root.canonicalize().unwrap());
        // From a folder inside the package, by the binary's stem, and by -p from elsewhere.
        let t = locate(&pick(&root.join("src/bench"), None, Some("harness"))).unwrap();
        assert_eq!(t.package, "rtcompare");
        let t = locate(&pick(&root.join("cli"), Some("rtcompare"), Some("harness"))).unwrap();
        assert_eq!(t.package, "rtcompare");
    }

    #[test]
    fn what_cannot_be_picked_is_refused_with_the_choices() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let said = |p: Pick<'_>| match locate(&p) {
            Err(Error::InvalidOption { reason, .. }) => reason,
            other => panic!("{other:?}"),
        };
        // Several bench targets and none named: each is listed.
        let r = said(pick(root, None, None));
        assert!(r.contains("--bench NAME") && r.contains("harness"), "{r}");
        let r = said(pick(root, None, Some("nope")));
        assert!(
            r.contains("no bench target `nope`") && r.contains("harness"),
            "{r}"
        );
        let r = said(pick(root, Some("nope"), None));
        assert!(
            r.contains("rtcompare-cli") && r.contains("rtcompare-criterion"),
            "{r}"
        );
        // A package without bench targets.
        let r = said(pick(&root.join("cli"), None, None));
        assert!(r.contains("has no bench target"), "{r}");
    }

    #[test]
    fn layout_seeds_are_linker_seeds_fixed_by_the_run_seed() {
        let seeds: Vec<u64> = (0..30).map(|i| layout_seed(7, i)).collect();
        assert!(seeds.iter().all(|&s| (1..u32::MAX as u64).contains(&s)));
        assert_eq!(
            seeds,
            (0..30).map(|i| layout_seed(7, i)).collect::<Vec<_>>()
        );
        let distinct: std::collections::BTreeSet<u64> = seeds.iter().copied().collect();
        assert_eq!(distinct.len(), 30);
    }
}
