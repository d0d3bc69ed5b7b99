//! The exact, mergeable summary of many games' landing tallies, with the game as the unit.

use super::board::{BOARD_SIZE, GROUPS, GROUP_OF};
use super::MonopolyOutcome;
use serde::{Deserialize, Serialize};

use experiment_engine::summary::{fixed_array, Summary};
use experiment_engine::summary_check::{at_most, equal, games_match, wide_total, Checked};

/// Number of groups of squares ([`GROUPS`]).
pub const GROUP_COUNT: usize = GROUPS.len();

/// Integer sums over games of each square's landings `c`, each group's landings `g` (the sum
/// of its squares' `c`) and the game's total landings `T`: enough for each square's and each
/// group's relative frequency and its ratio-estimator standard error
/// (`stats::ratio_estimate`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonopolySummary {
    games: u64,
    #[serde(with = "fixed_array")]
    counts: [u128; BOARD_SIZE],
    #[serde(with = "fixed_array")]
    count_squares: [u128; BOARD_SIZE],
    #[serde(with = "fixed_array")]
    count_totals: [u128; BOARD_SIZE],
    total: u128,
    total_squares: u128,
    #[serde(with = "fixed_array")]
    group_squares: [u128; GROUP_COUNT],
    #[serde(with = "fixed_array")]
    group_totals: [u128; GROUP_COUNT],
}

impl Default for MonopolySummary {
    fn default() -> Self {
        MonopolySummary {
            games: 0,
            counts: [0; BOARD_SIZE],
            count_squares: [0; BOARD_SIZE],
            count_totals: [0; BOARD_SIZE],
            total: 0,
            total_squares: 0,
            group_squares: [0; GROUP_COUNT],
            group_totals: [0; GROUP_COUNT],
        }
    }
}

impl MonopolySummary {
    /// Games recorded.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Landings per square (index 0 = Go), all games and players.
    pub fn counts(&self) -> [u128; BOARD_SIZE] {
        self.counts
    }

    /// Landings on all squares: the sum over games of `T`.
    pub fn total(&self) -> u128 {
        self.total
    }

    /// Per square, the sum over games of `c²`.
    pub fn count_squares(&self) -> [u128; BOARD_SIZE] {
        self.count_squares
    }

    /// Per square, the sum over games of `c·T`.
    pub fn count_totals(&self) -> [u128; BOARD_SIZE] {
        self.count_totals
    }

    /// The sum over games of `T²`.
    pub fn total_squares(&self) -> u128 {
        self.total_squares
    }

    /// Landings per group of [`GROUPS`], all games and players: the sums of [`Self::counts`].
    pub fn group_counts(&self) -> [u128; GROUP_COUNT] {
        let mut groups = [0u128; GROUP_COUNT];
        for (&count, &group) in self.counts.iter().zip(&GROUP_OF) {
            groups[usize::from(group)] += count;
        }
        groups
    }

    /// Per group, the sum over games of `g²`.
    pub fn group_squares(&self) -> [u128; GROUP_COUNT] {
        self.group_squares
    }

    /// Per group, the sum over games of `g·T`.
    pub fn group_totals(&self) -> [u128; GROUP_COUNT] {
        self.group_totals
    }
}

impl Summary for MonopolySummary {
    type Outcome = MonopolyOutcome;

    fn record(&mut self, outcome: &MonopolyOutcome) {
        let game_total: u64 = outcome.landings.iter().map(|&c| u64::from(c)).sum();
        let mut groups = [0u64; GROUP_COUNT];
        for (&count, &group) in outcome.landings.iter().zip(&GROUP_OF) {
            groups[usize::from(group)] += u64::from(count);
        }
        for (g, &count) in groups.iter().enumerate() {
            let count = u128::from(count);
            self.group_squares[g] += count * count;
            self.group_totals[g] += count * u128::from(game_total);
        }
        self.games += 1;
        self.total += u128::from(game_total);
        self.total_squares += u128::from(game_total) * u128::from(game_total);
        for (i, &count) in outcome.landings.iter().enumerate() {
            let count = u64::from(count);
            self.counts[i] += u128::from(count);
            self.count_squares[i] += u128::from(count * count);
            self.count_totals[i] += u128::from(count) * u128::from(game_total);
        }
    }

    fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.total += other.total;
        self.total_squares += other.total_squares;
        for i in 0..BOARD_SIZE {
            self.counts[i] += other.counts[i];
            self.count_squares[i] += other.count_squares[i];
            self.count_totals[i] += other.count_totals[i];
        }
        for g in 0..GROUP_COUNT {
            self.group_squares[g] += other.group_squares[g];
            self.group_totals[g] += other.group_totals[g];
        }
    }

    /// Every bound is one that adds up over parts: `T` over its games at most what a game can
    /// record (every square's count at most `u32::MAX`), `Σ T²` at most its games times that
    /// squared, `Σ T² ≤ (Σ T)²`, and the exact identity `Σᵢ Σ cᵢ·T = Σ T²`. Of at most
    /// [`MAX_TRIALS`](experiment_engine::summary_check::MAX_TRIALS) games these fit in 128 bits, so parts
    /// that pass merge without wrapping.
    fn check(&self, trials: u64) -> Checked {
        games_match(self.games, trials)?;
        let landings = wide_total("counts", self.counts)?;
        equal("counts' sum", landings, self.total, "total is")?;
        let per_game = BOARD_SIZE as u128 * u128::from(u32::MAX);
        let games = u128::from(self.games);
        let total_landings = self.total;
        at_most(
            "total",
            total_landings,
            games.saturating_mul(per_game),
            "what its games may add up to,",
        )?;
        at_most(
            "total_squares",
            self.total_squares,
            games.saturating_mul(per_game).saturating_mul(per_game),
            "what its games' squares may add up to,",
        )?;
        at_most(
            "total_squares",
            self.total_squares,
            total_landings.saturating_mul(total_landings),
            "total squared,",
        )?;
        at_most("total", total_landings, self.total_squares, "total_squares")?;
        let mut count_totals = 0u128;
        for (i, &count) in self.counts.iter().enumerate() {
            let square = format!("count_squares[{i}]");
            at_most(
                &square,
                self.count_squares[i],
                count.saturating_mul(count),
                "its count squared,",
            )?;
            at_most(
                &format!("counts[{i}]"),
                count,
                self.count_squares[i],
                &square,
            )?;
            let product = format!("count_totals[{i}]");
            let bound = count.saturating_mul(total_landings);
            at_most(
                &product,
                self.count_totals[i],
                bound,
                "its count times total,",
            )?;
            count_totals += self.count_totals[i];
        }
        equal(
            "count_totals' sum",
            count_totals,
            self.total_squares,
            "total_squares is",
        )?;
        // The groups partition the squares: the same bounds, group by group.
        let mut group_totals = 0u128;
        for (g, &count) in self.group_counts().iter().enumerate() {
            let square = format!("group_squares[{g}]");
            at_most(
                &square,
                self.group_squares[g],
                count.saturating_mul(count),
                "its group's count squared,",
            )?;
            at_most(
                &format!("group count {g}"),
                count,
                self.group_squares[g],
                &square,
            )?;
            at_most(
                &format!("group_totals[{g}]"),
                self.group_totals[g],
                count.saturating_mul(total_landings),
                "its group's count times total,",
            )?;
            group_totals += self.group_totals[g];
        }
        equal(
            "group_totals' sum",
            group_totals,
            self.total_squares,
            "total_squares is",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(seed: u32) -> MonopolyOutcome {
        let mut landings = [0u32; BOARD_SIZE];
        for (i, slot) in landings.iter_mut().enumerate() {
            *slot = (seed * 7 + i as u32 * 13) % 11;
        }
        MonopolyOutcome { landings }
    }

    #[test]
    fn recording_one_by_one_equals_merging_two_halves() {
        let outcomes: Vec<MonopolyOutcome> = (0..25).map(outcome).collect();
        let mut whole = MonopolySummary::default();
        for o in &outcomes {
            whole.record(o);
        }
        let mut first = MonopolySummary::default();
        let mut second = MonopolySummary::default();
        for o in &outcomes[..11] {
            first.record(o);
        }
        for o in &outcomes[11..] {
            second.record(o);
        }
        first.merge(&second);
        assert_eq!(first, whole);
        assert_eq!(whole.games(), 25);
        assert_eq!(whole.counts().iter().sum::<u128>(), whole.total());
        assert!(whole.check(25).is_ok());
        // Each group's moments are those of its squares' per-game sums.
        let (mut squares, mut totals) = ([0u128; GROUP_COUNT], [0u128; GROUP_COUNT]);
        for o in &outcomes {
            let total: u128 = o.landings.iter().map(|&c| u128::from(c)).sum();
            for g in 0..GROUP_COUNT {
                let count: u128 = (0..BOARD_SIZE)
                    .filter(|&s| usize::from(GROUP_OF[s]) == g)
                    .map(|s| u128::from(o.landings[s]))
                    .sum();
                squares[g] += count * count;
                totals[g] += count * total;
            }
        }
        assert_eq!(whole.group_squares(), squares);
        assert_eq!(whole.group_totals(), totals);
        assert_eq!(whole.group_counts().iter().sum::<u128>(), whole.total());
    }

    #[test]
    fn a_summary_whose_group_moments_disagree_with_its_squares_fails_its_check() {
        let mut summary = MonopolySummary::default();
        for seed in 0..5 {
            summary.record(&outcome(seed));
        }
        assert!(summary.check(5).is_ok());
        let mut broken = summary.clone();
        broken.group_totals[3] += 1;
        assert!(broken.check(5).is_err());
        let mut broken = summary;
        broken.group_squares[0] = 0;
        assert!(broken.check(5).is_err());
    }
}
