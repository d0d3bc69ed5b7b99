//! Single-thread timings that whole-process runs cannot isolate, for `scripts/bench.sh`:
//! War with cycle detection on and off, Chutes moves/s and Twenty-One hands/s, and the time
//! of the exact solvers. Prints `name value unit` lines. Timings are measured here and never
//! asserted anywhere.
//!
//!   cargo run --release --example bench -- war-cycles 200000
//!   cargo run --release --example bench -- chutes 1000000
//!   cargo run --release --example bench -- twentyone 1000000
//!   cargo run --release --example bench -- exact
//!   cargo run --release --example bench -- split chutes 2 1000

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use experiment_engine::affinity::{allowed_cpus, pin_current_thread};

use experiment_chutes::exact::ChutesSolver;
use experiment_chutes::game::{BaseGame, Board, Racers, Strategy as CubeStrategy};
use experiment_engine::games::Game;
use experiment_engine::rng::trial_rng;
use experiment_engine::runner::{default_chunk_size, play_chunk};
use experiment_twentyone::exact::Solver;
use experiment_twentyone::game::{Strategy, TwentyOne};
use experiment_war::game::{Placement, Rules, War, WarResult, WarState, DEFAULT_MAX_TURNS};

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
        Some("split") => {
            let number = |at: usize, what: &str| -> u64 {
                args.get(at)
                    .and_then(|text| text.replace('_', "").parse().ok())
                    .unwrap_or_else(|| {
                        eprintln!("usage: bench split chutes|war THREADS TRIALS ({what} missing)");
                        std::process::exit(2);
                    })
            };
            let threads = usize::try_from(number(2, "THREADS")).expect("a small thread count");
            split(
                args.get(1).map_or("", String::as_str),
                threads.max(1),
                number(3, "TRIALS"),
            );
        }
        _ => {
            eprintln!(
                "usage: bench war-cycles|chutes|twentyone [GAMES] | bench exact | \
                 bench split chutes|war THREADS TRIALS"
            );
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
            rules: Rules::STANDARD,
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
        racers: Racers::Two,
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

/// The five strategies of the shipped Chutes spec (`experiments/chutes_doubling.toml`), whose 25
/// pairings the figures in docs/performance.md are for.
const SHIPPED: [CubeStrategy; 5] = [
    CubeStrategy::ALL[0],
    CubeStrategy::ALL[1],
    CubeStrategy::ALL[2],
    CubeStrategy::ALL[3],
    CubeStrategy::ALL[4],
];

/// The exact solvers: Chutes (cubeless table, optimal cube table, every strategy pair's
/// payoff) and Twenty-One (the enumeration and its optimal table).
fn exact() {
    let (win, solver) =
        timed(|| ChutesSolver::new(Board::milton_bradley(), 1024).expect("a valid cube cap"));
    let (cube, _) = timed(|| solver.start_equity());
    let (pairs, _) = timed(|| {
        for first in SHIPPED {
            for second in SHIPPED {
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

/// A job of the split reference: plays a range of one variant's trials and keeps nothing.
type ChunkPlayer<'a> = Box<dyn Fn(Range<u64>) + Sync + 'a>;

/// Plays trials `range` of `game` (variant `variant`) into a summary and drops it.
fn player<G: Game>(game: &G, variant: u64) -> ChunkPlayer<'_> {
    Box::new(move |range| {
        std::hint::black_box(play_chunk(game, 1, variant, range));
    })
}

/// The reference for the engine's 2-thread speed-up: the trials of a shipped spec (War's six
/// placements, or Chutes' 25 pairings and its base game) in the engine's chunks, played by
/// `threads` threads that are already running, pinned as the engine pins its workers, taking
/// chunks from one shared counter, and merging nothing. No pool, no wake-up, no merge: what the
/// machine gives two threads for the same work. Prints the seconds from the start signal to
/// the last chunk's end.
fn split(game: &str, threads: usize, trials: u64) {
    let solver;
    let (matches, base, wars);
    let jobs: Vec<ChunkPlayer<'_>> = match game {
        "chutes" => {
            solver = ChutesSolver::new(Board::milton_bradley(), 1024).expect("a valid cube cap");
            matches = SHIPPED
                .iter()
                .flat_map(|&first| SHIPPED.map(|second| (first, second)))
                .map(|(first, second)| solver.cube_match(first, second))
                .collect::<Vec<_>>();
            base = BaseGame {
                board: Board::milton_bradley(),
                racers: Racers::Two,
            };
            let mut jobs: Vec<ChunkPlayer<'_>> = (0..)
                .zip(&matches)
                .map(|(variant, game)| player(game, variant))
                .collect();
            jobs.push(player(&base, jobs.len() as u64));
            jobs
        }
        "war" => {
            wars = Placement::ALL
                .iter()
                .map(|&placement| War {
                    placement,
                    max_turns: DEFAULT_MAX_TURNS,
                    rules: Rules::STANDARD,
                })
                .collect::<Vec<_>>();
            (0..)
                .zip(&wars)
                .map(|(variant, game)| player(game, variant))
                .collect()
        }
        _ => {
            eprintln!("split: the game is chutes or war");
            std::process::exit(2);
        }
    };
    let chunk = default_chunk_size(trials);
    let chunks: Vec<(usize, Range<u64>)> = (0..jobs.len())
        .flat_map(|job| {
            (0..trials.div_ceil(chunk))
                .map(move |i| (job, i * chunk..((i + 1) * chunk).min(trials)))
        })
        .collect();
    let cpus = allowed_cpus();
    let pin = threads >= 2 && threads == cpus.len();
    let next = AtomicUsize::new(0);
    let ready = AtomicUsize::new(0);
    let go = AtomicBool::new(false);
    let finished = Mutex::new(Vec::new());
    let started = std::thread::scope(|scope| {
        for worker in 0..threads {
            let (jobs, chunks, next, ready, go, finished) =
                (&jobs, &chunks, &next, &ready, &go, &finished);
            let cpu = cpus.get(worker).copied();
            scope.spawn(move || {
                if let (true, Some(cpu)) = (pin, cpu) {
                    pin_current_thread(cpu);
                }
                ready.fetch_add(1, Ordering::AcqRel);
                while !go.load(Ordering::Acquire) {
                    std::hint::spin_loop();
                }
                while let Some((job, range)) = chunks.get(next.fetch_add(1, Ordering::Relaxed)) {
                    jobs[*job](range.clone());
                }
                finished
                    .lock()
                    .expect("no worker panics")
                    .push(Instant::now());
            });
        }
        while ready.load(Ordering::Acquire) < threads {
            std::hint::spin_loop();
        }
        let started = Instant::now();
        go.store(true, Ordering::Release);
        started
    });
    let last = finished
        .into_inner()
        .expect("no worker panics")
        .into_iter()
        .max()
        .expect("at least one thread");
    println!("split_seconds {:.6} s", (last - started).as_secs_f64());
}
