//! Report tables as HTML, drawn from what their columns are ([`Role`]), whether they are the
//! run's data tables or tables of the study's reading: header cells with scope, numbers
//! right-aligned with their value kept for sorting, an estimate and its interval shown as one
//! cell `x [lo, hi]` (which may wrap before the interval, never inside it), rows whose Holm-corrected p-value is below [`ALPHA`] marked in words as
//! well as colour, label columns feeding the variant filter, and histograms, long tables and
//! long families of tests folded until opened, their summary line saying how many rows they
//! hold and how many are significant. Every table sits in a box that scrolls sideways when
//! the table is wider than the page, so no column is ever cut off.

use std::fmt::Write;

use super::blocks::inline;
use super::{escape, slug};
use crate::frame::{format_p, NamedTable, Role};
use crate::report::{Cell, Table, Text, Value};
use crate::stats::ALPHA;

/// Tables with more rows than this are folded (in a `<details>` block) until opened;
/// histograms are folded whatever their size.
pub const LONG_TABLE: usize = 60;
/// Tables of tests (with Holm p-values) with more rows than this are folded too, their summary
/// line saying how many are significant.
pub const LONG_FAMILY: usize = 20;
/// Text cells longer than this may wrap; shorter ones stay on one line.
const LONG_TEXT: usize = 24;
/// The header of the column that says in words whether a row is significant.
const MARK_HEADER: &str = "Holm p &lt; 0.05";

/// What one shown column is made of (indices of the table's columns).
#[derive(Clone, Copy)]
enum Part {
    /// One column as it is.
    Plain(usize),
    /// An estimate and the [`Role::Lower`] and [`Role::Upper`] columns after it.
    Bounds(usize, usize, usize),
    /// A number and the [`Role::Interval`] column after it, whose cells read `[lo, hi]`.
    Interval(usize, usize),
    /// The significance mark put after a [`Role::Holm`] column.
    Mark,
}

/// The shown columns of `table`: estimates joined with their intervals, and the mark column
/// after the first Holm p-value unless the table says significance in words itself
/// ([`Role::Verdict`]).
fn parts(table: &Table) -> Vec<Part> {
    let role = |i: usize| table.columns.get(i).map(|c| c.role);
    let mut parts = Vec::new();
    let mut marked = table.columns.iter().any(|c| c.role == Role::Verdict);
    let mut i = 0;
    while i < table.columns.len() {
        let numeric = role(i).and_then(Role::numeric) == Some(true);
        if numeric && role(i + 1) == Some(Role::Lower) && role(i + 2) == Some(Role::Upper) {
            parts.push(Part::Bounds(i, i + 1, i + 2));
            i += 3;
        } else if numeric && role(i + 1) == Some(Role::Interval) {
            parts.push(Part::Interval(i, i + 1));
            i += 2;
        } else {
            parts.push(Part::Plain(i));
            if role(i) == Some(Role::Holm) && !marked {
                parts.push(Part::Mark);
                marked = true;
            }
            i += 1;
        }
    }
    parts
}

