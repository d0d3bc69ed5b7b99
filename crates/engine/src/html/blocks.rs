//! The study's report blocks as HTML: headings with anchors for the page's contents,
//! paragraphs and lists with their code spans and strong words, figures as the inline charts
//! they name, and tables drawn like the run's tables (see [`tables::reading_table`]). Every
//! word is escaped: nothing a study writes reaches the page as markup.

use std::fmt::Write;

use anyhow::Result;

use super::{charts, escape, slug, tables};
use crate::plot::Chart;
use crate::report::{Block, Figure, Inline, Text};

/// The reading as HTML, with what the page's other parts need to know of it.
pub struct Rendered {
    /// The HTML fragment.
    pub html: String,
    /// Second-level headings as (anchor, text), for the page's contents.
    pub headings: Vec<(String, String)>,
    /// Stems of the charts shown inline.
    pub charts_shown: Vec<String>,
}

/// Running text as HTML: words escaped, code spans in `<code>`, strong words in `<strong>`,
/// line breaks as the line breaks they are in the source.
pub fn inline(text: &Text) -> String {
    let mut out = String::new();
    push_inline(&text.0, &mut out);
    out
}

fn push_inline(inlines: &[Inline], out: &mut String) {
    for piece in inlines {
        match piece {
            Inline::Plain(words) => out.push_str(&escape(words)),
            Inline::Code(name) => {
                let _ = write!(out, "<code>{}</code>", escape(name));
            }
            Inline::Strong(inner) => {
                out.push_str("<strong>");
                push_inline(inner, out);
                out.push_str("</strong>");
            }
            Inline::Break => out.push('\n'),
        }
    }
}

/// Renders `blocks`, drawing each figure's chart of `charts` where the figure stands.
pub fn render(blocks: &[Block], charts: &[(String, Chart)]) -> Result<Rendered> {
    let mut out = Rendered {
        html: String::new(),
        headings: Vec::new(),
        charts_shown: Vec::new(),
    };
    let mut ids: Vec<String> = Vec::new();
    // The latest heading's words, which name the tables under it for screen readers.
    let mut caption = String::from("Table");
    for block in blocks {
        match block {
            Block::Heading { level, text } => {
                let words = text.words();
                let base = format!("s-{}", slug(&words));
                let mut id = base.clone();
                let mut n = 2;
                while ids.contains(&id) {
                    id = format!("{base}-{n}");
                    n += 1;
                }
                ids.push(id.clone());
                let level = level.clamp(&1, &6);
                let _ = writeln!(
                    out.html,
                    "<h{level} id=\"{id}\">{}</h{level}>",
                    inline(text)
                );
                if *level == 2 {
                    out.headings.push((id, words.clone()));
                }
                caption = words;
            }
            Block::Paragraph(text) => {
                let _ = writeln!(out.html, "<p>{}</p>", inline(text));
            }
            Block::List(items) => {
                out.html.push_str("<ul>\n");
                for item in items {
                    let _ = writeln!(out.html, "<li>{}</li>", inline(item));
                }
                out.html.push_str("</ul>\n");
            }
            Block::Table(table) => out.html.push_str(&tables::reading_table(table, &caption)),
            Block::Figure(figure) => {
                let html = figure_html(figure, charts, &mut out.charts_shown)?;
                out.html.push_str(&html);
            }
        }
    }
    Ok(out)
}

