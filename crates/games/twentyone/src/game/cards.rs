//! Cards and the deck: 52 cards in four suits (or a shoe of several such decks), shuffled once
//! per game, dealt from the top.

use std::fmt;

use rand::Rng;

/// How many cards a full deck holds.
pub const DECK_SIZE: usize = 52;

/// The four suits, in the order of a fresh deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suit {
    /// Hearts.
    Hearts,
    /// Diamonds.
    Diamonds,
    /// Clubs.
    Clubs,
    /// Spades.
    Spades,
}

impl Suit {
    /// All suits, in the order of a fresh deck.
    pub const ALL: [Suit; 4] = [Suit::Hearts, Suit::Diamonds, Suit::Clubs, Suit::Spades];

    /// The suit's name in lower case, e.g. `hearts`.
    pub fn name(self) -> &'static str {
        match self {
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
            Suit::Spades => "spades",
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const RANK_NAMES: [&str; 13] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];

/// One playing card: a rank from 1 (ace) to 13 (king) and a suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card {
    rank: u8,
    suit: Suit,
}

impl Card {
    /// The card of `rank` (1 = ace, 11 = jack, 12 = queen, 13 = king) and `suit`, or `None` if
    /// the rank is outside 1..=13.
    pub fn new(rank: u8, suit: Suit) -> Option<Card> {
        (1..=13).contains(&rank).then_some(Card { rank, suit })
    }

    /// The rank, 1 (ace) to 13 (king).
    pub fn rank(self) -> u8 {
        self.rank
    }

    /// The suit.
    pub fn suit(self) -> Suit {
        self.suit
    }

    /// The value for play: 1 for an ace (which a hand may count as 11), the face value for
    /// 2-10, and 10 for J, Q and K.
    #[inline]
    pub fn value(self) -> u8 {
        self.rank.min(10)
    }

    /// The rank as printed: `A`, `2`, ..., `10`, `J`, `Q`, `K`.
    pub fn rank_name(self) -> &'static str {
        RANK_NAMES[usize::from(self.rank - 1)]
    }
}

impl fmt::Display for Card {
    /// Formats as e.g. `10 of hearts` or `A of spades`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {}", self.rank_name(), self.suit)
    }
}

const fn fresh_deck() -> [Card; DECK_SIZE] {
    let mut cards = [Card {
        rank: 1,
        suit: Suit::Hearts,
    }; DECK_SIZE];
    let mut i = 0;
    while i < DECK_SIZE {
        cards[i] = Card {
            rank: (i % 13) as u8 + 1,
            suit: Suit::ALL[i / 13],
        };
        i += 1;
    }
    cards
}

/// A fresh, unshuffled deck: hearts A..K, then diamonds, clubs and spades.
pub const FRESH_DECK: [Card; DECK_SIZE] = fresh_deck();

/// A shoe of one or more 52-card decks dealt from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    cards: Vec<Card>,
    next: usize,
}

impl Default for Deck {
    fn default() -> Self {
        Deck::fresh()
    }
}

impl Deck {
    /// A fresh, unshuffled deck (see [`FRESH_DECK`]).
    pub fn fresh() -> Deck {
        Deck::fresh_shoe(1)
    }

    /// A fresh, unshuffled shoe of `decks` decks, each in [`FRESH_DECK`] order.
    pub fn fresh_shoe(decks: u8) -> Deck {
        Deck {
            cards: FRESH_DECK.repeat(usize::from(decks)),
            next: 0,
        }
    }

    /// A uniformly shuffled deck.
    pub fn shuffled<R: Rng + ?Sized>(rng: &mut R) -> Deck {
        Deck::shuffled_shoe(1, rng)
    }

    /// A uniformly shuffled shoe of `decks` decks (one deck shuffles exactly as
    /// [`Deck::shuffled`]).
    pub fn shuffled_shoe<R: Rng + ?Sized>(decks: u8, rng: &mut R) -> Deck {
        let mut deck = Deck::fresh_shoe(decks);
        experiment_engine::shuffle::shuffle(&mut deck.cards, rng);
        deck
    }

