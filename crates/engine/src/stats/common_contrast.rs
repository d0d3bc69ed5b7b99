//! A contrast of means observed on the same trials (a common design): Σ w_k x̄_k, where every
//! x_k was measured on each of the same n trials, is the mean of the per-trial contrast
//! c_t = Σ w_k x_{k,t}, so its standard error is that of a one-sample mean with n − 1 degrees
//! of freedom, from every pair's covariance. All of it comes from exact sums: each term's Σx
//! and Σx², and every pair's Σ x_k x_l.

use super::{Contrast, Estimate, IntegerMoments, TestResult};

/// What [`CommonContrast::test`] names its test in `comparisons.csv`.
pub const TEST: &str = "paired t (contrast of means on common random numbers)";

/// Below this share of the sum of the absolute terms, a variance or a point built from exact
/// sums in floating point is rounding, not data (25 × 25 terms each off by a few units in the
/// last place stay far below it): it is read as exactly zero.
const ROUNDING: f64 = 1e-12;

/// A contrast of means of values observed on the same trials, with what the pairing gained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CommonContrast {
    /// The point, its standard error and its degrees of freedom (n − 1).
    pub contrast: Contrast,
    /// The variance the contrast would have with independent samples of the same size over
    /// the variance it has on the same trials: how many times the trials an independent
    /// design would need for the same interval (infinite when the per-trial contrast never
    /// varies but its terms do; NaN when nothing varies).
    pub variance_ratio: f64,
}

/// n·Σxy − Σx·Σy: n(n − 1) times the sample covariance, exactly where 128 bits hold it.
fn comoment(n: u64, product: i128, sum_x: i128, sum_y: i128) -> f64 {
    i128::from(n)
        .checked_mul(product)
        .zip(sum_x.checked_mul(sum_y))
        .and_then(|(a, b)| a.checked_sub(b))
        .map_or_else(
            || n as f64 * product as f64 - sum_x as f64 * sum_y as f64,
            |exact| exact as f64,
        )
}

/// `total` with a sum of absolute terms `scale`, read as 0 when it is rounding.
fn cleaned(total: f64, scale: f64) -> f64 {
    if total.abs() <= ROUNDING * scale {
        0.0
    } else {
        total
    }
}

impl CommonContrast {
    /// Σ w_k x̄_k of `terms` (weight, moments of x_k), all over the same trials, with
    /// `product(k, l)` the exact Σ_t x_{k,t} x_{l,t} for k ≠ l (each term's own square sum is
    /// in its moments). `None` when a product is missing, the terms' trial counts differ, there
    /// are fewer than two trials or no terms.
    pub fn new(
        terms: &[(f64, &IntegerMoments)],
        product: impl Fn(usize, usize) -> Option<i128>,
    ) -> Option<CommonContrast> {
        let n = terms.first()?.1.n;
        if n < 2 || terms.iter().any(|(_, m)| m.n != n) {
            return None;
        }
        let (mut quadratic, mut quadratic_scale, mut independent) = (0.0, 0.0, 0.0);
        for (k, &(wk, xk)) in terms.iter().enumerate() {
            for (l, &(wl, xl)) in terms.iter().enumerate() {
                let sum = if k == l {
                    i128::try_from(xk.sum_squares).ok()?
                } else {
                    product(k, l)?
                };
                let term = wk * wl * comoment(n, sum, xk.sum, xl.sum);
                quadratic += term;
                quadratic_scale += term.abs();
                if k == l {
                    independent += term;
                }
            }
        }
        let quadratic = cleaned(quadratic, quadratic_scale).max(0.0);
        let nf = n as f64;
        let standard_error = quadratic.sqrt() / (nf * (nf - 1.0).sqrt());
        let sums: Vec<f64> = terms.iter().map(|(w, m)| w * m.sum as f64).collect();
        let total: f64 = sums.iter().sum();
        let scale: f64 = sums.iter().map(|s| s.abs()).sum();
        let point = if quadratic == 0.0 {
            cleaned(total, scale) / nf
        } else {
            total / nf
        };
        let variance_ratio = if quadratic == 0.0 && independent == 0.0 {
            f64::NAN
        } else {
            independent / quadratic
        };
        Some(CommonContrast {
            contrast: Contrast {
                point,
                standard_error,
                df: nf - 1.0,
            },
            variance_ratio,
        })
    }

