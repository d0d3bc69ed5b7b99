//! Estimates with confidence intervals and tests comparing variants. No I/O; the
//! distribution functions are in [`distributions`], the paired tests of a common design in
//! [`paired`].

pub mod common_contrast;
pub mod distributions;
pub mod paired;
pub mod selection;

use distributions::{chi_square_sf, normal_quantile, normal_sf, t_quantile, t_two_sided_p};

pub use crate::summary::IntegerMoments;

/// Confidence level used throughout the reports.
pub const LEVEL: f64 = 0.95;

/// Significance level of every test the reports call significant (Holm-adjusted p below it),
/// the complement of [`LEVEL`].
pub const ALPHA: f64 = 0.05;

/// The quantile whose value is the two-sided critical value at [`LEVEL`] (0.975).
const UPPER: f64 = 1.0 - (1.0 - LEVEL) / 2.0;

/// The two-sided critical value of Student's t with `df` degrees of freedom (NaN for an
/// undefined `df`).
pub fn t_critical(df: f64) -> f64 {
    t_quantile(UPPER, df)
}

/// A two-sided confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConfidenceInterval {
    /// Coverage, e.g. 0.95.
    pub level: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
}

/// A number estimated from trials, with its standard error and confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The point estimate.
    pub point: f64,
    /// Its standard error (NaN where undefined, e.g. one observation).
    pub standard_error: f64,
    /// Its confidence interval.
    pub confidence_interval: ConfidenceInterval,
}

impl IntegerMoments {
    /// The mean with its Student-t confidence interval.
    pub fn mean_estimate(&self) -> Estimate {
        let mean = self.mean();
        if self.n < 2 {
            return Estimate {
                point: mean,
                standard_error: f64::NAN,
                confidence_interval: ConfidenceInterval {
                    level: LEVEL,
                    lower: f64::NAN,
                    upper: f64::NAN,
                },
            };
        }
        let se = (self.variance() / self.n as f64).sqrt();
        let t = t_critical((self.n - 1) as f64);
        Estimate {
            point: mean,
            standard_error: se,
            confidence_interval: ConfidenceInterval {
                level: LEVEL,
                lower: mean - t * se,
                upper: mean + t * se,
            },
        }
    }
}

/// The two-sided critical value of the standard normal.
pub fn z_quantile() -> f64 {
    normal_quantile(UPPER)
}

/// A proportion with its Wilson score interval.
pub fn wilson(successes: u64, trials: u64) -> Estimate {
    let n = trials as f64;
    let p = successes as f64 / n;
    let z = z_quantile();
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Estimate {
        point: p,
        standard_error: (p * (1.0 - p) / n).sqrt(),
        confidence_interval: ConfidenceInterval {
            level: LEVEL,
            // At 0 or n successes the bound is exactly 0 or 1; rounding must not move it.
            lower: if successes == 0 {
                0.0
            } else {
                (centre - half).max(0.0)
            },
            upper: if successes == trials {
                1.0
            } else {
                (centre + half).min(1.0)
            },
        },
    }
}

/// The standard error `sqrt(p(1 - p) / n)` of a proportion estimated from `n` independent
/// trials whose true value is `p` (e.g. an exact probability a simulation is checked against).
/// Infinite when `n` is 0 and `p` is strictly between 0 and 1 (no trials, no information).
pub fn binomial_se(p: f64, n: u64) -> f64 {
    (p * (1.0 - p) / n as f64).sqrt()
}

/// A ratio estimate r with standard error `se`, with a normal-theory interval.
pub fn normal_estimate(point: f64, standard_error: f64) -> Estimate {
    let z = z_quantile();
    Estimate {
        point,
        standard_error,
        confidence_interval: ConfidenceInterval {
            level: LEVEL,
            lower: point - z * standard_error,
            upper: point + z * standard_error,
        },
    }
}

