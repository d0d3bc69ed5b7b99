//! Paired comparisons of two variants played on the same random numbers (a common design):
//! the paired t-test of a mean difference, McNemar's test of two proportions from the
//! discordant pairs (exact binomial when they are few), and how much the pairing gained, all
//! from exact integer sums: per side the moments of the per-trial value, and the moments of
//! the per-trial differences.

use super::distributions::{chi_square_sf, t_two_sided_p};
use super::{
    t_critical, z_quantile, ConfidenceInterval, Estimate, IntegerMoments, TestResult, LEVEL,
};

/// McNemar's test uses the exact binomial p-value below this many discordant pairs and the
/// continuity-corrected chi-square from there on (where the two differ by well under 1% of
/// the p-value's size for any p the reports call significant).
pub const EXACT_DISCORDANT_LIMIT: u64 = 1_000;

/// A paired test with what the pairing gained.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedTest {
    /// The test, its p-value and the difference a − b with its interval.
    pub result: TestResult,
    /// The correlation of the two sides' per-trial values (NaN when either never varies).
    pub correlation: f64,
    /// See [`variance_ratio`].
    pub variance_ratio: f64,
}

/// The correlation of the per-trial values of two sides, from each side's moments and the
/// moments of their difference: cov = (var_a + var_b − var_(a−b)) / 2 over sd_a·sd_b (NaN
/// when either side never varies or there are fewer than two trials).
pub fn correlation(a: &IntegerMoments, b: &IntegerMoments, difference: &IntegerMoments) -> f64 {
    let (va, vb, vd) = (a.variance(), b.variance(), difference.variance());
    if va <= 0.0 || vb <= 0.0 {
        return f64::NAN;
    }
    ((va + vb - vd) / 2.0 / (va * vb).sqrt()).clamp(-1.0, 1.0)
}

/// (var_a + var_b) / var_(a−b): the variance the difference of the two means would have with
/// independent samples of the same size over the variance it has with these pairs, so the
/// factor by which an independent design would need more trials for the same interval
/// (infinite when the difference never varies but the sides do; NaN when nothing varies).
pub fn variance_ratio(a: &IntegerMoments, b: &IntegerMoments, difference: &IntegerMoments) -> f64 {
    let (va, vb, vd) = (a.variance(), b.variance(), difference.variance());
    if vd == 0.0 && va + vb == 0.0 {
        return f64::NAN;
    }
    (va + vb) / vd
}

/// Whether a pair carries no information: each side took one value in every trial and both
/// sides the same one (0 against 0, say), as an independent design's "no data".
pub fn uninformative(a: &IntegerMoments, b: &IntegerMoments, difference: &IntegerMoments) -> bool {
    let constant = |m: &IntegerMoments| m.n == 0 || m.variance() == 0.0 || m.n == 1;
    constant(a) && constant(b) && difference.sum_squares == 0
}

fn paired(
    result: TestResult,
    a: &IntegerMoments,
    b: &IntegerMoments,
    d: &IntegerMoments,
) -> PairedTest {
    PairedTest {
        result,
        correlation: correlation(a, b, d),
        variance_ratio: variance_ratio(a, b, d),
    }
}

fn interval(point: f64, half: f64) -> ConfidenceInterval {
    ConfidenceInterval {
        level: LEVEL,
        lower: point - half,
        upper: point + half,
    }
}

/// The paired t-test of the mean of `a − b`, with the Student-t interval (n − 1 degrees of
/// freedom) of the mean difference. `a` and `b` are each side's moments of the per-trial
/// value, `difference` those of the per-trial `a − b`, all recorded times `scale` (the
/// effect is divided back by it). Differences that never vary give p = 1 when they are all
/// zero and p = 0 otherwise, with a zero-width interval.
pub fn paired_t(
    a: &IntegerMoments,
    b: &IntegerMoments,
    difference: &IntegerMoments,
    scale: u32,
) -> PairedTest {
    let scale = f64::from(scale);
    let n = difference.n;
    let mean = difference.mean() / scale;
    let df = n.saturating_sub(1) as f64;
    let (statistic, p_value, se, half) = if n < 2 {
        (f64::NAN, f64::NAN, f64::NAN, f64::NAN)
    } else {
        let se = (difference.variance() / n as f64).sqrt() / scale;
        if se > 0.0 {
            let t = mean / se;
            (t, t_two_sided_p(t, df), se, t_critical(df) * se)
        } else if mean == 0.0 {
            (0.0, 1.0, 0.0, 0.0)
        } else {
            (f64::INFINITY.copysign(mean), 0.0, 0.0, 0.0)
        }
    };
    let result = TestResult {
        test: "paired t",
        statistic,
        df,
        p_value,
        effect: Estimate {
            point: mean,
            standard_error: se,
            confidence_interval: interval(mean, half),
        },
        effect_name: "mean paired difference (a - b)",
    };
    paired(result, a, b, difference)
}

