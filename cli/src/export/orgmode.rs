//! Emacs Org mode, as hyperfine's `--export-orgmode` writes it: `cmd`'s table
//! ([`super::markup::table`]) in Org's markup.

use super::markup::{Markup, pipe_table};

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
        let rule = format!("|{}|", vec!["---"; header.len()].join("+"));
        pipe_table(header, &rule, body)
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
