//! Where a spec comes from: a file, TOML text, or a Python dict with the spec's keys (written
//! as TOML, then read exactly as a file is).

use std::path::{Path, PathBuf};

use experiment_engine::commands::overrides::{load, load_text};
use experiment_engine::commands::session::Overrides;
use experiment_engine::registry::Registry;
use experiment_engine::spec::{Experiment, SpecError};
use experiment_engine::studies::Study;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::errors::SpecError as PySpecError;

/// A spec as the caller gave it.
pub enum SpecSource {
    /// A spec file.
    Path(PathBuf),
    /// TOML text (`<string>` in messages).
    Text(String),
    /// A dict, as TOML (`<dict>` in messages, which name keys, not lines).
    Dict(String),
}

impl SpecSource {
    /// Reads `spec` as `kind` (`path`, `text` or `dict`) says.
    pub fn read(kind: &str, spec: &Bound<'_, PyAny>) -> PyResult<SpecSource> {
        Ok(match kind {
            "path" => SpecSource::Path(spec.extract()?),
            "text" => SpecSource::Text(spec.extract()?),
            "dict" => {
                let dict = spec.cast::<PyDict>()?;
                let table = table(dict, "")?;
                let text = toml::to_string(&table).map_err(|err| {
                    PySpecError::new_err(format!("<dict>: cannot be written as TOML: {err}"))
                })?;
                SpecSource::Dict(text)
            }
            other => {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "spec kind '{other}': expected path, text or dict"
                )))
            }
        })
    }

    /// Reads and validates the spec against `registry`'s games and applies `overrides`, with
    /// the checks `run` makes before it plays.
    pub fn load(
        &self,
        registry: &Registry,
        overrides: Overrides,
    ) -> anyhow::Result<(&'static dyn Study, Experiment)> {
        match self {
            SpecSource::Path(path) => load(registry, path, overrides),
            SpecSource::Text(text) => load_text(registry, Path::new("<string>"), text, overrides),
            SpecSource::Dict(text) => load_text(registry, Path::new("<dict>"), text, overrides)
                .map_err(|error| match error.downcast::<SpecError>() {
                    // The lines are those of the TOML written from the dict: not the caller's.
                    Ok(spec) => SpecError { line: None, ..spec }.into(),
                    Err(other) => other,
                }),
        }
    }
}

/// A dict as a TOML table; `at` is its key path, for messages.
fn table(dict: &Bound<'_, PyDict>, at: &str) -> PyResult<toml::Table> {
    let mut table = toml::Table::new();
    for (key, value) in dict.iter() {
        let key: String = key.extract().map_err(|_| {
            PySpecError::new_err(format!("<dict>: every key must be a string, not {key:?}"))
        })?;
        let path = if at.is_empty() {
            key.clone()
        } else {
            format!("{at}.{key}")
        };
        table.insert(key, value_of(&value, &path)?);
    }
    Ok(table)
}

/// A Python value as a TOML value: bool, int, float, str, list or tuple, dict.
fn value_of(value: &Bound<'_, PyAny>, at: &str) -> PyResult<toml::Value> {
    // bool before int: Python's True is an int too.
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(toml::Value::Boolean(flag.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        let number: i64 = value.extract().map_err(|_| {
            PySpecError::new_err(format!(
                "<dict>: {at}: {value} does not fit a 64-bit signed integer, the largest TOML has"
            ))
        })?;
        return Ok(toml::Value::Integer(number));
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(value.extract()?));
    }
    if value.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(value.extract()?));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items = value
            .try_iter()?
            .enumerate()
            .map(|(index, item)| value_of(&item?, &format!("{at}[{index}]")))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(toml::Value::Array(items));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        return Ok(toml::Value::Table(table(dict, at)?));
    }
    let type_name = value.get_type().name()?;
    Err(PySpecError::new_err(format!(
        "<dict>: {at}: a value of type {type_name} has no TOML form: use a bool, int, float, \
         str, list or dict"
    )))
}
