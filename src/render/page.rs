//! The page around the figures: an HTML document with inline CSS, panels, legends and tables.
//! The markup is XHTML-compatible (every element closed, attributes quoted, text escaped), so
//! the page parses as XML as well as HTML.

use std::fmt::Write as _;

/// Candidate A's colour: Okabe–Ito blue (`#0072B2`).
pub const COLOUR_A: &str = "#0072B2";
/// Candidate B's colour: Okabe–Ito vermillion (`#D55E00`).
pub const COLOUR_B: &str = "#D55E00";
/// The ratio B/A and the interval of a pooled result: Okabe–Ito reddish purple (`#CC79A7`).
pub(crate) const COLOUR_RATIO: &str = "#CC79A7";
/// Thresholds asked about: Okabe–Ito orange (`#E69F00`).
pub(crate) const COLOUR_THRESHOLD: &str = "#E69F00";
/// The interval's ends and the point estimate: Okabe–Ito bluish green (`#009E73`).
pub(crate) const COLOUR_INTERVAL: &str = "#009E73";
/// The A/A noise floor's band: a light grey (`#BBBBBB`).
pub const COLOUR_FLOOR: &str = "#BBBBBB";
/// Text, axes and zero: black (`#000000`).
pub(crate) const COLOUR_INK: &str = "#000000";

/// Escapes `&`, `<`, `>`, `"` and `'` so that `text` can stand in HTML text or an attribute.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

/// How a legend entry's key is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mark {
    /// A filled dot: one point per sample.
    Dot,
    /// A solid line.
    Line,
    /// A dashed line.
    Dashed,
    /// A filled band or bar.
    Band,
}

/// One entry of a figure's legend: a key in a colour, and what it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegendEntry {
    /// The key's colour, as CSS (`#0072B2`).
    pub colour: String,
    /// How the key is drawn.
    pub mark: Mark,
    /// What it stands for, plain text (escaped when the page is written).
    pub text: String,
}

impl LegendEntry {
    /// An entry with this colour, mark and text.
    pub fn new(colour: &str, mark: Mark, text: impl Into<String>) -> LegendEntry {
        LegendEntry {
            colour: colour.to_string(),
            mark,
            text: text.into(),
        }
    }
}

/// A drawn figure: one inline SVG document and the legend that explains its colours. The
/// legend is HTML beside the SVG rather than text inside it, so that it wraps and never
/// overlaps the data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// The `<svg>` element, with its `xmlns`, width, height and viewBox.
    pub svg: String,
    /// The legend's entries, in order.
    pub legend: Vec<LegendEntry>,
}

/// One panel of a page: a heading, sentences, exactly one figure, and optionally a table of
/// figures and a list. Build it with the methods, which consume and return the panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panel {
    id: String,
    title: String,
    before: String,
    figure: Option<Figure>,
    after: String,
}

impl Panel {
    /// A panel with this `id` (the HTML `id` attribute, for links: letters, digits and `-`;
    /// other characters are replaced by `-`) and heading.
    pub fn new(id: &str, title: &str) -> Panel {
        let id = id
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        Panel {
            id,
            title: title.to_string(),
            before: String::new(),
            figure: None,
            after: String::new(),
        }
    }

    /// Replaces the panel's heading (a panel reused on another page, under a name that
    /// says whose it is).
    pub fn retitle(mut self, title: &str) -> Panel {
        self.title = title.to_string();
        self
    }

    fn push(&mut self, html: &str) {
        if self.figure.is_none() {
            self.before.push_str(html);
        } else {
            self.after.push_str(html);
        }
    }

    /// Adds a paragraph of plain text (escaped). Text added before [`figure`](Self::figure)
    /// stands above it, text added after below it.
    pub fn text(mut self, sentence: &str) -> Panel {
        self.push(&format!("<p>{}</p>\n", escape(sentence)));
        self
    }

