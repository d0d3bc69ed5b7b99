//! What a spec's names and description may hold. Names appear in folder names, tables,
//! reports and on the command line (`--variant=NAME`), so they are refused rather than
//! changed: a name is used exactly as written, or not at all.
//!
//! Names starting with `-` or `+` are kept (a swept negative number is one, and
//! `--variant=-x` selects one); `=` and `@` are not allowed characters, so no name reads as a
//! spreadsheet formula from those. The tables are data for pandas, R or Polars: a cell is never
//! prefixed to defuse spreadsheets, since that would change the data.

use super::MAX_NAME_CHARS;

/// Names pandas and R read as a missing value in a CSV file (pandas' default `na_values` that
/// a name can spell, R's `NA`), compared in any case after an optional sign.
const MISSING_VALUE_NAMES: &[&str] = &["na", "nan", "null", "none"];

/// What is wrong with a name, if anything: `allowed` says which characters besides ASCII
/// letters and digits it may use, `describe` lists them for the message.
pub(super) fn name_problem(
    name: &str,
    allowed: impl Fn(char) -> bool,
    describe: &str,
    purpose: &str,
) -> Option<String> {
    let shown = name.escape_debug();
    if name.is_empty() {
        return Some(format!("a name must not be empty ({purpose})"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Some(format!(
            "name '{shown}' is longer than {MAX_NAME_CHARS} characters ({purpose})"
        ));
    }
    let bad = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || allowed(c)))?;
    let why = if bad.is_alphanumeric() {
        format!("'{bad}' is not an ASCII letter or digit")
    } else {
        format!("'{}' is not allowed", bad.escape_debug())
    };
    Some(format!(
        "name '{shown}' may use only ASCII letters (a-z, A-Z), digits, {describe}: {why} \
         ({purpose})"
    ))
}

/// The message for a name (`what`: "name" or "variant name") that starts or ends with white
/// space, which would otherwise be trimmed without a word; `purpose` says where it is used.
pub(super) fn padding_problem(what: &str, name: &str, purpose: &str) -> Option<String> {
    (name.trim() != name).then(|| {
        format!(
            "{what} '{}' starts or ends with white space: remove it, a name is used exactly as \
             written ({purpose})",
            name.escape_debug()
        )
    })
}

/// The message for a variant name that pandas or R would read back as a missing value.
pub(super) fn missing_value_problem(name: &str) -> Option<String> {
    let bare = name.strip_prefix(['-', '+']).unwrap_or(name);
    MISSING_VALUE_NAMES
        .iter()
        .any(|word| bare.eq_ignore_ascii_case(word))
        .then(|| {
            format!(
                "variant name '{name}' would be read back as a missing value by pandas or R \
                 (NA, NaN, null and None are, in any case and with or without a sign): name the \
                 variant otherwise"
            )
        })
}

/// The message for a description holding a control character other than a line break or a
/// tab (an escape sequence or a NUL would reach the reports as it is).
pub(super) fn description_problem(description: &str) -> Option<String> {
    description
        .chars()
        .find(|&c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        .map(|c| {
            format!(
                "description holds the control character {}: only line breaks and tabs may \
                 appear in it",
                c.escape_unicode()
            )
        })
}
