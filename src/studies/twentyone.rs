//! The Twenty-One study: which standing rule wins most often against the computer's
//! stand-on-17 rule? Every rule is simulated and also solved exactly by enumerating the deck,
//! so the report shows Monte Carlo beside exact values.

use crate::stats::ALPHA;
use std::sync::{Arc, OnceLock};

use anyhow::Result;
use polars::prelude::DataFrame;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::analysis::{Analysis, Comparison, Family, Headline, Kind, Measures, Metric, Pairs};
use crate::exact::twentyone::{ExactOutcome, OptimalPolicy, Solver};
use crate::frame::percent;
use crate::frame::NamedTable;
use crate::frame::{format_number, TableBuilder};
use crate::games::twentyone::{Strategy, StrategyError, StrategyName, TwentyOne, TwentyOneSummary};
use crate::params::{GameParams, ParamDef, ParamError, ParamKind, ParamSchema, Params, Schema};
use crate::plot::{Chart, LineChart, LinePanels, Series};
use crate::report::markdown::to_markdown;
use crate::report::{Block, StudyOutput};
use crate::runner::Runner;
use crate::spec::{Experiment, Variant};
use crate::stats::{self, wilson, Estimate};
use crate::studies::{run_headline, run_variants, Study};
use crate::summary::IntegerMoments;

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
        ParamDef {
            name: "strategy",
            kind: ParamKind::Choice(<StrategyName as VariantNames>::VARIANTS),
            description: "the player's rule: stand_at N, probability p, or the exact optimum",
        },
        ParamDef {
            name: "stand_at",
            kind: ParamKind::Int {
                min: Strategy::STAND_AT_MIN as i64,
                max: 21,
            },
            description: "stand_at strategy: hit while the total is below N",
        },
        ParamDef {
            name: "probability",
            kind: ParamKind::Float { min: 0.0, max: 1.0 },
            description: "probability strategy: hit while the chance the next card keeps the \
                          player at or under 21 is at least p",
        },
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
        "Twenty-One against the computer (the original assignment): which standing rule wins \
         most, simulated and exact"
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
    let rows = experiment
        .variants
        .iter()
        .zip(summaries)
        .map(|(variant, summary)| {
            let strategy = strategy(variant, policy)?;
            Ok(Row {
                exact: solver.outcome(&strategy),
                variant,
                strategy,
                summary,
            })
        })
        .collect::<Result<Vec<Row>>>()?;
    let measures = measures();
    let analysis = Analysis::new(&measures, &experiment.variants, summaries);
    let comparisons = &analysis.comparisons;
    let summary = summary_table(&rows)?;
    let totals = totals_table(&rows)?;
    let comparison_frame = analysis.comparisons_table()?;
    let console = to_markdown(&console_table(&rows)?);
    let report = report(&rows, comparisons, experiment.trials)?;
    let charts = win_rate_chart(&rows)
        .map(|chart| vec![("win_rate".to_string(), chart)])
        .unwrap_or_default();
    Ok(StudyOutput {
        tables: vec![
            NamedTable::untyped("summary", summary),
            comparison_frame,
            NamedTable::untyped("player_totals", totals),
        ],
        report: vec![Block::Markdown(report)],
        charts: charts
            .into_iter()
            .chain([("estimates".to_string(), analysis.estimates_chart())])
            .collect(),
        console: vec![Block::Markdown(console)],
        trials: experiment.trials * rows.len() as u64,
    })
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

    fn win(&self) -> Estimate {
        wilson(self.summary.wins, self.summary.games)
    }

    /// (simulated - exact) win rate in standard errors of the exact binomial proportion.
    fn z(&self) -> f64 {
        let p = self.exact.win;
        let se = stats::binomial_se(p, self.summary.games);
        (self.win().point - p) / se
    }

    fn exact_in_ci(&self) -> bool {
        let ci = self.win().confidence_interval;
        (ci.lower..=ci.upper).contains(&self.exact.win)
    }
}

/// The four rates the summary reports, with their counts and exact values.
type Rate = (
    &'static str,
    fn(&TwentyOneSummary) -> u64,
    fn(&ExactOutcome) -> f64,
);

