use std::process::ExitCode;

use experiment::registry::Registry;

fn main() -> ExitCode {
    experiment::commands::main(&Registry::builtin())
}
