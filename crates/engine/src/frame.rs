//! Tables of results as Polars DataFrames: building them column by column with each column's
//! role, and writing them as CSV or Parquet.

use std::path::Path;

use anyhow::{bail, Context, Result};
use polars::prelude::{Column, CsvWriter, DataFrame, ParquetWriter, SerWriter};

use crate::stats::Estimate;

/// What a column of a table holds, as the code that built it knows: renderers align, sort,
/// join intervals, mark significance and fold histograms by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Names the row (a variant, a pairing, a square): the page's variant filter matches it.
    Label,
    /// A variant's parameter value (a number or a choice).
    Parameter,
    /// Words.
    Text,
    /// A whole number.
    Count,
    /// A plain number (a statistic, a derived value).
    Number,
    /// A point estimate whose interval follows in a [`Role::Lower`] and a [`Role::Upper`]
    /// column.
    Estimate,
    /// The lower end of the interval of the estimate before it.
    Lower,
    /// The upper end of the interval of the estimate before it.
    Upper,
    /// An interval already written as words (`[lo, hi]`).
    Interval,
    /// A p-value.
    PValue,
    /// A Holm-adjusted p-value: a row where it is below the significance level is marked.
    Holm,
    /// Says in words whether the row's Holm-adjusted test is significant (`yes`/`no`): the
    /// table's own mark, so a renderer adds none of its own.
    Verdict,
    /// An effect size (a difference, Cramér's V).
    Effect,
    /// The value a histogram's row counts (`turns`, `stake`): its table is a histogram.
    Bin,
}

impl Role {
    /// Whether the column holds numbers; `None` for a parameter, which may be either.
    pub fn numeric(self) -> Option<bool> {
        match self {
            Role::Label | Role::Text | Role::Interval | Role::Verdict => Some(false),
            Role::Parameter => None,
            _ => Some(true),
        }
    }
}

/// A named table, written as `<name>.csv` and/or `<name>.parquet`, with the role of each of its
/// columns.
pub struct NamedTable {
    /// File stem.
    pub name: String,
    /// Contents.
    pub frame: DataFrame,
    /// The role of each column, in column order.
    pub roles: Vec<Role>,
}

impl NamedTable {
    /// Whether the table counts the values of a quantity (it has a [`Role::Bin`] column).
    pub fn is_histogram(&self) -> bool {
        self.roles.contains(&Role::Bin)
    }
}

/// Builds a DataFrame one named column at a time, keeping each column's [`Role`].
#[derive(Default)]
pub struct TableBuilder {
    columns: Vec<Column>,
    roles: Vec<Role>,
}

impl TableBuilder {
    /// An empty table.
    pub fn new() -> TableBuilder {
        TableBuilder::default()
    }

    /// Adds a text column.
    pub fn text<S: AsRef<str>>(self, name: &str, values: impl IntoIterator<Item = S>) -> Self {
        let values: Vec<String> = values.into_iter().map(|v| v.as_ref().to_string()).collect();
        self.push(Column::new(name.into(), values), Role::Text)
    }

    /// Adds a column of counts, stored as signed 64-bit integers so that every reader (R's
    /// arrow has no unsigned 64-bit type) sees plain integers.
    pub fn count(self, name: &str, values: impl IntoIterator<Item = u64>) -> Self {
        let values: Vec<i64> = values
            .into_iter()
            .map(|v| i64::try_from(v).unwrap_or(i64::MAX))
            .collect();
        self.push(Column::new(name.into(), values), Role::Count)
    }

    /// Adds a column of counts where some rows have none (an empty/null cell), stored as
    /// [`TableBuilder::count`] stores them.
    pub fn optional_count(self, name: &str, values: impl IntoIterator<Item = Option<u64>>) -> Self {
        let values: Vec<Option<i64>> = values
            .into_iter()
            .map(|v| v.map(|v| i64::try_from(v).unwrap_or(i64::MAX)))
            .collect();
        self.push(Column::new(name.into(), values), Role::Count)
    }

    /// Adds a signed integer column.
    pub fn int(self, name: &str, values: impl IntoIterator<Item = i64>) -> Self {
        let values: Vec<i64> = values.into_iter().collect();
        self.push(Column::new(name.into(), values), Role::Number)
    }

    /// Adds a signed integer column where some rows have none (an empty/null cell).
    pub fn optional_int(self, name: &str, values: impl IntoIterator<Item = Option<i64>>) -> Self {
        let values: Vec<Option<i64>> = values.into_iter().collect();
        self.push(Column::new(name.into(), values), Role::Number)
    }

    /// Adds a text column where some rows have none (an empty/null cell).
    pub fn optional_text(
        self,
        name: &str,
        values: impl IntoIterator<Item = Option<String>>,
    ) -> Self {
        let values: Vec<Option<String>> = values.into_iter().collect();
        self.push(Column::new(name.into(), values), Role::Text)
    }

    /// Adds a floating-point column (NaN is written as an empty/null cell).
    pub fn real(self, name: &str, values: impl IntoIterator<Item = f64>) -> Self {
        let values: Vec<Option<f64>> = values
            .into_iter()
            .map(|v| if v.is_nan() { None } else { Some(v) })
            .collect();
        self.push(Column::new(name.into(), values), Role::Number)
    }

    /// Adds an estimate as three columns: `name`, `name_lo` and `name_hi` (its interval).
    pub fn estimate(self, name: &str, estimates: &[Estimate]) -> Self {
        self.interval(
            name,
            estimates.iter().map(|e| e.point),
            estimates.iter().map(|e| e.confidence_interval.lower),
            estimates.iter().map(|e| e.confidence_interval.upper),
        )
    }

    /// Adds an estimate given as its points, lower and upper ends: columns `name`, `name_lo`
    /// and `name_hi`.
    pub fn interval(
        self,
        name: &str,
        points: impl IntoIterator<Item = f64>,
        lower: impl IntoIterator<Item = f64>,
        upper: impl IntoIterator<Item = f64>,
    ) -> Self {
        self.real(name, points)
            .role(Role::Estimate)
            .real(&format!("{name}_lo"), lower)
            .role(Role::Lower)
            .real(&format!("{name}_hi"), upper)
            .role(Role::Upper)
    }

    /// Gives the column added last the role `role`.
    pub fn role(mut self, role: Role) -> Self {
        if let Some(last) = self.roles.last_mut() {
            *last = role;
        }
        self
    }

    fn push(mut self, column: Column, role: Role) -> Self {
        self.columns.push(column);
        self.roles.push(role);
        self
    }

    /// The finished DataFrame.
    pub fn build(self) -> Result<DataFrame> {
        DataFrame::new_infer_height(self.columns).context("columns of a table differ in length")
    }

    /// The finished table, named `name`, with its columns' roles.
    pub fn named(self, name: &str) -> Result<NamedTable> {
        let roles = self.roles.clone();
        Ok(NamedTable {
            name: name.to_string(),
            frame: self.build()?,
            roles,
        })
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

/// A share as a percentage with four significant digits, e.g. `46.21%`.
pub fn percent(value: f64) -> String {
    format!("{}%", format_number(100.0 * value))
}

/// Formats a p-value; one that underflows to zero is shown as below the smallest double.
pub fn format_p(value: f64) -> String {
    if value == 0.0 {
        "< 1e-300".to_string()
    } else {
        format_number(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
