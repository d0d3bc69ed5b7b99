//! Chutes & Ladders: the board as data, the base race (no decisions), and the betting game with
//! a doubling cube (the players' two decisions, the built-in strategies, and the engine).
//!
//! Rules: both players start on square 0 and alternate turns, player 1 first. A turn rolls one
//! fair d6, moves forward that many squares and follows the chute or ladder starting on the
//! square landed on; reaching or passing square 100 wins. There is no extra roll on a six.
//!
//! Cube: the stake starts at 1 with the cube centred. At the start of his own turn, before
//! rolling, a player who owns the cube (or while it is centred) may double; the opponent takes
//! (the stake doubles and the taker owns the cube) or drops (forfeiting the pre-double stake,
//! which ends the game). The winner of a finished game wins the stake. No double is offered
//! once doubling would take the stake past `max_cube`.

use std::fmt;
use std::sync::Arc;

use crate::exact::chutes::{CubeTable, WinTable};
use crate::games::Game;
use crate::rng::TrialRng;
use crate::summary::Summary;

/// The finish square: reaching or passing it wins.
pub const FINISH: u8 = 100;

/// Number of squares a token can stand on: 0 (the start, off the board) and 1..=99.
pub const SQUARES: usize = 100;

/// The default cap on the doubling cube.
pub const DEFAULT_MAX_CUBE: u32 = 1024;

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// A jump starts outside squares 1..=99 or ends outside 1..=100.
    OffBoard {
        /// Start of the jump.
        from: u8,
        /// End of the jump.
        to: u8,
    },
    /// A jump ends where it starts.
    SelfJump {
        /// The square.
        square: u8,
    },
    /// Two jumps start on the same square.
    TwoJumps {
        /// The square.
        square: u8,
    },
    /// A jump ends on the start of another jump.
    LandsOnJump {
        /// Start of the jump.
        from: u8,
        /// End of the jump, which starts another jump.
        to: u8,
    },
    /// A square reachable from the start cannot reach the finish, so a game might never end.
    Unfinishable {
        /// The lowest such square.
        square: u8,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::OffBoard { from, to } => write!(
                f,
                "jump {from} -> {to} leaves the board: a jump must start on a square in 1..=99 \
                 (none may start on the finish square {FINISH}) and end on a square in 1..=100"
            ),
            BoardError::SelfJump { square } => {
                write!(
                    f,
                    "jump {square} -> {square} starts and ends on the same square"
                )
            }
            BoardError::TwoJumps { square } => write!(f, "square {square} starts two jumps"),
            BoardError::LandsOnJump { from, to } => write!(
                f,
                "jump {from} -> {to} ends on square {to}, which starts another jump"
            ),
            BoardError::Unfinishable { square } => write!(
                f,
                "square {square} can be reached from the start but square {FINISH} cannot be \
                 reached from it, so a game might never end"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

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

/// What one base game (no cube) produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseOutcome {
    /// Whether player 1 (who moves first) won.
    pub p1_won: bool,
    /// Moves made by both players, up to and including the winning move.
    pub turns: u32,
}

/// Plays one base game, calling `on_move(player, roll, from, to)` after every move (`player` is
/// 0 or 1, `to` is after any jump, [`FINISH`] on the winning move).
fn race<D, F>(board: &Board, dice: &mut D, mut on_move: F) -> BaseOutcome
where
    D: DiceSource + ?Sized,
    F: FnMut(usize, u8, u8, u8),
{
    let mut squares = [0u8; 2];
    let mut mover = 0;
    let mut turns = 0;
    loop {
        let roll = dice.roll_d6();
        turns += 1;
        let from = squares[mover];
        let to = board.advance(from, roll);
        on_move(mover, roll, from, to);
        if to == FINISH {
            return BaseOutcome {
                p1_won: mover == 0,
                turns,
            };
        }
        squares[mover] = to;
        mover ^= 1;
    }
}

/// Plays one base game (the seed's `runBaseGame`).
pub fn run_base_game<D: DiceSource + ?Sized>(board: &Board, dice: &mut D) -> BaseOutcome {
    race(board, dice, |_, _, _, _| {})
}

/// Plays one base game move by move, returning its lines and whether player 1 won.
///
/// Lines look like `Player 1 rolls 4: 21 -> 25`, followed by `ladder 28 -> 84` or
/// `chute 47 -> 26` when a jump is taken; a move reaching or passing the finish shows `-> 100`.
/// The last line says who won, e.g. `Player 1 wins after 31 turns`.
pub fn play_lines<D: DiceSource + ?Sized>(board: &Board, dice: &mut D) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let outcome = race(board, dice, |mover, roll, from, to| {
        let landed = from.saturating_add(roll).min(FINISH);
        lines.push(format!(
            "Player {} rolls {roll}: {from} -> {landed}",
            mover + 1
        ));
        if to != landed {
            let kind = if to > landed { "ladder" } else { "chute" };
            lines.push(format!("{kind} {landed} -> {to}"));
        }
    });
    lines.push(if outcome.p1_won {
        format!("Player 1 wins after {} turns", outcome.turns)
    } else {
        format!(
            "Player 2 wins after {} turns; player 1 loses",
            outcome.turns
        )
    });
    (lines, outcome.p1_won)
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

/// Adds histogram `from` into `into`, growing `into` as needed.
fn add_histogram(into: &mut Vec<u64>, from: &[u64]) {
    if into.len() < from.len() {
        into.resize(from.len(), 0);
    }
    for (total, count) in into.iter_mut().zip(from) {
        *total += count;
    }
}

/// Counts one value in a histogram indexed by value.
fn bump(histogram: &mut Vec<u64>, value: u32) {
    let index = value as usize;
    if histogram.len() <= index {
        histogram.resize(index + 1, 0);
    }
    histogram[index] += 1;
}

/// Exact aggregate of base games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BaseGameSummary {
    /// Games recorded.
    pub games: u64,
    /// Games player 1 won.
    pub p1_wins: u64,
    /// `turn_histogram[t]` = games that lasted exactly `t` turns.
    pub turn_histogram: Vec<u64>,
    /// Sum of turns.
    pub sum_turns: u64,
    /// Sum of squared turns.
    pub sum_turns_sq: u128,
}

