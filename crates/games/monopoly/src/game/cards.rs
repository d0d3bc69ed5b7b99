//! The Chance and Community Chest decks: which cards move the token, and where to.

use std::fmt;
use std::str::FromStr;

use super::board::{
    back_three, nearest_railroad, nearest_utility, BOARDWALK, GO, ILLINOIS, READING_RAILROAD,
    ST_CHARLES,
};

/// One of the two card decks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Deck {
    /// The 15-card Chance deck (squares 8, 23, 37).
    Chance,
    /// The 16-card Community Chest deck (squares 3, 18, 34).
    CommunityChest,
}

impl Deck {
    /// The snake_case name used in scripted cards: `chance` or `community_chest`.
    pub fn name(self) -> &'static str {
        match self {
            Deck::Chance => "chance",
            Deck::CommunityChest => "community_chest",
        }
    }
}

impl fmt::Display for Deck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a card does to the token standing on the card's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardEffect {
    /// The token stays (the card square is the move's final square).
    Stay,
    /// The token moves to this 0-based index (whose own rule then applies).
    MoveTo(u8),
    /// The token goes to jail and the turn ends.
    Jail,
}

/// A Chance card, as far as movement goes (the six money cards are all `NoMove`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChanceCard {
    /// Advance to Go.
    AdvanceToGo,
    /// Advance to Illinois Avenue (square 25).
    Illinois,
    /// Advance to St. Charles Place (square 12).
    StCharles,
    /// Advance to the nearest utility forward.
    NearestUtility,
    /// Advance to the nearest railroad forward.
    NearestRailroad,
    /// Take a ride on the Reading Railroad (square 6).
    ReadingRailroad,
    /// Take a walk on the Boardwalk (square 40).
    Boardwalk,
    /// Go to Jail.
    GoToJail,
    /// Go back 3 spaces.
    GoBack3,
    /// Any card that does not move the token.
    NoMove,
}

impl ChanceCard {
    /// The 15 cards of the deck, numbered 1 to 15 in this order: the 9 that move first (cards 10
    /// to 15 do not move).
    pub const DECK: [ChanceCard; 15] = [
        ChanceCard::AdvanceToGo,
        ChanceCard::Illinois,
        ChanceCard::StCharles,
        ChanceCard::NearestUtility,
        ChanceCard::NearestRailroad,
        ChanceCard::ReadingRailroad,
        ChanceCard::Boardwalk,
        ChanceCard::GoToJail,
        ChanceCard::GoBack3,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
    ];

    /// The 16-card deck: [`ChanceCard::DECK`] with a second "nearest railroad" card after the
    /// first (the 10 that move first).
    pub const SIXTEEN: [ChanceCard; 16] = [
        ChanceCard::AdvanceToGo,
        ChanceCard::Illinois,
        ChanceCard::StCharles,
        ChanceCard::NearestUtility,
        ChanceCard::NearestRailroad,
        ChanceCard::NearestRailroad,
        ChanceCard::ReadingRailroad,
        ChanceCard::Boardwalk,
        ChanceCard::GoToJail,
        ChanceCard::GoBack3,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
        ChanceCard::NoMove,
    ];

    /// Every distinct card kind, once.
    pub const ALL: [ChanceCard; 10] = [
        ChanceCard::AdvanceToGo,
        ChanceCard::Illinois,
        ChanceCard::StCharles,
        ChanceCard::NearestUtility,
        ChanceCard::NearestRailroad,
        ChanceCard::ReadingRailroad,
        ChanceCard::Boardwalk,
        ChanceCard::GoToJail,
        ChanceCard::GoBack3,
        ChanceCard::NoMove,
    ];

