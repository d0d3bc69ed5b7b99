//! The board as data: 100 squares, the chutes and ladders between them, validated.

/// The finish square: reaching or passing it wins.
pub const FINISH: u8 = 100;

/// Number of squares a token can stand on: 0 (the start, off the board) and 1..=99.
pub const SQUARES: usize = 100;

/// The ladders and chutes of the standard Milton Bradley board, as (from, to).
pub const MILTON_BRADLEY_JUMPS: [(u8, u8); 19] = [
    (1, 38),
    (4, 14),
    (9, 31),
    (21, 42),
    (28, 84),
    (36, 44),
    (51, 67),
    (71, 91),
    (80, 100),
    (16, 6),
    (47, 26),
    (49, 11),
    (56, 53),
    (62, 19),
    (64, 60),
    (87, 24),
    (93, 73),
    (95, 75),
    (98, 78),
];

/// Why a list of jumps is not a valid board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A jump starts outside squares 1..=99 or ends outside 1..=100.
    #[error(
        "jump {from} -> {to} leaves the board: a jump must start on a square in 1..=99 \
         (none may start on the finish square {FINISH}) and end on a square in 1..=100"
    )]
    OffBoard {
        /// Start of the jump.
        from: u8,
        /// End of the jump.
        to: u8,
    },
    /// A jump ends where it starts.
    #[error("jump {square} -> {square} starts and ends on the same square")]
    SelfJump {
        /// The square.
        square: u8,
    },
    /// Two jumps start on the same square.
    #[error("square {square} starts two jumps")]
    TwoJumps {
        /// The square.
        square: u8,
    },
    /// A jump ends on the start of another jump.
    #[error("jump {from} -> {to} ends on square {to}, which starts another jump")]
    LandsOnJump {
        /// Start of the jump.
        from: u8,
        /// End of the jump, which starts another jump.
        to: u8,
    },
    /// A square reachable from the start cannot reach the finish, so a game might never end.
    #[error(
        "square {square} can be reached from the start but square {FINISH} cannot be \
         reached from it, so a game might never end"
    )]
    Unfinishable {
        /// The lowest such square.
        square: u8,
    },
}

/// A board: where each square sends a token that lands on it. Built from data, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    dest: [u8; SQUARES],
    jumps: Vec<(u8, u8)>,
}

impl Board {
    /// Builds a board from (from, to) jumps: a ladder when `to > from`, a chute otherwise.
    ///
    /// Jumps start on squares 1..=99 and end on 1..=100 (a jump to 100 wins), no square may
    /// start two jumps, no jump may end on the start of another, and every square reachable
    /// from the start must be able to reach the finish.
    pub fn from_jumps(jumps: &[(u8, u8)]) -> Result<Board, BoardError> {
        let mut dest: [u8; SQUARES] = std::array::from_fn(|s| s as u8);
        for &(from, to) in jumps {
            if !(1..FINISH).contains(&from) || !(1..=FINISH).contains(&to) {
                return Err(BoardError::OffBoard { from, to });
            }
            if from == to {
                return Err(BoardError::SelfJump { square: from });
            }
            if dest[usize::from(from)] != from {
                return Err(BoardError::TwoJumps { square: from });
            }
            dest[usize::from(from)] = to;
        }
        if let Some(&(from, to)) = jumps
            .iter()
            .find(|&&(_, to)| dest.get(usize::from(to)).is_some_and(|&d| d != to))
        {
            return Err(BoardError::LandsOnJump { from, to });
        }
        let mut sorted = jumps.to_vec();
        sorted.sort_unstable();
        let board = Board {
            dest,
            jumps: sorted,
        };
        match board.first_trap() {
            Some(square) => Err(BoardError::Unfinishable { square }),
            None => Ok(board),
        }
    }

    /// The standard Milton Bradley board (nine ladders, ten chutes).
    pub fn milton_bradley() -> Board {
        Board::from_jumps(&MILTON_BRADLEY_JUMPS).expect("the Milton Bradley board is valid")
    }

    /// The jumps, sorted by start square.
    pub fn jumps(&self) -> &[(u8, u8)] {
        &self.jumps
    }

    /// Where the jump starting on `square` ends, if one does.
    pub fn jump_at(&self, square: u8) -> Option<u8> {
        let to = *self.dest.get(usize::from(square))?;
        (to != square).then_some(to)
    }

