//! What a finished ladder shows: the fits of running time and interval width against trials,
//! the spread of repeats and whether they agree.

use crate::analysis::scaling::{agreement, chi_square_p, fit_line, grouped_fit, LineFit};
use crate::stats::Estimate;

use super::report::duration;
use super::{Ladder, ALPHA, MIN_TEST_TRIALS, MIN_WIDTH_FIT, SPREAD_AT};

pub(super) fn half_width(estimate: &Estimate) -> f64 {
    (estimate.confidence_interval.upper - estimate.confidence_interval.lower) / 2.0
}

/// The pooled estimate of several repeats: inverse-variance weighted where every repeat has a
/// usable standard error, else the plain mean of the finite points.
pub(super) fn pooled(estimates: &[Estimate]) -> f64 {
    agreement(estimates).map_or_else(
        || {
            let finite: Vec<f64> = estimates
                .iter()
                .map(|e| e.point)
                .filter(|p| p.is_finite())
                .collect();
            finite.iter().sum::<f64>() / finite.len() as f64
        },
        |a| a.pooled,
    )
}

/// The agreement test at one count, summed over the variants where it is defined.
pub(super) struct CountTest {
    pub(super) trials: u64,
    pub(super) q: f64,
    pub(super) df: f64,
    pub(super) p: f64,
    pub(super) variants: usize,
}

/// Per variant: the reference estimate and what the ladder shows about it.
pub(super) struct VariantFindings {
    /// Pooled estimate of the repeats at the top of the ladder.
    pub(super) reference: f64,
    /// Mean half-width of the repeats' intervals at the top, times sqrt(top): the constant of
    /// the 1/sqrt(trials) envelope.
    pub(super) envelope: f64,
    /// Largest distance of a repeat from the pooled estimate at the spread count.
    pub(super) spread: f64,
    /// The fit of log10 half-width on log10 trials.
    pub(super) width: LineFit,
    /// The fit of seconds on trials.
    pub(super) time: LineFit,
}

/// What the ladder shows.
pub(super) struct Findings {
    pub(super) time: LineFit,
    pub(super) width: LineFit,
    pub(super) width_from: u64,
    pub(super) spread_at: Option<u64>,
    pub(super) tests: Vec<CountTest>,
    pub(super) variants: Vec<VariantFindings>,
}

impl Findings {
    pub(super) fn new(run: &Ladder) -> Findings {
        let time = fit_line(&mean_times(run));
        let large = run.ladder.iter().filter(|&&n| n >= MIN_WIDTH_FIT).count();
        let width_from = if large >= 2 {
            MIN_WIDTH_FIT
        } else {
            run.ladder.first().copied().unwrap_or(1)
        };
        let width_points = |variant: usize| -> Vec<(f64, f64)> {
            run.rows
                .iter()
                .filter(|r| r.variant == variant && r.trials >= width_from)
                .map(|r| ((r.trials as f64).log10(), half_width(&r.estimate).log10()))
                .collect()
        };
        let variant_count = run.experiment.variants.len();
        let width = grouped_fit(&(0..variant_count).map(width_points).collect::<Vec<_>>());
        let spread_at = run.ladder.iter().copied().min_by(|a, b| {
            let distance = |n: u64| ((n as f64).ln() - (SPREAD_AT as f64).ln()).abs();
            distance(*a).total_cmp(&distance(*b))
        });
        let top = run.top();
        let variants = (0..variant_count)
            .map(|v| {
                let at_top = run.estimates(v, top);
                let widths: Vec<f64> = at_top
                    .iter()
                    .map(half_width)
                    .filter(|w| w.is_finite())
                    .collect();
                let spread = spread_at.map_or(f64::NAN, |n| {
                    let estimates = run.estimates(v, n);
                    let centre = pooled(&estimates);
                    estimates
                        .iter()
                        .map(|e| (e.point - centre).abs())
                        .filter(|d| d.is_finite())
                        .fold(f64::NAN, f64::max)
                });
                VariantFindings {
                    reference: pooled(&at_top),
                    envelope: widths.iter().sum::<f64>() / widths.len() as f64
                        * (top as f64).sqrt(),
                    spread,
                    width: fit_line(&width_points(v)),
                    time: fit_line(
                        &run.rows
                            .iter()
                            .filter(|r| r.variant == v)
                            .map(|r| (r.trials as f64, r.seconds))
                            .collect::<Vec<_>>(),
                    ),
                }
            })
            .collect();
        let tests = run
            .ladder
            .iter()
            .filter(|&&trials| trials >= MIN_TEST_TRIALS)
            .filter_map(|&trials| {
                let agreements: Vec<_> = (0..variant_count)
                    .filter_map(|v| agreement(&run.estimates(v, trials)))
                    .collect();
                if agreements.is_empty() {
                    return None;
                }
                let q = agreements.iter().map(|a| a.q).sum();
                let df = agreements.iter().map(|a| a.df).sum();
                Some(CountTest {
                    trials,
                    q,
                    df,
                    p: chi_square_p(q, df),
                    variants: agreements.len(),
                })
            })
            .collect();
        Findings {
            time,
            width,
            width_from,
            spread_at,
            tests,
            variants,
        }
    }

    /// The two answers in a few lines, for the terminal.
    pub(super) fn summary(&self, run: &Ladder) -> String {
        format!(
            "Running time: {} + {} per trial (R² = {:.4}); start-up {} measured separately.\n\
             CI half-width of {} falls as trials^{:.3} (expected -0.5).\n\
             Repeats agree with their pooled estimate at {} of {} tested counts (α = {ALPHA}).",
            duration(self.time.intercept),
            duration(self.time.slope),
            self.time.r_squared,
            duration(run.startup),
            run.metric,
            self.width.slope,
            self.tests.iter().filter(|t| t.p >= ALPHA).count(),
            self.tests.len(),
        )
    }
}

/// For each (count, repeat), the mean wall time of a variant's run: the cost of the average
/// variant, whose per-trial cost is what `experiment run` reports as trials per second.
pub(super) fn mean_times(run: &Ladder) -> Vec<(f64, f64)> {
    let variants = run.experiment.variants.len() as f64;
    let mut points = Vec::new();
    for &trials in &run.ladder {
        for repeat in 1..=run.repeats {
            let total: f64 = run
                .rows
                .iter()
                .filter(|r| r.trials == trials && r.repeat == repeat)
                .map(|r| r.seconds)
                .sum();
            points.push((trials as f64, total / variants));
        }
    }
    points
}
