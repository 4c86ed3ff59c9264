//! `--export-csv`: hyperfine's columns (`command,mean,stddev,median,user,system,min,max`,
//! seconds, the numbers of [`crate::hyperfine::document`]), then `ratio`, `low`, `high` and
//! `verdict`, empty on A's row (the reference).

use std::fmt::Write as _;

use crate::error::Result;
use crate::result::CmdResult;

use super::Exporter;
use super::markup::rows;

/// The CSV exporter.
pub(crate) struct Csv;

impl Exporter<CmdResult> for Csv {
    fn render(&self, result: &CmdResult) -> Result<String> {
        Ok(csv(result))
    }
}

/// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.into()
    }
}

/// The `--export-csv` text of `result`: a header and one line per command.
pub(crate) fn csv(result: &CmdResult) -> String {
    let mut s =
        String::from("command,mean,stddev,median,user,system,min,max,ratio,low,high,verdict\n");
    for row in rows(result) {
        let h = &row.stats;
        // hyperfine writes a missing σ (one run) as 0.
        let numbers = [
            h.mean,
            h.stddev.unwrap_or(0.0),
            h.median,
            h.user,
            h.system,
            h.min,
            h.max,
        ];
        let mut fields = vec![csv_field(&h.command)];
        fields.extend(numbers.iter().map(f64::to_string));
        match &row.comparison {
            None => fields.extend([String::new(), String::new(), String::new(), String::new()]),
            Some(c) => {
                let (low, high) = c
                    .interval
                    .map_or((String::new(), String::new()), |(l, h, _)| {
                        (l.to_string(), h.to_string())
                    });
                fields.extend([c.ratio.to_string(), low, high, c.outcome.key().into()]);
            }
        }
        let _ = writeln!(s, "{}", fields.join(","));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_as_rfc_4180_asks() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
