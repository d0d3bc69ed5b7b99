//! A spec's variants: the product of each sweep's lists and ranges, then its `[[variant]]`
//! tables, each checked alone, refused before expanding when there would be too many.

use std::collections::HashSet;
use std::ops::Range;

use super::locate::Locator;
use super::names::{missing_value_problem, name_problem, padding_problem};
use super::ranges;
use super::raw::{raw_value, ExperimentSpec, Sweep, SweepValues};
use super::validate::{blame, find_param, Draft};
use super::{SpecError, MAX_VARIANTS};
use crate::params::{GameParams, ParamSet, ParamValue, RawValue};

/// Refuses an experiment of more than `limit` variants, before expanding it.
pub(super) fn check_count(
    count: u128,
    what: String,
    limit: i64,
    set_by_spec: bool,
    span: Range<usize>,
    locate: &Locator,
) -> Result<(), SpecError> {
    if count <= limit as u128 {
        return Ok(());
    }
    let message = if count > MAX_VARIANTS as u128 {
        format!(
            "{what} make {count} variants, more than the {MAX_VARIANTS} one experiment may have: \
             split it into several specs"
        )
    } else if set_by_spec {
        format!(
            "{what} make {count} variants, more than max_variants = {limit}: raise max_variants \
             (at most {MAX_VARIANTS}) or sweep fewer values"
        )
    } else {
        format!(
            "{what} make {count} variants, more than the {limit} a spec may have by default: \
             set max_variants = {count} at the top of the spec to run them all (at most \
             {MAX_VARIANTS})"
        )
    };
    Err(locate.error(span, message))
}

/// The variants of the spec's sweeps, block after block; one variant named after the spec
/// ([`lone_name`]) when the spec has neither sweeps nor `[[variant]]` tables.
pub(super) fn swept_variants(
    spec: &ExperimentSpec,
    study: &dyn GameParams,
    fixed: &ParamSet,
    max_variants: i64,
    locate: &Locator,
) -> Result<Vec<Draft>, SpecError> {
    let Some(sweeps) = &spec.sweep else {
        if !spec.variant.is_empty() {
            return Ok(Vec::new());
        }
        return block_variants(
            &Sweep::new(),
            None,
            spec,
            study,
            fixed,
            max_variants,
            locate,
        );
    };
    let mut variants = Vec::new();
    for (block, span) in sweeps.blocks() {
        if let (true, Some(span)) = (block.is_empty(), &span) {
            return Err(locate.error(
                span.clone(),
                "a [[sweep]] table must sweep at least one key",
            ));
        }
        variants.extend(block_variants(
            block,
            span,
            spec,
            study,
            fixed,
            max_variants,
            locate,
        )?);
    }
    Ok(variants)
}

/// The product of one sweep's lists and ranges (`span`: its `[[sweep]]` table, if any).
fn block_variants(
    block: &Sweep,
    span: Option<Range<usize>>,
    spec: &ExperimentSpec,
    study: &dyn GameParams,
    fixed: &ParamSet,
    max_variants: i64,
    locate: &Locator,
) -> Result<Vec<Draft>, SpecError> {
    let schema = study.params();
    let defs = schema.declared();
    let table = if span.is_some() {
        "[[sweep]]"
    } else {
        "[sweep]"
    };
    let mut lists = Vec::with_capacity(block.len());
    for (key, values) in block {
        let def = find_param(defs, study.game(), key, table)
            .map_err(|message| locate.error(values.span(), message))?;
        let written: Vec<(RawValue, Range<usize>)> = match values.get_ref() {
            SweepValues::List(list) => list
                .iter()
                .map(|value| (raw_value(value.get_ref()), value.span()))
                .collect(),
            SweepValues::Range(range) => {
                ranges::expand(key, def, range, values.span(), max_variants, locate)?
                    .into_iter()
                    .map(|value| (value, values.span()))
                    .collect()
            }
        };
        if written.is_empty() {
            return Err(locate.error(values.span(), format!("sweep '{key}' lists no values")));
        }
        let mut parsed = Vec::with_capacity(written.len());
        let mut seen = HashSet::with_capacity(written.len());
        for (value, at) in &written {
            let param = def
                .parse(value)
                .map_err(|message| locate.error(at.clone(), message))?;
            if !seen.insert(param.key()) {
                return Err(locate.error(at.clone(), format!("sweep '{key}' lists {param} twice")));
            }
            parsed.push(param);
        }
        lists.push((def.name, parsed));
    }
    if let Some(first) = block.values().next() {
        let count = lists.iter().fold(1u128, |product, (_, values)| {
            product.saturating_mul(values.len() as u128)
        });
        let factors: Vec<String> = lists
            .iter()
            .map(|(key, values)| format!("{} {key}", values.len()))
            .collect();
        let whose = if span.is_some() {
            "this [[sweep]]"
        } else {
            "the sweep"
        };
        check_count(
            count,
            format!("{whose}'s lists ({})", factors.join(" × ")),
            max_variants,
            spec.max_variants.is_some(),
            first.span(),
            locate,
        )?;
    }

    let mut variants = vec![Draft {
        name: String::new(),
        params: fixed.clone(),
        span: span.clone(),
        own: Vec::new(),
    }];
    let spans: Vec<Range<usize>> = block.values().map(|values| values.span()).collect();
    for ((key, parsed), at) in lists.iter().zip(&spans) {
        let mut next = Vec::with_capacity(variants.len() * parsed.len());
        for variant in &variants {
            for param in parsed {
                let mut params = variant.params.clone();
                params.set(key, param.clone());
                let piece = name_piece(key, param);
                // A choice named like the key that follows it says that key once:
                // `strategy = "stand_at"` then `stand_at = 12` is `stand_at-12`, not
                // `stand_at-stand_at-12`.
                let repeats_key =
                    variant.name == *key || variant.name.ends_with(&format!("-{key}"));
                let name = match (variant.name.is_empty(), piece.strip_prefix(*key)) {
                    (true, _) => piece,
                    (false, Some(rest)) if repeats_key && rest.starts_with('-') => {
                        format!("{}{rest}", variant.name)
                    }
                    (false, _) => format!("{}-{piece}", variant.name),
                };
                let mut own = variant.own.clone();
                own.push((key, at.clone()));
                next.push(Draft {
                    name,
                    params,
                    span: span.clone(),
                    own,
                });
            }
        }
        variants = next;
    }
    for variant in &mut variants {
        if variant.name.is_empty() {
            variant.name = lone_name(spec, study);
        }
        if let Some(problem) = missing_value_problem(&variant.name) {
            let at = block.values().next().map_or(0..0, |values| values.span());
            return Err(locate.error(at, problem));
        }
        schema
            .check(&variant.params)
            .map_err(|error| locate.error(blame(spec, error.key, None), error.message))?;
    }
    Ok(variants)
}

