//! What a pairing's games measure, declared for the shared analysis layer.

use crate::game::CubeSummary;
use experiment_engine::analysis::{Kind, Measures, Metric, Pairs};
use experiment_engine::stats::IntegerMoments;

/// The payoff to player 1 of a pairing's games, as integer moments.
fn payoff_moments(summary: &CubeSummary) -> IntegerMoments {
    summary.payoff
}

/// The pairing's games by their length in moves (both players counted).
fn turn_counts(summary: &CubeSummary) -> &[u64] {
    summary.turn_histogram.counts()
}

/// What a pairing's games measure through the shared analysis layer, written to `summary.csv`
/// and `histogram.csv`; the headline is the mean payoff to player 1 per game (positive: player
/// 1's strategy makes money). The study compares strategies itself (average payoffs and head
/// to head, in `comparisons.csv`), so the layer adds no comparison between pairings.
pub fn measures() -> Measures<CubeSummary> {
    let metrics: Vec<Metric<CubeSummary>> = vec![
        Metric::new(
            "p1_wins",
            "games won by player 1",
            Kind::Count(|s| s.p1_wins),
        ),
        Metric::new(
            "p1_win_rate",
            "games won by player 1",
            Kind::Proportion {
                successes: |s| s.p1_wins,
                of: |s| s.games,
            },
        ),
        Metric::new(
            "drop_rate",
            "games ended by a drop",
            Kind::Proportion {
                successes: |s| s.drops,
                of: |s| s.games,
            },
        ),
        Metric::new(
            "cap_reached_rate",
            "games in which the cube reached its cap",
            Kind::Proportion {
                successes: |s| s.cap_reached,
                of: |s| s.games,
            },
        ),
        Metric::new(
            "mean_payoff",
            "payoff to player 1 per game",
            Kind::Mean(payoff_moments),
        ),
        Metric::new(
            "mean_final_stake",
            "stake paid per game",
            Kind::Mean(|s| s.final_stake),
        ),
        Metric::new(
            "mean_doubles",
            "doubles offered per game",
            Kind::Value(|s| s.doubles as f64 / s.games as f64),
        ),
        Metric::new(
            "mean_turns",
            "moves per game",
            Kind::Mean(|s| s.turn_histogram.moments()),
        ),
        Metric::new(
            "turns",
            "games",
            Kind::Histogram {
                table: "histogram",
                bin: "turns",
                counts: turn_counts,
            },
        ),
    ];
    Measures {
        histogram_params: Some(vec![("first", "first"), ("second", "second")]),
        pairs: Pairs::Own,
        ..Measures::new("games", |s| s.games, "mean_payoff", metrics)
    }
}
