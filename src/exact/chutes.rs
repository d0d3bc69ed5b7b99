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

use super::anderson::Anderson;

use crate::games::chutes::{
    cube_levels, Board, CubeError, CubeMatch, CubeOwner, CubePolicy, CubeView, Player, Strategy,
    StrategyPlayer, WinOdds, FINISH, SQUARES,
};

/// Number of (mover's square, other's square) positions.
const POSITIONS: usize = SQUARES * SQUARES;

/// Value iteration stops when no value moves by more than this (relative to max(1, |value|)).
const TOLERANCE: f64 = 1e-14;

/// The single-player distribution is extended until the unfinished mass is below this.
const SOLO_TAIL: f64 = 1e-12;

/// The successors of every square and the sweep order shared by the solvers.
struct Moves {
    /// `next[s][roll - 1]`: where a token on `s` ends after `roll` ([`FINISH`] when it wins).
    next: [[u8; 6]; SQUARES],
    /// Position indices (mover * 100 + other) by decreasing sum of squares.
    order: Vec<u16>,
    /// `succ[p][roll - 1]`: the opponent's position index after the mover of `p` rolls
    /// (other * 100 + mover's new square), or [`SENTINEL`] when the roll wins.
    succ: Vec<[u16; 6]>,
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
        let next =
            std::array::from_fn(|s| std::array::from_fn(|r| board.advance(s as u8, r as u8 + 1)));
        let mut order: Vec<u16> = (0..POSITIONS as u16).collect();
        order.sort_by_key(|&p| std::cmp::Reverse(p / SQUARES as u16 + p % SQUARES as u16));
        let succ = (0..POSITIONS)
            .map(|p| {
                let (a, b) = (p / SQUARES, p % SQUARES);
                std::array::from_fn(|r| {
                    let to = next[a][r];
                    if to == FINISH {
                        SENTINEL
                    } else {
                        (b * SQUARES + usize::from(to)) as u16
                    }
                })
            })
            .collect();
        let back =
            std::array::from_fn(|s| (s..SQUARES).any(|from| next[from].contains(&(s as u8))));
        let rests =
            std::array::from_fn(|s| s == 0 || next.iter().any(|rolls| rolls.contains(&(s as u8))));
        Moves {
            next,
            order,
            succ,
            back,
            rests,
        }
    }
}

/// How far `new` moved from `old`, relative to max(1, |new|).
#[inline]
fn change(old: f64, new: f64) -> f64 {
    (new - old).abs() / new.abs().max(1.0)
}

/// The exact single-player turn distribution from square 0.
#[derive(Clone, Debug, PartialEq)]
pub struct SoloTurns {
    /// `probs[t]`: probability of finishing on turn `t` (`probs[0]` is 0), up to the first turn
    /// after which the unfinished mass is below 1e-12.
    pub probs: Vec<f64>,
    /// Probability of not having finished within `probs.len() - 1` turns.
    pub tail: f64,
    /// Expected number of turns (solved exactly, not from the truncated distribution).
    pub mean: f64,
    /// Smallest `t` with P(finish within `t` turns) >= 1/2.
    pub median: u32,
    /// Fewest turns in which the finish can be reached.
    pub min: u32,
}

/// The exact turn distribution of one player alone on `board`.
pub fn solo_turns(board: &Board) -> SoloTurns {
    let moves = Moves::new(board);
    let mut dist = [0.0f64; SQUARES];
    dist[0] = 1.0;
    let mut probs = vec![0.0];
    let mut tail = 1.0;
    while tail >= SOLO_TAIL {
        let mut next = [0.0f64; SQUARES];
        let mut finished = 0.0;
        for (square, &p) in dist.iter().enumerate() {
            for &to in &moves.next[square] {
                if to == FINISH {
                    finished += p / 6.0;
                } else {
                    next[usize::from(to)] += p / 6.0;
                }
            }
        }
        dist = next;
        probs.push(finished);
        tail = dist.iter().sum();
    }
    let mut expected = [0.0f64; SQUARES];
    loop {
        let mut delta: f64 = 0.0;
        for square in (0..SQUARES).rev() {
            let rest: f64 = moves.next[square]
                .iter()
                .filter(|&&to| to != FINISH)
                .map(|&to| expected[usize::from(to)])
                .sum();
            let value = 1.0 + rest / 6.0;
            delta = delta.max(change(expected[square], value));
            expected[square] = value;
        }
        if delta < TOLERANCE {
            break;
        }
    }
    let mut cumulative = 0.0;
    let median = probs
        .iter()
        .position(|&p| {
            cumulative += p;
            cumulative >= 0.5
        })
        .unwrap_or(probs.len()) as u32;
    let min = probs.iter().position(|&p| p > 0.0).unwrap_or(probs.len()) as u32;
    SoloTurns {
        probs,
        tail,
        mean: expected[0],
        median,
        min,
    }
}

