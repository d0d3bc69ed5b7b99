//! The chutes study: a round-robin tournament of doubling-cube strategies in Chutes & Ladders,
//! with the base game (no cube) run beside it, every number checked against the exact solver.
//!
//! Variants sweep `first` then `second` (names like `optimal-never`); the strategy parameters
//! `double_at`, `take_at` and the cube cap `max_cube` are shared by every variant. One
//! [`ChutesSolver`] is built per run and shared by every variant and by the exact evaluations.
//! The base game plays on its own random stream, [`BASE_GAME_STREAM`], so its results do not
//! depend on which pairings are selected.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use polars::prelude::DataFrame;
use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::exact::chutes::{solo_turns, ChutesSolver, SoloTurns};
use crate::frame::{format_number, TableBuilder};
use crate::games::chutes::{
    cube_levels, BaseGame, BaseGameSummary, Board, CubeMatch, CubeSummary, Strategy, StrategyError,
    Thresholds, DEFAULT_MAX_CUBE,
};
use crate::params::{ParamDef, ParamKind, ParamSet, ParamValue};
use crate::plot::{Chart, Heatmap, LineChart, Series};
use crate::runner::Runner;
use crate::spec::Experiment;
use crate::stats::{self, wilson, ConfidenceInterval, Estimate, IntegerMoments, TestResult};
use crate::studies::comparison::{self, Comparison};
use crate::studies::{NamedTable, Study, StudyOutput};

/// The variant stream of the base game: far above any variant index, so the base game's trials
/// never share a random stream with a pairing, and never change with the pairings selected.
/// `experiment play chutes --seed S` plays trial 0 of this stream.
pub const BASE_GAME_STREAM: u64 = 1 << 32;

/// Largest cube cap a spec may set (the largest power of two a `u32` stake holds).
const MAX_CUBE_LIMIT: i64 = 1 << 31;

static PARAMS: [ParamDef; 5] = [
    ParamDef {
        name: "first",
        kind: ParamKind::Choice(&Strategy::NAMES),
        default: ParamValue::Choice("never"),
        description: "strategy of player 1, who moves first",
    },
    ParamDef {
        name: "second",
        kind: ParamKind::Choice(&Strategy::NAMES),
        default: ParamValue::Choice("never"),
        description: "strategy of player 2",
    },
    ParamDef {
        name: "double_at",
        kind: ParamKind::Float { min: 0.0, max: 1.0 },
        default: ParamValue::Float(Thresholds::DEFAULT_DOUBLE_AT),
        description: "threshold strategy: double at this cubeless win probability or more",
    },
    ParamDef {
        name: "take_at",
        kind: ParamKind::Float { min: 0.0, max: 1.0 },
        default: ParamValue::Float(Thresholds::DEFAULT_TAKE_AT),
        description: "threshold strategy: take at this cubeless win probability or more",
    },
    ParamDef {
        name: "max_cube",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_CUBE_LIMIT,
        },
        default: ParamValue::Int(DEFAULT_MAX_CUBE as i64),
        description: "cube cap, a power of two: no double is offered past it",
    },
];

/// Significance level used in the plain-language reading.
const ALPHA: f64 = 0.05;

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

