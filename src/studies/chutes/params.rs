//! The tournament's parameters, as a spec sets them, and the checks they pass before a run.

use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::games::chutes::{
    cube_levels, Strategy, StrategyError, StrategyName, Thresholds, DEFAULT_MAX_CUBE,
};
use crate::params::{ParamDef, ParamError, ParamKind, Params};

/// Largest cube cap a spec may set (the largest power of two a `u32` stake holds).
const MAX_CUBE_LIMIT: i64 = 1 << 31;

/// The tournament's parameters, as a spec sets them. Variants sweep `first` and `second`; the
/// other three are shared by every pairing of a run ([`Params::validate_together`] refuses a
/// spec whose variants set them differently, so a run reads them from any one variant).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChutesParams {
    /// Strategy of player 1, who moves first.
    pub first: StrategyName,
    /// Strategy of player 2.
    pub second: StrategyName,
    /// Threshold strategy: double at this cubeless win probability or more.
    pub double_at: f64,
    /// Threshold strategy: take at this cubeless win probability or more.
    pub take_at: f64,
    /// Cube cap, a power of two.
    pub max_cube: u32,
}

impl ChutesParams {
    /// The strategies of player 1 and player 2, `threshold` with these thresholds.
    pub fn strategies(&self) -> Result<(Strategy, Strategy), StrategyError> {
        Ok((self.strategy(self.first)?, self.strategy(self.second)?))
    }

    fn strategy(&self, name: StrategyName) -> Result<Strategy, StrategyError> {
        match Strategy::from_name(name.into())? {
            Strategy::Threshold(_) => Strategy::threshold(self.double_at, self.take_at),
            other => Ok(other),
        }
    }
}

impl Default for ChutesParams {
    fn default() -> Self {
        ChutesParams {
            first: StrategyName::Never,
            second: StrategyName::Never,
            double_at: Thresholds::DEFAULT_DOUBLE_AT,
            take_at: Thresholds::DEFAULT_TAKE_AT,
            max_cube: DEFAULT_MAX_CUBE,
        }
    }
}

impl Params for ChutesParams {
    const DECLARED: &'static [ParamDef] = &[
        ParamDef::new(
            "first",
            ParamKind::Choice(<StrategyName as VariantNames>::VARIANTS),
            "strategy of player 1, who moves first",
        ),
        ParamDef::new(
            "second",
            ParamKind::Choice(<StrategyName as VariantNames>::VARIANTS),
            "strategy of player 2",
        ),
        ParamDef::new(
            "double_at",
            ParamKind::Float { min: 0.0, max: 1.0 },
            "threshold strategy: double at this cubeless win probability or more",
        ),
        ParamDef::new(
            "take_at",
            ParamKind::Float { min: 0.0, max: 1.0 },
            "threshold strategy: take at this cubeless win probability or more",
        ),
        ParamDef::new(
            "max_cube",
            ParamKind::Int {
                min: 1,
                max: MAX_CUBE_LIMIT,
            },
            "cube cap, a power of two: no double is offered past it",
        ),
    ];

    fn validate(&self) -> Result<(), ParamError> {
        cube_levels(self.max_cube).map_err(|error| ParamError {
            key: "max_cube",
            message: error.to_string(),
        })?;
        self.strategies().map_err(|error| ParamError {
            key: "double_at",
            message: error.to_string(),
        })?;
        Ok(())
    }

    /// One run plays every pairing with one solver and one set of thresholds: the only check
    /// of this rule (a run relies on it and does not check again).
    fn validate_together(variants: &[Self]) -> Result<(), ParamError> {
        let Some(first) = variants.first() else {
            return Ok(());
        };
        for variant in variants {
            let differs = [
                ("max_cube", variant.max_cube != first.max_cube),
                ("double_at", variant.double_at != first.double_at),
                ("take_at", variant.take_at != first.take_at),
            ];
            if let Some((key, _)) = differs.into_iter().find(|(_, differs)| *differs) {
                return Err(ParamError {
                    key,
                    message: format!(
                        "variants set {key} differently, but the chutes tournament plays every \
                         pairing with one max_cube, double_at and take_at: set {key} in [params] \
                         and vary only first and second"
                    ),
                });
            }
        }
        Ok(())
    }
}
