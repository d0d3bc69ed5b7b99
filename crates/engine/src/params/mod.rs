//! Game parameters: each game's typed parameter struct ([`Params`]), the declaration a spec is
//! checked against ([`ParamDef`]: keys, kinds, ranges, choices), and the validated values a
//! variant carries ([`ParamSet`]).
//!
//! Values are whole numbers, numbers, named choices, booleans, strings, lists and small tables
//! ([`ParamKind`]), so a board or a deck can come from a spec.
//!
//! A game writes its parameters once, with [`declare_params!`](crate::declare_params): each
//! field's type, default, range and description, from which come the struct (deriving serde's
//! `Serialize` and `Deserialize`; choices are enums whose names come from their derives), its
//! `Default` and [`Params::DECLARED`]. The spec layer checks
//! each value alone against the declaration (so errors name the file, line and key), fills the
//! rest from `Default`, then turns the values into the struct and calls [`Params::validate`]
//! for rules that tie parameters together.

mod declare;
mod kind;
mod set;
mod value;

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;

pub use kind::ParamKind;
pub use set::ParamSet;
pub use value::{ParamValue, RawValue};

/// A parameter a game accepts in `[params]`, `[sweep]` or `[[variant]]`: one field of its
/// [`Params`] struct. Built with [`ParamDef::new`], then [`ParamDef::rule`] or
/// [`ParamDef::used_when`] where they apply.
#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    /// Key in the spec, the same as the struct field's name.
    pub name: &'static str,
    /// Accepted values.
    pub kind: ParamKind,
    /// One-line description for `experiment list`.
    pub description: &'static str,
    /// When the game reads this parameter.
    pub used: Used,
    /// Whether the parameter is part of a variant's identity at its default.
    pub identity: Identity,
}

/// When a game reads a parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Used {
    /// Always.
    Always,
    /// Only when one of these `(key, choices)` holds: key `key` is one of `choices`. A spec
    /// that sets the parameter for a variant that does not read it is refused.
    When(&'static [(&'static str, &'static [&'static str])]),
}

/// Whether a parameter at its default is part of a variant's identity (the text its random
/// streams derive from) and of the result tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// Always: the game's first parameters.
    Always,
    /// Only when changed from its default: a rule added to a game after results were
    /// published, so that specs written before keep their streams and their tables.
    WhenChanged,
}

impl ParamDef {
    /// A parameter read always and part of every variant's identity.
    pub const fn new(name: &'static str, kind: ParamKind, description: &'static str) -> Self {
        ParamDef {
            name,
            kind,
            description,
            used: Used::Always,
            identity: Identity::Always,
        }
    }

    /// This parameter as a rule whose default is the game's standard rule: at its default it
    /// stays out of a variant's identity and out of the result tables (see [`Identity`]).
    pub const fn rule(mut self) -> Self {
        self.identity = Identity::WhenChanged;
        self
    }

    /// This parameter, read only when one of `conditions` holds (see [`Used::When`]).
    pub const fn used_when(
        mut self,
        conditions: &'static [(&'static str, &'static [&'static str])],
    ) -> Self {
        self.used = Used::When(conditions);
        self
    }

    /// Checks a raw value against this parameter, explaining what is expected when it fails.
    pub fn parse(&self, raw: &RawValue) -> Result<ParamValue, String> {
        self.kind.parse(self.name, raw)
    }

    /// Whether a variant with these values reads this parameter.
    pub fn is_used(&self, params: &ParamSet) -> bool {
        match self.used {
            Used::Always => true,
            Used::When(conditions) => conditions.iter().any(|(key, choices)| {
                matches!(params.get(key), ParamValue::Choice(name) if choices.contains(name))
            }),
        }
    }

    /// When the parameter is read, in words (`when strategy is stand_at`), or `None` if always.
    pub fn used_text(&self) -> Option<String> {
        match self.used {
            Used::Always => None,
            Used::When(conditions) => {
                let each: Vec<String> = conditions
                    .iter()
                    .map(|(key, choices)| format!("{key} is {}", choices.join(" or ")))
                    .collect();
                Some(format!("when {}", each.join(", or ")))
            }
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
            ParamDef::new(
                "colour",
                ParamKind::Choice(<Colour as strum::VariantNames>::VARIANTS),
                "colour",
            ),
            ParamDef::new("size", ParamKind::Int { min: 1, max: 9 }, "size"),
            ParamDef::new("weight", ParamKind::Float { min: 0.0, max: 2.0 }, "weight"),
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
        set.set("weight", ParamValue::Float(2.0));
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
}
