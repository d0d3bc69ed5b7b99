//! Monopoly's command line: `experiment trace monopoly` and `experiment exact monopoly`,
//! declared with clap and carried out by [`crate::commands`].

use anyhow::Result;
use clap::{ArgAction, ArgMatches, Args, CommandFactory, FromArgMatches, Parser};
use experiment_engine::cli::numbers::whole;
use experiment_engine::cli::{ExactAnswers, GameCommand, GameCommands, Verb};

use crate::commands;
use crate::game::rules::{MAX_DIE_SIDES, MIN_DIE_SIDES};
use crate::game::{ChanceDeck, Count, JailStrategy, Rules};

/// Replay scripted dice (and card draws) for one Monopoly player, printing every event and the
/// 40-square tally (to check the movement rules by hand).
#[derive(Debug, Parser)]
#[command(
    name = "monopoly",
    after_help = "Examples:\n  experiment trace monopoly --dice 6,4,5,3,3,5 --turns 3\n  \
        experiment trace monopoly --dice 6,4,5,3 --cards chance:go_to_jail --json\n  \
        experiment trace monopoly --dice 6,6,1,2 --jail short_stay --turns 1"
)]
struct Trace {
    /// Dice values in order, two per roll, comma-separated.
    #[arg(long, value_delimiter = ',', required = true, allow_negative_numbers = true,
          value_parser = die)]
    dice: Vec<u8>,
    /// Card draws in order, as deck:card (e.g. chance:go_to_jail), comma-separated.
    #[arg(long, value_delimiter = ',')]
    cards: Vec<String>,
    /// Jail strategy.
    #[arg(long, value_enum, default_value_t = JailStrategy::LongStay)]
    jail: JailStrategy,
    /// Turns to play.
    #[arg(long, default_value_t = 20, value_parser = whole::<u32>(0, u64::from(u32::MAX)))]
    turns: u32,
    /// Print {"tally": [...], "landings": [[turn, square], ...]} instead of the events.
    #[arg(long)]
    json: bool,
}

/// Expected landings per square over a game, and long-run frequencies (Markov chain, cards
/// drawn with replacement), under the rules a spec can set.
#[derive(Debug, Parser)]
#[command(
    name = "monopoly",
    after_help = "Examples:\n  experiment exact monopoly --turns 150 --jail short_stay\n  \
        experiment exact monopoly --go-to-jail false\n  \
        experiment exact monopoly --jail short_stay_full_turn --die-sides 4 --chance-deck sixteen_cards"
)]
struct Exact {
    /// Turns per game.
    #[arg(long, default_value_t = 150, value_parser = whole::<u32>(0, u64::from(u32::MAX)))]
    turns: u32,
    /// Jail strategy.
    #[arg(long, value_enum, default_value_t = JailStrategy::LongStay)]
    jail: JailStrategy,
    /// The table rules, as a spec's rule keys set them.
    #[command(flatten)]
    rules: RuleFlags,
}

/// The rules of `experiment exact monopoly`, one flag per rule key of a Monopoly spec
/// (`die_sides`, `counting`, `chance_deck`, `go_to_jail`), with the same values and defaults.
#[derive(Debug, Args)]
struct RuleFlags {
    /// Sides of each of the two dice (a spec's die_sides).
    #[arg(long, default_value_t = 6,
          value_parser = whole::<u8>(u64::from(MIN_DIE_SIDES), u64::from(MAX_DIE_SIDES)))]
    die_sides: u8,
    /// Which landings are counted: one per throw or one per turn (a spec's counting).
    #[arg(long, value_enum, default_value_t = Count::EveryThrow)]
    counting: Count,
    /// The Chance deck (a spec's chance_deck).
    #[arg(long, value_enum, default_value_t = ChanceDeck::FifteenCards)]
    chance_deck: ChanceDeck,
    /// Whether the Go to jail corner sends a player to jail; false: it is an ordinary square
    /// (a spec's go_to_jail).
    #[arg(long, value_name = "BOOL", default_value_t = true, action = ArgAction::Set)]
    go_to_jail: bool,
}

impl RuleFlags {
    /// The game's rules these flags describe.
    fn rules(&self) -> Rules {
        Rules {
            die_sides: self.die_sides,
            count: self.counting,
            chance: self.chance_deck,
            go_to_jail: self.go_to_jail,
        }
    }
}

/// One die's face, 1 to 6, with a plain message otherwise.
fn die(text: &str) -> Result<u8, String> {
    text.trim()
        .parse::<u8>()
        .ok()
        .filter(|face| (1..=6).contains(face))
        .ok_or_else(|| format!("a die shows a whole number from 1 to 6, not '{text}'"))
}

/// Monopoly's terminal commands.
pub struct MonopolyCommands;

impl GameCommands for MonopolyCommands {
    fn command(&self, verb: Verb) -> Option<GameCommand> {
        match verb {
            Verb::Trace => Some(GameCommand {
                command: Trace::command(),
                example: Some("experiment trace monopoly --dice 6,4,5,3,3,5 --turns 3"),
            }),
            Verb::Exact => Some(GameCommand {
                command: Exact::command(),
                example: Some("experiment exact monopoly --turns 150"),
            }),
            Verb::Play => None,
        }
    }

    fn run(&self, verb: Verb, matches: &ArgMatches) -> Result<()> {
        match verb {
            Verb::Trace => {
                let trace = Trace::from_arg_matches(matches)?;
                commands::trace(
                    &trace.dice,
                    &trace.cards,
                    trace.jail,
                    trace.turns,
                    trace.json,
                )
            }
            Verb::Exact | Verb::Play => unreachable!("Monopoly's only run command is trace"),
        }
    }

    fn exact(&self, matches: &ArgMatches) -> Result<ExactAnswers> {
        let exact = Exact::from_arg_matches(matches)?;
        commands::exact(exact.turns, exact.jail, &exact.rules.rules())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_declarations_are_consistent() {
        Trace::command().debug_assert();
        Exact::command().debug_assert();
    }

    #[test]
    fn exact_monopolys_rule_flags_default_to_the_specs_defaults() {
        let exact = Exact::try_parse_from(["monopoly"]).expect("parses");
        assert_eq!(exact.rules.rules(), Rules::default());
    }
}
