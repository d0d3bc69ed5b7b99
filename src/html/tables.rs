//! Tables of the run as HTML: header cells with scope, numbers right-aligned with their raw
//! value kept for sorting, `x`, `x_lo`, `x_hi` shown as one cell `x [lo, hi]`, and rows whose
//! Holm-corrected p-value is below 0.05 marked in words as well as colour.

use std::fmt::Write;

use polars::prelude::{AnyValue, Column, DataFrame};

use super::{escape, slug};
use crate::analysis::report::estimate_text;
use crate::frame::{format_number, format_p};
use crate::stats::{ConfidenceInterval, Estimate, LEVEL};
use crate::studies::NamedTable;

/// Tables with more rows than this are collapsed (in a `<details>` block) until opened.
pub const LONG_TABLE: usize = 60;
/// Text cells longer than this may wrap; shorter ones stay on one line.
const LONG_TEXT: usize = 24;
/// Holm-corrected p-values below this mark a comparison as significant.
pub const ALPHA: f64 = 0.05;
/// Columns naming a variant (or the two variants of a comparison): the filter box matches
/// their text.
const VARIANT_COLUMNS: [&str; 5] = ["variant", "a", "b", "best", "strategy"];

/// How one shown column is filled.
enum Shown<'a> {
    /// A column shown as it is.
    Plain(&'a Column),
    /// An estimate with its interval columns `name_lo` and `name_hi`.
    Estimate(&'a Column, &'a Column, &'a Column),
    /// The "significant" mark derived from `p_holm`.
    Mark,
}

impl Shown<'_> {
    fn header(&self) -> String {
        match self {
            Shown::Plain(c) => escape(c.name()),
            Shown::Estimate(c, _, _) => {
                format!("{} <span class=\"ci\">[95% CI]</span>", escape(c.name()))
            }
            Shown::Mark => "Holm p &lt; 0.05".to_string(),
        }
    }

    fn numeric(&self) -> bool {
        match self {
            Shown::Plain(c) => c.dtype().is_primitive_numeric(),
            Shown::Estimate(..) => true,
            Shown::Mark => false,
        }
    }
}

fn float(column: &Column, row: usize) -> f64 {
    match column.get(row) {
        Ok(AnyValue::Float64(v)) => v,
        Ok(AnyValue::Float32(v)) => f64::from(v),
        Ok(AnyValue::Int64(v)) => v as f64,
        Ok(AnyValue::Int32(v)) => f64::from(v),
        Ok(AnyValue::UInt64(v)) => v as f64,
        Ok(AnyValue::UInt32(v)) => f64::from(v),
        _ => f64::NAN,
    }
}

/// Whether a column holds p-values (shown as `< 1e-300` when they underflow to zero).
fn is_p_value(column: &Column) -> bool {
    matches!(column.name().as_str(), "p_value" | "p_holm")
}

fn text(column: &Column, row: usize) -> String {
    match column.get(row) {
        Ok(AnyValue::Null) | Err(_) => "–".to_string(),
        Ok(AnyValue::Float64(v)) if is_p_value(column) => format_p(v),
        Ok(AnyValue::Float64(v)) => format_number(v),
        Ok(AnyValue::Float32(v)) => format_number(f64::from(v)),
        Ok(AnyValue::String(s)) => s.to_string(),
        Ok(AnyValue::StringOwned(s)) => s.to_string(),
        Ok(other) => other.to_string(),
    }
}

