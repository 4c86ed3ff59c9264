//! The documents stay the size a reader can take in and their links lead somewhere: README.md
//! at most 160 lines, each chapter of the guide and each topic at most 320, the guide at most
//! 4,000 words in all (about fifteen minutes of reading), every relative link in README.md and
//! under docs/ naming a file that exists, every chapter and topic reachable from the index, and
//! every document with Rust code compiled as a doctest (src/lib.rs, `doc_examples`).

use std::fs;
use std::path::{Path, PathBuf};

const README_MAX_LINES: usize = 160;
const CHAPTER_MAX_LINES: usize = 320;
const GUIDE_MAX_WORDS: usize = 4_000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files directly in `dir` (relative to the root), sorted.
fn markdown_in(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir} cannot be read: {e}"))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files
}

/// Every Markdown file under `dir`, at any depth.
fn markdown_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            markdown_under(&path, out);
        } else if path.extension().is_some_and(|x| x == "md") {
            out.push(path);
        }
    }
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()))
}

fn name(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The text outside fenced code blocks and inline code spans, paragraph by paragraph (a span
/// or a link may run over a line break), so that a link written as an example in code is not
/// taken for one.
fn prose(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut paragraphs = vec![String::new()];
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            paragraphs.push(String::new());
            continue;
        }
        if fenced {
            continue;
        }
        if line.trim().is_empty() {
            paragraphs.push(String::new());
        } else {
            let last = paragraphs.last_mut().unwrap();
            last.push(' ');
            last.push_str(line.trim());
        }
    }
    // Drop inline code: the parts between backticks, pair by pair.
    paragraphs
        .iter()
        .map(|p| p.split('`').step_by(2).collect::<Vec<_>>().join(" "))
        .collect()
}

/// The targets of the inline links `[text](target)` and the reference definitions
/// `[label]: target` in `text`, outside code.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    // Reference definitions are read before code spans are dropped: their labels are often
    // code (`` [`compare`]: ../target/doc/… ``).
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with('[')
            && let Some(end) = line.find("]: ")
        {
            let target = line[end + 3..].split_whitespace().next().unwrap_or("");
            targets.push(target.to_string());
        }
    }
    for paragraph in prose(text) {
        let mut rest = paragraph.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.trim_matches(['<', '>']).to_string());
            rest = &rest[end..];
        }
    }
    targets
}

/// Where rustdoc's pages are, when the links into them are to be checked: `$CARGO_TARGET_DIR/doc`,
/// else the workspace's `target/doc`, once `RTCOMPARE_DOCS_BUILT` says that every page the
/// docs link to was built there (`.ci/run` sets it after its `cargo doc` runs, and runs this
/// test again). Without it those links are not checked: pages left by a partial `cargo doc`
/// (one crate, or without the `progress` feature) cannot be told from pages that moved.
fn rustdoc_dir() -> Option<PathBuf> {
    std::env::var_os("RTCOMPARE_DOCS_BUILT")?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"));
    Some(target.join("doc"))
}

/// The file a relative link names, or `None` for a link that leaves the repository's files
/// (a URL, an anchor, or rustdoc's pages when they are not built here).
fn resolve(from: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split('#').next().unwrap_or("");
    if path.is_empty() || path.contains("://") || path.starts_with("mailto:") {
        return None;
    }
    let joined = from.parent().unwrap().join(path);
    // Links into rustdoc's output (docs/api.md) are checked against the pages built here.
    let normal = normalise(&joined);
    if let Ok(inside) = normal.strip_prefix(root().join("target").join("doc")) {
        return rustdoc_dir().map(|doc| doc.join(inside));
    }
    Some(normal)
}

/// `a/b/../c` as `a/c`, without touching the file system (the file may not exist).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn the_readme_is_short() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the detail into docs/"
    );
}

#[test]
fn each_chapter_and_topic_is_short() {
    let mut long = Vec::new();
    for file in markdown_in("docs/guide")
        .into_iter()
        .chain(markdown_in("docs/topics"))
    {
        let lines = read(&file).lines().count();
        if lines > CHAPTER_MAX_LINES {
            long.push(format!("{} ({lines} lines)", name(&file)));
        }
    }
    assert!(
        long.is_empty(),
        "longer than {CHAPTER_MAX_LINES} lines, split them: {long:?}"
    );
}

