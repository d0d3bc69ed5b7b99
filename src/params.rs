//! Game parameters: each game's typed parameter struct ([`Params`]), the declaration a spec is
//! checked against ([`ParamDef`]: keys, kinds, ranges, choices), and the validated values a
//! variant carries ([`ParamSet`]).
//!
//! A game writes its parameters once, as a struct that derives serde's `Serialize` and
//! `Deserialize` (choices are enums whose names come from their derives) with a `Default`, and
//! declares each field's range and description in [`Params::DECLARED`]. The spec layer checks
//! each value alone against the declaration (so errors name the file, line and key), fills the
//! rest from `Default`, then turns the values into the struct and calls [`Params::validate`]
//! for rules that tie parameters together.

use std::fmt;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;

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
    /// One of a fixed list of names (from the choice enum's `strum::VariantNames`).
    Choice(&'static [&'static str]),
}

/// A parameter a game accepts in `[params]`, `[sweep]` or `[[variant]]`: one field of its
/// [`Params`] struct.
#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    /// Key in the spec, the same as the struct field's name.
    pub name: &'static str,
    /// Accepted values.
    pub kind: ParamKind,
    /// One-line description for `experiment list`.
    pub description: &'static str,
}

/// A validated parameter value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    /// A whole number.
    Int(i64),
    /// A real number (finite, never negative zero).
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

impl ParamValue {
    /// A hashable key equal for equal values (floats by their bits; `-0.0` never occurs).
    pub fn key(&self) -> (u8, u64, &'static str) {
        match *self {
            ParamValue::Int(value) => (0, value as u64, ""),
            ParamValue::Float(value) => (1, value.to_bits(), ""),
            ParamValue::Choice(name) => (2, 0, name),
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
                    // Adding zero turns -0.0 into 0.0, so equal values have one identity.
                    Ok(ParamValue::Float(value + 0.0))
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
    /// The value in plain words: `the string 'one'`, `the integer 5`, `a list`.
    pub fn describe(&self) -> String {
        match self {
            RawValue::Int(value) => format!("the integer {value}"),
            RawValue::Float(value) => format!("the number {value}"),
            RawValue::Text(text) => format!("the string '{text}'"),
            RawValue::Other(kind) => format!("a {kind}"),
        }
    }
}

/// A problem with a combination of parameter values, blamed on the key to fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParamError {
    /// The parameter whose line the error points at.
    pub key: &'static str,
    /// What is wrong and what would be right.
    pub message: String,
}

/// A game's parameters as one typed struct. Field names are the spec's keys; choices are enums
/// that derive serde with `rename_all = "snake_case"` (and strum's `VariantNames` for
/// [`ParamKind::Choice`]), so each name is written once.
pub trait Params: Serialize + DeserializeOwned + Default + 'static {
    /// Every field's key, kind and description, in the order variant names use them.
    const DECLARED: &'static [ParamDef];

    /// Checks the parameters together (each one alone is already in its declared range).
    fn validate(&self) -> Result<(), ParamError> {
        Ok(())
    }

    /// Checks rules across all the variants of one experiment (e.g. a setting they must share).
    fn validate_together(_variants: &[Self]) -> Result<(), ParamError> {
        Ok(())
    }
}

/// A game's [`Params`] seen without its type, as the spec layer needs it.
pub trait ParamSchema: Sync {
    /// The declared parameters.
    fn declared(&self) -> &'static [ParamDef];
    /// Every parameter at its default, or what is wrong with the declaration.
    fn defaults(&self) -> Result<ParamSet, String>;
    /// Turns one variant's values into the typed struct and validates it.
    fn check(&self, params: &ParamSet) -> Result<(), ParamError>;
    /// Checks rules across all the variants of one experiment.
    fn check_together(&self, variants: &[&ParamSet]) -> Result<(), ParamError>;
}

/// The [`ParamSchema`] of the parameter struct `P`; a study returns `&Schema::<P>::NEW`.
pub struct Schema<P>(PhantomData<fn() -> P>);

impl<P> Schema<P> {
    /// The schema (a zero-sized value).
    pub const NEW: Schema<P> = Schema(PhantomData);
}

impl<P: Params> ParamSchema for Schema<P> {
    fn declared(&self) -> &'static [ParamDef] {
        P::DECLARED
    }

    fn defaults(&self) -> Result<ParamSet, String> {
        ParamSet::from_typed(&P::default())
    }

    fn check(&self, params: &ParamSet) -> Result<(), ParamError> {
        params.typed::<P>()?.validate()
    }

    fn check_together(&self, variants: &[&ParamSet]) -> Result<(), ParamError> {
        let typed: Vec<P> = variants
            .iter()
            .map(|params| params.typed::<P>())
            .collect::<Result<_, _>>()?;
        P::validate_together(&typed)
    }
}

/// A game as the spec layer knows it: its name and its parameters.
pub trait GameParams: Sync {
    /// The game's name in specs (`game = "war"`).
    fn game(&self) -> &'static str;
    /// Its parameters (`&Schema::<ItsParams>::NEW`).
    fn params(&self) -> &'static dyn ParamSchema;
}

/// Every parameter of a game with its value for one variant, in the game's declared order.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSet {
    values: Vec<(&'static str, ParamValue)>,
}

