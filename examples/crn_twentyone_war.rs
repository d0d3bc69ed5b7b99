//! What common random numbers give Twenty-One and War, for `scripts/bench.sh` and the games'
//! docs: for pairs of variants played as a common design, the variance ratio
//! (var a + var b) / var(a − b) of a paired metric (how many times the games an independent
//! design would need for the same interval of the difference), and what a common trial costs
//! against the same variants on their own streams. Prints `name value unit` lines; nothing here
//! is asserted.
//!
//!   cargo run --release --example crn_twentyone_war -- 1000000 200000
//!
//! The numbers are Twenty-One games and War games per variant (defaults 1,000,000 and 200,000).

use std::time::Instant;

use experiment_engine::design::{CommonGame, CommonSummary, PairSet};
use experiment_engine::games::Game;
use experiment_engine::summary::Summary;
use experiment_twentyone::game::{Strategy, TwentyOne};
use experiment_war::game::{Placement, War, DEFAULT_MAX_TURNS};

const SEED: u64 = 20261130;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|text| {
            text.replace('_', "")
                .parse()
                .expect("a whole number of games")
        })
        .collect();
    let twenty_one_games = args.first().copied().unwrap_or(1_000_000);
    let war_games = args.get(1).copied().unwrap_or(200_000);

    let stand_at = |n| TwentyOne::new(Strategy::StandAt(n));
    let twenty_ones = [stand_at(12), stand_at(16), stand_at(17)];
    let (summary, seconds) = play(&twenty_ones, twenty_one_games, None);
    let metric = metric_index(TwentyOne::PAIRED, "win_rate");
    for (a, b) in [(1, 2), (0, 2)] {
        let name = |v: usize| format!("stand_at_{}", [12, 16, 17][v]);
        ratio(
            &summary,
            a,
            b,
            metric,
            &format!("twentyone_{}_vs_{}_win_rate", name(a), name(b)),
        );
    }
    cost(
        "twentyone_3_variants",
        &twenty_ones,
        twenty_one_games,
        seconds,
    );

    let placements: Vec<War> = Placement::ALL
        .iter()
        .map(|&p| War::standard(p, DEFAULT_MAX_TURNS))
        .collect();
    let (summary, seconds) = play(&placements, war_games, None);
    for name in ["p1_win_rate", "nonterminating_rate"] {
        let metric = metric_index(War::PAIRED, name);
        for (b, placement) in Placement::ALL.iter().enumerate().skip(1) {
            let label = format!("war_winner_first_vs_{}_{name}", placement.name());
            ratio(&summary, 0, b, metric, &label);
        }
    }
    cost("war_6_placements", &placements, war_games, seconds);
}

/// The position of `name` among a game's paired metrics.
fn metric_index(paired: &[experiment_engine::games::Paired], name: &str) -> usize {
    paired
        .iter()
        .position(|p| p.metric == name)
        .expect("a paired metric")
}

/// Plays `trials` trials of `games` as one common design (or, with `own`, each variant on its
/// own stream, side by side); the summary and the seconds it took.
fn play<G: Game>(
    games: &[G],
    trials: u64,
    own: Option<&[u64]>,
) -> (CommonSummary<G::Summary>, f64) {
    let design = CommonGame {
        games: games.iter().collect(),
        seed: SEED,
        pairs: PairSet::Every,
        own_streams: own,
    };
    let start = Instant::now();
    let mut summary = CommonSummary::default();
    for trial in 0..trials {
        summary.record(&design.play_at(SEED, 0, trial));
    }
    (summary, start.elapsed().as_secs_f64())
}

/// Prints the variance ratio of paired metric `m` for variants `a` and `b`, unless the metric
/// never varies in either (no ratio to speak of, e.g. no game of either ever cycles).
fn ratio<S>(summary: &CommonSummary<S>, a: usize, b: usize, m: usize, label: &str) {
    let paired = &summary.paired;
    let independent = paired.values[a][m].variance() + paired.values[b][m].variance();
    if independent == 0.0 {
        return;
    }
    let difference = paired.difference(a, b, m).expect("every pair is kept");
    println!(
        "{label}_variance_ratio {:.2} x ({} games)",
        independent / difference.variance(),
        paired.trials
    );
}

/// Prints the time per trial (all variants) of the common design against the same variants
/// each on its own stream.
fn cost<G: Game>(label: &str, games: &[G], trials: u64, common_seconds: f64) {
    let streams: Vec<u64> = (0..games.len() as u64).collect();
    let (_, own_seconds) = play(games, trials, Some(&streams));
    let per_trial = |seconds: f64| seconds / trials as f64 * 1e9;
    println!("{label}_common_trial {:.0} ns", per_trial(common_seconds));
    println!("{label}_independent_trial {:.0} ns", per_trial(own_seconds));
    println!("{label}_common_cost {:.3} x", common_seconds / own_seconds);
}
