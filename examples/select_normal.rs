//! Kim and Nelson's procedure on textbook normal systems, for `scripts/bench.sh` and
//! `docs/methods.md`: ten systems with standard deviation 1, an indifference zone of half a
//! standard deviation, 95% confidence, a first stage of 10 and screening after every further
//! observation, with the screening and constants of `[select]` (`experiment_engine::stats::selection`).
//! Two configurations of the means: the slippage one (the best leads every other by δ, the
//! least favourable for a two-stage procedure) and increasing means (system i trails the best
//! by i·δ). Common random numbers are modelled as a correlation ρ between the systems'
//! observations of the same replication. For each it prints the mean observations KN took over
//! all ten systems, what Rinott's two-stage procedure would take from the same first-stage
//! variances (with `h` for known variances, which understates Rinott's), their ratio, and the
//! share of correct selections. Prints `name value unit` lines; nothing here is asserted.
//!
//!   cargo run --release --example select_normal -- 2000
//!
//! The argument is the number of repeated selections per case (default 2000).

use experiment_engine::stats::selection::{kn_h2, kn_survivors, rinott_trials};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Systems compared.
const K: usize = 10;
/// The indifference zone, in standard deviations.
const DELTA: f64 = 0.5;
/// The probability of a correct selection asked for.
const CONFIDENCE: f64 = 0.95;
/// Observations of each system in the first stage.
const N0: u64 = 10;

fn main() {
    let repeats: u64 = std::env::args()
        .nth(1)
        .map_or(2000, |a| a.parse().expect("repeats"));
    let slippage: Vec<f64> = (0..K).map(|i| if i == 0 { DELTA } else { 0.0 }).collect();
    let increasing: Vec<f64> = (0..K).map(|i| -(i as f64) * DELTA).collect();
    for (config, means) in [("slippage", &slippage), ("increasing", &increasing)] {
        for rho in [0.0, 0.5, 0.75] {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(20261202);
            let (mut kn, mut rinott, mut correct) = (0.0, 0.0, 0u64);
            for _ in 0..repeats {
                let (taken, two_stage, chosen) = select(&mut rng, means, rho);
                kn += taken as f64;
                rinott += two_stage as f64;
                correct += u64::from(chosen == 0);
            }
            let n = repeats as f64;
            let name = format!("select_normal_{config}_rho{rho}");
            println!("{name}_kn_observations {:.0} observations", kn / n);
            println!("{name}_rinott_observations {:.0} observations", rinott / n);
            println!("{name}_kn_over_rinott {:.3} ratio", kn / rinott);
            println!("{name}_correct {:.4} share", correct as f64 / n);
        }
    }
}

/// One observation of each system: normal with the system's mean and variance 1, every pair
/// correlated `rho` through a shared term.
fn observe(rng: &mut Xoshiro256PlusPlus, means: &[f64], rho: f64) -> Vec<f64> {
    let shared = normal(rng);
    means
        .iter()
        .map(|m| m + rho.sqrt() * shared + (1.0 - rho).sqrt() * normal(rng))
        .collect()
}

/// A standard normal deviate (Box–Muller).
fn normal(rng: &mut Xoshiro256PlusPlus) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random::<f64>();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// One selection: the observations KN took over all systems, Rinott's total from the same
/// first stage, and the system chosen.
fn select(rng: &mut Xoshiro256PlusPlus, means: &[f64], rho: f64) -> (u64, u64, usize) {
    let first: Vec<Vec<f64>> = (0..N0).map(|_| observe(rng, means, rho)).collect();
    let mean_of = |f: &dyn Fn(&[f64]) -> f64| first.iter().map(|x| f(x)).sum::<f64>() / N0 as f64;
    let variance_of = |f: &dyn Fn(&[f64]) -> f64| {
        let m = mean_of(f);
        first.iter().map(|x| (f(x) - m).powi(2)).sum::<f64>() / (N0 - 1) as f64
    };
    let pair: Vec<Vec<f64>> = (0..K)
        .map(|i| (0..K).map(|l| variance_of(&|x| x[i] - x[l])).collect())
        .collect();
    let own: Vec<f64> = (0..K).map(|i| variance_of(&|x| x[i])).collect();
    let two_stage = rinott_trials(&own, CONFIDENCE, DELTA, N0);
    let h2 = kn_h2(K, CONFIDENCE, N0);
    let mut sums: Vec<f64> = (0..K).map(|i| first.iter().map(|x| x[i]).sum()).collect();
    let mut taken = N0 * K as u64;
    let mut r = N0;
    let mut active: Vec<usize> = (0..K).collect();
    loop {
        let averages: Vec<f64> = sums.iter().map(|s| s / r as f64).collect();
        active = kn_survivors(&active, &averages, r, h2, DELTA, |i, l| pair[i][l]);
        if active.len() == 1 {
            return (taken, two_stage, active[0]);
        }
        let next = observe(rng, means, rho);
        for &i in &active {
            sums[i] += next[i];
        }
        taken += active.len() as u64;
        r += 1;
    }
}
