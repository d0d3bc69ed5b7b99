//! The Chutes & Ladders study's charts: the payoff heatmap and the base-game length.

use std::collections::BTreeMap;

use super::base::BaseExact;
use super::pairings::Pairing;
use crate::game::BaseGameSummary;
use experiment_engine::plot::{Chart, Heatmap, LineChart, Series};
use experiment_engine::stats::{wilson, Estimate};

/// The payoff matrix as a heatmap: player 1's strategies as rows, player 2's as columns; the
/// title names the tournament when `tournament` is not empty.
pub(super) fn payoff_chart(
    names: &[&str],
    pairings: &[Pairing],
    max_cube: u32,
    tournament: &str,
) -> Chart {
    let values = names
        .iter()
        .map(|row| {
            names
                .iter()
                .map(|column| {
                    pairings
                        .iter()
                        .find(|p| p.first.name() == *row && p.second.name() == *column)
                        .map_or(f64::NAN, |p| p.mean_payoff().point)
                })
                .collect()
        })
        .collect();
    Chart::Heatmap(Heatmap {
        title: if tournament.is_empty() {
            format!("Chutes & Ladders: mean payoff to player 1 per game (cube cap {max_cube})")
        } else {
            format!("Chutes & Ladders, {tournament}: mean payoff to player 1 per game (cube cap {max_cube})")
        },
        row_label: "player 1 (moves first)".into(),
        column_label: "player 2".into(),
        rows: names.iter().map(|s| s.to_string()).collect(),
        columns: names.iter().map(|s| s.to_string()).collect(),
        values,
    })
}

/// The base game's length, simulated (with a Wilson band) and exact.
pub(super) fn game_length_chart(base: &BaseGameSummary, exact: &BaseExact) -> Chart {
    // Show up to the 99.5th percentile of the simulated lengths.
    let mut seen = 0;
    let limit = base
        .turn_histogram
        .iter()
        .position(|&c| {
            seen += c;
            seen * 1000 >= base.games * 995
        })
        .unwrap_or(base.turn_histogram.len());
    let shares: BTreeMap<usize, Estimate> = (1..=limit)
        .map(|t| {
            let count = base.turn_histogram.get(t).copied().unwrap_or(0);
            (t, wilson(count, base.games))
        })
        .collect();
    let simulated = Series {
        label: format!("simulated ({} games, 95% Wilson band)", base.games),
        points: shares.iter().map(|(&t, e)| (t as f64, e.point)).collect(),
        band: shares
            .iter()
            .map(|(&t, e)| {
                (
                    t as f64,
                    e.confidence_interval.lower,
                    e.confidence_interval.upper,
                )
            })
            .collect(),
        ..Default::default()
    };
    let exact_series = Series {
        label: "exact (Markov chain)".into(),
        points: (1..=limit)
            .map(|t| (t as f64, exact.length.get(t).copied().unwrap_or(0.0)))
            .collect(),
        band: Vec::new(),
        ..Default::default()
    };
    Chart::Lines(LineChart {
        title: "Chutes & Ladders: length of a two-player game (no cube)".into(),
        x_label: "moves, both players counted".into(),
        y_label: "share of games".into(),
        series: vec![simulated, exact_series],
        markers: false,
        ..Default::default()
    })
}
