//! The Twenty-One study: which standing rule wins most often against the computer's
//! stand-on-17 rule? Every rule is simulated and also solved exactly by enumerating the deck,
//! so the report shows Monte Carlo beside exact values.

//!
//! The shared analysis gives the comparisons table (each rule against the best) and the
//! estimates chart; the study adds the exact values, its summary and player-total tables
//! ([`tables`]), the win-rate chart ([`chart`]) and its report and reading ([`report`]).

mod chart;
mod report;
mod tables;

use std::sync::{Arc, OnceLock};

use anyhow::Result;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::analysis::{Analysis, Family, Headline, Kind, Measures, Metric, Pairs};
use crate::exact::twentyone::{ExactOutcome, OptimalPolicy, Solver};
use crate::games::twentyone::{Strategy, StrategyError, StrategyName, TwentyOne, TwentyOneSummary};
use crate::params::{GameParams, ParamDef, ParamError, ParamKind, ParamSchema, Params, Schema};
use crate::report::{Block, StudyOutput};
use crate::runner::Runner;
use crate::spec::{Experiment, Variant};
use crate::stats::{self, Estimate};
use crate::studies::{run_headline, run_variants, Study};

/// Twenty-One's parameters, as a spec sets them: the player's rule and the numbers it uses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TwentyOneParams {
    /// The player's rule.
    pub strategy: StrategyName,
    /// `stand_at` N: hit while the total is below N.
    pub stand_at: u16,
    /// `probability` p: hit while the chance the next card keeps the player at or under 21
    /// is at least p.
    pub probability: f64,
}

impl Default for TwentyOneParams {
    fn default() -> Self {
        TwentyOneParams {
            strategy: StrategyName::StandAt,
            stand_at: 17,
            probability: 0.5,
        }
    }
}

impl Params for TwentyOneParams {
    const DECLARED: &'static [ParamDef] = &[
        ParamDef::new(
            "strategy",
            ParamKind::Choice(<StrategyName as VariantNames>::VARIANTS),
            "the player's rule: stand_at N, probability p, or the exact optimum",
        ),
        ParamDef::new(
            "stand_at",
            ParamKind::Int {
                min: Strategy::STAND_AT_MIN as i64,
                max: 21,
            },
            "stand_at strategy: hit while the total is below N",
        ),
        ParamDef::new(
            "probability",
            ParamKind::Float { min: 0.0, max: 1.0 },
            "probability strategy: hit while the chance the next card keeps the \
                          player at or under 21 is at least p",
        ),
    ];

    /// The numbers the rule uses must be ones its constructor accepts.
    fn validate(&self) -> Result<(), ParamError> {
        let (key, built) = match self.strategy {
            StrategyName::StandAt => ("stand_at", Strategy::stand_at(self.stand_at)),
            StrategyName::Probability => ("probability", Strategy::probability(self.probability)),
            StrategyName::Optimal => return Ok(()),
        };
        built.map(drop).map_err(|error| ParamError {
            key,
            message: error.to_string(),
        })
    }
}

impl TwentyOneParams {
    /// The strategy these parameters describe; `optimal` shares the solved `policy`.
    pub fn strategy(&self, policy: &Arc<OptimalPolicy>) -> Result<Strategy, StrategyError> {
        Ok(match self.strategy {
            StrategyName::StandAt => Strategy::stand_at(self.stand_at)?,
            StrategyName::Probability => Strategy::probability(self.probability)?,
            StrategyName::Optimal => Strategy::Optimal(policy.clone()),
        })
    }
}

/// Twenty-One: standing rules compared on win rate, simulated and exact.
pub struct TwentyOneStudy;

/// The strategy a variant's parameters describe; `optimal` shares the solved `policy`.
fn strategy(variant: &Variant, policy: &Arc<OptimalPolicy>) -> Result<Strategy> {
    Ok(variant
        .params
        .typed::<TwentyOneParams>()?
        .strategy(policy)?)
}

impl GameParams for TwentyOneStudy {
    fn game(&self) -> &'static str {
        "twentyone"
    }

    fn params(&self) -> &'static dyn ParamSchema {
        &Schema::<TwentyOneParams>::NEW
    }
}

impl Study for TwentyOneStudy {
    fn description(&self) -> &'static str {
        "Twenty-One against the computer, which hits below 17 and wins ties (one 52-card deck, \
         aces 11 or 1): which standing rule wins most, simulated and exact"
    }

    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput> {
        // One solve serves the optimal strategy and every exact value (milliseconds).
        let solver = Solver::new();
        let policy = Arc::new(solver.optimal_policy());
        let summaries = run_variants(experiment, runner, |variant| {
            Ok(TwentyOne::new(strategy(variant, &policy)?))
        })?;
        analyse(experiment, &solver, &policy, &summaries)
    }

    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline> {
        let policy = optimal_policy();
        run_headline(experiment, runner, &measures(), |variant| {
            Ok(TwentyOne::new(strategy(variant, &policy)?))
        })
    }
}

