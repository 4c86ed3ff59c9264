//! A layout is a link, not a compile: the command rustc links a bench target with, captured
//! once per build (`--print link-args` with `-C save-temps`, so that the objects it names stay
//! on disk), its inputs moved to a directory of rtcompare's own, and run again with each
//! layout's code-order seed into the layout's own executable. Nothing here compiles.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

/// The linker flags of a layout: shuffle the input sections with `seed` (LLD's flag; rustc's
/// default linker on x86-64 Linux), and leave the debug information out. Debug sections are
/// not loaded and do not move code, but writing them is most of a link's time and size where
/// the bench profile keeps them (base64's `debug = 2`: 64 MB and 0.19–0.31 s a link with
/// them, 5 MB and 0.085 s without); a panic's backtrace in a layout still names functions.
pub(crate) fn layout_flags(seed: u64) -> [String; 2] {
    [
        format!("-Wl,--shuffle-sections=*={seed}"),
        "-Wl,--strip-debug".to_string(),
    ]
}

/// A link command that can be run again: the environment rustc set, the program, its
/// arguments with the output's position among them, and the directory it ran in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct LinkCommand {
    pub(crate) env: Vec<(String, String)>,
    pub(crate) program: String,
    pub(crate) args: Vec<String>,
    /// Index in `args` of the output file (the argument after `-o`).
    pub(crate) output: usize,
    pub(crate) dir: Option<String>,
}

/// A link that failed: the linker's last lines, and whether it was the section shuffle that
/// it refused (a linker other than LLD).
#[derive(Debug, Clone)]
pub(crate) struct LinkFailure {
    pub(crate) text: String,
    pub(crate) no_shuffle: bool,
}

impl LinkCommand {
    /// The command that links this build into `out` with the code order `seed` shuffles (or
    /// in rustc's own order with `None`), with rustc's environment and directory.
    pub(crate) fn command(&self, seed: Option<u64>, out: &Path) -> Command {
        let mut command = Command::new(&self.program);
        for (i, arg) in self.args.iter().enumerate() {
            if i == self.output {
                command.arg(out);
            } else {
                command.arg(arg);
            }
        }
        if let Some(seed) = seed {
            command.args(layout_flags(seed));
        }
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        command.stdin(Stdio::null()).stdout(Stdio::null());
        command
    }

    /// Runs [`command`](Self::command) through `run` (which starts it and waits, stopping it
    /// when the run ends), its stderr kept beside `out`. Errors: the linker's last lines.
    pub(crate) fn link(
        &self,
        seed: Option<u64>,
        out: &Path,
        run: impl FnOnce(Command) -> crate::error::Result<std::process::ExitStatus>,
    ) -> Result<(), LinkFailure> {
        let mut errors = out.as_os_str().to_owned();
        errors.push(".stderr");
        let errors = PathBuf::from(errors);
        let failure = |text: String| LinkFailure {
            no_shuffle: text.contains("shuffle-sections"),
            text,
        };
        let file = std::fs::File::create(&errors).map_err(|e| failure(e.to_string()))?;
        let mut command = self.command(seed, out);
        command.stderr(file);
        let status = run(command);
        let said = std::fs::read_to_string(&errors).unwrap_or_default();
        let _ = std::fs::remove_file(&errors);
        match status {
            Ok(s) if s.success() => Ok(()),
            Ok(s) => {
                let lines: Vec<&str> = said.lines().filter(|l| !l.trim().is_empty()).collect();
                let tail = lines[lines.len().saturating_sub(12)..].join("\n");
                Err(failure(format!("the linker ended with {s}: {tail}")))
            }
            Err(e) => Err(failure(e.to_string())),
        }
    }
}

