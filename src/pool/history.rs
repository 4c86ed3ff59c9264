//! A comparison's history across invocations: each pooled result appended to a JSON-lines
//! file, and the earlier results whose intervals exclude the new one named, because then the
//! machine changed between runs by more than either run's interval admits.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::stats::Pooled;

/// How many of the latest earlier results a new one is checked against.
pub(crate) const HISTORY_CHECKED: usize = 10;

/// One result of a comparison, as its history file keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Entry {
    /// When it was recorded, in seconds since the Unix epoch (UTC).
    pub unix_s: u64,
    /// Its pooled δ (fraction; positive: A needs less time).
    pub delta: f64,
    /// Lower end of its interval (fraction).
    pub low: f64,
    /// Upper end of its interval (fraction).
    pub high: f64,
    /// The interval's level.
    pub level: f64,
}

impl Entry {
    /// An entry stamped now: δ and its interval `[low, high]` at `level` (fractions, in the
    /// sign convention of the comparison's kind).
    pub fn now(delta: f64, low: f64, high: f64, level: f64) -> Entry {
        Entry {
            unix_s: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            delta,
            low,
            high,
            level,
        }
    }

    /// Whether the two intervals share no point: at least one of them missed the difference
    /// as it stood, or the difference itself moved between the runs.
    pub fn excludes(&self, other: &Entry) -> bool {
        self.high < other.low || other.high < self.low
    }
}

impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let day = self.unix_s % 86_400;
        write!(
            f,
            "A's change {} [{}, {}] at {:02}:{:02} UTC",
            crate::display::SignedPct(-self.delta),
            crate::display::SignedPct(-self.high),
            crate::display::SignedPct(-self.low),
            day / 3_600,
            day % 3_600 / 60
        )
    }
}

/// What [`record`] found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Recorded {
    /// The file the result was appended to.
    pub path: PathBuf,
    /// The result as recorded.
    pub entry: Entry,
    /// Results recorded before it (the latest `HISTORY_CHECKED` (10)) whose intervals exclude
    /// its interval, oldest first.
    pub disagreeing: Vec<Entry>,
}

impl Recorded {
    /// The sentence for a summary when earlier runs disagree (`None` when none does): the
    /// latest disagreeing run, and what to do.
    pub fn warning(&self) -> Option<String> {
        let last = self.disagreeing.last()?;
        Some(format!(
            "This comparison gave {last}, and now {}: the intervals exclude each other ({} of \
             the last {} runs), so the machine changes between runs by more than one run's \
             interval admits and no single run describes it: keep each run's JSON and combine \
             them with `rtcompare combine`. History: {}",
            self.entry,
            self.disagreeing.len(),
            HISTORY_CHECKED,
            self.path.display()
        ))
    }
}

/// Appends `pooled` to the history file `dir/NAME.jsonl` (creating `dir`) and returns the
/// earlier results, among the latest `HISTORY_CHECKED` (10), whose intervals exclude it. Lines
/// the file holds that are not entries (another tool's, a cut-off write) are skipped.
///
/// Errors: [`Error::InvalidOption`] for a name that is empty or holds a path separator;
/// [`Error::Io`] when the directory or the file cannot be created, read or written.
pub fn record(dir: &Path, name: &str, pooled: &Pooled) -> Result<Recorded> {
    append(
        dir,
        name,
        Entry::now(pooled.delta, pooled.low, pooled.high, pooled.level),
    )
}

/// [`record`] for any interval: appends `entry` to `dir/NAME.jsonl` and returns the earlier
/// entries (the latest `HISTORY_CHECKED` (10)) whose intervals exclude it. Errors: those of
/// [`record`].
pub fn append(dir: &Path, name: &str, entry: Entry) -> Result<Recorded> {
    if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
        return Err(Error::invalid_option(
            "name",
            format!("a history name is a file name without a path separator; got {name:?}"),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let path = dir.join(format!("{name}.jsonl"));
    let earlier = match read(&path) {
        Ok(entries) => entries,
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Vec::new()
        }
        Err(e) => return Err(e),
    };
    let line = serde_json::to_string(&entry).map_err(Error::json)?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| writeln!(f, "{line}"))
        .map_err(|e| Error::io(&path, e))?;
    let disagreeing = earlier[earlier.len().saturating_sub(HISTORY_CHECKED)..]
        .iter()
        .filter(|e| e.excludes(&entry))
        .copied()
        .collect();
    Ok(Recorded {
        path,
        entry,
        disagreeing,
    })
}

/// Every entry of the history file at `path`, oldest first; lines that are not entries are
/// skipped. Errors: [`Error::Io`] when the file cannot be read.
pub fn read(path: &Path) -> Result<Vec<Entry>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

/// A history name from any text (commands, benchmark names): letters, digits, `-`, `_` and
/// `.` kept, every other character `_`, at most 80 characters, and a hash of the whole text
/// after it, so two texts that differ only in what was replaced or cut keep apart.
pub fn file_name(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    // FNV-1a: stable across builds and platforms, unlike std's hasher.
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{kept}-{:08x}", hash as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Estimate, combine};

    fn pooled(center: f64) -> Pooled {
        let e: Vec<Estimate> = [center - 0.002, center, center + 0.002]
            .iter()
            .map(|&d| Estimate::from_interval(d, d - 0.001, d + 0.001, 0.95).unwrap())
            .collect();
        combine(&e, 0.95).unwrap()
    }

    #[test]
    fn a_result_that_excludes_an_earlier_one_is_named() {
        let dir = std::env::temp_dir().join(format!("rtcompare-history-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = record(&dir, "sort", &pooled(0.12)).unwrap();
        assert!(first.disagreeing.is_empty() && first.warning().is_none());
        // Close to the first: the intervals overlap.
        let second = record(&dir, "sort", &pooled(0.121)).unwrap();
        assert!(second.disagreeing.is_empty(), "{second:?}");
        // Far from both: both named, the sentence says what to do.
        let third = record(&dir, "sort", &pooled(0.07)).unwrap();
        assert_eq!(third.disagreeing.len(), 2, "{third:?}");
        let warning = third.warning().unwrap();
        assert!(warning.contains("rtcompare combine"), "{warning}");
        assert!(warning.contains("gave A's change −12.1 %"), "{warning}");
        // A line that is not an entry is skipped, not an error.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&third.path)
            .and_then(|mut f| writeln!(f, "not json"))
            .unwrap();
        assert_eq!(
            record(&dir, "sort", &pooled(0.07))
                .unwrap()
                .disagreeing
                .len(),
            2
        );
        let text = std::fs::read_to_string(&third.path).unwrap();
        assert_eq!(text.lines().count(), 5);
        assert!(matches!(
            record(&dir, "../escape", &pooled(0.1)),
            Err(Error::InvalidOption { name: "name", .. })
        ));
        // A directory that cannot be created (a file stands in its way).
        let blocked = dir.join("sort.jsonl").join("below");
        assert!(matches!(
            record(&blocked, "x", &pooled(0.1)),
            Err(Error::Io { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn file_names_keep_apart_texts_that_differ_only_in_what_was_replaced() {
        let a = file_name("md5sum a.bin vs md5sum b.bin");
        let b = file_name("md5sum a.bin vs md5sum b/bin");
        assert!(a.starts_with("md5sum_a.bin_vs_md5sum_b"), "{a}");
        assert_ne!(a, b);
        assert!(!file_name("../../etc").contains('/'));
        assert!(file_name(&"x".repeat(500)).len() <= 80 + 9);
    }
}
