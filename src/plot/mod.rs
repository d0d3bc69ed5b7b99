//! Charts drawn with plotters: each chart kind lives in its own file and is drawn the same way
//! to PNG and to SVG. Chart values are plain data built by the studies.

mod bars;
mod heatmap;
mod lines;

use std::path::Path;

use anyhow::{anyhow, Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::DrawingErrorKind;
use plotters_bitmap::BitMapBackendError;

pub use bars::{Bar, BarChart, BarPanel};
pub use heatmap::Heatmap;
pub use lines::{LineChart, LinePanels, Series};

/// Width of every chart in pixels.
pub const WIDTH: u32 = 1200;
/// Height of every chart in pixels.
pub const HEIGHT: u32 = 750;

/// A categorical palette with well-separated hues (Tableau 10).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The palette colour for series `index`.
pub fn colour(index: usize) -> RGBColor {
    PALETTE[index % PALETTE.len()]
}

/// Font family for all text.
pub const FONT: &str = "sans-serif";

/// Any chart the engine draws.
pub enum Chart {
    /// Lines (optionally with confidence bands) over a numeric x axis.
    Lines(LineChart),
    /// Line charts side by side, each with its own axes.
    LinePanels(LinePanels),
    /// Bars with error whiskers, one panel per group.
    Bars(BarChart),
    /// A labelled matrix of values.
    Heatmap(Heatmap),
}

impl Chart {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        area.fill(&WHITE)?;
        match self {
            Chart::Lines(chart) => chart.draw(area),
            Chart::LinePanels(chart) => chart.draw(area),
            Chart::Bars(chart) => chart.draw(area),
            Chart::Heatmap(chart) => chart.draw(area),
        }?;
        area.present()
    }

    /// Draws the chart as a PNG file. A failure names the file and its plain cause (e.g.
    /// "No space left on device").
    pub fn save_png(&self, path: &Path) -> Result<()> {
        let area = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
        self.draw(&area)
            .map_err(|error| {
                plain_cause(error, |error| match error {
                    BitMapBackendError::IOError(error) => error.into(),
                    BitMapBackendError::ImageError(error) => error.into(),
                    BitMapBackendError::InvalidBuffer => anyhow!("invalid pixel buffer"),
                })
            })
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// Draws the chart as an SVG file. A failure names the file and its plain cause.
    pub fn save_svg(&self, path: &Path) -> Result<()> {
        let area = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
        self.draw(&area)
            .map_err(|error| plain_cause(error, anyhow::Error::from))
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// A drawing error as its plain cause: `backend` turns a backend's own error into one (the
/// I/O error inside, rather than plotters' debug text); other errors keep plotters' words.
fn plain_cause<E: std::error::Error + Send + Sync>(
    error: DrawingAreaErrorKind<E>,
    backend: impl FnOnce(E) -> anyhow::Error,
) -> anyhow::Error {
    match error {
        DrawingAreaErrorKind::BackendError(DrawingErrorKind::DrawingError(error)) => backend(error),
        other => anyhow!("{other}"),
    }
}

/// The error type of drawing on backend `DB`.
pub type DrawResult<DB> =
    std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

#[cfg(test)]
mod tests {
    use super::*;

    fn chart() -> Chart {
        Chart::Heatmap(Heatmap {
            title: "t".into(),
            row_label: "y".into(),
            column_label: "x".into(),
            rows: vec!["b".into()],
            columns: vec!["a".into()],
            values: vec![vec![1.0]],
        })
    }

    #[test]
    fn a_full_disk_is_reported_in_plain_words_naming_the_file() {
        // Writing to /dev/full always fails with "No space left on device".
        let full = Path::new("/dev/full");
        for error in [chart().save_png(full), chart().save_svg(full)] {
            let message = format!("{:#}", error.expect_err("the disk is full"));
            assert!(message.starts_with("cannot write /dev/full: "), "{message}");
            assert!(message.contains("No space left on device"), "{message}");
            assert!(!message.contains("Error("), "{message}");
        }
    }
}