impl Study for ChutesStudy {
    fn game(&self) -> &'static str {
        "chutes"
    }

    fn description(&self) -> &'static str {
        "Chutes & Ladders with a doubling cube (seed 003): which doubling strategy makes money, \
         first-player advantage and game length, checked against exact values"
    }

    fn params(&self) -> &'static [ParamDef] {
        &PARAMS
    }

    fn check(&self, params: &ParamSet) -> Result<(), String> {
        let max_cube = params.int("max_cube");
        let power = u32::try_from(max_cube)
            .map_err(|_| format!("max_cube = {max_cube} is out of range"))
            .and_then(|cap| cube_levels(cap).map_err(|error| error.to_string()));
        power.map(|_| ())
    }

    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput> {
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
        let solver = ChutesSolver::new(Board::milton_bradley(), shared.max_cube)?;
        let strategies = |params: &ParamSet| -> Result<(Strategy, Strategy)> {
            let get = |key| strategy_named(params.choice(key), shared.double_at, shared.take_at);
            Ok((get("first")?, get("second")?))
        };

        let games = experiment.variants.len() as u64 + 1;
        runner.expect_trials(experiment.trials * games);
        runner.set_label("base game");
        let base = runner.run(
            &BaseGame {
                board: solver.board().clone(),
            },
            experiment.seed,
            BASE_GAME_STREAM,
            0..experiment.trials,
        );
        let mut pairings = Vec::with_capacity(experiment.variants.len());
        for variant in &experiment.variants {
            let (first, second) = strategies(&variant.params)?;
            let game = CubeMatch::with_solver(&solver, first, second);
            runner.set_label(&variant.name);
            let summary = runner.run(
                &game,
                experiment.seed,
                variant.index as u64,
                0..experiment.trials,
            );
            pairings.push(Pairing::new(
                variant.name.clone(),
                first,
                second,
                summary,
                &solver,
            ));
        }
        runner.finish();
        let exact_tests = stats::holm(&pairings.iter().map(|p| p.exact_p()).collect::<Vec<_>>());
        for (pairing, p_holm) in pairings.iter_mut().zip(exact_tests) {
            pairing.exact_p_holm = p_holm;
        }

        let exact = BaseExact::new(&solver);
        let names = strategy_order(&pairings);
        let averages: Vec<Average> = names
            .iter()
            .map(|name| Average::new(name, &pairings))
            .collect();
        let comparisons = compare(&names, &pairings);
        let payoffs = payoffs_table(&pairings, shared.max_cube)?;
        let strategies_frame = strategies_table(&averages)?;
        let report = report(
            experiment,
            &shared,
            &solver,
            &base,
            &exact,
            &pairings,
            &averages,
            &comparisons,
        );
        let console = console(&base, &exact, &pairings, &averages);
        Ok(StudyOutput {
            tables: vec![
                NamedTable {
                    name: "payoffs".into(),
                    frame: payoffs,
                },
                NamedTable {
                    name: "strategies".into(),
                    frame: strategies_frame,
                },
                NamedTable {
                    name: "comparisons".into(),
                    frame: comparison::table(&comparisons)?,
                },
                NamedTable {
                    name: "base_game".into(),
                    frame: base_game_table(&base, &exact)?,
                },
                NamedTable {
                    name: "base_game_hist".into(),
                    frame: base_game_hist_table(&base, &exact)?,
                },
            ],
            report,
            charts: vec![
                (
                    "payoff_matrix".into(),
                    payoff_chart(&names, &pairings, shared.max_cube),
                ),
                ("game_length".into(), game_length_chart(&base, &exact)),
            ],
            console,
            trials: experiment.trials * games,
        })
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
        let payoff = IntegerMoments {
            n: summary.games,
            sum: summary.sum_payoff,
            sum_squares: summary.sum_payoff_sq,
        };
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
        normal_p(self.exact_z())
    }

    fn final_stake(&self) -> Estimate {
        // |payoff| is the final stake, so the payoff's sum of squares is the stake's too.
        IntegerMoments {
            n: self.summary.games,
            sum: self.summary.sum_final_stake as i128,
            sum_squares: self.summary.sum_payoff_sq,
        }
        .mean_estimate()
    }

    fn turns(&self) -> IntegerMoments {
        IntegerMoments::from_histogram(&self.summary.turn_histogram)
    }
}

