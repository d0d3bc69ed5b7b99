//! The Monopoly study: which squares are landed on most, under each jail strategy and card
//! model, beside the exact Markov-chain answer.

use anyhow::Result;
use plotters::style::RGBColor;
use polars::prelude::DataFrame;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::analysis::comparison::{self, Comparison};
use crate::analysis::{Analysis, Headline, Kind, Measures, Metric, Pairs};
use crate::exact::monopoly::expected_landings;
use crate::frame::NamedTable;
use crate::frame::{format_number, format_p, TableBuilder};
use crate::games::monopoly::board::{GO, JAIL};
use crate::games::monopoly::{CardModel, JailStrategy, Monopoly, MonopolySummary, SQUARES};
use crate::params::{
    GameParams, ParamDef, ParamError, ParamKind, ParamSchema, ParamSet, Params, Schema,
};
use crate::plot::{Bar, BarChart, BarPanel, Chart, LegendEntry, Mark};
use crate::report::markdown::to_markdown;
use crate::report::{Block, StudyOutput};
use crate::runner::Runner;
use crate::spec::{Experiment, Variant};
use crate::stats::{self, normal_estimate, Estimate};
use crate::studies::{run_headline, run_variants, Study};
use crate::summary::IntegerMoments;

/// Monopoly's parameters, as a spec sets them (defaults: the original assignment's set-up).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonopolyParams {
    /// How players leave jail.
    pub jail: JailStrategy,
    /// How cards are drawn.
    pub cards: CardModel,
    /// Turns per player per game.
    pub turns: u32,
    /// Players per game.
    pub players: u32,
}

impl Default for MonopolyParams {
    fn default() -> Self {
        let game = Monopoly::default();
        MonopolyParams {
            jail: game.jail,
            cards: game.cards,
            turns: game.turns,
            players: game.players,
        }
    }
}

impl Params for MonopolyParams {
    const DECLARED: &'static [ParamDef] = &[
        ParamDef {
            name: "jail",
            kind: ParamKind::Choice(<JailStrategy as VariantNames>::VARIANTS),
            description: "stay in jail up to three turns (the original assignment's) or pay out \
                          at once",
        },
        ParamDef {
            name: "cards",
            kind: ParamKind::Choice(<CardModel as VariantNames>::VARIANTS),
            description: "draw cards uniformly (the original assignment's) or from decks \
                          shuffled once per game",
        },
        ParamDef {
            name: "turns",
            kind: ParamKind::Int {
                min: 1,
                max: 1_000_000,
            },
            description: "turns per game",
        },
        ParamDef {
            name: "players",
            kind: ParamKind::Int { min: 1, max: 1_000 },
            description: "players per game (they do not interact)",
        },
    ];

    fn validate(&self) -> Result<(), ParamError> {
        self.game().validate().map_err(|message| ParamError {
            key: "turns",
            message,
        })
    }
}

impl MonopolyParams {
    /// The game these parameters describe.
    pub fn game(&self) -> Monopoly {
        Monopoly {
            jail: self.jail,
            cards: self.cards,
            turns: self.turns,
            players: self.players,
        }
    }
}

/// Squares listed in the report as differing most between variants.
const TOP_DIFFERENCES: usize = 10;
/// |z| beyond which a square's simulated frequency is flagged against the exact chain.
const Z_FLAG: f64 = 4.5;

/// Monopoly: landing frequencies per square with the game as the unit of independence.
pub struct MonopolyStudy;

fn build(params: &ParamSet) -> Result<Monopoly> {
    let params: MonopolyParams = params.typed()?;
    params.validate()?;
    Ok(params.game())
}

impl GameParams for MonopolyStudy {
    fn game(&self) -> &'static str {
        "monopoly"
    }

    fn params(&self) -> &'static dyn ParamSchema {
        &Schema::<MonopolyParams>::NEW
    }
}

