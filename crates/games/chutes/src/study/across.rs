//! Across tournaments: each strategy's average, and each pairing's payoff, compared between the
//! run's tournaments (a `double_at` curve), with Holm's correction within each family, as a
//! table, a chart, a report section and a reading.

use anyhow::Result;

use super::analysed::Analysed;
use super::between;
use super::cells::{signed, with_ci};
use super::pairings::{average_weights, dominant_opponent, Average, Dice, Pairing};
use super::seats;
use super::tournaments::reads;
use experiment_engine::analysis::{comparison, Comparison};
use experiment_engine::frame::{NamedTable, Role, TableBuilder};
use experiment_engine::params::ParamValue;
use experiment_engine::plot::{Chart, LineChart, Series};
use experiment_engine::report::{code, Block, Cell, Table, Text};
use experiment_engine::stats::{Estimate, ALPHA};

/// The family of the comparisons of a strategy's average between tournaments.
const STRATEGY: &str = "strategy_average";
/// The family of the comparisons of a pairing's payoff between tournaments.
const PAIRING: &str = "pairing";

/// One comparison between two tournaments (`a` and `b` are their labels).
pub(super) struct Across {
    /// What is compared: a strategy (family `strategy_average`) or a pairing `first-second`
    /// (family `pairing`).
    pub(super) subject: String,
    /// The test, its effect a - b, Holm-adjusted within its family over the run.
    pub(super) comparison: Comparison,
}

/// Whether `a` and `b` average over the same opponents in the same seats, so that the
/// difference of their averages is the difference the tournaments make.
fn same_opponents(a: &Average, b: &Average) -> bool {
    let seats = |x: &Average| (x.as_first.point.is_finite(), x.as_second.point.is_finite());
    a.overall.point.is_finite()
        && b.overall.point.is_finite()
        && seats(a) == seats(b)
        && a.opponents.len() == b.opponents.len()
        && a.opponents.iter().all(|o| b.opponents.contains(o))
}

/// `name`'s average in `played`, if it played there.
fn average<'p>(played: &'p Analysed, name: &str) -> Option<&'p Average> {
    played.averages.iter().find(|a| a.name == name)
}

/// A pairing by its strategies, `first-second` (its variant's name may hold more).
fn pairing_name(pairing: &Pairing) -> String {
    format!("{}-{}", pairing.first.name(), pairing.second.name())
}

/// The strategies of `played`, in the order they first appear in any tournament.
fn strategies(played: &[Analysed]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for &name in played.iter().flat_map(|p| &p.names) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// Every strategy's average, then every pairing's payoff, compared between every two
/// tournaments where it played (a strategy only where it met the same opponents in the same
/// seats), Holm-adjusted within each family.
pub(super) fn compare(played: &[Analysed]) -> Vec<Across> {
    let all = between::all(played);
    let mut subjects = Vec::new();
    let mut comparisons = Vec::new();
    for name in strategies(played) {
        for (i, x) in played.iter().enumerate() {
            for y in &played[i + 1..] {
                let (Some(ax), Some(ay)) = (average(x, name), average(y, name)) else {
                    continue;
                };
                if !same_opponents(ax, ay) {
                    continue;
                }
                let wx = average_weights(name, &x.pairings);
                let wy = average_weights(name, &y.pairings);
                subjects.push(name.to_string());
                comparisons.push(between::compare(
                    all,
                    STRATEGY,
                    (x, &wx),
                    (y, &wy),
                    "difference in the strategy's average payoff per game over opponents and \
                     seats (tournament a - b)",
                ));
            }
        }
    }
    let pairing_names: Vec<String> = played
        .iter()
        .flat_map(|p| p.pairings.iter().map(pairing_name))
        .fold(Vec::new(), |mut names, name| {
            if !names.contains(&name) {
                names.push(name);
            }
            names
        });
    let one = |p: &Analysed, name: &str| -> Option<Vec<f64>> {
        let at = p.pairings.iter().position(|x| pairing_name(x) == name)?;
        Some(
            (0..p.pairings.len())
                .map(|k| f64::from(u8::from(k == at)))
                .collect(),
        )
    };
    for name in pairing_names {
        for (i, x) in played.iter().enumerate() {
            for y in &played[i + 1..] {
                let (Some(wx), Some(wy)) = (one(x, &name), one(y, &name)) else {
                    continue;
                };
                subjects.push(name.clone());
                comparisons.push(between::compare(
                    all,
                    PAIRING,
                    (x, &wx),
                    (y, &wy),
                    "difference in player 1's mean payoff per game (tournament a - b)",
                ));
            }
        }
    }
    comparison::adjust(&mut comparisons);
    subjects
        .into_iter()
        .zip(comparisons)
        .map(|(subject, comparison)| Across {
            subject,
            comparison,
        })
        .collect()
}

/// `tournament_comparisons`: every comparison between tournaments.
pub(super) fn table(across: &[Across]) -> Result<NamedTable> {
    let c: Vec<&Comparison> = across.iter().map(|x| &x.comparison).collect();
    let table = TableBuilder::new()
        .text("family", c.iter().map(|x| x.family))
        .text("subject", across.iter().map(|x| x.subject.as_str()))
        .role(Role::Label)
        .text("a", c.iter().map(|x| x.a.as_str()))
        .role(Role::Parameter)
        .text("b", c.iter().map(|x| x.b.as_str()))
        .role(Role::Parameter);
    comparison::result_columns(table, &c).named("tournament_comparisons")
}

/// The names of the settings that tell `played`'s tournaments apart.
fn keys(played: &[Analysed]) -> Vec<&'static str> {
    played
        .first()
        .map_or_else(Vec::new, |p| p.tournament.key_names())
}

