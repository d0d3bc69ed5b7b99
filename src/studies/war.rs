//! The War study: does the order in which won cards return to the hand change the game?

use anyhow::Result;
use polars::prelude::DataFrame;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::frame::{format_number, format_p, to_markdown, TableBuilder};
use crate::games::war::{Placement, War, WarSummary, DEFAULT_MAX_TURNS};
use crate::params::{GameParams, ParamDef, ParamKind, ParamSchema, Params, Schema};
use crate::plot::{Chart, LineChart, Series};
use crate::runner::Runner;
use crate::spec::{Experiment, Variant};
use crate::stats::{self, wilson, Estimate, IntegerMoments, TestResult};
use crate::studies::comparison::{self, Comparison};
use crate::studies::{run_variants, NamedTable, Study, StudyOutput};

/// War's parameters, as a spec sets them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarParams {
    /// How won cards go under the winner's hand.
    pub placement: Placement,
    /// Turns after which an unfinished game counts as infinite.
    pub max_turns: u32,
}

impl Default for WarParams {
    fn default() -> Self {
        WarParams {
            placement: Placement::WinnerFirst,
            max_turns: DEFAULT_MAX_TURNS,
        }
    }
}

impl Params for WarParams {
    const DECLARED: &'static [ParamDef] = &[
        ParamDef {
            name: "placement",
            kind: ParamKind::Choice(<Placement as VariantNames>::VARIANTS),
            description: "order won cards go under the winner's hand",
        },
        ParamDef {
            name: "max_turns",
            kind: ParamKind::Int {
                min: 1,
                max: 100_000_000,
            },
            description: "turns after which an unfinished game counts as infinite",
        },
    ];
}

impl WarParams {
    /// The game these parameters describe.
    pub fn game(&self) -> War {
        War {
            placement: self.placement,
            max_turns: self.max_turns,
        }
    }
}

/// Significance level used in the plain-language reading.
const ALPHA: f64 = 0.05;

/// War: placement strategies compared on game length, cycling and fairness.
pub struct WarStudy;

fn build(variant: &Variant) -> Result<War> {
    Ok(variant.params.typed::<WarParams>()?.game())
}

impl GameParams for WarStudy {
    fn game(&self) -> &'static str {
        "war"
    }

    fn params(&self) -> &'static dyn ParamSchema {
        &Schema::<WarParams>::NEW
    }
}

impl Study for WarStudy {
    fn description(&self) -> &'static str {
        "War card game (seed 004): how the order of won cards changes game length and cycling"
    }

    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput> {
        let summaries = run_variants(experiment, runner, build)?;
        let rows: Vec<Row> = experiment
            .variants
            .iter()
            .zip(&summaries)
            .map(|(variant, summary)| Row::new(variant, summary))
            .collect();
        let summary = summary_table(&rows)?;
        let histogram = histogram_table(&rows)?;
        let cycles = cycles_table(&rows)?;
        let comparisons = compare(&rows);
        let comparison_frame = comparison::table(&comparisons)?;
        let report = report(&rows, &summary, &comparisons, &cycles, experiment);
        let console = to_markdown(&console_table(&rows)?);
        Ok(StudyOutput {
            tables: vec![
                NamedTable {
                    name: "summary".into(),
                    frame: summary,
                },
                NamedTable {
                    name: "histogram".into(),
                    frame: histogram,
                },
                NamedTable {
                    name: "comparisons".into(),
                    frame: comparison_frame,
                },
                NamedTable {
                    name: "cycles".into(),
                    frame: cycles,
                },
            ],
            report,
            charts: vec![("game_length".into(), game_length_chart(&rows))],
            console,
            trials: experiment.trials * rows.len() as u64,
        })
    }
}

/// One variant's summary with the estimates derived from it.
struct Row<'a> {
    variant: &'a Variant,
    strategy: &'static str,
    max_turns: i64,
    summary: &'a WarSummary,
    turns: IntegerMoments,
}

