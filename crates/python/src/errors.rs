//! The package's exceptions, and the engine's errors turned into them: a spec that cannot be
//! used is a `SpecError`, any other refusal an `ExperimentError` (both `ValueError`s), and a
//! run stopped by Ctrl-C a `KeyboardInterrupt` that says what was kept.

use experiment_engine::commands::session::Interrupted;
use experiment_engine::spec::SpecError as EngineSpecError;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::PyErr;

pyo3::create_exception!(
    _engine,
    ExperimentError,
    PyValueError,
    "The engine refused or could not finish the work; the message says why and what to do."
);

pyo3::create_exception!(
    _engine,
    SpecError,
    ExperimentError,
    "A spec that cannot be used: the message names its file (or <string>, <dict>), the line \
     and key, and the valid choices, as the command line's do."
);

/// The Python exception for an engine error, with the whole chain of its causes as the
/// message (as the command line prints it after `Error:`).
pub fn to_py(error: anyhow::Error) -> PyErr {
    if let Some(interrupted) = error.downcast_ref::<Interrupted>() {
        return PyKeyboardInterrupt::new_err(interrupted.to_string());
    }
    let message = format!("{error:#}");
    if error.chain().any(|cause| cause.is::<EngineSpecError>()) {
        SpecError::new_err(message)
    } else {
        ExperimentError::new_err(message)
    }
}
