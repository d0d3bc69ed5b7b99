//! The study's Markdown reading as HTML: its chart references become the inline charts, its
//! second-level headings get anchors for the page's contents, its tables are drawn like the
//! run's tables (see [`tables::reading_table`]), and raw HTML in the text is shown as text,
//! never passed through.

use anyhow::Result;
use pulldown_cmark::{Alignment, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::tables::{self, MarkdownCell};
use super::{charts, escape, slug};
use crate::plot::Chart;

/// The reading as HTML, with what the page's other parts need to know of it.
pub struct Rendered {
    /// The HTML fragment.
    pub html: String,
    /// Second-level headings as (anchor, text), for the page's contents.
    pub headings: Vec<(String, String)>,
    /// Stems of the charts shown inline.
    pub charts_shown: Vec<String>,
}

/// The chart stem an image reference such as `game_length.png` names.
fn stem(url: &str) -> &str {
    let name = url.rsplit('/').next().unwrap_or(url);
    name.strip_suffix(".png")
        .or_else(|| name.strip_suffix(".svg"))
        .unwrap_or(name)
}

/// The plain text of the events up to the end tag matching the start at `events[start]`,
/// and the index of that end tag.
fn text_until_end(events: &[Event], start: usize) -> (String, usize) {
    let mut depth = 0usize;
    let mut text = String::new();
    for (index, event) in events.iter().enumerate().skip(start) {
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    return (text, index);
                }
            }
            Event::Text(t) | Event::Code(t) => text.push_str(t),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    (text, events.len() - 1)
}

/// Raw HTML in a report is shown as the text it is; other events are kept.
fn as_text(event: Event) -> Event {
    match event {
        Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
        event => event,
    }
}

/// The header cells and the body rows of the table whose events (from its start to its end)
/// are `events`, each cell as HTML (raw HTML escaped, images as their words) and as text.
fn table_cells(events: &[Event]) -> (Vec<MarkdownCell>, Vec<Vec<MarkdownCell>>) {
    let mut header = Vec::new();
    let mut body: Vec<Vec<MarkdownCell>> = Vec::new();
    let mut in_head = false;
    let mut cell: Option<(Vec<Event>, String)> = None;
    for event in events {
        match event {
            Event::Start(Tag::TableHead) => in_head = true,
            Event::End(TagEnd::TableHead) => in_head = false,
            Event::Start(Tag::TableRow) => body.push(Vec::new()),
            Event::Start(Tag::TableCell) => cell = Some((Vec::new(), String::new())),
            Event::End(TagEnd::TableCell) => {
                if let Some((inline, text)) = cell.take() {
                    let mut html = String::new();
                    pulldown_cmark::html::push_html(&mut html, inline.into_iter());
                    let done = MarkdownCell { html, text };
                    match body.last_mut() {
                        Some(row) if !in_head => row.push(done),
                        _ => header.push(done),
                    }
                }
            }
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => {}
            event => {
                if let Some((inline, text)) = cell.as_mut() {
                    match event {
                        Event::Text(t) | Event::Code(t) => text.push_str(t),
                        Event::SoftBreak | Event::HardBreak => text.push(' '),
                        _ => {}
                    }
                    inline.push(as_text(event.clone()));
                }
            }
        }
    }
    (header, body)
}

