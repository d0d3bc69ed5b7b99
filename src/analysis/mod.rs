//! The analysis every game shares, built from a declaration of what one trial measures.
//!
//! A study declares its [`Measures`]: named counts, proportions (Wilson intervals), means
//! (Student-t intervals), plain derived values and integer histograms, each read from the
//! game's summary. From that declaration alone the engine builds the per-variant summary table,
//! the long histogram tables, the pairwise comparisons (one schema for every game), default
//! charts and the report's tables and comparison sections. A study adds only what is particular
//! to its game: the plain-language reading, exact values, special charts.

pub mod charts;
pub mod comparison;
pub mod report;
pub mod tables;

use crate::spec::Variant;
use crate::stats::{wilson, Estimate};
use crate::studies::StudyOutput;
use crate::summary::IntegerMoments;

pub use comparison::Comparison;

/// How one named quantity is read from a summary of type `S`.
pub enum Kind<S> {
    /// A whole-number column (a count, a maximum), not compared.
    Count(fn(&S) -> u64),
    /// A share of trials (or of a subset): successes and the number they are out of.
    Proportion {
        /// Trials where it happened.
        successes: fn(&S) -> u64,
        /// The denominator (all trials, or a named subset such as finished games).
        of: fn(&S) -> u64,
    },
    /// The mean of an integer quantity over the trials (or subset) its moments count.
    Mean(fn(&S) -> IntegerMoments),
    /// A derived number without an interval (a standard deviation, a median), not compared.
    Value(fn(&S) -> f64),
    /// An exact histogram of an integer quantity (index = value).
    Histogram {
        /// The table the histogram's rows go to (e.g. `histogram`).
        table: &'static str,
        /// The column naming the binned value (e.g. `turns`).
        bin: &'static str,
        /// The counts by value.
        counts: fn(&S) -> &[u64],
    },
}

/// One named quantity a study measures.
pub struct Metric<S> {
    /// Column name (and, for estimates, the stem of `_lo`/`_hi`).
    pub name: &'static str,
    /// Plain words for charts and reports, e.g. "mean turns of finished games".
    pub label: &'static str,
    /// How it is read from a summary.
    pub kind: Kind<S>,
}

/// A family of pairwise comparisons: Holm's correction runs within it.
pub struct Family {
    /// The family's name in the comparisons table.
    pub name: &'static str,
    /// The metric compared (a proportion, a mean or a histogram).
    pub metric: &'static str,
}

/// Which pairs of variants are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairs {
    /// Every pair, up to [`comparison::ALL_PAIRS_LIMIT`] variants; each with the best beyond.
    Auto,
    /// Each variant with the one with the highest headline estimate.
    WithBest,
}

/// Everything a study measures, in the order its tables show it.
pub struct Measures<S> {
    /// What one trial is called in tables (`games`, `hands`): the trial-count column.
    pub unit: &'static str,
    /// Parameter columns of the summary table as (parameter, column name); `None` = every
    /// parameter under its own name.
    pub params: Option<Vec<(&'static str, &'static str)>>,
    /// Parameter columns of histogram tables, as for `params`.
    pub histogram_params: Option<Vec<(&'static str, &'static str)>>,
    /// The quantities, in summary-table order.
    pub metrics: Vec<Metric<S>>,
    /// Comparison families in order; empty = every proportion, mean and histogram in
    /// declaration order, each its own family.
    pub families: Vec<Family>,
    /// Which pairs of variants the comparisons test.
    pub pairs: Pairs,
    /// The one metric that answers the experiment's main question (e.g. for scaling studies).
    pub headline: &'static str,
    /// Number of trials a summary holds.
    pub trials: fn(&S) -> u64,
}

impl<S> Measures<S> {
    /// The metric called `name`.
    ///
    /// # Panics
    /// If the declaration has no such metric: a programming error in a study.
    pub fn metric(&self, name: &str) -> &Metric<S> {
        self.metrics
            .iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("no metric named {name} is declared"))
    }

    /// The comparison families, explicit or by default.
    pub fn families(&self) -> Vec<Family> {
        if !self.families.is_empty() {
            return self
                .families
                .iter()
                .map(|f| Family {
                    name: f.name,
                    metric: f.metric,
                })
                .collect();
        }
        self.metrics
            .iter()
            .filter(|m| {
                matches!(
                    m.kind,
                    Kind::Proportion { .. } | Kind::Mean(_) | Kind::Histogram { .. }
                )
            })
            .map(|m| Family {
                name: m.name,
                metric: m.name,
            })
            .collect()
    }
}

impl<S> Metric<S> {
    /// The metric's estimate with its 95% interval, for proportions and means.
    pub fn estimate(&self, summary: &S) -> Option<Estimate> {
        match &self.kind {
            Kind::Proportion { successes, of } => Some(wilson(successes(summary), of(summary))),
            Kind::Mean(moments) => Some(moments(summary).mean_estimate()),
            _ => None,
        }
    }
}

/// One variant's summary beside the variant it came from.
pub struct Measured<'a, S> {
    /// The variant.
    pub variant: &'a Variant,
    /// Its summary.
    pub summary: &'a S,
}

/// The variants of a run with their summaries, and the comparisons between them.
pub struct Analysis<'a, S> {
    /// What is measured.
    pub measures: &'a Measures<S>,
    /// Each variant with its summary, in spec order.
    pub rows: Vec<Measured<'a, S>>,
    /// Pairwise comparisons, Holm-adjusted within each family.
    pub comparisons: Vec<Comparison>,
}

impl<'a, S> Analysis<'a, S> {
    /// Analyses `summaries` of `variants` (in the same order) as `measures` declares.
    pub fn new(measures: &'a Measures<S>, variants: &'a [Variant], summaries: &'a [S]) -> Self {
        let rows: Vec<Measured<S>> = variants
            .iter()
            .zip(summaries)
            .map(|(variant, summary)| Measured { variant, summary })
            .collect();
        let comparisons = comparison::compare(measures, &rows);
        Analysis {
            measures,
            rows,
            comparisons,
        }
    }

    /// Trials played over all variants.
    pub fn trials(&self) -> u64 {
        self.rows
            .iter()
            .map(|r| (self.measures.trials)(r.summary))
            .sum()
    }

    /// Everything the declaration alone gives, ready to write: the standard tables, report,
    /// charts, and the estimates as the console summary.
    pub fn standard_output(&self) -> anyhow::Result<StudyOutput> {
        Ok(StudyOutput {
            tables: self.standard_tables()?,
            report: self.standard_report(),
            charts: self.standard_charts(),
            console: self.estimates_markdown(),
            trials: self.trials(),
        })
    }

    /// The headline metric's estimate for each variant.
    pub fn headline(&self) -> Vec<Option<Estimate>> {
        let metric = self.measures.metric(self.measures.headline);
        self.rows
            .iter()
            .map(|r| metric.estimate(r.summary))
            .collect()
    }
}
