//! Experiment specs: raw TOML ([`ExperimentSpec`]) turned into a validated [`Experiment`] with
//! its expanded variants, with errors that name the file, line and key.

use std::fmt;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

use crate::params::{ParamDef, ParamSet, RawValue};
use crate::registry::Registry;
use crate::studies::Study;

/// The only spec format version this engine reads.
pub const SPEC_VERSION: i64 = 1;
/// Most trials per variant a spec may ask for.
pub const MAX_TRIALS: i64 = 1_000_000_000_000;

/// A spec that cannot be used, located in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    /// The spec file.
    pub path: PathBuf,
    /// The 1-based line, when the problem has a place in the file.
    pub line: Option<usize>,
    /// What is wrong and what would be right.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for SpecError {}

/// The spec as written: TOML deserialised with no checks beyond types and known keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentSpec {
    /// Format version; must be [`SPEC_VERSION`].
    pub version: Spanned<i64>,
    /// Name of the experiment, used for the default output folder.
    pub name: Spanned<String>,
    /// What question the experiment answers.
    #[serde(default)]
    pub description: String,
    /// Which game to play (see `experiment list`).
    pub game: Spanned<String>,
    /// Master seed of every trial's random stream.
    pub seed: Spanned<i64>,
    /// Trials per variant.
    pub trials: Spanned<i64>,
    /// Fixed game parameters for every variant.
    #[serde(default)]
    pub params: IndexMap<String, Spanned<toml::Value>>,
    /// Parameters to vary: the variants are the product of these lists, in key order.
    #[serde(default)]
    pub sweep: IndexMap<String, Spanned<Vec<Spanned<toml::Value>>>>,
    /// Variants listed one by one, where a product does not fit.
    #[serde(default)]
    pub variant: Vec<Spanned<IndexMap<String, Spanned<toml::Value>>>>,
    /// Output settings.
    #[serde(default)]
    pub output: OutputSpec,
}

/// The optional `[output]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Table formats to write: any of `csv`, `parquet` (default both).
    pub formats: Option<Spanned<Vec<String>>>,
    /// Whether to draw plots (default true).
    pub plots: Option<bool>,
    /// Whether to write the self-contained `report.html` (default true).
    pub html: Option<bool>,
}

/// Table formats the engine writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// Apache Parquet.
    Parquet,
}

impl TableFormat {
    /// File extension and spec name.
    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Csv => "csv",
            TableFormat::Parquet => "parquet",
        }
    }
}

/// Validated output settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputSettings {
    /// Formats each table is written in.
    pub formats: Vec<TableFormat>,
    /// Whether plots are drawn.
    pub plots: bool,
    /// Whether `report.html` is written.
    pub html: bool,
}

/// One combination of parameters to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// Position in the spec's full expansion; part of every trial's random stream, so a
    /// variant's results do not depend on which other variants run beside it.
    pub index: usize,
    /// The swept values joined with `-`, or the name given in a `[[variant]]` table.
    pub name: String,
    /// Every game parameter's value.
    pub params: ParamSet,
}

/// A validated experiment, ready to run.
pub struct Experiment {
    /// The spec file it came from.
    pub path: PathBuf,
    /// The spec's text, recorded in the manifest.
    pub source: String,
    /// Name of the experiment.
    pub name: String,
    /// What question the experiment answers.
    pub description: String,
    /// The game and its analysis.
    pub study: &'static dyn Study,
    /// Master seed.
    pub seed: u64,
    /// Trials per variant.
    pub trials: u64,
    /// The variants to run, in spec order.
    pub variants: Vec<Variant>,
    /// Output settings.
    pub output: OutputSettings,
}

impl fmt::Debug for Experiment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Experiment")
            .field("name", &self.name)
            .field("game", &self.study.game())
            .field("seed", &self.seed)
            .field("trials", &self.trials)
            .field("variants", &self.variants)
            .finish()
    }
}

/// Reads and validates the spec at `path`.
pub fn load(path: &Path, registry: &Registry) -> Result<Experiment, SpecError> {
    let source = std::fs::read_to_string(path).map_err(|err| SpecError {
        path: path.to_path_buf(),
        line: None,
        message: format!("cannot read the spec: {err}"),
    })?;
    parse(path, &source, registry)
}

/// Validates spec text as if read from `path`.
pub fn parse(path: &Path, source: &str, registry: &Registry) -> Result<Experiment, SpecError> {
    let locate = Locator { path, source };
    let spec: ExperimentSpec = toml::from_str(source).map_err(|err| SpecError {
        path: path.to_path_buf(),
        line: err.span().map(|span| locate.line(span.start)),
        message: err.message().trim().to_string(),
    })?;
    validate(spec, &locate, registry)
}

