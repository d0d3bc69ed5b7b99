//! The tournament's estimates: each pairing against its exact payoff, each strategy's average
//! over its opponents and seats, and the comparisons between strategies.

use crate::exact::ChutesSolver;
use crate::game::{CubeMatch, CubeSummary, Strategy};
use experiment_engine::analysis::comparison::{self, no_data, Comparison};
use experiment_engine::design::PairedSummary;
use experiment_engine::games::Game;
use experiment_engine::stats::common_contrast::CommonContrast;
use experiment_engine::stats::{self, Contrast, Estimate, IntegerMoments, TestResult};

/// One pairing's results with the estimates derived from them.
pub(super) struct Pairing {
    /// The variant's name (`first-second`).
    pub(super) name: String,
    /// Player 1's strategy.
    pub(super) first: Strategy,
    /// Player 2's strategy.
    pub(super) second: Strategy,
    /// What its games gave.
    pub(super) summary: CubeSummary,
    /// The exact mean payoff to player 1.
    pub(super) exact: f64,
    /// The Holm-adjusted p-value of the simulated payoff against the exact one, over the
    /// pairings of the run.
    pub(super) exact_p_holm: f64,
}

impl Pairing {
    /// The pairing `name` of `first` against `second`, its exact payoff from `solver`.
    pub(super) fn new(
        name: String,
        (first, second): (Strategy, Strategy),
        summary: CubeSummary,
        solver: &ChutesSolver,
    ) -> Pairing {
        Pairing {
            name,
            first,
            second,
            exact: solver.exact_payoff(first, second),
            summary,
            exact_p_holm: f64::NAN,
        }
    }

    /// The pairings of a run, each with its Holm-adjusted test against the exact payoff.
    pub(super) fn adjusted(mut pairings: Vec<Pairing>) -> Vec<Pairing> {
        let p: Vec<f64> = pairings.iter().map(Pairing::exact_p).collect();
        for (pairing, p_holm) in pairings.iter_mut().zip(stats::holm(&p)) {
            pairing.exact_p_holm = p_holm;
        }
        pairings
    }

    /// The payoff to player 1 of its games.
    pub(super) fn payoff(&self) -> &IntegerMoments {
        &self.summary.payoff
    }

    /// The mean payoff to player 1 per game.
    pub(super) fn mean_payoff(&self) -> Estimate {
        self.payoff().mean_estimate()
    }

    /// (simulated - exact) / standard error; 0 when a deterministic payoff matches exactly.
    pub(super) fn exact_z(&self) -> f64 {
        let estimate = self.mean_payoff();
        let diff = estimate.point - self.exact;
        let scale = self.exact.abs().max(1.0);
        if estimate.standard_error > 0.0 {
            diff / estimate.standard_error
        } else if diff.abs() <= 1e-9 * scale {
            0.0
        } else {
            f64::INFINITY.copysign(diff)
        }
    }

    /// The two-sided p-value of the simulated payoff against the exact one.
    pub(super) fn exact_p(&self) -> f64 {
        stats::two_sided_normal_p(self.exact_z())
    }

    /// The mean stake paid per game.
    pub(super) fn final_stake(&self) -> Estimate {
        self.summary.final_stake.mean_estimate()
    }

    /// The games' lengths in moves (both players counted).
    pub(super) fn turns(&self) -> IntegerMoments {
        IntegerMoments::from_histogram(&self.summary.turn_histogram)
    }

    /// `name`'s seat in this pairing: +1 as player 1, -1 as player 2, 0 if it does not play
    /// or plays itself (self-play nets to nothing for a strategy).
    fn seat_of(&self, name: &str) -> f64 {
        match (self.first.name() == name, self.second.name() == name) {
            (true, false) => 1.0,
            (false, true) => -1.0,
            _ => 0.0,
        }
    }

    /// `name`'s opponent, if it plays in this pairing against another strategy.
    fn opponent_of(&self, name: &str) -> Option<&'static str> {
        match self.seat_of(name) {
            s if s > 0.0 => Some(self.second.name()),
            s if s < 0.0 => Some(self.first.name()),
            _ => None,
        }
    }
}