/// The chart a figure names, drawn; a link to it when it is already shown; or the figure's
/// caption when the run has no such chart.
fn figure_html(
    figure: &Figure,
    charts: &[(String, Chart)],
    shown: &mut Vec<String>,
) -> Result<String> {
    let Some((stem, chart)) = charts.iter().find(|(s, _)| *s == figure.chart) else {
        return Ok(format!("<p><em>{}</em></p>\n", escape(&figure.caption)));
    };
    if shown.contains(stem) {
        return Ok(format!(
            "<p><a href=\"#chart-{}\">{}</a> (shown above)</p>\n",
            slug(stem),
            escape(&figure.caption)
        ));
    }
    shown.push(stem.clone());
    let title = if figure.caption.trim().is_empty() {
        charts::own_title(chart).unwrap_or_else(|| stem.clone())
    } else {
        figure.caption.clone()
    };
    charts::figure(stem, chart, &title)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::Role;
    use crate::plot::{LineChart, Series};
    use crate::report::{code, Cell, Table};

    fn line() -> Chart {
        Chart::Lines(LineChart {
            title: "Length".into(),
            x_label: "turns".into(),
            y_label: "share".into(),
            series: vec![Series {
                label: "a".into(),
                points: vec![(0.0, 0.5), (1.0, 0.25)],
                band: Vec::new(),
                ..Default::default()
            }],
            markers: false,
            ..Default::default()
        })
    }

    #[test]
    fn a_figure_becomes_the_inline_chart_with_its_caption_where_it_stands() {
        let charts = vec![("game_length".to_string(), line())];
        let blocks = [
            Block::heading(2, "Results"),
            Block::figure("game_length", "Game length by strategy"),
            Block::paragraph("After."),
            Block::figure("game_length", "Game length again"),
            Block::figure("missing", "A chart the run has not"),
        ];
        let rendered = render(&blocks, &charts).expect("render");
        let html = &rendered.html;
        assert!(html.starts_with("<h2 id=\"s-results\">Results</h2>\n<figure class=\"chart\" id=\"chart-game_length\">"), "{html}");
        assert!(
            html.contains("<title id=\"chart-game_length-title\">Game length by strategy</title>")
        );
        assert!(
            html.find("<figure").expect("figure") < html.find("<p>After.</p>").expect("paragraph")
        );
        assert!(html
            .contains("<p><a href=\"#chart-game_length\">Game length again</a> (shown above)</p>"));
        assert!(html.contains("<p><em>A chart the run has not</em></p>"));
        assert_eq!(html.matches("<svg").count(), 1);
        assert_eq!(rendered.charts_shown, vec!["game_length".to_string()]);
        assert_eq!(
            rendered.headings,
            vec![("s-results".to_string(), "Results".to_string())]
        );
    }

    #[test]
    fn headings_get_unique_anchors_and_only_sections_enter_the_contents() {
        let blocks = [
            Block::heading(2, Text::new().plain("Against ").code("optimal")),
            Block::heading(3, "a"),
            Block::heading(3, "a"),
            Block::heading(2, "a"),
        ];
        let rendered = render(&blocks, &[]).expect("render");
        assert!(rendered
            .html
            .contains("<h2 id=\"s-against-optimal\">Against <code>optimal</code></h2>"));
        assert!(rendered
            .html
            .contains("<h3 id=\"s-a\">a</h3>\n<h3 id=\"s-a-2\">a</h3>\n<h2 id=\"s-a-3\">a</h2>"));
        assert_eq!(
            rendered.headings,
            vec![
                (
                    "s-against-optimal".to_string(),
                    "Against optimal".to_string()
                ),
                ("s-a-3".to_string(), "a".to_string())
            ]
        );
    }

    #[test]
    fn paragraphs_and_lists_keep_code_strong_and_breaks() {
        let item = Text::new()
            .strong(Text::new().plain("Best ").code("x").plain("."))
            .plain(" One")
            .line_break()
            .plain("two");
        let blocks = [
            Block::List(vec![item, "plain".into()]),
            Block::paragraph(code("a`b")),
        ];
        let html = render(&blocks, &[]).expect("render").html;
        assert_eq!(
            html,
            "<ul>\n<li><strong>Best <code>x</code>.</strong> One\ntwo</li>\n<li>plain</li>\n</ul>\n<p><code>a`b</code></p>\n"
        );
    }

    #[test]
    fn markup_in_plain_words_is_shown_as_text() {
        let blocks = [
            Block::heading(2, "<em>Title</em>"),
            Block::paragraph(
                Text::new()
                    .plain("<script>alert(1)</script> **not strong** `not code` ![x](http://e/x.png) & ")
                    .code("<b>"),
            ),
        ];
        let html = render(&blocks, &[]).expect("render").html;
        for raw in ["<script>", "<em>", "<b>", "<img", "src=\""] {
            assert!(!html.contains(raw), "{raw} in {html}");
        }
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; **not strong** `not code` ![x](http://e/x.png) &amp; <code>&lt;b&gt;</code>"), "{html}");
        assert!(html.contains("<h2 id=\"s-em-title-em\">&lt;em&gt;Title&lt;/em&gt;</h2>"));
    }

    #[test]
    fn a_table_is_named_by_the_heading_above_it() {
        let mut table = Table::new([("variant", Role::Label), ("games", Role::Count)]);
        table.row(vec![Cell::text("a"), Cell::count(3)]);
        let blocks = [Block::heading(3, "Per variant"), Block::Table(table)];
        let html = render(&blocks, &[]).expect("render").html;
        assert!(
            html.contains("<caption class=\"visually-hidden\">Per variant</caption>"),
            "{html}"
        );
        assert!(html.contains("<tr data-variant=\"a\"><td>a</td><td class=\"num\">3</td></tr>"));
    }
}
