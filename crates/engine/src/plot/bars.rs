//! Bar charts with confidence whiskers, one panel per group stacked vertically.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::legend::{self, Entry};
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
    /// What the bar colours mean, drawn above the panels (empty: no legend, e.g. when the
    /// tick labels already name each bar).
    pub legend: Vec<Entry>,
}

/// Font size of the colour legend.
const LEGEND_FONT: f64 = 15.0;

/// The x coordinate range of `bars` bars: one segment per bar, none left empty after the
/// last.
fn x_range(bars: usize) -> std::ops::Range<i32> {
    // plotters' integer ranges count both ends as values, so `0..k` has k + 1 segments.
    0..(bars as i32 - 1).max(0)
}

/// A tick label with as many decimals as ticks `span` apart need (at most about a tenth of
/// the span), trailing zeros trimmed: tiny scales (an all-zero estimate's whisker) read
/// `0.000001`, not `0.0`.
fn tick(value: f64, span: f64) -> String {
    let decimals = if span > 0.0 && span.is_finite() {
        (2.0 - span.log10().floor()).clamp(0.0, 15.0) as usize
    } else {
        1
    };
    let text = format!("{value:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    match text {
        "-0" => "0".to_string(),
        _ => text.to_string(),
    }
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

/// Height of one panel's plotting area (title and axes come on top).
const PANEL_PLOT_HEIGHT: u32 = 190;
/// Size in pixels of the bars' tick labels and of the y axis's numbers: as large as the
/// chart's other text, so they stay legible when the page shrinks the chart.
const LABEL_FONT: u32 = 15;
/// Width of one character of a tick label, roughly.
const LABEL_CHAR_WIDTH: u32 = 9;

/// Characters in the longest tick label of `bars`.
fn longest_label(bars: &[Bar]) -> u32 {
    bars.iter()
        .map(|b| b.label.chars().count() as u32)
        .max()
        .unwrap_or(0)
}

impl BarChart {
    /// Whether tick labels are turned upright: when they are too long to stand level side by
    /// side.
    fn upright_labels(&self) -> bool {
        self.panels.iter().any(|panel| {
            longest_label(&panel.bars) * LABEL_CHAR_WIDTH * panel.bars.len() as u32
                > super::WIDTH - 100
        })
    }

    /// Height of the x axis's label area: room for upright labels when they are.
    fn x_label_area(&self) -> u32 {
        if !self.upright_labels() {
            return 45;
        }
        let longest = self.panels.iter().map(|p| longest_label(&p.bars)).max();
        // Upright labels run a little shorter than they would stand level.
        (longest.unwrap_or(0) * (LABEL_CHAR_WIDTH - 1) + 30).min(240)
    }

    /// Height in pixels that gives every panel room for its bars, labels and axis titles.
    pub(super) fn height(&self) -> u32 {
        self.panels.len().max(1) as u32 * (PANEL_PLOT_HEIGHT + 40 + self.x_label_area())
            + legend::height(&self.legend, super::WIDTH, LEGEND_FONT)
    }

    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let shared = y_range(self.panels.iter().flat_map(|p| p.bars.iter()));
        let (width, _) = area.dim_in_pixel();
        let (key, area) = area.split_vertically(legend::height(&self.legend, width, LEGEND_FONT));
        legend::draw(&key, &self.legend, LEGEND_FONT)?;
        let area = &area;
        let areas = area.split_evenly((self.panels.len().max(1), 1));
        let upright = self.upright_labels();
        let label_font = if upright {
            // Turned a quarter clockwise and hung from its start, so it reads downwards from
            // just under the axis.
            TextStyle::from(
                (FONT, LABEL_FONT)
                    .into_font()
                    .transform(FontTransform::Rotate90),
            )
            .pos(Pos::new(HPos::Left, VPos::Center))
        } else {
            TextStyle::from((FONT, LABEL_FONT).into_font())
        };
        for (panel, area) in self.panels.iter().zip(&areas) {
            let (y_min, y_max) = if self.shared_scale {
                shared
            } else {
                y_range(panel.bars.iter())
            };
            let n = panel.bars.len() as i32;
            let mut chart = ChartBuilder::on(area)
                .caption(&panel.title, (FONT, 20))
                .margin(8)
                .x_label_area_size(self.x_label_area())
                .y_label_area_size(90)
                .build_cartesian_2d(x_range(panel.bars.len()).into_segmented(), y_min..y_max)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(panel.bars.len())
                .x_label_formatter(&|x| match x {
                    _ if upright => String::new(),
                    SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => panel
                        .bars
                        .get(*i as usize)
                        .map(|b| b.label.clone())
                        .unwrap_or_default(),
                    SegmentValue::Last => String::new(),
                })
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .y_label_formatter(&|y| tick(*y, y_max - y_min))
                .y_label_style((FONT, LABEL_FONT))
                .x_label_style(label_font.clone())
                .axis_desc_style((FONT, 16))
                .light_line_style(WHITE.mix(0.0))
                .draw()?;
            chart.draw_series(panel.bars.iter().enumerate().map(|(i, bar)| {
                // The last bar ends at the axis's end (`Last`): a panel of one bar has a range
                // of one value, where `Exact(1)` would map onto the bar's own start.
                let right = if i + 1 == panel.bars.len() {
                    SegmentValue::Last
                } else {
                    SegmentValue::Exact(i as i32 + 1)
                };
                let mut rectangle = Rectangle::new(
                    [(SegmentValue::Exact(i as i32), 0.0), (right, bar.value)],
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
            if upright {
                // Each label hangs from just under the axis at its bar's centre, reading
                // downwards (plotters centres mesh labels on the tick, which would put half of
                // an upright label inside the plot).
                let (x_pixels, y_pixels) = chart.plotting_area().get_pixel_range();
                let (origin_x, origin_y) = area.get_base_pixel();
                let step = f64::from(x_pixels.end - x_pixels.start) / f64::from(n.max(1));
                for (i, bar) in panel.bars.iter().enumerate() {
                    let x = x_pixels.start + (step * (i as f64 + 0.5)) as i32 - origin_x;
                    let y = y_pixels.end + 6 - origin_y;
                    area.draw(&Text::new(bar.label.clone(), (x, y), label_font.clone()))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Chart, WIDTH};
    use super::*;

    fn bar(value: f64, upper: f64, colour: RGBColor) -> Bar {
        Bar {
            label: "b".into(),
            value,
            lower: 0.0,
            upper,
            colour,
        }
    }

    fn drawn(panel_bars: Vec<Bar>) -> String {
        Chart::Bars(BarChart {
            x_label: "x".into(),
            y_label: "y".into(),
            panels: vec![BarPanel {
                title: "t".into(),
                bars: panel_bars,
            }],
            shared_scale: false,
            legend: Vec::new(),
        })
        .svg()
        .expect("drawn")
    }

    /// The value of attribute `name` in an SVG element's text.
    fn attribute(element: &str, name: &str) -> f64 {
        let start = element.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
        let end = start + element[start..].find('"').expect("closing quote");
        element[start..end].parse().expect("a number")
    }

    /// The texts of every `<text>` element.
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                t.split_once('>')
                    .and_then(|(_, rest)| rest.split_once("</text>"))
            })
            .map(|(text, _)| text.trim())
            .collect()
    }

    #[test]
    fn the_last_bar_ends_at_the_right_end_of_the_axis() {
        let last = RGBColor(1, 2, 3);
        let svg = drawn(vec![
            bar(1.0, 1.1, RGBColor(9, 9, 9)),
            bar(2.0, 2.1, RGBColor(9, 9, 9)),
            bar(3.0, 3.1, last),
        ]);
        let rect = svg
            .split("<rect")
            .find(|r| r.contains("fill=\"#010203\""))
            .expect("the last bar");
        let right = attribute(rect, "x") + attribute(rect, "width");
        // The plot ends at the chart's width less its 8-pixel margin; bars are inset 2 pixels.
        let end = f64::from(WIDTH) - 8.0;
        assert!(
            end - right <= 6.0,
            "last bar ends at {right}, axis at {end}"
        );
    }

    #[test]
    fn a_single_bar_fills_its_panel() {
        let svg = drawn(vec![bar(1.0, 1.1, RGBColor(1, 2, 3))]);
        let rect = svg
            .split("<rect")
            .find(|r| r.contains("fill=\"#010203\""))
            .expect("the bar");
        assert!(attribute(rect, "width") > 500.0, "{rect}");
    }

    #[test]
    fn an_all_zero_panel_labels_its_ticks_with_distinct_values() {
        // Zero estimates whose whiskers reach a few in a million (no draws in 10^6 games).
        let svg = drawn(vec![bar(0.0, 3.7e-6, BLACK), bar(0.0, 3.7e-6, BLACK)]);
        let ticks: Vec<&str> = texts(&svg)
            .into_iter()
            .filter(|t| t.parse::<f64>().is_ok())
            .collect();
        assert!(ticks.len() >= 3, "{ticks:?}");
        let mut distinct = ticks.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), ticks.len(), "{ticks:?}");
        assert!(ticks.contains(&"0"), "{ticks:?}");
        // Exactly zero everywhere: an axis from 0 to 1.
        let zero = drawn(vec![bar(0.0, 0.0, BLACK)]);
        assert!(texts(&zero).contains(&"1"), "{:?}", texts(&zero));
    }

    #[test]
    fn ticks_have_the_decimals_their_span_needs() {
        assert_eq!(tick(0.000002, 4e-6), "0.000002");
        assert_eq!(tick(0.30000000000000004, 0.4), "0.3");
        assert_eq!(tick(900.0, 950.0), "900");
        assert_eq!(tick(-0.0, 1.0), "0");
        assert_eq!(tick(0.025, 0.03), "0.025");
    }
}
