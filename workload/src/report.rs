//! [`StructureReport`]: the core's report of a structure comparison with its [`Record`].

use std::fmt;

use rtcompare::Report;
use serde::{Deserialize, Serialize};

use crate::record::Record;
use crate::{Error, Result};

/// What [`compare`](crate::compare()) returns: the core's [`Report`] of the comparison, and
/// the [`Record`] of the workload it ran.
///
/// The JSON is the report's, with the record under one more top-level key, `workload`, as
/// reports of structure comparisons have always been written: [`from_json`](Self::from_json)
/// reads them, and the core's [`Report::from_json`] reads the same text as the bare report.
/// The `Display` is the report's, with the record's one-line
/// [`summary`](Record::summary) below the medians.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StructureReport {
    /// What was run: the spec, the stream, the fill order and each structure's memory.
    #[serde(rename = "workload")]
    pub record: Record,
    /// The comparison, as [`rtcompare::compare()`] reports any other.
    #[serde(flatten)]
    pub report: Report,
}

impl StructureReport {
    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string_pretty(self).map_err(json)
    }

    /// Reads a structure comparison's report from JSON. Errors: malformed JSON, a different
    /// layout, or a report without a `workload` record ([`Error::Core`] holding
    /// [`rtcompare::Error::Json`]).
    pub fn from_json(s: &str) -> Result<StructureReport> {
        serde_json::from_str(s).map_err(json)
    }
}

/// serde_json's error as the core's [`rtcompare::Error::Json`], as the core's reports give it.
fn json(error: serde_json::Error) -> Error {
    Error::Core(rtcompare::Error::Json {
        source: rtcompare::JsonSource::from(error),
    })
}

impl fmt::Display for StructureReport {
    /// The report's summary, with the record's line (which workload was measured) below the
    /// medians, or first when the report has no line for B's median.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.report.to_string();
        let line = self.record.summary.as_str();
        if line.is_empty() {
            return f.write_str(&text);
        }
        let b_median = format!("B ({}): ", self.report.name_b);
        let mut placed = false;
        let mut out = String::with_capacity(text.len() + line.len() + 1);
        for l in text.split_inclusive('\n') {
            out.push_str(l);
            if !placed && l.starts_with(&b_median) {
                out.push_str(line);
                out.push('\n');
                placed = true;
            }
        }
        if !placed {
            writeln!(f, "{line}")?;
        }
        f.write_str(&out)
    }
}
