//! Twenty-One's report: the results per rule, the reading (computed from the rules that ran)
//! and the comparisons against the reference rule.

use anyhow::Result;

use super::against::{against, sentence, Ranked, Reference};
use super::{best, is_optimal, tables, Ranking, Row};
use crate::game::Ties;
use experiment_engine::frame::{format_number, percent};
use experiment_engine::report::{code, Block, Table, Text};

/// The report's body; `results` is the results table the run also prints, and `chart` whether
/// the run drew the win-rate chart (not when only `optimal` ran), and with it, when the mean
/// payoff ranks the rules, the mean-payoff chart. `precision` is what common random numbers
/// gave the comparisons (a common design only): the comparisons are then paired. `ranked`
/// holds the ranking family's tests and the rule they are read against.
pub fn report(
    rows: &[Row],
    ranked: Ranked,
    ranking: Ranking,
    trials: u64,
    results: &Table,
    chart: bool,
    precision: Option<Vec<Block>>,
) -> Result<Vec<Block>> {
    let Ranked {
        comparisons,
        reference,
    } = ranked;
    let ties = if rows.iter().all(|r| r.rules.tie == Ties::Dealer) {
        " A tie goes to the computer, so it is not a win."
    } else if rows.iter().all(|r| r.rules.tie == Ties::Push) {
        " A tie is a push: not a win, and it costs nothing."
    } else {
        " A tie is not a win: it goes to the computer or pushes, as each rule's ties say."
    };
    let mut intro = Text::new()
        .plain(format!(
            "{trials} games per rule. Win rates are over all games with Wilson 95% \
             intervals; "
        ))
        .code("exact_win_rate")
        .plain(
            " is the exact probability from enumerating the deck without replacement, \
             and ",
        )
        .code("z")
        .plain(" is (simulated - exact) in standard errors.")
        .plain(ties);
    if ranking == Ranking::MeanPayoff {
        intro = intro.plain(" ").code("mean_payoff").plain(
            " is the player's mean payoff per game (+1 a win, the natural's payout on a \
                 natural, 0 a push, -1 a loss) with a Student-t 95% interval, beside its exact \
                 value; it ranks the rules.",
        );
    }
    let mut out = vec![
        Block::heading(2, "Results per rule"),
        Block::paragraph(intro),
        Block::Table(results.clone()),
        Block::paragraph(
            Text::new()
                .plain(
                    "Every column (with intervals and exact values for the bust and tie rates \
                     too) is in ",
                )
                .code("summary.csv")
                .plain("."),
        ),
    ];
    if chart {
        out.push(Block::figure("win_rate", "Win rate by rule"));
        if ranking == Ranking::MeanPayoff {
            out.push(Block::figure("mean_payoff", "Mean payoff per game by rule"));
        }
    }
    let against = reference
        .map(|r| against(comparisons, rows[r.index()].variant.name.as_str()))
        .unwrap_or_default();
    out.push(Block::heading(2, "Reading"));
    let reading = reading(rows, &against, reference, ranking);
    if !reading.is_empty() {
        out.push(Block::List(reading));
    }
    out.push(Block::heading(2, "Comparisons against the reference rule"));
    let Some(reference) = reference.filter(|_| !against.is_empty()) else {
        out.push(Block::paragraph("Only one rule ran: nothing to compare."));
        return Ok(out);
    };
    let what = match ranking {
        Ranking::WinRate => "win rate",
        Ranking::MeanPayoff => "mean payoff per game",
    };
    let test = match (&precision, ranking) {
        (Some(_), Ranking::WinRate) => {
            "McNemar's test on the same shoes (every rule plays game i with the same cards; the \
             exact binomial test where fewer than 1,000 games differ), paired difference"
        }
        (Some(_), Ranking::MeanPayoff) => {
            "paired t-test on the same shoes (every rule plays game i with the same cards), \
             paired difference"
        }
        (None, Ranking::WinRate) => {
            "two-proportion z-test (each rule plays its own independent games), difference"
        }
        (None, Ranking::MeanPayoff) => {
            "Welch's t-test (each rule plays its own independent games), difference"
        }
    };
    let chosen = match reference {
        Reference::Pilot(_) => {
            "The pilot's trials are not part of the results, so these tests do not favour \
             finding differences; the reference need not be the best rule of the results."
        }
        Reference::Best(_) => {
            "The reference is chosen from the same data, so these tests slightly favour \
             finding differences."
        }
    };
    let family = if precision.is_some() && matches!(reference, Reference::Best(_)) {
        format!(
            "the {} comparisons of every pair of rules in comparisons.csv's family",
            comparisons.len()
        )
    } else {
        format!("the {} comparisons", comparisons.len())
    };
    out.extend([
        Block::paragraph(
            Text::new()
                .plain(format!("Each rule's {what} against that of "))
                .code(rows[reference.index()].variant.name.as_str())
                .plain(format!(
                    ", {}: {test} (rule - reference) with a 95% interval, and ",
                    reference.why(what)
                ))
                .code("p_holm")
                .plain(format!(
                    " adjusted by Holm's method over {family}. {chosen}"
                )),
        ),
        Block::Table(tables::comparisons_table(
            rows,
            &against,
            ranking,
            precision.is_some(),
        )?),
        Block::paragraph(
            Text::new()
                .plain("Every test is in ")
                .code("comparisons.csv")
                .plain(" (family ")
                .code(ranking.family())
                .plain(", effects a - b), in the schema every game shares."),
        ),
    ]);
    out.extend(precision.into_iter().flatten());
    Ok(out)
}

