//! Pairwise comparisons between variants, one schema for every game: the tests a declaration
//! implies (Welch for means, two-proportion z for proportions, chi-square homogeneity for
//! histograms; in a common design the paired tests of [`super::paired`]), Holm's correction
//! within each family, and the `comparisons` table.

use anyhow::Result;

use super::{Kind, Measured, Measures, Pairs};
use crate::frame::{NamedTable, Role, TableBuilder};
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

/// The pairs of row indices to compare: none when the study compares its variants itself, all
/// pairs for a few variants (unless the study asks for comparisons with the best), otherwise
/// each variant against the one with the highest headline estimate.
fn pairs<S>(measures: &Measures<S>, rows: &[Measured<S>]) -> Vec<(usize, usize)> {
    let n = rows.len();
    if measures.pairs == Pairs::Own {
        return Vec::new();
    }
    if n <= ALL_PAIRS_LIMIT && measures.pairs == Pairs::Auto {
        return (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
    }
    let headline = measures.metric(measures.headline);
    let point = |k: usize| {
        headline
            .estimate(rows[k].summary)
            .map_or(f64::NEG_INFINITY, |e| e.point)
    };
    // The first variant with the highest estimate.
    let best = (0..n)
        .reduce(|best, i| if point(i) > point(best) { i } else { best })
        .unwrap_or(0);
    (0..n).filter(|&i| i != best).map(|i| (i, best)).collect()
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
/// independent design).
pub fn table(comparisons: &[Comparison]) -> Result<NamedTable> {
    let c: Vec<&Comparison> = comparisons.iter().collect();
    let table = TableBuilder::new()
        .text("family", c.iter().map(|x| x.family))
        .text("a", c.iter().map(|x| x.a.as_str()))
        .role(Role::Label)
        .text("b", c.iter().map(|x| x.b.as_str()))
        .role(Role::Label);
    result_columns(table, &c)
        .real("correlation", c.iter().map(|x| x.correlation))
        .real("variance_ratio", c.iter().map(|x| x.variance_ratio))
        .named("comparisons")
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
        let frame = table(&comparisons).expect("table");
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
