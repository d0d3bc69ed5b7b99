//! Twenty-One's charts: the win rate (and, when it ranks the rules, the mean payoff) of each
//! family of rules against its number, simulated with its band beside the exact value
//! (dashed, so the simulated line shows under it), and optimal play's exact value as a level.
//! Each family's whole range is drawn beside a zoomed panel of the rules around its best,
//! whose values differ by fractions of a percent: there the band and the exact curve part.
//! A run whose variants play at several table rules draws one pair of lines per set of rules,
//! labelled by the rules changed.

use super::{is_optimal, Row};
use crate::game::Rules;
use experiment_engine::plot::{Chart, LineChart, LinePanels, Series, SeriesStyle};
use experiment_engine::stats::Estimate;

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
            style: SeriesStyle::Dashed,
        },
    ]
}

/// Rules on each side of a family's best that its zoomed panel shows.
const ZOOM_NEIGHBOURS: usize = 2;

/// The range of the rule's number that a family's zoomed panel shows, for a family of rules
/// at `numbers` whose best (by the exact value) are at `bests` (one per set of table rules):
/// each best and [`ZOOM_NEIGHBOURS`] rules on each side of it (more on one side at an end),
/// or `None` when that is the family's whole range.
fn zoom_window(numbers: &[f64], bests: &[f64]) -> Option<(f64, f64)> {
    let mut numbers = numbers.to_vec();
    numbers.sort_by(f64::total_cmp);
    numbers.dedup();
    let wide = 2 * ZOOM_NEIGHBOURS + 1;
    if numbers.len() <= wide {
        return None;
    }
    let mut window: Option<(f64, f64)> = None;
    for best in bests {
        let at = numbers.iter().position(|x| x == best)?;
        let start = at.saturating_sub(ZOOM_NEIGHBOURS).min(numbers.len() - wide);
        let (low, high) = (numbers[start], numbers[start + wide - 1]);
        window = Some(window.map_or((low, high), |(l, h)| (l.min(low), h.max(high))));
    }
    window.filter(|&(low, high)| low > numbers[0] || high < numbers[numbers.len() - 1])
}

/// The rule's number of the best rule of `family` (by the exact value) at each set of rules.
fn bests(family: &[&Row], rule_sets: &[Rules], quantity: &Quantity) -> Vec<f64> {
    rule_sets
        .iter()
        .filter_map(|rules| {
            family
                .iter()
                .filter(|r| r.rules == *rules)
                .max_by(|a, b| (quantity.exact)(a).total_cmp(&(quantity.exact)(b)))
                .map(|r| r.param())
        })
        .collect()
}

/// `series` cut to the rule's numbers from `low` to `high`, with the y range that fits their
/// simulated bands and exact values; the series marked in `levels` (optimal play's level)
/// span the window but do not set the range, so a level far off is left out of view.
fn zoomed(
    series: &[Series],
    levels: &[bool],
    (low, high): (f64, f64),
) -> (Vec<Series>, Option<(f64, f64)>) {
    let within = |x: f64| (low..=high).contains(&x);
    let cut: Vec<Series> = series
        .iter()
        .zip(levels)
        .map(|(s, &level)| Series {
            label: s.label.clone(),
            points: match s.points.first() {
                Some(&(_, y)) if level => vec![(low, y), (high, y)],
                _ => s.points.iter().copied().filter(|p| within(p.0)).collect(),
            },
            band: s.band.iter().copied().filter(|b| within(b.0)).collect(),
            style: s.style,
        })
        .collect();
    let values = cut
        .iter()
        .zip(levels)
        .filter(|(_, &level)| !level)
        .flat_map(|(s, _)| {
            s.points
                .iter()
                .map(|p| p.1)
                .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
        })
        .filter(|v| v.is_finite());
    let (min, max) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let pad = ((max - min) * 0.15).max(1e-6);
    (cut, (min <= max).then_some((min - pad, max + pad)))
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
    .flat_map(|(name, title, x_label)| {
        let in_family = |r: &&Row| r.strategy.name() == name;
        let family: Vec<&Row> = rows.iter().filter(in_family).collect();
        if family.is_empty() {
            return Vec::new();
        }
        let (first, last) = family
            .iter()
            .map(|r| r.param())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            });
        let (mut series, mut levels) = (Vec::new(), Vec::new());
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
            levels.extend([false, false]);
            if let Some(optimal) = rows.iter().find(|r| is_optimal(r) && r.rules == *rules) {
                let level = (quantity.exact)(optimal);
                levels.push(true);
                series.push(Series {
                    label: format!("optimal (exact){label}"),
                    points: vec![(first, level), (last, level)],
                    band: Vec::new(),
                    ..Default::default()
                });
            }
        }
        let mut panels = Vec::new();
        let numbers: Vec<f64> = family.iter().map(|r| r.param()).collect();
        let bests = bests(&family, &rule_sets, quantity);
        if let Some(window) = zoom_window(&numbers, &bests) {
            let (cut, y_range) = zoomed(&series, &levels, window);
            panels.push(LineChart {
                title: format!("{x_label} near the best, zoomed"),
                x_label: x_label.into(),
                y_label: quantity.y_label.into(),
                series: cut,
                markers: true,
                y_range,
                ..Default::default()
            });
        }
        panels.insert(
            0,
            LineChart {
                title: title.into(),
                x_label: x_label.into(),
                y_label: quantity.y_label.into(),
                series,
                markers: true,
                ..Default::default()
            },
        );
        panels
    })
    .collect();
    (!panels.is_empty()).then(|| {
        Chart::LinePanels(LinePanels {
            title: quantity.title.into(),
            panels,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_zoom_shows_the_best_rule_and_its_neighbours_inside_the_family() {
        let n: Vec<f64> = (12..=21).map(f64::from).collect();
        assert_eq!(
            zoom_window(&n, &[14.0]),
            Some((12.0, 16.0)),
            "at the low end"
        );
        assert_eq!(zoom_window(&n, &[16.0]), Some((14.0, 18.0)));
        assert_eq!(
            zoom_window(&n, &[21.0]),
            Some((17.0, 21.0)),
            "at the high end"
        );
        assert_eq!(
            zoom_window(&n, &[14.0, 17.0]),
            Some((12.0, 19.0)),
            "every set of rules' best"
        );
        assert_eq!(
            zoom_window(&n[..5], &[14.0]),
            None,
            "five rules: nothing to zoom"
        );
        assert_eq!(zoom_window(&n, &[12.0, 21.0]), None, "the whole range");
    }

    #[test]
    fn a_zoomed_panel_fits_its_range_to_the_rules_shown_and_not_to_a_far_level() {
        let line = |points: Vec<(f64, f64)>| Series {
            label: "s".into(),
            band: points
                .iter()
                .map(|&(x, y)| (x, y - 0.01, y + 0.01))
                .collect(),
            points,
            ..Series::default()
        };
        let simulated = line(vec![(1.0, 0.1), (2.0, 0.40), (3.0, 0.42), (4.0, 0.41)]);
        let optimal = Series {
            label: "optimal".into(),
            points: vec![(1.0, 0.9), (4.0, 0.9)],
            ..Series::default()
        };
        let (cut, range) = zoomed(&[simulated, optimal], &[false, true], (2.0, 4.0));
        assert_eq!(cut[0].points.len(), 3);
        assert_eq!(cut[0].band.len(), 3);
        assert_eq!(cut[1].points, vec![(2.0, 0.9), (4.0, 0.9)]);
        let (low, high) = range.expect("a range");
        assert!(low < 0.39 && low > 0.38, "{low}");
        assert!(high > 0.43 && high < 0.44, "{high}");
    }
}