const RATES: [Rate; 4] = [
    ("win", |s| s.wins, |e| e.win),
    ("bust", |s| s.player_busts, |e| e.player_bust),
    ("dealer_bust", |s| s.dealer_busts, |e| e.dealer_bust),
    ("tie", |s| s.ties, |e| e.tie),
];

fn column<R, T>(items: &[R], f: impl Fn(&R) -> T) -> Vec<T> {
    items.iter().map(f).collect()
}

fn summary_table(rows: &[Row]) -> Result<DataFrame> {
    let mut table = TableBuilder::new()
        .text("variant", column(rows, |r| r.variant.name.clone()))
        .text("strategy", column(rows, |r| r.strategy.name()))
        .real("param", column(rows, |r| r.param()))
        .count("games", column(rows, |r| r.summary.games))
        .count("wins", column(rows, |r| r.summary.wins))
        .count("player_busts", column(rows, |r| r.summary.player_busts))
        .count("dealer_busts", column(rows, |r| r.summary.dealer_busts))
        .count("ties", column(rows, |r| r.summary.ties));
    for (name, count, exact) in RATES {
        let estimates = column(rows, |r| wilson(count(r.summary), r.summary.games));
        table = table
            .real(&format!("{name}_rate"), estimates.iter().map(|e| e.point))
            .real(
                &format!("{name}_rate_lo"),
                estimates.iter().map(|e| e.confidence_interval.lower),
            )
            .real(
                &format!("{name}_rate_hi"),
                estimates.iter().map(|e| e.confidence_interval.upper),
            )
            .real(
                &format!("exact_{name}_rate"),
                column(rows, |r| exact(&r.exact)),
            );
        if name == "win" {
            table = table.real("z", column(rows, |r| r.z()));
        }
    }
    table
        .real(
            "mean_player_total",
            column(rows, |r| {
                IntegerMoments::from_histogram(&r.summary.player_total_histogram).mean()
            }),
        )
        .build()
}

