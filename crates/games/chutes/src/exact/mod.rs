//! Exact Chutes & Ladders numbers, computed from the rules: the single-player turn
//! distribution, the cubeless win-probability table, the optimal cubeful equities (both
//! players optimal), and the expected payoff of any pair of players by policy evaluation.
//!
//! Positions are (mover's square, other's square) with squares 0..=99; all tables are solved by
//! Gauss-Seidel value iteration, sweeping positions so that forward moves read values already
//! updated in the same sweep and only chutes carry errors backwards: the cubeless and optimal
//! tables in decreasing order of the sum of squares; a policy evaluation stake level by stake
//! level from the cap down, each level's chains (who holds the cube) by player 1's square, with
//! Anderson acceleration on the few values his chutes read early.

use std::sync::{Arc, OnceLock};

use crate::exact::sweeps::NotConverged;
use crate::game::{
    cube_levels, Board, CubeError, CubeMatch, CubePolicy, CubeView, Strategy, StrategyPlayer,
    WinOdds, FINISH, SQUARES,
};

mod anderson;
mod cube;
mod policy;
mod solo;
pub mod sweeps;
mod win;

pub use cube::CubeTable;
pub use policy::evaluate_players;
pub use solo::{solo_turns, SoloTurns};
pub use win::WinTable;

use policy::evaluate;

/// Number of (mover's square, other's square) positions.
const POSITIONS: usize = SQUARES * SQUARES;

