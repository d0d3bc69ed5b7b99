//! Exact, mergeable aggregates of base games and cube games.

use super::cube::CubeOutcome;
use super::race::BaseOutcome;
use serde::{Deserialize, Serialize};

use experiment_engine::summary::{Histogram, IntegerMoments, Summary};
use experiment_engine::summary_check::{at_most, games_match, histogram, moments, Checked};

/// The largest stake a game can end at: the largest cube cap (2^31).
const MAX_STAKE: u64 = 1 << 31;
/// The most doubles one game can hold: the stake doubles from 1 to at most [`MAX_STAKE`].
const MAX_DOUBLES: u64 = 31;

/// Exact aggregate of base games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseGameSummary {
    /// Games recorded.
    pub games: u64,
    /// Games player 1 won.
    pub p1_wins: u64,
    /// `turn_histogram[t]` = games that lasted exactly `t` turns.
    pub turn_histogram: Histogram,
}

impl Summary for BaseGameSummary {
    type Outcome = BaseOutcome;

    fn record(&mut self, outcome: &BaseOutcome) {
        self.games += 1;
        self.p1_wins += u64::from(outcome.p1_won);
        self.turn_histogram.record(outcome.turns as usize);
    }

    fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.p1_wins += other.p1_wins;
        self.turn_histogram.merge(&other.turn_histogram);
    }

    fn check(&self, trials: u64) -> Checked {
        games_match(self.games, trials)?;
        at_most("p1_wins", self.p1_wins.into(), self.games.into(), "games")?;
        let what = "games is";
        histogram(
            "turn_histogram",
            &self.turn_histogram,
            self.games,
            what,
            usize::MAX,
        )
    }
}

/// Exact aggregate of cube games (integers only).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CubeSummary {
    /// Games recorded.
    pub games: u64,
    /// Player 1's payoffs.
    pub payoff: IntegerMoments,
    /// The stakes paid (the absolute payoffs).
    pub final_stake: IntegerMoments,
    /// Games ended by a drop.
    pub drops: u64,
    /// Games in which the cube reached the cap.
    pub cap_reached: u64,
    /// Games player 1 won.
    pub p1_wins: u64,
    /// Doubles offered, over all games.
    pub doubles: u64,
    /// `turn_histogram[t]` = games that lasted exactly `t` moves.
    pub turn_histogram: Histogram,
}

impl Summary for CubeSummary {
    type Outcome = CubeOutcome;

    fn record(&mut self, outcome: &CubeOutcome) {
        self.games += 1;
        self.payoff.record(outcome.payoff);
        self.final_stake.record(i64::from(outcome.final_stake));
        self.drops += u64::from(outcome.dropped);
        self.cap_reached += u64::from(outcome.cap_reached);
        self.p1_wins += u64::from(outcome.p1_won);
        self.doubles += u64::from(outcome.doubles);
        self.turn_histogram.record(outcome.turns as usize);
    }

    fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.payoff.merge(&other.payoff);
        self.final_stake.merge(&other.final_stake);
        self.drops += other.drops;
        self.cap_reached += other.cap_reached;
        self.p1_wins += other.p1_wins;
        self.doubles += other.doubles;
        self.turn_histogram.merge(&other.turn_histogram);
    }

    fn check(&self, trials: u64) -> Checked {
        games_match(self.games, trials)?;
        moments("payoff", &self.payoff, self.games, MAX_STAKE)?;
        moments("final_stake", &self.final_stake, self.games, MAX_STAKE)?;
        let games = u128::from(self.games);
        for (name, count) in [
            ("drops", self.drops),
            ("cap_reached", self.cap_reached),
            ("p1_wins", self.p1_wins),
        ] {
            at_most(name, count.into(), games, "games")?;
        }
        let most = games * u128::from(MAX_DOUBLES);
        at_most("doubles", self.doubles.into(), most, "31 per game,")?;
        let what = "games is";
        histogram(
            "turn_histogram",
            &self.turn_histogram,
            self.games,
            what,
            usize::MAX,
        )
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::board::Board;
    use super::super::race::{BaseGame, Racers};
    use super::super::strategies::{CubeMatch, Strategy, StrategyPlayer};
    use super::super::testing::{ByDistance, DoubleEarly};
    use super::*;
    use experiment_engine::games::Game;
    use experiment_engine::rng::trial_rng;

    fn check<S: Summary + PartialEq + std::fmt::Debug>(outcomes: &[S::Outcome]) -> S {
        let mut whole = S::default();
        outcomes.iter().for_each(|o| whole.record(o));
        let (a, b) = outcomes.split_at(outcomes.len() / 3);
        let (mut left, mut right) = (S::default(), S::default());
        a.iter().for_each(|o| left.record(o));
        b.iter().for_each(|o| right.record(o));
        left.merge(&right);
        assert_eq!(whole, left);
        assert_ne!(whole, S::default());
        whole
    }

    #[test]
    fn recording_one_by_one_equals_merging_halves() {
        let base = BaseGame {
            board: Board::milton_bradley(),
            racers: Racers::Two,
        };
        let player = |strategy| {
            StrategyPlayer::new(strategy, Arc::new(ByDistance), Some(Arc::new(DoubleEarly)))
        };
        let cube = CubeMatch::new(
            Board::milton_bradley(),
            8,
            player(Strategy::Optimal),
            player(Strategy::threshold(0.6, 0.3).expect("valid")),
        )
        .expect("a power of two");
        let base_outcomes: Vec<_> = (0..500)
            .map(|i| base.play(&mut trial_rng(5, 0, i)))
            .collect();
        let cube_outcomes: Vec<_> = (0..500)
            .map(|i| cube.play(&mut trial_rng(5, 1, i)))
            .collect();
        let base = check::<BaseGameSummary>(&base_outcomes);
        assert_eq!(base.turn_histogram.total(), 500);
        let cube = check::<CubeSummary>(&cube_outcomes);
        assert_eq!((cube.payoff.n, cube.turn_histogram.total()), (500, 500));
        let stakes: i128 = cube_outcomes
            .iter()
            .map(|o| i128::from(o.final_stake))
            .sum();
        assert_eq!(cube.final_stake.sum, stakes);
        assert_eq!(cube.final_stake.sum_squares, cube.payoff.sum_squares);
        assert!(cube.doubles > 0);
    }
}
