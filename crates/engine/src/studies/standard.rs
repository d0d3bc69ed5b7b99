//! A game that needs nothing but the shared analysis is a study by declaration: its typed
//! parameters ([`Rules`]), the game they build and what one trial measures. [`Standard`]
//! plays every variant and returns [`Analysis::standard_output`].

use std::marker::PhantomData;

use anyhow::Result;

use super::{run_headline, run_variants, Study};
use crate::analysis::{Analysis, Headline, Measures};
use crate::games::Game;
use crate::params::{GameParams, ParamSchema, Params, Schema};
use crate::report::StudyOutput;
use crate::runner::Runner;
use crate::spec::{Experiment, Variant};

/// The parameters of a game whose study is the shared analysis alone, with what it is called
/// and what it measures.
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
    fn measures() -> Measures<<Self::Game as Game>::Summary>;
}

/// The study of the game whose parameters are `R`: register `&Standard::<R>::NEW`.
pub struct Standard<R>(PhantomData<fn() -> R>);

impl<R> Standard<R> {
    /// The study (a zero-sized value).
    pub const NEW: Standard<R> = Standard(PhantomData);
}

fn build<R: Rules>(variant: &Variant) -> Result<R::Game> {
    let params: R = variant.params.typed()?;
    params.validate()?;
    Ok(params.game())
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
        let measures = R::measures();
        let played = run_variants(experiment, runner, &measures, build::<R>)?;
        let analysis = Analysis::new(&measures, &experiment.variants, &played.summaries)
            .with_paired(played.paired.as_ref(), <R::Game as Game>::PAIRED);
        let output = analysis.standard_output()?;
        Ok(analysis
            .summarise(output, &experiment.output.formats)
            .decided(played.decisions))
    }

    fn plays_common(&self) -> bool {
        true
    }
    fn plays_in_stages(&self) -> bool {
        true
    }

    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline> {
        run_headline(experiment, runner, &R::measures(), build::<R>)
    }

    fn estimated_metrics(&self) -> Vec<&'static str> {
        crate::studies::estimated_names(&R::measures())
    }

    fn selectable_metrics(&self) -> Vec<&'static str> {
        crate::studies::select::selectable_names::<R::Game>(&R::measures())
    }
}
