//! A report as a list of blocks, rendered once as self-contained HTML (charts inline) and once as
//! Markdown (charts as SVG files beside it): one model, so the two never disagree.

use std::fmt::Write as _;

/// A table with a header row.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// A chart: its file name in the Markdown version, its title and the SVG itself.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub file: String,
    pub title: String,
    pub svg: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Heading(String),
    /// A heading under a [`Block::Heading`]: a table's name within its section.
    Subheading(String),
    /// Text; `` `code` `` spans are code in both renderings.
    Text(String),
    /// How a figure was computed, folded away under a one-line summary.
    Details {
        summary: String,
        text: String,
    },
    Code(String),
    Table(Table),
    Chart(Chart),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Document {
    pub title: String,
    pub blocks: Vec<Block>,
}

impl Document {
    pub fn heading(&mut self, text: impl Into<String>) {
        self.blocks.push(Block::Heading(text.into()));
    }

    pub fn subheading(&mut self, text: impl Into<String>) {
        self.blocks.push(Block::Subheading(text.into()));
    }

    pub fn text(&mut self, text: impl Into<String>) {
        self.blocks.push(Block::Text(text.into()));
    }

    pub fn details(&mut self, summary: impl Into<String>, text: impl Into<String>) {
        self.blocks.push(Block::Details {
            summary: summary.into(),
            text: text.into(),
        });
    }

    pub fn code(&mut self, text: impl Into<String>) {
        self.blocks.push(Block::Code(text.into()));
    }

    pub fn table(&mut self, header: &[&str], rows: Vec<Vec<String>>) {
        self.blocks.push(Block::Table(Table {
            header: header.iter().map(|h| (*h).to_owned()).collect(),
            rows,
        }));
    }

    pub fn chart(&mut self, file: &str, title: &str, svg: String) {
        self.blocks.push(Block::Chart(Chart {
            file: file.to_owned(),
            title: title.to_owned(),
            svg,
        }));
    }

    /// The charts, for writing beside the Markdown.
    pub fn charts(&self) -> impl Iterator<Item = &Chart> {
        self.blocks.iter().filter_map(|b| {
            if let Block::Chart(c) = b {
                Some(c)
            } else {
                None
            }
        })
    }

    /// One self-contained, well-formed HTML file (it also parses as XML).
    #[must_use]
    pub fn html(&self) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
            escape(&self.title),
            escape(&self.title)
        );
        for block in &self.blocks {
            match block {
                Block::Heading(t) => {
                    let _ = writeln!(out, "<h2>{}</h2>", escape(t));
                }
                Block::Subheading(t) => {
                    let _ = writeln!(out, "<h3>{}</h3>", escape(t));
                }
                Block::Text(t) => {
                    let _ = writeln!(out, "<p>{}</p>", inline_html(t));
                }
                Block::Details { summary, text } => {
                    let _ = writeln!(
                        out,
                        "<details><summary>{}</summary><p>{}</p></details>",
                        inline_html(summary),
                        inline_html(text)
                    );
                }
                Block::Code(t) => {
                    let _ = writeln!(out, "<pre>{}</pre>", escape(t));
                }
                Block::Table(table) => {
                    out.push_str("<table><thead><tr>");
                    for h in &table.header {
                        let _ = write!(out, "<th>{}</th>", escape(h));
                    }
                    out.push_str("</tr></thead><tbody>\n");
                    for row in &table.rows {
                        out.push_str("<tr>");
                        for cell in row {
                            let _ = write!(out, "<td>{}</td>", escape(cell));
                        }
                        out.push_str("</tr>\n");
                    }
                    out.push_str("</tbody></table>\n");
                }
                Block::Chart(chart) => {
                    let _ = writeln!(
                        out,
                        "<figure>{}<figcaption>{}</figcaption></figure>",
                        strip_xml_declaration(&chart.svg),
                        escape(&chart.title)
                    );
                }
            }
        }
        out.push_str("</body></html>\n");
        out
    }

    /// Markdown with the same tables; charts are referenced as `charts/FILE`.
    #[must_use]
    pub fn markdown(&self) -> String {
        let mut out = format!("# {}\n\n", self.title);
        for block in &self.blocks {
            match block {
                Block::Heading(t) => {
                    let _ = writeln!(out, "## {t}\n");
                }
                Block::Subheading(t) => {
                    let _ = writeln!(out, "### {t}\n");
                }
                Block::Text(t) => {
                    let _ = writeln!(out, "{t}\n");
                }
                Block::Details { summary, text } => {
                    // GitHub and most viewers render the HTML element; the text inside stays
                    // Markdown, which needs the blank lines.
                    let _ = writeln!(
                        out,
                        "<details><summary>{}</summary>\n\n{text}\n\n</details>\n",
                        escape(summary)
                    );
                }
                Block::Code(t) => {
                    let _ = writeln!(out, "```\n{t}\n```\n");
                }
                Block::Table(table) => {
                    let _ = writeln!(out, "| {} |", table.header.join(" | "));
                    let _ = writeln!(out, "|{}", "---|".repeat(table.header.len()));
                    for row in &table.rows {
                        let _ = writeln!(
                            out,
                            "| {} |",
                            row.iter()
                                .map(|c| c.replace('|', "\\|"))
                                .collect::<Vec<_>>()
                                .join(" | ")
                        );
                    }
                    out.push('\n');
                }
                Block::Chart(chart) => {
                    let _ = writeln!(out, "![{}](charts/{})\n", chart.title, chart.file);
                }
            }
        }
        out
    }
}

const STYLE: &str = "body{font-family:sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}\
th{background:#f0f0f0}td:first-child{text-align:left}pre{background:#f6f6f6;padding:8px;overflow-x:auto}\
figure{margin:1em 0}details{margin:1em 0;color:#444}summary{cursor:pointer}code{background:#f0f0f0;padding:0 3px}figcaption{color:#555;font-size:90%}svg{width:100%;height:auto}";

/// Escapes text for HTML.
#[must_use]
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Escaped text with each `` `code` `` span as `<code>`: the blocks' text is written once, with
/// Markdown's backticks, and the HTML must not show them raw. An unpaired backtick stays as it is.
fn inline_html(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return escape(text);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", escape(part))
            } else {
                escape(part)
            }
        })
        .collect()
}

fn strip_xml_declaration(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_are_code_in_html_and_backticks_in_markdown() {
        let mut doc = Document::default();
        doc.text("run `koom run a<b` twice");
        doc.details("How `x` works", "by `y`");
        let html = doc.html();
        assert!(
            html.contains("run <code>koom run a&lt;b</code> twice"),
            "{html}"
        );
        assert!(
            html.contains("<summary>How <code>x</code> works</summary>"),
            "{html}"
        );
        assert!(!html.contains('`'), "{html}");
        let md = doc.markdown();
        assert!(md.contains("run `koom run a<b` twice"), "{md}");
        assert!(
            md.contains("<details><summary>How `x` works</summary>\n\nby `y`\n\n</details>"),
            "{md}"
        );
        // An unpaired backtick is left as it is.
        assert_eq!(inline_html("a ` b"), "a ` b");
    }
}
