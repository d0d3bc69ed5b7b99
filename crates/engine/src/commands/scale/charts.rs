//! The charts of a ladder: running time on log-log axes with its fitted line, and each
//! variant's estimates with their intervals converging as trials grow.

use crate::plot::{Chart, LineChart, LinePanels, Series, SeriesStyle};

use super::findings::Findings;
use super::report::duration;
use super::{Ladder, Row, COLOURED_VARIANTS};
use crate::commands::thousands;

pub(super) fn running_time_chart(run: &Ladder, findings: &Findings) -> Chart {
    let points = |keep: &dyn Fn(&Row) -> bool| -> Vec<(f64, f64)> {
        run.rows
            .iter()
            .filter(|r| keep(r))
            .map(|r| (r.trials as f64, r.seconds))
            .collect()
    };
    let variants = run.experiment.variants.len();
    let mut series: Vec<Series> = if variants <= COLOURED_VARIANTS {
        (0..variants)
            .map(|v| Series {
                label: run.variant_name(v).to_string(),
                points: points(&|r| r.variant == v),
                style: SeriesStyle::Points,
                ..Series::default()
            })
            .collect()
    } else {
        vec![Series {
            label: format!("runs ({variants} variants)"),
            points: points(&|_| true),
            style: SeriesStyle::Points,
            ..Series::default()
        }]
    };
    let fit = findings.time;
    series.push(Series {
        label: format!(
            "fit to the mean of the variants: {} + {} × trials (R² = {:.4})",
            duration(fit.intercept),
            duration(fit.slope),
            fit.r_squared
        ),
        points: fitted_curve(run.ladder.first().copied().unwrap_or(1), run.top())
            .map(|n| (n, fit.intercept + fit.slope * n))
            .collect(),
        ..Series::default()
    });
    Chart::Lines(LineChart {
        title: format!(
            "{}: wall time of a run against trials ({} repeats, {} threads)",
            run.experiment.name, run.repeats, run.threads
        ),
        x_label: "trials (log scale)".into(),
        y_label: "seconds (log scale)".into(),
        series,
        x_log: true,
        y_log: true,
        ..LineChart::default()
    })
}

/// Points log-spaced from `first` to `last`, enough to draw a smooth curve on a log axis.
pub(super) fn fitted_curve(first: u64, last: u64) -> impl Iterator<Item = f64> {
    let (low, high) = ((first.max(1) as f64).log10(), (last.max(1) as f64).log10());
    (0..=100).map(move |i| 10f64.powf(low + (high - low) * f64::from(i) / 100.0))
}

pub(super) fn convergence_chart(run: &Ladder, findings: &Findings) -> Chart {
    let spread = |repeat: u32| {
        let centre = f64::from(run.repeats + 1) / 2.0;
        10f64.powf(0.015 * (f64::from(repeat) - centre))
    };
    let top = run.top();
    let panels = findings
        .variants
        .iter()
        .enumerate()
        .map(|(v, found)| {
            let rows: Vec<&Row> = run.rows.iter().filter(|r| r.variant == v).collect();
            let (low, high) = rows
                .iter()
                .map(|r| r.estimate.point)
                .chain([found.reference])
                .filter(|p| p.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p), hi.max(p))
                });
            let pad = ((high - low) * 0.1).max(high.abs().max(1.0) * 1e-3);
            let envelope = |n: f64| found.envelope / n.sqrt();
            LineChart {
                title: run.variant_name(v).to_string(),
                x_label: "trials (log scale)".into(),
                y_label: run.label.into(),
                series: vec![
                    Series {
                        label: "repeats (95% CI)".into(),
                        points: rows
                            .iter()
                            .map(|r| (r.trials as f64 * spread(r.repeat), r.estimate.point))
                            .collect(),
                        band: rows
                            .iter()
                            .map(|r| {
                                let ci = r.estimate.confidence_interval;
                                (r.trials as f64 * spread(r.repeat), ci.lower, ci.upper)
                            })
                            .collect(),
                        style: SeriesStyle::Points,
                    },
                    Series {
                        label: format!("pooled at {} ± c/√trials", thousands(top)),
                        points: run
                            .ladder
                            .iter()
                            .map(|&n| (n as f64, found.reference))
                            .collect(),
                        band: run
                            .ladder
                            .iter()
                            .map(|&n| {
                                let n = n as f64;
                                (
                                    n,
                                    found.reference - envelope(n),
                                    found.reference + envelope(n),
                                )
                            })
                            .collect(),
                        style: SeriesStyle::Dashed,
                    },
                ],
                x_log: true,
                y_range: low.is_finite().then_some((low - pad, high + pad)),
                ..LineChart::default()
            }
        })
        .collect();
    Chart::LinePanels(LinePanels {
        title: format!(
            "{}: {} against trials, {} repeats each",
            run.experiment.name, run.label, run.repeats
        ),
        panels,
    })
}