/// Renders `markdown`, drawing each referenced chart of `charts` where it is referenced.
pub fn render(markdown: &str, charts: &[(String, Chart)]) -> Result<Rendered> {
    let events: Vec<Event> = Parser::new_ext(markdown, Options::ENABLE_TABLES).collect();
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    let mut headings = Vec::new();
    let mut charts_shown: Vec<String> = Vec::new();
    // The latest heading's words, which name the tables under it for screen readers.
    let mut caption = String::from("Table");
    let mut index = 0;
    while index < events.len() {
        match &events[index] {
            // A paragraph holding only an image: the chart it names, as a figure.
            Event::Start(Tag::Paragraph)
                if matches!(events.get(index + 1), Some(Event::Start(Tag::Image { .. }))) =>
            {
                let (alt, image_end) = text_until_end(&events, index + 1);
                if matches!(
                    events.get(image_end + 1),
                    Some(Event::End(TagEnd::Paragraph))
                ) {
                    let Some(Event::Start(Tag::Image { dest_url, .. })) = events.get(index + 1)
                    else {
                        unreachable!("matched above");
                    };
                    out.push(Event::Html(
                        chart_reference(dest_url, &alt, charts, &mut charts_shown)?.into(),
                    ));
                    index = image_end + 2;
                    continue;
                }
                out.push(events[index].clone());
            }
            // An image inside text: its words, and a link to the chart when there is one.
            Event::Start(Tag::Image { dest_url, .. }) => {
                let (alt, image_end) = text_until_end(&events, index);
                let name = stem(dest_url);
                let html = if charts.iter().any(|(s, _)| s == name) {
                    format!("<a href=\"#chart-{}\">{}</a>", slug(name), escape(&alt))
                } else {
                    escape(&alt)
                };
                out.push(Event::InlineHtml(html.into()));
                index = image_end + 1;
                continue;
            }
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                let (text, _) = text_until_end(&events, index);
                let mut id = format!("s-{}", slug(&text));
                let taken = |id: &str| headings.iter().any(|(h, _): &(String, String)| h == id);
                let base = id.clone();
                let mut n = 2;
                while taken(&id) {
                    id = format!("{base}-{n}");
                    n += 1;
                }
                caption.clone_from(&text);
                if *level == HeadingLevel::H2 {
                    headings.push((id.clone(), text));
                }
                out.push(Event::Start(Tag::Heading {
                    level: *level,
                    id: Some(CowStr::from(id)),
                    classes: classes.clone(),
                    attrs: attrs.clone(),
                }));
            }
            Event::Start(Tag::Table(alignments)) => {
                let (_, end) = text_until_end(&events, index);
                let right: Vec<bool> = alignments.iter().map(|a| *a == Alignment::Right).collect();
                let (header, body) = table_cells(&events[index..=end]);
                out.push(Event::Html(
                    tables::reading_table(header, &right, body, &caption).into(),
                ));
                index = end + 1;
                continue;
            }
            event => out.push(as_text(event.clone())),
        }
        index += 1;
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    Ok(Rendered {
        html,
        headings,
        charts_shown,
    })
}

