//! Chutes & Ladders: the board as data, the base race (no decisions), and the betting game with
//! a doubling cube (the players' two decisions, the built-in strategies, and the engine).
//!
//! Rules: both players start on square 0 and alternate turns, player 1 first. A turn rolls one
//! fair die (a d6 unless the board says otherwise), moves forward that many squares and follows
//! the chute or ladder starting on the square landed on; reaching or passing square 100 wins
//! (or, under exact landing, only landing on it: a roll that would pass it leaves the token
//! where it is). There is no extra roll on a six.
//!
//! Cube: the stake starts at 1 with the cube centred. At the start of his own turn, before
//! rolling, a player who owns the cube (or while it is centred) may double; the opponent takes
//! (the stake doubles and the taker owns the cube) or drops (forfeiting the pre-double stake,
//! which ends the game). The winner of a finished game wins the stake. No double is offered
//! once doubling would take the stake past `max_cube`.
//!
//! One module per concern: [`board`] (the board as data), [`rules`] (the die, the overshoot
//! rule and the named boards), [`race`] (the base game),
//! [`cube`] (the cube game and the players' two decisions), [`strategies`] (the built-in
//! strategies and the tables they decide by), [`thresholds`] (the win probabilities
//! `threshold` and `take_only` decide at) and [`summary`] (what trials fold into).

pub mod board;
pub mod cube;
pub mod length;
pub mod race;
pub mod rules;
pub mod strategies;
pub mod summary;
#[cfg(test)]
mod testing;
pub mod thresholds;

pub use board::{Board, BoardError, FINISH, SQUARES};
pub use cube::{
    cube_levels, run_game, CubeError, CubeOutcome, CubeOwner, CubeView, Player, DEFAULT_MAX_CUBE,
};
pub use length::{ExpectedTurns, MAX_EXPECTED_TURNS};
pub use race::{
    run_base_game, run_base_game_observed, run_race_observed, BaseGame, BaseOutcome, DiceSource,
    Move, PlayerDice, RaceObserver, Racers,
};
pub use rules::{
    BoardName, Overshoot, DEFAULT_DIE_SIDES, DIE_SIDES, MILTON_BRADLEY_JUMPS, PLAYER_DICE,
};
pub use strategies::{CubeMatch, CubePolicy, Strategy, StrategyName, StrategyPlayer, WinOdds};
pub use summary::{BaseGameSummary, CubeSummary};
pub use thresholds::{StrategyError, TakeAt, Thresholds};
