//! The optional `[compare]` table: which pairs of variants the comparisons test.
//! `within = ["face_down"]` compares only variants equal in the listed parameters.

use indexmap::IndexMap;
use toml::Spanned;

use super::locate::Locator;
use super::raw::{raw_value, Value};
use super::SpecError;
use crate::params::{ParamDef, ParamSet};

/// The keys a `[compare]` table may set.
const KEYS: [&str; 1] = ["within"];

/// Which pairs of variants are compared (`[compare]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compare {
    /// Compare only variants equal in each of these parameters (in the order written); empty:
    /// every pair is a candidate.
    pub within: Vec<&'static str>,
}

impl Compare {
    /// Whether nothing groups the variants (no `[compare]`, or an empty `within`).
    pub fn is_default(&self) -> bool {
        self.within.is_empty()
    }

    /// Whether two variants with these parameters may be compared: equal in every `within`
    /// parameter.
    pub fn compares(&self, a: &ParamSet, b: &ParamSet) -> bool {
        self.within.iter().all(|name| a.get(name) == b.get(name))
    }

    /// The variants (indices into `params`) split into groups of equal `within` values, each
    /// group in index order, the groups in the order of their first variant; one group of
    /// every variant when nothing groups them.
    pub fn groups(&self, params: &[&ParamSet]) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, set) in params.iter().enumerate() {
            match groups
                .iter_mut()
                .find(|group| self.compares(params[group[0]], set))
            {
                Some(group) => group.push(i),
                None => groups.push(vec![i]),
            }
        }
        groups
    }

    /// The grouping in words, as `experiment validate` and the report state it: `every
    /// pair` or `within equal face_down` (`within equal face_down and ranks`).
    pub fn statement(&self) -> String {
        match self.within.as_slice() {
            [] => "every pair".to_string(),
            [one] => format!("within equal {one}"),
            [rest @ .., last] => format!("within equal {} and {last}", rest.join(", ")),
        }
    }
}

/// The `[compare]` table (if the spec has one) checked against the game's parameters `defs`
/// and the variants `params`: each name in `within` a parameter the variants vary, none twice.
pub(super) fn compare(
    table: Option<&Spanned<IndexMap<String, Value>>>,
    game: &str,
    defs: &'static [ParamDef],
    params: &[&ParamSet],
    locate: &Locator,
) -> Result<Compare, SpecError> {
    let Some(table) = table else {
        return Ok(Compare::default());
    };
    let mut compare = Compare::default();
    for (key, value) in table.get_ref() {
        if !KEYS.contains(&key.as_str()) {
            return Err(locate.error(
                value.span(),
                format!(
                    "unknown key '{key}' in [compare] (expected one of: {})",
                    KEYS.join(", ")
                ),
            ));
        }
        let error = |message: String| locate.error(value.span(), message);
        let varied: Vec<&str> = defs
            .iter()
            .filter(|def| {
                params
                    .iter()
                    .any(|p| p.get(def.name) != params[0].get(def.name))
            })
            .map(|def| def.name)
            .collect();
        let toml::Value::Array(items) = value.get_ref() else {
            return Err(error(format!(
                "within in [compare] must be a list of parameter names, not {}",
                raw_value(value.get_ref()).describe()
            )));
        };
        let choices = if varied.is_empty() {
            "the variants vary no parameter, so there is nothing to list".to_string()
        } else {
            format!(
                "expected one of the parameters the variants vary: {}",
                varied.join(", ")
            )
        };
        for item in items {
            let toml::Value::String(name) = item else {
                return Err(error(format!(
                    "within in [compare] must list parameter names, not {} ({choices})",
                    raw_value(item).describe()
                )));
            };
            let Some(def) = defs.iter().find(|def| def.name == name) else {
                return Err(error(format!(
                    "unknown parameter '{name}' in [compare] within for game '{game}' \
                     ({choices})"
                )));
            };
            if compare.within.contains(&def.name) {
                return Err(error(format!(
                    "'{name}' is listed twice in [compare] within: list it once"
                )));
            }
            if !varied.contains(&def.name) {
                return Err(error(format!(
                    "'{name}' in [compare] within has the same value in every variant, so it \
                     groups nothing ({choices})"
                )));
            }
            compare.within.push(def.name);
        }
    }
    Ok(compare)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grouping_is_stated_in_words() {
        let within = |names: &[&'static str]| Compare {
            within: names.to_vec(),
        };
        assert_eq!(within(&[]).statement(), "every pair");
        assert_eq!(within(&["face_down"]).statement(), "within equal face_down");
        assert_eq!(
            within(&["a", "b", "c"]).statement(),
            "within equal a, b and c"
        );
        assert!(within(&[]).is_default());
    }
}
