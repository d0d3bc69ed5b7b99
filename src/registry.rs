//! The games a command line knows: the built-in ones, plus any a library user adds.

use crate::studies::{self, Study};

/// The games available to specs and `experiment list`, in listing order.
#[derive(Clone)]
pub struct Registry {
    studies: Vec<&'static dyn Study>,
}

impl Registry {
    /// The games built into the engine.
    pub fn builtin() -> Registry {
        Registry {
            studies: studies::builtin().to_vec(),
        }
    }

    /// This registry with one more game (replacing a built-in game of the same name).
    pub fn with(mut self, study: &'static dyn Study) -> Registry {
        self.studies.retain(|known| known.game() != study.game());
        self.studies.push(study);
        self
    }

    /// Every registered game.
    pub fn all(&self) -> &[&'static dyn Study] {
        &self.studies
    }

    /// The registered game called `name`.
    pub fn find(&self, name: &str) -> Option<&'static dyn Study> {
        self.studies.iter().copied().find(|s| s.game() == name)
    }

    /// Names of the registered games.
    pub fn names(&self) -> Vec<&'static str> {
        self.studies.iter().map(|s| s.game()).collect()
    }
}
