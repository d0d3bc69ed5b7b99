//! Monopoly's tables: every square of every variant (`landing`), one variant's squares by
//! frequency and in board order, and the comparisons the report shows.

use anyhow::Result;

use super::landings::VariantLandings;
use super::table_count;
use crate::game::SQUARES;
use experiment_engine::analysis::Comparison;
use experiment_engine::frame::{format_number, NamedTable, Role, TableBuilder};
use experiment_engine::report::{Block, Cell, Table, Text};

/// Squares listed in the report as differing most between variants.
pub const TOP_DIFFERENCES: usize = 10;

/// Every square of every variant: its count, share with interval and standard error, landings
/// per game, and the chain's share with z (the `landing` table).
pub fn landing_table(rows: &[VariantLandings]) -> Result<NamedTable> {
    let per_square = |f: &dyn Fn(&VariantLandings, usize) -> f64| -> Vec<f64> {
        rows.iter()
            .flat_map(|r| (0..SQUARES.len()).map(move |s| (r, s)))
            .map(|(r, s)| f(r, s))
            .collect()
    };
    let text = |f: &dyn Fn(&VariantLandings, usize) -> String| -> Vec<String> {
        rows.iter()
            .flat_map(|r| (0..SQUARES.len()).map(move |s| (r, s)))
            .map(|(r, s)| f(r, s))
            .collect()
    };
    let counts: Vec<u64> = rows
        .iter()
        .flat_map(|r| r.summary.counts().into_iter().map(table_count))
        .collect();
    let mut table = TableBuilder::new()
        .text("variant", text(&|r, _| r.variant.name.clone()))
        .role(Role::Label)
        .text("jail", text(&|r, _| r.game.jail.name().to_string()))
        .role(Role::Parameter)
        .text("cards", text(&|r, _| r.game.cards.name().to_string()))
        .role(Role::Parameter);
    for (name, values) in super::rule_columns(rows.iter(), SQUARES.len()) {
        table = table.text(name, values).role(Role::Parameter);
    }
    table
        .count("square", rows.iter().flat_map(|_| 1..=SQUARES.len() as u64))
        .role(Role::Bin)
        .text("name", text(&|_, s| SQUARES[s].0.to_string()))
        .text("group", text(&|_, s| SQUARES[s].1.to_string()))
        .count("count", counts)
        .interval(
            "freq",
            per_square(&|r, s| r.freq[s].point),
            per_square(&|r, s| r.freq[s].confidence_interval.lower.max(0.0)),
            per_square(&|r, s| r.freq[s].confidence_interval.upper),
        )
        .real("freq_se", per_square(&|r, s| r.freq[s].standard_error))
        .real(
            "per_game",
            per_square(&|r, s| r.summary.counts()[s] as f64 / r.summary.games() as f64),
        )
        .real("exact_freq", per_square(&|r, s| r.exact_at(s)))
        .real("z", per_square(&|r, s| r.z(s)))
        .named("landing")
}

/// One variant's squares, by frequency and in board order, each table under a line saying
/// what it holds: what the run prints and the report shows per variant.
pub fn square_tables(row: &VariantLandings) -> Result<Vec<Block>> {
    let mut order: Vec<usize> = (0..SQUARES.len()).collect();
    let counts = row.summary.counts();
    order.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
    Ok(vec![
        Block::paragraph(
            Text::new()
                .plain("Landings for ")
                .code(row.variant.name.as_str())
                .plain(format!(
                    " ({} games of {} turns, {} players), by frequency:",
                    row.summary.games(),
                    row.game.turns,
                    row.game.players
                )),
        ),
        Block::Table(square_table(row, &order)?),
        Block::paragraph("In board order:"),
        Block::Table(square_table(row, &(0..SQUARES.len()).collect::<Vec<_>>())?),
    ])
}

fn square_table(row: &VariantLandings, order: &[usize]) -> Result<Table> {
    let counts = row.summary.counts();
    let mut table = TableBuilder::new()
        .count("square", order.iter().map(|&s| s as u64 + 1))
        .text("name", order.iter().map(|&s| SQUARES[s].0))
        .count("count", order.iter().map(|&s| table_count(counts[s])))
        .interval(
            "freq",
            order.iter().map(|&s| row.freq[s].point),
            order
                .iter()
                .map(|&s| row.freq[s].confidence_interval.lower.max(0.0)),
            order.iter().map(|&s| row.freq[s].confidence_interval.upper),
        );
    if row.exact.is_some() {
        table = table
            .real("exact_freq", order.iter().map(|&s| row.exact_at(s)))
            .real("z", order.iter().map(|&s| row.z(s)));
    }
    Table::from_builder(table)
}

/// The chi-square comparisons of whole landing distributions.
pub fn distribution_table(overall: &[&Comparison]) -> Table {
    let mut table = Table::new([
        ("a", Role::Label),
        ("b", Role::Label),
        ("chi-square (corrected)", Role::Number),
        ("df", Role::Number),
        ("p", Role::PValue),
        ("p (Holm)", Role::Holm),
    ]);
    for o in overall {
        table.row(vec![
            Cell::text(o.a.as_str()),
            Cell::text(o.b.as_str()),
            Cell::number(o.result.statistic),
            Cell::shown(o.result.df.to_string(), o.result.df),
            Cell::p(o.result.p_value),
            Cell::p(o.p_holm),
        ]);
    }
    table
}

/// The [`TOP_DIFFERENCES`] per-square comparisons with the largest |z|; `squares` gives the
/// square each of `comparisons` is about (`None` for a whole-distribution test).
pub fn top_differences_table(comparisons: &[Comparison], squares: &[Option<usize>]) -> Table {
    let mut top: Vec<(usize, &Comparison)> = comparisons
        .iter()
        .zip(squares)
        .filter_map(|(c, square)| square.map(|square| (square, c)))
        .collect();
    top.sort_by(|(_, x), (_, y)| {
        y.result
            .statistic
            .abs()
            .total_cmp(&x.result.statistic.abs())
    });
    let mut table = Table::new([
        ("a", Role::Label),
        ("b", Role::Label),
        ("square", Role::Text),
        ("difference", Role::Effect),
        ("95% CI", Role::Interval),
        ("z", Role::Number),
        ("p (Holm)", Role::Holm),
    ]);
    for (square, s) in top.iter().take(TOP_DIFFERENCES) {
        let ci = s.result.effect.confidence_interval;
        table.row(vec![
            Cell::text(s.a.as_str()),
            Cell::text(s.b.as_str()),
            Cell::text(format!("{} {}", square + 1, SQUARES[*square].0)),
            Cell::number(s.result.effect.point),
            Cell::text(format!(
                "[{}, {}]",
                format_number(ci.lower),
                format_number(ci.upper)
            )),
            Cell::number(s.result.statistic),
            Cell::p(s.p_holm),
        ]);
    }
    table
}
