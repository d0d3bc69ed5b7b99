//! `experiment validate` and `experiment list`: look, run nothing.

use std::fmt::Write;
use std::path::Path;

use anyhow::Result;

use crate::params::ParamKind;
use crate::registry::Registry;
use crate::spec;

/// Checks a spec and prints its expanded variants.
pub fn validate(path: &Path, registry: &Registry) -> Result<()> {
    let experiment = spec::load(path, registry)?;
    let mut out = format!(
        "{}: valid. Experiment '{}' on game '{}', seed {}, {} trials per variant, {} variants:\n",
        path.display(),
        experiment.name,
        experiment.study.game(),
        experiment.seed,
        experiment.trials,
        experiment.variants.len()
    );
    for variant in &experiment.variants {
        let params: Vec<String> = variant
            .params
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        let _ = writeln!(
            out,
            "  {:<3} {:<28} {}",
            variant.index,
            variant.name,
            params.join(" ")
        );
    }
    super::emit(&out)
}

/// The games with their parameters and valid values.
pub fn list(registry: &Registry) -> String {
    let mut out = String::new();
    for study in registry.all() {
        let _ = writeln!(out, "{}: {}", study.game(), study.description());
        for def in study.params() {
            let values = match def.kind {
                ParamKind::Choice(choices) => format!("one of {}", choices.join(", ")),
                kind => kind.expectation(),
            };
            let _ = writeln!(
                out,
                "  {:<14} {} ({values}; default {})",
                def.name, def.description, def.default
            );
        }
        out.push('\n');
    }
    out
}
