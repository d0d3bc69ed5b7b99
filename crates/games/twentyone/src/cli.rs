//! Twenty-One's command line: `experiment play twentyone` and `experiment exact twentyone`,
//! declared with clap and carried out by [`crate::commands`].

use anyhow::Result;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser};
use experiment_engine::cli::numbers::{decimal, whole};
use experiment_engine::cli::{seed_range, ExactAnswers, GameCommand, GameCommands, Verb};

use crate::commands;
use crate::game::{Rules, Soft17, Ties};

/// Play Twenty-One against the computer at the terminal (reads answers from stdin).
#[derive(Debug, Parser)]
#[command(
    name = "twentyone",
    after_help = "Example:\n  experiment play twentyone --seed 5"
)]
struct Play {
    /// Seed of the shuffles [default: a different game each run].
    #[arg(long, value_parser = seed_range())]
    seed: Option<u64>,
}

/// Exact win probability of every standing rule, by enumerating the deck.
#[derive(Debug, Parser)]
#[command(
    name = "twentyone",
    after_help = "Examples:\n  experiment exact twentyone\n  \
        experiment exact twentyone --tie push --decks 2 --soft-17 hit --natural-pays 1.5"
)]
struct Exact {
    /// How many 52-card decks are shuffled together.
    #[arg(long, default_value_t = 1, value_parser = whole::<u8>(1, u64::from(Rules::MAX_DECKS)))]
    decks: u8,
    /// Who takes a tie: the computer (dealer) or nobody (push).
    #[arg(long, value_enum, default_value_t = Ties::Dealer)]
    tie: Ties,
    /// Whether the computer stands on or hits a soft 17.
    #[arg(long = "soft-17", value_enum, default_value_t = Soft17::Stand)]
    soft_17: Soft17,
    /// What a win on a natural pays (a multiple of 0.05 from 1 to 2).
    #[arg(long, default_value_t = 1.0, value_parser = natural_pays)]
    natural_pays: f64,
}

/// What a natural pays, as the spec's `natural_pays` accepts it.
fn natural_pays(text: &str) -> Result<f64, String> {
    let value = decimal(text)?;
    Rules::natural_pays_error(value).map_or(Ok(value), Err)
}

/// Twenty-One's terminal commands.
pub struct TwentyOneCommands;

impl GameCommands for TwentyOneCommands {
    fn command(&self, verb: Verb) -> Option<GameCommand> {
        match verb {
            Verb::Play => Some(GameCommand {
                command: Play::command(),
                example: Some("experiment play twentyone --seed 5"),
            }),
            Verb::Exact => Some(GameCommand {
                command: Exact::command(),
                example: Some("experiment exact twentyone"),
            }),
            Verb::Trace => None,
        }
    }

    fn run(&self, verb: Verb, matches: &ArgMatches) -> Result<()> {
        match verb {
            Verb::Play => commands::play(Play::from_arg_matches(matches)?.seed),
            Verb::Exact | Verb::Trace => unreachable!("Twenty-One's only run command is play"),
        }
    }

    fn exact(&self, matches: &ArgMatches) -> Result<ExactAnswers> {
        let exact = Exact::from_arg_matches(matches)?;
        commands::exact(Rules {
            decks: exact.decks,
            tie: exact.tie,
            soft_17: exact.soft_17,
            natural_pays: exact.natural_pays,
        })
    }
}
