//! The chutes study: a round-robin tournament of doubling-cube strategies in Chutes & Ladders,
//! with the base game (no cube) run beside it, every number checked against the exact solver.
//!
//! Variants sweep `first` then `second` (names like `optimal-never`); the strategy parameters
//! `double_at`, `take_at` and the cube cap `max_cube` are shared by every variant. One
//! [`ChutesSolver`] is built per run and shared by every variant and by the exact evaluations.
//! The base game plays on its own random stream, [`BASE_GAME_STREAM`], so its results do not
//! depend on which pairings are selected.

mod charts;
mod report;
mod tables;

use crate::stats::ALPHA;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use anyhow::{bail, Result};
use polars::prelude::DataFrame;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::analysis::comparison::{self, Comparison};
use crate::analysis::{Analysis, Headline, Kind, Measures, Metric, Pairs};
use crate::exact::chutes::{solo_turns, ChutesSolver, SoloTurns};
use crate::frame::NamedTable;
use crate::frame::{format_number, TableBuilder};
use crate::games::chutes::{
    cube_levels, BaseGame, BaseGameSummary, Board, CubeMatch, CubeSummary, Strategy, StrategyError,
    StrategyName, Thresholds, DEFAULT_MAX_CUBE,
};
use crate::params::{
    GameParams, ParamDef, ParamError, ParamKind, ParamSchema, ParamSet, Params, Schema,
};
use crate::plot::{Chart, Heatmap, LineChart, Series};
use crate::report::{Block, StudyOutput};
use crate::runner::{Job, Runner};
use crate::spec::Experiment;
use crate::stats::{self, wilson, Contrast, Estimate, IntegerMoments};
use crate::studies::{run_headline, Study};

/// The variant stream of the base game: a fixed number, so the base game's results never change
/// with the pairings selected (a pairing's stream is a 64-bit hash of its parameters, equal to
/// this one with probability 2^-64).
/// `experiment play chutes --seed S` plays trial 0 of this stream.
pub const BASE_GAME_STREAM: u64 = 1 << 32;

/// Largest cube cap a spec may set (the largest power of two a `u32` stake holds).
const MAX_CUBE_LIMIT: i64 = 1 << 31;

/// The tournament's parameters, as a spec sets them. Variants sweep `first` and `second`; the
/// other three are shared by every pairing of a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChutesParams {
    /// Strategy of player 1, who moves first.
    pub first: StrategyName,
    /// Strategy of player 2.
    pub second: StrategyName,
    /// Threshold strategy: double at this cubeless win probability or more.
    pub double_at: f64,
    /// Threshold strategy: take at this cubeless win probability or more.
    pub take_at: f64,
    /// Cube cap, a power of two.
    pub max_cube: u32,
}

impl Default for ChutesParams {
    fn default() -> Self {
        ChutesParams {
            first: StrategyName::Never,
            second: StrategyName::Never,
            double_at: Thresholds::DEFAULT_DOUBLE_AT,
            take_at: Thresholds::DEFAULT_TAKE_AT,
            max_cube: DEFAULT_MAX_CUBE,
        }
    }
}

impl Params for ChutesParams {
    const DECLARED: &'static [ParamDef] = &[
        ParamDef {
            name: "first",
            kind: ParamKind::Choice(<StrategyName as VariantNames>::VARIANTS),
            description: "strategy of player 1, who moves first",
        },
        ParamDef {
            name: "second",
            kind: ParamKind::Choice(<StrategyName as VariantNames>::VARIANTS),
            description: "strategy of player 2",
        },
        ParamDef {
            name: "double_at",
            kind: ParamKind::Float { min: 0.0, max: 1.0 },
            description: "threshold strategy: double at this cubeless win probability or more",
        },
        ParamDef {
            name: "take_at",
            kind: ParamKind::Float { min: 0.0, max: 1.0 },
            description: "threshold strategy: take at this cubeless win probability or more",
        },
        ParamDef {
            name: "max_cube",
            kind: ParamKind::Int {
                min: 1,
                max: MAX_CUBE_LIMIT,
            },
            description: "cube cap, a power of two: no double is offered past it",
        },
    ];

    fn validate(&self) -> Result<(), ParamError> {
        cube_levels(self.max_cube).map_err(|error| ParamError {
            key: "max_cube",
            message: error.to_string(),
        })?;
        for name in [self.first, self.second] {
            strategy_named(name.into(), self.double_at, self.take_at).map_err(|error| {
                ParamError {
                    key: "double_at",
                    message: error.to_string(),
                }
            })?;
        }
        Ok(())
    }

    /// One run plays every pairing with one solver and one set of thresholds.
    fn validate_together(variants: &[Self]) -> Result<(), ParamError> {
        let Some(first) = variants.first() else {
            return Ok(());
        };
        for variant in variants {
            let differs = [
                ("max_cube", variant.max_cube != first.max_cube),
                ("double_at", variant.double_at != first.double_at),
                ("take_at", variant.take_at != first.take_at),
            ];
            if let Some((key, _)) = differs.into_iter().find(|(_, differs)| *differs) {
                return Err(ParamError {
                    key,
                    message: format!(
                        "variants set {key} differently, but the chutes tournament plays every \
                         pairing with one max_cube, double_at and take_at: set {key} in [params] \
                         and vary only first and second"
                    ),
                });
            }
        }
        Ok(())
    }
}

