//! Places in the spec text: byte offsets as lines and keys, located errors, and the TOML
//! reader's messages reworded in plain words.

use std::ops::Range;
use std::path::Path;

use super::SpecError;

/// Turns byte offsets into line numbers and builds located errors.
pub(super) struct Locator<'a> {
    pub(super) path: &'a Path,
    pub(super) source: &'a str,
}

impl Locator<'_> {
    pub(super) fn line(&self, offset: usize) -> usize {
        let end = floor_char_boundary(self.source, offset);
        self.source[..end].bytes().filter(|&b| b == b'\n').count() + 1
    }

    /// The key whose value starts at `offset`: the text before `=` on that line, or the table
    /// named by a `[header]` line.
    pub(super) fn key_at(&self, offset: usize) -> Option<String> {
        let offset = floor_char_boundary(self.source, offset);
        let start = self.source[..offset].rfind('\n').map_or(0, |i| i + 1);
        let end = self.source[offset..]
            .find('\n')
            .map_or(self.source.len(), |i| offset + i);
        let line = self.source[start..end].trim();
        let key = match line.split_once('=') {
            Some((key, _)) if start + key.len() <= offset => key,
            _ => line.trim_start_matches('[').split(']').next()?,
        };
        let key = key.trim().trim_matches('"');
        let plain = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        plain.then(|| key.to_string())
    }

    pub(super) fn error(&self, span: Range<usize>, message: impl Into<String>) -> SpecError {
        SpecError {
            path: self.path.to_path_buf(),
            line: Some(self.line(span.start)),
            message: message.into(),
        }
    }
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// Rewords the TOML reader's messages about types and numbers in plain words with the key:
/// `invalid type: string "one", expected a boolean` becomes
/// `plots must be true or false, not the string 'one'`.
pub(super) fn plain_toml_message(
    message: &str,
    key: Option<String>,
    written: Option<&str>,
) -> String {
    let subject = key.as_deref().unwrap_or("a value here");
    if message == "duplicate key" && written.is_some_and(|text| text.trim() == "sweep") {
        return "a spec has either one [sweep] table or [[sweep]] tables, not both: write \
                every sweep as [[sweep]]"
            .to_string();
    }
    if message == "duplicate key" {
        let name = written
            .map(|text| text.trim().trim_matches(['[', ']']).trim())
            .filter(|text| !text.is_empty())
            .map(str::to_string)
            .or(key);
        return match name {
            Some(name) => format!(
                "duplicate key '{name}': it is set a second time here, and a key may be set \
                 only once in a table; remove one of the two"
            ),
            None => "duplicate key: a key may be set only once in a table".to_string(),
        };
    }
    if message.contains("value was too large") {
        let number = written.map_or(String::new(), |text| format!(" = {}", text.trim()));
        return format!(
            "{subject}{number} is too large: a whole number here can be at most {}",
            i64::MAX
        );
    }
    let rest = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "));
    let Some((found, expected)) = rest.and_then(|rest| rest.rsplit_once(", expected ")) else {
        return message.to_string();
    };
    // Integers past i64 reach serde as i128 (or as a failed i64): say so in plain words.
    if let Some(number) = found
        .strip_prefix("integer `")
        .and_then(|rest| rest.split('`').next())
        .filter(|_| found.contains(" as i128") || expected == "i64")
    {
        return if number.starts_with('-') {
            format!(
                "{subject} = {number} is too small: a whole number here can be at least {}",
                i64::MIN
            )
        } else {
            format!(
                "{subject} = {number} is too large: a whole number here can be at most {}",
                i64::MAX
            )
        };
    }
    let expected = match expected {
        "a sequence" => "a list",
        "a map" => "a table",
        "a boolean" => "true or false",
        "i64" => "a whole number",
        other if other.starts_with("struct ") => "a table",
        other => other,
    };
    format!("{subject} must be {expected}, not {}", plain_found(found))
}

/// `string "one"` -> `the string 'one'`, ``integer `5` `` -> `the integer 5`, `map` -> `a table`.
fn plain_found(found: &str) -> String {
    let unquote = |text: &str| text.trim_matches('`').to_string();
    if let Some(text) = found.strip_prefix("string ") {
        let inner = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
        return format!("the string '{}'", inner.unwrap_or(text));
    }
    if let Some(number) = found.strip_prefix("integer ") {
        return format!("the integer {}", unquote(number));
    }
    if let Some(number) = found.strip_prefix("floating point ") {
        return format!("the number {}", unquote(number));
    }
    if let Some(value) = found.strip_prefix("boolean ") {
        return format!("the boolean {}", unquote(value));
    }
    match found {
        "sequence" => "a list".to_string(),
        "map" => "a table".to_string(),
        other => other.to_string(),
    }
}
