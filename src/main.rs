use std::process::ExitCode;

use experiment_engine::memory::GuardedAllocator;

/// Running out of memory removes the staging folder and lock and ends with a message.
#[global_allocator]
static ALLOCATOR: GuardedAllocator = GuardedAllocator;

fn main() -> ExitCode {
    experiment::record_build();
    experiment_engine::commands::main(&experiment::registry())
}