    /// The snake_case name used in scripted cards (after `chance:`).
    pub fn name(self) -> &'static str {
        match self {
            ChanceCard::AdvanceToGo => "advance_to_go",
            ChanceCard::Illinois => "illinois",
            ChanceCard::StCharles => "st_charles",
            ChanceCard::NearestUtility => "nearest_utility",
            ChanceCard::NearestRailroad => "nearest_railroad",
            ChanceCard::ReadingRailroad => "reading_railroad",
            ChanceCard::Boardwalk => "boardwalk",
            ChanceCard::GoToJail => "go_to_jail",
            ChanceCard::GoBack3 => "go_back_3",
            ChanceCard::NoMove => "no_move",
        }
    }

    /// The card's text, as printed on it.
    pub fn title(self) -> &'static str {
        match self {
            ChanceCard::AdvanceToGo => "Advance to Go",
            ChanceCard::Illinois => "Advance to Illinois Ave.",
            ChanceCard::StCharles => "Advance to St. Charles Place",
            ChanceCard::NearestUtility => "Advance token to nearest Utility",
            ChanceCard::NearestRailroad => "Advance token to the nearest Railroad",
            ChanceCard::ReadingRailroad => "Take a ride on the Reading Railroad",
            ChanceCard::Boardwalk => "Take a walk on the Boardwalk",
            ChanceCard::GoToJail => "Go to Jail",
            ChanceCard::GoBack3 => "Go Back 3 Spaces",
            ChanceCard::NoMove => "a card that does not move the token",
        }
    }

    /// What the card does to a token drawing it on the square at `index`.
    #[inline]
    pub fn effect(self, index: u8) -> CardEffect {
        match self {
            ChanceCard::AdvanceToGo => CardEffect::MoveTo(GO),
            ChanceCard::Illinois => CardEffect::MoveTo(ILLINOIS),
            ChanceCard::StCharles => CardEffect::MoveTo(ST_CHARLES),
            ChanceCard::NearestUtility => CardEffect::MoveTo(nearest_utility(index)),
            ChanceCard::NearestRailroad => CardEffect::MoveTo(nearest_railroad(index)),
            ChanceCard::ReadingRailroad => CardEffect::MoveTo(READING_RAILROAD),
            ChanceCard::Boardwalk => CardEffect::MoveTo(BOARDWALK),
            ChanceCard::GoToJail => CardEffect::Jail,
            ChanceCard::GoBack3 => CardEffect::MoveTo(back_three(index)),
            ChanceCard::NoMove => CardEffect::Stay,
        }
    }
}

/// A Community Chest card, as far as movement goes (14 of the 16 cards are `NoMove`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChestCard {
    /// Advance to Go.
    AdvanceToGo,
    /// Go to Jail.
    GoToJail,
    /// Any card that does not move the token.
    NoMove,
}

impl ChestCard {
    /// The 16 cards of the deck, numbered 1 to 16 in this order: the 2 that move first (cards 3
    /// to 16 do not move).
    pub const DECK: [ChestCard; 16] = [
        ChestCard::AdvanceToGo,
        ChestCard::GoToJail,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
        ChestCard::NoMove,
    ];

    /// Every distinct card kind, once.
    pub const ALL: [ChestCard; 3] = [
        ChestCard::AdvanceToGo,
        ChestCard::GoToJail,
        ChestCard::NoMove,
    ];

    /// The snake_case name used in scripted cards (after `community_chest:`).
    pub fn name(self) -> &'static str {
        match self {
            ChestCard::AdvanceToGo => "advance_to_go",
            ChestCard::GoToJail => "go_to_jail",
            ChestCard::NoMove => "no_move",
        }
    }

    /// The card's text, as printed on it.
    pub fn title(self) -> &'static str {
        match self {
            ChestCard::AdvanceToGo => "Advance to Go",
            ChestCard::GoToJail => "Go to Jail",
            ChestCard::NoMove => "a card that does not move the token",
        }
    }

    /// What the card does to a token drawing it (the square does not matter).
    #[inline]
    pub fn effect(self) -> CardEffect {
        match self {
            ChestCard::AdvanceToGo => CardEffect::MoveTo(GO),
            ChestCard::GoToJail => CardEffect::Jail,
            ChestCard::NoMove => CardEffect::Stay,
        }
    }
}

/// A card of either deck: what a trace draws and what a script names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Card {
    /// A Chance card.
    Chance(ChanceCard),
    /// A Community Chest card.
    CommunityChest(ChestCard),
}

/// A scripted card draw for [`trace`](super::trace::trace), parsed from text such as
/// `chance:go_to_jail` or `community_chest:advance_to_go`.
pub type ScriptedCard = Card;

impl Card {
    /// The deck the card belongs to.
    pub fn deck(self) -> Deck {
        match self {
            Card::Chance(_) => Deck::Chance,
            Card::CommunityChest(_) => Deck::CommunityChest,
        }
    }

    /// The card's snake_case name within its deck.
    pub fn name(self) -> &'static str {
        match self {
            Card::Chance(card) => card.name(),
            Card::CommunityChest(card) => card.name(),
        }
    }

    /// The card's text, as printed on it.
    pub fn title(self) -> &'static str {
        match self {
            Card::Chance(card) => card.title(),
            Card::CommunityChest(card) => card.title(),
        }
    }

    /// Every valid scripted card, in `deck:card` form.
    pub fn all() -> impl Iterator<Item = Card> {
        ChanceCard::ALL
            .into_iter()
            .map(Card::Chance)
            .chain(ChestCard::ALL.into_iter().map(Card::CommunityChest))
    }
}

/// Prints `deck:card`, the form [`FromStr`] reads back.
impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.deck(), self.name())
    }
}

/// A scripted card's text named no card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown card {text:?}: expected one of {}", card_list())]
pub struct ParseCardError {
    /// The text that was not understood.
    pub text: String,
}