/// The tables, report, charts and console text of `experiment` from its variants'
/// summaries (in variant order), with the exact values from `solver` and the optimal
/// strategy `policy`: everything `run` does after playing.
pub fn analyse(
    experiment: &Experiment,
    solver: &Solver,
    policy: &Arc<OptimalPolicy>,
    summaries: &[TwentyOneSummary],
) -> Result<StudyOutput> {
    let measures = measures();
    let win_rate = measures.metric("win_rate");
    let rows = experiment
        .variants
        .iter()
        .zip(summaries)
        .map(|(variant, summary)| {
            let strategy = strategy(variant, policy)?;
            Ok(Row {
                exact: solver.outcome(&strategy),
                win: win_rate.estimate(summary).expect("a proportion"),
                variant,
                strategy,
                summary,
            })
        })
        .collect::<Result<Vec<Row>>>()?;
    let analysis = Analysis::new(&measures, &experiment.variants, summaries);
    let results = tables::results_table(&rows, &analysis)?;
    let mut output = analysis.standard_output()?;
    output.put_table(tables::summary_table(&rows, &analysis)?);
    output.put_table(tables::totals_table(&rows)?);
    // The totals are a table, not a chart; the win rate is drawn against the rule's number.
    output.remove_chart("player_totals");
    let chart = chart::win_rate_chart(&rows);
    output.report = report::report(
        &rows,
        &analysis.comparisons,
        experiment.trials,
        &results,
        chart.is_some(),
    )?;
    output.console = vec![Block::Table(results)];
    if let Some(chart) = chart {
        output.put_chart("win_rate", chart);
    }
    Ok(output)
}

/// The optimal policy the `optimal` strategy plays, solved once per process (milliseconds) and
/// shared by every headline run, so a scaling ladder does not time the solve at every step.
fn optimal_policy() -> Arc<OptimalPolicy> {
    static POLICY: OnceLock<Arc<OptimalPolicy>> = OnceLock::new();
    Arc::clone(POLICY.get_or_init(|| Arc::new(OptimalPolicy::solve())))
}

/// One variant: its rule, its simulated counts and its exact probabilities.
struct Row<'a> {
    variant: &'a Variant,
    strategy: Strategy,
    summary: &'a TwentyOneSummary,
    /// The simulated win rate, as the declared `win_rate` reads it.
    win: Estimate,
    exact: ExactOutcome,
}

impl Row<'_> {
    /// N for `stand_at`, p for `probability`, NaN for `optimal`.
    fn param(&self) -> f64 {
        match self.strategy {
            Strategy::StandAt(n) => f64::from(n),
            Strategy::Probability(p) => p,
            Strategy::Optimal(_) => f64::NAN,
        }
    }

    /// (simulated - exact) win rate in standard errors of the exact binomial proportion.
    fn z(&self) -> f64 {
        let p = self.exact.win;
        let se = stats::binomial_se(p, self.summary.games);
        (self.win.point - p) / se
    }

    fn exact_in_ci(&self) -> bool {
        let ci = self.win.confidence_interval;
        (ci.lower..=ci.upper).contains(&self.exact.win)
    }
}

/// What one game of Twenty-One measures. Only the win rate is compared, each rule against
/// the rule with the highest simulated win rate.
pub fn measures() -> Measures<TwentyOneSummary> {
    let rate = |name, label, successes| Metric {
        name,
        label,
        kind: Kind::Proportion {
            successes,
            of: |s: &TwentyOneSummary| s.games,
        },
    };
    Measures {
        unit: "games",
        params: None,
        histogram_params: None,
        metrics: vec![
            rate("win_rate", "player wins", |s| s.wins),
            rate("bust_rate", "player busts", |s| s.player_busts),
            rate("dealer_bust_rate", "dealer busts", |s| s.dealer_busts),
            rate("tie_rate", "ties", |s| s.ties),
            Metric {
                name: "player_total",
                label: "games",
                kind: Kind::Histogram {
                    table: "player_totals",
                    bin: "player_total",
                    counts: player_totals,
                },
            },
        ],
        families: vec![Family {
            name: "win_rate",
            metric: "win_rate",
        }],
        pairs: Pairs::WithBest,
        headline: "win_rate",
        trials: |s| s.games,
    }
}

fn player_totals(s: &TwentyOneSummary) -> &[u64] {
    &s.player_total_histogram
}

/// The row with the highest simulated win rate (the first on a tie), if any.
fn best(rows: &[Row]) -> Option<usize> {
    (0..rows.len()).reduce(|best, i| {
        if rows[i].summary.wins * rows[best].summary.games
            > rows[best].summary.wins * rows[i].summary.games
        {
            i
        } else {
            best
        }
    })
}

/// The row of the variant called `name`.
fn row<'r, 'a>(rows: &'r [Row<'a>], name: &str) -> &'r Row<'a> {
    rows.iter()
        .find(|r| r.variant.name == name)
        .expect("comparisons name variants of the run")
}

/// Whether the row plays the optimal policy.
fn is_optimal(row: &Row) -> bool {
    matches!(row.strategy, Strategy::Optimal(_))
}