/// Strategy names in the order they first appear as player 1, then as player 2.
pub(super) fn strategy_order(pairings: &[Pairing]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for name in pairings
        .iter()
        .map(|p| p.first.name())
        .chain(pairings.iter().map(|p| p.second.name()))
    {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The weight of each pairing in `name`'s average payoff over its opponents and both seats
/// (self-play excluded: it nets to nothing for the strategy): +1/m as player 1, -1/m as player
/// 2 (the payoff is player 1's), with m the number of such pairings.
pub(super) fn average_weights(name: &str, pairings: &[Pairing]) -> Vec<f64> {
    let m = pairings
        .iter()
        .filter(|p| p.seat_of(name) != 0.0)
        .count()
        .max(1) as f64;
    pairings.iter().map(|p| p.seat_of(name) / m).collect()
}

/// How a tournament's pairings' mean payoffs covary: each pairing on dice of its own
/// (independent samples), or every pairing on the same dice (a common design), whose paired
/// statistics hold, pairing by pairing in the tournament's variant order, the exact sums of
/// products of the per-game payoffs.
#[derive(Clone, Copy, Debug)]
pub(super) enum Dice<'a> {
    /// The independent design.
    Own,
    /// The common design, with the tournament's paired statistics.
    Same(&'a PairedSummary),
}

/// A weighted sum of pairing means, as its design estimates it.
pub(super) enum Weighted {
    /// Of independent pairing means: Welch–Satterthwaite.
    Independent(Contrast),
    /// Of pairing means on the same dice: the paired t of the per-game weighted sum.
    Common(CommonContrast),
    /// On the same dice, with some pair's sums of products not kept: no interval, no test.
    Missing,
}

impl Weighted {
    /// The weighted sum with its 95% interval (NaN where it has none).
    pub(super) fn estimate(&self) -> Estimate {
        match self {
            Weighted::Independent(c) => c.estimate(),
            Weighted::Common(c) => c.estimate(),
            Weighted::Missing => stats::normal_estimate(f64::NAN, f64::NAN),
        }
    }

    /// The test that it is zero, as comparison `a` against `b` of `family`; on the same dice
    /// with what the pairing gained (its variance ratio).
    pub(super) fn compare(
        &self,
        family: &'static str,
        (a, b): (&str, &str),
        effect_name: &'static str,
    ) -> Comparison {
        match self {
            Weighted::Independent(c) => Comparison::new(family, a, b, c.test(effect_name)),
            Weighted::Common(c) => Comparison::new(family, a, b, c.test(effect_name))
                .with_pairing(f64::NAN, c.variance_ratio),
            Weighted::Missing => {
                let nan = stats::normal_estimate(f64::NAN, f64::NAN);
                let result = TestResult {
                    test: "",
                    statistic: f64::NAN,
                    df: f64::NAN,
                    p_value: f64::NAN,
                    effect: nan,
                    effect_name,
                };
                Comparison::new(family, a, b, no_data(result))
            }
        }
    }
}

/// The index of the per-game payoff among a pairing's paired values.
pub(super) fn payoff_value() -> usize {
    CubeMatch::PAIRED
        .iter()
        .position(|p| p.metric == "mean_payoff")
        .expect("a pairing's payoff is a paired value")
}

impl Dice<'_> {
    /// Σ w_i x̄_i of the pairings' mean payoffs to player 1 (`weights` in pairing order).
    ///
    /// # Panics
    /// If the paired statistics' payoff of a pairing is not its summary's (a programming
    /// error: the pairings are not in the tournament's variant order).
    pub(super) fn weighted(&self, weights: &[f64], pairings: &[Pairing]) -> Weighted {
        let chosen: Vec<usize> = (0..pairings.len().min(weights.len()))
            .filter(|&i| weights[i] != 0.0)
            .collect();
        let terms: Vec<(f64, &IntegerMoments)> = chosen
            .iter()
            .map(|&i| (weights[i], pairings[i].payoff()))
            .collect();
        let Dice::Same(paired) = self else {
            return Weighted::Independent(Contrast::new(&terms));
        };
        let m = payoff_value();
        for &i in &chosen {
            let kept = paired.values.get(i).and_then(|v| v.get(m));
            assert!(
                kept.is_some_and(
                    |k| (k.n, k.sum) == (pairings[i].payoff().n, pairings[i].payoff().sum)
                ),
                "the paired payoff of {} is not its own",
                pairings[i].name
            );
        }
        let product = |k: usize, l: usize| paired.product(chosen[k], chosen[l], m);
        CommonContrast::new(&terms, product).map_or(Weighted::Missing, Weighted::Common)
    }
}

/// An average's exact value: the pairings' exact payoffs with the same weights (NaN where the
/// average has none).
#[derive(Clone, Copy, Debug)]
pub(super) struct ExactAverage {
    /// Over every opponent and seat.
    pub(super) overall: f64,
    /// As player 1.
    pub(super) as_first: f64,
    /// As player 2.
    pub(super) as_second: f64,
}

/// One strategy's average payoff per game over its opponents, overall and by seat.
pub(super) struct Average {
    /// The strategy.
    pub(super) name: &'static str,
    /// The other strategies it played, in the order it first met them.
    pub(super) opponents: Vec<&'static str>,
    /// Games in the pairings its average covers.
    pub(super) games: u64,
    /// Over every opponent and seat it played (NaN when it played only itself).
    pub(super) overall: Estimate,
    /// As player 1 (NaN when it never moved first against another strategy).
    pub(super) as_first: Estimate,
    /// As player 2 (NaN when it never moved second against another strategy).
    pub(super) as_second: Estimate,
    /// The exact values of the three.
    pub(super) exact: ExactAverage,
}

impl Average {
    /// `name`'s averages over `pairings`, played on `dice`.
    pub(super) fn new(name: &'static str, pairings: &[Pairing], dice: Dice) -> Average {
        let weights = average_weights(name, pairings);
        let seat_weights = |sign: f64| -> Vec<f64> {
            let chosen: Vec<f64> = weights
                .iter()
                .map(|&w| if w * sign > 0.0 { 1.0 } else { 0.0 })
                .collect();
            let m = chosen.iter().sum::<f64>().max(1.0);
            chosen.iter().map(|c| sign * c / m).collect()
        };
        let mut opponents: Vec<&'static str> = Vec::new();
        for opponent in pairings.iter().filter_map(|p| p.opponent_of(name)) {
            if !opponents.contains(&opponent) {
                opponents.push(opponent);
            }
        }
        let estimate = |w: &[f64]| {
            if w.iter().all(|x| *x == 0.0) {
                stats::normal_estimate(f64::NAN, f64::NAN)
            } else {
                dice.weighted(w, pairings).estimate()
            }
        };
        let exact = |w: &[f64]| {
            if w.iter().all(|x| *x == 0.0) {
                f64::NAN
            } else {
                w.iter().zip(pairings).map(|(w, p)| w * p.exact).sum()
            }
        };
        let (first, second) = (seat_weights(1.0), seat_weights(-1.0));
        Average {
            name,
            opponents,
            games: pairings
                .iter()
                .zip(&weights)
                .filter(|(_, w)| **w != 0.0)
                .map(|(p, _)| p.summary.games)
                .sum(),
            overall: estimate(&weights),
            as_first: estimate(&first),
            as_second: estimate(&second),
            exact: ExactAverage {
                overall: exact(&weights),
                as_first: exact(&first),
                as_second: exact(&second),
            },
        }
    }

    /// Which seats the average covers: both, or the one it played.
    pub(super) fn seats(&self) -> &'static str {
        match (
            self.as_first.point.is_finite(),
            self.as_second.point.is_finite(),
        ) {
            (true, true) => "and both seats",
            (true, false) => "as player 1 only",
            _ => "as player 2 only",
        }
    }
}

