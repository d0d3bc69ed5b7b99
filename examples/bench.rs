//! Single-thread timings that whole-process runs cannot isolate, for `scripts/bench.sh`:
//! War with cycle detection on and off, Chutes moves/s and Twenty-One hands/s, and the time
//! of the exact solvers. Prints `name value unit` lines. Timings are measured here and never
//! asserted anywhere.
//!
//!   cargo run --release --example bench -- war-cycles 200000
//!   cargo run --release --example bench -- chutes 1000000
//!   cargo run --release --example bench -- twentyone 1000000
//!   cargo run --release --example bench -- exact

use std::sync::Arc;
use std::time::Instant;

use experiment::exact::chutes::ChutesSolver;
use experiment::exact::twentyone::Solver;
use experiment::games::chutes::{BaseGame, Board, Strategy as CubeStrategy};
use experiment::games::twentyone::{Strategy, TwentyOne};
use experiment::games::war::{Placement, War, WarResult, WarState, DEFAULT_MAX_TURNS};
use experiment::games::Game;
use experiment::rng::trial_rng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count = |default: u64| -> u64 {
        args.get(1)
            .map(|text| {
                text.replace('_', "")
                    .parse()
                    .expect("a whole number of games")
            })
            .unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("war-cycles") => war_cycles(count(200_000)),
        Some("chutes") => chutes(count(1_000_000)),
        Some("twentyone") => twentyone(count(1_000_000)),
        Some("exact") => exact(),
        _ => {
            eprintln!("usage: bench war-cycles|chutes|twentyone [GAMES] | bench exact");
            std::process::exit(2);
        }
    }
}

/// Seconds taken by `work`, with its result.
fn timed<T>(work: impl FnOnce() -> T) -> (f64, T) {
    let started = Instant::now();
    let result = work();
    (started.elapsed().as_secs_f64(), result)
}

/// Every deterministic placement with cycle detection (the engine's play) and without (a
/// cycling game then runs to the turn limit, as the C peer does).
fn war_cycles(games: u64) {
    for &placement in Placement::ALL {
        if !placement.is_deterministic() {
            continue;
        }
        let war = War {
            placement,
            max_turns: DEFAULT_MAX_TURNS,
        };
        let (on, cycled) = timed(|| {
            (0..games)
                .filter(|&i| {
                    let outcome = war.play(&mut trial_rng(1, 0, i));
                    matches!(outcome.result, WarResult::Cycled { .. })
                })
                .count()
        });
        let (off, _) = timed(|| {
            (0..games)
                .map(|i| {
                    let mut rng = trial_rng(1, 0, i);
                    let start = WarState::deal(&mut rng);
                    war.play_without_cycle_detection(start, &mut rng).turns as u64
                })
                .sum::<u64>()
        });
        let name = placement.name();
        println!(
            "war_{name}_cycle_detection_on {:.0} games/s",
            games as f64 / on
        );
        println!(
            "war_{name}_cycle_detection_off {:.0} games/s",
            games as f64 / off
        );
        println!("war_{name}_cycled {cycled} games");
    }
}

/// Moves per second of the base game (both players' moves counted).
fn chutes(games: u64) {
    let game = BaseGame {
        board: Board::milton_bradley(),
    };
    let (seconds, moves) = timed(|| {
        (0..games)
            .map(|i| u64::from(game.play(&mut trial_rng(1, 0, i)).turns))
            .sum::<u64>()
    });
    println!("chutes_moves_per_s {:.0} moves/s", moves as f64 / seconds);
    println!("chutes_games_per_s {:.0} games/s", games as f64 / seconds);
}

/// Hands per second of three standing rules.
fn twentyone(games: u64) {
    let optimal = Strategy::Optimal(Arc::new(Solver::new().optimal_policy()));
    for (name, strategy) in [
        ("stand_at_17", Strategy::StandAt(17)),
        ("probability_0.5", Strategy::Probability(0.5)),
        ("optimal", optimal),
    ] {
        let game = TwentyOne::new(strategy);
        let (seconds, _) = timed(|| {
            (0..games)
                .filter(|&i| game.play(&mut trial_rng(1, 0, i)).player_won)
                .count()
        });
        println!(
            "twentyone_{name}_hands_per_s {:.0} hands/s",
            games as f64 / seconds
        );
    }
}

/// The exact solvers: Chutes (cubeless table, optimal cube table, every strategy pair's
/// payoff) and Twenty-One (the enumeration and its optimal table).
fn exact() {
    let (win, solver) =
        timed(|| ChutesSolver::new(Board::milton_bradley(), 1024).expect("a valid cube cap"));
    let (cube, _) = timed(|| solver.start_equity());
    let (pairs, _) = timed(|| {
        for first in CubeStrategy::ALL {
            for second in CubeStrategy::ALL {
                solver.exact_payoff(first, second);
            }
        }
    });
    println!("chutes_exact_win_table {win:.3} s");
    println!("chutes_exact_cube_table {cube:.3} s");
    println!("chutes_exact_pair_payoffs {pairs:.3} s");
    println!("chutes_exact_total {:.3} s", win + cube + pairs);
    let (seconds, _) = timed(|| Solver::new().optimal_policy());
    println!("twentyone_exact_solver {seconds:.3} s");
}
