//! Charts as inline SVG figures with a title and a text alternative.

use std::fmt::Write;

use anyhow::{Context, Result};

use super::escape;
use crate::frame::format_number;
use crate::plot::Chart;

/// The chart's own title, when it has one.
pub fn own_title(chart: &Chart) -> Option<String> {
    let title = match chart {
        Chart::Lines(c) => c.title.clone(),
        Chart::LinePanels(c) => c.title.clone(),
        Chart::Heatmap(c) => c.title.clone(),
        Chart::Bars(c) => c
            .panels
            .iter()
            .map(|p| p.title.as_str())
            .collect::<Vec<_>>()
            .join("; "),
    };
    (!title.trim().is_empty()).then_some(title)
}

/// A text alternative: what the chart shows, in words and (for bars and matrices) numbers.
pub fn describe(chart: &Chart) -> String {
    let mut out = String::new();
    match chart {
        Chart::Lines(c) => {
            let _ = write!(
                out,
                "Line chart of {} against {}, one line each for {}.",
                c.y_label,
                c.x_label,
                names(c.series.iter().map(|s| s.label.as_str()))
            );
        }
        Chart::LinePanels(c) => {
            let _ = write!(out, "{} line charts side by side:", c.panels.len());
            for panel in &c.panels {
                let _ = write!(
                    out,
                    " {}: {} against {}, lines for {}.",
                    panel.title,
                    panel.y_label,
                    panel.x_label,
                    names(panel.series.iter().map(|s| s.label.as_str()))
                );
            }
        }
        Chart::Bars(c) => {
            let _ = write!(
                out,
                "Bar chart of {} by {}, with 95% interval whiskers.",
                c.y_label, c.x_label
            );
            for panel in &c.panels {
                let bars: Vec<String> = panel
                    .bars
                    .iter()
                    .map(|b| {
                        format!(
                            "{} {} [{}, {}]",
                            b.label,
                            format_number(b.value),
                            format_number(b.lower),
                            format_number(b.upper)
                        )
                    })
                    .collect();
                let _ = write!(out, " {}: {}.", panel.title, bars.join(", "));
            }
        }
        Chart::Heatmap(c) => {
            let _ = write!(
                out,
                "Matrix of values by {} (rows) and {} (columns), each value printed in its cell.",
                c.row_label, c.column_label
            );
            for (row, values) in c.rows.iter().zip(&c.values) {
                let cells: Vec<String> = c
                    .columns
                    .iter()
                    .zip(values)
                    .map(|(column, v)| format!("{column} {}", format_number(*v)))
                    .collect();
                let _ = write!(out, " {row}: {}.", cells.join(", "));
            }
        }
    }
    out
}

fn names<'a>(labels: impl Iterator<Item = &'a str>) -> String {
    let labels: Vec<&str> = labels.collect();
    match labels.len() {
        0 => "no series".to_string(),
        1..=12 => labels.join(", "),
        n => format!("{} and {} more", labels[..12].join(", "), n - 12),
    }
}

/// The chart `stem` as a `<figure>` holding its SVG, labelled with `title` and described in
/// words for screen readers (`role="img"`, `<title>`, `<desc>`).
pub fn figure(stem: &str, chart: &Chart, title: &str) -> Result<String> {
    let svg = chart.svg()?;
    let id = format!("chart-{}", super::slug(stem));
    let open_at = svg
        .find("<svg")
        .context("the chart's SVG has no <svg> element")?;
    let open_end = open_at
        + svg[open_at..]
            .find('>')
            .context("the chart's SVG has an unclosed <svg> tag")?;
    let attributes = svg[open_at + 4..open_end].trim_end_matches('/');
    let rest = &svg[open_end + 1..];
    Ok(format!(
        "<figure class=\"chart\" id=\"{id}\">\n<svg{attributes} role=\"img\" \
         aria-labelledby=\"{id}-title\" aria-describedby=\"{id}-desc\" \
         preserveAspectRatio=\"xMidYMid meet\"><title id=\"{id}-title\">{title}</title>\
         <desc id=\"{id}-desc\">{desc}</desc>{rest}\n<figcaption>{title} \
         <span class=\"file\">({stem}.svg)</span></figcaption>\n</figure>\n",
        title = escape(title),
        desc = escape(&describe(chart)),
        stem = escape(stem),
    ))
}
