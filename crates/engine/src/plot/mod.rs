//! Charts drawn with plotters: each chart kind lives in its own file and is drawn the same way
//! to PNG and to SVG. Chart values are plain data built by the studies.

mod bars;
mod heatmap;
mod legend;
mod lines;
mod pens;

use std::fs;
use std::path::Path;

use anyhow::{anyhow, Context, Result};
use image::codecs::png::PngEncoder;
use image::{ColorType, ImageEncoder};
use plotters::coord::Shift;
use plotters::prelude::*;

pub use bars::{Bar, BarChart, BarPanel};
pub use heatmap::Heatmap;
pub use legend::{Entry as LegendEntry, Mark};
pub use lines::{LineChart, LinePanels, Series, SeriesStyle};
pub use pens::{Dash, Pen};

/// Width of every chart in pixels.
pub const WIDTH: u32 = 1200;
/// Height of a chart in pixels, unless it needs more (bar charts with many panels).
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

    /// Height of the chart in pixels.
    fn height(&self) -> u32 {
        match self {
            Chart::Bars(chart) => chart.height().max(HEIGHT),
            Chart::LinePanels(chart) => chart.height(),
            Chart::Lines(_) | Chart::Heatmap(_) => HEIGHT,
        }
    }

    /// The chart as a PNG image, in memory (for files, and for callers that show it).
    pub fn png(&self) -> Result<Vec<u8>> {
        let height = self.height();
        let mut pixels = vec![0u8; WIDTH as usize * height as usize * 3];
        {
            let area = BitMapBackend::with_buffer(&mut pixels, (WIDTH, height)).into_drawing_area();
            self.draw(&area)?;
        }
        let mut png = Vec::new();
        PngEncoder::new(&mut png).write_image(&pixels, WIDTH, height, ColorType::Rgb8)?;
        Ok(png)
    }

    /// The chart as an SVG document, in memory (for files, and for pages that inline their
    /// charts).
    pub fn svg(&self) -> Result<String> {
        let mut svg = String::new();
        {
            let area =
                SVGBackend::with_string(&mut svg, (WIDTH, self.height())).into_drawing_area();
            self.draw(&area)?;
        }
        Ok(svg)
    }

    /// Draws the chart as a PNG file. The image is made in memory and written in one call,
    /// so a failed write (e.g. a full disk) is always reported, in plain words.
    pub fn save_png(&self, path: &Path) -> Result<()> {
        let png = self
            .png()
            .with_context(|| format!("cannot draw {}", path.display()))?;
        fs::write(path, png).with_context(|| format!("cannot write {}", path.display()))
    }

    /// Draws the chart as an SVG file, reporting a failed write like [`Chart::save_png`].
    pub fn save_svg(&self, path: &Path) -> Result<()> {
        let svg = self
            .svg()
            .with_context(|| format!("cannot draw {}", path.display()))?;
        fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))
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
        let dir = tempfile::tempdir().expect("temp dir");
        for name in ["chart.png", "chart.svg"] {
            let path = dir.path().join(name);
            std::os::unix::fs::symlink("/dev/full", &path).expect("symlink");
            let saved = match name {
                "chart.png" => chart().save_png(&path),
                _ => chart().save_svg(&path),
            };
            let message = format!("{:#}", saved.expect_err("the disk is full"));
            let expected = format!("cannot write {}: ", path.display());
            assert!(message.starts_with(&expected), "{message}");
            assert!(message.contains("No space left on device"), "{message}");
            assert!(!message.contains("Error("), "{message}");
        }
    }
}
