//! Everything `run` does after playing: from the pairings' and the base game's summaries to the
//! study's tables, report, charts and console, starting from the shared analysis of the
//! pairings (summary, histogram and comparisons tables, the estimates section and chart).
//! Each tournament is analysed alone, exactly as a run of one tournament is; a run of several
//! adds the comparisons across them (`across`).

use anyhow::Result;
use rayon::prelude::*;

use super::across::{self, Across};
use super::base::BaseExact;
use super::pairings::{compare, strategy_order, Average, Dice, Pairing};
use super::report::Inputs;
use super::tournaments::{tournament_columns, tournaments, Tournament};
use super::{charts, common, console, measures, pairing_params, report, seats, tables, Solvers};
use crate::exact::ChutesSolver;
use crate::game::{BaseGameSummary, CubeSummary};
use experiment_engine::analysis::{comparison, Analysis, Comparison};
use experiment_engine::design::PairedSummary;
use experiment_engine::frame::NamedTable;
use experiment_engine::plot::Chart;
use experiment_engine::report::StudyOutput;
use experiment_engine::runner::Decisions;
use experiment_engine::spec::{Experiment, Variant};

/// One tournament's results: its pairings against their exact payoffs, each strategy's average
/// and the comparisons between its strategies.
pub(super) struct Analysed<'a> {
    /// The tournament.
    pub(super) tournament: Tournament,
    /// Its exact solver.
    pub(super) solver: &'a ChutesSolver,
    /// Its pairings, in variant order, Holm-adjusted against their exact payoffs.
    pub(super) pairings: Vec<Pairing>,
    /// Its strategies, in the order they first appear.
    pub(super) names: Vec<&'static str>,
    /// Each strategy's averages, in strategy order.
    pub(super) averages: Vec<Average>,
    /// The comparisons between its strategies, Holm-adjusted within the tournament.
    pub(super) comparisons: Vec<Comparison>,
    /// How its pairings' means covary.
    pub(super) dice: Dice<'a>,
    /// Every pairing's paired statistics (in variant order), when one common job played the
    /// run's every pairing: what compares tournaments on the same dice.
    pub(super) all: Option<&'a PairedSummary>,
}

/// A run's paired statistics (none in an independent run) and what its stages decided.
#[derive(Clone, Copy)]
pub(super) struct Paired<'a> {
    /// Each tournament's, in tournament order.
    pub(super) tournaments: &'a [PairedSummary],
    /// Every pairing's, in variant order, when one job played them all.
    pub(super) all: Option<&'a PairedSummary>,
    /// What a run in stages decided (the summary table is built with its columns).
    pub(super) decisions: &'a Decisions,
}

impl Analysed<'_> {
    /// The file stem of its payoff heatmap.
    pub(super) fn chart(&self) -> String {
        if self.tournament.label.is_empty() {
            "payoff_matrix".to_string()
        } else {
            format!("payoff_matrix-{}", self.tournament.label)
        }
    }
}

/// `tournament`'s results from the run's `summaries` (in variant order) and its paired
/// statistics (with every pairing's), its exact payoffs solved by `solver` on the current
/// rayon pool.
fn play<'a>(
    experiment: &Experiment,
    tournament: Tournament,
    solver: &'a ChutesSolver,
    summaries: &[CubeSummary],
    (paired, all): (Option<&'a PairedSummary>, Option<&'a PairedSummary>),
) -> Result<Analysed<'a>> {
    let runs = tournament
        .variants
        .iter()
        .map(|&i| {
            let variant = &experiment.variants[i];
            let strategies = pairing_params(variant)?.strategies()?;
            Ok((variant.name.clone(), strategies, summaries[i].clone()))
        })
        .collect::<Result<Vec<_>>>()?;
    // Each pairing's exact payoff is a policy evaluation of its own: solve them in parallel.
    let pairings = Pairing::adjusted(
        runs.into_par_iter()
            .map(|(name, strategies, summary)| Pairing::new(name, strategies, summary, solver))
            .collect(),
    );
    let names = strategy_order(&pairings);
    let dice = paired.map_or(Dice::Own, Dice::Same);
    let averages: Vec<Average> = names
        .iter()
        .map(|name| Average::new(name, &pairings, dice))
        .collect();
    // On common dice the contrasts' variances take every pair's covariance, from the exact
    // sums of products the paired statistics keep.
    let mut comparisons = compare(&names, &pairings, dice);
    if let Some(paired) = paired {
        let mut same_dice = common::comparisons(&pairings, paired);
        comparison::adjust(&mut same_dice);
        comparisons.extend(same_dice);
    }
    Ok(Analysed {
        tournament,
        solver,
        pairings,
        names,
        averages,
        comparisons,
        dice,
        all,
    })
}

/// The tables, report, charts and console text of `experiment` from its pairings' summaries
/// (in variant order) and the base game's, with the exact values from each tournament's solver
/// in `solvers`. The pairings' exact payoffs are solved on the current rayon pool.
pub fn analyse(
    experiment: &Experiment,
    solvers: &Solvers,
    summaries: Vec<CubeSummary>,
    base: &BaseGameSummary,
) -> Result<StudyOutput> {
    static FIXED: Decisions = Decisions::None;
    let paired = Paired {
        tournaments: &[],
        all: None,
        decisions: &FIXED,
    };
    analyse_paired(experiment, solvers, summaries, paired, base)
}

/// As [`analyse`], with each tournament's paired statistics of a common design (in tournament
/// order; none for an independent one), whose pairings that differ in one player's strategy
/// are compared pair by pair, and every pairing's when one job played them all (which
/// compares the tournaments on the same dice).
pub(super) fn analyse_paired(
    experiment: &Experiment,
    solvers: &Solvers,
    summaries: Vec<CubeSummary>,
    paired: Paired,
    base: &BaseGameSummary,
) -> Result<StudyOutput> {
    let (all, decisions, paired) = (paired.all, paired.decisions, paired.tournaments);
    let measures = measures();
    let analysis =
        Analysis::new(&measures, &experiment.variants, &summaries).with_decisions(decisions);
    let played = tournaments(&experiment.variants)?
        .into_iter()
        .zip(solvers.per_tournament())
        .enumerate()
        .map(|(t, (tournament, solver))| {
            play(
                experiment,
                tournament,
                solver,
                &summaries,
                (paired.get(t), all),
            )
        })
        .collect::<Result<Vec<Analysed>>>()?;
    let exact = BaseExact::new(solvers.first(), super::shared(experiment)?.racers());
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
            analysis: &analysis,
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
