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
pub mod stop;
pub mod twentyone;
pub mod war;

pub use standard::{Rules, Standard};

use std::ops::Range;

use anyhow::Result;

use crate::analysis::{Headline, Measures};
use crate::design::PairedSummary;
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

/// What playing the variants of an experiment gives: each variant's summary, in variant order,
/// and, in a common design, the paired statistics of the compared pairs.
pub struct Played<S> {
    /// Each variant's summary.
    pub summaries: Vec<S>,
    /// The paired statistics (a common design only).
    pub paired: Option<PairedSummary>,
}

/// Runs every variant of `experiment` with the game `build` makes for it. `measures` is what
/// the study measures (for runs that stop on a metric's precision or select the best).
pub fn run_variants<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    measures: &Measures<G::Summary>,
    build: impl Fn(&Variant) -> Result<G>,
) -> Result<Played<G::Summary>> {
    let games = experiment
        .variants
        .iter()
        .map(&build)
        .collect::<Result<Vec<G>>>()?;
    if let Some(stop) = &experiment.stop {
        let played = stop::run_stages(experiment, runner, measures, &games, stop);
        runner.finish();
        return played;
    }
    runner.expect_trials(experiment.trials * experiment.variants.len() as u64);
    let all: Vec<usize> = (0..games.len()).collect();
    let played = play_range(experiment, runner, &games, &all, 0..experiment.trials);
    runner.finish();
    Ok(played)
}

/// Plays trials `trials` of the variants `active` (indices into `experiment.variants`, whose
/// games `games` are) side by side on the pool: one summary per active variant, in the order of
/// `active`, each exactly what that variant alone gives for those trials.
pub fn play_range<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    games: &[G],
    active: &[usize],
    trials: Range<u64>,
) -> Played<G::Summary> {
    let jobs: Vec<Job<'_, G>> = active
        .iter()
        .map(|&v| Job {
            label: &experiment.variants[v].name,
            variant: experiment.variants[v].stream,
            game: &games[v],
        })
        .collect();
    // Variants run side by side on the pool; each summary is still exactly its variant's.
    Played {
        summaries: runner.run_jobs(&jobs, experiment.seed, trials),
        paired: None,
    }
}

/// Runs every variant of `experiment` with the game `build` makes for it and estimates the
/// headline metric `measures` declares: the whole of [`Study::headline`] for most games.
pub fn run_headline<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    measures: &Measures<G::Summary>,
    build: impl Fn(&Variant) -> Result<G>,
) -> Result<Headline> {
    let played = run_variants(experiment, runner, measures, build)?;
    Ok(Headline::new(measures, &played.summaries))
}
