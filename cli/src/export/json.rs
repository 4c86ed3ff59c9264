//! JSON: any result as pretty JSON with a final newline (`cmd`'s result, `bench`'s and
//! `combine`'s JSON, the self-test's record), the one place the tool encodes one.

use serde::Serialize;

use crate::error::{CliError, Result};

use super::Exporter;

/// The JSON exporter.
pub(crate) struct Json;

impl<T: Serialize + ?Sized> Exporter<T> for Json {
    /// Errors: [`CliError::Stats`] with the encoder's reason (no result of this tool causes
    /// one: every key is a string).
    fn render(&self, data: &T) -> Result<String> {
        serde_json::to_string_pretty(data)
            .map(|text| text + "\n")
            .map_err(|e| CliError::Stats(rtcompare::Error::Json { source: e.into() }))
    }
}
