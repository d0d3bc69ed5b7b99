//! Playing a game of War to its end, with exact cycle detection (Brent's algorithm) for the
//! placements whose course is fixed by the deal.

use super::rules::{RuleSet, Rules, Standard};
use super::state::{TurnOutcome, TurnReport, WarState};
use super::{Placement, War, WarOutcome, WarResult};
use experiment_engine::rng::TrialRng;

/// Running totals of one game, turn by turn.
#[derive(Default)]
struct Tally {
    turns: u32,
    wars: u32,
    double_wars: u32,
}

impl Tally {
    #[inline(always)]
    fn add(&mut self, report: &TurnReport) {
        self.turns += 1;
        self.wars += report.wars;
        self.double_wars += report.wars.saturating_sub(1);
    }

    fn outcome(&self, result: WarResult) -> WarOutcome {
        WarOutcome {
            result,
            turns: self.turns,
            wars: self.wars,
            double_wars: self.double_wars,
        }
    }
}

impl War {
    /// Plays a game from a given state to its end, detecting cycles (Brent's algorithm) for
    /// deterministic placements.
    pub fn play_from(&self, start: WarState, rng: &mut TrialRng) -> WarOutcome {
        // The standard rules as constants, so that their loop is the one without rules.
        if self.rules == Rules::STANDARD {
            self.play_by(Standard, start, rng)
        } else {
            self.play_by(self.rules, start, rng)
        }
    }

    /// Plays a game from a given state without looking for cycles: a cycling game runs to the
    /// turn limit and counts as infinite. Only for measuring what cycle detection costs.
    pub fn play_without_cycle_detection(&self, start: WarState, rng: &mut TrialRng) -> WarOutcome {
        if self.rules == Rules::STANDARD {
            self.play_with(self.placement, Standard, false, start, rng)
        } else {
            self.play_with(self.placement, self.rules, false, start, rng)
        }
    }

    #[inline(always)]
    fn play_by<R: RuleSet>(&self, rules: R, start: WarState, rng: &mut TrialRng) -> WarOutcome {
        // One copy of the loop per placement, so the placement's choice folds away per turn.
        use Placement::*;
        match self.placement {
            WinnerFirst => self.play_with(WinnerFirst, rules, true, start, rng),
            LoserFirst => self.play_with(LoserFirst, rules, true, start, rng),
            Random => self.play_with(Random, rules, false, start, rng),
            HighFirst => self.play_with(HighFirst, rules, true, start, rng),
            LowFirst => self.play_with(LowFirst, rules, true, start, rng),
            Player1First => self.play_with(Player1First, rules, true, start, rng),
        }
    }

    #[inline(always)]
    fn play_with<R: RuleSet>(
        &self,
        placement: Placement,
        rules: R,
        detect: bool,
        start: WarState,
        rng: &mut TrialRng,
    ) -> WarOutcome {
        let mut state = start;
        let mut tally = Tally::default();
        // Brent: compare each state with a checkpoint saved at turns 0, 1, 3, 7, 15, ...
        // (2^k - 1), the next one saved at turn 2c + 1 after a checkpoint at turn c.
        //
        // Under the standard rules every turn that does not end the game moves an odd number
        // of cards between the hands (1 without a war, 1 + 4w after w wars), so player 1's hand
        // size changes parity every turn and a state can equal one only an even number of turns
        // later. Checkpoints after the first lie at odd turns, so a repeat can first be seen,
        // and a checkpoint is due, only after an odd turn: even turns skip both, and the result
        // is Brent's exactly. Rules that can move an even number ([`RuleSet::odd_moves`])
        // compare after every turn.
        let odd_only = rules.odd_moves();
        let mut checkpoint = start.hands();
        let mut checkpoint_turn = 0u32;
        while tally.turns < self.max_turns {
            let report = state.turn(placement, rules, rng);
            tally.add(&report);
            match report.outcome {
                TurnOutcome::Won(player) => return tally.outcome(WarResult::Won(player)),
                TurnOutcome::Draw => return tally.outcome(WarResult::Draw),
                TurnOutcome::Continue => {}
            }
            if !detect || (odd_only && tally.turns % 2 == 0) {
                continue;
            }
            if state.holds(&checkpoint) {
                let period = tally.turns - checkpoint_turn;
                let entry_turn = self.cycle_entry(placement, rules, start, period, rng);
                return tally.outcome(WarResult::Cycled { entry_turn, period });
            }
            if tally.turns == 2 * checkpoint_turn + 1 {
                checkpoint = state.hands();
                checkpoint_turn = tally.turns;
            }
        }
        tally.outcome(WarResult::Infinite)
    }

    /// The first turn after which the state lies on a cycle of length `period` (Brent's second
    /// phase: two replays from the deal, `period` turns apart, meet at the cycle's entry).
    #[inline(never)]
    fn cycle_entry<R: RuleSet>(
        &self,
        placement: Placement,
        rules: R,
        start: WarState,
        period: u32,
        rng: &mut TrialRng,
    ) -> u32 {
        let mut behind = start;
        let mut ahead = start;
        for _ in 0..period {
            ahead.turn(placement, rules, rng);
        }
        let mut entry = 0;
        while behind != ahead {
            behind.turn(placement, rules, rng);
            ahead.turn(placement, rules, rng);
            entry += 1;
        }
        entry
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DEFAULT_MAX_TURNS;
    use experiment_engine::rng::trial_rng;

    #[test]
    fn the_standard_rules_read_from_fields_play_as_their_constants() {
        for &placement in Placement::ALL {
            let war = War::standard(placement, DEFAULT_MAX_TURNS);
            for i in 0..300 {
                let start = WarState::deal(&mut trial_rng(4, 0, i));
                let constants = war.play_by(Standard, start, &mut trial_rng(5, 0, i));
                let fields = war.play_by(Rules::STANDARD, start, &mut trial_rng(5, 0, i));
                assert_eq!(constants, fields, "{placement:?} deal {i}");
            }
        }
    }
}
