//! The paired intervals of a common design cover the exact differences: Twenty-One standing at
//! 15, 16 and 17, 10^6 games per rule on the same shoes, against the enumeration's win
//! probabilities. Each pair's 95% paired-t interval of the win-rate difference must hold the
//! exact difference; the interval is the tolerance.

use experiment_engine::design::{CommonGame, CommonSummary, PairSet};
use experiment_engine::games::Game;
use experiment_engine::stats::distributions::t_quantile;
use experiment_engine::summary::Summary;
use experiment_twentyone::exact::Solver;
use experiment_twentyone::game::{Strategy, TwentyOne, TwentyOneSummary};

const SEED: u64 = 20261202;
const GAMES: u64 = 1_000_000;
const RULES: [u16; 3] = [15, 16, 17];

/// The paired-t 95% interval of the mean per-trial difference in wins (paired value 0) between
/// variants `a` and `b`.
fn paired_interval(summary: &CommonSummary<TwentyOneSummary>, a: usize, b: usize) -> (f64, f64) {
    let d = summary
        .paired
        .difference(a, b, 0)
        .expect("every pair is kept");
    let n = d.n as f64;
    let half = t_quantile(0.975, n - 1.0) * (d.variance() / n).sqrt();
    (d.mean() - half, d.mean() + half)
}

#[test]
fn paired_win_rate_intervals_cover_the_exact_differences() {
    assert_eq!(TwentyOne::PAIRED[0].metric, "win_rate");
    let games: Vec<TwentyOne> = RULES
        .iter()
        .map(|&n| TwentyOne::new(Strategy::StandAt(n)))
        .collect();
    let design = CommonGame {
        games: games.iter().collect(),
        seed: SEED,
        pairs: PairSet::Every,
        own_streams: None,
    };
    let mut summary = CommonSummary::default();
    for trial in 0..GAMES {
        summary.record(&design.play_at(SEED, 0, trial));
    }
    let solver = Solver::new();
    let exact: Vec<f64> = games
        .iter()
        .map(|g| solver.outcome(&g.strategy).win)
        .collect();
    for (a, b) in summary.paired.pairs() {
        let (lower, upper) = paired_interval(&summary, a, b);
        let difference = exact[a] - exact[b];
        assert!(
            (lower..=upper).contains(&difference),
            "stand_at {} - {}: exact {difference:.6} outside [{lower:.6}, {upper:.6}]",
            RULES[a],
            RULES[b]
        );
        // The interval is the paired one: narrower than the independent design's would be.
        let d = summary.paired.difference(a, b, 0).expect("kept");
        let independent =
            summary.paired.values[a][0].variance() + summary.paired.values[b][0].variance();
        assert!(d.variance() < independent, "pair ({a}, {b})");
    }
}
