//! Simulated Monopoly landing frequencies against the exact Markov chain: the simulation's
//! correctness tests (kept out of the game module, which knows nothing of the exact solvers).

use experiment_engine::games::Game;
use experiment_engine::rng::trial_rng;
use experiment_engine::stats::ratio_estimate;
use experiment_engine::summary::Summary;
use experiment_monopoly::exact::expected_landings;
use experiment_monopoly::game::{CardModel, JailStrategy, Monopoly, MonopolySummary};

/// The relative frequency of landings on square `index` and its standard error.
fn frequency(summary: &MonopolySummary, index: usize) -> (f64, f64) {
    ratio_estimate(
        summary.games(),
        summary.counts()[index],
        summary.count_squares()[index],
        summary.count_totals()[index],
        summary.total(),
        summary.total_squares(),
    )
}

/// Simulated relative frequencies against the exact chain (cards with replacement):
/// every square within 4.5 delta-method standard errors.
fn agrees_with_exact_chain(jail: JailStrategy, turns: u32, games: u64, seed: u64) {
    let game = Monopoly {
        jail,
        cards: CardModel::WithReplacement,
        turns,
        players: 2,
        ..Monopoly::default()
    };
    let mut summary = MonopolySummary::default();
    for i in 0..games {
        summary.record(&game.play(&mut trial_rng(seed, 0, i)));
    }
    let expected = expected_landings(jail, turns);
    let expected_total: f64 = expected.iter().sum();
    for (index, &exact) in expected.iter().enumerate() {
        let exact = exact / expected_total;
        let (freq, se) = frequency(&summary, index);
        if index == 30 {
            assert_eq!((freq, exact), (0.0, 0.0));
            continue;
        }
        let z = (freq - exact) / se;
        assert!(
            z.abs() < 4.5,
            "{} square {}: sim {freq:.5} exact {exact:.5} se {se:.6} z {z:.2}",
            jail.name(),
            index + 1
        );
    }
    // The expected landings per game (two players) against the mean game total.
    let mean_total = summary.total() as f64 / games as f64;
    assert!((mean_total - 2.0 * expected_total).abs() < 0.05 * expected_total);
}

#[test]
fn long_stay_simulation_agrees_with_the_exact_chain() {
    agrees_with_exact_chain(JailStrategy::LongStay, 150, 20_000, 2024);
}

#[test]
fn short_stay_simulation_agrees_with_the_exact_chain() {
    agrees_with_exact_chain(JailStrategy::ShortStay, 150, 20_000, 2025);
}

#[test]
fn short_games_follow_the_chain_from_go() {
    agrees_with_exact_chain(JailStrategy::LongStay, 3, 40_000, 2026);
}

#[test]
fn shuffled_decks_shift_go_and_jail_only_slightly() {
    // Not an exact model, but each deck still sends 1 draw in 15 or 16 to Go and to
    // jail: frequencies stay within 10% of the replacement chain's long-run shares.
    let game = Monopoly {
        cards: CardModel::ShuffledDeck,
        ..Monopoly::default()
    };
    let mut summary = MonopolySummary::default();
    for i in 0..5_000 {
        summary.record(&game.play(&mut trial_rng(77, 1, i)));
    }
    let expected = expected_landings(JailStrategy::LongStay, 150);
    let total: f64 = expected.iter().sum();
    for index in [0, 10] {
        let (freq, _) = frequency(&summary, index);
        let exact = expected[index] / total;
        assert!(
            (freq / exact - 1.0).abs() < 0.1,
            "{index}: {freq} vs {exact}"
        );
    }
}
