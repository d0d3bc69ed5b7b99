//! Report tables as HTML, drawn from what their columns are ([`Role`]), whether they are the
//! run's data tables or tables of the study's reading: header cells with scope, numbers
//! right-aligned with their value kept for sorting, an estimate and its interval shown as one
//! cell `x [lo, hi]`, rows whose Holm-corrected p-value is below [`ALPHA`] marked in words as
//! well as colour, label columns feeding the variant filter, and histograms and long tables
//! folded until opened.

use std::fmt::Write;

use super::blocks::inline;
use super::{escape, slug};
use crate::frame::{format_p, NamedTable, Role};
use crate::report::{Cell, Table, Text, Value};
use crate::stats::ALPHA;

/// Tables with more rows than this are folded (in a `<details>` block) until opened;
/// histograms are folded whatever their size.
pub const LONG_TABLE: usize = 60;
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
                    "{} [{}, {}]",
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
                format!("{} {}", inline(&row[i].text), inline(&row[ci].text))
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
    let body = wrap(&drawn.html, histogram || rows > LONG_TABLE, &summary);
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
    format!(
        "{note}{}",
        wrap(&drawn.html, histogram || rows > LONG_TABLE, &summary)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::TableBuilder;

    fn comparisons() -> NamedTable {
        TableBuilder::new()
            .text("a", ["x", "x"])
            .role(Role::Label)
            .text("b", ["y", "z"])
            .role(Role::Label)
            .real("p_holm", [0.01, 0.2])
            .role(Role::Holm)
            .interval("effect", [1.5, -0.25], [1.25, -0.5], [1.75, f64::NAN])
            .named("comparisons")
            .expect("table")
    }

    /// The body rows of `html`, one line each.
    fn rows(html: &str) -> Vec<&str> {
        html.lines().filter(|l| l.starts_with("<tr")).collect()
    }

    #[test]
    fn an_estimate_and_its_lower_and_upper_columns_are_one_cell_sorted_by_the_estimate() {
        let html = section(&comparisons());
        assert!(
            html.contains("<td class=\"num\" data-sort=\"1.5\">1.500 [1.250, 1.750]</td>"),
            "{html}"
        );
        assert!(
            html.contains("<td class=\"num\" data-sort=\"-0.25\">-0.2500</td>"),
            "an estimate without its interval is shown alone: {html}"
        );
        assert!(!html.contains("effect_lo") && !html.contains("effect_hi"));
        assert!(html.contains("effect <span class=\"ci\">[95% CI]</span>"));
        assert!(
            html.contains("2 rows × 6 columns"),
            "the file's columns are counted"
        );
    }

    #[test]
    fn columns_named_like_bounds_are_not_joined_without_their_roles() {
        let table = TableBuilder::new()
            .real("x", [1.0])
            .real("x_lo", [0.5])
            .real("x_hi", [1.5])
            .named("plain")
            .expect("table");
        let html = section(&table);
        assert!(
            html.contains(">x_lo</th>") && html.contains(">x_hi</th>"),
            "{html}"
        );
    }

    #[test]
    fn a_holm_p_value_below_alpha_marks_its_row_in_words_and_colour() {
        let html = section(&comparisons());
        let rows = rows(&html);
        assert!(rows[0].starts_with("<tr class=\"sig\""), "{}", rows[0]);
        assert!(rows[0].contains("<td><strong>★ yes</strong></td>"));
        assert!(
            rows[0].contains("<strong>0.01000</strong>"),
            "the p-value in bold"
        );
        assert!(!rows[1].contains("sig") && rows[1].contains("<td>no</td>"));
        assert!(html.contains("<th scope=\"col\">Holm p &lt; 0.05</th>"));
        assert!(html.contains("1 significant at Holm p &lt; 0.05"));
        // A column merely named like one marks nothing.
        let named = TableBuilder::new()
            .real("p_holm", [0.01])
            .named("named")
            .expect("table");
        let html = section(&named);
        assert!(!html.contains("sig") && !html.contains("★"), "{html}");
    }

    #[test]
    fn a_table_that_says_significance_in_words_gets_no_second_mark() {
        let mut table = Table::new([
            ("variant", Role::Label),
            ("p_holm", Role::Holm),
            ("significant", Role::Verdict),
        ]);
        table.row(vec![Cell::text("x"), Cell::p(0.001), Cell::text("yes")]);
        let html = reading_table(&table, "");
        assert!(!html.contains("Holm p &lt; 0.05</th>"), "{html}");
        assert!(html.contains("<td><strong>★ yes</strong></td>"), "{html}");
        assert!(
            html.contains("(marked ★ in significant and highlighted)"),
            "{html}"
        );
        assert!(
            rows(&html)[0].starts_with("<tr class=\"sig\""),
            "the row is still marked"
        );
    }

    #[test]
    fn a_number_and_its_interval_in_words_are_one_cell() {
        let mut table = Table::new([
            ("a", Role::Label),
            ("p (Holm)", Role::Holm),
            ("effect", Role::Effect),
            ("95% CI", Role::Interval),
        ]);
        table.row(vec![
            Cell::text("x"),
            Cell::p(0.0),
            Cell::number(-2.476),
            Cell::text("[-2.856, -2.095]"),
        ]);
        table.row(vec![
            Cell::text("y"),
            Cell::p(f64::NAN),
            Cell::number(0.5),
            Cell::missing("–"),
        ]);
        let html = reading_table(&table, "Family");
        assert!(html.contains(">-2.476 [-2.856, -2.095]</td>"), "{html}");
        assert!(html.contains("effect <span class=\"ci\">[95% CI]</span>"));
        assert!(!html.contains(">95% CI</th>"));
        assert!(
            html.contains(">0.5000</td>"),
            "no interval: the estimate alone"
        );
        let rows = rows(&html);
        assert!(rows[0].starts_with("<tr class=\"sig\""));
        assert!(
            rows[0].contains("<td class=\"num\" data-sort=\"0\"><strong>&lt; 1e-300</strong></td>")
        );
        assert!(
            rows[1].contains("<td class=\"num\" data-sort=\"\">no data</td>")
                && !rows[1].contains("sig"),
            "a test without data is not significant and sorts last: {}",
            rows[1]
        );
        assert!(html.contains("1 of 2 rows significant at Holm p &lt; 0.05"));
        assert!(html.contains("<caption class=\"visually-hidden\">Family</caption>"));
    }

    #[test]
    fn a_bin_column_folds_the_table_however_short_and_others_are_not_folded() {
        let histogram = TableBuilder::new()
            .text("variant", ["a", "a"])
            .role(Role::Label)
            .count("period", [52, 36])
            .role(Role::Bin)
            .count("count", [10, 2])
            .named("cycles")
            .expect("table");
        let html = section(&histogram);
        assert!(
            html.contains("<details>\n<summary>Show all 2 rows of cycles (a histogram)</summary>"),
            "{html}"
        );
        assert!(html.contains("a histogram, folded"));
        let html = reading_table(&Table::from_named(&histogram), "Cycles");
        assert!(html.starts_with("<details>\n<summary>Show all 2 rows (a histogram)</summary>"));
        // Named like a histogram and shaped like one, but without a bin: not folded.
        let counts = TableBuilder::new()
            .count("period", [52, 36])
            .count("count", [10, 2])
            .named("histogram")
            .expect("table");
        assert!(!section(&counts).contains("<details>"));
        let long = TableBuilder::new()
            .count("turns", 0..(LONG_TABLE as u64 + 1))
            .named("long")
            .expect("table");
        assert!(section(&long).contains("<details>\n<summary>Show all 61 rows of long</summary>"));
    }

    #[test]
    fn label_columns_feed_the_variant_filter_and_other_columns_do_not() {
        let html = section(&comparisons());
        assert!(
            html.contains("<tr class=\"sig\" data-variant=\"x y\">"),
            "{html}"
        );
        let unlabelled = TableBuilder::new()
            .text("variant", ["x"])
            .count("games", [3])
            .named("t")
            .expect("table");
        assert!(!section(&unlabelled).contains("data-variant"));
    }

    #[test]
    fn numbers_align_and_sort_by_role_and_value_never_by_their_text() {
        let mut table = Table::new([
            ("name", Role::Text),
            ("rounds", Role::Parameter),
            ("rule", Role::Parameter),
            ("games", Role::Count),
            ("mean", Role::Number),
        ]);
        table.row(vec![
            Cell::text("12"),
            Cell::count(3),
            Cell::text("always"),
            Cell::count(12),
            Cell::shown("138.0", 137.96),
        ]);
        table.row(vec![
            Cell::text("b"),
            Cell::count(4),
            Cell::text("never"),
            Cell::count(1),
            Cell::text("35.83 / 29 / 7"),
        ]);
        let html = reading_table(&table, "T");
        assert!(html.contains("<th scope=\"col\">name</th>"), "{html}");
        assert!(
            html.contains("<td>12</td>"),
            "words that look like a number stay words"
        );
        assert!(html.contains("<th scope=\"col\" class=\"num\">rounds</th>"));
        assert!(
            html.contains("<th scope=\"col\">rule</th>"),
            "a parameter by its values"
        );
        assert!(
            html.contains("<td class=\"num\">12</td>"),
            "a count sorts by its text"
        );
        assert!(html.contains("<td class=\"num\" data-sort=\"137.96\">138.0</td>"));
        assert!(
            html.contains("<td class=\"num\" data-sort=\"\">35.83 / 29 / 7</td>"),
            "words in a number column have no number to sort by: they sort last"
        );
    }

    #[test]
    fn markup_in_cells_and_headers_is_shown_as_text() {
        let mut table = Table::new([("<b>h</b>", Role::Label), ("v", Role::Text)]);
        table.row(vec![
            Cell::text("<script>alert(1)</script>"),
            Cell::text("**not strong** `not code` [link](http://x)"),
        ]);
        let html = reading_table(&table, "<i>caption</i>");
        assert!(!html.contains("<script>") && !html.contains("<b>") && !html.contains("<i>"));
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(html.contains("data-variant=\"&lt;script&gt;alert(1)&lt;/script&gt;\""));
        assert!(html.contains("**not strong** `not code` [link](http://x)"));
        assert!(!html.contains("<strong>") && !html.contains("<code>") && !html.contains("href"));
        assert!(html.contains("&lt;b&gt;h&lt;/b&gt;</th>"));
    }

    #[test]
    fn p_values_that_underflow_read_as_below_the_smallest_double() {
        let table = TableBuilder::new()
            .real("p_value", [0.0])
            .role(Role::PValue)
            .real("p_holm", [0.0])
            .role(Role::Holm)
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
        assert_eq!(sort_value(6.4e-35), "6.4e-35");
        assert_eq!(sort_value(0.01), "0.01");
        assert_eq!(sort_value(f64::NEG_INFINITY), "-Infinity");
    }
}
