//! The tables a declaration implies: one summary row per variant, long histogram tables, and
//! the comparisons table.

use anyhow::Result;

use super::{comparison, Analysis, Kind, Measured};
use crate::frame::{NamedTable, Role, TableBuilder};
use crate::params::{Identity, ParamValue};
use crate::spec::Variant;
use crate::stats::Estimate;

/// Adds the variants' parameter columns, as `(parameter, column)` pairs or all of them.
///
/// `template` is any variant of the run: it gives the columns and their types even when
/// `rows` is empty.
fn param_columns<S>(
    mut table: TableBuilder,
    rows: &[&Measured<S>],
    columns: Option<&Vec<(&'static str, &'static str)>>,
    template: Option<&Variant>,
) -> TableBuilder {
    let Some(template) = template else {
        return table;
    };
    let shown = |name: &str| rows.iter().any(|r| r.variant.params.shows(name));
    let mut columns: Vec<(&str, &str)> = match columns {
        Some(list) => list.clone(),
        None => template
            .params
            .declared()
            .filter(|(def, _)| def.identity == Identity::Always)
            .map(|(def, _)| (def.name, def.name))
            .collect(),
    };
    // A rule appears only when some variant changes it, under its own name.
    for (def, _) in template.params.declared() {
        if def.identity == Identity::WhenChanged && shown(def.name) {
            columns.push((def.name, def.name));
        }
    }
    for (param, column) in columns {
        let values: Vec<&ParamValue> = rows.iter().map(|r| r.variant.params.get(param)).collect();
        table = match template.params.get(param) {
            ParamValue::Int(_) => table.int(
                column,
                values.iter().map(|v| match v {
                    ParamValue::Int(x) => *x,
                    _ => i64::MIN,
                }),
            ),
            ParamValue::Float(_) => table.real(
                column,
                values.iter().map(|v| match v {
                    ParamValue::Float(x) => *x,
                    _ => f64::NAN,
                }),
            ),
            _ => table.text(column, values.iter().map(|v| v.to_string())),
        }
        .role(Role::Parameter);
    }
    table
}

impl<S> Analysis<'_, S> {
    fn template(&self) -> Option<&Variant> {
        self.rows.first().map(|r| r.variant)
    }

    /// One row per variant: its name, parameters, trial count and every declared quantity
    /// (estimates with `_lo` and `_hi` columns).
    pub fn summary_table(&self) -> Result<NamedTable> {
        let rows: Vec<&Measured<S>> = self.rows.iter().collect();
        let mut table = TableBuilder::new()
            .text("variant", rows.iter().map(|r| &r.variant.name))
            .role(Role::Label);
        table = param_columns(table, &rows, self.measures.params.as_ref(), self.template());
        table = table.count(
            self.measures.unit,
            rows.iter().map(|r| (self.measures.trials)(r.summary)),
        );
        table = self.decided_columns(table);
        for metric in &self.measures.metrics {
            table = match &metric.kind {
                Kind::Count(f) => table.count(metric.name, rows.iter().map(|r| f(r.summary))),
                Kind::Value(f) => table.real(metric.name, rows.iter().map(|r| f(r.summary))),
                Kind::Proportion { .. } | Kind::Mean(_) | Kind::Estimate(_) => {
                    let estimates: Vec<Estimate> = rows
                        .iter()
                        .filter_map(|r| metric.estimate(r.summary))
                        .collect();
                    table.estimate(metric.name, &estimates)
                }
                Kind::Histogram { .. } => table,
            };
        }
        table.named("summary")
    }

    /// One long table per histogram table name: variant, parameters, bin, `count`, with a row
    /// for every value observed at least once.
    pub fn histogram_tables(&self) -> Result<Vec<NamedTable>> {
        let mut out = Vec::new();
        for metric in &self.measures.metrics {
            let Kind::Histogram { table, bin, counts } = &metric.kind else {
                continue;
            };
            let mut rows = Vec::new();
            let (mut bins, mut values) = (Vec::new(), Vec::new());
            for row in &self.rows {
                for (value, &count) in counts(row.summary).iter().enumerate() {
                    if count > 0 {
                        rows.push(row);
                        bins.push(value as u64);
                        values.push(count);
                    }
                }
            }
            let frame = TableBuilder::new()
                .text("variant", rows.iter().map(|r| &r.variant.name))
                .role(Role::Label);
            let frame = param_columns(
                frame,
                &rows,
                self.measures.histogram_params.as_ref(),
                self.template(),
            )
            .count(bin, bins)
            .role(Role::Bin)
            .count("count", values)
            .named(table)?;
            out.push(frame);
        }
        Ok(out)
    }

    /// The comparisons table, in the schema every game shares, with the parameters of each
    /// side that the variants vary.
    pub fn comparisons_table(&self) -> Result<NamedTable> {
        let variants: Vec<&Variant> = self.rows.iter().map(|r| r.variant).collect();
        comparison::table(&self.comparisons, &variants)
    }

    /// The summary, histogram and comparisons tables, in that order.
    pub fn standard_tables(&self) -> Result<Vec<NamedTable>> {
        let mut tables = vec![self.summary_table()?];
        tables.extend(self.histogram_tables()?);
        tables.push(self.comparisons_table()?);
        Ok(tables)
    }
}
