//! One tournament analysed: its pairings against their exact payoffs, each strategy's
//! averages and the comparisons between strategies ([`Analysed`]), and everything the report
//! of one tournament is written from ([`Inputs`]).

use anyhow::Result;
use rayon::prelude::*;

use super::base::BaseExact;
use super::common;
use super::pairings::{compare, strategy_order, Average, Dice, Pairing};
use super::params::{pairing_params, ChutesParams};
use super::tournaments::Tournament;
use crate::exact::ChutesSolver;
use crate::game::{BaseGameSummary, CubeSummary};
use experiment_engine::analysis::{comparison, Analysis, Comparison, Measured};
use experiment_engine::design::PairedSummary;
use experiment_engine::spec::Experiment;

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

/// `tournament`'s results from the run's pairings (`rows`, in variant order) and its paired
/// statistics (with every pairing's), its exact payoffs solved by `solver` on the current
/// rayon pool.
pub(super) fn play<'a>(
    experiment: &Experiment,
    tournament: Tournament,
    solver: &'a ChutesSolver,
    rows: &[Measured<'_, CubeSummary>],
    (paired, all): (Option<&'a PairedSummary>, Option<&'a PairedSummary>),
) -> Result<Analysed<'a>> {
    let runs = tournament
        .variants
        .iter()
        .map(|&i| {
            let variant = &experiment.variants[i];
            let strategies = pairing_params(variant)?.strategies()?;
            Ok((variant.name.clone(), strategies, rows[i].summary.clone()))
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

/// Everything the report is written from.
#[derive(Clone, Copy)]
pub(super) struct Inputs<'a> {
    /// The experiment that ran.
    pub(super) experiment: &'a Experiment,
    /// The settings every pairing of the tournament shares (cube cap and thresholds).
    pub(super) shared: &'a ChutesParams,
    /// The tournament's exact solver.
    pub(super) solver: &'a ChutesSolver,
    /// The base game's results.
    pub(super) base: &'a BaseGameSummary,
    /// The base game's exact answers.
    pub(super) exact: &'a BaseExact,
    /// The tournament's pairings, in variant order.
    pub(super) pairings: &'a [Pairing],
    /// Each strategy's averages, in strategy order.
    pub(super) averages: &'a [Average],
    /// The comparisons between strategies.
    pub(super) comparisons: &'a [Comparison],
    /// The shared analysis of the pairings.
    pub(super) analysis: &'a Analysis<'a, CubeSummary>,
    /// The file stem of the tournament's payoff heatmap.
    pub(super) chart: &'a str,
    /// Whether the pairings played on common dice.
    pub(super) common: bool,
    /// Whether the run sets a seat key, so that the averages are shown beside their exact
    /// values ([`seats`]).
    pub(super) by_seat: bool,
}
