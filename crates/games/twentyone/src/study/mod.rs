//! The Twenty-One study: which standing rule wins most often against the computer's
//! stand-on-17 rule? Every rule is simulated and also solved exactly by enumerating the deck,
//! so the report shows Monte Carlo beside exact values.
//!
//! The table rules (decks, ties, the computer's soft 17, what a natural pays) are parameters
//! too, declared as rules: at their defaults they change nothing. When a variant's rules make
//! a game's payoff differ from win or lose (ties push, or a natural pays more), the study adds
//! the mean payoff per game beside the win rate and ranks by it ([`payoff`]).
//!
//! The shared analysis gives the comparisons table (each rule against the best) and the
//! estimates chart; the study adds the exact values, its summary and player-total tables
//! ([`tables`]), the win-rate and mean-payoff charts ([`chart`]) and its report and reading
//! ([`report`]).

mod against;
mod chart;
mod payoff;
mod report;
mod tables;

use std::sync::{Arc, Mutex, OnceLock};

use anyhow::Result;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::exact::{ExactOutcome, OptimalPolicy, Solver};
use crate::game::{
    Rules, Soft17, Strategy, StrategyError, StrategyName, Ties, TwentyOne, TwentyOneSummary,
};
use experiment_engine::analysis::{
    Analysis, Comparison, Family, Kind, Measured, Measures, Metric, Pairs,
};
use experiment_engine::cli::GameCommands;
use experiment_engine::declare_params;
use experiment_engine::params::{ParamDef, ParamError, ParamKind, Params};
use experiment_engine::report::{Block, StudyOutput};
use experiment_engine::spec::{Experiment, Variant};
use experiment_engine::stats::{self, Estimate};
use experiment_engine::studies::estimator::Extra;
use experiment_engine::studies::Rules as StudyRules;

declare_params! {
    /// Twenty-One's parameters, as a spec sets them: the player's rule and the numbers it
    /// uses, and the table's rules.
    #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct TwentyOneParams {
        strategy: StrategyName = StrategyName::StandAt,
            ParamKind::Choice(<StrategyName as VariantNames>::VARIANTS),
            "the player's rule: stand_at N, probability p, or the exact optimum";
        stand_at: u16 = 17,
            ParamKind::Int { min: Strategy::STAND_AT_MIN as i64, max: 21 },
            "stand_at strategy: hit while the total is below N",
            used_when(&[("strategy", &["stand_at"])]);
        probability: f64 = 0.5,
            ParamKind::Float { min: 0.0, max: 1.0 },
            "probability strategy: hit while the chance the next card keeps the player at \
             or under 21 is at least p",
            used_when(&[("strategy", &["probability"])]);
        decks: u8 = Rules::default().decks,
            ParamKind::Int { min: 1, max: Rules::MAX_DECKS as i64 },
            "rule: how many 52-card decks are shuffled together for each game",
            rule;
        tie: Ties = Rules::default().tie,
            ParamKind::Choice(<Ties as VariantNames>::VARIANTS),
            "rule: who takes a tie: the computer (dealer) or nobody (push)",
            rule;
        soft_17: Soft17 = Rules::default().soft_17,
            ParamKind::Choice(<Soft17 as VariantNames>::VARIANTS),
            "rule: whether the computer stands on a soft 17 or hits it",
            rule;
        natural_pays: f64 = Rules::default().natural_pays,
            ParamKind::Float { min: 1.0, max: Rules::MAX_NATURAL_PAYS },
            "rule: what a win on a natural (the first two cards making 21) pays, in multiples \
             of 0.05 (1 as any win, 1.5 is 3:2)",
            rule;
    }
}

impl Params for TwentyOneParams {
    const DECLARED: &'static [ParamDef] = Self::FIELDS;

    /// The numbers the rule uses must be ones its constructor accepts, and a natural's payout
    /// a whole number of twentieths.
    fn validate(&self) -> Result<(), ParamError> {
        if let Some(message) = Rules::natural_pays_error(self.natural_pays) {
            return Err(ParamError {
                key: "natural_pays",
                message,
            });
        }
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
    /// The table rules these parameters describe.
    pub fn rules(&self) -> Rules {
        Rules {
            decks: self.decks,
            tie: self.tie,
            soft_17: self.soft_17,
            natural_pays: self.natural_pays,
        }
    }

    /// The strategy these parameters describe; `optimal` shares the solved `policy`.
    pub fn strategy(&self, policy: &Arc<OptimalPolicy>) -> Result<Strategy, StrategyError> {
        Ok(match self.strategy {
            StrategyName::StandAt => Strategy::stand_at(self.stand_at)?,
            StrategyName::Probability => Strategy::probability(self.probability)?,
            StrategyName::Optimal => Strategy::Optimal(policy.clone()),
        })
    }
}

/// The rules a variant's parameters describe.
fn rules(variant: &Variant) -> Result<Rules> {
    Ok(variant.params.typed::<TwentyOneParams>()?.rules())
}

/// Each variant's mean payoff per game at its own rules: the metric `mean_payoff` that a
/// precision target or a selection may name beyond the declared measures.
struct PayoffReader(Vec<Rules>);

impl PayoffReader {
    /// The rules of each of `variants`.
    fn new(variants: &[Variant]) -> Result<PayoffReader> {
        Ok(PayoffReader(
            variants.iter().map(rules).collect::<Result<_>>()?,
        ))
    }

