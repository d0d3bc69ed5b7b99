//! The Monopoly study: which squares are landed on most, under each jail strategy and card
//! model, beside the exact Markov-chain answer.

//!
//! The shared analysis gives the summary table (landings per game, Jail's share) and the
//! estimates chart; the study adds each variant's landings with the chain's exact shares
//! ([`landings`]), its own comparisons of landing distributions, the landing table and the
//! per-variant tables ([`tables`]), the landing chart ([`chart`]), and its report
//! ([`report`]) and reading ([`reading`]).

mod chart;
mod landings;
mod reading;
mod report;
mod tables;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::analysis::comparison;
use crate::analysis::{Analysis, Headline, Kind, Measures, Metric, Pairs};
use crate::games::monopoly::board::{GO, JAIL};
use crate::games::monopoly::{CardModel, JailStrategy, Monopoly, MonopolySummary};
use crate::params::{
    GameParams, ParamDef, ParamError, ParamKind, ParamSchema, ParamSet, Params, Schema,
};
use crate::report::StudyOutput;
use crate::runner::Runner;
use crate::spec::{Experiment, Variant};
use crate::stats::{self, normal_estimate, Estimate};
use crate::studies::{run_headline, run_variants, Study};
use crate::summary::IntegerMoments;

/// Monopoly's parameters, as a spec sets them (defaults: [`Monopoly::default`]: a long stay in
/// jail, cards drawn with replacement).
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
        ParamDef::new(
            "jail",
            ParamKind::Choice(<JailStrategy as VariantNames>::VARIANTS),
            "long_stay: stay in jail up to three turns, leaving on doubles; \
                          short_stay: pay out at once",
        ),
        ParamDef::new(
            "cards",
            ParamKind::Choice(<CardModel as VariantNames>::VARIANTS),
            "with_replacement: draw each card uniformly from its full deck; \
                          shuffled_deck: draw from decks shuffled once per game",
        ),
        ParamDef::new(
            "turns",
            ParamKind::Int {
                min: 1,
                max: 1_000_000,
            },
            "turns per game",
        ),
        ParamDef::new(
            "players",
            ParamKind::Int { min: 1, max: 1_000 },
            "players per game (they do not interact)",
        ),
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
        "Monopoly movement (two dice, three doubles or Go To Jail send a player to jail, Chance \
         and Community Chest cards move him): landing frequency of every square, with the exact \
         chain"
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
    let rows: Vec<landings::VariantLandings> = experiment
        .variants
        .iter()
        .zip(summaries)
        .map(|(variant, summary)| landings::VariantLandings::new(variant, summary))
        .collect::<Result<_>>()?;
    let (comparisons, squares) = landings::compare(&rows);
    let mut output = analysis.standard_output()?;
    output.put_table(tables::landing_table(&rows)?);
    // In place of the shared comparisons (none: the study compares its variants itself).
    output.put_table(comparison::table(&comparisons)?);
    output.report = report::report(&rows, &comparisons, &squares, &analysis)?;
    output.console = match rows.first() {
        Some(first) => tables::square_tables(first)?,
        None => Vec::new(),
    };
    output.put_chart("landing", chart::landing_chart(&rows));
    Ok(output)
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
