//! Studies: for each game, how its variants are built from parameters, run, and turned into
//! tables, a report and charts. `crate::registry` lists them.
//!
//! Every study starts from the shared analysis of what its game measures
//! ([`Analysis::standard_output`](crate::analysis::Analysis::standard_output)) and adds what is
//! particular to it ([`StudyOutput::put_table`], [`StudyOutput::put_chart`]); a game that
//! needs nothing more is a study by declaration ([`Standard`]).

pub mod chutes;
pub mod monopoly;
mod standard;
pub mod twentyone;
pub mod war;

pub use standard::{Rules, Standard};

use anyhow::Result;

use crate::analysis::{Headline, Measures};
use crate::games::Game;
use crate::params::GameParams;
use crate::report::StudyOutput;
use crate::runner::{Job, Runner};
use crate::spec::{Experiment, Variant};

/// A game as the engine knows it: its name and typed parameters ([`GameParams`]), and how an
/// experiment on it is analysed.
pub trait Study: GameParams {
    /// One line on the game and what its experiments measure.
    fn description(&self) -> &'static str;
    /// Runs every variant of `experiment` and analyses the results.
    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput>;
    /// Plays every variant of `experiment` and returns each variant's estimate of the study's
    /// headline metric, without the rest of the analysis (no tables, charts, comparisons, or
    /// exact solvers the game does not need to play): what `experiment scale` measures at each
    /// step of its ladder.
    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline>;
    /// The random streams the study plays besides its variants' (e.g. Chutes' base game), so
    /// that the streams of a checkpoint or shard file can be checked against the run's.
    fn other_streams(&self) -> &'static [(u64, &'static str)] {
        &[]
    }
}

/// Runs every variant of `experiment` with the game `build` makes for it, returning the
/// summaries in variant order.
pub fn run_variants<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    build: impl Fn(&Variant) -> Result<G>,
) -> Result<Vec<G::Summary>> {
    runner.expect_trials(experiment.trials * experiment.variants.len() as u64);
    let games = experiment
        .variants
        .iter()
        .map(&build)
        .collect::<Result<Vec<G>>>()?;
    let jobs: Vec<Job<'_, G>> = experiment
        .variants
        .iter()
        .zip(&games)
        .map(|(variant, game)| Job {
            label: &variant.name,
            variant: variant.stream,
            game,
        })
        .collect();
    // Variants run side by side on the pool; each summary is still exactly its variant's.
    let summaries = runner.run_jobs(&jobs, experiment.seed, 0..experiment.trials);
    runner.finish();
    Ok(summaries)
}

/// Runs every variant of `experiment` with the game `build` makes for it and estimates the
/// headline metric `measures` declares: the whole of [`Study::headline`] for most games.
pub fn run_headline<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    measures: &Measures<G::Summary>,
    build: impl Fn(&Variant) -> Result<G>,
) -> Result<Headline> {
    let summaries = run_variants(experiment, runner, build)?;
    Ok(Headline::new(measures, &summaries))
}
