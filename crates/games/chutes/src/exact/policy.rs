//! Policy evaluation: player 1's exact expected winnings for any pair of players, stake level
//! by stake level, chain by chain, accelerated on the feedback values.

use super::cube::{CENTRE, FLIP, ME, THEM};
use super::win::WinTable;
use super::{Moves, SolveError, BLOCK, POSITIONS};
use crate::exact::anderson::Anderson;
use crate::exact::sweeps::{NotConverged, Sweeps, TOLERANCE};
use crate::game::{cube_levels, Board, CubeOwner, CubeView, Player, SQUARES};

/// Player 1's exact expected winnings when `p1` (moving first) meets `p2` with cap `max_cube`,
/// by policy evaluation over every reachable (mover, squares, owner, stake) state.
pub fn evaluate_players<A, B>(
    board: &Board,
    p1: &A,
    p2: &B,
    max_cube: u32,
) -> Result<f64, SolveError>
where
    A: Player + ?Sized,
    B: Player + ?Sized,
{
    let levels = cube_levels(max_cube)?;
    let win = WinTable::solve(board)?;
    Ok(evaluate(&Moves::new(board), &win, p1, p2, levels as usize)?)
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
pub(super) fn evaluate<A, B>(
    moves: &Moves,
    win: &WinTable,
    p1: &A,
    p2: &B,
    levels: usize,
) -> Result<f64, NotConverged>
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
                Some(plan) => solve_chain(moves, &plan, chain)?,
                None => cubeless(win, chain),
            }
        }
    }
    Ok(value[chain_start(0, 0)])
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

    /// One Gauss-Seidel sweep; returns whether some value changed by 1e-14 or more (relative
    /// to max(1, |value|)), and the largest change (absolute).
    fn sweep(&self, moves: &Moves, chain: &mut [f64]) -> (bool, f64) {
        let (mine, theirs) = chain.split_at_mut(BLOCK);
        let mut moved = false;
        let mut largest: f64 = 0.0;
        let mut start = 0;
        for &[mid, end] in &self.ends {
            let (m1, l1) = update(moves, &self.positions[start..mid], mine, theirs);
            let (m2, l2) = update(moves, &self.positions[mid..end], theirs, mine);
            moved |= m1 || m2;
            largest = largest.max(l1).max(l2);
            start = end;
        }
        (moved, largest)
    }
}

/// Updates the values of one mover at `positions` from the opponent's; returns whether some
/// value changed by 1e-14 or more (relative to max(1, |value|)), and the largest change.
fn update(moves: &Moves, positions: &[u16], values: &mut [f64], opponent: &[f64]) -> (bool, f64) {
    if moves.sides == 6 {
        return update_d6(moves, positions, values, opponent);
    }
    let mut moved = false;
    let mut largest: f64 = 0.0;
    for &p in positions {
        let p = usize::from(p);
        let sum: f64 = moves
            .succ(p)
            .iter()
            .map(|&to| opponent[usize::from(to)])
            .sum();
        let v = -sum / moves.rolls();
        let changed = (v - values[p]).abs();
        moved |= changed >= TOLERANCE * v.abs().max(1.0);
        largest = largest.max(changed);
        values[p] = v;
    }
    (moved, largest)
}

/// [`update`] for the d6, the common case: six successors summed in pairs.
fn update_d6(
    moves: &Moves,
    positions: &[u16],
    values: &mut [f64],
    opponent: &[f64],
) -> (bool, f64) {
    let mut moved = false;
    let mut largest: f64 = 0.0;
    for &p in positions {
        let p = usize::from(p);
        let succ: &[u16; 6] = moves.succ[6 * p..][..6].try_into().expect("six rolls");
        let [a, b, c, d, e, f] = succ.map(|to| opponent[usize::from(to)]);
        let v = -((a + b) + (c + d) + (e + f)) / 6.0;
        // No division: a few independent instructions.
        let changed = (v - values[p]).abs();
        moved |= changed >= TOLERANCE * v.abs().max(1.0);
        largest = largest.max(changed);
        values[p] = v;
    }
    (moved, largest)
}

/// Solves the rolling states of one chain for its fixed point, the other states being fixed:
/// Gauss-Seidel sweeps to a change below 1e-14 (or to the rounding floor, see
/// [`crate::exact::sweeps`]), accelerated. A sweep is a function of the feedback values it
/// reads before updating them, so the acceleration works on those alone.
fn solve_chain(moves: &Moves, plan: &Plan, chain: &mut [f64]) -> Result<(), NotConverged> {
    let gather = |chain: &[f64]| -> Vec<f64> { plan.feedback.iter().map(|&i| chain[i]).collect() };
    // The changes are absolute: the floor scales with the largest value the doubles fixed.
    let scale = chain.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let mut sweeps = Sweeps::scaled("policy evaluation", scale);
    let mut anderson = Anderson::default();
    let mut u = gather(chain);
    loop {
        let (moved, largest) = plan.sweep(moves, chain);
        if sweeps.finished(moved, largest)? {
            return Ok(());
        }
        u = anderson.next(&u, &gather(chain));
        for (&i, &v) in plan.feedback.iter().zip(&u) {
            chain[i] = v;
        }
    }
}