    /// Adds a paragraph in bold (the panel's main sentence).
    pub fn lead(mut self, sentence: &str) -> Panel {
        self.push(&format!("<p class=\"lead\">{}</p>\n", escape(sentence)));
        self
    }

    /// Sets the panel's one figure, drawn with its legend. A panel always holds exactly one
    /// `<svg>`: a second call replaces the first figure.
    pub fn figure(mut self, figure: Figure) -> Panel {
        self.figure = Some(figure);
        self
    }

    /// Adds a two-column table of `(name, value)` rows, plain text (escaped).
    pub fn table<N: AsRef<str>, V: AsRef<str>>(mut self, rows: &[(N, V)]) -> Panel {
        let mut s = String::from("<table>\n");
        for (name, value) in rows {
            let _ = writeln!(
                s,
                "<tr><th scope=\"row\">{}</th><td>{}</td></tr>",
                escape(name.as_ref()),
                escape(value.as_ref())
            );
        }
        s.push_str("</table>\n");
        self.push(&s);
        self
    }

    /// Adds a table with a header row and one row per entry, plain text (escaped); a row's
    /// first cell links to its `href` when one is given (a relative address, for pages
    /// written side by side). Rows shorter than the header are padded with empty cells.
    pub fn grid<H: AsRef<str>, C: AsRef<str>>(
        mut self,
        header: &[H],
        rows: &[(Option<String>, Vec<C>)],
    ) -> Panel {
        let mut s = String::from("<table class=\"grid\">\n<tr>");
        for h in header {
            let _ = write!(s, "<th scope=\"col\">{}</th>", escape(h.as_ref()));
        }
        s.push_str("</tr>\n");
        for (href, cells) in rows {
            s.push_str("<tr>");
            for i in 0..header.len().max(cells.len()) {
                let text = cells.get(i).map_or("", |c| c.as_ref());
                match (i, href) {
                    (0, Some(h)) => {
                        let _ =
                            write!(s, "<td><a href=\"{}\">{}</a></td>", escape(h), escape(text));
                    }
                    _ => {
                        let _ = write!(s, "<td>{}</td>", escape(text));
                    }
                }
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n");
        self.push(&s);
        self
    }

    /// Adds a bulleted list of plain-text items (escaped), with an optional class for
    /// styling (`"warnings"` draws them in a warning box); nothing when `items` is empty.
    pub fn list<S: AsRef<str>>(mut self, class: &str, items: &[S]) -> Panel {
        if items.is_empty() {
            return self;
        }
        let mut s = format!("<ul class=\"{}\">\n", escape(class));
        for i in items {
            let _ = writeln!(s, "<li>{}</li>", escape(i.as_ref()));
        }
        s.push_str("</ul>\n");
        self.push(&s);
        self
    }

    /// The panel as an HTML `<section>`. Without a figure it still holds one `<svg>`, an
    /// empty one, so that every panel has exactly one.
    pub fn to_html(&self) -> String {
        self.html(None)
    }

    /// The section, its heading numbered when `number` is given.
    fn html(&self, number: Option<usize>) -> String {
        let mut s = format!(
            "<section class=\"panel\" id=\"{}\">\n<h2>{}{}</h2>\n",
            self.id,
            number.map_or(String::new(), |n| format!("{n}. ")),
            escape(&self.title)
        );
        s.push_str(&self.before);
        match &self.figure {
            Some(f) => {
                s.push_str("<figure>\n");
                s.push_str(&f.svg);
                if !f.legend.is_empty() {
                    s.push_str("<figcaption>");
                    for e in &f.legend {
                        let _ = write!(
                            s,
                            "<span class=\"entry\"><span class=\"key {}\" style=\"--c:{}\"></span>{}</span> ",
                            match e.mark {
                                Mark::Dot => "dot",
                                Mark::Line => "line",
                                Mark::Dashed => "dashed",
                                Mark::Band => "band",
                            },
                            escape(&e.colour),
                            escape(&e.text)
                        );
                    }
                    s.push_str("</figcaption>\n");
                }
                s.push_str("</figure>\n");
            }
            None => s.push_str(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\"></svg>\n",
            ),
        }
        s.push_str(&self.after);
        s.push_str("</section>\n");
        s
    }
}

/// A whole page: a title, an introduction and panels, as one self-contained HTML file (inline
/// CSS and SVG, no script, no external resource).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    title: String,
    intro: Vec<String>,
    panels: Vec<Panel>,
}

impl Page {
    /// An empty page with this title (the `<title>` and the `<h1>`).
    pub fn new(title: &str) -> Page {
        Page {
            title: title.to_string(),
            intro: Vec::new(),
            panels: Vec::new(),
        }
    }

