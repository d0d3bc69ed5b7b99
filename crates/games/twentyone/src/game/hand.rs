//! Hands and scoring: what a hand totals, when the computer hits, and the chance that the next
//! card keeps a hand at or under 21.

use super::cards::Card;

/// How many distinct card values there are for play (1 = ace, ..., 10 = ten or face card).
pub const VALUES: usize = 10;

/// How many cards of each value a full deck holds, indexed by value - 1.
pub const FULL_DECK_COUNTS: [u8; VALUES] = [4, 4, 4, 4, 4, 4, 4, 4, 4, 16];

/// The best total a hand may reach without going over.
pub const TARGET: u16 = 21;

/// The computer stops hitting once its total is at least this (on a soft 17 only when the
/// table's rules say it stands there: see `Rules::dealer_should_hit`).
pub const DEALER_STANDS_AT: u16 = 17;

/// A hand as far as scoring and play are concerned: how many cards of each value it holds.
///
/// Suits and the order of the cards do not matter for play, so two hands with the same
/// composition are equal. A hand holds at most 255 cards of each value (far more than a deck).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [u8; VALUES],
    hard: u16,
    len: u16,
}

impl Hand {
    /// An empty hand.
    pub const fn new() -> Hand {
        Hand {
            counts: [0; VALUES],
            hard: 0,
            len: 0,
        }
    }

    /// The hand holding `cards`.
    pub fn from_cards(cards: &[Card]) -> Hand {
        let mut hand = Hand::new();
        for &card in cards {
            hand.push(card);
        }
        hand
    }

    /// The hand holding `counts[v - 1]` cards of value `v` for each value 1..=10.
    pub fn from_counts(counts: [u8; VALUES]) -> Hand {
        let mut hard = 0u16;
        let mut len = 0u16;
        for (index, &count) in counts.iter().enumerate() {
            hard += (index as u16 + 1) * u16::from(count);
            len += u16::from(count);
        }
        Hand { counts, hard, len }
    }

    /// Adds one card to the hand.
    #[inline]
    pub fn push(&mut self, card: Card) {
        let value = card.value();
        let slot = &mut self.counts[usize::from(value - 1)];
        *slot = slot.saturating_add(1);
        self.hard = self.hard.saturating_add(u16::from(value));
        self.len = self.len.saturating_add(1);
    }

    /// How many cards of each value the hand holds, indexed by value - 1.
    #[inline]
    pub fn counts(&self) -> [u8; VALUES] {
        self.counts
    }

    /// How many cards the hand holds.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the hand holds no card.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The total with every ace counted as 1.
    #[inline]
    pub fn hard_total(&self) -> u16 {
        self.hard
    }

    /// Whether one ace can count as 11 without going over 21.
    #[inline]
    pub fn is_soft(&self) -> bool {
        self.counts[0] > 0 && self.hard + 10 <= TARGET
    }

    /// The best total: the highest at most 21 if there is one (one ace counted as 11 when that
    /// fits), else the hard total.
    #[inline]
    pub fn total(&self) -> u16 {
        if self.is_soft() {
            self.hard + 10
        } else {
            self.hard
        }
    }

    /// Whether the hand is over 21 whatever its aces count.
    #[inline]
    pub fn is_bust(&self) -> bool {
        self.hard > TARGET
    }

    /// The cards of a full deck that are not in this hand, counted by value (index value - 1):
    /// the cards the holder has not seen.
    #[inline]
    pub fn unseen_counts(&self) -> [u8; VALUES] {
        let mut unseen = FULL_DECK_COUNTS;
        for (left, &held) in unseen.iter_mut().zip(&self.counts) {
            *left = left.saturating_sub(held);
        }
        unseen
    }
}

/// The best total of `cards`: aces count 11 unless that goes over 21, then 1.
pub fn hand_total(cards: &[Card]) -> u16 {
    Hand::from_cards(cards).total()
}

/// The chance that the next card keeps `hand` at or under 21, counting over the cards the
/// player has not seen (the 52 cards minus the hand's own).
#[inline]
pub fn keep_probability(hand: &Hand) -> f64 {
    keep_probability_in(hand, &hand.unseen_counts())
}

