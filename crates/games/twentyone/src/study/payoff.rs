//! The mean payoff per game, for rules under which a game's payoff is not just +1 or -1 (ties
//! push, or a natural pays more): its estimate from a summary's counts, and the comparisons of
//! each rule's mean payoff against the best (Welch, or the paired t-test in a common design;
//! Holm), which then rank the rules.

use super::Row;
use crate::game::{Rules, Ties, TwentyOne, TwentyOneSummary};
use experiment_engine::analysis::comparison::{adjust, compared_pairs};
use experiment_engine::analysis::Comparison;
use experiment_engine::analysis::Pairs;
use experiment_engine::design::PairedSummary;
use experiment_engine::games::Game;
use experiment_engine::spec::Variant;
use experiment_engine::stats::paired::paired_t;
use experiment_engine::stats::{self, ConfidenceInterval, Estimate, TestResult};
use experiment_engine::summary::IntegerMoments;

/// The comparison family of the mean payoffs (in `comparisons.csv`).
pub const FAMILY: &str = "mean_payoff";

/// A payoff of one unit, in the twentieths payoffs are counted in exactly.
const UNIT: i64 = 20;

/// The payoffs of `summary`'s games at `rules`, in twentieths of the stake, as exact integer
/// moments: each natural win counts `natural_pays`, each other win 1, each push 0 and every
/// other game -1.
pub fn payoff_moments(summary: &TwentyOneSummary, rules: &Rules) -> IntegerMoments {
    let natural = rules.natural_twentieths();
    let naturals = summary.natural_wins;
    let wins = summary.wins - naturals;
    let pushes = if rules.tie == Ties::Push {
        summary.ties
    } else {
        0
    };
    let losses = summary.games - summary.wins - pushes;
    let by_value = [
        (natural, naturals),
        (UNIT, wins),
        (0, pushes),
        (-UNIT, losses),
    ];
    let mut moments = IntegerMoments {
        n: summary.games,
        ..IntegerMoments::default()
    };
    for (value, count) in by_value {
        moments.sum += i128::from(value) * i128::from(count);
        moments.sum_squares += (value * value) as u128 * u128::from(count);
    }
    moments.max = by_value
        .iter()
        .filter(|&&(_, count)| count > 0)
        .map(|&(value, _)| value)
        .max()
        .unwrap_or(0);
    moments
}

/// `estimate` in units of the stake rather than twentieths.
fn in_stakes(estimate: Estimate) -> Estimate {
    let scale = 1.0 / UNIT as f64;
    let ci = estimate.confidence_interval;
    Estimate {
        point: estimate.point * scale,
        standard_error: estimate.standard_error * scale,
        confidence_interval: ConfidenceInterval {
            lower: ci.lower * scale,
            upper: ci.upper * scale,
            ..ci
        },
    }
}

/// The mean payoff per game of `summary` at `rules`, with its Student-t 95% interval.
pub fn mean_payoff(summary: &TwentyOneSummary, rules: &Rules) -> Estimate {
    in_stakes(payoff_moments(summary, rules).mean_estimate())
}

/// Welch's test of `a`'s mean payoff against `b`'s, the difference in units of the stake.
fn welch(a: &Row, b: &Row) -> TestResult {
    let result = stats::welch_t(
        &payoff_moments(a.summary, &a.rules),
        &payoff_moments(b.summary, &b.rules),
    );
    TestResult {
        effect: in_stakes(result.effect),
        effect_name: "difference in mean payoff per game (a - b)",
        ..result
    }
}

/// Adds to `comparisons` each row's mean payoff against the row with the highest simulated
/// mean payoff (family [`FAMILY`]; within each group of `[compare] within`, its group's), and
/// adjusts every family's p-values by Holm's method again.
pub fn add_comparisons(rows: &[Row], comparisons: &mut Vec<Comparison>) {
    let Some(first) = rows.first() else {
        return;
    };
    let variants: Vec<&Variant> = rows.iter().map(|r| r.variant).collect();
    let top = |group: &[usize]| {
        let members = group.iter().copied();
        members
            .reduce(|best, i| {
                if rows[i].payoff.point > rows[best].payoff.point {
                    i
                } else {
                    best
                }
            })
            .unwrap_or(0)
    };
    let compare = &first.variant.compare;
    for (i, best) in compared_pairs(compare, &variants, Pairs::WithBest, top) {
        comparisons.push(Comparison::new(
            FAMILY,
            &rows[i].variant.name,
            &rows[best].variant.name,
            welch(&rows[i], &rows[best]),
        ));
    }
    adjust(comparisons);
}

/// As [`add_comparisons`] in a common design: each compared pair of `paired` (every rule
/// against the rule the paired summary compares with) by the paired t-test of the per-game
/// payoff differences on the same shoes.
pub fn add_paired_comparisons(
    rows: &[Row],
    paired: &PairedSummary,
    comparisons: &mut Vec<Comparison>,
) {
    let Some(m) = TwentyOne::PAIRED.iter().position(|p| p.metric == FAMILY) else {
        return;
    };
    let scale = TwentyOne::PAIRED[m].scale;
    for (p, (a, b)) in paired.pairs().into_iter().enumerate() {
        let test = paired_t(
            &paired.values[a][m],
            &paired.values[b][m],
            &paired.differences[p][m],
            scale,
        );
        comparisons.push(
            Comparison::new(
                FAMILY,
                &rows[a].variant.name,
                &rows[b].variant.name,
                TestResult {
                    effect_name: "paired difference in mean payoff per game (a - b)",
                    ..test.result
                },
            )
            .with_pairing(test.correlation, test.variance_ratio),
        );
    }
    adjust(comparisons);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(games: u64, wins: u64, natural_wins: u64, ties: u64) -> TwentyOneSummary {
        TwentyOneSummary {
            games,
            wins,
            natural_wins,
            ties,
            ..TwentyOneSummary::default()
        }
    }

    #[test]
    fn payoffs_count_pushes_as_nothing_and_naturals_at_their_price() {
        // 10 games: 2 natural wins, 3 other wins, 1 tie, 4 losses.
        let counts = summary(10, 5, 2, 1);
        let push = Rules {
            tie: Ties::Push,
            natural_pays: 1.5,
            ..Rules::default()
        };
        let at_push = payoff_moments(&counts, &push);
        assert_eq!(at_push.n, 10);
        // 2 × 1.5 + 3 - 4 = 2 units = 40 twentieths.
        assert_eq!(at_push.sum, 40);
        assert_eq!(at_push.sum_squares, 2 * 900 + 3 * 400 + 4 * 400);
        assert_eq!(at_push.max, 30);
        assert!((mean_payoff(&counts, &push).point - 0.2).abs() < 1e-12);
        // At the default rules the tie is a loss and the natural an ordinary win: 5 - 5 = 0.
        let plain = payoff_moments(&counts, &Rules::default());
        assert_eq!((plain.sum, plain.max), (0, 20));
        let estimate = mean_payoff(&counts, &Rules::default());
        assert_eq!(estimate.point, 0.0);
        // Every game is +1 or -1, five of each: variance 10/9, s.e. sqrt(1/9).
        assert!((estimate.standard_error - (1.0f64 / 9.0).sqrt()).abs() < 1e-12);
        let ci = estimate.confidence_interval;
        assert!(ci.lower < 0.0 && ci.upper > 0.0);
    }
}
