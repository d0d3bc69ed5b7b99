//! Experiment specs: raw TOML ([`ExperimentSpec`]) turned into a validated [`Experiment`] with
//! its expanded variants, with errors that name the file, line and key.
//!
//! The spec layer knows games only through [`GameParams`]: the caller passes the games a spec
//! may name (see `crate::registry`), so this module imports no study.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

use crate::params::{GameParams, ParamDef, ParamSet, RawValue};
use crate::rng::variant_stream;

mod names;
use names::{description_problem, missing_value_problem, name_problem, padding_problem};

/// The only spec format version this engine reads.
pub const SPEC_VERSION: i64 = 1;
/// Most trials per variant a spec may ask for.
pub const MAX_TRIALS: i64 = 1_000_000_000_000;
/// Largest spec file read, in bytes (1 MiB).
pub const MAX_SPEC_BYTES: usize = 1 << 20;
/// Most variants a spec may expand to unless it sets `max_variants`.
pub const DEFAULT_MAX_VARIANTS: i64 = 1_000;
/// Most variants any spec may expand to, whatever its `max_variants`.
pub const MAX_VARIANTS: i64 = 100_000;
/// Longest experiment or variant name, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// A spec that cannot be used, located in its file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", path.display(), line.map(|line| format!(":{line}")).unwrap_or_default())]
pub struct SpecError {
    /// The spec file.
    pub path: PathBuf,
    /// The 1-based line, when the problem has a place in the file.
    pub line: Option<usize>,
    /// What is wrong and what would be right.
    pub message: String,
}

/// A value as written in the spec, with its place in the file.
type Value = Spanned<toml::Value>;

/// The spec as written: TOML deserialised with no checks beyond known keys and the shape of the
/// tables; every value's type is checked in [`validate`] so that errors name the key.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentSpec {
    /// Format version; must be [`SPEC_VERSION`].
    pub version: Value,
    /// Name of the experiment, used for the default output folder.
    pub name: Value,
    /// What question the experiment answers.
    pub description: Option<Value>,
    /// Which game to play (see `experiment list`).
    pub game: Value,
    /// Master seed of every trial's random stream.
    pub seed: Value,
    /// Trials per variant.
    pub trials: Value,
    /// Most variants the spec may expand to (default [`DEFAULT_MAX_VARIANTS`]).
    pub max_variants: Option<Value>,
    /// Fixed game parameters for every variant.
    #[serde(default)]
    pub params: IndexMap<String, Value>,
    /// Parameters to vary: the variants are the product of these lists, in key order.
    #[serde(default)]
    pub sweep: IndexMap<String, Spanned<Vec<Value>>>,
    /// Variants listed one by one, where a product does not fit.
    #[serde(default)]
    pub variant: Vec<Spanned<IndexMap<String, Value>>>,
    /// Output settings.
    #[serde(default)]
    pub output: OutputSpec,
}

/// The optional `[output]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Table formats to write: any of `csv`, `parquet` (default both).
    pub formats: Option<Spanned<Vec<Value>>>,
    /// Whether to draw plots (default true).
    pub plots: Option<Value>,
    /// Whether to write the self-contained `report.html` (default true).
    pub html: Option<Value>,
}

/// Table formats the engine writes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr, strum::VariantNames,
)]
#[strum(serialize_all = "lowercase")]
pub enum TableFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// Apache Parquet.
    Parquet,
}

