//! When an iterative solver stops: a convergence test that cannot stall, and a bound on sweeps
//! with a clear error.
//!
//! A solver sweeps its values until none moves by [`TOLERANCE`] or more (relative to
//! max(1, |value|)). Rounding can keep that from ever happening: a value that averages many
//! others is only exact to a few units in the last place of each, so with a die of many sides
//! the changes settle at a floor of their own (about 1.5e-14 with 31 sides, 7e-14 with 100)
//! and stay there. The solver then counts as converged once its largest change has set no new
//! low for [`STALL`] sweeps, provided that low is below [`FLOOR`]; a solver whose changes stop
//! falling above it, or that runs [`MAX_SWEEPS`] sweeps, fails with [`NotConverged`].

/// Sweeps stop when no value moves by this much or more, relative to max(1, |value|).
pub(crate) const TOLERANCE: f64 = 1e-14;

/// A solver whose largest change has set no new low for this many sweeps has stopped
/// converging: its changes are rounding noise.
pub(crate) const STALL: u32 = 100;

/// The highest rounding floor accepted as converged, in the solver's measure of change.
pub(crate) const FLOOR: f64 = 1e-11;

/// The most sweeps a solver may take.
pub(crate) const MAX_SWEEPS: u32 = 2_000_000;

/// An iterative solver that stopped without converging.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "the exact {table} did not converge: after {sweeps} sweeps its values still changed by \
     {change:.3e} per sweep (the solver stops at {TOLERANCE:e}, or at a rounding floor below \
     {FLOOR:e} that lasts {STALL} sweeps, and gives up after {MAX_SWEEPS} sweeps)"
)]
pub struct NotConverged {
    /// The table being solved.
    pub table: &'static str,
    /// The sweeps taken.
    pub sweeps: u32,
    /// The smallest largest change of a sweep reached.
    pub change: f64,
}

/// The sweeps of one solve, and whether to stop.
#[derive(Debug)]
pub(crate) struct Sweeps {
    /// The table being solved, for the error.
    table: &'static str,
    /// Sweeps taken.
    done: u32,
    /// The smallest largest change seen.
    best: f64,
    /// Sweeps since `best` was set.
    since_best: u32,
    /// The floor accepted, in the solver's measure of change.
    floor: f64,
}

impl Sweeps {
    /// The sweeps of a solve of `table`, whose changes are measured relative to max(1, |value|).
    pub(crate) fn new(table: &'static str) -> Sweeps {
        Sweeps::scaled(table, 1.0)
    }

    /// As [`Sweeps::new`], for a solver that measures its changes in absolute terms with
    /// values up to `scale` in size: the floor accepted is [`FLOOR`] times `scale`.
    pub(crate) fn scaled(table: &'static str, scale: f64) -> Sweeps {
        Sweeps {
            table,
            done: 0,
            best: f64::INFINITY,
            since_best: 0,
            floor: FLOOR * scale.max(1.0),
        }
    }

    /// Records a sweep: `moved` says whether some value moved by [`TOLERANCE`] or more, and
    /// `change` is the largest change (the solver's measure). True when the solve is done,
    /// false when another sweep is needed.
    pub(crate) fn finished(&mut self, moved: bool, change: f64) -> Result<bool, NotConverged> {
        self.done += 1;
        if !moved {
            return Ok(true);
        }
        if change < self.best {
            self.best = change;
            self.since_best = 0;
        } else {
            self.since_best += 1;
        }
        if self.since_best >= STALL && self.best < self.floor {
            return Ok(true);
        }
        if self.since_best >= STALL || self.done >= MAX_SWEEPS || change.is_nan() {
            return Err(NotConverged {
                table: self.table,
                sweeps: self.done,
                change: self.best.min(change),
            });
        }
        Ok(false)
    }

    /// How many sweeps were taken.
    #[cfg(test)]
    pub(crate) fn done(&self) -> u32 {
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solve_stops_below_the_tolerance_or_at_a_low_floor_and_fails_otherwise() {
        let mut sweeps = Sweeps::new("table");
        assert_eq!(sweeps.finished(true, 1e-3), Ok(false));
        assert_eq!(sweeps.finished(false, 1e-15), Ok(true));
        assert_eq!(sweeps.done(), 2);
        // Noise at 3e-14 after reaching 2e-14: done once the low has lasted STALL sweeps.
        let mut noisy = Sweeps::new("table");
        assert_eq!(noisy.finished(true, 2e-14), Ok(false));
        for _ in 1..STALL {
            assert_eq!(noisy.finished(true, 3e-14), Ok(false));
        }
        assert_eq!(noisy.finished(true, 3e-14), Ok(true));
        assert_eq!(noisy.done(), STALL + 1);
        // Stuck far above the floor: an error naming the table and the change.
        let mut stuck = Sweeps::new("win table");
        let error = (0..=STALL)
            .find_map(|_| stuck.finished(true, 1e-3).err())
            .expect("stalled");
        assert_eq!(error.sweeps, STALL + 1);
        assert!(
            error.to_string().contains("win table") && error.to_string().contains("1.000e-3"),
            "{error}"
        );
        // Absolute changes of values up to 1000 accept a floor 1000 times higher.
        let mut scaled = Sweeps::scaled("table", 1000.0);
        assert_eq!(scaled.finished(true, 5e-9), Ok(false));
        let done = (0..STALL).map(|_| scaled.finished(true, 6e-9)).last();
        assert_eq!(done, Some(Ok(true)));
        assert!(Sweeps::new("table").finished(true, f64::NAN).is_err());
    }

    #[test]
    fn a_solve_that_keeps_falling_stops_at_the_bound() {
        let mut sweeps = Sweeps::new("table");
        let mut change = 1.0;
        let error = loop {
            change *= 0.999_999_9;
            if let Err(error) = sweeps.finished(true, change) {
                break error;
            }
        };
        assert_eq!(error.sweeps, MAX_SWEEPS);
    }
}
