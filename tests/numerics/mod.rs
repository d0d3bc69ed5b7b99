//! The engine's distribution functions against reference values at every size a run can
//! reach: Student's t quantile at 0.975 (the engine's level), two-sided t and normal
//! p-values, chi-square upper tails and Wilson intervals, for degrees of freedom log-spaced
//! from 1 to 10^12 (1, 2, 3, 5 in every decade, fractional ones, and either side of each
//! switch between methods), each within 1e-6 relative.
//!
//! Every reference value was computed with mpmath 1.3.0 at 50 significant digits (mp.dps =
//! 50), cross-checked against scipy 1.17.1, and printed by `tests/numerics_reference.py`
//! (run it to regenerate the tables of `t_values.rs` and `tail_values.rs`):
//! - t quantile: `mpmath.findroot` of `betainc(df/2, 1/2, 0, df/(df+t^2), regularized=True)/2
//!   - 0.025` from `scipy.stats.t.ppf(0.975, df)`;
//! - t p-value: `betainc(df/2, 1/2, 0, df/(df+t^2), regularized=True)` (= 2 P(T > t));
//! - chi-square: `gammainc(df/2, x/2, inf, regularized=True)`;
//! - normal p-value: `erfc(z/sqrt(2))`;
//! - Wilson: the score interval's closed form with z = sqrt(2) erfinv(0.95).

// The literals are mpmath's values as printed, to 17 significant digits.
#![allow(clippy::excessive_precision)]

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use experiment_engine::stats::distributions::{chi_square_sf, t_two_sided_p};
use experiment_engine::stats::{t_critical, two_sided_normal_p, wilson};

mod t_values;
mod tail_values;

use t_values::{T_P_VALUES, T_QUANTILES};
use tail_values::{CHI_SQUARE_TAILS, NORMAL_P_VALUES, WILSON};

/// Relative tolerance.
const TOLERANCE: f64 = 1e-6;

/// Runs `check` on its own thread and fails if it has not finished within a minute: a guard
/// against a function that never returns (each call takes microseconds), not a speed test.
fn within_a_minute(name: &'static str, check: fn() -> Vec<String>) {
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let _ = send.send(check());
    });
    match receive.recv_timeout(Duration::from_secs(60)) {
        Ok(failures) => assert!(
            failures.is_empty(),
            "{name}: {} of the reference values missed by more than {TOLERANCE} relative:\n{}",
            failures.len(),
            failures.join("\n")
        ),
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{name} did not return within 60 s"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{name} panicked"),
    }
}

fn miss(what: String, got: f64, want: f64) -> Option<String> {
    let error = ((got - want) / want).abs();
    (error.is_nan() || error > TOLERANCE)
        .then(|| format!("{what}: {got:e}, want {want:e} ({error:.1e} relative)"))
}

#[test]
fn the_t_quantile_is_right_for_every_df_up_to_a_trillion() {
    within_a_minute("t quantile", || {
        T_QUANTILES
            .iter()
            .filter_map(|&(df, want)| miss(format!("df {df}"), t_critical(df), want))
            .collect()
    });
}

#[test]
fn t_p_values_are_right_for_every_df_up_to_a_trillion() {
    within_a_minute("t p-value", || {
        T_P_VALUES
            .iter()
            .filter_map(|&(t, df, want)| {
                miss(format!("t {t}, df {df}"), t_two_sided_p(t, df), want)
            })
            .collect()
    });
}

#[test]
fn chi_square_tails_are_right_for_every_df_up_to_a_trillion() {
    within_a_minute("chi-square tail", || {
        CHI_SQUARE_TAILS
            .iter()
            .filter_map(|&(x, df, want)| {
                miss(format!("x {x}, df {df}"), chi_square_sf(x, df), want)
            })
            .collect()
    });
}

#[test]
fn normal_p_values_are_right_into_the_far_tail() {
    within_a_minute("normal p-value", || {
        NORMAL_P_VALUES
            .iter()
            .filter_map(|&(z, want)| miss(format!("z {z}"), two_sided_normal_p(z), want))
            .collect()
    });
}

#[test]
fn wilson_intervals_are_right_up_to_a_trillion_trials() {
    within_a_minute("Wilson interval", || {
        WILSON
            .iter()
            .flat_map(|&(s, n, lower, upper)| {
                let ci = wilson(s, n).confidence_interval;
                [
                    miss(format!("{s}/{n} lower"), ci.lower, lower),
                    miss(format!("{s}/{n} upper"), ci.upper, upper),
                ]
            })
            .flatten()
            .collect()
    });
}