impl<'a> Row<'a> {
    fn new(variant: &'a Variant, summary: &'a WarSummary) -> Row<'a> {
        Row {
            variant,
            strategy: variant.params.choice("placement"),
            max_turns: variant.params.int("max_turns"),
            summary,
            turns: IntegerMoments::from_histogram(&summary.turn_histogram),
        }
    }

    fn nonterminating(&self) -> u64 {
        self.summary.infinite + self.summary.cycled
    }

    fn count_mean(&self, sum: u64, sum_squares: u128) -> Estimate {
        IntegerMoments {
            n: self.summary.finished(),
            sum: i128::from(sum),
            sum_squares,
            max: 0,
        }
        .mean_estimate()
    }

    fn wars(&self) -> Estimate {
        self.count_mean(self.summary.wars.sum, self.summary.wars.sum_squares)
    }

    fn double_wars(&self) -> Estimate {
        self.count_mean(
            self.summary.double_wars.sum,
            self.summary.double_wars.sum_squares,
        )
    }
}

fn column<T>(rows: &[Row], f: impl Fn(&Row) -> T) -> Vec<T> {
    rows.iter().map(f).collect()
}

fn rate_columns(
    table: TableBuilder,
    rows: &[Row],
    name: &str,
    count: impl Fn(&Row) -> u64,
) -> TableBuilder {
    let estimates: Vec<Estimate> = column(rows, |r| wilson(count(r), r.summary.games));
    table.estimate(&format!("{name}_rate"), &estimates)
}

fn summary_table(rows: &[Row]) -> Result<DataFrame> {
    let s = |f: fn(&WarSummary) -> u64| column(rows, move |r| f(r.summary));
    let mut table = TableBuilder::new()
        .text("variant", column(rows, |r| r.variant.name.clone()))
        .text("strategy", column(rows, |r| r.strategy))
        .int("turn_limit", column(rows, |r| r.max_turns))
        .count("games", s(|x| x.games))
        .count("p1_wins", s(|x| x.p1_wins))
        .count("p2_wins", s(|x| x.p2_wins))
        .count("draws", s(|x| x.draws))
        .count("infinite", s(|x| x.infinite))
        .count("cycled", s(|x| x.cycled))
        .count("finished", s(WarSummary::finished));
    table = rate_columns(table, rows, "p1_win", |r| r.summary.p1_wins);
    table = rate_columns(table, rows, "p2_win", |r| r.summary.p2_wins);
    let share: Vec<Estimate> = column(rows, |r| wilson(r.summary.p1_wins, r.summary.finished()));
    table = table.estimate("p1_win_share_of_finished", &share);
    table = rate_columns(table, rows, "draw", |r| r.summary.draws);
    table = rate_columns(table, rows, "infinite", |r| r.summary.infinite);
    table = rate_columns(table, rows, "cycled", |r| r.summary.cycled);
    table = rate_columns(table, rows, "nonterminating", |r| r.nonterminating());
    let turns: Vec<Estimate> = column(rows, |r| r.turns.mean_estimate());
    table = table
        .estimate("mean_turns", &turns)
        .real("sd_turns", column(rows, |r| r.turns.sd()))
        .real(
            "median_turns",
            column(rows, |r| {
                stats::histogram_median(&r.summary.turn_histogram).map_or(f64::NAN, |m| m as f64)
            }),
        )
        .real(
            "min_turns",
            column(rows, |r| {
                r.summary
                    .turn_histogram
                    .iter()
                    .position(|&c| c > 0)
                    .map_or(f64::NAN, |m| m as f64)
            }),
        )
        .real(
            "max_turns",
            column(rows, |r| {
                r.summary
                    .turn_histogram
                    .iter()
                    .rposition(|&c| c > 0)
                    .map_or(f64::NAN, |m| m as f64)
            }),
        );
    table = table
        .estimate("mean_wars", &column(rows, |r| r.wars()))
        .count("max_wars", column(rows, |r| u64::from(r.summary.wars.max)));
    table = table
        .estimate("mean_double_wars", &column(rows, |r| r.double_wars()))
        .count(
            "max_double_wars",
            column(rows, |r| u64::from(r.summary.double_wars.max)),
        )
        .real(
            "mean_cycle_entry_turn",
            column(rows, |r| {
                r.summary.cycle_entry.sum as f64 / r.summary.cycled as f64
            }),
        );
    table.build()
}

