//! The board as data: 100 squares, the chutes and ladders between them, and the die and
//! overshoot rule a token moves by, validated together.

use super::length::{expected_turns, ExpectedTurns, MAX_EXPECTED_TURNS};
use super::rules::{BoardName, Overshoot, DEFAULT_DIE_SIDES, DIE_SIDES, MILTON_BRADLEY_JUMPS};

/// The finish square: landing on it wins (and, under [`Overshoot::Wins`], passing it).
pub const FINISH: u8 = 100;

/// Number of squares a token can stand on: 0 (the start, off the board) and 1..=99.
pub const SQUARES: usize = 100;

/// Why a list of jumps, with a die and overshoot rule, is not a valid board. A jump is named
/// by its place in the list, from 0, as `board[i]` (the spec's key).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BoardError {
    /// A jump starts outside squares 1..=99 or ends outside 1..=100.
    #[error(
        "board[{index}] = [{from}, {to}] leaves the board: a jump must start on a square in \
         1..=99 (not on the start square 0 or the finish square {FINISH}) and end on a square in \
         1..=100 (a jump to {FINISH} wins)"
    )]
    OffBoard {
        /// The jump's place in the list, from 0.
        index: usize,
        /// Start of the jump.
        from: u8,
        /// End of the jump.
        to: u8,
    },
    /// A jump ends where it starts.
    #[error("board[{index}] = [{square}, {square}] starts and ends on the same square")]
    SelfJump {
        /// The jump's place in the list, from 0.
        index: usize,
        /// The square.
        square: u8,
    },
    /// The same jump is listed twice.
    #[error("board[{index}] = [{from}, {to}] repeats board[{first}]: list each jump once")]
    Duplicate {
        /// The repeat's place in the list, from 0.
        index: usize,
        /// The first listing's place, from 0.
        first: usize,
        /// Start of the jump.
        from: u8,
        /// End of the jump.
        to: u8,
    },
    /// Two jumps start on the same square.
    #[error(
        "board[{index}] starts on square {square}, as board[{first}] does: a square starts at \
         most one chute or ladder"
    )]
    TwoJumps {
        /// The second jump's place in the list, from 0.
        index: usize,
        /// The first jump's place in the list, from 0.
        first: usize,
        /// The square.
        square: u8,
    },
    /// A jump ends on the start of another jump: the rules define no chains (nor the loops
    /// chains could make).
    #[error(
        "board[{index}] = [{from}, {to}] ends on square {to}, where board[{next}] starts: the \
         rules define no chains of jumps, so no square may both end one jump and start another"
    )]
    LandsOnJump {
        /// The jump's place in the list, from 0.
        index: usize,
        /// Start of the jump.
        from: u8,
        /// End of the jump, which starts another jump.
        to: u8,
        /// The place of the jump starting on `to`, from 0.
        next: usize,
    },
    /// The die has too few or too many sides.
    #[error(
        "die_sides = {sides} is outside {}..={}: the die (or spinner) shows 1 to die_sides",
        DIE_SIDES.start(),
        DIE_SIDES.end()
    )]
    DieSides {
        /// The rejected number of sides.
        sides: u8,
    },
    /// A square reachable from the start cannot reach the finish, so a game might never end.
    #[error(
        "the board cannot be finished: square {square} can be reached from the start but square \
         {FINISH} cannot be reached from it with a {sides}-sided die and overshoot = \"{}\", so \
         a game might never end",
        overshoot.name()
    )]
    Unfinishable {
        /// The lowest such square.
        square: u8,
        /// The die's sides.
        sides: u8,
        /// The overshoot rule.
        overshoot: Overshoot,
    },
    /// A player alone needs more turns on average than the engine plays to: from the start or
    /// from some square a token can reach, the expected turns exceed [`MAX_EXPECTED_TURNS`].
    #[error(
        "a player alone needs {} turns on average to finish from square {square} ({} from the \
         start) with a {sides}-sided die and overshoot = \"{}\": more than the {} the engine \
         plays a board to (a game, and the exact tables, would not finish in reasonable time)",
        turns_text(*turns),
        turns_text(*from_start),
        overshoot.name(),
        turns_text(MAX_EXPECTED_TURNS)
    )]
    TooLong {
        /// The most expected turns, from `square`.
        turns: f64,
        /// The square a token needs the most turns from.
        square: u8,
        /// The expected turns from the start.
        from_start: f64,
        /// The die's sides.
        sides: u8,
        /// The overshoot rule.
        overshoot: Overshoot,
    },
}

