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
//! The study is the engine's standard one ([`Rules`] for [`ChutesParams`]), with hooks of its
//! own: it plays the base game beside the pairings ([`Rules::play`], [`Beside`]) and analyses
//! strategies, not variants ([`Rules::analyse`]). Its modules import in one direction, from
//! the leaves up:
//! - [`params`] declares and checks the parameters, [`measures`] what the shared analysis
//!   reads from a pairing, `tournaments` groups the pairings, `solvers` holds the exact
//!   solvers, `beside` what a run plays beside its pairings, [`base`] the base game's exact
//!   answers, `pairings` the estimates and comparisons of one tournament, `cells` how numbers
//!   are written;
//! - `common` and `stages` play the common design and the runs in stages, `play` a whole run;
//! - `analysed` is one tournament analysed (and what its report is written from), which
//!   `seats`, `between`, `reading` and `across` (comparisons across tournaments) read;
//! - `report`, `console`, `tables` and `charts` write it out;
//! - `output` turns the summaries into the study's output, using all of them.

mod across;
mod analysed;
pub mod base;
pub mod beside;
mod between;
mod cells;
mod charts;
mod common;
mod console;
pub mod measures;
mod output;
mod pairings;
pub mod params;
mod play;
mod reading;
mod report;
mod seats;
mod solvers;
mod stages;
mod tables;
mod tournaments;

use anyhow::{Context, Result};

use crate::game::{CubeMatch, CubeSummary};
use experiment_engine::analysis::{Analysis, Measures};
use experiment_engine::cli::GameCommands;
use experiment_engine::report::StudyOutput;
use experiment_engine::runner::Runner;
use experiment_engine::spec::Experiment;
use experiment_engine::studies::{common_stream, Played, Rules};

pub use base::{game_length_distribution, BaseExact};
pub use beside::{Beside, BASE_GAME_STREAM};
pub use measures::measures;
pub use params::ChutesParams;
use solvers::cached_solver;
pub use solvers::{solvers, Solvers};
use tournaments::tournaments;

/// Chutes & Ladders with a doubling cube: a strategy tournament checked against exact values,
/// with the base game (no cube) played beside it.
impl Rules for ChutesParams {
    const GAME: &'static str = "chutes";
    const DESCRIPTION: &'static str =
        "Chutes & Ladders for a stake of 1 with a doubling cube (before rolling, a player who \
         may double offers twice the stake; the other takes and owns the cube, or drops and \
         pays the stake): which doubling strategy makes money, first-player advantage and game \
         length, checked against exact values";
    const OTHER_STREAMS: &'static [(u64, &'static str)] = &[(BASE_GAME_STREAM, "base game")];
    /// Its comparisons are between strategies over a tournament's pairings.
    const COMPARES_VARIANTS: bool = false;
    /// Its report is of strategies, each over every pairing it plays in.
    const SUMMARISED: bool = false;
    type Game = CubeMatch;
    type Beside = Option<Beside>;

    /// The pairing at these (validated) settings, its strategies playing from the exact solver
    /// kept for them, so that the runs of a scaling ladder solve it once.
    fn game(self) -> CubeMatch {
        let solver = cached_solver(&self).expect("validated settings build their solver");
        let (first, second) = self
            .strategies()
            .expect("validated settings name known strategies");
        solver.cube_match(first, second)
    }

    fn measures() -> Measures<CubeSummary> {
        measures()
    }

    /// The pairings, each on its tournament's solver, and the base game beside them.
    fn play(
        experiment: &Experiment,
        runner: &Runner,
    ) -> Result<(Played<CubeSummary>, Option<Beside>)> {
        let (played, beside) = play::play(experiment, runner)?;
        Ok((played, Some(beside)))
    }

    fn analyse(
        analysis: &mut Analysis<'_, CubeSummary>,
        experiment: &Experiment,
        beside: &Option<Beside>,
    ) -> Result<StudyOutput> {
        let beside = beside
            .as_ref()
            .context("a Chutes run is analysed with the base game played beside its pairings")?;
        output::analyse(analysis, experiment, beside)
    }

    /// See [`stages`].
    fn check_stages(experiment: &Experiment) -> Result<()> {
        stages::check(experiment)
    }

    /// One stream per tournament: each plays its pairings as one common job, unless a
    /// precision target ([`stages`]) or a run of several tournaments of at most
    /// [`ALL_PAIRS_LIMIT`](experiment_engine::analysis::comparison::ALL_PAIRS_LIMIT) pairings
    /// ([`common::one_job`]) plays every pairing as one common job.
    fn common_streams(experiment: &Experiment) -> Result<Vec<(u64, String)>> {
        if stages::one_common_job(experiment) || common::one_job(experiment)? {
            return Ok(common_stream());
        }
        Ok(tournaments(&experiment.variants)?
            .iter()
            .map(|t| {
                let (stream, label) = common::job_stream(experiment, t);
                (stream, label.to_string())
            })
            .collect())
    }

    fn commands() -> Option<&'static dyn GameCommands> {
        Some(&crate::cli::ChutesCommands)
    }
}