/// The result of a test comparing two variants (or several, for chi-square).
#[derive(Clone, Debug, PartialEq)]
pub struct TestResult {
    /// Name of the test, e.g. "Welch t".
    pub test: &'static str,
    /// The test statistic.
    pub statistic: f64,
    /// Degrees of freedom, where the test has them.
    pub df: f64,
    /// Two-sided p-value, uncorrected.
    pub p_value: f64,
    /// The effect size (a difference a - b, or Cramér's V) with its interval.
    pub effect: Estimate,
    /// What the effect size measures, e.g. "difference in means (a - b)".
    pub effect_name: &'static str,
}

/// The two-sided p-value of a standard normal statistic (NaN for NaN).
pub fn two_sided_normal_p(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    2.0 * normal_sf(z.abs())
}

/// Welch's t-test for a difference in means, with the Welch interval of the difference.
pub fn welch_t(a: &IntegerMoments, b: &IntegerMoments) -> TestResult {
    let (va, vb) = (a.variance() / a.n as f64, b.variance() / b.n as f64);
    let diff = a.mean() - b.mean();
    let se = (va + vb).sqrt();
    let df =
        (va + vb).powi(2) / (va.powi(2) / (a.n as f64 - 1.0) + vb.powi(2) / (b.n as f64 - 1.0));
    let statistic = diff / se;
    let (p_value, critical) = if statistic.is_finite() {
        (t_two_sided_p(statistic, df), t_critical(df))
    } else {
        (f64::NAN, f64::NAN)
    };
    TestResult {
        test: "Welch t",
        statistic,
        df,
        p_value,
        effect: Estimate {
            point: diff,
            standard_error: se,
            confidence_interval: ConfidenceInterval {
                level: LEVEL,
                lower: diff - critical * se,
                upper: diff + critical * se,
            },
        },
        effect_name: "difference in means (a - b)",
    }
}

/// The two-proportion z-test (pooled standard error), with a Wald interval of the difference.
pub fn two_proportion_z(successes_a: u64, n_a: u64, successes_b: u64, n_b: u64) -> TestResult {
    let (na, nb) = (n_a as f64, n_b as f64);
    let (pa, pb) = (successes_a as f64 / na, successes_b as f64 / nb);
    let pooled = (successes_a + successes_b) as f64 / (na + nb);
    let se_pooled = (pooled * (1.0 - pooled) * (1.0 / na + 1.0 / nb)).sqrt();
    let diff = pa - pb;
    let statistic = if se_pooled > 0.0 {
        diff / se_pooled
    } else {
        0.0
    };
    let se = (pa * (1.0 - pa) / na + pb * (1.0 - pb) / nb).sqrt();
    TestResult {
        test: "two-proportion z",
        statistic,
        df: f64::NAN,
        p_value: if se_pooled > 0.0 {
            two_sided_normal_p(statistic)
        } else {
            1.0
        },
        effect: normal_estimate(diff, se),
        effect_name: "difference in proportions (a - b)",
    }
}

