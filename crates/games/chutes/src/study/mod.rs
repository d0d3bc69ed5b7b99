//! The chutes study: a round-robin tournament of doubling-cube strategies in Chutes & Ladders,
//! with the base game (no cube) run beside it, every number checked against the exact solver.
//!
//! Variants sweep `first` then `second` (names like `optimal-never`); the variants that agree
//! on every other parameter (`double_at`, `take_at`, the cube cap `max_cube`) form one
//! tournament (`tournaments`), and a run may hold several. The rules (`board`, `die_sides`,
//! `overshoot`, `base_players`) are shared by every variant. One
//! [`ChutesSolver`](crate::exact::ChutesSolver) is built per tournament (shared by tournaments
//! that differ only in their thresholds) and by the exact evaluations.
//! The base game plays on its own random stream, [`BASE_GAME_STREAM`], so its results do not
//! depend on which pairings are selected.
//! A run in stages (`[stop]`, `[select]`) plays the pairings as variants, through `stages`.
//!
//! This file runs the games. Its modules import in one direction, from the leaves up:
//! - [`params`] declares and checks the parameters, [`measures`] what the shared analysis
//!   reads from a pairing, `tournaments` groups the pairings, `solvers` holds the exact
//!   solvers, [`base`] the base game's exact answers, `pairings` the estimates and comparisons
//!   of one tournament, `cells` how numbers are written;
//! - `common` and `stages` play the common design and the runs in stages;
//! - `analysed` is one tournament analysed (and what its report is written from), which
//!   `seats`, `between`, `reading` and `across` (comparisons across tournaments) read;
//! - `report`, `console`, `tables` and `charts` write it out;
//! - `output` turns the summaries into the study's output, using all of them.

mod across;
mod analysed;
pub mod base;
mod between;
mod cells;
mod charts;
mod common;
mod console;
pub mod measures;
mod output;
mod pairings;
pub mod params;
mod reading;
mod report;
mod seats;
mod solvers;
mod stages;
mod tables;
mod tournaments;

use anyhow::Result;

use crate::game::{BaseGame, CubeMatch, CubeSummary};
use experiment_engine::analysis::Headline;
use experiment_engine::design::{Design, PairedSummary, COMMON_LABEL, COMMON_STREAM};
use experiment_engine::params::{GameParams, ParamSchema, Schema};
use experiment_engine::report::StudyOutput;
use experiment_engine::runner::{Decisions, Job, Runner};
use experiment_engine::spec::Experiment;
use experiment_engine::studies::{run_headline, Study};

pub use base::{game_length_distribution, BaseExact};
pub use measures::measures;
pub use output::analyse;
use params::pairing_params;
pub use params::ChutesParams;
use solvers::{cached_solver, shared};
pub use solvers::{solvers, Solvers};
use tournaments::tournaments;

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
    fn commands(&self) -> Option<&dyn experiment_engine::cli::GameCommands> {
        Some(&crate::cli::ChutesCommands)
    }

    fn description(&self) -> &'static str {
        "Chutes & Ladders for a stake of 1 with a doubling cube (before rolling, a player who \
         may double offers twice the stake; the other takes and owns the cube, or drops and \
         pays the stake): which doubling strategy makes money, first-player advantage and game \
         length, checked against exact values"
    }

    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput> {
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
        let (((summaries, paired, all), decisions), base) = if staged {
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
        // Each pairing's exact payoff is a policy evaluation of its own, solved in parallel.
        runner.install(|| {
            let paired = analysed::Paired {
                tournaments: &paired,
                all: all.as_ref(),
                decisions: &decisions,
            };
            output::analyse_paired(experiment, &solvers, summaries, paired, &base)
        })
    }

    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline> {
        run_headline(experiment, runner, &measures(), |variant| {
            let params = pairing_params(variant)?;
            let solver = cached_solver(&params)?;
            let (first, second) = params.strategies()?;
            Ok(solver.cube_match(first, second))
        })
    }

    fn estimated_metrics(&self) -> Vec<&'static str> {
        experiment_engine::studies::estimated_names(&measures())
    }

    /// Its pairings play as variants (the base game beside them), see [`stages`].
    fn plays_in_stages(&self) -> bool {
        true
    }

    fn selectable_metrics(&self) -> Vec<&'static str> {
        experiment_engine::studies::select::selectable_names::<CubeMatch>(&measures())
    }

    fn check_stages(&self, experiment: &Experiment) -> Result<()> {
        stages::check(experiment)
    }

    fn other_streams(&self) -> &'static [(u64, &'static str)] {
        &[(BASE_GAME_STREAM, "base game")]
    }

    fn plays_common(&self) -> bool {
        true
    }

    /// Its comparisons are between strategies over a tournament's pairings.
    fn compares_variants(&self) -> bool {
        false
    }

    /// One stream per tournament: each plays its pairings as one common job, unless a
    /// precision target ([`stages`]) or a run of several tournaments of at most
    /// [`ALL_PAIRS_LIMIT`](experiment_engine::analysis::comparison::ALL_PAIRS_LIMIT) pairings
    /// ([`common::one_job`]) plays every pairing as one common job.
    fn common_streams(&self, experiment: &Experiment) -> Result<Vec<(u64, String)>> {
        if stages::one_common_job(experiment) || common::one_job(experiment)? {
            return Ok(vec![(COMMON_STREAM, COMMON_LABEL.to_string())]);
        }
        Ok(tournaments(&experiment.variants)?
            .iter()
            .map(|t| {
                let (stream, label) = common::job_stream(experiment, t);
                (stream, label.to_string())
            })
            .collect())
    }
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

/// What a run played: each pairing's summary, in variant order; in the common design each
/// tournament's paired statistics, in tournament order, and every pairing's (in variant
/// order) when one common job played them all.
type Plays = (Vec<CubeSummary>, Vec<PairedSummary>, Option<PairedSummary>);
