use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = experiment::cli::Cli::parse();
    match experiment::commands::execute(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("Error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