/// Chi-square test of homogeneity of count distributions (rows = groups, columns = bins).
///
/// Adjacent bins are pooled, left to right, until every pooled bin's smallest expected count
/// is at least 5, so sparse tails do not inflate the statistic. The effect size is Cramér's V.
/// Counts are `u64` (histograms) or `u128` (sums of per-trial tallies).
pub fn chi_square_homogeneity<T: Copy + Into<u128>>(rows: &[&[T]]) -> TestResult {
    let width = rows.iter().map(|row| row.len()).max().unwrap_or(0);
    let row_totals: Vec<f64> = rows
        .iter()
        .map(|row| row.iter().map(|&c| c.into()).sum::<u128>() as f64)
        .collect();
    let grand: f64 = row_totals.iter().sum();
    let min_share = row_totals.iter().cloned().fold(f64::INFINITY, f64::min) / grand;
    // Pool bins until the column total gives every row an expected count of at least 5.
    let mut pooled: Vec<Vec<f64>> = vec![Vec::new(); rows.len()];
    let mut current = vec![0.0; rows.len()];
    for bin in 0..width {
        for (acc, row) in current.iter_mut().zip(rows) {
            *acc += row.get(bin).map_or(0, |&c| c.into()) as f64;
        }
        let column: f64 = current.iter().sum();
        if column * min_share >= 5.0 {
            for (out, acc) in pooled.iter_mut().zip(current.iter_mut()) {
                out.push(*acc);
                *acc = 0.0;
            }
        }
    }
    let leftover: f64 = current.iter().sum();
    if leftover > 0.0 {
        if pooled[0].is_empty() {
            for (out, acc) in pooled.iter_mut().zip(&current) {
                out.push(*acc);
            }
        } else {
            for (out, acc) in pooled.iter_mut().zip(&current) {
                *out.last_mut().expect("non-empty") += acc;
            }
        }
    }
    let bins = pooled[0].len();
    let mut statistic = 0.0;
    for bin in 0..bins {
        let column: f64 = pooled.iter().map(|row| row[bin]).sum();
        for (row, total) in pooled.iter().zip(&row_totals) {
            let expected = total * column / grand;
            if expected > 0.0 {
                statistic += (row[bin] - expected).powi(2) / expected;
            }
        }
    }
    let df = ((rows.len() - 1) * bins.saturating_sub(1)) as f64;
    let p_value = chi_square_sf(statistic, df);
    let k = (rows.len().min(bins) as f64 - 1.0).max(1.0);
    let v = (statistic / (grand * k)).sqrt();
    TestResult {
        test: "chi-square homogeneity",
        statistic,
        df,
        p_value,
        effect: Estimate {
            point: v,
            standard_error: f64::NAN,
            confidence_interval: ConfidenceInterval {
                level: LEVEL,
                lower: f64::NAN,
                upper: f64::NAN,
            },
        },
        effect_name: "Cramér's V",
    }
}

/// Rao and Scott's first-order correction of a chi-square test for clustered counts: the
/// statistic and its p-value are divided through by the mean design effect (the ratio of the
/// variance across clusters to the variance a multinomial sample of the same size would have).
pub fn rao_scott(result: TestResult, design_effect: f64) -> TestResult {
    let statistic = result.statistic / design_effect;
    let p_value = chi_square_sf(statistic, result.df);
    TestResult {
        test: "chi-square homogeneity (Rao-Scott)",
        statistic,
        p_value,
        ..result
    }
}

/// A z-test of the difference between two independent estimates.
pub fn difference_z(a: &Estimate, b: &Estimate) -> TestResult {
    let diff = a.point - b.point;
    let se = (a.standard_error.powi(2) + b.standard_error.powi(2)).sqrt();
    let statistic = diff / se;
    TestResult {
        test: "z",
        statistic,
        df: f64::NAN,
        p_value: two_sided_normal_p(statistic),
        effect: normal_estimate(diff, se),
        effect_name: "difference (a - b)",
    }
}

/// A weighted sum of independent means, Σ w_i x̄_i, with its standard error and
/// Welch–Satterthwaite degrees of freedom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contrast {
    /// The weighted sum of the means.
    pub point: f64,
    /// Its standard error.
    pub standard_error: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
}

impl Contrast {
    /// The contrast Σ w_i x̄_i of `(weight, moments)` terms.
    pub fn new(terms: &[(f64, &IntegerMoments)]) -> Contrast {
        let mut point = 0.0;
        let mut variance = 0.0;
        let mut df_denominator = 0.0;
        for &(weight, moments) in terms {
            let n = moments.n as f64;
            let v = weight * weight * moments.variance() / n;
            point += weight * moments.mean();
            variance += v;
            df_denominator += v * v / (n - 1.0);
        }
        Contrast {
            point,
            standard_error: variance.sqrt(),
            df: variance * variance / df_denominator,
        }
    }

    /// Whether the Welch–Satterthwaite degrees of freedom are defined (not 0/0).
    fn has_df(&self) -> bool {
        self.df > 0.0
    }

    /// The two-sided critical value for a 95% interval (normal when df is undefined).
    pub fn critical(&self) -> f64 {
        if self.has_df() {
            t_critical(self.df)
        } else {
            z_quantile()
        }
    }

