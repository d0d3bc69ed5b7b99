//! The doubling cube: who may double, the players' two decisions, and the cube game itself.

use super::board::{Board, FINISH};
use super::race::DiceSource;

/// The default cap on the doubling cube.
pub const DEFAULT_MAX_CUBE: u32 = 1024;

/// Who owns the doubling cube, from the deciding player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeOwner {
    /// In the middle: either player may double.
    Centre,
    /// The deciding player owns it.
    Me,
    /// The opponent owns it.
    Them,
}

impl CubeOwner {
    /// The same owner seen from the other player's side.
    pub fn flipped(self) -> CubeOwner {
        match self {
            CubeOwner::Centre => CubeOwner::Centre,
            CubeOwner::Me => CubeOwner::Them,
            CubeOwner::Them => CubeOwner::Me,
        }
    }
}

/// The cube as a deciding player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeView {
    /// The current stake (before any double being decided on).
    pub stake: u32,
    /// Who owns the cube, from the deciding player's view.
    pub owner: CubeOwner,
}

/// A betting player: its only two decisions, whether to double before its roll and whether to
/// take a double its opponent offers.
pub trait Player {
    /// At the start of this player's turn, before rolling: double? Asked only when doubling is
    /// legal (the cube is centred or mine, and the doubled stake stays within the cap).
    fn should_double(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool;

    /// The opponent has just doubled: take (`true`) or drop? `cube` is the cube before the
    /// double, from this player's view (owner `Centre` or `Them`); `their_square` is the
    /// doubler's square, and the doubler rolls next.
    fn should_take(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool;
}

/// Why a cube cap is invalid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CubeError {
    /// The cap is not a power of two.
    #[error("max_cube must be a power of two (1, 2, 4, ..., 2147483648), got {max_cube}")]
    MaxCubeNotPowerOfTwo {
        /// The rejected cap.
        max_cube: u32,
    },
}

/// The number of doublings a cap allows (log2 of `max_cube`), or an error when it is not a
/// power of two.
pub fn cube_levels(max_cube: u32) -> Result<u32, CubeError> {
    if max_cube.is_power_of_two() {
        Ok(max_cube.trailing_zeros())
    } else {
        Err(CubeError::MaxCubeNotPowerOfTwo { max_cube })
    }
}

/// What one cube game produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeOutcome {
    /// Player 1's winnings: +stake or -stake.
    pub payoff: i64,
    /// The stake paid: the stake at the end, or the pre-double stake after a drop.
    pub final_stake: u32,
    /// Whether the game ended by a dropped double.
    pub dropped: bool,
    /// Whether a taken double brought the stake to the cap.
    pub cap_reached: bool,
    /// Doubles offered, including a dropped one.
    pub doubles: u32,
    /// Moves (dice rolls) made by both players.
    pub turns: u32,
    /// Whether player 1 won (by finishing first or by the opponent's drop).
    pub p1_won: bool,
}