fn histogram_table(rows: &[Row]) -> Result<DataFrame> {
    let (mut variants, mut strategies, mut turns, mut counts) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for row in rows {
        for (length, &count) in row.summary.turn_histogram.iter().enumerate() {
            if count > 0 {
                variants.push(row.variant.name.clone());
                strategies.push(row.strategy);
                turns.push(length as u64);
                counts.push(count);
            }
        }
    }
    TableBuilder::new()
        .text("variant", variants)
        .text("strategy", strategies)
        .count("turns", turns)
        .count("count", counts)
        .build()
}

fn cycles_table(rows: &[Row]) -> Result<DataFrame> {
    let (mut variants, mut strategies, mut periods, mut counts) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for row in rows {
        for (&period, &count) in &row.summary.cycle_periods {
            variants.push(row.variant.name.clone());
            strategies.push(row.strategy);
            periods.push(u64::from(period));
            counts.push(count);
        }
    }
    TableBuilder::new()
        .text("variant", variants)
        .text("strategy", strategies)
        .count("period", periods)
        .count("count", counts)
        .build()
}

fn compare(rows: &[Row]) -> Vec<Comparison> {
    type Test = fn(&Row, &Row) -> TestResult;
    let families: [(&str, Test); 4] = [
        ("mean_turns", |a, b| stats::welch_t(&a.turns, &b.turns)),
        ("nonterminating_rate", |a, b| {
            stats::two_proportion_z(
                a.nonterminating(),
                a.summary.games,
                b.nonterminating(),
                b.summary.games,
            )
        }),
        ("p1_win_rate", |a, b| {
            stats::two_proportion_z(
                a.summary.p1_wins,
                a.summary.finished(),
                b.summary.p1_wins,
                b.summary.finished(),
            )
        }),
        ("turn_distribution", |a, b| {
            stats::chi_square_homogeneity(&[&a.summary.turn_histogram, &b.summary.turn_histogram])
        }),
    ];
    let mut out = Vec::new();
    for (family, test) in families {
        for (i, a) in rows.iter().enumerate() {
            for b in &rows[i + 1..] {
                out.push(Comparison::new(
                    family,
                    &a.variant.name,
                    &b.variant.name,
                    test(a, b),
                ));
            }
        }
    }
    comparison::adjust(&mut out);
    out
}

fn console_table(rows: &[Row]) -> Result<DataFrame> {
    let turns: Vec<Estimate> = column(rows, |r| r.turns.mean_estimate());
    TableBuilder::new()
        .text("strategy", column(rows, |r| r.variant.name.clone()))
        .count("games", column(rows, |r| r.summary.games))
        .real(
            "p1_win_rate",
            column(rows, |r| wilson(r.summary.p1_wins, r.summary.games).point),
        )
        .count("infinite", column(rows, |r| r.summary.infinite))
        .count("cycled", column(rows, |r| r.summary.cycled))
        .estimate("mean_turns", &turns)
        .real(
            "median_turns",
            column(rows, |r| {
                stats::histogram_median(&r.summary.turn_histogram).map_or(f64::NAN, |m| m as f64)
            }),
        )
        .real("mean_wars", column(rows, |r| r.wars().point))
        .build()
}

fn percent(value: f64) -> String {
    format!("{}%", format_number(100.0 * value))
}