/// The row maximising `key` among `rows` that `keep` selects.
fn argmax(rows: &[Row], keep: impl Fn(&Row) -> bool, key: impl Fn(&Row) -> f64) -> Option<usize> {
    (0..rows.len())
        .filter(|&i| keep(&rows[i]))
        .reduce(|best, i| {
            if key(&rows[i]) > key(&rows[best]) {
                i
            } else {
                best
            }
        })
}

/// `name` wins x% of games (95% CI lo to hi; exact e), and, ranked by mean payoff, pays m per
/// game (95% CI lo to hi; exact e).
fn describe(row: &Row, ranking: Ranking) -> Text {
    let win = row.win;
    let text = code(row.variant.name.as_str()).plain(format!(
        " wins {} of games (95% CI {} to {}; exact {})",
        percent(win.point),
        percent(win.confidence_interval.lower),
        percent(win.confidence_interval.upper),
        percent(row.exact.win)
    ));
    match ranking {
        Ranking::WinRate => text,
        Ranking::MeanPayoff => {
            let payoff = row.payoff;
            text.plain(format!(
                " and pays {} per game (95% CI {} to {}; exact {})",
                format_number(payoff.point),
                format_number(payoff.confidence_interval.lower),
                format_number(payoff.confidence_interval.upper),
                format_number(row.exact.mean_payoff(&row.rules))
            ))
        }
    }
}

/// `rule`'s exact ranked value, as the reading states it: a percentage of games won, or a
/// payoff per game.
fn exact_value(row: &Row, ranking: Ranking) -> String {
    match ranking {
        Ranking::WinRate => percent(row.exact.win),
        Ranking::MeanPayoff => format!(
            "{} per game",
            format_number(row.exact.mean_payoff(&row.rules))
        ),
    }
}

/// The reading's items: the best rule (simulated and exact), the best of each family of
/// rules, what optimal play adds, the comparisons against the best, and how the simulation
/// agrees with the exact values.
fn reading(
    rows: &[Row],
    against: &[super::against::Against],
    reference: Option<Reference>,
    ranking: Ranking,
) -> Vec<Text> {
    let mut out = Vec::new();
    let Some(top) = best(rows, ranking) else {
        return out;
    };
    let exact = |r: &Row| r.exact_ranked(ranking);
    let describe = |r: &Row| describe(r, ranking);
    if rows.len() == 1 {
        out.push(
            Text::new()
                .strong("The rule run.")
                .plain(" In simulation ")
                .append(describe(&rows[top]))
                .plain("."),
        );
    } else {
        let mut item = Text::new()
            .strong("Best rule.")
            .plain(" In simulation ")
            .append(describe(&rows[top]))
            .plain(".");
        if let Some(exact_top) = argmax(rows, |_| true, exact) {
            item = if exact_top == top {
                item.plain(" It is also the best of these rules exactly.")
            } else {
                item.plain(" Exactly, the best of these rules is ")
                    .code(rows[exact_top].variant.name.as_str())
                    .plain(format!(" ({}).", exact_value(&rows[exact_top], ranking)))
            };
        }
        out.push(item);
    }
    let family = |name: &'static str| move |r: &Row| r.strategy.name() == name;
    for (name, label) in [("stand_at", "stand_at N"), ("probability", "probability p")] {
        let members = rows.iter().filter(|r| family(name)(r)).count();
        if let Some(i) = argmax(rows, family(name), exact).filter(|_| members > 1) {
            out.push(
                Text::new()
                    .strong(format!("Best {label}."))
                    .plain(" Exactly, ")
                    .code(rows[i].variant.name.as_str())
                    .plain(format!(
                        " is the best {label} rule run here ({}); in simulation ",
                        exact_value(&rows[i], ranking)
                    ))
                    .append(describe(&rows[i]))
                    .plain("."),
            );
        }
    }
    if let (Some(optimal), Some(fixed)) = (
        argmax(rows, is_optimal, exact),
        argmax(rows, |r| !is_optimal(r), exact),
    ) {
        let gain = exact(&rows[optimal]) - exact(&rows[fixed]);
        let adds = match ranking {
            Ranking::WinRate => format!(
                " wins {} percentage points more often",
                format_number(100.0 * gain)
            ),
            Ranking::MeanPayoff => format!(" pays {} more per game", format_number(gain)),
        };
        out.push(
            Text::new()
                .strong("What optimal play adds.")
                .plain(format!(
                    " Deciding from the exact composition of the hand{adds} than the best fixed \
                     rule here (",
                ))
                .code(rows[fixed].variant.name.as_str())
                .plain("), exactly."),
        );
    }
    if let Some(reference) = reference {
        out.push(sentence(against, reference, ranking));
    }
    let inside = rows.iter().filter(|r| r.exact_in_ci()).count();
    let worst = rows
        .iter()
        .map(|r| r.z().abs())
        .filter(|z| z.is_finite())
        .fold(0.0, f64::max);
    let mut check = Text::new()
        .strong("Simulation against exact.")
        .plain(format!(
            " {inside} of {} exact win probabilities lie inside the simulated 95% interval \
             (about 95% are expected to); the largest gap is {} standard errors.",
            rows.len(),
            format_number(worst)
        ));
    if ranking == Ranking::MeanPayoff {
        let covered = rows
            .iter()
            .filter(|r| {
                let ci = r.payoff.confidence_interval;
                (ci.lower..=ci.upper).contains(&r.exact.mean_payoff(&r.rules))
            })
            .count();
        check = check.plain(format!(
            " {covered} of {} exact mean payoffs lie inside the simulated 95% interval.",
            rows.len()
        ));
    }
    out.push(check);
    out
}
