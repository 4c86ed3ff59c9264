//! The builds and layouts of a comparison of revisions, and the comparison over them: each
//! revision built once with its link command captured (`link.rs`), the first layout linked
//! and checked, then the worker pairs, each layout linked as they come (`relink.rs`), with
//! the seconds each stage took.

use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use super::cargo::{How, Pick, Target, Tree, build, layout_seed, locate};
use super::link::{self, LinkCommand};
use super::relink::{FirstFailure, Maker, Relinker};
use super::{LayoutsJson, RevisionsOptions};
use crate::bench::{BuildsProgress, BuildsRun, compare_layouts};
use crate::error::{Error, Result};
use crate::interrupt::InterruptGuard;
use crate::measure::CancelToken;

/// The two builds' names in file names, the baseline's first.
const SIDES: [&str; 2] = ["baseline", "head"];

/// Where a run's time went before the report: each build's seconds, the layouts' linking,
/// and what was said about how the builds and layouts were made.
#[derive(Debug, Default)]
pub(crate) struct Spent {
    /// Wall time of each build (the baseline's first), capture included, in seconds.
    pub(crate) build: [f64; 2],
    /// Seconds of linking and relinking layouts, all threads.
    pub(crate) relink: f64,
    /// Seconds spent on the first layout, before any pair (the run waited for all of it).
    pub(crate) first_layout: f64,
    /// How the layouts were made: `linker`, `cargo`, or both, per build.
    pub(crate) relinked_by: [Option<&'static str>; 2],
    /// Why a build's layouts were made by cargo, when its link command could not be used.
    pub(crate) relink_notes: Vec<String>,
}

/// The first layout of both builds: the plain builds, or both relinked with `seed`.
pub(crate) struct FirstLayout {
    pub(crate) exes: (PathBuf, PathBuf),
    pub(crate) seed: Option<u64>,
    /// Why the plain builds are the only layout although more were asked for.
    pub(crate) note: Option<String>,
}

/// What [`build_both`] built.
pub(crate) enum Built<'r> {
    /// Both revisions, their first layout, and what makes the others.
    Both(FirstLayout, Option<Box<Relinker<'r>>>),
    /// The head only, at this executable: the baseline has no such bench target.
    HeadOnly(PathBuf),
}

/// Builds the bench target at both revisions, the baseline first; with more than one layout
/// asked for, each build captures its link command and layout 0 of both is linked. A
/// baseline without the package or the bench target (the change that adds it) is not built.
pub(crate) fn build_both<'r>(
    trees: &'r [Tree; 2],
    target: &'r Target,
    o: &RevisionsOptions,
    seed: u64,
    interrupt: &'r InterruptGuard,
    spent: &mut Spent,
) -> Result<Built<'r>> {
    let at_baseline = trees[0].dir.join("Cargo.toml").is_file()
        && locate(&Pick {
            dir: &trees[0].dir,
            manifest_path: None,
            package: Some(&target.package),
            bench: Some(&target.bench),
        })
        .is_ok();
    let plain = How::Plain { quiet: false };
    if !at_baseline {
        let started = Instant::now();
        let head = build(&trees[1], target, plain, interrupt)?.map_err(|f| f.error)?;
        spent.build[1] = started.elapsed().as_secs_f64();
        return Ok(Built::HeadOnly(head));
    }
    if o.layouts <= 1 {
        let mut exes = Vec::new();
        for (side, tree) in trees.iter().enumerate() {
            let started = Instant::now();
            exes.push(build(tree, target, plain, interrupt)?.map_err(|f| f.error)?);
            spent.build[side] = started.elapsed().as_secs_f64();
        }
        let first = FirstLayout {
            exes: (exes[0].clone(), exes[1].clone()),
            seed: None,
            note: None,
        };
        return Ok(Built::Both(first, None));
    }
    let mut plain = Vec::new();
    let mut makers = Vec::new();
    for (side, tree) in trees.iter().enumerate() {
        let started = Instant::now();
        let (exe, maker) = captured(tree, target, SIDES[side], interrupt, spent)?;
        spent.build[side] = started.elapsed().as_secs_f64();
        plain.push(exe);
        makers.push(maker);
    }
    let dir = layouts_dir(&trees[1].target)?;
    let makers = [makers[0].clone(), makers[1].clone()];
    let mut relinker = Relinker::new(trees, target, makers, dir, seed, o.layouts, interrupt)?;
    let started = Instant::now();
    let first = first_layout(
        &mut relinker,
        (plain[0].clone(), plain[1].clone()),
        o,
        spent,
    );
    spent.first_layout = started.elapsed().as_secs_f64();
    let first = first?;
    for side in 0..2 {
        spent.relinked_by[side] = Some(match relinker.maker(side) {
            Maker::Link(_) => "linker",
            Maker::Cargo => "cargo",
        });
    }
    Ok(Built::Both(first, Some(Box::new(relinker))))
}

