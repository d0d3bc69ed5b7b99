//! How a staged run (`[stop]`, `[select]`) reads the estimate of the metric it names for each
//! variant: from the study's declared [`Measures`], or from a metric the study estimates
//! beyond them ([`Extra`]), such as Twenty-One's mean payoff per game, whose value depends on
//! each variant's table rules and so cannot be a plain function of the summary.

use crate::analysis::Measures;
use crate::stats::Estimate;

/// Variant `v`'s estimate of a metric from its summary (`v` indexes the experiment's variants).
pub type EstimateFn<'a, S> = dyn Fn(usize, &S) -> Estimate + Sync + 'a;

/// A metric with a 95% interval that a study estimates itself from variant `v`'s summary.
pub struct Extra<'a, S> {
    /// The metric's name, as a spec's `[stop] metric` or `[select] metric` gives it.
    pub name: &'static str,
    /// Variant `v`'s estimate (an index into the experiment's variants) from its summary.
    pub estimate: Box<EstimateFn<'a, S>>,
}

/// The metrics a staged run may read: the declared ones with an interval, then the extras.
pub struct Estimator<'a, S> {
    measures: &'a Measures<S>,
    extras: &'a [Extra<'a, S>],
}

impl<'a, S> Estimator<'a, S> {
    /// The metrics of `measures` with an interval, and `extras`.
    pub fn new(measures: &'a Measures<S>, extras: &'a [Extra<'a, S>]) -> Self {
        Estimator { measures, extras }
    }

    /// The declared measures.
    pub fn measures(&self) -> &'a Measures<S> {
        self.measures
    }

    /// Every metric name it can estimate, declared ones first.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names = super::estimated_names(self.measures);
        names.extend(self.extras.iter().map(|e| e.name));
        names
    }

    /// A reader of metric `name` for (variant, summary), if it is one of [`Estimator::names`].
    pub fn reader(&self, name: &str) -> Option<Reader<'a, S>> {
        if let Some(metric) = self.measures.estimated().find(|m| m.name == name) {
            return Some(Reader::Declared(metric));
        }
        self.extras
            .iter()
            .find(|e| e.name == name)
            .map(|e| Reader::Extra(e.estimate.as_ref()))
    }
}

/// Reads one metric's estimate for a variant.
pub enum Reader<'a, S> {
    /// A declared metric (a proportion, a mean or an estimate).
    Declared(&'a crate::analysis::Metric<S>),
    /// A study's own.
    Extra(&'a EstimateFn<'a, S>),
}

impl<S> Reader<'_, S> {
    /// Variant `v`'s estimate from `summary`.
    ///
    /// # Panics
    /// If a declared metric has no interval: [`Estimator::reader`] never gives one.
    pub fn estimate(&self, v: usize, summary: &S) -> Estimate {
        match self {
            Reader::Declared(metric) => metric
                .estimate(summary)
                .expect("a staged run's metric has an interval"),
            Reader::Extra(estimate) => estimate(v, summary),
        }
    }
}
