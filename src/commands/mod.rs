//! What each subcommand does, from parsed arguments to output.

mod inspect;
mod play;
mod run;

use anyhow::Result;

use crate::cli::{Cli, Command};

/// Carries out the parsed command line.
pub fn execute(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Validate { spec } => inspect::validate(&spec),
        Command::List => {
            print!("{}", inspect::list());
            Ok(())
        }
        Command::Play(game) => play::play(game),
    }
}
