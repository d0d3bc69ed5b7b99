//! Twenty-One's report: the results per rule, the reading (computed from the rules that ran)
//! and the comparisons against the best rule.

use anyhow::Result;

use super::{best, is_optimal, tables, Row};
use crate::analysis::Comparison;
use crate::frame::{format_number, percent};
use crate::report::{code, Block, Table, Text};
use crate::stats::ALPHA;

/// The report's body; `results` is the results table the run also prints, and `chart` whether
/// the run drew the win-rate chart (not when only `optimal` ran).
pub fn report(
    rows: &[Row],
    comparisons: &[Comparison],
    trials: u64,
    results: &Table,
    chart: bool,
) -> Result<Vec<Block>> {
    let mut out = vec![
        Block::heading(2, "Results per rule"),
        Block::paragraph(
            Text::new()
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
                .plain(
                    " is (simulated - exact) in standard errors. A tie goes to the computer, so \
                     it is not a win.",
                ),
        ),
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
    }
    out.push(Block::heading(2, "Reading"));
    let reading = reading(rows, comparisons);
    if !reading.is_empty() {
        out.push(Block::List(reading));
    }
    out.push(Block::heading(2, "Comparisons against the best rule"));
    if comparisons.is_empty() {
        out.push(Block::paragraph("Only one rule ran: nothing to compare."));
    } else if let Some(top) = best(rows) {
        out.extend([
            Block::paragraph(
                Text::new()
                    .plain("Each rule's win rate against that of ")
                    .code(rows[top].variant.name.as_str())
                    .plain(
                        ", the rule with the highest simulated win rate: two-proportion z-test \
                         (each rule plays its own independent games), difference (rule - best) \
                         with a 95% interval, and ",
                    )
                    .code("p_holm")
                    .plain(format!(
                        " adjusted by Holm's method over the {} comparisons. The best rule is \
                         chosen from the same data, so these tests slightly favour finding \
                         differences.",
                        comparisons.len()
                    )),
            ),
            Block::Table(tables::comparisons_table(rows, comparisons)?),
            Block::paragraph(
                Text::new()
                    .plain("Also in ")
                    .code("comparisons.csv")
                    .plain(" (family ")
                    .code("win_rate")
                    .plain(", a = the rule, b = the best), in the schema every game shares."),
            ),
        ]);
    }
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

/// `name` wins x% of games (95% CI lo to hi; exact e).
fn describe(row: &Row) -> Text {
    let win = row.win;
    code(row.variant.name.as_str()).plain(format!(
        " wins {} of games (95% CI {} to {}; exact {})",
        percent(win.point),
        percent(win.confidence_interval.lower),
        percent(win.confidence_interval.upper),
        percent(row.exact.win)
    ))
}

/// The reading's items: the best rule (simulated and exact), the best of each family of
/// rules, what optimal play adds, the comparisons against the best, and how the simulation
/// agrees with the exact values.
fn reading(rows: &[Row], comparisons: &[Comparison]) -> Vec<Text> {
    let mut out = Vec::new();
    let Some(top) = best(rows) else {
        return out;
    };
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
        if let Some(exact_top) = argmax(rows, |_| true, |r| r.exact.win) {
            item = if exact_top == top {
                item.plain(" It is also the best of these rules exactly.")
            } else {
                item.plain(" Exactly, the best of these rules is ")
                    .code(rows[exact_top].variant.name.as_str())
                    .plain(format!(" ({}).", percent(rows[exact_top].exact.win)))
            };
        }
        out.push(item);
    }
    let family = |name: &'static str| move |r: &Row| r.strategy.name() == name;
    for (name, label) in [("stand_at", "stand_at N"), ("probability", "probability p")] {
        let members = rows.iter().filter(|r| family(name)(r)).count();
        if let Some(i) = argmax(rows, family(name), |r| r.exact.win).filter(|_| members > 1) {
            out.push(
                Text::new()
                    .strong(format!("Best {label}."))
                    .plain(" Exactly, ")
                    .code(rows[i].variant.name.as_str())
                    .plain(format!(
                        " is the best {label} rule run here ({}); in simulation ",
                        percent(rows[i].exact.win)
                    ))
                    .append(describe(&rows[i]))
                    .plain("."),
            );
        }
    }
    if let (Some(optimal), Some(fixed)) = (
        argmax(rows, is_optimal, |r| r.exact.win),
        argmax(rows, |r| !is_optimal(r), |r| r.exact.win),
    ) {
        out.push(
            Text::new()
                .strong("What optimal play adds.")
                .plain(format!(
                    " Deciding from the exact composition of the hand wins {} percentage points \
                     more often than the best fixed rule here (",
                    format_number(100.0 * (rows[optimal].exact.win - rows[fixed].exact.win)),
                ))
                .code(rows[fixed].variant.name.as_str())
                .plain("), exactly."),
        );
    }
    out.push(against_the_best(rows, top, comparisons));
    let inside = rows.iter().filter(|r| r.exact_in_ci()).count();
    let worst = rows
        .iter()
        .map(|r| r.z().abs())
        .filter(|z| z.is_finite())
        .fold(0.0, f64::max);
    out.push(
        Text::new()
            .strong("Simulation against exact.")
            .plain(format!(
        " {inside} of {} exact win probabilities lie inside the simulated 95% interval (about \
         95% are expected to); the largest gap is {} standard errors.",
        rows.len(),
        format_number(worst)
    )),
    );
    out
}

/// How many rules win significantly less often than the best (row `top`), and which cannot
/// be told from it.
fn against_the_best(rows: &[Row], top: usize, comparisons: &[Comparison]) -> Text {
    let lead = Text::new().strong("Against the best.");
    if comparisons.is_empty() {
        return lead.plain(" Only one rule ran: there is nothing to compare.");
    }
    let tied: Vec<&Comparison> = comparisons.iter().filter(|c| c.p_holm >= ALPHA).collect();
    let out = lead
        .plain(format!(
            " {} of {} other rules win significantly less often than ",
            comparisons.len() - tied.len(),
            comparisons.len(),
        ))
        .code(rows[top].variant.name.as_str())
        .plain(format!(" (Holm-adjusted p < {ALPHA}). "));
    if tied.is_empty() {
        out.plain("None is statistically indistinguishable from it.")
    } else {
        out.plain("Not distinguishable from it at this sample size: ")
            .append(Text::join(tied, ", ", |c| code(c.a.as_str())))
            .plain(".")
    }
}
