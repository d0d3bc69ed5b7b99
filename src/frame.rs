//! Tables of results as Polars DataFrames: building them column by column, writing them as
//! CSV or Parquet, and rendering them as Markdown for reports.

use std::path::Path;

use anyhow::{bail, Context, Result};
use polars::prelude::{AnyValue, Column, CsvWriter, DataFrame, ParquetWriter, SerWriter};

use crate::stats::Estimate;

/// Builds a DataFrame one named column at a time.
#[derive(Default)]
pub struct TableBuilder {
    columns: Vec<Column>,
}

impl TableBuilder {
    /// An empty table.
    pub fn new() -> TableBuilder {
        TableBuilder::default()
    }

    /// Adds a text column.
    pub fn text<S: AsRef<str>>(mut self, name: &str, values: impl IntoIterator<Item = S>) -> Self {
        let values: Vec<String> = values.into_iter().map(|v| v.as_ref().to_string()).collect();
        self.columns.push(Column::new(name.into(), values));
        self
    }

    /// Adds a column of counts, stored as signed 64-bit integers so that every reader (R's
    /// arrow has no unsigned 64-bit type) sees plain integers.
    pub fn count(mut self, name: &str, values: impl IntoIterator<Item = u64>) -> Self {
        let values: Vec<i64> = values
            .into_iter()
            .map(|v| i64::try_from(v).unwrap_or(i64::MAX))
            .collect();
        self.columns.push(Column::new(name.into(), values));
        self
    }

    /// Adds a signed integer column.
    pub fn int(mut self, name: &str, values: impl IntoIterator<Item = i64>) -> Self {
        let values: Vec<i64> = values.into_iter().collect();
        self.columns.push(Column::new(name.into(), values));
        self
    }

    /// Adds a floating-point column (NaN is written as an empty/null cell).
    pub fn real(mut self, name: &str, values: impl IntoIterator<Item = f64>) -> Self {
        let values: Vec<Option<f64>> = values
            .into_iter()
            .map(|v| if v.is_nan() { None } else { Some(v) })
            .collect();
        self.columns.push(Column::new(name.into(), values));
        self
    }

    /// Adds an estimate as three columns: `name`, `name_lo` and `name_hi` (its interval).
    pub fn estimate(self, name: &str, estimates: &[Estimate]) -> Self {
        self.real(name, estimates.iter().map(|e| e.point))
            .real(
                &format!("{name}_lo"),
                estimates.iter().map(|e| e.confidence_interval.lower),
            )
            .real(
                &format!("{name}_hi"),
                estimates.iter().map(|e| e.confidence_interval.upper),
            )
    }

    /// The finished DataFrame.
    pub fn build(self) -> Result<DataFrame> {
        DataFrame::new_infer_height(self.columns).context("columns of a table differ in length")
    }
}

/// Table formats the engine writes (a spec names them in `[output] formats`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr, strum::VariantNames,
)]
#[strum(serialize_all = "lowercase")]
pub enum TableFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// Apache Parquet.
    Parquet,
}

impl TableFormat {
    /// File extension and spec name.
    pub fn extension(self) -> &'static str {
        self.into()
    }
}

/// Writes `frame` to `path` in `format`. The table is encoded in memory first and written
/// with one plain file write, so a failure names the real cause (e.g. "No space left on
/// device"), which Polars' Parquet writer would report as "Invalid thrift: transport error".
pub fn write_table(frame: &mut DataFrame, path: &Path, format: TableFormat) -> Result<()> {
    let bytes =
        encode_table(frame, format).with_context(|| format!("cannot encode {}", path.display()))?;
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// `frame` encoded in `format`.
fn encode_table(frame: &mut DataFrame, format: TableFormat) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    match format {
        TableFormat::Csv => CsvWriter::new(&mut bytes)
            .include_header(true)
            .finish(frame)?,
        TableFormat::Parquet => {
            ParquetWriter::new(&mut bytes).finish(frame)?;
        }
    }
    Ok(bytes)
}