    /// The contrast with its 95% interval.
    pub fn estimate(&self) -> Estimate {
        let half = self.critical() * self.standard_error;
        Estimate {
            point: self.point,
            standard_error: self.standard_error,
            confidence_interval: ConfidenceInterval {
                level: LEVEL,
                lower: self.point - half,
                upper: self.point + half,
            },
        }
    }

    /// Welch's t-test that the contrast is zero (a zero standard error gives p = 1 for a zero
    /// point and p = 0 otherwise: deterministic payoffs).
    pub fn test(&self, effect_name: &'static str) -> TestResult {
        let (statistic, p_value) = if self.standard_error > 0.0 {
            let t = self.point / self.standard_error;
            let p = if self.has_df() {
                t_two_sided_p(t, self.df)
            } else {
                two_sided_normal_p(t)
            };
            (t, p)
        } else if self.point == 0.0 {
            (0.0, 1.0)
        } else {
            (f64::INFINITY.copysign(self.point), 0.0)
        };
        TestResult {
            test: "Welch t (contrast of pairing means)",
            statistic,
            df: self.df,
            p_value,
            effect: self.estimate(),
            effect_name,
        }
    }
}

/// Holm's step-down adjustment of a family of p-values (returned in the input order).
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let mut adjusted = vec![f64::NAN; m];
    let mut running_max: f64 = 0.0;
    for (rank, &index) in order.iter().enumerate() {
        let scaled = ((m - rank) as f64 * p_values[index]).min(1.0);
        running_max = running_max.max(scaled);
        adjusted[index] = running_max;
    }
    adjusted
}

/// The smallest value v with at least half the observations at or below it (lower median)
/// of an exact integer histogram.
pub fn histogram_median(histogram: &[u64]) -> Option<usize> {
    histogram_quantile(histogram, 0.5)
}

/// The smallest value v with at least a share `q` of the observations at or below it, of an
/// exact integer histogram.
pub fn histogram_quantile(histogram: &[u64], q: f64) -> Option<usize> {
    let total: u64 = histogram.iter().sum();
    if total == 0 {
        return None;
    }
    let mut seen = 0;
    histogram.iter().position(|&count| {
        seen += count;
        seen as f64 >= q * total as f64
    })
}

