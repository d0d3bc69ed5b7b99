//! Report blocks as Markdown (`report.md`, and the text printed after a run).

use std::fmt::Write;

use super::{Block, Inline, Table, Text};

/// `blocks` as a Markdown document: each block followed by a blank line.
pub fn render(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Heading { level, text } => {
                let _ = write!(
                    out,
                    "{} {}\n\n",
                    "#".repeat(usize::from(*level)),
                    inline(text)
                );
            }
            Block::Paragraph(text) => {
                let _ = write!(out, "{}\n\n", inline(text));
            }
            Block::List(items) => {
                for item in items {
                    let _ = writeln!(out, "- {}", inline(item).replace('\n', "\n  "));
                }
                out.push('\n');
            }
            Block::Table(table) => {
                out.push_str(&table_text(table));
                out.push('\n');
            }
            Block::Figure(figure) => {
                let _ = write!(out, "![{}]({}.png)\n\n", figure.caption, figure.chart);
            }
        }
    }
    out
}

/// Running text as Markdown.
pub fn inline(text: &Text) -> String {
    let mut out = String::new();
    push_inline(&text.0, &mut out);
    out
}

fn push_inline(inlines: &[Inline], out: &mut String) {
    for piece in inlines {
        match piece {
            Inline::Plain(words) => out.push_str(words),
            Inline::Code(name) => out.push_str(&code_span(name)),
            Inline::Strong(inner) => {
                out.push_str("**");
                push_inline(inner, out);
                out.push_str("**");
            }
            Inline::Break => out.push('\n'),
        }
    }
}

/// `name` as a Markdown code span, fenced with more backticks than it contains.
pub fn code_span(name: &str) -> String {
    let longest = name.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    if name.starts_with('`') || name.ends_with('`') {
        format!("{fence} {name} {fence}")
    } else {
        format!("{fence}{name}{fence}")
    }
}

/// A table as GitHub-flavoured Markdown: numbers right-aligned.
pub fn table_text(table: &Table) -> String {
    let headers: Vec<&str> = table.columns.iter().map(|c| c.header.as_str()).collect();
    let mut out = format!("| {} |\n", headers.join(" | "));
    let rules: Vec<&str> = (0..table.columns.len())
        .map(|i| if table.numeric(i) { "---:" } else { "---" })
        .collect();
    let _ = writeln!(out, "| {} |", rules.join(" | "));
    for row in &table.rows {
        let cells: Vec<String> = row.iter().map(|c| inline(&c.text)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::TableBuilder;
    use crate::report::code;

    #[test]
    fn data_tables_have_a_header_rule_and_formatted_numbers() {
        let table = TableBuilder::new()
            .text("strategy", ["a", "b"])
            .count("games", [10, 20])
            .real("rate", [0.123456, f64::NAN])
            .named("t")
            .expect("table");
        let markdown = table_text(&Table::from_named(&table));
        let lines: Vec<&str> = markdown.lines().collect();
        assert_eq!(lines[0], "| strategy | games | rate |");
        assert_eq!(lines[1], "| --- | ---: | ---: |");
        assert_eq!(lines[2], "| a | 10 | 0.1235 |");
        assert_eq!(lines[3], "| b | 20 | – |");
    }

    #[test]
    fn blocks_are_separated_by_blank_lines_and_list_items_continue_indented() {
        let blocks = [
            Block::heading(2, "Reading"),
            Block::List(vec![Text::new()
                .strong(Text::new().plain("Best ").code("x").plain("."))
                .plain(" One")
                .line_break()
                .plain("two")]),
            Block::figure("win_rate", "Win rate"),
            Block::paragraph(code("a`b")),
        ];
        assert_eq!(
            render(&blocks),
            "## Reading\n\n- **Best `x`.** One\n  two\n\n![Win rate](win_rate.png)\n\n``a`b``\n\n"
        );
    }
}