/// The name of the one variant of a spec that sweeps nothing (its parameters all set in
/// `[params]`): the spec's `name`, or the game's where that name is not a variant name pandas
/// or R can read back. The name is not part of the variant's identity, so its random stream
/// does not depend on it.
fn lone_name(spec: &ExperimentSpec, study: &dyn GameParams) -> String {
    match spec.name.get_ref() {
        toml::Value::String(name) if missing_value_problem(name).is_none() => name.clone(),
        _ => study.game().to_string(),
    }
}

/// The piece of a swept variant's name for `key` = `value`: a choice by itself, anything else
/// after its key, since a number alone says nothing of what it sets (`stand_at-12`, not `12`).
pub fn name_piece(key: &str, value: &ParamValue) -> String {
    match value {
        ParamValue::Choice(name) => name.to_string(),
        other => format!("{key}-{}", value_label(other)),
    }
}

/// A value as a piece of a variant name: numbers and choices as written, anything else (a
/// list, a table, a string, a boolean) with every run of characters a name may not hold
/// turned into one `_` (`[[47, 26], [1, 38]]` gives `47_26_1_38`).
fn value_label(value: &ParamValue) -> String {
    if let ParamValue::Int(_) | ParamValue::Float(_) | ParamValue::Choice(_) = value {
        return value.to_string();
    }
    let mut label = String::new();
    for c in value.to_string().chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-') {
            label.push(c);
        } else if !label.is_empty() && !label.ends_with('_') {
            label.push('_');
        }
    }
    let label = label.trim_end_matches('_');
    if label.is_empty() {
        "empty".to_string()
    } else {
        label.to_string()
    }
}

pub(super) fn listed_variants(
    spec: &ExperimentSpec,
    study: &dyn GameParams,
    fixed: &ParamSet,
    max_variants: i64,
    locate: &Locator,
) -> Result<Vec<Draft>, SpecError> {
    let schema = study.params();
    let defs = schema.declared();
    if let Some(first) = spec.variant.first() {
        check_count(
            spec.variant.len() as u128,
            "the [[variant]] tables".to_string(),
            max_variants,
            spec.max_variants.is_some(),
            first.span(),
            locate,
        )?;
    }
    let mut variants = Vec::with_capacity(spec.variant.len());
    for table in &spec.variant {
        let mut params = fixed.clone();
        let mut name = None;
        let mut labels = Vec::new();
        let mut own = Vec::new();
        for (key, value) in table.get_ref() {
            if key == "name" {
                let given = match value.get_ref() {
                    toml::Value::String(text) if !text.trim().is_empty() => text.as_str(),
                    _ => {
                        return Err(locate
                            .error(value.span(), "a variant's name must be a non-empty string"))
                    }
                };
                let purpose = "it appears in tables, reports and --variant";
                if let Some(problem) = padding_problem("variant name", given, purpose)
                    .or_else(|| {
                        name_problem(
                            given,
                            |c| matches!(c, '_' | '-' | '.' | '+' | ' '),
                            "spaces, '_', '-', '.' and '+'",
                            purpose,
                        )
                    })
                    .or_else(|| missing_value_problem(given))
                {
                    return Err(locate.error(value.span(), problem));
                }
                name = Some(given.to_string());
                continue;
            }
            let def = find_param(defs, study.game(), key, "[[variant]]")
                .map_err(|message| locate.error(value.span(), message))?;
            let param = def
                .parse(&raw_value(value.get_ref()))
                .map_err(|message| locate.error(value.span(), message))?;
            labels.push(value_label(&param));
            own.push((def.name, value.span()));
            params.set(key, param);
        }
        schema.check(&params).map_err(|error| {
            locate.error(blame(spec, error.key, Some(table.get_ref())), error.message)
        })?;
        let name = match name {
            Some(name) => name,
            None if labels.is_empty() => {
                return Err(locate.error(
                    table.span(),
                    "a [[variant]] table must set a name or at least one parameter",
                ))
            }
            None => labels.join("-"),
        };
        variants.push(Draft {
            name,
            params,
            span: Some(table.span()),
            own,
        });
    }
    Ok(variants)
}
