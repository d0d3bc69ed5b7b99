//! Tables as HTML, whether they come from the run's data frames or from the Markdown tables of
//! the study's reading: header cells with scope, numbers right-aligned with their raw value
//! kept for sorting, `x`, `x_lo`, `x_hi` shown as one cell `x [lo, hi]`, rows whose
//! Holm-corrected p-value is below 0.05 marked in words as well as colour, and histograms and
//! long tables collapsed until opened.

use crate::stats::ALPHA;
use std::fmt::Write;

use polars::prelude::{AnyValue, Column, DataFrame};

use super::{escape, slug};
use crate::frame::NamedTable;
use crate::frame::{format_number, format_p};
use crate::report::estimate_text;
use crate::stats::{ConfidenceInterval, Estimate, LEVEL};

/// Tables with more rows than this are collapsed (in a `<details>` block) until opened;
/// histograms are collapsed whatever their size.
pub const LONG_TABLE: usize = 60;
/// Text cells longer than this may wrap; shorter ones stay on one line.
const LONG_TEXT: usize = 24;
/// Columns naming a variant (or the two variants of a comparison): the filter box matches
/// their text.
const VARIANT_COLUMNS: [&str; 6] = ["variant", "a", "b", "best", "strategy", "pairing"];
/// The header of the column that says in words whether a row is significant.
const MARK_HEADER: &str = "Holm p &lt; 0.05";

/// A table as drawn, whatever it was built from.
pub struct Grid {
    /// The columns, in the order shown.
    pub columns: Vec<GridColumn>,
    /// The rows, each with one cell per column.
    pub rows: Vec<GridRow>,
}

/// One shown column.
pub struct GridColumn {
    /// Its name as plain text (a data column's name, a Markdown header's text).
    pub name: String,
    /// Its header cell's content (HTML).
    pub header: String,
    /// Whether it holds numbers (right-aligned, sorted by value).
    pub numeric: bool,
}

/// One row.
pub struct GridRow {
    /// Its cells, one per column.
    pub cells: Vec<Cell>,
    /// Whether its Holm-corrected p-value is below [`ALPHA`].
    pub significant: bool,
}

/// One cell.
pub struct Cell {
    /// Its content (HTML).
    pub html: String,
    /// Its plain text.
    pub text: String,
    /// The value it sorts by (`data-sort`), when that is not its text; `Some("")` for a cell
    /// with no value, which sorts last.
    pub sort: Option<String>,
}

impl Cell {
    /// A text cell.
    fn text(html: String, text: String) -> Self {
        Cell {
            html,
            text,
            sort: None,
        }
    }

    /// A number cell showing `text` (HTML `html`) for `value`.
    fn number(html: String, text: String, value: f64) -> Self {
        let sort = if value.is_nan() {
            Some(String::new())
        } else if value.is_infinite() {
            Some(if value > 0.0 { "Infinity" } else { "-Infinity" }.to_string())
        } else if sort_value(value) == text {
            None
        } else {
            Some(sort_value(value))
        };
        Cell { html, text, sort }
    }
}

