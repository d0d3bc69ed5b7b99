//! `experiment validate` and `experiment list`: look, run nothing.

use std::fmt::Write;
use std::path::Path;

use anyhow::Result;

use polars::prelude::{Column, DataFrame};

use crate::params::{ParamDef, ParamKind, ParamValue};
use crate::registry::Registry;
use crate::spec::{Experiment, Variant};
use crate::studies::Study;

/// Checks a spec exactly as `run` would (through the same functions: the spec's own checks,
/// then [`check`]) and prints its expanded variants.
pub fn validate(path: &Path, registry: &Registry) -> Result<()> {
    let (study, experiment) = registry.load(path)?;
    check(study, &experiment)?;
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
        let params = shown_params(variant);
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

/// The checks of a spec beyond its own that `validate` makes: those `run` makes before it
/// plays ([`super::overrides::check_design`]), and [`crate::studies::stop::check_metric`].
pub fn check(study: &dyn Study, experiment: &Experiment) -> Result<()> {
    super::overrides::check_design(study, experiment)?;
    // `run` checks [stop]'s metric when it starts, after the precision-target flags that may
    // replace it; the spec alone is checked here by the same function.
    if let Some(stop) = experiment.mode.stop() {
        crate::studies::stop::check_metric(stop, &study.estimated_metrics())?;
    }
    Ok(())
}

/// The variants of `experiment` as a table: `index`, `variant`, then every declared parameter
/// (whole numbers as integers, real numbers as floats, `true`/`false` as booleans, the rest as
/// text), and `reads`: the parameters the variant reads, as `validate` prints them.
pub fn variants_table(experiment: &Experiment) -> Result<DataFrame> {
    let variants = &experiment.variants;
    let mut columns = vec![
        Column::new(
            "index".into(),
            variants.iter().map(|v| v.index as u64).collect::<Vec<_>>(),
        ),
        Column::new(
            "variant".into(),
            variants.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(),
        ),
    ];
    if let Some(first) = variants.first() {
        for (def, template) in first.params.declared() {
            let values = variants.iter().map(|v| v.params.get(def.name));
            let name = def.name.into();
            // The column of one kind of value: every variant's value of this parameter.
            macro_rules! typed {
                ($kind:ident) => {
                    Column::new(
                        name,
                        values
                            .map(|v| match v {
                                ParamValue::$kind(x) => Some(*x),
                                _ => None,
                            })
                            .collect::<Vec<_>>(),
                    )
                };
            }
            columns.push(match template {
                ParamValue::Int(_) => typed!(Int),
                ParamValue::Float(_) => typed!(Float),
                ParamValue::Bool(_) => typed!(Bool),
                _ => Column::new(name, values.map(ToString::to_string).collect::<Vec<_>>()),
            });
        }
    }
    columns.push(Column::new(
        "reads".into(),
        variants
            .iter()
            .map(|v| shown_params(v).join(" "))
            .collect::<Vec<_>>(),
    ));
    Ok(DataFrame::new(variants.len(), columns)?)
}

/// What a variant plays, as `validate` prints it: every parameter it reads, rules only where
/// changed, as `name=value`.
fn shown_params(variant: &Variant) -> Vec<String> {
    variant
        .params
        .declared()
        .filter(|(def, _)| def.is_used(&variant.params) && variant.params.shows(def.name))
        .map(|(def, value)| format!("{}={value}", def.name))
        .collect()
}

/// The games with their parameters, as `list` prints them, one row per parameter: `game`,
/// `parameter`, `description`, `values` (what it accepts), `default`, `rule` (a rule changes
/// nothing at its default) and `read_when` (empty: always read).
pub fn games_table(registry: &Registry) -> Result<DataFrame> {
    let mut rows: [Vec<String>; 6] = Default::default();
    let mut rules = Vec::new();
    for study in registry.all() {
        for (def, values, default) in param_rows(*study) {
            let row = [
                study.game().to_string(),
                def.name.to_string(),
                def.description.to_string(),
                values,
                default.unwrap_or_default(),
                def.used_text().unwrap_or_default(),
            ];
            for (column, value) in rows.iter_mut().zip(row) {
                column.push(value);
            }
            rules.push(def.identity == crate::params::Identity::WhenChanged);
        }
    }
    let [game, parameter, description, values, default, read_when] = rows;
    Ok(DataFrame::new(
        rules.len(),
        vec![
            Column::new("game".into(), game),
            Column::new("parameter".into(), parameter),
            Column::new("description".into(), description),
            Column::new("values".into(), values),
            Column::new("default".into(), default),
            Column::new("rule".into(), rules),
            Column::new("read_when".into(), read_when),
        ],
    )?)
}

/// Each parameter of `study`'s game with what it accepts and its default.
fn param_rows(study: &dyn Study) -> Vec<(&'static ParamDef, String, Option<String>)> {
    let schema = study.params();
    let defaults = schema.defaults();
    schema
        .declared()
        .iter()
        .enumerate()
        .map(|(index, def)| {
            let values = match def.kind {
                ParamKind::Choice(choices) => format!("one of {}", choices.join(", ")),
                kind => kind.expectation(),
            };
            let default = match &defaults {
                Ok(set) => set.iter().nth(index).map(|(_, value)| value.to_string()),
                Err(_) => None,
            };
            (def, values, default)
        })
        .collect()
}

/// The games with their parameters, valid values and defaults.
pub fn list(registry: &Registry) -> String {
    let mut out = String::new();
    for study in registry.all() {
        let _ = writeln!(out, "{}: {}", study.game(), study.description());
        for (def, values, default) in param_rows(*study) {
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
