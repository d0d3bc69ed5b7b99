//! Every game's study is the standard one: its typed parameters ([`Rules`]), the game they
//! build and what one trial measures. [`Standard`] plays every variant (fixed, to a precision
//! target or to a selection), analyses them with the shared analysis and hands the analysis
//! to the game's own hook ([`Rules::analyse`]) for its tables, charts and reading; a game that
//! needs nothing more writes no hook. A game that plays more than its variants (Chutes' base
//! game beside its pairings) says so in [`Rules::play`] and [`Rules::Beside`].

use std::marker::PhantomData;

use anyhow::Result;

use super::estimator::{Estimator, Extra};
use super::{common_stream, run_variants_with, select, Played, Study};
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
    /// The random streams the game plays besides its variants' ([`Study::other_streams`]):
    /// none by default.
    const OTHER_STREAMS: &'static [(u64, &'static str)] = &[];
    /// Whether the game's comparisons are between variants ([`Study::compares_variants`]):
    /// yes by default.
    const COMPARES_VARIANTS: bool = true;
    /// Whether the report of a run of many variants shows the highest and the lowest alone
    /// ([`Analysis::summarise`]): yes by default; a game whose report is of something else
    /// (Chutes' strategies, each over its pairings) writes `false`.
    const SUMMARISED: bool = true;
    /// The game these parameters describe.
    type Game: Game;
    /// What a run plays beside its variants, which the game's analysis reads ([`Rules::play`],
    /// [`Rules::analyse`]): `()` for a game that plays its variants alone.
    type Beside: Default;
    /// The game these (validated) parameters describe.
    fn game(self) -> Self::Game;
    /// What one trial of the game measures.
    fn measures() -> Measures<SummaryOf<Self>>;

    /// Plays every variant of `experiment` on `runner` as its mode says, and what the game
    /// plays beside them: by default the variants alone, each the game its parameters build.
    fn play(
        experiment: &Experiment,
        runner: &Runner,
    ) -> Result<(Played<SummaryOf<Self>>, Self::Beside)> {
        Ok((
            play_variants::<Self>(experiment, runner)?,
            Self::Beside::default(),
        ))
    }

    /// The tables, report, charts and console text of a run of `experiment` from the shared
    /// `analysis` of its variants (which the hook may extend, e.g. with comparisons of its
    /// own) and what it played `beside` them: by default the shared analysis's own
    /// ([`Analysis::standard_output`]). A game adds its own tables, charts, reading and exact
    /// values here.
    fn analyse(
        analysis: &mut Analysis<'_, SummaryOf<Self>>,
        experiment: &Experiment,
        beside: &Self::Beside,
    ) -> Result<StudyOutput> {
        let _ = (experiment, beside);
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

    /// Refuses a run in stages of `experiment` that the game cannot play
    /// ([`Study::check_stages`]): none by default.
    fn check_stages(experiment: &Experiment) -> Result<()> {
        let _ = experiment;
        Ok(())
    }

    /// The streams a run of `experiment` in the common design records its trials under
    /// ([`Study::common_streams`]): by default the one job every variant plays in.
    fn common_streams(experiment: &Experiment) -> Result<Vec<(u64, String)>> {
        let _ = experiment;
        Ok(common_stream())
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
fn play_variants<R: Rules>(
    experiment: &Experiment,
    runner: &Runner,
) -> Result<Played<SummaryOf<R>>> {
    let measures = R::measures();
    let extras = R::extras(&experiment.variants)?;
    let estimator = Estimator::new(&measures, &extras);
    run_variants_with(experiment, runner, &estimator, build::<R>)
}

/// The tables, report, charts and console text of `experiment` from what its variants
/// `played` and what it played `beside` them: the shared analysis (with the paired statistics
/// of a common design and the decisions of a run in stages), the game's own
/// ([`Rules::analyse`]), summarised for a run of many variants ([`Rules::SUMMARISED`]).
/// Everything a run does after playing.
pub fn analyse<R: Rules>(
    experiment: &Experiment,
    played: &Played<SummaryOf<R>>,
    beside: &R::Beside,
) -> Result<StudyOutput> {
    let measures = R::measures();
    let mut analysis = Analysis::new(&measures, &experiment.variants, &played.summaries)
        .with_paired(played.paired.as_ref(), <R::Game as Game>::PAIRED)
        .with_decisions(&played.decisions);
    let mut output = R::analyse(&mut analysis, experiment, beside)?;
    if R::SUMMARISED {
        output = analysis.summarise(output, &experiment.output.formats);
    }
    Ok(output.decided(played.decisions.clone()))
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
        let (played, beside) = R::play(experiment, runner)?;
        analyse::<R>(experiment, &played, &beside)
    }

    fn plays_common(&self) -> bool {
        true
    }
    fn plays_in_stages(&self) -> bool {
        true
    }

    /// The variants alone play, whatever the game plays beside them.
    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline> {
        let played = play_variants::<R>(experiment, runner)?;
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

    fn other_streams(&self) -> &'static [(u64, &'static str)] {
        R::OTHER_STREAMS
    }

    fn check_stages(&self, experiment: &Experiment) -> Result<()> {
        R::check_stages(experiment)
    }

    fn compares_variants(&self) -> bool {
        R::COMPARES_VARIANTS
    }

    fn common_streams(&self, experiment: &Experiment) -> Result<Vec<(u64, String)>> {
        R::common_streams(experiment)
    }

    fn commands(&self) -> Option<&dyn GameCommands> {
        R::commands()
    }
}
