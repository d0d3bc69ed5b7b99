//! What each subcommand does, from parsed arguments to output.

mod chutes;
mod inspect;
mod monopoly;
mod run;
mod twentyone;
mod war;

use anyhow::Result;

use crate::cli::{Cli, Command, ExactCommand, PlayCommand, TraceCommand};
use crate::registry::Registry;

/// Carries out the parsed command line.
pub fn execute(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Validate { spec } => inspect::validate(&spec, &Registry::builtin()),
        Command::List => {
            print!("{}", inspect::list(&Registry::builtin()));
            Ok(())
        }
        Command::Play(PlayCommand::War {
            seed,
            out,
            placement,
            max_turns,
        }) => war::play(seed, placement, max_turns, &out),
        Command::Play(PlayCommand::Chutes { seed }) => chutes::play(seed),
        Command::Play(PlayCommand::Twentyone { seed }) => twentyone::play(seed),
        Command::Trace(TraceCommand::Monopoly {
            dice,
            cards,
            jail,
            turns,
            json,
        }) => monopoly::trace(&dice, &cards, jail, turns, json),
        Command::Exact(ExactCommand::Monopoly { turns, jail }) => monopoly::exact(turns, jail),
        Command::Exact(ExactCommand::Chutes { max_cube, pairs }) => chutes::exact(max_cube, &pairs),
        Command::Exact(ExactCommand::Twentyone) => twentyone::exact(),
    }
}