fn normal_p(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    let normal = statrs::distribution::Normal::new(0.0, 1.0).expect("the standard normal");
    2.0 * normal.sf(z.abs())
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

/// A weighted sum of independent pairing means, Σ w_i x̄_i, with its standard error and
/// Welch–Satterthwaite degrees of freedom.
struct Contrast {
    point: f64,
    standard_error: f64,
    df: f64,
}

impl Contrast {
    fn new(terms: &[(f64, &IntegerMoments)]) -> Contrast {
        let mut point = 0.0;
        let mut variance = 0.0;
        let mut df_denominator = 0.0;
        for &(weight, moments) in terms {
            let n = moments.n as f64;
            let v = weight * weight * moments.variance() / n;
            point += weight * moments.mean();
            variance += v;
            df_denominator += v * v / (n - 1.0);
        }
        Contrast {
            point,
            standard_error: variance.sqrt(),
            df: variance * variance / df_denominator,
        }
    }

    /// The two-sided critical value for a 95% interval (normal when df is undefined or huge).
    fn critical(&self) -> f64 {
        match StudentsT::new(0.0, 1.0, self.df) {
            Ok(t) if self.df.is_finite() && self.df < 1e7 => {
                t.inverse_cdf(1.0 - (1.0 - stats::LEVEL) / 2.0)
            }
            _ => stats::z_quantile(),
        }
    }

    fn estimate(&self) -> Estimate {
        let half = self.critical() * self.standard_error;
        Estimate {
            point: self.point,
            standard_error: self.standard_error,
            confidence_interval: ConfidenceInterval {
                level: stats::LEVEL,
                lower: self.point - half,
                upper: self.point + half,
            },
        }
    }

    /// Welch's t-test that the contrast is zero (a zero standard error gives p = 1 for a zero
    /// point and p = 0 otherwise: deterministic payoffs).
    fn test(&self, effect_name: &'static str) -> TestResult {
        let (statistic, p_value) = if self.standard_error > 0.0 {
            let t = self.point / self.standard_error;
            let p = match StudentsT::new(0.0, 1.0, self.df) {
                Ok(dist) if self.df.is_finite() && self.df < 1e7 => 2.0 * dist.sf(t.abs()),
                _ => normal_p(t),
            };
            (t, p)
        } else if self.point == 0.0 {
            (0.0, 1.0)
        } else {
            (f64::INFINITY.copysign(self.point), 0.0)
        };
        TestResult {
            test: "Welch t (contrast of pairing means)",
            statistic,
            df: self.df,
            p_value,
            effect: self.estimate(),
            effect_name,
        }
    }
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

fn payoffs_table(pairings: &[Pairing], max_cube: u32) -> Result<DataFrame> {
    let p = pairings;
    let col = |f: fn(&Pairing) -> Estimate| -> Vec<Estimate> { p.iter().map(f).collect() };
    let rate = |f: fn(&CubeSummary) -> u64| -> Vec<Estimate> {
        p.iter()
            .map(|x| wilson(f(&x.summary), x.summary.games))
            .collect()
    };
    let mut table = TableBuilder::new()
        .text("variant", p.iter().map(|x| x.name.as_str()))
        .text("first", p.iter().map(|x| x.first.name()))
        .text("second", p.iter().map(|x| x.second.name()))
        .count("games", p.iter().map(|x| x.summary.games));
    table = table
        .estimate("mean_payoff", &col(Pairing::mean_payoff))
        .real("sd_payoff", p.iter().map(|x| x.payoff.sd()))
        .real("exact_payoff", p.iter().map(|x| x.exact))
        .real("z", p.iter().map(Pairing::exact_z))
        .real("p_value", p.iter().map(Pairing::exact_p))
        .real("p_holm", p.iter().map(|x| x.exact_p_holm))
        .count("drops", p.iter().map(|x| x.summary.drops));
    table = table.estimate("drop_rate", &rate(|s| s.drops));
    table = table
        .estimate("mean_final_stake", &col(Pairing::final_stake))
        .count("max_cube", p.iter().map(|_| u64::from(max_cube)))
        .count("cap_reached", p.iter().map(|x| x.summary.cap_reached));
    table = table
        .estimate("cap_reached_rate", &rate(|s| s.cap_reached))
        .count("p1_wins", p.iter().map(|x| x.summary.p1_wins));
    table = table.estimate("p1_win_rate", &rate(|s| s.p1_wins)).real(
        "mean_doubles",
        p.iter()
            .map(|x| x.summary.doubles as f64 / x.summary.games as f64),
    );
    table = table.estimate("mean_turns", &col(|x: &Pairing| x.turns().mean_estimate()));
    table.build()
}

fn strategies_table(averages: &[Average]) -> Result<DataFrame> {
    let a = averages;
    let col = |f: fn(&Average) -> Estimate| -> Vec<Estimate> { a.iter().map(f).collect() };
    let mut table = TableBuilder::new()
        .text("strategy", a.iter().map(|x| x.name))
        .count("opponents", a.iter().map(|x| x.opponents as u64))
        .count("games", a.iter().map(|x| x.games));
    table = table.estimate("mean_payoff", &col(|x| x.overall));
    table = table.estimate("mean_payoff_first", &col(|x| x.as_first));
    table = table.estimate("mean_payoff_second", &col(|x| x.as_second));
    table.build()
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

fn base_game_table(base: &BaseGameSummary, exact: &BaseExact) -> Result<DataFrame> {
    let e = BaseEstimates::new(base);
    let p1_se = (exact.p1_wins * (1.0 - exact.p1_wins) / base.games as f64).sqrt();
    let histogram = &base.turn_histogram;
    let median = stats::histogram_median(histogram).map_or(f64::NAN, |m| m as f64);
    let observed = |first: bool| {
        let found = if first {
            histogram.iter().position(|&c| c > 0)
        } else {
            histogram.iter().rposition(|&c| c > 0)
        };
        found.map_or(f64::NAN, |t| t as f64)
    };
    let table = TableBuilder::new()
        .count("games", [base.games])
        .count("p1_wins", [base.p1_wins]);
    let table = table
        .estimate("p1_win_rate", &[e.p1])
        .real("exact_p1_win_rate", [exact.p1_wins])
        .real("p1_win_z", [z_score(e.p1.point, exact.p1_wins, p1_se)]);
    table
        .estimate("mean_turns", &[e.turns])
        .real("exact_mean_turns", [exact.mean_length()])
        .real(
            "mean_turns_z",
            [z_score(
                e.turns.point,
                exact.mean_length(),
                e.turns.standard_error,
            )],
        )
        .real("sd_turns", [e.moments.sd()])
        .real("median_turns", [median])
        .real("exact_median_turns", [exact.median_length() as f64])
        .real("min_turns", [observed(true)])
        .real("exact_min_turns", [exact.min_length() as f64])
        .real("max_turns", [observed(false)])
        .real("solo_mean_turns", [exact.solo.mean])
        .real("solo_median_turns", [f64::from(exact.solo.median)])
        .real("solo_min_turns", [f64::from(exact.solo.min)])
        .build()
}

fn base_game_hist_table(base: &BaseGameSummary, exact: &BaseExact) -> Result<DataFrame> {
    let rows: Vec<(usize, u64)> = base
        .turn_histogram
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(t, &c)| (t, c))
        .collect();
    let shares: Vec<Estimate> = rows.iter().map(|&(_, c)| wilson(c, base.games)).collect();
    let table = TableBuilder::new()
        .count("turns", rows.iter().map(|&(t, _)| t as u64))
        .count("count", rows.iter().map(|&(_, c)| c));
    table
        .estimate("share", &shares)
        .real(
            "exact_probability",
            rows.iter()
                .map(|&(t, _)| exact.length.get(t).copied().unwrap_or(0.0)),
        )
        .build()
}

fn signed(value: f64) -> String {
    if value > 0.0 {
        format!("+{}", format_number(value))
    } else {
        format_number(value)
    }
}

fn with_ci(estimate: &Estimate) -> String {
    let ci = estimate.confidence_interval;
    format!(
        "{} [{}, {}]",
        signed(estimate.point),
        signed(ci.lower),
        signed(ci.upper)
    )
}

/// An estimate with its interval, unsigned (rates and lengths).
fn plain(estimate: &Estimate) -> String {
    let ci = estimate.confidence_interval;
    format!(
        "{} [{}, {}]",
        format_number(estimate.point),
        format_number(ci.lower),
        format_number(ci.upper)
    )
}

/// A p-value for humans: values below the smallest double print as a bound, not as 0.
fn p_text(p: f64) -> String {
    if p == 0.0 {
        "< 1e-300".to_string()
    } else {
        format_number(p)
    }
}

fn percent(value: f64) -> String {
    format!("{}%", format_number(100.0 * value))
}

/// A Markdown matrix with first-player strategies as rows and second-player ones as columns.
fn matrix(names: &[&str], pairings: &[Pairing], cell: impl Fn(&Pairing) -> String) -> String {
    let mut out = format!(
        "| first \\ second | {} |\n| --- |{}\n",
        names.join(" | "),
        " ---: |".repeat(names.len())
    );
    for row in names {
        let cells: Vec<String> = names
            .iter()
            .map(|column| {
                pairings
                    .iter()
                    .find(|p| p.first.name() == *row && p.second.name() == *column)
                    .map_or("–".to_string(), &cell)
            })
            .collect();
        out.push_str(&format!("| **{row}** | {} |\n", cells.join(" | ")));
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn report(
    experiment: &Experiment,
    shared: &Shared,
    solver: &ChutesSolver,
    base: &BaseGameSummary,
    exact: &BaseExact,
    pairings: &[Pairing],
    averages: &[Average],
    comparisons: &[Comparison],
) -> String {
    let names: Vec<&str> = averages.iter().map(|a| a.name).collect();
    let e = BaseEstimates::new(base);
    let mut out = String::new();
    out.push_str("## Reading\n\n");
    out.push_str(&reading(
        experiment,
        shared,
        solver,
        base,
        exact,
        pairings,
        averages,
        comparisons,
    ));

    out.push_str("\n## The base game (no cube)\n\n");
    out.push_str(&format!(
        "{} games on the standard Milton Bradley board (9 ladders, 10 chutes), on their own random \
         stream. A game's length counts the moves of both players.\n\n\
         | quantity | simulated (95% CI) | exact |\n| --- | --- | ---: |\n\
         | P(player 1 wins) | {} | {} |\n\
         | mean length (moves) | {} | {} |\n\
         | median length | {} | {} |\n\
         | shortest game | {} | {} |\n\
         | longest game seen | {} | – |\n\
         | one player alone: mean / median / minimum turns | – | {} / {} / {} |\n\n",
        base.games,
        with_ci(&e.p1),
        format_number(exact.p1_wins),
        with_ci(&e.turns),
        format_number(exact.mean_length()),
        stats::histogram_median(&base.turn_histogram).map_or("–".into(), |m| m.to_string()),
        exact.median_length(),
        base.turn_histogram
            .iter()
            .position(|&c| c > 0)
            .map_or("–".into(), |m| m.to_string()),
        exact.min_length(),
        base.turn_histogram
            .iter()
            .rposition(|&c| c > 0)
            .map_or("–".into(), |m| m.to_string()),
        format_number(exact.solo.mean),
        exact.solo.median,
        exact.solo.min,
    ));
    out.push_str("![Game length, simulated and exact](game_length.png)\n\n");

    out.push_str("## Payoff matrix\n\n");
    out.push_str(&format!(
        "Mean payoff per game to player 1 (row strategy, moving first) against player 2 (column), \
         with 95% Student-t intervals; stake 1, cube cap {}, `threshold` doubling at a cubeless \
         win probability of {} and taking at {}. Every cell is `mean_payoff` in `payoffs.csv`.\n\n",
        shared.max_cube,
        format_number(shared.double_at),
        format_number(shared.take_at)
    ));
    out.push_str(&matrix(&names, pairings, |p| with_ci(&p.mean_payoff())));
    out.push_str("\n![Payoff matrix](payoff_matrix.png)\n\n");
    out.push_str("### Simulated against exact\n\n");
    out.push_str(
        "Exact payoffs come from policy evaluation of the two strategies over every (mover, \
         squares, cube owner, stake) state. `z` = (simulated - exact) / standard error; \
         `p (Holm)` is Holm-corrected over the pairings.\n\n\
         | pairing | simulated | exact | z | p (Holm) |\n| --- | ---: | ---: | ---: | ---: |\n",
    );
    for p in pairings {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            p.name,
            signed(p.mean_payoff().point),
            signed(p.exact),
            format_number(p.exact_z()),
            format_number(p.exact_p_holm)
        ));
    }
    out.push_str("\n### The cube in each pairing\n\n");
    out.push_str(
        "| pairing | drop rate | mean final stake | cap reached | P(player 1 wins) | mean doubles | mean moves |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for p in pairings {
        let s = &p.summary;
        out.push_str(&format!(
            "| {} | {} | {} | {} ({}) | {} | {} | {} |\n",
            p.name,
            percent(wilson(s.drops, s.games).point),
            format_number(p.final_stake().point),
            s.cap_reached,
            percent(wilson(s.cap_reached, s.games).point),
            percent(wilson(s.p1_wins, s.games).point),
            format_number(s.doubles as f64 / s.games as f64),
            format_number(p.turns().mean()),
        ));
    }
    out.push_str("\nIntervals for every rate are in `payoffs.csv`.\n\n");

    out.push_str("## Strategies over opponents and seats\n\n");
    out.push_str(
        "A strategy's average is the mean, with equal weight, of its payoff per game in every \
         pairing against another strategy, as player 1 and as player 2 (self-play is left out: \
         it nets to zero for the strategy). Intervals come from the independent pairing means \
         (Welch–Satterthwaite).\n\n\
         | strategy | opponents | average payoff (95% CI) | as player 1 | as player 2 |\n\
         | --- | ---: | --- | --- | --- |\n",
    );
    let mut ranked: Vec<&Average> = averages.iter().collect();
    ranked.sort_by(|a, b| b.overall.point.total_cmp(&a.overall.point));
    for a in ranked {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            a.name,
            a.opponents,
            with_ci(&a.overall),
            with_ci(&a.as_first),
            with_ci(&a.as_second)
        ));
    }

    out.push_str("\n## Comparisons\n\n");
    out.push_str(
        "`average_payoff`: strategy a's average (above) minus b's, a contrast of independent \
         pairing means tested with Welch's t (the games a and b play against each other count in \
         both averages, which the contrast accounts for). `head_to_head`: a's payoff per game \
         against b with each seat weighted equally. `p (Holm)` is corrected within each \
         family.\n\n",
    );
    for family in ["average_payoff", "head_to_head"] {
        let subset: Vec<&Comparison> = comparisons.iter().filter(|c| c.family == family).collect();
        if subset.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "### {family}\n\n| a | b | a - b (95% CI) | t | p | p (Holm) |\n\
             | --- | --- | --- | ---: | ---: | ---: |\n"
        ));
        for c in subset {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                c.a,
                c.b,
                with_ci(&c.result.effect),
                format_number(c.result.statistic),
                p_text(c.result.p_value),
                p_text(c.p_holm)
            ));
        }
        out.push('\n');
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn reading(
    experiment: &Experiment,
    shared: &Shared,
    solver: &ChutesSolver,
    base: &BaseGameSummary,
    exact: &BaseExact,
    pairings: &[Pairing],
    averages: &[Average],
    comparisons: &[Comparison],
) -> String {
    let e = BaseEstimates::new(base);
    let mut out = format!(
        "- **First-player advantage.** Player 1 won {} of {} base games ({}, 95% CI {} to {}); \
         the exact probability is {}. A base game lasts {} moves on average (both players; CI \
         {} to {}; exact {}); one player alone needs {} turns on average (median {}, at least \
         {}).\n",
        base.p1_wins,
        base.games,
        percent(e.p1.point),
        percent(e.p1.confidence_interval.lower),
        percent(e.p1.confidence_interval.upper),
        percent(exact.p1_wins),
        format_number(e.turns.point),
        format_number(e.turns.confidence_interval.lower),
        format_number(e.turns.confidence_interval.upper),
        format_number(exact.mean_length()),
        format_number(exact.solo.mean),
        exact.solo.median,
        exact.solo.min,
    );
    let mut ranked: Vec<&Average> = averages
        .iter()
        .filter(|a| a.overall.point.is_finite())
        .collect();
    ranked.sort_by(|a, b| b.overall.point.total_cmp(&a.overall.point));
    if let Some(best) = ranked.first() {
        let ci = best.overall.confidence_interval;
        out.push_str(&format!(
            "- **Which strategy makes money.** `{}` does best: {} per game on average over its \
             {} opponents and both seats (95% CI {} to {}).",
            best.name,
            signed(best.overall.point),
            best.opponents,
            signed(ci.lower),
            signed(ci.upper)
        ));
        if let Some(next) = ranked.get(1) {
            let comparison = comparisons.iter().find(|c| {
                c.family == "average_payoff"
                    && ((c.a == best.name && c.b == next.name)
                        || (c.a == next.name && c.b == best.name))
            });
            if let Some(c) = comparison {
                let sign = if c.a == best.name { 1.0 } else { -1.0 };
                let ci = c.result.effect.confidence_interval;
                let (lo, hi) = if sign > 0.0 {
                    (ci.lower, ci.upper)
                } else {
                    (-ci.upper, -ci.lower)
                };
                out.push_str(&format!(
                    " The runner-up is `{}` ({}); the gap is {} (95% CI {} to {}, Holm p = {}{}).",
                    next.name,
                    signed(next.overall.point),
                    signed(sign * c.result.effect.point),
                    signed(lo),
                    signed(hi),
                    p_text(c.p_holm),
                    if c.p_holm < ALPHA {
                        ", significant"
                    } else {
                        ", not significant"
                    }
                ));
            }
        }
        if let Some(next) = ranked.get(1) {
            let head = comparisons.iter().find(|c| {
                c.family == "head_to_head"
                    && ((c.a == best.name && c.b == next.name)
                        || (c.a == next.name && c.b == best.name))
            });
            if let Some(c) = head {
                let sign = if c.a == best.name { 1.0 } else { -1.0 };
                let ci = c.result.effect.confidence_interval;
                let (lo, hi) = if sign > 0.0 {
                    (ci.lower, ci.upper)
                } else {
                    (-ci.upper, -ci.lower)
                };
                let edge = sign * c.result.effect.point;
                let verdict = if edge >= 0.0 {
                    format!("wins {} per game against", format_number(edge))
                } else {
                    format!("loses {} per game to", format_number(-edge))
                };
                out.push_str(&format!(
                    " Averages reward exploiting weak opponents; head to head, with each seat \
                     equally, `{}` {verdict} `{}` (its payoff's 95% CI {} to {}, Holm p = {}).",
                    best.name,
                    next.name,
                    signed(lo),
                    signed(hi),
                    p_text(c.p_holm)
                ));
            }
        }
        if let Some(worst) = ranked.last().filter(|w| w.name != best.name) {
            out.push_str(&format!(
                " `{}` does worst ({}).",
                worst.name,
                with_ci(&worst.overall)
            ));
        }
        out.push('\n');
    }
    if averages.iter().any(|a| a.name == "optimal") {
        let heads: Vec<String> = comparisons
            .iter()
            .filter(|c| c.family == "head_to_head" && (c.a == "optimal" || c.b == "optimal"))
            .map(|c| {
                let (other, sign) = if c.a == "optimal" {
                    (c.b.as_str(), 1.0)
                } else {
                    (c.a.as_str(), -1.0)
                };
                let ci = c.result.effect.confidence_interval;
                let (lo, hi) = if sign > 0.0 {
                    (ci.lower, ci.upper)
                } else {
                    (-ci.upper, -ci.lower)
                };
                format!(
                    "{} against `{other}` ({} to {})",
                    signed(sign * c.result.effect.point),
                    signed(lo),
                    signed(hi)
                )
            })
            .collect();
        out.push_str(&format!(
            "- **The optimal player's edge.** With both players optimal, player 1's exact \
             cubeful equity at the start is {} per unit stake (cubeless: {}). Head to head, \
             with each seat equally, `optimal` wins {} per game.\n",
            signed(solver.start_equity()),
            signed(2.0 * exact.p1_wins - 1.0),
            if heads.is_empty() {
                "– (no opponent played in both seats)".to_string()
            } else {
                heads.join(", ")
            }
        ));
    }
    let capped: Vec<String> = pairings
        .iter()
        .filter(|p| p.summary.cap_reached > 0)
        .map(|p| {
            format!(
                "`{}` {}",
                p.name,
                percent(wilson(p.summary.cap_reached, p.summary.games).point)
            )
        })
        .collect();
    out.push_str(&format!(
        "- **The cap.** The cube reached its cap of {} in {} of {} pairings{}. A capped game is \
         won or lost at ±{}, so those pairings dominate the averages and have wide intervals.\n",
        shared.max_cube,
        capped.len(),
        pairings.len(),
        if capped.is_empty() {
            String::new()
        } else {
            format!(" (share of games: {})", capped.join(", "))
        },
        shared.max_cube
    ));
    let off: Vec<&Pairing> = pairings.iter().filter(|p| p.exact_p_holm < ALPHA).collect();
    let worst = pairings
        .iter()
        .map(|p| p.exact_z().abs())
        .fold(0.0f64, f64::max);
    out.push_str(&format!(
        "- **Simulation against exact values.** {} of {} pairings differ from the exact payoff \
         after Holm correction (largest |z| = {}); the base game's P(player 1 wins) is {} \
         standard errors from exact, its mean length {}. {} games per pairing, seed {}.\n",
        off.len(),
        pairings.len(),
        format_number(worst),
        format_number(z_score(
            e.p1.point,
            exact.p1_wins,
            (exact.p1_wins * (1.0 - exact.p1_wins) / base.games as f64).sqrt()
        )),
        format_number(z_score(
            e.turns.point,
            exact.mean_length(),
            e.turns.standard_error
        )),
        experiment.trials,
        experiment.seed,
    ));
    out
}

