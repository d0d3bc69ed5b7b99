//! Scripted dice and simple tables for the rules' unit tests.

use std::collections::VecDeque;

use super::board::{Board, FINISH, SQUARES};
use super::cube::CubeView;
use super::race::DiceSource;
use super::strategies::{CubePolicy, WinOdds};

/// Dice that replay a script (panicking, so failing the test, if it runs out).
pub struct ScriptedDice(VecDeque<u8>);

impl ScriptedDice {
    pub fn new(rolls: &[u8]) -> Self {
        ScriptedDice(rolls.iter().copied().collect())
    }
}

impl DiceSource for ScriptedDice {
    fn roll(&mut self, _player: usize, _sides: u8) -> u8 {
        self.0.pop_front().expect("the dice script ran out")
    }
}

/// Dice given by a function of the roll's index (0 = the game's first roll).
pub struct IndexedDice<F: FnMut(usize) -> u8>(pub F, pub usize);

impl<F: FnMut(usize) -> u8> DiceSource for IndexedDice<F> {
    fn roll(&mut self, _player: usize, _sides: u8) -> u8 {
        self.1 += 1;
        (self.0)(self.1 - 1)
    }
}

/// Player 1 rolls `path` then sixes; player 2 always rolls 1 (on the standard board a
/// token rolling only ones cycles 24..=28 -> 84..=87 -> 24 and never finishes).
pub fn p1_path_dice(path: Vec<u8>) -> IndexedDice<impl FnMut(usize) -> u8> {
    IndexedDice(
        move |i| {
            if i % 2 == 1 {
                1
            } else {
                path.get(i / 2).copied().unwrap_or(6)
            }
        },
        0,
    )
}

/// Rolls taking a token from 0 to `square` (landing on it last), found by breadth-first search.
pub fn path_landing_on(board: &Board, square: u8) -> Vec<u8> {
    let mut previous: [Option<(u8, u8)>; SQUARES] = [None; SQUARES];
    let mut queue = VecDeque::from([0u8]);
    let mut seen = [false; SQUARES];
    seen[0] = true;
    while let Some(at) = queue.pop_front() {
        if board.rolls().contains(&(square.wrapping_sub(at))) {
            let mut rolls = vec![square - at];
            let mut cursor = at;
            while let Some((from, roll)) = previous[usize::from(cursor)] {
                rolls.push(roll);
                cursor = from;
            }
            rolls.reverse();
            return rolls;
        }
        for roll in board.rolls() {
            let to = board.advance(at, roll);
            if to != FINISH && !seen[usize::from(to)] {
                seen[usize::from(to)] = true;
                previous[usize::from(to)] = Some((at, roll));
                queue.push_back(to);
            }
        }
    }
    panic!("square {square} cannot be landed on");
}

/// Win odds by distance to the finish: the mover wins with probability
/// (100 - other + 1) / (200 - mover - other + 2), so being ahead is worth more than being behind.
#[derive(Debug)]
pub struct ByDistance;

impl WinOdds for ByDistance {
    fn mover_wins(&self, mover: u8, other: u8) -> f64 {
        let (mine, theirs) = (f64::from(FINISH - mover), f64::from(FINISH - other));
        (theirs + 1.0) / (mine + theirs + 2.0)
    }
}

/// A cube policy that doubles whenever legal and takes every double below a stake of 4.
#[derive(Debug)]
pub struct DoubleEarly;

impl CubePolicy for DoubleEarly {
    fn should_double(&self, _my: u8, _their: u8, _cube: CubeView) -> bool {
        true
    }

    fn should_take(&self, _my: u8, _their: u8, cube: CubeView) -> bool {
        cube.stake < 4
    }
}
