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
    /// The four built-in games.
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
    use crate::params::ParamKind;

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
                let extremes = match def.kind {
                    ParamKind::Int { min, max } => {
                        vec![
                            crate::params::ParamValue::Int(min),
                            crate::params::ParamValue::Int(max),
                        ]
                    }
                    ParamKind::Float { min, max } => vec![
                        crate::params::ParamValue::Float(min),
                        crate::params::ParamValue::Float(max),
                    ],
                    ParamKind::Choice(names) => names
                        .iter()
                        .map(|name| crate::params::ParamValue::Choice(name))
                        .collect(),
                };
                for value in extremes {
                    let mut set = defaults.clone();
                    set.set(def.name, value);
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

    #[test]
    fn choice_names_agree_between_specs_strum_serde_and_the_command_line() {
        use crate::games::monopoly::{CardModel, JailStrategy};
        use crate::games::war::Placement;
        use clap::ValueEnum;
        fn agree<
            T: ValueEnum + strum::VariantNames + serde::Serialize + Into<&'static str> + Copy,
        >() {
            let clap: Vec<String> = T::value_variants()
                .iter()
                .map(|v| {
                    v.to_possible_value()
                        .expect("visible")
                        .get_name()
                        .to_string()
                })
                .collect();
            let serde: Vec<String> = T::value_variants()
                .iter()
                .map(|v| {
                    serde_json::to_value(v)
                        .expect("serialises")
                        .as_str()
                        .expect("a name")
                        .to_string()
                })
                .collect();
            let names: Vec<&str> = T::value_variants().iter().map(|&v| v.into()).collect();
            assert_eq!(clap, T::VARIANTS);
            assert_eq!(serde, T::VARIANTS);
            assert_eq!(names, T::VARIANTS);
        }
        agree::<Placement>();
        agree::<JailStrategy>();
        agree::<CardModel>();
        // The hand-written name lists in the rules must say the same as the derives.
        assert_eq!(
            crate::games::chutes::Strategy::NAMES,
            <crate::games::chutes::StrategyName as strum::VariantNames>::VARIANTS
        );
        assert_eq!(
            crate::games::twentyone::Strategy::NAMES,
            <crate::games::twentyone::StrategyName as strum::VariantNames>::VARIANTS
        );
        let placements: Vec<&str> = Placement::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(placements, <Placement as strum::VariantNames>::VARIANTS);
    }
}