/// Why a table could not be solved: an invalid cube cap, or a solver that did not converge.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// The cube cap is not a power of two.
    #[error(transparent)]
    Cube(#[from] CubeError),
    /// A solver did not converge within its bound on sweeps.
    #[error(transparent)]
    NotConverged(#[from] NotConverged),
}

/// The successors of every square and the sweep order shared by the solvers, under the
/// board's die and overshoot rule.
struct Moves {
    /// The die's sides: every square has this many equally likely successors.
    sides: usize,
    /// `next[s * sides + roll - 1]`: where a token on `s` ends after `roll` ([`FINISH`] when it
    /// wins); see [`Moves::next`].
    next: Vec<u8>,
    /// Position indices (mover * 100 + other) by decreasing sum of squares.
    order: Vec<u16>,
    /// `succ[p * sides + roll - 1]`: the opponent's position index after the mover of `p`
    /// rolls (other * 100 + mover's new square), or [`SENTINEL`] when the roll wins; see
    /// [`Moves::succ`].
    succ: Vec<u16>,
    /// `back[s]`: some move from `s` or above ends on `s` (a chute's foot, or a square a chute
    /// returns to). Sweeps from the top read values on these squares before updating them.
    back: [bool; SQUARES],
    /// `rests[s]`: a token can stand on `s` (the start, or where some move ends; not the foot
    /// of a chute or ladder, which it leaves at once).
    rests: [bool; SQUARES],
}

/// Where a winning roll points in a value block of [`BLOCK`] slots: a slot holding -1, so that
/// subtracting it adds the win's +1 exactly as adding 1 would.
const SENTINEL: u16 = POSITIONS as u16;
/// A value block: every position, then the sentinel.
const BLOCK: usize = POSITIONS + 1;

impl Moves {
    fn new(board: &Board) -> Moves {
        let sides = usize::from(board.die_sides());
        let next: Vec<u8> = (0..SQUARES as u8)
            .flat_map(|s| board.rolls().map(move |roll| board.advance(s, roll)))
            .collect();
        let mut order: Vec<u16> = (0..POSITIONS as u16).collect();
        order.sort_by_key(|&p| std::cmp::Reverse(p / SQUARES as u16 + p % SQUARES as u16));
        let succ = (0..POSITIONS)
            .flat_map(|p| {
                let (a, b) = (p / SQUARES, p % SQUARES);
                next[a * sides..][..sides].iter().map(move |&to| {
                    if to == FINISH {
                        SENTINEL
                    } else {
                        (b * SQUARES + usize::from(to)) as u16
                    }
                })
            })
            .collect();
        let ends_on = |from: usize, s: usize| next[from * sides..][..sides].contains(&(s as u8));
        let back = std::array::from_fn(|s| (s..SQUARES).any(|from| ends_on(from, s)));
        let rests = std::array::from_fn(|s| s == 0 || (0..SQUARES).any(|from| ends_on(from, s)));
        Moves {
            sides,
            next,
            order,
            succ,
            back,
            rests,
        }
    }

    /// Where a token on `square` ends after each roll, in roll order.
    #[inline]
    fn next(&self, square: usize) -> &[u8] {
        &self.next[square * self.sides..][..self.sides]
    }

    /// The opponent's position after each roll of the mover of `position`, in roll order.
    #[inline]
    fn succ(&self, position: usize) -> &[u16] {
        &self.succ[position * self.sides..][..self.sides]
    }

    /// The number of rolls, as the divisor of an average over them.
    #[inline]
    fn rolls(&self) -> f64 {
        self.sides as f64
    }
}

/// How far `new` moved from `old`, relative to max(1, |new|).
#[inline]
fn change(old: f64, new: f64) -> f64 {
    (new - old).abs() / new.abs().max(1.0)
}

/// The exact tables of one board and cube cap, shared by the strategies built from it: the
/// cubeless table is solved at construction, the optimal cubeful table on first use.
#[derive(Debug)]
pub struct ChutesSolver {
    board: Board,
    max_cube: u32,
    win: Arc<WinTable>,
    cube: OnceLock<Arc<CubeTable>>,
}

impl ChutesSolver {
    /// Solves the cubeless table for `board`; `max_cube` must be a power of two.
    pub fn new(board: Board, max_cube: u32) -> Result<ChutesSolver, SolveError> {
        cube_levels(max_cube)?;
        let win = Arc::new(WinTable::solve(&board)?);
        Ok(ChutesSolver {
            board,
            max_cube,
            win,
            cube: OnceLock::new(),
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The cube cap.
    pub fn max_cube(&self) -> u32 {
        self.max_cube
    }

    /// The cubeless win-probability table.
    pub fn win_table(&self) -> &Arc<WinTable> {
        &self.win
    }

    /// The optimal cubeful table (solved on first call, then shared).
    ///
    /// # Panics
    /// If its solver does not converge within its bound on sweeps, which the bound on a board's
    /// expected length (see [`Board::new`]) is there to prevent.
    pub fn cube_table(&self) -> &Arc<CubeTable> {
        self.cube.get_or_init(|| {
            let levels = self.max_cube.trailing_zeros();
            let table =
                CubeTable::solve_levels(&Moves::new(&self.board), &self.win, self.max_cube, levels);
            Arc::new(table.unwrap_or_else(|error| panic!("{error}")))
        })
    }

    /// A player for `strategy`, sharing this solver's tables.
    pub fn player(&self, strategy: Strategy) -> StrategyPlayer {
        let cube = (strategy == Strategy::Optimal).then(|| Arc::clone(self.cube_table()));
        StrategyPlayer::new(strategy, Arc::clone(&self.win), cube)
    }

    /// Player 1's optimal expected winnings from the start (both players optimal).
    pub fn start_equity(&self) -> f64 {
        self.cube_table().start_equity()
    }

    /// Player 1's exact expected winnings when `first` (moving first) meets `second`.
    ///
    /// # Panics
    /// As [`ChutesSolver::cube_table`], if the policy evaluation does not converge.
    pub fn exact_payoff(&self, first: Strategy, second: Strategy) -> f64 {
        let levels = self.max_cube.trailing_zeros() as usize;
        let moves = Moves::new(&self.board);
        let (p1, p2) = (self.player(first), self.player(second));
        evaluate(&moves, &self.win, &p1, &p2, levels).unwrap_or_else(|error| panic!("{error}"))
    }
}

/// P(player 1 wins) the base game on `board`.
pub fn first_player_win_probability(board: &Board) -> Result<f64, NotConverged> {
    Ok(WinTable::solve(board)?.first_player_wins())
}

/// Player 1's optimal cubeful equity from the start, per unit stake (both players optimal).
pub fn optimal_start_equity(board: &Board, max_cube: u32) -> Result<f64, SolveError> {
    CubeTable::solve(board, max_cube).map(|table| table.start_equity())
}

/// Player 1's exact expected winnings when strategy `s1` (moving first) meets `s2`.
pub fn exact_payoff(
    board: &Board,
    s1: Strategy,
    s2: Strategy,
    max_cube: u32,
) -> Result<f64, SolveError> {
    ChutesSolver::new(board.clone(), max_cube).map(|solver| solver.exact_payoff(s1, s2))
}

/// The strategies' view of the solved tables (the rules own these traits; the solver fills them).
impl WinOdds for WinTable {
    #[inline]
    fn mover_wins(&self, mover: u8, other: u8) -> f64 {
        WinTable::mover_wins(self, mover, other)
    }
}

impl CubePolicy for CubeTable {
    #[inline]
    fn should_double(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
        CubeTable::should_double(self, my_square, their_square, cube)
    }

    #[inline]
    fn should_take(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
        CubeTable::should_take(self, my_square, their_square, cube)
    }
}

impl ChutesSolver {
    /// The match of `first` (player 1) against `second` on this solver's board and cap, both
    /// bound to its tables.
    pub fn cube_match(&self, first: Strategy, second: Strategy) -> CubeMatch {
        CubeMatch::new(
            self.board.clone(),
            self.max_cube,
            self.player(first),
            self.player(second),
        )
        .expect("the solver's cap is a power of two")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DEFAULT_MAX_CUBE;
    use crate::game::{BoardName, CubeOwner, Overshoot, Player};
    use experiment_engine::games::Game;
    use experiment_engine::rng::trial_rng;
    use experiment_engine::summary::IntegerMoments;

    #[test]
    fn simulated_payoffs_on_other_rules_fall_in_the_interval_of_the_exact_ones() {
        // The 48 board with a 10-spinner under exact landing, cap 4.
        let board =
            Board::new(&BoardName::MiltonBradley48.jumps(), 10, Overshoot::Stays).expect("valid");
        let solver = ChutesSolver::new(board, 4).expect("valid cap");
        let threshold = Strategy::threshold(0.65, 0.3).expect("valid");
        for (first, second) in [
            (Strategy::Optimal, threshold),
            (Strategy::Never, Strategy::Never),
        ] {
            let game = solver.cube_match(first, second);
            let mut payoff = IntegerMoments::default();
            for i in 0..40_000 {
                payoff.record(game.play(&mut trial_rng(23, 7, i)).payoff);
            }
            let estimate = payoff.mean_estimate();
            let interval = estimate.confidence_interval;
            let exact = solver.exact_payoff(first, second);
            assert!(
                interval.lower <= exact && exact <= interval.upper,
                "{first} vs {second}: exact {exact}, simulated {estimate:?}"
            );
        }
    }

    fn board() -> Board {
        Board::milton_bradley()
    }
    #[test]
    fn optimal_strategy_guarantees_the_game_value_against_every_strategy() {
        let solver = ChutesSolver::new(board(), 16).expect("valid cap");
        let value = solver.start_equity();
        assert!(value > 0.0, "moving first is an advantage");
        let both = solver.exact_payoff(Strategy::Optimal, Strategy::Optimal);
        assert!((both - value).abs() < 1e-10, "{both} vs {value}");
        let challengers = [
            Strategy::Never,
            Strategy::Always,
            Strategy::Cautious,
            Strategy::threshold(0.7, 0.25).expect("valid"),
            Strategy::threshold(0.6, 0.2).expect("valid"),
        ];
        for other in challengers {
            let as_first = solver.exact_payoff(Strategy::Optimal, other);
            assert!(as_first >= value - 1e-10, "optimal vs {other}: {as_first}");
            let as_second = solver.exact_payoff(other, Strategy::Optimal);
            assert!(
                as_second <= value + 1e-10,
                "{other} vs optimal: {as_second}"
            );
        }
    }

    #[test]
    fn fixed_strategy_pairs_have_closed_form_payoffs() {
        let solver = ChutesSolver::new(board(), DEFAULT_MAX_CUBE).expect("valid cap");
        let cubeless = 2.0 * solver.win_table().first_player_wins() - 1.0;
        let close = |a: f64, b: f64| (a - b).abs() < 1e-10 * b.abs().max(1.0);
        assert!(close(
            solver.exact_payoff(Strategy::Never, Strategy::Never),
            cubeless
        ));
        // Player 2 always doubles on his first turn and cautious player 1 drops.
        assert!(close(
            solver.exact_payoff(Strategy::Cautious, Strategy::Always),
            -1.0
        ));
        assert!(close(
            solver.exact_payoff(Strategy::Always, Strategy::Cautious),
            1.0
        ));
        // Never takes one double and then holds the cube: the game is played for 2.
        assert!(close(
            solver.exact_payoff(Strategy::Always, Strategy::Never),
            2.0 * cubeless
        ));
        // Ten doubles always come before the earliest finish on ply 13.
        let capped = f64::from(DEFAULT_MAX_CUBE) * cubeless;
        assert!(close(
            solver.exact_payoff(Strategy::Always, Strategy::Always),
            capped
        ));
    }

    #[test]
    fn an_invalid_cap_is_rejected_with_a_clear_message() {
        let error = exact_payoff(&board(), Strategy::Never, Strategy::Never, 1000)
            .expect_err("not a power of two");
        assert!(error.to_string().contains("power of two") && error.to_string().contains("1000"));
        assert!(CubeTable::solve(&board(), 3).is_err());
        assert!(ChutesSolver::new(board(), 0).is_err());
        let never = ChutesSolver::new(board(), 2)
            .expect("valid")
            .player(Strategy::Never);
        assert!(evaluate_players(&board(), &never, &never, 6).is_err());
    }

    #[test]
    fn the_solver_shares_one_cubeful_table() {
        let solver = ChutesSolver::new(board(), 4).expect("valid cap");
        assert!(Arc::ptr_eq(solver.cube_table(), solver.cube_table()));
        let start = optimal_start_equity(&board(), 4).expect("valid cap");
        assert_eq!(solver.start_equity(), start);
        let free = exact_payoff(&board(), Strategy::Optimal, Strategy::Never, 4).expect("valid");
        assert_eq!(
            free,
            solver.exact_payoff(Strategy::Optimal, Strategy::Never)
        );
    }

    /// Player 1's expected winnings by plain Gauss-Seidel value iteration over every state
    /// (mover, both squares, stake, cube owner) in natural order, straight from the rules, to a
    /// change below 1e-16 of the cap: an independent check of the chain solver.
    fn plain_value_iteration(board: &Board, p1: &dyn Player, p2: &dyn Player, cap: u32) -> f64 {
        let levels = cap.trailing_zeros() as usize;
        // Owners 0: centred, 1: player 1's, 2: player 2's. Values are player 1's winnings.
        let at = |mover: usize, squares: [usize; 2], k: usize, owner: usize| {
            (((mover * (levels + 1) + k) * 3 + owner) * SQUARES + squares[0]) * SQUARES + squares[1]
        };
        let mut value = vec![0.0; at(2, [0, 0], 0, 0)];
        let players = [p1, p2];
        let views = |mover: usize, owner: usize| match owner {
            0 => [CubeOwner::Centre; 2],
            o if o == mover + 1 => [CubeOwner::Me, CubeOwner::Them],
            _ => [CubeOwner::Them, CubeOwner::Me],
        };
        loop {
            let mut delta: f64 = 0.0;
            for mover in 0..2 {
                let sign = if mover == 0 { 1.0 } else { -1.0 };
                for k in 0..=levels {
                    let stake = 1u32 << k;
                    for owner in 0..3 {
                        let [mine, theirs] = views(mover, owner);
                        for a in 0..SQUARES {
                            for b in 0..SQUARES {
                                let squares = [a, b];
                                let (me, them) = (squares[mover] as u8, squares[1 - mover] as u8);
                                let doubles = mine != CubeOwner::Them
                                    && k < levels
                                    && players[mover].should_double(
                                        me,
                                        them,
                                        CubeView { stake, owner: mine },
                                    );
                                let v = if !doubles {
                                    let mut sum = 0.0;
                                    for roll in board.rolls() {
                                        let to = board.advance(me, roll);
                                        sum += if to == FINISH {
                                            sign * f64::from(stake)
                                        } else {
                                            let mut next = squares;
                                            next[mover] = usize::from(to);
                                            value[at(1 - mover, next, k, owner)]
                                        };
                                    }
                                    sum / f64::from(board.die_sides())
                                } else if players[1 - mover].should_take(
                                    them,
                                    me,
                                    CubeView {
                                        stake,
                                        owner: theirs,
                                    },
                                ) {
                                    value[at(mover, squares, k + 1, 2 - mover)]
                                } else {
                                    sign * f64::from(stake)
                                };
                                let i = at(mover, squares, k, owner);
                                delta = delta.max((v - value[i]).abs());
                                value[i] = v;
                            }
                        }
                    }
                }
            }
            if delta < 1e-16 * f64::from(cap) {
                return value[at(0, [0, 0], 0, 0)];
            }
        }
    }

    #[test]
    fn policy_evaluation_agrees_with_plain_value_iteration() {
        // The standard board, and one with long chutes, a chute onto its own approach and a
        // ladder to the finish.
        let boards = [
            board(),
            Board::from_jumps(&[(3, 40), (45, 2), (60, 57), (77, 100), (90, 20), (97, 62)])
                .expect("valid"),
            // A spinner of 4 under exact landing: overshooting rolls stay, moves onto
            // themselves that the sweeps must treat as chutes.
            Board::new(&[(3, 40), (45, 2), (90, 20), (97, 62)], 4, Overshoot::Stays)
                .expect("valid"),
        ];
        for board in boards {
            let solver = ChutesSolver::new(board.clone(), 4).expect("valid cap");
            let threshold = Strategy::threshold(0.7, 0.25).expect("valid");
            let bolder = Strategy::threshold(0.6, 0.35).expect("valid");
            for (first, second) in [
                (Strategy::Optimal, threshold),
                (bolder, Strategy::Optimal),
                (Strategy::Always, bolder),
                (threshold, bolder),
            ] {
                let (p1, p2) = (solver.player(first), solver.player(second));
                let plain = plain_value_iteration(&board, &p1, &p2, 4);
                let fast = evaluate_players(&board, &p1, &p2, 4).expect("valid cap");
                assert!(
                    (fast - plain).abs() < 1e-12 * plain.abs().max(1.0),
                    "{first} vs {second}: {fast} vs {plain}"
                );
            }
        }
    }
}