/// Expected turns in words: a whole number below a million, else in scientific notation
/// ("more than 1e300" when too many for `f64` to solve).
fn turns_text(turns: f64) -> String {
    if !turns.is_finite() {
        "more than 1e300".to_string()
    } else if turns < 1e6 {
        format!("{turns:.0}")
    } else {
        format!("{turns:.2e}")
    }
}

/// A board: where each square sends a token that lands on it, and the die and overshoot rule
/// a token moves by. Built from data, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    dest: [u8; SQUARES],
    jumps: Vec<(u8, u8)>,
    die_sides: u8,
    overshoot: Overshoot,
}

impl Board {
    /// Builds a board from (from, to) jumps (a ladder when `to > from`, a chute otherwise),
    /// played with the standard d6 where reaching or passing the finish wins.
    ///
    /// Jumps start on squares 1..=99 and end on 1..=100 (a jump to 100 wins), no jump is listed
    /// twice, no square may start two jumps, no jump may end on the start of another, every
    /// square reachable from the start must be able to reach the finish, and a player alone
    /// must need at most [`MAX_EXPECTED_TURNS`] turns on average from each of those squares.
    pub fn from_jumps(jumps: &[(u8, u8)]) -> Result<Board, BoardError> {
        Board::new(jumps, DEFAULT_DIE_SIDES, Overshoot::Wins)
    }

    /// Builds a board from (from, to) jumps played with a die of `die_sides` sides (in
    /// [`DIE_SIDES`]) under the `overshoot` rule, checked as [`Board::from_jumps`] says; the
    /// finish must be reachable with this die and rule, soon enough on average.
    pub fn new(
        jumps: &[(u8, u8)],
        die_sides: u8,
        overshoot: Overshoot,
    ) -> Result<Board, BoardError> {
        if !DIE_SIDES.contains(&die_sides) {
            return Err(BoardError::DieSides { sides: die_sides });
        }
        let mut dest: [u8; SQUARES] = std::array::from_fn(|s| s as u8);
        // The place of the jump starting on each square, if one does.
        let mut starts: [Option<usize>; SQUARES] = [None; SQUARES];
        for (index, &(from, to)) in jumps.iter().enumerate() {
            if !(1..FINISH).contains(&from) || !(1..=FINISH).contains(&to) {
                return Err(BoardError::OffBoard { index, from, to });
            }
            if from == to {
                return Err(BoardError::SelfJump {
                    index,
                    square: from,
                });
            }
            if let Some(first) = starts[usize::from(from)] {
                return Err(if dest[usize::from(from)] == to {
                    BoardError::Duplicate {
                        index,
                        first,
                        from,
                        to,
                    }
                } else {
                    BoardError::TwoJumps {
                        index,
                        first,
                        square: from,
                    }
                });
            }
            dest[usize::from(from)] = to;
            starts[usize::from(from)] = Some(index);
        }
        for (index, &(from, to)) in jumps.iter().enumerate() {
            if let Some(&Some(next)) = starts.get(usize::from(to)) {
                return Err(BoardError::LandsOnJump {
                    index,
                    from,
                    to,
                    next,
                });
            }
        }
        let mut sorted = jumps.to_vec();
        sorted.sort_unstable();
        let board = Board {
            dest,
            jumps: sorted,
            die_sides,
            overshoot,
        };
        if let Some(square) = board.first_trap() {
            return Err(BoardError::Unfinishable {
                square,
                sides: die_sides,
                overshoot,
            });
        }
        let turns = board.expected_turns();
        // Infinite (or not a number) turns are refused too.
        if turns.longest.is_nan() || turns.longest > MAX_EXPECTED_TURNS {
            return Err(BoardError::TooLong {
                turns: turns.longest,
                square: turns.square,
                from_start: turns.from_start,
                sides: die_sides,
                overshoot,
            });
        }
        Ok(board)
    }

    /// The expected turns of a player alone, from the start and at most (see
    /// [`ExpectedTurns`]), solved exactly from the chain.
    pub fn expected_turns(&self) -> ExpectedTurns {
        expected_turns(self, &self.reached())
    }

    /// The standard Milton Bradley board (nine ladders, ten chutes) with the standard rules.
    pub fn milton_bradley() -> Board {
        Board::from_jumps(&MILTON_BRADLEY_JUMPS).expect("the Milton Bradley board is valid")
    }

    /// The jumps, sorted by start square.
    pub fn jumps(&self) -> &[(u8, u8)] {
        &self.jumps
    }

    /// The die's sides: a roll is 1..=`die_sides`, each equally likely.
    pub fn die_sides(&self) -> u8 {
        self.die_sides
    }