    /// The extra metric, as a staged run reads it: variant `v`'s mean payoff per game, with
    /// its Student-t interval.
    fn extra(self) -> Extra<'static, TwentyOneSummary> {
        Extra {
            name: payoff::FAMILY,
            estimate: Box::new(move |v, summary| payoff::mean_payoff(summary, &self.0[v])),
        }
    }
}

/// The exact solvers of a run, one per distinct set of rules its variants play at, each with
/// its optimal policy.
struct Solutions(Vec<(Solver, Arc<OptimalPolicy>)>);

impl Solutions {
    /// Solves every set of rules `experiment`'s variants play at (a fraction of a second each;
    /// the optimal policy the games played is shared, [`optimal_policy`]).
    fn for_experiment(experiment: &Experiment) -> Result<Solutions> {
        let mut solved: Vec<(Solver, Arc<OptimalPolicy>)> = Vec::new();
        for variant in &experiment.variants {
            let rules = rules(variant)?;
            if !solved.iter().any(|(solver, _)| *solver.rules() == rules) {
                solved.push((Solver::with_rules(rules), optimal_policy(rules)));
            }
        }
        Ok(Solutions(solved))
    }

    /// The solver and optimal policy at `rules`.
    ///
    /// # Panics
    /// If no variant of the experiment plays at `rules`: a programming error.
    fn at(&self, rules: &Rules) -> (&Solver, &Arc<OptimalPolicy>) {
        self.0
            .iter()
            .find(|(solver, _)| solver.rules() == rules)
            .map(|(solver, policy)| (solver, policy))
            .expect("every variant's rules are solved")
    }
}

/// Twenty-One: standing rules compared on win rate, simulated and exact. The shared analysis
/// gives the comparisons and the estimates chart; [`StudyRules::analyse`] adds the exact
/// values, the mean payoff's comparisons when payoffs differ from win or lose, the study's
/// tables, charts and reading.
impl StudyRules for TwentyOneParams {
    const GAME: &'static str = "twentyone";
    const DESCRIPTION: &'static str =
        "Twenty-One against the computer, which hits below 17 and wins ties (one 52-card deck, \
         aces 11 or 1; decks, ties, soft 17 and natural payouts are rules a spec may change): \
         which standing rule wins most, simulated and exact";
    type Game = TwentyOne;
    type Beside = ();

    /// The game at these rules; `optimal` plays the policy solved at them ([`optimal_policy`]).
    fn game(self) -> TwentyOne {
        let rules = self.rules();
        let strategy = self
            .strategy(&optimal_policy(rules))
            .expect("validated parameters build their strategy");
        TwentyOne::with_rules(strategy, rules)
    }

    fn measures() -> Measures<TwentyOneSummary> {
        measures()
    }

    fn extras(variants: &[Variant]) -> Result<Vec<Extra<'static, TwentyOneSummary>>> {
        Ok(vec![PayoffReader::new(variants)?.extra()])
    }

    fn analyse(
        analysis: &mut Analysis<'_, TwentyOneSummary>,
        experiment: &Experiment,
        _beside: &(),
    ) -> Result<StudyOutput> {
        // One solve per set of rules serves every exact value.
        analyse(
            analysis,
            experiment,
            &Solutions::for_experiment(experiment)?,
        )
    }

    fn commands() -> Option<&'static dyn GameCommands> {
        Some(&crate::cli::TwentyOneCommands)
    }
}