/// The exact cubeless win probability of the player to move, for every position.
#[derive(Clone)]
pub struct WinTable {
    /// `w[a * 100 + b]`: P(the mover, on `a`, wins | opponent on `b`).
    w: Vec<f64>,
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

/// Index of a cube owner within a level's three slots.
fn owner_index(owner: CubeOwner) -> usize {
    match owner {
        CubeOwner::Centre => 0,
        CubeOwner::Me => 1,
        CubeOwner::Them => 2,
    }
}

/// The owner slot seen from the other side (Centre stays, Me and Them swap).
const FLIP: [usize; 3] = [0, 2, 1];
const CENTRE: usize = 0;
const ME: usize = 1;
const THEM: usize = 2;

/// The optimal cubeful equities: both players maximise their expected winnings.
///
/// States are (mover's square, other's square, cube owner from the mover's view, stake level
/// k with stake 2^k <= max_cube); values are the mover's expected winnings at the start of his
/// turn, before any double, in units of the current stake. The mover doubles when that is
/// strictly better for him; the taker takes unless dropping is strictly better for him.
#[derive(Clone)]
pub struct CubeTable {
    max_cube: u32,
    levels: u32,
    /// `value[(3k + owner) * BLOCK + position]`: equity before the cube decision (each block
    /// ends in the sentinel -1, see [`Moves::succ`]).
    value: Vec<f64>,
    /// The optimal mover's doubles, by `(3k + owner) * POSITIONS + position`: what
    /// [`CubeTable::double_from_equities`] gives, kept as bits so that play reads kilobytes
    /// rather than the megabytes of equities.
    doubles: Bits,
    /// The optimal taker's takes, by `level after the double * POSITIONS + position` (from the
    /// doubler's view): what [`CubeTable::take_from_equities`] gives, as bits.
    takes: Bits,
}

impl CubeTable {
    /// Solves the optimal cubeful equities for `board` with cap `max_cube` (a power of two).
    pub fn solve(board: &Board, max_cube: u32) -> Result<CubeTable, CubeError> {
        let levels = cube_levels(max_cube)?;
        let win = WinTable::solve(board);
        Ok(Self::solve_levels(
            &Moves::new(board),
            &win,
            max_cube,
            levels,
        ))
    }

    fn solve_levels(moves: &Moves, win: &WinTable, max_cube: u32, levels: u32) -> CubeTable {
        let slots = 3 * (levels as usize + 1);
        let mut value = vec![0.0; slots * BLOCK];
        let mut roll = vec![0.0; slots * BLOCK];
        for block in value.chunks_exact_mut(BLOCK) {
            block[POSITIONS] = -1.0;
        }
        for k in (0..=levels as usize).rev() {
            let base = 3 * k * BLOCK;
            if k == levels as usize {
                // No doubles at the cap: the cubeless equity, which one sweep confirms.
                for block in value[base..base + 3 * BLOCK].chunks_exact_mut(BLOCK) {
                    for (v, w) in block.iter_mut().zip(&win.w) {
                        *v = 2.0 * w - 1.0;
                    }
                }
            } else {
                // Warm start from the level above (same shape, one doubling fewer to go).
                value.copy_within(base + 3 * BLOCK..base + 6 * BLOCK, base);
            }
            let (level, above) = value[base..].split_at_mut(3 * BLOCK);
            let level_roll = &mut roll[base..base + 3 * BLOCK];
            while cube_sweep(moves, level, level_roll, above) {}
        }
        let slots = levels as usize;
        let doubles = Bits::new(3 * slots * POSITIONS, |i| {
            let (slot, p) = (i / POSITIONS, i % POSITIONS);
            slot % 3 != THEM && Self::double_from_equities(&value, &roll, slot / 3, slot % 3, p)
        });
        let takes = Bits::new((slots + 1) * POSITIONS, |i| {
            Self::take_from_equities(&value, i / POSITIONS, i % POSITIONS)
        });
        CubeTable {
            max_cube,
            levels,
            value,
            doubles,
            takes,
        }
    }

