//! The Chutes & Ladders study's report: its reading, the base game, the payoff matrix against
//! the exact values, the strategies' averages and their comparisons, around the shared
//! estimates section.

use super::across::{self, Across};
use super::analysed::{Analysed, Inputs};
use super::base::{observed_length, BaseEstimates, BaseExact};
use super::cells::{estimate_cell, matrix, percent_cell, signed};
use super::common;
use super::pairings::{Average, Pairing};
use super::reading;
use super::seats;
use crate::game::{BaseGameSummary, Racers};
use experiment_engine::analysis::{paired, Comparison};
use experiment_engine::frame::{format_number, percent, Role};
use experiment_engine::report::{Block, Cell, Table, Text};
use experiment_engine::stats::{self, wilson};

/// The report's body.
pub(super) fn report(inputs: &Inputs) -> Vec<Block> {
    let mut out = vec![
        Block::heading(2, "Reading"),
        Block::List(reading::reading(inputs)),
    ];
    out.extend(base_game_section(inputs.base, inputs.exact));
    out.extend(payoff_section(inputs));
    out.extend(inputs.analysis.estimates_section());
    out.push(Block::paragraph(
        Text::new()
            .plain("Game lengths per pairing, in moves of both players, are in ")
            .code("histogram.csv")
            .plain("."),
    ));
    out.extend(strategies_section(inputs));
    out.extend(comparisons_section(inputs.comparisons, inputs.common));
    out
}

/// The report's body for a run of several tournaments (`all`: each tournament's inputs, in
/// tournament order): the reading across them, the base game, the standings across
/// tournaments, the shared estimates, then each tournament's own sections.
pub(super) fn report_several(all: &[Inputs], played: &[Analysed], across: &[Across]) -> Vec<Block> {
    let first = &all[0];
    let pairings: Vec<&Pairing> = played.iter().flat_map(|p| &p.pairings).collect();
    let mut out = vec![
        Block::heading(2, "Reading"),
        Block::List(vec![
            reading::first_player(first),
            across::reading(played, across, first.by_seat),
            reading::against_exact(first, &pairings),
        ]),
    ];
    out.extend(base_game_section(first.base, first.exact));
    out.extend(across::section(
        played,
        across,
        across::chart(played).is_some(),
        first.by_seat,
    ));
    out.extend(first.analysis.estimates_section());
    out.push(Block::paragraph(
        Text::new()
            .plain("Game lengths per pairing, in moves of both players, are in ")
            .code("histogram.csv")
            .plain("."),
    ));
    for (inputs, p) in all.iter().zip(played) {
        out.push(Block::heading(
            2,
            Text::new()
                .plain("Tournament ")
                .code(p.tournament.label.as_str()),
        ));
        out.push(Block::List(reading::tournament(inputs)));
        let mut own = payoff_section(inputs);
        own.extend(strategies_section(inputs));
        own.extend(comparisons_section(inputs.comparisons, inputs.common));
        // Within a tournament's section, its sections are subsections.
        out.extend(own.into_iter().map(|block| match block {
            Block::Heading { text, .. } => Block::Heading { level: 3, text },
            other => other,
        }));
    }
    out
}

fn base_game_section(base: &BaseGameSummary, exact: &BaseExact) -> Vec<Block> {
    let e = BaseEstimates::new(base);
    let seen =
        |length: Option<usize>| length.map_or(Cell::missing("–"), |n| Cell::count(n as u64));
    let mut table = Table::new([
        ("quantity", Role::Text),
        ("simulated (95% CI)", Role::Text),
        ("exact", Role::Number),
    ]);
    let rows = [
        (
            "P(player 1 wins)",
            estimate_cell(&e.p1),
            Cell::number(exact.p1_wins),
        ),
        (
            "mean length (moves)",
            estimate_cell(&e.turns),
            Cell::number(exact.mean_length()),
        ),
        (
            "median length",
            seen(stats::histogram_median(&base.turn_histogram)),
            Cell::count(exact.median_length() as u64),
        ),
        (
            "shortest game",
            seen(observed_length(base, true)),
            Cell::count(exact.min_length() as u64),
        ),
        (
            "longest game seen",
            seen(observed_length(base, false)),
            Cell::missing("–"),
        ),
        (
            "one player alone: mean / median / minimum turns",
            Cell::missing("–"),
            Cell::text(format!(
                "{} / {} / {}",
                format_number(exact.solo.mean),
                exact.solo.median,
                exact.solo.min
            )),
        ),
    ];
    for (quantity, simulated, exact) in rows {
        table.row(vec![Cell::text(quantity), simulated, exact]);
    }
    vec![
        Block::heading(2, "The base game (no cube)"),
        Block::paragraph(format!(
            "{} games on {}, on their own random stream. {}",
            base.games,
            exact.board,
            match exact.racers {
                Racers::Two => "A game's length counts the moves of both players.",
                Racers::One =>
                    "One player races alone (base_players = 1): a game's length is \
                                his turns, the single-player game.",
            }
        )),
        Block::Table(table),
        Block::figure("game_length", "Game length, simulated and exact"),
    ]
}

