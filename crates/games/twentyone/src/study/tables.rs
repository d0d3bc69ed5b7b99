//! Twenty-One's tables: the summary with exact values beside the simulated rates, the
//! player's totals, the results the report and the run show, and the comparisons against the
//! best rule with the exact difference.

use anyhow::Result;

use super::against::Against;
use super::{row, Ranking, Row};
use crate::exact::ExactOutcome;
use crate::game::{Rules, TwentyOneSummary};
use experiment_engine::analysis::Analysis;
use experiment_engine::frame::{NamedTable, Role, TableBuilder};
use experiment_engine::report::Table;
use experiment_engine::summary::IntegerMoments;

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

/// A column for each table rule that some row changes from its default, under the rule's own
/// name (none at the default rules, so the shipped tables keep their columns).
fn rule_columns(mut table: TableBuilder, rows: &[Row]) -> TableBuilder {
    let default = Rules::default();
    let changed =
        |differs: fn(&Rules, &Rules) -> bool| rows.iter().any(|r| differs(&r.rules, &default));
    if changed(|a, b| a.decks != b.decks) {
        table = table
            .count("decks", column(rows, |r| u64::from(r.rules.decks)))
            .role(Role::Parameter);
    }
    if changed(|a, b| a.tie != b.tie) {
        table = table
            .text("tie", column(rows, |r| <&str>::from(r.rules.tie)))
            .role(Role::Parameter);
    }
    if changed(|a, b| a.soft_17 != b.soft_17) {
        table = table
            .text("soft_17", column(rows, |r| <&str>::from(r.rules.soft_17)))
            .role(Role::Parameter);
    }
    if changed(|a, b| a.natural_pays != b.natural_pays) {
        table = table
            .real("natural_pays", column(rows, |r| r.rules.natural_pays))
            .role(Role::Parameter);
    }
    table
}

/// The mean payoff with its interval and exact value, when it ranks the rows.
fn payoff_columns(table: TableBuilder, rows: &[Row], ranking: Ranking) -> TableBuilder {
    if ranking != Ranking::MeanPayoff {
        return table;
    }
    table
        .estimate("mean_payoff", &column(rows, |r| r.payoff))
        .real(
            "exact_mean_payoff",
            column(rows, |r| r.exact.mean_payoff(&r.rules)),
        )
}

/// One row per rule: its counts, each declared rate with its interval and exact value, and
/// the win rate's z against the exact value (the `summary` table); the changed rules, what a
/// run in stages decided ([`Analysis::decided_columns`]) and, when it ranks the rules, the
/// mean payoff too.
pub fn summary_table(
    rows: &[Row],
    analysis: &Analysis<TwentyOneSummary>,
    ranking: Ranking,
) -> Result<NamedTable> {
    let table = TableBuilder::new()
        .text("variant", column(rows, |r| r.variant.name.clone()))
        .role(Role::Label)
        .text("strategy", column(rows, |r| r.strategy.name()))
        .role(Role::Parameter)
        .real("param", column(rows, |r| r.param()))
        .role(Role::Parameter);
    let table = rule_columns(table, rows).count("games", column(rows, |r| r.summary.games));
    let mut table = analysis
        .decided_columns(table)
        .count("wins", column(rows, |r| r.summary.wins))
        .count("player_busts", column(rows, |r| r.summary.player_busts))
        .count("dealer_busts", column(rows, |r| r.summary.dealer_busts))
        .count("ties", column(rows, |r| r.summary.ties));
    if rows.iter().any(|r| r.rules.natural_pays != 1.0) {
        table = table.count("natural_wins", column(rows, |r| r.summary.natural_wins));
    }
    for (name, exact) in RATES {
        let rate = format!("{name}_rate");
        table = table
            .estimate(&rate, &analysis.estimates(&rate))
            .real(&format!("exact_{rate}"), column(rows, |r| exact(&r.exact)));
        if name == "win" {
            table = payoff_columns(table.real("z", column(rows, |r| r.z())), rows, ranking);
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

/// The results per rule, as the report shows them and the run prints them (with the changed
/// rules, and the mean payoff when it ranks the rules).
pub fn results_table(
    rows: &[Row],
    analysis: &Analysis<TwentyOneSummary>,
    ranking: Ranking,
) -> Result<Table> {
    let table = TableBuilder::new()
        .text("variant", column(rows, |r| r.variant.name.clone()))
        .role(Role::Label);
    let table = rule_columns(table, rows)
        .count("games", column(rows, |r| r.summary.games))
        .estimate("win_rate", &column(rows, |r| r.win))
        .real("exact_win_rate", column(rows, |r| r.exact.win))
        .real("z", column(rows, |r| r.z()));
    Table::from_builder(
        payoff_columns(table, rows, ranking)
            .real("bust_rate", analysis.points("bust_rate"))
            .real("dealer_bust_rate", analysis.points("dealer_bust_rate")),
    )
}

/// Each rule against the reference rule of the comparisons (`against`, effects rule −
/// reference), with the exact difference beside the simulated one. Unpaired tests name their
/// statistic (`z`, `t`); a paired test's statistic depends on the order of its pair and is
/// left to `comparisons.csv`.
pub fn comparisons_table(
    rows: &[Row],
    against: &[Against],
    ranking: Ranking,
    paired: bool,
) -> Result<Table> {
    let c = against;
    let exact = |x: &Against| {
        row(rows, x.rule).exact_ranked(ranking) - row(rows, x.reference).exact_ranked(ranking)
    };
    let mut builder = TableBuilder::new()
        .text("variant", c.iter().map(|x| x.rule))
        .role(Role::Label)
        .text("reference", c.iter().map(|x| x.reference))
        .role(Role::Label)
        .estimate(
            "difference",
            &c.iter().map(|x| x.effect).collect::<Vec<_>>(),
        )
        .real("exact_difference", c.iter().map(exact));
    if !paired {
        let statistic = match ranking {
            Ranking::WinRate => "z",
            Ranking::MeanPayoff => "t",
        };
        builder = builder.real(statistic, c.iter().map(|x| x.comparison.result.statistic));
    }
    let builder = builder
        .real("p_value", c.iter().map(|x| x.comparison.result.p_value))
        .role(Role::PValue)
        .real("p_holm", c.iter().map(|x| x.comparison.p_holm))
        .role(Role::Holm)
        .text(
            "significant",
            c.iter().map(|x| if x.significant() { "yes" } else { "no" }),
        )
        .role(Role::Verdict);
    Table::from_builder(if paired {
        builder.real(
            "variance_ratio",
            c.iter().map(|x| x.comparison.variance_ratio),
        )
    } else {
        builder
    })
}