/// A value as `data-sort` holds it: in full, or in exponent form when very small or large.
fn sort_value(value: f64) -> String {
    let magnitude = value.abs();
    if value != 0.0 && !(1e-4..1e15).contains(&magnitude) {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

/// Whether a cell holds no value (empty, or the dash tables print for one).
fn is_blank(text: &str) -> bool {
    matches!(text.trim(), "" | "–" | "-" | "no data")
}

/// Whether a Markdown cell's text reads as a number, possibly with its interval, a percent
/// sign, a count in brackets or a `<` bound (e.g. `+0.5088 [+0.5078, +0.5098]`,
/// `0 (0%)`, `< 1e-300`).
fn looks_numeric(text: &str) -> bool {
    let text = text.trim();
    text.chars().any(|c| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || " .,+-−eE%[]()/<".contains(c))
}

/// The number a Markdown cell's text starts with (`< 1e-300` reads as 1e-300, `50.80%` as
/// 50.8, `177.5 [177.3, 177.8]` as 177.5); NaN when it is blank or starts with no number.
fn leading_number(text: &str) -> f64 {
    if is_blank(text) {
        return f64::NAN;
    }
    let text = text.trim().trim_start_matches('<').trim_start();
    let text = text.replace('−', "-");
    let end = text
        .find(|c: char| c.is_whitespace() || "%[(/,".contains(c))
        .unwrap_or(text.len());
    text[..end].parse().unwrap_or(f64::NAN)
}

/// Whether a table is a histogram: its name says so, or it is a count per value of one
/// number (besides text columns naming the variant, and shares of the counts).
pub fn is_histogram(name: &str, grid: &Grid) -> bool {
    if name.to_lowercase().contains("hist") {
        return true;
    }
    let names: Vec<String> = grid.columns.iter().map(|c| c.name.to_lowercase()).collect();
    if !names.iter().any(|n| n == "count") {
        return false;
    }
    let values = grid
        .columns
        .iter()
        .zip(&names)
        .filter(|(column, name)| {
            column.numeric
                && name.as_str() != "count"
                && !name.starts_with("share")
                && !name.contains("probability")
        })
        .count();
    values == 1
}

/// Marks the rows whose Holm-corrected p-value (`p_values`, one per row, in column `holm`)
/// is below [`ALPHA`]: highlighted, that p-value in bold, and in words, by a star in the
/// table's own `significant` column or else in a column "Holm p < 0.05" put after the
/// p-values. Returns how many rows are significant.
fn mark_significant(grid: &mut Grid, holm: usize, p_values: &[f64]) -> usize {
    let own = grid
        .columns
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case("significant"));
    if own.is_none() {
        grid.columns.insert(
            holm + 1,
            GridColumn {
                name: "significant".into(),
                header: MARK_HEADER.into(),
                numeric: false,
            },
        );
    }
    let mut significant = 0;
    for (row, p) in grid.rows.iter_mut().zip(p_values) {
        row.significant = *p < ALPHA;
        significant += usize::from(row.significant);
        if row.significant {
            let cell = &mut row.cells[holm];
            cell.html = format!("<strong>{}</strong>", cell.html);
        }
        match own {
            Some(column) if row.significant => {
                let cell = &mut row.cells[column];
                cell.html = format!("<strong>★ {}</strong>", cell.html);
            }
            Some(_) => {}
            None => {
                let (html, text) = if row.significant {
                    ("<strong>★ yes</strong>", "★ yes")
                } else {
                    ("no", "no")
                };
                row.cells
                    .insert(holm + 1, Cell::text(html.into(), text.into()));
            }
        }
    }
    significant
}

/// The `<table>` for `grid`, with `caption` for screen readers and `id` when given.
fn table_html(grid: &Grid, id: Option<&str>, caption: &str) -> String {
    let variant_columns: Vec<usize> = grid
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| VARIANT_COLUMNS.contains(&c.name.to_lowercase().as_str()))
        .map(|(i, _)| i)
        .collect();
    let id = id.map_or(String::new(), |id| format!(" id=\"{id}\""));
    let mut html = String::new();
    let _ = write!(
        html,
        "<table class=\"data sortable\"{id}>\n<caption class=\"visually-hidden\">{caption}</caption>\n<thead><tr>"
    );
    for column in &grid.columns {
        let class = if column.numeric { " class=\"num\"" } else { "" };
        let _ = write!(html, "<th scope=\"col\"{class}>{}</th>", column.header);
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for row in &grid.rows {
        html.push_str("<tr");
        if row.significant {
            html.push_str(" class=\"sig\"");
        }
        if !variant_columns.is_empty() {
            let names: Vec<&str> = variant_columns
                .iter()
                .map(|&i| row.cells[i].text.as_str())
                .collect();
            let _ = write!(html, " data-variant=\"{}\"", escape(&names.join(" ")));
        }
        html.push('>');
        for (column, cell) in grid.columns.iter().zip(&row.cells) {
            if column.numeric {
                let sort = cell
                    .sort
                    .as_ref()
                    .map_or(String::new(), |s| format!(" data-sort=\"{}\"", escape(s)));
                let _ = write!(html, "<td class=\"num\"{sort}>{}</td>", cell.html);
            } else if cell.text.chars().count() > LONG_TEXT {
                let _ = write!(html, "<td class=\"long\">{}</td>", cell.html);
            } else {
                let _ = write!(html, "<td>{}</td>", cell.html);
            }
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>\n");
    html
}

/// `table` in its scrolling box, folded in a `<details>` block opened by `summary` when
/// `folded`.
fn wrap(table: &str, folded: bool, summary: &str) -> String {
    let body = format!("<div class=\"scroll\">\n{table}</div>\n");
    if folded {
        format!("<details>\n<summary>{summary}</summary>\n{body}</details>\n")
    } else {
        body
    }
}

/// The words telling how many rows (`count`) are significant and how they are marked.
fn significance_note(count: &str) -> String {
    format!("{count} significant at Holm p &lt; {ALPHA} (marked ★ yes and highlighted)")
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

/// How one shown column of a data frame is filled.
enum Shown<'a> {
    /// A column shown as it is.
    Plain(&'a Column),
    /// An estimate with its interval columns `name_lo` and `name_hi`.
    Estimate(&'a Column, &'a Column, &'a Column),
}

/// The header of a column showing an estimate with its interval.
fn estimate_header(name_html: &str) -> String {
    format!("{name_html} <span class=\"ci\">[95% CI]</span>")
}

/// The columns as shown: estimates folded with their intervals.
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
    }
    out
}

/// A data frame as a grid (without the significance marks).
fn frame_grid(frame: &DataFrame) -> Grid {
    let shown = shown(frame);
    let columns = shown
        .iter()
        .map(|column| match column {
            Shown::Plain(c) => GridColumn {
                name: c.name().to_string(),
                header: escape(c.name()),
                numeric: c.dtype().is_primitive_numeric(),
            },
            Shown::Estimate(c, _, _) => GridColumn {
                name: c.name().to_string(),
                header: estimate_header(&escape(c.name())),
                numeric: true,
            },
        })
        .collect();
    let rows = (0..frame.height())
        .map(|row| GridRow {
            cells: shown.iter().map(|column| frame_cell(column, row)).collect(),
            significant: false,
        })
        .collect();
    Grid { columns, rows }
}

fn frame_cell(column: &Shown, row: usize) -> Cell {
    match column {
        Shown::Plain(c) => {
            let shown = text(c, row);
            if c.dtype().is_primitive_numeric() {
                Cell::number(escape(&shown), shown, float(c, row))
            } else {
                Cell::text(escape(&shown), shown)
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
            let shown = estimate_text(&estimate);
            Cell {
                html: escape(&shown),
                text: shown,
                sort: Some(if estimate.point.is_nan() {
                    String::new()
                } else {
                    sort_value(estimate.point)
                }),
            }
        }
    }
}

/// One table of the run as a section: a heading, a line on its size and a sortable table,
/// collapsed when it is a histogram or has more than [`LONG_TABLE`] rows.
pub fn section(table: &NamedTable) -> String {
    let frame = &table.frame;
    let id = format!("table-{}", slug(&table.name));
    let name = escape(&table.name);
    let mut grid = frame_grid(frame);
    let histogram = is_histogram(&table.name, &grid);

    let rows = frame.height();
    let mut meta = format!(
        "{rows} row{} × {} column{}",
        if rows == 1 { "" } else { "s" },
        frame.width(),
        if frame.width() == 1 { "" } else { "s" }
    );
    if let Some(p_holm) = frame
        .columns()
        .iter()
        .find(|c| c.name().as_str() == "p_holm")
    {
        let holm = grid
            .columns
            .iter()
            .position(|c| c.name == "p_holm")
            .expect("p_holm is shown");
        let p_values: Vec<f64> = (0..rows).map(|row| float(p_holm, row)).collect();
        let significant = mark_significant(&mut grid, holm, &p_values);
        let _ = write!(meta, "; {}", significance_note(&significant.to_string()));
    }
    if histogram {
        meta.push_str("; a histogram, folded");
    }
    let summary = format!(
        "Show all {rows} rows of {name}{}",
        if histogram { " (a histogram)" } else { "" }
    );
    let body = wrap(
        &table_html(&grid, Some(&id), &name),
        histogram || rows > LONG_TABLE,
        &summary,
    );
    format!(
        "<section class=\"table\" aria-labelledby=\"{id}-heading\">\n<h3 \
         id=\"{id}-heading\">{name}</h3>\n<p class=\"meta\">{meta}</p>\n{body}</section>\n"
    )
}

/// One cell of a Markdown table: its content as HTML and as plain text.
pub struct MarkdownCell {
    /// The content as HTML (inline markup kept, raw HTML escaped).
    pub html: String,
    /// The content as plain text.
    pub text: String,
}

/// What a shown column of a Markdown table is made of (indices of its Markdown columns).
enum Part {
    /// One column as it is.
    Plain(usize),
    /// An estimate and its bounds `X`, `X_lo`, `X_hi`.
    Bounds(usize, usize, usize),
    /// An estimate and the `95% CI` column after it, whose cells read `[lo, hi]`.
    Interval(usize, usize),
}

/// A Markdown table's cells, with each column's header text and whether it holds numbers.
struct Markdown {
    header: Vec<MarkdownCell>,
    body: Vec<Vec<MarkdownCell>>,
    names: Vec<String>,
    numeric: Vec<bool>,
}

impl Markdown {
    fn new(header: Vec<MarkdownCell>, right: &[bool], body: Vec<Vec<MarkdownCell>>) -> Self {
        let names: Vec<String> = header.iter().map(|c| c.text.trim().to_string()).collect();
        let mut table = Markdown {
            header,
            body,
            names,
            numeric: Vec::new(),
        };
        table.numeric = (0..table.names.len())
            .map(|column| {
                let mut values = table
                    .column(column)
                    .filter(|text| !is_blank(text))
                    .peekable();
                right.get(column).copied().unwrap_or(false)
                    || (values.peek().is_some() && values.all(looks_numeric))
            })
            .collect();
        table
    }

    /// The trimmed text of every body cell of `column`.
    fn column(&self, column: usize) -> impl Iterator<Item = &str> {
        self.body
            .iter()
            .map(move |row| row.get(column).map_or("", |c| c.text.trim()))
    }

    /// The cell of `row` in `column` as (HTML, text); empty when the row is short.
    fn cell(&self, row: usize, column: usize) -> (String, String) {
        self.body[row]
            .get(column)
            .map_or((String::new(), String::new()), |c| {
                (c.html.clone(), c.text.trim().to_string())
            })
    }

    /// The shown columns: estimates joined with their bounds or their interval column.
    fn parts(&self) -> Vec<Part> {
        let width = self.names.len();
        let position = |name: &str| self.names.iter().position(|n| n == name);
        let bounds = |column: usize| {
            let name = &self.names[column];
            match (
                position(&format!("{name}_lo")),
                position(&format!("{name}_hi")),
            ) {
                (Some(lo), Some(hi))
                    if self.numeric[column] && self.numeric[lo] && self.numeric[hi] =>
                {
                    Some((lo, hi))
                }
                _ => None,
            }
        };
        let interval_after = |column: usize| {
            column + 1 < width
                && self.numeric[column]
                && self.names[column + 1].to_lowercase().ends_with("% ci")
                && self
                    .column(column + 1)
                    .all(|t| is_blank(t) || (t.starts_with('[') && t.ends_with(']')))
        };
        let mut hidden = vec![false; width];
        for column in 0..width {
            if let Some((lo, hi)) = bounds(column) {
                hidden[lo] = true;
                hidden[hi] = true;
            }
        }
        let mut parts = Vec::new();
        for column in 0..width {
            if hidden[column] {
                continue;
            }
            if let Some((lo, hi)) = bounds(column) {
                parts.push(Part::Bounds(column, lo, hi));
            } else if interval_after(column) {
                hidden[column + 1] = true;
                parts.push(Part::Interval(column, column + 1));
            } else {
                parts.push(Part::Plain(column));
            }
        }
        parts
    }

    fn grid_column(&self, part: &Part) -> GridColumn {
        match *part {
            Part::Plain(c) => GridColumn {
                name: self.names[c].clone(),
                header: self.header[c].html.clone(),
                numeric: self.numeric[c],
            },
            Part::Bounds(c, _, _) => GridColumn {
                name: self.names[c].clone(),
                header: estimate_header(&self.header[c].html),
                numeric: true,
            },
            Part::Interval(c, ci) => GridColumn {
                name: self.names[c].clone(),
                header: format!(
                    "{} <span class=\"ci\">[{}]</span>",
                    self.header[c].html,
                    escape(&self.names[ci])
                ),
                numeric: true,
            },
        }
    }

    /// The cell `part` shows in `row`; an estimate without its interval is shown alone.
    fn grid_cell(&self, part: &Part, row: usize, numeric: bool) -> Cell {
        let (html, text) = match *part {
            Part::Plain(c) => self.cell(row, c),
            Part::Bounds(c, lo, hi) => {
                let (html, text) = self.cell(row, c);
                let ((lo_html, lo), (hi_html, hi)) = (self.cell(row, lo), self.cell(row, hi));
                if is_blank(&text) || is_blank(&lo) || is_blank(&hi) {
                    (html, text)
                } else {
                    (
                        format!("{html} [{lo_html}, {hi_html}]"),
                        format!("{text} [{lo}, {hi}]"),
                    )
                }
            }
            Part::Interval(c, ci) => {
                let (html, text) = self.cell(row, c);
                let (ci_html, ci) = self.cell(row, ci);
                if is_blank(&ci) {
                    (html, text)
                } else {
                    (format!("{html} {ci_html}"), format!("{text} {ci}"))
                }
            }
        };
        if numeric {
            let value = leading_number(&text);
            Cell::number(html, text, value)
        } else {
            Cell::text(html, text)
        }
    }
}

/// A Markdown table of the reading, drawn like the run's tables: `X`, `X_lo`, `X_hi` and an
/// estimate followed by a `95% CI` column shown as one cell `x [lo, hi]`, rows marked by a
/// Holm p-value column (`p_holm`, `p (Holm)`), numbers right-aligned and sortable, and
/// histograms and long tables folded. `right` says which columns Markdown aligns right;
/// `caption` names the table for screen readers.
pub fn reading_table(
    header: Vec<MarkdownCell>,
    right: &[bool],
    body: Vec<Vec<MarkdownCell>>,
    caption: &str,
) -> String {
    let table = Markdown::new(header, right, body);
    let parts = table.parts();
    let columns: Vec<GridColumn> = parts.iter().map(|p| table.grid_column(p)).collect();
    let rows = (0..table.body.len())
        .map(|row| GridRow {
            cells: parts
                .iter()
                .zip(&columns)
                .map(|(part, column)| table.grid_cell(part, row, column.numeric))
                .collect(),
            significant: false,
        })
        .collect();
    let mut grid = Grid { columns, rows };

    let rows = grid.rows.len();
    let mut note = String::new();
    if let Some(holm) = grid
        .columns
        .iter()
        .position(|c| c.name.to_lowercase().contains("holm"))
    {
        let p_values: Vec<f64> = grid
            .rows
            .iter()
            .map(|row| leading_number(&row.cells[holm].text))
            .collect();
        let significant = mark_significant(&mut grid, holm, &p_values);
        note = format!(
            "<p class=\"meta\">{}</p>\n",
            significance_note(&format!("{significant} of {rows} rows"))
        );
    }
    // A heading names the section, not the table: only the table's shape says "histogram".
    let histogram = is_histogram("", &grid);
    let summary = format!(
        "Show all {rows} rows{}",
        if histogram { " (a histogram)" } else { "" }
    );
    let table = table_html(&grid, None, &escape(caption));
    format!(
        "{note}{}",
        wrap(&table, histogram || rows > LONG_TABLE, &summary)
    )
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
        NamedTable::untyped("comparisons", frame)
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
        let table = TableBuilder::new()
            .real("p_value", [0.0])
            .real("p_holm", [0.0])
            .count("games", [12])
            .named("comparisons")
            .expect("table");
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
        let long = TableBuilder::new()
            .count("turns", 0..(LONG_TABLE as u64 + 1))
            .named("histogram")
            .expect("table");
        assert!(section(&long).contains("<details>"));
        assert!(!section(&comparisons()).contains("<details>"));
    }

    #[test]
    fn histograms_are_collapsed_whatever_their_size() {
        let histogram = |name: &str| {
            TableBuilder::new()
                .text("variant", ["a", "a", "b"])
                .count("period", [36, 52, 52])
                .count("count", [2, 10, 7])
                .real("share", [0.2, 0.8, 1.0])
                .named(name)
                .expect("table")
        };
        let html = section(&histogram("cycles"));
        assert!(
            html.contains("<details>\n<summary>Show all 3 rows of cycles (a histogram)</summary>"),
            "{html}"
        );
        // A table that counts, but has other measures besides, is not a histogram.
        let landing = TableBuilder::new()
            .count("square", [1, 2])
            .count("count", [10, 12])
            .real("freq", [0.4, 0.6])
            .real("z", [0.1, -0.1])
            .named("landing")
            .expect("table");
        assert!(!section(&landing).contains("<details>"));
    }

    #[test]
    fn markdown_numbers_are_read_for_sorting() {
        assert_eq!(leading_number("< 1e-300"), 1e-300);
        assert_eq!(leading_number("+0.5088 [+0.5078, +0.5098]"), 0.5088);
        assert_eq!(leading_number("50.80%"), 50.8);
        assert_eq!(leading_number("1000000 (100.0%)"), 1e6);
        assert!(leading_number("Jail").is_nan());
        assert!(looks_numeric("0 (0%)") && looks_numeric("35.83 / 29 / 7"));
        assert!(!looks_numeric("11 Jail") && !looks_numeric("–"));
        assert_eq!(sort_value(6.4e-35), "6.4e-35");
        assert_eq!(sort_value(0.01), "0.01");
    }
}
