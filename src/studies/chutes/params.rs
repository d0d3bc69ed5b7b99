//! The tournament's parameters, as a spec sets them, and the checks they pass before a run.

use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::games::chutes::{
    cube_levels, Board, BoardError, BoardName, Overshoot, Racers, Strategy, StrategyError,
    StrategyName, Thresholds, DEFAULT_DIE_SIDES, DEFAULT_MAX_CUBE, DIE_SIDES,
};
use crate::params::{ParamDef, ParamError, ParamKind, Params};

/// When the thresholds are read: only a pairing in which `threshold` plays reads them.
const THRESHOLD_PLAYS: &[(&str, &[&str])] =
    &[("first", &["threshold"]), ("second", &["threshold"])];

/// Largest cube cap a spec may set (the largest power of two a `u32` stake holds).
const MAX_CUBE_LIMIT: i64 = 1 << 31;

/// One jump of a board as a spec writes it: `[from, to]` (squares; [`Board::new`] checks which
/// squares a jump may start and end on).
const JUMP: ParamKind = ParamKind::List {
    item: &ParamKind::Int { min: 0, max: 100 },
    min_len: 2,
    max_len: 2,
};

/// A board as a spec writes it: a named board, or the list of its jumps `[[from, to], ...]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BoardSpec {
    /// A named board (`"milton_bradley"`, `"milton_bradley_48"`).
    Named(BoardName),
    /// Jumps as (from, to), in the order given: a ladder when `to > from`, a chute otherwise.
    Jumps(Vec<(u8, u8)>),
}

impl BoardSpec {
    /// The jumps, in the order given.
    pub fn jumps(&self) -> Vec<(u8, u8)> {
        match self {
            BoardSpec::Named(name) => name.jumps(),
            BoardSpec::Jumps(jumps) => jumps.clone(),
        }
    }
}

/// The tournament's parameters, as a spec sets them. Variants sweep `first` and `second`; the
/// variants that agree on every other parameter form one tournament (the study groups them);
/// the rules of the board and the die are shared by the whole run
/// ([`Params::validate_together`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// The board: a named one or a list of jumps.
    pub board: BoardSpec,
    /// Sides of the die (or spinner).
    pub die_sides: u8,
    /// What a roll that would pass the finish does.
    pub overshoot: Overshoot,
    /// Players in the base game: 2, or 1 for the single-player game.
    pub base_players: u8,
}

impl ChutesParams {
    /// The strategies of player 1 and player 2, `threshold` with these thresholds.
    pub fn strategies(&self) -> Result<(Strategy, Strategy), StrategyError> {
        Ok((self.strategy(self.first)?, self.strategy(self.second)?))
    }

    /// The board with its die and overshoot rule, validated.
    pub fn board(&self) -> Result<Board, BoardError> {
        Board::new(&self.board.jumps(), self.die_sides, self.overshoot)
    }

    /// Who races in the base game.
    pub fn racers(&self) -> Racers {
        if self.base_players == 1 {
            Racers::One
        } else {
            Racers::Two
        }
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
            board: BoardSpec::Named(BoardName::MiltonBradley),
            die_sides: DEFAULT_DIE_SIDES,
            overshoot: Overshoot::Wins,
            base_players: Racers::Two.count(),
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
        )
        .used_when(THRESHOLD_PLAYS),
        ParamDef::new(
            "take_at",
            ParamKind::Float { min: 0.0, max: 1.0 },
            "threshold strategy: take at this cubeless win probability or more",
        )
        .used_when(THRESHOLD_PLAYS),
        ParamDef::new(
            "max_cube",
            ParamKind::Int {
                min: 1,
                max: MAX_CUBE_LIMIT,
            },
            "cube cap, a power of two: no double is offered past it",
        ),
        ParamDef::new(
            "board",
            ParamKind::OneOf(&[
                ParamKind::Choice(<BoardName as VariantNames>::VARIANTS),
                ParamKind::List {
                    item: &JUMP,
                    min_len: 0,
                    max_len: 99,
                },
            ]),
            "the board: milton_bradley (47 -> 26), milton_bradley_48 (that chute on 48), or \
             jumps [[from, to], ...] (from 1..=99, to 1..=100, no chains)",
        )
        .rule(),
        ParamDef::new(
            "die_sides",
            ParamKind::Int {
                min: *DIE_SIDES.start() as i64,
                max: *DIE_SIDES.end() as i64,
            },
            "sides of the die or spinner: each turn rolls 1 to die_sides",
        )
        .rule(),
        ParamDef::new(
            "overshoot",
            ParamKind::Choice(<Overshoot as VariantNames>::VARIANTS),
            "a roll past 100: wins (reach or pass wins) or stays (exact landing: stay put)",
        )
        .rule(),
        ParamDef::new(
            "base_players",
            ParamKind::Int { min: 1, max: 2 },
            "players in the base game beside the tournament: 2, or 1 for the single-player game",
        )
        .rule(),
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
        self.board().map_err(|error| ParamError {
            // Blame the key the spec changed: the die when it alone makes a game endless.
            key: match error {
                BoardError::DieSides { .. } => "die_sides",
                BoardError::Unfinishable { .. } if self.board == Self::default().board => {
                    "die_sides"
                }
                _ => "board",
            },
            message: error.to_string(),
        })?;
        Ok(())
    }

    /// The board, die and overshoot rule (and the base game's players) are one per run: the
    /// only check of this rule (a run relies on it and does not check again).
    fn validate_together(variants: &[Self]) -> Result<(), ParamError> {
        rules_shared(variants)
    }
}

/// One run plays every pairing, and the base game, under one set of rules: a spec whose
/// variants differ in them is refused.
fn rules_shared(variants: &[ChutesParams]) -> Result<(), ParamError> {
    let Some(first) = variants.first() else {
        return Ok(());
    };
    for variant in variants {
        let differs = [
            ("board", variant.board != first.board),
            ("die_sides", variant.die_sides != first.die_sides),
            ("overshoot", variant.overshoot != first.overshoot),
            ("base_players", variant.base_players != first.base_players),
        ];
        if let Some((key, _)) = differs.into_iter().find(|(_, differs)| *differs) {
            return Err(ParamError {
                key,
                message: format!(
                    "variants set {key} differently, but the chutes tournament and its base game \
                     play under one set of rules: set {key} in [params] and vary only first and \
                     second"
                ),
            });
        }
    }
    Ok(())
}
