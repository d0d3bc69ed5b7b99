//! Playing a game of War to its end, with exact cycle detection (Brent's algorithm) for the
//! placements whose course is fixed by the deal.

use super::state::{TurnOutcome, TurnReport, WarState};
use super::{Placement, War, WarOutcome, WarResult};
use crate::rng::TrialRng;

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
        // One copy of the loop per placement, so the placement's choice folds away per turn.
        match self.placement {
            Placement::WinnerFirst => self.play_with(Placement::WinnerFirst, true, start, rng),
            Placement::LoserFirst => self.play_with(Placement::LoserFirst, true, start, rng),
            Placement::Random => self.play_with(Placement::Random, false, start, rng),
            Placement::HighFirst => self.play_with(Placement::HighFirst, true, start, rng),
            Placement::LowFirst => self.play_with(Placement::LowFirst, true, start, rng),
            Placement::Player1First => self.play_with(Placement::Player1First, true, start, rng),
        }
    }

    /// Plays a game from a given state without looking for cycles: a cycling game runs to the
    /// turn limit and counts as infinite. Only for measuring what cycle detection costs.
    pub fn play_without_cycle_detection(&self, start: WarState, rng: &mut TrialRng) -> WarOutcome {
        self.play_with(self.placement, false, start, rng)
    }

    #[inline(always)]
    fn play_with(
        &self,
        placement: Placement,
        detect: bool,
        start: WarState,
        rng: &mut TrialRng,
    ) -> WarOutcome {
        let mut state = start;
        let mut tally = Tally::default();
        // Brent: compare each state with a checkpoint saved at turns 0, 1, 2, 4, 8, ...
        let mut checkpoint = start;
        let mut power = 1u32;
        let mut since_checkpoint = 0u32;
        while tally.turns < self.max_turns {
            let report = state.play_turn(placement, rng);
            tally.add(&report);
            match report.outcome {
                TurnOutcome::Won(player) => return tally.outcome(WarResult::Won(player)),
                TurnOutcome::Draw => return tally.outcome(WarResult::Draw),
                TurnOutcome::Continue => {}
            }
            if !detect {
                continue;
            }
            since_checkpoint += 1;
            if state == checkpoint {
                let period = since_checkpoint;
                let entry_turn = self.cycle_entry(placement, start, period, rng);
                return tally.outcome(WarResult::Cycled { entry_turn, period });
            }
            if since_checkpoint == power {
                checkpoint = state;
                power *= 2;
                since_checkpoint = 0;
            }
        }
        tally.outcome(WarResult::Infinite)
    }

    /// The first turn after which the state lies on a cycle of length `period` (Brent's second
    /// phase: two replays from the deal, `period` turns apart, meet at the cycle's entry).
    #[inline(never)]
    fn cycle_entry(
        &self,
        placement: Placement,
        start: WarState,
        period: u32,
        rng: &mut TrialRng,
    ) -> u32 {
        let mut behind = start;
        let mut ahead = start;
        for _ in 0..period {
            ahead.play_turn(placement, rng);
        }
        let mut entry = 0;
        while behind != ahead {
            behind.play_turn(placement, rng);
            ahead.play_turn(placement, rng);
            entry += 1;
        }
        entry
    }
}
