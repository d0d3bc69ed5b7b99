//! The landing chart: each variant's share of landings per square in board order, coloured by
//! the square's group, with a colour legend.

use plotters::style::RGBColor;

use super::landings::VariantLandings;
use crate::game::SQUARES;
use experiment_engine::plot::{Bar, BarChart, BarPanel, Chart, LegendEntry, Mark};

/// Each group of squares (as `SQUARES` names it) with its legend label and bar colour:
/// properties in their board colours, every other kind of square in its own neutral tone, so
/// Chance and Community Chest do not pass for property groups.
const GROUPS: [(&[&str], &str, RGBColor); 13] = [
    (&["brown"], "brown", RGBColor(139, 69, 19)),
    (&["light_blue"], "light blue", RGBColor(135, 206, 235)),
    (&["pink"], "pink", RGBColor(214, 80, 170)),
    (&["orange"], "orange", RGBColor(255, 140, 0)),
    (&["red"], "red", RGBColor(220, 20, 60)),
    (&["yellow"], "yellow", RGBColor(235, 200, 0)),
    (&["green"], "green", RGBColor(34, 139, 34)),
    (&["dark_blue"], "dark blue", RGBColor(0, 0, 139)),
    (&["railroad"], "railroads", RGBColor(30, 30, 30)),
    (&["utility"], "utilities", RGBColor(150, 150, 150)),
    (
        &["chance", "community_chest"],
        "Chance / Community Chest",
        RGBColor(225, 205, 160),
    ),
    (&["tax"], "taxes", RGBColor(95, 95, 95)),
    (
        &["corner"],
        "corners (Go, Jail, Free Parking, Go To Jail)",
        RGBColor(205, 205, 205),
    ),
];

/// Bar colour of a square's group (a light grey for a group not in [`GROUPS`]).
fn group_colour(group: &str) -> RGBColor {
    GROUPS
        .iter()
        .find(|(names, ..)| names.contains(&group))
        .map_or(RGBColor(205, 205, 205), |&(_, _, colour)| colour)
}

/// The landing chart's colour legend.
fn group_legend() -> Vec<LegendEntry> {
    GROUPS
        .iter()
        .map(|&(_, label, colour)| LegendEntry {
            label: label.to_string(),
            colour,
            mark: Mark::Square,
        })
        .collect()
}

/// The landing chart of `rows`, a panel per variant on one scale.
pub fn landing_chart(rows: &[VariantLandings]) -> Chart {
    let panels = rows
        .iter()
        .map(|row| BarPanel {
            title: format!("{} ({} games)", row.variant.name, row.summary.games()),
            bars: (0..SQUARES.len())
                .map(|s| Bar {
                    label: (s + 1).to_string(),
                    value: row.freq[s].point,
                    lower: row.freq[s].confidence_interval.lower.max(0.0),
                    upper: row.freq[s].confidence_interval.upper,
                    colour: group_colour(SQUARES[s].1),
                })
                .collect(),
        })
        .collect();
    Chart::Bars(BarChart {
        x_label: "square (board order; whiskers 95% CI)".into(),
        y_label: "share of landings".into(),
        panels,
        shared_scale: true,
        legend: group_legend(),
    })
}
