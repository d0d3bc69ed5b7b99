//! The subcommands a game brings to the command line (`experiment play|trace|exact <game>`):
//! each game crate declares its own with clap ([`GameCommands`]); the engine puts them under
//! their verb, in the registry's order, and hands the parsed arguments back to the game.

use anyhow::Result;
use clap::{ArgMatches, Command};

use crate::frame::NamedTable;

/// A verb whose subcommands are the games' own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    /// `experiment play <game>`: one game shown move by move.
    Play,
    /// `experiment trace <game>`: scripted dice and cards replayed through the rules.
    Trace,
    /// `experiment exact <game>`: the game's exact answers.
    Exact,
}

impl Verb {
    /// Every verb, in the order `experiment --help` lists them.
    pub const ALL: [Verb; 3] = [Verb::Play, Verb::Trace, Verb::Exact];

    /// The verb as typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Verb::Play => "play",
            Verb::Trace => "trace",
            Verb::Exact => "exact",
        }
    }

    /// What the verb does, as `experiment --help` says it.
    pub fn about(self) -> &'static str {
        match self {
            Verb::Play => "Play one game and show it move by move",
            Verb::Trace => {
                "Replay scripted dice and cards through a game's rules and print every event"
            }
            Verb::Exact => {
                "Compute a game's exact answers (Markov chains, backward induction, enumeration)"
            }
        }
    }

    /// The verb called `name`, if it is one.
    pub fn named(name: &str) -> Option<Verb> {
        Verb::ALL.into_iter().find(|verb| verb.name() == name)
    }
}

/// One game's subcommand under a verb.
pub struct GameCommand {
    /// The subcommand, named after the game (e.g. `war`), with its own flags and help.
    pub command: Command,
    /// One example command line, listed in the verb's `--help`; none for a hidden subcommand.
    pub example: Option<&'static str>,
}

/// A game's exact answers: the text `experiment exact <game>` prints, and the same answers as
/// tables (what a library caller gets).
pub struct ExactAnswers {
    /// The text the command prints.
    pub text: String,
    /// The answers as tables, by name.
    pub tables: Vec<NamedTable>,
}

/// A game's own terminal commands.
pub trait GameCommands: Sync {
    /// The game's subcommand under `verb`, if it has one.
    fn command(&self, verb: Verb) -> Option<GameCommand>;
    /// Carries out the game's `play` or `trace` subcommand, whose arguments clap parsed into
    /// `matches` (from the command [`GameCommands::command`] gave).
    fn run(&self, verb: Verb, matches: &ArgMatches) -> Result<()>;
    /// Computes the game's exact answers for the arguments of its `exact` subcommand (an
    /// error that says what to do instead for a game without an exact solver).
    fn exact(&self, matches: &ArgMatches) -> Result<ExactAnswers>;
}

/// The verb's command: every game's subcommand under it, in `games`' order, and their examples.
pub fn verb_command<'a>(verb: Verb, games: impl Iterator<Item = &'a dyn GameCommands>) -> Command {
    let mut command = Command::new(verb.name())
        .about(verb.about())
        .subcommand_required(true)
        .arg_required_else_help(true);
    let mut examples = Vec::new();
    for game in games {
        if let Some(sub) = game.command(verb) {
            examples.extend(sub.example);
            command = command.subcommand(sub.command);
        }
    }
    if !examples.is_empty() {
        let title = if examples.len() == 1 {
            "Example:"
        } else {
            "Examples:"
        };
        command = command.after_help(format!("{title}\n  {}", examples.join("\n  ")));
    }
    command
}
