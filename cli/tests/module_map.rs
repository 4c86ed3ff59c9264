//! The module maps in `src/lib.rs` (the library) and `cli/src/lib.rs` (this crate) list the
//! modules from the top down, each importing only modules listed below it. These tests read
//! every source file's `crate::NAME` paths and hold the maps to that, so a map cannot drift
//! from the code.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The modules of a map's table, row by row from the top: the first cell's names in
/// backticks (`render`, [`bench`](mod@bench) and [`Error`] give `render`, `bench`, `error`).
fn map_rows(lib_rs: &str) -> Vec<Vec<String>> {
    let start = lib_rs
        .find("|---|")
        .expect("the crate documentation has a module table");
    lib_rs[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("//! |"))
        .map(|l| {
            let first = l
                .trim_start_matches("//! |")
                .split('|')
                .next()
                .unwrap_or("");
            first
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|name| !name.contains(' ') && !name.starts_with("mod@"))
                .map(str::to_lowercase)
                .collect()
        })
        .collect()
}

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The top-level modules the code before its tests names through `crate::` (comments left
/// out: a documentation link is not an import; macros' `$crate::` paths too), in
/// `use crate::{a, b::c}` groups too.
fn imports(code: &str) -> BTreeSet<String> {
    let code = code.split("#[cfg(test)]").next().unwrap_or(code);
    let code: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        // An exported macro's `$crate::` path is resolved in the crate that expands it (a
        // user's), not imported by the module that defines the macro.
        if code[..i].ends_with('$') {
            continue;
        }
        let rest = &code[i + "crate::".len()..];
        let Some(group) = rest.strip_prefix('{') else {
            out.insert(ident(rest));
            continue;
        };
        // The group's items at its own depth: `{a, b::{c, d}, e}` gives a, b and e.
        let (mut depth, mut item_start) = (0usize, 0usize);
        for (j, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    out.insert(ident(&group[item_start..j]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.insert(ident(&group[item_start..j]));
                    item_start = j + 1;
                }
                _ => {}
            }
        }
    }
    out.remove("");
    out
}

/// The imports of module `m` that its map lists above it (or beside it in the same row is
/// allowed): `(importer, imported)` pairs. No exception: the maps hold without one.
fn upward_imports(src: &Path) -> Vec<(String, String)> {
    let rows = map_rows(&fs::read_to_string(src.join("lib.rs")).unwrap());
    let row_of = |m: &str| rows.iter().position(|r| r.iter().any(|n| n == m));
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut bad = BTreeSet::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let Some(mine) = row_of(&top) else {
            panic!("module {top} ({}) is missing from the map", rel.display());
        };
        for import in imports(&fs::read_to_string(&f).unwrap()) {
            if import == top {
                continue;
            }
            if let Some(theirs) = row_of(&import)
                && theirs < mine
            {
                bad.insert((format!("{top} ({})", rel.display()), import));
            }
        }
    }
    bad.into_iter().collect()
}

#[test]
fn the_command_line_crates_map_is_true() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert_eq!(upward_imports(&src), Vec::<(String, String)>::new());
}

#[test]
fn the_librarys_map_is_true() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
    if !src.join("lib.rs").exists() {
        // A packaged rtcompare-cli has no library sources beside it.
        return;
    }
    assert_eq!(upward_imports(&src), Vec::<(String, String)>::new());
}

#[test]
fn a_map_row_names_its_modules() {
    let rows = map_rows(
        "//! | module | owns |\n//! |---|---|\n//! | [`bench`](mod@bench) | x |\n\
         //! | `progress` (feature `progress`) | y |\n//! | [`rng`], [`Error`] | z |\n",
    );
    assert_eq!(
        rows,
        vec![
            vec!["bench"],
            vec!["progress", "progress"],
            vec!["rng", "error"]
        ]
    );
    let code = "use crate::{\n    alloc,\n    stats::{mean, sd},\n};\n// crate::render\nlet x = crate::env::now();";
    let found: Vec<String> = imports(code).into_iter().collect();
    assert_eq!(found, vec!["alloc", "env", "stats"]);
}