impl BaseGameSummary {
    /// Fraction of games player 1 won (NaN with no games).
    pub fn p1_win_fraction(&self) -> f64 {
        self.p1_wins as f64 / self.games as f64
    }

    /// Mean game length in turns (NaN with no games).
    pub fn mean_turns(&self) -> f64 {
        self.sum_turns as f64 / self.games as f64
    }

    /// Sample variance of game length (NaN with fewer than two games).
    pub fn turns_variance(&self) -> f64 {
        let n = self.games as f64;
        let mean = self.mean_turns();
        (self.sum_turns_sq as f64 - n * mean * mean) / (n - 1.0)
    }
}

impl Summary for BaseGameSummary {
    type Outcome = BaseOutcome;

    fn record(&mut self, outcome: &BaseOutcome) {
        self.games += 1;
        self.p1_wins += u64::from(outcome.p1_won);
        bump(&mut self.turn_histogram, outcome.turns);
        self.sum_turns += u64::from(outcome.turns);
        self.sum_turns_sq += u128::from(outcome.turns) * u128::from(outcome.turns);
    }

    fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.p1_wins += other.p1_wins;
        add_histogram(&mut self.turn_histogram, &other.turn_histogram);
        self.sum_turns += other.sum_turns;
        self.sum_turns_sq += other.sum_turns_sq;
    }
}

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

/// A betting player: the seed's two decisions.
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CubeError {
    /// The cap is not a power of two.
    MaxCubeNotPowerOfTwo {
        /// The rejected cap.
        max_cube: u32,
    },
}

impl fmt::Display for CubeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CubeError::MaxCubeNotPowerOfTwo { max_cube } => write!(
                f,
                "max_cube must be a power of two (1, 2, 4, ..., 2147483648), got {max_cube}"
            ),
        }
    }
}

impl std::error::Error for CubeError {}

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
        let roll = dice.roll_d6();
        turns += 1;
        let to = board.advance(squares[mover], roll);
        if to == FINISH {
            return finish(mover, stake, false, doubles, turns, cap_reached);
        }
        squares[mover] = to;
        mover = other;
    }
}

/// Why a strategy cannot be built.
#[derive(Clone, Debug, PartialEq)]
pub enum StrategyError {
    /// No strategy has this name.
    UnknownName {
        /// The name asked for.
        name: String,
    },
    /// A threshold parameter lies outside [0, 1] (or is NaN).
    ThresholdOutOfRange {
        /// `double_at` or `take_at`.
        parameter: &'static str,
        /// The rejected value.
        value: f64,
    },
}

