//! Parameter values: the raw values a spec writes ([`RawValue`]), the validated values a
//! variant carries ([`ParamValue`]), and their JSON form, through which a game's typed
//! parameter struct is read and written.

use std::fmt;

/// A validated parameter value.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A whole number.
    Int(i64),
    /// A real number (finite, never negative zero).
    Float(f64),
    /// One of the parameter's choices.
    Choice(&'static str),
    /// `true` or `false`.
    Bool(bool),
    /// A string.
    Text(String),
    /// A list of values.
    List(Vec<ParamValue>),
    /// A table's values, in the declared order of its keys.
    Table(Vec<(&'static str, ParamValue)>),
}

/// Shown as written in a spec, except that a choice or a string alone is bare (`random`, not
/// `"random"`): within lists and tables strings are quoted as in TOML.
impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Choice(name) => f.write_str(name),
            ParamValue::Text(text) => f.write_str(text),
            other => f.write_str(&other.toml()),
        }
    }
}

impl ParamValue {
    /// The value as TOML would write it (`[[47, 26], [1, 38]]`, `{ low = 3 }`, `"text"`).
    pub fn toml(&self) -> String {
        match self {
            ParamValue::Int(value) => value.to_string(),
            ParamValue::Float(value) => value.to_string(),
            ParamValue::Bool(value) => value.to_string(),
            ParamValue::Choice(name) => format!("\"{}\"", name.escape_default()),
            ParamValue::Text(text) => format!("\"{}\"", text.escape_default()),
            ParamValue::List(items) => {
                let items: Vec<String> = items.iter().map(ParamValue::toml).collect();
                format!("[{}]", items.join(", "))
            }
            ParamValue::Table(pairs) => {
                let pairs: Vec<String> = pairs
                    .iter()
                    .map(|(key, value)| format!("{key} = {}", value.toml()))
                    .collect();
                format!("{{ {} }}", pairs.join(", "))
            }
        }
    }

    /// A key equal for equal values of one parameter (floats by their shortest exact text;
    /// `-0.0` never occurs).
    pub fn key(&self) -> String {
        self.toml()
    }

    /// The value as JSON, the form a typed parameter struct is read from.
    pub(super) fn json(&self) -> serde_json::Value {
        match self {
            ParamValue::Int(value) => serde_json::Value::from(*value),
            ParamValue::Float(value) => serde_json::Value::from(*value),
            ParamValue::Choice(name) => serde_json::Value::from(*name),
            ParamValue::Bool(value) => serde_json::Value::from(*value),
            ParamValue::Text(text) => serde_json::Value::from(text.as_str()),
            ParamValue::List(items) => {
                serde_json::Value::Array(items.iter().map(ParamValue::json).collect())
            }
            ParamValue::Table(pairs) => serde_json::Value::Object(
                pairs
                    .iter()
                    .map(|(key, value)| (key.to_string(), value.json()))
                    .collect(),
            ),
        }
    }
}

/// A raw value from the spec, before it is checked against a [`ParamDef`](super::ParamDef).
#[derive(Clone, Debug, PartialEq)]
pub enum RawValue {
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A string literal.
    Text(String),
    /// A boolean literal.
    Bool(bool),
    /// An array.
    List(Vec<RawValue>),
    /// A table, keys in the order written.
    Table(Vec<(String, RawValue)>),
    /// Anything else (dates), described for the error message.
    Other(&'static str),
}

impl RawValue {
    /// The value in plain words: `the string 'one'`, `the integer 5`, `a list`.
    pub fn describe(&self) -> String {
        match self {
            RawValue::Int(value) => format!("the integer {value}"),
            RawValue::Float(value) => format!("the number {value}"),
            RawValue::Text(text) => format!("the string '{}'", text.escape_debug()),
            RawValue::Bool(value) => format!("the boolean {value}"),
            RawValue::List(items) => format!("a list of {} items", items.len()),
            RawValue::Table(_) => "a table".to_string(),
            RawValue::Other(kind) => format!("a {kind}"),
        }
    }

    /// The raw form of a JSON value (a typed struct's field, serialised).
    pub(super) fn from_json(value: &serde_json::Value) -> RawValue {
        match value {
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(v) => RawValue::Int(v),
                None => RawValue::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            serde_json::Value::String(text) => RawValue::Text(text.clone()),
            serde_json::Value::Bool(value) => RawValue::Bool(*value),
            serde_json::Value::Null => RawValue::Other("missing value"),
            serde_json::Value::Array(items) => {
                RawValue::List(items.iter().map(RawValue::from_json).collect())
            }
            serde_json::Value::Object(pairs) => RawValue::Table(
                pairs
                    .iter()
                    .map(|(key, value)| (key.clone(), RawValue::from_json(value)))
                    .collect(),
            ),
        }
    }
}
