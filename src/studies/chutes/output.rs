//! Everything `run` does after playing: from the pairings' and the base game's summaries to the
//! study's tables, report, charts and console, starting from the shared analysis of the
//! pairings (summary, histogram and comparisons tables, the estimates section and chart).

use anyhow::Result;
use rayon::prelude::*;

use super::base::BaseExact;
use super::pairings::{compare, strategy_order, Average, Pairing};
use super::report::Inputs;
use super::{charts, console, measures, pairing_params, report, shared, tables};
use crate::analysis::Analysis;
use crate::exact::chutes::ChutesSolver;
use crate::games::chutes::{BaseGameSummary, CubeSummary};
use crate::report::StudyOutput;
use crate::spec::Experiment;

/// The tables, report, charts and console text of `experiment` from its pairings' summaries
/// (in variant order) and the base game's, with the exact values from `solver`. The pairings'
/// exact payoffs are solved on the current rayon pool.
pub fn analyse(
    experiment: &Experiment,
    solver: &ChutesSolver,
    summaries: Vec<CubeSummary>,
    base: &BaseGameSummary,
) -> Result<StudyOutput> {
    let shared = shared(experiment)?;
    let runs = experiment
        .variants
        .iter()
        .zip(summaries.iter().cloned())
        .map(|(variant, summary)| {
            let strategies = pairing_params(variant)?.strategies()?;
            Ok((variant.name.clone(), strategies, summary))
        })
        .collect::<Result<Vec<_>>>()?;
    let measures = measures();
    let mut analysis = Analysis::new(&measures, &experiment.variants, &summaries);
    // Each pairing's exact payoff is a policy evaluation of its own: solve them in parallel.
    let pairings = Pairing::adjusted(
        runs.into_par_iter()
            .map(|(name, strategies, summary)| Pairing::new(name, strategies, summary, solver))
            .collect(),
    );
    let names = strategy_order(&pairings);
    let averages: Vec<Average> = names
        .iter()
        .map(|name| Average::new(name, &pairings))
        .collect();
    // The study compares strategies, not pairings: its comparisons go where the shared layer's
    // would (`comparisons.csv`).
    analysis.comparisons = compare(&names, &pairings);

    let exact = BaseExact::new(solver, shared.racers());
    let report = report::report(&Inputs {
        experiment,
        shared: &shared,
        solver,
        base,
        exact: &exact,
        pairings: &pairings,
        averages: &averages,
        comparisons: &analysis.comparisons,
        analysis: &analysis,
    });
    // The shared tables (summary, histogram, comparisons) with the study's own beside them.
    let mut tables = vec![analysis.summary_table()?];
    tables.extend(analysis.histogram_tables()?);
    tables.extend([
        tables::payoffs_table(&pairings, shared.max_cube)?,
        tables::strategies_table(&averages)?,
        analysis.comparisons_table()?,
        tables::base_game_table(base, &exact)?,
        tables::base_game_hist_table(base, &exact)?,
    ]);
    Ok(StudyOutput {
        tables,
        report,
        charts: vec![
            (
                "payoff_matrix".into(),
                charts::payoff_chart(&names, &pairings, shared.max_cube),
            ),
            (
                "game_length".into(),
                charts::game_length_chart(base, &exact),
            ),
            ("estimates".into(), analysis.estimates_chart()),
        ],
        console: console::console(base, &exact, &pairings, &averages),
        trials: analysis.trials() + base.games,
    })
}
