//! Ranking and selection: the constants and the elimination step of Kim and Nelson's fully
//! sequential procedure (KN, 2001), and the trials a two-stage procedure (Rinott, 1978) or an
//! equal allocation would take for the same guarantee, for comparison.
//!
//! KN, for `k` systems, confidence `1 − α`, an indifference zone `δ` and a first stage of `n0`
//! observations of each: `η = ½[(2α/(k−1))^(−2/(n0−1)) − 1]`, `h² = 2η(n0−1)`; with `S²_il`
//! the first-stage variance of the differences between systems `i` and `l`, after `r`
//! observations of each survivor, `i` is eliminated if its mean falls below `l`'s by more
//! than `W_il(r) = max(0, δ/(2r) (h² S²_il/δ² − r))`. With probability at least `1 − α` the
//! system kept is the best, or within `δ` of it (KN's Theorem 1, which holds with common
//! random numbers as well as with independent sampling: it uses the variances of the
//! differences).

use super::distributions::normal_sf;

/// KN's `h²` for `k ≥ 2` systems, a confidence of `confidence` and a first stage of `n0 ≥ 2`
/// observations of each (with `c = 1`).
pub fn kn_h2(k: usize, confidence: f64, n0: u64) -> f64 {
    let alpha = 1.0 - confidence;
    let df = (n0 - 1) as f64;
    let eta = 0.5 * (-2.0 / df * (2.0 * alpha / (k - 1) as f64).ln()).exp_m1();
    2.0 * eta * df
}

/// KN's half-width of the continuation region after `r` observations, for a pair whose
/// first-stage variance of differences is `variance`: `max(0, δ/(2r) (h² S²/δ² − r))`.
pub fn kn_allowance(h2: f64, variance: f64, indifference: f64, r: u64) -> f64 {
    let r = r as f64;
    (indifference / (2.0 * r) * (h2 * variance / (indifference * indifference) - r)).max(0.0)
}

/// The systems of `active` that survive KN's screening after `r` observations of each:
/// `means[i]` is system `i`'s mean (oriented so that larger is better) and `variance(i, l)`
/// the first-stage variance of the differences between `i` and `l`. Each system is screened
/// against every other system of `active` (the survivors of the previous step).
pub fn kn_survivors(
    active: &[usize],
    means: &[f64],
    r: u64,
    h2: f64,
    indifference: f64,
    variance: impl Fn(usize, usize) -> f64,
) -> Vec<usize> {
    active
        .iter()
        .copied()
        .filter(|&i| {
            active.iter().all(|&l| {
                l == i || means[i] >= means[l] - kn_allowance(h2, variance(i, l), indifference, r)
            })
        })
        .collect()
}