impl fmt::Display for StrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrategyError::UnknownName { name } => write!(
                f,
                "unknown strategy {name:?}; valid names are: {}",
                Strategy::NAMES.join(", ")
            ),
            StrategyError::ThresholdOutOfRange { parameter, value } => write!(
                f,
                "threshold parameter {parameter} = {value} is outside [0, 1]; it is a win \
                 probability"
            ),
        }
    }
}

impl std::error::Error for StrategyError {}

/// The win-probability thresholds of the `threshold` strategy, each validated in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    double_at: f64,
    take_at: f64,
}

impl Thresholds {
    /// Default `double_at`.
    pub const DEFAULT_DOUBLE_AT: f64 = 0.70;
    /// Default `take_at`.
    pub const DEFAULT_TAKE_AT: f64 = 0.25;

    /// Thresholds that double at a cubeless win probability of at least `double_at` and take at
    /// one of at least `take_at`; both must lie in [0, 1].
    pub fn new(double_at: f64, take_at: f64) -> Result<Thresholds, StrategyError> {
        for (parameter, value) in [("double_at", double_at), ("take_at", take_at)] {
            if !(0.0..=1.0).contains(&value) {
                return Err(StrategyError::ThresholdOutOfRange { parameter, value });
            }
        }
        Ok(Thresholds { double_at, take_at })
    }

    /// Doubles when the mover's cubeless win probability is at least this.
    pub fn double_at(&self) -> f64 {
        self.double_at
    }

    /// Takes when the taker's cubeless win probability is at least this.
    pub fn take_at(&self) -> f64 {
        self.take_at
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            double_at: Self::DEFAULT_DOUBLE_AT,
            take_at: Self::DEFAULT_TAKE_AT,
        }
    }
}

/// A built-in betting strategy.
#[derive(Clone, Copy, Debug, PartialEq, strum::EnumDiscriminants)]
#[strum_discriminants(
    name(StrategyName),
    vis(pub),
    doc = "A strategy's name, without its parameters.",
    derive(
        Hash,
        serde::Serialize,
        serde::Deserialize,
        strum::EnumString,
        strum::IntoStaticStr,
        strum::VariantNames
    ),
    serde(rename_all = "snake_case"),
    strum(serialize_all = "snake_case")
)]
pub enum Strategy {
    /// Never doubles, always takes.
    Never,
    /// Doubles whenever allowed, always takes.
    Always,
    /// Never doubles, drops every double.
    Cautious,
    /// Doubles / takes by the exact cubeless win probability.
    Threshold(Thresholds),
    /// Maximises expected winnings against an optimal opponent (cubeful value iteration).
    Optimal,
}

impl Strategy {
    /// The names `from_name` accepts.
    pub const NAMES: [&'static str; 5] = ["never", "always", "cautious", "threshold", "optimal"];

    /// The five strategies, `threshold` with default parameters, in the order of [`Self::NAMES`].
    pub const ALL: [Strategy; 5] = [
        Strategy::Never,
        Strategy::Always,
        Strategy::Cautious,
        Strategy::Threshold(Thresholds {
            double_at: Thresholds::DEFAULT_DOUBLE_AT,
            take_at: Thresholds::DEFAULT_TAKE_AT,
        }),
        Strategy::Optimal,
    ];

    /// The strategy with this name (ASCII case-insensitive; `threshold` gets default parameters).
    pub fn from_name(name: &str) -> Result<Strategy, StrategyError> {
        Self::NAMES
            .iter()
            .zip(Self::ALL)
            .find(|(known, _)| known.eq_ignore_ascii_case(name.trim()))
            .map(|(_, strategy)| strategy)
            .ok_or_else(|| StrategyError::UnknownName {
                name: name.to_string(),
            })
    }

    /// The `threshold` strategy with validated parameters.
    pub fn threshold(double_at: f64, take_at: f64) -> Result<Strategy, StrategyError> {
        Thresholds::new(double_at, take_at).map(Strategy::Threshold)
    }

    /// The strategy's name (one of [`Self::NAMES`]).
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Never => "never",
            Strategy::Always => "always",
            Strategy::Cautious => "cautious",
            Strategy::Threshold(_) => "threshold",
            Strategy::Optimal => "optimal",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Threshold(t) => write!(f, "threshold({}, {})", t.double_at, t.take_at),
            other => f.write_str(other.name()),
        }
    }
}