/// The strategies whose averages the curve follows: those that read every setting that
/// tells the tournaments apart (`threshold` alone for `double_at`, every strategy for the cap).
fn followed(played: &[Analysed]) -> Vec<&'static str> {
    let keys = keys(played);
    strategies(played)
        .into_iter()
        .filter(|name| keys.iter().all(|key| reads(name, key)))
        .collect()
}

/// A number-valued setting as a number.
fn number(value: &ParamValue) -> Option<f64> {
    match value {
        ParamValue::Int(n) => Some(*n as f64),
        ParamValue::Float(x) => Some(*x),
        _ => None,
    }
}

/// The chart `across_tournaments`: each followed strategy's average against the one setting
/// that tells the tournaments apart, with 95% intervals; none unless exactly one numeric
/// setting does.
pub(super) fn chart(played: &[Analysed]) -> Option<Chart> {
    let keys = keys(played);
    let [key] = keys[..] else {
        return None;
    };
    let xs = played
        .iter()
        .map(|p| number(&p.tournament.keys[0].1))
        .collect::<Option<Vec<f64>>>()?;
    let series: Vec<Series> = followed(played)
        .into_iter()
        .filter_map(|name| {
            let mut points: Vec<(f64, &Average)> = xs
                .iter()
                .zip(played)
                .filter_map(|(&x, p)| Some((x, average(p, name)?)))
                .filter(|(_, a)| a.overall.point.is_finite())
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            // An average without an interval (no sums of products kept) draws no band.
            let banded = points
                .iter()
                .all(|(_, a)| a.overall.confidence_interval.lower.is_finite());
            (points.len() >= 2).then(|| Series {
                label: if banded {
                    format!("{name} (95% CI)")
                } else {
                    name.to_string()
                },
                points: points.iter().map(|(x, a)| (*x, a.overall.point)).collect(),
                band: points
                    .iter()
                    .filter(|_| banded)
                    .map(|(x, a)| {
                        let ci = a.overall.confidence_interval;
                        (*x, ci.lower, ci.upper)
                    })
                    .collect(),
                ..Default::default()
            })
        })
        .collect();
    (!series.is_empty()).then(|| {
        Chart::Lines(LineChart {
            title: format!("Chutes & Ladders: average payoff per game by {key}"),
            x_label: key.to_string(),
            y_label: "average payoff per game over opponents and seats".into(),
            series,
            markers: true,
            x_log: key == "max_cube",
            ..Default::default()
        })
    })
}

/// The tournament where `name` averages most, if it played with an average in two or more.
fn best<'p>(played: &'p [Analysed], name: &str) -> Option<(&'p Analysed<'p>, &'p Average)> {
    let mut with: Vec<(&Analysed, &Average)> = played
        .iter()
        .filter_map(|p| Some((p, average(p, name)?)))
        .filter(|(_, a)| a.overall.point.is_finite())
        .collect();
    if with.len() < 2 {
        return None;
    }
    with.sort_by(|x, y| y.1.overall.point.total_cmp(&x.1.overall.point));
    with.first().copied()
}

/// The comparisons of `name`'s average between tournament `label` and each other one.
fn against<'a>(across: &'a [Across], name: &str, label: &str) -> Vec<&'a Comparison> {
    across
        .iter()
        .filter(|x| x.comparison.family == STRATEGY && x.subject == name)
        .map(|x| &x.comparison)
        .filter(|c| c.a == label || c.b == label)
        .collect()
}

