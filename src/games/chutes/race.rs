//! The base race: two tokens, one die, no decisions. The first to reach square 100 wins.

use super::board::{Board, FINISH};
use super::summary::BaseGameSummary;
use crate::games::Game;
use crate::rng::TrialRng;

/// A source of fair d6 rolls: any `rand::Rng`, or a scripted sequence in tests.
pub trait DiceSource {
    /// One roll, 1..=6.
    fn roll_d6(&mut self) -> u8;
}

impl<R: rand::Rng + ?Sized> DiceSource for R {
    #[inline]
    fn roll_d6(&mut self) -> u8 {
        self.random_range(1..=6)
    }
}

/// One move of a base game, as an observer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Who moved: 0 for player 1, 1 for player 2.
    pub player: usize,
    /// The roll, 1..=6.
    pub roll: u8,
    /// The square moved from.
    pub from: u8,
    /// The square the roll reaches before any chute or ladder ([`FINISH`] when it reaches or
    /// passes the finish).
    pub landed: u8,
    /// Where the token ends, after following the chute or ladder on `landed` if there is one
    /// ([`FINISH`] on the winning move).
    pub to: u8,
}

/// Watches a base game move by move (e.g. to print it); called after every move. Any
/// `FnMut(Move)` closure is one.
pub trait RaceObserver {
    /// One move has been made.
    fn moved(&mut self, step: Move);
}

impl<F: FnMut(Move)> RaceObserver for F {
    #[inline]
    fn moved(&mut self, step: Move) {
        self(step)
    }
}

/// What one base game (no cube) produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseOutcome {
    /// Whether player 1 (who moves first) won.
    pub p1_won: bool,
    /// Moves made by both players, up to and including the winning move.
    pub turns: u32,
}

/// Plays one base game, telling `observer` about every move.
pub fn run_base_game_observed<D, O>(board: &Board, dice: &mut D, observer: &mut O) -> BaseOutcome
where
    D: DiceSource + ?Sized,
    O: RaceObserver + ?Sized,
{
    let mut squares = [0u8; 2];
    let mut player = 0;
    let mut turns = 0;
    loop {
        let roll = dice.roll_d6();
        turns += 1;
        let from = squares[player];
        let to = board.advance(from, roll);
        observer.moved(Move {
            player,
            roll,
            from,
            landed: from.saturating_add(roll).min(FINISH),
            to,
        });
        if to == FINISH {
            return BaseOutcome {
                p1_won: player == 0,
                turns,
            };
        }
        squares[player] = to;
        player ^= 1;
    }
}

/// Plays one base game: no cube and no decisions, only whether player 1 won and the moves.
pub fn run_base_game<D: DiceSource + ?Sized>(board: &Board, dice: &mut D) -> BaseOutcome {
    run_base_game_observed(board, dice, &mut |_| {})
}

/// The base game (no cube, no decisions) as an experiment variant.
#[derive(Clone, Debug)]
pub struct BaseGame {
    /// The board played on.
    pub board: Board,
}

impl Game for BaseGame {
    type Outcome = BaseOutcome;
    type Summary = BaseGameSummary;

    fn play(&self, rng: &mut TrialRng) -> BaseOutcome {
        run_base_game(&self.board, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{p1_path_dice, path_landing_on, IndexedDice, ScriptedDice};
    use super::*;

    /// Every move of a game, recorded.
    fn moves<D: DiceSource>(board: &Board, dice: &mut D) -> (Vec<Move>, BaseOutcome) {
        let mut moves = Vec::new();
        let outcome = run_base_game_observed(board, dice, &mut |step| moves.push(step));
        (moves, outcome)
    }

    #[test]
    fn golden_game_replays_scripted_dice_move_by_move() {
        let board = Board::milton_bradley();
        let script = [4, 1, 6, 1, 1, 1, 6, 1, 3, 1, 4, 1, 6, 1, 6];
        let (seen, outcome) = moves(&board, &mut ScriptedDice::new(&script));
        let step = |player, roll, from, landed, to| Move {
            player,
            roll,
            from,
            landed,
            to,
        };
        let expected = [
            step(0, 4, 0, 4, 14),
            step(1, 1, 0, 1, 38),
            step(0, 6, 14, 20, 20),
            step(1, 1, 38, 39, 39),
            step(0, 1, 20, 21, 42),
            step(1, 1, 39, 40, 40),
            step(0, 6, 42, 48, 48),
            step(1, 1, 40, 41, 41),
            step(0, 3, 48, 51, 67),
            step(1, 1, 41, 42, 42),
            step(0, 4, 67, 71, 91),
            step(1, 1, 42, 43, 43),
            step(0, 6, 91, 97, 97),
            step(1, 1, 43, 44, 44),
            step(0, 6, 97, 100, 100),
        ];
        assert_eq!(seen, expected);
        let plain = run_base_game(&board, &mut ScriptedDice::new(&script));
        assert_eq!(
            plain,
            BaseOutcome {
                p1_won: true,
                turns: 15
            }
        );
        assert_eq!(outcome, plain);
    }

    #[test]
    fn scripted_dice_take_every_chute_and_ladder() {
        let board = Board::milton_bradley();
        for &(from, to) in board.jumps() {
            let path = path_landing_on(&board, from);
            let (seen, outcome) = moves(&board, &mut p1_path_dice(path.clone()));
            assert!(outcome.p1_won, "player 2 rolling ones never finishes");
            let landing = seen
                .iter()
                .find(|m| m.player == 0 && m.landed == from)
                .expect("player 1 lands on the jump");
            assert_eq!(landing.to, to, "jump {from} -> {to}");
            let mut square = 0;
            for &roll in &path {
                square = board.advance(square, roll);
            }
            assert_eq!(square, to, "path {path:?} ends at the jump's end");
        }
    }

    #[test]
    fn player_two_wins_by_overshooting_while_player_one_dawdles() {
        let board = Board::milton_bradley();
        let dice = |i: usize| if i.is_multiple_of(2) { 1 } else { 6 };
        let (seen, outcome) = moves(&board, &mut IndexedDice(dice, 0));
        assert!(!outcome.p1_won);
        let last = seen.last().expect("moves");
        assert_eq!((last.player, last.to, last.landed), (1, FINISH, FINISH));
        assert_eq!(outcome.turns as usize, seen.len());
    }
}