    /// Adds a paragraph of plain text under the title.
    pub fn intro(mut self, sentence: &str) -> Page {
        self.intro.push(sentence.to_string());
        self
    }

    /// Appends a panel.
    pub fn panel(mut self, panel: Panel) -> Page {
        self.panels.push(panel);
        self
    }

    /// The page as HTML (XHTML-compatible: it also parses as XML). With more than one panel
    /// the headings are numbered and a list of links to them stands under the introduction.
    pub fn to_html(&self) -> String {
        let mut s = String::with_capacity(64 << 10);
        s.push_str("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
        s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n");
        let _ = writeln!(s, "<title>{}</title>", escape(&self.title));
        s.push_str("<style>\n");
        s.push_str(CSS);
        s.push_str("</style>\n</head>\n<body>\n<main>\n");
        let _ = writeln!(s, "<h1>{}</h1>", escape(&self.title));
        for p in &self.intro {
            let _ = writeln!(s, "<p class=\"intro\">{}</p>", escape(p));
        }
        if self.panels.len() > 1 {
            s.push_str("<nav><ol>\n");
            for p in &self.panels {
                let _ = writeln!(s, "<li><a href=\"#{}\">{}</a></li>", p.id, escape(&p.title));
            }
            s.push_str("</ol></nav>\n");
        }
        let numbered = self.panels.len() > 1;
        for (i, p) in self.panels.iter().enumerate() {
            s.push_str(&p.html(numbered.then_some(i + 1)));
        }
        s.push_str("</main>\n</body>\n</html>\n");
        s
    }
}

/// The page's style sheet: system fonts, a 1080-pixel column, figures scaled down to fit
/// narrower windows, legend keys drawn with CSS in the entry's colour.
const CSS: &str = "body{margin:0;background:#f4f4f4;color:#111;font:16px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif}
main{max-width:1080px;margin:0 auto;padding:16px 20px 40px}
h1{font-size:1.6em;margin:0.4em 0}
h2{font-size:1.25em;margin:0 0 0.4em}
nav ol{margin:0.3em 0 1em;padding-left:1.4em;columns:2}
a{color:#0b5d96}
.panel{background:#fff;border:1px solid #ddd;border-radius:6px;padding:14px 18px;margin:14px 0}
.lead{font-weight:600;font-size:1.08em}
figure{margin:8px 0}
svg{display:block;max-width:100%;height:auto}
figcaption{margin-top:6px;font-size:0.92em}
.entry{display:inline-block;margin-right:1.2em;white-space:nowrap}
.key{display:inline-block;vertical-align:middle;margin-right:0.4em}
.key.dot{width:10px;height:10px;border-radius:50%;background:var(--c)}
.key.line{width:22px;height:0;border-top:3px solid var(--c)}
.key.dashed{width:22px;height:0;border-top:3px dashed var(--c)}
.key.band{width:18px;height:12px;background:var(--c)}
table{border-collapse:collapse;margin:8px 0;font-size:0.94em}
th,td{text-align:left;padding:3px 14px 3px 0;border-bottom:1px solid #eee;vertical-align:top}
th{font-weight:600;white-space:nowrap}
ul.warnings{background:#fff4e0;border-left:4px solid #E69F00;padding:8px 12px 8px 28px}
ul.warnings li{margin:3px 0}
.intro{color:#333}
";
