//! Pairwise comparisons between variants, one schema for every game: the tests a declaration
//! implies (Welch for means, two-proportion z for proportions, chi-square homogeneity for
//! histograms; in a common design the paired tests of [`super::paired`]), Holm's correction
//! within each family, and the `comparisons` table.

use std::borrow::Borrow;
use std::collections::HashMap;

use anyhow::Result;

use super::{Kind, Measured, Measures, Pairs};
use crate::design::group_pairs;
use crate::frame::{NamedTable, Role, TableBuilder};
use crate::params::{ParamDef, ParamValue};
use crate::spec::{Compare, Variant};
use crate::stats::{self, ConfidenceInterval, Estimate, TestResult};

/// Up to this many variants every pair is compared; beyond it each variant is compared with
/// the best one only, so the table grows linearly rather than quadratically.
pub const ALL_PAIRS_LIMIT: usize = 20;

/// What a test without information reads in the `test` column of `comparisons.csv`.
pub const NO_DATA: &str = "no data";

/// A two-proportion test, or [`no_data`] when both sides are all successes or all failures
/// (0 against 0, say), or when a side has nothing to take a proportion of (a share of games
/// of a kind none of which was played): such a pair carries no information, so it has no
/// p-value.
fn proportion_test(successes_a: u64, n_a: u64, successes_b: u64, n_b: u64) -> TestResult {
    let result = stats::two_proportion_z(successes_a, n_a, successes_b, n_b);
    let pooled = successes_a + successes_b;
    if n_a == 0 || n_b == 0 || pooled == 0 || pooled == n_a + n_b {
        no_data(result)
    } else {
        result
    }
}

/// `result` marked as a test without data: no statistic, p-value or effect (all NaN, written
/// as empty cells), and [`NO_DATA`] as its test.
pub fn no_data(result: TestResult) -> TestResult {
    let nan = stats::normal_estimate(f64::NAN, f64::NAN);
    TestResult {
        test: NO_DATA,
        statistic: f64::NAN,
        df: f64::NAN,
        p_value: f64::NAN,
        effect: nan,
        ..result
    }
}

/// The test of `a` against `b` on metric `kind`, or `None` for kinds that are not compared.
fn test<S>(kind: &Kind<S>, a: &S, b: &S) -> Option<TestResult> {
    match kind {
        Kind::Proportion { successes, of } => {
            Some(proportion_test(successes(a), of(a), successes(b), of(b)))
        }
        Kind::Mean(moments) => Some(stats::welch_t(&moments(a), &moments(b))),
        Kind::Estimate(estimate) => Some(stats::difference_z(&estimate(a), &estimate(b))),
        Kind::Histogram { counts, .. } => {
            Some(stats::chi_square_homogeneity(&[counts(a), counts(b)]))
        }
        Kind::Count(_) | Kind::Value(_) => None,
    }
}

/// The pairs of `variants` (indices) compared when the study's declaration says `pairs`:
/// within each group of `compare` (every variant when it groups nothing), every pair `(a, b)`
/// with `a < b` up to [`ALL_PAIRS_LIMIT`] variants unless the study compares with the best
/// ([`Pairs::WithBest`]), else each member with the group's `best(group)`; ordered by `a`,
/// then `b`. [`Pairs::Own`] counts as [`Pairs::Auto`] here: the caller decides whether the
/// layer compares at all.
pub fn compared_pairs(
    compare: &Compare,
    variants: &[&Variant],
    pairs: Pairs,
    best: impl FnMut(&[usize]) -> usize,
) -> Vec<(usize, usize)> {
    let params: Vec<&crate::params::ParamSet> = variants.iter().map(|v| &v.params).collect();
    let groups = compare.groups(&params);
    let every = |group: &[usize]| group.len() <= ALL_PAIRS_LIMIT && pairs != Pairs::WithBest;
    group_pairs(&groups, every, best)
}

