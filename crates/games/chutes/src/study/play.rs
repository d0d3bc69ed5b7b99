//! A run's playing: every pairing (fixed, or in stages through [`stages`](super::stages)) and
//! the base game beside them, each on the exact solver of its tournament.

use anyhow::Result;

use super::beside::{Beside, Plays, BASE_GAME_STREAM};
use super::params::pairing_params;
use super::solvers::{shared, solvers};
use super::tournaments::tournaments;
use super::{common, stages};
use crate::game::{BaseGame, CubeMatch, CubeSummary};
use experiment_engine::design::Design;
use experiment_engine::runner::{Decisions, Job, Runner};
use experiment_engine::spec::Experiment;
use experiment_engine::studies::Played;

/// Plays every pairing of `experiment` on `runner` as its mode says, and the base game beside
/// them for the spec's trials.
pub(super) fn play(
    experiment: &Experiment,
    runner: &Runner,
) -> Result<(Played<CubeSummary>, Beside)> {
    let racers = shared(experiment)?.racers();
    let solvers = solvers(experiment)?;
    let staged = stages::staged(experiment);
    if staged {
        stages::check(experiment)?;
    } else {
        runner.expect_trials(experiment.trials * (experiment.variants.len() as u64 + 1));
    }
    // Every game is built (solving the optimal cube table if a pairing plays it) before any
    // is played, so the two runs follow each other.
    let matches = experiment
        .variants
        .iter()
        .zip(solvers.of_variants(experiment.variants.len()))
        .map(|(variant, solver)| {
            let (first, second) = pairing_params(variant)?.strategies()?;
            Ok(solver.cube_match(first, second))
        })
        .collect::<Result<Vec<CubeMatch>>>()?;
    let base_game = BaseGame {
        board: solvers.first().board().clone(),
        racers,
    };
    // The base game is no variant: a run in stages plays it first (its stages then set the
    // progress of their own), any other after the pairings, while the workers are still
    // awake (every trial's stream is fixed by its variant and index, so the order changes
    // no number).
    let play_base = || {
        runner.set_label("base game");
        let trials = 0..experiment.trials;
        runner.run(&base_game, experiment.seed, BASE_GAME_STREAM, trials)
    };
    let (((summaries, tournaments, all), decisions), base) = if staged {
        runner.expect_trials(experiment.trials);
        let base = play_base();
        let tournaments = tournaments(&experiment.variants)?;
        let played = stages::play(experiment, runner, &tournaments, &matches)?;
        (played, base)
    } else {
        let played = play_fixed(experiment, runner, &matches)?;
        let base = play_base();
        runner.finish();
        ((played, Decisions::None), base)
    };
    let played = Played {
        summaries,
        paired: None,
        decisions,
    };
    let beside = Beside {
        solvers,
        base,
        tournaments,
        all,
    };
    Ok((played, beside))
}

/// Plays every pairing of `experiment` (`matches`, in variant order) for the spec's trials:
/// each pairing's summary, in variant order, and in the common design each tournament's
/// paired statistics, in tournament order, with every pairing's when one job played them all.
fn play_fixed(experiment: &Experiment, runner: &Runner, matches: &[CubeMatch]) -> Result<Plays> {
    Ok(match experiment.design {
        Design::Independent => {
            // The pairings run side by side on the pool; each summary is still exactly its own.
            let jobs: Vec<Job<'_, CubeMatch>> = experiment
                .variants
                .iter()
                .zip(matches)
                .map(|(variant, game)| Job {
                    label: &variant.name,
                    variant: variant.stream,
                    game,
                })
                .collect();
            let summaries = runner.run_jobs(&jobs, experiment.seed, 0..experiment.trials);
            (summaries, Vec::new(), None)
        }
        Design::Common => {
            let tournaments = tournaments(&experiment.variants)?;
            common::play(experiment, runner, &tournaments, matches)?
        }
    })
}
