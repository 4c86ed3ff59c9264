//! Emacs Org mode, as hyperfine's `--export-orgmode` writes it: `cmd`'s table
//! ([`super::markup::table`]) in Org's markup.

use std::fmt::Write as _;

use super::markup::{Markup, pipe_row};

/// Org mode.
pub(crate) struct Orgmode;

impl Markup for Orgmode {
    fn code(&self, text: &str) -> String {
        format!("={text}=")
    }

    fn item(&self) -> &'static str {
        "-"
    }

    fn bold(&self, text: &str) -> String {
        format!("*{text}*")
    }

    fn grid(&self, _left: &[bool], header: &[String], body: &[Vec<String>]) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{}", pipe_row(header));
        let _ = writeln!(s, "|{}|", vec!["---"; header.len()].join("+"));
        for row in body {
            let _ = writeln!(s, "{}", pipe_row(row));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_and_grid() {
        assert_eq!(Orgmode.code("a"), "=a=");
        let header = ["h1".to_string(), "h2".to_string()];
        let body = [vec!["x".to_string(), "1".to_string()]];
        assert_eq!(
            Orgmode.grid(&[true, false], &header, &body),
            "| h1 | h2 |\n|---+---|\n| x | 1 |\n"
        );
    }
}
