//! Choosing the best (`[select]`) by repetition on Twenty-One's `stand_at` 12..21, whose exact
//! win rates come from enumerating the deck: over 200 selections per design (each its own
//! seed), the rule chosen is the best, or within the indifference zone of it, at least 95% of
//! the time, as the procedure guarantees. Also: a selection depends on the seed alone (not
//! threads or chunks), and common random numbers take fewer games than independent ones.

use std::path::Path;

use experiment::exact::twentyone::Solver;
use experiment::games::twentyone::Strategy;
use experiment::registry::Registry;
use experiment::runner::{Runner, RunnerSettings, Selection};

const INDIFFERENCE: f64 = 0.005;
const REPEATS: u64 = 200;

/// A `stand_at` 12..21 spec with `[select]` on the win rate, in `design`, seeded `seed`.
fn spec(seed: u64, design: &str) -> String {
    format!(
        "version = 1\nname = \"select_twentyone\"\ngame = \"twentyone\"\nseed = {seed}\n\
         trials = 1_000\n[sweep]\nstand_at = {{ from = 12, to = 21 }}\n\
         [design]\nrandom_numbers = \"{design}\"\n\
         [select]\nmetric = \"win_rate\"\ngoal = \"max\"\nindifference = {INDIFFERENCE}\n\
         confidence = 0.95\nmax_trials = 2_000_000\n"
    )
}

/// Runs one selection and returns what it decided.
fn select(seed: u64, design: &str, threads: usize, chunk_size: u64) -> Selection {
    let (study, experiment) = Registry::builtin()
        .parse(Path::new("select_twentyone.toml"), &spec(seed, design))
        .expect("the spec is valid");
    let runner = Runner::new(RunnerSettings {
        threads,
        chunk_size,
        show_progress: false,
    })
    .expect("a runner");
    study.headline(&experiment, &runner).expect("it runs");
    runner.selection().expect("a selection was made")
}

/// The exact win rate of `stand_at` 12..21, in that order.
fn exact() -> Vec<f64> {
    let solver = Solver::new();
    (12..=21)
        .map(|n| solver.outcome(&Strategy::StandAt(n)).win)
        .collect()
}

/// How many of `REPEATS` selections in `design` chose a rule within the zone of the best,
/// and the games they took on average.
fn repeat(design: &str) -> (u64, f64) {
    let exact = exact();
    let best = exact.iter().copied().fold(f64::MIN, f64::max);
    let mut right = 0;
    let mut games = 0;
    for seed in 0..REPEATS {
        let selection = select(1_000 + seed, design, 2, 1_000);
        assert!(selection.alone, "seed {seed}: the cap was reached");
        if exact[selection.chosen] >= best - INDIFFERENCE {
            right += 1;
        }
        games += selection.total_trials();
    }
    (right, games as f64 / REPEATS as f64)
}

#[test]
fn selections_choose_within_the_zone_at_least_95_percent_of_the_time() {
    let (independent, independent_games) = repeat("independent");
    let (common, common_games) = repeat("common");
    eprintln!(
        "right: independent {independent}/{REPEATS} ({independent_games:.0} games a \
         selection), common {common}/{REPEATS} ({common_games:.0})"
    );
    // The guarantee: at least 95% of selections.
    assert!(
        independent * 100 >= 95 * REPEATS,
        "independent {independent}"
    );
    assert!(common * 100 >= 95 * REPEATS, "common {common}");
    // One shoe for every rule makes the differences far less variable: fewer games.
    assert!(
        common_games < independent_games,
        "common {common_games} vs independent {independent_games}"
    );
}

#[test]
fn a_selection_depends_on_the_seed_alone() {
    for design in ["independent", "common"] {
        let one = select(7, design, 1, 1_000);
        let other = select(7, design, 2, 333);
        assert_eq!(one, other, "{design}");
        assert!(one.stages >= 2, "{design}: {one:?}");
        // Every variant played every stage until it was eliminated.
        for row in &one.variants {
            match row.eliminated_at {
                Some(stage) => assert_eq!(row.trials, stage * 1_000, "{row:?}"),
                None => assert_eq!(row.trials, one.stages * 1_000, "{row:?}"),
            }
        }
    }
}