    /// The cap the table was solved for.
    pub fn max_cube(&self) -> u32 {
        self.max_cube
    }

    /// Player 1's optimal expected winnings from the start (stake 1, cube centred).
    pub fn start_equity(&self) -> f64 {
        self.value[0]
    }

    /// The stake level (log2) of `stake`, if it is a power of two within the cap.
    fn level(&self, stake: u32) -> Option<usize> {
        (stake.is_power_of_two() && stake <= self.max_cube).then(|| stake.trailing_zeros() as usize)
    }

    /// Index of (my, their) when both are squares 0..=99.
    fn position(my: u8, their: u8) -> Option<usize> {
        (my < FINISH && their < FINISH).then(|| usize::from(my) * SQUARES + usize::from(their))
    }

    /// The mover's optimal equity per unit of current stake at the start of his turn, or
    /// `None` for squares outside 0..=99 or a stake that is not a power of two within the cap.
    pub fn equity(&self, my_square: u8, their_square: u8, cube: CubeView) -> Option<f64> {
        let p = Self::position(my_square, their_square)?;
        let k = self.level(cube.stake)?;
        Some(self.value[(3 * k + owner_index(cube.owner)) * BLOCK + p])
    }

    /// Whether the optimal mover doubles (false wherever doubling is not legal or the state is
    /// outside the table).
    pub fn should_double(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
        let (Some(p), Some(k)) = (
            Self::position(my_square, their_square),
            self.level(cube.stake),
        ) else {
            return false;
        };
        k < self.levels as usize
            && self
                .doubles
                .get((3 * k + owner_index(cube.owner)) * POSITIONS + p)
    }

    /// Whether the mover at `position`, stake level `k` below the cap, cube `owner` (not
    /// [`THEM`]) gains by doubling, by the equities `value` and `roll` (laid out as the table's):
    /// the answer before it is kept as a bit.
    fn double_from_equities(
        value: &[f64],
        roll: &[f64],
        k: usize,
        owner: usize,
        position: usize,
    ) -> bool {
        let doubled = (2.0 * value[(3 * (k + 1) + THEM) * BLOCK + position]).min(1.0);
        doubled > roll[(3 * k + owner) * BLOCK + position]
    }

    /// Whether the optimal player takes a double; `cube` is the pre-double cube from the
    /// taker's view. For a stake outside the table (a double the table's cap would not allow)
    /// the taker judges by the dead cube at the cap: he takes with a cubeless win probability
    /// of at least 1/4.
    pub fn should_take(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
        let Some(p) = Self::position(their_square, my_square) else {
            return true;
        };
        let levels = self.levels as usize;
        let after = match self.level(cube.stake) {
            Some(k) if k < levels => k + 1,
            _ => levels,
        };
        self.takes.get(after * POSITIONS + p)
    }

    /// Whether the taker takes at stake level `after` (once doubled), the doubler at
    /// `position`, by the equities `value`: the answer before it is kept as a bit.
    fn take_from_equities(value: &[f64], after: usize, position: usize) -> bool {
        2.0 * value[(3 * after + THEM) * BLOCK + position] <= 1.0
    }
}

/// A fixed table of bits.
#[derive(Clone, Debug)]
struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// Bits `0..len`, bit `i` set where `bit(i)`.
    fn new(len: usize, bit: impl Fn(usize) -> bool) -> Bits {
        let mut words = vec![0; len.div_ceil(64)];
        for i in (0..len).filter(|&i| bit(i)) {
            words[i / 64] |= 1 << (i % 64);
        }
        Bits { words }
    }

    /// Bit `i`.
    #[inline]
    fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }
}

impl std::fmt::Debug for CubeTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CubeTable")
            .field("max_cube", &self.max_cube)
            .field("start_equity", &self.start_equity())
            .finish_non_exhaustive()
    }
}