/// A built-in strategy bound to the exact tables it needs; build it with
/// [`crate::exact::chutes::ChutesSolver::player`].
#[derive(Clone, Debug)]
pub struct StrategyPlayer {
    strategy: Strategy,
    win: Arc<WinTable>,
    cube: Option<Arc<CubeTable>>,
}

impl StrategyPlayer {
    /// Binds `strategy` to the cubeless table and, for `optimal`, to the cubeful table (which
    /// must be given for `optimal`; without it `optimal` plays as `threshold` with defaults).
    pub fn new(strategy: Strategy, win: Arc<WinTable>, cube: Option<Arc<CubeTable>>) -> Self {
        StrategyPlayer {
            strategy,
            win,
            cube,
        }
    }

    /// The strategy played.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    fn thresholds(&self) -> Thresholds {
        match self.strategy {
            Strategy::Threshold(t) => t,
            _ => Thresholds::default(),
        }
    }
}

impl Player for StrategyPlayer {
    #[inline]
    fn should_double(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
        match (self.strategy, &self.cube) {
            (Strategy::Never | Strategy::Cautious, _) => false,
            (Strategy::Always, _) => true,
            (Strategy::Optimal, Some(table)) => table.should_double(my_square, their_square, cube),
            (Strategy::Threshold(_) | Strategy::Optimal, _) => {
                self.win.win_probability(my_square, their_square, true)
                    >= self.thresholds().double_at
            }
        }
    }

    #[inline]
    fn should_take(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
        match (self.strategy, &self.cube) {
            (Strategy::Never | Strategy::Always, _) => true,
            (Strategy::Cautious, _) => false,
            (Strategy::Optimal, Some(table)) => table.should_take(my_square, their_square, cube),
            (Strategy::Threshold(_) | Strategy::Optimal, _) => {
                self.win.win_probability(my_square, their_square, false)
                    >= self.thresholds().take_at
            }
        }
    }
}

/// A cube game between two built-in strategies as an experiment variant: `first` is player 1
/// and moves first.
#[derive(Clone, Debug)]
pub struct CubeMatch {
    board: Board,
    max_cube: u32,
    first: StrategyPlayer,
    second: StrategyPlayer,
}

impl CubeMatch {
    /// Builds the match, solving the exact tables the strategies need (the cubeful table only
    /// when one of them is `optimal`). `max_cube` must be a power of two.
    pub fn new(
        board: Board,
        first: Strategy,
        second: Strategy,
        max_cube: u32,
    ) -> Result<CubeMatch, CubeError> {
        let solver = crate::exact::chutes::ChutesSolver::new(board, max_cube)?;
        Ok(CubeMatch::with_solver(&solver, first, second))
    }

    /// Builds the match from an existing solver (sharing its tables, its board and its cap).
    pub fn with_solver(
        solver: &crate::exact::chutes::ChutesSolver,
        first: Strategy,
        second: Strategy,
    ) -> CubeMatch {
        CubeMatch {
            board: solver.board().clone(),
            max_cube: solver.max_cube(),
            first: solver.player(first),
            second: solver.player(second),
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The cube cap.
    pub fn max_cube(&self) -> u32 {
        self.max_cube
    }

    /// Player 1's strategy.
    pub fn first(&self) -> Strategy {
        self.first.strategy()
    }

    /// Player 2's strategy.
    pub fn second(&self) -> Strategy {
        self.second.strategy()
    }
}

impl Game for CubeMatch {
    type Outcome = CubeOutcome;
    type Summary = CubeSummary;

    fn play(&self, rng: &mut TrialRng) -> CubeOutcome {
        run_game(&self.first, &self.second, &self.board, self.max_cube, rng)
    }
}

/// Exact aggregate of cube games (integers only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CubeSummary {
    /// Games recorded.
    pub games: u64,
    /// Sum of player 1's payoffs.
    pub sum_payoff: i128,
    /// Sum of squared payoffs.
    pub sum_payoff_sq: u128,
    /// Games ended by a drop.
    pub drops: u64,
    /// Sum of final stakes.
    pub sum_final_stake: u128,
    /// Games in which the cube reached the cap.
    pub cap_reached: u64,
    /// Games player 1 won.
    pub p1_wins: u64,
    /// Doubles offered, over all games.
    pub doubles: u64,
    /// `turn_histogram[t]` = games that lasted exactly `t` moves.
    pub turn_histogram: Vec<u64>,
}

impl CubeSummary {
    /// Mean payoff to player 1 (NaN with no games).
    pub fn mean_payoff(&self) -> f64 {
        self.sum_payoff as f64 / self.games as f64
    }

