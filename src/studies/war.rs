//! The War study: does the order in which won cards return to the hand change the game?

use crate::stats::ALPHA;
use anyhow::Result;
use polars::prelude::DataFrame;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::analysis::{Analysis, Family, Headline, Kind, Measured, Measures, Metric, Pairs};
use crate::frame::percent;
use crate::frame::NamedTable;
use crate::frame::{format_number, format_p, TableBuilder};
use crate::games::war::{
    CountMoments, Placement, War, WarSummary, DEFAULT_MAX_TURNS, MAX_TURN_LIMIT,
};
use crate::params::{GameParams, ParamDef, ParamKind, ParamSchema, Params, Schema};
use crate::report::markdown::to_markdown;
use crate::report::{Block, StudyOutput};
use crate::runner::Runner;
use crate::spec::{Experiment, Variant};
use crate::stats::{self, wilson, Estimate};
use crate::studies::{run_headline, run_variants, Study};
use crate::summary::IntegerMoments;

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
                max: MAX_TURN_LIMIT as i64,
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
        "War card game (the original assignment): how the order of won cards changes game \
         length and cycling"
    }

    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput> {
        let summaries = run_variants(experiment, runner, build)?;
        analyse(experiment, &summaries)
    }

    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline> {
        run_headline(experiment, runner, &measures(), build)
    }
}

/// The tables, report, charts and console text of `experiment` from its variants'
/// summaries (in variant order): everything `run` does after playing.
pub fn analyse(experiment: &Experiment, summaries: &[WarSummary]) -> Result<StudyOutput> {
    let measures = measures();
    let analysis = Analysis::new(&measures, &experiment.variants, summaries);
    let cycles = cycles_table(&analysis)?;
    let report = report(&analysis, &cycles, experiment);
    let console = to_markdown(&console_table(&analysis)?);
    let mut tables = analysis.standard_tables()?;
    tables.push(NamedTable::untyped("cycles", cycles));
    Ok(StudyOutput {
        tables,
        report: vec![Block::Markdown(report)],
        charts: vec![
            (
                "game_length".into(),
                analysis.histogram_chart(
                    "turns",
                    "War: length of finished games by placement strategy",
                ),
            ),
            ("estimates".into(), analysis.estimates_chart()),
        ],
        console: vec![Block::Markdown(console)],
        trials: analysis.trials(),
    })
}

fn nonterminating(s: &WarSummary) -> u64 {
    s.infinite + s.cycled
}

fn turns(s: &WarSummary) -> IntegerMoments {
    IntegerMoments::from_histogram(&s.turn_histogram)
}

fn turn_counts(s: &WarSummary) -> &[u64] {
    &s.turn_histogram
}

/// A per-finished-game count's moments.
fn per_finished(s: &WarSummary, count: &CountMoments) -> IntegerMoments {
    IntegerMoments {
        n: s.finished(),
        // At most 10^12 games of u32 values: far inside i128.
        sum: count.sum as i128,
        sum_squares: count.sum_squares,
        max: i64::from(count.max),
    }
}