#[test]
fn the_guide_reads_in_about_fifteen_minutes() {
    let words: usize = markdown_in("docs/guide")
        .iter()
        .map(|f| read(f).split_whitespace().count())
        .sum();
    assert!(
        words <= GUIDE_MAX_WORDS,
        "the guide has {words} words, more than {GUIDE_MAX_WORDS}: move reference detail \
         into docs/topics/"
    );
}

#[test]
fn every_relative_link_names_a_file_that_exists() {
    let mut files = vec![root().join("README.md")];
    markdown_under(&root().join("docs"), &mut files);
    let mut broken = Vec::new();
    for file in &files {
        for target in link_targets(&read(file)) {
            if let Some(path) = resolve(file, &target)
                && !path.exists()
            {
                broken.push(format!("{} → {target}", name(file)));
            }
        }
    }
    assert!(broken.is_empty(), "links to nothing: {broken:#?}");
}

#[test]
fn the_index_lists_every_chapter_and_topic() {
    let index = read(&root().join("docs/README.md"));
    let targets = link_targets(&index);
    let mut missing = Vec::new();
    for (dir, files) in [
        ("guide", markdown_in("docs/guide")),
        ("topics", markdown_in("docs/topics")),
    ] {
        for file in files {
            let link = format!("{dir}/{}", file.file_name().unwrap().to_string_lossy());
            if !targets.contains(&link) {
                missing.push(link);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/README.md does not link {missing:?}"
    );
}

#[test]
fn every_document_with_rust_code_is_a_doctest() {
    let lib = read(&root().join("src/lib.rs"));
    let mut files = vec![root().join("README.md")];
    files.extend(markdown_in("docs/guide"));
    files.extend(markdown_in("docs/topics"));
    let mut missing = Vec::new();
    for file in files {
        // rustdoc compiles a fenced block as Rust when its info string is empty or starts with
        // `rust`; `sh`, `toml`, `text` and the like are left alone.
        let has_rust = read(&file).lines().any(|l| {
            let info = l.trim_start().strip_prefix("```").map(str::trim);
            info.is_some_and(|i| i.starts_with("rust"))
        });
        let included = format!("include_str!(\"../{}\")", name(&file));
        if has_rust && !lib.contains(&included) {
            missing.push(name(&file));
        }
    }
    assert!(
        missing.is_empty(),
        "documents with Rust code that src/lib.rs's doc_examples does not include: {missing:?}"
    );
}

#[test]
fn no_fence_is_left_without_a_language() {
    // A bare fence opening a block would be compiled as Rust by rustdoc (and read as plain
    // text by a reader): every opening fence in the compiled documents names its language.
    let mut files = vec![root().join("README.md")];
    files.extend(markdown_in("docs/guide"));
    files.extend(markdown_in("docs/topics"));
    let mut bare = Vec::new();
    for file in files {
        let mut open = false;
        for (i, line) in read(&file).lines().enumerate() {
            if let Some(info) = line.trim_start().strip_prefix("```") {
                if !open && info.trim().is_empty() {
                    bare.push(format!("{}:{}", name(&file), i + 1));
                }
                open = !open;
            }
        }
    }
    assert!(bare.is_empty(), "fences without a language: {bare:?}");
}

#[test]
fn links_are_found_in_prose_and_definitions_but_not_in_code() {
    let text = "See [a](x.md) and `[b](y.md)`.\n\n```sh\n[c](z.md)\n```\n[`d`]: ../w.md#f\n";
    assert_eq!(link_targets(text), ["../w.md#f", "x.md"]);
    let from = root().join("docs/api.md");
    assert_eq!(resolve(&from, "https://example.com/a.md"), None);
    assert_eq!(resolve(&from, "#anchor"), None);
    assert_eq!(
        resolve(&from, "guide/ci.md#x"),
        Some(root().join("docs/guide/ci.md"))
    );
}
