//! The charts a declaration implies: each histogram as lines per variant, and every proportion
//! and mean as bars with 95% whiskers per variant.

use super::{Analysis, Kind, Metric};
use crate::plot::{colour, Bar, BarChart, BarPanel, Chart, LineChart, Series};
use crate::stats;

fn histogram_bin<S>(metric: &Metric<S>) -> &'static str {
    match metric.kind {
        Kind::Histogram { bin, .. } => bin,
        _ => metric.name,
    }
}

/// Points a histogram line has at most; wider histograms are drawn in equal bins.
const HISTOGRAM_POINTS: usize = 100;

/// A bin width that keeps a histogram line under [`HISTOGRAM_POINTS`] points. Widths are
/// 1, 2, 4 or ten times 1, 2 or 4: never odd above 1, so values that move in steps of two
/// (fortunes after an even number of bets) do not make a saw-tooth line.
fn bin_width(x_limit: usize) -> usize {
    let mut scale = 1;
    loop {
        for step in [1, 2, 4] {
            if x_limit <= HISTOGRAM_POINTS * step * scale {
                return step * scale;
            }
        }
        scale *= 10;
    }
}

/// The y axis label of a histogram of `label` over `bin` drawn in bins `width` wide.
fn histogram_y_label(label: &str, bin: &str, width: usize) -> String {
    if width == 1 {
        format!("share of {label}")
    } else {
        format!("share of {label} per bin of {width} {bin}")
    }
}

impl<S> Analysis<'_, S> {
    /// The histogram `metric` as one line per variant: the share of observations in each value
    /// (or bin of values) of the binned quantity, up to the 99.5th percentile of the
    /// longest-tailed variant.
    ///
    /// # Panics
    /// If `metric` is not a declared histogram.
    pub fn histogram_chart(&self, metric: &str, title: &str) -> Chart {
        let Metric {
            kind: Kind::Histogram { bin, counts, .. },
            label,
            ..
        } = self.measures.metric(metric)
        else {
            panic!("{metric} is not a histogram");
        };
        let x_limit = self
            .rows
            .iter()
            .filter_map(|r| stats::histogram_quantile(counts(r.summary), 0.995))
            .max()
            .unwrap_or(1)
            .max(1);
        let width = bin_width(x_limit);
        let series = self
            .rows
            .iter()
            .map(|row| {
                let counts = counts(row.summary);
                let total = counts.iter().sum::<u64>().max(1) as f64;
                let points = (0..=x_limit / width)
                    .map(|index| {
                        let start = index * width;
                        let count: u64 = counts.iter().skip(start).take(width).sum();
                        let centre = if width == 1 {
                            start as f64
                        } else {
                            (start + width / 2) as f64
                        };
                        (centre, count as f64 / total)
                    })
                    .collect();
                Series {
                    label: row.variant.name.clone(),
                    points,
                    band: Vec::new(),
                    ..Default::default()
                }
            })
            .collect();
        Chart::Lines(LineChart {
            title: title.to_string(),
            x_label: if width == 1 {
                bin.to_string()
            } else {
                format!("{bin} (bins of {width})")
            },
            y_label: histogram_y_label(label, bin, width),
            series,
            markers: width == 1 && x_limit <= 40,
            ..Default::default()
        })
    }

    /// Every proportion and mean as bars per variant with 95% whiskers, a panel each.
    pub fn estimates_chart(&self) -> Chart {
        let panels = self
            .measures
            .estimated()
            .map(|metric| BarPanel {
                title: format!("{} ({})", metric.label, metric.name),
                bars: self
                    .rows
                    .iter()
                    .enumerate()
                    .filter_map(|(index, row)| {
                        let estimate = metric.estimate(row.summary)?;
                        let ci = estimate.confidence_interval;
                        Some(Bar {
                            label: row.variant.name.clone(),
                            value: estimate.point,
                            lower: ci.lower,
                            upper: ci.upper,
                            colour: colour(index),
                        })
                    })
                    .collect(),
            })
            .collect();
        Chart::Bars(BarChart {
            x_label: "variant".into(),
            y_label: "estimate with 95% interval".into(),
            panels,
            shared_scale: false,
            legend: Vec::new(),
        })
    }

    /// The default charts by file stem: `estimates`, and one per histogram named after its
    /// table.
    pub fn standard_charts(&self) -> Vec<(String, Chart)> {
        let mut charts = vec![("estimates".to_string(), self.estimates_chart())];
        for metric in &self.measures.metrics {
            if let Kind::Histogram { table, .. } = metric.kind {
                let title = format!(
                    "Distribution of {bin} by variant",
                    bin = histogram_bin(metric)
                );
                charts.push((table.to_string(), self.histogram_chart(metric.name, &title)));
            }
        }
        charts
    }
}
