//! Building the bench target of one revision: plainly, or relinked in another code order
//! (one layout), with `cargo`; and finding the package's only bench target.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{CliError, Result};
use crate::process::Runner;

/// One revision's package directory, its own target directory and its name in messages.
pub(super) struct Tree {
    pub(super) dir: PathBuf,
    pub(super) target: PathBuf,
    pub(super) revision: String,
}

/// A relink that failed: the error, with the linker's last lines.
pub(super) struct BuildFailure {
    pub(super) error: CliError,
    /// Whether the linker rejected the section shuffle (another linker than LLD).
    pub(super) no_shuffle: bool,
}

/// Builds the bench target `name` in `tree` with cargo's `bench` profile (as `cargo bench`
/// does) and returns the bench executable's path: plainly, or with `seed`, relinked with the
/// code order that seed shuffles (`cargo rustc`, which rebuilds only the bench target and gives
/// each seed its own executable).
///
/// Both run through the [`Runner`], as `rtcompare git`'s builds do: in a process group of
/// their own under the watchdog, which passes Ctrl-C and SIGTERM on and kills the build if it
/// outlives the grace. A plain build streams the compiler's messages to stderr, and its failure
/// is [`CliError::Build`] naming the revision; a relink is quiet, and its failure is a
/// [`BuildFailure`] with the linker's words, so that a linker that cannot shuffle is told
/// apart. Errors: [`CliError::Interrupted`] after a signal; the runner's own errors.
pub(super) fn build(
    tree: &Tree,
    name: &str,
    seed: Option<u64>,
) -> Result<std::result::Result<PathBuf, BuildFailure>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let files = Scratch::new();
    let mut argv: Vec<OsString> = vec![cargo];
    let verb = if seed.is_some() { "rustc" } else { "build" };
    argv.extend(
        [verb, "--profile", "bench", "--bench", name]
            .iter()
            .map(OsString::from),
    );
    let mut runner =
        Runner::for_build_messages(files.messages.clone())?.env("CARGO_TARGET_DIR", &tree.target);
    match seed {
        None => {
            eprintln!(
                "building bench `{name}` at {} in {}",
                tree.revision,
                tree.dir.display()
            );
            argv.push("--message-format=json-render-diagnostics".into());
        }
        Some(seed) => {
            // The linker's complaint is read back, not shown: one that cannot shuffle is
            // expected, and the run says so in its own words.
            runner = runner.errors_to(files.errors.clone());
            argv.extend(
                [
                    "--quiet".to_string(),
                    "--message-format=json".to_string(),
                    "--".to_string(),
                    "-C".to_string(),
                    format!("link-arg=-Wl,--shuffle-sections=*={seed}"),
                ]
                .map(OsString::from),
            );
        }
    }
    let command = format!("cargo {verb} --profile bench --bench {name}");
    let measured = runner
        .run(&argv, Some(&tree.dir), None)
        .map_err(|f| f.into_error(format!("the build at {}", tree.revision), command, 0.0))?;
    let messages = std::fs::read_to_string(&files.messages).unwrap_or_default();
    if !measured.success() {
        let Some(seed) = seed else {
            return Err(CliError::Build {
                bench: name.into(),
                revision: tree.revision.clone(),
                status: measured.status_text(),
                hint: "; the compiler's messages are above".into(),
            });
        };
        let errors = std::fs::read_to_string(&files.errors).unwrap_or_default();
        return Ok(Err(relink_failure(
            tree,
            name,
            seed,
            measured.status_text(),
            &messages,
            &errors,
        )));
    }
    executable(&messages, tree, name)
}

/// A relink with `seed` that failed with `status`: the linker's last lines, from the JSON
/// `messages`' rendered diagnostics (a real cargo) or cargo's own `errors`, and whether the
/// linker rejected the section shuffle.
fn relink_failure(
    tree: &Tree,
    name: &str,
    seed: u64,
    status: String,
    messages: &str,
    errors: &str,
) -> BuildFailure {
    let rendered: Vec<String> = messages
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-message")
        .filter_map(|m| m["message"]["rendered"].as_str().map(str::to_string))
        .collect();
    let text = rendered.join("\n") + errors;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(12)..].join("\n");
    BuildFailure {
        error: CliError::Build {
            bench: name.into(),
            revision: format!("{} (relinked with code-order seed {seed})", tree.revision),
            status,
            hint: format!(":\n{tail}"),
        },
        no_shuffle: text.contains("shuffle-sections"),
    }
}

/// The bench executable named `name` that cargo's JSON `messages` report built in `tree`.
/// Errors: a usage error when there is none (not a `harness = false` bench target).
fn executable(
    messages: &str,
    tree: &Tree,
    name: &str,
) -> Result<std::result::Result<PathBuf, BuildFailure>> {
    messages
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .filter(|m| {
            m["target"]["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|x| x == "bench"))
        })
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .map(Ok)
        .ok_or_else(|| {
            CliError::Usage(format!(
                "cargo built no bench executable named `{name}` at {}; is it a \
                 [[bench]] target with harness = false?",
                tree.revision
            ))
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
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.messages);
        let _ = std::fs::remove_file(&self.errors);
    }
}

/// The code-order seed of layout `i` in a run seeded `seed`: in 1 ..= 2³² − 2, since LLD
/// reads 0 as "draw one" and −1 as "reverse".
pub(super) fn layout_seed(seed: u64, i: usize) -> u64 {
    1 + rtcompare::rng::derive_seed(seed, 0x1a70_0000 + i as u64) % (u32::MAX as u64 - 1)
}

/// The first layout of both builds: the plain builds, or both relinked with `seed`.
pub(super) struct FirstLayout {
    pub(super) exes: (PathBuf, PathBuf),
    pub(super) seed: Option<u64>,
    /// Why the plain builds are the only layout although more were asked for.
    pub(super) note: Option<String>,
}

/// The package's only bench target, found with `cargo metadata`; an error naming the targets
/// when there are several, or none.
pub(super) fn only_bench_target(cwd: &Path) -> Result<String> {
    let benches = bench_targets(cwd)?;
    match benches.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(CliError::Usage(
            "this package has no bench target; add a [[bench]] with harness = false that \
             calls rtcompare::bench::main, or give --bench NAME"
                .into(),
        )),
        many => Err(CliError::Usage(format!(
            "this package has {} bench targets ({}); pick one with --bench NAME",
            many.len(),
            many.join(", ")
        ))),
    }
}

/// The bench targets of the package in `cwd` (of every package of the workspace when `cwd`
/// holds none), from `cargo metadata`.
pub(super) fn bench_targets(cwd: &Path) -> Result<Vec<String>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(&cargo)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| CliError::Spawn {
            name: "cargo metadata".into(),
            command: "cargo metadata --no-deps".into(),
            source,
        })?;
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        CliError::Usage(format!(
            "cargo metadata gave no package description here ({e}); give --bench NAME"
        ))
    })?;
    let manifest = cwd.join("Cargo.toml");
    let packages: Vec<&serde_json::Value> = meta["packages"].as_array().map_or(Vec::new(), |ps| {
        let own: Vec<&serde_json::Value> = ps
            .iter()
            .filter(|p| p["manifest_path"].as_str().map(Path::new) == Some(manifest.as_path()))
            .collect();
        if own.is_empty() {
            ps.iter().collect()
        } else {
            own
        }
    });
    let benches: Vec<String> = packages
        .iter()
        .flat_map(|p| p["targets"].as_array().cloned().unwrap_or_default())
        .filter(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|x| x == "bench"))
        })
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect();
    Ok(benches)
}