/// The tables, report, charts and console text of `experiment` from the shared `analysis` of
/// its variants, with the exact values and optimal strategies from `solutions`.
fn analyse(
    analysis: &mut Analysis<'_, TwentyOneSummary>,
    experiment: &Experiment,
    solutions: &Solutions,
) -> Result<StudyOutput> {
    let measures = analysis.measures;
    let win_rate = measures.metric("win_rate");
    let paired = analysis.common.map(|common| common.summary);
    let rows = analysis
        .rows
        .iter()
        .map(|&Measured { variant, summary }| {
            let rules = rules(variant)?;
            let (solver, policy) = solutions.at(&rules);
            let strategy = variant
                .params
                .typed::<TwentyOneParams>()?
                .strategy(policy)?;
            Ok(Row {
                exact: solver.outcome(&strategy),
                win: win_rate.estimate(summary).expect("a proportion"),
                payoff: payoff::mean_payoff(summary, &rules),
                variant,
                strategy,
                rules,
                summary,
            })
        })
        .collect::<Result<Vec<Row>>>()?;
    let ranking = Ranking::of(&rows);
    if ranking == Ranking::MeanPayoff {
        match paired {
            Some(paired) => {
                payoff::add_paired_comparisons(&rows, paired, &mut analysis.comparisons)
            }
            None => payoff::add_comparisons(&rows, &mut analysis.comparisons),
        }
    }
    let results = tables::results_table(&rows, analysis, ranking)?;
    let mut output = analysis.standard_output()?;
    output.put_table(tables::summary_table(&rows, analysis, ranking)?);
    output.put_table(tables::totals_table(&rows)?);
    // The totals are a table, not a chart; the win rate is drawn against the rule's number.
    output.remove_chart("player_totals");
    let chart = chart::win_rate_chart(&rows);
    let payoff_chart = (ranking == Ranking::MeanPayoff)
        .then(|| chart::mean_payoff_chart(&rows))
        .flatten();
    let family = ranking.family();
    let ranked: Vec<&Comparison> = analysis
        .comparisons
        .iter()
        .filter(|c| c.family == family)
        .collect();
    output.report = report::report(
        &rows,
        against::Ranked {
            comparisons: &ranked,
            reference: against::Reference::of(&rows, ranking, &ranked, paired),
        },
        ranking,
        experiment.trials,
        &results,
        chart.is_some(),
        analysis.common.is_some().then(|| {
            experiment_engine::analysis::paired::precision_blocks(measures, &analysis.comparisons)
        }),
    )?;
    output.console = vec![Block::Table(results)];
    if let Some(chart) = chart {
        output.put_chart("win_rate", chart);
    }
    if let Some(chart) = payoff_chart {
        output.put_chart("mean_payoff", chart);
    }
    Ok(output)
}

/// A set of rules with the optimal policy solved at them.
type Solved = (Rules, Arc<OptimalPolicy>);

/// The optimal policy the `optimal` strategy plays at `rules`, solved once per process and
/// set of rules (a fraction of a second) and shared by every headline run, so a scaling ladder
/// does not time the solve at every step.
fn optimal_policy(rules: Rules) -> Arc<OptimalPolicy> {
    static POLICIES: OnceLock<Mutex<Vec<Solved>>> = OnceLock::new();
    let mut policies = POLICIES
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, policy)) = policies.iter().find(|(solved, _)| *solved == rules) {
        return Arc::clone(policy);
    }
    let policy = Arc::new(Solver::with_rules(rules).optimal_policy());
    policies.push((rules, Arc::clone(&policy)));
    policy
}

/// What ranks the rules of a run: the win rate, or the mean payoff when some variant's rules
/// make a game's payoff differ from +1 for a win and -1 otherwise (ties push, or a natural
/// pays more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ranking {
    WinRate,
    MeanPayoff,
}

impl Ranking {
    /// How `rows` are ranked.
    fn of(rows: &[Row]) -> Ranking {
        if rows.iter().any(|r| r.rules.payoff_matters()) {
            Ranking::MeanPayoff
        } else {
            Ranking::WinRate
        }
    }

    /// The comparison family that ranks.
    fn family(self) -> &'static str {
        match self {
            Ranking::WinRate => "win_rate",
            Ranking::MeanPayoff => payoff::FAMILY,
        }
    }
}

/// One variant: its rule, its simulated counts and its exact probabilities.
struct Row<'a> {
    variant: &'a Variant,
    strategy: Strategy,
    /// The table's rules it played at.
    rules: Rules,
    summary: &'a TwentyOneSummary,
    /// The simulated win rate, as the declared `win_rate` reads it.
    win: Estimate,
    /// The simulated mean payoff per game, with its Student-t interval.
    payoff: Estimate,
    exact: ExactOutcome,
}

impl Row<'_> {
    /// The exact value that ranks the rows.
    fn exact_ranked(&self, ranking: Ranking) -> f64 {
        match ranking {
            Ranking::WinRate => self.exact.win,
            Ranking::MeanPayoff => self.exact.mean_payoff(&self.rules),
        }
    }

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

/// The row with the highest simulated win rate, or mean payoff (the first on a tie), if any.
fn best(rows: &[Row], ranking: Ranking) -> Option<usize> {
    match ranking {
        Ranking::WinRate => (0..rows.len()).reduce(|best, i| {
            if rows[i].summary.wins * rows[best].summary.games
                > rows[best].summary.wins * rows[i].summary.games
            {
                i
            } else {
                best
            }
        }),
        Ranking::MeanPayoff => (0..rows.len()).reduce(|best, i| {
            if rows[i].payoff.point > rows[best].payoff.point {
                i
            } else {
                best
            }
        }),
    }
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