/// Reads the command `--print link-args` wrote: `NAME="value"` assignments, then the program
/// and its arguments, each quoted and escaped as Rust's `Debug` writes them (with `\xNN` for a
/// byte that is not printable ASCII), and perhaps `cd "DIR" && ` before them. Errors: what is
/// not understood, in words (a form this reader does not know, text that is not UTF-8, no
/// `-o`).
pub(crate) fn parse(text: &str) -> Result<LinkCommand, String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let [line] = lines.as_slice() else {
        return Err(format!(
            "rustc printed {} link commands, not one",
            lines.len()
        ));
    };
    let mut rest = line.trim();
    let mut dir = None;
    if let Some(after) = rest.strip_prefix("cd ") {
        let (d, after) = quoted(after)?;
        dir = Some(d);
        rest = after
            .strip_prefix(" && ")
            .ok_or("a `cd` that no `&&` follows")?;
    }
    let mut env = Vec::new();
    let mut words = Vec::new();
    while !rest.is_empty() {
        if rest.starts_with('"') {
            let (w, after) = quoted(rest)?;
            words.push(w);
            rest = after.trim_start();
        } else if !words.is_empty() {
            return Err(format!("an unquoted word among the arguments: {rest:.40}"));
        } else {
            let (name, after) = rest
                .split_once('=')
                .ok_or_else(|| format!("a form this reader does not know: {rest:.40}"))?;
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!("a form this reader does not know: {rest:.40}"));
            }
            let (value, after) = quoted(after)?;
            env.push((name.to_string(), value));
            rest = after.trim_start();
        }
    }
    let mut words = words.into_iter();
    let program = words.next().ok_or("no program")?;
    let args: Vec<String> = words.collect();
    let output = args
        .iter()
        .position(|a| a == "-o")
        .map(|i| i + 1)
        .filter(|&i| i < args.len())
        .ok_or("no `-o OUTPUT` among the arguments")?;
    Ok(LinkCommand {
        env,
        program,
        args,
        output,
        dir,
    })
}

/// The string quoted at the start of `s` and what follows it. Errors: an unknown escape,
/// an unclosed quote, bytes that are not UTF-8.
fn quoted(s: &str) -> Result<(String, &str), String> {
    let body = s.strip_prefix('"').ok_or("a quote expected")?;
    let mut bytes = Vec::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let text = String::from_utf8(bytes).map_err(|_| "a path that is not UTF-8")?;
                return Ok((text, &body[i + 1..]));
            }
            '\\' => {
                let (_, e) = chars.next().ok_or("an escape at the end")?;
                let byte = |b: u8, bytes: &mut Vec<u8>| bytes.push(b);
                match e {
                    '\\' | '"' | '\'' => byte(e as u8, &mut bytes),
                    'n' => byte(b'\n', &mut bytes),
                    't' => byte(b'\t', &mut bytes),
                    'r' => byte(b'\r', &mut bytes),
                    '0' => byte(0, &mut bytes),
                    'x' => {
                        let hex: String =
                            (0..2).filter_map(|_| chars.next().map(|x| x.1)).collect();
                        let b = u8::from_str_radix(&hex, 16).map_err(|_| "a bad \\x escape")?;
                        byte(b, &mut bytes);
                    }
                    'u' => {
                        let mut hex = String::new();
                        for (_, h) in chars.by_ref() {
                            match h {
                                '{' => {}
                                '}' => break,
                                h => hex.push(h),
                            }
                        }
                        let c = u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or("a bad \\u escape")?;
                        bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                    }
                    other => return Err(format!("an escape this reader does not know: \\{other}")),
                }
            }
            c => bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    Err("an unclosed quote".into())
}

/// Makes `command` (as rustc printed it when it linked `exe`) independent of the files rustc
/// leaves in `exe`'s directory for now: the bench crate's objects (`STEM.*.o`) and rustc's
/// temporary directories there (`rustc*`, which hold `symbols.o`) are copied into `keep`
/// (emptied first) and the arguments rewritten to the copies. The dependencies' libraries
/// are named by their hash and stay where cargo keeps them. Errors: a copy that fails, an
/// argument that still names a file of the build's own after the rewrite.
pub(crate) fn relocate(
    mut command: LinkCommand,
    exe: &Path,
    keep: &Path,
) -> Result<LinkCommand, String> {
    let deps = exe.parent().ok_or("an executable without a directory")?;
    let stem = exe
        .file_name()
        .and_then(|s| s.to_str())
        .ok_or("an executable without a name")?;
    let _ = std::fs::remove_dir_all(keep);
    std::fs::create_dir_all(keep).map_err(|e| format!("cannot create {}: {e}", keep.display()))?;
    let temps = temp_dirs(&command, deps);
    for t in &temps {
        let name = t.file_name().unwrap_or_default();
        copy_dir(t, &keep.join(name))?;
    }
    let output = command.output;
    for (i, arg) in command.args.iter_mut().enumerate() {
        if i == output {
            continue;
        }
        let path = Path::new(arg.as_str());
        let own = path.parent() == Some(deps)
            && path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{stem}.")));
        if own {
            let to = keep.join(path.file_name().unwrap_or_default());
            std::fs::copy(path, &to).map_err(|e| format!("cannot copy {arg}: {e}"))?;
            *arg = to.to_string_lossy().into_owned();
            continue;
        }
        for t in &temps {
            let from = t.to_string_lossy();
            if arg.contains(from.as_ref()) {
                let to = keep.join(t.file_name().unwrap_or_default());
                *arg = arg.replace(from.as_ref(), &to.to_string_lossy());
            }
        }
    }
    let still = command.args.iter().enumerate().find(|(i, a)| {
        *i != output
            && (a.contains(&format!("{}/{stem}.", deps.display()))
                || temps
                    .iter()
                    .any(|t| a.contains(t.to_string_lossy().as_ref())))
    });
    if let Some((_, a)) = still {
        return Err(format!("an argument names a file rustc removes: {a}"));
    }
    Ok(command)
}

