//! A labelled matrix of values, coloured from red (negative) through white to green
//! (positive) on a logarithmic intensity scale (so small values still show when a few cells
//! are huge), with each value written in its cell.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{DrawResult, FONT};

/// A matrix with row and column labels.
pub struct Heatmap {
    /// Title above the chart.
    pub title: String,
    /// Label of the rows (y axis).
    pub row_label: String,
    /// Label of the columns (x axis).
    pub column_label: String,
    /// Row names, top to bottom.
    pub rows: Vec<String>,
    /// Column names, left to right.
    pub columns: Vec<String>,
    /// `values[row][column]`; NaN cells are left grey.
    pub values: Vec<Vec<f64>>,
}

fn cell_colour(value: f64, scale: f64) -> RGBColor {
    if !value.is_finite() {
        return RGBColor(220, 220, 220);
    }
    // Intensity grows with log(1 + |v| / floor): cells a thousand times smaller than the
    // largest still get a visible tint.
    let floor = scale / 1000.0;
    let t =
        (value.signum() * (value.abs() / floor).ln_1p() / (scale / floor).ln_1p()).clamp(-1.0, 1.0);
    let fade = |full: u8| (255.0 - (255.0 - f64::from(full)) * t.abs()) as u8;
    if t >= 0.0 {
        RGBColor(fade(26), fade(150), fade(65))
    } else {
        RGBColor(fade(215), fade(48), fade(39))
    }
}

impl Heatmap {
    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let (rows, columns) = (self.rows.len() as i32, self.columns.len() as i32);
        let scale = self
            .values
            .iter()
            .flatten()
            .filter(|v| v.is_finite())
            .fold(0.0f64, |m, v| m.max(v.abs()))
            .max(1e-12);
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, (FONT, 24))
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(120)
            .build_cartesian_2d(0..columns, 0..rows)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(0)
            .y_labels(0)
            .x_label_formatter(&|_| String::new())
            .y_label_formatter(&|_| String::new())
            .x_desc(&self.column_label)
            .y_desc(&self.row_label)
            .axis_desc_style((FONT, 18))
            .draw()?;
        for (r, row) in self.values.iter().enumerate() {
            let y = rows - 1 - r as i32;
            for (c, &value) in row.iter().enumerate() {
                let x = c as i32;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x, y), (x + 1, y + 1)],
                    cell_colour(value, scale).filled(),
                )))?;
            }
        }
        let plotting = chart.plotting_area();
        for (r, row) in self.values.iter().enumerate() {
            for (c, &value) in row.iter().enumerate() {
                let (px, py) = plotting.map_coordinate(&(c as i32, rows - r as i32));
                let (qx, qy) = plotting.map_coordinate(&(c as i32 + 1, rows - 1 - r as i32));
                let text = if value.is_finite() {
                    format!("{value:+.3}")
                } else {
                    "–".into()
                };
                let style = TextStyle::from((FONT, 18).into_font()).pos(
                    plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Center,
                        plotters::style::text_anchor::VPos::Center,
                    ),
                );
                area.draw(&Text::new(text, ((px + qx) / 2, (py + qy) / 2), style))?;
            }
        }
        // Row and column names beside the grid.
        let label_style = |h| {
            TextStyle::from((FONT, 16).into_font()).pos(plotters::style::text_anchor::Pos::new(
                h,
                plotters::style::text_anchor::VPos::Center,
            ))
        };
        for (r, name) in self.rows.iter().enumerate() {
            let (px, py) = plotting.map_coordinate(&(0, rows - r as i32));
            let (_, qy) = plotting.map_coordinate(&(0, rows - 1 - r as i32));
            area.draw(&Text::new(
                name.clone(),
                (px - 8, (py + qy) / 2),
                label_style(plotters::style::text_anchor::HPos::Right),
            ))?;
        }
        for (c, name) in self.columns.iter().enumerate() {
            let (px, py) = plotting.map_coordinate(&(c as i32, 0));
            let (qx, _) = plotting.map_coordinate(&(c as i32 + 1, 0));
            area.draw(&Text::new(
                name.clone(),
                ((px + qx) / 2, py + 14),
                label_style(plotters::style::text_anchor::HPos::Center),
            ))?;
        }
        Ok(())
    }
}