fn totals_table(rows: &[Row]) -> Result<DataFrame> {
    let (mut variants, mut totals, mut counts, mut shares) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for row in rows {
        for (total, &count) in row.summary.player_total_histogram.iter().enumerate() {
            if count > 0 {
                variants.push(row.variant.name.clone());
                totals.push(total as u64);
                counts.push(count);
                shares.push(count as f64 / row.summary.games as f64);
            }
        }
    }
    TableBuilder::new()
        .text("variant", variants)
        .count("player_total", totals)
        .count("count", counts)
        .real("share", shares)
        .build()
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

/// The comparisons against the best rule for the report, with the exact difference beside
/// the simulated one.
fn comparisons_markdown(rows: &[Row], comparisons: &[Comparison]) -> Result<String> {
    let c = comparisons;
    let exact = |x: &Comparison| row(rows, &x.a).exact.win - row(rows, &x.b).exact.win;
    let frame = TableBuilder::new()
        .text("variant", c.iter().map(|x| x.a.as_str()))
        .text("best", c.iter().map(|x| x.b.as_str()))
        .real("difference", c.iter().map(|x| x.result.effect.point))
        .real(
            "difference_lo",
            c.iter().map(|x| x.result.effect.confidence_interval.lower),
        )
        .real(
            "difference_hi",
            c.iter().map(|x| x.result.effect.confidence_interval.upper),
        )
        .real("exact_difference", c.iter().map(exact))
        .real("z", c.iter().map(|x| x.result.statistic))
        .real("p_value", c.iter().map(|x| x.result.p_value))
        .real("p_holm", c.iter().map(|x| x.p_holm))
        .text(
            "significant",
            c.iter()
                .map(|x| if x.p_holm < ALPHA { "yes" } else { "no" }),
        )
        .build()?;
    Ok(to_markdown(&frame))
}

fn console_table(rows: &[Row]) -> Result<DataFrame> {
    let wins = column(rows, |r| r.win());
    TableBuilder::new()
        .text("variant", column(rows, |r| r.variant.name.clone()))
        .count("games", column(rows, |r| r.summary.games))
        .real("win_rate", wins.iter().map(|e| e.point))
        .real(
            "win_rate_lo",
            wins.iter().map(|e| e.confidence_interval.lower),
        )
        .real(
            "win_rate_hi",
            wins.iter().map(|e| e.confidence_interval.upper),
        )
        .real("exact_win_rate", column(rows, |r| r.exact.win))
        .real("z", column(rows, |r| r.z()))
        .real(
            "bust_rate",
            column(rows, |r| {
                r.summary.player_busts as f64 / r.summary.games as f64
            }),
        )
        .real(
            "dealer_bust_rate",
            column(rows, |r| {
                r.summary.dealer_busts as f64 / r.summary.games as f64
            }),
        )
        .build()
}

fn report(rows: &[Row], comparisons: &[Comparison], trials: u64) -> Result<String> {
    let mut out = String::new();
    out.push_str("## Results per rule\n\n");
    out.push_str(&format!(
        "{trials} games per rule. Win rates are over all games with Wilson 95% intervals; \
         `exact_win_rate` is the exact probability from enumerating the deck without \
         replacement, and `z` is (simulated - exact) in standard errors. A tie goes to the \
         computer, so it is not a win.\n\n"
    ));
    out.push_str(&to_markdown(&console_table(rows)?));
    out.push_str(
        "\nEvery column (with intervals and exact values for the bust and tie rates too) is in \
         `summary.csv`.\n\n![Win rate by rule](win_rate.png)\n\n## Reading\n\n",
    );
    out.push_str(&reading(rows, comparisons));
    out.push_str("\n## Comparisons against the best rule\n\n");
    if comparisons.is_empty() {
        out.push_str("Only one rule ran: nothing to compare.\n");
    } else if let Some(top) = best(rows) {
        out.push_str(&format!(
            "Each rule's win rate against that of `{}`, the rule with the highest simulated win \
             rate: two-proportion z-test (each rule plays its own independent games), \
             difference (rule - best) with a 95% interval, and `p_holm` adjusted by Holm's \
             method over the {} comparisons. The best rule is chosen from the same data, so \
             these tests slightly favour finding differences.\n\n",
            rows[top].variant.name,
            comparisons.len()
        ));
        out.push_str(&comparisons_markdown(rows, comparisons)?);
        out.push_str(
            "\nAlso in `comparisons.csv` (family `win_rate`, a = the rule, b = the best), in the \
             schema every game shares.\n",
        );
    }
    Ok(out)
}

/// The row maximising `key` among `rows` that `keep` selects.
fn argmax(rows: &[Row], keep: impl Fn(&Row) -> bool, key: impl Fn(&Row) -> f64) -> Option<usize> {
    (0..rows.len())
        .filter(|&i| keep(&rows[i]))
        .reduce(|best, i| {
            if key(&rows[i]) > key(&rows[best]) {
                i
            } else {
                best
            }
        })
}

fn describe(row: &Row) -> String {
    let win = row.win();
    format!(
        "`{}` wins {} of games (95% CI {} to {}; exact {})",
        row.variant.name,
        percent(win.point),
        percent(win.confidence_interval.lower),
        percent(win.confidence_interval.upper),
        percent(row.exact.win)
    )
}

fn reading(rows: &[Row], comparisons: &[Comparison]) -> String {
    let mut out = String::new();
    let Some(top) = best(rows) else {
        return out;
    };
    if rows.len() == 1 {
        out.push_str(&format!(
            "- **The rule run.** In simulation {}.\n",
            describe(&rows[top])
        ));
    } else {
        out.push_str(&format!(
            "- **Best rule.** In simulation {}.",
            describe(&rows[top])
        ));
    }
    if let Some(exact_top) = argmax(rows, |_| true, |r| r.exact.win).filter(|_| rows.len() > 1) {
        if exact_top == top {
            out.push_str(" It is also the best of these rules exactly.\n");
        } else {
            out.push_str(&format!(
                " Exactly, the best of these rules is `{}` ({}).\n",
                rows[exact_top].variant.name,
                percent(rows[exact_top].exact.win)
            ));
        }
    }
    let family = |name: &'static str| move |r: &Row| r.strategy.name() == name;
    for (name, label) in [("stand_at", "stand_at N"), ("probability", "probability p")] {
        let members = rows.iter().filter(|r| family(name)(r)).count();
        if let Some(i) = argmax(rows, family(name), |r| r.exact.win).filter(|_| members > 1) {
            out.push_str(&format!(
                "- **Best {label}.** Exactly, `{}` is the best {label} rule run here ({}); in \
                 simulation {}.\n",
                rows[i].variant.name,
                percent(rows[i].exact.win),
                describe(&rows[i])
            ));
        }
    }
    if let (Some(optimal), Some(fixed)) = (
        argmax(rows, is_optimal, |r| r.exact.win),
        argmax(rows, |r| !is_optimal(r), |r| r.exact.win),
    ) {
        out.push_str(&format!(
            "- **What optimal play adds.** Deciding from the exact composition of the hand wins \
             {} percentage points more often than the best fixed rule here (`{}`), exactly.\n",
            format_number(100.0 * (rows[optimal].exact.win - rows[fixed].exact.win)),
            rows[fixed].variant.name
        ));
    }
    let tied: Vec<String> = comparisons
        .iter()
        .filter(|c| c.p_holm >= ALPHA)
        .map(|c| format!("`{}`", c.a))
        .collect();
    if comparisons.is_empty() {
        out.push_str("- **Against the best.** Only one rule ran: there is nothing to compare.\n");
    } else {
        out.push_str(&format!(
            "- **Against the best.** {} of {} other rules win significantly less often than `{}` \
         (Holm-adjusted p < {ALPHA}). {}\n",
            comparisons.len() - tied.len(),
            comparisons.len(),
            rows[top].variant.name,
            if tied.is_empty() {
                "None is statistically indistinguishable from it.".to_string()
            } else {
                format!(
                    "Not distinguishable from it at this sample size: {}.",
                    tied.join(", ")
                )
            }
        ));
    }
    let inside = rows.iter().filter(|r| r.exact_in_ci()).count();
    let worst = column(rows, |r| r.z().abs())
        .into_iter()
        .filter(|z| z.is_finite())
        .fold(0.0, f64::max);
    out.push_str(&format!(
        "- **Simulation against exact.** {inside} of {} exact win probabilities lie inside \
         the simulated 95% interval (about 95% are expected to); the largest gap is {} \
         standard errors.\n",
        rows.len(),
        format_number(worst)
    ));
    out
}

/// Whether the row plays the optimal policy.
fn is_optimal(row: &Row) -> bool {
    matches!(row.strategy, Strategy::Optimal(_))
}

/// Win rate against the rule's parameter: one panel for `stand_at` N and one for
/// `probability` p, simulated with its band and exact, and optimal's exact value as a level.
fn win_rate_chart(rows: &[Row]) -> Option<Chart> {
    let optimal = rows.iter().find(|r| is_optimal(r)).map(|r| r.exact.win);
    let panels: Vec<LineChart> = [
        ("stand_at", "stand_at N: hit below N", "N"),
        (
            "probability",
            "probability p: hit while P(no bust) >= p",
            "p",
        ),
    ]
    .into_iter()
    .filter_map(|(name, title, x_label)| {
        let mut family: Vec<&Row> = rows.iter().filter(|r| r.strategy.name() == name).collect();
        if family.is_empty() {
            return None;
        }
        family.sort_by(|a, b| a.param().total_cmp(&b.param()));
        let mut series = vec![
            Series {
                label: "simulated (95% CI band)".into(),
                points: family.iter().map(|r| (r.param(), r.win().point)).collect(),
                band: family
                    .iter()
                    .map(|r| {
                        let ci = r.win().confidence_interval;
                        (r.param(), ci.lower, ci.upper)
                    })
                    .collect(),
                ..Default::default()
            },
            Series {
                label: "exact".into(),
                points: family.iter().map(|r| (r.param(), r.exact.win)).collect(),
                band: Vec::new(),
                ..Default::default()
            },
        ];
        if let Some(level) = optimal {
            let (first, last) = (family[0].param(), family[family.len() - 1].param());
            series.push(Series {
                label: "optimal (exact)".into(),
                points: vec![(first, level), (last, level)],
                band: Vec::new(),
                ..Default::default()
            });
        }
        Some(LineChart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: "player's win rate".into(),
            series,
            markers: true,
            ..Default::default()
        })
    })
    .collect();
    (!panels.is_empty()).then(|| {
        Chart::LinePanels(LinePanels {
            title: "Twenty-One: win rate by standing rule".into(),
            panels,
        })
    })
}
