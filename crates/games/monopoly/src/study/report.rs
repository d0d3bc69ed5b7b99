//! Monopoly's report: what a square's share means, the reading, the shared estimates, the
//! simulation against the exact chain, the comparisons between variants and each variant's
//! tables.

use anyhow::Result;

use super::landings::VariantLandings;
use super::{reading, tables};
use crate::game::{CardModel, Count, MonopolySummary, SQUARES};
use experiment_engine::analysis::{Analysis, Comparison};
use experiment_engine::frame::format_number;
use experiment_engine::report::{code, Block, Text};
use experiment_engine::stats::Estimate;

/// |z| beyond which a square's simulated frequency is flagged against the exact chain.
const Z_FLAG: f64 = 4.5;

/// The report's body: `comparisons` are the study's own, `squares` the square each is about
/// (`None` for a whole-distribution test).
pub fn report(
    rows: &[VariantLandings],
    comparisons: &[Comparison],
    squares: &[Option<usize>],
    analysis: &Analysis<MonopolySummary>,
) -> Result<Vec<Block>> {
    let overall: Vec<&Comparison> = comparisons
        .iter()
        .filter(|c| c.family == "distribution")
        .collect();
    let shares: Vec<(&str, &[Estimate])> = rows
        .iter()
        .map(|r| (r.variant.name.as_str(), r.freq.as_slice()))
        .collect();
    let turn_ends: Vec<&str> = rows
        .iter()
        .filter(|r| r.game.rules.count == Count::TurnEnd)
        .map(|r| r.variant.name.as_str())
        .collect();
    let no_go_to_jail: Vec<&str> = rows
        .iter()
        .filter(|r| !r.game.rules.go_to_jail)
        .map(|r| r.variant.name.as_str())
        .collect();
    let mut out = vec![
        Block::paragraph(
            Text::new()
                .plain(
                    "Each square's relative frequency is its share of all landings; its 95% \
                     interval comes from the spread of per-game counts (the game is the \
                     independent unit: a ratio estimator with a delta-method standard error). ",
                )
                .code("exact_freq")
                .plain(
                    " is the Markov chain's expected share for the same number of turns (cards \
                     drawn with replacement, as the chain assumes), and ",
                )
                .code("z")
                .plain(" is (simulated − exact) / standard error."),
        ),
        Block::figure("landing", "Landing frequency by square"),
        Block::heading(2, "Reading"),
        Block::List(reading::reading(
            &shares,
            &overall,
            &turn_ends,
            &no_go_to_jail,
        )),
    ];
    out.extend(analysis.estimates_section());
    out.extend([
        Block::paragraph(Text::new().code("jail_share").plain(
            " is Jail's share of all landings, with the ratio estimator's normal 95% \
                     interval; the means count one game's landings, all players together.",
        )),
        Block::heading(2, "Simulated against the exact chain"),
        Block::List(rows.iter().map(|row| against_chain(row, rows)).collect()),
        Block::heading(2, "Comparisons between variants"),
    ]);
    if overall.is_empty() {
        out.push(Block::paragraph(
            "Only one variant ran: nothing to compare.",
        ));
    } else {
        out.extend([
            Block::paragraph(
                "Chi-square homogeneity of the 40-square landing counts, with Rao and Scott's \
                 correction for the clustering of landings within games; Holm-corrected across \
                 the pairs.",
            ),
            Block::Table(tables::distribution_table(&overall)),
            Block::paragraph(format!(
                "The {} square differences with the largest |z| (a − b in relative frequency, \
                 Holm-corrected over every square of every pair):",
                tables::TOP_DIFFERENCES
            )),
            Block::Table(tables::top_differences_table(comparisons, squares)),
        ]);
    }
    out.push(Block::heading(2, "Tables per variant"));
    for row in rows {
        out.push(Block::heading(3, row.variant.name.as_str()));
        out.extend(tables::square_tables(row)?);
    }
    Ok(out)
}

/// How `row`'s simulated shares agree with the exact chain, or, for shuffled decks, which
/// variant of `rows` it can be set against instead.
fn against_chain(row: &VariantLandings, rows: &[VariantLandings]) -> Text {
    let name = code(row.variant.name.as_str());
    if row.exact.is_none() {
        // A variant of the run with the same jail rule whose cards the chain describes.
        let chained = rows
            .iter()
            .any(|r| r.game.jail == row.game.jail && r.game.cards == CardModel::WithReplacement);
        return name.plain(if chained {
            ": shuffled decks have no chain here (the chain assumes cards drawn with \
             replacement); compare it with the with-replacement variant below."
        } else {
            ": shuffled decks have no chain here (the chain assumes cards drawn with \
             replacement), and no variant of this run draws cards with replacement under the \
             same jail rule to set it against."
        });
    }
    let zs: Vec<f64> = (0..SQUARES.len())
        .map(|s| row.z(s))
        .filter(|z| z.is_finite())
        .collect();
    let worst = zs.iter().fold(0.0f64, |m, z| m.max(z.abs()));
    let flagged = zs.iter().filter(|z| z.abs() >= Z_FLAG).count();
    name.plain(format!(
        ": largest |z| over the 39 reachable squares is {}; {flagged} square(s) at |z| ≥ \
         {Z_FLAG}.{}",
        format_number(worst),
        if flagged == 0 {
            " The simulation agrees with the chain."
        } else {
            " Check the rules: the simulation and the chain disagree."
        }
    ))
}
