//! The fast simulation for cards drawn with replacement: every throw is one step of a
//! table-driven state machine, and the two players of a pair are stepped side by side.
//!
//! A player's state between throws is his square and the doubles thrown so far this turn
//! (`square * 3 + doubles`), or, in jail, `120 + jail turns served`. A throw's value picks the
//! dice pair and the card choice (see `random`), and two lookups give the rest: `moves` maps
//! (state, dice) to where the dice take him (a square and the doubles carried, or a jail code)
//! together with which part of the card choice matters there, and `lands` maps that and the
//! card choice to the landing counted, the next state and whether the turn is over. Only the
//! card squares look at the card choice (Chance its 15 Chance cards, Community Chest its 16,
//! Chance 37 both, as going back 3 reaches Community Chest 34), so `lands` has a handful of
//! entries per square and both tables stay in the fastest cache. The tables are built from
//! the engine's own rules ([`super::engine::settle`]); `Monopoly::play_observed`, which plays
//! through the engine, must give the same tally for the same stream.

use std::sync::OnceLock;

use super::board::{advance, SquareKind, BOARD_SIZE, JAIL, KINDS};
use super::cards::{ChanceCard, ChestCard};
use super::engine::{settle, Roll};
use super::random::{throw_value, PairStream, CARD_CHOICES};
use super::JailStrategy;

/// The pseudo-square "in jail" (as opposed to just visiting).
const IN_JAIL: usize = BOARD_SIZE;
/// States: 41 squares (40 and "in jail") times 3.
const STATES: usize = (BOARD_SIZE + 1) * 3;
/// Dice pairs.
const DICE: usize = 36;
/// Room for every landing index in the tally, so the landing field needs no bounds check.
const TALLY_SLOTS: usize = 64;
/// Which bits of the card choice `c` (`0..240`) a square reads: `c & mask` indexes its
/// entries (Chance the high four bits, Community Chest the low four, Chance 37 all of them).
fn card_mask(square: usize) -> u32 {
    match KINDS.get(square) {
        Some(SquareKind::Chance) if square == 36 => 0xff,
        Some(SquareKind::Chance) => 0xf0,
        Some(SquareKind::CommunityChest) => 0x0f,
        _ => 0,
    }
}

/// The lookup tables of one jail strategy.
pub(super) struct Machine {
    /// `moves[state * 36 + dice]`: the first `lands` entry of where the dice lead (low 16
    /// bits) and the mask of the card choice's bits read there (top 8).
    moves: [u32; STATES * DICE],
    /// The landing counted (low 6 bits), the next state times 36 (next 13), and whether the
    /// turn is over (bit 19).
    lands: [u32; LANDS],
}

/// Room for `lands`: per code (three per square) one entry, 241 on Chance 8 and 23 (only
/// multiples of 16 used), 16 on Community Chest, 256 on Chance 37: 2463 in all.
const LANDS: usize = 2464;

