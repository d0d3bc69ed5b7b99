//! The arithmetic of a scaling study: the ladder of trial counts, each repeat's seed, the
//! least-squares fits of running time and of interval width against trials, and the test of
//! whether repeats agree with their pooled estimate. No I/O and no knowledge of any game.

use crate::rng::splitmix64;
use crate::stats::distributions::chi_square_sf;
use crate::stats::Estimate;

/// Fewest distinct counts a default ladder has (when its top allows that many).
pub const MIN_LADDER: usize = 12;
/// Fewest distinct counts between 1 and [`SMALL_RANGE`] a default ladder has.
pub const MIN_SMALL: usize = 10;
/// The small counts (1 to this) a default ladder covers with at least [`MIN_SMALL`] steps, so
/// the fixed cost per run shows apart from the cost per trial.
pub const SMALL_RANGE: u64 = 1_000;

/// Mantissas of the preferred-number series tried in turn, coarsest first: 1-2-5, then the
/// E6, E12 and E24 series, so the ladder is as sparse as its minimum sizes allow.
const SERIES: [&[f64]; 4] = [
    &[1.0, 2.0, 5.0],
    &[1.0, 1.5, 2.2, 3.3, 4.7, 6.8],
    &[1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2],
    &[
        1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6, 3.9, 4.3, 4.7, 5.1,
        5.6, 6.2, 6.8, 7.5, 8.2, 9.1,
    ],
];

/// Trial counts log-spaced from 1 to `top` (inclusive): the coarsest preferred-number series
/// giving at least [`MIN_LADDER`] counts and at least [`MIN_SMALL`] of them in 1..=1,000; every
/// whole number up to `top` when even the finest series cannot (a top below about 12).
pub fn default_ladder(top: u64) -> Vec<u64> {
    let top = top.max(1);
    let small_wanted = MIN_SMALL.min(top.min(SMALL_RANGE) as usize);
    let wanted = MIN_LADDER.min(top as usize);
    for mantissas in SERIES {
        let ladder = preferred_counts(mantissas, top);
        let small = ladder.iter().filter(|&&n| n <= SMALL_RANGE).count();
        if ladder.len() >= wanted && small >= small_wanted {
            return ladder;
        }
    }
    if top <= 100 {
        return (1..=top).collect();
    }
    preferred_counts(SERIES[SERIES.len() - 1], top)
}

fn preferred_counts(mantissas: &[f64], top: u64) -> Vec<u64> {
    let mut counts = Vec::new();
    let mut decade = 1.0_f64;
    'outer: loop {
        for &m in mantissas {
            let count = (m * decade).round() as u64;
            if count >= top {
                break 'outer;
            }
            if counts.last() != Some(&count) {
                counts.push(count);
            }
        }
        decade *= 10.0;
    }
    counts.push(top);
    counts
}

/// The seed of repeat `repeat` (1-based) of a ladder whose spec is seeded with `seed`. Repeat
/// 1 plays the spec's own seed (its rows are what `experiment run --trials N` gives); later
/// repeats play SplitMix64 mixes of (seed, repeat), kept to 63 bits so every table reader
/// holds them exactly as signed integers.
pub fn repeat_seed(seed: u64, repeat: u32) -> u64 {
    if repeat <= 1 {
        seed
    } else {
        splitmix64(splitmix64(seed) ^ u64::from(repeat)) >> 1
    }
}

/// A least-squares line `y = intercept + slope * x`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineFit {
    /// Value at x = 0.
    pub intercept: f64,
    /// Change in y per unit of x.
    pub slope: f64,
    /// Standard error of the slope (NaN with fewer than three points).
    pub slope_se: f64,
    /// Share of the variance of y the line explains.
    pub r_squared: f64,
    /// Points fitted.
    pub points: usize,
}

/// The least-squares line through `points` (x, y); points with a non-finite coordinate are
/// left out. NaN throughout with fewer than two distinct x.
pub fn fit_line(points: &[(f64, f64)]) -> LineFit {
    let groups = [points.to_vec()];
    grouped_fit(&groups)
}

/// The least-squares slope common to several groups, each with its own intercept (a
/// fixed-effects fit: the slope within groups); the intercept reported is the overall one
/// (mean y minus slope times mean x). With one group it is the ordinary least-squares line.
pub fn grouped_fit(groups: &[Vec<(f64, f64)>]) -> LineFit {
    let groups: Vec<Vec<(f64, f64)>> = groups
        .iter()
        .map(|g| {
            g.iter()
                .copied()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect::<Vec<_>>()
        })
        .filter(|g| !g.is_empty())
        .collect();
    let n: usize = groups.iter().map(Vec::len).sum();
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    let (mut sum_x, mut sum_y) = (0.0, 0.0);
    for group in &groups {
        let m = group.len() as f64;
        let mx = group.iter().map(|p| p.0).sum::<f64>() / m;
        let my = group.iter().map(|p| p.1).sum::<f64>() / m;
        sum_x += mx * m;
        sum_y += my * m;
        for &(x, y) in group {
            sxx += (x - mx) * (x - mx);
            sxy += (x - mx) * (y - my);
            syy += (y - my) * (y - my);
        }
    }
    if n < 2 || sxx <= 0.0 {
        return LineFit {
            intercept: f64::NAN,
            slope: f64::NAN,
            slope_se: f64::NAN,
            r_squared: f64::NAN,
            points: n,
        };
    }
    let slope = sxy / sxx;
    let residual = (syy - slope * sxy).max(0.0);
    let df = n as f64 - groups.len() as f64 - 1.0;
    LineFit {
        intercept: (sum_y - slope * sum_x) / n as f64,
        slope,
        slope_se: if df > 0.0 {
            (residual / df / sxx).sqrt()
        } else {
            f64::NAN
        },
        r_squared: if syy > 0.0 { 1.0 - residual / syy } else { 1.0 },
        points: n,
    }
}

