//! The design of an experiment's random numbers: independent streams per variant (the
//! default), or common random numbers, where every variant plays trial `i` with the same
//! numbers for the same purpose and the engine keeps paired statistics of each compared pair.

mod common;

pub use common::{group_pairs, CommonGame, CommonOutcome, CommonSummary, PairSet, PairedSummary};

use serde::{Deserialize, Serialize};

/// The stream number under which a common design's trials are played and recorded (one job,
/// every variant inside it): the stream [`crate::rng::variant_stream`] gives the fixed
/// identity `design` / `random_numbers=common`. The numbers themselves come from the purposes'
/// streams ([`crate::rng::purpose_stream`]), never from this one.
pub const COMMON_STREAM: u64 = 0xac36_fbc2_1643_74d5;

/// What summaries files call [`COMMON_STREAM`] (its label, in place of a variant's name).
pub const COMMON_LABEL: &str = "common design";

/// The stream of the pilot that picks the variant every other is compared with in a common
/// design of more variants than are compared pair by pair: each variant plays trials
/// `0..PILOT_TRIALS` of it, every purpose from this one stream, so the pick depends on the
/// seed alone (not on the trials asked for). It is [`crate::rng::variant_stream`] of the fixed
/// identity `design` / `pilot`.
pub const PILOT_STREAM: u64 = 0x88a0_bfa8_3734_1305;

/// Trials per variant of the pilot ([`PILOT_STREAM`]).
pub const PILOT_TRIALS: u64 = 1_024;

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

    /// The design in one sentence, as `experiment validate` and the report state it.
    pub fn statement(self) -> &'static str {
        match self {
            Design::Independent => {
                "independent (each variant plays from streams of its own; comparisons are \
                 between independent samples)"
            }
            Design::Common => {
                "common (every variant plays trial i with the same numbers for the same \
                 purpose; comparisons are paired)"
            }
        }
    }

    /// Whether this is the default design ([`Design::Independent`]): files and reports of a
    /// run in it say nothing of the design, as they did before designs existed.
    pub fn is_default(&self) -> bool {
        *self == Design::Independent
    }

    /// Every design, for messages listing the valid choices.
    pub const ALL: [Design; 2] = [Design::Independent, Design::Common];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::variant_stream;

    #[test]
    fn the_design_streams_are_variant_streams_of_fixed_identities() {
        assert_eq!(
            variant_stream("design", "random_numbers=common"),
            COMMON_STREAM
        );
        assert_eq!(variant_stream("design", "pilot"), PILOT_STREAM);
        assert_ne!(COMMON_STREAM, PILOT_STREAM);
    }

    #[test]
    fn designs_are_named_as_specs_write_them() {
        assert_eq!(Design::ALL.map(Design::name), ["independent", "common"]);
        assert!(Design::default().is_default());
        assert!(!Design::Common.is_default());
    }
}
