//! Every subcommand and flag the documents name is one the tool has: the `rtcompare` command
//! lines in README.md, the guide (docs/guide/) and the topics (docs/topics/), and the flags the
//! README and the guide name on their own, are held to `rtcompare --help` and each
//! subcommand's `--help`. A flag renamed or hidden in the tool fails here until the documents
//! follow.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The flags the bench target itself takes after `cargo bench -- `, beside `rtcompare bench`'s
/// (libtest's and criterion's, which the harness accepts).
const HARNESS: [&str; 4] = ["--list", "--output-format", "--bench", "--nocapture"];

/// criterion's saved-baseline flags, which the documents name as what the bench target
/// refuses (with what to do instead).
const REFUSED: [&str; 2] = ["--save-baseline", "--load-baseline"];

/// cargo's and libtest's own flags, which the documents name beside the tool's.
const CARGO: [&str; 12] = [
    "--release",
    "--test",
    "--test-threads",
    "--benches",
    "--all-targets",
    "--example",
    "--dev",
    "--git",
    "--rename",
    "--path",
    "--features",
    "--open",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `rtcompare ARGS --help`, as text.
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rtcompare"))
        .args(args)
        .arg("--help")
        .output()
        .expect("the rtcompare binary runs");
    assert!(out.status.success(), "rtcompare {args:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands `rtcompare --help` lists.
fn subcommands() -> BTreeSet<String> {
    let text = help(&[]);
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// The flags one `--help` text shows: every `-x` and `--name` on its option lines, and the
/// visible aliases.
fn flags_in(help: &str) -> BTreeSet<String> {
    let mut flags = BTreeSet::new();
    for line in help.lines() {
        let trimmed = line.trim_start();
        let option_line = trimmed.starts_with('-');
        for word in trimmed.split([' ', ',', '[', ']', '=', '<']) {
            let is_flag = word.starts_with('-')
                && word.len() > 1
                && word
                    .trim_start_matches('-')
                    .starts_with(|c: char| c.is_ascii_alphabetic());
            if is_flag && (option_line || line.contains("alias")) {
                flags.insert(word.to_string());
            }
        }
    }
    flags
}

/// Splits a shell line into words, each with whether it was quoted. Only what the documents
/// use: single and double quotes, and a `#` comment.
fn words(line: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let (mut word, mut quoted, mut quote) = (String::new(), false, None::<char>);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                quoted = true;
            }
            (None, '#') if word.is_empty() => break,
            (None, c) if c.is_whitespace() => {
                if !word.is_empty() || quoted {
                    out.push((std::mem::take(&mut word), quoted));
                }
                quoted = false;
            }
            (None, c) => word.push(c),
        }
    }
    if !word.is_empty() || quoted {
        out.push((word, quoted));
    }
    out
}

/// The code of a document: each line of its `sh` blocks and each inline code span of its
/// prose, with its line number (a paragraph's first line for a span, since a span may run
/// over a line break).
fn code_of(text: &str) -> Vec<(usize, String)> {
    let (mut out, mut block) = (Vec::new(), None::<String>);
    let mut paragraph: Option<(usize, String)> = None;
    let flush = |paragraph: &mut Option<(usize, String)>, out: &mut Vec<(usize, String)>| {
        if let Some((first, joined)) = paragraph.take() {
            for span in joined.split('`').skip(1).step_by(2) {
                out.push((first, span.to_string()));
            }
        }
    };
    for (i, line) in text.lines().enumerate() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            flush(&mut paragraph, &mut out);
            block = match block {
                None => Some(info.trim().to_string()),
                Some(_) => None,
            };
            continue;
        }
        match &block {
            Some(lang) if lang == "sh" => out.push((i + 1, line.to_string())),
            Some(_) => {}
            None if line.trim().is_empty() => flush(&mut paragraph, &mut out),
            None => match &mut paragraph {
                Some((_, joined)) => {
                    joined.push(' ');
                    joined.push_str(line.trim());
                }
                None => paragraph = Some((i + 1, line.trim().to_string())),
            },
        }
    }
    flush(&mut paragraph, &mut out);
    out
}

/// A flag as the help shows it: `--fail-on-regression=5%` is `--fail-on-regression`.
fn bare(flag: &str) -> &str {
    flag.split('=').next().unwrap_or(flag)
}

