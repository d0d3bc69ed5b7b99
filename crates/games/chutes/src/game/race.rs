//! The base race: two tokens, one die, no decisions. The first to reach square 100 wins.

use super::board::{Board, FINISH};
use super::rules::{Overshoot, PLAYER_DICE};
use super::summary::BaseGameSummary;
use experiment_engine::games::Game;
use experiment_engine::rng::{CommonStreams, OneStream, Streams, TrialRng};

/// A source of fair die rolls: any `rand::Rng` (every player rolling from it in turn), each
/// player's own stream of a trial ([`PlayerDice`]), or a scripted sequence in tests.
pub trait DiceSource {
    /// One roll for `player` (0 for player 1, 1 for player 2) of a fair die with `sides`
    /// sides, 1..=`sides`.
    fn roll(&mut self, player: usize, sides: u8) -> u8;
}

/// One roll of a fair die with `sides` sides from `rng`.
#[inline]
fn fair_roll<R: rand::Rng + ?Sized>(rng: &mut R, sides: u8) -> u8 {
    // The same draw either way; the constant range lets the d6, the common case, fold.
    if sides == 6 {
        rng.random_range(1..=6)
    } else {
        rng.random_range(1..=sides)
    }
}

impl<R: rand::Rng + ?Sized> DiceSource for R {
    #[inline]
    fn roll(&mut self, _player: usize, sides: u8) -> u8 {
        fair_roll(self, sides)
    }
}

/// A trial's dice by player: player `k` rolls from the stream of purpose
/// [`PLAYER_DICE`]`[k]`. From [`OneStream`] every roll comes from the trial's one stream in
/// the order the game makes them (the independent design); from [`CommonStreams`] each
/// player has his own stream, so a decision that changes how long a game lasts never shifts
/// the other player's rolls.
pub struct PlayerDice<'a, S: ?Sized>(pub &'a mut S);

impl<S: Streams + ?Sized> DiceSource for PlayerDice<'_, S> {
    #[inline]
    fn roll(&mut self, player: usize, sides: u8) -> u8 {
        fair_roll(self.0.rng(PLAYER_DICE[player]), sides)
    }
}

/// One move of a base game, as an observer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Who moved: 0 for player 1, 1 for player 2.
    pub player: usize,
    /// The roll, 1..=the die's sides.
    pub roll: u8,
    /// The square moved from.
    pub from: u8,
    /// The square the roll reaches before any chute or ladder ([`FINISH`] when it reaches or
    /// passes the finish; `from` when exact landing leaves an overshooting token where it is).
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

/// Who races in a base game: the two players, or player 1 alone (whose game lasts his own
/// turns, the single-player game of the literature).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Racers {
    /// Player 1 alone.
    One,
    /// Both players, alternating, player 1 first.
    #[default]
    Two,
}

impl Racers {
    /// The number of players: 1 or 2.
    pub fn count(self) -> u8 {
        match self {
            Racers::One => 1,
            Racers::Two => 2,
        }
    }
}

/// Plays one base game, telling `observer` about every move.
pub fn run_base_game_observed<D, O>(board: &Board, dice: &mut D, observer: &mut O) -> BaseOutcome
where
    D: DiceSource + ?Sized,
    O: RaceObserver + ?Sized,
{
    run_race_observed(board, Racers::Two, dice, observer)
}

/// Plays one base game of `racers`, telling `observer` about every move.
pub fn run_race_observed<D, O>(
    board: &Board,
    racers: Racers,
    dice: &mut D,
    observer: &mut O,
) -> BaseOutcome
where
    D: DiceSource + ?Sized,
    O: RaceObserver + ?Sized,
{
    let mut squares = [0u8; 2];
    let mut player = 0;
    let mut turns = 0;
    loop {
        let roll = dice.roll(player, board.die_sides());
        turns += 1;
        let from = squares[player];
        let to = board.advance(from, roll);
        let landed = match from.saturating_add(roll) {
            past if past > FINISH && board.overshoot() == Overshoot::Stays => from,
            landed => landed.min(FINISH),
        };
        observer.moved(Move {
            player,
            roll,
            from,
            landed,
            to,
        });
        if to == FINISH {
            return BaseOutcome {
                p1_won: player == 0,
                turns,
            };
        }
        squares[player] = to;
        if racers == Racers::Two {
            player ^= 1;
        }
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
    /// Who races.
    pub racers: Racers,
}

impl Game for BaseGame {
    type Outcome = BaseOutcome;
    type Summary = BaseGameSummary;

    fn play(&self, rng: &mut TrialRng) -> BaseOutcome {
        self.play_with(&mut OneStream(rng))
    }

    fn play_common(&self, streams: &mut CommonStreams) -> BaseOutcome {
        self.play_with(streams)
    }
}

impl BaseGame {
    /// One game, each player rolling from his own purpose's stream.
    fn play_with(&self, streams: &mut impl Streams) -> BaseOutcome {
        run_race_observed(
            &self.board,
            self.racers,
            &mut PlayerDice(streams),
            &mut |_| {},
        )
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
    fn alone_under_exact_landing_an_overshooting_roll_stays_put() {
        // No jumps: sixteen sixes reach 96, a 1 reaches 97, where 6 and 4 would pass 100 and
        // leave the token there, and a 3 wins on the twentieth turn.
        let board = Board::new(&[], 6, Overshoot::Stays).expect("valid");
        let mut script = vec![6; 16];
        script.extend([1, 6, 4, 3]);
        let mut seen = Vec::new();
        let outcome = run_race_observed(
            &board,
            Racers::One,
            &mut ScriptedDice::new(&script),
            &mut |step: Move| seen.push(step),
        );
        assert_eq!(
            outcome,
            BaseOutcome {
                p1_won: true,
                turns: 20
            }
        );
        assert!(seen.iter().all(|m| m.player == 0), "player 1 alone");
        let last: Vec<_> = seen[16..]
            .iter()
            .map(|m| (m.roll, m.from, m.landed, m.to))
            .collect();
        assert_eq!(
            last,
            [
                (1, 96, 97, 97),
                (6, 97, 97, 97),
                (4, 97, 97, 97),
                (3, 97, 100, 100)
            ]
        );
        // Under the standard rule the 6 from 97 wins at once.
        let wins = Board::from_jumps(&[]).expect("valid");
        let outcome = run_race_observed(
            &wins,
            Racers::One,
            &mut ScriptedDice::new(&script),
            &mut |_| {},
        );
        assert_eq!(outcome.turns, 18);
        assert_eq!(Racers::One.count() + Racers::default().count(), 3);
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