fn report(
    rows: &[Row],
    summary: &DataFrame,
    comparisons: &[Comparison],
    cycles: &DataFrame,
    experiment: &Experiment,
) -> String {
    let mut out = String::new();
    out.push_str("## Results per strategy\n\n");
    out.push_str(
        "Turn and war statistics are over finished games (a winner or a draw); rates are over \
         all games with Wilson 95% intervals; means have Student-t 95% intervals.\n\n",
    );
    if let Ok(table) = console_table(rows) {
        out.push_str(&to_markdown(&table));
    }
    out.push_str("\nEvery column, with all intervals, is in `summary.csv`.\n\n");
    out.push_str("![Game length by strategy](game_length.png)\n\n");
    out.push_str("## Reading\n\n");
    out.push_str(&reading(rows, comparisons, experiment));
    out.push_str("\n## Comparisons\n\n");
    out.push_str(
        "Pairwise tests between strategies: Welch's t on mean turns, two-proportion z on the \
         non-terminating (infinite or cycled) rate and on player 1's win rate among finished games, chi-square \
         homogeneity on the turn histograms (sparse tail bins pooled). `p_holm` is \
         Holm-corrected within each family; effects are a - b with 95% intervals (Cramér's V \
         for chi-square).\n\n",
    );
    for family in [
        "mean_turns",
        "nonterminating_rate",
        "p1_win_rate",
        "turn_distribution",
    ] {
        let subset: Vec<&Comparison> = comparisons.iter().filter(|c| c.family == family).collect();
        if subset.is_empty() {
            continue;
        }
        out.push_str(&format!("### {family}\n\n| a | b | test | statistic | p | p (Holm) | effect | 95% CI |\n| --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n"));
        for c in subset {
            let ci = c.result.effect.confidence_interval;
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                c.a,
                c.b,
                c.result.test,
                format_number(c.result.statistic),
                format_p(c.result.p_value),
                format_p(c.p_holm),
                format_number(c.result.effect.point),
                if ci.lower.is_nan() {
                    "–".to_string()
                } else {
                    format!("[{}, {}]", format_number(ci.lower), format_number(ci.upper))
                }
            ));
        }
        out.push('\n');
    }
    if cycles.height() > 0 {
        out.push_str("## Cycle periods\n\nGames detected as cycling, by the period of their cycle in turns.\n\n");
        out.push_str(&to_markdown(cycles));
        out.push('\n');
    }
    let _ = summary;
    out
}

