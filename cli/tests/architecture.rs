//! ARCHITECTURE.md at the workspace's root names every crate and every top-level module of the
//! core; these tests hold it to the code, so the map cannot drift: a crate added to the
//! workspace, or a module added to `src/`, fails here until the map says where it sits.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The map, or `None` in a packaged rtcompare-cli, which has no workspace around it.
fn map() -> Option<String> {
    fs::read_to_string(root().join("ARCHITECTURE.md")).ok()
}

/// The rows of the table under `heading`: each row's cells, trimmed.
fn table(map: &str, heading: &str) -> Vec<Vec<String>> {
    let start = map
        .find(heading)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has a section {heading:?}"));
    map[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The names in backticks in `cell`.
fn quoted(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The workspace's members, from the root manifest.
fn members() -> BTreeSet<String> {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.starts_with("members"))
        .expect("the root manifest lists the workspace's members");
    let mut out: BTreeSet<String> = line
        .split('"')
        .skip(1)
        .step_by(2)
        .map(|m| format!("{m}/"))
        .collect();
    out.insert("src/".to_string());
    out
}

#[test]
fn every_crate_of_the_workspace_is_on_the_map() {
    let Some(map) = map() else { return };
    let folders: BTreeSet<String> = table(&map, "## The crates")
        .iter()
        .flat_map(|row| quoted(&row[1]))
        .collect();
    assert_eq!(
        folders,
        members(),
        "the crates table against Cargo.toml's members"
    );
}

/// The core's top-level modules: the folders and files directly under `src/`, but `lib.rs`.
fn modules() -> BTreeSet<String> {
    fs::read_dir(root().join("src"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                Some(format!("src/{name}/"))
            } else if name.ends_with(".rs") && name != "lib.rs" {
                Some(format!("src/{name}"))
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn every_module_of_the_core_is_in_one_layer() {
    let Some(map) = map() else { return };
    let mut named = Vec::new();
    for row in table(&map, "## The core's layers") {
        named.extend(
            quoted(&row[1])
                .into_iter()
                .filter(|n| n.starts_with("src/")),
        );
    }
    let once: BTreeSet<String> = named.iter().cloned().collect();
    assert_eq!(
        once.len(),
        named.len(),
        "a module is in two layers: {named:?}"
    );
    assert_eq!(
        once,
        modules(),
        "the layers table against the folders and files of src/"
    );
}

#[test]
fn a_table_row_gives_its_cells() {
    let map =
        "## The crates\n\n| crate | folder |\n|---|---|\n| `a` | `a/` |\n| `b` | `b/` |\n\nafter";
    let rows = table(map, "## The crates");
    assert_eq!(rows.len(), 2);
    assert_eq!(quoted(&rows[1][1]), ["b/"]);
}

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn the_core_hides_one_module_and_nothing_else() {
    // What the workspace's crates need and users do not lives in `support`, the one hidden
    // module; an item hidden in place would be public API that the documentation leaves out.
    let src = root().join("src");
    if !src.is_dir() {
        return;
    }
    let mut hidden: Vec<String> = Vec::new();
    for file in sources(&src) {
        let text = fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim() == "#[doc(hidden)]" {
                let next = lines.get(i + 1).map_or("", |l| l.trim());
                hidden.push(format!("{}:{}: {next}", file.display(), i + 1));
            }
        }
    }
    assert!(
        hidden.len() == 1 && hidden[0].ends_with("pub mod support;"),
        "#[doc(hidden)] outside `pub mod support` (move the item into src/support/, or make \
         it part of the documented API): {hidden:#?}"
    );
}