    /// Where a token on `square` ends after rolling `roll`: [`FINISH`] when it reaches or passes
    /// the finish, otherwise the square landed on after following its chute or ladder.
    #[inline]
    pub fn advance(&self, square: u8, roll: u8) -> u8 {
        let landed = square.saturating_add(roll);
        if landed >= FINISH {
            FINISH
        } else {
            self.dest[usize::from(landed)]
        }
    }

    /// The lowest square reachable from 0 from which the finish cannot be reached.
    fn first_trap(&self) -> Option<u8> {
        let mut can_finish = [false; SQUARES];
        let mut changed = true;
        while changed {
            changed = false;
            for square in (0..FINISH).rev() {
                if !can_finish[usize::from(square)]
                    && (1..=6).any(|roll| {
                        let to = self.advance(square, roll);
                        to == FINISH || can_finish[usize::from(to)]
                    })
                {
                    can_finish[usize::from(square)] = true;
                    changed = true;
                }
            }
        }
        let mut reached = [false; SQUARES];
        reached[0] = true;
        let mut stack = vec![0u8];
        while let Some(square) = stack.pop() {
            for roll in 1..=6 {
                let to = self.advance(square, roll);
                if to != FINISH && !reached[usize::from(to)] {
                    reached[usize::from(to)] = true;
                    stack.push(to);
                }
            }
        }
        (0..FINISH).find(|&s| reached[usize::from(s)] && !can_finish[usize::from(s)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milton_bradley_board_holds_exactly_the_listed_jumps() {
        let board = Board::milton_bradley();
        assert_eq!(board.jumps().len(), 19);
        for (from, to) in MILTON_BRADLEY_JUMPS {
            assert_eq!(board.jump_at(from), Some(to), "jump from {from}");
        }
        let starts: Vec<u8> = MILTON_BRADLEY_JUMPS.iter().map(|j| j.0).collect();
        for square in (1..FINISH).filter(|s| !starts.contains(s)) {
            assert_eq!(board.jump_at(square), None, "square {square}");
            assert_eq!(board.advance(square - 1, 1), square);
        }
        assert_eq!(board.jump_at(0), None);
        assert_eq!(board.jump_at(FINISH), None);
        let ladders = board.jumps().iter().filter(|(f, t)| t > f).count();
        assert_eq!(ladders, 9);
    }

    #[test]
    fn overshooting_one_hundred_wins_and_a_ladder_to_one_hundred_wins() {
        let board = Board::milton_bradley();
        assert_eq!(board.advance(97, 6), FINISH);
        assert_eq!(board.advance(99, 1), FINISH);
        assert_eq!(board.advance(94, 6), FINISH);
        assert_eq!(board.advance(94, 5), 99);
        assert_eq!(board.advance(78, 2), FINISH, "ladder 80 -> 100");
    }

    #[test]
    fn invalid_boards_are_rejected_with_clear_messages() {
        type Case = (&'static [(u8, u8)], BoardError, &'static str);
        let cases: [Case; 7] = [
            (&[(0, 5)], BoardError::OffBoard { from: 0, to: 5 }, "1..=99"),
            (
                &[(100, 50)],
                BoardError::OffBoard { from: 100, to: 50 },
                "finish square 100",
            ),
            (
                &[(5, 101)],
                BoardError::OffBoard { from: 5, to: 101 },
                "1..=100",
            ),
            (&[(5, 5)], BoardError::SelfJump { square: 5 }, "same square"),
            (
                &[(5, 10), (5, 20)],
                BoardError::TwoJumps { square: 5 },
                "two jumps",
            ),
            (
                &[(5, 10), (10, 20)],
                BoardError::LandsOnJump { from: 5, to: 10 },
                "starts another jump",
            ),
            (
                &[(94, 2), (95, 2), (96, 2), (97, 2), (98, 2), (99, 2)],
                BoardError::Unfinishable { square: 0 },
                "never end",
            ),
        ];
        for (jumps, error, phrase) in cases {
            let got = Board::from_jumps(jumps).expect_err("invalid board");
            assert_eq!(got, error);
            assert!(got.to_string().contains(phrase), "{got}");
        }
        assert!(Board::from_jumps(&[]).is_ok());
        assert!(Board::from_jumps(&[(50, 100), (99, 1)]).is_ok());
    }
}
