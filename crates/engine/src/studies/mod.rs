//! Studies: for each game, how its variants are built from parameters, run, and turned into
//! tables, a report and charts. `crate::registry` lists them.
//!
//! A game is a study by declaration ([`Standard`] of its [`Rules`]): it plays every variant
//! (fixed, or in stages through the one loop of [`staged`]), starts from the shared analysis
//! of what the game measures
//! ([`Analysis::standard_output`](crate::analysis::Analysis::standard_output)) and adds what
//! is particular to it in its hook ([`Rules::analyse`], with [`StudyOutput::put_table`] and
//! [`StudyOutput::put_chart`]). A study of another shape implements [`Study`] itself.

pub mod estimator;
pub mod select;
pub mod staged;
mod standard;
pub mod stop;

pub use standard::{analyse, Rules, Standard, SummaryOf};

use std::ops::Range;

use anyhow::Result;

use crate::analysis::comparison::compared_pairs;
use crate::analysis::{Headline, Measures, Pairs};
use crate::cli::GameCommands;
use crate::design::{
    CommonGame, CommonSummary, Design, PairSet, PairedSummary, COMMON_LABEL, COMMON_STREAM,
    PILOT_STREAM, PILOT_TRIALS,
};
use crate::games::Game;
use crate::params::GameParams;
use crate::report::StudyOutput;
use crate::rng::trial_rng;
use crate::runner::{Decisions, Job, Runner};
use crate::spec::{Experiment, Mode, Variant};
use crate::studies::estimator::Estimator;
use crate::summary::Summary;

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
    /// The names of the study's metrics with a 95% interval, in the order it declares them:
    /// what a precision target (`[stop] metric`) may name.
    fn estimated_metrics(&self) -> Vec<&'static str>;
    /// The names of the metrics a selection of the best (`[select] metric`) may name: those
    /// with a 95% interval that the game also records trial by trial ([`Game::PAIRED`]).
    /// None for a study that cannot play in stages.
    fn selectable_metrics(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// The random streams the study plays besides its variants' (e.g. Chutes' base game), so
    /// that the streams of a checkpoint or shard file can be checked against the run's.
    fn other_streams(&self) -> &'static [(u64, &'static str)] {
        &[]
    }
    /// Whether the study plays a common design (`[design] random_numbers = "common"`) as one:
    /// every study that plays its variants through [`run_variants`] or [`play_range`] does.
    /// A spec asking for it from a study that does not is refused before anything runs.
    fn plays_common(&self) -> bool {
        false
    }
    /// Whether the study plays its variants through [`run_variants`], which is what runs in
    /// stages need (`[stop]`, `[select]`). A spec asking for them from a study that does not
    /// is refused before anything runs.
    fn plays_in_stages(&self) -> bool {
        false
    }
    /// Refuses a run in stages (`[stop]`, `[select]`) of `experiment` that the study cannot
    /// play although it plays in stages (e.g. Chutes' precision target in a common design of
    /// more pairings than it keeps every pair of), before anything runs. None by default.
    fn check_stages(&self, _experiment: &Experiment) -> Result<()> {
        Ok(())
    }
    /// Whether the study's comparisons are between variants, so that `[compare] within` can
    /// group them. A spec that groups its variants for a study whose comparisons are between
    /// something else (Chutes' strategies) is refused before anything runs.
    fn compares_variants(&self) -> bool {
        true
    }
    /// The streams a run of the experiment in the common design records its trials under,
    /// with their labels, besides [`Study::other_streams`]: the one job of [`play_range`],
    /// [`COMMON_STREAM`], unless the study plays its variants in several common jobs.
    fn common_streams(&self, _experiment: &Experiment) -> Result<Vec<(u64, String)>> {
        Ok(common_stream())
    }
    /// The game's own terminal commands (`experiment play|trace|exact <game>`), if any.
    fn commands(&self) -> Option<&dyn GameCommands> {
        None
    }
}

/// The streams of a common design whose variants play as one job ([`play_range`]): the one
/// [`COMMON_STREAM`].
pub fn common_stream() -> Vec<(u64, String)> {
    vec![(COMMON_STREAM, COMMON_LABEL.to_string())]
}

