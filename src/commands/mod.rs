//! What each subcommand does, from parsed arguments to output.

mod checkpoint;
mod chutes;
mod export;
mod inspect;
mod merge;
mod monopoly;
mod overrides;
mod results;
mod run;
mod scale;
mod slurm;
mod stop;
mod summaries;
mod topup;
mod twentyone;
mod war;

use crate::console::note;
use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

use crate::cli::{Cli, Command, ExactCommand, PlayCommand, TraceCommand};
use crate::games::twentyone::Rules;
use crate::registry::Registry;

/// The whole command-line program over the games in `registry`: parses the arguments, runs
/// the command, prints any error and returns the exit status. A library user's own binary
/// calls this with `Registry::builtin().with(&MyStudy)`.
pub fn main(registry: &Registry) -> ExitCode {
    crate::memory::set_reserve_aside();
    let cli = Cli::parse();
    let result = crate::interrupt::install().and_then(|()| execute(cli, registry));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            note!("Error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Carries out the parsed command line.
pub fn execute(cli: Cli, registry: &Registry) -> Result<()> {
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
        Command::Play(PlayCommand::War {
            seed,
            out,
            placement,
            max_turns,
        }) => war::play(seed, placement, max_turns, out.as_deref()),
        Command::Play(PlayCommand::Chutes { seed }) => chutes::play(seed),
        Command::Play(PlayCommand::Twentyone { seed }) => twentyone::play(seed),
        Command::Trace(TraceCommand::Monopoly {
            dice,
            cards,
            jail,
            turns,
            json,
        }) => monopoly::trace(&dice, &cards, jail, turns, json),
        Command::Exact(ExactCommand::Monopoly { turns, jail, rules }) => {
            monopoly::exact(turns, jail, &rules.rules())
        }
        Command::Exact(ExactCommand::War) => Err(war::no_exact_solver()),
        Command::Exact(ExactCommand::Chutes {
            max_cube,
            pairs,
            thresholds,
        }) => chutes::exact(max_cube, &pairs, &thresholds),
        Command::Exact(ExactCommand::Twentyone {
            decks,
            tie,
            soft_17,
            natural_pays,
        }) => twentyone::exact(Rules {
            decks,
            tie,
            soft_17,
            natural_pays,
        }),
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
pub(crate) fn thousands(value: u64) -> String {
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
