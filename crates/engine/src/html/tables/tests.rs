//! The page's tables: joined intervals, marks, folding, sorting and escaping.

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
        html.contains("<td class=\"num\" data-sort=\"1.5\">1.500 <span class=\"iv\">[1.250, 1.750]</span></td>"),
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
    assert!(
        html.contains(">-2.476 <span class=\"iv\">[-2.856, -2.095]</span></td>"),
        "{html}"
    );
    assert!(html.contains("effect <span class=\"ci\">[95% CI]</span>"));
    assert!(!html.contains(">95% CI</th>"));
    assert!(
        html.contains(">0.5000</td>"),
        "no interval: the estimate alone"
    );
    let rows = rows(&html);
    assert!(rows[0].starts_with("<tr class=\"sig\""));
    assert!(rows[0].contains("<td class=\"num\" data-sort=\"0\"><strong>&lt; 1e-300</strong></td>"));
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

#[test]
fn a_family_of_more_than_twenty_tests_folds_saying_how_many_are_significant() {
    let family = |n: usize| {
        let p: Vec<f64> = (0..n).map(|i| if i < 3 { 0.001 } else { 0.5 }).collect();
        TableBuilder::new()
            .text("a", (0..n).map(|i| format!("v{i}")))
            .role(Role::Label)
            .real("p_holm", p)
            .role(Role::Holm)
            .named("comparisons")
            .expect("table")
    };
    let long = section(&family(LONG_FAMILY + 1));
    assert!(
        long.contains(
            "<details>\n<summary>Show all 21 rows of comparisons (3 significant at Holm p &lt; \
             0.05)</summary>\n<div class=\"scroll\" data-significant=\"3\">"
        ),
        "{long}"
    );
    let short = section(&family(LONG_FAMILY));
    assert!(!short.contains("<details>"), "{short}");
    assert!(short.contains("<div class=\"scroll\" data-significant=\"3\">"));
    let reading = reading_table(&Table::from_named(&family(LONG_FAMILY + 1)), "Pairs");
    assert!(
        reading.contains("<summary>Show all 21 rows (3 significant at Holm p &lt; 0.05)</summary>"),
        "{reading}"
    );
    // A long table without tests folds only past LONG_TABLE rows, and says nothing of tests.
    let plain = TableBuilder::new()
        .count("turns", 0..(LONG_FAMILY as u64 + 1))
        .named("plain")
        .expect("table");
    assert!(!section(&plain).contains("<details>"));
}

#[test]
fn an_interval_written_into_a_number_cell_is_kept_whole_when_the_cell_wraps() {
    let mut table = Table::new([("row", Role::Label), ("never", Role::Number)]);
    table.row(vec![
        Cell::text("always"),
        Cell::shown("+0.03620 [+0.03228, +0.04012]", 0.0362),
    ]);
    table.row(vec![Cell::text("x"), Cell::shown("35.83 / 29 / 7", 35.83)]);
    let html = reading_table(&table, "Payoffs");
    assert!(
        html.contains(">+0.03620 <span class=\"iv\">[+0.03228, +0.04012]</span></td>"),
        "{html}"
    );
    assert!(html.contains(">35.83 / 29 / 7</td>"), "{html}");
    assert_eq!(interval_apart("a [b] c".into()), "a [b] c");
}
