//! What a study adds to the shared output ([`Analysis::standard_output`]): its own tables and
//! charts in place of the shared ones of the same name, and report tables of the quantities
//! its [`Measures`](crate::analysis::Measures) declares, read through the declaration rather
//! than computed again.

use anyhow::Result;

use crate::analysis::{Analysis, Kind};
use crate::frame::{NamedTable, TableBuilder};
use crate::plot::Chart;
use crate::report::{StudyOutput, Table};
use crate::stats::Estimate;

/// Changes a study makes to the output the shared analysis gives.
pub trait Particular {
    /// Puts `table` in place of the table of the same name, or after the others.
    fn put_table(&mut self, table: NamedTable);
    /// Puts `chart` under `stem` in place of the chart of that stem, or after the others.
    fn put_chart(&mut self, stem: &str, chart: Chart);
    /// Takes out the chart `stem` (a shared chart the study does not show).
    fn remove_chart(&mut self, stem: &str);
}

impl Particular for StudyOutput {
    fn put_table(&mut self, table: NamedTable) {
        match self.tables.iter_mut().find(|t| t.name == table.name) {
            Some(slot) => *slot = table,
            None => self.tables.push(table),
        }
    }

    fn put_chart(&mut self, stem: &str, chart: Chart) {
        match self.charts.iter_mut().find(|(s, _)| s == stem) {
            Some(slot) => slot.1 = chart,
            None => self.charts.push((stem.to_string(), chart)),
        }
    }

    fn remove_chart(&mut self, stem: &str) {
        self.charts.retain(|(s, _)| s != stem);
    }
}

/// A table built column by column, with its columns' roles, as a report table.
pub fn report_table(table: TableBuilder) -> Result<Table> {
    Ok(Table::from_named(&table.named("report")?))
}

/// Each variant's estimate of the declared proportion, mean or estimate `metric`.
///
/// # Panics
/// If `metric` is not declared or has no interval: a programming error in a study.
pub fn estimates<S>(analysis: &Analysis<S>, metric: &str) -> Vec<Estimate> {
    let metric = analysis.measures.metric(metric);
    analysis
        .rows
        .iter()
        .map(|r| {
            metric
                .estimate(r.summary)
                .unwrap_or_else(|| panic!("{} has no estimate", metric.name))
        })
        .collect()
}

/// Each variant's point estimate of the declared proportion, mean or estimate `metric`.
pub fn points<S>(analysis: &Analysis<S>, metric: &str) -> Vec<f64> {
    estimates(analysis, metric)
        .iter()
        .map(|e| e.point)
        .collect()
}

/// Each variant's value of the declared plain value `metric` (a median, a standard
/// deviation).
///
/// # Panics
/// If `metric` is not a declared value.
pub fn values<S>(analysis: &Analysis<S>, metric: &str) -> Vec<f64> {
    let Kind::Value(value) = analysis.measures.metric(metric).kind else {
        panic!("{metric} is not a declared value");
    };
    analysis.rows.iter().map(|r| value(r.summary)).collect()
}

/// Each variant's value of the declared count `metric`.
///
/// # Panics
/// If `metric` is not a declared count.
pub fn counts<S>(analysis: &Analysis<S>, metric: &str) -> Vec<u64> {
    let Kind::Count(count) = analysis.measures.metric(metric).kind else {
        panic!("{metric} is not a declared count");
    };
    analysis.rows.iter().map(|r| count(r.summary)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::{BarChart, Chart};

    fn table(name: &str, column: &str) -> NamedTable {
        TableBuilder::new()
            .count(column, [1])
            .named(name)
            .expect("table")
    }

    fn chart() -> Chart {
        Chart::Bars(BarChart {
            x_label: String::new(),
            y_label: String::new(),
            panels: Vec::new(),
            shared_scale: false,
            legend: Vec::new(),
        })
    }

    #[test]
    fn a_study_s_table_takes_the_place_of_the_shared_one_of_its_name() {
        let mut output = StudyOutput {
            tables: vec![table("summary", "shared"), table("comparisons", "shared")],
            report: Vec::new(),
            charts: vec![("estimates".into(), chart()), ("histogram".into(), chart())],
            console: Vec::new(),
            trials: 0,
        };
        output.put_table(table("summary", "own"));
        output.put_table(table("cycles", "own"));
        let names: Vec<&str> = output.tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["summary", "comparisons", "cycles"]);
        assert_eq!(output.tables[0].frame.get_column_names()[0].as_str(), "own");
        output.remove_chart("histogram");
        output.put_chart("game_length", chart());
        output.put_chart("estimates", chart());
        let stems: Vec<&str> = output.charts.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(stems, ["estimates", "game_length"]);
    }
}