/// Plays one cube game between `p1` (moving first) and `p2`, returning player 1's result.
///
/// A double is offered only if the doubled stake (checked arithmetic) is at most `max_cube`, so
/// every stake is a power of two no larger than `max_cube` (and 1 when `max_cube < 2`).
pub fn run_game<A, B, D>(p1: &A, p2: &B, board: &Board, max_cube: u32, dice: &mut D) -> CubeOutcome
where
    A: Player + ?Sized,
    B: Player + ?Sized,
    D: DiceSource + ?Sized,
{
    let mut squares = [0u8; 2];
    let mut mover = 0usize;
    let mut stake: u32 = 1;
    // None: centred; Some(i): player i owns the cube.
    let mut owner: Option<usize> = None;
    let mut doubles = 0;
    let mut turns = 0;
    let mut cap_reached = false;
    let finish = |winner: usize, stake: u32, dropped, doubles, turns, cap_reached| {
        let p1_won = winner == 0;
        CubeOutcome {
            payoff: if p1_won {
                i64::from(stake)
            } else {
                -i64::from(stake)
            },
            final_stake: stake,
            dropped,
            cap_reached,
            doubles,
            turns,
            p1_won,
        }
    };
    loop {
        let other = mover ^ 1;
        let doubled = stake.checked_mul(2).filter(|&next| next <= max_cube);
        if let (Some(doubled), true) = (doubled, owner != Some(other)) {
            let seen_by_mover = if owner.is_none() {
                CubeOwner::Centre
            } else {
                CubeOwner::Me
            };
            let (mine, theirs) = (squares[mover], squares[other]);
            let mover_view = CubeView {
                stake,
                owner: seen_by_mover,
            };
            let doubles_now = if mover == 0 {
                p1.should_double(mine, theirs, mover_view)
            } else {
                p2.should_double(mine, theirs, mover_view)
            };
            if doubles_now {
                doubles += 1;
                let taker_view = CubeView {
                    stake,
                    owner: seen_by_mover.flipped(),
                };
                let takes = if other == 0 {
                    p1.should_take(theirs, mine, taker_view)
                } else {
                    p2.should_take(theirs, mine, taker_view)
                };
                if !takes {
                    return finish(mover, stake, true, doubles, turns, cap_reached);
                }
                stake = doubled;
                owner = Some(other);
                cap_reached |= stake == max_cube;
            }
        }
        let roll = dice.roll(mover, board.die_sides());
        turns += 1;
        let to = board.advance(squares[mover], roll);
        if to == FINISH {
            return finish(mover, stake, false, doubles, turns, cap_reached);
        }
        squares[mover] = to;
        mover = other;
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::super::testing::{p1_path_dice, ScriptedDice};
    use super::*;
    use experiment_engine::rng::trial_rng;

    /// A configurable player recording every question it is asked.
    struct Recorder {
        doubles: bool,
        takes_below: u32,
        asked: RefCell<Vec<(&'static str, u8, u8, CubeView)>>,
    }

    impl Recorder {
        fn new(doubles: bool, takes_below: u32) -> Self {
            Recorder {
                doubles,
                takes_below,
                asked: RefCell::new(Vec::new()),
            }
        }
    }

    impl Player for Recorder {
        fn should_double(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
            self.asked
                .borrow_mut()
                .push(("double", my_square, their_square, cube));
            self.doubles
        }

        fn should_take(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
            self.asked
                .borrow_mut()
                .push(("take", my_square, their_square, cube));
            cube.stake < self.takes_below
        }
    }

    fn view(stake: u32, owner: CubeOwner) -> CubeView {
        CubeView { stake, owner }
    }

    #[test]
    fn without_doubles_the_cube_game_is_the_base_race_for_one() {
        let board = Board::milton_bradley();
        let script = [4, 1, 6, 1, 1, 1, 6, 1, 3, 1, 4, 1, 6, 1, 6];
        let never = Recorder::new(false, u32::MAX);
        let outcome = run_game(
            &never,
            &never,
            &board,
            1024,
            &mut ScriptedDice::new(&script),
        );
        assert_eq!((outcome.payoff, outcome.turns, outcome.doubles), (1, 15, 0));
        assert!(outcome.p1_won && !outcome.dropped && !outcome.cap_reached);
        assert_eq!(
            never.asked.borrow().len(),
            15,
            "asked to double before each roll"
        );
    }

    #[test]
    fn cube_ownership_passes_to_the_taker() {
        let board = Board::milton_bradley();
        let (p1, p2) = (Recorder::new(true, u32::MAX), Recorder::new(true, u32::MAX));
        let outcome = run_game(&p1, &p2, &board, 8, &mut p1_path_dice(vec![]));
        let p1_asked = p1.asked.borrow();
        let p2_asked = p2.asked.borrow();
        // Turn 1: centred, player 1 doubles, player 2 takes and owns the cube at 2.
        assert_eq!(p1_asked[0], ("double", 0, 0, view(1, CubeOwner::Centre)));
        assert_eq!(p2_asked[0], ("take", 0, 0, view(1, CubeOwner::Centre)));
        // Turn 2: player 2 (on 0, player 1 on 6) redoubles; player 1 takes and owns it at 4.
        assert_eq!(p2_asked[1], ("double", 0, 6, view(2, CubeOwner::Me)));
        assert_eq!(p1_asked[1], ("take", 6, 0, view(2, CubeOwner::Them)));
        // Turn 3: player 1 (6, player 2 on 38) doubles to the cap of 8.
        assert_eq!(p1_asked[2], ("double", 6, 38, view(4, CubeOwner::Me)));
        assert_eq!(p2_asked[2], ("take", 38, 6, view(4, CubeOwner::Them)));
        // At the cap nobody is asked again.
        assert_eq!((p1_asked.len(), p2_asked.len()), (3, 3));
        assert_eq!(outcome.final_stake, 8);
        assert!(outcome.cap_reached && !outcome.dropped && outcome.p1_won);
        assert_eq!((outcome.doubles, outcome.payoff), (3, 8));
    }

    #[test]
    fn a_drop_pays_the_pre_double_stake() {
        let board = Board::milton_bradley();
        // Player 1 doubles to 2; player 2 takes and redoubles; player 1 drops at stake 2.
        let (p1, p2) = (Recorder::new(true, 2), Recorder::new(true, u32::MAX));
        let outcome = run_game(&p1, &p2, &board, 1024, &mut ScriptedDice::new(&[3]));
        assert_eq!(
            outcome,
            CubeOutcome {
                payoff: -2,
                final_stake: 2,
                dropped: true,
                cap_reached: false,
                doubles: 2,
                turns: 1,
                p1_won: false,
            }
        );
        // Player 2 drops player 1's first double: player 1 wins the stake of 1 unrolled.
        let (p1, p2) = (Recorder::new(true, 0), Recorder::new(false, 0));
        let outcome = run_game(&p1, &p2, &board, 1024, &mut ScriptedDice::new(&[]));
        assert_eq!(
            (outcome.payoff, outcome.turns, outcome.dropped),
            (1, 0, true)
        );
    }

    #[test]
    fn a_cap_of_one_means_no_doubles_are_offered() {
        let board = Board::milton_bradley();
        let (p1, p2) = (Recorder::new(true, u32::MAX), Recorder::new(true, u32::MAX));
        let outcome = run_game(&p1, &p2, &board, 1, &mut trial_rng(3, 0, 0));
        assert!(p1.asked.borrow().is_empty() && p2.asked.borrow().is_empty());
        assert_eq!((outcome.final_stake, outcome.doubles), (1, 0));
        assert!(!outcome.cap_reached);
    }

    #[test]
    fn caps_must_be_powers_of_two() {
        assert_eq!(cube_levels(1), Ok(0));
        assert_eq!(cube_levels(1024), Ok(10));
        let error = cube_levels(1000).expect_err("not a power of two");
        assert_eq!(error, CubeError::MaxCubeNotPowerOfTwo { max_cube: 1000 });
        assert_eq!(
            error.to_string(),
            "max_cube must be a power of two (1, 2, 4, ..., 2147483648), got 1000"
        );
        assert!(cube_levels(0).is_err());
    }
}