/// The pairs of row indices to compare: none when the study compares its variants itself,
/// else [`compared_pairs`], each group's best being its first variant with the highest
/// headline estimate.
pub(super) fn pairs<S>(measures: &Measures<S>, rows: &[Measured<S>]) -> Vec<(usize, usize)> {
    let Some(first) = rows.first() else {
        return Vec::new();
    };
    if measures.pairs == Pairs::Own {
        return Vec::new();
    }
    let headline = measures.metric(measures.headline);
    let point = |k: usize| {
        headline
            .estimate(rows[k].summary)
            .map_or(f64::NEG_INFINITY, |e| e.point)
    };
    // The first variant of the group with the highest estimate.
    let best = |group: &[usize]| {
        group
            .iter()
            .copied()
            .reduce(|best, i| if point(i) > point(best) { i } else { best })
            .unwrap_or(0)
    };
    let variants: Vec<&Variant> = rows.iter().map(|r| r.variant).collect();
    compared_pairs(&first.variant.compare, &variants, measures.pairs, best)
}

/// Every comparison the declaration implies between `rows`, Holm-adjusted within families.
pub fn compare<S>(measures: &Measures<S>, rows: &[Measured<S>]) -> Vec<Comparison> {
    let pairs = pairs(measures, rows);
    let mut out = Vec::new();
    for family in measures.families() {
        let metric = measures.metric(family.metric);
        for &(i, j) in &pairs {
            if let Some(result) = test(&metric.kind, rows[i].summary, rows[j].summary) {
                out.push(Comparison::new(
                    family.name,
                    &rows[i].variant.name,
                    &rows[j].variant.name,
                    result,
                ));
            }
        }
    }
    adjust(&mut out);
    out
}

/// One test between variants (or strategies) `a` and `b`.
pub struct Comparison {
    /// The family the Holm correction runs over (e.g. `mean_turns`).
    pub family: &'static str,
    /// The first variant; effects are a − b.
    pub a: String,
    /// The second variant.
    pub b: String,
    /// The test and its effect size.
    pub result: TestResult,
    /// The p-value after Holm's correction within the family (NaN until [`adjust`] runs).
    pub p_holm: f64,
    /// What the effect measures (the test's own wording unless a study is more specific).
    pub effect_name: String,
    /// In a common design, the correlation of the two sides' per-trial values (NaN, an empty
    /// cell, in an independent design).
    pub correlation: f64,
    /// In a common design, the variance the difference would have with independent samples
    /// of the same size over the variance it has (NaN in an independent design).
    pub variance_ratio: f64,
}

impl Comparison {
    /// A comparison whose Holm-adjusted p-value is still to be computed.
    pub fn new(family: &'static str, a: &str, b: &str, result: TestResult) -> Comparison {
        Comparison {
            family,
            a: a.to_string(),
            b: b.to_string(),
            effect_name: result.effect_name.to_string(),
            result,
            p_holm: f64::NAN,
            correlation: f64::NAN,
            variance_ratio: f64::NAN,
        }
    }

    /// The same comparison with what pairing its two sides gave (see
    /// [`crate::stats::paired::PairedTest`]).
    pub fn with_pairing(self, correlation: f64, variance_ratio: f64) -> Comparison {
        Comparison {
            correlation,
            variance_ratio,
            ..self
        }
    }

    /// The same comparison with a more specific description of its effect.
    pub fn with_effect_name(self, effect_name: String) -> Comparison {
        Comparison {
            effect_name,
            ..self
        }
    }

    /// The effect and its interval seen from `side` (`side` − other), if `side` is a or b.
    pub fn effect_for(&self, side: &str) -> Option<Estimate> {
        let effect = self.result.effect;
        let ci = effect.confidence_interval;
        if self.a == side {
            Some(effect)
        } else if self.b == side {
            Some(Estimate {
                point: -effect.point,
                confidence_interval: ConfidenceInterval {
                    lower: -ci.upper,
                    upper: -ci.lower,
                    ..ci
                },
                ..effect
            })
        } else {
            None
        }
    }

