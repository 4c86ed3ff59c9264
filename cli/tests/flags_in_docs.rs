//! The documentation names only flags that exist: every `rtcompare SUBCOMMAND … --flag` in
//! README.md, HOWTO.md and docs/**/*.md (in code blocks and in inline code) is held to
//! `rtcompare SUBCOMMAND --help`, and every `cargo bench … -- --flag` to the bench harness's
//! own parser. A flag renamed, hidden (an old spelling kept as an alias) or removed fails here
//! until the documents say the new one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_rtcompare");

/// The workspace's root, or `None` in a packaged rtcompare-cli, which has no documents around
/// it.
fn root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    root.join("HOWTO.md").is_file().then_some(root)
}

/// README.md, HOWTO.md and every Markdown file under docs/.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md"), root.join("HOWTO.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The pieces of `text` that can hold a command line: each line of a fenced code block (with
/// its `\` continuations joined), and each inline code span elsewhere.
fn snippets(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            let (start, mut joined) = pending.take().unwrap_or((n, String::new()));
            match line.trim_end().strip_suffix('\\') {
                Some(head) => {
                    joined.push_str(head);
                    joined.push(' ');
                    pending = Some((start, joined));
                }
                None => {
                    joined.push_str(line);
                    out.push((start, joined));
                }
            }
        } else {
            out.extend(
                line.split('`')
                    .skip(1)
                    .step_by(2)
                    .map(|s| (n, s.to_string())),
            );
        }
    }
    out
}

/// Where a command line's own words end: a pipe, `&&`, `;`, or a comment.
fn command_part(s: &str) -> &str {
    let end = ["|", "&&", ";", " #"]
        .iter()
        .filter_map(|stop| s.find(stop))
        .min()
        .unwrap_or(s.len());
    &s[..end]
}

/// The long flags (`--name`, without any `=value`) among `words`.
fn flags<'a>(words: impl Iterator<Item = &'a str>) -> Vec<String> {
    words
        .filter_map(|w| {
            let w = w.trim_matches(|c: char| c == '"' || c == '\'' || c == ',' || c == ')');
            let name = w.split('=').next()?;
            let rest = name.strip_prefix("--")?;
            let ok = rest.starts_with(|c: char| c.is_ascii_lowercase())
                && rest
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            ok.then(|| name.to_string())
        })
        .collect()
}

/// What the documents name: per subcommand of `rtcompare`, its flags with where each is
/// named; and the harness's flags after `cargo bench … --`.
#[derive(Default)]
struct Named {
    rtcompare: BTreeMap<String, BTreeMap<String, String>>,
    harness: BTreeMap<String, String>,
}

fn collect(root: &Path) -> Named {
    let mut named = Named::default();
    for doc in documents(root) {
        let text = std::fs::read_to_string(&doc).unwrap();
        let file = doc.strip_prefix(root).unwrap_or(&doc).display().to_string();
        for (line, snippet) in snippets(&text) {
            let at = format!("{file}:{line}");
            let snippet = command_part(&snippet);
            let words: Vec<&str> = snippet.split_whitespace().collect();
            for (i, w) in words.iter().enumerate() {
                if *w == "rtcompare"
                    && let Some(sub) = words.get(i + 1)
                    && sub.starts_with(|c: char| c.is_ascii_lowercase())
                    && sub.chars().all(|c| c.is_ascii_lowercase())
                {
                    // `bench`'s words after `--` are its filter.
                    let args = words[i + 2..].iter().take_while(|w| **w != "--");
                    let entry = named.rtcompare.entry(sub.to_string()).or_default();
                    entry.entry(String::new()).or_insert_with(|| at.clone());
                    for flag in flags(args.copied()) {
                        entry.entry(flag).or_insert_with(|| at.clone());
                    }
                }
                if *w == "cargo"
                    && words.get(i + 1) == Some(&"bench")
                    && let Some(dashes) = words[i..].iter().position(|w| *w == "--")
                {
                    for flag in flags(words[i + dashes + 1..].iter().copied()) {
                        named.harness.entry(flag).or_insert_with(|| at.clone());
                    }
                }
            }
        }
    }
    named
}

/// The long flags `rtcompare ARGS --help` lists.
fn help_flags(args: &[&str]) -> Option<BTreeSet<String>> {
    let out = Command::new(BIN).args(args).arg("--help").output().unwrap();
    out.status.success().then(|| {
        flags(String::from_utf8_lossy(&out.stdout).split_whitespace())
            .into_iter()
            .collect()
    })
}

#[test]
fn every_subcommand_and_flag_the_documents_name_exists() {
    let Some(root) = root() else { return };
    let named = collect(&root);
    assert!(
        named.rtcompare.contains_key("cmd") && named.rtcompare.contains_key("bench"),
        "the documents name `rtcompare cmd` and `rtcompare bench`: {:?}",
        named.rtcompare.keys().collect::<Vec<_>>()
    );
    let mut wrong = Vec::new();
    for (sub, flags) in &named.rtcompare {
        let Some(known) = help_flags(&[sub]) else {
            wrong.push(format!("{}: `rtcompare {sub}` is no subcommand", flags[""]));
            continue;
        };
        for (flag, at) in flags.iter().filter(|(f, _)| !f.is_empty()) {
            if !known.contains(flag) {
                wrong.push(format!(
                    "{at}: `rtcompare {sub}` has no {flag} in its --help"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_harness_flag_the_documents_name_exists() {
    let Some(root) = root() else { return };
    let named = collect(&root);
    assert!(
        named.harness.contains_key("--baseline"),
        "the documents name `cargo bench … -- --baseline`: {:?}",
        named.harness
    );
    let mut wrong = Vec::new();
    for (flag, at) in &named.harness {
        let parsed = rtcompare::support::bench::Args::parse([flag.clone()]);
        if let Err(e) = parsed
            && e.to_string().contains("unknown flag")
        {
            wrong.push(format!("{at}: the bench harness refuses {flag}: {e}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_collector_reads_code_blocks_and_inline_code() {
    let text = "Run `rtcompare cmd --runs 22 a b` or:\n```sh\nrtcompare bench --baseline main \\\n  --json out.json -- parse/ --exact\ncargo bench --bench b -- --baseline HEAD~1 --budget 0 | tee x --not-a-flag\n```\n";
    let s = snippets(text);
    assert_eq!(s[0], (1, "rtcompare cmd --runs 22 a b".to_string()));
    assert_eq!(s[1].0, 3);
    assert!(s[1].1.contains("--json out.json"), "{s:?}");
    let words: Vec<&str> = command_part(&s[2].1).split_whitespace().collect();
    assert_eq!(
        flags(words.into_iter()),
        ["--bench", "--baseline", "--budget"]
    );
    assert_eq!(
        flags(["--x=1", "'--y'", "--", "-z", "--Bad"].into_iter()),
        ["--x", "--y"]
    );
}
