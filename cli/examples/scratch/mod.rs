//! What the `rtcompare bench` experiments share: a scratch crate in a git repository of its own
//! (in the system's temporary directory), depending on a checkout of the library, with a bench
//! target `b`; and the helpers to drive it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The experiments' result type.
pub type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The fixture's shared functions, first in every bench source: a dependent multiply-add chain
/// whose time is proportional to `steps` (the compiler folds eight steps into one multiply-add,
/// about 1.3 ns each on the machines here), and an FNV hash.
pub const FIXTURE_FUNCTIONS: &str = r#"/// A dependent multiply-add chain: its time is proportional to `steps`.
fn chain(steps: u64) -> u64 {
    let mut x = 1u64;
    for _ in 0..black_box(steps) {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    }
    black_box(x)
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}
"#;

/// Runs `git ARGS` in `dir`; its trimmed stdout, or an error with its stderr.
pub fn git(dir: &Path, args: &[&str]) -> Res<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("git {}: {err}", args.join(" ")).into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The scratch repository, removed on drop unless kept.
pub struct Repo {
    pub dir: PathBuf,
    keep: bool,
}

impl Drop for Repo {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl Repo {
    /// A new repository `rtcompare-NAME-PID` whose first commit ("baseline") is a crate
    /// depending on the library at `lib`, with `source` as `benches/b.rs`.
    pub fn new(name: &str, lib: &Path, source: &str, keep: bool) -> Res<Repo> {
        let dir = std::env::temp_dir().join(format!("rtcompare-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("benches"))?;
        std::fs::create_dir_all(dir.join("src"))?;
        let repo = Repo { dir, keep };
        let d = &repo.dir;
        std::fs::write(
            d.join("Cargo.toml"),
            format!(
                "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                 [dependencies]\nrtcompare = {{ path = {:?} }}\n\n\
                 [[bench]]\nname = \"b\"\nharness = false\n\n[workspace]\n",
                lib.display().to_string()
            ),
        )?;
        // The library's lock file: the same versions, no registry index to refresh.
        std::fs::copy(lib.join("Cargo.lock"), d.join("Cargo.lock"))?;
        std::fs::write(d.join("src/lib.rs"), "")?;
        std::fs::write(d.join(".gitignore"), "target\n*.json\n")?;
        std::fs::write(d.join("benches/b.rs"), source)?;
        // Cargo prunes the copied lock file to this crate's dependencies on its first look;
        // done before the first commit, so that no build leaves the tree dirty.
        let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["metadata", "--format-version", "1"])
            .current_dir(d)
            .stdout(Stdio::null())
            .status()?;
        if !status.success() {
            return Err(format!("cargo metadata in the scratch crate: {status}").into());
        }
        git(d, &["init", "--quiet"])?;
        git(d, &["config", "user.email", "bench@example.invalid"])?;
        git(d, &["config", "user.name", "bench"])?;
        git(d, &["add", "."])?;
        git(d, &["commit", "--quiet", "-m", "baseline"])?;
        Ok(repo)
    }

    /// Commits `source` as `benches/b.rs` on the checked-out commit.
    pub fn commit(&self, source: &str, message: &str) -> Res<()> {
        std::fs::write(self.dir.join("benches/b.rs"), source)?;
        git(&self.dir, &["commit", "--quiet", "-am", message])?;
        Ok(())
    }
}

/// The library's own checkout: the workspace this example belongs to.
pub fn workspace() -> Res<PathBuf> {
    Ok(Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("no workspace")?
        .to_path_buf())
}

/// The `rtcompare` binary built beside this example (`cargo build --release -p rtcompare-cli`).
pub fn rtcompare_bin() -> Res<PathBuf> {
    Ok(std::env::current_exe()?
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("rtcompare"))
        .filter(|p| p.exists())
        .ok_or("build the command first: cargo build --release -p rtcompare-cli")?)
}

/// The median (the mean of the middle two for an even count); NaN when empty.
pub fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The bench target `b` of the crate in `dir` relinked with the code order `seed` shuffles
/// (`cargo rustc`, which rebuilds only the bench target; 0 links the plain order), in `target`
/// (`None`: the crate's own target directory); returns the executable.
pub fn relink(dir: &Path, target: Option<&Path>, seed: u64) -> Res<PathBuf> {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.args(["rustc", "--release", "--bench", "b"])
        .arg("--message-format=json-render-diagnostics")
        .current_dir(dir)
        .stdin(Stdio::null());
    if let Some(t) = target {
        c.env("CARGO_TARGET_DIR", t);
    }
    if seed != 0 {
        c.args([
            "--",
            "-C",
            &format!("link-arg=-Wl,--shuffle-sections=*={seed}"),
        ]);
    }
    let out = c.output()?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned().into());
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "b")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo built no executable for the bench target b".into())
}