/// Chutes & Ladders with a doubling cube: a strategy tournament checked against exact values.
pub struct ChutesStudy;

/// The settings every variant of a run shares.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shared {
    max_cube: u32,
    double_at: f64,
    take_at: f64,
}

impl Shared {
    fn of(params: &ParamSet) -> Shared {
        Shared {
            max_cube: params.int("max_cube") as u32,
            double_at: params.float("double_at"),
            take_at: params.float("take_at"),
        }
    }
}

/// The strategy called `name`, with the spec's thresholds for `threshold`.
pub fn strategy_named(name: &str, double_at: f64, take_at: f64) -> Result<Strategy, StrategyError> {
    match Strategy::from_name(name)? {
        Strategy::Threshold(_) => Strategy::threshold(double_at, take_at),
        other => Ok(other),
    }
}

impl GameParams for ChutesStudy {
    fn game(&self) -> &'static str {
        "chutes"
    }

    fn params(&self) -> &'static dyn ParamSchema {
        &Schema::<ChutesParams>::NEW
    }
}

impl Study for ChutesStudy {
    fn description(&self) -> &'static str {
        "Chutes & Ladders with a doubling cube (the original assignment): which doubling \
         strategy makes money, first-player advantage and game length, checked against exact \
         values"
    }

    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput> {
        let solver = solver(experiment)?;
        let shared = Shared::of(&experiment.variants[0].params);
        let strategies = |params: &ParamSet| -> Result<(Strategy, Strategy)> {
            let get = |key| strategy_named(params.choice(key), shared.double_at, shared.take_at);
            Ok((get("first")?, get("second")?))
        };

        let games = experiment.variants.len() as u64 + 1;
        runner.expect_trials(experiment.trials * games);
        // Every game is built (solving the optimal cube table if a pairing plays it) before any
        // is played, so the two runs follow each other.
        let mut matches = Vec::with_capacity(experiment.variants.len());
        for variant in &experiment.variants {
            let (first, second) = strategies(&variant.params)?;
            matches.push(solver.cube_match(first, second));
        }
        // The pairings run side by side on the pool; each summary is still exactly its own.
        let jobs: Vec<Job<'_, CubeMatch>> = experiment
            .variants
            .iter()
            .zip(&matches)
            .map(|(variant, game)| Job {
                label: &variant.name,
                variant: variant.stream,
                game,
            })
            .collect();
        let summaries = runner.run_jobs(&jobs, experiment.seed, 0..experiment.trials);
        // The short base-game run goes second, while the workers are still awake (every trial's
        // stream is fixed by its variant and index, so the order changes no number).
        runner.set_label("base game");
        let base = runner.run(
            &BaseGame {
                board: solver.board().clone(),
            },
            experiment.seed,
            BASE_GAME_STREAM,
            0..experiment.trials,
        );
        runner.finish();
        // Each pairing's exact payoff is a policy evaluation of its own, solved in parallel.
        runner.install(|| analyse(experiment, &solver, summaries, &base))
    }

    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline> {
        run_headline(experiment, runner, &measures(), |variant| {
            let shared = Shared::of(&variant.params);
            let solver = cached_solver(shared.max_cube)?;
            let get =
                |key| strategy_named(variant.params.choice(key), shared.double_at, shared.take_at);
            Ok(solver.cube_match(get("first")?, get("second")?))
        })
    }

    fn other_streams(&self) -> &'static [(u64, &'static str)] {
        &[(BASE_GAME_STREAM, "base game")]
    }
}

