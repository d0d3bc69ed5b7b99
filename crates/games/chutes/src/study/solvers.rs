//! The exact solvers of a run: one per tournament (the optimal cube table of each solved on
//! first use), and the one the strategies of a headline run play from, kept per process.

use std::sync::{Arc, Mutex};

use anyhow::{bail, Context, Result};

use super::params::{pairing_params, ChutesParams};
use super::tournaments::tournaments;
use crate::exact::ChutesSolver;
use experiment_engine::spec::Experiment;

/// The exact solvers of a run, one per tournament (tournaments that differ only in their
/// thresholds share one), in the order the tournaments first appear among the variants.
#[derive(Clone)]
pub struct Solvers {
    /// Each tournament's solver.
    per_tournament: Vec<Arc<ChutesSolver>>,
    /// Each variant's tournament, by index.
    tournament_of: Vec<usize>,
}

/// The rules every pairing of `experiment` shares (board, die, overshoot rule, players of the
/// base game), read from its first variant: loading a spec refuses variants that set them
/// differently ([`ChutesParams`]'s `validate_together`), so any variant gives them.
pub(super) fn shared(experiment: &Experiment) -> Result<ChutesParams> {
    let first = experiment
        .variants
        .first()
        .with_context(|| format!("{}: no pairing to play", experiment.path.display()))?;
    pairing_params(first)
}

impl Solvers {
    /// The first tournament's solver (the base game plays on its board).
    pub(super) fn first(&self) -> &ChutesSolver {
        &self.per_tournament[0]
    }

    /// Each tournament's solver, in tournament order.
    pub(super) fn per_tournament(&self) -> &[Arc<ChutesSolver>] {
        &self.per_tournament
    }

    /// The solver of each of the run's `count` variants, in variant order.
    pub(super) fn of_variants(&self, count: usize) -> impl Iterator<Item = &ChutesSolver> {
        self.tournament_of
            .iter()
            .take(count)
            .map(|&t| &*self.per_tournament[t])
    }
}

/// The settings a solver depends on: a tournament's, with the strategies and their thresholds
/// (bare and per seat) at their defaults (the thresholds are the strategies' own, not the
/// solver's).
fn solver_settings(settings: &ChutesParams) -> ChutesParams {
    let defaults = ChutesParams::default();
    ChutesParams {
        first: defaults.first,
        second: defaults.second,
        ..settings.without_thresholds()
    }
}

/// The exact solver of one tournament's settings.
fn solver_for(settings: &ChutesParams) -> Result<ChutesSolver> {
    Ok(ChutesSolver::new(settings.board()?, settings.max_cube)?)
}

/// The exact solvers of `experiment`'s tournaments (the optimal cube table of each is solved on
/// first use, about two seconds).
pub fn solvers(experiment: &Experiment) -> Result<Solvers> {
    let tournaments = tournaments(&experiment.variants)?;
    if tournaments.is_empty() {
        bail!("{}: no pairing to play", experiment.path.display());
    }
    let mut built: Vec<(ChutesParams, Arc<ChutesSolver>)> = Vec::new();
    let mut per_tournament = Vec::with_capacity(tournaments.len());
    for tournament in &tournaments {
        let key = solver_settings(&tournament.settings);
        let solver = match built.iter().find(|(k, _)| *k == key) {
            Some((_, solver)) => Arc::clone(solver),
            None => {
                let solver = Arc::new(solver_for(&key)?);
                built.push((key, Arc::clone(&solver)));
                solver
            }
        };
        per_tournament.push(solver);
    }
    let mut tournament_of = vec![0; experiment.variants.len()];
    for (t, tournament) in tournaments.iter().enumerate() {
        for &v in &tournament.variants {
            tournament_of[v] = t;
        }
    }
    Ok(Solvers {
        per_tournament,
        tournament_of,
    })
}

/// The exact solver the strategies play from (the `optimal` strategy needs its cubeful table,
/// about two seconds to solve), kept for the last settings asked for, so that repeated headline
/// runs (a scaling ladder) solve it once per process, not once per run.
pub(super) fn cached_solver(params: &ChutesParams) -> Result<Arc<ChutesSolver>> {
    static SOLVER: Mutex<Option<(ChutesParams, Arc<ChutesSolver>)>> = Mutex::new(None);
    let key = solver_settings(params);
    let mut cached = SOLVER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match &*cached {
        Some((settings, solver)) if *settings == key => Ok(Arc::clone(solver)),
        _ => {
            let solver = Arc::new(solver_for(&key)?);
            *cached = Some((key, Arc::clone(&solver)));
            Ok(solver)
        }
    }
}