fn reading(rows: &[Row], comparisons: &[Comparison], experiment: &Experiment) -> String {
    let mut out = String::new();
    let finite: Vec<&Row> = rows.iter().filter(|r| r.turns.n > 0).collect();
    if let (Some(shortest), Some(longest)) = (
        finite
            .iter()
            .min_by(|a, b| a.turns.mean().total_cmp(&b.turns.mean())),
        finite
            .iter()
            .max_by(|a, b| a.turns.mean().total_cmp(&b.turns.mean())),
    ) {
        let (s, l) = (
            shortest.turns.mean_estimate(),
            longest.turns.mean_estimate(),
        );
        out.push_str(&format!(
            "- **Game length.** Finished games are shortest with `{}` ({} turns on average, 95% CI \
             {} to {}) and longest with `{}` ({} turns, {} to {}).\n",
            shortest.variant.name,
            format_number(s.point),
            format_number(s.confidence_interval.lower),
            format_number(s.confidence_interval.upper),
            longest.variant.name,
            format_number(l.point),
            format_number(l.confidence_interval.lower),
            format_number(l.confidence_interval.upper),
        ));
    }
    let significant = |family: &str| {
        let all: Vec<&Comparison> = comparisons.iter().filter(|c| c.family == family).collect();
        let sig = all.iter().filter(|c| c.p_holm < ALPHA).count();
        (sig, all.len())
    };
    let (sig, total) = significant("mean_turns");
    if total > 0 {
        out.push_str(&format!(
            "  {sig} of {total} pairwise differences in mean length are significant after Holm \
             correction (α = {ALPHA}); {} of {} length distributions differ (chi-square).\n",
            significant("turn_distribution").0,
            significant("turn_distribution").1,
        ));
    }
    let mut never: Vec<String> = Vec::new();
    for row in rows {
        let n = row.nonterminating();
        if n > 0 {
            let est = wilson(n, row.summary.games);
            never.push(format!(
                "`{}` {} ({} cycled, {} hit the {}-turn limit; rate {}, CI {} to {})",
                row.variant.name,
                n,
                row.summary.cycled,
                row.summary.infinite,
                row.max_turns,
                percent(est.point),
                percent(est.confidence_interval.lower),
                percent(est.confidence_interval.upper)
            ));
        }
    }
    if never.is_empty() {
        out.push_str(&format!(
            "- **Games that never end.** None of the {} games of any strategy cycled or reached \
             the turn limit.\n",
            experiment.trials
        ));
    } else {
        out.push_str(&format!(
            "- **Games that never end.** {}. Strategies not listed had none.\n",
            never.join("; ")
        ));
    }
    let (sig, total) = significant("p1_win_rate");
    // Each strategy's share of finished games against 50%, Holm-corrected over strategies.
    let p_values: Vec<f64> = rows
        .iter()
        .map(|r| {
            let n = r.summary.finished() as f64;
            let share = r.summary.p1_wins as f64 / n;
            stats::two_sided_normal_p((share - 0.5) / (0.25 / n).sqrt())
        })
        .collect();
    let unfair: Vec<String> = rows
        .iter()
        .zip(stats::holm(&p_values))
        .filter(|(_, p)| *p < ALPHA)
        .map(|(r, p)| {
            let share = wilson(r.summary.p1_wins, r.summary.finished());
            let ci = share.confidence_interval;
            format!(
                "`{}` ({}, CI {} to {}, Holm p {})",
                r.variant.name,
                percent(share.point),
                percent(ci.lower),
                percent(ci.upper),
                if p == 0.0 {
                    format_p(p)
                } else {
                    format!("= {}", format_p(p))
                }
            )
        })
        .collect();
    out.push_str(&format!(
        "- **Fairness.** The deal is symmetric, so under a placement that treats both players \
         alike player 1 should win half of the games that end. {}; {sig} of {total} pairwise differences in player 1's share of finished games \
         are significant after Holm correction.\n",
        if unfair.is_empty() {
            "Every strategy's 95% interval for player 1's share of finished games contains 50%"
                .to_string()
        } else {
            format!(
                "Player 1's share of finished games differs from 50% (z-test, Holm-corrected \
                 over strategies) for {}",
                unfair.join(", ")
            )
        }
    ));
    out
}

/// Turns per bin in the chart (the tables keep every integer turn count).
const CHART_BIN: usize = 10;

fn game_length_chart(rows: &[Row]) -> Chart {
    // Show up to the 99.5th percentile of the longest-tailed strategy.
    let x_limit = rows
        .iter()
        .filter_map(|r| {
            let total = r.turns.n;
            let mut seen = 0;
            r.summary.turn_histogram.iter().position(|&c| {
                seen += c;
                seen * 1000 >= total * 995
            })
        })
        .max()
        .unwrap_or(100)
        .max(CHART_BIN);
    let series = rows
        .iter()
        .map(|row| {
            let finished = row.turns.n.max(1) as f64;
            let points = (0..=x_limit / CHART_BIN)
                .map(|bin| {
                    let start = bin * CHART_BIN;
                    let count: u64 = row
                        .summary
                        .turn_histogram
                        .iter()
                        .skip(start)
                        .take(CHART_BIN)
                        .sum();
                    (
                        (start + CHART_BIN / 2) as f64,
                        count as f64 / finished / CHART_BIN as f64,
                    )
                })
                .collect();
            Series {
                label: format!(
                    "{} (infinite {}, cycled {})",
                    row.variant.name, row.summary.infinite, row.summary.cycled
                ),
                points,
                band: Vec::new(),
            }
        })
        .collect();
    Chart::Lines(LineChart {
        title: "War: length of finished games by placement strategy".into(),
        x_label: format!("turns (bins of {CHART_BIN})"),
        y_label: "share of finished games per turn".into(),
        series,
        markers: false,
    })
}