/// The exact solver of `experiment`'s pairings, after checking that they share one cube cap
/// and doubling thresholds (solving the optimal cube table takes about two seconds).
pub fn solver(experiment: &Experiment) -> Result<ChutesSolver> {
    let shared = Shared::of(&experiment.variants[0].params);
    if let Some(other) = experiment
        .variants
        .iter()
        .find(|v| Shared::of(&v.params) != shared)
    {
        bail!(
            "{}: variant '{}' sets max_cube, double_at or take_at differently from '{}'; \
             the chutes tournament plays every pairing with one set of them: set them in \
             [params] and sweep only first and second",
            experiment.path.display(),
            other.name,
            experiment.variants[0].name
        );
    }
    Ok(ChutesSolver::new(Board::milton_bradley(), shared.max_cube)?)
}

/// The tables, report, charts and console text of `experiment` from its pairings' summaries
/// (in variant order) and the base game's, with the exact values from `solver`: everything
/// `run` does after playing. The pairings' exact payoffs are solved on the current rayon pool.
pub fn analyse(
    experiment: &Experiment,
    solver: &ChutesSolver,
    summaries: Vec<CubeSummary>,
    base: &BaseGameSummary,
) -> Result<StudyOutput> {
    let shared = Shared::of(&experiment.variants[0].params);
    let games = experiment.variants.len() as u64 + 1;
    let runs = experiment
        .variants
        .iter()
        .zip(summaries)
        .map(|(variant, summary)| {
            let get =
                |key| strategy_named(variant.params.choice(key), shared.double_at, shared.take_at);
            Ok((variant.name.clone(), get("first")?, get("second")?, summary))
        })
        .collect::<Result<Vec<_>>>()?;
    let summaries: Vec<CubeSummary> = runs.iter().map(|run| run.3.clone()).collect();
    let measures = measures();
    let analysis = Analysis::new(&measures, &experiment.variants, &summaries);
    // Each pairing's exact payoff is a policy evaluation of its own: solve them in parallel.
    let mut pairings: Vec<Pairing> = runs
        .into_par_iter()
        .map(|(name, first, second, summary)| Pairing::new(name, first, second, summary, solver))
        .collect();
    let exact_tests = stats::holm(&pairings.iter().map(|p| p.exact_p()).collect::<Vec<_>>());
    for (pairing, p_holm) in pairings.iter_mut().zip(exact_tests) {
        pairing.exact_p_holm = p_holm;
    }

    let exact = BaseExact::new(solver);
    let names = strategy_order(&pairings);
    let averages: Vec<Average> = names
        .iter()
        .map(|name| Average::new(name, &pairings))
        .collect();
    let comparisons = compare(&names, &pairings);
    let payoffs = tables::payoffs_table(&pairings, shared.max_cube)?;
    let strategies_frame = tables::strategies_table(&averages)?;
    let report = report::report(&report::Inputs {
        experiment,
        shared: &shared,
        solver,
        base,
        exact: &exact,
        pairings: &pairings,
        averages: &averages,
        comparisons: &comparisons,
        analysis: &analysis,
    });
    let console = report::console(base, &exact, &pairings, &averages);
    let mut tables = vec![analysis.summary_table()?];
    tables.extend(analysis.histogram_tables()?);
    tables.extend([
        NamedTable::untyped("payoffs", payoffs),
        NamedTable::untyped("strategies", strategies_frame),
        comparison::table(&comparisons)?,
        NamedTable::untyped("base_game", tables::base_game_table(base, &exact)?),
        NamedTable::untyped(
            "base_game_hist",
            tables::base_game_hist_table(base, &exact)?,
        ),
    ]);
    Ok(StudyOutput {
        tables,
        report: vec![Block::Markdown(report)],
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
        console: vec![Block::Markdown(console)],
        trials: experiment.trials * games,
    })
}

