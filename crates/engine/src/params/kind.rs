//! What values a parameter accepts ([`ParamKind`]) and the check of a raw spec value against
//! it, with messages that name the key (and the place inside a list or table) and say what
//! would be right.

use super::{ParamDef, ParamValue, RawValue};

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
    /// `true` or `false` (a `bool` field).
    Bool,
    /// Any string of at most `max_len` characters without control characters (a `String`).
    Text {
        /// Most characters allowed.
        max_len: usize,
    },
    /// A list of `min_len..=max_len` values of one kind (a `Vec`, array or tuple field).
    List {
        /// The kind of every item.
        item: &'static ParamKind,
        /// Fewest items allowed.
        min_len: usize,
        /// Most items allowed.
        max_len: usize,
    },
    /// A table with exactly these keys (a struct field).
    Table(&'static [ParamDef]),
    /// A value of the first of these kinds that accepts it (an untagged serde enum), e.g. a
    /// board that is either a name or a list of jumps.
    OneOf(&'static [ParamKind]),
}

impl ParamKind {
    /// What a value of this kind looks like, for messages and `experiment list`.
    pub fn expectation(&self) -> String {
        match self {
            ParamKind::Int { min, max } => format!("a whole number from {min} to {max}"),
            ParamKind::Float { min, max } => format!("a number from {min} to {max}"),
            ParamKind::Choice(choices) => format!("one of: {}", choices.join(", ")),
            ParamKind::Bool => "true or false".to_string(),
            ParamKind::Text { max_len } => format!("a string of at most {max_len} characters"),
            ParamKind::List {
                item,
                min_len,
                max_len,
            } => {
                let count = if min_len == max_len {
                    format!("{min_len}")
                } else {
                    format!("{min_len} to {max_len}")
                };
                format!("a list of {count} items, each {}", item.expectation())
            }
            ParamKind::Table(fields) => {
                let keys: Vec<&str> = fields.iter().map(|field| field.name).collect();
                format!("a table with the keys {}", keys.join(", "))
            }
            ParamKind::OneOf(kinds) => {
                let each: Vec<String> = kinds.iter().map(ParamKind::expectation).collect();
                format!("either {}", each.join(", or "))
            }
        }
    }

    /// Whether `raw` has the shape this kind reads (a string for a choice, a list for a
    /// list...), so that a failed [`ParamKind::OneOf`] explains the kind the user meant.
    fn fits_shape(&self, raw: &RawValue) -> bool {
        match (self, raw) {
            (ParamKind::Int { .. }, RawValue::Int(_))
            | (ParamKind::Float { .. }, RawValue::Int(_) | RawValue::Float(_))
            | (ParamKind::Choice(_) | ParamKind::Text { .. }, RawValue::Text(_))
            | (ParamKind::Bool, RawValue::Bool(_))
            | (ParamKind::List { .. }, RawValue::List(_))
            | (ParamKind::Table(_), RawValue::Table(_)) => true,
            (ParamKind::OneOf(kinds), raw) => kinds.iter().any(|kind| kind.fits_shape(raw)),
            _ => false,
        }
    }

    /// Checks `raw` against this kind; `at` names the value in messages (`board`,
    /// `board[2]`, `limits.low`).
    pub fn parse(&self, at: &str, raw: &RawValue) -> Result<ParamValue, String> {
        match (self, raw) {
            (&ParamKind::Int { min, max }, RawValue::Int(value)) => {
                if (min..=max).contains(value) {
                    Ok(ParamValue::Int(*value))
                } else {
                    Err(format!(
                        "{at} = {value} is out of range (expected a whole number from {min} to \
                         {max})"
                    ))
                }
            }
            (&ParamKind::Float { min, max }, RawValue::Int(_) | RawValue::Float(_)) => {
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
                        "{at} = {value} is out of range (expected a number from {min} to {max})"
                    ))
                }
            }
            (ParamKind::Choice(choices), RawValue::Text(text)) => choices
                .iter()
                .find(|choice| **choice == text.as_str())
                .map(|choice| ParamValue::Choice(choice))
                .ok_or_else(|| {
                    format!(
                        "unknown {at} '{}' (expected one of: {})",
                        text.escape_debug(),
                        choices.join(", ")
                    )
                }),
            (ParamKind::Bool, RawValue::Bool(value)) => Ok(ParamValue::Bool(*value)),
            (&ParamKind::Text { max_len }, RawValue::Text(text)) => {
                if text.chars().count() > max_len {
                    Err(format!("{at} is longer than {max_len} characters"))
                } else if let Some(c) = text.chars().find(|c| c.is_control()) {
                    Err(format!(
                        "{at} holds the control character {}: only printable text is allowed",
                        c.escape_unicode()
                    ))
                } else {
                    Ok(ParamValue::Text(text.clone()))
                }
            }
            (
                &ParamKind::List {
                    item,
                    min_len,
                    max_len,
                },
                RawValue::List(items),
            ) => {
                if !(min_len..=max_len).contains(&items.len()) {
                    return Err(format!(
                        "{at} has {} items (expected {})",
                        items.len(),
                        self.expectation()
                    ));
                }
                items
                    .iter()
                    .enumerate()
                    .map(|(index, raw)| item.parse(&format!("{at}[{index}]"), raw))
                    .collect::<Result<Vec<_>, _>>()
                    .map(ParamValue::List)
            }
            (ParamKind::Table(fields), RawValue::Table(pairs)) => {
                let known: Vec<&str> = fields.iter().map(|field| field.name).collect();
                if let Some((key, _)) = pairs.iter().find(|(key, _)| !known.contains(&key.as_str()))
                {
                    return Err(format!(
                        "unknown key '{}' in {at} (expected: {})",
                        key.escape_debug(),
                        known.join(", ")
                    ));
                }
                fields
                    .iter()
                    .map(|field| {
                        let raw = pairs
                            .iter()
                            .find(|(key, _)| key == field.name)
                            .map(|(_, raw)| raw)
                            .ok_or_else(|| format!("{at} is missing its key '{}'", field.name))?;
                        Ok((
                            field.name,
                            field.kind.parse(&format!("{at}.{}", field.name), raw)?,
                        ))
                    })
                    .collect::<Result<Vec<_>, String>>()
                    .map(ParamValue::Table)
            }
            (ParamKind::OneOf(kinds), raw) => {
                let mut first_error = None;
                for kind in kinds.iter() {
                    match kind.parse(at, raw) {
                        Ok(value) => return Ok(value),
                        Err(error) if kind.fits_shape(raw) && first_error.is_none() => {
                            first_error = Some(error)
                        }
                        Err(_) => {}
                    }
                }
                Err(first_error.unwrap_or_else(|| {
                    format!(
                        "{at} must be {}, not {}",
                        self.expectation(),
                        raw.describe()
                    )
                }))
            }
            (kind, raw) => Err(format!(
                "{at} must be {}, not {}",
                kind.expectation(),
                raw.describe()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAIR: ParamKind = ParamKind::List {
        item: &ParamKind::Int { min: 1, max: 99 },
        min_len: 2,
        max_len: 2,
    };
    const JUMPS: ParamKind = ParamKind::List {
        item: &PAIR,
        min_len: 0,
        max_len: 3,
    };
    const BOARD: ParamKind = ParamKind::OneOf(&[ParamKind::Choice(&["classic", "short"]), JUMPS]);
    const LIMITS: ParamKind = ParamKind::Table(&[
        ParamDef::new("low", ParamKind::Int { min: 0, max: 9 }, "low"),
        ParamDef::new("high", ParamKind::Bool, "high"),
    ]);

    fn ints(values: &[i64]) -> RawValue {
        RawValue::List(values.iter().map(|&v| RawValue::Int(v)).collect())
    }

    #[test]
    fn lists_of_lists_parse_and_name_the_item_that_is_wrong() {
        let raw = RawValue::List(vec![ints(&[47, 26]), ints(&[1, 38])]);
        let value = JUMPS.parse("board", &raw).expect("valid");
        assert_eq!(value.to_string(), "[[47, 26], [1, 38]]");
        let raw = RawValue::List(vec![ints(&[47, 26]), ints(&[1, 100])]);
        assert_eq!(
            JUMPS.parse("board", &raw).expect_err("out of range"),
            "board[1][1] = 100 is out of range (expected a whole number from 1 to 99)"
        );
        let raw = RawValue::List(vec![ints(&[47])]);
        assert!(JUMPS
            .parse("board", &raw)
            .expect_err("short")
            .starts_with("board[0] has 1 items (expected a list of 2 items"));
    }

    #[test]
    fn one_of_takes_the_first_kind_that_fits_and_explains_the_one_meant() {
        let named = BOARD
            .parse("board", &RawValue::Text("short".into()))
            .expect("a name");
        assert_eq!(named, ParamValue::Choice("short"));
        let listed = BOARD
            .parse("board", &RawValue::List(vec![ints(&[3, 9])]))
            .expect("jumps");
        assert_eq!(listed.to_string(), "[[3, 9]]");
        assert_eq!(
            BOARD
                .parse("board", &RawValue::Text("long".into()))
                .expect_err("unknown name"),
            "unknown board 'long' (expected one of: classic, short)"
        );
        assert!(BOARD
            .parse("board", &RawValue::Bool(true))
            .expect_err("neither")
            .starts_with("board must be either one of: classic, short, or a list of"));
    }

    #[test]
    fn tables_need_exactly_their_keys() {
        let raw = |pairs: &[(&str, RawValue)]| {
            RawValue::Table(
                pairs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect(),
            )
        };
        let value = LIMITS
            .parse(
                "limits",
                &raw(&[("high", RawValue::Bool(true)), ("low", RawValue::Int(3))]),
            )
            .expect("valid");
        assert_eq!(value.to_string(), "{ low = 3, high = true }");
        assert_eq!(
            LIMITS
                .parse("limits", &raw(&[("low", RawValue::Int(3))]))
                .expect_err("missing"),
            "limits is missing its key 'high'"
        );
        assert_eq!(
            LIMITS
                .parse(
                    "limits",
                    &raw(&[
                        ("low", RawValue::Int(3)),
                        ("high", RawValue::Bool(false)),
                        ("wide", RawValue::Int(1))
                    ])
                )
                .expect_err("unknown"),
            "unknown key 'wide' in limits (expected: low, high)"
        );
    }

    #[test]
    fn text_is_bounded_and_printable() {
        let kind = ParamKind::Text { max_len: 4 };
        assert_eq!(
            kind.parse("label", &RawValue::Text("abc".into())),
            Ok(ParamValue::Text("abc".into()))
        );
        assert!(kind
            .parse("label", &RawValue::Text("abcde".into()))
            .is_err());
        assert!(kind
            .parse("label", &RawValue::Text("a\u{1b}b".into()))
            .expect_err("escape")
            .contains("control character"));
        assert_eq!(
            ParamKind::Bool
                .parse("fast", &RawValue::Text("yes".into()))
                .expect_err("not a bool"),
            "fast must be true or false, not the string 'yes'"
        );
    }
}
