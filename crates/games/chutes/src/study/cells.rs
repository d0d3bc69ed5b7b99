//! How the Chutes study writes its numbers in the report and on the console: signed values,
//! estimates with their intervals, shares, and the payoff matrix of player 1's strategies
//! against player 2's.

use super::pairings::Pairing;
use experiment_engine::frame::{format_number, percent, Role};
use experiment_engine::report::{Cell, Table, Text};
use experiment_engine::stats::Estimate;

/// `value` with its sign (`+0.5`, `-0.5`, `0`).
pub(super) fn signed(value: f64) -> String {
    if value > 0.0 {
        format!("+{}", format_number(value))
    } else {
        format_number(value)
    }
}

/// `estimate` signed, with its interval: `+0.5 [+0.4, +0.6]`.
pub(super) fn with_ci(estimate: &Estimate) -> String {
    let ci = estimate.confidence_interval;
    if ci.lower.is_nan() {
        return signed(estimate.point);
    }
    format!(
        "{} [{}, {}]",
        signed(estimate.point),
        signed(ci.lower),
        signed(ci.upper)
    )
}

/// `estimate` as a cell `+0.5 [+0.4, +0.6]` (a dash when there is none).
pub(super) fn estimate_cell(estimate: &Estimate) -> Cell {
    if estimate.point.is_nan() {
        Cell::missing("–")
    } else {
        Cell::shown(with_ci(estimate), estimate.point)
    }
}

/// A share as a percentage cell.
pub(super) fn percent_cell(share: f64) -> Cell {
    Cell::shown(percent(share), share)
}

/// A matrix with player 1's strategies `names` as rows and player 2's as columns, each cell
/// (`role`) made by `cell` from the pairing, a dash where it did not run.
pub(super) fn matrix(
    names: &[&str],
    pairings: &[Pairing],
    role: Role,
    cell: impl Fn(&Pairing) -> Cell,
) -> Table {
    let mut table = Table::new(
        std::iter::once(("first \\ second".to_string(), Role::Label))
            .chain(names.iter().map(|name| (name.to_string(), role))),
    );
    for row in names {
        let mut cells = vec![Cell::text(Text::new().strong(*row))];
        cells.extend(names.iter().map(|column| {
            pairings
                .iter()
                .find(|p| p.first.name() == *row && p.second.name() == *column)
                .map_or(Cell::missing("–"), &cell)
        }));
        table.row(cells);
    }
    table
}
