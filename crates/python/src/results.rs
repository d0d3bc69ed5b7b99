//! A finished run (or merge) as Python sees it: its tables by name, report, manifest and
//! charts, and the folder written, if any.

use std::path::PathBuf;

use experiment_engine::commands::session::RunResults;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::{to_py, ExperimentError};
use crate::tables::Table;

/// A finished run's results, in memory.
#[pyclass(module = "experiment._engine", frozen)]
pub struct Results {
    results: RunResults,
    folder: Option<PathBuf>,
}

impl Results {
    /// `results`, written into `folder` (if any).
    pub fn new(results: RunResults, folder: Option<PathBuf>) -> Results {
        Results { results, folder }
    }

    /// The chart called `name`, or an error naming the charts.
    fn chart(&self, name: &str) -> PyResult<&experiment_engine::plot::Chart> {
        let charts = &self.results.output.charts;
        charts
            .iter()
            .find(|(stem, _)| stem == name)
            .map(|(_, chart)| chart)
            .ok_or_else(|| {
                let names: Vec<&str> = charts.iter().map(|(stem, _)| stem.as_str()).collect();
                ExperimentError::new_err(format!(
                    "no chart '{name}': this run's charts are {}",
                    names.join(", ")
                ))
            })
    }
}

#[pymethods]
impl Results {
    /// The names of the tables, in the order the report shows them.
    fn table_names(&self) -> Vec<String> {
        let tables = &self.results.output.tables;
        tables.iter().map(|table| table.name.clone()).collect()
    }

    /// The table called `name`.
    fn table(&self, name: &str) -> PyResult<Table> {
        match self.results.table(name) {
            Some(frame) => Ok(Table::new(name, frame.clone())),
            None => Err(ExperimentError::new_err(format!(
                "no table '{name}': this run's tables are {}",
                self.table_names().join(", ")
            ))),
        }
    }

    /// The report as Markdown: exactly `report.md`.
    fn markdown(&self) -> String {
        self.results.markdown()
    }

    /// The report as one self-contained HTML page: exactly `report.html`.
    fn html(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.results.html()).map_err(to_py)
    }

    /// The manifest as JSON text: exactly `manifest.json` (it lists files once written).
    fn manifest_json(&self) -> PyResult<String> {
        self.results.manifest_json().map_err(to_py)
    }

    /// The folder the results were written into, if any.
    #[getter]
    fn folder(&self) -> Option<PathBuf> {
        self.folder.clone()
    }

    /// Trials this run played itself (a top-up reuses the others; a merge plays none).
    #[getter]
    fn played(&self) -> u64 {
        self.results.played
    }

    /// The names of the charts.
    fn chart_names(&self) -> Vec<String> {
        let charts = &self.results.output.charts;
        charts.iter().map(|(stem, _)| stem.clone()).collect()
    }

    /// The chart called `name` as PNG bytes (as `<name>.png` in a results folder).
    fn chart_png<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyBytes>> {
        let chart = self.chart(name)?;
        let png = py.detach(|| chart.png()).map_err(to_py)?;
        Ok(PyBytes::new(py, &png))
    }

    /// The chart called `name` as an SVG document (as `<name>.svg`).
    fn chart_svg(&self, py: Python<'_>, name: &str) -> PyResult<String> {
        let chart = self.chart(name)?;
        py.detach(|| chart.svg()).map_err(to_py)
    }
}