/// What one game of War measures.
pub fn measures() -> Measures<WarSummary> {
    use Kind::{Count, Mean, Proportion, Value};
    let metric = Metric::new;
    let rate = |name, label, successes| {
        metric(
            name,
            label,
            Proportion {
                successes,
                of: |s: &WarSummary| s.games,
            },
        )
    };
    Measures {
        unit: "games",
        params: Some(vec![("placement", "strategy"), ("max_turns", "turn_limit")]),
        histogram_params: Some(vec![("placement", "strategy")]),
        metrics: vec![
            metric("p1_wins", "games won by player 1", Count(|s| s.p1_wins)),
            metric("p2_wins", "games won by player 2", Count(|s| s.p2_wins)),
            metric("draws", "drawn games", Count(|s| s.draws)),
            metric(
                "infinite",
                "games that hit the turn limit",
                Count(|s| s.infinite),
            ),
            metric("cycled", "games detected as cycling", Count(|s| s.cycled)),
            metric("finished", "finished games", Count(WarSummary::finished)),
            rate("p1_win_rate", "player 1 wins", |s| s.p1_wins),
            rate("p2_win_rate", "player 2 wins", |s| s.p2_wins),
            metric(
                "p1_win_share_of_finished",
                "player 1's share of finished games",
                Proportion {
                    successes: |s| s.p1_wins,
                    of: WarSummary::finished,
                },
            ),
            rate("draw_rate", "draws", |s| s.draws),
            rate("infinite_rate", "games at the turn limit", |s| s.infinite),
            rate("cycled_rate", "cycling games", |s| s.cycled),
            rate(
                "nonterminating_rate",
                "games that never end",
                nonterminating,
            ),
            metric("mean_turns", "turns of finished games", Mean(turns)),
            metric("sd_turns", "sd of turns", Value(|s| turns(s).sd())),
            metric(
                "median_turns",
                "median turns",
                Value(|s| {
                    stats::histogram_median(&s.turn_histogram).map_or(f64::NAN, |m| m as f64)
                }),
            ),
            metric(
                "min_turns",
                "shortest finished game",
                Value(|s| {
                    s.turn_histogram
                        .iter()
                        .position(|&c| c > 0)
                        .map_or(f64::NAN, |m| m as f64)
                }),
            ),
            metric(
                "max_turns",
                "longest finished game",
                Value(|s| {
                    s.turn_histogram
                        .iter()
                        .rposition(|&c| c > 0)
                        .map_or(f64::NAN, |m| m as f64)
                }),
            ),
            metric(
                "mean_wars",
                "wars per finished game",
                Mean(|s| per_finished(s, &s.wars)),
            ),
            metric(
                "max_wars",
                "most wars in a game",
                Count(|s| u64::from(s.wars.max)),
            ),
            metric(
                "mean_double_wars",
                "double wars per finished game",
                Mean(|s| per_finished(s, &s.double_wars)),
            ),
            metric(
                "max_double_wars",
                "most double wars in a game",
                Count(|s| u64::from(s.double_wars.max)),
            ),
            metric(
                "mean_cycle_entry_turn",
                "turns before the cycle",
                Value(|s| s.cycle_entry.sum as f64 / s.cycled as f64),
            ),
            metric(
                "turns",
                "finished games",
                Kind::Histogram {
                    table: "histogram",
                    bin: "turns",
                    counts: turn_counts,
                },
            ),
        ],
        families: vec![
            Family {
                name: "mean_turns",
                metric: "mean_turns",
            },
            Family {
                name: "nonterminating_rate",
                metric: "nonterminating_rate",
            },
            Family {
                name: "p1_win_rate",
                metric: "p1_win_share_of_finished",
            },
            Family {
                name: "turn_distribution",
                metric: "turns",
            },
        ],
        pairs: Pairs::Auto,
        headline: "mean_turns",
        trials: |s| s.games,
    }
}

