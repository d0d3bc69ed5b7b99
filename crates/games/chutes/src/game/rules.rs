//! The rules a board is played by besides its jumps: the die (or spinner) and what a roll that
//! would pass the finish does, and the named boards.

use experiment_engine::rng::Purpose;

/// The purpose of each player's die, player 1's first: in a common design each player rolls
/// from his own stream, so a strategy that ends a game sooner or later never shifts the rolls
/// the other player sees (each player's `j`-th roll is the same in every pairing).
pub const PLAYER_DICE: [Purpose; 2] = [Purpose(1), Purpose(2)];

/// Sides of the standard die (or spinner): 1..=6.
pub const DEFAULT_DIE_SIDES: u8 = 6;

/// The fewest and most sides a die (or spinner) may have.
pub const DIE_SIDES: std::ops::RangeInclusive<u8> = 1..=100;

/// What a roll that would take a token past the finish square does.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Overshoot {
    /// Reaching or passing the finish wins (the standard rule).
    #[default]
    Wins,
    /// Only landing exactly on the finish wins: a roll that would pass it leaves the token
    /// where it is (the turn is still used).
    Stays,
}

impl Overshoot {
    /// The rule's name, as a spec writes it.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A named board.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum BoardName {
    /// The Milton Bradley board: nine ladders and ten chutes, among them 47 -> 26.
    #[default]
    MiltonBradley,
    /// The Milton Bradley board as some printings (and many analyses) draw it, with the chute
    /// 47 -> 26 starting on square 48 instead.
    #[serde(rename = "milton_bradley_48")]
    #[strum(serialize = "milton_bradley_48")]
    MiltonBradley48,
}

impl BoardName {
    /// The board's jumps, as (from, to).
    pub fn jumps(self) -> Vec<(u8, u8)> {
        match self {
            BoardName::MiltonBradley => MILTON_BRADLEY_JUMPS.to_vec(),
            BoardName::MiltonBradley48 => MILTON_BRADLEY_JUMPS
                .iter()
                .map(|&jump| if jump == (47, 26) { (48, 26) } else { jump })
                .collect(),
        }
    }

    /// The board's name, as a spec writes it.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The ladders and chutes of the standard Milton Bradley board, as (from, to).
pub const MILTON_BRADLEY_JUMPS: [(u8, u8); 19] = [
    (1, 38),
    (4, 14),
    (9, 31),
    (21, 42),
    (28, 84),
    (36, 44),
    (51, 67),
    (71, 91),
    (80, 100),
    (16, 6),
    (47, 26),
    (49, 11),
    (56, 53),
    (62, 19),
    (64, 60),
    (87, 24),
    (93, 73),
    (95, 75),
    (98, 78),
];

#[cfg(test)]
mod tests {
    use super::*;
    use experiment_engine::games::choice_names::derived_names;

    #[test]
    fn rule_names_are_the_documented_ones() {
        assert_eq!(derived_names(|&o: &Overshoot| o.name()), ["wins", "stays"]);
        assert_eq!(
            derived_names(|&b: &BoardName| b.name()),
            ["milton_bradley", "milton_bradley_48"]
        );
        assert_eq!(Overshoot::default(), Overshoot::Wins);
        assert_eq!(BoardName::default(), BoardName::MiltonBradley);
    }

    #[test]
    fn the_48_board_moves_only_the_47_chute() {
        let standard = BoardName::MiltonBradley.jumps();
        let misprint = BoardName::MiltonBradley48.jumps();
        let differ: Vec<_> = standard
            .iter()
            .zip(&misprint)
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(differ, [(&(47, 26), &(48, 26))]);
    }
}
