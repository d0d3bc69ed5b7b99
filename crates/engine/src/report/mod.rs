//! A report as data: the typed blocks every study returns (headings, paragraphs, lists, tables
//! whose columns carry roles, figures), rendered once as Markdown ([`markdown`]) and once as
//! HTML (`crate::html`). No renderer reads another's text.

pub mod markdown;
pub mod subset;
mod table;
mod text;

pub use subset::Subset;
pub use table::{estimate_text, Cell, Column, Table, Value};
pub use text::{code, Inline, Text};

use crate::frame::NamedTable;
use crate::plot::Chart;
use crate::runner::Decisions;

/// One block of a report, in reading order.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A heading; level 1 is the report's title, 2 a section, 3 a subsection.
    Heading {
        /// 1, 2 or 3.
        level: u8,
        /// Its words.
        text: Text,
    },
    /// A paragraph.
    Paragraph(Text),
    /// A bulleted list, one item per entry.
    List(Vec<Text>),
    /// A table of the report's own (the run's data tables are [`NamedTable`]s).
    Table(Table),
    /// A chart of the run, shown where it stands.
    Figure(Figure),
}

/// A chart shown in the report, by the file stem it is written under.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The chart's file stem (`win_rate` for `win_rate.png` and `win_rate.svg`).
    pub chart: String,
    /// The words under (or for) the chart.
    pub caption: String,
}

impl Block {
    /// A heading of `level` (1 to 3).
    pub fn heading(level: u8, text: impl Into<Text>) -> Block {
        Block::Heading {
            level,
            text: text.into(),
        }
    }

    /// A paragraph.
    pub fn paragraph(text: impl Into<Text>) -> Block {
        Block::Paragraph(text.into())
    }

    /// The chart `chart` (its file stem) with `caption`.
    pub fn figure(chart: &str, caption: &str) -> Block {
        Block::Figure(Figure {
            chart: chart.to_string(),
            caption: caption.to_string(),
        })
    }
}

/// Everything a study produces, before anything is written.
pub struct StudyOutput {
    /// Tables, each written in every configured format.
    pub tables: Vec<NamedTable>,
    /// The body of the report (the engine adds the title and the run's facts above it).
    pub report: Vec<Block>,
    /// Charts by file stem, each drawn as PNG and SVG.
    pub charts: Vec<(String, Chart)>,
    /// What is printed to the terminal after the run (as Markdown).
    pub console: Vec<Block>,
    /// Trials played (all variants).
    pub trials: u64,
    /// What a run in stages decided, from its played results: the engine reports it in the
    /// summary table, the report and the manifest.
    pub decisions: Decisions,
}

impl StudyOutput {
    /// This output with what its run in stages decided (`Played::decisions`).
    pub fn decided(mut self, decisions: Decisions) -> StudyOutput {
        self.decisions = decisions;
        self
    }

    /// Adds `table`, in place of the table of the same name if there is one (a study's own
    /// `summary` replacing the shared one).
    pub fn put_table(&mut self, table: NamedTable) {
        match self.tables.iter_mut().find(|t| t.name == table.name) {
            Some(slot) => *slot = table,
            None => self.tables.push(table),
        }
    }

    /// Adds `chart` as `stem`, in place of the chart of that stem if there is one.
    pub fn put_chart(&mut self, stem: &str, chart: Chart) {
        match self.charts.iter_mut().find(|(s, _)| s == stem) {
            Some(slot) => slot.1 = chart,
            None => self.charts.push((stem.to_string(), chart)),
        }
    }

    /// Leaves out the chart `stem` (one the shared output draws that the study does not want).
    pub fn remove_chart(&mut self, stem: &str) {
        self.charts.retain(|(s, _)| s != stem);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::TableBuilder;
    use crate::plot::BarChart;

    fn table(name: &str, column: &str) -> NamedTable {
        TableBuilder::new()
            .count(column, [1])
            .named(name)
            .expect("table")
    }

    fn chart() -> Chart {
        Chart::Bars(BarChart {
            x_label: String::new(),
            y_label: String::new(),
            panels: Vec::new(),
            shared_scale: false,
            legend: Vec::new(),
        })
    }

    #[test]
    fn a_study_s_table_takes_the_place_of_the_shared_one_of_its_name() {
        let mut output = StudyOutput {
            tables: vec![table("summary", "shared"), table("comparisons", "shared")],
            report: Vec::new(),
            charts: vec![("estimates".into(), chart()), ("histogram".into(), chart())],
            console: Vec::new(),
            trials: 0,
            decisions: Decisions::None,
        };
        output.put_table(table("summary", "own"));
        output.put_table(table("cycles", "own"));
        let names: Vec<&str> = output.tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["summary", "comparisons", "cycles"]);
        assert_eq!(output.tables[0].frame.get_column_names()[0].as_str(), "own");
        output.remove_chart("histogram");
        output.put_chart("game_length", chart());
        output.put_chart("estimates", chart());
        let stems: Vec<&str> = output.charts.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(stems, ["estimates", "game_length"]);
    }
}
