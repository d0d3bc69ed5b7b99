//! What each subcommand does, from parsed arguments to output.

mod checkpoint;
mod export;
pub mod inspect;
pub mod merge;
pub mod overrides;
pub mod results;
pub mod run;
mod scale;
pub mod session;
mod slurm;
mod stop;
mod summaries;
mod topup;

use crate::console::note;
use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{ArgMatches, CommandFactory, FromArgMatches};

use crate::cli::{verb_command, Cli, Command, Verb};
use crate::registry::Registry;

/// The whole command-line program over the games in `registry`: parses the arguments, runs
/// the command, prints any error and returns the exit status. A library user's own binary
/// calls this with `Registry::builtin().with(&MyStudy)`.
pub fn main(registry: &Registry) -> ExitCode {
    crate::memory::set_reserve_aside();
    let matches = command_line(registry).get_matches();
    let result = crate::interrupt::install().and_then(|()| execute(&matches, registry));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            note!("Error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// The whole command line: the engine's subcommands, and each game's own under its verb
/// (`experiment play war`), in the registry's order.
pub fn command_line(registry: &Registry) -> clap::Command {
    Verb::ALL.into_iter().fold(Cli::command(), |command, verb| {
        let games = registry.all().iter().filter_map(|study| study.commands());
        command.subcommand(verb_command(verb, games))
    })
}

/// Carries out the command line `matches` (parsed by [`command_line`] over `registry`).
pub fn execute(matches: &ArgMatches, registry: &Registry) -> Result<()> {
    if let Some((name, verb_matches)) = matches.subcommand() {
        if let Some(verb) = Verb::named(name) {
            let (game, game_matches) = verb_matches
                .subcommand()
                .expect("clap requires a game after a verb");
            let commands = registry
                .find(game)
                .and_then(|study| study.commands())
                .expect("clap offers only the registry's games' commands");
            return match verb {
                Verb::Exact => emit(&commands.exact(game_matches)?.text),
                Verb::Play | Verb::Trace => commands.run(verb, game_matches),
            };
        }
    }
    let cli = Cli::from_arg_matches(matches).map_err(|err| err.format(&mut Cli::command()))?;
    if matches!(
        cli.command,
        Command::Run(_) | Command::Merge(_) | Command::Slurm(_) | Command::Scale(_)
    ) {
        // Every checkpoint, shard and results folder writes a summaries file, which reads
        // these settings: a bad one is refused before any trial is played.
        crate::ledger::check_environment()?;
    }
    match cli.command {
        Command::Run(args) => run::run(&args, registry),
        Command::Merge(args) => merge::merge(&args, registry),
        Command::Slurm(args) => slurm::slurm(&args, registry),
        Command::Scale(args) => scale::scale(&args, registry),
        Command::Validate { spec } => inspect::validate(&spec, registry),
        Command::List => emit(&inspect::list(registry)),
    }
}

/// Writes `text` to standard output. A reader that stopped reading (`| head`) comes back as an
/// `io::ErrorKind::BrokenPipe` error, which `main` turns into a quiet exit with status 0.
pub fn emit(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .context("cannot write to standard output")
}

/// `value` with thousands separators, e.g. 1,200,000.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Whether `error` comes from writing to a pipe whose reader has gone (`| head`): the output
/// was simply not wanted any more, so the command ends quietly with status 0, as Unix tools do.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|error| error.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
