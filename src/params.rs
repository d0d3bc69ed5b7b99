//! Game parameters as declared by each game and as set by a spec: names, kinds, ranges,
//! defaults, and the validated values a variant carries.

use std::fmt;

/// What values a parameter accepts.
#[derive(Clone, Copy, Debug)]
pub enum ParamKind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
    },
    /// A number in `min..=max`.
    Float {
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
    },
    /// One of a fixed list of names.
    Choice(&'static [&'static str]),
}

/// A parameter a game accepts in `[params]`, `[sweep]` or `[[variant]]`.
#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    /// Key in the spec.
    pub name: &'static str,
    /// Accepted values.
    pub kind: ParamKind,
    /// Value used when the spec does not set it.
    pub default: ParamValue,
    /// One-line description for `experiment list`.
    pub description: &'static str,
}

/// A validated parameter value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    /// A whole number.
    Int(i64),
    /// A real number.
    Float(f64),
    /// One of the parameter's choices.
    Choice(&'static str),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(value) => write!(f, "{value}"),
            ParamValue::Float(value) => write!(f, "{value}"),
            ParamValue::Choice(name) => f.write_str(name),
        }
    }
}

/// A raw value from the spec, before it is checked against a [`ParamDef`].
#[derive(Clone, Debug, PartialEq)]
pub enum RawValue {
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A string literal.
    Text(String),
    /// Anything else (arrays, tables, booleans, dates), described for the error message.
    Other(&'static str),
}

impl ParamDef {
    /// Checks a raw value against this parameter, explaining what is expected when it fails.
    pub fn parse(&self, raw: &RawValue) -> Result<ParamValue, String> {
        match (self.kind, raw) {
            (ParamKind::Int { min, max }, RawValue::Int(value)) => {
                if (min..=max).contains(value) {
                    Ok(ParamValue::Int(*value))
                } else {
                    Err(format!(
                        "{} = {value} is out of range (expected a whole number from {min} to {max})",
                        self.name
                    ))
                }
            }
            (ParamKind::Float { min, max }, RawValue::Int(_) | RawValue::Float(_)) => {
                let value = match raw {
                    RawValue::Int(value) => *value as f64,
                    RawValue::Float(value) => *value,
                    _ => unreachable!("matched above"),
                };
                if value.is_finite() && (min..=max).contains(&value) {
                    Ok(ParamValue::Float(value))
                } else {
                    Err(format!(
                        "{} = {value} is out of range (expected a number from {min} to {max})",
                        self.name
                    ))
                }
            }
            (ParamKind::Choice(choices), RawValue::Text(text)) => choices
                .iter()
                .find(|choice| **choice == text.as_str())
                .map(|choice| ParamValue::Choice(choice))
                .ok_or_else(|| {
                    format!(
                        "unknown {} '{text}' (expected one of: {})",
                        self.name,
                        choices.join(", ")
                    )
                }),
            (kind, raw) => Err(format!(
                "{} must be {}, not {}",
                self.name,
                kind.expectation(),
                raw.describe()
            )),
        }
    }
}

impl ParamKind {
    /// What a value of this kind looks like, for messages and `experiment list`.
    pub fn expectation(&self) -> String {
        match self {
            ParamKind::Int { min, max } => format!("a whole number from {min} to {max}"),
            ParamKind::Float { min, max } => format!("a number from {min} to {max}"),
            ParamKind::Choice(choices) => format!("one of: {}", choices.join(", ")),
        }
    }
}

impl RawValue {
    fn describe(&self) -> String {
        match self {
            RawValue::Int(value) => format!("the integer {value}"),
            RawValue::Float(value) => format!("the number {value}"),
            RawValue::Text(text) => format!("the string '{text}'"),
            RawValue::Other(kind) => format!("a {kind}"),
        }
    }
}

/// A problem with a combination of parameter values, blamed on the key to fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The parameter whose line the error points at.
    pub key: &'static str,
    /// What is wrong and what would be right.
    pub message: String,
}

/// Every parameter of a game with its value for one variant, in the game's declared order.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSet {
    values: Vec<(&'static str, ParamValue)>,
}

impl ParamSet {
    /// All parameters at their defaults.
    pub fn defaults(defs: &[ParamDef]) -> ParamSet {
        ParamSet {
            values: defs.iter().map(|def| (def.name, def.default)).collect(),
        }
    }

    /// Sets a declared parameter.
    ///
    /// # Panics
    /// If `name` is not one of the game's parameters (callers look names up first).
    pub fn set(&mut self, name: &str, value: ParamValue) {
        let slot = self
            .values
            .iter_mut()
            .find(|(key, _)| *key == name)
            .unwrap_or_else(|| panic!("parameter {name} is not declared"));
        slot.1 = value;
    }

    /// The value of a declared parameter.
    ///
    /// # Panics
    /// If `name` is not one of the game's parameters: a programming error in a game module.
    pub fn get(&self, name: &str) -> ParamValue {
        self.values
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| *value)
            .unwrap_or_else(|| panic!("parameter {name} is not declared"))
    }

    /// An integer parameter.
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            ParamValue::Int(value) => value,
            other => panic!("parameter {name} is {other:?}, not an integer"),
        }
    }

    /// A real parameter.
    pub fn float(&self, name: &str) -> f64 {
        match self.get(name) {
            ParamValue::Float(value) => value,
            ParamValue::Int(value) => value as f64,
            other => panic!("parameter {name} is {other:?}, not a number"),
        }
    }

    /// A choice parameter.
    pub fn choice(&self, name: &str) -> &'static str {
        match self.get(name) {
            ParamValue::Choice(value) => value,
            other => panic!("parameter {name} is {other:?}, not a choice"),
        }
    }

    /// Every (name, value) pair in declared order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, ParamValue)> + '_ {
        self.values.iter().copied()
    }
}