/// rustc's temporary directories in `deps` that the command names (`deps/rustcXXXXXX`).
fn temp_dirs(command: &LinkCommand, deps: &Path) -> BTreeSet<PathBuf> {
    let prefix = format!("{}/rustc", deps.display());
    command
        .args
        .iter()
        .filter_map(|a| {
            let at = a.find(&prefix)?;
            let tail = &a[at + prefix.len()..];
            let end = tail.find('/').unwrap_or(tail.len());
            Some(PathBuf::from(format!("{prefix}{}", &tail[..end])))
        })
        .filter(|p| p.is_dir())
        .collect()
}

/// Copies directory `from` into `to`, recursively. Errors: the first copy that fails.
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries.flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| format!("cannot copy {}: {e}", src.display()))?;
        }
    }
    Ok(())
}

/// Removes what `-C save-temps` left in `exe`'s directory for `exe` (its objects and bitcode,
/// `STEM.*` but the dep-info `STEM.d` cargo reads) and the temporary directories rustc made
/// there during the build (`rustc*`, `rmeta*` changed in `during`), so that a capture costs
/// the target directory nothing beyond its own copies.
pub(crate) fn clean_save_temps(exe: &Path, during: std::ops::RangeInclusive<SystemTime>) {
    let (Some(deps), Some(stem)) = (exe.parent(), exe.file_name().and_then(|s| s.to_str())) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(deps) else {
        return;
    };
    let dep_info = format!("{stem}.d");
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(n) = name.to_str() else { continue };
        let path = entry.path();
        let ours = || {
            entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| during.contains(&t))
        };
        if n.starts_with(&format!("{stem}.")) && n != dep_info && path.is_file() {
            let _ = std::fs::remove_file(&path);
        } else if (n.starts_with("rustc") || n.starts_with("rmeta")) && path.is_dir() && ours() {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustcs_printed_command_is_read_back() {
        let text = "LC_ALL=\"C\" PATH=\"/a:/b\" VSLANG=\"1033\" \"cc\" \"-m64\" \
                    \"/t/deps/rustcAB12/symbols.o\" \"/t/deps/b-1.b.x-cgu.0.rcgu.o\" \
                    \"-Wl,--as-needed\" \"/p/with \\\"quote\\\" and \\xc3\\xa9\" \"-o\" \
                    \"/t/deps/b-1\" \"-nodefaultlibs\"\n";
        let c = parse(text).unwrap();
        assert_eq!(c.program, "cc");
        assert_eq!(c.env.len(), 3);
        assert_eq!(c.env[1], ("PATH".into(), "/a:/b".into()));
        assert_eq!(c.args[4], "/p/with \"quote\" and é");
        assert_eq!(c.args[c.output], "/t/deps/b-1");
        assert_eq!(c.dir, None);
        let c = parse("cd \"/w\" && \"cc\" \"-o\" \"x\"").unwrap();
        assert_eq!(c.dir.as_deref(), Some("/w"));
        let cmd = c.command(Some(7), Path::new("/out/y"));
        let args: Vec<_> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            args,
            [
                "-o",
                "/out/y",
                "-Wl,--shuffle-sections=*=7",
                "-Wl,--strip-debug"
            ]
        );
    }

    #[test]
    fn what_cannot_be_read_is_said() {
        for bad in [
            "",
            "\"cc\" \"-m64\"",
            "env -u X \"cc\" \"-o\" \"x\"",
            "[\"cc\"] \"cc\" \"-o\" \"x\"",
            "\"cc\" \"-o\" \"x\" unquoted",
            "\"cc\" \"-o\" \"\\xff\"",
            "\"cc\" \"-o",
            "\"a\" \"-o\" \"x\"\n\"b\" \"-o\" \"y\"",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