/// A ratio estimate `r = Σc / ΣT` over `units` independent units (e.g. one square's landings
/// `c` over a game's total landings `T`, the game as the unit) and its delta-method standard
/// error `se² = Σ(c − rT)² / (n(n−1)·mean(T)²)`, expanded in the exact integer sums: `count`
/// = Σc, `count_squares` = Σc², `count_totals` = Σc·T, `total` = ΣT, `total_squares` = ΣT².
/// The ratio is NaN when `total` is 0, the error NaN with fewer than two units.
pub fn ratio_estimate(
    units: u64,
    count: u128,
    count_squares: u128,
    count_totals: u128,
    total: u128,
    total_squares: u128,
) -> (f64, f64) {
    if total == 0 {
        return (f64::NAN, f64::NAN);
    }
    let total = total as f64;
    let ratio = count as f64 / total;
    if units < 2 {
        return (ratio, f64::NAN);
    }
    let n = units as f64;
    let residual = count_squares as f64 - 2.0 * ratio * count_totals as f64
        + ratio * ratio * total_squares as f64;
    let variance = residual.max(0.0) * n / ((n - 1.0) * total * total);
    (ratio, variance.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_interval_matches_the_textbook_example() {
        // 81 successes in 263 trials: Wilson 95% interval (0.2553, 0.3662).
        let estimate = wilson(81, 263);
        assert!(close(estimate.confidence_interval.lower, 0.2553, 5e-4));
        assert!(close(estimate.confidence_interval.upper, 0.3662, 5e-4));
    }

    #[test]
    fn wilson_interval_stays_inside_zero_and_one() {
        let none = wilson(0, 10);
        assert_eq!(none.confidence_interval.lower, 0.0);
        assert!(none.confidence_interval.upper > 0.0);
        let all = wilson(10, 10);
        assert_eq!(all.confidence_interval.upper, 1.0);
    }

    #[test]
    fn binomial_se_is_the_standard_error_of_a_proportion() {
        // p = 0.5 over 100 trials: sqrt(0.25 / 100) = 0.05.
        assert!(close(binomial_se(0.5, 100), 0.05, 1e-15));
        assert!(close(binomial_se(0.1, 400), 0.015, 1e-15));
        assert_eq!(binomial_se(0.0, 10), 0.0, "a certain outcome does not vary");
        assert!(
            binomial_se(0.5, 0).is_infinite(),
            "no trials, no information"
        );
    }

    #[test]
    fn mean_interval_uses_student_t() {
        // Values 1..=5: mean 3, sd sqrt(2.5), t(0.975, 4) = 2.776.
        let moments = IntegerMoments::from_histogram(&[0, 1, 1, 1, 1, 1]);
        let estimate = moments.mean_estimate();
        assert!(close(estimate.point, 3.0, 1e-12));
        assert!(close(moments.sd(), 2.5f64.sqrt(), 1e-12));
        let half = 2.776_445 * (2.5f64 / 5.0).sqrt();
        assert!(close(estimate.confidence_interval.upper, 3.0 + half, 1e-4));
    }

    #[test]
    fn welch_t_matches_a_hand_computation() {
        let a = IntegerMoments::from_histogram(&[0, 2, 2, 2]); // 1,1,2,2,3,3: mean 2, var 0.8
        let b = IntegerMoments::from_histogram(&[0, 0, 0, 3, 3]); // 3,3,3,4,4,4: mean 3.5, var 0.3
        let result = welch_t(&a, &b);
        let se = (0.8f64 / 6.0 + 0.3 / 6.0).sqrt();
        assert!(close(result.statistic, -1.5 / se, 1e-9));
        let df = (0.8f64 / 6.0 + 0.3 / 6.0).powi(2)
            / ((0.8f64 / 6.0).powi(2) / 5.0 + (0.3f64 / 6.0).powi(2) / 5.0);
        assert!(close(result.df, df, 1e-9));
        assert!(result.p_value > 0.005 && result.p_value < 0.05);
    }

    #[test]
    fn two_proportion_z_matches_a_hand_computation() {
        // 60/100 v 40/100: pooled 0.5, se sqrt(0.5*0.5*0.02) = 0.0707, z = 2.828, p = 0.00468.
        let result = two_proportion_z(60, 100, 40, 100);
        assert!(close(result.statistic, 2.828_427, 1e-5));
        assert!(close(result.p_value, 0.004_677_7, 1e-6));
        assert!(close(result.effect.point, 0.2, 1e-12));
    }

    #[test]
    fn chi_square_finds_no_difference_between_identical_rows() {
        let row = [10u64, 20, 30, 40];
        let result = chi_square_homogeneity(&[&row, &row]);
        assert!(close(result.statistic, 0.0, 1e-12));
        assert!(close(result.p_value, 1.0, 1e-12));
    }

    #[test]
    fn chi_square_matches_a_two_by_two_table() {
        // [[10, 20], [30, 40]]: chi2 = 0.7937 with 1 df, p = 0.373.
        let result = chi_square_homogeneity::<u64>(&[&[10, 20], &[30, 40]]);
        assert!(close(result.statistic, 0.793_65, 1e-4));
        assert_eq!(result.df, 1.0);
        assert!(close(result.p_value, 0.3730, 1e-3));
    }

    #[test]
    fn chi_square_pools_sparse_tail_bins() {
        let a = [50u64, 50, 1, 0, 1];
        let b = [50u64, 50, 0, 1, 0];
        let result = chi_square_homogeneity(&[&a, &b]);
        assert_eq!(result.df, 1.0, "the three sparse bins join the second");
    }

    #[test]
    fn rao_scott_divides_the_statistic_by_the_design_effect() {
        let plain = chi_square_homogeneity::<u64>(&[&[10, 20], &[30, 40]]);
        let corrected = rao_scott(plain.clone(), 2.0);
        assert!(close(corrected.statistic, plain.statistic / 2.0, 1e-12));
        assert!(corrected.p_value > plain.p_value);
    }

    #[test]
    fn difference_z_combines_standard_errors() {
        let a = normal_estimate(0.30, 0.03);
        let b = normal_estimate(0.26, 0.04);
        let result = difference_z(&a, &b);
        assert!(close(result.statistic, 0.8, 1e-12));
        assert!(close(result.p_value, 0.4237, 1e-4));
    }

    #[test]
    fn holm_scales_and_keeps_order_monotone() {
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.5]);
        assert!(close(adjusted[0], 0.04, 1e-12));
        assert!(close(adjusted[2], 0.09, 1e-12));
        assert!(close(adjusted[1], 0.09, 1e-12), "monotone: not below 0.09");
        assert!(close(adjusted[3], 0.5, 1e-12));
    }

    #[test]
    fn histogram_median_is_the_lower_median() {
        assert_eq!(histogram_median(&[0, 1, 1, 1, 1]), Some(2));
        assert_eq!(histogram_median(&[0, 0, 5]), Some(2));
        assert_eq!(histogram_median(&[]), None);
    }

    #[test]
    fn a_contrast_of_one_pairing_is_its_mean() {
        let moments = IntegerMoments {
            n: 4,
            sum: 4,
            sum_squares: 10,
            max: 0,
        };
        let c = Contrast::new(&[(1.0, &moments)]);
        assert_eq!(c.point, 1.0);
        assert!((c.standard_error - moments.mean_estimate().standard_error).abs() < 1e-12);
        assert!((c.df - 3.0).abs() < 1e-12);
        let deterministic = IntegerMoments {
            n: 5,
            sum: -5,
            sum_squares: 5,
            max: 0,
        };
        let test = Contrast::new(&[(1.0, &deterministic)]).test("x");
        assert_eq!((test.p_value, test.statistic), (0.0, f64::NEG_INFINITY));
    }

    /// Units (c, T) with the sums `ratio_estimate` takes.
    fn ratio_sums(units: &[(u64, u64)]) -> (u64, u128, u128, u128, u128, u128) {
        let mut sums = (units.len() as u64, 0, 0, 0, 0, 0);
        for &(c, t) in units {
            sums.1 += u128::from(c);
            sums.2 += u128::from(c * c);
            sums.3 += u128::from(c) * u128::from(t);
            sums.4 += u128::from(t);
            sums.5 += u128::from(t) * u128::from(t);
        }
        sums
    }

    #[test]
    fn ratio_estimate_matches_the_direct_delta_method_formula() {
        let units: Vec<(u64, u64)> = (0..30u64)
            .map(|i| ((i * 7 + 3) % 11, 300 + (i * 13) % 17))
            .collect();
        let (n, count, squares, cross, total, total_squares) = ratio_sums(&units);
        let (ratio, se) = ratio_estimate(n, count, squares, cross, total, total_squares);
        let direct = count as f64 / total as f64;
        let mean_total = total as f64 / n as f64;
        let residuals: f64 = units
            .iter()
            .map(|&(c, t)| (c as f64 - direct * t as f64).powi(2))
            .sum();
        let nf = n as f64;
        let expected = (residuals / (nf * (nf - 1.0) * mean_total * mean_total)).sqrt();
        assert!((ratio - direct).abs() < 1e-12, "{ratio} vs {direct}");
        assert!(
            (se - expected).abs() < 1e-9 * expected,
            "{se} vs {expected}"
        );
        assert!(se > 0.0);
    }

    #[test]
    fn ratio_estimate_is_nan_without_data_and_its_error_with_one_unit() {
        assert!(ratio_estimate(0, 0, 0, 0, 0, 0).0.is_nan());
        let (n, count, squares, cross, total, total_squares) = ratio_sums(&[(3, 40)]);
        let (ratio, se) = ratio_estimate(n, count, squares, cross, total, total_squares);
        assert_eq!(ratio, 3.0 / 40.0);
        assert!(se.is_nan());
    }
}
