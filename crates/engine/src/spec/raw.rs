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
    /// Parameters to vary: one `[sweep]` table or several `[[sweep]]` tables, each the product
    /// of its lists and ranges in key order; the spec's variants are their union in order.
    #[serde(default)]
    pub sweep: Option<Sweeps>,
    /// Variants listed one by one, beside or instead of sweeps.
    #[serde(default)]
    pub variant: Vec<Spanned<IndexMap<String, Value>>>,
    /// Output settings.
    #[serde(default)]
    pub output: OutputSpec,
    /// How the variants get their random numbers (see `crate::design::Design`); its keys are
    /// checked in `spec::design` so that errors name the valid choices.
    #[serde(default)]
    pub design: Option<Spanned<IndexMap<String, Value>>>,
    /// Which pairs of variants are compared (see `spec::compare`); its keys are checked there
    /// so that errors name the valid choices.
    #[serde(default)]
    pub compare: Option<Spanned<IndexMap<String, Value>>>,
    /// A precision target: stop each variant once a metric's 95% interval is narrow enough.
    pub stop: Option<Spanned<super::stop::StopSpec>>,
    /// Choosing the best variant: eliminate the variants clearly not the best as the run goes.
    pub select: Option<Spanned<super::select::SelectSpec>>,
}

/// One sweep: each key's list of values or range table, in the order written.
pub type Sweep = IndexMap<String, Spanned<SweepValues>>;

/// A swept key's values as written: a list, or a range table (`from`, `to`, `step`).
#[derive(Debug)]
pub enum SweepValues {
    /// `key = [a, b, c]`.
    List(Vec<Value>),
    /// `key = { from = a, to = b, step = c }`.
    Range(IndexMap<String, Value>),
}

/// The spec's sweeps: one `[sweep]` table or several `[[sweep]]` tables.
#[derive(Debug)]
pub enum Sweeps {
    /// A single `[sweep]` table.
    One(Sweep),
    /// `[[sweep]]` tables, in the order written.
    Many(Vec<Spanned<Sweep>>),
}

impl Sweeps {
    /// Every sweep, in the order written, with the place of its `[[sweep]]` table if it has one.
    pub(super) fn blocks(&self) -> Vec<(&Sweep, Option<std::ops::Range<usize>>)> {
        match self {
            Sweeps::One(sweep) => vec![(sweep, None)],
            Sweeps::Many(sweeps) => sweeps
                .iter()
                .map(|sweep| (sweep.get_ref(), Some(sweep.span())))
                .collect(),
        }
    }
}

/// Reads a value that is either a list (`S`) or a table (`M`), keeping the spans inside.
fn list_or_table<'de, D, S, M, T>(
    deserializer: D,
    list: fn(S) -> T,
    table: fn(M) -> T,
    expecting: &'static str,
) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    S: Deserialize<'de>,
    M: Deserialize<'de>,
{
    use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
    use serde::de::{MapAccess, SeqAccess, Visitor};
    struct Either<S, M, T> {
        list: fn(S) -> T,
        table: fn(M) -> T,
        expecting: &'static str,
    }
    impl<'de, S: Deserialize<'de>, M: Deserialize<'de>, T> Visitor<'de> for Either<S, M, T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str(self.expecting)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
            S::deserialize(SeqAccessDeserializer::new(seq)).map(self.list)
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            M::deserialize(MapAccessDeserializer::new(map)).map(self.table)
        }
    }
    deserializer.deserialize_any(Either {
        list,
        table,
        expecting,
    })
}

impl<'de> Deserialize<'de> for SweepValues {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        list_or_table(
            deserializer,
            SweepValues::List,
            SweepValues::Range,
            "a list or a range table",
        )
    }
}

impl<'de> Deserialize<'de> for Sweeps {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        list_or_table(
            deserializer,
            Sweeps::Many,
            Sweeps::One,
            "a [sweep] table or [[sweep]] tables",
        )
    }
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
        toml::Value::Boolean(v) => RawValue::Bool(*v),
        toml::Value::Datetime(_) => RawValue::Other("date"),
        toml::Value::Array(items) => RawValue::List(items.iter().map(raw_value).collect()),
        toml::Value::Table(table) => RawValue::Table(
            table
                .iter()
                .map(|(key, value)| (key.clone(), raw_value(value)))
                .collect(),
        ),
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
        // TOML reads `1e6` and `1.0` as floats, already rounded to the nearest double: they are
        // refused (rather than taken when whole) so that no value is ever read other than
        // written, e.g. 9007199254740993.0.
        toml::Value::Float(number) => {
            let written = locate
                .source
                .get(value.span())
                .map_or_else(|| number.to_string(), |text| text.trim().to_string());
            let example = if number.fract() == 0.0 && number.abs() < 2f64.powi(53) {
                format!(", e.g. {key} = {}", *number as i64)
            } else {
                String::new()
            };
            Err(locate.error(
                value.span(),
                format!(
                    "{key} = {written} is a float (TOML reads a number with a decimal point or \
                     an exponent as one): {key} must be {expected}, written with digits only \
                     (underscores between them allowed){example}"
                ),
            ))
        }
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
