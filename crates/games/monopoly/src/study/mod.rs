//! The Monopoly study: which squares are landed on most, under each jail strategy and card
//! model, beside the exact Markov-chain answer.

//!
//! The shared analysis gives the summary table (landings per game, Jail's share) and the
//! estimates chart; the study adds each variant's landings with the chain's exact shares
//! ([`landings`]), its own comparisons of landing distributions, the landing table and the
//! per-variant tables ([`tables`]), the landing chart ([`chart`]), and its report
//! ([`report`]) and reading ([`reading`]).

mod chart;
mod groups;
mod landings;
mod reading;
mod report;
mod tables;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::game::board::{GO, JAIL};
use crate::game::rules::{MAX_DIE_SIDES, MIN_DIE_SIDES};
use crate::game::{CardModel, ChanceDeck, Count, JailStrategy, Monopoly, MonopolySummary, Rules};
use experiment_engine::analysis::comparison;
use experiment_engine::analysis::{Analysis, Kind, Measures, Metric, Pairs};
use experiment_engine::cli::GameCommands;
use experiment_engine::declare_params;
use experiment_engine::params::{ParamDef, ParamError, ParamKind, Params};
use experiment_engine::report::StudyOutput;
use experiment_engine::spec::Experiment;
use experiment_engine::stats::{self, normal_estimate, Estimate};
use experiment_engine::studies::Rules as StudyRules;
use experiment_engine::summary::IntegerMoments;

declare_params! {
    /// Monopoly's parameters, as a spec sets them (defaults: [`Monopoly::default`]: a long stay
    /// in jail, cards drawn with replacement).
    #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct MonopolyParams {
        jail: JailStrategy = Monopoly::default().jail,
            ParamKind::Choice(<JailStrategy as VariantNames>::VARIANTS),
            "long_stay: stay in jail up to three turns, leaving on doubles; \
             short_stay: pay out at once and move that throw; \
             short_stay_full_turn: pay out at once and play a whole turn";
        cards: CardModel = Monopoly::default().cards,
            ParamKind::Choice(<CardModel as VariantNames>::VARIANTS),
            "with_replacement: draw each card uniformly from its full deck; \
             shuffled_deck: draw from decks shuffled once per game";
        turns: u32 = Monopoly::default().turns,
            ParamKind::Int { min: 1, max: 1_000_000 },
            "turns per game";
        players: u32 = Monopoly::default().players,
            ParamKind::Int { min: 1, max: 1_000 },
            "players per game (they do not interact)";
        die_sides: u8 = Monopoly::default().rules.die_sides,
            ParamKind::Int { min: MIN_DIE_SIDES as i64, max: MAX_DIE_SIDES as i64 },
            "sides of each of the two dice (doubles: both show the same face)",
            rule;
        counting: Count = Monopoly::default().rules.count,
            ParamKind::Choice(<Count as VariantNames>::VARIANTS),
            "every_throw: one landing per throw, where it ends; \
             turn_end: one landing per turn, where it ends",
            rule;
        chance_deck: ChanceDeck = Monopoly::default().rules.chance,
            ParamKind::Choice(<ChanceDeck as VariantNames>::VARIANTS),
            "fifteen_cards: nine move the token; \
             sixteen_cards: ten move it (a second nearest-railroad card)",
            rule;
        go_to_jail: bool = Monopoly::default().rules.go_to_jail,
            ParamKind::Bool,
            "true: the Go to jail corner sends a player to jail; false: it is an ordinary \
             square (three doubles and the Go to Jail cards still do)",
            rule;
    }
}

impl Params for MonopolyParams {
    const DECLARED: &'static [ParamDef] = Self::FIELDS;

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
            rules: Rules {
                die_sides: self.die_sides,
                count: self.counting,
                chance: self.chance_deck,
                go_to_jail: self.go_to_jail,
            },
        }
    }
}

/// Monopoly: landing frequencies per square with the game as the unit of independence. The
/// shared analysis gives the summary table and the estimates chart; [`Rules::analyse`] adds
/// the landings with the chain's exact shares, the study's own comparisons, its tables, chart
/// and reading.
impl StudyRules for MonopolyParams {
    const GAME: &'static str = "monopoly";
    const DESCRIPTION: &'static str =
        "Monopoly movement (two dice, three doubles or Go To Jail send a player to jail, Chance \
         and Community Chest cards move him): landing frequency of every square, with the exact \
         chain";
    type Game = Monopoly;
    type Beside = ();

    fn game(self) -> Monopoly {
        MonopolyParams::game(&self)
    }

    fn measures() -> Measures<MonopolySummary> {
        measures()
    }

    fn analyse(
        analysis: &mut Analysis<'_, MonopolySummary>,
        experiment: &Experiment,
        _beside: &(),
    ) -> Result<StudyOutput> {
        let rows: Vec<landings::VariantLandings> = analysis
            .rows
            .iter()
            .map(|row| landings::VariantLandings::new(row.variant, row.summary))
            .collect::<Result<_>>()?;
        let (comparisons, squares) = landings::compare(&rows);
        let mut output = analysis.standard_output()?;
        output.put_table(tables::landing_table(&rows)?);
        let by_group: Vec<groups::VariantGroups> =
            rows.iter().map(groups::VariantGroups::new).collect();
        output.put_table(groups::groups_table(&by_group)?);
        output.put_table(groups::group_comparisons(&by_group)?);
        // In place of the shared comparisons (none: the study compares its variants itself).
        output.put_table(comparison::table(&comparisons, &experiment.variants)?);
        output.report = report::report(&rows, &comparisons, &squares, analysis)?;
        output.console = match rows.first() {
            Some(first) => tables::square_tables(first)?,
            None => Vec::new(),
        };
        output.put_chart("landing", chart::landing_chart(&rows));
        Ok(output)
    }

    fn commands() -> Option<&'static dyn GameCommands> {
        Some(&crate::cli::MonopolyCommands)
    }
}

/// The rules some variant of `rows` changes from their defaults, each as a column holding every
/// variant's value `per_row` times (its rows in the study's tables): none for today's game, so
/// those tables keep their columns.
fn rule_columns<'a, 'b: 'a>(
    rows: impl Iterator<Item = &'a landings::VariantLandings<'b>> + Clone,
    per_row: usize,
) -> Vec<(&'static str, Vec<String>)> {
    /// A rule's key and how to read its value from a game's rules.
    type Rule = (&'static str, fn(&Rules) -> String);
    let default = Rules::default();
    let rules: [Rule; 4] = [
        ("die_sides", |r| r.die_sides.to_string()),
        ("counting", |r| r.count.name().to_string()),
        ("chance_deck", |r| r.chance.name().to_string()),
        ("go_to_jail", |r| r.go_to_jail.to_string()),
    ];
    rules
        .into_iter()
        .filter(|(_, value)| {
            rows.clone()
                .any(|row| value(&row.game.rules) != value(&default))
        })
        .map(|(name, value)| {
            let values = rows
                .clone()
                .flat_map(|row| std::iter::repeat_n(value(&row.game.rules), per_row))
                .collect();
            (name, values)
        })
        .collect()
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