impl Study for MonopolyStudy {
    fn description(&self) -> &'static str {
        "Monopoly movement (the original assignment): landing frequency of every square, with \
         the exact chain"
    }

    fn run(&self, experiment: &Experiment, runner: &Runner) -> Result<StudyOutput> {
        let summaries = run_variants(experiment, runner, |v: &Variant| build(&v.params))?;
        analyse(experiment, &summaries)
    }

    fn headline(&self, experiment: &Experiment, runner: &Runner) -> Result<Headline> {
        run_headline(experiment, runner, &measures(), |v: &Variant| {
            build(&v.params)
        })
    }
}

/// The tables, report, charts and console text of `experiment` from its variants'
/// summaries (in variant order): everything `run` does after playing.
pub fn analyse(experiment: &Experiment, summaries: &[MonopolySummary]) -> Result<StudyOutput> {
    let measures = measures();
    let analysis = Analysis::new(&measures, &experiment.variants, summaries);
    let rows: Vec<VariantLandings> = experiment
        .variants
        .iter()
        .zip(summaries)
        .map(|(variant, summary)| VariantLandings::new(variant, summary))
        .collect::<Result<_>>()?;
    let landing = landing_table(&rows)?;
    let (comparisons, squares) = compare(&rows);
    let comparisons_frame = comparison::table(&comparisons)?;
    let console = rows
        .first()
        .map(|first| seed_tables(first))
        .transpose()?
        .unwrap_or_default();
    Ok(StudyOutput {
        tables: vec![
            analysis.summary_table()?,
            NamedTable::untyped("landing", landing),
            comparisons_frame,
        ],
        report: vec![Block::Markdown(report(
            &rows,
            &comparisons,
            &squares,
            &analysis,
        )?)],
        charts: vec![
            ("landing".into(), landing_chart(&rows)),
            ("estimates".into(), analysis.estimates_chart()),
        ],
        console: vec![Block::Markdown(console)],
        trials: experiment.trials * rows.len() as u64,
    })
}

/// The moments over games of one game's landings, counted by `count` and `squares` (their sum
/// and sum of squares over games). The summary keeps no per-game maximum: `max` stays 0, and
/// the mean and its interval do not use it.
fn per_game(summary: &MonopolySummary, count: u128, squares: u128) -> IntegerMoments {
    IntegerMoments {
        n: summary.games(),
        // At most 10^12 games of u32 tallies: far inside i128.
        sum: count as i128,
        sum_squares: squares,
        max: 0,
    }
}

/// A landing count for a table's count column, whose integers stop at 2^63 − 1 (reached only
/// past 10^12 games of 10^7 landings; every rate and mean is computed from the exact count).
fn table_count(count: u128) -> u64 {
    u64::try_from(count).unwrap_or(u64::MAX)
}

/// Landings on `square` per game, all players together.
fn square_per_game(summary: &MonopolySummary, square: u8) -> IntegerMoments {
    let square = usize::from(square);
    per_game(
        summary,
        summary.counts()[square],
        summary.count_squares()[square],
    )
}

/// What Monopoly games measure through the shared analysis layer, written to `summary.csv`:
/// the landings, per game in all and on Jail and Go, and Jail's share of them (the ratio
/// estimate with its delta-method standard error, the game as the unit), the headline: Jail is
/// the square landed on most. The study compares its variants itself (landing distributions
/// and each square's share, in `comparisons.csv`), so the layer adds no comparison.
pub fn measures() -> Measures<MonopolySummary> {
    Measures {
        unit: "games",
        params: None,
        histogram_params: None,
        metrics: vec![
            Metric {
                name: "landings",
                label: "landings on any square",
                kind: Kind::Count(|s| table_count(s.total())),
            },
            Metric {
                name: "jail_share",
                label: "Jail's share of landings",
                kind: Kind::Estimate(|s| share(s, usize::from(JAIL))),
            },
            Metric {
                name: "mean_landings",
                label: "landings per game",
                kind: Kind::Mean(|s| per_game(s, s.total(), s.total_squares())),
            },
            Metric {
                name: "mean_jail_landings",
                label: "landings on Jail per game",
                kind: Kind::Mean(|s| square_per_game(s, JAIL)),
            },
            Metric {
                name: "mean_go_landings",
                label: "landings on Go per game",
                kind: Kind::Mean(|s| square_per_game(s, GO)),
            },
        ],
        families: Vec::new(),
        pairs: Pairs::Own,
        headline: "jail_share",
        trials: MonopolySummary::games,
    }
}