/// One Gauss-Seidel sweep of the optimal equities of one stake level (`level`: its three owner
/// blocks; `roll`: their rolling equities; `above`: the level above, empty at the cap); returns
/// whether some value changed by 1e-14 or more.
fn cube_sweep(moves: &Moves, level: &mut [f64], roll: &mut [f64], above: &[f64]) -> bool {
    let them_above = above.get(THEM * BLOCK..THEM * BLOCK + POSITIONS);
    let mut moved = false;
    for &p in &moves.order {
        let p = usize::from(p);
        let succ = &moves.succ[p];
        for owner in [CENTRE, ME, THEM] {
            let opponent = &level[FLIP[owner] * BLOCK..][..BLOCK];
            let mut sum = 0.0;
            for &to in succ {
                sum -= opponent[usize::from(to)];
            }
            let rolled = sum / 6.0;
            let mut v = rolled;
            if let Some(them_above) = them_above.filter(|_| owner != THEM) {
                let doubled = (2.0 * them_above[p]).min(1.0);
                if doubled > rolled {
                    v = doubled;
                }
            }
            let at = owner * BLOCK + p;
            // A flag, not a running maximum: no chain of dependent instructions across states.
            moved |= change(level[at], v) >= TOLERANCE;
            level[at] = v;
            roll[at] = rolled;
        }
    }
    moved
}

/// Player 1's exact expected winnings when `p1` (moving first) meets `p2` with cap `max_cube`,
/// by policy evaluation over every reachable (mover, squares, owner, stake) state.
pub fn evaluate_players<A, B>(
    board: &Board,
    p1: &A,
    p2: &B,
    max_cube: u32,
) -> Result<f64, CubeError>
where
    A: Player + ?Sized,
    B: Player + ?Sized,
{
    let levels = cube_levels(max_cube)?;
    let win = WinTable::solve(board);
    Ok(evaluate(&Moves::new(board), &win, p1, p2, levels as usize))
}

/// The chains of a stake level: the owner slots of (player 1, player 2), each from his own
/// view, with the cube centred (level 0 only), player 1's or player 2's. Rolling keeps a game
/// in its chain; only a double leaves it, for the level above.
const CHAINS: [[usize; 2]; 3] = [[CENTRE, CENTRE], [ME, THEM], [THEM, ME]];

/// The chains reachable at level `k`: the centred cube at level 0, an owned one above it.
fn chains_at(k: usize) -> std::ops::Range<usize> {
    if k == 0 {
        0..1
    } else {
        1..3
    }
}

/// Where chain `c` of level `k` starts in a policy evaluation's values: player 1's block of
/// [`BLOCK`] slots (positions from his view, then the sentinel), then player 2's.
fn chain_start(k: usize, c: usize) -> usize {
    (3 * k + c) * 2 * BLOCK
}

/// Policy evaluation with `levels` doublings allowed, level by level from the cap down (a
/// double only leads up a level), each chain solved by [`solve_chain`] (or, where nobody
/// doubles, the cubeless game).
fn evaluate<A, B>(moves: &Moves, win: &WinTable, p1: &A, p2: &B, levels: usize) -> f64
where
    A: Player + ?Sized,
    B: Player + ?Sized,
{
    let mut value = vec![0.0; chain_start(levels + 1, 0)];
    for k in (0..=levels).rev() {
        let (below, above) = value.split_at_mut(chain_start(k + 1, 0));
        for c in chains_at(k) {
            let chain = &mut below[chain_start(k, c)..][..2 * BLOCK];
            if k < levels {
                // Warm start from the level above (the centred cube from player 1's).
                chain.copy_from_slice(&above[chain_start(0, c.max(1))..][..2 * BLOCK]);
            }
            match decide(moves, (p1, p2), k, c, levels, above, chain) {
                Some(plan) => solve_chain(moves, &plan, chain),
                None => cubeless(win, chain),
            }
        }
    }
    value[chain_start(0, 0)]
}

