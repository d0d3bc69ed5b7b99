//! The games a program runs: it lists them once (the `experiment` binary, one line per game
//! crate). Commands pass it to the spec
//! layer, which knows games only through [`GameParams`], so `spec` imports no study.

use std::path::Path;

use crate::params::GameParams;
use crate::spec::{self, Experiment, SpecError};
use crate::studies::Study;

/// A list of studies, each a game with its analysis.
#[derive(Clone, Default)]
pub struct Registry {
    studies: Vec<&'static dyn Study>,
}

impl Registry {
    /// A registry of no game yet: a program adds its games with [`Registry::with`].
    pub fn new() -> Registry {
        Registry::default()
    }

    /// This registry with one more game (replacing a built-in game of the same name).
    pub fn with(mut self, study: &'static dyn Study) -> Registry {
        self.studies.retain(|known| known.game() != study.game());
        self.studies.push(study);
        self
    }

    /// Every registered study, in listing order.
    pub fn all(&self) -> &[&'static dyn Study] {
        &self.studies
    }

    /// The study of the game called `name`.
    pub fn find(&self, name: &str) -> Option<&'static dyn Study> {
        self.studies
            .iter()
            .copied()
            .find(|study| study.game() == name)
    }

    /// Names of the registered games.
    pub fn names(&self) -> Vec<&'static str> {
        self.studies.iter().map(|study| study.game()).collect()
    }

    /// The games as the spec layer sees them (names and parameters).
    pub fn games(&self) -> Vec<&'static dyn GameParams> {
        self.studies
            .iter()
            .map(|&study| study as &'static dyn GameParams)
            .collect()
    }

    /// Reads and validates the spec at `path` against these games, returning the study of its
    /// game beside the experiment.
    pub fn load(&self, path: &Path) -> Result<(&'static dyn Study, Experiment), SpecError> {
        Ok(self.with_study(spec::load(path, &self.games())?))
    }

    /// Validates spec text as if read from `path` (e.g. the spec recorded in a shard file, or
    /// a spec a library caller passes as a string), at most [`spec::MAX_SPEC_BYTES`], returning
    /// the study of its game beside the experiment.
    pub fn parse(
        &self,
        path: &Path,
        source: &str,
    ) -> Result<(&'static dyn Study, Experiment), SpecError> {
        Ok(self.with_study(spec::parse_bytes(path, source.as_bytes(), &self.games())?))
    }

    fn with_study(&self, experiment: Experiment) -> (&'static dyn Study, Experiment) {
        let study = self
            .find(experiment.study.game())
            .expect("the spec layer picks its game from this registry");
        (study, experiment)
    }
}
