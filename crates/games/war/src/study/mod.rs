//! The War study: does the order in which won cards return to the hand change the game?

//!
//! The shared analysis gives the summary, histogram and comparison tables and the estimates
//! chart; the study adds the cycle periods, the game-length chart, its results table and its
//! reading ([`reading`]), laid out by [`report`].

mod reading;
mod report;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::game::{
    CountMoments, OutOfCards, Placement, Rules, War, WarSummary, DEFAULT_MAX_TURNS, MAX_DECK,
    MAX_FACE_DOWN, MAX_TURN_LIMIT,
};
use experiment_engine::analysis::{Analysis, Family, Kind, Measures, Metric, Pairs};
use experiment_engine::cli::GameCommands;
use experiment_engine::declare_params;
use experiment_engine::params::{ParamDef, ParamError, ParamKind, Params};
use experiment_engine::report::{Block, StudyOutput};
use experiment_engine::spec::Experiment;
use experiment_engine::stats;
use experiment_engine::studies::Rules as StudyRules;
use experiment_engine::summary::IntegerMoments;

declare_params! {
    /// War's parameters, as a spec sets them.
    #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct WarParams {
        placement: Placement = Placement::WinnerFirst,
            ParamKind::Choice(<Placement as VariantNames>::VARIANTS),
            "order won cards go under the winner's hand";
        max_turns: u32 = DEFAULT_MAX_TURNS,
            ParamKind::Int { min: 1, max: MAX_TURN_LIMIT as i64 },
            "turns after which an unfinished game counts as infinite";
        ranks: u8 = Rules::STANDARD.ranks,
            ParamKind::Int { min: 1, max: MAX_DECK as i64 },
            "distinct ranks in the deck, 1 (lowest) up; the deck is ranks × suits cards, even \
             and at most 52",
            rule;
        suits: u8 = Rules::STANDARD.suits,
            ParamKind::Int { min: 1, max: MAX_DECK as i64 },
            "cards of each rank",
            rule;
        face_down: u8 = Rules::STANDARD.face_down,
            ParamKind::Int { min: 0, max: MAX_FACE_DOWN as i64 },
            "cards each player puts face down in a war before his new up card",
            rule;
        out_of_cards: OutOfCards = Rules::STANDARD.out_of_cards,
            ParamKind::Choice(<OutOfCards as VariantNames>::VARIANTS),
            "a player short of cards in a war: loses, or plays his last card face up",
            rule;
    }
}

impl Params for WarParams {
    const DECLARED: &'static [ParamDef] = Self::FIELDS;

    fn validate(&self) -> Result<(), ParamError> {
        self.rules()
            .check()
            .map_err(|(key, message)| ParamError { key, message })
    }
}

impl WarParams {
    /// The game these parameters describe.
    pub fn game(&self) -> War {
        War {
            placement: self.placement,
            max_turns: self.max_turns,
            rules: self.rules(),
        }
    }

    /// The deck and the rules of a war.
    pub fn rules(&self) -> Rules {
        Rules {
            ranks: self.ranks,
            suits: self.suits,
            face_down: self.face_down,
            out_of_cards: self.out_of_cards,
        }
    }
}

/// War: placement strategies compared on game length, cycling and fairness. The shared
/// analysis does the rest; [`Rules::analyse`] adds the cycles table, the results table, the
/// game-length chart and the reading.
impl StudyRules for WarParams {
    const GAME: &'static str = "war";
    const DESCRIPTION: &'static str =
        "War card game (two players split a shuffled deck, 52 cards unless the rules change it; \
         the higher card takes the trick, equal cards start a war): how the order of won cards \
         changes game length and cycling";
    type Game = War;
    type Beside = ();

    fn game(self) -> War {
        WarParams::game(&self)
    }

    fn measures() -> Measures<WarSummary> {
        measures()
    }

    fn analyse(
        analysis: &mut Analysis<'_, WarSummary>,
        experiment: &Experiment,
        _beside: &(),
    ) -> Result<StudyOutput> {
        let params = experiment
            .variants
            .iter()
            .map(|v| v.params.typed::<WarParams>())
            .collect::<Result<Vec<_>, _>>()?;
        let cycles = report::cycles_table(analysis, &params)?;
        let results = report::results_table(analysis)?;
        let mut output = analysis.standard_output()?;
        output.report = report::report(analysis, &params, &results, &cycles, experiment.trials);
        output.console = vec![Block::Table(results)];
        output.put_table(cycles);
        output.remove_chart("histogram");
        output.put_chart(
            "game_length",
            analysis.histogram_chart(
                "turns",
                "War: length of finished games by placement strategy",
            ),
        );
        Ok(output)
    }

    fn commands() -> Option<&'static dyn GameCommands> {
        Some(&crate::cli::WarCommands)
    }
}

fn nonterminating(s: &WarSummary) -> u64 {
    s.infinite + s.cycled
}

/// The metric fairness is judged by: player 1's share of the games won by either player.
const SHARE: &str = "p1_win_share_of_decided";

/// Games won by either player: the finished games less the draws, which fairness sets aside.
fn decided(s: &WarSummary) -> u64 {
    s.p1_wins + s.p2_wins
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
            metric(
                SHARE,
                "player 1's share of games won by either player",
                Proportion {
                    successes: |s| s.p1_wins,
                    of: decided,
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
                "longest finished game observed, in turns",
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
                metric: SHARE,
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
