//! The optional `[design]` table: how the variants get their random numbers
//! (`random_numbers = "independent"`, the default, or `"common"`).

use indexmap::IndexMap;
use toml::Spanned;

use super::locate::Locator;
use super::raw::{raw_value, Value};
use super::SpecError;
use crate::design::Design;

/// The keys a `[design]` table may set.
const KEYS: [&str; 1] = ["random_numbers"];

/// The design `table` (the spec's `[design]`, if it has one) asks for, or a located error for
/// an unknown key or a value that is not one of the designs.
pub(super) fn design(
    table: Option<&Spanned<IndexMap<String, Value>>>,
    locate: &Locator,
) -> Result<Design, SpecError> {
    let Some(table) = table else {
        return Ok(Design::default());
    };
    let choices = Design::ALL.map(Design::name).join(", ");
    let mut design = Design::default();
    for (key, value) in table.get_ref() {
        if !KEYS.contains(&key.as_str()) {
            return Err(locate.error(
                value.span(),
                format!(
                    "unknown key '{key}' in [design] (expected one of: {})",
                    KEYS.join(", ")
                ),
            ));
        }
        design = match value.get_ref() {
            toml::Value::String(name) => Design::ALL
                .into_iter()
                .find(|design| design.name() == name)
                .ok_or_else(|| {
                    locate.error(
                        value.span(),
                        format!(
                            "unknown random_numbers '{name}' in [design] (expected one of: \
                             {choices})"
                        ),
                    )
                })?,
            other => {
                return Err(locate.error(
                    value.span(),
                    format!(
                        "random_numbers in [design] must be one of the strings {choices}, not {}",
                        raw_value(other).describe()
                    ),
                ))
            }
        };
    }
    Ok(design)
}