/// Fixes the values of chain `c` of level `k` where the mover doubles (dropped: +1; taken:
/// twice the value at the level above, `above`, with the taker owning the cube) and returns the
/// plan of the states where he rolls, or `None` when nobody doubles anywhere in the chain.
fn decide<A, B>(
    moves: &Moves,
    (p1, p2): (&A, &B),
    k: usize,
    c: usize,
    levels: usize,
    above: &[f64],
    chain: &mut [f64],
) -> Option<Plan>
where
    A: Player + ?Sized,
    B: Player + ?Sized,
{
    let owners = [CubeOwner::Centre, CubeOwner::Me, CubeOwner::Them];
    let stake = 1u32 << k;
    let mut rolls = [vec![true; POSITIONS], vec![true; POSITIONS]];
    let mut doubled = false;
    for (mover, rolling) in rolls.iter_mut().enumerate() {
        let owner = CHAINS[c][mover];
        let may_double = owner != THEM && k < levels;
        let mover_view = CubeView {
            stake,
            owner: owners[owner],
        };
        let taker_view = CubeView {
            stake,
            owner: owners[FLIP[owner]],
        };
        // After a take the mover rolls at the level above, the cube in the taker's hands.
        let taken = if may_double {
            &above[chain_start(0, 2 - mover) + mover * BLOCK..][..POSITIONS]
        } else {
            &[]
        };
        for p in 0..POSITIONS {
            let (a, b) = ((p / SQUARES) as u8, (p % SQUARES) as u8);
            let doubles = may_double
                && if mover == 0 {
                    p1.should_double(a, b, mover_view)
                } else {
                    p2.should_double(a, b, mover_view)
                };
            if !doubles {
                continue;
            }
            rolling[p] = false;
            doubled = true;
            let takes = if mover == 0 {
                p2.should_take(b, a, taker_view)
            } else {
                p1.should_take(b, a, taker_view)
            };
            chain[mover * BLOCK + p] = if takes { 2.0 * taken[p] } else { 1.0 };
        }
    }
    doubled.then(|| Plan::new(moves, &rolls))
}

/// Fills a chain where nobody doubles (at the cap, or under players who never double there)
/// with the cubeless equity: it is the cubeless game.
fn cubeless(win: &WinTable, chain: &mut [f64]) {
    for block in chain.chunks_exact_mut(BLOCK) {
        for (v, w) in block.iter_mut().zip(&win.w) {
            *v = 2.0 * w - 1.0;
        }
        block[POSITIONS] = -1.0;
    }
}

/// How a chain is swept: its rolling states that play can reach, by player 1's square from 99
/// down, his states on it before player 2's (which read only his, on the same square). So only
/// player 1's backward moves (chutes) read values not yet updated in the sweep: player 2's on
/// the squares player 1 moves back to, the feedback states.
struct Plan {
    /// Rolling positions (from the mover's view), row after row.
    positions: Vec<u16>,
    /// Per row: where player 1's run of `positions` ends, then player 2's.
    ends: Vec<[usize; 2]>,
    /// The feedback states, as indices into the chain (player 2's block starts at [`BLOCK`]).
    feedback: Vec<usize>,
}

impl Plan {
    fn new(moves: &Moves, rolls: &[Vec<bool>; 2]) -> Plan {
        let mut plan = Plan {
            positions: Vec::with_capacity(2 * POSITIONS),
            ends: Vec::with_capacity(SQUARES),
            feedback: Vec::new(),
        };
        // States with a token where none can stand are never reached: left out.
        let rests = |p: usize| moves.rests[p / SQUARES] && moves.rests[p % SQUARES];
        for first in (0..SQUARES).rev() {
            let mine = (0..SQUARES).map(|second| first * SQUARES + second);
            plan.positions
                .extend(mine.filter(|&p| rolls[0][p] && rests(p)).map(|p| p as u16));
            let mid = plan.positions.len();
            let theirs = (0..SQUARES).map(|second| second * SQUARES + first);
            plan.positions.extend(
                theirs
                    .filter(|&p| rolls[1][p] && rests(p))
                    .map(|p| p as u16),
            );
            let end = plan.positions.len();
            if moves.back[first] {
                let fed = plan.positions[mid..end].iter();
                plan.feedback.extend(fed.map(|&p| BLOCK + usize::from(p)));
            }
            plan.ends.push([mid, end]);
        }
        plan
    }

