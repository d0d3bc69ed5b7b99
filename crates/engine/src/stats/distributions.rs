//! The distribution functions the estimates and tests need — Student's t quantile and upper
//! tail, the standard normal, and the chi-square upper tail — each right to 1e-8
//! relative (pinned against mpmath at 50 digits in `tests/numerics/`) and computed in a
//! fixed number of steps for every number of degrees of freedom from below 1 to 10^12 and
//! beyond.
//!
//! statrs is used where it is right: the normal throughout, and Student's t and chi-square
//! below [`T_ASYMPTOTIC_DF`] and [`CHI_SQUARE_ASYMPTOTIC_DF`] degrees of freedom. Above them
//! statrs 0.18 loses accuracy (its t quantile is 1.8266 instead of 1.95996 at 10^7 degrees of
//! freedom and does not return from about 3×10^7; its t and chi-square tails are wrong in the
//! third digit at 10^12), so asymptotic expansions in 1/df take over, where they are exact to
//! far below f64 precision.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal, StudentsT};
use statrs::function::erf::erfc;

/// Degrees of freedom from which Student's t uses its asymptotic expansions.
pub const T_ASYMPTOTIC_DF: f64 = 1_000.0;
/// Degrees of freedom from which chi-square uses Temme's uniform expansion.
pub const CHI_SQUARE_ASYMPTOTIC_DF: f64 = 10_000.0;

fn standard_normal() -> Normal {
    Normal::new(0.0, 1.0).expect("the standard normal is valid")
}

/// The `p` quantile of the standard normal (statrs: exact to f64 precision).
pub fn normal_quantile(p: f64) -> f64 {
    standard_normal().inverse_cdf(p)
}

/// The upper tail P(Z > z) of the standard normal (statrs' erfc: right to about 1e-10
/// relative as far as f64 reaches, z ≈ 38).
pub fn normal_sf(z: f64) -> f64 {
    standard_normal().sf(z)
}

/// The `p` quantile of Student's t with `df` degrees of freedom, for `p` in (0, 1) (NaN
/// for a NaN or non-positive `df`; the normal quantile for an infinite one).
///
/// Below [`T_ASYMPTOTIC_DF`], statrs' inversion of the incomplete beta function; from there
/// on, the Cornish–Fisher expansion of the t quantile in powers of 1/df to the 1/df⁴ term
/// (Abramowitz & Stegun 26.7.5; Hill 1970, ACM algorithm 396), whose first omitted term is
/// below 1e-15 relative at 1,000 degrees of freedom.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if df < T_ASYMPTOTIC_DF {
        return match StudentsT::new(0.0, 1.0, df) {
            Ok(dist) => dist.inverse_cdf(p),
            Err(_) => f64::NAN,
        };
    }
    let x = normal_quantile(p);
    let x2 = x * x;
    let g1 = (x2 + 1.0) * x / 4.0;
    let g2 = ((5.0 * x2 + 16.0) * x2 + 3.0) * x / 96.0;
    let g3 = (((3.0 * x2 + 19.0) * x2 + 17.0) * x2 - 15.0) * x / 384.0;
    let g4 = ((((79.0 * x2 + 776.0) * x2 + 1482.0) * x2 - 1920.0) * x2 - 945.0) * x / 92_160.0;
    let inverse = 1.0 / df;
    x + inverse * (g1 + inverse * (g2 + inverse * (g3 + inverse * g4)))
}

/// The upper tail P(T > t) of Student's t with `df` degrees of freedom (NaN for a NaN `t`,
/// a NaN or non-positive `df`; the normal tail for an infinite one).
///
/// Below [`T_ASYMPTOTIC_DF`], statrs' regularized incomplete beta function; from there on,
/// Hill's normalizing transformation (Hill 1970, ACM algorithm 395: the normal tail at
/// z(y) with y = (df − ½)·ln(1 + t²/df)), which is within 1e-7 relative of the exact tail
/// at 1,000 degrees of freedom for every t up to 38 (where the tail leaves f64), and within
/// 1e-12 from 10^4.
pub fn t_sf(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t < 0.0 {
        return 1.0 - t_sf(-t, df);
    }
    if df == f64::INFINITY {
        return normal_sf(t);
    }
    if df < T_ASYMPTOTIC_DF {
        return match StudentsT::new(0.0, 1.0, df) {
            Ok(dist) => dist.sf(t),
            Err(_) => f64::NAN,
        };
    }
    let a = df - 0.5;
    let b = 48.0 * a * a;
    let y = a * (t * t / df).ln_1p();
    let z = (((((-0.4 * y - 3.3) * y - 24.0) * y - 85.5) / (0.8 * y * y + 100.0 + b) + y + 3.0)
        / b
        + 1.0)
        * y.sqrt();
    normal_sf(z)
}

/// The two-sided p-value 2·P(T > |t|) of a t statistic (NaN for NaN).
pub fn t_two_sided_p(t: f64, df: f64) -> f64 {
    (2.0 * t_sf(t.abs(), df)).clamp(0.0, 1.0)
}

