//! The exact cubeless win probability of every position.

use super::{change, Moves, POSITIONS};
use crate::exact::sweeps::{NotConverged, Sweeps, TOLERANCE};
use crate::game::{Board, FINISH, SQUARES};

/// The exact cubeless win probability of the player to move, for every position.
#[derive(Clone)]
pub struct WinTable {
    /// `w[a * 100 + b]`: P(the mover, on `a`, wins | opponent on `b`).
    pub(super) w: Vec<f64>,
}

impl WinTable {
    /// Solves the table for `board` (value iteration to a change below 1e-14, or to the
    /// rounding floor; see [`crate::exact::sweeps`]).
    pub fn solve(board: &Board) -> Result<WinTable, NotConverged> {
        let moves = Moves::new(board);
        let mut w = vec![0.5; POSITIONS];
        let mut sweeps = Sweeps::new("cubeless win table");
        loop {
            let mut delta: f64 = 0.0;
            for &p in &moves.order {
                let p = usize::from(p);
                let (a, b) = (p / SQUARES, p % SQUARES);
                let mut sum = 0.0;
                for &to in moves.next(a) {
                    sum += if to == FINISH {
                        1.0
                    } else {
                        1.0 - w[b * SQUARES + usize::from(to)]
                    };
                }
                let value = sum / moves.rolls();
                delta = delta.max(change(w[p], value));
                w[p] = value;
            }
            if sweeps.finished(delta >= TOLERANCE, delta)? {
                return Ok(WinTable { w });
            }
        }
    }

    /// P(I win) with me on `my_square`, the opponent on `their_square`, and `my_turn` saying
    /// whether I move next. A square of 100 or more counts as already finished.
    pub fn win_probability(&self, my_square: u8, their_square: u8, my_turn: bool) -> f64 {
        if my_turn {
            self.mover_wins(my_square, their_square)
        } else {
            1.0 - self.mover_wins(their_square, my_square)
        }
    }

    /// P(the player to move wins) with the mover on `mover` and the other player on `other`.
    pub fn mover_wins(&self, mover: u8, other: u8) -> f64 {
        if mover >= FINISH {
            1.0
        } else if other >= FINISH {
            0.0
        } else {
            self.w[usize::from(mover) * SQUARES + usize::from(other)]
        }
    }

    /// P(player 1 wins) from the start.
    pub fn first_player_wins(&self) -> f64 {
        self.w[0]
    }
}

impl std::fmt::Debug for WinTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WinTable")
            .field("first_player_wins", &self.first_player_wins())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{first_player_win_probability, solo_turns};

    fn board() -> Board {
        Board::milton_bradley()
    }

    /// P(player 1 wins) from the independent single-player turn distributions: he wins iff
    /// T1 <= T2.
    fn from_turns(board: &Board) -> f64 {
        let solo = solo_turns(board);
        let mut unfinished = 1.0;
        let mut p1 = 0.0;
        for &p in &solo.probs {
            p1 += p * unfinished;
            unfinished -= p;
        }
        p1
    }

    #[test]
    fn win_table_follows_the_die_and_overshoot_rule() {
        use crate::game::{BoardName, Overshoot};
        let boards = [
            Board::new(&BoardName::MiltonBradley.jumps(), 6, Overshoot::Stays),
            Board::new(&BoardName::MiltonBradley48.jumps(), 10, Overshoot::Wins),
            Board::new(&[(1, 97), (2, 97)], 2, Overshoot::Stays),
        ];
        for board in boards {
            let board = board.expect("valid");
            let win = WinTable::solve(&board).expect("converges");
            let p1 = from_turns(&board);
            assert!((win.first_player_wins() - p1).abs() < 1e-10, "{board:?}");
        }
        let exact = Board::new(&[(1, 97), (2, 97)], 2, Overshoot::Stays).expect("valid");
        let table = WinTable::solve(&exact).expect("converges");
        // By hand: on 99 against 99 under exact landing with a 2-sided die, each turn finishes
        // with probability 1/2, so the mover wins with probability 1/2 + 1/8 + ... = 2/3.
        assert!((table.mover_wins(99, 99) - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn win_table_matches_independent_turn_distributions() {
        let p1 = from_turns(&board());
        let win = WinTable::solve(&board()).expect("converges");
        assert!((win.first_player_wins() - p1).abs() < 1e-10);
        assert_eq!(
            first_player_win_probability(&board()).expect("converges"),
            win.first_player_wins()
        );
        assert!((win.win_probability(0, 0, false) - (1.0 - p1)).abs() < 1e-10);
        assert_eq!(win.mover_wins(FINISH, 3), 1.0);
        assert_eq!(win.mover_wins(3, FINISH), 0.0);
    }
}