/// Encodes a one-row table in every format, so that the threads Polars writes tables with are
/// started before a run takes its output folder: their failing to start (a tight memory or
/// process limit) is then a message, not a panic once the simulation is done.
pub fn start_table_writers() -> Result<()> {
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let started = std::panic::catch_unwind(|| -> Result<()> {
        let mut frame = TableBuilder::new().count("n", [1]).build()?;
        for format in [TableFormat::Csv, TableFormat::Parquet] {
            encode_table(&mut frame, format)?;
        }
        Ok(())
    });
    std::panic::set_hook(quiet);
    match started {
        Ok(result) => result.context("cannot write tables"),
        Err(panic) => {
            let reason = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            bail!(
                "cannot start the threads that write tables ({reason}): too little memory or \
                 too many processes? Nothing was written"
            )
        }
    }
}

/// Formats a number for humans: four significant digits, scientific notation for tiny
/// non-zero magnitudes, thousands left whole.
pub fn format_number(value: f64) -> String {
    if value.is_nan() {
        return "–".to_string();
    }
    if value == 0.0 {
        return "0".to_string();
    }
    let magnitude = value.abs();
    if magnitude < 1e-4 {
        return format!("{value:.2e}");
    }
    if magnitude >= 1000.0 {
        return format!("{value:.1}");
    }
    let digits = (3 - magnitude.log10().floor() as i32).clamp(0, 6) as usize;
    format!("{value:.digits$}")
}

/// Formats a p-value; one that underflows to zero is shown as below the smallest double.
pub fn format_p(value: f64) -> String {
    if value == 0.0 {
        "< 1e-300".to_string()
    } else {
        format_number(value)
    }
}

fn cell(value: AnyValue) -> String {
    match value {
        AnyValue::Null => "–".to_string(),
        AnyValue::Float64(v) => format_number(v),
        AnyValue::Float32(v) => format_number(f64::from(v)),
        AnyValue::String(s) => s.to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        other => other.to_string(),
    }
}

/// Renders a DataFrame as a GitHub-flavoured Markdown table.
pub fn to_markdown(frame: &DataFrame) -> String {
    let columns = frame.columns();
    let names: Vec<String> = columns.iter().map(|c| c.name().to_string()).collect();
    let mut out = format!("| {} |\n", names.join(" | "));
    let aligns: Vec<&str> = columns
        .iter()
        .map(|c| {
            if c.dtype().is_primitive_numeric() {
                "---:"
            } else {
                "---"
            }
        })
        .collect();
    out.push_str(&format!("| {} |\n", aligns.join(" | ")));
    for row in 0..frame.height() {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| c.get(row).map(cell).unwrap_or_default())
            .collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_tables_have_a_header_rule_and_formatted_numbers() {
        let frame = TableBuilder::new()
            .text("strategy", ["a", "b"])
            .count("games", [10, 20])
            .real("rate", [0.123456, f64::NAN])
            .build()
            .expect("table");
        let markdown = to_markdown(&frame);
        let lines: Vec<&str> = markdown.lines().collect();
        assert_eq!(lines[0], "| strategy | games | rate |");
        assert_eq!(lines[1], "| --- | ---: | ---: |");
        assert_eq!(lines[2], "| a | 10 | 0.1235 |");
        assert_eq!(lines[3], "| b | 20 | – |");
    }

    #[test]
    fn numbers_keep_four_significant_digits() {
        assert_eq!(format_number(4.56789), "4.568");
        assert_eq!(format_number(123.456), "123.5");
        assert_eq!(format_number(0.0123456), "0.01235");
        assert_eq!(format_number(12345.6), "12345.6");
        assert_eq!(format_number(0.00001234), "1.23e-5");
        assert_eq!(format_p(0.0), "< 1e-300");
        assert_eq!(format_p(0.04), "0.04000");
    }

    #[test]
    fn csv_output_has_a_header_and_one_line_per_row() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("t.csv");
        let mut frame = TableBuilder::new()
            .text("strategy", ["a", "b"])
            .count("games", [1, 2])
            .build()
            .expect("table");
        write_table(&mut frame, &path, TableFormat::Csv).expect("write");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text, "strategy,games\na,1\nb,2\n");
    }
}
