//! Building the bench target of one revision: plainly, or relinked in another code order
//! (one layout), with `cargo`; and finding the package's only bench target.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::{CliError, Result};

/// One revision's package directory, its own target directory and its name in messages.
pub(super) struct Tree {
    pub(super) dir: PathBuf,
    pub(super) target: PathBuf,
    pub(super) revision: String,
}

/// A build that failed: the command's status and the compiler's last lines.
pub(super) struct BuildFailure {
    pub(super) message: String,
    /// Whether the linker rejected the section shuffle (another linker than LLD).
    pub(super) no_shuffle: bool,
}

/// Builds the bench target `name` in `tree` and returns the bench executable's path: plainly,
/// or with `seed`, relinked with the code order that seed shuffles (`cargo rustc`, which
/// rebuilds only the bench target and gives each seed its own executable).
pub(super) fn build(
    tree: &Tree,
    name: &str,
    seed: Option<u64>,
) -> Result<std::result::Result<PathBuf, BuildFailure>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(&cargo);
    match seed {
        None => {
            eprintln!(
                "building bench `{name}` at {} in {}",
                tree.revision,
                tree.dir.display()
            );
            command.args(["build", "--release", "--bench", name]);
        }
        Some(_) => {
            command.args(["rustc", "--release", "--bench", name]);
        }
    }
    command
        .arg("--message-format=json-render-diagnostics")
        .env("CARGO_TARGET_DIR", &tree.target)
        .current_dir(&tree.dir)
        .stdin(Stdio::null());
    if let Some(seed) = seed {
        command.args([
            "--",
            "-C",
            &format!("link-arg=-Wl,--shuffle-sections=*={seed}"),
        ]);
    }
    let out = command.output().map_err(|source| CliError::Spawn {
        name: format!("the build at {}", tree.revision),
        command: "cargo build --release --bench".into(),
        source,
    })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().collect();
        let tail = lines[lines.len().saturating_sub(12)..].join("\n");
        return Ok(Err(BuildFailure {
            message: format!(
                "the build of bench `{name}` at {} failed ({}):\n{tail}",
                tree.revision, out.status
            ),
            no_shuffle: seed.is_some() && err.contains("shuffle-sections"),
        }));
    }
    String::from_utf8_lossy(&out.stdout)
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