/// The exact solver the strategies play from (the `optimal` strategy needs its cubeful table,
/// about two seconds to solve), kept for the last cube cap asked for, so that repeated headline
/// runs (a scaling ladder) solve it once per process, not once per run.
fn cached_solver(max_cube: u32) -> Result<Arc<ChutesSolver>> {
    static SOLVER: Mutex<Option<Arc<ChutesSolver>>> = Mutex::new(None);
    let mut cached = SOLVER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match &*cached {
        Some(solver) if solver.max_cube() == max_cube => Ok(Arc::clone(solver)),
        _ => {
            let solver = Arc::new(ChutesSolver::new(Board::milton_bradley(), max_cube)?);
            *cached = Some(Arc::clone(&solver));
            Ok(solver)
        }
    }
}

/// The payoff to player 1 of a pairing's games, as integer moments.
fn payoff_moments(summary: &CubeSummary) -> IntegerMoments {
    summary.payoff
}

/// The pairing's games by their length in moves (both players counted).
fn turn_counts(summary: &CubeSummary) -> &[u64] {
    summary.turn_histogram.counts()
}

/// What a pairing's games measure through the shared analysis layer, written to `summary.csv`
/// and `histogram.csv`; the headline is the mean payoff to player 1 per game (positive: player
/// 1's strategy makes money). The study compares strategies itself (average payoffs and head
/// to head, in `comparisons.csv`), so the layer adds no comparison between pairings.
pub fn measures() -> Measures<CubeSummary> {
    Measures {
        unit: "games",
        params: None,
        histogram_params: Some(vec![("first", "first"), ("second", "second")]),
        metrics: vec![
            Metric {
                name: "p1_wins",
                label: "games won by player 1",
                kind: Kind::Count(|s| s.p1_wins),
            },
            Metric {
                name: "p1_win_rate",
                label: "games won by player 1",
                kind: Kind::Proportion {
                    successes: |s| s.p1_wins,
                    of: |s| s.games,
                },
            },
            Metric {
                name: "drop_rate",
                label: "games ended by a drop",
                kind: Kind::Proportion {
                    successes: |s| s.drops,
                    of: |s| s.games,
                },
            },
            Metric {
                name: "cap_reached_rate",
                label: "games in which the cube reached its cap",
                kind: Kind::Proportion {
                    successes: |s| s.cap_reached,
                    of: |s| s.games,
                },
            },
            Metric {
                name: "mean_payoff",
                label: "payoff to player 1 per game",
                kind: Kind::Mean(payoff_moments),
            },
            Metric {
                name: "mean_final_stake",
                label: "stake paid per game",
                kind: Kind::Mean(|s| s.final_stake),
            },
            Metric {
                name: "mean_doubles",
                label: "doubles offered per game",
                kind: Kind::Value(|s| s.doubles as f64 / s.games as f64),
            },
            Metric {
                name: "mean_turns",
                label: "moves per game",
                kind: Kind::Mean(|s| s.turn_histogram.moments()),
            },
            Metric {
                name: "turns",
                label: "games",
                kind: Kind::Histogram {
                    table: "histogram",
                    bin: "turns",
                    counts: turn_counts,
                },
            },
        ],
        families: Vec::new(),
        pairs: Pairs::Own,
        headline: "mean_payoff",
        trials: |s| s.games,
    }
}

/// The exact base-game answers from the solver.
pub struct BaseExact {
    /// One player alone: the turn distribution, mean, median and minimum.
    pub solo: SoloTurns,
    /// P(player 1 wins).
    pub p1_wins: f64,
    /// `length[n]`: P(a two-player game lasts exactly `n` moves, both players counted).
    pub length: Vec<f64>,
}

impl BaseExact {
    /// The exact base-game answers on the solver's board.
    pub fn new(solver: &ChutesSolver) -> BaseExact {
        let solo = solo_turns(solver.board());
        let length = game_length_distribution(&solo.probs);
        BaseExact {
            p1_wins: solver.win_table().first_player_wins(),
            solo,
            length,
        }
    }

    /// Expected moves in a two-player game.
    pub fn mean_length(&self) -> f64 {
        self.length
            .iter()
            .enumerate()
            .map(|(n, p)| n as f64 * p)
            .sum()
    }