/// The columns as shown: estimates folded with their intervals, the mark after `p_holm`.
fn shown(frame: &DataFrame) -> Vec<Shown<'_>> {
    let columns = frame.columns();
    let find = |name: &str| columns.iter().find(|c| c.name().as_str() == name);
    let is_float = |c: &Column| c.dtype().is_float();
    let mut folded: Vec<&str> = Vec::new();
    for column in columns {
        let name = column.name().as_str();
        if let (Some(lo), Some(hi)) = (find(&format!("{name}_lo")), find(&format!("{name}_hi"))) {
            if is_float(column) && is_float(lo) && is_float(hi) {
                folded.push(lo.name().as_str());
                folded.push(hi.name().as_str());
            }
        }
    }
    let has_mark = find("p_holm").is_some() && find("significant").is_none();
    let mut out = Vec::new();
    for column in columns {
        let name = column.name().as_str();
        if folded.contains(&name) {
            continue;
        }
        match (find(&format!("{name}_lo")), find(&format!("{name}_hi"))) {
            (Some(lo), Some(hi)) if folded.contains(&lo.name().as_str()) => {
                out.push(Shown::Estimate(column, lo, hi));
            }
            _ => out.push(Shown::Plain(column)),
        }
        if has_mark && name == "p_holm" {
            out.push(Shown::Mark);
        }
    }
    out
}