/// Whether repeated estimates of one quantity agree: Cochran's Q, the inverse-variance
/// weighted sum of squared deviations from the pooled (weighted mean) estimate, against
/// chi-square with one degree of freedom fewer than the estimates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    /// The inverse-variance weighted mean.
    pub pooled: f64,
    /// Q.
    pub q: f64,
    /// Degrees of freedom (estimates - 1).
    pub df: f64,
}

/// Cochran's Q of `estimates`, or `None` when it is undefined: fewer than two estimates, or
/// one without a positive, finite standard error (a single finished game, a proportion of 0
/// or 1), where the normal approximation the test rests on does not hold.
pub fn agreement(estimates: &[Estimate]) -> Option<Agreement> {
    if estimates.len() < 2
        || estimates.iter().any(|e| {
            !e.point.is_finite() || !e.standard_error.is_finite() || e.standard_error <= 0.0
        })
    {
        return None;
    }
    let weights: Vec<f64> = estimates
        .iter()
        .map(|e| 1.0 / (e.standard_error * e.standard_error))
        .collect();
    let total: f64 = weights.iter().sum();
    let pooled = estimates
        .iter()
        .zip(&weights)
        .map(|(e, w)| w * e.point)
        .sum::<f64>()
        / total;
    let q = estimates
        .iter()
        .zip(&weights)
        .map(|(e, w)| w * (e.point - pooled).powi(2))
        .sum();
    Some(Agreement {
        pooled,
        q,
        df: (estimates.len() - 1) as f64,
    })
}

/// The upper-tail p-value of chi-square statistic `q` with `df` degrees of freedom.
pub fn chi_square_p(q: f64, df: f64) -> f64 {
    if q.is_finite() {
        chi_square_sf(q, df)
    } else {
        f64::NAN
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::normal_estimate;

    #[test]
    fn the_default_ladder_is_log_spaced_and_dense_enough_below_a_thousand() {
        let ladder = default_ladder(100_000);
        assert_eq!(
            ladder,
            [
                1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000,
                100_000
            ]
        );
        for top in [1_000, 1_500, 300, 40, 13, 12_345, 1_000_000_000] {
            let ladder = default_ladder(top);
            assert!(ladder.windows(2).all(|w| w[0] < w[1]), "{top}: {ladder:?}");
            assert_eq!((ladder[0], *ladder.last().unwrap()), (1, top));
            assert!(ladder.len() >= MIN_LADDER, "{top}: {ladder:?}");
            let small = ladder.iter().filter(|&&n| n <= SMALL_RANGE).count();
            assert!(small >= MIN_SMALL, "{top}: {ladder:?}");
        }
        assert_eq!(default_ladder(5), [1, 2, 3, 4, 5]);
    }

    #[test]
    fn repeats_get_distinct_seeds_and_the_first_plays_the_specs() {
        let seeds: Vec<u64> = (1..=50).map(|r| repeat_seed(42, r)).collect();
        assert_eq!(seeds[0], 42);
        let mut sorted = seeds.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), seeds.len());
        assert!(seeds.iter().all(|&s| s <= i64::MAX as u64));
    }

    #[test]
    fn a_line_through_exact_points_is_recovered() {
        let points: Vec<(f64, f64)> = (1..=10).map(|x| (x as f64, 3.0 + 2.0 * x as f64)).collect();
        let fit = fit_line(&points);
        assert!((fit.slope - 2.0).abs() < 1e-12 && (fit.intercept - 3.0).abs() < 1e-12);
        assert!((fit.r_squared - 1.0).abs() < 1e-12);
        assert!(fit.slope_se.abs() < 1e-9);
    }

    #[test]
    fn groups_share_a_slope_but_not_an_intercept() {
        let a: Vec<(f64, f64)> = (0..5).map(|x| (x as f64, 10.0 - 0.5 * x as f64)).collect();
        let b: Vec<(f64, f64)> = (0..5).map(|x| (x as f64, -4.0 - 0.5 * x as f64)).collect();
        let fit = grouped_fit(&[a.clone(), b.clone()]);
        assert!((fit.slope + 0.5).abs() < 1e-12, "{fit:?}");
        let pooled = fit_line(&[a, b].concat());
        assert!((pooled.slope + 0.5).abs() < 1e-12);
        assert!(
            pooled.r_squared < 0.1,
            "the intercepts differ: one line fits badly"
        );
    }

    #[test]
    fn agreeing_repeats_give_a_small_q_and_disagreeing_ones_a_large_q() {
        let close = [normal_estimate(1.0, 0.1), normal_estimate(1.05, 0.1)];
        let agreement = agreement(&close).expect("defined");
        assert!((agreement.pooled - 1.025).abs() < 1e-12);
        assert!((agreement.q - 0.125).abs() < 1e-9);
        assert!(chi_square_p(agreement.q, agreement.df) > 0.7);
        let far = [normal_estimate(1.0, 0.1), normal_estimate(2.0, 0.1)];
        let q = super::agreement(&far).expect("defined");
        assert!(chi_square_p(q.q, q.df) < 1e-6);
        assert!(
            super::agreement(&[normal_estimate(1.0, 0.0), normal_estimate(1.0, 0.1)]).is_none()
        );
    }
}
