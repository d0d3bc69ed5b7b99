//! The base game (no cube): its exact answers from the solver and its simulated estimates.

use crate::exact::{solo_turns, ChutesSolver, SoloTurns};
use crate::game::{BaseGameSummary, Racers};
use experiment_engine::stats::{self, wilson, Estimate, IntegerMoments};

/// The exact base-game answers from the solver.
pub struct BaseExact {
    /// Who races.
    pub racers: Racers,
    /// The board and its rules, in words.
    pub board: String,
    /// One player alone: the turn distribution, mean, median and minimum.
    pub solo: SoloTurns,
    /// P(player 1 wins) (1 when he races alone).
    pub p1_wins: f64,
    /// `length[n]`: P(a game lasts exactly `n` moves, every racer's counted).
    pub length: Vec<f64>,
}

impl BaseExact {
    /// The exact answers of a base game of `racers` on the solver's board.
    pub fn new(solver: &ChutesSolver, racers: Racers) -> BaseExact {
        let solo = solo_turns(solver.board());
        let (p1_wins, length) = match racers {
            Racers::Two => (
                solver.win_table().first_player_wins(),
                game_length_distribution(&solo.probs),
            ),
            Racers::One => (1.0, solo.probs.clone()),
        };
        BaseExact {
            racers,
            board: solver.board().describe(),
            p1_wins,
            solo,
            length,
        }
    }

    /// Expected moves in a game (one player's: the single-player mean, solved exactly).
    pub fn mean_length(&self) -> f64 {
        if self.racers == Racers::One {
            return self.solo.mean;
        }
        self.length
            .iter()
            .enumerate()
            .map(|(n, p)| n as f64 * p)
            .sum()
    }

    /// Smallest `n` with P(length <= n) >= 1/2.
    pub fn median_length(&self) -> usize {
        let mut cumulative = 0.0;
        self.length
            .iter()
            .position(|&p| {
                cumulative += p;
                cumulative >= 0.5
            })
            .unwrap_or(self.length.len())
    }

    /// Fewest moves a two-player game can last.
    pub fn min_length(&self) -> usize {
        self.length
            .iter()
            .position(|&p| p > 0.0)
            .unwrap_or(self.length.len())
    }
}

/// The exact distribution of a two-player game's length in moves, from one player's finishing
/// turn distribution `solo` (`solo[t]` = P(finish on turn t)). The players move independently:
/// the game ends on move 2t - 1 when player 1 finishes on turn t and player 2 has not finished
/// before turn t, and on move 2t when player 2 finishes on turn t and player 1 after turn t.
pub fn game_length_distribution(solo: &[f64]) -> Vec<f64> {
    let mut length = vec![0.0; 2 * solo.len()];
    let mut before = 1.0; // P(a player has not finished before turn t)
    for (t, &p) in solo.iter().enumerate().skip(1) {
        length[2 * t - 1] = p * before;
        length[2 * t] = p * (before - p);
        before -= p;
    }
    length
}

/// The base game's estimates, and how far they are from the exact values.
pub(super) struct BaseEstimates {
    /// P(player 1 wins), Wilson interval.
    pub(super) p1: Estimate,
    /// Mean length in moves, Student-t interval.
    pub(super) turns: Estimate,
    /// The length's moments.
    pub(super) moments: IntegerMoments,
}

impl BaseEstimates {
    pub(super) fn new(base: &BaseGameSummary) -> BaseEstimates {
        let moments = IntegerMoments::from_histogram(&base.turn_histogram);
        BaseEstimates {
            p1: wilson(base.p1_wins, base.games),
            turns: moments.mean_estimate(),
            moments,
        }
    }

    /// Standard errors between the simulated and the exact P(player 1 wins) (the error of a
    /// binomial share at the exact probability).
    pub(super) fn p1_z(&self, base: &BaseGameSummary, exact: &BaseExact) -> f64 {
        let se = stats::binomial_se(exact.p1_wins, base.games);
        (self.p1.point - exact.p1_wins) / se
    }

    /// Standard errors between the simulated and the exact mean length.
    pub(super) fn turns_z(&self, exact: &BaseExact) -> f64 {
        (self.turns.point - exact.mean_length()) / self.turns.standard_error
    }
}

/// The shortest (`first`) or longest length seen, if any game was played.
pub(super) fn observed_length(base: &BaseGameSummary, first: bool) -> Option<usize> {
    let histogram = &base.turn_histogram;
    if first {
        histogram.iter().position(|&c| c > 0)
    } else {
        histogram.iter().rposition(|&c| c > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Board;

    #[test]
    fn the_exact_length_distribution_is_complete_and_starts_at_thirteen_moves() {
        let solver = ChutesSolver::new(Board::milton_bradley(), 2).expect("valid cap");
        let exact = BaseExact::new(&solver, Racers::Two);
        let total: f64 = exact.length.iter().sum();
        assert!((total - 1.0).abs() < 1e-9, "total {total}");
        assert_eq!(exact.min_length(), 13);
        // Odd lengths are player 1's wins.
        let odd: f64 = exact.length.iter().skip(1).step_by(2).sum();
        assert!(
            (odd - exact.p1_wins).abs() < 1e-9,
            "{odd} vs {}",
            exact.p1_wins
        );
        let alone = BaseExact::new(&solver, Racers::One);
        assert_eq!((alone.p1_wins, alone.min_length()), (1.0, 7));
        assert!((alone.mean_length() - alone.solo.mean).abs() < 1e-8);
    }
}