impl Machine {
    /// The machine for `jail` (built on first use, then shared).
    pub(super) fn of(jail: JailStrategy) -> &'static Machine {
        static LONG_STAY: OnceLock<Box<Machine>> = OnceLock::new();
        static SHORT_STAY: OnceLock<Box<Machine>> = OnceLock::new();
        static FULL_TURN: OnceLock<Box<Machine>> = OnceLock::new();
        let cell = match jail {
            JailStrategy::LongStay => &LONG_STAY,
            JailStrategy::ShortStay => &SHORT_STAY,
            JailStrategy::ShortStayFullTurn => &FULL_TURN,
        };
        cell.get_or_init(|| Machine::build(jail))
    }

    fn build(jail: JailStrategy) -> Box<Machine> {
        // Where the dice lead, as a code `square * 3 + carried` (square 40: in jail).
        let mut codes = vec![0usize; STATES * DICE];
        for state_square in 0..=IN_JAIL {
            for state_carried in 0..3 {
                // A full turn out of jail is a free turn from Jail with no doubles carried.
                let (square, carried) =
                    if state_square == IN_JAIL && jail == JailStrategy::ShortStayFullTurn {
                        (usize::from(JAIL), 0)
                    } else {
                        (state_square, state_carried)
                    };
                for (dice, roll) in Roll::ALL.iter().enumerate() {
                    let double = roll.is_double();
                    let reached = |from: u8| usize::from(advance(from, roll.sum())) * 3;
                    let code = if square < IN_JAIL {
                        if double && carried == 2 {
                            IN_JAIL * 3 // the third double: straight to jail
                        } else {
                            reached(square as u8) + if double { carried + 1 } else { 0 }
                        }
                    } else {
                        let leaves = match jail {
                            JailStrategy::LongStay => double || carried == 2,
                            JailStrategy::ShortStay | JailStrategy::ShortStayFullTurn => true,
                        };
                        if leaves {
                            reached(JAIL) // leaving moves the throw, with no extra throw
                        } else {
                            IN_JAIL * 3 + carried + 1 // stays, one more jail turn served
                        }
                    };
                    codes[(state_square * 3 + state_carried) * DICE + dice] = code;
                }
            }
        }
        // Each code's entries in `lands`, one per value of its part of the card choice.
        let mut first_entry = [0u32; STATES];
        let mut lands = Vec::new();
        for (code, first) in first_entry.iter_mut().enumerate() {
            let (square, carried) = (code / 3, code % 3);
            let mask = card_mask(square);
            *first = lands.len() as u32;
            for choice in 0..=mask as usize {
                let rest = if square == IN_JAIL {
                    None
                } else {
                    settle(
                        square as u8,
                        ChanceCard::DECK[(choice >> 4).min(14)],
                        ChestCard::DECK[choice & 15],
                    )
                };
                let (landing, next, over) = match rest {
                    // Jailed (or staying): Jail counted, the turn over; a new arrest has
                    // served no jail turn yet.
                    None => {
                        let served = if square == IN_JAIL { carried } else { 0 };
                        (usize::from(JAIL), IN_JAIL * 3 + served, true)
                    }
                    Some(to) => (usize::from(to), usize::from(to) * 3 + carried, carried == 0),
                };
                lands.push((landing | (next * DICE) << 6 | usize::from(over) << 19) as u32);
            }
        }
        assert!(lands.len() <= LANDS, "{} lands entries", lands.len());
        let mut machine = Box::new(Machine {
            moves: [0; STATES * DICE],
            lands: [0; LANDS],
        });
        for (lead, &code) in machine.moves.iter_mut().zip(&codes) {
            *lead = first_entry[code] | card_mask(code / 3) << 24;
        }
        machine.lands[..lands.len()].copy_from_slice(&lands);
        machine
    }

    /// Plays `turns` turns of each of the `players` (1 or 2) of the pair reading `stream`,
    /// side by side, counting landings in `tally`.
    #[inline(always)]
    pub(super) fn play_pair(
        &self,
        stream: &mut PairStream,
        players: usize,
        turns: u32,
        tally: &mut Tally,
    ) {
        let mut lanes = [Lane::START; 2];
        if players == 2 {
            let [a, b] = &mut lanes;
            while a.turns < turns && b.turns < turns {
                self.step_pair(stream, a, b, tally);
            }
        }
        self.finish_pair(stream, &mut lanes, players, turns, tally);
    }

    /// Plays two games of one pair each (two players, `turns` turns) side by side: four
    /// independent lanes to overlap the lookups' latency.
    #[inline(always)]
    pub(super) fn play_two_games(
        &self,
        streams: [&mut PairStream; 2],
        turns: u32,
        tallies: [&mut Tally; 2],
    ) {
        let [first, second] = streams;
        let [first_tally, second_tally] = tallies;
        let mut lanes = [[Lane::START; 2]; 2];
        {
            let [[a, b], [c, d]] = &mut lanes;
            while a.turns < turns && b.turns < turns && c.turns < turns && d.turns < turns {
                self.step_pair(first, a, b, first_tally);
                self.step_pair(second, c, d, second_tally);
            }
        }
        let [one, two] = &mut lanes;
        for (stream, lanes, tally) in [(first, one, first_tally), (second, two, second_tally)] {
            let [a, b] = lanes;
            while a.turns < turns && b.turns < turns {
                self.step_pair(stream, a, b, tally);
            }
            self.finish_pair(stream, lanes, 2, turns, tally);
        }
    }

    /// One throw for each seat of a pair, from one word of its stream when neither seat has
    /// read ahead.
    #[inline(always)]
    fn step_pair(&self, stream: &mut PairStream, a: &mut Lane, b: &mut Lane, tally: &mut Tally) {
        let (first, second) = stream
            .both()
            .unwrap_or_else(|| (stream.value(0), stream.value(1)));
        let first = throw_value(first).unwrap_or_else(|| stream.throw(0));
        let second = throw_value(second).unwrap_or_else(|| stream.throw(1));
        self.step(first, a, tally);
        self.step(second, b, tally);
    }

    /// Plays whatever turns the seats of a pair still have, one seat at a time.
    #[inline(always)]
    fn finish_pair(
        &self,
        stream: &mut PairStream,
        lanes: &mut [Lane; 2],
        players: usize,
        turns: u32,
        tally: &mut Tally,
    ) {
        for (seat, lane) in lanes.iter_mut().enumerate().take(players) {
            if lane.turns < turns {
                stream.retire(1 - seat);
                while lane.turns < turns {
                    let value = stream.throw(seat);
                    self.step(value, lane, tally);
                }
            }
        }
    }

    /// One throw of value `value`: two lookups and a count.
    #[inline(always)]
    fn step(&self, value: u32, lane: &mut Lane, tally: &mut Tally) {
        let dice = value / CARD_CHOICES;
        let choice = value - dice * CARD_CHOICES;
        let lead = self.moves[(lane.state + dice) as usize];
        let entry = self.lands[((lead & 0xffff) + (choice & (lead >> 24))) as usize];
        // Counts cannot overflow: `Monopoly::validate` bounds the throws per game.
        tally[(entry as usize) & (TALLY_SLOTS - 1)] += 1;
        lane.state = (entry >> 6) & 0x1fff;
        lane.turns += entry >> 19;
    }
}

