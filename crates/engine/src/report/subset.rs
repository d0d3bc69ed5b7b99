//! Reports of runs with many variants: above [`REPORT_VARIANTS`] variants the report, the
//! console text and the charts show a readable subset, the variants with the highest and the
//! lowest headline estimates, and say so; the data tables stay complete in their files.

use std::collections::{HashMap, HashSet};

use super::{Block, StudyOutput, Table, Text};
use crate::frame::{NamedTable, Role, TableFormat};
use crate::plot::{Chart, LineChart};

/// Most variants a report shows in full: a run with more shows the [`SHOWN_EACH_END`] highest
/// and lowest by the headline metric in its tables and charts.
pub const REPORT_VARIANTS: usize = 200;

/// Variants shown at each end of the ranking (highest and lowest) above [`REPORT_VARIANTS`].
pub const SHOWN_EACH_END: usize = 50;

/// Lines a line chart keeps at each end of the ranking above [`REPORT_VARIANTS`] (ten lines in
/// all, one per colour of the palette).
pub const LINES_EACH_END: usize = 5;

/// The variants a report of many variants shows: the highest and the lowest by one metric.
pub struct Subset {
    /// Variants in the run.
    pub total: usize,
    /// The metric they are ranked by (the headline).
    pub metric: String,
    /// The shown variants, highest estimate first: the highest [`SHOWN_EACH_END`], then the
    /// lowest (ending with the lowest).
    pub shown: Vec<String>,
    /// Variants without an estimate of the metric, never shown.
    pub unranked: usize,
    /// Each shown variant's place in `shown`.
    rank: HashMap<String, usize>,
    /// Every variant's name.
    names: HashSet<String>,
}

impl Subset {
    /// The subset of `names` (every variant, in spec order) shown by their `points` of
    /// `metric` (NaN: no estimate), or `None` when there are at most [`REPORT_VARIANTS`]: the
    /// report then shows every variant.
    pub fn new(metric: &str, names: &[&str], points: &[f64]) -> Option<Subset> {
        if names.len() <= REPORT_VARIANTS {
            return None;
        }
        let mut ranked: Vec<usize> = (0..names.len())
            .filter(|&i| points.get(i).is_some_and(|p| p.is_finite()))
            .collect();
        // Highest first; equal estimates in spec order.
        ranked.sort_by(|&a, &b| points[b].total_cmp(&points[a]));
        let unranked = names.len() - ranked.len();
        if ranked.len() > 2 * SHOWN_EACH_END {
            ranked.drain(SHOWN_EACH_END..ranked.len() - SHOWN_EACH_END);
        }
        let shown: Vec<String> = ranked.iter().map(|&i| names[i].to_string()).collect();
        Some(Subset {
            total: names.len(),
            metric: metric.to_string(),
            rank: shown.iter().cloned().zip(0..).collect(),
            shown,
            unranked,
            names: names.iter().map(|n| n.to_string()).collect(),
        })
    }

    /// The place of `name` among the shown variants (`None`: not shown).
    pub fn rank(&self, name: &str) -> Option<usize> {
        self.rank.get(name).copied()
    }

    /// Whether the variant `name` is shown.
    pub fn shows(&self, name: &str) -> bool {
        self.rank.contains_key(name)
    }

    /// Variants shown at each end (fewer than [`SHOWN_EACH_END`] when few have an estimate).
    fn each_end(&self) -> usize {
        self.shown.len().div_ceil(2)
    }

    /// Whether a line chart keeps the line of `name`: [`LINES_EACH_END`] at each end.
    fn keeps_line(&self, name: &str) -> bool {
        self.rank(name)
            .is_some_and(|r| r < LINES_EACH_END || r + LINES_EACH_END >= self.shown.len())
    }

    /// "the 50 with the highest and the 50 with the lowest `metric`".
    fn which(&self, each: usize) -> Text {
        Text::new()
            .plain(format!(
                "the {each} with the highest and the {each} with the lowest "
            ))
            .code(self.metric.as_str())
    }

    /// The paragraph that opens a summarised report: how many variants ran, what is shown and
    /// where every variant is (`files`, the table files written).
    fn overview(&self, files: &[String]) -> Block {
        let mut text = Text::new()
            .strong("Many variants.")
            .plain(format!(
                " This run has {} variants, more than the {REPORT_VARIANTS} a report shows in \
                 full, so its tables and charts show a subset: ",
                self.total
            ))
            .append(self.which(self.each_end()))
            .plain(format!(
                " estimate (the headline metric), highest first; line charts show the \
                 {LINES_EACH_END} highest and the {LINES_EACH_END} lowest"
            ));
        if self.unranked > 0 {
            text = text.plain(match self.unranked {
                1 => "; 1 variant without an estimate of it is not ranked".to_string(),
                n => format!("; {n} variants without an estimate of it are not ranked"),
            });
        }
        text = text.plain(". Every variant is in the table files: ");
        Block::paragraph(
            text.append(Text::join(files, ", ", |f| Text::new().code(f.as_str())))
                .plain("."),
        )
    }