/// The report's section across tournaments: the standings by tournament (and their exact
/// values, with a seat key set: `by_seat`), the curve, and each followed strategy's best
/// tournament against the others.
pub(super) fn section(
    played: &[Analysed],
    across: &[Across],
    charted: bool,
    by_seat: bool,
) -> Vec<Block> {
    let names = strategies(played);
    let keys = keys(played);
    let mut standings = Table::new(
        std::iter::once(("tournament".to_string(), Role::Label))
            .chain(names.iter().map(|n| (n.to_string(), Role::Estimate))),
    );
    for p in played {
        let mut cells = vec![Cell::text(code(p.tournament.label.as_str()))];
        cells.extend(names.iter().map(|name| match average(p, name) {
            Some(a) if a.overall.point.is_finite() => {
                Cell::shown(with_ci(&a.overall), a.overall.point)
            }
            _ => Cell::missing("–"),
        }));
        standings.row(cells);
    }
    let mut best_table = Table::new([
        ("strategy", Role::Label),
        ("best tournament", Role::Text),
        ("other tournament", Role::Text),
        ("best - other (95% CI)", Role::Text),
        ("p (Holm)", Role::Holm),
    ]);
    for name in followed(played) {
        let Some((top, _)) = best(played, name) else {
            continue;
        };
        let label = top.tournament.label.as_str();
        for c in against(across, name, label) {
            let Some(gap) = c.effect_for(label) else {
                continue;
            };
            best_table.row(vec![
                Cell::text(code(name)),
                Cell::text(code(label)),
                Cell::text(code(c.other(label))),
                Cell::shown(with_ci(&gap), gap.point),
                Cell::p(c.p_holm),
            ]);
        }
    }
    let mut out = vec![
        Block::heading(2, "Across tournaments"),
        Block::paragraph(
            Text::new()
                .plain(format!(
                    "The run holds {} tournaments, one for each setting of ",
                    played.len()
                ))
                .append(Text::join(&keys, ", ", |key| code(*key)))
                .plain(": the pairings that agree on every parameter but ")
                .code("first")
                .plain(" and ")
                .code("second")
                .plain(
                    " play one tournament, with its own exact solver, payoff matrix and \
                     standings (each in its section below). Each strategy's average payoff per \
                     game over its opponents and seats, by tournament (a dash where it did not \
                     play; rows of ",
                )
                .code("strategies.csv")
                .plain("):"),
        ),
        Block::Table(standings),
    ];
    if by_seat {
        out.extend(seats::exact_standings(played));
    }
    if charted {
        out.push(Block::figure(
            "across_tournaments",
            "Average payoff per game by tournament",
        ));
    }
    out.push(Block::paragraph(if uncompared(played) {
        Text::new()
            .code("tournament_comparisons.csv")
            .plain(format!(" has no rows: {}.", between::not_between()))
    } else {
        Text::new()
            .plain("Every comparison between tournaments is in ")
            .code("tournament_comparisons.csv")
            .plain(": ")
            .code(STRATEGY)
            .plain(
                ", a strategy's average in tournament a minus its average in b (only where it \
                 met the same opponents in the same seats); ",
            )
            .code(PAIRING)
            .plain(format!(
                ", a pairing's mean payoff to player 1 in a minus b; each {}, Holm-corrected \
                 within its family over the run.",
                if between::all(played).is_some() {
                    "a paired t-test of the per-game contrast (every pairing played as one job \
                     on the same dice)"
                } else {
                    "a Welch t-test of independent pairing means"
                }
            ))
    }));
    if !best_table.rows.is_empty() {
        out.push(Block::heading(
            3,
            "Each strategy's best tournament against the others",
        ));
        out.push(Block::Table(best_table));
    }
    out
}