fn console(
    base: &BaseGameSummary,
    exact: &BaseExact,
    pairings: &[Pairing],
    averages: &[Average],
) -> String {
    let e = BaseEstimates::new(base);
    let names: Vec<&str> = averages.iter().map(|a| a.name).collect();
    let mut out = format!(
        "Base game: P(player 1 wins) {} (exact {}), mean length {} moves (exact {}).\n\n\
         Mean payoff to player 1 (rows) against player 2 (columns):\n\n",
        plain(&e.p1),
        format_number(exact.p1_wins),
        plain(&e.turns),
        format_number(exact.mean_length())
    );
    out.push_str(&matrix(&names, pairings, |p| {
        format!(
            "{} (exact {})",
            signed(p.mean_payoff().point),
            signed(p.exact)
        )
    }));
    out.push_str("\nAverage payoff over opponents and seats:\n\n");
    for a in averages {
        out.push_str(&format!("  {:<10} {}\n", a.name, with_ci(&a.overall)));
    }
    out
}

fn payoff_chart(names: &[&str], pairings: &[Pairing], max_cube: u32) -> Chart {
    let values = names
        .iter()
        .map(|row| {
            names
                .iter()
                .map(|column| {
                    pairings
                        .iter()
                        .find(|p| p.first.name() == *row && p.second.name() == *column)
                        .map_or(f64::NAN, |p| p.mean_payoff().point)
                })
                .collect()
        })
        .collect();
    Chart::Heatmap(Heatmap {
        title: format!("Chutes & Ladders: mean payoff to player 1 per game (cube cap {max_cube})"),
        row_label: "player 1 (moves first)".into(),
        column_label: "player 2".into(),
        rows: names.iter().map(|s| s.to_string()).collect(),
        columns: names.iter().map(|s| s.to_string()).collect(),
        values,
    })
}

