//! In a common design the paired interval of a Chutes pairing difference (two pairings that
//! differ in one player's strategy) covers the exact difference from policy evaluation, at
//! 10^6 games per pairing, and is narrower than an independent design's would be.

use experiment_chutes::exact::ChutesSolver;
use experiment_chutes::game::{Board, CubeSummary, Strategy};
use experiment_engine::design::{CommonGame, CommonSummary, PairSet};
use experiment_engine::games::Game;
use experiment_engine::summary::Summary;

const GAMES: u64 = 1_000_000;

/// The 95% normal quantile (10^6 games: the Student t quantile agrees to 10^-6).
const Z: f64 = 1.959_963_984_540_054;

fn check(solver: &ChutesSolver, a: (Strategy, Strategy), b: (Strategy, Strategy)) -> f64 {
    let games = [solver.cube_match(a.0, a.1), solver.cube_match(b.0, b.1)];
    let common = CommonGame {
        games: games.iter().collect(),
        seed: 20261202,
        pairs: PairSet::Every,
        own_streams: None,
    };
    let mut summary: CommonSummary<CubeSummary> = CommonSummary::default();
    for trial in 0..GAMES {
        summary.record(&common.play_at(20261202, 0, trial));
    }
    let paired = &summary.paired;
    // Paired value 0 is the payoff to player 1 (`mean_payoff`).
    assert_eq!(
        <experiment_chutes::game::CubeMatch as Game>::PAIRED[0].metric,
        "mean_payoff"
    );
    let d = paired.difference(0, 1, 0).expect("the pair is kept");
    let mean = d.mean();
    let half = Z * (d.variance() / d.n as f64).sqrt();
    let exact = solver.exact_payoff(a.0, a.1) - solver.exact_payoff(b.0, b.1);
    assert!(
        (mean - exact).abs() <= half,
        "{a:?} - {b:?}: {mean} ± {half} misses the exact {exact}"
    );
    // Each side's summary is the pairing's own.
    assert_eq!(summary.variants[0].payoff.n, GAMES);
    let variance = |m: &experiment_engine::summary::IntegerMoments| m.variance();
    (variance(&paired.values[0][0]) + variance(&paired.values[1][0])) / variance(d)
}

#[test]
fn paired_intervals_cover_the_exact_differences_of_pairings_differing_in_one_strategy() {
    let solver = ChutesSolver::new(Board::milton_bradley(), 1024).expect("valid");
    let threshold = Strategy::threshold(0.70, 0.25).expect("valid");
    // Player 1's strategy changes, then player 2's.
    let first = check(
        &solver,
        (Strategy::Optimal, Strategy::Never),
        (threshold, Strategy::Never),
    );
    let second = check(
        &solver,
        (Strategy::Never, Strategy::Optimal),
        (Strategy::Never, threshold),
    );
    // Sharing the dice makes both differences more precise than independent games would.
    assert!(
        first > 1.0 && second > 1.0,
        "variance ratios {first} {second}"
    );
}

#[test]
fn the_chutes_study_plays_a_common_design_and_compares_pairings_on_the_same_dice() {
    use experiment_engine::design::Design;
    use experiment_engine::runner::{Runner, RunnerSettings};

    let (study, mut spec) = experiment::registry()
        .load(std::path::Path::new("experiments/chutes_doubling.toml"))
        .expect("the spec loads");
    spec.trials = 3_000;
    spec.design = Design::Common;
    let runner = |threads| {
        Runner::new(RunnerSettings {
            threads,
            chunk_size: 700,
            show_progress: false,
        })
        .expect("a pool")
    };
    let output = study.run(&spec, &runner(2)).expect("the run");
    let table = |output: &experiment_engine::report::StudyOutput| {
        output
            .tables
            .iter()
            .find(|t| t.name == "comparisons")
            .expect("a comparisons table")
            .frame
            .clone()
    };
    let comparisons = table(&output);
    let family = comparisons.column("family").expect("family");
    let paired = (0..comparisons.height())
        .filter(|&row| {
            family
                .get(row)
                .expect("a row")
                .to_string()
                .contains("pairing_points")
        })
        .count();
    // 25 pairings: for each of the 5 strategies of one seat, the 10 pairs of the other's.
    assert_eq!(paired, 2 * 5 * 10);
    // The same numbers on one thread and other chunks.
    let again = study.run(&spec, &runner(1)).expect("the run");
    assert!(table(&again).equals_missing(&comparisons));
}
