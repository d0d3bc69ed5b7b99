//! The exact cubeless win probability of every position.

use super::{change, Moves, POSITIONS, TOLERANCE};
use crate::games::chutes::{Board, FINISH, SQUARES};

/// The exact cubeless win probability of the player to move, for every position.
#[derive(Clone)]
pub struct WinTable {
    /// `w[a * 100 + b]`: P(the mover, on `a`, wins | opponent on `b`).
    pub(super) w: Vec<f64>,
}

impl WinTable {
    /// Solves the table for `board` (value iteration to a change below 1e-14).
    pub fn solve(board: &Board) -> WinTable {
        let moves = Moves::new(board);
        let mut w = vec![0.5; POSITIONS];
        loop {
            let mut delta: f64 = 0.0;
            for &p in &moves.order {
                let p = usize::from(p);
                let (a, b) = (p / SQUARES, p % SQUARES);
                let mut sum = 0.0;
                for &to in &moves.next[a] {
                    sum += if to == FINISH {
                        1.0
                    } else {
                        1.0 - w[b * SQUARES + usize::from(to)]
                    };
                }
                let value = sum / 6.0;
                delta = delta.max(change(w[p], value));
                w[p] = value;
            }
            if delta < TOLERANCE {
                return WinTable { w };
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
    use crate::exact::chutes::{first_player_win_probability, solo_turns};

    fn board() -> Board {
        Board::milton_bradley()
    }

    #[test]
    fn win_table_matches_independent_turn_distributions() {
        // The players move independently: player 1 wins iff T1 <= T2.
        let solo = solo_turns(&board());
        let mut unfinished = 1.0;
        let mut p1 = 0.0;
        for &p in &solo.probs {
            p1 += p * unfinished;
            unfinished -= p;
        }
        let win = WinTable::solve(&board());
        assert!((win.first_player_wins() - p1).abs() < 1e-10);
        assert_eq!(
            first_player_win_probability(&board()),
            win.first_player_wins()
        );
        assert!((win.win_probability(0, 0, false) - (1.0 - p1)).abs() < 1e-10);
        assert_eq!(win.mover_wins(FINISH, 3), 1.0);
        assert_eq!(win.mover_wins(3, FINISH), 0.0);
    }
}
