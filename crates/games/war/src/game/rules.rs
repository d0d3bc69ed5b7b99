//! The rules a game of War can change: the deck (ranks × suits), the cards face down in a war,
//! and what happens to a player who runs out of cards during a war.
//!
//! The engine plays the standard rules ([`Rules::STANDARD`]) through [`Standard`], whose
//! values are constants, so that the common game's turn loop is compiled exactly as it would be
//! without rules; any other rules go through [`Rules`] itself, read per war.

/// The most cards a deck may hold: the hands' ring buffers and the table's piles are sized for
/// it.
pub const MAX_DECK: usize = 52;
/// The most cards a player may put face down in a war.
pub const MAX_FACE_DOWN: u8 = 5;

/// What happens when a player cannot put down all the cards a war asks of him.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum OutOfCards {
    /// He loses at once (both at the same moment: a draw).
    #[default]
    Loses,
    /// He puts down what he has, his last card face up as his war card; with no card left, his
    /// up card stays his war card. Both with no card left: a draw.
    LastCard,
}

/// One game's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Distinct ranks, 1 (lowest) to `ranks` (highest).
    pub ranks: u8,
    /// Cards of each rank.
    pub suits: u8,
    /// Cards each player puts face down in a war before his new up card.
    pub face_down: u8,
    /// A player who runs out of cards during a war.
    pub out_of_cards: OutOfCards,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::STANDARD
    }
}

impl Rules {
    /// Today's rules: 13 ranks × 4 suits, three cards face down, running out loses.
    pub const STANDARD: Rules = Rules {
        ranks: 13,
        suits: 4,
        face_down: 3,
        out_of_cards: OutOfCards::Loses,
    };

    /// Cards in the deck.
    pub fn deck_size(&self) -> usize {
        usize::from(self.ranks) * usize::from(self.suits)
    }

    /// Whether these rules can be played: a deck of 2 to [`MAX_DECK`] cards dealt evenly, and
    /// at most [`MAX_FACE_DOWN`] cards face down. The message names the rule to change.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        let deck = self.deck_size();
        if self.ranks == 0 || self.suits == 0 || deck > MAX_DECK {
            return Err((
                "suits",
                format!(
                    "a deck of ranks × suits = {} × {} = {deck} cards: the engine holds 2 to \
                     {MAX_DECK} cards (e.g. 13 × 4, 13 × 2 or 52 × 1)",
                    self.ranks, self.suits
                ),
            ));
        }
        if !deck.is_multiple_of(2) {
            return Err((
                "suits",
                format!(
                    "a deck of ranks × suits = {} × {} = {deck} cards cannot be dealt evenly to \
                     two players: choose ranks and suits whose product is even",
                    self.ranks, self.suits
                ),
            ));
        }
        if self.face_down > MAX_FACE_DOWN {
            return Err((
                "face_down",
                format!(
                    "{} cards face down: a war puts 0 to {MAX_FACE_DOWN} down",
                    self.face_down
                ),
            ));
        }
        Ok(())
    }
}

/// The rules as the turn loop reads them. [`Standard`] answers with constants, so the standard
/// game compiles to the same loop as before rules existed; [`Rules`] answers from its fields.
pub trait RuleSet: Copy {
    /// Distinct ranks.
    fn ranks(self) -> u8;
    /// Cards face down per war.
    fn face_down(self) -> u32;
    /// Whether a short player plays his last card face up instead of losing.
    fn last_card(self) -> bool;
    /// Whether every turn that does not end the game moves an odd number of cards between the
    /// hands, so that a state can only repeat an even number of turns later (cycle detection
    /// then looks after odd turns only).
    fn odd_moves(self) -> bool {
        // One war moves 1 + wars × (face_down + 1) cards from the loser; without the last-card
        // rule every war is complete, and that is odd for every war count when face_down is odd.
        !self.last_card() && self.face_down() % 2 == 1
    }
}

/// [`Rules::STANDARD`] as constants.
#[derive(Clone, Copy, Debug)]
pub struct Standard;

impl RuleSet for Standard {
    #[inline(always)]
    fn ranks(self) -> u8 {
        Rules::STANDARD.ranks
    }
    #[inline(always)]
    fn face_down(self) -> u32 {
        Rules::STANDARD.face_down as u32
    }
    #[inline(always)]
    fn last_card(self) -> bool {
        false
    }
}

impl RuleSet for Rules {
    #[inline(always)]
    fn ranks(self) -> u8 {
        self.ranks
    }
    #[inline(always)]
    fn face_down(self) -> u32 {
        u32::from(self.face_down)
    }
    #[inline(always)]
    fn last_card(self) -> bool {
        self.out_of_cards == OutOfCards::LastCard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_constants_are_the_standard_rules() {
        assert_eq!(Standard.ranks(), Rules::STANDARD.ranks);
        assert_eq!(Standard.face_down(), Rules::STANDARD.face_down());
        assert_eq!(Standard.last_card(), Rules::STANDARD.last_card());
        assert!(Standard.odd_moves());
        assert_eq!(Rules::STANDARD.deck_size(), 52);
    }

    #[test]
    fn decks_that_do_not_fit_or_cannot_be_dealt_evenly_are_refused_by_name() {
        let with = |ranks, suits, face_down| Rules {
            ranks,
            suits,
            face_down,
            ..Rules::STANDARD
        };
        assert!(with(13, 4, 3).check().is_ok());
        assert!(with(13, 2, 0).check().is_ok());
        assert!(with(52, 1, 5).check().is_ok());
        let (key, message) = with(13, 5, 3).check().unwrap_err();
        assert_eq!(key, "suits");
        assert!(
            message.contains("65 cards") && message.contains("52"),
            "{message}"
        );
        let (key, message) = with(13, 3, 3).check().unwrap_err();
        assert_eq!(key, "suits");
        assert!(message.contains("dealt evenly"), "{message}");
        assert_eq!(with(13, 4, 6).check().unwrap_err().0, "face_down");
    }

    #[test]
    fn only_complete_wars_with_an_odd_count_face_down_keep_moves_odd() {
        let rules = |face_down, out_of_cards| Rules {
            face_down,
            out_of_cards,
            ..Rules::STANDARD
        };
        assert!(rules(1, OutOfCards::Loses).odd_moves());
        assert!(rules(5, OutOfCards::Loses).odd_moves());
        assert!(!rules(0, OutOfCards::Loses).odd_moves());
        assert!(!rules(2, OutOfCards::Loses).odd_moves());
        assert!(!rules(3, OutOfCards::LastCard).odd_moves());
    }
}