/// The discordant pairs of two 0/1 values: trials where only `a` succeeded and where only `b`
/// did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Discordant {
    /// Trials where `a` succeeded and `b` did not.
    pub a_only: u64,
    /// Trials where `b` succeeded and `a` did not.
    pub b_only: u64,
}

impl Discordant {
    /// The discordant counts of two values that are each 0 or `scale` in every trial, from
    /// each side's moments and those of the per-trial differences: Σd = scale·(a_only −
    /// b_only), Σd² = scale²·(a_only + b_only). `None` when the sums cannot be those of such
    /// values (a side's Σx² is not scale·Σx, its largest value is above `scale`, or the
    /// differences' sums are not multiples of `scale` and `scale²`).
    pub fn from_sums(
        a: &IntegerMoments,
        b: &IntegerMoments,
        difference: &IntegerMoments,
        scale: u32,
    ) -> Option<Discordant> {
        let s = u128::from(scale);
        let zero_one = |m: &IntegerMoments| {
            m.sum >= 0 && m.max <= i64::from(scale) && m.sum_squares == s * m.sum.unsigned_abs()
        };
        let squares = difference.sum_squares;
        if s == 0 || !zero_one(a) || !zero_one(b) {
            return None;
        }
        if !squares.is_multiple_of(s * s) || !difference.sum.unsigned_abs().is_multiple_of(s) {
            return None;
        }
        // Σd² ≥ |Σd| and Σd² ≡ Σd (mod 2) hold for any integers d.
        let total = squares / (s * s);
        let net = difference.sum / s as i128;
        let a_only = u64::try_from((total as i128 + net) / 2).ok()?;
        let b_only = u64::try_from((total as i128 - net) / 2).ok()?;
        Some(Discordant { a_only, b_only })
    }

    /// Every discordant pair.
    pub fn total(self) -> u64 {
        self.a_only + self.b_only
    }
}

/// The two-sided exact binomial p-value of McNemar's test: twice the probability that
/// Binomial(a_only + b_only, ½) is at most min(a_only, b_only), at most 1. Summed in log space
/// (each term from the one before by the ratio (n − k)/(k + 1)), so it neither overflows nor
/// underflows before f64 does: 2·2^−999 for 999 pairs all on one side.
pub fn exact_mcnemar_p(discordant: Discordant) -> f64 {
    let n = discordant.total();
    let m = discordant.a_only.min(discordant.b_only);
    let mut log_term = -(n as f64) * std::f64::consts::LN_2;
    let mut logs = Vec::with_capacity(m as usize + 1);
    logs.push(log_term);
    for k in 0..m {
        log_term += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
        logs.push(log_term);
    }
    // The terms grow up to k = n/2 and m ≤ n/2: the last is the largest.
    let largest = log_term;
    let sum: f64 = logs.iter().map(|l| (l - largest).exp()).sum();
    (2.0 * (largest + sum.ln()).exp()).min(1.0)
}

