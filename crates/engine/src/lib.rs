//! The engine of `experiment`, a parallel, reproducible Monte Carlo research engine for
//! tabletop games. It knows no game: each game is a crate of its own that implements
//! [`games::Game`] and [`studies::Study`], and a program lists the games in a
//! [`registry::Registry`].
//!
//! Layers, each knowing nothing of those after it: [`rng`] (per-trial streams, and
//! [`shuffle`]) and [`summary`] (exact, mergeable aggregates, with the bounds of
//! [`summary_check`]); [`games`] (what a game is: one trial from its own stream) and [`design`]
//! (common random numbers: every variant of a trial played together, paired); [`runner`]
//! (parallel play) and the [`ledger`] of completed trials it keeps for checkpoints, shards and
//! `experiment merge`; [`stats`] (estimates and tests); [`frame`] / [`plot`] / [`staging`]
//! (tables, charts, files); [`report`] (a report as typed blocks, and its Markdown);
//! [`spec`] and [`manifest`] (validated work and its record); and
//! [`cli`] / [`commands`] (the program; [`commands::session`] is a run as a value). [`studies`]
//! ties a game to its analysis; [`registry`] lists the games. Beside the layers, for any of
//! them: [`params`] (typed game parameters), [`digest`] (SHA-256), [`interrupt`] (SIGINT,
//! SIGTERM and SIGHUP as a clean stop), [`memory`] (running out of memory as a message),
//! [`shell`] (quoting the command lines the engine prints and writes into scripts),
//! [`console`] (messages that never panic), [`linear`] (a small dense linear solve) and
//! [`affinity`] (pinning workers).

// Messages go through `console::note!`, which cannot panic on a closed or full stream.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod affinity;
pub mod analysis;
pub mod cli;
pub mod commands;
pub mod console;
pub mod design;
pub mod digest;
pub mod frame;
pub mod games;
pub mod html;
pub mod interrupt;
pub mod ledger;
pub mod linear;
pub mod manifest;
pub mod memory;
pub mod params;
pub mod plot;
pub mod registry;
pub mod report;
pub mod rng;
pub mod runner;
pub mod shell;
pub mod shuffle;
pub mod spec;
pub mod staging;
pub mod stats;
pub mod studies;
pub mod summary;
pub mod summary_check;
#[cfg(test)]
mod testing;
