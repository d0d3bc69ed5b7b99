//! The rules of each game: pure functions of a random stream, knowing nothing of threads,
//! files, clocks or plots.

use crate::rng::{trial_rng, CommonStreams, Purpose, Streams, TrialRng};
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

    /// Whether the runner must play each trial through [`Game::play_at`] (a game that derives
    /// its streams itself from the trial's index, as a common design does) rather than
    /// through [`Game::play_two`] and [`Game::play`].
    const INDEXED: bool = false;

    /// Plays trial `trial` of the variant with stream number `stream` in an experiment seeded
    /// with `seed`: by default with that trial's one stream.
    fn play_at(&self, seed: u64, stream: u64, trial: u64) -> Self::Outcome {
        self.play(&mut trial_rng(seed, stream, trial))
    }

    /// Plays one trial of a common design, each purpose from its own stream (see
    /// [`CommonStreams`]), so that variants differing in a strategy see the same dice, cards
    /// and deals. A game that plays through [`Streams`] calls the same code as [`Game::play`]
    /// (with [`crate::rng::OneStream`] there). By default every purpose is one: the whole
    /// trial draws from one common stream.
    fn play_common(&self, streams: &mut CommonStreams) -> Self::Outcome {
        self.play(streams.rng(Purpose::ALL))
    }

    /// The per-trial values that paired comparisons of a common design use, in order: each
    /// names the metric of the study's declaration it is the per-trial value of.
    const PAIRED: &'static [Paired] = &[];

    /// Writes one trial's value of each of [`Game::PAIRED`] into `values` (same order and
    /// length), as whole numbers: the metric's per-trial value times its `scale`.
    fn paired_values(&self, _outcome: &Self::Outcome, _values: &mut [i64]) {}

    /// Checks a summary of `trials` trials of this game read back from a file (a checkpoint
    /// or a shard): by default the summary's own [`Summary::check`]; a game whose summary's
    /// shape depends on the game itself (a common design's variants and pairs) checks that
    /// shape too, so that a forged file is refused rather than analysed.
    fn check_summary(&self, summary: &Self::Summary, trials: u64) -> Result<(), String> {
        summary.check(trials)
    }
}

/// One per-trial value that a common design compares pair by pair (see [`Game::PAIRED`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paired {
    /// The metric of the study's declaration (a proportion or a mean over all trials) whose
    /// per-trial value this is, e.g. `win_rate`.
    pub metric: &'static str,
    /// The value is recorded times this, so that it is a whole number (e.g. 20 for payoffs in
    /// steps of 0.05); 1 for counts and 0/1 outcomes.
    pub scale: u32,
}
pub mod choice_names;