/// McNemar's test of two proportions measured on the same `trials` trials, from their
/// discordant pairs: the exact binomial p-value ("McNemar exact", statistic = the pairs where
/// only `a` succeeded, no degrees of freedom) below [`EXACT_DISCORDANT_LIMIT`] discordant
/// pairs, otherwise the chi-square (|a_only − b_only| − 1)² / (a_only + b_only) with
/// Edwards' continuity correction and 1 degree of freedom ("McNemar"). The effect is the
/// difference of the proportions (a_only − b_only) / trials, with the Agresti–Min interval
/// (the Wald interval of the paired difference after adding ½ to each of the four cells of
/// the 2×2 table), clamped to [−1, 1]. `a`, `b` and `difference` give the correlation and
/// variance ratio.
pub fn mcnemar(
    a: &IntegerMoments,
    b: &IntegerMoments,
    difference: &IntegerMoments,
    discordant: Discordant,
    trials: u64,
) -> PairedTest {
    let total = discordant.total();
    let net = i128::from(discordant.a_only) - i128::from(discordant.b_only);
    let point = net as f64 / trials as f64;
    // Agresti–Min: n* = n + 2, discordant cells + ½ each; then
    // n*·var·n*² = n*·(b* + c*) − (b* − c*)² = (n + 2)(b + c + 1) − (b − c)², in integers.
    let n_star = u128::from(trials) + 2;
    let numerator = (n_star * (u128::from(total) + 1)).saturating_sub(net.unsigned_abs().pow(2));
    let se = (numerator as f64).sqrt() / (n_star as f64).powf(1.5);
    let centre = net as f64 / n_star as f64;
    let half = z_quantile() * se;
    let confidence_interval = ConfidenceInterval {
        level: LEVEL,
        lower: (centre - half).max(-1.0),
        upper: (centre + half).min(1.0),
    };
    let (test, statistic, df, p_value) = if total < EXACT_DISCORDANT_LIMIT {
        (
            "McNemar exact",
            discordant.a_only as f64,
            f64::NAN,
            exact_mcnemar_p(discordant),
        )
    } else {
        let corrected = (net.unsigned_abs() as f64 - 1.0).max(0.0);
        let chi_square = corrected * corrected / total as f64;
        ("McNemar", chi_square, 1.0, chi_square_sf(chi_square, 1.0))
    };
    let result = TestResult {
        test,
        statistic,
        df,
        p_value,
        effect: Estimate {
            point,
            standard_error: se,
            confidence_interval,
        },
        effect_name: "paired difference in proportions (a - b)",
    };
    paired(result, a, b, difference)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moments(values: &[i64]) -> IntegerMoments {
        let mut m = IntegerMoments::default();
        for &v in values {
            m.record(v);
        }
        m
    }

    fn sides(a: &[i64], b: &[i64]) -> (IntegerMoments, IntegerMoments, IntegerMoments) {
        let d: Vec<i64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
        (moments(a), moments(b), moments(&d))
    }

    fn close(x: f64, y: f64, tol: f64) -> bool {
        (x - y).abs() <= tol
    }

    #[test]
    fn exact_mcnemar_matches_binomial_sums_by_hand() {
        let p = |a_only, b_only| exact_mcnemar_p(Discordant { a_only, b_only });
        // 1 against 9: P(X ≤ 1) for Binomial(10, ½) = (1 + 10)/1024; twice it.
        assert!(close(p(1, 9), 22.0 / 1024.0, 1e-15));
        assert!(close(p(9, 1), 22.0 / 1024.0, 1e-15), "symmetric");
        // 0 against 5: 2 · 1/32.
        assert!(close(p(0, 5), 2.0 / 32.0, 1e-15));
        // 2 against 6: (1 + 8 + 28)/256, twice.
        assert!(close(p(2, 6), 74.0 / 256.0, 1e-15));
        assert_eq!(p(3, 3), 1.0, "balanced: capped at 1");
        assert_eq!(p(0, 0), 1.0, "no discordant pair");
        // 999 on one side: 2 · 2^-999 = 2^-998, far below where a direct product underflows
        // its binomial coefficients' range, right to rounding.
        let tiny = p(999, 0);
        assert!((tiny / 2f64.powi(-998) - 1.0).abs() < 1e-12, "{tiny}");
    }

    #[test]
    fn mcnemar_switches_to_the_corrected_chi_square_at_the_limit() {
        let (a, b, d) = sides(&[1, 0], &[0, 1]);
        let below = Discordant {
            a_only: 520,
            b_only: 479,
        };
        let at = Discordant {
            a_only: 521,
            b_only: 479,
        };
        let exact = mcnemar(&a, &b, &d, below, 5_000);
        assert_eq!(exact.result.test, "McNemar exact");
        assert_eq!(exact.result.statistic, 520.0);
        let approximate = mcnemar(&a, &b, &d, at, 5_000);
        assert_eq!(approximate.result.test, "McNemar");
        // (|521 − 479| − 1)² / 1000 = 41² / 1000 = 1.681, 1 df.
        assert!(close(approximate.result.statistic, 1.681, 1e-12));
        assert_eq!(approximate.result.df, 1.0);
        // P(chi-square_1 > 1.681) = 2·P(Z > 1.29654) = 0.194792.
        assert!(close(approximate.result.p_value, 0.194_792, 1e-5));
        // Just below the limit the exact p (2·Σ_{k≤479} C(999, k)/2^999 = 0.205654, summed in
        // integers) and the corrected chi-square at the same counts ((41 − 1)²/999 = 1.6016,
        // p = 0.205676) agree to 2e-5.
        assert!(close(exact.result.p_value, 0.205_654, 1e-6));
        assert!(close(
            exact.result.p_value,
            chi_square_sf(1600.0 / 999.0, 1.0),
            1e-4
        ));
    }

    #[test]
    fn mcnemar_effect_is_the_paired_difference_with_the_agresti_min_interval() {
        let (a, b, d) = sides(&[1, 0], &[0, 1]);
        let test = mcnemar(
            &a,
            &b,
            &d,
            Discordant {
                a_only: 30,
                b_only: 10,
            },
            200,
        );
        assert!(close(test.result.effect.point, 0.1, 1e-15));
        // Agresti–Min by hand: n* = 202, b* = 30.5, c* = 10.5, centre 20/202;
        // var = (b* + c*)/n*² − (b* − c*)²/n*³ = 41/202² − 400/202³.
        let var = 41.0 / 202f64.powi(2) - 400.0 / 202f64.powi(3);
        let half = 1.959_963_985 * var.sqrt();
        let ci = test.result.effect.confidence_interval;
        assert!(close(ci.lower, 20.0 / 202.0 - half, 1e-9));
        assert!(close(ci.upper, 20.0 / 202.0 + half, 1e-9));
        // Exact p: 2 · P(X ≤ 10), X ~ Binomial(40, ½), 0.00222 (sum of C(40, k), k ≤ 10,
        // = 1,221,246,132 (hand sum), over 2^40 = 1,099,511,627,776, doubled).
        assert!(close(
            test.result.p_value,
            2.0 * 1_221_246_132.0 / 1_099_511_627_776.0,
            1e-12
        ));
    }

    #[test]
    fn discordant_counts_come_back_from_the_sums_of_differences() {
        // Differences 1, 1, 1, −1, 0, 0: a alone 3 times, b alone once.
        let (a, b, d) = sides(&[1, 1, 1, 0, 0, 1], &[0, 0, 0, 1, 0, 1]);
        let found = Discordant::from_sums(&a, &b, &d, 1).expect("0/1 values");
        assert_eq!((found.a_only, found.b_only), (3, 1));
        // The same values times 20.
        let (a, b, d) = sides(&[20, 20, 20, 0, 0, 20], &[0, 0, 0, 20, 0, 20]);
        assert_eq!(Discordant::from_sums(&a, &b, &d, 20), Some(found));
        // Values 2 or −1 are not 0/1 values, nor are 0/10 values said to be 0/20 ones.
        let (a, b, d) = sides(&[2, 0], &[0, 0]);
        assert_eq!(Discordant::from_sums(&a, &b, &d, 1), None);
        let (a, b, d) = sides(&[1, -1], &[0, 0]);
        assert_eq!(Discordant::from_sums(&a, &b, &d, 1), None);
        let (a, b, d) = sides(&[10, 0], &[0, 0]);
        assert_eq!(Discordant::from_sums(&a, &b, &d, 20), None);
    }

    #[test]
    fn paired_t_matches_a_hand_computation() {
        // Differences 1, 2, 3: mean 2, variance 1, se = sqrt(1/3), t = 2·sqrt(3), df 2.
        // For 2 df, P(|T| > t) = 1 − t/sqrt(2 + t²) = 1 − sqrt(12/14), and the 0.975 quantile
        // is (2p − 1)/sqrt(2p(1 − p)) = 0.95/sqrt(0.04875) = 4.302653.
        let (a, b, d) = sides(&[3, 5, 7], &[2, 3, 4]);
        let test = paired_t(&a, &b, &d, 1);
        assert_eq!(test.result.test, "paired t");
        assert!(close(test.result.statistic, 2.0 * 3f64.sqrt(), 1e-12));
        assert_eq!(test.result.df, 2.0);
        assert!(close(
            test.result.p_value,
            1.0 - (12.0f64 / 14.0).sqrt(),
            1e-9
        ));
        let half = 0.95 / 0.048_75f64.sqrt() * (1.0f64 / 3.0).sqrt();
        let ci = test.result.effect.confidence_interval;
        assert!(close(ci.lower, 2.0 - half, 1e-6) && close(ci.upper, 2.0 + half, 1e-6));
        // Recorded times 10, the effect is the same in the metric's units.
        let (a10, b10, d10) = sides(&[30, 50, 70], &[20, 30, 40]);
        let scaled = paired_t(&a10, &b10, &d10, 10);
        assert!(close(scaled.result.effect.point, 2.0, 1e-12));
        assert!(close(scaled.result.statistic, test.result.statistic, 1e-12));
    }

    #[test]
    fn differences_that_never_vary_give_a_zero_width_interval() {
        let (a, b, d) = sides(&[1, 2, 3], &[1, 2, 3]);
        let same = paired_t(&a, &b, &d, 1);
        assert_eq!((same.result.statistic, same.result.p_value), (0.0, 1.0));
        assert!(same.variance_ratio.is_infinite());
        let (a, b, d) = sides(&[2, 3, 4], &[1, 2, 3]);
        let shifted = paired_t(&a, &b, &d, 1);
        assert_eq!(shifted.result.p_value, 0.0);
        assert_eq!(shifted.result.effect.confidence_interval.lower, 1.0);
        assert!(!uninformative(&a, &b, &d));
        let (a, b, d) = sides(&[0, 0, 0], &[0, 0, 0]);
        assert!(uninformative(&a, &b, &d));
        assert!(variance_ratio(&a, &b, &d).is_nan() && correlation(&a, &b, &d).is_nan());
    }

    #[test]
    fn correlation_and_variance_ratio_match_a_hand_computation() {
        // a = 1, 2, 3, 4 and b = 1, 3, 2, 4: both variances 5/3, differences 0, −1, 1, 0 with
        // variance 2/3; covariance Σ(a − 2.5)(b − 2.5)/3 = 4/3, correlation 0.8,
        // ratio (5/3 + 5/3)/(2/3) = 5.
        let (a, b, d) = sides(&[1, 2, 3, 4], &[1, 3, 2, 4]);
        assert!(close(correlation(&a, &b, &d), 0.8, 1e-12));
        assert!(close(variance_ratio(&a, &b, &d), 5.0, 1e-12));
        // Opposite orders: correlation −1 (b = 5 − a), ratio (10/3)/(4·5/3) = 0.5.
        let (a, b, d) = sides(&[1, 2, 3, 4], &[4, 3, 2, 1]);
        assert!(close(correlation(&a, &b, &d), -1.0, 1e-12));
        assert!(close(variance_ratio(&a, &b, &d), 0.5, 1e-12));
    }

    #[test]
    fn sums_of_a_trillion_trials_give_the_same_answers_as_their_formulas() {
        // 10^12 trials of 0/1 values: a succeeds 4·10^11 times, b 3.9·10^11 times; a alone
        // 2·10^10 times and b alone 10^10 times.
        let n: u64 = 1_000_000_000_000;
        let side = |successes: u64| IntegerMoments {
            n,
            sum: i128::from(successes),
            sum_squares: u128::from(successes),
            max: 1,
        };
        let (a, b) = (side(400_000_000_000), side(390_000_000_000));
        let discordant = Discordant {
            a_only: 20_000_000_000,
            b_only: 10_000_000_000,
        };
        let d = IntegerMoments {
            n,
            sum: 10_000_000_000,
            sum_squares: 30_000_000_000,
            max: 1,
        };
        assert_eq!(Discordant::from_sums(&a, &b, &d, 1), Some(discordant));
        let test = mcnemar(&a, &b, &d, discordant, n);
        assert!(close(test.result.effect.point, 0.01, 1e-15));
        // Wald variance of the paired difference (b + c)/n² − (b − c)²/n³ = 3e-14 − 1e-16.
        let wald = (3e-14f64 - 1e-16).sqrt() * 1.959_963_985;
        let ci = test.result.effect.confidence_interval;
        // Agresti–Min's extra half cells move it by about 1/(a_only + b_only) relative.
        assert!(close(ci.upper - ci.lower, 2.0 * wald, 1e-9 * wald));
        // Variances p(1 − p)·n/(n − 1): 0.24 and 0.2379; of the differences 0.03 − 0.0001.
        let expected = (0.24 + 0.2379) / (0.03 - 0.0001);
        assert!((test.variance_ratio / expected - 1.0).abs() < 1e-9);
        let t = paired_t(&a, &b, &d, 1);
        assert!(close(t.result.effect.point, 0.01, 1e-15));
        assert!((t.result.effect.standard_error / (0.0299f64 / 1e12).sqrt() - 1.0).abs() < 1e-9);
    }
}