/// What is wrong with one line of code: a subcommand the tool lacks, or a flag its subcommand
/// (or, after `cargo bench … --`, the bench target) does not take.
fn check_line(
    line: &str,
    commands: &BTreeSet<String>,
    helps: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let words = words(line);
    let mut problems = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let (word, quoted) = &words[i];
        let start = if !quoted && word == "rtcompare" {
            match words.get(i + 1) {
                Some((sub, false)) if commands.contains(sub) => Some(sub.clone()),
                Some((sub, false)) if sub.chars().all(|c| c.is_ascii_lowercase()) => {
                    problems.push(format!("`rtcompare {sub}` is no subcommand"));
                    None
                }
                _ => None,
            }
        } else if !quoted && word == "bench" && i > 0 && words[i - 1].0 == "cargo" {
            // The bench target's own flags come after `--`.
            let dashes = words[i..].iter().position(|(w, q)| w == "--" && !q);
            dashes.map(|d| {
                i += d;
                "bench".to_string()
            })
        } else {
            None
        };
        let Some(sub) = start else {
            i += 1;
            continue;
        };
        let known = &helps[&sub];
        i += 1;
        while let Some((word, quoted)) = words.get(i) {
            if !quoted && ["|", ">", "&&", ";", "||", "\\"].contains(&word.as_str()) {
                break;
            }
            let flag = bare(word);
            let is_flag = !quoted && flag.starts_with('-') && flag != "-" && flag != "--";
            if is_flag
                && !known.contains(flag)
                && !(sub == "bench" && (HARNESS.contains(&flag) || REFUSED.contains(&flag)))
            {
                problems.push(format!("`rtcompare {sub}` has no {flag}"));
            }
            i += 1;
        }
    }
    problems
}

fn documents() -> Vec<(PathBuf, bool)> {
    let mut files = vec![(root().join("README.md"), true)];
    for (dir, whole) in [("docs/guide", true), ("docs/topics", false)] {
        let mut these: Vec<PathBuf> = fs::read_dir(root().join(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        these.sort();
        files.extend(these.into_iter().map(|p| (p, whole)));
    }
    files
}

#[test]
fn every_subcommand_and_flag_in_the_documents_is_in_the_help() {
    // Outside the workspace (a packaged rtcompare-cli) there are no documents to check.
    if !root().join("docs/guide").is_dir() {
        return;
    }
    let commands = subcommands();
    let helps: BTreeMap<String, BTreeSet<String>> = commands
        .iter()
        .map(|c| (c.clone(), flags_in(&help(&[c]))))
        .collect();
    let every: BTreeSet<&str> = helps
        .values()
        .flatten()
        .map(String::as_str)
        .chain(HARNESS)
        .chain(REFUSED)
        .chain(CARGO)
        .collect();
    let mut problems = Vec::new();
    for (file, whole) in documents() {
        let shown = file.strip_prefix(root()).unwrap().display().to_string();
        for (line, code) in code_of(&fs::read_to_string(&file).unwrap()) {
            for p in check_line(&code, &commands, &helps) {
                problems.push(format!("{shown}:{line}: {p}"));
            }
            // A flag named on its own (`--budget 0`, `-r/--runs N`) in the README and the
            // guide must be some subcommand's, the bench target's or cargo's.
            let alone = code.starts_with('-') && !code.starts_with("-- ");
            if whole && alone {
                for flag in code.split_whitespace().next().unwrap().split('/') {
                    let flag = bare(flag);
                    if flag.len() > 1 && !every.contains(flag) {
                        problems.push(format!("{shown}:{line}: no subcommand has {flag}"));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_shell_line_splits_into_words_and_quotes() {
    let w = words("rtcompare cmd -r 20 './old --input big' \"b c\" # comment");
    let texts: Vec<&str> = w.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        texts,
        ["rtcompare", "cmd", "-r", "20", "./old --input big", "b c"]
    );
    assert!(w[4].1 && !w[2].1);
    let helps = BTreeMap::from([(
        "cmd".to_string(),
        BTreeSet::from(["-r".to_string(), "--runs".to_string()]),
    )]);
    let commands = BTreeSet::from(["cmd".to_string()]);
    assert!(check_line("rtcompare cmd -r 5 './a --nope' b", &commands, &helps).is_empty());
    assert_eq!(
        check_line("rtcompare cmd --nope a b", &commands, &helps),
        ["`rtcompare cmd` has no --nope"]
    );
    assert_eq!(
        check_line("rtcompare frob", &commands, &helps),
        ["`rtcompare frob` is no subcommand"]
    );
}

#[test]
fn a_code_span_may_run_over_a_line_break() {
    let code = code_of("Run `rtcompare cmd\n--runs 5` here.\n\n```sh\nrtcompare bench\n```\n");
    assert_eq!(
        code,
        [
            (1, "rtcompare cmd --runs 5".to_string()),
            (5, "rtcompare bench".to_string())
        ]
    );
}

#[test]
fn help_lines_give_their_flags() {
    let text = "Options:\n  -r, --runs <N>\n      Exactly N\n      --threshold <PCT>\n          \
                [alias: --margin]\n  -i, --ignore-failure[=<CODES>]\n  -N\n";
    let flags = flags_in(text);
    for f in [
        "-r",
        "--runs",
        "--threshold",
        "--margin",
        "-i",
        "--ignore-failure",
        "-N",
    ] {
        assert!(flags.contains(f), "{f} in {flags:?}");
    }
}
