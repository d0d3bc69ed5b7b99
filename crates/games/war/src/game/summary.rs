//! The exact, mergeable aggregate of many games of War.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Player, WarOutcome, WarResult, MAX_DECK};
use experiment_engine::summary::{Histogram, Summary};
use experiment_engine::summary_check::{at_most, equal, games_match, histogram, total, Checked};

/// The most turns a game may last (a spec's `max_turns` is at most 10^8).
const MAX_TURNS: u64 = 100_000_000;
/// The most wars one turn can hold under any rules: each war but the last takes at least one
/// card from a hand, the hands hold fewer than [`MAX_DECK`] cards once the up cards are down,
/// and the last war is the one nobody can pay for.
const MAX_WARS_PER_TURN: u64 = MAX_DECK as u64;

/// An integer sum with its sum of squares and maximum, for per-game counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountMoments {
    /// Sum of the values (128 bits: 10^12 games of up to 10^8 turns pass 2^64).
    pub sum: u128,
    /// Sum of the squared values.
    pub sum_squares: u128,
    /// Largest value seen.
    pub max: u32,
}

impl CountMoments {
    #[inline]
    fn record(&mut self, value: u32) {
        self.sum += u128::from(value);
        self.sum_squares += u128::from(value) * u128::from(value);
        self.max = self.max.max(value);
    }

    fn merge(&mut self, other: &CountMoments) {
        self.sum += other.sum;
        self.sum_squares += other.sum_squares;
        self.max = self.max.max(other.max);
    }

    /// Checks the moments (`name`) of `games` games' values of at most `largest` each.
    fn check(&self, name: &str, games: u64, largest: u64) -> Checked {
        let (max, n) = (u128::from(self.max), u128::from(games));
        at_most(
            &format!("{name}.max"),
            max,
            largest.into(),
            "the most a game may hold,",
        )?;
        let sum = self.sum;
        at_most(
            &format!("{name}.sum"),
            sum,
            n * max,
            "its games times its max,",
        )?;
        at_most(
            &format!("{name}.sum_squares"),
            self.sum_squares,
            n.saturating_mul(max).saturating_mul(max),
            "its games times its max squared,",
        )?;
        if games > 0 && self.max > 0 && (sum < max || self.sum_squares < max * max) {
            return Err(format!("{name}: sums below its max {max}"));
        }
        Ok(())
    }
}

/// Exact aggregate of many games of War.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarSummary {
    /// Games played.
    pub games: u64,
    /// Games won by player 1.
    pub p1_wins: u64,
    /// Games won by player 2.
    pub p2_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games that reached the turn limit undetected.
    pub infinite: u64,
    /// Games detected as cycling.
    pub cycled: u64,
    /// Finished games by their exact number of turns (index = turns).
    pub turn_histogram: Histogram,
    /// Wars per finished game.
    pub wars: CountMoments,
    /// Double wars per finished game.
    pub double_wars: CountMoments,
    /// Cycled games by cycle period.
    pub cycle_periods: BTreeMap<u32, u64>,
    /// Turns before the cycle, over cycled games.
    pub cycle_entry: CountMoments,
}

impl WarSummary {
    /// Games that ended with a winner or a draw.
    pub fn finished(&self) -> u64 {
        self.p1_wins + self.p2_wins + self.draws
    }
}

impl Summary for WarSummary {
    type Outcome = WarOutcome;

    fn record(&mut self, outcome: &WarOutcome) {
        self.games += 1;
        match outcome.result {
            WarResult::Won(Player::One) => self.p1_wins += 1,
            WarResult::Won(Player::Two) => self.p2_wins += 1,
            WarResult::Draw => self.draws += 1,
            WarResult::Infinite => self.infinite += 1,
            WarResult::Cycled { entry_turn, period } => {
                self.cycled += 1;
                *self.cycle_periods.entry(period).or_default() += 1;
                self.cycle_entry.record(entry_turn);
            }
        }
        if outcome.is_finished() {
            self.turn_histogram.record(outcome.turns as usize);
            self.wars.record(outcome.wars);
            self.double_wars.record(outcome.double_wars);
        }
    }

    fn merge(&mut self, other: &WarSummary) {
        self.games += other.games;
        self.p1_wins += other.p1_wins;
        self.p2_wins += other.p2_wins;
        self.draws += other.draws;
        self.infinite += other.infinite;
        self.cycled += other.cycled;
        self.turn_histogram.merge(&other.turn_histogram);
        self.wars.merge(&other.wars);
        self.double_wars.merge(&other.double_wars);
        for (&period, &count) in &other.cycle_periods {
            *self.cycle_periods.entry(period).or_default() += count;
        }
        self.cycle_entry.merge(&other.cycle_entry);
    }

    fn check(&self, trials: u64) -> Checked {
        games_match(self.games, trials)?;
        let ends = "p1_wins + p2_wins + draws + infinite + cycled";
        let ended = total(
            ends,
            [
                self.p1_wins,
                self.p2_wins,
                self.draws,
                self.infinite,
                self.cycled,
            ],
        )?;
        equal(ends, ended.into(), self.games.into(), "games is")?;
        let finished = self.finished();
        let what = "its finished games (p1_wins + p2_wins + draws) are";
        histogram(
            "turn_histogram",
            &self.turn_histogram,
            finished,
            what,
            MAX_TURNS as usize + 1,
        )?;
        let longest = self.turn_histogram.max().unwrap_or(0) as u64;
        let most_wars = longest * MAX_WARS_PER_TURN;
        self.wars.check("wars", finished, most_wars)?;
        self.double_wars.check("double_wars", finished, most_wars)?;
        at_most(
            "double_wars.sum",
            self.double_wars.sum,
            self.wars.sum,
            "wars.sum",
        )?;
        let periods = total(
            "the counts of cycle_periods",
            self.cycle_periods.values().copied(),
        )?;
        equal(
            "cycle_periods counts",
            periods.into(),
            self.cycled.into(),
            "cycled is",
        )?;
        if let Some((&period, _)) = self.cycle_periods.last_key_value() {
            at_most(
                "a cycle period",
                period.into(),
                MAX_TURNS.into(),
                "the turn limit",
            )?;
        }
        self.cycle_entry
            .check("cycle_entry", self.cycled, MAX_TURNS)
    }
}