/// The upper tail P(X > x) of chi-square with `df` degrees of freedom (NaN for a NaN `x`, a
/// NaN or non-positive `df`).
///
/// Below [`CHI_SQUARE_ASYMPTOTIC_DF`], statrs' regularized incomplete gamma function; from
/// there on, Temme's uniform asymptotic expansion of Q(df/2, x/2) (DLMF 8.12.3–8.12.9) to
/// its 1/a term, uniform in x: its first omitted term is below 1e-12 relative at 10^4
/// degrees of freedom, in the centre and the far tails alike.
pub fn chi_square_sf(x: f64, df: f64) -> f64 {
    if x.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 1.0;
    }
    if df < CHI_SQUARE_ASYMPTOTIC_DF {
        return match ChiSquared::new(df) {
            Ok(dist) => dist.sf(x),
            Err(_) => f64::NAN,
        };
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    gamma_q_temme(df / 2.0, x / 2.0)
}

/// Q(a, x), the regularized upper incomplete gamma function, by Temme's expansion for large
/// `a`: ½·erfc(η·√(a/2)) + e^(−aη²/2)/√(2πa)·(c₀(η) + c₁(η)/a), where ½η² = λ − 1 − ln λ,
/// λ = x/a and η has the sign of λ − 1.
fn gamma_q_temme(a: f64, x: f64) -> f64 {
    let d = (x - a) / a;
    let h = minus_log1p_plus(d);
    let eta = (2.0 * h).sqrt().copysign(d);
    let leading = 0.5 * erfc(eta * (a / 2.0).sqrt());
    let (c0, c1) = if eta.abs() < 1e-3 {
        // Taylor series at η = 0, where the closed forms below cancel.
        (
            -1.0 / 3.0 + eta * (1.0 / 12.0 + eta * (-2.0 / 135.0 + eta / 864.0)),
            -1.0 / 540.0 + eta * (-1.0 / 288.0 + eta / 378.0),
        )
    } else {
        (
            1.0 / d - 1.0 / eta,
            1.0 / eta.powi(3) - 1.0 / d.powi(3) - 1.0 / (d * d) - 1.0 / (12.0 * d),
        )
    };
    let remainder = (-a * h).exp() / (2.0 * std::f64::consts::PI * a).sqrt() * (c0 + c1 / a);
    (leading + remainder).clamp(0.0, 1.0)
}

/// d − ln(1 + d) for d > −1, without the cancellation of the direct formula near 0.
fn minus_log1p_plus(d: f64) -> f64 {
    if d.abs() > 0.25 {
        return d - d.ln_1p();
    }
    // d²/2 − d³/3 + d⁴/4 − …: at |d| ≤ 1/4, 26 terms reach 1e-17 relative.
    let mut power = d * d;
    let mut sum = 0.0;
    for k in 2..=28 {
        sum += power / k as f64;
        power *= -d;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_series_agrees_with_the_direct_formula_where_both_are_exact() {
        for d in [0.2, -0.2, 0.25, -0.25] {
            let direct = d - f64::ln_1p(d);
            assert!((minus_log1p_plus(d) - direct).abs() < 1e-15 * direct, "{d}");
        }
        let d = 1e-8_f64;
        let series = d * d / 2.0 - d * d * d / 3.0;
        assert!((minus_log1p_plus(d) - series).abs() < 1e-15 * series);
    }

    #[test]
    fn the_methods_agree_at_their_switches() {
        for p in [0.6, 0.975, 0.999] {
            let below = t_quantile(p, T_ASYMPTOTIC_DF - 1e-9);
            let above = t_quantile(p, T_ASYMPTOTIC_DF);
            assert!((below - above).abs() < 1e-9 * above, "{p}: {below} {above}");
        }
        for t in [0.5, 3.0, 8.0] {
            let below = t_sf(t, T_ASYMPTOTIC_DF - 1e-9);
            let above = t_sf(t, T_ASYMPTOTIC_DF);
            assert!((below - above).abs() < 1e-8 * above, "{t}: {below} {above}");
        }
        let df = CHI_SQUARE_ASYMPTOTIC_DF;
        for x in [0.9 * df, df, df + 300.0, 1.5 * df] {
            let below = chi_square_sf(x, df - 1e-9);
            let above = chi_square_sf(x, df);
            assert!((below - above).abs() < 1e-8 * above, "{x}: {below} {above}");
        }
    }

    #[test]
    fn undefined_inputs_give_nan_and_limits_their_values() {
        assert!(t_quantile(0.975, f64::NAN).is_nan());
        assert!(t_quantile(0.975, 0.0).is_nan());
        assert_eq!(t_quantile(0.975, f64::INFINITY), normal_quantile(0.975));
        assert_eq!(t_sf(2.0, f64::INFINITY), normal_sf(2.0));
        assert!(t_two_sided_p(f64::NAN, 10.0).is_nan());
        assert_eq!(t_two_sided_p(0.0, 1e12), 1.0);
        assert_eq!(t_two_sided_p(1e6, 1e12), 0.0);
        assert!(chi_square_sf(f64::NAN, 3.0).is_nan());
        assert_eq!(chi_square_sf(0.0, 1e12), 1.0);
        assert_eq!(chi_square_sf(f64::INFINITY, 1e12), 0.0);
        assert_eq!(chi_square_sf(1e9, 1e12), 1.0);
    }
}
