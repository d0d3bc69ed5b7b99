//! Line charts: one line per series over a numeric x axis, with optional confidence bands.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{colour, DrawResult, FONT};

/// One line of a [`LineChart`].
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Points in x order.
    pub points: Vec<(f64, f64)>,
    /// Optional confidence band: (x, lower, upper) in x order.
    pub band: Vec<(f64, f64, f64)>,
}

/// Several series on shared axes with a legend.
pub struct LineChart {
    /// Title above the chart.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
    /// Whether to mark every point with a dot (for short series).
    pub markers: bool,
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

/// A tick label: whole numbers without decimals, others as they are.
fn tick(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        let text = format!("{value:.6}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

impl LineChart {
    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let (x_min, x_max) = bounds(
            self.series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.0)),
        );
        let ys = self.series.iter().flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.1)
                .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
        });
        let (y_min, y_max) = bounds(ys);
        let (x_min, x_max) = if x_min < x_max {
            (x_min, x_max)
        } else {
            (x_min - 1.0, x_min + 1.0)
        };
        let pad = ((y_max - y_min) * 0.08).max(1e-9);
        let y_low = if y_min >= 0.0 && y_min - pad < 0.0 {
            0.0
        } else {
            y_min - pad
        };
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, (FONT, 26))
            .margin(20)
            .x_label_area_size(55)
            .y_label_area_size(85)
            .build_cartesian_2d(x_min..x_max, y_low..y_max + pad)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|x| tick(*x))
            .y_label_formatter(&|y| tick(*y))
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .axis_desc_style((FONT, 20))
            .label_style((FONT, 15))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        for (index, series) in self.series.iter().enumerate() {
            let colour = colour(index);
            if !series.band.is_empty() {
                let outline: Vec<(f64, f64)> = series
                    .band
                    .iter()
                    .map(|b| (b.0, b.2))
                    .chain(series.band.iter().rev().map(|b| (b.0, b.1)))
                    .collect();
                chart.draw_series(std::iter::once(Polygon::new(
                    outline,
                    colour.mix(0.18).filled(),
                )))?;
            }
            chart
                .draw_series(LineSeries::new(
                    series.points.iter().copied(),
                    colour.stroke_width(2),
                ))?
                .label(&series.label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(3))
                });
            if self.markers {
                chart.draw_series(
                    series
                        .points
                        .iter()
                        .map(|&p| Circle::new(p, 4, colour.filled())),
                )?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, 16))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
        Ok(())
    }
}

/// Line charts side by side under one title, each with its own axes and legend.
pub struct LinePanels {
    /// Title above all panels.
    pub title: String,
    /// Panels from left to right.
    pub panels: Vec<LineChart>,
}

impl LinePanels {
    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let area = area.titled(&self.title, (FONT, 28))?;
        let areas = area.split_evenly((1, self.panels.len().max(1)));
        for (panel, area) in self.panels.iter().zip(&areas) {
            panel.draw(area)?;
        }
        Ok(())
    }
}