fn payoff_section(inputs: &Inputs) -> Vec<Block> {
    let Inputs {
        shared,
        pairings,
        averages,
        ..
    } = *inputs;
    let names: Vec<&str> = averages.iter().map(|a| a.name).collect();
    let mut exact = Table::new([
        ("pairing", Role::Label),
        ("simulated", Role::Number),
        ("exact", Role::Number),
        ("z", Role::Number),
        ("p (Holm)", Role::Holm),
    ]);
    for p in pairings {
        let simulated = p.mean_payoff().point;
        exact.row(vec![
            Cell::text(p.name.as_str()),
            Cell::shown(signed(simulated), simulated),
            Cell::shown(signed(p.exact), p.exact),
            Cell::number(p.exact_z()),
            Cell::p(p.exact_p_holm),
        ]);
    }
    let mut cube = Table::new([
        ("pairing", Role::Label),
        ("drop rate", Role::Number),
        ("mean final stake", Role::Number),
        ("cap reached", Role::Count),
        ("P(player 1 wins)", Role::Number),
        ("mean doubles", Role::Number),
        ("mean moves", Role::Number),
    ]);
    for p in pairings {
        let s = &p.summary;
        let doubles = s.doubles as f64 / s.games as f64;
        cube.row(vec![
            Cell::text(p.name.as_str()),
            percent_cell(wilson(s.drops, s.games).point),
            Cell::number(p.final_stake().point),
            Cell::shown(
                format!(
                    "{} ({})",
                    s.cap_reached,
                    percent(wilson(s.cap_reached, s.games).point)
                ),
                s.cap_reached as f64,
            ),
            percent_cell(wilson(s.p1_wins, s.games).point),
            Cell::number(doubles),
            Cell::number(p.turns().mean()),
        ]);
    }
    vec![
        Block::heading(2, "Payoff matrix"),
        Block::paragraph(
            Text::new()
                .plain(format!(
                    "Mean payoff per game to player 1 (row strategy, moving first) against \
                     player 2 (column), with 95% Student-t intervals; stake 1, cube cap {}, ",
                    shared.max_cube
                ))
                .append(seats::thresholds(shared, &names, inputs.by_seat))
                .plain(". Every cell is ")
                .code("mean_payoff")
                .plain(" in ")
                .code("payoffs.csv")
                .plain("."),
        ),
        Block::Table(matrix(&names, pairings, Role::Estimate, |p| {
            estimate_cell(&p.mean_payoff())
        })),
        Block::figure(inputs.chart, "Payoff matrix"),
        Block::heading(3, "Simulated against exact"),
        Block::paragraph(
            Text::new()
                .plain(
                    "Exact payoffs come from policy evaluation of the two strategies over every \
                     (mover, squares, cube owner, stake) state. ",
                )
                .code("z")
                .plain(" = (simulated - exact) / standard error; ")
                .code("p (Holm)")
                .plain(" is Holm-corrected over the pairings."),
        ),
        Block::Table(exact),
        Block::heading(3, "The cube in each pairing"),
        Block::Table(cube),
        Block::paragraph(
            Text::new()
                .plain("Intervals for every rate are in ")
                .code("payoffs.csv")
                .plain("."),
        ),
    ]
}