/// Turns byte offsets into line numbers and builds located errors.
struct Locator<'a> {
    path: &'a Path,
    source: &'a str,
}

impl Locator<'_> {
    fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.source.len());
        self.source[..end].bytes().filter(|&b| b == b'\n').count() + 1
    }

    fn error(&self, span: std::ops::Range<usize>, message: impl Into<String>) -> SpecError {
        SpecError {
            path: self.path.to_path_buf(),
            line: Some(self.line(span.start)),
            message: message.into(),
        }
    }
}

fn raw_value(value: &toml::Value) -> RawValue {
    match value {
        toml::Value::Integer(v) => RawValue::Int(*v),
        toml::Value::Float(v) => RawValue::Float(*v),
        toml::Value::String(v) => RawValue::Text(v.clone()),
        toml::Value::Boolean(_) => RawValue::Other("boolean"),
        toml::Value::Datetime(_) => RawValue::Other("date"),
        toml::Value::Array(_) => RawValue::Other("list"),
        toml::Value::Table(_) => RawValue::Other("table"),
    }
}

fn find_param<'a>(
    defs: &'a [ParamDef],
    study: &dyn Study,
    key: &str,
    table: &str,
) -> Result<&'a ParamDef, String> {
    defs.iter().find(|def| def.name == key).ok_or_else(|| {
        let names: Vec<&str> = defs.iter().map(|def| def.name).collect();
        format!(
            "unknown key '{key}' in {table} for game '{}' (expected one of: {})",
            study.game(),
            names.join(", ")
        )
    })
}

fn validate(
    spec: ExperimentSpec,
    locate: &Locator,
    registry: &Registry,
) -> Result<Experiment, SpecError> {
    if *spec.version.get_ref() != SPEC_VERSION {
        return Err(locate.error(
            spec.version.span(),
            format!(
                "unsupported version {} (this engine reads version {SPEC_VERSION})",
                spec.version.get_ref()
            ),
        ));
    }
    let name = spec.name.get_ref().trim().to_string();
    let name_ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !name_ok {
        return Err(locate.error(
            spec.name.span(),
            format!(
                "name '{name}' must be non-empty and use only letters, digits, '_' and '-' \
                 (it names the output folder)"
            ),
        ));
    }
    let study = registry.find(spec.game.get_ref()).ok_or_else(|| {
        locate.error(
            spec.game.span(),
            format!(
                "unknown game '{}' (expected one of: {})",
                spec.game.get_ref(),
                registry.names().join(", ")
            ),
        )
    })?;
    let seed = u64::try_from(*spec.seed.get_ref()).map_err(|_| {
        locate.error(
            spec.seed.span(),
            format!(
                "seed = {} must be a whole number from 0 to {}",
                spec.seed.get_ref(),
                i64::MAX
            ),
        )
    })?;
    let trials = *spec.trials.get_ref();
    if !(1..=MAX_TRIALS).contains(&trials) {
        return Err(locate.error(
            spec.trials.span(),
            format!("trials = {trials} must be a whole number from 1 to {MAX_TRIALS}"),
        ));
    }
    let defs = study.params();

    let mut fixed = ParamSet::defaults(defs);
    for (key, value) in &spec.params {
        let def = find_param(defs, study, key, "[params]")
            .map_err(|message| locate.error(value.span(), message))?;
        if spec.sweep.contains_key(key) {
            return Err(locate.error(
                value.span(),
                format!("'{key}' is set in [params] and swept in [sweep]: keep one"),
            ));
        }
        let parsed = def
            .parse(&raw_value(value.get_ref()))
            .map_err(|message| locate.error(value.span(), message))?;
        fixed.set(key, parsed);
    }

    if !spec.sweep.is_empty() && !spec.variant.is_empty() {
        return Err(locate.error(
            spec.variant[0].span(),
            "use either [sweep] or [[variant]] tables, not both",
        ));
    }

    let mut variants = if !spec.variant.is_empty() {
        listed_variants(&spec, study, &fixed, locate)?
    } else {
        swept_variants(&spec, study, &fixed, locate)?
    };
    for (index, variant) in variants.iter_mut().enumerate() {
        variant.index = index;
    }
    for (i, variant) in variants.iter().enumerate() {
        if variants[..i].iter().any(|other| other.name == variant.name) {
            return Err(SpecError {
                path: locate.path.to_path_buf(),
                line: None,
                message: format!("two variants are both named '{}'", variant.name),
            });
        }
    }

    Ok(Experiment {
        path: locate.path.to_path_buf(),
        source: locate.source.to_string(),
        name,
        description: spec.description.trim().to_string(),
        study,
        seed,
        trials: trials as u64,
        variants,
        output: output_settings(&spec.output, locate)?,
    })
}