/// One variant's landings: simulated estimates and, for with-replacement cards, the chain's.
struct VariantLandings<'a> {
    variant: &'a Variant,
    game: Monopoly,
    summary: &'a MonopolySummary,
    freq: Vec<Estimate>,
    /// Exact share of landings per square (with-replacement cards only).
    exact: Option<Vec<f64>>,
}

/// A square's share of all landings (index 0 = Go), a ratio estimator with the game as the
/// unit, with its normal 95% interval.
fn share(summary: &MonopolySummary, square: usize) -> Estimate {
    let (point, se) = stats::ratio_estimate(
        summary.games(),
        summary.counts()[square],
        summary.count_squares()[square],
        summary.count_totals()[square],
        summary.total(),
        summary.total_squares(),
    );
    normal_estimate(point, se)
}

impl<'a> VariantLandings<'a> {
    fn new(variant: &'a Variant, summary: &'a MonopolySummary) -> Result<VariantLandings<'a>> {
        let game = build(&variant.params)?;
        let freq = (0..SQUARES.len())
            .map(|square| share(summary, square))
            .collect();
        let exact = (game.cards == CardModel::WithReplacement).then(|| {
            let expected = expected_landings(game.jail, game.turns);
            let total: f64 = expected.iter().sum();
            expected.iter().map(|e| e / total).collect()
        });
        Ok(VariantLandings {
            variant,
            game,
            summary,
            freq,
            exact,
        })
    }

    fn z(&self, square: usize) -> f64 {
        match &self.exact {
            Some(exact) if self.freq[square].standard_error > 0.0 => {
                (self.freq[square].point - exact[square]) / self.freq[square].standard_error
            }
            _ => f64::NAN,
        }
    }

    fn exact_at(&self, square: usize) -> f64 {
        self.exact.as_ref().map_or(f64::NAN, |e| e[square])
    }

    /// Mean over squares of the variance across games relative to a multinomial's.
    fn design_effect(&self) -> f64 {
        let total = self.summary.total() as f64;
        let ratios: Vec<f64> = self
            .freq
            .iter()
            .filter(|f| f.point > 0.0 && f.standard_error > 0.0)
            .map(|f| f.standard_error.powi(2) / (f.point * (1.0 - f.point) / total))
            .collect();
        ratios.iter().sum::<f64>() / ratios.len() as f64
    }
}