/// The chance that the next card keeps `hand` at or under 21 when the next card is drawn
/// uniformly from `remaining` (cards counted by value, index value - 1). An empty `remaining`
/// has no card that keeps the hand, so gives 0.
#[inline]
pub fn keep_probability_in(hand: &Hand, remaining: &[u8; VALUES]) -> f64 {
    let total: u32 = remaining.iter().map(|&count| u32::from(count)).sum();
    if total == 0 {
        return 0.0;
    }
    // A card keeps the hand iff its hard total stays at most 21 (an ace may then count 1).
    let room = usize::from(TARGET.saturating_sub(hand.hard)).min(VALUES);
    let keepers: u32 = remaining[..room]
        .iter()
        .map(|&count| u32::from(count))
        .sum();
    f64::from(keepers) / f64::from(total)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::game::cards::{Suit, DECK_SIZE};
    use crate::game::rules::Rules;
    use crate::game::testing::{card, cards};

    #[test]
    fn two_aces_score_twelve() {
        assert_eq!(hand_total(&cards(&[1, 1])), 12);
    }

    #[test]
    fn two_aces_and_a_nine_score_twenty_one() {
        assert_eq!(hand_total(&cards(&[1, 1, 9])), 21);
    }

    #[test]
    fn ace_six_ten_is_a_hard_seventeen() {
        let hand = Hand::from_cards(&cards(&[1, 6, 10]));
        assert_eq!(hand.total(), 17);
        assert!(!hand.is_soft());
        assert!(!hand.is_bust());
    }

    #[test]
    fn four_aces_score_fourteen_and_face_cards_score_ten() {
        assert_eq!(hand_total(&cards(&[1, 1, 1, 1])), 14);
        assert_eq!(hand_total(&cards(&[11, 12, 1])), 21);
        assert_eq!(hand_total(&cards(&[13, 12, 2])), 22);
        assert!(Hand::from_cards(&cards(&[13, 12, 2])).is_bust());
    }

    #[test]
    fn computer_stands_on_soft_seventeen_and_hits_sixteen() {
        let dealer_should_hit = |hand: &Hand| Rules::default().dealer_should_hit(hand);
        assert!(!dealer_should_hit(&Hand::from_cards(&cards(&[1, 6]))));
        assert!(!dealer_should_hit(&Hand::from_cards(&cards(&[1, 1, 5]))));
        assert!(!dealer_should_hit(&Hand::from_cards(&cards(&[10, 7]))));
        assert!(dealer_should_hit(&Hand::from_cards(&cards(&[10, 6]))));
        assert!(dealer_should_hit(&Hand::from_cards(&cards(&[1, 5]))));
        // A, 6, 10 is a hard 17: stand.
        assert!(!dealer_should_hit(&Hand::from_cards(&cards(&[1, 6, 10]))));
        // A, 5, 10 is a hard 16: hit.
        assert!(dealer_should_hit(&Hand::from_cards(&cards(&[1, 5, 10]))));
    }

    #[test]
    fn keep_probability_counts_small_enough_cards_of_a_hand_built_deck() {
        let hand = Hand::from_cards(&cards(&[10, 6]));
        // Two aces, three fives, one six, four tens: aces and fives keep a hard 16.
        let remaining = [2, 0, 0, 0, 3, 1, 0, 0, 0, 4];
        assert_eq!(keep_probability_in(&hand, &remaining), 0.5);
        let soft = Hand::from_cards(&cards(&[1, 6]));
        assert_eq!(keep_probability_in(&soft, &remaining), 1.0);
        let twenty_one = Hand::from_cards(&cards(&[10, 1, 10]));
        assert_eq!(keep_probability_in(&twenty_one, &remaining), 0.0);
        assert_eq!(keep_probability_in(&hand, &[0; VALUES]), 0.0);
    }

    #[test]
    fn keep_probability_counts_over_the_fifty_cards_the_player_has_not_seen() {
        let hand = Hand::from_cards(&[card(10, Suit::Hearts), card(6, Suit::Spades)]);
        // Aces to fives keep a 16: 4 each of five values, out of 50 unseen cards.
        assert_eq!(keep_probability(&hand), 20.0 / 50.0);
        let twelve = Hand::from_cards(&cards(&[10, 2]));
        // Everything but the 15 unseen ten-valued cards keeps a 12.
        assert_eq!(keep_probability(&twelve), 35.0 / 50.0);
    }

    /// Best total by brute force over every way of counting each ace as 1 or 11.
    fn brute_total(values: &[u8]) -> u16 {
        let aces = values.iter().filter(|&&v| v == 1).count();
        let base: u16 = values.iter().map(|&v| u16::from(v)).sum();
        let totals: Vec<u16> = (0..=aces)
            .map(|elevens| base + 10 * elevens as u16)
            .collect();
        totals
            .iter()
            .copied()
            .filter(|&t| t <= 21)
            .max()
            .unwrap_or(base)
    }

    proptest! {
        #[test]
        fn best_total_matches_brute_force_over_ace_values(ranks in prop::collection::vec(1u8..=13, 0..12)) {
            let hand = cards(&ranks);
            let values: Vec<u8> = hand.iter().map(|c| c.value()).collect();
            prop_assert_eq!(hand_total(&hand), brute_total(&values));
        }

        #[test]
        fn keep_probability_matches_drawing_each_unseen_card(ranks in prop::collection::vec(1u8..=13, 2..6)) {
            let held = cards(&ranks);
            let hand = Hand::from_cards(&held);
            prop_assume!(hand.counts().iter().zip(FULL_DECK_COUNTS).all(|(&h, f)| h <= f));
            let mut kept = 0u32;
            let mut unseen = 0u32;
            for (value, count) in (1..=10u8).zip(hand.unseen_counts()) {
                let mut next = hand;
                next.push(card(value, Suit::Hearts));
                unseen += u32::from(count);
                if next.total() <= 21 {
                    kept += u32::from(count);
                }
            }
            prop_assert_eq!(unseen as usize, DECK_SIZE - hand.len());
            prop_assert_eq!(keep_probability(&hand), f64::from(kept) / f64::from(unseen));
        }
    }
}