/// What playing the variants of an experiment gives: each variant's summary, in variant order,
/// and, in a common design, the paired statistics of the compared pairs.
pub struct Played<S> {
    /// Each variant's summary.
    pub summaries: Vec<S>,
    /// The paired statistics (a common design only).
    pub paired: Option<PairedSummary>,
    /// What a run in stages decided (where each variant stopped, or what was selected).
    pub decisions: Decisions,
}

/// Runs every variant of `experiment` with the game `build` makes for it. `measures` is what
/// the study measures (for runs that stop on a metric's precision or select the best, and for
/// the pilot of a common design of many variants, see [`play_range`]).
pub fn run_variants<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    measures: &Measures<G::Summary>,
    build: impl Fn(&Variant) -> Result<G>,
) -> Result<Played<G::Summary>> {
    run_variants_with(experiment, runner, &Estimator::new(measures, &[]), build)
}

/// As [`run_variants`], where a precision target or a selection may also name the metrics the
/// study estimates itself (`estimator`'s extras, e.g. Twenty-One's mean payoff).
pub fn run_variants_with<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    estimator: &Estimator<G::Summary>,
    build: impl Fn(&Variant) -> Result<G>,
) -> Result<Played<G::Summary>> {
    let measures = estimator.measures();
    let games = experiment
        .variants
        .iter()
        .map(&build)
        .collect::<Result<Vec<G>>>()?;
    let played = match &experiment.mode {
        Mode::Stop(stop) => stop::run_stages(experiment, runner, estimator, &games, stop)?,
        Mode::Select(select) => {
            select::run_selection(experiment, runner, estimator, &games, select)?
        }
        Mode::Fixed => {
            runner.expect_trials(experiment.trials * experiment.variants.len() as u64);
            let all: Vec<usize> = (0..games.len()).collect();
            play_range(
                experiment,
                runner,
                measures,
                &games,
                &all,
                0..experiment.trials,
            )
        }
    };
    runner.finish();
    stopped_short(runner)?;
    Ok(played)
}

/// Refuses to go on to the analysis once `runner` was cancelled (an interrupt, or saved
/// summaries its ledger refused): its summaries are incomplete, and may even lack variants,
/// so analysing them would give wrong tables or fail. The command says why (the ledger's
/// refusal, or the interrupt).
pub fn stopped_short(runner: &Runner) -> Result<()> {
    if runner.is_cancelled() {
        anyhow::bail!("the run was stopped before every trial was played: nothing was analysed");
    }
    Ok(())
}

/// Plays trials `trials` of the variants `active` (indices into `experiment.variants`, whose
/// games `games` are) side by side on the pool: one summary per active variant, in the order of
/// `active`, each exactly what that variant alone gives for those trials.
///
/// In the independent design each variant is a job of its own stream. In the common design
/// the active variants are one job ([`CommonGame`], recorded under [`COMMON_STREAM`]): trial
/// `i` of every variant draws, for each purpose, the same numbers, and the paired statistics
/// of the compared pairs come back in [`Played::paired`]. Within each group of the
/// experiment's `[compare] within` (all active variants when it has none), up to
/// [`ALL_PAIRS_LIMIT`](crate::analysis::comparison::ALL_PAIRS_LIMIT) variants every pair is
/// compared (a study that reads its comparisons against the best,
/// [`Pairs::WithBest`], picks them from every pair); beyond, each with the variant
/// that [`pilot_best`] picks among the group by the headline metric of `measures` (see
/// [`compared_pairs`]).
pub fn play_range<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    measures: &Measures<G::Summary>,
    games: &[G],
    active: &[usize],
    trials: Range<u64>,
) -> Played<G::Summary> {
    if experiment.design == Design::Common {
        return play_common_range(experiment, runner, measures, games, active, trials);
    }
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
        decisions: Decisions::None,
    }
}