fn landing_table(rows: &[VariantLandings]) -> Result<DataFrame> {
    let per_square = |f: &dyn Fn(&VariantLandings, usize) -> f64| -> Vec<f64> {
        rows.iter()
            .flat_map(|r| (0..SQUARES.len()).map(move |s| (r, s)))
            .map(|(r, s)| f(r, s))
            .collect()
    };
    let text = |f: &dyn Fn(&VariantLandings, usize) -> String| -> Vec<String> {
        rows.iter()
            .flat_map(|r| (0..SQUARES.len()).map(move |s| (r, s)))
            .map(|(r, s)| f(r, s))
            .collect()
    };
    let counts: Vec<u64> = rows
        .iter()
        .flat_map(|r| r.summary.counts().into_iter().map(table_count))
        .collect();
    TableBuilder::new()
        .text("variant", text(&|r, _| r.variant.name.clone()))
        .text("jail", text(&|r, _| r.game.jail.name().to_string()))
        .text("cards", text(&|r, _| r.game.cards.name().to_string()))
        .count("square", rows.iter().flat_map(|_| 1..=SQUARES.len() as u64))
        .text("name", text(&|_, s| SQUARES[s].0.to_string()))
        .text("group", text(&|_, s| SQUARES[s].1.to_string()))
        .count("count", counts)
        .real("freq", per_square(&|r, s| r.freq[s].point))
        .real(
            "freq_lo",
            per_square(&|r, s| r.freq[s].confidence_interval.lower.max(0.0)),
        )
        .real(
            "freq_hi",
            per_square(&|r, s| r.freq[s].confidence_interval.upper),
        )
        .real("freq_se", per_square(&|r, s| r.freq[s].standard_error))
        .real(
            "per_game",
            per_square(&|r, s| r.summary.counts()[s] as f64 / r.summary.games() as f64),
        )
        .real("exact_freq", per_square(&|r, s| r.exact_at(s)))
        .real("z", per_square(&|r, s| r.z(s)))
        .build()
}

/// Every pair of variants compared: a chi-square test of their landing distributions (family
/// `distribution`, Rao-Scott corrected) and a z-test per square (family `square`, the square
/// named in `effect_name`). Returns the comparisons and, aligned with them, the square each
/// per-square comparison is about.
fn compare(rows: &[VariantLandings]) -> (Vec<Comparison>, Vec<Option<usize>>) {
    let mut overall = Vec::new();
    let mut squares = Vec::new();
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            let (ca, cb) = (a.summary.counts(), b.summary.counts());
            let deff = (a.design_effect() + b.design_effect()) / 2.0;
            let result = stats::rao_scott(stats::chi_square_homogeneity(&[&ca, &cb]), deff);
            overall.push(Comparison::new(
                "distribution",
                &a.variant.name,
                &b.variant.name,
                result,
            ));
            for (square, (name, _)) in SQUARES.iter().enumerate() {
                if a.freq[square].point == 0.0 && b.freq[square].point == 0.0 {
                    continue;
                }
                let result = stats::difference_z(&a.freq[square], &b.freq[square]);
                let comparison =
                    Comparison::new("square", &a.variant.name, &b.variant.name, result)
                        .with_effect_name(format!(
                            "difference in share of landings on square {} {name} (a - b)",
                            square + 1
                        ));
                squares.push((square, comparison));
            }
        }
    }
    let mut which = vec![None; overall.len()];
    which.extend(squares.iter().map(|(square, _)| Some(*square)));
    let mut comparisons = overall;
    comparisons.extend(squares.into_iter().map(|(_, c)| c));
    comparison::adjust(&mut comparisons);
    (comparisons, which)
}

fn seed_tables(row: &VariantLandings) -> Result<String> {
    let mut order: Vec<usize> = (0..SQUARES.len()).collect();
    let by_frequency = {
        let counts = row.summary.counts();
        order.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
        square_table(row, &order)?
    };
    let board = square_table(row, &(0..SQUARES.len()).collect::<Vec<_>>())?;
    Ok(format!(
        "Landings for `{}` ({} games of {} turns, {} players), by frequency:\n\n{}\nIn board \
         order:\n\n{}",
        row.variant.name,
        row.summary.games(),
        row.game.turns,
        row.game.players,
        to_markdown(&by_frequency),
        to_markdown(&board)
    ))
}

fn square_table(row: &VariantLandings, order: &[usize]) -> Result<DataFrame> {
    let counts = row.summary.counts();
    let mut table = TableBuilder::new()
        .count("square", order.iter().map(|&s| s as u64 + 1))
        .text("name", order.iter().map(|&s| SQUARES[s].0))
        .count("count", order.iter().map(|&s| table_count(counts[s])))
        .real("freq", order.iter().map(|&s| row.freq[s].point))
        .real(
            "freq_lo",
            order
                .iter()
                .map(|&s| row.freq[s].confidence_interval.lower.max(0.0)),
        )
        .real(
            "freq_hi",
            order.iter().map(|&s| row.freq[s].confidence_interval.upper),
        );
    if row.exact.is_some() {
        table = table
            .real("exact_freq", order.iter().map(|&s| row.exact_at(s)))
            .real("z", order.iter().map(|&s| row.z(s)));
    }
    table.build()
}

