//! The exact single-player turn distribution.

use super::{change, Moves};
use crate::exact::sweeps::{Sweeps, TOLERANCE};
use crate::game::{Board, FINISH, MAX_EXPECTED_TURNS, SQUARES};

/// The single-player distribution is extended until the unfinished mass is below this.
const SOLO_TAIL: f64 = 1e-12;

/// The most turns the single-player distribution is extended to (about 6.6 MB of
/// probabilities). A board within [`MAX_EXPECTED_TURNS`] never needs them: from any square a
/// token finishes within `2 * MAX_EXPECTED_TURNS` turns with probability 1/2 or more (Markov's
/// inequality), so the unfinished mass halves every `2 * MAX_EXPECTED_TURNS` turns and is
/// below 1e-12 after 40 halvings. Should the bound be reached, [`SoloTurns::tail`] holds the
/// mass left unfinished.
pub const SOLO_TURNS: usize = 82 * MAX_EXPECTED_TURNS as usize;

/// The exact single-player turn distribution from square 0.
#[derive(Clone, Debug, PartialEq)]
pub struct SoloTurns {
    /// `probs[t]`: probability of finishing on turn `t` (`probs[0]` is 0), up to the first turn
    /// after which the unfinished mass is below 1e-12 (at most [`SOLO_TURNS`] turns).
    pub probs: Vec<f64>,
    /// Probability of not having finished within `probs.len() - 1` turns.
    pub tail: f64,
    /// Expected number of turns (solved exactly, not from the truncated distribution).
    pub mean: f64,
    /// Smallest `t` with P(finish within `t` turns) >= 1/2.
    pub median: u32,
    /// Fewest turns in which the finish can be reached.
    pub min: u32,
}