    /// The columns of `table` that name variants (label columns with a variant's name).
    fn variant_columns(&self, table: &Table) -> Vec<usize> {
        (0..table.columns.len())
            .filter(|&c| {
                table.columns[c].role == Role::Label
                    && table
                        .rows
                        .iter()
                        .any(|row| self.names.contains(&row[c].text.words()))
            })
            .collect()
    }

    /// `table` with only the rows of shown variants (a comparison's row when both sides are
    /// shown), by their rank, at most [`REPORT_VARIANTS`] rows; `None` when it names no
    /// variant or is short enough to show whole.
    fn table(&self, table: &Table) -> Option<Table> {
        let columns = self.variant_columns(table);
        if columns.is_empty() || table.rows.len() <= 2 * SHOWN_EACH_END {
            return None;
        }
        // The ranks of a row's variants, when every one is shown.
        let ranks = |row: &Vec<super::Cell>| -> Option<Vec<usize>> {
            columns
                .iter()
                .map(|&c| self.rank(&row[c].text.words()))
                .collect()
        };
        let mut rows: Vec<(Vec<usize>, &Vec<super::Cell>)> = table
            .rows
            .iter()
            .filter_map(|row| ranks(row).map(|r| (r, row)))
            .collect();
        rows.sort_by(|(a, _), (b, _)| a.cmp(b));
        rows.truncate(REPORT_VARIANTS);
        Some(Table {
            columns: table.columns.clone(),
            rows: rows.into_iter().map(|(_, row)| row.clone()).collect(),
        })
    }

    /// The sentence before a summarised table: how many of its rows are shown, which, and
    /// where all are (`file`, when known).
    fn table_note(&self, shown: usize, all: usize, pairs: bool, file: Option<&str>) -> Block {
        let text = Text::new()
            .plain(format!(
                "Shown: {shown} of these {all} rows, those {} ",
                if pairs {
                    "between variants among"
                } else {
                    "of"
                }
            ))
            .append(self.which(self.each_end()))
            .plain(" estimate, highest first");
        Block::paragraph(match file {
            Some(file) => text.plain("; every row is in ").code(file).plain("."),
            None => text.plain("; every row is in the table files."),
        })
    }

    /// `blocks` with each long table of variants summarised after a sentence that says so;
    /// `file` names the data file a table's rows come from.
    fn blocks(&self, blocks: Vec<Block>, file: impl Fn(&Table) -> Option<String>) -> Vec<Block> {
        let mut out = Vec::with_capacity(blocks.len());
        for block in blocks {
            match block {
                Block::Table(table) => match self.table(&table) {
                    Some(shown) => {
                        out.push(self.table_note(
                            shown.rows.len(),
                            table.rows.len(),
                            self.variant_columns(&table).len() > 1,
                            file(&table).as_deref(),
                        ));
                        out.push(Block::Table(shown));
                    }
                    None => out.push(Block::Table(table)),
                },
                Block::Figure(mut figure) => {
                    figure.caption = format!(
                        "{} ({} of {} variants: the highest and lowest {})",
                        figure.caption,
                        self.shown.len(),
                        self.total,
                        self.metric
                    );
                    out.push(Block::Figure(figure));
                }
                other => out.push(other),
            }
        }
        out
    }

    /// `chart` showing only the shown variants: bars of shown variants by rank, and
    /// [`LINES_EACH_END`] lines at each end, its x axis label saying so; a chart that names no
    /// variant is left as it is.
    fn chart(&self, chart: &mut Chart) {
        match chart {
            Chart::Bars(bars) => {
                let mut changed = false;
                for panel in &mut bars.panels {
                    if panel.bars.iter().any(|b| self.names.contains(&b.label)) {
                        panel.bars.retain(|b| self.shows(&b.label));
                        panel.bars.sort_by_key(|b| self.rank(&b.label));
                        changed = true;
                    }
                }
                if changed {
                    bars.x_label = format!(
                        "variant ({} of {}: the highest and lowest {}, highest first)",
                        self.shown.len(),
                        self.total,
                        self.metric
                    );
                }
            }
            Chart::Lines(lines) => self.lines(lines),
            Chart::LinePanels(panels) => panels.panels.iter_mut().for_each(|p| self.lines(p)),
            Chart::Heatmap(_) => {}
        }
    }