    /// The side other than `side`.
    pub fn other(&self, side: &str) -> &str {
        if self.a == side {
            &self.b
        } else {
            &self.a
        }
    }
}

/// The comparison of `x` with `y` in `family`, in whichever order it was made.
pub fn between<'c>(
    comparisons: &'c [Comparison],
    family: &str,
    x: &str,
    y: &str,
) -> Option<&'c Comparison> {
    comparisons
        .iter()
        .find(|c| c.family == family && ((c.a == x && c.b == y) || (c.a == y && c.b == x)))
}

/// Fills in every comparison's Holm-adjusted p-value within its family.
pub fn adjust(comparisons: &mut [Comparison]) {
    let mut families: Vec<&'static str> = comparisons.iter().map(|c| c.family).collect();
    families.dedup();
    for family in families {
        let members: Vec<usize> = (0..comparisons.len())
            .filter(|&i| comparisons[i].family == family)
            .collect();
        // A test without data (NaN p-value) gets no adjusted p-value and does not count
        // towards the family's size.
        let tested: Vec<usize> = members
            .into_iter()
            .filter(|&i| !comparisons[i].result.p_value.is_nan())
            .collect();
        let p: Vec<f64> = tested
            .iter()
            .map(|&i| comparisons[i].result.p_value)
            .collect();
        for (&i, adjusted) in tested.iter().zip(stats::holm(&p)) {
            comparisons[i].p_holm = adjusted;
        }
    }
}

/// The `comparisons` table: family, a, b, test, statistic, df, p_value, p_holm, effect_name,
/// effect, effect_lo, effect_hi, correlation, variance_ratio (the last two empty in an
/// independent design), then the sides' parameters ([`side_columns`]) of the run's `variants`.
pub fn table<V: Borrow<Variant>>(comparisons: &[Comparison], variants: &[V]) -> Result<NamedTable> {
    let c: Vec<&Comparison> = comparisons.iter().collect();
    let table = TableBuilder::new()
        .text("family", c.iter().map(|x| x.family))
        .text("a", c.iter().map(|x| x.a.as_str()))
        .role(Role::Label)
        .text("b", c.iter().map(|x| x.b.as_str()))
        .role(Role::Label);
    let table = result_columns(table, &c)
        .real("correlation", c.iter().map(|x| x.correlation))
        .real("variance_ratio", c.iter().map(|x| x.variance_ratio));
    side_columns(table, &c, variants).named("comparisons")
}

/// The parameters of each side of the comparisons `c`: for every parameter whose value
/// differs between two of `variants` (in the game's declared order), `a_<param>` with the
/// value of variant `a`, then likewise `b_<param>` for `b`. Whole numbers and real numbers
/// are number columns, every other parameter text as `summary.csv` writes it; a cell is empty
/// where the side is not one of `variants` (a strategy, say) or does not read the parameter.
pub fn side_columns<V: Borrow<Variant>>(
    mut table: TableBuilder,
    c: &[&Comparison],
    variants: &[V],
) -> TableBuilder {
    let variants: Vec<&Variant> = variants.iter().map(Borrow::borrow).collect();
    let Some(first) = variants.first() else {
        return table;
    };
    let swept: Vec<&ParamDef> = first
        .params
        .declared()
        .filter(|(def, value)| variants.iter().any(|v| v.params.get(def.name) != *value))
        .map(|(def, _)| def)
        .collect();
    let named: HashMap<&str, &Variant> = variants.iter().map(|v| (v.name.as_str(), *v)).collect();
    for side in ["a", "b"] {
        let name = |x: &Comparison| {
            if side == "a" {
                x.a.clone()
            } else {
                x.b.clone()
            }
        };
        for def in &swept {
            let values: Vec<Option<&ParamValue>> = c
                .iter()
                .map(|x| {
                    named
                        .get(name(x).as_str())
                        .filter(|v| def.is_used(&v.params))
                        .map(|v| v.params.get(def.name))
                })
                .collect();
            let column = format!("{side}_{}", def.name);
            table = match first.params.get(def.name) {
                ParamValue::Int(_) => table.optional_int(
                    &column,
                    values.iter().map(|v| match v {
                        Some(ParamValue::Int(x)) => Some(*x),
                        _ => None,
                    }),
                ),
                ParamValue::Float(_) => table.real(
                    &column,
                    values.iter().map(|v| match v {
                        Some(ParamValue::Float(x)) => *x,
                        _ => f64::NAN,
                    }),
                ),
                _ => table.optional_text(&column, values.iter().map(|v| v.map(|v| v.to_string()))),
            }
            .role(Role::Parameter);
        }
    }
    table
}