    /// What a roll that would pass the finish does.
    pub fn overshoot(&self) -> Overshoot {
        self.overshoot
    }

    /// Where the jump starting on `square` ends, if one does.
    pub fn jump_at(&self, square: u8) -> Option<u8> {
        let to = *self.dest.get(usize::from(square))?;
        (to != square).then_some(to)
    }

    /// Where a token on `square` ends after rolling `roll`: [`FINISH`] when it lands on the
    /// finish (or passes it, under [`Overshoot::Wins`]); `square` itself when the roll would
    /// pass the finish under [`Overshoot::Stays`]; otherwise the square landed on after
    /// following its chute or ladder.
    #[inline]
    pub fn advance(&self, square: u8, roll: u8) -> u8 {
        let landed = square.saturating_add(roll);
        if landed < FINISH {
            self.dest[usize::from(landed)]
        } else if landed == FINISH || self.overshoot == Overshoot::Wins {
            FINISH
        } else {
            square
        }
    }

    /// The board and its rules in words, for reports: "the standard Milton Bradley board (9
    /// ladders, 10 chutes)" under the standard rules, else what differs from them.
    pub fn describe(&self) -> String {
        let sorted = |mut jumps: Vec<(u8, u8)>| {
            jumps.sort_unstable();
            jumps
        };
        let ladders = self.jumps.iter().filter(|(from, to)| to > from).count();
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let counts = format!(
            "{}, {}",
            plural(ladders, "ladder"),
            plural(self.jumps.len() - ladders, "chute")
        );
        let mut text = if self.jumps == sorted(BoardName::MiltonBradley.jumps()) {
            format!("the standard Milton Bradley board ({counts})")
        } else if self.jumps == sorted(BoardName::MiltonBradley48.jumps()) {
            format!("the Milton Bradley board with the chute 47 -> 26 starting on 48 ({counts})")
        } else {
            format!("a board of {counts}")
        };
        if self.die_sides != DEFAULT_DIE_SIDES {
            text += &format!(", rolling 1 to {}", self.die_sides);
        }
        if self.overshoot == Overshoot::Stays {
            text += ", landing exactly on 100 to win (a roll past it leaves the token in place)";
        }
        text
    }

    /// The rolls a die of this board shows.
    pub fn rolls(&self) -> std::ops::RangeInclusive<u8> {
        1..=self.die_sides
    }

    /// The squares a token can stand on after some rolls from square 0 (0 included).
    fn reached(&self) -> [bool; SQUARES] {
        let mut reached = [false; SQUARES];
        reached[0] = true;
        let mut stack = vec![0u8];
        while let Some(square) = stack.pop() {
            for roll in self.rolls() {
                let to = self.advance(square, roll);
                if to != FINISH && !reached[usize::from(to)] {
                    reached[usize::from(to)] = true;
                    stack.push(to);
                }
            }
        }
        reached
    }