/// The exact turn distribution of one player alone on `board`.
///
/// # Panics
/// If the expected turns do not converge within the solver's bound on sweeps (see
/// [`crate::exact::sweeps`]), which a board within [`MAX_EXPECTED_TURNS`] cannot cause.
pub fn solo_turns(board: &Board) -> SoloTurns {
    let moves = Moves::new(board);
    let mut dist = [0.0f64; SQUARES];
    dist[0] = 1.0;
    let mut probs = vec![0.0];
    let mut tail = 1.0;
    while tail >= SOLO_TAIL && probs.len() <= SOLO_TURNS {
        let mut next = [0.0f64; SQUARES];
        let mut finished = 0.0;
        for (square, &p) in dist.iter().enumerate() {
            for &to in moves.next(square) {
                if to == FINISH {
                    finished += p / moves.rolls();
                } else {
                    next[usize::from(to)] += p / moves.rolls();
                }
            }
        }
        dist = next;
        probs.push(finished);
        tail = dist.iter().sum();
    }
    let mut expected = [0.0f64; SQUARES];
    let mut sweeps = Sweeps::new("single-player expected turns");
    loop {
        let mut delta: f64 = 0.0;
        for square in (0..SQUARES).rev() {
            let rest: f64 = moves
                .next(square)
                .iter()
                .filter(|&&to| to != FINISH)
                .map(|&to| expected[usize::from(to)])
                .sum();
            let value = 1.0 + rest / moves.rolls();
            delta = delta.max(change(expected[square], value));
            expected[square] = value;
        }
        match sweeps.finished(delta >= TOLERANCE, delta) {
            Ok(true) => break,
            Ok(false) => {}
            Err(error) => panic!("{error}"),
        }
    }
    let mut cumulative = 0.0;
    let median = probs
        .iter()
        .position(|&p| {
            cumulative += p;
            cumulative >= 0.5
        })
        .unwrap_or(probs.len()) as u32;
    let min = probs.iter().position(|&p| p > 0.0).unwrap_or(probs.len()) as u32;
    SoloTurns {
        probs,
        tail,
        mean: expected[0],
        median,
        min,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        Board::milton_bradley()
    }

    #[test]
    fn solo_distribution_is_complete_and_agrees_with_the_exact_mean() {
        let solo = solo_turns(&board());
        let total: f64 = solo.probs.iter().sum::<f64>() + solo.tail;
        assert!((total - 1.0).abs() < 1e-12, "total {total}");
        assert!(solo.tail < SOLO_TAIL);
        let mean: f64 = solo
            .probs
            .iter()
            .enumerate()
            .map(|(t, p)| t as f64 * p)
            .sum();
        assert!((mean - solo.mean).abs() < 1e-8, "{mean} vs {}", solo.mean);
        assert_eq!(solo.min, 7);
        assert!(solo.probs[..7].iter().all(|&p| p == 0.0) && solo.probs[7] > 0.0);
        let below: f64 = solo.probs[..solo.median as usize].iter().sum();
        assert!(below < 0.5 && below + solo.probs[solo.median as usize] >= 0.5);
    }

    #[test]
    fn hand_checked_boards_give_their_expected_turns() {
        use crate::game::Overshoot::{Stays, Wins};
        let mean = |jumps: &[(u8, u8)], sides, overshoot| {
            solo_turns(&Board::new(jumps, sides, overshoot).expect("valid")).mean
        };
        // A 1-sided die walks: 100 turns, or 49 to square 49, one onto the ladder 50 -> 90
        // and ten more.
        let walk = solo_turns(&Board::new(&[], 1, Wins).expect("valid"));
        assert_eq!((walk.min, walk.median), (100, 100));
        assert!((walk.mean - 100.0).abs() < 1e-9 && walk.probs[100] == 1.0);
        assert!((mean(&[(50, 90)], 1, Stays) - 60.0).abs() < 1e-9);
        // Ladders on 1 and 2 to 97, a 2-sided die. Exact landing: E99 = 1 + E99 / 2 = 2,
        // E98 = 1 + E99 / 2 = 2, E97 = 1 + (E98 + E99) / 2 = 3, E0 = 1 + E97 = 4. Reaching
        // or passing: E99 = 1, E98 = 1 + E99 / 2 = 1.5, E97 = 1 + (1.5 + 1) / 2 = 2.25.
        let ladders = [(1, 97), (2, 97)];
        assert!((mean(&ladders, 2, Stays) - 4.0).abs() < 1e-12);
        assert!((mean(&ladders, 2, Wins) - 3.25).abs() < 1e-12);
    }

    #[test]
    fn exact_landing_gives_the_published_lengths() {
        use crate::game::{BoardName, Overshoot};
        // Althoen, King & Schilling (1993); possiblywrong (2015); Chutes and Ladders for the
        // Impatient (2011), spinner 1..=15.
        for (name, sides, published) in [
            (BoardName::MiltonBradley, 6, 39.2251),
            (BoardName::MiltonBradley48, 6, 39.5984),
            (BoardName::MiltonBradley, 15, 25.8059),
        ] {
            let board = Board::new(&name.jumps(), sides, Overshoot::Stays).expect("valid");
            let mean = solo_turns(&board).mean;
            assert!((mean - published).abs() < 5e-5, "{name:?} d{sides}: {mean}");
        }
        // Althoen, King & Schilling's exact fraction for the first.
        let board = Board::new(&BoardName::MiltonBradley.jumps(), 6, Overshoot::Stays);
        let fraction =
            225_837_582_538_403_273_407_117_496_273_279_920_181_931_269_186_581_786_048_583f64
                / 5_757_472_998_140_039_232_950_575_874_628_786_131_130_999_406_013_041_613_400f64;
        let mean = solo_turns(&board.expect("valid")).mean;
        assert!((mean - fraction).abs() < 1e-10, "{mean} vs {fraction}");
    }

    #[test]
    fn a_board_without_jumps_matches_a_direct_backward_recursion() {
        let empty = Board::from_jumps(&[]).expect("valid");
        let solo = solo_turns(&empty);
        // E[turns from s] = 1 + mean of E[s + d], with E = 0 at or past 100: no cycles.
        let mut expected = [0.0f64; 106];
        for s in (0..100).rev() {
            expected[s] = 1.0 + (1..=6).map(|d| expected[s + d]).sum::<f64>() / 6.0;
        }
        assert!((solo.mean - expected[0]).abs() < 1e-10);
        assert_eq!(solo.min, 17);
    }
}