/// Every card as `deck:card`, comma-separated: the choices a [`ParseCardError`] lists.
fn card_list() -> String {
    Card::all()
        .map(|card| card.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Card {
    type Err = ParseCardError;

    /// Reads `deck:card` (surrounding white space ignored), e.g. `chance:go_back_3`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim();
        Card::all()
            .find(|card| {
                wanted
                    .split_once(':')
                    .is_some_and(|(deck, name)| deck == card.deck().name() && name == card.name())
            })
            .ok_or_else(|| ParseCardError {
                text: text.to_string(),
            })
    }
}

/// Where card draws come from: random decks in simulation, a script in a trace.
pub trait CardSource {
    /// Why a draw could not be made (`Infallible` for random decks).
    type Error;
    /// Draws the next Chance card.
    fn chance(&mut self) -> Result<ChanceCard, Self::Error>;
    /// Draws the next Community Chest card.
    fn community_chest(&mut self) -> Result<ChestCard, Self::Error>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decks_have_the_seed_composition() {
        let moving = ChanceCard::DECK
            .iter()
            .filter(|c| **c != ChanceCard::NoMove)
            .count();
        assert_eq!(moving, 9);
        let moving = ChestCard::DECK
            .iter()
            .filter(|c| **c != ChestCard::NoMove)
            .count();
        assert_eq!(moving, 2);
        for card in ChanceCard::ALL {
            assert!(ChanceCard::DECK.contains(&card));
        }
        for card in ChestCard::ALL {
            assert!(ChestCard::DECK.contains(&card));
        }
    }

    #[test]
    fn chance_cards_move_to_the_seed_destinations() {
        let from_37 = 36;
        assert_eq!(
            ChanceCard::AdvanceToGo.effect(from_37),
            CardEffect::MoveTo(0)
        );
        assert_eq!(ChanceCard::Illinois.effect(from_37), CardEffect::MoveTo(24));
        assert_eq!(
            ChanceCard::StCharles.effect(from_37),
            CardEffect::MoveTo(11)
        );
        assert_eq!(
            ChanceCard::NearestUtility.effect(from_37),
            CardEffect::MoveTo(12)
        );
        assert_eq!(
            ChanceCard::NearestUtility.effect(22),
            CardEffect::MoveTo(28)
        );
        assert_eq!(
            ChanceCard::NearestRailroad.effect(7),
            CardEffect::MoveTo(15)
        );
        assert_eq!(
            ChanceCard::NearestRailroad.effect(22),
            CardEffect::MoveTo(25)
        );
        assert_eq!(
            ChanceCard::NearestRailroad.effect(from_37),
            CardEffect::MoveTo(5)
        );
        assert_eq!(ChanceCard::ReadingRailroad.effect(7), CardEffect::MoveTo(5));
        assert_eq!(ChanceCard::Boardwalk.effect(7), CardEffect::MoveTo(39));
        assert_eq!(ChanceCard::GoToJail.effect(7), CardEffect::Jail);
        assert_eq!(ChanceCard::GoBack3.effect(from_37), CardEffect::MoveTo(33));
        assert_eq!(ChanceCard::GoBack3.effect(7), CardEffect::MoveTo(4));
        assert_eq!(ChanceCard::NoMove.effect(7), CardEffect::Stay);
        assert_eq!(ChestCard::AdvanceToGo.effect(), CardEffect::MoveTo(0));
        assert_eq!(ChestCard::GoToJail.effect(), CardEffect::Jail);
        assert_eq!(ChestCard::NoMove.effect(), CardEffect::Stay);
    }

    #[test]
    fn scripted_cards_parse_and_print_back() {
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
        assert_eq!(
            " chance:go_to_jail ".parse::<Card>(),
            Ok(Card::Chance(ChanceCard::GoToJail))
        );
        assert_eq!(
            "community_chest:advance_to_go".parse::<Card>(),
            Ok(Card::CommunityChest(ChestCard::AdvanceToGo))
        );
        assert_eq!(Card::all().count(), 13);
    }

    #[test]
    fn unknown_cards_are_rejected_with_the_valid_names() {
        for bad in [
            "community_chest:illinois",
            "chance",
            "go_to_jail",
            "chance:Go",
            "",
        ] {
            let error = bad.parse::<Card>().expect_err(bad);
            let message = error.to_string();
            assert!(message.contains("chance:go_back_3"), "{message}");
            assert!(message.contains("community_chest:no_move"), "{message}");
            assert!(message.contains(&format!("{bad:?}")), "{message}");
            let every: Vec<String> = Card::all().map(|card| card.to_string()).collect();
            assert_eq!(
                message,
                format!("unknown card {bad:?}: expected one of {}", every.join(", "))
            );
        }
    }
}
