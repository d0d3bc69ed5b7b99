//! What common random numbers give Chutes and Monopoly, measured on one thread (not a timed
//! test): the variance ratio (the variance a difference would have with independent games
//! over the variance it has on shared dice and cards) of Chutes pairings that differ in one
//! player's strategy and of Monopoly's jail strategies, and what a common trial costs against
//! an independent one. Prints `name value unit` lines for `scripts/bench.sh`.
//!
//! cargo run --release --example crn_chutes_monopoly -- chutes 200000
//! cargo run --release --example crn_chutes_monopoly -- monopoly 20000

use std::time::Instant;

use experiment_chutes::exact::ChutesSolver;
use experiment_chutes::game::{Board, CubeSummary, Strategy};
use experiment_engine::design::{CommonGame, CommonSummary, PairSet, PairedSummary};
use experiment_engine::games::Game;
use experiment_engine::rng::trial_rng;
use experiment_engine::summary::{IntegerMoments, Summary};
use experiment_monopoly::game::{CardModel, JailStrategy, Monopoly, MonopolySummary};

/// (var_a + var_b) / var_(a − b) of paired value `m` of the pair (a, b).
fn ratio(paired: &PairedSummary, a: usize, b: usize, m: usize) -> f64 {
    // The difference's variance is the same either way round.
    let d: &IntegerMoments = paired.difference(a.min(b), a.max(b), m).expect("kept");
    (paired.values[a][m].variance() + paired.values[b][m].variance()) / d.variance()
}

/// Seconds per trial of every variant of `games`: independent (each from its own stream)
/// and common, each folding into its summaries.
fn costs<G: Game>(games: &[G], trials: u64) -> (f64, f64) {
    let start = Instant::now();
    let mut alone = vec![G::Summary::default(); games.len()];
    for trial in 0..trials {
        for (v, (game, summary)) in games.iter().zip(&mut alone).enumerate() {
            summary.record(&game.play(&mut trial_rng(1, v as u64 + 100, trial)));
        }
    }
    let independent = start.elapsed().as_secs_f64() / trials as f64;
    std::hint::black_box(&alone);
    let common = CommonGame {
        games: games.iter().collect(),
        seed: 1,
        pairs: PairSet::Every,
        own_streams: None,
    };
    let start = Instant::now();
    let mut summary: CommonSummary<G::Summary> = CommonSummary::default();
    for trial in 0..trials {
        summary.record(&common.play_at(1, 0, trial));
    }
    let shared = start.elapsed().as_secs_f64() / trials as f64;
    std::hint::black_box(&summary);
    (independent, shared)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn chutes(trials: u64) {
    let solver = ChutesSolver::new(Board::milton_bradley(), 1024).expect("valid");
    let strategies = [
        Strategy::Never,
        Strategy::Always,
        Strategy::Cautious,
        Strategy::threshold(0.70, 0.25).expect("valid"),
        Strategy::Optimal,
    ];
    let pairings: Vec<(Strategy, Strategy)> = strategies
        .iter()
        .flat_map(|&a| strategies.iter().map(move |&b| (a, b)))
        .collect();
    let games: Vec<_> = pairings
        .iter()
        .map(|&(a, b)| solver.cube_match(a, b))
        .collect();
    let common = CommonGame {
        games: games.iter().collect(),
        seed: 20261130,
        pairs: PairSet::Every,
        own_streams: None,
    };
    let mut summary: CommonSummary<CubeSummary> = CommonSummary::default();
    for trial in 0..trials {
        summary.record(&common.play_at(20261130, 0, trial));
    }
    // Pairings that differ in exactly one player's strategy.
    let (mut payoff, mut wins) = (Vec::new(), Vec::new());
    for (a, pa) in pairings.iter().enumerate() {
        for (b, pb) in pairings.iter().enumerate().skip(a + 1) {
            if (pa.0 == pb.0) != (pa.1 == pb.1) {
                payoff.push(ratio(&summary.paired, a, b, 0));
                let w = ratio(&summary.paired, a, b, 1);
                if w.is_finite() {
                    wins.push(w);
                }
            }
        }
    }
    let at = |a: (Strategy, Strategy)| pairings.iter().position(|&p| p == a).expect("played");
    let t = strategies[3];
    let named = [
        (
            "optimal-never/threshold-never",
            (Strategy::Optimal, Strategy::Never),
            (t, Strategy::Never),
        ),
        (
            "never-optimal/never-threshold",
            (Strategy::Never, Strategy::Optimal),
            (Strategy::Never, t),
        ),
        (
            "optimal-cautious/threshold-cautious",
            (Strategy::Optimal, Strategy::Cautious),
            (t, Strategy::Cautious),
        ),
    ];
    for (name, a, b) in named {
        println!(
            "chutes_variance_ratio_payoff[{name}] {:.2} x",
            ratio(&summary.paired, at(a), at(b), 0)
        );
    }
    let spread = |v: &[f64]| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    };
    let (lo, hi) = spread(&payoff);
    println!(
        "chutes_variance_ratio_payoff_median[{}_pairs] {:.2} x",
        payoff.len(),
        median(payoff.clone())
    );
    println!("chutes_variance_ratio_payoff_range {lo:.2}..{hi:.2} x");
    let (lo, hi) = spread(&wins);
    println!(
        "chutes_variance_ratio_p1_wins_median[{}_pairs] {:.2} x",
        wins.len(),
        median(wins.clone())
    );
    println!("chutes_variance_ratio_p1_wins_range {lo:.2}..{hi:.2} x");
    let (independent, shared) = costs(&games, trials / 4);
    println!(
        "chutes_independent_trial_25_pairings {:.3} us",
        independent * 1e6
    );
    println!("chutes_common_trial_25_pairings {:.3} us", shared * 1e6);
    println!(
        "chutes_common_over_independent {:.2} x",
        shared / independent
    );
}

fn monopoly(trials: u64) {
    for cards in CardModel::ALL.iter().copied() {
        let games: Vec<Monopoly> = JailStrategy::ALL
            .iter()
            .map(|&jail| Monopoly {
                jail,
                cards,
                ..Monopoly::default()
            })
            .collect();
        let common = CommonGame {
            games: games.iter().collect(),
            seed: 102,
            pairs: PairSet::Every,
            own_streams: None,
        };
        let mut summary: CommonSummary<MonopolySummary> = CommonSummary::default();
        for trial in 0..trials {
            summary.record(&common.play_at(102, 0, trial));
        }
        let metrics = <Monopoly as Game>::PAIRED;
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            for (m, metric) in metrics.iter().enumerate() {
                println!(
                    "monopoly_variance_ratio[{}:{}-{}:{}] {:.2} x",
                    cards.name(),
                    JailStrategy::ALL[a].name(),
                    JailStrategy::ALL[b].name(),
                    metric.metric,
                    ratio(&summary.paired, a, b, m)
                );
            }
        }
        let (independent, shared) = costs(&games, trials / 4);
        println!(
            "monopoly_independent_trial_3_jail[{}] {:.2} us",
            cards.name(),
            independent * 1e6
        );
        println!(
            "monopoly_common_trial_3_jail[{}] {:.2} us",
            cards.name(),
            shared * 1e6
        );
        println!(
            "monopoly_common_over_independent[{}] {:.2} x",
            cards.name(),
            shared / independent
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let trials = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100_000);
    match args.get(1).map(String::as_str) {
        Some("chutes") => chutes(trials),
        Some("monopoly") => monopoly(trials),
        _ => eprintln!("usage: crn_chutes_monopoly chutes|monopoly [trials]"),
    }
}
