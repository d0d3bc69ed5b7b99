//! Twenty-One's charts: the win rate (and, when it ranks the rules, the mean payoff) of each
//! family of rules against its number, simulated with its band beside the exact value, and
//! optimal play's exact value as a level. A run whose variants play at several table rules
//! draws one pair of lines per set of rules, labelled by the rules changed.

use super::{is_optimal, Row};
use crate::games::twentyone::Rules;
use crate::plot::{Chart, LineChart, LinePanels, Series};
use crate::stats::Estimate;

/// What a chart draws: its title, its y axis, and the simulated and exact value of a row.
struct Quantity {
    title: &'static str,
    y_label: &'static str,
    simulated: fn(&Row) -> Estimate,
    exact: fn(&Row) -> f64,
}

/// Win rate against the rule's parameter: one panel for `stand_at` N and one for
/// `probability` p, simulated with its band and exact, and optimal's exact value as a level.
pub fn win_rate_chart(rows: &[Row]) -> Option<Chart> {
    chart(
        rows,
        &Quantity {
            title: "Twenty-One: win rate by standing rule",
            y_label: "player's win rate",
            simulated: |r| r.win,
            exact: |r| r.exact.win,
        },
    )
}

/// Mean payoff per game against the rule's parameter, drawn as the win rate is.
pub fn mean_payoff_chart(rows: &[Row]) -> Option<Chart> {
    chart(
        rows,
        &Quantity {
            title: "Twenty-One: mean payoff per game by standing rule",
            y_label: "player's mean payoff per game",
            simulated: |r| r.payoff,
            exact: |r| r.exact.mean_payoff(&r.rules),
        },
    )
}

/// The table rules of `rules` that differ from the default, in words (e.g. `tie push, decks 2`).
fn changed(rules: &Rules) -> String {
    let default = Rules::default();
    let mut words = Vec::new();
    if rules.decks != default.decks {
        words.push(format!("decks {}", rules.decks));
    }
    if rules.tie != default.tie {
        words.push(format!("tie {}", <&str>::from(rules.tie)));
    }
    if rules.soft_17 != default.soft_17 {
        words.push(format!("soft_17 {}", <&str>::from(rules.soft_17)));
    }
    if rules.natural_pays != default.natural_pays {
        words.push(format!("natural_pays {}", rules.natural_pays));
    }
    if words.is_empty() {
        "default rules".to_string()
    } else {
        words.join(", ")
    }
}

/// The simulated (with its band) and exact lines of `family`, sorted by the rule's number;
/// `label` goes after each legend entry's name, when the run has several sets of rules.
fn lines(family: &mut [&Row], quantity: &Quantity, label: &str) -> [Series; 2] {
    family.sort_by(|a, b| a.param().total_cmp(&b.param()));
    let simulated = quantity.simulated;
    let exact = quantity.exact;
    [
        Series {
            label: format!("simulated (95% CI band){label}"),
            points: family
                .iter()
                .map(|r| (r.param(), simulated(r).point))
                .collect(),
            band: family
                .iter()
                .map(|r| {
                    let ci = simulated(r).confidence_interval;
                    (r.param(), ci.lower, ci.upper)
                })
                .collect(),
            ..Default::default()
        },
        Series {
            label: format!("exact{label}"),
            points: family.iter().map(|r| (r.param(), exact(r))).collect(),
            band: Vec::new(),
            ..Default::default()
        },
    ]
}

fn chart(rows: &[Row], quantity: &Quantity) -> Option<Chart> {
    let mut rule_sets: Vec<Rules> = Vec::new();
    for row in rows {
        if !rule_sets.contains(&row.rules) {
            rule_sets.push(row.rules);
        }
    }
    let several = rule_sets.len() > 1;
    let panels: Vec<LineChart> = [
        ("stand_at", "stand_at N: hit below N", "N"),
        (
            "probability",
            "probability p: hit while P(no bust) >= p",
            "p",
        ),
    ]
    .into_iter()
    .filter_map(|(name, title, x_label)| {
        let in_family = |r: &&Row| r.strategy.name() == name;
        let family: Vec<&Row> = rows.iter().filter(in_family).collect();
        if family.is_empty() {
            return None;
        }
        let (first, last) = family
            .iter()
            .map(|r| r.param())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            });
        let mut series = Vec::new();
        for rules in &rule_sets {
            let mut members: Vec<&Row> = family
                .iter()
                .copied()
                .filter(|r| r.rules == *rules)
                .collect();
            if members.is_empty() {
                continue;
            }
            let label = if several {
                format!(" ({})", changed(rules))
            } else {
                String::new()
            };
            series.extend(lines(&mut members, quantity, &label));
            if let Some(optimal) = rows.iter().find(|r| is_optimal(r) && r.rules == *rules) {
                let level = (quantity.exact)(optimal);
                series.push(Series {
                    label: format!("optimal (exact){label}"),
                    points: vec![(first, level), (last, level)],
                    band: Vec::new(),
                    ..Default::default()
                });
            }
        }
        Some(LineChart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: quantity.y_label.into(),
            series,
            markers: true,
            ..Default::default()
        })
    })
    .collect();
    (!panels.is_empty()).then(|| {
        Chart::LinePanels(LinePanels {
            title: quantity.title.into(),
            panels,
        })
    })
}
