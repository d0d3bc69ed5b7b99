//! The spec as written: TOML deserialised into [`ExperimentSpec`] with no checks beyond known
//! keys and the shape of the tables, and the typed reads of its values with errors naming the key.

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

use super::locate::Locator;
use super::SpecError;
use crate::params::RawValue;

/// A value as written in the spec, with its place in the file.
pub(super) type Value = Spanned<toml::Value>;

/// The spec as written: TOML deserialised with no checks beyond known keys and the shape of the
/// tables; every value's type is checked in [`validate`](super::validate::validate) so that
/// errors name the key.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentSpec {
    /// Format version; must be [`SPEC_VERSION`](super::SPEC_VERSION).
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
    /// Most variants the spec may expand to (default
    /// [`DEFAULT_MAX_VARIANTS`](super::DEFAULT_MAX_VARIANTS)).
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

pub(super) fn raw_value(value: &toml::Value) -> RawValue {
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
pub(super) fn whole(
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
pub(super) fn text<'a>(
    locate: &Locator,
    key: &str,
    value: &'a Value,
) -> Result<&'a str, SpecError> {
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
