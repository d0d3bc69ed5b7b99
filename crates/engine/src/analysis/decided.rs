//! What a run in stages decided, as columns of the tables built from its results: a precision
//! target's `stopped` and `guaranteed` beside each variant's trial count in the `summary`
//! table. The tables are built with them (see [`Analysis::with_decisions`]), never patched
//! afterwards.

use super::Analysis;
use crate::frame::TableBuilder;
use crate::runner::{Decisions, Stopped};

/// The column of the summary table that says why a variant stopped: `target` or `cap`.
pub const STOPPED_COLUMN: &str = "stopped";

/// The column of the summary table, after [`STOPPED_COLUMN`], that says whether the target's
/// guarantee holds for the variant ([`Stopped::guaranteed`]): `yes` or `no`.
pub const GUARANTEED_COLUMN: &str = "guaranteed";

/// `yes` or `no`, as the tables write a truth.
pub fn yes_no(truth: bool) -> &'static str {
    if truth {
        "yes"
    } else {
        "no"
    }
}

/// `target` or `cap`: why `stopped` stopped, as [`STOPPED_COLUMN`] says it.
pub fn why(stopped: &Stopped) -> &'static str {
    if stopped.reached {
        "target"
    } else {
        "cap"
    }
}

impl<'a, S> Analysis<'a, S> {
    /// This analysis of a run that decided `decisions` in stages (a fixed run's are
    /// [`Decisions::None`]).
    pub fn with_decisions(mut self, decisions: &'a Decisions) -> Self {
        self.decisions = decisions;
        self
    }

    /// `table` with the columns a run in stages adds after the trial-count column of a table
    /// of one row per variant (in variant order): with a precision target, [`STOPPED_COLUMN`]
    /// and [`GUARANTEED_COLUMN`]; nothing otherwise. Every summary table calls it right after
    /// its trial-count column.
    pub fn decided_columns(&self, table: TableBuilder) -> TableBuilder {
        match self.decisions {
            Decisions::Stops(stops) => table.text(STOPPED_COLUMN, stops.iter().map(why)).text(
                GUARANTEED_COLUMN,
                stops.iter().map(|s| yes_no(s.guaranteed())),
            ),
            Decisions::None | Decisions::Selection(_) => table,
        }
    }
}
