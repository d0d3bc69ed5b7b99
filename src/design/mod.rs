//! The design of an experiment's random numbers: independent streams per variant (the
//! default), or common random numbers, where every variant plays trial `i` with the same
//! numbers for the same purpose and the engine keeps paired statistics of each compared pair.

mod common;

pub use common::{CommonGame, CommonOutcome, CommonSummary, PairedSummary};

use serde::{Deserialize, Serialize};

/// How the variants of an experiment get their random numbers (`[design] random_numbers`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Design {
    /// Each variant plays from streams derived from its own identity: variants are
    /// independent samples.
    #[default]
    Independent,
    /// Every variant plays trial `i` with the same numbers for each purpose (see
    /// [`crate::rng::CommonStreams`]), and comparisons are paired trial by trial.
    Common,
}

impl Design {
    /// The name a spec uses (`random_numbers = "..."`).
    pub fn name(self) -> &'static str {
        match self {
            Design::Independent => "independent",
            Design::Common => "common",
        }
    }

    /// Every design, for messages listing the valid choices.
    pub const ALL: [Design; 2] = [Design::Independent, Design::Common];
}
