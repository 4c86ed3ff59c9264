//! Markdown, as hyperfine's `--export-markdown` writes it: `cmd`'s table
//! ([`super::markup::table`]); `bench` and `combine` write their own summaries with it.

use super::markup::{Markup, pipe_table};

/// GitHub-flavoured Markdown.
pub(crate) struct Markdown;

impl Markup for Markdown {
    /// A code span takes a fence longer than any run of backticks inside it, so a command
    /// holding backticks still renders whole.
    fn code(&self, text: &str) -> String {
        let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest + 1);
        if longest > 0 {
            format!("{fence} {text} {fence}")
        } else {
            format!("{fence}{text}{fence}")
        }
    }

    fn item(&self) -> &'static str {
        "-"
    }

    fn bold(&self, text: &str) -> String {
        format!("**{text}**")
    }

    fn grid(&self, left: &[bool], header: &[String], body: &[Vec<String>]) -> String {
        let rule: String = left
            .iter()
            .map(|&l| if l { ":---|" } else { "---:|" })
            .collect();
        pipe_table(header, &format!("|{rule}"), body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_and_grid() {
        assert_eq!(Markdown.code("sleep 1"), "`sleep 1`");
        assert_eq!(Markdown.code("echo `date`"), "`` echo `date` ``");
        let header = ["h1".to_string(), "h2".to_string()];
        let body = [vec!["x".to_string(), "1".to_string()]];
        assert_eq!(
            Markdown.grid(&[true, false], &header, &body),
            "| h1 | h2 |\n|:---|---:|\n| x | 1 |\n"
        );
    }
}
