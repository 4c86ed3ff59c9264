//! AsciiDoc, as hyperfine's `--export-asciidoc` writes it: `cmd`'s table
//! ([`super::markup::table`]) in AsciiDoc's markup.

use std::fmt::Write as _;

use super::markup::Markup;

/// AsciiDoc.
pub(crate) struct Asciidoc;

impl Markup for Asciidoc {
    fn code(&self, text: &str) -> String {
        format!("`+{text}+`")
    }

    fn item(&self) -> &'static str {
        "*"
    }

    fn bold(&self, text: &str) -> String {
        format!("*{text}*")
    }

    fn grid(&self, left: &[bool], header: &[String], body: &[Vec<String>]) -> String {
        let mut s = String::new();
        let cols: Vec<&str> = left.iter().map(|&l| if l { "<" } else { ">" }).collect();
        let _ = writeln!(s, "[cols=\"{}\", options=\"header\"]", cols.join(","));
        let _ = writeln!(s, "|===");
        for row in std::iter::once(header).chain(body.iter().map(Vec::as_slice)) {
            let _ = writeln!(s, "| {}", row.join(" | "));
        }
        let _ = writeln!(s, "|===");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid() {
        let header = ["h1".to_string(), "h2".to_string()];
        let body = [vec!["x".to_string(), "1".to_string()]];
        assert_eq!(
            Asciidoc.grid(&[true, false], &header, &body),
            "[cols=\"<,>\", options=\"header\"]\n|===\n| h1 | h2\n| x | 1\n|===\n"
        );
    }
}