/// A value as `data-sort` holds it: in full, or in exponent form when very small or large.
fn sort_value(value: f64) -> String {
    let magnitude = value.abs();
    if value.is_infinite() {
        if value > 0.0 { "Infinity" } else { "-Infinity" }.to_string()
    } else if value != 0.0 && !(1e-4..1e15).contains(&magnitude) {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

/// The `data-sort` attribute of a cell of a numeric column showing `text` for `value`: none
/// when the text is the value, empty (sorted last) when the cell has no number.
fn sort_attribute(value: &Value, text: &str) -> String {
    match value {
        Value::Number(v) if sort_value(*v) == text => String::new(),
        Value::Number(v) => format!(" data-sort=\"{}\"", escape(&sort_value(*v))),
        Value::Missing | Value::Text => " data-sort=\"\"".to_string(),
    }
}

/// Whether `row` is significant: its first Holm p-value is below [`ALPHA`].
fn significant(table: &Table, row: &[Cell]) -> bool {
    table
        .columns
        .iter()
        .position(|c| c.role == Role::Holm)
        .is_some_and(|holm| matches!(row[holm].value, Value::Number(p) if p < ALPHA))
}

/// A drawn table: the `<table>` and how many of its rows are significant (`None` when it has
/// no Holm p-values).
struct Drawn {
    html: String,
    significant: Option<usize>,
}

/// The `<table>` for `table`, with `caption` (HTML) for screen readers and `id` when given.
fn draw(table: &Table, id: Option<&str>, caption: &str) -> Drawn {
    let parts = parts(table);
    let numeric = |part: &Part| match *part {
        Part::Plain(i) => table.numeric(i),
        Part::Bounds(..) | Part::Interval(..) => true,
        Part::Mark => false,
    };
    let labels: Vec<usize> = (0..table.columns.len())
        .filter(|&i| table.columns[i].role == Role::Label)
        .collect();
    let has_holm = table.columns.iter().any(|c| c.role == Role::Holm);
    let id = id.map_or(String::new(), |id| format!(" id=\"{id}\""));
    let mut html = String::new();
    let _ = write!(
        html,
        "<table class=\"data sortable\"{id}>\n<caption class=\"visually-hidden\">{caption}</caption>\n<thead><tr>"
    );
    for part in &parts {
        let class = if numeric(part) { " class=\"num\"" } else { "" };
        let header = match *part {
            Part::Plain(i) => escape(&table.columns[i].header),
            Part::Bounds(i, ..) => format!(
                "{} <span class=\"ci\">[95% CI]</span>",
                escape(&table.columns[i].header)
            ),
            Part::Interval(i, ci) => format!(
                "{} <span class=\"ci\">[{}]</span>",
                escape(&table.columns[i].header),
                escape(&table.columns[ci].header)
            ),
            Part::Mark => MARK_HEADER.to_string(),
        };
        let _ = write!(html, "<th scope=\"col\"{class}>{header}</th>");
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    let mut count = 0;
    for row in &table.rows {
        let sig = significant(table, row);
        count += usize::from(sig);
        html.push_str(if sig { "<tr class=\"sig\"" } else { "<tr" });
        if !labels.is_empty() {
            let names: Vec<String> = labels.iter().map(|&i| row[i].text.words()).collect();
            let _ = write!(html, " data-variant=\"{}\"", escape(&names.join(" ")));
        }
        html.push('>');
        for part in &parts {
            html.push_str(&cell(table, row, *part, sig, numeric(part)));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>\n");
    Drawn {
        html,
        significant: has_holm.then_some(count),
    }
}

/// A number cell's words `x [lo, hi]` (an estimate and its interval written as one cell by the
/// study) with the interval in its own span, as a joined cell shows it, so the cell may wrap
/// before the interval but never inside it; other words as they are.
fn interval_apart(html: String) -> String {
    match html.split_once(" [") {
        Some((estimate, interval)) if interval.ends_with(']') && !estimate.contains('[') => {
            format!("{estimate} <span class=\"iv\">[{interval}</span>")
        }
        _ => html,
    }
}

/// The `<td>` that `part` shows in `row` (significant when `sig`); an estimate without its
/// interval is shown alone.
fn cell(table: &Table, row: &[Cell], part: Part, sig: bool, numeric: bool) -> String {
    let (shown, value) = match part {
        Part::Plain(i) => {
            let html = inline(&row[i].text);
            if sig && table.columns[i].role == Role::Holm {
                (format!("<strong>{html}</strong>"), &row[i].value)
            } else if sig && table.columns[i].role == Role::Verdict {
                (format!("<strong>★ {html}</strong>"), &row[i].value)
            } else if numeric {
                (interval_apart(html), &row[i].value)
            } else {
                (html, &row[i].value)
            }
        }
        Part::Bounds(i, lo, hi) => {
            let complete = [i, lo, hi]
                .iter()
                .all(|&c| !matches!(row[c].value, Value::Missing));
            let html = if complete {
                format!(
                    "{} <span class=\"iv\">[{}, {}]</span>",
                    inline(&row[i].text),
                    inline(&row[lo].text),
                    inline(&row[hi].text)
                )
            } else {
                inline(&row[i].text)
            };
            (html, &row[i].value)
        }
        Part::Interval(i, ci) => {
            let html = if matches!(row[ci].value, Value::Missing) {
                inline(&row[i].text)
            } else {
                format!(
                    "{} <span class=\"iv\">{}</span>",
                    inline(&row[i].text),
                    inline(&row[ci].text)
                )
            };
            (html, &row[i].value)
        }
        Part::Mark if sig => ("<strong>★ yes</strong>".to_string(), &Value::Text),
        Part::Mark => ("no".to_string(), &Value::Text),
    };
    let words = match part {
        Part::Plain(i) | Part::Bounds(i, ..) | Part::Interval(i, _) => row[i].text.words(),
        Part::Mark => String::new(),
    };
    if numeric {
        // A joined cell's text is never its value alone, so it always sorts by the value.
        let sort = match part {
            Part::Plain(_) => sort_attribute(value, &words),
            _ => sort_attribute(value, ""),
        };
        format!("<td class=\"num\"{sort}>{shown}</td>")
    } else if words.chars().count() > LONG_TEXT {
        format!("<td class=\"long\">{shown}</td>")
    } else {
        format!("<td>{shown}</td>")
    }
}

/// `drawn` in its scrolling box (which says how many of its rows are significant, for the
/// page's checks), folded in a `<details>` block opened by `summary` when it is a histogram,
/// longer than [`LONG_TABLE`] rows, or a family of more than [`LONG_FAMILY`] tests; a folded
/// family's summary adds how many of its rows are significant.
fn wrap(drawn: &Drawn, rows: usize, histogram: bool, summary: &str) -> String {
    let marked = drawn
        .significant
        .map_or(String::new(), |k| format!(" data-significant=\"{k}\""));
    let body = format!("<div class=\"scroll\"{marked}>\n{}</div>\n", drawn.html);
    let family = drawn.significant.is_some() && rows > LONG_FAMILY;
    if !(histogram || rows > LONG_TABLE || family) {
        return body;
    }
    let count = drawn.significant.map_or(String::new(), |k| {
        format!(" ({k} significant at Holm p &lt; {ALPHA})")
    });
    format!("<details>\n<summary>{summary}{count}</summary>\n{body}</details>\n")
}

/// The words telling how many rows (`count`) of `table` are significant and how they are
/// marked: by the page's own mark, or by the table's [`Role::Verdict`] column.
fn significance_note(table: &Table, count: &str) -> String {
    let mark = match table.columns.iter().find(|c| c.role == Role::Verdict) {
        Some(verdict) => format!("marked ★ in {} and highlighted", escape(&verdict.header)),
        None => "marked ★ yes and highlighted".to_string(),
    };
    format!("{count} significant at Holm p &lt; {ALPHA} ({mark})")
}

/// Whether `table` is a histogram (it has a [`Role::Bin`] column).
fn is_histogram(table: &Table) -> bool {
    table.columns.iter().any(|c| c.role == Role::Bin)
}

/// A run's data table as a report table, as the page shows it: p-values that underflow to
/// zero read as below the smallest double, and an estimate without a value reads `no data`.
fn data_table(named: &NamedTable) -> Table {
    let mut table = Table::from_named(named);
    let roles: Vec<Role> = table.columns.iter().map(|c| c.role).collect();
    for row in &mut table.rows {
        for (cell, role) in row.iter_mut().zip(&roles) {
            match (role, &cell.value) {
                (Role::PValue | Role::Holm, Value::Number(p)) => {
                    cell.text = Text::from(format_p(*p))
                }
                (Role::Estimate, Value::Missing) => cell.text = Text::from("no data"),
                _ => {}
            }
        }
    }
    table
}

/// One table of the run as a section: a heading, a line on its size and a sortable table,
/// folded when it is a histogram or has more than [`LONG_TABLE`] rows.
pub fn section(named: &NamedTable) -> String {
    let table = data_table(named);
    let id = format!("table-{}", slug(&named.name));
    let name = escape(&named.name);
    let histogram = is_histogram(&table);
    let (rows, width) = (table.rows.len(), table.columns.len());
    let mut meta = format!(
        "{rows} row{} × {width} column{}",
        if rows == 1 { "" } else { "s" },
        if width == 1 { "" } else { "s" }
    );
    let drawn = draw(&table, Some(&id), &name);
    if let Some(significant) = drawn.significant {
        let _ = write!(
            meta,
            "; {}",
            significance_note(&table, &significant.to_string())
        );
    }
    if histogram {
        meta.push_str("; a histogram, folded");
    }
    let summary = format!(
        "Show all {rows} rows of {name}{}",
        if histogram { " (a histogram)" } else { "" }
    );
    let body = wrap(&drawn, rows, histogram, &summary);
    format!(
        "<section class=\"table\" aria-labelledby=\"{id}-heading\">\n<h3 \
         id=\"{id}-heading\">{name}</h3>\n<p class=\"meta\">{meta}</p>\n{body}</section>\n"
    )
}

/// A table of the reading, drawn like the run's tables, with `caption` (the heading it stands
/// under) naming it for screen readers.
pub fn reading_table(table: &Table, caption: &str) -> String {
    let rows = table.rows.len();
    let drawn = draw(table, None, &escape(caption));
    let note = drawn.significant.map_or(String::new(), |significant| {
        format!(
            "<p class=\"meta\">{}</p>\n",
            significance_note(table, &format!("{significant} of {rows} rows"))
        )
    });
    let histogram = is_histogram(table);
    let summary = format!(
        "Show all {rows} rows{}",
        if histogram { " (a histogram)" } else { "" }
    );
    format!("{note}{}", wrap(&drawn, rows, histogram, &summary))
}

#[cfg(test)]
mod tests;