/// The columns every comparisons table ends with, after what it compares: test, statistic,
/// df, p_value, p_holm, effect_name, effect, effect_lo, effect_hi.
pub fn result_columns(table: TableBuilder, c: &[&Comparison]) -> TableBuilder {
    table
        .text("test", c.iter().map(|x| x.result.test))
        .real("statistic", c.iter().map(|x| x.result.statistic))
        .real("df", c.iter().map(|x| x.result.df))
        .real("p_value", c.iter().map(|x| x.result.p_value))
        .role(Role::PValue)
        .real("p_holm", c.iter().map(|x| x.p_holm))
        .role(Role::Holm)
        .text("effect_name", c.iter().map(|x| x.effect_name.as_str()))
        .estimate(
            "effect",
            &c.iter().map(|x| x.result.effect).collect::<Vec<_>>(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_runs_within_each_family_separately() {
        let test = |p| TestResult {
            p_value: p,
            ..stats::two_proportion_z(5, 10, 5, 10)
        };
        let mut comparisons = vec![
            Comparison::new("x", "a", "b", test(0.01)),
            Comparison::new("x", "a", "c", test(0.02)),
            Comparison::new("y", "a", "b", test(0.01)),
        ];
        adjust(&mut comparisons);
        assert!((comparisons[0].p_holm - 0.02).abs() < 1e-12);
        assert!((comparisons[1].p_holm - 0.02).abs() < 1e-12);
        assert!(
            (comparisons[2].p_holm - 0.01).abs() < 1e-12,
            "a family of one"
        );
        let flipped = comparisons[0].effect_for("b").expect("b is a side");
        assert_eq!(flipped.point, -comparisons[0].result.effect.point);
        assert_eq!(
            flipped.confidence_interval.lower,
            -comparisons[0].result.effect.confidence_interval.upper
        );
        assert!(comparisons[0].effect_for("z").is_none());
        assert_eq!(comparisons[1].other("a"), "c");
        let found = between(&comparisons, "x", "c", "a").expect("found in either order");
        assert_eq!(found.b, "c");
        let frame = table::<Variant>(&comparisons, &[]).expect("table");
        assert_eq!(frame.frame.height(), 3);
        assert_eq!(frame.frame.width(), 14);
    }

    #[test]
    fn a_proportion_test_without_information_has_no_p_value() {
        for (a, b) in [((0, 10), (0, 20)), ((10, 10), (20, 20))] {
            let result = proportion_test(a.0, a.1, b.0, b.1);
            assert_eq!(result.test, NO_DATA);
            assert!(result.p_value.is_nan() && result.statistic.is_nan());
            assert!(result.effect.point.is_nan());
        }
        let informative = proportion_test(0, 10, 1, 20);
        assert_eq!(informative.test, "two-proportion z");
        assert!(informative.p_value < 1.0);
        let mut comparisons = vec![
            Comparison::new("x", "a", "b", proportion_test(0, 10, 0, 10)),
            Comparison::new("x", "a", "c", test_with_p(0.02)),
        ];
        adjust(&mut comparisons);
        assert!(comparisons[0].p_holm.is_nan());
        assert!(
            (comparisons[1].p_holm - 0.02).abs() < 1e-12,
            "a test without data does not count towards the family"
        );
    }

    fn test_with_p(p: f64) -> TestResult {
        TestResult {
            p_value: p,
            ..stats::two_proportion_z(5, 10, 5, 10)
        }
    }
}