fn cycles_table(analysis: &Analysis<WarSummary>) -> Result<DataFrame> {
    let (mut variants, mut strategies, mut periods, mut counts) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for row in &analysis.rows {
        for (&period, &count) in &row.summary.cycle_periods {
            variants.push(row.variant.name.clone());
            strategies.push(row.variant.params.choice("placement"));
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

fn console_table(analysis: &Analysis<WarSummary>) -> Result<DataFrame> {
    let rows = &analysis.rows;
    let column =
        |f: &dyn Fn(&WarSummary) -> f64| rows.iter().map(|r| f(r.summary)).collect::<Vec<f64>>();
    let turns: Vec<Estimate> = rows
        .iter()
        .map(|r| turns(r.summary).mean_estimate())
        .collect();
    TableBuilder::new()
        .text("strategy", rows.iter().map(|r| &r.variant.name))
        .count("games", rows.iter().map(|r| r.summary.games))
        .real("p1_win_rate", column(&|s| wilson(s.p1_wins, s.games).point))
        .count("infinite", rows.iter().map(|r| r.summary.infinite))
        .count("cycled", rows.iter().map(|r| r.summary.cycled))
        .estimate("mean_turns", &turns)
        .real(
            "median_turns",
            column(&|s| stats::histogram_median(&s.turn_histogram).map_or(f64::NAN, |m| m as f64)),
        )
        .real("mean_wars", column(&|s| per_finished(s, &s.wars).mean()))
        .build()
}

fn report(analysis: &Analysis<WarSummary>, cycles: &DataFrame, experiment: &Experiment) -> String {
    let mut out = String::new();
    out.push_str("## Results per strategy\n\n");
    out.push_str(
        "Turn and war statistics are over finished games (a winner or a draw); rates are over \
         all games with Wilson 95% intervals; means have Student-t 95% intervals.\n\n",
    );
    if let Ok(table) = console_table(analysis) {
        out.push_str(&to_markdown(&table));
    }
    out.push_str("\nEvery column, with all intervals, is in `summary.csv`.\n\n");
    out.push_str("![Game length by strategy](game_length.png)\n\n");
    out.push_str("## Reading\n\n");
    out.push_str(&reading(analysis, experiment));
    out.push_str("\n## Comparisons\n\n");
    if analysis.comparisons.is_empty() {
        out.push_str("Only one strategy ran: nothing to compare.\n\n");
    } else {
        out.push_str(
            "Pairwise tests between strategies: Welch's t on mean turns, two-proportion z on the \
             non-terminating (infinite or cycled) rate and on player 1's win rate among finished \
             games, chi-square homogeneity on the turn histograms (sparse tail bins pooled). \
             `p_holm` is Holm-corrected within each family; effects are a - b with 95% intervals \
             (Cramér's V for chi-square). A test between two strategies that both have no \
             non-terminating game (or only such games) carries no information and reads `no \
             data`.\n\n",
        );
        out.push_str(&crate::report::markdown::render(
            &analysis.comparisons_blocks(),
        ));
    }
    if cycles.height() > 0 {
        out.push_str(
            "## Cycle periods\n\nGames detected as cycling, by the period of their cycle in \
             turns.\n\n",
        );
        out.push_str(&to_markdown(cycles));
        out.push('\n');
    }
    out
}

fn reading(analysis: &Analysis<WarSummary>, experiment: &Experiment) -> String {
    let rows = &analysis.rows;
    let mut out = String::new();
    let finite: Vec<(&str, Estimate)> = rows
        .iter()
        .filter(|r| r.summary.finished() > 0)
        .map(|r| (r.variant.name.as_str(), turns(r.summary).mean_estimate()))
        .collect();
    let shortest = finite.iter().min_by(|a, b| a.1.point.total_cmp(&b.1.point));
    let longest = finite.iter().max_by(|a, b| a.1.point.total_cmp(&b.1.point));
    if let [(name, e)] = finite.as_slice() {
        out.push_str(&format!(
            "- **Game length.** Finished games with `{name}` last {} turns on average (95% CI {} \
             to {}){}.\n",
            format_number(e.point),
            format_number(e.confidence_interval.lower),
            format_number(e.confidence_interval.upper),
            if rows.len() > 1 {
                "; no other strategy finished a game"
            } else {
                ""
            }
        ));
    } else if let (Some((short_name, s)), Some((long_name, l))) = (shortest, longest) {
        out.push_str(&format!(
            "- **Game length.** Finished games are shortest with `{short_name}` ({} turns on \
             average, 95% CI {} to {}) and longest with `{long_name}` ({} turns, {} to {}).\n",
            format_number(s.point),
            format_number(s.confidence_interval.lower),
            format_number(s.confidence_interval.upper),
            format_number(l.point),
            format_number(l.confidence_interval.lower),
            format_number(l.confidence_interval.upper),
        ));
    } else {
        out.push_str(
            "- **Game length.** No game finished (every game cycled or reached the turn \
             limit): there is no game length to report.\n",
        );
    }
    let (sig, total) = analysis.significant("mean_turns", ALPHA);
    if total > 0 {
        let (dist_sig, dist_total) = analysis.significant("turn_distribution", ALPHA);
        out.push_str(&format!(
            "  {sig} of {total} pairwise differences in mean length are significant after Holm \
             correction (α = {ALPHA}); {dist_sig} of {dist_total} length distributions differ \
             (chi-square).\n",
        ));
    }
    let mut never: Vec<String> = Vec::new();
    for row in rows {
        let n = nonterminating(row.summary);
        if n > 0 {
            let est = wilson(n, row.summary.games);
            never.push(format!(
                "`{}` {} ({} cycled, {} hit the {}-turn limit; rate {}, CI {} to {})",
                row.variant.name,
                n,
                row.summary.cycled,
                row.summary.infinite,
                row.variant.params.int("max_turns"),
                percent(est.point),
                percent(est.confidence_interval.lower),
                percent(est.confidence_interval.upper)
            ));
        }
    }
    if never.is_empty() {
        out.push_str(&format!(
            "- **Games that never end.** None of the {} games {} cycled or reached the turn \
             limit.\n",
            experiment.trials,
            match rows.as_slice() {
                [only] => format!("with `{}`", only.variant.name),
                _ => "of any strategy".to_string(),
            }
        ));
    } else {
        out.push_str(&format!(
            "- **Games that never end.** {}. Strategies not listed had none.\n",
            never.join("; ")
        ));
    }
    out.push_str(&fairness(analysis));
    out
}

/// Each strategy's share of finished games won by player 1 against 50%, Holm-corrected over
/// the strategies that finished any game.
fn fairness(analysis: &Analysis<WarSummary>) -> String {
    let with_data: Vec<&Measured<WarSummary>> = analysis
        .rows
        .iter()
        .filter(|r| r.summary.finished() > 0)
        .collect();
    if with_data.is_empty() {
        return "- **Fairness.** No game finished, so there is no winner to judge fairness \
                by.\n"
            .to_string();
    }
    let p_values: Vec<f64> = with_data
        .iter()
        .map(|r| {
            let n = r.summary.finished() as f64;
            let share = r.summary.p1_wins as f64 / n;
            stats::two_sided_normal_p((share - 0.5) / (0.25 / n).sqrt())
        })
        .collect();
    let unfair: Vec<String> = with_data
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
    let without: Vec<String> = analysis
        .rows
        .iter()
        .filter(|r| r.summary.finished() == 0)
        .map(|r| format!("`{}`", r.variant.name))
        .collect();
    let (sig, total) = analysis.significant("p1_win_rate", ALPHA);
    let pairwise = if total > 0 {
        format!(
            "; {sig} of {total} pairwise differences in player 1's share of finished games are \
             significant after Holm correction"
        )
    } else {
        String::new()
    };
    format!(
        "- **Fairness.** The deal is symmetric, so under a placement that treats both players \
         alike player 1 should win half of the games that end. {}{}{pairwise}.\n",
        if unfair.is_empty() {
            match with_data.as_slice() {
                [only] => format!(
                    "With `{}`, player 1's share of finished games does not differ \
                     significantly from 50% (z-test)",
                    only.variant.name
                ),
                _ => "For no strategy does player 1's share of finished games differ \
                      significantly from 50% (z-test, Holm-corrected over strategies)"
                    .to_string(),
            }
        } else {
            format!(
                "Player 1's share of finished games differs from 50% (z-test, Holm-corrected \
                 over strategies) for {}",
                unfair.join(", ")
            )
        },
        if without.is_empty() {
            String::new()
        } else {
            format!(
                " ({} finished no game and {} left out)",
                without.join(", "),
                if without.len() == 1 { "is" } else { "are" }
            )
        }
    )
}