fn report(
    rows: &[VariantLandings],
    comparisons: &[Comparison],
    squares: &[Option<usize>],
    analysis: &Analysis<MonopolySummary>,
) -> Result<String> {
    let overall: Vec<&Comparison> = comparisons
        .iter()
        .filter(|c| c.family == "distribution")
        .collect();
    let mut out = String::from(
        "Each square's relative frequency is its share of all landings; its 95% interval comes \
         from the spread of per-game counts (the game is the independent unit: a ratio \
         estimator with a delta-method standard error). `exact_freq` is the Markov chain's \
         expected share for the same number of turns (cards drawn with replacement, as the \
         chain assumes), and `z` is (simulated − exact) / standard error.\n\n\
         ![Landing frequency by square](landing.png)\n\n",
    );
    let shares: Vec<(&str, &[Estimate])> = rows
        .iter()
        .map(|r| (r.variant.name.as_str(), r.freq.as_slice()))
        .collect();
    out.push_str(&super::monopoly_reading::reading(&shares, &overall));
    out.push_str(&crate::report::markdown::render(
        &analysis.estimates_section(),
    ));
    out.push_str(
        "`jail_share` is Jail's share of all landings, with the ratio estimator's normal 95% \
         interval; the means count one game's landings, all players together.\n\n",
    );
    out.push_str("## Simulated against the exact chain\n\n");
    for row in rows {
        match &row.exact {
            Some(_) => {
                let zs: Vec<f64> = (0..SQUARES.len())
                    .map(|s| row.z(s))
                    .filter(|z| z.is_finite())
                    .collect();
                let worst = zs.iter().fold(0.0f64, |m, z| m.max(z.abs()));
                let flagged = zs.iter().filter(|z| z.abs() >= Z_FLAG).count();
                out.push_str(&format!(
                    "- `{}`: largest |z| over the 39 reachable squares is {}; {} \
                     square(s) at |z| ≥ {Z_FLAG}.{}\n",
                    row.variant.name,
                    format_number(worst),
                    flagged,
                    if flagged == 0 {
                        " The simulation agrees with the chain."
                    } else {
                        " Check the rules: the simulation and the chain disagree."
                    }
                ));
            }
            None => out.push_str(&format!(
                "- `{}`: shuffled decks have no chain here (the chain assumes cards drawn with \
                 replacement); compare it with the with-replacement variant below.\n",
                row.variant.name
            )),
        }
    }
    out.push_str("\n## Comparisons between variants\n\n");
    if overall.is_empty() {
        out.push_str("Only one variant ran: nothing to compare.\n\n");
    } else {
        out.push_str(
            "Chi-square homogeneity of the 40-square landing counts, with Rao and Scott's \
             correction for the clustering of landings within games; Holm-corrected across the \
             pairs.\n\n| a | b | chi-square (corrected) | df | p | p (Holm) |\n| --- | --- | ---: | ---: | ---: | ---: |\n",
        );
        for o in overall {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                o.a,
                o.b,
                format_number(o.result.statistic),
                o.result.df,
                format_p(o.result.p_value),
                format_p(o.p_holm)
            ));
        }
        let mut top: Vec<(usize, &Comparison)> = comparisons
            .iter()
            .zip(squares)
            .filter_map(|(c, square)| square.map(|square| (square, c)))
            .collect();
        top.sort_by(|(_, x), (_, y)| {
            y.result
                .statistic
                .abs()
                .total_cmp(&x.result.statistic.abs())
        });
        out.push_str(&format!(
            "\nThe {TOP_DIFFERENCES} square differences with the largest |z| (a − b in relative \
             frequency, Holm-corrected over every square of every pair):\n\n| a | b | square | \
             difference | 95% CI | z | p (Holm) |\n| --- | --- | --- | ---: | --- | ---: | ---: |\n"
        ));
        for (square, s) in top.iter().take(TOP_DIFFERENCES) {
            let ci = s.result.effect.confidence_interval;
            out.push_str(&format!(
                "| {} | {} | {} {} | {} | [{}, {}] | {} | {} |\n",
                s.a,
                s.b,
                square + 1,
                SQUARES[*square].0,
                format_number(s.result.effect.point),
                format_number(ci.lower),
                format_number(ci.upper),
                format_number(s.result.statistic),
                format_p(s.p_holm)
            ));
        }
        out.push('\n');
    }
    out.push_str("## Tables per variant\n\n");
    for row in rows {
        out.push_str(&format!("### {}\n\n", row.variant.name));
        out.push_str(&seed_tables(row)?);
        out.push('\n');
    }
    Ok(out)
}