    /// The contrast with its 95% Student-t interval (n − 1 degrees of freedom).
    pub fn estimate(&self) -> Estimate {
        self.contrast.estimate()
    }

    /// The paired t-test that the contrast is zero (a per-trial contrast that never varies
    /// gives p = 1 when it is zero and p = 0 otherwise, with a zero-width interval).
    pub fn test(&self, effect_name: &'static str) -> TestResult {
        TestResult {
            test: TEST,
            ..self.contrast.test(effect_name)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three values on each of seven trials (scripted, with ties and negatives).
    const DATA: [[i64; 7]; 3] = [
        [1, -1, 2, 4, -1, 1, 8],
        [1, 1, -1, 4, -2, 1, 8],
        [-1, 1, 1, -4, 1, -1, -8],
    ];

    fn moments(values: &[i64]) -> IntegerMoments {
        let mut m = IntegerMoments::default();
        for &v in values {
            m.record(v);
        }
        m
    }

    fn product(k: usize, l: usize) -> Option<i128> {
        Some(
            DATA[k]
                .iter()
                .zip(&DATA[l])
                .map(|(x, y)| i128::from(x * y))
                .sum(),
        )
    }

    fn contrast(weights: &[f64]) -> CommonContrast {
        let ms: Vec<IntegerMoments> = DATA.iter().map(|d| moments(d)).collect();
        let terms: Vec<(f64, &IntegerMoments)> = weights.iter().copied().zip(&ms).collect();
        CommonContrast::new(&terms, product).expect("every product")
    }

    #[test]
    fn it_is_the_one_sample_mean_of_the_per_trial_contrast() {
        let weights = [0.5, -0.25, 1.0 / 3.0];
        let per_trial: Vec<f64> = (0..7)
            .map(|t| (0..3).map(|k| weights[k] * DATA[k][t] as f64).sum())
            .collect();
        let mean = per_trial.iter().sum::<f64>() / 7.0;
        let variance = per_trial.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / 6.0;
        let c = contrast(&weights);
        assert!((c.contrast.point - mean).abs() < 1e-12, "{c:?} {mean}");
        let se = (variance / 7.0).sqrt();
        assert!(
            (c.contrast.standard_error - se).abs() < 1e-12 * se,
            "{c:?} {se}"
        );
        assert_eq!(c.contrast.df, 6.0);
        // Independent samples of the same size: Σ w² var_k / n.
        let independent: f64 = (0..3)
            .map(|k| weights[k].powi(2) * moments(&DATA[k]).variance() / 7.0)
            .sum();
        let ratio = independent / (se * se);
        assert!(
            (c.variance_ratio - ratio).abs() < 1e-9 * ratio,
            "{c:?} {ratio}"
        );
        let test = c.test("x");
        assert_eq!(test.test, TEST);
        assert!((test.statistic - mean / se).abs() < 1e-9, "{test:?}");
        let half = crate::stats::t_critical(6.0) * se;
        assert!((test.effect.confidence_interval.upper - (mean + half)).abs() < 1e-12);
    }

    #[test]
    fn a_contrast_that_never_varies_is_exact() {
        // Zero weights: nothing varies, nothing gained.
        let weights = [0.0, 0.0, 0.0];
        assert!(contrast(&weights).variance_ratio.is_nan(), "nothing varies");
        // A value against itself with weights that cancel: zero in every trial.
        let m = moments(&DATA[0]);
        let same = |_: usize, _: usize| product(0, 0);
        let c = CommonContrast::new(&[(1.0 / 3.0, &m), (-1.0 / 3.0, &m)], same).expect("kept");
        assert_eq!((c.contrast.point, c.contrast.standard_error), (0.0, 0.0));
        assert_eq!(c.variance_ratio, f64::INFINITY);
        assert_eq!(c.test("x").p_value, 1.0);
        // Missing products, mismatched or too few trials: no contrast.
        let short = moments(&[1]);
        assert!(CommonContrast::new(&[(1.0, &m), (1.0, &m)], |_, _| None).is_none());
        assert!(CommonContrast::new(&[(1.0, &m), (1.0, &short)], same).is_none());
        assert!(CommonContrast::new(&[(1.0, &short)], same).is_none());
        assert!(CommonContrast::new(&[], same).is_none());
    }
}