fn swept_variants(
    spec: &ExperimentSpec,
    study: &dyn Study,
    fixed: &ParamSet,
    locate: &Locator,
) -> Result<Vec<Variant>, SpecError> {
    let defs = study.params();
    let mut variants = vec![Variant {
        index: 0,
        name: String::new(),
        params: fixed.clone(),
    }];
    for (key, values) in &spec.sweep {
        let def = find_param(defs, study, key, "[sweep]")
            .map_err(|message| locate.error(values.span(), message))?;
        if values.get_ref().is_empty() {
            return Err(locate.error(values.span(), format!("sweep '{key}' lists no values")));
        }
        let mut parsed = Vec::new();
        for value in values.get_ref() {
            let param = def
                .parse(&raw_value(value.get_ref()))
                .map_err(|message| locate.error(value.span(), message))?;
            if parsed.contains(&param) {
                return Err(
                    locate.error(value.span(), format!("sweep '{key}' lists {param} twice"))
                );
            }
            parsed.push(param);
        }
        variants = variants
            .into_iter()
            .flat_map(|variant| {
                parsed.iter().map(move |param| {
                    let mut params = variant.params.clone();
                    params.set(key, *param);
                    let name = if variant.name.is_empty() {
                        param.to_string()
                    } else {
                        format!("{}-{param}", variant.name)
                    };
                    Variant {
                        index: 0,
                        name,
                        params,
                    }
                })
            })
            .collect();
    }
    for variant in &mut variants {
        if variant.name.is_empty() {
            variant.name = "default".to_string();
        }
        study.check(&variant.params).map_err(|error| {
            let span = spec
                .params
                .get(error.key)
                .map(|value| value.span())
                .or_else(|| spec.sweep.get(error.key).map(|values| values.span()))
                .unwrap_or_else(|| spec.game.span());
            locate.error(span, error.message)
        })?;
    }
    Ok(variants)
}

fn listed_variants(
    spec: &ExperimentSpec,
    study: &dyn Study,
    fixed: &ParamSet,
    locate: &Locator,
) -> Result<Vec<Variant>, SpecError> {
    let defs = study.params();
    let mut variants = Vec::new();
    for table in &spec.variant {
        let mut params = fixed.clone();
        let mut name = None;
        let mut labels = Vec::new();
        for (key, value) in table.get_ref() {
            if key == "name" {
                match value.get_ref() {
                    toml::Value::String(text) if !text.trim().is_empty() => {
                        name = Some(text.trim().to_string())
                    }
                    _ => {
                        return Err(locate
                            .error(value.span(), "a variant's name must be a non-empty string"))
                    }
                }
                continue;
            }
            let def = find_param(defs, study, key, "[[variant]]")
                .map_err(|message| locate.error(value.span(), message))?;
            let param = def
                .parse(&raw_value(value.get_ref()))
                .map_err(|message| locate.error(value.span(), message))?;
            params.set(key, param);
            labels.push(param.to_string());
        }
        study.check(&params).map_err(|error| {
            let span = table
                .get_ref()
                .get(error.key)
                .or_else(|| spec.params.get(error.key))
                .map(|value| value.span())
                .unwrap_or_else(|| table.span());
            locate.error(span, error.message)
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
        variants.push(Variant {
            index: 0,
            name,
            params,
        });
    }
    Ok(variants)
}

fn output_settings(output: &OutputSpec, locate: &Locator) -> Result<OutputSettings, SpecError> {
    let formats = match &output.formats {
        None => vec![TableFormat::Csv, TableFormat::Parquet],
        Some(list) => {
            let mut formats = Vec::new();
            for name in list.get_ref() {
                let format = match name.as_str() {
                    "csv" => TableFormat::Csv,
                    "parquet" => TableFormat::Parquet,
                    other => {
                        return Err(locate.error(
                            list.span(),
                            format!("unknown format '{other}' (expected one of: csv, parquet)"),
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
                    "formats lists no format (expected one or more of: csv, parquet)",
                ));
            }
            formats
        }
    };
    Ok(OutputSettings {
        formats,
        plots: output.plots.unwrap_or(true),
        html: output.html.unwrap_or(true),
    })
}

impl Experiment {
    /// Keeps only the named variants (in spec order), failing on a name the spec lacks.
    pub fn select_variants(&mut self, names: &[String]) -> Result<(), String> {
        if names.is_empty() {
            return Ok(());
        }
        for name in names {
            if !self.variants.iter().any(|variant| &variant.name == name) {
                let known: Vec<&str> = self.variants.iter().map(|v| v.name.as_str()).collect();
                return Err(format!(
                    "{}: no variant named '{name}' (expected one of: {})",
                    self.path.display(),
                    known.join(", ")
                ));
            }
        }
        self.variants
            .retain(|variant| names.contains(&variant.name));
        Ok(())
    }
}
