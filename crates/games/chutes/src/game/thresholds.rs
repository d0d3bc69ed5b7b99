//! The win-probability thresholds the `threshold` and `take_only` strategies decide by, each
//! validated in [0, 1], and why a strategy cannot be built.

use super::strategies::Strategy;

/// Why a strategy cannot be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StrategyError {
    /// No strategy has this name.
    #[error("unknown strategy {name:?}; valid names are: {}", Strategy::NAMES.join(", "))]
    UnknownName {
        /// The name asked for.
        name: String,
    },
    /// A threshold parameter lies outside [0, 1] (or is NaN).
    #[error(
        "threshold parameter {parameter} = {value} is outside [0, 1]; it is a win probability"
    )]
    ThresholdOutOfRange {
        /// `double_at` or `take_at`.
        parameter: &'static str,
        /// The rejected value.
        value: f64,
    },
}

/// `value` if it is a win probability (in [0, 1], not NaN).
fn probability(parameter: &'static str, value: f64) -> Result<f64, StrategyError> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(StrategyError::ThresholdOutOfRange { parameter, value })
    }
}

/// The win-probability thresholds of the `threshold` strategy, each validated in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    double_at: f64,
    take_at: f64,
}

impl Thresholds {
    /// Default `double_at`.
    pub const DEFAULT_DOUBLE_AT: f64 = 0.70;
    /// Default `take_at`.
    pub const DEFAULT_TAKE_AT: f64 = 0.25;
    /// The default thresholds.
    pub const DEFAULT: Thresholds = Thresholds {
        double_at: Self::DEFAULT_DOUBLE_AT,
        take_at: Self::DEFAULT_TAKE_AT,
    };

    /// Thresholds that double at a cubeless win probability of at least `double_at` and take at
    /// one of at least `take_at`; both must lie in [0, 1].
    pub fn new(double_at: f64, take_at: f64) -> Result<Thresholds, StrategyError> {
        Ok(Thresholds {
            double_at: probability("double_at", double_at)?,
            take_at: probability("take_at", take_at)?,
        })
    }

    /// Doubles when the mover's cubeless win probability is at least this.
    pub fn double_at(&self) -> f64 {
        self.double_at
    }

    /// Takes when the taker's cubeless win probability is at least this.
    pub fn take_at(&self) -> f64 {
        self.take_at
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The one threshold of the `take_only` strategy, which never doubles: it takes a double while
/// its cubeless win probability is at least this (in [0, 1]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TakeAt(f64);

impl TakeAt {
    /// The default, the `threshold` strategy's default `take_at`.
    pub const DEFAULT: TakeAt = TakeAt(Thresholds::DEFAULT_TAKE_AT);

    /// Takes at a cubeless win probability of at least `take_at`, which must lie in [0, 1].
    pub fn new(take_at: f64) -> Result<TakeAt, StrategyError> {
        probability("take_at", take_at).map(TakeAt)
    }

    /// The threshold.
    pub fn take_at(&self) -> f64 {
        self.0
    }
}

impl Default for TakeAt {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_outside_zero_to_one_are_refused_by_name() {
        let error = Thresholds::new(1.5, 0.25).expect_err("double_at too big");
        assert!(error.to_string().contains("double_at = 1.5"), "{error}");
        let error = TakeAt::new(-0.1).expect_err("take_at negative");
        assert!(error.to_string().contains("take_at = -0.1"), "{error}");
        assert!(TakeAt::new(f64::NAN).is_err());
        assert_eq!(TakeAt::new(1.0).map(|t| t.take_at()), Ok(1.0));
        assert_eq!(TakeAt::default().take_at(), Thresholds::default().take_at());
    }
}