fn strategies_section(inputs: &Inputs) -> Vec<Block> {
    let Inputs {
        averages,
        common,
        by_seat,
        ..
    } = *inputs;
    let mut columns = vec![
        ("strategy", Role::Label),
        ("opponents", Role::Count),
        ("average payoff (95% CI)", Role::Text),
        ("as player 1", Role::Text),
        ("as player 2", Role::Text),
    ];
    if by_seat {
        columns.extend(seats::EXACT_COLUMNS);
    }
    let mut table = Table::new(columns);
    let mut ranked: Vec<&Average> = averages.iter().collect();
    ranked.sort_by(|a, b| b.overall.point.total_cmp(&a.overall.point));
    for a in ranked {
        let mut cells = vec![
            Cell::text(a.name),
            Cell::count(a.opponents.len() as u64),
            estimate_cell(&a.overall),
            estimate_cell(&a.as_first),
            estimate_cell(&a.as_second),
        ];
        if by_seat {
            cells.extend(seats::exact_cells(a));
        }
        table.row(cells);
    }
    let intervals = if common {
        " On common dice the pairings' means are correlated: an average's interval is that of \
         the mean of its per-game weighted sum (paired t, n − 1 degrees of freedom), from every \
         pair's covariance (exact sums of products of the per-game payoffs)."
    } else {
        " Intervals come from the independent pairing means (Welch–Satterthwaite)."
    };
    let mut about = Text::new().plain(format!(
        "A strategy's average is the mean, with equal weight, of its payoff per game in every \
         pairing against another strategy, as player 1 and as player 2 (self-play is left out: it \
         nets to zero for the strategy).{intervals}"
    ));
    if by_seat {
        about = about.append(seats::exact_note());
    }
    vec![
        Block::heading(2, "Strategies over opponents and seats"),
        Block::paragraph(about),
        Block::Table(table),
    ]
}

fn comparisons_section(comparisons: &[Comparison], common: bool) -> Vec<Block> {
    let mut out = vec![Block::heading(2, "Comparisons")];
    if common {
        out.push(Block::paragraph(
            Text::new()
                .code(common::FAMILY)
                .plain(
                    ": pairings that differ in one player's strategy, played on the same dice \
                     (common random numbers): the paired difference of that player's points \
                     per game, a − b, tested with the paired t-test. ",
                )
                .code("p (Holm)")
                .plain(" is corrected within the family."),
        ));
        out.push(Block::paragraph(
            Text::new()
                .code("average_payoff")
                .plain(" (strategy a's average minus b's) and ")
                .code("head_to_head")
                .plain(
                    " (a's payoff per game against b, each seat equally): contrasts of pairing \
                     means on the same dice, each the mean of its per-game weighted sum, tested \
                     with the paired t-test (n − 1 degrees of freedom) from every pair's \
                     covariance; ",
                )
                .code("variance_ratio")
                .plain(" in ")
                .code("comparisons.csv")
                .plain(
                    " says how many times the games an independent design would need for the \
                     same interval; ",
                )
                .code("p (Holm)")
                .plain(" is corrected within each family."),
        ));
        for (family, missing) in [
            (
                common::FAMILY,
                "No two pairings here differ in one player's strategy only, so none could be \
                 compared on the same dice.",
            ),
            (
                "average_payoff",
                "No two strategies here both have an average over opponents, so no averages are \
                 compared.",
            ),
            (
                "head_to_head",
                "No two strategies here met each other in both seats, so none is compared head \
                 to head.",
            ),
        ] {
            if !comparisons.iter().any(|c| c.family == family) {
                out.push(Block::paragraph(
                    Text::new()
                        .code(family)
                        .plain(format!(": no data. {missing}")),
                ));
            }
        }
    } else {
        out.push(Block::paragraph(
            Text::new()
                .code("average_payoff")
                .plain(
                    ": strategy a's average (above) minus b's, a contrast of independent pairing \
                     means tested with Welch's t (the games a and b play against each other \
                     count in both averages, which the contrast accounts for). ",
                )
                .code("head_to_head")
                .plain(": a's payoff per game against b with each seat weighted equally. ")
                .code("p (Holm)")
                .plain(" is corrected within each family."),
        ));
        if comparisons.is_empty() {
            out.push(Block::paragraph(
                "No two strategies could be compared here: that needs an average over \
                 opponents for both, or games between them in both seats.",
            ));
        }
    }
    for family in ["average_payoff", "head_to_head", common::FAMILY] {
        let mut table = Table::new([
            ("a", Role::Label),
            ("b", Role::Label),
            ("a - b (95% CI)", Role::Text),
            ("t", Role::Number),
            ("p", Role::PValue),
            ("p (Holm)", Role::Holm),
        ]);
        for c in comparisons.iter().filter(|c| c.family == family) {
            table.row(vec![
                Cell::text(c.a.as_str()),
                Cell::text(c.b.as_str()),
                estimate_cell(&c.result.effect),
                Cell::number(c.result.statistic),
                Cell::p(c.result.p_value),
                Cell::p(c.p_holm),
            ]);
        }
        if !table.rows.is_empty() {
            out.extend([Block::heading(3, family), Block::Table(table)]);
        }
    }
    if common && !comparisons.is_empty() {
        out.extend(paired::family_precision_blocks(common::FAMILY, comparisons));
    }
    out
}
