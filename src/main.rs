use std::process::ExitCode;

use clap::Parser;

use experiment::commands::{execute, is_broken_pipe};

fn main() -> ExitCode {
    let cli = experiment::cli::Cli::parse();
    let result = experiment::interrupt::install().and_then(|()| execute(cli));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("Error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