/// One table as a section: a heading, a line on its size and a sortable table, collapsed
/// when it has more than [`LONG_TABLE`] rows.
pub fn section(table: &NamedTable) -> String {
    let frame = &table.frame;
    let id = format!("table-{}", slug(&table.name));
    let name = escape(&table.name);
    let columns = shown(frame);
    let p_holm = frame
        .columns()
        .iter()
        .find(|c| c.name().as_str() == "p_holm");
    let variant_columns: Vec<&Column> = frame
        .columns()
        .iter()
        .filter(|c| VARIANT_COLUMNS.contains(&c.name().as_str()))
        .collect();

    let mut html = String::new();
    let _ = write!(
        html,
        "<table class=\"data sortable\" id=\"{id}\">\n<caption class=\"visually-hidden\">{name}</caption>\n<thead><tr>"
    );
    for column in &columns {
        let class = if column.numeric() {
            " class=\"num\""
        } else {
            ""
        };
        let _ = write!(html, "<th scope=\"col\"{class}>{}</th>", column.header());
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    let mut significant = 0;
    for row in 0..frame.height() {
        let is_significant = p_holm.is_some_and(|p| float(p, row) < ALPHA);
        significant += usize::from(is_significant);
        html.push_str("<tr");
        if is_significant {
            html.push_str(" class=\"sig\"");
        }
        if !variant_columns.is_empty() {
            let names: Vec<String> = variant_columns.iter().map(|c| text(c, row)).collect();
            let _ = write!(html, " data-variant=\"{}\"", escape(&names.join(" ")));
        }
        html.push('>');
        for column in &columns {
            cell(&mut html, column, row, is_significant);
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>\n");

    let rows = frame.height();
    let mut meta = format!(
        "{rows} row{} × {} column{}",
        if rows == 1 { "" } else { "s" },
        frame.width(),
        if frame.width() == 1 { "" } else { "s" }
    );
    if p_holm.is_some() {
        let _ = write!(
            meta,
            "; {significant} significant at Holm p &lt; {ALPHA} (marked ★ yes and highlighted)"
        );
    }
    let body = format!("<div class=\"scroll\">\n{html}</div>\n");
    let body = if rows > LONG_TABLE {
        format!("<details>\n<summary>Show all {rows} rows of {name}</summary>\n{body}</details>\n")
    } else {
        body
    };
    format!(
        "<section class=\"table\" aria-labelledby=\"{id}-heading\">\n<h3 \
         id=\"{id}-heading\">{name}</h3>\n<p class=\"meta\">{meta}</p>\n{body}</section>\n"
    )
}

fn cell(html: &mut String, column: &Shown, row: usize, significant: bool) {
    match column {
        Shown::Plain(c) => {
            let shown = escape(&text(c, row));
            if column.numeric() {
                let value = float(c, row);
                // The raw value sorts the column; where the text is that value, it is enough.
                let sort = if value.is_nan() {
                    " data-sort=\"\"".to_string()
                } else if value.to_string() == shown {
                    String::new()
                } else {
                    format!(" data-sort=\"{value}\"")
                };
                let shown = if significant && c.name().as_str() == "p_holm" {
                    format!("<strong>{shown}</strong>")
                } else {
                    shown
                };
                let _ = write!(html, "<td class=\"num\"{sort}>{shown}</td>");
            } else if significant && c.name().as_str() == "significant" {
                let _ = write!(html, "<td><strong>★ {shown}</strong></td>");
            } else if shown.chars().count() > LONG_TEXT {
                let _ = write!(html, "<td class=\"long\">{shown}</td>");
            } else {
                let _ = write!(html, "<td>{shown}</td>");
            }
        }
        Shown::Estimate(point, lo, hi) => {
            let estimate = Estimate {
                point: float(point, row),
                standard_error: f64::NAN,
                confidence_interval: ConfidenceInterval {
                    level: LEVEL,
                    lower: float(lo, row),
                    upper: float(hi, row),
                },
            };
            let sort = if estimate.point.is_nan() {
                String::new()
            } else {
                estimate.point.to_string()
            };
            let _ = write!(
                html,
                "<td class=\"num\" data-sort=\"{sort}\">{}</td>",
                escape(&estimate_text(&estimate))
            );
        }
        Shown::Mark => {
            let _ = write!(
                html,
                "<td>{}</td>",
                if significant {
                    "<strong>★ yes</strong>"
                } else {
                    "no"
                }
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::TableBuilder;

    fn comparisons() -> NamedTable {
        let frame = TableBuilder::new()
            .text("a", ["x", "x"])
            .text("b", ["y", "z"])
            .real("p_holm", [0.01, 0.2])
            .real("effect", [1.5, -0.25])
            .real("effect_lo", [1.25, -0.5])
            .real("effect_hi", [1.75, f64::NAN])
            .build()
            .expect("table");
        NamedTable {
            name: "comparisons".into(),
            frame,
        }
    }

    #[test]
    fn estimates_and_their_intervals_share_one_cell() {
        let html = section(&comparisons());
        assert!(html.contains(">1.500 [1.250, 1.750]</td>"), "{html}");
        assert!(
            !html.contains("effect_lo"),
            "interval columns are folded: {html}"
        );
        assert!(html.contains("effect <span class=\"ci\">[95% CI]</span>"));
    }

    #[test]
    fn significant_rows_are_marked_in_words_not_only_colour() {
        let html = section(&comparisons());
        let rows: Vec<&str> = html.lines().filter(|l| l.starts_with("<tr")).collect();
        assert!(rows[0].starts_with("<tr class=\"sig\""), "{}", rows[0]);
        assert!(rows[0].contains("★ yes"));
        assert!(!rows[1].contains("★") && rows[1].contains("<td>no</td>"));
        assert!(html.contains("1 significant at Holm p &lt; 0.05"));
    }

    #[test]
    fn headers_have_scope_and_numbers_keep_their_raw_value_for_sorting() {
        let html = section(&comparisons());
        let headers = html.matches("<th ").count();
        assert_eq!(headers, html.matches("<th scope=\"col\"").count());
        assert_eq!(headers, 5, "a, b, p_holm, mark, effect: {html}");
        assert!(html.contains("<td class=\"num\" data-sort=\"0.01\">"));
        assert!(html.contains("data-variant=\"x y\""));
    }

    #[test]
    fn p_values_that_underflow_read_as_below_the_smallest_double() {
        let table = NamedTable {
            name: "comparisons".into(),
            frame: TableBuilder::new()
                .real("p_value", [0.0])
                .real("p_holm", [0.0])
                .count("games", [12])
                .build()
                .expect("table"),
        };
        let html = section(&table);
        assert!(
            html.contains("<td class=\"num\" data-sort=\"0\">&lt; 1e-300</td>"),
            "{html}"
        );
        assert!(
            html.contains("<strong>&lt; 1e-300</strong>"),
            "significant p in bold"
        );
        assert!(
            html.contains("<td class=\"num\">12</td>"),
            "a count sorts by its text"
        );
    }

    #[test]
    fn long_tables_are_collapsed_until_opened() {
        let long = NamedTable {
            name: "histogram".into(),
            frame: TableBuilder::new()
                .count("turns", 0..(LONG_TABLE as u64 + 1))
                .build()
                .expect("table"),
        };
        assert!(section(&long).contains("<details>"));
        assert!(!section(&comparisons()).contains("<details>"));
    }
}