fn game_length_chart(base: &BaseGameSummary, exact: &BaseExact) -> Chart {
    // Show up to the 99.5th percentile of the simulated lengths.
    let mut seen = 0;
    let limit = base
        .turn_histogram
        .iter()
        .position(|&c| {
            seen += c;
            seen * 1000 >= base.games * 995
        })
        .unwrap_or(base.turn_histogram.len());
    let shares: BTreeMap<usize, Estimate> = (1..=limit)
        .map(|t| {
            let count = base.turn_histogram.get(t).copied().unwrap_or(0);
            (t, wilson(count, base.games))
        })
        .collect();
    let simulated = Series {
        label: format!("simulated ({} games, 95% Wilson band)", base.games),
        points: shares.iter().map(|(&t, e)| (t as f64, e.point)).collect(),
        band: shares
            .iter()
            .map(|(&t, e)| {
                (
                    t as f64,
                    e.confidence_interval.lower,
                    e.confidence_interval.upper,
                )
            })
            .collect(),
    };
    let exact_series = Series {
        label: "exact (Markov chain)".into(),
        points: (1..=limit)
            .map(|t| (t as f64, exact.length.get(t).copied().unwrap_or(0.0)))
            .collect(),
        band: Vec::new(),
    };
    Chart::Lines(LineChart {
        title: "Chutes & Ladders: length of a two-player game (no cube)".into(),
        x_label: "moves, both players counted".into(),
        y_label: "share of games".into(),
        series: vec![simulated, exact_series],
        markers: false,
    })
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

    #[test]
    fn a_contrast_of_one_pairing_is_its_mean() {
        let moments = IntegerMoments {
            n: 4,
            sum: 4,
            sum_squares: 10,
        };
        let c = Contrast::new(&[(1.0, &moments)]);
        assert_eq!(c.point, 1.0);
        assert!((c.standard_error - moments.mean_estimate().standard_error).abs() < 1e-12);
        assert!((c.df - 3.0).abs() < 1e-12);
        let deterministic = IntegerMoments {
            n: 5,
            sum: -5,
            sum_squares: 5,
        };
        let test = Contrast::new(&[(1.0, &deterministic)]).test("x");
        assert_eq!((test.p_value, test.statistic), (0.0, f64::NEG_INFINITY));
    }
}