impl TableFormat {
    /// File extension and spec name.
    pub fn extension(self) -> &'static str {
        self.into()
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
    /// Position in the spec's full expansion (for display only).
    pub index: usize,
    /// The random stream of the variant's trials, derived from its identity (the game and its
    /// canonical parameter values, see [`variant_stream`]), so a variant gives the same numbers
    /// in any spec that contains it, wherever it stands.
    pub stream: u64,
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
    /// The game (its name and parameters; the registry maps it to its study).
    pub study: &'static dyn GameParams,
    /// Master seed.
    pub seed: u64,
    /// Trials per variant.
    pub trials: u64,
    /// The variants to run, in spec order.
    pub variants: Vec<Variant>,
    /// Whether `--variant` chose only some of the spec's variants (see
    /// [`Experiment::select_variants`]): a command that reproduces the run must name them.
    pub selected: bool,
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

/// Reads and validates the spec at `path`, a spec for one of `games`.
pub fn load(path: &Path, games: &[&'static dyn GameParams]) -> Result<Experiment, SpecError> {
    let unreadable = |err: std::io::Error| SpecError {
        path: path.to_path_buf(),
        line: None,
        message: format!("cannot read the spec: {err}"),
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| {
            // One byte past the cap is enough to know the file is too large.
            file.take(MAX_SPEC_BYTES as u64 + 1).read_to_end(&mut bytes)
        })
        .map_err(unreadable)?;
    parse_bytes(path, &bytes, games)
}

/// Validates spec bytes as if read from `path`: at most [`MAX_SPEC_BYTES`] of UTF-8 TOML.
pub fn parse_bytes(
    path: &Path,
    bytes: &[u8],
    games: &[&'static dyn GameParams],
) -> Result<Experiment, SpecError> {
    let error = |line, message: String| SpecError {
        path: path.to_path_buf(),
        line,
        message,
    };
    if bytes.len() > MAX_SPEC_BYTES {
        return Err(error(
            None,
            format!(
                "the spec is larger than {MAX_SPEC_BYTES} bytes (1 MiB), the most a spec may \
                 have; a spec is a short text file: is this the right file?"
            ),
        ));
    }
    let source = std::str::from_utf8(bytes).map_err(|err| {
        let valid = &bytes[..err.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        error(
            Some(line),
            "the spec is not UTF-8 text: is this the right file?".to_string(),
        )
    })?;
    parse(path, source, games)
}

/// Validates spec text as if read from `path`.
pub fn parse(
    path: &Path,
    source: &str,
    games: &[&'static dyn GameParams],
) -> Result<Experiment, SpecError> {
    let locate = Locator { path, source };
    let spec: ExperimentSpec = toml::from_str(source).map_err(|err| {
        let span = err.span();
        let start = span.as_ref().map(|span| span.start);
        let written = span.and_then(|span| source.get(span));
        SpecError {
            path: path.to_path_buf(),
            line: start.map(|start| locate.line(start)),
            message: plain_toml_message(
                err.message().trim(),
                start.and_then(|start| locate.key_at(start)),
                written,
            ),
        }
    })?;
    validate(spec, &locate, games)
}

/// Turns byte offsets into line numbers and builds located errors.
struct Locator<'a> {
    path: &'a Path,
    source: &'a str,
}

impl Locator<'_> {
    fn line(&self, offset: usize) -> usize {
        let end = floor_char_boundary(self.source, offset);
        self.source[..end].bytes().filter(|&b| b == b'\n').count() + 1
    }

    /// The key whose value starts at `offset`: the text before `=` on that line, or the table
    /// named by a `[header]` line.
    fn key_at(&self, offset: usize) -> Option<String> {
        let offset = floor_char_boundary(self.source, offset);
        let start = self.source[..offset].rfind('\n').map_or(0, |i| i + 1);
        let end = self.source[offset..]
            .find('\n')
            .map_or(self.source.len(), |i| offset + i);
        let line = self.source[start..end].trim();
        let key = match line.split_once('=') {
            Some((key, _)) if start + key.len() <= offset => key,
            _ => line.trim_start_matches('[').split(']').next()?,
        };
        let key = key.trim().trim_matches('"');
        let plain = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        plain.then(|| key.to_string())
    }

    fn error(&self, span: Range<usize>, message: impl Into<String>) -> SpecError {
        SpecError {
            path: self.path.to_path_buf(),
            line: Some(self.line(span.start)),
            message: message.into(),
        }
    }
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// Rewords the TOML reader's messages about types and numbers in plain words with the key:
/// `invalid type: string "one", expected a boolean` becomes
/// `plots must be true or false, not the string 'one'`.
fn plain_toml_message(message: &str, key: Option<String>, written: Option<&str>) -> String {
    let subject = key.as_deref().unwrap_or("a value here");
    if message.contains("value was too large") {
        let number = written.map_or(String::new(), |text| format!(" = {}", text.trim()));
        return format!(
            "{subject}{number} is too large: a whole number here can be at most {}",
            i64::MAX
        );
    }
    let rest = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "));
    let Some((found, expected)) = rest.and_then(|rest| rest.rsplit_once(", expected ")) else {
        return message.to_string();
    };
    // Integers past i64 reach serde as i128 (or as a failed i64): say so in plain words.
    if let Some(number) = found
        .strip_prefix("integer `")
        .and_then(|rest| rest.split('`').next())
        .filter(|_| found.contains(" as i128") || expected == "i64")
    {
        return if number.starts_with('-') {
            format!(
                "{subject} = {number} is too small: a whole number here can be at least {}",
                i64::MIN
            )
        } else {
            format!(
                "{subject} = {number} is too large: a whole number here can be at most {}",
                i64::MAX
            )
        };
    }
    let expected = match expected {
        "a sequence" => "a list",
        "a map" => "a table",
        "a boolean" => "true or false",
        "i64" => "a whole number",
        other if other.starts_with("struct ") => "a table",
        other => other,
    };
    format!("{subject} must be {expected}, not {}", plain_found(found))
}

/// `string "one"` -> `the string 'one'`, ``integer `5` `` -> `the integer 5`, `map` -> `a table`.
fn plain_found(found: &str) -> String {
    let unquote = |text: &str| text.trim_matches('`').to_string();
    if let Some(text) = found.strip_prefix("string ") {
        let inner = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
        return format!("the string '{}'", inner.unwrap_or(text));
    }
    if let Some(number) = found.strip_prefix("integer ") {
        return format!("the integer {}", unquote(number));
    }
    if let Some(number) = found.strip_prefix("floating point ") {
        return format!("the number {}", unquote(number));
    }
    if let Some(value) = found.strip_prefix("boolean ") {
        return format!("the boolean {}", unquote(value));
    }
    match found {
        "sequence" => "a list".to_string(),
        "map" => "a table".to_string(),
        other => other.to_string(),
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

/// A whole number in `range`, or an error naming `key` in plain words.
fn whole(
    locate: &Locator,
    key: &str,
    value: &Value,
    range: Option<(i64, i64)>,
) -> Result<i64, SpecError> {
    let expected = match range {
        Some((min, max)) => format!("a whole number from {min} to {max}"),
        None => "a whole number".to_string(),
    };
    match value.get_ref() {
        toml::Value::Integer(number) => match range {
            Some((min, max)) if !(min..=max).contains(number) => {
                Err(locate.error(value.span(), format!("{key} = {number} must be {expected}")))
            }
            _ => Ok(*number),
        },
        other => Err(locate.error(
            value.span(),
            format!(
                "{key} must be {expected}, not {}",
                raw_value(other).describe()
            ),
        )),
    }
}

/// A string, or an error naming `key` in plain words.
fn text<'a>(locate: &Locator, key: &str, value: &'a Value) -> Result<&'a str, SpecError> {
    match value.get_ref() {
        toml::Value::String(text) => Ok(text),
        other => Err(locate.error(
            value.span(),
            format!(
                "{key} must be a string, not {}",
                raw_value(other).describe()
            ),
        )),
    }
}

fn find_param<'a>(
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
struct Draft {
    name: String,
    params: ParamSet,
    span: Option<Range<usize>>,
}

fn validate(
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

    let drafts = if !spec.variant.is_empty() {
        listed_variants(&spec, study, &fixed, max_variants, locate)?
    } else {
        swept_variants(&spec, study, &fixed, max_variants, locate)?
    };
    let variants = identify(&spec, study, drafts, locate)?;

    Ok(Experiment {
        path: locate.path.to_path_buf(),
        source: locate.source.to_string(),
        name,
        description,
        study,
        seed,
        trials,
        variants,
        selected: false,
        output: output_settings(&spec.output, locate)?,
    })
}

/// The place to blame for a problem with parameter `key`: where the spec sets or sweeps it.
fn blame(
    spec: &ExperimentSpec,
    key: &str,
    table: Option<&IndexMap<String, Value>>,
) -> Range<usize> {
    table
        .and_then(|table| table.get(key))
        .map(|value| value.span())
        .or_else(|| spec.sweep.get(key).map(|values| values.span()))
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

/// Refuses an experiment of more than `limit` variants, before expanding it.
fn check_count(
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

fn swept_variants(
    spec: &ExperimentSpec,
    study: &dyn GameParams,
    fixed: &ParamSet,
    max_variants: i64,
    locate: &Locator,
) -> Result<Vec<Draft>, SpecError> {
    let schema = study.params();
    let defs = schema.declared();
    let mut lists = Vec::with_capacity(spec.sweep.len());
    for (key, values) in &spec.sweep {
        let def = find_param(defs, study.game(), key, "[sweep]")
            .map_err(|message| locate.error(values.span(), message))?;
        if values.get_ref().is_empty() {
            return Err(locate.error(values.span(), format!("sweep '{key}' lists no values")));
        }
        let mut parsed = Vec::with_capacity(values.get_ref().len());
        let mut seen = HashSet::with_capacity(values.get_ref().len());
        for value in values.get_ref() {
            let param = def
                .parse(&raw_value(value.get_ref()))
                .map_err(|message| locate.error(value.span(), message))?;
            if !seen.insert(param.key()) {
                return Err(
                    locate.error(value.span(), format!("sweep '{key}' lists {param} twice"))
                );
            }
            parsed.push(param);
        }
        lists.push((def.name, parsed));
    }
    if let Some(first) = spec.sweep.values().next() {
        let count = lists.iter().fold(1u128, |product, (_, values)| {
            product.saturating_mul(values.len() as u128)
        });
        let factors: Vec<String> = lists
            .iter()
            .map(|(key, values)| format!("{} {key}", values.len()))
            .collect();
        check_count(
            count,
            format!("the sweep's lists ({})", factors.join(" × ")),
            max_variants,
            spec.max_variants.is_some(),
            first.span(),
            locate,
        )?;
    }

    let mut variants = vec![Draft {
        name: String::new(),
        params: fixed.clone(),
        span: None,
    }];
    for (key, parsed) in &lists {
        let mut next = Vec::with_capacity(variants.len() * parsed.len());
        for variant in &variants {
            for param in parsed {
                let mut params = variant.params.clone();
                params.set(key, *param);
                let name = if variant.name.is_empty() {
                    param.to_string()
                } else {
                    format!("{}-{param}", variant.name)
                };
                next.push(Draft {
                    name,
                    params,
                    span: None,
                });
            }
        }
        variants = next;
    }
    for variant in &mut variants {
        if variant.name.is_empty() {
            variant.name = "default".to_string();
        }
        if let Some(problem) = missing_value_problem(&variant.name) {
            let span = spec
                .sweep
                .values()
                .next()
                .map_or(0..0, |values| values.span());
            return Err(locate.error(span, problem));
        }
        schema
            .check(&variant.params)
            .map_err(|error| locate.error(blame(spec, error.key, None), error.message))?;
    }
    Ok(variants)
}

fn listed_variants(
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
            params.set(key, param);
            labels.push(param.to_string());
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
        });
    }
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

impl Experiment {
    /// Keeps only the named variants (in spec order), failing on a name the spec lacks.
    pub fn select_variants(&mut self, names: &[String]) -> Result<(), String> {
        if names.is_empty() {
            return Ok(());
        }
        let known: HashSet<&str> = self.variants.iter().map(|v| v.name.as_str()).collect();
        if let Some(missing) = names.iter().find(|name| !known.contains(name.as_str())) {
            let known: Vec<&str> = self.variants.iter().map(|v| v.name.as_str()).collect();
            return Err(format!(
                "{}: no variant named '{missing}' (expected one of: {})",
                self.path.display(),
                known.join(", ")
            ));
        }
        let wanted: HashSet<&str> = names.iter().map(String::as_str).collect();
        let before = self.variants.len();
        self.variants
            .retain(|variant| wanted.contains(variant.name.as_str()));
        self.selected |= self.variants.len() < before;
        Ok(())
    }
}
