//! Everything `run` does after playing: from the pairings' and the base game's summaries to the
//! study's tables, report, charts and console, starting from the shared analysis of the
//! pairings (summary, histogram and comparisons tables, the estimates section and chart).
//! Each tournament is analysed alone, exactly as a run of one tournament is; a run of several
//! adds the comparisons across them (`across`).

use anyhow::Result;

use super::across::{self, Across};
use super::analysed::{play, Analysed, Inputs};
use super::base::BaseExact;
use super::beside::Beside;
use super::solvers::shared;
use super::tournaments::{tournament_columns, tournaments};
use super::{charts, console, report, seats, tables};
use crate::game::CubeSummary;
use experiment_engine::analysis::{comparison, Analysis};
use experiment_engine::frame::NamedTable;
use experiment_engine::plot::Chart;
use experiment_engine::report::StudyOutput;
use experiment_engine::spec::{Experiment, Variant};

/// The tables, report, charts and console text of `experiment` from the shared `analysis` of
/// its pairings and what it played `beside` them, with the exact values from each
/// tournament's solver. The pairings' exact payoffs are solved on the current rayon pool.
pub(super) fn analyse(
    analysis: &Analysis<'_, CubeSummary>,
    experiment: &Experiment,
    beside: &Beside,
) -> Result<StudyOutput> {
    let Beside {
        solvers,
        base,
        tournaments: paired,
        all,
    } = beside;
    let all = all.as_ref();
    let played = tournaments(&experiment.variants)?
        .into_iter()
        .zip(solvers.per_tournament())
        .enumerate()
        .map(|(t, (tournament, solver))| {
            play(
                experiment,
                tournament,
                solver,
                &analysis.rows,
                (paired.get(t), all),
            )
        })
        .collect::<Result<Vec<Analysed>>>()?;
    let exact = BaseExact::new(solvers.first(), shared(experiment)?.racers());
    let by_seat = seats::by_seat(experiment)?;
    let charts: Vec<String> = played.iter().map(Analysed::chart).collect();
    let inputs: Vec<Inputs> = played
        .iter()
        .zip(&charts)
        .map(|(p, chart)| Inputs {
            experiment,
            shared: &p.tournament.settings,
            solver: p.solver,
            base,
            exact: &exact,
            pairings: &p.pairings,
            averages: &p.averages,
            comparisons: &p.comparisons,
            analysis,
            chart,
            common: !paired.is_empty(),
            by_seat,
        })
        .collect();
    let across = if played.len() > 1 && (paired.is_empty() || all.is_some()) {
        across::compare(&played)
    } else {
        Vec::new()
    };
    // The shared tables (summary, histogram) with the study's own beside them; the study
    // compares strategies, not pairings, so its comparisons fill `comparisons.csv`.
    let mut tables = vec![analysis.summary_table()?];
    tables.extend(analysis.histogram_tables()?);
    tables.extend(own_tables(&played, &across, by_seat, &experiment.variants)?);
    tables.extend([
        tables::base_game_table(base, &exact)?,
        tables::base_game_hist_table(base, &exact)?,
    ]);
    let mut chart_list: Vec<(String, Chart)> = played
        .iter()
        .map(|p| {
            let chart = charts::payoff_chart(
                &p.names,
                &p.pairings,
                p.tournament.settings.max_cube,
                &p.tournament.label,
            );
            (p.chart(), chart)
        })
        .collect();
    let (report, console) = if played.len() == 1 {
        let p = &played[0];
        (
            report::report(&inputs[0]),
            console::console(base, &exact, &p.pairings, &p.averages, by_seat),
        )
    } else {
        if let Some(chart) = across::chart(&played) {
            chart_list.push(("across_tournaments".into(), chart));
        }
        (
            report::report_several(&inputs, &played, &across),
            console::several(base, &exact, &played, by_seat),
        )
    };
    chart_list.extend([
        (
            "game_length".into(),
            charts::game_length_chart(base, &exact),
        ),
        ("estimates".into(), analysis.estimates_chart()),
    ]);
    Ok(StudyOutput {
        tables,
        report,
        charts: chart_list,
        console,
        trials: analysis.trials() + base.games,
        decisions: analysis.decisions.clone(),
    })
}

/// The study's own tables: `payoffs`, `strategies` and `comparisons`, each tournament's rows
/// under the others' with the tournament's columns when the run holds several, and then
/// `tournament_comparisons`. With a seat key set (`by_seat`), `strategies` gives each average's
/// exact value too.
fn own_tables(
    played: &[Analysed],
    across: &[Across],
    by_seat: bool,
    variants: &[Variant],
) -> Result<Vec<NamedTable>> {
    let payoffs = played
        .iter()
        .map(|p| tables::payoffs_table(&p.pairings, p.tournament.settings.max_cube))
        .collect::<Result<Vec<_>>>()?;
    let strategies = played
        .iter()
        .map(|p| tables::strategies_table(&p.averages, by_seat))
        .collect::<Result<Vec<_>>>()?;
    let comparisons = played
        .iter()
        .map(|p| comparison::table(&p.comparisons, variants))
        .collect::<Result<Vec<_>>>()?;
    if played.len() == 1 {
        return Ok(payoffs
            .into_iter()
            .chain(strategies)
            .chain(comparisons)
            .collect());
    }
    // The tournament's name, and its settings as numbers for a curve (the payoffs table has a
    // `max_cube` column of its own).
    let columns = |skip: &'static [&'static str]| {
        move |i: usize, rows: usize| {
            let tournament = &played[i].tournament;
            tournament_columns(&vec![tournament; rows], skip)
        }
    };
    Ok(vec![
        tables::stacked(payoffs, 1, columns(&["max_cube"]))?,
        tables::stacked(strategies, 0, columns(&[]))?,
        tables::stacked(comparisons, 0, columns(&[]))?,
        across::table(across)?,
    ])
}