/// The figure for a chart reference, a link to it when it is already shown, or the
/// reference's words when the run has no such chart.
fn chart_reference(
    url: &str,
    alt: &str,
    charts: &[(String, Chart)],
    shown: &mut Vec<String>,
) -> Result<String> {
    let name = stem(url);
    let Some((stem, chart)) = charts.iter().find(|(s, _)| s == name) else {
        return Ok(format!("<p><em>{}</em></p>\n", escape(alt)));
    };
    if shown.contains(stem) {
        return Ok(format!(
            "<p><a href=\"#chart-{}\">{}</a> (shown above)</p>\n",
            slug(stem),
            escape(alt)
        ));
    }
    shown.push(stem.clone());
    let title = if alt.trim().is_empty() {
        charts::own_title(chart).unwrap_or_else(|| stem.clone())
    } else {
        alt.to_string()
    };
    charts::figure(stem, chart, &title)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::{LineChart, Series};

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
    fn a_chart_reference_becomes_the_inline_chart_with_its_title() {
        let charts = vec![("game_length".to_string(), line())];
        let rendered = render(
            "## Results\n\n![Game length by strategy](game_length.png)\n",
            &charts,
        )
        .expect("render");
        assert!(rendered
            .html
            .contains("<figure class=\"chart\" id=\"chart-game_length\">"));
        assert!(rendered
            .html
            .contains("<title id=\"chart-game_length-title\">Game length by strategy</title>"));
        assert!(!rendered.html.contains("<img"), "{}", rendered.html);
        assert!(
            !rendered.html.contains("<p><figure"),
            "a figure is not put in a paragraph"
        );
        assert_eq!(rendered.charts_shown, vec!["game_length".to_string()]);
        assert_eq!(
            rendered.headings,
            vec![("s-results".to_string(), "Results".to_string())]
        );
    }

    #[test]
    fn tables_get_header_scope_and_raw_html_is_escaped() {
        let markdown = "| a | b |\n| --- | ---: |\n| <b>x</b> | 1 |\n\n<script>alert(1)</script>\n";
        let rendered = render(markdown, &[]).expect("render");
        assert!(
            rendered.html.contains("<th scope=\"col\">a</th>"),
            "{}",
            rendered.html
        );
        assert!(rendered
            .html
            .contains("<th scope=\"col\" class=\"num\">b</th>"));
        assert!(rendered.html.contains("<td class=\"num\">1</td>"));
        assert!(!rendered.html.contains("<script>") && !rendered.html.contains("<b>"));
        assert!(rendered.html.contains("&lt;script&gt;"));
    }

    #[test]
    fn an_unknown_image_leaves_its_words_and_makes_no_request() {
        let rendered =
            render("![A remote picture](http://example.com/x.png)\n", &[]).expect("render");
        assert!(!rendered.html.contains("src="), "{}", rendered.html);
        assert!(rendered.html.contains("A remote picture"));
    }

    #[test]
    fn an_estimate_and_its_bounds_share_one_cell_and_sort_by_the_estimate() {
        let markdown = "## Results per strategy\n\n| strategy | mean_turns | mean_turns_lo | mean_turns_hi |\n\
                        | --- | ---: | ---: | ---: |\n| a | 177.5 | 177.3 | 177.8 |\n| b | 12.00 | – | – |\n";
        let html = render(markdown, &[]).expect("render").html;
        assert!(
            html.contains("<td class=\"num\" data-sort=\"177.5\">177.5 [177.3, 177.8]</td>"),
            "{html}"
        );
        assert!(html.contains("<td class=\"num\" data-sort=\"12\">12.00</td>"));
        assert!(!html.contains("mean_turns_lo") && !html.contains("mean_turns_hi"));
        assert!(html.contains("mean_turns <span class=\"ci\">[95% CI]</span>"));
        assert!(html.contains("<table class=\"data sortable\">"));
        assert!(html.contains("<caption class=\"visually-hidden\">Results per strategy</caption>"));
    }

    #[test]
    fn a_separate_interval_column_joins_its_estimate_and_holm_significant_rows_are_marked() {
        let markdown = "| a | b | p | p (Holm) | effect | 95% CI |\n| --- | --- | ---: | ---: | ---: | --- |\n\
                        | x | y | 0.001 | 0.002 | -2.476 | [-2.856, -2.095] |\n\
                        | x | z | < 1e-300 | < 1e-300 | 3.000 | [2.000, 4.000] |\n\
                        | y | z | 0.04 | 0.08 | 0.5000 | – |\n";
        let html = render(markdown, &[]).expect("render").html;
        assert!(html.contains(">-2.476 [-2.856, -2.095]</td>"), "{html}");
        assert!(html.contains("effect <span class=\"ci\">[95% CI]</span>"));
        assert!(
            html.contains(">0.5000</td>"),
            "no interval: the estimate alone"
        );
        assert!(!html.contains("<th scope=\"col\">95% CI</th>"));
        let rows: Vec<&str> = html.lines().filter(|l| l.starts_with("<tr")).collect();
        assert_eq!(rows.len(), 3);
        for row in &rows[..2] {
            assert!(row.starts_with("<tr class=\"sig\""), "{row}");
            assert!(row.contains("<td><strong>★ yes</strong></td>"), "{row}");
        }
        assert!(rows[1].contains("<strong>&lt; 1e-300</strong>"));
        assert!(!rows[2].contains("sig") && rows[2].contains("<td>no</td>"));
        assert!(html.contains("<th scope=\"col\">Holm p &lt; 0.05</th>"));
        assert!(html.contains("2 of 3 rows significant at Holm p &lt; 0.05"));
        assert!(html.contains("data-variant=\"x y\""));
    }

    #[test]
    fn a_table_with_its_own_significant_column_gets_the_star_there() {
        let markdown = "| variant | best | p_holm | significant |\n| --- | --- | ---: | --- |\n\
                        | a | c | 1.00e-5 | yes |\n| b | c | 0.5000 | no |\n";
        let html = render(markdown, &[]).expect("render").html;
        assert!(html.contains("<td><strong>★ yes</strong></td>"), "{html}");
        assert!(
            !html.contains("Holm p &lt; 0.05</th>"),
            "no second mark column"
        );
        assert!(html.contains("<strong>1.00e-5</strong>"));
    }

    #[test]
    fn a_histogram_is_folded_however_short_and_other_short_tables_are_not() {
        let histogram = "| variant | period | count |\n| --- | ---: | ---: |\n| a | 52 | 10 |\n| a | 36 | 2 |\n";
        let html = render(histogram, &[]).expect("render").html;
        assert!(
            html.starts_with("<details>\n<summary>Show all 2 rows (a histogram)</summary>"),
            "{html}"
        );
        let other = "| variant | games | mean |\n| --- | ---: | ---: |\n| a | 52 | 10.5 |\n";
        assert!(!render(other, &[])
            .expect("render")
            .html
            .contains("<details>"));
    }
}