/// A directory of this run's own for its layouts, under `target`'s `rtcompare/layouts`.
/// Errors: [`Error::Io`] when the working directory cannot be read (a relative target).
fn layouts_dir(target: &Path) -> Result<PathBuf> {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = target
        .join("rtcompare")
        .join("layouts")
        .join(format!("run-{}-{nanos:09}", std::process::id()));
    std::path::absolute(&dir).map_err(|e| Error::io(&dir, e))
}

/// Builds the bench target in `tree` capturing its link command, and returns the
/// executable and how its layouts are made: by that command, or by cargo when it could not be
/// captured (said in `spent`). A capture that fails is followed by a plain build, quietly, so
/// that only a failure of the code itself fails the run. Errors: those of [`build`].
fn captured(
    tree: &Tree,
    target: &Target,
    side: &str,
    interrupt: &InterruptGuard,
    spent: &mut Spent,
) -> Result<(PathBuf, Maker)> {
    let dir = tree.target.join("rtcompare").join("link");
    let _ = std::fs::create_dir_all(&dir);
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    let print = dir.join(format!("{}-{}-{side}.args", target.package, target.bench));
    let _ = std::fs::remove_file(&print);
    let started = SystemTime::now();
    let fallback = |why: String, spent: &mut Spent| {
        let note = format!(
            "The {side}'s layouts were relinked by cargo (the bench crate compiled again for \
             each): its link command could not be captured: {why}"
        );
        eprintln!("{note}");
        spent.relink_notes.push(note);
        Maker::Cargo
    };
    match build(tree, target, How::Capture(&print), interrupt)? {
        Ok(exe) => match command_of(&print, &exe, &dir, started) {
            Ok(command) => Ok((exe, Maker::Link(command))),
            Err(why) => Ok((exe, fallback(why, spent))),
        },
        Err(failure) => {
            let exe =
                build(tree, target, How::Plain { quiet: true }, interrupt)?.map_err(|f| f.error)?;
            let why = failure.error.to_string();
            let why = why.lines().last().unwrap_or("").trim().to_string();
            Ok((
                exe,
                fallback(format!("the build that captures it failed ({why})"), spent),
            ))
        }
    }
}

/// The link command of `exe`: read from `print` when rustc just linked it (its inputs moved
/// under `dir`, `-C save-temps`' leftovers removed, and the command saved beside them), else
/// the one saved when it was last linked (cargo found it up to date). Errors: in words.
fn command_of(
    print: &Path,
    exe: &Path,
    dir: &Path,
    started: SystemTime,
) -> std::result::Result<LinkCommand, String> {
    let stem = exe
        .file_name()
        .and_then(|s| s.to_str())
        .ok_or("an executable without a name")?;
    let (keep, saved) = (dir.join(stem), dir.join(format!("{stem}.json")));
    if let Ok(text) = std::fs::read_to_string(print) {
        let _ = std::fs::remove_file(print);
        let command = link::parse(&text).and_then(|c| link::relocate(c, exe, &keep));
        link::clean_save_temps(exe, started..=SystemTime::now());
        let command = command?;
        let json = serde_json::to_string(&command).map_err(|e| e.to_string())?;
        std::fs::write(&saved, json)
            .map_err(|e| format!("cannot write {}: {e}", saved.display()))?;
        return Ok(command);
    }
    let text = std::fs::read_to_string(&saved).map_err(|_| {
        "cargo found the bench target up to date, and the link command saved when it was \
         built is gone"
            .to_string()
    })?;
    let command: LinkCommand = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let missing = command
        .args
        .iter()
        .find(|a| Path::new(a.as_str()).starts_with(&keep) && !Path::new(a.as_str()).exists());
    match missing {
        Some(m) => Err(format!("the saved link command's input {m} is gone")),
        None => Ok(command),
    }
}

