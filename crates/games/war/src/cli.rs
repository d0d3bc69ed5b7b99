//! War's command line: `experiment play war` (and a hidden `experiment exact war` that says War
//! has no exact solver), declared with clap and carried out by [`crate::commands`].

use std::path::PathBuf;

use anyhow::Result;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser};
use experiment_engine::cli::numbers::whole;
use experiment_engine::cli::{seed_range, ExactAnswers, GameCommand, GameCommands, Verb};

use crate::commands;
use crate::game::{Placement, DEFAULT_MAX_TURNS, MAX_TURN_LIMIT};

/// One game of War turn by turn, written to a file or standard output (a cycling game up to
/// the end of its first cycle).
#[derive(Debug, Parser)]
#[command(
    name = "war",
    after_help = "Examples:\n  experiment play war --seed 7\n  \
        experiment play war --seed 7 --out game.txt\n  \
        experiment play war --seed 7 --placement player1_first --max-turns 500 --out game.txt"
)]
struct Play {
    /// Seed of the deal.
    #[arg(long, default_value_t = 1, value_parser = seed_range())]
    seed: u64,
    /// File to write the game to [default: standard output].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Placement strategy.
    #[arg(long, value_enum, default_value_t = Placement::WinnerFirst)]
    placement: Placement,
    /// Turn limit, 1 to 100000000 as in specs.
    #[arg(long, default_value_t = DEFAULT_MAX_TURNS,
          value_parser = whole::<u32>(1, u64::from(MAX_TURN_LIMIT)))]
    max_turns: u32,
}

/// War has no exact solver: says so and what to run instead.
#[derive(Debug, Parser)]
#[command(name = "war", hide = true)]
struct Exact {}

/// War's terminal commands.
pub struct WarCommands;

impl GameCommands for WarCommands {
    fn command(&self, verb: Verb) -> Option<GameCommand> {
        match verb {
            Verb::Play => Some(GameCommand {
                command: Play::command(),
                example: Some("experiment play war --seed 7 --out game.txt"),
            }),
            Verb::Exact => Some(GameCommand {
                command: Exact::command(),
                example: None,
            }),
            Verb::Trace => None,
        }
    }

    fn run(&self, verb: Verb, matches: &ArgMatches) -> Result<()> {
        match verb {
            Verb::Play => {
                let play = Play::from_arg_matches(matches)?;
                commands::play(
                    play.seed,
                    play.placement,
                    play.max_turns,
                    play.out.as_deref(),
                )
            }
            Verb::Exact | Verb::Trace => unreachable!("War's only run command is play"),
        }
    }

    fn exact(&self, _matches: &ArgMatches) -> Result<ExactAnswers> {
        Err(commands::no_exact_solver())
    }
}
