//! The chutes study: a round-robin tournament of doubling-cube strategies in Chutes & Ladders,
//! with the base game (no cube) run beside it, every number checked against the exact solver.
//!
//! Variants sweep `first` then `second` (names like `optimal-never`); the strategy parameters
//! `double_at`, `take_at`, the cube cap `max_cube` and the rules (`board`, `die_sides`,
//! `overshoot`, `base_players`) are shared by every variant. One
//! [`ChutesSolver`] is built per run and shared by every variant and by the exact evaluations.
//! The base game plays on its own random stream, [`BASE_GAME_STREAM`], so its results do not
//! depend on which pairings are selected.
//!
//! This file runs the games; [`params`] declares and checks the parameters, [`measures`] what
//! the shared analysis reads from a pairing, `output` turns the summaries into the study's
//! output: `pairings` (estimates and comparisons), `tables`, `report` and `reading`,
//! `console` and `charts`, with the base game's exact answers in [`base`].

pub mod base;
mod charts;
mod console;
pub mod measures;
mod output;
mod pairings;
pub mod params;
mod reading;
mod report;
mod tables;

use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};

use crate::analysis::Headline;
use crate::exact::chutes::ChutesSolver;
use crate::games::chutes::{BaseGame, Board, CubeMatch};
use crate::params::{GameParams, ParamSchema, Schema};
use crate::report::StudyOutput;
use crate::runner::{Job, Runner};
use crate::spec::{Experiment, Variant};
use crate::studies::{run_headline, Study};

pub use base::{game_length_distribution, BaseExact};
pub use measures::measures;
pub use output::analyse;
pub use params::ChutesParams;

/// The variant stream of the base game: a fixed number, so the base game's results never change
/// with the pairings selected (a pairing's stream is a 64-bit hash of its parameters, equal to
/// this one with probability 2^-64).
/// `experiment play chutes --seed S` plays trial 0 of this stream.
pub const BASE_GAME_STREAM: u64 = 1 << 32;

/// Chutes & Ladders with a doubling cube: a strategy tournament checked against exact values.
pub struct ChutesStudy;

impl GameParams for ChutesStudy {
    fn game(&self) -> &'static str {
        "chutes"
    }

    fn params(&self) -> &'static dyn ParamSchema {
        &Schema::<ChutesParams>::NEW
    }
}

impl Study for ChutesStudy {
    fn description(&self) -> &'static str {
        "Chutes & Ladders for a stake of 1 with a doubling cube (before rolling, a player who \
         may double offers twice the stake; the other takes and owns the cube, or drops and \
         pays the stake): which doubling strategy makes money, first-player advantage and game \
         length, checked against exact values"
    }

    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput> {
        let racers = shared(experiment)?.racers();
        let solver = solver(experiment)?;
        let games = experiment.variants.len() as u64 + 1;
        runner.expect_trials(experiment.trials * games);
        // Every game is built (solving the optimal cube table if a pairing plays it) before any
        // is played, so the two runs follow each other.
        let matches = experiment
            .variants
            .iter()
            .map(|variant| {
                let (first, second) = pairing_params(variant)?.strategies()?;
                Ok(solver.cube_match(first, second))
            })
            .collect::<Result<Vec<CubeMatch>>>()?;
        // The pairings run side by side on the pool; each summary is still exactly its own.
        let jobs: Vec<Job<'_, CubeMatch>> = experiment
            .variants
            .iter()
            .zip(&matches)
            .map(|(variant, game)| Job {
                label: &variant.name,
                variant: variant.stream,
                game,
            })
            .collect();
        let summaries = runner.run_jobs(&jobs, experiment.seed, 0..experiment.trials);
        // The short base-game run goes second, while the workers are still awake (every trial's
        // stream is fixed by its variant and index, so the order changes no number).
        runner.set_label("base game");
        let base = runner.run(
            &BaseGame {
                board: solver.board().clone(),
                racers,
            },
            experiment.seed,
            BASE_GAME_STREAM,
            0..experiment.trials,
        );
        runner.finish();
        // Each pairing's exact payoff is a policy evaluation of its own, solved in parallel.
        runner.install(|| analyse(experiment, &solver, summaries, &base))
    }

    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline> {
        run_headline(experiment, runner, &measures(), |variant| {
            let params = pairing_params(variant)?;
            let solver = cached_solver(params.board()?, params.max_cube)?;
            let (first, second) = params.strategies()?;
            Ok(solver.cube_match(first, second))
        })
    }

    fn other_streams(&self) -> &'static [(u64, &'static str)] {
        &[(BASE_GAME_STREAM, "base game")]
    }
}

/// One variant's parameters.
fn pairing_params(variant: &Variant) -> Result<ChutesParams> {
    Ok(variant.params.typed::<ChutesParams>()?)
}

/// The cube cap and thresholds every pairing of `experiment` shares, read from its first
/// variant: loading a spec refuses variants that set them differently
/// ([`ChutesParams`]'s `validate_together`), so any variant gives them.
fn shared(experiment: &Experiment) -> Result<ChutesParams> {
    let first = experiment
        .variants
        .first()
        .with_context(|| format!("{}: no pairing to play", experiment.path.display()))?;
    pairing_params(first)
}

/// The exact solver of `experiment`'s pairings, with the board, rules and cube cap they share
/// (solving the optimal cube table takes about two seconds).
pub fn solver(experiment: &Experiment) -> Result<ChutesSolver> {
    let shared = shared(experiment)?;
    Ok(ChutesSolver::new(shared.board()?, shared.max_cube)?)
}

/// The exact solver the strategies play from (the `optimal` strategy needs its cubeful table,
/// about two seconds to solve), kept for the last board and cube cap asked for, so that repeated
/// headline runs (a scaling ladder) solve it once per process, not once per run.
fn cached_solver(board: Board, max_cube: u32) -> Result<Arc<ChutesSolver>> {
    static SOLVER: Mutex<Option<Arc<ChutesSolver>>> = Mutex::new(None);
    let mut cached = SOLVER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match &*cached {
        Some(solver) if solver.max_cube() == max_cube && *solver.board() == board => {
            Ok(Arc::clone(solver))
        }
        _ => {
            let solver = Arc::new(ChutesSolver::new(board, max_cube)?);
            *cached = Some(Arc::clone(&solver));
            Ok(solver)
        }
    }
}