/// Layout 0 of both builds, each checked: a linker that refuses the shuffle, or accepts it and
/// changes nothing, leaves the run with the plain builds as its one layout (said in the
/// note); a captured command that does not run again gives way to cargo's relink for that
/// build. Errors: cargo's relink failing otherwise; [`Error::Cancelled`].
fn first_layout(
    relinker: &mut Relinker<'_>,
    plain: (PathBuf, PathBuf),
    o: &RevisionsOptions,
    spent: &mut Spent,
) -> Result<FirstLayout> {
    let seed0 = layout_seed(relinker.seed(), 0);
    eprintln!(
        "linking layout 1 of at most {} (code-order seed {seed0})",
        o.layouts
    );
    let one_layout = |why: &str| {
        let note = format!(
            "One code layout: the linker cannot shuffle sections (--shuffle-sections, \
             LLD's), so the intervals do not include code placement. {}",
            why.lines().last().unwrap_or("").trim()
        );
        eprintln!("{note}");
        FirstLayout {
            exes: plain.clone(),
            seed: None,
            note: Some(note),
        }
    };
    let mut exes = Vec::new();
    for (side, exe) in [&plain.0, &plain.1].into_iter().enumerate() {
        let made = match relinker.first(side)? {
            Err(FirstFailure::Link(why)) => {
                let note = format!(
                    "The {}'s layouts were relinked by cargo (the bench crate compiled again \
                     for each): its captured link command did not run again: {}",
                    SIDES[side],
                    why.lines().last().unwrap_or("").trim()
                );
                eprintln!("{note}");
                spent.relink_notes.push(note);
                relinker.use_cargo(side);
                relinker.first(side)?
            }
            other => other,
        };
        match made {
            Ok(linked) if same_file(&linked, exe) => {
                return Ok(one_layout(
                    "The linker took --shuffle-sections but left the code order as it was.",
                ));
            }
            Ok(linked) => exes.push(linked),
            Err(FirstFailure::NoShuffle(why) | FirstFailure::Link(why)) => {
                return Ok(one_layout(&why));
            }
        }
    }
    relinker.prefetch(0);
    Ok(FirstLayout {
        exes: (exes[0].clone(), exes[1].clone()),
        seed: Some(seed0),
        note: None,
    })
}

/// Whether two files hold the same bytes (false when either cannot be read).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::read(a), std::fs::read(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Compares every benchmark the two builds register over their layouts (each layout after
/// the first made by `relinker` when a pair first needs it, or linked ahead), with progress
/// on stderr. Returns the run and how its layouts were made.
pub(crate) fn compare(
    trees: &[Tree; 2],
    first: FirstLayout,
    mut relinker: Option<Box<Relinker<'_>>>,
    o: &RevisionsOptions,
    seed: u64,
    cancel: &CancelToken,
    spent: &mut Spent,
) -> Result<(BuildsRun, LayoutsJson)> {
    let layouts = if first.seed.is_some() { o.layouts } else { 1 };
    let options = super::builds_options(o, seed, trees, layouts, cancel).progress(progress());
    let mut seeds: Vec<u64> = first.seed.into_iter().collect();
    let mut first_exes = Some(first.exes);
    let run = compare_layouts(
        |i| {
            if let Some(exes) = first_exes.take() {
                return Ok(exes);
            }
            seeds.push(layout_seed(seed, i));
            match relinker.as_mut() {
                Some(r) => r.layout(i),
                None => Err(Error::Variant {
                    variant: i,
                    reason: "the run has one layout".into(),
                }),
            }
        },
        &options,
    );
    // The progress line goes before the table is printed.
    drop(options);
    spent.relink = relinker.as_ref().map_or(0.0, |r| r.seconds());
    // The linking threads stop, and the layouts' files go, before the report.
    drop(relinker);
    let run = run?;
    let layouts = LayoutsJson {
        baseline_variants: run.layout_variants,
        head_variants: run.layout_variants,
        shuffled: !seeds.is_empty(),
        seeds,
        note: first.note,
        seconds: run.layout_seconds,
        relinked_by: if layouts > 1 {
            relinked_by(&spent.relinked_by)
        } else {
            String::new()
        },
        relink_notes: if layouts > 1 {
            spent.relink_notes.clone()
        } else {
            Vec::new()
        },
    };
    Ok((run, layouts))
}

