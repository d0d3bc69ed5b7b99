//! Twenty-One's tables: the summary with exact values beside the simulated rates, the
//! player's totals, the results the report and the run show, and the comparisons against the
//! best rule with the exact difference.

use anyhow::Result;

use super::{row, Row};
use crate::analysis::{Analysis, Comparison};
use crate::exact::twentyone::ExactOutcome;
use crate::frame::{NamedTable, Role, TableBuilder};
use crate::games::twentyone::TwentyOneSummary;
use crate::report::Table;
use crate::stats::ALPHA;
use crate::summary::IntegerMoments;

/// A declared rate the summary shows (`{name}_rate`) and how its exact value is read.
type Rate = (&'static str, fn(&ExactOutcome) -> f64);

/// The declared rates the summary shows, each with its exact value.
const RATES: [Rate; 4] = [
    ("win", |e| e.win),
    ("bust", |e| e.player_bust),
    ("dealer_bust", |e| e.dealer_bust),
    ("tie", |e| e.tie),
];

fn column<R, T>(items: &[R], f: impl Fn(&R) -> T) -> Vec<T> {
    items.iter().map(f).collect()
}

/// One row per rule: its counts, each declared rate with its interval and exact value, and
/// the win rate's z against the exact value (the `summary` table).
pub fn summary_table(rows: &[Row], analysis: &Analysis<TwentyOneSummary>) -> Result<NamedTable> {
    let mut table = TableBuilder::new()
        .text("variant", column(rows, |r| r.variant.name.clone()))
        .role(Role::Label)
        .text("strategy", column(rows, |r| r.strategy.name()))
        .role(Role::Parameter)
        .real("param", column(rows, |r| r.param()))
        .role(Role::Parameter)
        .count("games", column(rows, |r| r.summary.games))
        .count("wins", column(rows, |r| r.summary.wins))
        .count("player_busts", column(rows, |r| r.summary.player_busts))
        .count("dealer_busts", column(rows, |r| r.summary.dealer_busts))
        .count("ties", column(rows, |r| r.summary.ties));
    for (name, exact) in RATES {
        let rate = format!("{name}_rate");
        table = table
            .estimate(&rate, &analysis.estimates(&rate))
            .real(&format!("exact_{rate}"), column(rows, |r| exact(&r.exact)));
        if name == "win" {
            table = table.real("z", column(rows, |r| r.z()));
        }
    }
    table
        .real(
            "mean_player_total",
            column(rows, |r| {
                IntegerMoments::from_histogram(&r.summary.player_total_histogram).mean()
            }),
        )
        .named("summary")
}

/// The player's final totals per rule, with each total's share of games (the
/// `player_totals` table).
pub fn totals_table(rows: &[Row]) -> Result<NamedTable> {
    let (mut variants, mut totals, mut counts, mut shares) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for row in rows {
        for (total, &count) in row.summary.player_total_histogram.iter().enumerate() {
            if count > 0 {
                variants.push(row.variant.name.as_str());
                totals.push(total as u64);
                counts.push(count);
                shares.push(count as f64 / row.summary.games as f64);
            }
        }
    }
    TableBuilder::new()
        .text("variant", variants)
        .role(Role::Label)
        .count("player_total", totals)
        .role(Role::Bin)
        .count("count", counts)
        .real("share", shares)
        .named("player_totals")
}

/// The results per rule, as the report shows them and the run prints them.
pub fn results_table(rows: &[Row], analysis: &Analysis<TwentyOneSummary>) -> Result<Table> {
    Table::from_builder(
        TableBuilder::new()
            .text("variant", column(rows, |r| r.variant.name.clone()))
            .role(Role::Label)
            .count("games", column(rows, |r| r.summary.games))
            .estimate("win_rate", &column(rows, |r| r.win))
            .real("exact_win_rate", column(rows, |r| r.exact.win))
            .real("z", column(rows, |r| r.z()))
            .real("bust_rate", analysis.points("bust_rate"))
            .real("dealer_bust_rate", analysis.points("dealer_bust_rate")),
    )
}

/// The comparisons against the best rule, with the exact difference beside the simulated
/// one.
pub fn comparisons_table(rows: &[Row], comparisons: &[Comparison]) -> Result<Table> {
    let c = comparisons;
    let exact = |x: &Comparison| row(rows, &x.a).exact.win - row(rows, &x.b).exact.win;
    Table::from_builder(
        TableBuilder::new()
            .text("variant", c.iter().map(|x| x.a.as_str()))
            .role(Role::Label)
            .text("best", c.iter().map(|x| x.b.as_str()))
            .role(Role::Label)
            .estimate(
                "difference",
                &c.iter().map(|x| x.result.effect).collect::<Vec<_>>(),
            )
            .real("exact_difference", c.iter().map(exact))
            .real("z", c.iter().map(|x| x.result.statistic))
            .real("p_value", c.iter().map(|x| x.result.p_value))
            .role(Role::PValue)
            .real("p_holm", c.iter().map(|x| x.p_holm))
            .role(Role::Holm)
            .text(
                "significant",
                c.iter()
                    .map(|x| if x.p_holm < ALPHA { "yes" } else { "no" }),
            )
            .role(Role::Verdict),
    )
}
