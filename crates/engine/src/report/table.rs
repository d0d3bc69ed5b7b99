//! A report's own tables: columns with [`Role`]s and cells that keep both the value and how it
//! is shown, so that every renderer aligns, sorts, joins intervals and marks significance from
//! what the study knew, not from the text.

use polars::prelude::{AnyValue, DataFrame};

use super::Text;
use crate::frame::{format_number, format_p, NamedTable, Role, TableBuilder};
use crate::stats::Estimate;

/// One column: its header and what its cells are.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The header's words.
    pub header: String,
    /// What the column holds.
    pub role: Role,
}

/// The value behind a cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Words (sorted as text).
    Text,
    /// A number (sorted by value).
    Number(f64),
    /// Nothing: shown as a dash or "no data", sorted last.
    Missing,
}

/// One cell: what it shows and the value it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// How it is shown.
    pub text: Text,
    /// Its value.
    pub value: Value,
}

impl Cell {
    /// Words.
    pub fn text(words: impl Into<Text>) -> Cell {
        Cell {
            text: words.into(),
            value: Value::Text,
        }
    }

    /// A whole number.
    pub fn count(n: u64) -> Cell {
        Cell::shown(n.to_string(), n as f64)
    }

    /// A number with four significant digits (a dash when it is NaN).
    pub fn number(x: f64) -> Cell {
        Cell::shown(format_number(x), x)
    }

    /// A p-value (one that underflows to zero is shown as below the smallest double), or
    /// `no data` when the test had none.
    pub fn p(x: f64) -> Cell {
        if x.is_nan() {
            Cell::missing("no data")
        } else {
            Cell::shown(format_p(x), x)
        }
    }

    /// An estimate as `177.5 [177.3, 177.8]` (`no data` when it has none), sorted by its
    /// point.
    pub fn estimate(estimate: &Estimate) -> Cell {
        if estimate.point.is_nan() {
            return Cell::missing("no data");
        }
        Cell::shown(estimate_text(estimate), estimate.point)
    }

    /// `shown` standing for the number `value` (NaN: no value).
    pub fn shown(shown: impl Into<Text>, value: f64) -> Cell {
        Cell {
            text: shown.into(),
            value: if value.is_nan() {
                Value::Missing
            } else {
                Value::Number(value)
            },
        }
    }

    /// A cell without a value, shown as `shown` (a dash, `no data`).
    pub fn missing(shown: &str) -> Cell {
        Cell {
            text: shown.into(),
            value: Value::Missing,
        }
    }
}

/// An estimate as `177.5 [177.3, 177.8]`, its point alone when it has no interval, or
/// `no data` when it has none.
pub fn estimate_text(estimate: &Estimate) -> String {
    if estimate.point.is_nan() {
        return "no data".to_string();
    }
    let ci = estimate.confidence_interval;
    if ci.lower.is_nan() {
        format_number(estimate.point)
    } else {
        format!(
            "{} [{}, {}]",
            format_number(estimate.point),
            format_number(ci.lower),
            format_number(ci.upper)
        )
    }
}

/// A table of a report: columns and rows of cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The columns, in the order shown.
    pub columns: Vec<Column>,
    /// The rows, each with one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// A table with these columns and no rows.
    pub fn new(columns: impl IntoIterator<Item = (impl Into<String>, Role)>) -> Table {
        Table {
            columns: columns
                .into_iter()
                .map(|(header, role)| Column {
                    header: header.into(),
                    role,
                })
                .collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row (one cell per column).
    ///
    /// # Panics
    /// If the row has another number of cells than the table has columns: a programming error.
    pub fn row(&mut self, cells: Vec<Cell>) {
        assert_eq!(cells.len(), self.columns.len(), "one cell per column");
        self.rows.push(cells);
    }

    /// Whether column `index` holds numbers (right-aligned, sorted by value): by its role,
    /// or for a parameter by whether any of its cells has a number.
    pub fn numeric(&self, index: usize) -> bool {
        self.columns[index].role.numeric().unwrap_or_else(|| {
            self.rows
                .iter()
                .any(|row| matches!(row[index].value, Value::Number(_)))
        })
    }

    /// The table `builder` makes, as a report table (each column with the role it was given).
    pub fn from_builder(builder: TableBuilder) -> anyhow::Result<Table> {
        Ok(Table::from_named(&builder.named("report")?))
    }

    /// A run's data table as a report table: every column with its role, numbers shown with
    /// four significant digits and empty cells as a dash.
    pub fn from_named(table: &NamedTable) -> Table {
        Table::from_frame(&table.frame, &table.roles)
    }

    /// `frame` as a report table whose columns have `roles` (in column order).
    pub fn from_frame(frame: &DataFrame, roles: &[Role]) -> Table {
        let columns = frame.columns();
        let mut table = Table::new(
            columns
                .iter()
                .zip(roles)
                .map(|(c, role)| (c.name().to_string(), *role)),
        );
        for row in 0..frame.height() {
            table.row(
                columns
                    .iter()
                    .map(|c| c.get(row).map_or(Cell::missing("–"), cell))
                    .collect(),
            );
        }
        table
    }
}

/// A data frame's value as a report cell.
fn cell(value: AnyValue) -> Cell {
    match value {
        AnyValue::Null => Cell::missing("–"),
        AnyValue::Float64(v) => Cell::number(v),
        AnyValue::Float32(v) => Cell::number(f64::from(v)),
        AnyValue::String(s) => Cell::text(s),
        AnyValue::StringOwned(s) => Cell::text(s.as_str()),
        AnyValue::Int64(v) => Cell::shown(v.to_string(), v as f64),
        AnyValue::UInt64(v) => Cell::count(v),
        AnyValue::Int32(v) => Cell::shown(v.to_string(), f64::from(v)),
        AnyValue::UInt32(v) => Cell::shown(v.to_string(), f64::from(v)),
        AnyValue::Boolean(v) => Cell::text(v.to_string()),
        other => Cell::text(other.to_string()),
    }
}
