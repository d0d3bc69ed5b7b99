//! The rules of each game: pure functions of a random stream, knowing nothing of threads,
//! files, clocks or plots.

use crate::rng::TrialRng;
use crate::summary::Summary;

/// A fully configured game (one variant of an experiment) that can play independent trials.
pub trait Game: Sync {
    /// What one trial produces (small, `Copy` where possible).
    type Outcome: Send;
    /// How outcomes fold and merge.
    type Summary: Summary<Outcome = Self::Outcome>;
    /// Plays one trial with its own random stream.
    fn play(&self, rng: &mut TrialRng) -> Self::Outcome;

    /// Plays two trials, each with its own stream: the same outcomes as two calls of
    /// [`Game::play`], which a game may compute side by side when that is faster.
    fn play_two(&self, first: &mut TrialRng, second: &mut TrialRng) -> [Self::Outcome; 2] {
        [self.play(first), self.play(second)]
    }
}
#[cfg(test)]
pub(crate) mod choice_names;
pub mod chutes;
pub mod monopoly;
pub mod twentyone;
pub mod war;