/// Whether every strategy in `averages` played every other one (a round robin among them), so
/// that their averages are over the same field.
pub(super) fn same_field(averages: &[&Average]) -> bool {
    averages.iter().all(|a| {
        a.opponents.len() + 1 == averages.len()
            && averages
                .iter()
                .all(|b| b.name == a.name || a.opponents.contains(&b.name))
    })
}

/// Every pair of strategies compared: the difference of their averages (when both have one),
/// then head to head (when they played each other in both seats), Holm-adjusted within each
/// family; each a contrast of the pairings' means as `dice` played them.
pub(super) fn compare(names: &[&'static str], pairings: &[Pairing], dice: Dice) -> Vec<Comparison> {
    let mut averages = Vec::new();
    let mut heads = Vec::new();
    for (i, &a) in names.iter().enumerate() {
        for &b in &names[i + 1..] {
            let (wa, wb) = (average_weights(a, pairings), average_weights(b, pairings));
            if wa.iter().any(|w| *w != 0.0) && wb.iter().any(|w| *w != 0.0) {
                let weights: Vec<f64> = wa.iter().zip(&wb).map(|(x, y)| x - y).collect();
                averages.push(dice.weighted(&weights, pairings).compare(
                    "average_payoff",
                    (a, b),
                    "difference in average payoff per game over opponents and seats (a - b)",
                ));
            }
            let seat = |p: &Pairing| match (p.first.name(), p.second.name()) {
                (x, y) if x == a && y == b => 0.5,
                (x, y) if x == b && y == a => -0.5,
                _ => 0.0,
            };
            let weights: Vec<f64> = pairings.iter().map(seat).collect();
            if weights.iter().filter(|w| **w != 0.0).count() == 2 {
                heads.push(dice.weighted(&weights, pairings).compare(
                    "head_to_head",
                    (a, b),
                    "a's payoff per game against b, both seats equally (a - b)",
                ));
            }
        }
    }
    averages.extend(heads);
    comparison::adjust(&mut averages);
    averages
}

/// Each opponent of `name` with the sum of `name`'s mean payoffs against it (both seats) and
/// whether any of their games reached the cube's cap.
fn contributions(name: &str, pairings: &[Pairing]) -> Vec<(&'static str, f64, bool)> {
    let mut out: Vec<(&'static str, f64, bool)> = Vec::new();
    for p in pairings {
        let Some(opponent) = p.opponent_of(name) else {
            continue;
        };
        let payoff = p.seat_of(name) * p.mean_payoff().point;
        let capped = p.summary.cap_reached > 0;
        match out.iter_mut().find(|(o, _, _)| *o == opponent) {
            Some((_, sum, was_capped)) => {
                *sum += payoff;
                *was_capped |= capped;
            }
            None => out.push((opponent, payoff, capped)),
        }
    }
    out
}

/// The opponent whose pairings with `name` account for more than half of the absolute
/// contributions to `name`'s average payoff, if `name` has two or more opponents and one
/// does, with whether any of their games reached the cube's cap.
pub(super) fn dominant_opponent(name: &str, pairings: &[Pairing]) -> Option<(&'static str, bool)> {
    let contributions = contributions(name, pairings);
    if contributions.len() < 2 {
        return None;
    }
    let total: f64 = contributions.iter().map(|(_, c, _)| c.abs()).sum();
    contributions
        .into_iter()
        .find(|(_, c, _)| c.abs() > total / 2.0)
        .map(|(opponent, _, capped)| (opponent, capped))
}

/// Whether games that reached the cube's cap dominate some strategy's average: its pairings
/// with one opponent account for more than half of it, and some of those games were capped.
pub(super) fn capped_games_dominate(names: &[&'static str], pairings: &[Pairing]) -> bool {
    names
        .iter()
        .any(|name| matches!(dominant_opponent(name, pairings), Some((_, true))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn average(name: &'static str, opponents: &[&'static str]) -> Average {
        let none = stats::normal_estimate(f64::NAN, f64::NAN);
        Average {
            name,
            opponents: opponents.to_vec(),
            games: 0,
            overall: none,
            as_first: none,
            as_second: none,
            exact: ExactAverage {
                overall: f64::NAN,
                as_first: f64::NAN,
                as_second: f64::NAN,
            },
        }
    }

    #[test]
    fn averages_are_over_the_same_field_only_in_a_round_robin() {
        let (a, b, c) = (
            average("a", &["b", "c"]),
            average("b", &["c", "a"]),
            average("c", &["a", "b"]),
        );
        assert!(same_field(&[&a, &b, &c]));
        assert!(same_field(&[&a, &b, &c][..0]), "nothing to rank");
        let (x, y) = (average("a", &["b"]), average("c", &["d"]));
        assert!(!same_field(&[&x, &y]), "different opponents");
        assert!(!same_field(&[&a, &x]), "a played c, which is not ranked");
        let (p, q) = (average("p", &["q"]), average("q", &["p"]));
        assert!(
            same_field(&[&p, &q]),
            "two strategies that played each other"
        );
    }
}