    fn lines(&self, chart: &mut LineChart) {
        if !chart.series.iter().any(|s| self.names.contains(&s.label)) {
            return;
        }
        let keep: Vec<bool> = chart
            .series
            .iter()
            .map(|s| self.keeps_line(&s.label))
            .collect();
        if chart.pens.len() == keep.len() {
            let mut flags = keep.iter();
            chart.pens.retain(|_| *flags.next().unwrap_or(&false));
        } else {
            chart.pens.clear();
        }
        let mut flags = keep.iter();
        chart.series.retain(|_| *flags.next().unwrap_or(&false));
        // Under the axis, where a long note has the chart's width (a title has less).
        chart.x_label = format!(
            "{}; lines: {} of {} variants, the {LINES_EACH_END} highest and {LINES_EACH_END} \
             lowest {}",
            chart.x_label,
            chart.series.len(),
            self.total,
            self.metric
        );
    }
}

/// The file of `tables` a report table's rows come from: `comparisons` for a table with `a`
/// and `b` columns, else the table of as many rows whose first column has the same header,
/// else `summary` for a table of one row per variant; with the first of `formats`.
fn source(
    table: &Table,
    tables: &[NamedTable],
    total: usize,
    formats: &[TableFormat],
) -> Option<String> {
    let has = |name: &str| table.columns.iter().any(|c| c.header == name);
    let stem = if has("a") && has("b") {
        Some("comparisons".to_string())
    } else {
        tables
            .iter()
            .find(|t| {
                t.frame.height() == table.rows.len()
                    && t.frame.get_column_names().first().map(|n| n.as_str())
                        == table.columns.first().map(|c| c.header.as_str())
            })
            .map(|t| t.name.clone())
            .or_else(|| (table.rows.len() == total).then(|| "summary".to_string()))
    }?;
    let extension = formats.first().map_or("csv", |f| f.extension());
    Some(format!("{stem}.{extension}"))
}

impl StudyOutput {
    /// The report, console text and charts of a run with many variants, summarised to
    /// `subset` and saying so; the data tables (written in `formats`) are left complete.
    pub fn summarise(&mut self, subset: &Subset, formats: &[TableFormat]) {
        let files: Vec<String> = self
            .tables
            .iter()
            .flat_map(|t| {
                formats
                    .iter()
                    .map(move |f| format!("{}.{}", t.name, f.extension()))
            })
            .collect();
        let tables = &self.tables;
        let file = |table: &Table| source(table, tables, subset.total, formats);
        let mut report = vec![subset.overview(&files)];
        report.extend(subset.blocks(std::mem::take(&mut self.report), file));
        self.report = report;
        self.console = subset.blocks(std::mem::take(&mut self.console), file);
        for (_, chart) in &mut self.charts {
            subset.chart(chart);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Cell;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("v{i}")).collect()
    }

    fn subset(n: usize) -> Option<Subset> {
        let names = names(n);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        // v0 has no estimate; the others rise with their number.
        let points: Vec<f64> = (0..n)
            .map(|i| if i == 0 { f64::NAN } else { i as f64 })
            .collect();
        Subset::new("m", &refs, &points)
    }

    #[test]
    fn up_to_the_limit_every_variant_is_shown() {
        assert!(subset(REPORT_VARIANTS).is_none());
        let subset = subset(REPORT_VARIANTS + 1).expect("one too many");
        assert_eq!(subset.shown.len(), 2 * SHOWN_EACH_END);
        assert_eq!(subset.shown[0], format!("v{REPORT_VARIANTS}"));
        assert_eq!(subset.shown.last().map(String::as_str), Some("v1"));
        assert_eq!(subset.unranked, 1);
        assert!(!subset.shows("v0") && !subset.shows("v100"));
    }

    #[test]
    fn a_long_table_of_variants_keeps_the_shown_rows_by_rank_after_a_note() {
        let subset = subset(1000).expect("many");
        let mut table = Table::new([("variant", Role::Label), ("m", Role::Number)]);
        for name in names(1000) {
            table.row(vec![Cell::text(name.as_str()), Cell::number(1.0)]);
        }
        let mut other = Table::new([("square", Role::Label)]);
        for i in 0..300 {
            other.row(vec![Cell::text(format!("square {i}"))]);
        }
        let blocks = subset.blocks(
            vec![Block::Table(table), Block::Table(other.clone())],
            |_| Some("summary.csv".into()),
        );
        let [Block::Paragraph(note), Block::Table(shown), Block::Table(untouched)] = &blocks[..]
        else {
            panic!("a note, the shown rows and the other table: {blocks:?}");
        };
        assert!(note.words().contains("Shown: 100 of these 1000 rows"));
        assert!(note.words().contains("summary.csv"));
        assert_eq!(shown.rows.len(), 100);
        assert_eq!(shown.rows[0][0].text.words(), "v999");
        assert_eq!(shown.rows[99][0].text.words(), "v1");
        assert_eq!(*untouched, other, "a table of no variants stays whole");
    }
}
