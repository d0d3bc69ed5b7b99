//! The optimal cubeful equities, both players maximising their expected winnings.

use super::win::WinTable;
use super::{change, Moves, SolveError, BLOCK, POSITIONS};
use crate::exact::sweeps::{NotConverged, Sweeps, TOLERANCE};
use crate::game::{cube_levels, Board, CubeOwner, CubeView, FINISH, SQUARES};

/// Index of a cube owner within a level's three slots.
fn owner_index(owner: CubeOwner) -> usize {
    match owner {
        CubeOwner::Centre => 0,
        CubeOwner::Me => 1,
        CubeOwner::Them => 2,
    }
}

/// The owner slot seen from the other side (Centre stays, Me and Them swap).
pub(super) const FLIP: [usize; 3] = [0, 2, 1];
pub(super) const CENTRE: usize = 0;
pub(super) const ME: usize = 1;
pub(super) const THEM: usize = 2;

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
    pub fn solve(board: &Board, max_cube: u32) -> Result<CubeTable, SolveError> {
        let levels = cube_levels(max_cube)?;
        let win = WinTable::solve(board)?;
        Ok(Self::solve_levels(
            &Moves::new(board),
            &win,
            max_cube,
            levels,
        )?)
    }

    pub(super) fn solve_levels(
        moves: &Moves,
        win: &WinTable,
        max_cube: u32,
        levels: u32,
    ) -> Result<CubeTable, NotConverged> {
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
            let mut sweeps = Sweeps::new("optimal cubeful table");
            loop {
                let (moved, change) = cube_sweep(moves, level, level_roll, above);
                if sweeps.finished(moved, change)? {
                    break;
                }
            }
        }
        let slots = levels as usize;
        let doubles = Bits::new(3 * slots * POSITIONS, |i| {
            let (slot, p) = (i / POSITIONS, i % POSITIONS);
            slot % 3 != THEM && Self::double_from_equities(&value, &roll, slot / 3, slot % 3, p)
        });
        let takes = Bits::new((slots + 1) * POSITIONS, |i| {
            Self::take_from_equities(&value, i / POSITIONS, i % POSITIONS)
        });
        Ok(CubeTable {
            max_cube,
            levels,
            value,
            doubles,
            takes,
        })
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
/// whether some value changed by 1e-14 or more, and the largest change (relative to
/// max(1, |value|)).
fn cube_sweep(moves: &Moves, level: &mut [f64], roll: &mut [f64], above: &[f64]) -> (bool, f64) {
    let them_above = above.get(THEM * BLOCK..THEM * BLOCK + POSITIONS);
    let mut moved = false;
    let mut largest: f64 = 0.0;
    for &p in &moves.order {
        let p = usize::from(p);
        let succ = moves.succ(p);
        for owner in [CENTRE, ME, THEM] {
            let opponent = &level[FLIP[owner] * BLOCK..][..BLOCK];
            let mut sum = 0.0;
            for &to in succ {
                sum -= opponent[usize::from(to)];
            }
            let rolled = sum / moves.rolls();
            let mut v = rolled;
            if let Some(them_above) = them_above.filter(|_| owner != THEM) {
                let doubled = (2.0 * them_above[p]).min(1.0);
                if doubled > rolled {
                    v = doubled;
                }
            }
            let at = owner * BLOCK + p;
            let changed = change(level[at], v);
            moved |= changed >= TOLERANCE;
            largest = largest.max(changed);
            level[at] = v;
            roll[at] = rolled;
        }
    }
    (moved, largest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::optimal_start_equity;

    fn board() -> Board {
        Board::milton_bradley()
    }

    #[test]
    fn the_cube_is_dead_at_the_cap() {
        let win = WinTable::solve(&board()).expect("converges");
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
        let shown = format!(
            "{table:?} {:?}",
            WinTable::solve(&board()).expect("converges")
        );
        assert!(
            shown.contains("start_equity") && shown.len() < 200,
            "{shown}"
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
}
