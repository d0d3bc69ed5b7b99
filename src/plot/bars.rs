//! Bar charts with confidence whiskers, one panel per group stacked vertically.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{DrawResult, FONT};

/// One bar with its interval.
pub struct Bar {
    /// Tick label under the bar.
    pub label: String,
    /// Height of the bar.
    pub value: f64,
    /// Lower end of the whisker.
    pub lower: f64,
    /// Upper end of the whisker.
    pub upper: f64,
    /// Fill colour.
    pub colour: RGBColor,
}

/// One panel of bars.
pub struct BarPanel {
    /// Title of the panel.
    pub title: String,
    /// Bars from left to right.
    pub bars: Vec<Bar>,
}

/// Panels of bars sharing a y axis label and scale.
pub struct BarChart {
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Panels from top to bottom.
    pub panels: Vec<BarPanel>,
    /// Whether every panel shares one y scale (panels of one quantity) or has its own
    /// (panels of different quantities).
    pub shared_scale: bool,
}

/// The y range showing every bar and whisker of `bars`, and zero.
fn y_range<'a>(bars: impl Iterator<Item = &'a Bar>) -> (f64, f64) {
    let (low, high) = bars
        .flat_map(|b| [b.lower, b.value, b.upper])
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = 0.1 * (high - low);
    if pad > 0.0 {
        (if low < 0.0 { low - pad } else { 0.0 }, high + pad)
    } else {
        (0.0, 1.0)
    }
}

impl BarChart {
    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let shared = y_range(self.panels.iter().flat_map(|p| p.bars.iter()));
        let areas = area.split_evenly((self.panels.len().max(1), 1));
        for (panel, area) in self.panels.iter().zip(&areas) {
            let (y_min, y_max) = if self.shared_scale {
                shared
            } else {
                y_range(panel.bars.iter())
            };
            let n = panel.bars.len() as i32;
            let mut chart = ChartBuilder::on(area)
                .caption(&panel.title, (FONT, 18))
                .margin(8)
                .x_label_area_size(35)
                .y_label_area_size(70)
                .build_cartesian_2d((0..n).into_segmented(), y_min..y_max)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(panel.bars.len())
                .x_label_formatter(&|x| match x {
                    SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => panel
                        .bars
                        .get(*i as usize)
                        .map(|b| b.label.clone())
                        .unwrap_or_default(),
                    SegmentValue::Last => String::new(),
                })
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .label_style((FONT, 11))
                .axis_desc_style((FONT, 14))
                .light_line_style(WHITE.mix(0.0))
                .draw()?;
            chart.draw_series(panel.bars.iter().enumerate().map(|(i, bar)| {
                let i = i as i32;
                let mut rectangle = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), 0.0),
                        (SegmentValue::Exact(i + 1), bar.value),
                    ],
                    bar.colour.filled(),
                );
                rectangle.set_margin(0, 0, 2, 2);
                rectangle
            }))?;
            chart.draw_series(panel.bars.iter().enumerate().map(|(i, bar)| {
                ErrorBar::new_vertical(
                    SegmentValue::CenterOf(i as i32),
                    bar.lower,
                    bar.value,
                    bar.upper,
                    BLACK.stroke_width(1),
                    6,
                )
            }))?;
        }
        Ok(())
    }
}
