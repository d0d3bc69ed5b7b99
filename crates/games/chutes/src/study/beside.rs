//! What a run plays beside its pairings, which the analysis reads: the base game, and in the
//! common design the paired statistics of the pairings' common jobs, with the exact solvers
//! the pairings played from.

use super::solvers::Solvers;
use crate::game::{BaseGameSummary, CubeSummary};
use experiment_engine::design::PairedSummary;

/// The variant stream of the base game: a fixed number, so the base game's results never change
/// with the pairings selected (a pairing's stream is a 64-bit hash of its parameters, equal to
/// this one with probability 2^-64).
/// `experiment play chutes --seed S` plays trial 0 of this stream.
pub const BASE_GAME_STREAM: u64 = 1 << 32;

/// What a run played beside its pairings: the study's
/// [`Rules::Beside`](experiment_engine::studies::Rules::Beside), `None` until a run has played.
pub struct Beside {
    /// The exact solvers the pairings played from, one per tournament.
    pub solvers: Solvers,
    /// The base game's summary.
    pub base: BaseGameSummary,
    /// In the common design, each tournament's paired statistics, in tournament order (none in
    /// an independent design).
    pub tournaments: Vec<PairedSummary>,
    /// Every pairing's paired statistics, in variant order, when one common job played them
    /// all (which compares the tournaments on the same dice).
    pub all: Option<PairedSummary>,
}

/// What the pairings played: each pairing's summary, in variant order; in the common design
/// each tournament's paired statistics, in tournament order, and every pairing's (in variant
/// order) when one common job played them all.
pub(super) type Plays = (Vec<CubeSummary>, Vec<PairedSummary>, Option<PairedSummary>);