/// The constant `h` of a two-stage procedure with known variances (Bechhofer's, and Rinott's
/// as the first stage grows): the solution of `∫ Φ(z + h)^(k−1) φ(z) dz = confidence`, so
/// that `k` independent means each with standard deviation `δ/h` pick the best with that
/// probability when it leads all others by `δ`.
pub fn two_stage_h(k: usize, confidence: f64) -> f64 {
    let correct = |h: f64| {
        // The trapezoid rule over z in [-9, 9]: φ is below 1e-17 beyond.
        let steps = 3_600;
        let width = 18.0 / steps as f64;
        (0..=steps)
            .map(|s| {
                let z = -9.0 + s as f64 * width;
                let weight = if s == 0 || s == steps { 0.5 } else { 1.0 };
                let density = (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
                weight * density * normal_sf(-(z + h)).powi(k as i32 - 1)
            })
            .sum::<f64>()
            * width
    };
    let (mut low, mut high) = (0.0, 20.0);
    for _ in 0..100 {
        let mid = 0.5 * (low + high);
        if correct(mid) < confidence {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
}

/// Trials Rinott's two-stage procedure takes over all systems, for first-stage variances
/// `variances` (each system's own) and a first stage of `n0`: `Σ max(n0, ⌈(h S_i/δ)²⌉)` with
/// `h` from [`two_stage_h`].
pub fn rinott_trials(variances: &[f64], confidence: f64, indifference: f64, n0: u64) -> u64 {
    let h = two_stage_h(variances.len(), confidence);
    variances
        .iter()
        .map(|&v| n0.max(needed(h, v, indifference)))
        .sum()
}

/// Trials an equal allocation takes over all systems for the same guarantee: every system
/// plays as many as the one with the largest variance needs, `k · ⌈(h S_max/δ)²⌉`.
pub fn equal_trials(variances: &[f64], confidence: f64, indifference: f64, n0: u64) -> u64 {
    let h = two_stage_h(variances.len(), confidence);
    let largest = variances.iter().copied().fold(0.0, f64::max);
    variances.len() as u64 * n0.max(needed(h, largest, indifference))
}

/// `⌈h² v / δ²⌉`, saturating.
fn needed(h: f64, variance: f64, indifference: f64) -> u64 {
    let n = (h * h * variance / (indifference * indifference)).ceil();
    if n.is_finite() && n < u64::MAX as f64 {
        n as u64
    } else {
        u64::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_stage_h_matches_the_closed_form_for_two_systems_and_bechhofers_table() {
        // k = 2: Φ(h/√2) = P, so h = √2 z_P.
        let h = two_stage_h(2, 0.95);
        assert!(
            (h - 2.0f64.sqrt() * 1.644_853_626_951_472).abs() < 1e-6,
            "{h}"
        );
        // Bechhofer (1954), tau for P* = 0.95: k = 3 2.7101, k = 10 3.4182.
        assert!((two_stage_h(3, 0.95) - 2.7101).abs() < 5e-4);
        assert!((two_stage_h(10, 0.95) - 3.4182).abs() < 5e-4);
    }

    #[test]
    fn kn_h2_approaches_its_limit_and_grows_with_the_systems() {
        // As n0 grows, h² → −2 ln(2α/(k−1)).
        let limit = -2.0 * (2.0 * 0.05f64 / 9.0).ln();
        assert!((kn_h2(10, 0.95, 1_000_000) - limit).abs() < 1e-3);
        assert!(kn_h2(10, 0.95, 10) > kn_h2(10, 0.95, 100));
        assert!(kn_h2(10, 0.95, 100) > kn_h2(3, 0.95, 100));
        // KN's own example: k = 2, α = 0.05, n0 = 10: η = ½(0.1^(−2/9) − 1).
        let eta = 0.5 * (0.1f64.powf(-2.0 / 9.0) - 1.0);
        assert!((kn_h2(2, 0.95, 10) - 2.0 * eta * 9.0).abs() < 1e-12);
    }

    #[test]
    fn screening_keeps_the_leader_and_drops_only_what_falls_past_the_allowance() {
        let means = [0.0, 1.0, 0.9];
        // A large allowance keeps everyone; none keeps only the leader.
        let wide = kn_survivors(&[0, 1, 2], &means, 10, 1e6, 0.1, |_, _| 1.0);
        assert_eq!(wide, vec![0, 1, 2]);
        let none = kn_survivors(&[0, 1, 2], &means, 1_000_000, 1.0, 0.1, |_, _| 0.0);
        assert_eq!(none, vec![1]);
        assert_eq!(kn_allowance(4.0, 1.0, 0.5, 1_000), 0.0);
        assert!((kn_allowance(4.0, 1.0, 0.5, 4) - (0.5 / 8.0) * (16.0 - 4.0)).abs() < 1e-12);
    }

    #[test]
    fn rinott_takes_at_least_the_first_stage_and_equal_allocation_at_least_rinott() {
        let variances = [1.0, 4.0, 0.01];
        let rinott = rinott_trials(&variances, 0.95, 0.5, 10);
        let equal = equal_trials(&variances, 0.95, 0.5, 10);
        assert!(rinott >= 30);
        assert!(equal >= rinott);
        let h = two_stage_h(3, 0.95);
        assert_eq!(
            rinott,
            (h * h * 4.0f64).ceil() as u64 + (h * h * 16.0f64).ceil() as u64 + 10
        );
    }
}
