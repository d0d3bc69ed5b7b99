//! The tournament's parameters, as a spec sets them, and the checks they pass before a run.

use serde::{Deserialize, Serialize};
use strum::VariantNames;

use crate::game::{
    cube_levels, Board, BoardError, BoardName, Overshoot, Racers, Strategy, StrategyError,
    StrategyName, Thresholds, DEFAULT_DIE_SIDES, DEFAULT_MAX_CUBE, DIE_SIDES,
};
use experiment_engine::declare_params;
use experiment_engine::params::{ParamDef, ParamError, ParamKind, Params};
use experiment_engine::spec::Variant;

/// When `double_at` is read: only a pairing in which `threshold` plays reads it.
const THRESHOLD_PLAYS: &[(&str, &[&str])] =
    &[("first", &["threshold"]), ("second", &["threshold"])];

/// When `take_at` is read: a pairing in which `threshold` or `take_only` plays.
const TAKER_PLAYS: &[(&str, &[&str])] = &[
    ("first", &["threshold", "take_only"]),
    ("second", &["threshold", "take_only"]),
];

/// The seat keys, each read only when its seat's strategy reads that threshold.
const FIRST_DOUBLES: &[(&str, &[&str])] = &[("first", &["threshold"])];
const FIRST_TAKES: &[(&str, &[&str])] = &[("first", &["threshold", "take_only"])];
const SECOND_DOUBLES: &[(&str, &[&str])] = &[("second", &["threshold"])];
const SECOND_TAKES: &[(&str, &[&str])] = &[("second", &["threshold", "take_only"])];

/// A win probability.
const PROBABILITY: ParamKind = ParamKind::Float { min: 0.0, max: 1.0 };

/// A seat's own `double_at`, or (the default) `"double_at"`: the bare key's value.
const SEAT_DOUBLE_AT: ParamKind =
    ParamKind::OneOf(&[PROBABILITY, ParamKind::Choice(&["double_at"])]);

/// A seat's own `take_at`, or (the default) `"take_at"`: the bare key's value.
const SEAT_TAKE_AT: ParamKind = ParamKind::OneOf(&[PROBABILITY, ParamKind::Choice(&["take_at"])]);

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

/// One seat's threshold as a spec writes it: a number of its own, or by default the bare key's
/// value (`double_at` or `take_at`, written as that key's name), which both seats share.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SeatThreshold {
    /// This seat's own threshold, a win probability.
    Own(f64),
    /// The bare key's threshold.
    Bare(BareKey),
}

/// The bare key a seat's threshold follows when it has none of its own.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BareKey {
    /// `double_at`.
    DoubleAt,
    /// `take_at`.
    TakeAt,
}

impl SeatThreshold {
    /// The seat's threshold: its own, or `bare`.
    pub fn or(self, bare: f64) -> f64 {
        match self {
            SeatThreshold::Own(value) => value,
            SeatThreshold::Bare(_) => bare,
        }
    }
}