/// The reading's item across tournaments: for each followed strategy, its best tournament and
/// how many of the others give it a lower average beyond doubt (and, with a seat key set,
/// `by_seat`, where its exact average is highest).
pub(super) fn reading(played: &[Analysed], across: &[Across], by_seat: bool) -> Text {
    let keys = keys(played);
    let labels: Vec<&str> = played.iter().map(|p| p.tournament.label.as_str()).collect();
    let mut out = Text::new()
        .strong("Across tournaments.")
        .plain(format!(
            " {} tournaments, one for each setting of ",
            played.len()
        ))
        .append(Text::join(&keys, ", ", |key| code(*key)))
        .plain(" (");
    out = if labels.len() > 4 {
        out.code(labels[0])
            .plain(" to ")
            .code(labels[labels.len() - 1])
    } else {
        out.append(Text::join(&labels, ", ", |l| code(*l)))
    };
    out = out.plain(").");
    if uncompared(played) {
        out = out.plain(format!(
            " No average or pairing is compared between tournaments (no data): {}.",
            between::not_between()
        ));
    }
    let followed = followed(played);
    if followed.is_empty() {
        return out.plain(
            " No strategy that played reads every setting that differs, so there is no curve \
             to read.",
        );
    }
    for name in followed {
        let Some((top, a)) = best(played, name) else {
            out = out
                .plain(" ")
                .code(name)
                .plain(" has an average in fewer than two tournaments.");
            continue;
        };
        let label = top.tournament.label.as_str();
        let gaps = against(across, name, label);
        out = out
            .plain(" ")
            .code(name)
            .plain(" averages most in ")
            .code(label)
            .plain(format!(
                " ({}{})",
                with_ci(&a.overall),
                seats::exact_clause(by_seat, a.exact.overall)
            ));
        if let Some((exact_label, exact)) = seats::exact_best(played, name).filter(|_| by_seat) {
            out = if exact_label == label {
                out.plain(", where its exact average is highest too")
            } else {
                out.plain(", while its exact average is highest in ")
                    .code(exact_label)
                    .plain(format!(" ({})", signed(exact)))
            };
        }
        if gaps.is_empty() {
            out = if uncompared(played) {
                out.plain(".")
            } else {
                out.plain(
                    ", but in no other tournament did it meet the same opponents in the same \
                     seats, so its averages are not compared between tournaments.",
                )
            };
            out = out.append(head_to_head(played, name));
            continue;
        }
        if let Some((opponent, _)) = dominant_opponent(name, &top.pairings) {
            out = out
                .plain(", most of it from its games against ")
                .code(opponent)
                .plain(
                    " (an average one opponent dominates says how well the setting exploits \
                     that opponent, not which setting plays best)",
                );
        }
        let lower = gaps.iter().filter(|c| c.p_holm < ALPHA).count();
        out = out.plain(format!(
            "; {lower} of the {} other tournaments it is compared in give it a significantly \
             lower average (Holm p < {ALPHA})",
            gaps.len()
        ));
        out = if lower == gaps.len() {
            out.plain(", so the data single out this setting.")
        } else {
            let close: Vec<&str> = gaps
                .iter()
                .filter(|c| c.p_holm >= ALPHA || c.p_holm.is_nan())
                .map(|c| c.other(label))
                .collect();
            let pairings: Vec<&Pairing> = played.iter().flat_map(|p| &p.pairings).collect();
            out.plain(format!(
                "; {} {} not distinguishable from it with {} per pairing (",
                close.len(),
                if close.len() == 1 { "is" } else { "are" },
                super::reading::games_per_pairing(&pairings)
            ))
            .append(Text::join(&close, ", ", |l| code(*l)))
            .plain("), so the data do not single out one setting.")
        };
        out = out.append(head_to_head(played, name));
    }
    out
}

/// `name`'s payoff per game against `opponent` in `played`, each seat weighted equally, if
/// they met in both seats.
fn head_to_head_in(played: &Analysed, name: &str, opponent: &str) -> Option<Estimate> {
    let find = |first: &str, second: &str| {
        played
            .pairings
            .iter()
            .find(|p| p.first.name() == first && p.second.name() == second)
    };
    let (ahead, behind) = (find(name, opponent)?, find(opponent, name)?);
    let weights: Vec<f64> = played
        .pairings
        .iter()
        .map(|p| match p {
            p if std::ptr::eq(p, ahead) => 0.5,
            p if std::ptr::eq(p, behind) => -0.5,
            _ => 0.0,
        })
        .collect();
    Some(played.dice.weighted(&weights, &played.pairings).estimate())
}

/// Whether the run played on common dice (every tournament does, or none) without one job of
/// every pairing, so that nothing is compared between tournaments.
fn uncompared(played: &[Analysed]) -> bool {
    played.iter().any(|p| matches!(p.dice, Dice::Same(_))) && between::all(played).is_none()
}

/// Where `name`'s head-to-head payoff against each opponent it met in both seats is highest,
/// as a sentence (empty when there is none to tell).
fn head_to_head(played: &[Analysed], name: &str) -> Text {
    let opponents: Vec<&'static str> = strategies(played)
        .into_iter()
        .filter(|o| *o != name)
        .collect();
    let best: Vec<(&str, &str, Estimate)> = opponents
        .iter()
        .filter_map(|&opponent| {
            let (label, edge) = played
                .iter()
                .filter_map(|p| {
                    Some((
                        p.tournament.label.as_str(),
                        head_to_head_in(p, name, opponent)?,
                    ))
                })
                .max_by(|x, y| x.1.point.total_cmp(&y.1.point))?;
            Some((opponent, label, edge))
        })
        .collect();
    if best.is_empty() {
        return Text::new();
    }
    Text::new()
        .plain(" Head to head, each seat equally, its payoff per game is highest against ")
        .append(Text::join(best, "; against ", |(opponent, label, edge)| {
            code(opponent)
                .plain(" in ")
                .code(label)
                .plain(format!(" ({})", with_ci(&edge)))
        }))
        .append(if uncompared(played) {
            Text::new().plain(" (points only: no test between tournaments has data here).")
        } else {
            Text::new()
                .plain(" (points only: the ")
                .code(PAIRING)
                .plain(" rows of ")
                .code("tournament_comparisons.csv")
                .plain(" test each pairing between tournaments).")
        })
}
