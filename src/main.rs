use std::process::ExitCode;

use experiment::memory::GuardedAllocator;
use experiment::registry::Registry;

/// Running out of memory removes the staging folder and lock and ends with a message.
#[global_allocator]
static ALLOCATOR: GuardedAllocator = GuardedAllocator;

fn main() -> ExitCode {
    experiment::commands::main(&Registry::builtin())
}