    /// Standard error of the mean payoff (NaN with fewer than two games).
    pub fn payoff_standard_error(&self) -> f64 {
        let n = self.games as f64;
        let mean = self.mean_payoff();
        ((self.sum_payoff_sq as f64 - n * mean * mean) / (n - 1.0) / n).sqrt()
    }
}

impl Summary for CubeSummary {
    type Outcome = CubeOutcome;

    fn record(&mut self, outcome: &CubeOutcome) {
        self.games += 1;
        self.sum_payoff += i128::from(outcome.payoff);
        self.sum_payoff_sq += u128::from(outcome.payoff.unsigned_abs()).pow(2);
        self.drops += u64::from(outcome.dropped);
        self.sum_final_stake += u128::from(outcome.final_stake);
        self.cap_reached += u64::from(outcome.cap_reached);
        self.p1_wins += u64::from(outcome.p1_won);
        self.doubles += u64::from(outcome.doubles);
        bump(&mut self.turn_histogram, outcome.turns);
    }

    fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.sum_payoff += other.sum_payoff;
        self.sum_payoff_sq += other.sum_payoff_sq;
        self.drops += other.drops;
        self.sum_final_stake += other.sum_final_stake;
        self.cap_reached += other.cap_reached;
        self.p1_wins += other.p1_wins;
        self.doubles += other.doubles;
        add_histogram(&mut self.turn_histogram, &other.turn_histogram);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::chutes::ChutesSolver;
    use crate::rng::trial_rng;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest};
    use proptest::strategy::Strategy as PropStrategy;
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::sync::OnceLock;

    /// Dice that replay a script (panicking, so failing the test, if it runs out).
    struct ScriptedDice(VecDeque<u8>);

    impl ScriptedDice {
        fn new(rolls: &[u8]) -> Self {
            ScriptedDice(rolls.iter().copied().collect())
        }
    }

    impl DiceSource for ScriptedDice {
        fn roll_d6(&mut self) -> u8 {
            self.0.pop_front().expect("the dice script ran out")
        }
    }

    /// Dice given by a function of the roll's index (0 = the game's first roll).
    struct IndexedDice<F: FnMut(usize) -> u8>(F, usize);

    impl<F: FnMut(usize) -> u8> DiceSource for IndexedDice<F> {
        fn roll_d6(&mut self) -> u8 {
            self.1 += 1;
            (self.0)(self.1 - 1)
        }
    }

    /// Player 1 rolls `path` then sixes; player 2 always rolls 1 (on the standard board a
    /// token rolling only ones cycles 24..=28 -> 84..=87 -> 24 and never finishes).
    fn p1_path_dice(path: Vec<u8>) -> IndexedDice<impl FnMut(usize) -> u8> {
        IndexedDice(
            move |i| {
                if i % 2 == 1 {
                    1
                } else {
                    path.get(i / 2).copied().unwrap_or(6)
                }
            },
            0,
        )
    }

    /// Rolls taking a token from 0 to `square` (landing on it last), found by breadth-first search.
    fn path_landing_on(board: &Board, square: u8) -> Vec<u8> {
        let mut previous: [Option<(u8, u8)>; SQUARES] = [None; SQUARES];
        let mut queue = VecDeque::from([0u8]);
        let mut seen = [false; SQUARES];
        seen[0] = true;
        while let Some(at) = queue.pop_front() {
            if (1..=6).contains(&(square.wrapping_sub(at))) {
                let mut rolls = vec![square - at];
                let mut cursor = at;
                while let Some((from, roll)) = previous[usize::from(cursor)] {
                    rolls.push(roll);
                    cursor = from;
                }
                rolls.reverse();
                return rolls;
            }
            for roll in 1..=6 {
                let to = board.advance(at, roll);
                if to != FINISH && !seen[usize::from(to)] {
                    seen[usize::from(to)] = true;
                    previous[usize::from(to)] = Some((at, roll));
                    queue.push_back(to);
                }
            }
        }
        panic!("square {square} cannot be landed on");
    }

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

