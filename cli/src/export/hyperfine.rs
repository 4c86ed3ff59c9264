//! `--export-hyperfine`: a result's timed runs in hyperfine's JSON export layout
//! ([`crate::hyperfine::document`]), so that tools that read hyperfine's exports read ours.

use crate::error::Result;
use crate::result::CmdResult;

use super::Exporter;
use super::json::Json;

/// hyperfine's JSON export layout.
pub(crate) struct HyperfineJson;

impl Exporter<CmdResult> for HyperfineJson {
    fn render(&self, result: &CmdResult) -> Result<String> {
        Json.render(&crate::hyperfine::document(result))
    }
}
