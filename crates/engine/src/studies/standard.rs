//! Every game's study is the standard one: its typed parameters ([`Rules`]), the game they
//! build and what one trial measures. [`Standard`] plays every variant (fixed, to a precision
//! target or to a selection), analyses them with the shared analysis and hands the analysis
//! to the game's own hook ([`Rules::analyse`]) for its tables, charts and reading; a game that
//! needs nothing more writes no hook.

use std::marker::PhantomData;

use anyhow::Result;

use super::estimator::{Estimator, Extra};
use super::{run_variants_with, select, Played, Study};
use crate::analysis::{Analysis, Headline, Measures};
use crate::cli::GameCommands;
use crate::games::Game;
use crate::params::{GameParams, ParamSchema, Params, Schema};
use crate::report::StudyOutput;
use crate::runner::Runner;
use crate::spec::{Experiment, Variant};

/// The summary type of the game that `R` describes.
pub type SummaryOf<R> = <<R as Rules>::Game as Game>::Summary;

/// The parameters of a game, with what it is called and what it measures, and the hooks by
/// which it adds what is its own to the shared analysis.
pub trait Rules: Params + 'static {
    /// The game's name in specs (`game = "..."`).
    const GAME: &'static str;
    /// One line on the game and what its experiments measure.
    const DESCRIPTION: &'static str;
    /// The game these parameters describe.
    type Game: Game;
    /// The game these (validated) parameters describe.
    fn game(self) -> Self::Game;
    /// What one trial of the game measures.
    fn measures() -> Measures<SummaryOf<Self>>;

    /// The tables, report, charts and console text of a run of `experiment` from the shared
    /// `analysis` of its variants (which the hook may extend, e.g. with comparisons of its
    /// own): by default the shared analysis's own ([`Analysis::standard_output`]). A game adds
    /// its own tables, charts, reading and exact values here.
    fn analyse(
        analysis: &mut Analysis<'_, SummaryOf<Self>>,
        experiment: &Experiment,
    ) -> Result<StudyOutput> {
        let _ = experiment;
        analysis.standard_output()
    }

    /// Metrics with a 95% interval that the game estimates itself from variant `v`'s summary
    /// of `variants` (e.g. a payoff that depends on each variant's rules), which a precision
    /// target or a selection may name beside the declared ones. Called with no variants for
    /// their names alone. None by default.
    fn extras(variants: &[Variant]) -> Result<Vec<Extra<'static, SummaryOf<Self>>>> {
        let _ = variants;
        Ok(Vec::new())
    }

    /// The game's own terminal commands (`experiment play|trace|exact <game>`), if any.
    fn commands() -> Option<&'static dyn GameCommands> {
        None
    }
}

/// The study of the game whose parameters are `R`: register `&Standard::<R>::NEW`.
pub struct Standard<R>(PhantomData<fn() -> R>);

impl<R> Standard<R> {
    /// The study (a zero-sized value).
    pub const NEW: Standard<R> = Standard(PhantomData);
}

/// The game a variant's parameters describe, once they are validated.
fn build<R: Rules>(variant: &Variant) -> Result<R::Game> {
    let params: R = variant.params.typed()?;
    params.validate()?;
    Ok(params.game())
}

/// Plays every variant of `experiment` on `runner` as its mode says: a precision target or a
/// selection may name the declared metrics or the game's [`Rules::extras`].
fn play<R: Rules>(experiment: &Experiment, runner: &Runner) -> Result<Played<SummaryOf<R>>> {
    let measures = R::measures();
    let extras = R::extras(&experiment.variants)?;
    let estimator = Estimator::new(&measures, &extras);
    run_variants_with(experiment, runner, &estimator, build::<R>)
}

/// The tables, report, charts and console text of `experiment` from what its variants
/// `played`: the shared analysis (with the paired statistics of a common design and the
/// decisions of a run in stages), the game's own ([`Rules::analyse`]), summarised for a run
/// of many variants. Everything a run does after playing.
pub fn analyse<R: Rules>(
    experiment: &Experiment,
    played: &Played<SummaryOf<R>>,
) -> Result<StudyOutput> {
    let measures = R::measures();
    let mut analysis = Analysis::new(&measures, &experiment.variants, &played.summaries)
        .with_paired(played.paired.as_ref(), <R::Game as Game>::PAIRED)
        .with_decisions(&played.decisions);
    let output = R::analyse(&mut analysis, experiment)?;
    Ok(analysis
        .summarise(output, &experiment.output.formats)
        .decided(played.decisions.clone()))
}

impl<R: Rules> GameParams for Standard<R> {
    fn game(&self) -> &'static str {
        R::GAME
    }

    fn params(&self) -> &'static dyn ParamSchema {
        &Schema::<R>::NEW
    }
}

impl<R: Rules> Study for Standard<R> {
    fn description(&self) -> &'static str {
        R::DESCRIPTION
    }

    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput> {
        analyse::<R>(experiment, &play::<R>(experiment, runner)?)
    }

    fn plays_common(&self) -> bool {
        true
    }
    fn plays_in_stages(&self) -> bool {
        true
    }

    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline> {
        let played = play::<R>(experiment, runner)?;
        Ok(Headline::new(&R::measures(), &played.summaries))
    }

    fn estimated_metrics(&self) -> Vec<&'static str> {
        let measures = R::measures();
        let extras = R::extras(&[]).unwrap_or_default();
        Estimator::new(&measures, &extras).names()
    }

    fn selectable_metrics(&self) -> Vec<&'static str> {
        let measures = R::measures();
        let extras = R::extras(&[]).unwrap_or_default();
        select::selectable_with::<R::Game>(&Estimator::new(&measures, &extras))
    }

    fn commands(&self) -> Option<&dyn GameCommands> {
        R::commands()
    }
}
