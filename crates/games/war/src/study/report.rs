//! War's report: its results table, the reading, the shared comparison sections under War's
//! own description, and the cycle periods.

use anyhow::Result;

use super::{decided, reading, WarParams, SHARE};
use crate::game::WarSummary;
use experiment_engine::analysis::comparison::NO_DATA;
use experiment_engine::analysis::Analysis;
use experiment_engine::frame::{NamedTable, Role, TableBuilder};
use experiment_engine::params::{ParamSet, ParamValue};
use experiment_engine::report::{Block, Cell, Table, Text};

/// Adds a column for each rule (deck, cards face down, running out) that some row's variant
/// changes from its default, in declared order: at the default rules the table is as it was
/// before rules existed. `rows` are the parameters of each table row.
fn changed_rules(mut table: TableBuilder, rows: &[&ParamSet]) -> TableBuilder {
    let Some(first) = rows.first() else {
        return table;
    };
    for (def, _) in first.declared() {
        if !rows
            .iter()
            .any(|params| params.changed_rules().any(|(name, _)| name == def.name))
        {
            continue;
        }
        let values = rows.iter().map(|params| params.get(def.name));
        table = match first.get(def.name) {
            ParamValue::Int(_) => table.int(
                def.name,
                values.map(|value| match value {
                    ParamValue::Int(x) => *x,
                    _ => i64::MIN,
                }),
            ),
            _ => table.text(def.name, values.map(|value| value.to_string())),
        }
        .role(Role::Parameter);
    }
    table
}

/// Each variant's cycling games by the period of their cycle (the `cycles` table).
pub fn cycles_table(analysis: &Analysis<WarSummary>, params: &[WarParams]) -> Result<NamedTable> {
    let (mut variants, mut strategies, mut rules, mut periods, mut counts) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (row, params) in analysis.rows.iter().zip(params) {
        for (&period, &count) in &row.summary.cycle_periods {
            variants.push(row.variant.name.as_str());
            strategies.push(params.placement.name());
            rules.push(&row.variant.params);
            periods.push(u64::from(period));
            counts.push(count);
        }
    }
    let table = TableBuilder::new()
        .text("variant", variants)
        .role(Role::Label)
        .text("strategy", strategies)
        .role(Role::Parameter);
    changed_rules(table, &rules)
        .count("period", periods)
        .role(Role::Bin)
        .count("count", counts)
        .named("cycles")
}

/// The results per strategy, as the report shows them and the run prints them; a strategy
/// without a game won by either player reads `no data` for player 1's share of them.
pub fn results_table(analysis: &Analysis<WarSummary>) -> Result<Table> {
    let rows = &analysis.rows;
    let table = TableBuilder::new()
        .text("strategy", rows.iter().map(|r| &r.variant.name))
        .role(Role::Label);
    let params: Vec<&ParamSet> = rows.iter().map(|r| &r.variant.params).collect();
    let mut table = Table::from_builder(
        changed_rules(table, &params)
            .count("games", rows.iter().map(|r| r.summary.games))
            .real("p1_win_rate", analysis.points("p1_win_rate"))
            .real(SHARE, analysis.points(SHARE))
            .count("infinite", analysis.counts("infinite"))
            .count("cycled", analysis.counts("cycled"))
            .estimate("mean_turns", &analysis.estimates("mean_turns"))
            .real("median_turns", analysis.values("median_turns"))
            .real("mean_wars", analysis.points("mean_wars")),
    )?;
    let share = table
        .columns
        .iter()
        .position(|c| c.header == SHARE)
        .expect("the share column was just added");
    for (cells, row) in table.rows.iter_mut().zip(rows) {
        if decided(row.summary) == 0 {
            cells[share] = Cell::missing(NO_DATA);
        }
    }
    Ok(table)
}

/// The report's body.
pub fn report(
    analysis: &Analysis<WarSummary>,
    params: &[WarParams],
    results: &Table,
    cycles: &NamedTable,
    trials: u64,
) -> Vec<Block> {
    let mut out = vec![
        Block::heading(2, "Results per strategy"),
        Block::paragraph(
            Text::new()
                .plain(
                    "Turn and war statistics are over finished games (a winner or a draw); rates \
                     are over all games with Wilson 95% intervals; means have Student-t 95% \
                     intervals. ",
                )
                .code(SHARE)
                .plain(
                    " is player 1's share of the games won by either player (draws and \
                     unfinished games left out).",
                ),
        ),
        Block::Table(results.clone()),
        Block::paragraph(
            Text::new()
                .plain("Every column, with all intervals, is in ")
                .code("summary.csv")
                .plain("; there ")
                .code("turn_limit")
                .plain(" is the spec's ")
                .code("max_turns")
                .plain(" (the turn limit), and the column ")
                .code("max_turns")
                .plain(" is the longest finished game observed, in turns."),
        ),
        Block::figure("game_length", "Game length by strategy"),
        Block::heading(2, "Reading"),
        Block::List(reading::reading(analysis, params, trials)),
        Block::heading(2, "Comparisons"),
    ];
    if analysis.comparisons.is_empty() {
        out.push(Block::paragraph(
            "Only one strategy ran: nothing to compare.",
        ));
    } else {
        out.push(Block::paragraph(
            Text::new()
                .plain(
                    "Pairwise tests between strategies: Welch's t on mean turns, two-proportion z \
                     on the non-terminating (infinite or cycled) rate and on player 1's share of \
                     the games won by either player (family ",
                )
                .code("p1_win_rate")
                .plain(
                    "), chi-square homogeneity on the turn histograms (sparse tail bins pooled). ",
                )
                .code("p_holm")
                .plain(
                    " is Holm-corrected within each family; effects are a - b with 95% intervals \
                     (Cramér's V for chi-square). A test between two strategies that both have \
                     no non-terminating game (or only such games), or of player 1's share where \
                     a strategy has no game won by either player, carries no information and \
                     reads ",
                )
                .code("no data")
                .plain("."),
        ));
        out.extend(analysis.comparisons_blocks());
    }
    if cycles.frame.height() > 0 {
        out.extend([
            Block::heading(2, "Cycle periods"),
            Block::paragraph("Games detected as cycling, by the period of their cycle in turns."),
            Block::Table(Table::from_named(cycles)),
        ]);
    }
    out
}
