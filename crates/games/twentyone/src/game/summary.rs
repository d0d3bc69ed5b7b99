//! Exact, mergeable counts over many games.

use super::play::TwentyOneOutcome;
use serde::{Deserialize, Serialize};

use experiment_engine::summary::{Histogram, Summary};
use experiment_engine::summary_check::{at_most, games_match, histogram, total, Checked};

/// Exact, mergeable counts over many games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TwentyOneSummary {
    /// Games played.
    pub games: u64,
    /// Games the player won.
    pub wins: u64,
    /// Games the player lost by going over 21.
    pub player_busts: u64,
    /// Games the computer lost by going over 21.
    pub dealer_busts: u64,
    /// Games tied (both at or under 21, same total): won by the computer or pushed, as the
    /// rules say.
    pub ties: u64,
    /// Games the player won standing on a natural (his first two cards making 21): the wins a
    /// natural's payout applies to.
    #[serde(default)]
    pub natural_wins: u64,
    /// `player_total_histogram[t]` = games the player ended with total `t` (hard total when
    /// bust).
    pub player_total_histogram: Histogram,
}

impl Summary for TwentyOneSummary {
    type Outcome = TwentyOneOutcome;

    fn record(&mut self, outcome: &TwentyOneOutcome) {
        self.games += 1;
        self.wins += u64::from(outcome.player_won);
        self.player_busts += u64::from(outcome.player_bust);
        self.dealer_busts += u64::from(outcome.dealer_bust);
        self.ties += u64::from(outcome.is_tie());
        self.natural_wins += u64::from(outcome.player_won && outcome.is_natural());
        self.player_total_histogram
            .record(usize::from(outcome.player_total));
    }

    fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.wins += other.wins;
        self.player_busts += other.player_busts;
        self.dealer_busts += other.dealer_busts;
        self.ties += other.ties;
        self.natural_wins += other.natural_wins;
        self.player_total_histogram
            .merge(&other.player_total_histogram);
    }

    fn check(&self, trials: u64) -> Checked {
        games_match(self.games, trials)?;
        // A game is won, lost by a bust, tied, or lost otherwise: never two of the first three.
        let exclusive = "wins + player_busts + ties";
        let ended = total(exclusive, [self.wins, self.player_busts, self.ties])?;
        at_most(exclusive, ended.into(), self.games.into(), "games")?;
        at_most(
            "natural_wins",
            self.natural_wins.into(),
            self.wins.into(),
            "wins",
        )?;
        at_most(
            "dealer_busts",
            self.dealer_busts.into(),
            self.games.into(),
            "games",
        )?;
        let what = "games is";
        histogram(
            "player_total_histogram",
            &self.player_total_histogram,
            self.games,
            what,
            usize::MAX,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Strategy, TwentyOne};
    use experiment_engine::games::Game;
    use experiment_engine::rng::trial_rng;

    #[test]
    fn recording_one_by_one_equals_merging_two_halves() {
        let game = TwentyOne::new(Strategy::StandAt(16));
        let outcomes: Vec<_> = (0..500)
            .map(|i| game.play(&mut trial_rng(7, 0, i)))
            .collect();
        let mut whole = TwentyOneSummary::default();
        outcomes.iter().for_each(|o| whole.record(o));
        let (first, second) = outcomes.split_at(180);
        let mut left = TwentyOneSummary::default();
        first.iter().for_each(|o| left.record(o));
        let mut right = TwentyOneSummary::default();
        second.iter().for_each(|o| right.record(o));
        left.merge(&right);
        assert_eq!(left, whole);
        assert_eq!(whole.games, 500);
        assert_eq!(whole.player_total_histogram.total(), 500);
        assert!(whole.wins > 0 && whole.player_busts > 0 && whole.dealer_busts > 0);
        // Merging into an empty summary with a shorter histogram grows it.
        let mut empty = TwentyOneSummary::default();
        empty.merge(&whole);
        assert_eq!(empty, whole);
    }
}
