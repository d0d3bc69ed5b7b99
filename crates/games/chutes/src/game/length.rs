//! How long a board's game lasts: the expected turns of a player alone, from every square a
//! token can reach, solved exactly from the chain (no simulation, no iteration), and the bound
//! the engine plays boards to.

use super::board::{Board, FINISH, SQUARES};
use experiment_engine::linear::solve;

/// The most turns a player alone may need on average to finish, from the start or from any
/// square a token can reach. A game of two players ends when the first finishes, so it lasts
/// at most this many of each player's turns on average. Chosen from measurement on the 2-core
/// machine the engine is developed on (see `docs/spec.md`): the optimal cubeful table, the
/// slowest exact table, takes time in proportion to a board's length, about 27 s at 1,077
/// turns (a 2-sided die with chutes to square 1 from 3, 5, ..., 17) and 2 s on the standard
/// board; a trial plays some 10^8 moves a second, so a game at the bound takes microseconds.
pub const MAX_EXPECTED_TURNS: f64 = 1_000.0;

/// The expected turns of a player alone on a board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpectedTurns {
    /// From the start (square 0).
    pub from_start: f64,
    /// The most from any square a token can reach (the start included).
    pub longest: f64,
    /// The square `longest` is from (the lowest, if several tie).
    pub square: u8,
}

/// The expected turns to finish of a player alone on `board`, by Gaussian elimination over the
/// squares a token can reach from the start (each of which can reach the finish, as
/// [`Board::new`] checks before calling this). A system too nearly singular for `f64` to
/// solve comes out as infinite turns rather than a wrong finite number.
pub(super) fn expected_turns(board: &Board, reached: &[bool; SQUARES]) -> ExpectedTurns {
    let squares: Vec<usize> = (0..SQUARES).filter(|&s| reached[s]).collect();
    let mut index = [usize::MAX; SQUARES];
    for (i, &s) in squares.iter().enumerate() {
        index[s] = i;
    }
    // (I - Q) e = 1, with Q the moves between reached squares; one augmented row per square.
    let n = squares.len();
    let rolls = f64::from(board.die_sides());
    let mut a = vec![vec![0.0f64; n + 1]; n];
    for (i, &s) in squares.iter().enumerate() {
        a[i][i] += 1.0;
        a[i][n] = 1.0;
        for roll in board.rolls() {
            let to = board.advance(s as u8, roll);
            if to != FINISH {
                a[i][index[usize::from(to)]] -= 1.0 / rolls;
            }
        }
    }
    let e = solve(a);
    // A solution beyond the precision of f64 (a nearly singular system) may come out wrong,
    // even negative: each e >= 1 exactly, and e = 1 + the mean of its successors' checks it.
    let trusted = e.iter().enumerate().all(|(i, &v)| {
        let s = squares[i];
        let mean: f64 = board
            .rolls()
            .map(|roll| board.advance(s as u8, roll))
            .filter(|&to| to != FINISH)
            .map(|to| e[index[usize::from(to)]])
            .sum::<f64>()
            / rolls;
        v.is_finite() && v >= 1.0 && ((1.0 + mean) - v).abs() <= 1e-6 * v
    });
    let (at, longest) = e
        .iter()
        .enumerate()
        .fold((0, f64::NEG_INFINITY), |(bi, bv), (i, &v)| {
            if v > bv {
                (i, v)
            } else {
                (bi, bv)
            }
        });
    let worst = |v: f64| if trusted { v } else { f64::INFINITY };
    ExpectedTurns {
        from_start: worst(e[index[0]]),
        longest: worst(longest),
        square: squares[at] as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardError, BoardName, Overshoot};

    #[test]
    fn expected_turns_match_hand_checked_boards() {
        let turns = |jumps: &[(u8, u8)], sides, overshoot| {
            Board::new(jumps, sides, overshoot)
                .expect("valid")
                .expected_turns()
        };
        // A 1-sided die walks 100 turns from the start, fewest from the top.
        let walk = turns(&[], 1, Overshoot::Wins);
        assert!((walk.from_start - 100.0).abs() < 1e-9 && walk.square == 0);
        assert!((walk.longest - walk.from_start).abs() < 1e-12);
        // Ladders on 1 and 2 to 97 with a 2-sided die, exact landing: 4 turns (see solo.rs).
        let ladders = turns(&[(1, 97), (2, 97)], 2, Overshoot::Stays);
        assert!((ladders.from_start - 4.0).abs() < 1e-12);
        // The standard board, exact landing: Althoen, King & Schilling's 39.2251.
        let standard = turns(&BoardName::MiltonBradley.jumps(), 6, Overshoot::Stays);
        assert!((standard.from_start - 39.2251).abs() < 5e-5);
        assert!(standard.longest >= standard.from_start);
    }

    /// The board of `k` chutes from 3, 5, ..., 2k + 1 back to 1 with a 2-sided die: a token
    /// gets past them only by rolling 2 every time from square 1 or 2.
    fn every_other_square(k: u8) -> Result<Board, BoardError> {
        let jumps: Vec<(u8, u8)> = (1..=k).map(|i| (2 * i + 1, 1)).collect();
        Board::new(&jumps, 2, Overshoot::Wins)
    }

    #[test]
    fn boards_beyond_the_bound_are_refused_with_their_length() {
        let longest = |k| match every_other_square(k) {
            Ok(board) => board.expected_turns().longest,
            Err(BoardError::TooLong { turns, .. }) => turns,
            Err(error) => panic!("{error}"),
        };
        // Each chute about doubles the length, on either side of the bound.
        let lengths: Vec<f64> = (6..=12).map(longest).collect();
        for pair in lengths.windows(2) {
            let ratio = pair[1] / pair[0];
            assert!((1.8..2.2).contains(&ratio), "{lengths:?}");
        }
        assert!(every_other_square(7).is_ok() && lengths[1] <= MAX_EXPECTED_TURNS);
        assert!(every_other_square(8).is_err() && lengths[2] > MAX_EXPECTED_TURNS);
        // 23 chutes: about 2^24 turns; 49 (every odd square from 3): about 2^50.
        for (k, low, high) in [(23, 1e7, 1e8), (49, 1e14, 1e16)] {
            let error = every_other_square(k).expect_err("too long");
            let BoardError::TooLong {
                turns, from_start, ..
            } = error
            else {
                panic!("{error}");
            };
            assert!(
                (low..high).contains(&turns) && from_start <= turns,
                "{error}"
            );
            let text = error.to_string();
            assert!(
                text.contains("turns on average") && text.contains("more than the 1000"),
                "{text}"
            );
        }
        let text = every_other_square(23).expect_err("too long").to_string();
        assert!(
            text.contains("e7 turns on average to finish from square"),
            "{text}"
        );
    }
}