declare_params! {
    /// The tournament's parameters, as a spec sets them. Variants sweep `first` and `second`;
    /// the variants that agree on every other parameter form one tournament (the study groups
    /// them); the rules of the board and the die are shared by the whole run
    /// ([`Params::validate_together`]).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ChutesParams {
        first: StrategyName = StrategyName::Never,
            ParamKind::Choice(<StrategyName as VariantNames>::VARIANTS),
            "strategy of player 1, who moves first";
        second: StrategyName = StrategyName::Never,
            ParamKind::Choice(<StrategyName as VariantNames>::VARIANTS),
            "strategy of player 2";
        double_at: f64 = Thresholds::DEFAULT_DOUBLE_AT,
            PROBABILITY,
            "threshold strategy: double at this cubeless win probability or more",
            used_when(THRESHOLD_PLAYS);
        take_at: f64 = Thresholds::DEFAULT_TAKE_AT,
            PROBABILITY,
            "threshold and take_only strategies: take at this cubeless win probability or more",
            used_when(TAKER_PLAYS);
        first_double_at: SeatThreshold = SeatThreshold::Bare(BareKey::DoubleAt),
            SEAT_DOUBLE_AT,
            "player 1's own double_at; \"double_at\" (the default) takes the value of double_at",
            used_when(FIRST_DOUBLES), rule;
        first_take_at: SeatThreshold = SeatThreshold::Bare(BareKey::TakeAt),
            SEAT_TAKE_AT,
            "player 1's own take_at; \"take_at\" (the default) takes the value of take_at",
            used_when(FIRST_TAKES), rule;
        second_double_at: SeatThreshold = SeatThreshold::Bare(BareKey::DoubleAt),
            SEAT_DOUBLE_AT,
            "player 2's own double_at; \"double_at\" (the default) takes the value of double_at",
            used_when(SECOND_DOUBLES), rule;
        second_take_at: SeatThreshold = SeatThreshold::Bare(BareKey::TakeAt),
            SEAT_TAKE_AT,
            "player 2's own take_at; \"take_at\" (the default) takes the value of take_at",
            used_when(SECOND_TAKES), rule;
        max_cube: u32 = DEFAULT_MAX_CUBE,
            ParamKind::Int { min: 1, max: MAX_CUBE_LIMIT },
            "cube cap, a power of two: no double is offered past it";
        board: BoardSpec = BoardSpec::Named(BoardName::MiltonBradley),
            ParamKind::OneOf(&[
                ParamKind::Choice(<BoardName as VariantNames>::VARIANTS),
                ParamKind::List { item: &JUMP, min_len: 0, max_len: 99 },
            ]),
            "the board: milton_bradley (47 -> 26), milton_bradley_48 (that chute on 48), or \
             jumps [[from, to], ...] (from 1..=99, to 1..=100, no chains)",
            rule;
        die_sides: u8 = DEFAULT_DIE_SIDES,
            ParamKind::Int { min: *DIE_SIDES.start() as i64, max: *DIE_SIDES.end() as i64 },
            "sides of the die or spinner: each turn rolls 1 to die_sides",
            rule;
        overshoot: Overshoot = Overshoot::Wins,
            ParamKind::Choice(<Overshoot as VariantNames>::VARIANTS),
            "a roll past 100: wins (reach or pass wins) or stays (exact landing: stay put)",
            rule;
        base_players: u8 = Racers::Two.count(),
            ParamKind::Int { min: 1, max: 2 },
            "players in the base game beside the tournament: 2, or 1 for the single-player game",
            rule;
    }
}

impl ChutesParams {
    /// The strategies of player 1 and player 2, `threshold` and `take_only` with each seat's
    /// thresholds (its own where set, else the bare keys').
    pub fn strategies(&self) -> Result<(Strategy, Strategy), StrategyError> {
        let seat = |name: StrategyName, double: SeatThreshold, take: SeatThreshold| {
            Strategy::from_name(name.into())?
                .with_thresholds(double.or(self.double_at), take.or(self.take_at))
        };
        Ok((
            seat(self.first, self.first_double_at, self.first_take_at)?,
            seat(self.second, self.second_double_at, self.second_take_at)?,
        ))
    }

    /// Whether a seat key is set: some seat has a threshold of its own.
    pub fn sets_a_seat(&self) -> bool {
        [
            self.first_double_at,
            self.first_take_at,
            self.second_double_at,
            self.second_take_at,
        ]
        .iter()
        .any(|seat| matches!(seat, SeatThreshold::Own(_)))
    }

    /// These parameters with no seat key set and the bare thresholds at their defaults.
    pub fn without_thresholds(&self) -> ChutesParams {
        let defaults = ChutesParams::default();
        ChutesParams {
            double_at: defaults.double_at,
            take_at: defaults.take_at,
            first_double_at: defaults.first_double_at,
            first_take_at: defaults.first_take_at,
            second_double_at: defaults.second_double_at,
            second_take_at: defaults.second_take_at,
            ..self.clone()
        }
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
}

impl Params for ChutesParams {
    const DECLARED: &'static [ParamDef] = Self::FIELDS;

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
        if variants.len() > MAX_PAIRINGS {
            return Err(ParamError {
                key: "first",
                message: format!(
                    "the spec makes {} pairings, more than the {MAX_PAIRINGS} a chutes run plays \
                     (each tournament is solved exactly and gets its own payoff matrix, cube \
                     table and chart in the report): split the sweep over several specs",
                    variants.len()
                ),
            });
        }
        rules_shared(variants)
    }
}

/// The most pairings (variants) one Chutes run plays: the report gives every tournament its
/// own sections, so this is where it stops being readable, the number above which the other
/// games' reports show a subset.
pub const MAX_PAIRINGS: usize = experiment_engine::report::subset::REPORT_VARIANTS;

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

/// One variant's parameters.
pub(super) fn pairing_params(variant: &Variant) -> anyhow::Result<ChutesParams> {
    Ok(variant.params.typed::<ChutesParams>()?)
}
