//! The table rules a spec may change beyond the jail strategy and the card model: the sides of
//! each die, which landings are counted, the Chance deck and whether the Go to jail corner
//! sends a player to jail. [`Rules::default`] is the game every earlier version played (two
//! 6-sided dice, every throw counted, the 15-card Chance deck, Go to jail in play), and the
//! only one the fast state machine plays.

use super::cards::ChanceCard;

/// Fewest sides a die may have (two 2-sided dice still move 2 to 4 squares).
pub const MIN_DIE_SIDES: u8 = 2;
/// Most sides a die may have (a throw then moves at most 24 squares, under one lap).
pub const MAX_DIE_SIDES: u8 = 12;

/// Which landings a game counts.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    strum::VariantArray,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum Count {
    /// One landing per throw of the dice, on the square where that throw leaves the token once
    /// cards and Go to Jail are followed (Jail for an arrest or a throw spent in jail): the
    /// position after each roll, doubles' extra throws included (Project Euler 84's
    /// convention). A card square the token leaves by a card, and Go to Jail, are not counted.
    EveryThrow,
    /// One landing per turn, on the square where the turn ends (Jail if it ends in jail).
    TurnEnd,
}

impl Count {
    /// Both rules, in declaration order.
    pub const ALL: &'static [Self] = <Self as strum::VariantArray>::VARIANTS;

    /// The snake_case name: `every_throw` or `turn_end`.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// Which Chance deck is used.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    strum::VariantArray,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum ChanceDeck {
    /// 15 cards, 9 of which move the token (one "nearest railroad").
    FifteenCards,
    /// 16 cards, 10 of which move the token: a second "nearest railroad" card, as in the US
    /// deck and Project Euler 84.
    SixteenCards,
}

impl ChanceDeck {
    /// Both decks, in declaration order.
    pub const ALL: &'static [Self] = <Self as strum::VariantArray>::VARIANTS;

    /// The snake_case name: `fifteen_cards` or `sixteen_cards`.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The deck's cards, those that move first.
    pub fn cards(self) -> &'static [ChanceCard] {
        match self {
            ChanceDeck::FifteenCards => &ChanceCard::DECK,
            ChanceDeck::SixteenCards => &ChanceCard::SIXTEEN,
        }
    }
}

/// The table rules of one variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Sides of each of the two dice ([`MIN_DIE_SIDES`] to [`MAX_DIE_SIDES`]); doubles are
    /// both dice showing the same face, probability 1 / sides.
    pub die_sides: u8,
    /// Which landings are counted.
    pub count: Count,
    /// The Chance deck.
    pub chance: ChanceDeck,
    /// Whether reaching the Go to jail corner (square 31) sends the player to jail. When
    /// `false` the corner is an ordinary square, counted like any other; three doubles in a
    /// turn and the Go to Jail cards still send him to jail.
    pub go_to_jail: bool,
}

impl Default for Rules {
    /// Two 6-sided dice, every throw counted, the 15-card Chance deck, Go to jail in play.
    fn default() -> Self {
        Rules {
            die_sides: 6,
            count: Count::EveryThrow,
            chance: ChanceDeck::FifteenCards,
            go_to_jail: true,
        }
    }
}

impl Rules {
    /// Checks the die's sides.
    pub fn validate(&self) -> Result<(), String> {
        if !(MIN_DIE_SIDES..=MAX_DIE_SIDES).contains(&self.die_sides) {
            return Err(format!(
                "die_sides {} is not in {MIN_DIE_SIDES}..={MAX_DIE_SIDES}",
                self.die_sides
            ));
        }
        Ok(())
    }

    /// Equally likely throws of the two dice: sides squared.
    pub fn throws(&self) -> u32 {
        u32::from(self.die_sides) * u32::from(self.die_sides)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_default_is_todays_game() {
        for &count in Count::ALL {
            assert_eq!(count.name().parse(), Ok(count));
        }
        for &deck in ChanceDeck::ALL {
            assert_eq!(deck.name().parse(), Ok(deck));
        }
        // The command line (`exact monopoly --counting`, `--chance-deck`) takes the spec's names.
        use experiment_engine::games::choice_names::{command_line_names, derived_names};
        assert_eq!(
            command_line_names::<Count>(),
            derived_names(|&c: &Count| c.name())
        );
        assert_eq!(
            command_line_names::<ChanceDeck>(),
            derived_names(|&d: &ChanceDeck| d.name())
        );
        let rules = Rules::default();
        assert!(rules.go_to_jail);
        assert_eq!(rules.throws(), 36);
        assert_eq!(rules.chance.cards().len(), 15);
        assert_eq!(ChanceDeck::SixteenCards.cards().len(), 16);
        assert!(rules.validate().is_ok());
        for sides in [0, 1, 13] {
            let bad = Rules {
                die_sides: sides,
                ..rules
            };
            assert!(bad.validate().unwrap_err().contains("2..=12"));
        }
    }
}