/// One player's place in the machine: his state (times 36) and the turns he has finished.
#[derive(Clone, Copy, Debug)]
struct Lane {
    state: u32,
    turns: u32,
}

impl Lane {
    /// On Go, not in jail, no turn played.
    const START: Lane = Lane { state: 0, turns: 0 };
}

/// A game's landing counts as the machine keeps them (only the first 40 slots are used).
pub(super) type Tally = [u32; TALLY_SLOTS];

#[cfg(test)]
mod tests {
    use super::*;

    /// (landing, next state, turn over) after throwing `dice` from `state` with `choice`.
    fn throw(machine: &Machine, state: usize, dice: usize, choice: u32) -> (u32, u32, u32) {
        let mut lane = Lane {
            state: (state * DICE) as u32,
            turns: 0,
        };
        let mut tally = [0; TALLY_SLOTS];
        machine.step(dice as u32 * CARD_CHOICES + choice, &mut lane, &mut tally);
        let landing = tally.iter().position(|&n| n == 1).expect("one landing") as u32;
        (landing, lane.state / DICE as u32, lane.turns)
    }

    #[test]
    fn every_entry_points_inside_the_tables() {
        for &jail in JailStrategy::ALL {
            let machine = Machine::of(jail);
            for &lead in &machine.moves {
                let last = (lead & 0xffff) + (lead >> 24);
                assert!((last as usize) < machine.lands.len(), "{lead:#x}");
            }
            for &entry in machine.lands.iter().filter(|&&entry| entry != 0) {
                let (landing, next) = (entry & 63, (entry >> 6) & 0x1fff);
                assert!(landing < BOARD_SIZE as u32 && landing != 30, "{entry:#x}");
                assert!(next % DICE as u32 == 0 && next / (DICE as u32) < STATES as u32);
                assert_ne!(next / DICE as u32 / 3, 30, "{entry:#x}");
            }
        }
    }

    #[test]
    fn throws_follow_the_rules_of_the_squares_reached() {
        let machine = Machine::of(JailStrategy::LongStay);
        // Dice 3 and 4 (index 2 * 6 + 3) from Go reach Chance (index 7): card choice 239 is
        // Chance position 14 (no move), choice 96 Chance position 6 (Boardwalk).
        assert_eq!(throw(machine, 0, 2 * 6 + 3, 239), (7, 7 * 3, 1));
        assert_eq!(throw(machine, 0, 2 * 6 + 3, 96), (39, 39 * 3, 1));
        // Double fives from Go: Just Visiting, one double carried, the turn goes on.
        assert_eq!(throw(machine, 0, 4 * 6 + 4, 0), (10, 10 * 3 + 1, 0));
        // A third double goes to jail; in jail without doubles he stays (long stay).
        assert_eq!(throw(machine, 5 * 3 + 2, 0, 0), (10, 120, 1));
        assert_eq!(throw(machine, 120, 1, 0), (10, 121, 1));
        // Chance 37 (index 36) by 1 and 3 from 33 (index 32): back 3 to Community Chest 34 (index 33), whose
        // card (choice & 15 = 1) is Go to Jail.
        let from = 32 * 3;
        assert_eq!(throw(machine, from, 2, 8 * 16 + 1), (10, 120, 1));
    }
}
