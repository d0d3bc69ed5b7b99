//! The fast simulation for cards drawn with replacement: every throw is one step of a
//! table-driven state machine, and two players' streams are stepped side by side.
//!
//! A player's state between throws is his square and the doubles thrown so far this turn
//! (`square * 3 + doubles`), or, in jail, `120 + jail turns served`. A throw's value picks the
//! dice pair and the card choice (see `random`), and two lookups give the rest: `moves` maps
//! (state, dice) to the square reached by the dice (times 3, plus the doubles carried) or to a
//! jail code, and `lands` maps (that, card choice) to the landing counted, the next state and
//! whether the turn is over. The tables are built from the engine's own rules
//! ([`super::engine::settle`]); `Monopoly::play_observed`, which plays through the engine,
//! must give the same tally for the same stream.

use std::sync::OnceLock;

use super::board::{advance, BOARD_SIZE, JAIL};
use super::cards::{ChanceCard, ChestCard};
use super::engine::{settle, Roll};
use super::random::{Throws, CARD_CHOICES};
use super::JailStrategy;

/// The pseudo-square "in jail" (as opposed to just visiting).
const IN_JAIL: usize = BOARD_SIZE;
/// States: 41 squares (40 and "in jail") times 3.
const STATES: usize = (BOARD_SIZE + 1) * 3;
/// Dice pairs.
const DICE: usize = 36;
/// Room for every landing index in the tally, so the landing field needs no bounds check.
const TALLY_SLOTS: usize = 64;

/// The lookup tables of one jail strategy.
pub(super) struct Machine {
    moves: [u8; STATES * DICE],
    lands: [u16; STATES * CARD_CHOICES as usize],
}

impl Machine {
    /// The machine for `jail` (built on first use, then shared).
    pub(super) fn of(jail: JailStrategy) -> &'static Machine {
        static LONG_STAY: OnceLock<Box<Machine>> = OnceLock::new();
        static SHORT_STAY: OnceLock<Box<Machine>> = OnceLock::new();
        let cell = match jail {
            JailStrategy::LongStay => &LONG_STAY,
            JailStrategy::ShortStay => &SHORT_STAY,
        };
        cell.get_or_init(|| Machine::build(jail))
    }

    fn build(jail: JailStrategy) -> Box<Machine> {
        let mut machine = Box::new(Machine {
            moves: [0; STATES * DICE],
            lands: [0; STATES * CARD_CHOICES as usize],
        });
        for square in 0..=IN_JAIL {
            for carried in 0..3 {
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
                            JailStrategy::ShortStay => true,
                        };
                        if leaves {
                            reached(JAIL) // leaving moves the throw, with no extra throw
                        } else {
                            IN_JAIL * 3 + carried + 1 // stays, one more jail turn served
                        }
                    };
                    machine.moves[(square * 3 + carried) * DICE + dice] = code as u8;
                }
            }
        }
        for code in 0..STATES {
            let (square, carried) = (code / 3, code % 3);
            for choice in 0..CARD_CHOICES as usize {
                let rest = if square == IN_JAIL {
                    None
                } else {
                    settle(
                        square as u8,
                        ChanceCard::DECK[choice >> 4],
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
                machine.lands[code * CARD_CHOICES as usize + choice] =
                    (landing | next << 6 | usize::from(over) << 13) as u16;
            }
        }
        machine
    }

    /// Plays `turns` turns of each of two players side by side, counting landings in `tally`.
    #[inline(always)]
    pub(super) fn play_pair(
        &self,
        first: &mut Throws,
        second: &mut Throws,
        turns: u32,
        tally: &mut [u32; TALLY_SLOTS],
    ) {
        let (mut a, mut b) = (Lane::START, Lane::START);
        while a.turns < turns && b.turns < turns {
            self.step(first, &mut a, tally);
            self.step(second, &mut b, tally);
        }
        self.finish(first, &mut a, turns, tally);
        self.finish(second, &mut b, turns, tally);
    }

    /// Plays one player's remaining turns alone.
    #[inline(always)]
    pub(super) fn finish(
        &self,
        throws: &mut Throws,
        lane: &mut Lane,
        turns: u32,
        tally: &mut [u32; TALLY_SLOTS],
    ) {
        while lane.turns < turns {
            self.step(throws, lane, tally);
        }
    }

    /// One throw: two lookups and a count.
    #[inline(always)]
    fn step(&self, throws: &mut Throws, lane: &mut Lane, tally: &mut [u32; TALLY_SLOTS]) {
        let value = throws.next();
        let dice = value / CARD_CHOICES;
        let choice = value - dice * CARD_CHOICES;
        let code = self.moves[lane.state as usize * DICE + dice as usize];
        let entry = self.lands[usize::from(code) * CARD_CHOICES as usize + choice as usize];
        let slot = &mut tally[usize::from(entry) & (TALLY_SLOTS - 1)];
        *slot = slot.saturating_add(1);
        lane.state = u32::from(entry >> 6) & 127;
        lane.turns += u32::from(entry >> 13);
    }
}

/// One player's place in the machine: his state and the turns he has finished.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lane {
    state: u32,
    turns: u32,
}

impl Lane {
    /// On Go, not in jail, no turn played.
    pub(super) const START: Lane = Lane { state: 0, turns: 0 };
}

/// A game's landing counts as the machine keeps them (only the first 40 slots are used).
pub(super) type Tally = [u32; TALLY_SLOTS];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_points_inside_the_tables() {
        for jail in [JailStrategy::LongStay, JailStrategy::ShortStay] {
            let machine = Machine::of(jail);
            assert!(machine.moves.iter().all(|&code| usize::from(code) < STATES));
            for &entry in &machine.lands {
                let (landing, next) = (usize::from(entry & 63), usize::from(entry >> 6) & 127);
                assert!(landing < BOARD_SIZE && landing != 30, "{entry:#x}");
                assert!(next < STATES && next / 3 != 30, "{entry:#x}");
            }
        }
    }

    #[test]
    fn a_plain_throw_from_go_lands_where_the_dice_say() {
        let machine = Machine::of(JailStrategy::LongStay);
        // Dice 3 and 4 (index 2 * 6 + 3) from Go reach Chance (index 7); card choice 239 is
        // Chance position 14 (no move), choice 96 Chance position 6 (Boardwalk).
        let code = machine.moves[2 * 6 + 3];
        assert_eq!(code, 7 * 3);
        let at = |choice: usize| machine.lands[usize::from(code) * CARD_CHOICES as usize + choice];
        assert_eq!((at(239) & 63, at(239) >> 13), (7, 1));
        assert_eq!((at(96) & 63, at(96) >> 13), (39, 1));
        // Double fives from Go: Just Visiting, one double carried, the turn goes on.
        let code = machine.moves[4 * 6 + 4];
        assert_eq!(code, 10 * 3 + 1);
        let entry = machine.lands[usize::from(code) * CARD_CHOICES as usize];
        assert_eq!((entry & 63, (entry >> 6) & 127, entry >> 13), (10, 31, 0));
    }
}
