//! The `experiment` program: the engine ([`experiment_engine`]) over the built-in games, one
//! crate each. Adding a game is one line in [`registry`] (and the crate in the workspace).

use experiment_engine::manifest::{self, Build};
use experiment_engine::registry::Registry;

/// The built-in games, in the order `experiment list` shows them.
pub fn registry() -> Registry {
    Registry::new()
        .with(&experiment_war::STUDY)
        .with(&experiment_monopoly::STUDY)
        .with(&experiment_chutes::STUDY)
        .with(&experiment_twentyone::STUDY)
}

/// Records in the engine what this program was built from (see `build.rs`), for manifests.
pub fn record_build() {
    manifest::set_build(Build {
        commit: env!("EXPERIMENT_BUILD_COMMIT"),
        modified: match env!("EXPERIMENT_BUILD_MODIFIED") {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use experiment_engine::params::{ParamKind, ParamValue};

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
        for study in registry().all() {
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
