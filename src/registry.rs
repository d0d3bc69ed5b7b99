//! The games the engine knows: the one place a game is added. Commands pass it to the spec
//! layer, which knows games only through [`GameParams`], so `spec` imports no study.

use std::path::Path;

use crate::params::GameParams;
use crate::spec::{self, Experiment, SpecError};
use crate::studies::{chutes, monopoly, twentyone, war, Study};

/// A list of studies, each a game with its analysis.
#[derive(Clone)]
pub struct Registry {
    studies: Vec<&'static dyn Study>,
}

impl Registry {
    /// The built-in games: a new game is one more line here.
    pub fn builtin() -> Registry {
        Registry {
            studies: vec![
                &war::WarStudy,
                &monopoly::MonopolyStudy,
                &chutes::ChutesStudy,
                &twentyone::TwentyOneStudy,
            ],
        }
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

    /// Validates spec text as if read from `path` (e.g. the spec recorded in a shard file),
    /// returning the study of its game beside the experiment.
    pub fn parse(
        &self,
        path: &Path,
        source: &str,
    ) -> Result<(&'static dyn Study, Experiment), SpecError> {
        Ok(self.with_study(spec::parse(path, source, &self.games())?))
    }

    fn with_study(&self, experiment: Experiment) -> (&'static dyn Study, Experiment) {
        let study = self
            .find(experiment.study.game())
            .expect("the spec layer picks its game from this registry");
        (study, experiment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{ParamKind, ParamValue};

    /// Values at the edges of what `kind` accepts: every one must fit the typed struct.
    fn samples(kind: &ParamKind) -> Vec<ParamValue> {
        match *kind {
            ParamKind::Int { min, max } => vec![ParamValue::Int(min), ParamValue::Int(max)],
            ParamKind::Float { min, max } => vec![ParamValue::Float(min), ParamValue::Float(max)],
            ParamKind::Choice(names) => names.iter().map(|name| ParamValue::Choice(name)).collect(),
            ParamKind::Bool => vec![ParamValue::Bool(false), ParamValue::Bool(true)],
            ParamKind::Text { max_len } => vec![
                ParamValue::Text(String::new()),
                ParamValue::Text("x".repeat(max_len)),
            ],
            ParamKind::List {
                item,
                min_len,
                max_len,
            } => {
                let first = samples(item).swap_remove(0);
                [min_len, max_len.min(min_len + 1)]
                    .into_iter()
                    .map(|len| ParamValue::List(vec![first.clone(); len]))
                    .collect()
            }
            ParamKind::Table(fields) => vec![ParamValue::Table(
                fields
                    .iter()
                    .map(|field| (field.name, samples(&field.kind).swap_remove(0)))
                    .collect(),
            )],
            ParamKind::OneOf(kinds) => kinds.iter().flat_map(samples).collect(),
        }
    }

    #[test]
    fn every_game_declares_exactly_the_fields_of_its_typed_parameters() {
        for study in Registry::builtin().all() {
            let schema = study.params();
            let defaults = schema
                .defaults()
                .unwrap_or_else(|err| panic!("{}: {err}", study.game()));
            schema
                .check(&defaults)
                .unwrap_or_else(|err| panic!("{}: defaults invalid: {err}", study.game()));
            // Every declared extreme must fit the struct's field types.
            for def in schema.declared() {
                let extremes = samples(&def.kind);
                for value in extremes {
                    let mut set = defaults.clone();
                    set.set(def.name, value.clone());
                    if let Err(err) = schema.check(&set) {
                        assert!(
                            !err.message.contains("declaration does not fit"),
                            "{} {}={value}: {err}",
                            study.game(),
                            def.name
                        );
                    }
                }
            }
        }
    }
}
