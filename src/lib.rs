//! `experiment`: a parallel, reproducible Monte Carlo research engine for tabletop games.
//!
//! Layers, each knowing nothing of those after it: [`games`] (pure rules), [`rng`] (per-trial
//! streams), [`summary`] and [`runner`] (parallel, exact aggregation), [`stats`] (estimates and
//! tests), [`frame`] / [`plot`] / [`output`] (tables, charts, files), and [`spec`] / [`cli`] /
//! [`commands`] (turning text into validated work). [`studies`] ties one game to its analysis;
//! [`registry`] lists the games; [`interrupt`] turns SIGINT, SIGTERM and SIGHUP into a clean stop;
//! [`ledger`] keeps a run's completed trials for checkpoints, shards and `experiment merge`;
//! [`memory`] turns running out of memory into a message; [`shell`] quotes the command lines the
//! engine prints and writes into scripts.

pub mod affinity;
pub mod analysis;
pub mod cli;
pub mod commands;
pub mod digest;
pub mod exact;
pub mod frame;
pub mod games;
pub mod html;
pub mod interrupt;
pub mod ledger;
pub mod manifest;
pub mod memory;
pub mod output;
pub mod params;
pub mod plot;
pub mod registry;
pub mod rng;
pub mod runner;
pub mod shell;
pub mod shuffle;
pub mod spec;
pub mod stats;
pub mod studies;
pub mod summary;
pub mod summary_check;
