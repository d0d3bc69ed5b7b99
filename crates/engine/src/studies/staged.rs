//! The one loop that plays a run in stages, whatever decides when it ends: a precision target
//! ([`super::stop`]) or a selection of the best ([`super::select`]). Stage `s` (from 1) is
//! played, then decided on, then stage `s + 1`, until the rule says it is done or the run is
//! cancelled; a stage the rule skips (one a resumed run's checkpoint already went past) is
//! neither played nor decided on. A new staged mode is one more [`Stages`].

use super::Played;
use crate::runner::Runner;

/// How one staged mode plays and decides, stage by stage (the loop is [`play_in_stages`]).
pub trait Stages {
    /// The summary of one variant's trials.
    type Summary;

    /// The most trials the run can take, all variants together (what progress counts to).
    fn most_trials(&self) -> u64;

    /// Whether the run is over (every variant stopped, or one is left, or the cap reached).
    fn done(&self) -> bool;

    /// Plays stage `stage` (from 1); false when the rule skips it (nothing to play or to
    /// decide there).
    fn play(&mut self, runner: &Runner, stage: u64) -> bool;

    /// Decides after stage `stage` was played in full: who stops, or who is eliminated.
    fn decide(&mut self, stage: u64);

    /// The summaries and what was decided; `cancelled` when the run was stopped before the
    /// end (its decisions are then incomplete and the analysis is refused).
    fn finish(self, cancelled: bool) -> Played<Self::Summary>;
}

/// Plays `stages` on `runner` from stage 1 until it is done or the run is cancelled.
pub fn play_in_stages<S: Stages>(runner: &Runner, mut stages: S) -> Played<S::Summary> {
    runner.expect_trials(stages.most_trials());
    let mut stage = 1;
    while !stages.done() && !runner.is_cancelled() {
        let played = stages.play(runner, stage);
        if runner.is_cancelled() {
            break;
        }
        if played {
            stages.decide(stage);
        }
        stage += 1;
    }
    stages.finish(runner.is_cancelled())
}
