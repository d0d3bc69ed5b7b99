//! Chutes & Ladders rules against the exact solver: strategies bound to the solved tables, and
//! simulated games against exact probabilities and payoffs.

use experiment_chutes::exact::{solo_turns, ChutesSolver};
use experiment_chutes::game::{
    BaseGame, BaseGameSummary, Board, CubeOwner, CubeSummary, CubeView, Player, Racers, Strategy,
};
use experiment_engine::games::Game;
use experiment_engine::rng::trial_rng;
use experiment_engine::summary::Summary;

#[test]
fn threshold_player_decides_by_the_exact_win_probability() {
    let solver = ChutesSolver::new(Board::milton_bradley(), 1024).expect("valid cap");
    let win = solver.win_table();
    let player = solver.player(Strategy::threshold(0.6, 0.3).expect("valid"));
    let centre = CubeView {
        stake: 1,
        owner: CubeOwner::Centre,
    };
    for (my, their) in [(0, 0), (99, 0), (0, 99), (50, 60), (70, 40), (90, 91)] {
        let p_mover = win.mover_wins(my, their);
        assert_eq!(player.should_double(my, their, centre), p_mover >= 0.6);
        let p_taker = 1.0 - win.mover_wins(their, my);
        assert_eq!(player.should_take(my, their, centre), p_taker >= 0.3);
    }
    assert!(player.should_double(99, 0, centre));
    assert!(!player.should_take(0, 99, centre));
}

#[test]
fn optimal_player_follows_the_solved_cube_table() {
    let solver = ChutesSolver::new(Board::milton_bradley(), 4).expect("valid cap");
    let table = solver.cube_table();
    let player = solver.player(Strategy::Optimal);
    for stake_owner in [
        (1, CubeOwner::Centre),
        (2, CubeOwner::Me),
        (2, CubeOwner::Them),
    ] {
        let cube = CubeView {
            stake: stake_owner.0,
            owner: stake_owner.1,
        };
        for (my, their) in [(0, 0), (95, 10), (10, 95), (60, 70), (88, 30)] {
            assert_eq!(
                player.should_double(my, their, cube),
                table.should_double(my, their, cube)
            );
            assert_eq!(
                player.should_take(my, their, cube),
                table.should_take(my, their, cube)
            );
        }
    }
    let game = solver.cube_match(Strategy::Optimal, Strategy::Never);
    assert_eq!(
        (game.first(), game.second(), game.max_cube()),
        (Strategy::Optimal, Strategy::Never, 4)
    );
}

#[test]
fn simulated_first_player_win_rate_matches_the_exact_probability() {
    let game = BaseGame {
        board: Board::milton_bradley(),
        racers: Racers::Two,
    };
    let mut summary = BaseGameSummary::default();
    for i in 0..400_000 {
        summary.record(&game.play(&mut trial_rng(2024, 0, i)));
    }
    let solver = ChutesSolver::new(game.board.clone(), 1024).expect("valid cap");
    let exact = solver.win_table().first_player_wins();
    let se = (exact * (1.0 - exact) / summary.games as f64).sqrt();
    let sim = summary.p1_wins as f64 / summary.games as f64;
    assert!(
        (sim - exact).abs() < 4.0 * se,
        "sim {sim} exact {exact} se {se}"
    );
    assert_eq!(summary.turn_histogram.total(), summary.games);
    assert_eq!(summary.turn_histogram.min(), Some(13));
    // Players move independently: the game ends on move 2t - 1 when T1 = t <= T2, and on
    // move 2t when T2 = t < T1, with T the single-player finishing turn.
    let probs = solo_turns(&game.board).probs;
    let mut unfinished = 1.0;
    let mut exact_mean = 0.0;
    for (t, &p) in probs.iter().enumerate() {
        let t = t as f64;
        exact_mean += (2.0 * t - 1.0) * p * unfinished + 2.0 * t * p * (unfinished - p);
        unfinished -= p;
    }
    let turns = summary.turn_histogram.moments();
    let se = (turns.variance() / summary.games as f64).sqrt();
    let sim = turns.mean();
    assert!(
        (sim - exact_mean).abs() < 4.0 * se,
        "sim {sim} exact {exact_mean} se {se}"
    );
}

#[test]
fn simulated_optimal_against_never_matches_the_exact_payoff() {
    let solver = ChutesSolver::new(Board::milton_bradley(), 1024).expect("valid cap");
    let game = solver.cube_match(Strategy::Optimal, Strategy::Never);
    let mut summary = CubeSummary::default();
    for i in 0..400_000 {
        summary.record(&game.play(&mut trial_rng(2024, 1, i)));
    }
    let exact = solver.exact_payoff(Strategy::Optimal, Strategy::Never);
    let sim = summary.payoff.mean();
    let se = (summary.payoff.variance() / summary.games as f64).sqrt();
    assert!(
        (sim - exact).abs() < 4.0 * se,
        "sim {sim} exact {exact} se {se}"
    );
    assert!(summary.doubles > 0 && summary.drops == 0);
}
