//! A table as Python sees it: a Polars frame exported through the Arrow C stream interface
//! (`__arrow_c_stream__`, the Arrow PyCapsule protocol), so polars, pyarrow and pandas read it
//! at whatever version the user has, without files and without a shared allocator.

use std::ffi::CStr;

use polars::prelude::{CompatLevel, DataFrame};
use polars_arrow::array::{Array, StructArray};
use polars_arrow::datatypes::{ArrowDataType, Field};
use polars_arrow::ffi::{export_iterator, ArrowArrayStream};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// The capsule name the Arrow PyCapsule interface gives a stream.
const STREAM: &CStr = c"arrow_array_stream";

/// One of a run's tables, read-only.
#[pyclass(module = "experiment._engine", frozen)]
pub struct Table {
    name: String,
    frame: DataFrame,
}

impl Table {
    /// The table `frame`, called `name`.
    pub fn new(name: &str, frame: DataFrame) -> Table {
        Table {
            name: name.to_string(),
            frame,
        }
    }

    /// The frame as an Arrow C stream of struct arrays, one per chunk, with the types of the
    /// oldest Arrow compatibility level (`large_string` rather than `string_view`), which every
    /// reader knows.
    fn stream(&self) -> ArrowArrayStream {
        let mut frame = self.frame.clone();
        frame.rechunk_mut();
        let compat = CompatLevel::oldest();
        let fields: Vec<Field> = frame
            .columns()
            .iter()
            .map(|column| column.field().to_arrow(compat))
            .collect();
        let dtype = ArrowDataType::Struct(fields);
        let chunks: Vec<Box<dyn Array>> = frame
            .iter_chunks(compat, false)
            .map(|batch| {
                let length = batch.height();
                Box::new(StructArray::new(
                    dtype.clone(),
                    length,
                    batch.into_arrays(),
                    None,
                )) as Box<dyn Array>
            })
            .collect();
        let field = Field::new("".into(), dtype, false);
        export_iterator(Box::new(chunks.into_iter().map(Ok)), field)
    }
}

#[pymethods]
impl Table {
    /// The table's name (its file stem in a results folder: `summary`, `comparisons`, ...).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.frame
            .get_column_names()
            .into_iter()
            .map(|name| name.to_string())
            .collect()
    }

    /// The number of rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.frame.height()
    }

    /// The table as an Arrow C stream in a PyCapsule (the Arrow PyCapsule interface). A
    /// requested schema is not honoured: the stream has the table's own types.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        // The consumer moves the stream out (leaving its release empty); a stream never taken
        // is released with the capsule.
        PyCapsule::new_with_value_and_destructor(py, self.stream(), STREAM, |stream, _| {
            drop(stream)
        })
    }

    fn __len__(&self) -> usize {
        self.frame.height()
    }

    fn __repr__(&self) -> String {
        format!(
            "<experiment table '{}': {} rows x {} columns>",
            self.name,
            self.frame.height(),
            self.frame.width()
        )
    }
}
