//! A caller's handle on a run in progress, for a program that embeds the engine (a notebook,
//! a GUI): it reads how far the run has got and asks it to stop, from another thread, without
//! the process-wide signal handling of the command line.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget};

/// How far a run has got and a way to stop it; clones share one run's state.
#[derive(Clone, Debug)]
pub struct Watch {
    /// Counts trials as they finish; drawn nowhere, read by [`Watch::progress`].
    pub(super) bar: ProgressBar,
    /// Set by [`Watch::stop`]; the runner reads it as its cancel flag.
    pub(super) stop: Arc<AtomicBool>,
}

/// How far a run has got: trials done of the trials expected in the current part, and the
/// label of the work in progress (a variant's name, a stage).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Trials finished in the current part of the run.
    pub done: u64,
    /// Trials the current part expects (0 before the first trial is announced).
    pub total: u64,
    /// What is being played, e.g. a variant's name (may be empty).
    pub label: String,
}

impl Default for Watch {
    fn default() -> Self {
        Watch::new()
    }
}

impl Watch {
    /// A handle for a run not yet started; give it to the run with [`super::Runner::watched`].
    pub fn new() -> Watch {
        Watch {
            bar: ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden()),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// How far the run has got.
    pub fn progress(&self) -> Progress {
        Progress {
            done: self.bar.position(),
            total: self.bar.length().unwrap_or(0),
            label: self.bar.prefix(),
        }
    }

    /// Asks the run to stop: the chunks in progress are abandoned within moments, and the run
    /// ends with an [`crate::commands::session::Interrupted`] error.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`Watch::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_reads_what_the_runner_counts_and_stops_it() {
        let watch = Watch::new();
        assert_eq!(watch.progress().total, 0);
        let runner = crate::runner::Runner::new(crate::runner::RunnerSettings {
            threads: 1,
            chunk_size: 16,
            show_progress: false,
        })
        .unwrap()
        .watched(&watch);
        runner.expect_trials(100);
        runner.set_label("walk");
        assert_eq!(
            watch.progress(),
            Progress {
                done: 0,
                total: 100,
                label: "walk".into()
            }
        );
        let game = crate::testing::Walk(3);
        let summary = runner.run(&game, 7, 0, 0..100);
        assert_eq!(summary.trials, 100);
        assert_eq!(watch.progress().done, 100);
        assert!(!runner.is_cancelled());
        watch.stop();
        assert!(watch.is_stopped() && runner.is_cancelled());
    }
}
