//! What each subcommand does, from parsed arguments to output.

mod chutes;
mod inspect;
mod monopoly;
mod run;
mod scale;
mod twentyone;
mod war;

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use crate::cli::{Cli, Command, ExactCommand, PlayCommand, TraceCommand};
use crate::registry::Registry;

/// The whole command-line program over the games in `registry`: parses the arguments, runs
/// the command, prints any error and returns the exit status. A library user's own binary
/// calls this with `Registry::builtin().with(&MyStudy)`.
pub fn main(registry: &Registry) -> ExitCode {
    let cli = Cli::parse();
    match execute(cli, registry) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("Error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Carries out the parsed command line.
pub fn execute(cli: Cli, registry: &Registry) -> Result<()> {
    match cli.command {
        Command::Run(args) => run::run(&args, registry),
        Command::Scale(args) => scale::scale(&args, registry),
        Command::Validate { spec } => inspect::validate(&spec, registry),
        Command::List => {
            print!("{}", inspect::list(registry));
            Ok(())
        }
        Command::Play(PlayCommand::War {
            seed,
            out,
            placement,
            max_turns,
        }) => war::play(seed, &placement, max_turns, &out),
        Command::Play(PlayCommand::Chutes { seed }) => chutes::play(seed),
        Command::Play(PlayCommand::Twentyone { seed }) => twentyone::play(seed),
        Command::Trace(TraceCommand::Monopoly {
            dice,
            cards,
            jail,
            turns,
            json,
        }) => monopoly::trace(&dice, &cards, &jail, turns, json),
        Command::Exact(ExactCommand::Monopoly { turns, jail }) => monopoly::exact(turns, &jail),
        Command::Exact(ExactCommand::Chutes { max_cube, pairs }) => chutes::exact(max_cube, &pairs),
        Command::Exact(ExactCommand::Twentyone) => twentyone::exact(),
    }
}
