//! Chutes & Ladders with a doubling cube for the `experiment` engine: the [`game`]'s rules, its
//! [`exact`] solvers, its [`study`] (a round-robin tournament of cube strategies) and its
//! terminal [`commands`] (`experiment play chutes`, `experiment exact chutes`), written against
//! the engine's public API only. The program lists it with one line, [`STUDY`].

// Messages go through the engine's `console::note!`, which cannot panic on a closed or full
// stream.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod cli;
pub mod commands;
pub mod exact;
pub mod game;
pub mod study;

/// The game as the engine's registry lists it.
pub static STUDY: experiment_engine::studies::Standard<study::ChutesParams> =
    experiment_engine::studies::Standard::NEW;