    /// The lowest square reachable from 0 from which the finish cannot be reached.
    fn first_trap(&self) -> Option<u8> {
        let mut can_finish = [false; SQUARES];
        let mut changed = true;
        while changed {
            changed = false;
            for square in (0..FINISH).rev() {
                if !can_finish[usize::from(square)]
                    && self.rolls().any(|roll| {
                        let to = self.advance(square, roll);
                        to == FINISH || can_finish[usize::from(to)]
                    })
                {
                    can_finish[usize::from(square)] = true;
                    changed = true;
                }
            }
        }
        let reached = self.reached();
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
    fn invalid_boards_are_rejected_with_located_messages() {
        type Case = (&'static [(u8, u8)], BoardError, &'static str);
        let cases: [Case; 8] = [
            (
                &[(0, 5)],
                BoardError::OffBoard {
                    index: 0,
                    from: 0,
                    to: 5,
                },
                "board[0] = [0, 5] leaves the board: a jump must start on a square in 1..=99",
            ),
            (
                &[(3, 4), (100, 50)],
                BoardError::OffBoard {
                    index: 1,
                    from: 100,
                    to: 50,
                },
                "finish square 100",
            ),
            (
                &[(5, 101)],
                BoardError::OffBoard {
                    index: 0,
                    from: 5,
                    to: 101,
                },
                "1..=100",
            ),
            (
                &[(5, 5)],
                BoardError::SelfJump {
                    index: 0,
                    square: 5,
                },
                "same square",
            ),
            (
                &[(5, 10), (7, 2), (5, 20)],
                BoardError::TwoJumps {
                    index: 2,
                    first: 0,
                    square: 5,
                },
                "board[2] starts on square 5, as board[0] does",
            ),
            (
                &[(5, 10), (5, 10)],
                BoardError::Duplicate {
                    index: 1,
                    first: 0,
                    from: 5,
                    to: 10,
                },
                "board[1] = [5, 10] repeats board[0]",
            ),
            (
                &[(5, 10), (10, 20)],
                BoardError::LandsOnJump {
                    index: 0,
                    from: 5,
                    to: 10,
                    next: 1,
                },
                "no chains",
            ),
            (
                &[(94, 2), (95, 2), (96, 2), (97, 2), (98, 2), (99, 2)],
                BoardError::Unfinishable {
                    square: 0,
                    sides: 6,
                    overshoot: Overshoot::Wins,
                },
                "never end",
            ),
        ];
        for (jumps, error, phrase) in cases {
            let got = Board::from_jumps(jumps).expect_err("invalid board");
            assert_eq!(got, error);
            assert!(got.to_string().contains(phrase), "{got}");
        }
        // A chute onto its own ladder's foot makes a loop only through a chain: refused.
        let looped = Board::from_jumps(&[(10, 30), (30, 10)]).expect_err("a loop");
        assert!(matches!(looped, BoardError::LandsOnJump { .. }), "{looped}");
        assert!(Board::from_jumps(&[]).is_ok());
        assert!(Board::from_jumps(&[(50, 100), (99, 1)]).is_ok());
    }

    #[test]
    fn the_die_and_overshoot_rule_decide_whether_a_board_can_finish() {
        for sides in [0, 101] {
            let error = Board::new(&[], sides, Overshoot::Wins).expect_err("no such die");
            assert_eq!(error, BoardError::DieSides { sides });
            assert!(error.to_string().contains("outside 1..=100"), "{error}");
        }
        // Rolling only ones, a token cycles 24..=28 -> 84..=87 -> 24 on the standard board.
        let error = Board::new(&MILTON_BRADLEY_JUMPS, 1, Overshoot::Wins).expect_err("a cycle");
        assert!(matches!(error, BoardError::Unfinishable { sides: 1, .. }));
        assert!(error.to_string().contains("1-sided die"), "{error}");
        assert!(Board::new(&[], 1, Overshoot::Stays).is_ok());
        // With a 2-sided die no token can stand on 98 or 99, both chutes, so none finishes;
        // a 3-sided die finishes from 97.
        let walled = [(98, 1), (99, 1)];
        let error = Board::new(&walled, 2, Overshoot::Stays).expect_err("walled off");
        assert!(matches!(error, BoardError::Unfinishable { square: 0, .. }));
        assert!(
            error.to_string().contains("overshoot = \"stays\""),
            "{error}"
        );
        assert!(Board::new(&walled, 3, Overshoot::Stays).is_ok());
    }

    #[test]
    fn exact_landing_leaves_an_overshooting_token_where_it_is() {
        let board = Board::new(&MILTON_BRADLEY_JUMPS, 6, Overshoot::Stays).expect("valid");
        assert_eq!(board.overshoot(), Overshoot::Stays);
        assert_eq!(board.advance(97, 3), FINISH);
        assert_eq!(board.advance(97, 4), 97);
        assert_eq!(board.advance(99, 1), FINISH);
        assert_eq!(board.advance(99, 2), 99);
        assert_eq!(board.advance(94, 6), FINISH);
        assert_eq!(board.advance(78, 2), FINISH, "ladder 80 -> 100");
        assert_eq!(
            Board::milton_bradley().describe(),
            "the standard Milton Bradley board (9 ladders, 10 chutes)"
        );
        let misprint = Board::new(&BoardName::MiltonBradley48.jumps(), 15, Overshoot::Stays);
        assert_eq!(
            misprint.expect("valid").describe(),
            "the Milton Bradley board with the chute 47 -> 26 starting on 48 (9 ladders, 10 \
             chutes), rolling 1 to 15, landing exactly on 100 to win (a roll past it leaves the \
             token in place)"
        );
        let own = Board::from_jumps(&[(3, 40), (45, 2)]).expect("valid");
        assert_eq!(own.describe(), "a board of 1 ladder, 1 chute");
        let spinner = Board::new(&MILTON_BRADLEY_JUMPS, 15, Overshoot::Wins).expect("valid");
        assert_eq!(spinner.rolls(), 1..=15);
        assert_eq!(spinner.advance(90, 15), FINISH);
        assert_eq!(spinner.advance(0, 15), 15);
        assert_eq!(spinner.advance(0, 9), 31);
    }
}