    /// Solvers for the caps the tests use, built once.
    fn solver(max_cube: u32) -> &'static ChutesSolver {
        static SOLVERS: OnceLock<Vec<ChutesSolver>> = OnceLock::new();
        let solvers = SOLVERS.get_or_init(|| {
            [1, 2, 8, 1024]
                .into_iter()
                .map(|cap| ChutesSolver::new(Board::milton_bradley(), cap).expect("valid cap"))
                .collect()
        });
        solvers
            .iter()
            .find(|s| s.max_cube() == max_cube)
            .expect("a cap the tests prepared")
    }

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
    fn golden_game_replays_scripted_dice_line_by_line() {
        let board = Board::milton_bradley();
        let script = [4, 1, 6, 1, 1, 1, 6, 1, 3, 1, 4, 1, 6, 1, 6];
        let (lines, p1_won) = play_lines(&board, &mut ScriptedDice::new(&script));
        let expected = [
            "Player 1 rolls 4: 0 -> 4",
            "ladder 4 -> 14",
            "Player 2 rolls 1: 0 -> 1",
            "ladder 1 -> 38",
            "Player 1 rolls 6: 14 -> 20",
            "Player 2 rolls 1: 38 -> 39",
            "Player 1 rolls 1: 20 -> 21",
            "ladder 21 -> 42",
            "Player 2 rolls 1: 39 -> 40",
            "Player 1 rolls 6: 42 -> 48",
            "Player 2 rolls 1: 40 -> 41",
            "Player 1 rolls 3: 48 -> 51",
            "ladder 51 -> 67",
            "Player 2 rolls 1: 41 -> 42",
            "Player 1 rolls 4: 67 -> 71",
            "ladder 71 -> 91",
            "Player 2 rolls 1: 42 -> 43",
            "Player 1 rolls 6: 91 -> 97",
            "Player 2 rolls 1: 43 -> 44",
            "Player 1 rolls 6: 97 -> 100",
            "Player 1 wins after 15 turns",
        ];
        assert_eq!(lines, expected);
        assert!(p1_won);
        let outcome = run_base_game(&board, &mut ScriptedDice::new(&script));
        assert_eq!(
            outcome,
            BaseOutcome {
                p1_won: true,
                turns: 15
            }
        );
        let never = solver(1024).player(Strategy::Never);
        let cube = run_game(
            &never,
            &never,
            &board,
            1024,
            &mut ScriptedDice::new(&script),
        );
        assert_eq!((cube.payoff, cube.turns, cube.doubles), (1, 15, 0));
    }

    #[test]
    fn scripted_dice_take_every_chute_and_ladder() {
        let board = Board::milton_bradley();
        for &(from, to) in board.jumps() {
            let path = path_landing_on(&board, from);
            let (lines, p1_won) = play_lines(&board, &mut p1_path_dice(path.clone()));
            assert!(p1_won, "player 2 rolling ones never finishes");
            let kind = if to > from { "ladder" } else { "chute" };
            let landing = lines
                .iter()
                .position(|l| l.starts_with("Player 1") && l.ends_with(&format!(" -> {from}")))
                .expect("player 1 lands on the jump");
            assert_eq!(lines[landing + 1], format!("{kind} {from} -> {to}"));
            let mut square = 0;
            for &roll in &path {
                square = board.advance(square, roll);
            }
            assert_eq!(square, to, "path {path:?} ends at the jump's end");
        }
    }

    #[test]
    fn overshooting_one_hundred_wins_and_a_ladder_to_one_hundred_wins() {
        let board = Board::milton_bradley();
        assert_eq!(board.advance(97, 6), FINISH);
        assert_eq!(board.advance(99, 1), FINISH);
        assert_eq!(board.advance(94, 6), FINISH);
        assert_eq!(board.advance(94, 5), 99);
        assert_eq!(board.advance(78, 2), FINISH, "ladder 80 -> 100");
        // Player 2 finishes by overshooting while player 1 dawdles on ones.
        let dice = |i: usize| if i.is_multiple_of(2) { 1 } else { 6 };
        let (lines, p1_won) = play_lines(&board, &mut IndexedDice(dice, 0));
        assert!(!p1_won);
        let last = lines.last().expect("lines");
        assert!(last.starts_with("Player 2 wins") && last.ends_with("player 1 loses"));
        assert!(lines[lines.len() - 2].ends_with(" -> 100"));
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
        // A cautious player 2 drops player 1's first double: player 1 wins the stake of 1.
        let solver = solver(1024);
        let outcome = run_game(
            &solver.player(Strategy::Always),
            &solver.player(Strategy::Cautious),
            &board,
            1024,
            &mut ScriptedDice::new(&[]),
        );
        assert_eq!(
            (outcome.payoff, outcome.turns, outcome.dropped),
            (1, 0, true)
        );
    }

    #[test]
    fn always_against_always_reaches_the_cap_every_game() {
        // The fastest finish takes 7 rolls, so ten doubles always come before any finish.
        let game = CubeMatch::with_solver(solver(1024), Strategy::Always, Strategy::Always);
        for i in 0..2000 {
            let outcome = game.play(&mut trial_rng(11, 0, i));
            assert!(outcome.cap_reached && !outcome.dropped);
            assert_eq!(outcome.final_stake, 1024);
            assert_eq!(outcome.doubles, 10);
            assert_eq!(outcome.payoff.abs(), 1024);
        }
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

    fn any_strategy() -> impl PropStrategy<Value = Strategy> {
        (0..5usize, 0.0..=1.0f64, 0.0..=1.0f64).prop_map(|(i, d, t)| match i {
            3 => Strategy::threshold(d, t).expect("in range"),
            _ => Strategy::ALL[i],
        })
    }

    proptest! {
        #[test]
        fn stakes_are_powers_of_two_within_the_cap(
            first in any_strategy(),
            second in any_strategy(),
            cap_index in 0..4usize,
            seed in any::<u64>(),
        ) {
            let max_cube = [1, 2, 8, 1024][cap_index];
            let game = CubeMatch::with_solver(solver(max_cube), first, second);
            let outcome = game.play(&mut trial_rng(seed, 0, 0));
            prop_assert!(outcome.final_stake.is_power_of_two());
            prop_assert!(outcome.final_stake <= max_cube);
            prop_assert_eq!(outcome.payoff.unsigned_abs(), u64::from(outcome.final_stake));
            prop_assert_eq!(outcome.p1_won, outcome.payoff > 0);
            let accepted = outcome.doubles - u32::from(outcome.dropped);
            prop_assert_eq!(outcome.final_stake, 1u32 << accepted);
            prop_assert_eq!(outcome.cap_reached, max_cube > 1 && outcome.final_stake == max_cube);
        }
    }

    #[test]
    fn unknown_names_and_bad_thresholds_give_clear_errors() {
        let error = Strategy::from_name("martingale").expect_err("unknown");
        let message = error.to_string();
        assert!(message.contains("martingale"), "{message}");
        for name in Strategy::NAMES {
            assert!(message.contains(name), "{message}");
            assert_eq!(Strategy::from_name(name).map(|s| s.name()), Ok(name));
        }
        assert_eq!(Strategy::from_name("Optimal"), Ok(Strategy::Optimal));
        assert_eq!(
            Strategy::from_name("threshold"),
            Strategy::threshold(0.70, 0.25)
        );
        let error = Strategy::threshold(1.5, 0.25).expect_err("double_at too big");
        assert!(error.to_string().contains("double_at = 1.5"), "{error}");
        let error = Strategy::threshold(0.7, -0.1).expect_err("take_at negative");
        assert!(error.to_string().contains("take_at = -0.1"), "{error}");
        assert!(Strategy::threshold(f64::NAN, 0.25).is_err());
        assert!(Strategy::threshold(0.0, 1.0).is_ok());
    }

    #[test]
    fn an_invalid_cap_is_rejected() {
        let error = CubeMatch::new(
            Board::milton_bradley(),
            Strategy::Never,
            Strategy::Never,
            1000,
        )
        .expect_err("1000 is not a power of two");
        assert_eq!(error, CubeError::MaxCubeNotPowerOfTwo { max_cube: 1000 });
        assert!(error.to_string().contains("power of two"));
        assert!(
            CubeMatch::new(Board::milton_bradley(), Strategy::Never, Strategy::Never, 0).is_err()
        );
    }

    #[test]
    fn threshold_player_decides_by_the_exact_win_probability() {
        let solver = solver(1024);
        let win = solver.win_table();
        let player = solver.player(Strategy::threshold(0.6, 0.3).expect("valid"));
        let centre = view(1, CubeOwner::Centre);
        for (my, their) in [(0, 0), (99, 0), (0, 99), (50, 60), (70, 40), (90, 91)] {
            let p_mover = win.mover_wins(my, their);
            assert_eq!(player.should_double(my, their, centre), p_mover >= 0.6);
            let p_taker = 1.0 - win.mover_wins(their, my);
            assert_eq!(player.should_take(my, their, centre), p_taker >= 0.3);
        }
        assert!(player.should_double(99, 0, centre));
        assert!(!player.should_take(0, 99, centre));
    }

    #[test]
    fn recording_one_by_one_equals_merging_halves() {
        let base = BaseGame {
            board: Board::milton_bradley(),
        };
        let cube = CubeMatch::with_solver(solver(8), Strategy::Optimal, Strategy::Always);
        let base_outcomes: Vec<_> = (0..500)
            .map(|i| base.play(&mut trial_rng(5, 0, i)))
            .collect();
        let cube_outcomes: Vec<_> = (0..500)
            .map(|i| cube.play(&mut trial_rng(5, 1, i)))
            .collect();
        fn check<S: Summary + PartialEq + std::fmt::Debug>(outcomes: &[S::Outcome]) {
            let mut whole = S::default();
            outcomes.iter().for_each(|o| whole.record(o));
            let (a, b) = outcomes.split_at(outcomes.len() / 3);
            let (mut left, mut right) = (S::default(), S::default());
            a.iter().for_each(|o| left.record(o));
            b.iter().for_each(|o| right.record(o));
            left.merge(&right);
            assert_eq!(whole, left);
            assert_ne!(whole, S::default());
        }
        check::<BaseGameSummary>(&base_outcomes);
        check::<CubeSummary>(&cube_outcomes);
    }

    #[test]
    fn simulated_first_player_win_rate_matches_the_exact_probability() {
        let game = BaseGame {
            board: Board::milton_bradley(),
        };
        let mut summary = BaseGameSummary::default();
        for i in 0..400_000 {
            summary.record(&game.play(&mut trial_rng(2024, 0, i)));
        }
        let exact = solver(1024).win_table().first_player_wins();
        let se = (exact * (1.0 - exact) / summary.games as f64).sqrt();
        let sim = summary.p1_win_fraction();
        assert!(
            (sim - exact).abs() < 4.0 * se,
            "sim {sim} exact {exact} se {se}"
        );
        assert_eq!(summary.turn_histogram.iter().sum::<u64>(), summary.games);
        assert_eq!(summary.turn_histogram.iter().position(|&c| c > 0), Some(13));
        // Players move independently: the game ends on move 2t - 1 when T1 = t <= T2, and on
        // move 2t when T2 = t < T1, with T the single-player finishing turn.
        let probs = crate::exact::chutes::solo_turns(&game.board).probs;
        let mut unfinished = 1.0;
        let mut exact_mean = 0.0;
        for (t, &p) in probs.iter().enumerate() {
            let t = t as f64;
            exact_mean += (2.0 * t - 1.0) * p * unfinished + 2.0 * t * p * (unfinished - p);
            unfinished -= p;
        }
        let se = (summary.turns_variance() / summary.games as f64).sqrt();
        let sim = summary.mean_turns();
        assert!(
            (sim - exact_mean).abs() < 4.0 * se,
            "sim {sim} exact {exact_mean} se {se}"
        );
    }

    #[test]
    fn simulated_optimal_against_never_matches_the_exact_payoff() {
        let solver = solver(1024);
        let game = CubeMatch::with_solver(solver, Strategy::Optimal, Strategy::Never);
        let mut summary = CubeSummary::default();
        for i in 0..400_000 {
            summary.record(&game.play(&mut trial_rng(2024, 1, i)));
        }
        let exact = solver.exact_payoff(Strategy::Optimal, Strategy::Never);
        let (sim, se) = (summary.mean_payoff(), summary.payoff_standard_error());
        assert!(
            (sim - exact).abs() < 4.0 * se,
            "sim {sim} exact {exact} se {se}"
        );
        assert!(summary.doubles > 0 && summary.drops == 0);
    }
}
