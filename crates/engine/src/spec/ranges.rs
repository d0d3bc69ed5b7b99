//! A swept key's range table (`{ from = 0.5, to = 0.95, step = 0.05 }`) expanded exactly:
//! numbers are stepped as decimals, so the values and the names they give are `0.15`, never
//! `0.15000000000000002`.

use std::ops::Range;

use indexmap::IndexMap;

use super::locate::Locator;
use super::raw::{raw_value, Value};
use super::SpecError;
use crate::params::{ParamDef, ParamKind, RawValue};

/// Most decimals a float range's `from` and `step` may have.
const MAX_DECIMALS: usize = 12;

/// The kind a range steps through: the parameter's own, or for an either-kind the first kind of
/// numbers among its choices (a seat's threshold is a number or the name of the bare key).
fn numeric(kind: &ParamKind) -> &ParamKind {
    match kind {
        ParamKind::OneOf(kinds) => kinds
            .iter()
            .find(|k| matches!(k, ParamKind::Int { .. } | ParamKind::Float { .. }))
            .unwrap_or(kind),
        other => other,
    }
}

/// The values of `key`'s range `table` (written at `span`), at most `limit` of them.
pub(super) fn expand(
    key: &str,
    def: &ParamDef,
    table: &IndexMap<String, Value>,
    span: Range<usize>,
    limit: i64,
    locate: &Locator,
) -> Result<Vec<RawValue>, SpecError> {
    let whole = match numeric(&def.kind) {
        ParamKind::Int { .. } => true,
        ParamKind::Float { .. } => false,
        ParamKind::Choice(choices) => {
            let example: Vec<String> = choices.iter().take(2).map(|c| format!("\"{c}\"")).collect();
            return Err(locate.error(
                span,
                format!(
                    "'{key}' takes named choices, not a range: list them, e.g. {key} = [{}]",
                    example.join(", ")
                ),
            ));
        }
        kind => {
            return Err(locate.error(
                span,
                format!(
                    "'{key}' takes {}, not a range of numbers: list the values to sweep, \
                     e.g. {key} = [first, second]",
                    kind.expectation()
                ),
            ));
        }
    };
    for (name, value) in table {
        if !matches!(name.as_str(), "from" | "to" | "step") {
            return Err(locate.error(
                value.span(),
                format!(
                    "unknown key '{name}' in the range of '{key}' (expected from, to and step)"
                ),
            ));
        }
    }
    let number = |name: &str| -> Result<Option<(f64, bool, Range<usize>)>, SpecError> {
        let Some(value) = table.get(name) else {
            return Ok(None);
        };
        match value.get_ref() {
            toml::Value::Integer(n) => Ok(Some((*n as f64, true, value.span()))),
            toml::Value::Float(x) if x.is_finite() => Ok(Some((*x, false, value.span()))),
            other => Err(locate.error(
                value.span(),
                format!(
                    "{name} in the range of '{key}' must be a number, not {}",
                    raw_value(other).describe()
                ),
            )),
        }
    };
    let (Some(from), Some(to)) = (number("from")?, number("to")?) else {
        return Err(locate.error(
            span,
            format!("the range of '{key}' needs both from and to (and step for non-whole numbers)"),
        ));
    };
    let step = number("step")?;
    if whole {
        for (name, (_, is_int, at)) in [("from", &from), ("to", &to)]
            .into_iter()
            .chain(step.as_ref().map(|step| ("step", step)))
        {
            if !is_int {
                return Err(locate.error(
                    at.clone(),
                    format!("'{key}' is a whole number, so its range's {name} must be one too"),
                ));
            }
        }
    }
    let (step, step_span) = match step {
        Some((step, _, at)) => (step, at),
        None if whole => (1.0, span.clone()),
        None => {
            return Err(locate.error(
                span,
                format!(
                    "the range of '{key}' needs a step, since '{key}' is not a whole number \
                     (e.g. step = 0.05)"
                ),
            ))
        }
    };
    if step <= 0.0 {
        return Err(locate.error(
            step_span,
            format!("step = {step} in the range of '{key}' must be more than 0"),
        ));
    }
    if from.0 > to.0 {
        return Err(locate.error(
            from.2,
            format!(
                "from = {} is more than to = {} in the range of '{key}': it holds no values",
                from.0, to.0
            ),
        ));
    }
    // Whole tenths, hundredths… of the literals as written: exact integers in an f64.
    let decimals = |x: f64| {
        let text = format!("{x}");
        text.find('.').map_or(0, |dot| text.len() - dot - 1)
    };
    let places = decimals(from.0).max(decimals(step));
    let scale = 10f64.powi(places as i32);
    let (first, stride) = ((from.0 * scale).round(), (step * scale).round());
    let last = to.0 * scale;
    let exact = 2f64.powi(53);
    if places > MAX_DECIMALS || first.abs() >= exact || last.abs() >= exact || stride >= exact {
        return Err(locate.error(
            span,
            format!(
                "the range of '{key}' cannot be stepped exactly: write from and step with at \
                 most {MAX_DECIMALS} decimals and below 2^53"
            ),
        ));
    }
    let count = ((last - first) / stride + 1e-9).floor() + 1.0;
    if count > limit as f64 {
        return Err(locate.error(
            span,
            format!(
                "the range of '{key}' makes {count} values, more than the {limit} variants this \
                 spec may have: raise the step, narrow the range or raise max_variants"
            ),
        ));
    }
    Ok((0..count as i64)
        .map(|k| {
            let units = first + k as f64 * stride;
            if whole {
                RawValue::Int(units as i64)
            } else {
                RawValue::Float(units / scale)
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn expand_range(def: ParamDef, text: &str) -> Result<Vec<RawValue>, String> {
        let source = format!("r = {text}\n");
        let mut spec: IndexMap<String, toml::Spanned<IndexMap<String, Value>>> =
            toml::from_str(&source).expect("a range table");
        let range = spec.swap_remove("r").expect("r");
        let locate = Locator {
            path: Path::new("r.toml"),
            source: &source,
        };
        expand("r", &def, range.get_ref(), range.span(), 1000, &locate).map_err(|e| e.message)
    }

    const FLOAT: ParamDef = ParamDef::new(
        "r",
        ParamKind::Float {
            min: -10.0,
            max: 10.0,
        },
        "",
    );
    const INT: ParamDef = ParamDef::new(
        "r",
        ParamKind::Int {
            min: -100,
            max: 100,
        },
        "",
    );

    fn floats(values: Vec<RawValue>) -> Vec<f64> {
        values
            .into_iter()
            .map(|value| match value {
                RawValue::Float(x) => x,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn float_ranges_are_the_nearest_floats_to_their_decimals() {
        let values = floats(expand_range(FLOAT, "{ from = 0.05, to = 0.95, step = 0.1 }").unwrap());
        let decimals: Vec<f64> = (0..10)
            .map(|k| format!("0.{k}5").parse().unwrap())
            .collect();
        assert_eq!(values, decimals);
        let values = floats(expand_range(FLOAT, "{ from = -1, to = 1, step = 0.25 }").unwrap());
        assert_eq!(
            values,
            [-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0]
        );
        // Decimals of from and step both count: 0.5 stepped by 0.001.
        let values =
            floats(expand_range(FLOAT, "{ from = 0.5, to = 0.503, step = 0.001 }").unwrap());
        assert_eq!(values, [0.5, 0.501, 0.502, 0.503]);
        // A single value when from = to.
        assert_eq!(
            floats(expand_range(FLOAT, "{ from = 0.3, to = 0.3, step = 1 }").unwrap()),
            [0.3]
        );
    }

    #[test]
    fn an_either_kind_with_numbers_steps_through_them() {
        const SEAT: ParamDef = ParamDef::new(
            "r",
            ParamKind::OneOf(&[
                ParamKind::Float { min: 0.0, max: 1.0 },
                ParamKind::Choice(&["shared"]),
            ]),
            "",
        );
        let values = floats(expand_range(SEAT, "{ from = 0.5, to = 0.7, step = 0.1 }").unwrap());
        assert_eq!(values, [0.5, 0.6, 0.7]);
        const NAMED: ParamDef = ParamDef::new(
            "r",
            ParamKind::OneOf(&[ParamKind::Choice(&["a"]), ParamKind::Bool]),
            "",
        );
        let message = expand_range(NAMED, "{ from = 0, to = 1 }").expect_err("no numbers");
        assert!(message.contains("not a range of numbers"), "{message}");
    }

    #[test]
    fn integer_ranges_step_by_one_by_default() {
        let values = expand_range(INT, "{ from = -2, to = 2 }").unwrap();
        assert_eq!(values, [-2, -1, 0, 1, 2].map(RawValue::Int).to_vec());
        let values = expand_range(INT, "{ from = 1, to = 10, step = 3 }").unwrap();
        assert_eq!(values, [1, 4, 7, 10].map(RawValue::Int).to_vec());
    }

    #[test]
    fn ranges_that_cannot_be_stepped_are_refused() {
        for (text, start) in [
            ("{ from = 1, to = 2, step = -1 }", "step = -1"),
            (
                "{ from = 0.1, to = 0.2, step = 1e-13 }",
                "the range of 'r' cannot be stepped exactly",
            ),
            (
                "{ from = 0.0, to = 1.0, step = nan }",
                "step in the range of 'r' must be a number",
            ),
            (
                "{ from = 0.0, to = 1.0, step = 0.0001 }",
                "the range of 'r' makes 10001 values",
            ),
        ] {
            let message = expand_range(FLOAT, text).expect_err(text);
            assert!(message.starts_with(start), "{text}: {message}");
        }
    }
}