    /// Smallest `n` with P(length <= n) >= 1/2.
    pub fn median_length(&self) -> usize {
        let mut cumulative = 0.0;
        self.length
            .iter()
            .position(|&p| {
                cumulative += p;
                cumulative >= 0.5
            })
            .unwrap_or(self.length.len())
    }

    /// Fewest moves a two-player game can last.
    pub fn min_length(&self) -> usize {
        self.length
            .iter()
            .position(|&p| p > 0.0)
            .unwrap_or(self.length.len())
    }
}

/// The exact distribution of a two-player game's length in moves, from one player's finishing
/// turn distribution `solo` (`solo[t]` = P(finish on turn t)). The players move independently:
/// the game ends on move 2t - 1 when player 1 finishes on turn t and player 2 has not finished
/// before turn t, and on move 2t when player 2 finishes on turn t and player 1 after turn t.
pub fn game_length_distribution(solo: &[f64]) -> Vec<f64> {
    let mut length = vec![0.0; 2 * solo.len()];
    let mut before = 1.0; // P(a player has not finished before turn t)
    for (t, &p) in solo.iter().enumerate().skip(1) {
        length[2 * t - 1] = p * before;
        length[2 * t] = p * (before - p);
        before -= p;
    }
    length
}

/// One pairing's results with the estimates derived from them.
struct Pairing {
    name: String,
    first: Strategy,
    second: Strategy,
    summary: CubeSummary,
    payoff: IntegerMoments,
    exact: f64,
    exact_p_holm: f64,
}

impl Pairing {
    fn new(
        name: String,
        first: Strategy,
        second: Strategy,
        summary: CubeSummary,
        solver: &ChutesSolver,
    ) -> Pairing {
        let payoff = summary.payoff;
        Pairing {
            name,
            first,
            second,
            exact: solver.exact_payoff(first, second),
            summary,
            payoff,
            exact_p_holm: f64::NAN,
        }
    }

    fn mean_payoff(&self) -> Estimate {
        self.payoff.mean_estimate()
    }

    /// (simulated - exact) / standard error; 0 when a deterministic payoff matches exactly.
    fn exact_z(&self) -> f64 {
        let estimate = self.mean_payoff();
        let diff = estimate.point - self.exact;
        let scale = self.exact.abs().max(1.0);
        if estimate.standard_error > 0.0 {
            diff / estimate.standard_error
        } else if diff.abs() <= 1e-9 * scale {
            0.0
        } else {
            f64::INFINITY.copysign(diff)
        }
    }

    fn exact_p(&self) -> f64 {
        stats::two_sided_normal_p(self.exact_z())
    }

    fn final_stake(&self) -> Estimate {
        self.summary.final_stake.mean_estimate()
    }

    fn turns(&self) -> IntegerMoments {
        IntegerMoments::from_histogram(&self.summary.turn_histogram)
    }
}