/// [`play_range`] in the common design.
fn play_common_range<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    measures: &Measures<G::Summary>,
    games: &[G],
    active: &[usize],
    trials: Range<u64>,
) -> Played<G::Summary> {
    let games: Vec<&G> = active.iter().map(|&v| &games[v]).collect();
    let variants: Vec<&Variant> = active.iter().map(|&v| &experiment.variants[v]).collect();
    // On common numbers every pair is kept up to the limit, even for a study that reads its
    // comparisons against the best: it picks them from every pair.
    let kept = match measures.pairs {
        Pairs::WithBest => Pairs::Auto,
        other => other,
    };
    let pairs = compared_pairs(&experiment.compare, &variants, kept, |group| {
        let members: Vec<&G> = group.iter().map(|&k| games[k]).collect();
        group[pilot_best(experiment.seed, measures, &members)]
    });
    let common = CommonGame {
        pairs: PairSet::of(games.len(), &pairs),
        games,
        seed: experiment.seed,
        own_streams: None,
    };
    let job = Job {
        label: COMMON_LABEL,
        variant: COMMON_STREAM,
        game: &common,
    };
    // Each trial of the one job is a trial of every active variant.
    runner.count_each_trial_as(active.len() as u64);
    let summary = runner
        .run_jobs(std::slice::from_ref(&job), experiment.seed, trials)
        .pop()
        .expect("one job gives one summary");
    runner.count_each_trial_as(1);
    let CommonSummary { variants, paired } = summary;
    // A run whose every trial was already played (or none) still has one summary per variant.
    let summaries = if variants.is_empty() {
        vec![G::Summary::default(); active.len()]
    } else {
        variants
    };
    Played {
        summaries,
        paired: Some(paired),
        decisions: Decisions::None,
    }
}

/// The variant (an index into `games`) that every other is compared with in a common design
/// of more than [`ALL_PAIRS_LIMIT`](crate::analysis::comparison::ALL_PAIRS_LIMIT) variants
/// (or a group of `[compare] within` that large): the first with the highest headline
/// estimate over a pilot of [`PILOT_TRIALS`] trials each, every purpose drawn from the one pilot
/// stream [`PILOT_STREAM`]. The pilot depends on the seed alone, so every shard, resumed part
/// and top-up of a run picks the same variant, whatever its trials; its trials are not part
/// of the results.
pub fn pilot_best<G: Game>(seed: u64, measures: &Measures<G::Summary>, games: &[&G]) -> usize {
    use rayon::prelude::*;
    let summaries: Vec<G::Summary> = games
        .par_iter()
        .map(|game| {
            let mut summary = G::Summary::default();
            for trial in 0..PILOT_TRIALS {
                summary.record(&game.play(&mut trial_rng(seed, PILOT_STREAM, trial)));
            }
            summary
        })
        .collect();
    let headline = Headline::new(measures, &summaries);
    let point = |k: usize| {
        let point = headline.estimates[k].point;
        if point.is_nan() {
            f64::NEG_INFINITY
        } else {
            point
        }
    };
    (0..games.len())
        .reduce(|best, k| if point(k) > point(best) { k } else { best })
        .unwrap_or(0)
}

/// The names of the metrics of `measures` with a 95% interval, in declaration order (what
/// [`Study::estimated_metrics`] gives).
pub fn estimated_names<S>(measures: &Measures<S>) -> Vec<&'static str> {
    measures.estimated().map(|m| m.name).collect()
}

/// Adds to `output` of `experiment` what its mode decided (`output.decisions`) beyond the
/// columns its tables were built with: a precision target's "Precision targets" section, or
/// a selection's `selection` table and "Selection" section. Nothing for a fixed run.
pub fn report_decisions(output: &mut StudyOutput, experiment: &Experiment) -> Result<()> {
    let decisions = std::mem::take(&mut output.decisions);
    match (&experiment.mode, &decisions) {
        (Mode::Stop(rule), Decisions::Stops(stops)) => {
            stop::report(output, rule, experiment.design, stops);
        }
        (Mode::Select(rule), Decisions::Selection(selection)) => {
            select::report(output, rule, experiment.design, selection)?;
        }
        _ => {}
    }
    output.decisions = decisions;
    Ok(())
}