/// How both builds' layouts were made, in a word: `linker`, `cargo`, or `linker, cargo`
/// (the baseline's, then the head's) when they differ.
fn relinked_by(by: &[Option<&'static str>; 2]) -> String {
    match by {
        [Some(a), Some(b)] if a == b => a.to_string(),
        [Some(a), Some(b)] => format!("{a}, {b}"),
        _ => String::new(),
    }
}

/// Progress on stderr between worker pairs: with the `progress` feature, on a terminal one line
/// redrawn in place; otherwise one line per finished stage, for CI logs.
fn progress() -> impl Fn(&BuildsProgress) + Send + Sync + 'static {
    let text = |p: &BuildsProgress| {
        format!(
            "benchmark {}/{} {}: pair {}/{}, last pair {} (+ = head slower)",
            p.benchmark + 1,
            p.benchmarks,
            p.name,
            p.pairs_done,
            p.pairs_planned,
            crate::display::SignedPct(p.change)
        )
    };
    #[cfg(feature = "progress")]
    {
        let line = crate::progress::Status::new();
        move |p: &BuildsProgress| {
            if line.is_drawn() || p.pairs_done >= p.pairs_planned {
                line.log(text(p));
            }
        }
    }
    #[cfg(not(feature = "progress"))]
    move |p: &BuildsProgress| {
        if p.pairs_done >= p.pairs_planned {
            eprintln!("{}", text(p));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate with one bench target that prints `ok` from a few functions, in its own
    /// workspace under the temporary directory, removed on drop; with `linker`, built with
    /// that linker (`.cargo/config.toml`) and a variable only cargo's builds see.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(tag: &str, linker: Option<&str>) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("rtcompare-link-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(dir.join("benches")).unwrap();
            std::fs::create_dir_all(dir.join("src")).unwrap();
            std::fs::write(
                dir.join("Cargo.toml"),
                "[package]\nname = \"scratch\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                 [[bench]]\nname = \"b\"\nharness = false\n\n[workspace]\n",
            )
            .unwrap();
            std::fs::write(dir.join("src/lib.rs"), "").unwrap();
            let mut bench = String::new();
            for i in 0..8 {
                bench.push_str(&format!(
                    "#[inline(never)] fn f{i}(x: u64) -> u64 {{ x.wrapping_mul({i} + 3) ^ {i} }}\n"
                ));
            }
            bench.push_str(
                "fn main() { let x = (0..8u64).fold(1, |a, i| [f0, f1, f2, f3, f4, f5, f6, \
                 f7][i as usize](a)); if std::hint::black_box(x) != 0 { println!(\"ok\"); } }\n",
            );
            std::fs::write(dir.join("benches/b.rs"), bench).unwrap();
            if let Some(linker) = linker {
                std::fs::create_dir_all(dir.join(".cargo")).unwrap();
                std::fs::write(
                    dir.join(".cargo/config.toml"),
                    format!(
                        "[target.x86_64-unknown-linux-gnu]\nlinker = {linker:?}\n\n\
                         [env]\nRTCOMPARE_LINK_UNDER_CARGO = \"1\"\n"
                    ),
                )
                .unwrap();
            }
            Scratch(dir)
        }

        fn tree(&self) -> (Tree, Target) {
            let tree = Tree {
                dir: self.0.clone(),
                target: self.0.join("target"),
                salt: None,
                revision: "the scratch crate".into(),
            };
            let target = Target {
                package: "scratch".into(),
                dir: self.0.clone(),
                bench: "b".into(),
                target_dir: self.0.join("target"),
            };
            (tree, target)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn runs(exe: &Path) -> String {
        let out = std::process::Command::new(exe).output().unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn the_captured_link_command_makes_runnable_layouts_by_linking_alone() {
        let scratch = Scratch::new("capture", None);
        let (tree, target) = scratch.tree();
        let interrupt = InterruptGuard::install();
        let mut spent = Spent::default();
        let (exe, maker) = captured(&tree, &target, "head", &interrupt, &mut spent).unwrap();
        let Maker::Link(command) = maker else {
            panic!("not captured: {:?}", spent.relink_notes);
        };
        // save-temps' leftovers are gone from cargo's directory; the copies are rtcompare's.
        let stem = exe.file_name().unwrap().to_str().unwrap().to_string();
        let left: Vec<_> = link_names(exe.parent().unwrap())
            .into_iter()
            .filter(|n| n.starts_with(&format!("{stem}.")) && !n.ends_with(".d"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        let out = scratch.0.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let run = |c| crate::bench::revisions::child::run(c, "the linker", &interrupt);
        // Without a seed the command rebuilds cargo's executable byte for byte.
        command.link(None, &out.join("same"), run).unwrap();
        assert!(same_file(&out.join("same"), &exe));
        let mut layouts = Vec::new();
        for seed in [11, 12] {
            let to = out.join(format!("layout-{seed}"));
            command.link(Some(seed), &to, run).unwrap();
            assert_eq!(runs(&to), "ok");
            assert!(
                !same_file(&to, &exe),
                "seed {seed} left the layout as it was"
            );
            layouts.push(to);
        }
        assert!(!same_file(&layouts[0], &layouts[1]));
        // Built again with nothing changed, cargo runs no rustc: the saved command is used.
        let (again, maker) = captured(&tree, &target, "head", &interrupt, &mut spent).unwrap();
        assert_eq!(again, exe);
        assert!(matches!(maker, Maker::Link(c) if c == command));
    }

    fn link_names(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn a_link_command_that_cannot_be_run_again_falls_back_to_cargo_and_says_so() {
        use std::os::unix::fs::PermissionsExt;
        let linker = std::env::temp_dir().join(format!(
            "rtcompare-link-only-under-cargo-{}",
            std::process::id()
        ));
        std::fs::write(
            &linker,
            "#!/bin/sh\n[ \"$RTCOMPARE_LINK_UNDER_CARGO\" = 1 ] || { echo 'this linker runs \
             only under cargo' >&2; exit 1; }\nexec cc \"$@\"\n",
        )
        .unwrap();
        std::fs::set_permissions(&linker, std::fs::Permissions::from_mode(0o755)).unwrap();
        let scratch = Scratch::new("fallback", Some(linker.to_str().unwrap()));
        let (tree, target) = scratch.tree();
        let trees = [tree.clone(), tree];
        let interrupt = InterruptGuard::install();
        let mut spent = Spent::default();
        let o = RevisionsOptions {
            baseline: "HEAD".into(),
            layouts: 5,
            ..RevisionsOptions::default()
        };
        let built = build_both(&trees, &target, &o, 7, &interrupt, &mut spent).unwrap();
        let _ = std::fs::remove_file(&linker);
        let Built::Both(first, relinker) = built else {
            panic!("both builds expected");
        };
        assert_eq!(spent.relinked_by, [Some("cargo"), Some("cargo")]);
        assert_eq!(spent.relink_notes.len(), 2, "{:?}", spent.relink_notes);
        for note in &spent.relink_notes {
            assert!(
                note.contains("relinked by cargo") && note.contains("only under cargo"),
                "{note}"
            );
        }
        // cargo's relink ran the linker under cargo: layout 0 is made and runs.
        assert_eq!(first.seed, Some(layout_seed(7, 0)), "{:?}", first.note);
        assert_eq!(runs(&first.exes.0), "ok");
        assert!(relinker.is_some_and(|r| r.seconds() > 0.0));
    }
}
