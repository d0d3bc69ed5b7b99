//! `experiment validate` and `experiment list`: look, run nothing.

use std::fmt::Write;
use std::path::Path;

use anyhow::Result;

use crate::params::ParamKind;
use crate::registry::Registry;

/// Checks a spec exactly as `run` would (through the same functions: the spec's own checks,
/// then [`super::overrides::check_design`] and [`crate::studies::stop::check_metric`]) and
/// prints its expanded variants.
pub fn validate(path: &Path, registry: &Registry) -> Result<()> {
    let (study, experiment) = registry.load(path)?;
    super::overrides::check_design(study, &experiment)?;
    // `run` checks [stop]'s metric when it starts, after the precision-target flags that may
    // replace it; the spec alone is checked here by the same function.
    if let Some(stop) = experiment.mode.stop() {
        crate::studies::stop::check_metric(stop, &study.estimated_metrics())?;
    }
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
        // What the variant plays: every parameter it reads, rules only where changed.
        let params: Vec<String> = variant
            .params
            .declared()
            .filter(|(def, _)| def.is_used(&variant.params) && variant.params.shows(def.name))
            .map(|(def, value)| format!("{}={value}", def.name))
            .collect();
        let _ = writeln!(
            out,
            "  {:<3} {:<28} {}",
            variant.index,
            variant.name,
            params.join(" ")
        );
    }
    let _ = writeln!(out, "random numbers: {}", experiment.design.statement());
    if !experiment.compare.is_default() {
        let _ = writeln!(
            out,
            "compare: {} (only variants equal there are compared; Holm over those pairs)",
            experiment.compare.statement()
        );
    }
    if let Some(select) = experiment.mode.select() {
        let _ = writeln!(
            out,
            "select: the variant with the {} {} ({}), indifference {}, confidence {}, in stages \
             of {} trials, at most {} per variant",
            match select.goal {
                crate::spec::Goal::Max => "highest",
                crate::spec::Goal::Min => "lowest",
            },
            select.metric,
            select.goal.name(),
            select.indifference,
            select.confidence,
            select.stage(experiment.trials),
            select.max_trials
        );
    }
    super::emit(&out)
}

/// The games with their parameters, valid values and defaults.
pub fn list(registry: &Registry) -> String {
    let mut out = String::new();
    for study in registry.all() {
        let _ = writeln!(out, "{}: {}", study.game(), study.description());
        let schema = study.params();
        let defaults = schema.defaults();
        for (index, def) in schema.declared().iter().enumerate() {
            let values = match def.kind {
                ParamKind::Choice(choices) => format!("one of {}", choices.join(", ")),
                kind => kind.expectation(),
            };
            let default = match &defaults {
                Ok(set) => set.iter().nth(index).map(|(_, value)| value.to_string()),
                Err(_) => None,
            };
            let mut notes = vec![
                values,
                format!("default {}", default.as_deref().unwrap_or("none")),
            ];
            if def.identity == crate::params::Identity::WhenChanged {
                notes.push("a rule: at its default it changes nothing".to_string());
            }
            if let Some(when) = def.used_text() {
                notes.push(format!("read only {when}"));
            }
            let _ = writeln!(
                out,
                "  {:<14} {} ({})",
                def.name,
                def.description,
                notes.join("; ")
            );
        }
        out.push('\n');
    }
    out
}
