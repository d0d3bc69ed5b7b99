//! The charts a declaration implies: each histogram as lines per variant, and every proportion
//! and mean as bars with 95% whiskers per variant. More variants than the palette has colours,
//! swept over two or more parameters, are told apart by colour for one parameter and by dash
//! pattern for the others.

use super::{Analysis, Kind, Metric};
use crate::params::ParamValue;
use crate::plot::{colour, Bar, BarChart, BarPanel, Chart, Dash, LineChart, Pen, Series, PALETTE};
use crate::spec::Variant;
use crate::stats;

/// Pens for one line per variant of `variants`, when they are more than the palette has
/// colours and form a grid of two or more swept parameters: colour by the parameter with the
/// most values (at most the palette's), dash pattern by the others together (at most as many
/// combinations as there are patterns). Empty otherwise: the chart then gives every line its
/// own pen itself.
fn grid_pens(variants: &[&Variant]) -> Vec<Pen> {
    if variants.len() <= PALETTE.len() {
        return Vec::new();
    }
    let Some(first) = variants.first() else {
        return Vec::new();
    };
    // The distinct values of each parameter that varies, in order of first appearance.
    let swept: Vec<(usize, Vec<&ParamValue>)> = (0..first.params.iter().count())
        .filter_map(|index| {
            let mut values: Vec<&ParamValue> = Vec::new();
            for variant in variants {
                let value = variant.params.iter().nth(index)?.1;
                if !values.contains(&value) {
                    values.push(value);
                }
            }
            (values.len() > 1).then_some((index, values))
        })
        .collect();
    if swept.len() < 2 {
        return Vec::new();
    }
    let Some((coloured, colours)) = swept
        .iter()
        .filter(|(_, values)| values.len() <= PALETTE.len())
        .max_by_key(|(_, values)| values.len())
    else {
        return Vec::new();
    };
    let value =
        |variant: &Variant, index: usize| variant.params.iter().nth(index).map(|p| p.1.clone());
    let mut patterns: Vec<Vec<Option<ParamValue>>> = Vec::new();
    let mut pens = Vec::new();
    for variant in variants {
        let rest: Vec<Option<ParamValue>> = swept
            .iter()
            .filter(|(index, _)| index != coloured)
            .map(|(index, _)| value(variant, *index))
            .collect();
        let pattern = patterns.iter().position(|p| *p == rest).unwrap_or_else(|| {
            patterns.push(rest);
            patterns.len() - 1
        });
        let colour = value(variant, *coloured).and_then(|v| colours.iter().position(|c| **c == v));
        match (colour, Dash::ALL.get(pattern)) {
            (Some(colour), Some(&dash)) => pens.push(Pen { colour, dash }),
            _ => return Vec::new(),
        }
    }
    let distinct = pens
        .iter()
        .enumerate()
        .all(|(i, pen)| !pens[..i].contains(pen));
    if distinct {
        pens
    } else {
        Vec::new()
    }
}

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
            pens: grid_pens(&self.rows.iter().map(|r| r.variant).collect::<Vec<_>>()),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn variants(sweep: &str) -> Vec<Variant> {
        let spec = format!(
            "version = 1\nname = \"t\"\ngame = \"toy\"\nseed = 1\ntrials = 5\n\n[sweep]\n{sweep}\n"
        );
        let (_, experiment) = crate::testing::registry()
            .parse(std::path::Path::new("t.toml"), &spec)
            .expect("a valid spec");
        experiment.variants
    }

    #[test]
    fn a_grid_of_more_than_ten_variants_colours_one_parameter_and_dashes_the_other() {
        let twelve = variants(
            "placement = [\"winner_first\", \"loser_first\", \"random\", \"high_first\", \
             \"low_first\", \"player1_first\"]\nface_down = [1, 3]",
        );
        let refs: Vec<&Variant> = twelve.iter().collect();
        let pens = grid_pens(&refs);
        assert_eq!(pens.len(), 12);
        for (variant, pen) in twelve.iter().zip(&pens) {
            let same_placement = twelve.iter().zip(&pens).filter(|(v, _)| {
                v.params.choice("placement") == variant.params.choice("placement")
            });
            assert!(same_placement.clone().all(|(_, p)| p.colour == pen.colour));
            let dash = if variant.params.int("face_down") == twelve[0].params.int("face_down") {
                Dash::Solid
            } else {
                Dash::Dashed
            };
            assert_eq!(pen.dash, dash, "{}", variant.name);
        }
        for (i, pen) in pens.iter().enumerate() {
            assert!(!pens[..i].contains(pen), "two variants share {pen:?}");
        }
        // Ten variants or fewer, or one swept parameter: the chart assigns the pens.
        assert!(grid_pens(&refs[..10]).is_empty());
        let one = variants("max_turns = { from = 100, to = 1100, step = 100 }");
        assert!(grid_pens(&one.iter().collect::<Vec<_>>()).is_empty());
    }
}
