//! Line charts: one line per series over a numeric x axis, with optional confidence bands,
//! point-only series with error bars, dashed reference lines, and logarithmic axes.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::legend::{self, Entry, Mark};
use super::pens::{self, Dash, Pen};
use super::{colour, DrawResult, FONT, HEIGHT};

/// Where a line chart's legend goes: always outside the plotting area, so it never covers a
/// line or a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Legend {
    /// In rows under the chart.
    Below,
    /// Not drawn (a legend shared by several panels is drawn once, under them all).
    Hidden,
}

/// How a [`Series`] is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SeriesStyle {
    /// A solid line through the points, its band (if any) a shaded area.
    #[default]
    Line,
    /// A dashed line through the points (reference levels, fitted curves), band shaded.
    Dashed,
    /// Each point a dot, its band entry (if any) a vertical error bar; no line.
    Points,
}

/// One line of a [`LineChart`].
#[derive(Default)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Points in x order.
    pub points: Vec<(f64, f64)>,
    /// Optional confidence band: (x, lower, upper) in x order.
    pub band: Vec<(f64, f64, f64)>,
    /// How it is drawn.
    pub style: SeriesStyle,
}

/// Several series on shared axes with a legend.
#[derive(Default)]
pub struct LineChart {
    /// Title above the chart.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
    /// Whether to mark every point of a line with a dot (for short series).
    pub markers: bool,
    /// A logarithmic x axis (whole decades; points at x <= 0 are left out).
    pub x_log: bool,
    /// A logarithmic y axis (whole decades; points at y <= 0 are left out).
    pub y_log: bool,
    /// A fixed y range (in data units) instead of one fitted to every point and band: bands
    /// and error bars are cut at its edges, points beyond it are left out.
    pub y_range: Option<(f64, f64)>,
    /// The pen of each series, in order, when the chart chooses them (e.g. colour by one
    /// swept parameter and dash pattern by another); empty, or not one per series: the pens
    /// of [`pens::assign`], no two alike.
    pub pens: Vec<Pen>,
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
    // A tick at minus zero (or within rounding of zero) reads 0.
    let value = if value.abs() < 1e-12 { 0.0 } else { value };
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        let text = format!("{value:.6}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The label of a tick on a logarithmic axis at `exponent` (log10 of the value): the value
/// at whole decades, nothing between them.
fn decade_tick(exponent: f64) -> String {
    let rounded = exponent.round();
    if (exponent - rounded).abs() > 1e-9 {
        return String::new();
    }
    if (-4.0..=6.0).contains(&rounded) {
        tick(10f64.powi(rounded as i32))
    } else {
        format!("1e{}", rounded as i32)
    }
}

/// The plotting range of a logarithmic axis whose values (log10) run from `low` to `high`:
/// a little padding, widened to whole decades when no decade would otherwise be labelled.
fn log_range(low: f64, high: f64) -> (f64, f64) {
    let (low, high) = (low - 0.05, high + 0.05);
    if low.ceil() > high {
        (low.floor(), high.ceil())
    } else {
        (low, high)
    }
}

/// Maps data values to plotting coordinates (log10 on a logarithmic axis).
#[derive(Clone, Copy)]
struct Axis {
    log: bool,
}

impl Axis {
    fn map(self, value: f64) -> f64 {
        match (self.log, value > 0.0) {
            (false, _) => value,
            (true, true) => value.log10(),
            (true, false) => f64::NAN,
        }
    }

    fn label(self, value: f64) -> String {
        if self.log {
            decade_tick(value)
        } else {
            tick(value)
        }
    }
}

impl LineChart {
    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        self.draw_scaled(area, 1.0, Legend::Below)
    }

    /// The pen of each series: the chart's own when it gives one per series, else assigned;
    /// a dashed series ([`SeriesStyle::Dashed`]) is dashed whatever its pen.
    pub fn series_pens(&self) -> Vec<Pen> {
        let styles: Vec<SeriesStyle> = self.series.iter().map(|s| s.style).collect();
        let pens = if self.pens.len() == self.series.len() {
            self.pens.clone()
        } else {
            pens::assign(&styles)
        };
        pens.into_iter()
            .zip(styles)
            .map(|(pen, style)| match style {
                SeriesStyle::Dashed => Pen {
                    dash: Dash::Dashed,
                    ..pen
                },
                SeriesStyle::Line | SeriesStyle::Points => pen,
            })
            .collect()
    }

    /// The legend entries of the series, in order.
    fn legend_entries(&self) -> Vec<Entry> {
        self.series
            .iter()
            .zip(self.series_pens())
            .map(|(series, pen)| Entry {
                label: series.label.clone(),
                colour: colour(pen.colour),
                mark: match series.style {
                    SeriesStyle::Line | SeriesStyle::Dashed => Mark::Line(pen.dash),
                    SeriesStyle::Points => Mark::Dot,
                },
            })
            .collect()
    }

    /// How many x ticks to ask for on an axis from `low` to `high`: one per whole number when
    /// every point lies on one and there are few (no tick between the rules of a narrow range of
    /// whole-number rules), else plotters' usual ten.
    fn x_ticks(&self, low: f64, high: f64) -> usize {
        let whole = self
            .series
            .iter()
            .flat_map(|s| &s.points)
            .all(|p| p.0.fract() == 0.0);
        let span = high - low;
        if !self.x_log && whole && span.fract() == 0.0 && (1.0..=12.0).contains(&span) {
            span as usize + 1
        } else {
            10
        }
    }

    /// Draws with every font and margin multiplied by `scale` (small panels of a grid), the
    /// legend placed by `legend`.
    fn draw_scaled<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        scale: f64,
        legend: Legend,
    ) -> DrawResult<DB> {
        let size = |pixels: f64| (pixels * scale).round().max(1.0) as u32;
        let area = if legend == Legend::Below {
            let entries = self.legend_entries();
            let font = 16.0 * scale;
            let (width, height) = area.dim_in_pixel();
            let below = legend::height(&entries, width, font);
            let (plot, under) = area.split_vertically(height.saturating_sub(below));
            legend::draw(&under, &entries, font)?;
            plot
        } else {
            area.clone()
        };
        let area = &area;
        let (xa, ya) = (Axis { log: self.x_log }, Axis { log: self.y_log });
        let (x_min, x_max) = bounds(
            self.series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| xa.map(p.0))),
        );
        let (x_min, x_max) = match (self.x_log, x_min < x_max) {
            (true, _) if x_min.is_finite() => log_range(x_min, x_max),
            (_, true) => (x_min, x_max),
            _ => (x_min - 1.0, x_min + 1.0),
        };
        let (y_low, y_high) = match self.y_range {
            Some((low, high)) => (ya.map(low), ya.map(high)),
            None => {
                let ys = self.series.iter().flat_map(|s| {
                    s.points
                        .iter()
                        .map(|p| ya.map(p.1))
                        .chain(s.band.iter().flat_map(|b| [ya.map(b.1), ya.map(b.2)]))
                });
                let (y_min, y_max) = bounds(ys);
                if self.y_log {
                    log_range(y_min, y_max)
                } else {
                    let pad = ((y_max - y_min) * 0.08).max(1e-9);
                    let low = if y_min >= 0.0 && y_min - pad < 0.0 {
                        0.0
                    } else {
                        y_min - pad
                    };
                    (low, y_max + pad)
                }
            }
        };
        let clamp = |y: f64| ya.map(y).clamp(y_low, y_high);
        let inside = |&(x, y): &(f64, f64)| {
            let (x, y) = (xa.map(x), ya.map(y));
            (x.is_finite() && y.is_finite() && (y_low..=y_high).contains(&y)).then_some((x, y))
        };
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, (FONT, size(26.0)))
            .margin(size(20.0))
            .x_label_area_size(size(55.0))
            .y_label_area_size(size(85.0))
            .build_cartesian_2d(x_min..x_max, y_low..y_high)?;
        chart
            .configure_mesh()
            .x_labels(self.x_ticks(x_min, x_max))
            .x_label_formatter(&|x| xa.label(*x))
            .y_label_formatter(&|y| ya.label(*y))
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .axis_desc_style((FONT, size(20.0)))
            .label_style((FONT, size(15.0)))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        let (origin_x, origin_y) = area.get_base_pixel();
        for (series, pen) in self.series.iter().zip(self.series_pens()) {
            let colour = colour(pen.colour);
            let band: Vec<(f64, f64, f64)> = series
                .band
                .iter()
                .map(|b| (xa.map(b.0), clamp(b.1), clamp(b.2)))
                .filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite())
                .collect();
            let points: Vec<(f64, f64)> = series.points.iter().filter_map(inside).collect();
            match series.style {
                SeriesStyle::Points => {
                    chart.draw_series(band.iter().map(|&(x, lo, hi)| {
                        PathElement::new(vec![(x, lo), (x, hi)], colour.mix(0.5).stroke_width(1))
                    }))?;
                    chart
                        .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
                }
                SeriesStyle::Line | SeriesStyle::Dashed => {
                    if !band.is_empty() {
                        let outline: Vec<(f64, f64)> = band
                            .iter()
                            .map(|b| (b.0, b.2))
                            .chain(band.iter().rev().map(|b| (b.0, b.1)))
                            .collect();
                        chart.draw_series(std::iter::once(Polygon::new(
                            outline,
                            colour.mix(0.18).filled(),
                        )))?;
                    }
                    // The line in pixels (relative to this chart's area), in its pattern.
                    let pixels: Vec<(f64, f64)> = points
                        .iter()
                        .map(|p| {
                            let (x, y) = chart.backend_coord(p);
                            (f64::from(x - origin_x), f64::from(y - origin_y))
                        })
                        .collect();
                    for stretch in pens::stretches(&pixels, pen.dash) {
                        let stretch: Vec<(i32, i32)> = stretch
                            .iter()
                            .map(|&(x, y)| (x.round() as i32, y.round() as i32))
                            .collect();
                        area.draw(&PathElement::new(stretch, colour.stroke_width(2)))?;
                    }
                    if self.markers {
                        chart.draw_series(
                            points.iter().map(|&p| Circle::new(p, 4, colour.filled())),
                        )?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Line charts under one title, each with its own axes: side by side up to [`ONE_ROW`]
/// panels, in a near-square grid with smaller text beyond. Legends stay outside the plots:
/// one under all panels when every panel has the same series, else one under each panel.
pub struct LinePanels {
    /// Title above all panels.
    pub title: String,
    /// Panels from left to right (then top to bottom in a grid).
    pub panels: Vec<LineChart>,
}

/// Most panels drawn side by side in one row.
const ONE_ROW: usize = 3;
/// Height in pixels each row of a grid of panels adds beyond the first.
const GRID_ROW: u32 = 560;

impl LinePanels {
    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let area = area.titled(&self.title, (FONT, 28))?;
        let shared = self.shared_legend();
        let area = match &shared {
            Some(entries) => {
                let (width, height) = area.dim_in_pixel();
                let below = legend::height(entries, width, SHARED_LEGEND_FONT);
                let (panels, under) = area.split_vertically(height.saturating_sub(below));
                legend::draw(&under, entries, SHARED_LEGEND_FONT)?;
                panels
            }
            None => area,
        };
        let place = if shared.is_some() {
            Legend::Hidden
        } else {
            Legend::Below
        };
        let (rows, columns) = self.grid();
        // Panels in a grid are as tall as in one row (the chart grows, see `height`), and
        // narrower: their text shrinks a little, never below a readable size.
        let scale = if rows == 1 {
            1.0
        } else {
            (2.0 / columns as f64).sqrt().clamp(0.75, 1.0)
        };
        let areas = area.split_evenly((rows, columns));
        for (panel, area) in self.panels.iter().zip(&areas) {
            panel.draw_scaled(area, scale, place)?;
        }
        Ok(())
    }

    /// Rows and columns of the panels: one row up to [`ONE_ROW`] panels, else a near-square
    /// grid.
    fn grid(&self) -> (usize, usize) {
        let n = self.panels.len().max(1);
        if n <= ONE_ROW {
            (1, n)
        } else {
            let columns = (n as f64).sqrt().ceil() as usize;
            (n.div_ceil(columns), columns)
        }
    }

    /// Height in pixels: [`HEIGHT`] for one row of panels, and [`GRID_ROW`] more for each
    /// further row of a grid.
    pub(super) fn height(&self) -> u32 {
        let (rows, _) = self.grid();
        HEIGHT + GRID_ROW * (rows as u32 - 1)
    }

    /// The one legend of every panel, when all panels draw the same series.
    fn shared_legend(&self) -> Option<Vec<Entry>> {
        let first = self.panels.first()?.legend_entries();
        self.panels
            .iter()
            .all(|panel| panel.legend_entries() == first)
            .then_some(first)
    }
}

/// Font size of a legend shared by all panels.
const SHARED_LEGEND_FONT: f64 = 16.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axes_label_whole_decades_only() {
        assert_eq!(decade_tick(0.0), "1");
        assert_eq!(decade_tick(3.0), "1000");
        assert_eq!(decade_tick(-2.0), "0.01");
        assert_eq!(decade_tick(9.0), "1e9");
        assert_eq!(decade_tick(2.5), "");
        assert_eq!(tick(-0.0), "0");
        assert_eq!(tick(-1e-17), "0");
        assert!(Axis { log: true }.map(0.0).is_nan());
        assert_eq!(Axis { log: true }.map(100.0), 2.0);
    }

    #[test]
    fn a_log_log_chart_with_points_and_a_dashed_line_draws() {
        let chart = super::super::Chart::Lines(LineChart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![
                Series {
                    label: "points".into(),
                    points: vec![(1.0, 0.001), (10.0, 0.01), (0.0, 1.0)],
                    band: vec![(1.0, 0.0005, 0.002), (10.0, 0.005, 0.02)],
                    style: SeriesStyle::Points,
                },
                Series {
                    label: "fit".into(),
                    points: vec![(1.0, 0.001), (10.0, 0.01)],
                    band: Vec::new(),
                    style: SeriesStyle::Dashed,
                },
            ],
            x_log: true,
            y_log: true,
            ..LineChart::default()
        });
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("chart.svg");
        chart.save_svg(&path).expect("drawn");
        let svg = std::fs::read_to_string(&path).expect("read");
        let labels: Vec<&str> = svg.lines().map(str::trim).collect();
        assert!(
            labels.contains(&"10") && labels.contains(&"0.01"),
            "decade labels"
        );
        assert!(!labels.contains(&"3.162278"), "nothing between decades");
    }

    /// The numbers of attribute `name` of every element `tag` in `svg`.
    fn attributes(svg: &str, tag: &str, name: &str) -> Vec<f64> {
        svg.split(&format!("<{tag} "))
            .skip(1)
            .filter_map(|e| e.split(&format!(" {name}=\"")).nth(1))
            .filter_map(|rest| rest.split('"').next()?.parse().ok())
            .collect()
    }

    #[test]
    fn a_legend_of_many_series_stands_under_every_point_and_axis_label() {
        let series = (0..12)
            .map(|i| Series {
                label: format!("variant-{i}"),
                // The highest point sits in the upper right corner, where a legend inside
                // the plot would cover it.
                points: vec![(0.0, 0.0), (10.0, 1.0 + f64::from(i))],
                ..Series::default()
            })
            .collect();
        let chart = LineChart {
            title: "t".into(),
            x_label: "the x axis".into(),
            y_label: "y".into(),
            series,
            markers: true,
            ..LineChart::default()
        };
        let pens = chart.series_pens();
        for (i, pen) in pens.iter().enumerate() {
            assert!(!pens[..i].contains(pen), "series {i} repeats {pen:?}");
        }
        let svg = super::super::Chart::Lines(chart).svg().expect("drawn");
        let lowest_point = attributes(&svg, "circle", "cy")
            .into_iter()
            .fold(f64::NEG_INFINITY, f64::max);
        let lines: Vec<&str> = svg.lines().collect();
        let y_of = |text: &str| -> Vec<f64> {
            lines
                .windows(2)
                .filter(|w| w[1].trim() == text)
                .flat_map(|w| attributes(w[0], "text", "y"))
                .collect()
        };
        let axis_title = y_of("the x axis");
        assert_eq!(axis_title.len(), 1, "the x axis title");
        for i in 0..12 {
            let label = y_of(&format!("variant-{i}"));
            assert_eq!(label.len(), 1, "one legend entry for variant-{i}");
            assert!(
                label[0] > lowest_point && label[0] > axis_title[0],
                "legend entry at y = {} above a point (lowest {lowest_point}) or the axis \
                 title ({})",
                label[0],
                axis_title[0]
            );
        }
    }

    #[test]
    fn panels_with_the_same_series_share_one_legend_under_the_plots() {
        let panel = |title: &str| LineChart {
            title: title.into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![
                Series {
                    label: "simulated".into(),
                    points: vec![(0.0, 0.5), (1.0, 0.6)],
                    ..Series::default()
                },
                Series {
                    label: "optimal".into(),
                    points: vec![(0.0, 0.6), (1.0, 0.6)],
                    style: SeriesStyle::Dashed,
                    ..Series::default()
                },
            ],
            ..LineChart::default()
        };
        let svg = super::super::Chart::LinePanels(LinePanels {
            title: "t".into(),
            panels: vec![panel("a"), panel("b")],
        })
        .svg()
        .expect("drawn");
        let lines: Vec<&str> = svg.lines().collect();
        let label_rows: Vec<&str> = lines
            .windows(2)
            .filter(|w| w[1].trim() == "optimal")
            .map(|w| w[0])
            .collect();
        assert_eq!(label_rows.len(), 1, "one legend for both panels");
        let y: f64 = label_rows[0]
            .split(" y=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .and_then(|y| y.parse().ok())
            .expect("y attribute");
        // Below every panel's x axis title (which sits in the bottom 55 pixels of a panel).
        assert!(
            y > f64::from(super::super::HEIGHT) - 40.0,
            "legend at y = {y}"
        );
    }
}
