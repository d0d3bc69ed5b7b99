//! From the spec as written to a validated [`Experiment`]: the top-level keys, the fixed
//! parameters, the variants checked together, and the output settings.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use indexmap::IndexMap;

use super::locate::Locator;
use super::names::{description_problem, name_problem, padding_problem};
use super::raw::{raw_value, text, whole, ExperimentSpec, OutputSpec, Value};
use super::unused;
use super::variants::{check_count, listed_variants, swept_variants};
use super::{
    Compare, Experiment, OutputSettings, SpecError, TableFormat, Variant, DEFAULT_MAX_VARIANTS,
    MAX_TRIALS, MAX_VARIANTS, SPEC_VERSION,
};
use crate::params::{GameParams, ParamDef, ParamSet};
use crate::rng::variant_stream;

pub(super) fn find_param<'a>(
    defs: &'a [ParamDef],
    game: &str,
    key: &str,
    table: &str,
) -> Result<&'a ParamDef, String> {
    defs.iter().find(|def| def.name == key).ok_or_else(|| {
        let names: Vec<&str> = defs.iter().map(|def| def.name).collect();
        format!(
            "unknown key '{key}' in {table} for game '{game}' (expected one of: {})",
            names.join(", ")
        )
    })
}

/// A variant before its stream is derived, with the place it was written.
pub(super) struct Draft {
    pub(super) name: String,
    pub(super) params: ParamSet,
    pub(super) span: Option<Range<usize>>,
    /// The keys its own sweep or `[[variant]]` table sets, each where it is written.
    pub(super) own: Vec<(&'static str, Range<usize>)>,
}

pub(super) fn validate(
    spec: ExperimentSpec,
    locate: &Locator,
    games: &[&'static dyn GameParams],
) -> Result<Experiment, SpecError> {
    let version = whole(locate, "version", &spec.version, None)?;
    if version != SPEC_VERSION {
        return Err(locate.error(
            spec.version.span(),
            format!("unsupported version {version} (this engine reads version {SPEC_VERSION})"),
        ));
    }
    let name = text(locate, "name", &spec.name)?.to_string();
    if let Some(problem) =
        padding_problem("name", &name, "it names the output folder").or_else(|| {
            name_problem(&name, |c| c == '_' || c == '-', "'_' and '-'", {
                "it names the output folder"
            })
        })
    {
        return Err(locate.error(spec.name.span(), problem));
    }
    let game_name = text(locate, "game", &spec.game)?;
    let study = games
        .iter()
        .copied()
        .find(|game| game.game() == game_name)
        .ok_or_else(|| {
            let names: Vec<&str> = games.iter().map(|game| game.game()).collect();
            locate.error(
                spec.game.span(),
                format!(
                    "unknown game '{game_name}' (expected one of: {})",
                    names.join(", ")
                ),
            )
        })?;
    let seed = whole(locate, "seed", &spec.seed, Some((0, i64::MAX)))? as u64;
    let trials = whole(locate, "trials", &spec.trials, Some((1, MAX_TRIALS)))? as u64;
    let max_variants = match &spec.max_variants {
        Some(value) => whole(locate, "max_variants", value, Some((1, MAX_VARIANTS)))?,
        None => DEFAULT_MAX_VARIANTS,
    };
    let description = match &spec.description {
        Some(value) => {
            let description = text(locate, "description", value)?;
            if let Some(problem) = description_problem(description) {
                return Err(locate.error(value.span(), problem));
            }
            description.trim().to_string()
        }
        None => String::new(),
    };
    let schema = study.params();
    let defs = schema.declared();

    let mut fixed = schema.defaults().map_err(|message| {
        locate.error(
            spec.game.span(),
            format!(
                "the parameters of game '{}' are declared wrongly: {message}",
                study.game()
            ),
        )
    })?;
    for (key, value) in &spec.params {
        let def = find_param(defs, study.game(), key, "[params]")
            .map_err(|message| locate.error(value.span(), message))?;
        let swept = spec.sweep.as_ref().map(|sweeps| sweeps.blocks());
        if let Some((_, span)) = swept
            .iter()
            .flatten()
            .find(|(block, _)| block.contains_key(key))
        {
            let table = if span.is_some() {
                "[[sweep]]"
            } else {
                "[sweep]"
            };
            return Err(locate.error(
                value.span(),
                format!("'{key}' is set in [params] and swept in {table}: keep one"),
            ));
        }
        let parsed = def
            .parse(&raw_value(value.get_ref()))
            .map_err(|message| locate.error(value.span(), message))?;
        fixed.set(key, parsed);
    }

    let mut drafts = swept_variants(&spec, study, &fixed, max_variants, locate)?;
    let swept = drafts.len();
    drafts.extend(listed_variants(&spec, study, &fixed, max_variants, locate)?);
    let blocks = spec
        .sweep
        .as_ref()
        .map_or(0, |sweeps| sweeps.blocks().len());
    if swept > 0 && (blocks > 1 || drafts.len() > swept) {
        check_count(
            drafts.len() as u128,
            format!(
                "the {blocks} sweeps and {} [[variant]] tables together",
                spec.variant.len()
            ),
            max_variants,
            spec.max_variants.is_some(),
            drafts
                .iter()
                .find_map(|draft| draft.span.clone())
                .unwrap_or_else(|| spec.game.span()),
            locate,
        )?;
    }
    unused::check(&spec, study, &drafts, locate)?;
    let mut variants = identify(&spec, study, drafts, locate)?;
    let compare = {
        let params: Vec<&ParamSet> = variants.iter().map(|v| &v.params).collect();
        super::compare::compare(spec.compare.as_ref(), study.game(), defs, &params, locate)?
    };
    for variant in &mut variants {
        variant.compare = compare.clone();
    }

    Ok(Experiment {
        path: locate.path.to_path_buf(),
        source: locate.source.to_string(),
        name,
        description,
        study,
        seed,
        trials,
        variants,
        variant_subset: false,
        output: output_settings(&spec.output, locate)?,
        design: super::design::design(spec.design.as_ref(), locate)?,
        compare,
        mode: super::Mode::of(
            super::stop::validate(spec.stop.as_ref(), locate)?,
            select(&spec, trials, locate)?,
        ),
    })
}

/// The place to blame for a problem with parameter `key`: where the spec sets or sweeps it.
pub(super) fn blame(
    spec: &ExperimentSpec,
    key: &str,
    table: Option<&IndexMap<String, Value>>,
) -> Range<usize> {
    table
        .and_then(|table| table.get(key))
        .map(|value| value.span())
        .or_else(|| {
            spec.sweep.as_ref().and_then(|sweeps| {
                sweeps
                    .blocks()
                    .into_iter()
                    .find_map(|(block, _)| block.get(key).map(|values| values.span()))
            })
        })
        .or_else(|| {
            spec.variant
                .iter()
                .find_map(|table| table.get_ref().get(key).map(|value| value.span()))
        })
        .or_else(|| spec.params.get(key).map(|value| value.span()))
        .unwrap_or_else(|| spec.game.span())
}

/// Names each variant's stream after its identity and checks the variants together: unique
/// names, no two with the same parameters, and the game's rules across variants.
fn identify(
    spec: &ExperimentSpec,
    study: &dyn GameParams,
    drafts: Vec<Draft>,
    locate: &Locator,
) -> Result<Vec<Variant>, SpecError> {
    let located = |span: &Option<Range<usize>>, message: String| match span {
        Some(span) => locate.error(span.clone(), message),
        None => SpecError {
            path: locate.path.to_path_buf(),
            line: None,
            message,
        },
    };
    let mut names = HashSet::with_capacity(drafts.len());
    let mut identities: HashMap<String, usize> = HashMap::with_capacity(drafts.len());
    let mut variants = Vec::with_capacity(drafts.len());
    for (index, draft) in drafts.iter().enumerate() {
        if !names.insert(draft.name.as_str()) {
            return Err(located(
                &draft.span,
                format!("two variants are both named '{}'", draft.name),
            ));
        }
        let canonical = draft.params.canonical();
        if let Some(&other) = identities.get(&canonical) {
            return Err(located(
                &draft.span,
                format!(
                    "variants '{}' and '{}' have the same parameters, so they would play the \
                     same games: keep one",
                    drafts[other].name, draft.name
                ),
            ));
        }
        variants.push(Variant {
            index,
            stream: variant_stream(study.game(), &canonical),
            name: draft.name.clone(),
            params: draft.params.clone(),
            compare: Compare::default(),
        });
        identities.insert(canonical, index);
    }
    let all: Vec<&ParamSet> = variants.iter().map(|variant| &variant.params).collect();
    study
        .params()
        .check_together(&all)
        .map_err(|error| locate.error(blame(spec, error.key, None), error.message))?;
    Ok(variants)
}

fn output_settings(output: &OutputSpec, locate: &Locator) -> Result<OutputSettings, SpecError> {
    let names = <TableFormat as strum::VariantNames>::VARIANTS.join(", ");
    let formats = match &output.formats {
        None => vec![TableFormat::Csv, TableFormat::Parquet],
        Some(list) => {
            let mut formats = Vec::new();
            for value in list.get_ref() {
                let format = match value.get_ref() {
                    toml::Value::String(name) => name.parse::<TableFormat>().map_err(|_| {
                        locate.error(
                            list.span(),
                            format!("unknown format '{name}' (expected one of: {names})"),
                        )
                    })?,
                    other => {
                        return Err(locate.error(
                            value.span(),
                            format!(
                                "formats must list format names ({names}), not {}",
                                raw_value(other).describe()
                            ),
                        ))
                    }
                };
                if !formats.contains(&format) {
                    formats.push(format);
                }
            }
            if formats.is_empty() {
                return Err(locate.error(
                    list.span(),
                    format!("formats lists no format (expected one or more of: {names})"),
                ));
            }
            formats
        }
    };
    let switch = |key: &str, value: &Option<Value>| match value {
        None => Ok(true),
        Some(value) => match value.get_ref() {
            toml::Value::Boolean(on) => Ok(*on),
            other => Err(locate.error(
                value.span(),
                format!(
                    "{key} must be true or false, not {}",
                    raw_value(other).describe()
                ),
            )),
        },
    };
    Ok(OutputSettings {
        formats,
        plots: switch("plots", &output.plots)?,
        html: switch("html", &output.html)?,
    })
}

/// The spec's `[select]`, which cannot be combined with `[stop]` (each decides on its own when
/// a variant stops).
fn select(
    spec: &ExperimentSpec,
    trials: u64,
    locate: &Locator,
) -> Result<Option<super::Select>, SpecError> {
    if let (Some(table), Some(_)) = (&spec.select, &spec.stop) {
        return Err(locate.error(
            table.span(),
            "[select] and [stop] cannot both be given: a selection stops each variant when it \
             is eliminated, a precision target when its interval is narrow enough; keep one",
        ));
    }
    super::select::validate(spec.select.as_ref(), trials, locate)
}