/// Each group of squares (as `SQUARES` names it) with its legend label and bar colour:
/// properties in their board colours, every other kind of square in its own neutral tone, so
/// Chance and Community Chest do not pass for property groups.
const GROUPS: [(&[&str], &str, RGBColor); 13] = [
    (&["brown"], "brown", RGBColor(139, 69, 19)),
    (&["light_blue"], "light blue", RGBColor(135, 206, 235)),
    (&["pink"], "pink", RGBColor(214, 80, 170)),
    (&["orange"], "orange", RGBColor(255, 140, 0)),
    (&["red"], "red", RGBColor(220, 20, 60)),
    (&["yellow"], "yellow", RGBColor(235, 200, 0)),
    (&["green"], "green", RGBColor(34, 139, 34)),
    (&["dark_blue"], "dark blue", RGBColor(0, 0, 139)),
    (&["railroad"], "railroads", RGBColor(30, 30, 30)),
    (&["utility"], "utilities", RGBColor(150, 150, 150)),
    (
        &["chance", "community_chest"],
        "Chance / Community Chest",
        RGBColor(225, 205, 160),
    ),
    (&["tax"], "taxes", RGBColor(95, 95, 95)),
    (
        &["corner"],
        "corners (Go, Jail, Free Parking, Go To Jail)",
        RGBColor(205, 205, 205),
    ),
];

/// Bar colour of a square's group (a light grey for a group not in [`GROUPS`]).
fn group_colour(group: &str) -> RGBColor {
    GROUPS
        .iter()
        .find(|(names, ..)| names.contains(&group))
        .map_or(RGBColor(205, 205, 205), |&(_, _, colour)| colour)
}

/// The landing chart's colour legend.
fn group_legend() -> Vec<LegendEntry> {
    GROUPS
        .iter()
        .map(|&(_, label, colour)| LegendEntry {
            label: label.to_string(),
            colour,
            mark: Mark::Square,
        })
        .collect()
}

fn landing_chart(rows: &[VariantLandings]) -> Chart {
    let panels = rows
        .iter()
        .map(|row| BarPanel {
            title: format!("{} ({} games)", row.variant.name, row.summary.games()),
            bars: (0..SQUARES.len())
                .map(|s| Bar {
                    label: (s + 1).to_string(),
                    value: row.freq[s].point,
                    lower: row.freq[s].confidence_interval.lower.max(0.0),
                    upper: row.freq[s].confidence_interval.upper,
                    colour: group_colour(SQUARES[s].1),
                })
                .collect(),
        })
        .collect();
    Chart::Bars(BarChart {
        x_label: "square (board order; whiskers 95% CI)".into(),
        y_label: "share of landings".into(),
        panels,
        shared_scale: true,
        legend: group_legend(),
    })
}