    /// A deck whose top cards are `top`, in order, followed by the rest of a fresh deck in
    /// fresh-deck order; `None` if `top` repeats a card.
    pub fn stacked(top: &[Card]) -> Option<Deck> {
        Deck::stacked_shoe(1, top)
    }

    /// A shoe of `decks` decks whose top cards are `top`, in order, followed by the rest of a
    /// fresh shoe in fresh order; `None` if `top` holds a card more than `decks` times.
    pub fn stacked_shoe(decks: u8, top: &[Card]) -> Option<Deck> {
        let mut rest = FRESH_DECK.repeat(usize::from(decks));
        for card in top {
            let at = rest.iter().position(|c| c == card)?;
            rest.remove(at);
        }
        let mut cards = top.to_vec();
        cards.extend(rest);
        Some(Deck { cards, next: 0 })
    }

    /// Deals the top card, or `None` once every card has been dealt (a game never uses that
    /// many).
    #[inline]
    pub fn deal(&mut self) -> Option<Card> {
        let card = self.cards.get(self.next).copied();
        self.next += usize::from(card.is_some());
        card
    }

    /// How many cards are still to be dealt.
    pub fn remaining(&self) -> usize {
        self.cards.len() - self.next
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::game::testing::card;
    use experiment_engine::rng::trial_rng;

    #[test]
    fn cards_print_rank_and_suit() {
        assert_eq!(card(10, Suit::Hearts).to_string(), "10 of hearts");
        assert_eq!(card(1, Suit::Spades).to_string(), "A of spades");
        assert_eq!(card(12, Suit::Clubs).to_string(), "Q of clubs");
        assert_eq!(Card::new(0, Suit::Clubs), None);
        assert_eq!(Card::new(14, Suit::Clubs), None);
    }

    #[test]
    fn stacked_deck_deals_the_given_cards_first_then_all_the_others() {
        let top = [card(5, Suit::Clubs), card(1, Suit::Hearts)];
        let mut deck = Deck::stacked(&top).expect("distinct cards");
        let mut dealt = Vec::new();
        while let Some(card) = deck.deal() {
            dealt.push(card);
        }
        assert_eq!(dealt.len(), DECK_SIZE);
        assert_eq!(&dealt[..2], &top);
        assert_eq!(dealt[2], card(2, Suit::Hearts));
        let mut sorted = dealt.clone();
        sorted.sort_by_key(|c| (c.suit() as u8, c.rank()));
        assert_eq!(sorted, FRESH_DECK.to_vec());
        assert_eq!(deck.remaining(), 0);
        assert_eq!(Deck::stacked(&[top[0], top[0]]), None);
    }

    #[test]
    fn a_shoe_holds_each_card_once_per_deck() {
        let twice = [card(5, Suit::Clubs), card(5, Suit::Clubs)];
        let mut shoe = Deck::stacked_shoe(2, &twice).expect("two decks hold two of each");
        assert_eq!(shoe.remaining(), 2 * DECK_SIZE);
        assert_eq!((shoe.deal(), shoe.deal()), (Some(twice[0]), Some(twice[1])));
        assert_eq!(Deck::stacked_shoe(2, &[twice[0]; 3]), None);
        let mut dealt = Vec::new();
        let mut shuffled = Deck::shuffled_shoe(3, &mut trial_rng(1, 0, 0));
        while let Some(card) = shuffled.deal() {
            dealt.push(card);
        }
        dealt.sort_by_key(|c| (c.suit() as u8, c.rank()));
        let mut expected = FRESH_DECK.repeat(3);
        expected.sort_by_key(|c| (c.suit() as u8, c.rank()));
        assert_eq!(dealt, expected);
    }

    proptest! {
        #[test]
        fn shuffled_deck_is_a_permutation_of_the_fresh_deck(seed in any::<u64>()) {
            let mut deck = Deck::shuffled(&mut trial_rng(seed, 0, 0));
            let mut dealt = Vec::new();
            while let Some(card) = deck.deal() {
                dealt.push(card);
            }
            dealt.sort_by_key(|c| (c.suit() as u8, c.rank()));
            prop_assert_eq!(dealt, FRESH_DECK.to_vec());
        }
    }
}
