//! Charts drawn with plotters: each chart kind lives in its own file and is drawn the same way
//! to PNG and to SVG. Chart values are plain data built by the studies.

mod bars;
mod heatmap;
mod lines;

use std::path::Path;

use anyhow::{anyhow, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

pub use bars::{Bar, BarChart, BarPanel};
pub use heatmap::Heatmap;
pub use lines::{LineChart, LinePanels, Series, SeriesStyle};

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
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        area.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        match self {
            Chart::Lines(chart) => chart.draw(area),
            Chart::LinePanels(chart) => chart.draw(area),
            Chart::Bars(chart) => chart.draw(area),
            Chart::Heatmap(chart) => chart.draw(area),
        }
        .map_err(|e| anyhow!("{e}"))?;
        area.present().map_err(|e| anyhow!("{e}"))
    }

    /// Draws the chart as a PNG file.
    pub fn save_png(&self, path: &Path) -> Result<()> {
        let area = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
        self.draw(&area)
            .map_err(|e| anyhow!("cannot draw {}: {e}", path.display()))
    }

    /// Draws the chart as an SVG file.
    pub fn save_svg(&self, path: &Path) -> Result<()> {
        let area = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
        self.draw(&area)
            .map_err(|e| anyhow!("cannot draw {}: {e}", path.display()))
    }
}

/// The error type of drawing on backend `DB`.
pub type DrawResult<DB> =
    std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;
