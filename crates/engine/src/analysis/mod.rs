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
pub mod decided;
mod grouping;
pub mod headline;
pub mod paired;
pub mod report;
pub mod scaling;
pub mod tables;

use crate::design::PairedSummary;
use crate::games::Paired;
use crate::report::{Block, StudyOutput};
use crate::runner::Decisions;
use crate::spec::Variant;
use crate::stats::{wilson, Estimate};
use crate::summary::IntegerMoments;

pub use comparison::Comparison;
pub use headline::Headline;
pub use paired::Common;

/// The decisions of a fixed run: none.
static NO_DECISIONS: Decisions = Decisions::None;

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
    /// An estimate the study computes itself (e.g. a ratio estimator with its delta-method
    /// standard error), compared by a z-test of the difference.
    Estimate(fn(&S) -> Estimate),
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
    /// None: the study compares its variants with tests of its own (e.g. Monopoly's landing
    /// distributions), so the layer adds no comparison, and its metrics only feed the summary
    /// table, the estimates chart and the report's estimates section.
    Own,
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
    /// A declaration with the usual defaults: every parameter under its own name in every
    /// table, every proportion, mean, estimate and histogram compared in its own family, every
    /// pair compared (up to [`comparison::ALL_PAIRS_LIMIT`] variants).
    pub fn new(
        unit: &'static str,
        trials: fn(&S) -> u64,
        headline: &'static str,
        metrics: Vec<Metric<S>>,
    ) -> Measures<S> {
        Measures {
            unit,
            params: None,
            histogram_params: None,
            metrics,
            families: Vec::new(),
            pairs: Pairs::Auto,
            headline,
            trials,
        }
    }

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

    /// The metrics that have an estimate with an interval (proportions, means, estimates).
    pub fn estimated(&self) -> impl Iterator<Item = &Metric<S>> {
        self.metrics.iter().filter(|m| {
            matches!(
                m.kind,
                Kind::Proportion { .. } | Kind::Mean(_) | Kind::Estimate(_)
            )
        })
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
                    Kind::Proportion { .. }
                        | Kind::Mean(_)
                        | Kind::Estimate(_)
                        | Kind::Histogram { .. }
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
    /// The metric `name`, described as `label`, read from a summary as `kind` says.
    pub fn new(name: &'static str, label: &'static str, kind: Kind<S>) -> Metric<S> {
        Metric { name, label, kind }
    }

    /// The metric's estimate with its 95% interval, for proportions, means and estimates.
    pub fn estimate(&self, summary: &S) -> Option<Estimate> {
        match &self.kind {
            Kind::Proportion { successes, of } => Some(wilson(successes(summary), of(summary))),
            Kind::Mean(moments) => Some(moments(summary).mean_estimate()),
            Kind::Estimate(estimate) => Some(estimate(summary)),
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
    /// The paired statistics of a common design (`None`: an independent design).
    pub common: Option<Common<'a>>,
    /// What a run in stages decided (see [`decided`]).
    pub decisions: &'a Decisions,
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
            common: None,
            decisions: &NO_DECISIONS,
        }
    }

    /// The analysis of a common design when `paired` is given: the families whose metric is
    /// one of the game's paired `values` ([`crate::games::Game::PAIRED`], in the summary's
    /// order) are compared by paired tests on the pairs `paired` keeps, the other families
    /// are left out (their tests assume independent samples), and the report says what the
    /// pairing gained. `None` (an independent design) leaves the analysis as it is.
    ///
    /// # Panics
    /// If a paired value does not match its declared metric (see [`paired::compare`]).
    pub fn with_paired(
        mut self,
        paired: Option<&'a PairedSummary>,
        values: &'static [Paired],
    ) -> Self {
        if let Some(summary) = paired {
            let common = Common { summary, values };
            self.comparisons = paired::compare(self.measures, &self.rows, common);
            self.common = Some(common);
        }
        self
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
            console: vec![Block::Table(self.estimates_table())],
            trials: self.trials(),
            decisions: crate::runner::Decisions::None,
        })
    }

    /// Each variant's estimate of the declared proportion, mean or estimate `metric`, read
    /// through the declaration rather than computed again.
    ///
    /// # Panics
    /// If `metric` is not declared or has no estimate: a programming error in a study.
    pub fn estimates(&self, metric: &str) -> Vec<Estimate> {
        let metric = self.measures.metric(metric);
        self.rows
            .iter()
            .map(|r| {
                metric
                    .estimate(r.summary)
                    .unwrap_or_else(|| panic!("{} has no estimate", metric.name))
            })
            .collect()
    }

    /// Each variant's point estimate of `metric` (see [`Analysis::estimates`]).
    pub fn points(&self, metric: &str) -> Vec<f64> {
        self.estimates(metric).iter().map(|e| e.point).collect()
    }

    /// Each variant's value of the declared plain value `metric` (a median, a deviation).
    ///
    /// # Panics
    /// If `metric` is not a declared value.
    pub fn values(&self, metric: &str) -> Vec<f64> {
        let Kind::Value(value) = self.measures.metric(metric).kind else {
            panic!("{metric} is not a declared value");
        };
        self.rows.iter().map(|r| value(r.summary)).collect()
    }

    /// Each variant's value of the declared count `metric`.
    ///
    /// # Panics
    /// If `metric` is not a declared count.
    pub fn counts(&self, metric: &str) -> Vec<u64> {
        let Kind::Count(count) = self.measures.metric(metric).kind else {
            panic!("{metric} is not a declared count");
        };
        self.rows.iter().map(|r| count(r.summary)).collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{ParamDef, ParamKind, ParamSet, Params};
    use crate::summary::Histogram;

    /// A toy game's summary: successes out of trials, and a histogram of a score.
    #[derive(Default)]
    struct Toy {
        trials: u64,
        hits: u64,
        scores: Histogram,
    }

    /// The toy game's one parameter.
    #[derive(Default, serde::Serialize, serde::Deserialize)]
    struct Level {
        level: i64,
    }

    impl Params for Level {
        const DECLARED: &'static [ParamDef] = &[ParamDef::new(
            "level",
            ParamKind::Int { min: 0, max: 100 },
            "a level",
        )];
    }

    fn scores(s: &Toy) -> &[u64] {
        s.scores.counts()
    }

    fn measures(pairs: Pairs) -> Measures<Toy> {
        Measures {
            unit: "games",
            params: None,
            histogram_params: None,
            metrics: vec![
                Metric {
                    name: "hits",
                    label: "hits",
                    kind: Kind::Count(|s| s.hits),
                },
                Metric {
                    name: "hit_rate",
                    label: "hit rate",
                    kind: Kind::Proportion {
                        successes: |s| s.hits,
                        of: |s| s.trials,
                    },
                },
                Metric {
                    name: "mean_score",
                    label: "score",
                    kind: Kind::Mean(|s| s.scores.moments()),
                },
                Metric {
                    name: "score",
                    label: "games",
                    kind: Kind::Histogram {
                        table: "scores",
                        bin: "score",
                        counts: scores,
                    },
                },
            ],
            families: Vec::new(),
            pairs,
            headline: "hit_rate",
            trials: |s| s.trials,
        }
    }

    fn variants(n: usize) -> Vec<Variant> {
        (0..n)
            .map(|i| {
                let params = ParamSet::from_typed(&Level { level: i as i64 }).expect("declared");
                Variant {
                    index: i,
                    stream: i as u64,
                    name: format!("level-{i}"),
                    params,
                    compare: Default::default(),
                }
            })
            .collect()
    }

    /// Variant `i` hits `10 + i` times in 100 trials and scores 1, 2 or 3 + i/10.
    fn summaries(n: usize) -> Vec<Toy> {
        (0..n)
            .map(|i| {
                let mut toy = Toy {
                    trials: 100,
                    hits: 10 + i as u64,
                    ..Toy::default()
                };
                for k in 0..100 {
                    toy.scores.record(1 + k % 3 + i / 10);
                }
                toy
            })
            .collect()
    }

    #[test]
    fn the_summary_table_follows_the_declaration() {
        let (measures, variants, summaries) = (measures(Pairs::Auto), variants(3), summaries(3));
        let analysis = Analysis::new(&measures, &variants, &summaries);
        let table = analysis.summary_table().expect("table").frame;
        let names: Vec<String> = table
            .get_column_names()
            .iter()
            .map(|n| n.to_string())
            .collect();
        assert_eq!(
            names,
            [
                "variant",
                "level",
                "games",
                "hits",
                "hit_rate",
                "hit_rate_lo",
                "hit_rate_hi",
                "mean_score",
                "mean_score_lo",
                "mean_score_hi"
            ]
        );
        assert_eq!(table.height(), 3);
        assert_eq!(analysis.trials(), 300);
    }

    #[test]
    fn histogram_tables_are_long_with_a_row_per_observed_value() {
        let (measures, variants, summaries) = (measures(Pairs::Auto), variants(2), summaries(2));
        let analysis = Analysis::new(&measures, &variants, &summaries);
        let tables = analysis.histogram_tables().expect("tables");
        assert_eq!(tables.len(), 1);
        assert_eq!(tables[0].name, "scores");
        // Scores 1, 2 and 3 for each of the two variants.
        assert_eq!(tables[0].frame.height(), 6);
        assert_eq!(tables[0].frame.width(), 4, "variant, level, score, count");
    }

    #[test]
    fn a_few_variants_are_compared_in_every_pair_for_each_family() {
        let (measures, variants, summaries) = (measures(Pairs::Auto), variants(4), summaries(4));
        let analysis = Analysis::new(&measures, &variants, &summaries);
        // Three families (hit_rate, mean_score, score) of 4 * 3 / 2 pairs.
        assert_eq!(analysis.comparisons.len(), 18);
        let table = analysis.comparisons_table().expect("table");
        // The shared 14 columns, then the swept parameter of each side.
        assert_eq!(table.frame.width(), 16);
        let level = |side: &str| -> Vec<Option<i64>> {
            let column = table.frame.column(side).expect("column");
            column.i64().expect("whole numbers").iter().collect()
        };
        let expected = |side: fn(&Comparison) -> &str| -> Vec<Option<i64>> {
            let number = |name: &str| name.trim_start_matches("level-").parse().ok();
            analysis
                .comparisons
                .iter()
                .map(|c| number(side(c)))
                .collect()
        };
        assert_eq!(level("a_level"), expected(|c| &c.a));
        assert_eq!(level("b_level"), expected(|c| &c.b));
    }

    #[test]
    fn many_variants_are_each_compared_with_the_best_only() {
        let n = comparison::ALL_PAIRS_LIMIT + 5;
        let (measures, variants, summaries) = (measures(Pairs::Auto), variants(n), summaries(n));
        let analysis = Analysis::new(&measures, &variants, &summaries);
        assert_eq!(analysis.comparisons.len(), 3 * (n - 1));
        let best = format!("level-{}", n - 1);
        assert!(analysis.comparisons.iter().all(|c| c.b == best));
        let small = Analysis::new(&measures, &variants[..3], &summaries[..3]);
        let with_best = measures_with_best();
        let forced = Analysis::new(&with_best, &variants[..3], &summaries[..3]);
        assert_eq!(small.comparisons.len(), 9);
        assert_eq!(
            forced.comparisons.len(),
            6,
            "each of two with the best, three families"
        );
    }

    #[test]
    fn a_study_with_its_own_comparisons_gets_none_from_the_layer() {
        let (measures, variants, summaries) = (measures(Pairs::Own), variants(3), summaries(3));
        let analysis = Analysis::new(&measures, &variants, &summaries);
        assert!(analysis.comparisons.is_empty());
        assert!(analysis.comparisons_blocks().is_empty());
        let section = crate::report::markdown::render(&analysis.estimates_section());
        assert!(section.contains("| level-2 | 100 |"));
    }

    fn measures_with_best() -> Measures<Toy> {
        measures(Pairs::WithBest)
    }

    #[test]
    fn tests_without_data_get_no_adjusted_p_value() {
        let measures = measures(Pairs::Auto);
        let variants = variants(2);
        let empty = vec![Toy::default(), Toy::default()];
        let analysis = Analysis::new(&measures, &variants, &empty);
        let mean = analysis
            .comparisons
            .iter()
            .find(|c| c.family == "mean_score")
            .expect("compared");
        assert!(mean.result.p_value.is_nan());
        assert!(mean.p_holm.is_nan(), "no data, no Holm p-value");
        assert_eq!(analysis.significant("mean_score", 0.05), (0, 0));
    }
}
