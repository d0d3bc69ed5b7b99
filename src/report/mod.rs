//! A report as data: the typed blocks every study returns (headings, paragraphs, lists, tables
//! whose columns carry roles, figures), rendered once as Markdown ([`markdown`]) and once as
//! HTML (`crate::html`). No renderer reads another's text.

pub mod markdown;
mod table;
mod text;

pub use table::{estimate_text, Cell, Column, Table, Value};
pub use text::{code, Inline, Text};

use crate::frame::NamedTable;
use crate::plot::Chart;

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
}