/// Strategy names in the order they first appear as player 1, then as player 2.
fn strategy_order(pairings: &[Pairing]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for name in pairings
        .iter()
        .map(|p| p.first.name())
        .chain(pairings.iter().map(|p| p.second.name()))
    {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The weight of each pairing in `name`'s average payoff over its opponents and both seats
/// (self-play excluded: it nets to nothing for the strategy): +1/m as player 1, -1/m as player
/// 2 (the payoff is player 1's), with m the number of such pairings.
fn average_weights(name: &str, pairings: &[Pairing]) -> Vec<f64> {
    let seat = |p: &Pairing| -> f64 {
        match (p.first.name() == name, p.second.name() == name) {
            (true, false) => 1.0,
            (false, true) => -1.0,
            _ => 0.0,
        }
    };
    let m = pairings.iter().filter(|p| seat(p) != 0.0).count().max(1) as f64;
    pairings.iter().map(|p| seat(p) / m).collect()
}

fn contrast(weights: &[f64], pairings: &[Pairing]) -> Contrast {
    let terms: Vec<(f64, &IntegerMoments)> = weights
        .iter()
        .zip(pairings)
        .filter(|(w, _)| **w != 0.0)
        .map(|(w, p)| (*w, &p.payoff))
        .collect();
    Contrast::new(&terms)
}

/// One strategy's average payoff per game over its opponents, overall and by seat.
struct Average {
    name: &'static str,
    opponents: usize,
    games: u64,
    overall: Estimate,
    as_first: Estimate,
    as_second: Estimate,
}

impl Average {
    fn new(name: &'static str, pairings: &[Pairing]) -> Average {
        let weights = average_weights(name, pairings);
        let seat_weights = |sign: f64| -> Vec<f64> {
            let chosen: Vec<f64> = weights
                .iter()
                .map(|&w| if w * sign > 0.0 { 1.0 } else { 0.0 })
                .collect();
            let m = chosen.iter().sum::<f64>().max(1.0);
            chosen.iter().map(|c| sign * c / m).collect()
        };
        let opponents: Vec<&str> = pairings
            .iter()
            .zip(&weights)
            .filter(|(_, w)| **w != 0.0)
            .map(|(p, w)| {
                if *w > 0.0 {
                    p.second.name()
                } else {
                    p.first.name()
                }
            })
            .fold(Vec::new(), |mut seen, n| {
                if !seen.contains(&n) {
                    seen.push(n);
                }
                seen
            });
        let estimate = |w: &[f64]| {
            if w.iter().all(|x| *x == 0.0) {
                stats::normal_estimate(f64::NAN, f64::NAN)
            } else {
                contrast(w, pairings).estimate()
            }
        };
        Average {
            name,
            opponents: opponents.len(),
            games: pairings
                .iter()
                .zip(&weights)
                .filter(|(_, w)| **w != 0.0)
                .map(|(p, _)| p.summary.games)
                .sum(),
            overall: estimate(&weights),
            as_first: estimate(&seat_weights(1.0)),
            as_second: estimate(&seat_weights(-1.0)),
        }
    }
}

fn compare(names: &[&'static str], pairings: &[Pairing]) -> Vec<Comparison> {
    let mut averages = Vec::new();
    let mut heads = Vec::new();
    for (i, &a) in names.iter().enumerate() {
        for &b in &names[i + 1..] {
            let (wa, wb) = (average_weights(a, pairings), average_weights(b, pairings));
            if wa.iter().any(|w| *w != 0.0) && wb.iter().any(|w| *w != 0.0) {
                let weights: Vec<f64> = wa.iter().zip(&wb).map(|(x, y)| x - y).collect();
                averages.push(Comparison::new(
                    "average_payoff",
                    a,
                    b,
                    contrast(&weights, pairings).test(
                        "difference in average payoff per game over opponents and seats (a - b)",
                    ),
                ));
            }
            let seat = |p: &Pairing| match (p.first.name(), p.second.name()) {
                (x, y) if x == a && y == b => 0.5,
                (x, y) if x == b && y == a => -0.5,
                _ => 0.0,
            };
            let weights: Vec<f64> = pairings.iter().map(seat).collect();
            if weights.iter().filter(|w| **w != 0.0).count() == 2 {
                heads.push(Comparison::new(
                    "head_to_head",
                    a,
                    b,
                    contrast(&weights, pairings)
                        .test("a's payoff per game against b, both seats equally (a - b)"),
                ));
            }
        }
    }
    averages.extend(heads);
    comparison::adjust(&mut averages);
    averages
}

/// The base game's estimates.
struct BaseEstimates {
    p1: Estimate,
    turns: Estimate,
    moments: IntegerMoments,
}

impl BaseEstimates {
    fn new(base: &BaseGameSummary) -> BaseEstimates {
        let moments = IntegerMoments::from_histogram(&base.turn_histogram);
        BaseEstimates {
            p1: wilson(base.p1_wins, base.games),
            turns: moments.mean_estimate(),
            moments,
        }
    }
}

fn z_score(estimate: f64, exact: f64, standard_error: f64) -> f64 {
    (estimate - exact) / standard_error
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exact_length_distribution_is_complete_and_starts_at_thirteen_moves() {
        let solver = ChutesSolver::new(Board::milton_bradley(), 2).expect("valid cap");
        let exact = BaseExact::new(&solver);
        let total: f64 = exact.length.iter().sum();
        assert!((total - 1.0).abs() < 1e-9, "total {total}");
        assert_eq!(exact.min_length(), 13);
        // Odd lengths are player 1's wins.
        let odd: f64 = exact.length.iter().skip(1).step_by(2).sum();
        assert!(
            (odd - exact.p1_wins).abs() < 1e-9,
            "{odd} vs {}",
            exact.p1_wins
        );
    }
}
