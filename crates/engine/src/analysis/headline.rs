//! The one number each variant of an experiment is judged by: the declaration's headline
//! metric with its 95% interval, computed from the summaries alone (no tables, charts or exact
//! solvers), so that it is cheap enough to recompute at every step of a scaling ladder.

use super::{Kind, Measures};
use crate::stats::{normal_estimate, Estimate};

/// Each variant's estimate of a study's headline metric, in variant order.
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    /// The metric's column name, e.g. `mean_turns`.
    pub metric: &'static str,
    /// Plain words for it, e.g. "turns of finished games".
    pub label: &'static str,
    /// One estimate per variant (NaN where the trials cannot give one, e.g. no finished game).
    pub estimates: Vec<Estimate>,
}

impl Headline {
    /// The headline `measures` declares, estimated from `summaries` (one per variant).
    ///
    /// # Panics
    /// If the declared headline is not a proportion, mean or estimate: a programming error in
    /// a study (a count or a plain value has no interval to scale).
    pub fn new<S>(measures: &Measures<S>, summaries: &[S]) -> Headline {
        let metric = measures.metric(measures.headline);
        assert!(
            matches!(
                metric.kind,
                Kind::Proportion { .. } | Kind::Mean(_) | Kind::Estimate(_)
            ),
            "the headline {} must be a proportion, a mean or an estimate",
            metric.name
        );
        Headline {
            metric: metric.name,
            label: metric.label,
            estimates: summaries
                .iter()
                .map(|s| {
                    metric
                        .estimate(s)
                        .unwrap_or_else(|| normal_estimate(f64::NAN, f64::NAN))
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Metric, Pairs};

    struct Coin {
        flips: u64,
        heads: u64,
    }

    fn measures(headline: &'static str) -> Measures<Coin> {
        Measures {
            unit: "flips",
            params: None,
            histogram_params: None,
            metrics: vec![
                Metric {
                    name: "heads",
                    label: "heads",
                    kind: Kind::Count(|c| c.heads),
                },
                Metric {
                    name: "head_rate",
                    label: "share of heads",
                    kind: Kind::Proportion {
                        successes: |c| c.heads,
                        of: |c| c.flips,
                    },
                },
            ],
            families: Vec::new(),
            pairs: Pairs::Auto,
            headline,
            trials: |c| c.flips,
        }
    }

    #[test]
    fn the_headline_is_the_declared_metric_per_variant() {
        let coins = [
            Coin {
                flips: 100,
                heads: 50,
            },
            Coin {
                flips: 400,
                heads: 100,
            },
        ];
        let headline = Headline::new(&measures("head_rate"), &coins);
        assert_eq!(headline.metric, "head_rate");
        assert_eq!(headline.estimates.len(), 2);
        assert_eq!(headline.estimates[0].point, 0.5);
        assert_eq!(headline.estimates[1].point, 0.25);
        let ci = headline.estimates[1].confidence_interval;
        assert!(ci.lower < 0.25 && 0.25 < ci.upper);
    }

    #[test]
    #[should_panic(expected = "must be a proportion")]
    fn a_count_cannot_be_a_headline() {
        Headline::new(&measures("heads"), &[Coin { flips: 1, heads: 1 }]);
    }
}
