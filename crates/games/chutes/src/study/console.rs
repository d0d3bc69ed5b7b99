//! What a tournament prints after it runs: the base game against exact, the payoff matrix and
//! each strategy's average.

use super::analysed::Analysed;
use super::base::{BaseEstimates, BaseExact};
use super::cells::{matrix, signed, with_ci};
use super::pairings::{Average, Pairing};
use super::seats::exact_clause;
use crate::game::BaseGameSummary;
use experiment_engine::frame::{format_number, Role};
use experiment_engine::report::{estimate_text, Block, Cell, Table, Text};

/// `a`'s average over opponents and seats, with its exact value when a seat key is set
/// (`by_seat`).
fn average_cell(a: &Average, by_seat: bool) -> Cell {
    Cell::shown(
        format!(
            "{}{}",
            with_ci(&a.overall),
            exact_clause(by_seat, a.exact.overall)
        ),
        a.overall.point,
    )
}

/// The console's blocks.
pub(super) fn console(
    base: &BaseGameSummary,
    exact: &BaseExact,
    pairings: &[Pairing],
    averages: &[Average],
    by_seat: bool,
) -> Vec<Block> {
    let names: Vec<&str> = averages.iter().map(|a| a.name).collect();
    let mut strategies = Table::new([
        ("strategy", Role::Label),
        ("average payoff (95% CI)", Role::Estimate),
    ]);
    for a in averages {
        strategies.row(vec![
            Cell::text(a.name),
            if a.overall.point.is_nan() {
                Cell::missing("– (self-play only)")
            } else {
                average_cell(a, by_seat)
            },
        ]);
    }
    vec![
        base_game(base, exact),
        Block::paragraph("Mean payoff to player 1 (rows) against player 2 (columns):"),
        Block::Table(matrix(&names, pairings, Role::Number, |p| {
            let point = p.mean_payoff().point;
            Cell::shown(
                format!("{} (exact {})", signed(point), signed(p.exact)),
                point,
            )
        })),
        Block::paragraph(
            Text::new().plain(
                "Average payoff per game over opponents, in the seats each strategy played:",
            ),
        ),
        Block::Table(strategies),
    ]
}

/// The base game against its exact values, in one paragraph.
fn base_game(base: &BaseGameSummary, exact: &BaseExact) -> Block {
    let e = BaseEstimates::new(base);
    Block::paragraph(format!(
        "Base game: P(player 1 wins) {} (exact {}), mean length {} moves (exact {}).",
        estimate_text(&e.p1),
        format_number(exact.p1_wins),
        estimate_text(&e.turns),
        format_number(exact.mean_length())
    ))
}

/// The console's blocks for a run of several tournaments: the base game, then each
/// strategy's average by tournament.
pub(super) fn several(
    base: &BaseGameSummary,
    exact: &BaseExact,
    played: &[Analysed],
    by_seat: bool,
) -> Vec<Block> {
    let mut names: Vec<&'static str> = Vec::new();
    for &name in played.iter().flat_map(|p| &p.names) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let mut table = Table::new(
        std::iter::once(("tournament".to_string(), Role::Label))
            .chain(names.iter().map(|n| (n.to_string(), Role::Estimate))),
    );
    for p in played {
        let mut cells = vec![Cell::text(p.tournament.label.as_str())];
        cells.extend(
            names
                .iter()
                .map(|name| match p.averages.iter().find(|a| a.name == *name) {
                    Some(a) if a.overall.point.is_finite() => average_cell(a, by_seat),
                    _ => Cell::missing("–"),
                }),
        );
        table.row(cells);
    }
    vec![
        base_game(base, exact),
        Block::paragraph(format!(
            "Average payoff per game over opponents and seats, in each of {} tournaments:",
            played.len()
        )),
        Block::Table(table),
    ]
}