    /// One Gauss-Seidel sweep; returns whether some value changed by 1e-14 or more.
    fn sweep(&self, moves: &Moves, chain: &mut [f64]) -> bool {
        let (mine, theirs) = chain.split_at_mut(BLOCK);
        let mut moved = false;
        let mut start = 0;
        for &[mid, end] in &self.ends {
            moved |= update(moves, &self.positions[start..mid], mine, theirs);
            moved |= update(moves, &self.positions[mid..end], theirs, mine);
            start = end;
        }
        moved
    }
}

/// Updates the values of one mover at `positions` from the opponent's; returns whether some
/// value changed by 1e-14 or more.
fn update(moves: &Moves, positions: &[u16], values: &mut [f64], opponent: &[f64]) -> bool {
    let mut moved = false;
    for &p in positions {
        let p = usize::from(p);
        let [a, b, c, d, e, f] = moves.succ[p].map(|to| opponent[usize::from(to)]);
        let v = -((a + b) + (c + d) + (e + f)) / 6.0;
        // A flag, not a running maximum, and no division: a few independent instructions.
        moved |= (v - values[p]).abs() >= TOLERANCE * v.abs().max(1.0);
        values[p] = v;
    }
    moved
}

/// Solves the rolling states of one chain for its fixed point, the other states being fixed:
/// Gauss-Seidel sweeps to a change below 1e-14, accelerated. A sweep is a function of the
/// feedback values it reads before updating them, so the acceleration works on those alone.
fn solve_chain(moves: &Moves, plan: &Plan, chain: &mut [f64]) {
    let gather = |chain: &[f64]| -> Vec<f64> { plan.feedback.iter().map(|&i| chain[i]).collect() };
    let mut anderson = Anderson::default();
    let mut u = gather(chain);
    while plan.sweep(moves, chain) {
        u = anderson.next(&u, &gather(chain));
        for (&i, &v) in plan.feedback.iter().zip(&u) {
            chain[i] = v;
        }
    }
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
    pub fn new(board: Board, max_cube: u32) -> Result<ChutesSolver, CubeError> {
        cube_levels(max_cube)?;
        let win = Arc::new(WinTable::solve(&board));
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
    pub fn cube_table(&self) -> &Arc<CubeTable> {
        self.cube.get_or_init(|| {
            let levels = self.max_cube.trailing_zeros();
            Arc::new(CubeTable::solve_levels(
                &Moves::new(&self.board),
                &self.win,
                self.max_cube,
                levels,
            ))
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
    pub fn exact_payoff(&self, first: Strategy, second: Strategy) -> f64 {
        let levels = self.max_cube.trailing_zeros() as usize;
        let moves = Moves::new(&self.board);
        evaluate(
            &moves,
            &self.win,
            &self.player(first),
            &self.player(second),
            levels,
        )
    }
}

/// P(player 1 wins) the base game on `board`.
pub fn first_player_win_probability(board: &Board) -> f64 {
    WinTable::solve(board).first_player_wins()
}

/// Player 1's optimal cubeful equity from the start, per unit stake (both players optimal).
pub fn optimal_start_equity(board: &Board, max_cube: u32) -> Result<f64, CubeError> {
    CubeTable::solve(board, max_cube).map(|table| table.start_equity())
}

/// Player 1's exact expected winnings when strategy `s1` (moving first) meets `s2`.
pub fn exact_payoff(
    board: &Board,
    s1: Strategy,
    s2: Strategy,
    max_cube: u32,
) -> Result<f64, CubeError> {
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
    use crate::games::chutes::DEFAULT_MAX_CUBE;

    fn board() -> Board {
        Board::milton_bradley()
    }

    #[test]
    fn solo_distribution_is_complete_and_agrees_with_the_exact_mean() {
        let solo = solo_turns(&board());
        let total: f64 = solo.probs.iter().sum::<f64>() + solo.tail;
        assert!((total - 1.0).abs() < 1e-12, "total {total}");
        assert!(solo.tail < SOLO_TAIL);
        let mean: f64 = solo
            .probs
            .iter()
            .enumerate()
            .map(|(t, p)| t as f64 * p)
            .sum();
        assert!((mean - solo.mean).abs() < 1e-8, "{mean} vs {}", solo.mean);
        assert_eq!(solo.min, 7);
        assert!(solo.probs[..7].iter().all(|&p| p == 0.0) && solo.probs[7] > 0.0);
        let below: f64 = solo.probs[..solo.median as usize].iter().sum();
        assert!(below < 0.5 && below + solo.probs[solo.median as usize] >= 0.5);
    }

    #[test]
    fn a_board_without_jumps_matches_a_direct_backward_recursion() {
        let empty = Board::from_jumps(&[]).expect("valid");
        let solo = solo_turns(&empty);
        // E[turns from s] = 1 + mean of E[s + d], with E = 0 at or past 100: no cycles.
        let mut expected = [0.0f64; 106];
        for s in (0..100).rev() {
            expected[s] = 1.0 + (1..=6).map(|d| expected[s + d]).sum::<f64>() / 6.0;
        }
        assert!((solo.mean - expected[0]).abs() < 1e-10);
        assert_eq!(solo.min, 17);
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

    #[test]
    fn the_cube_is_dead_at_the_cap() {
        let win = WinTable::solve(&board());
        let dead = optimal_start_equity(&board(), 1).expect("valid cap");
        assert!((dead - (2.0 * win.first_player_wins() - 1.0)).abs() < 1e-12);
        let table = CubeTable::solve(&board(), 8).expect("valid cap");
        for (my, their) in [(0, 0), (40, 90), (97, 12), (66, 67)] {
            for owner in [CubeOwner::Centre, CubeOwner::Me, CubeOwner::Them] {
                let at_cap = CubeView { stake: 8, owner };
                let equity = table.equity(my, their, at_cap).expect("in table");
                assert!((equity - (2.0 * win.mover_wins(my, their) - 1.0)).abs() < 1e-12);
                assert!(!table.should_double(my, their, at_cap));
            }
        }
        let off_table = CubeView {
            stake: 16,
            owner: CubeOwner::Me,
        };
        assert_eq!(table.equity(0, 0, off_table), None);
        assert_eq!(table.max_cube(), 8);
        let shown = format!("{table:?} {:?}", WinTable::solve(&board()));
        assert!(
            shown.contains("start_equity") && shown.len() < 200,
            "{shown}"
        );
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

    #[test]
    fn optimal_decisions_follow_from_the_equities() {
        let table = CubeTable::solve(&board(), 4).expect("valid cap");
        let centre = CubeView {
            stake: 1,
            owner: CubeOwner::Centre,
        };
        // Certain to win by rolling: doubling gains nothing, so no double.
        assert!(!table.should_double(99, 0, centre));
        // Close to the finish, far ahead: double, and the opponent drops.
        assert!(table.should_double(95, 10, centre));
        assert!(!table.should_take(10, 95, centre));
        // At the start the game is too close to double, and a double would be taken.
        assert!(!table.should_double(0, 0, centre));
        assert!(table.should_take(0, 0, centre));
        // Owned by the opponent: no double, whatever the position.
        let theirs = CubeView {
            stake: 2,
            owner: CubeOwner::Them,
        };
        assert!(!table.should_double(99, 0, theirs));
        // Squares off the board are never in the table.
        assert!(!table.should_double(FINISH, 0, centre));
        // Neither player can be made to lose more than the stake without agreeing to a
        // double, so every optimal equity lies in [-1, 1] per unit stake.
        for my in 0..FINISH {
            for their in 0..FINISH {
                for (stake, owner) in [
                    (1, CubeOwner::Centre),
                    (2, CubeOwner::Me),
                    (2, CubeOwner::Them),
                    (4, CubeOwner::Them),
                ] {
                    let equity = table.equity(my, their, CubeView { stake, owner });
                    let equity = equity.expect("in table");
                    assert!(equity.abs() <= 1.0 + 1e-12, "({my}, {their}): {equity}");
                }
            }
        }
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
                                    for roll in 1..=6 {
                                        let to = board.advance(me, roll);
                                        sum += if to == FINISH {
                                            sign * f64::from(stake)
                                        } else {
                                            let mut next = squares;
                                            next[mover] = usize::from(to);
                                            value[at(1 - mover, next, k, owner)]
                                        };
                                    }
                                    sum / 6.0
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