impl ParamSet {
    /// The values of a typed parameter struct, each checked against its declaration.
    pub fn from_typed<P: Params>(params: &P) -> Result<ParamSet, String> {
        let serde_json::Value::Object(mut fields) =
            serde_json::to_value(params).map_err(|err| err.to_string())?
        else {
            return Err("the parameters do not serialise as a struct".to_string());
        };
        let mut values = Vec::with_capacity(P::DECLARED.len());
        for def in P::DECLARED {
            let value = fields
                .remove(def.name)
                .ok_or_else(|| format!("'{}' is declared but not a field", def.name))?;
            values.push((def.name, def.parse(&json_raw(&value))?));
        }
        if let Some(field) = fields.keys().next() {
            return Err(format!("field '{field}' is not declared"));
        }
        Ok(ParamSet { values })
    }

    /// The typed parameter struct these values describe.
    pub fn typed<P: Params>(&self) -> Result<P, ParamError> {
        let fields: serde_json::Map<String, serde_json::Value> = self
            .values
            .iter()
            .map(|(name, value)| {
                let json = match *value {
                    ParamValue::Int(v) => serde_json::Value::from(v),
                    ParamValue::Float(v) => serde_json::Value::from(v),
                    ParamValue::Choice(v) => serde_json::Value::from(v),
                };
                (name.to_string(), json)
            })
            .collect();
        serde_json::from_value(serde_json::Value::Object(fields)).map_err(|err| ParamError {
            key: self.values.first().map_or("", |(name, _)| name),
            message: format!("the game's parameter declaration does not fit its struct: {err}"),
        })
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

    /// The canonical text of these values: `name=value` lines sorted by name. Equal parameter
    /// values give equal text whatever order a spec wrote them in.
    pub fn canonical(&self) -> String {
        let mut pairs: Vec<String> = self
            .values
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        pairs.sort();
        pairs.join("\n")
    }
}

fn json_raw(value: &serde_json::Value) -> RawValue {
    match value {
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(v) => RawValue::Int(v),
            None => RawValue::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(text) => RawValue::Text(text.clone()),
        serde_json::Value::Bool(_) => RawValue::Other("boolean"),
        serde_json::Value::Null => RawValue::Other("missing value"),
        serde_json::Value::Array(_) => RawValue::Other("list"),
        serde_json::Value::Object(_) => RawValue::Other("table"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, strum::VariantNames)]
    #[serde(rename_all = "snake_case")]
    #[strum(serialize_all = "snake_case")]
    enum Colour {
        DarkRed,
        Blue,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Toy {
        colour: Colour,
        size: u8,
        weight: f64,
    }

    impl Default for Toy {
        fn default() -> Self {
            Toy {
                colour: Colour::Blue,
                size: 3,
                weight: 0.5,
            }
        }
    }

    impl Params for Toy {
        const DECLARED: &'static [ParamDef] = &[
            ParamDef {
                name: "colour",
                kind: ParamKind::Choice(<Colour as strum::VariantNames>::VARIANTS),
                description: "colour",
            },
            ParamDef {
                name: "size",
                kind: ParamKind::Int { min: 1, max: 9 },
                description: "size",
            },
            ParamDef {
                name: "weight",
                kind: ParamKind::Float { min: 0.0, max: 2.0 },
                description: "weight",
            },
        ];

        fn validate(&self) -> Result<(), ParamError> {
            if self.colour == Colour::DarkRed && self.size > 5 {
                return Err(ParamError {
                    key: "size",
                    message: "dark red toys are small".into(),
                });
            }
            Ok(())
        }
    }

    #[test]
    fn defaults_come_from_the_typed_struct_in_declared_order() {
        let set = Schema::<Toy>::NEW
            .defaults()
            .expect("a consistent declaration");
        let pairs: Vec<String> = set.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(pairs, ["colour=blue", "size=3", "weight=0.5"]);
    }

    #[test]
    fn validated_values_become_the_typed_struct_and_its_rules_apply() {
        let mut set = Schema::<Toy>::NEW.defaults().expect("defaults");
        set.set("colour", ParamValue::Choice("dark_red"));
        set.set("weight", ParamValue::Int(2).to_float());
        let toy: Toy = set.typed().expect("typed");
        assert_eq!(toy.colour, Colour::DarkRed);
        assert_eq!(toy.weight, 2.0);
        assert!(Schema::<Toy>::NEW.check(&set).is_ok());
        set.set("size", ParamValue::Int(6));
        let error = Schema::<Toy>::NEW.check(&set).expect_err("too big");
        assert_eq!(error.key, "size");
    }

    #[test]
    fn choice_lists_and_messages_come_from_the_enum_derive() {
        let error = Toy::DECLARED[0]
            .parse(&RawValue::Text("red".into()))
            .expect_err("unknown");
        assert_eq!(
            error,
            "unknown colour 'red' (expected one of: dark_red, blue)"
        );
    }

    #[test]
    fn negative_zero_is_the_same_value_as_zero() {
        let value = Toy::DECLARED[2]
            .parse(&RawValue::Float(-0.0))
            .expect("in range");
        assert_eq!(value.key(), ParamValue::Float(0.0).key());
        assert_eq!(value.to_string(), "0");
    }

    #[test]
    fn the_canonical_text_is_sorted_by_name() {
        let set = Schema::<Toy>::NEW.defaults().expect("defaults");
        assert_eq!(set.canonical(), "colour=blue\nsize=3\nweight=0.5");
    }

    impl ParamValue {
        fn to_float(self) -> ParamValue {
            match self {
                ParamValue::Int(v) => ParamValue::Float(v as f64),
                other => other,
            }
        }
    }
}
