//! The command line of Chutes & Ladders: `experiment play chutes` and `experiment exact
//! chutes`, declared with clap and carried out by [`crate::commands`].

use anyhow::Result;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser};
use experiment_engine::cli::numbers::{decimal, whole};
use experiment_engine::cli::{seed_range, ExactAnswers, GameCommand, GameCommands, Verb};

use crate::commands;

/// One base game of Chutes & Ladders move by move, and whether player 1 won.
#[derive(Debug, Parser)]
#[command(
    name = "chutes",
    after_help = "Example:\n  experiment play chutes --seed 3"
)]
struct Play {
    /// Seed of the dice.
    #[arg(long, default_value_t = 1, value_parser = seed_range())]
    seed: u64,
}

/// Turn distribution, first-player advantage, optimal cube equity and exact payoffs.
#[derive(Debug, Parser)]
#[command(
    name = "chutes",
    after_help = "Examples:\n  experiment exact chutes --pair optimal-never\n  \
        experiment exact chutes --pair optimal-never --pair threshold-always --max-cube 64\n  \
        experiment exact chutes --pair threshold-take_only --first-double-at 0.8 \
        --second-take-at 0.25"
)]
struct Exact {
    /// Cube cap (a power of two).
    #[arg(long, default_value_t = 1024, value_parser = whole::<u32>(0, u64::from(u32::MAX)))]
    max_cube: u32,
    /// Strategy pairs first-second to evaluate exactly [default: every ordered pair].
    #[arg(long = "pair", value_name = "FIRST-SECOND")]
    pairs: Vec<String>,
    /// The thresholds of `threshold` and `take_only`, for both seats or each one.
    #[command(flatten)]
    thresholds: Thresholds,
}

/// The cubeless win probabilities `threshold` doubles and takes at (`take_only` only takes), as
/// the spec's `double_at`, `take_at` and seat keys set them.
#[derive(Clone, Copy, Debug, Args)]
pub struct Thresholds {
    /// Threshold strategy: double at this cubeless win probability or more (both seats).
    #[arg(long, default_value_t = 0.7, value_parser = probability)]
    pub double_at: f64,
    /// Threshold and take_only strategies: take at this cubeless win probability or more (both
    /// seats).
    #[arg(long, default_value_t = 0.25, value_parser = probability)]
    pub take_at: f64,
    /// Player 1's own double_at [default: --double-at].
    #[arg(long, value_parser = probability)]
    pub first_double_at: Option<f64>,
    /// Player 1's own take_at [default: --take-at].
    #[arg(long, value_parser = probability)]
    pub first_take_at: Option<f64>,
    /// Player 2's own double_at [default: --double-at].
    #[arg(long, value_parser = probability)]
    pub second_double_at: Option<f64>,
    /// Player 2's own take_at [default: --take-at].
    #[arg(long, value_parser = probability)]
    pub second_take_at: Option<f64>,
}

/// A win probability, 0 to 1, as the spec's thresholds accept it.
fn probability(text: &str) -> Result<f64, String> {
    let value = decimal(text)?;
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "{text} is not a win probability: a number from 0 to 1"
        ))
    }
}

/// The terminal commands of Chutes & Ladders.
pub struct ChutesCommands;

impl GameCommands for ChutesCommands {
    fn command(&self, verb: Verb) -> Option<GameCommand> {
        match verb {
            Verb::Play => Some(GameCommand {
                command: Play::command(),
                example: Some("experiment play chutes --seed 3"),
            }),
            Verb::Exact => Some(GameCommand {
                command: Exact::command(),
                example: Some("experiment exact chutes --pair optimal-never"),
            }),
            Verb::Trace => None,
        }
    }

    fn run(&self, verb: Verb, matches: &ArgMatches) -> Result<()> {
        match verb {
            Verb::Play => commands::play(Play::from_arg_matches(matches)?.seed),
            Verb::Exact | Verb::Trace => unreachable!("Chutes' only run command is play"),
        }
    }

    fn exact(&self, matches: &ArgMatches) -> Result<ExactAnswers> {
        let exact = Exact::from_arg_matches(matches)?;
        commands::exact(exact.max_cube, &exact.pairs, &exact.thresholds)
    }
}
