//! Twenty-One: a simplified blackjack against the computer.
//!
//! One shuffled 52-card deck per game. Ranks 2-10 score their face value, J/Q/K score 10, and
//! an ace scores 11 unless that takes the hand over 21, when it scores 1 (with several aces the
//! hand counts the best total at most 21, if there is one). The player takes two cards and hits
//! or stays; going over 21 loses at once. Then the computer takes the next two cards and hits
//! until its total is at least 17 (it stands on a soft 17). If the computer goes over 21 the
//! player wins; otherwise the higher total wins and a tie goes to the computer.
//!
//! The interactive game lives in [`crate::games::twentyone_session`] and is re-exported here.

use std::error::Error;
use std::fmt;
use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::Rng;

use crate::exact::twentyone::OptimalPolicy;
use crate::games::Game;
use crate::rng::TrialRng;
use crate::summary::Summary;

pub use crate::games::twentyone_session::{play_session, SessionStats};

/// How many distinct card values there are for play (1 = ace, ..., 10 = ten or face card).
pub const VALUES: usize = 10;

/// How many cards of each value a full deck holds, indexed by value - 1.
pub const FULL_DECK_COUNTS: [u8; VALUES] = [4, 4, 4, 4, 4, 4, 4, 4, 4, 16];

/// How many cards a full deck holds.
pub const DECK_SIZE: usize = 52;

/// The best total a hand may reach without going over.
pub const TARGET: u16 = 21;

/// The computer stops hitting once its total (soft totals included) is at least this.
pub const DEALER_STANDS_AT: u16 = 17;

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
    pub fn push(&mut self, card: Card) {
        let value = card.value();
        let slot = &mut self.counts[usize::from(value - 1)];
        *slot = slot.saturating_add(1);
        self.hard = self.hard.saturating_add(u16::from(value));
        self.len = self.len.saturating_add(1);
    }

    /// How many cards of each value the hand holds, indexed by value - 1.
    pub fn counts(&self) -> [u8; VALUES] {
        self.counts
    }

    /// How many cards the hand holds.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the hand holds no card.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The total with every ace counted as 1.
    pub fn hard_total(&self) -> u16 {
        self.hard
    }

    /// Whether one ace can count as 11 without going over 21.
    pub fn is_soft(&self) -> bool {
        self.counts[0] > 0 && self.hard + 10 <= TARGET
    }

    /// The best total: the highest at most 21 if there is one (one ace counted as 11 when that
    /// fits), else the hard total.
    pub fn total(&self) -> u16 {
        if self.is_soft() {
            self.hard + 10
        } else {
            self.hard
        }
    }

    /// Whether the hand is over 21 whatever its aces count.
    pub fn is_bust(&self) -> bool {
        self.hard > TARGET
    }

    /// The cards of a full deck that are not in this hand, counted by value (index value - 1):
    /// the cards the holder has not seen.
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

/// The computer's rule: hit while the total (soft totals included) is below 17.
pub fn dealer_should_hit(hand: &Hand) -> bool {
    hand.total() < DEALER_STANDS_AT
}

/// The chance that the next card keeps `hand` at or under 21, counting over the cards the
/// player has not seen (the 52 cards minus the hand's own).
pub fn keep_probability(hand: &Hand) -> f64 {
    keep_probability_in(hand, &hand.unseen_counts())
}

/// The chance that the next card keeps `hand` at or under 21 when the next card is drawn
/// uniformly from `remaining` (cards counted by value, index value - 1). An empty `remaining`
/// has no card that keeps the hand, so gives 0.
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

/// A 52-card deck dealt from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    cards: [Card; DECK_SIZE],
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
        Deck {
            cards: FRESH_DECK,
            next: 0,
        }
    }

    /// A uniformly shuffled deck.
    pub fn shuffled<R: Rng + ?Sized>(rng: &mut R) -> Deck {
        let mut deck = Deck::fresh();
        deck.cards.shuffle(rng);
        deck
    }

    /// A deck whose top cards are `top`, in order, followed by the rest of a fresh deck in
    /// fresh-deck order; `None` if `top` repeats a card.
    pub fn stacked(top: &[Card]) -> Option<Deck> {
        let rest: Vec<Card> = FRESH_DECK
            .iter()
            .filter(|card| !top.contains(card))
            .copied()
            .collect();
        // `top` repeats no card exactly when it and the rest make up the 52 cards.
        if top.len() + rest.len() != DECK_SIZE {
            return None;
        }
        let mut cards = FRESH_DECK;
        for (slot, card) in cards.iter_mut().zip(top.iter().chain(&rest)) {
            *slot = *card;
        }
        Some(Deck { cards, next: 0 })
    }

    /// Deals the top card, or `None` once all 52 have been dealt (a game never uses that many).
    pub fn deal(&mut self) -> Option<Card> {
        let card = self.cards.get(self.next).copied();
        self.next += usize::from(card.is_some());
        card
    }

    /// How many cards are still to be dealt.
    pub fn remaining(&self) -> usize {
        DECK_SIZE - self.next
    }
}

/// Why a strategy could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum StrategyError {
    /// The name is not one of [`Strategy::NAMES`].
    UnknownName(String),
    /// The strategy needs a parameter and none was given.
    MissingParameter(&'static str),
    /// The strategy takes no parameter and one was given.
    UnexpectedParameter(&'static str),
    /// `stand_at` needs a whole number from 2 to 21.
    StandAtOutOfRange(f64),
    /// `probability` needs a number from 0 to 1.
    ProbabilityOutOfRange(f64),
}

impl fmt::Display for StrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrategyError::UnknownName(name) => write!(
                f,
                "unknown Twenty-One strategy {name:?}: expected one of {}",
                Strategy::NAMES.join(", ")
            ),
            StrategyError::MissingParameter(name) => {
                write!(f, "the {name} strategy needs a parameter")
            }
            StrategyError::UnexpectedParameter(name) => {
                write!(f, "the {name} strategy takes no parameter")
            }
            StrategyError::StandAtOutOfRange(n) => write!(
                f,
                "stand_at needs a whole number from {} to {}, got {n}",
                Strategy::STAND_AT_MIN,
                TARGET
            ),
            StrategyError::ProbabilityOutOfRange(p) => {
                write!(f, "probability needs a number from 0 to 1, got {p}")
            }
        }
    }
}

impl Error for StrategyError {}

/// How the player decides between hitting and staying. Every strategy decides from the
/// player's own hand only (the only cards he sees).
#[derive(Clone, Debug, strum::EnumDiscriminants)]
#[strum_discriminants(
    name(StrategyName),
    vis(pub),
    doc = "A strategy's name, without its parameters.",
    derive(
        Hash,
        serde::Serialize,
        serde::Deserialize,
        strum::EnumString,
        strum::IntoStaticStr,
        strum::VariantNames
    ),
    serde(rename_all = "snake_case"),
    strum(serialize_all = "snake_case")
)]
pub enum Strategy {
    /// `stand_at` N: hit while the total is below N.
    StandAt(u16),
    /// `probability` p: hit while the chance that the next card keeps the hand at or under 21
    /// (see [`keep_probability`]) is at least p.
    Probability(f64),
    /// `optimal`: the decision that maximises the chance of winning, from a table precomputed
    /// over hand compositions by exact recursion over the deck.
    Optimal(Arc<OptimalPolicy>),
}

impl Strategy {
    /// The strategy names, as used by [`Strategy::from_name`] and [`Strategy::name`].
    pub const NAMES: [&'static str; 3] = ["stand_at", "probability", "optimal"];

    /// The smallest threshold `stand_at` accepts (the largest is 21).
    pub const STAND_AT_MIN: u16 = 2;

    /// `stand_at` n: hit while the total is below `n`, which must be in 2..=21.
    pub fn stand_at(n: u16) -> Result<Strategy, StrategyError> {
        if (Self::STAND_AT_MIN..=TARGET).contains(&n) {
            Ok(Strategy::StandAt(n))
        } else {
            Err(StrategyError::StandAtOutOfRange(f64::from(n)))
        }
    }

    /// `probability` p: hit while the keep probability is at least `p`, which must be in [0, 1].
    pub fn probability(p: f64) -> Result<Strategy, StrategyError> {
        if (0.0..=1.0).contains(&p) {
            Ok(Strategy::Probability(p))
        } else {
            Err(StrategyError::ProbabilityOutOfRange(p))
        }
    }

    /// `optimal`: solves the game exactly once (a fraction of a second) and keeps the table.
    pub fn optimal() -> Strategy {
        Strategy::Optimal(Arc::new(OptimalPolicy::solve()))
    }

    /// The strategy called `name` (one of [`Strategy::NAMES`]) with its parameter, if any
    /// (`stand_at` and `probability` need one, `optimal` takes none).
    pub fn from_name(name: &str, parameter: Option<f64>) -> Result<Strategy, StrategyError> {
        match (name, parameter) {
            ("stand_at", Some(n)) => {
                if n.fract() == 0.0 && (0.0..=f64::from(TARGET)).contains(&n) {
                    Strategy::stand_at(n as u16)
                } else {
                    Err(StrategyError::StandAtOutOfRange(n))
                }
            }
            ("probability", Some(p)) => Strategy::probability(p),
            ("optimal", None) => Ok(Strategy::optimal()),
            ("optimal", Some(_)) => Err(StrategyError::UnexpectedParameter("optimal")),
            ("stand_at", None) => Err(StrategyError::MissingParameter("stand_at")),
            ("probability", None) => Err(StrategyError::MissingParameter("probability")),
            (other, _) => Err(StrategyError::UnknownName(other.to_string())),
        }
    }

    /// The strategy's name: `stand_at`, `probability` or `optimal`.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::StandAt(_) => "stand_at",
            Strategy::Probability(_) => "probability",
            Strategy::Optimal(_) => "optimal",
        }
    }

    /// Whether the player holding `hand` takes another card.
    pub fn should_hit(&self, hand: &Hand) -> bool {
        match self {
            Strategy::StandAt(n) => hand.total() < *n,
            Strategy::Probability(p) => keep_probability(hand) >= *p,
            Strategy::Optimal(policy) => policy.should_hit(hand),
        }
    }
}

impl fmt::Display for Strategy {
    /// Formats as e.g. `stand_at 17`, `probability 0.5` or `optimal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::StandAt(n) => write!(f, "stand_at {n}"),
            Strategy::Probability(p) => write!(f, "probability {p}"),
            Strategy::Optimal(_) => f.write_str("optimal"),
        }
    }
}

/// How one game of Twenty-One ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwentyOneOutcome {
    /// Whether the player won (ties go to the computer).
    pub player_won: bool,
    /// Whether the player went over 21 (the computer then does not play).
    pub player_bust: bool,
    /// Whether the computer went over 21 (never when the player went bust).
    pub dealer_bust: bool,
    /// The player's final best total (his hard total when bust).
    pub player_total: u8,
    /// The computer's final best total, or 0 when the player went bust and the computer did
    /// not play.
    pub dealer_total: u8,
    /// How many cards the player ended with.
    pub player_cards: u8,
}

impl TwentyOneOutcome {
    /// Whether the game was a tie (both at or under 21 with the same total), which the computer
    /// wins.
    pub fn is_tie(&self) -> bool {
        !self.player_bust && !self.dealer_bust && self.player_total == self.dealer_total
    }
}

fn small(value: impl TryInto<u8>) -> u8 {
    value.try_into().unwrap_or(u8::MAX)
}

/// One configured Twenty-One variant: the player's strategy against the computer's fixed rule.
#[derive(Clone, Debug)]
pub struct TwentyOne {
    /// How the player decides to hit or stay.
    pub strategy: Strategy,
}

impl TwentyOne {
    /// The game with the player following `strategy`.
    pub fn new(strategy: Strategy) -> TwentyOne {
        TwentyOne { strategy }
    }

    /// Plays one game from `deck` as it lies (the player takes the top two cards).
    pub fn play_deck(&self, deck: &mut Deck) -> TwentyOneOutcome {
        let mut player = Hand::new();
        while player.len() < 2 || (!player.is_bust() && self.strategy.should_hit(&player)) {
            match deck.deal() {
                Some(card) => player.push(card),
                None => break,
            }
        }
        let player_total = small(player.total());
        let player_cards = small(player.len());
        if player.is_bust() {
            return TwentyOneOutcome {
                player_won: false,
                player_bust: true,
                dealer_bust: false,
                player_total,
                dealer_total: 0,
                player_cards,
            };
        }
        let mut dealer = Hand::new();
        while dealer.len() < 2 || dealer_should_hit(&dealer) {
            match deck.deal() {
                Some(card) => dealer.push(card),
                None => break,
            }
        }
        let dealer_bust = dealer.is_bust();
        let dealer_total = small(dealer.total());
        TwentyOneOutcome {
            player_won: dealer_bust || player_total > dealer_total,
            player_bust: false,
            dealer_bust,
            player_total,
            dealer_total,
            player_cards,
        }
    }
}

impl Game for TwentyOne {
    type Outcome = TwentyOneOutcome;
    type Summary = TwentyOneSummary;

    fn play(&self, rng: &mut TrialRng) -> TwentyOneOutcome {
        let mut deck = Deck::shuffled(rng);
        self.play_deck(&mut deck)
    }
}

/// Exact, mergeable counts over many games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TwentyOneSummary {
    /// Games played.
    pub games: u64,
    /// Games the player won.
    pub wins: u64,
    /// Games the player lost by going over 21.
    pub player_busts: u64,
    /// Games the computer lost by going over 21.
    pub dealer_busts: u64,
    /// Games tied (both at or under 21, same total): all won by the computer.
    pub ties: u64,
    /// `player_total_histogram[t]` = games the player ended with total `t` (hard total when
    /// bust); grown as needed.
    pub player_total_histogram: Vec<u64>,
}

impl Summary for TwentyOneSummary {
    type Outcome = TwentyOneOutcome;

    fn record(&mut self, outcome: &TwentyOneOutcome) {
        self.games += 1;
        self.wins += u64::from(outcome.player_won);
        self.player_busts += u64::from(outcome.player_bust);
        self.dealer_busts += u64::from(outcome.dealer_bust);
        self.ties += u64::from(outcome.is_tie());
        let total = usize::from(outcome.player_total);
        if self.player_total_histogram.len() <= total {
            self.player_total_histogram.resize(total + 1, 0);
        }
        self.player_total_histogram[total] += 1;
    }

    fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.wins += other.wins;
        self.player_busts += other.player_busts;
        self.dealer_busts += other.dealer_busts;
        self.ties += other.ties;
        if self.player_total_histogram.len() < other.player_total_histogram.len() {
            self.player_total_histogram
                .resize(other.player_total_histogram.len(), 0);
        }
        for (mine, theirs) in self
            .player_total_histogram
            .iter_mut()
            .zip(&other.player_total_histogram)
        {
            *mine += theirs;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Strategy;
    use super::*;
    use crate::rng::trial_rng;
    use proptest::prelude::*;

    fn card(rank: u8, suit: Suit) -> Card {
        Card::new(rank, suit).expect("test ranks are valid")
    }

    fn cards(ranks: &[u8]) -> Vec<Card> {
        ranks
            .iter()
            .enumerate()
            .map(|(i, &rank)| card(rank, Suit::ALL[i % 4]))
            .collect()
    }

    fn play_stacked(strategy: Strategy, top: &[Card]) -> TwentyOneOutcome {
        let mut deck = Deck::stacked(top).expect("distinct cards");
        TwentyOne::new(strategy).play_deck(&mut deck)
    }

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
    fn cards_print_rank_and_suit() {
        assert_eq!(card(10, Suit::Hearts).to_string(), "10 of hearts");
        assert_eq!(card(1, Suit::Spades).to_string(), "A of spades");
        assert_eq!(card(12, Suit::Clubs).to_string(), "Q of clubs");
        assert_eq!(Card::new(0, Suit::Clubs), None);
        assert_eq!(Card::new(14, Suit::Clubs), None);
    }

    #[test]
    fn computer_stands_on_soft_seventeen_and_hits_sixteen() {
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
    fn ties_go_to_the_computer() {
        // Player 10, 8 stands on 18; computer 9, 9 stands on 18.
        let outcome = play_stacked(Strategy::StandAt(17), &cards(&[10, 8, 9, 9]));
        assert_eq!(
            outcome,
            TwentyOneOutcome {
                player_won: false,
                player_bust: false,
                dealer_bust: false,
                player_total: 18,
                dealer_total: 18,
                player_cards: 2,
            }
        );
        assert!(outcome.is_tie());
    }

    #[test]
    fn scripted_deck_plays_hits_then_computer_hits_to_a_soft_seventeen() {
        // Player 5, 6, then hits a K to 21; computer 2, 4, then A makes soft 17: stands.
        let outcome = play_stacked(Strategy::StandAt(17), &cards(&[5, 6, 13, 2, 4, 1, 10]));
        assert_eq!(
            outcome,
            TwentyOneOutcome {
                player_won: true,
                player_bust: false,
                dealer_bust: false,
                player_total: 21,
                dealer_total: 17,
                player_cards: 3,
            }
        );
    }

    #[test]
    fn player_bust_loses_at_once_and_computer_does_not_play() {
        let outcome = play_stacked(Strategy::StandAt(17), &cards(&[10, 6, 9, 2, 3]));
        assert!(outcome.player_bust && !outcome.player_won && !outcome.dealer_bust);
        assert_eq!((outcome.player_total, outcome.dealer_total), (25, 0));
        assert_eq!(outcome.player_cards, 3);
    }

    #[test]
    fn computer_bust_is_a_player_win_even_on_a_low_total() {
        // Player stays on 12 (stand_at 12); computer 10, 6, hits 8 to 24.
        let outcome = play_stacked(Strategy::StandAt(12), &cards(&[10, 2, 10, 6, 8]));
        assert!(outcome.player_won && outcome.dealer_bust && !outcome.player_bust);
        assert_eq!((outcome.player_total, outcome.dealer_total), (12, 24));
    }

    #[test]
    fn probability_strategy_hits_only_while_the_keep_chance_is_high_enough() {
        let strategy = Strategy::probability(0.5).expect("valid");
        // Hard 12 keeps with 35/50 = 0.7 >= 0.5: hit. Hard 16 keeps with 0.4: stay.
        assert!(strategy.should_hit(&Hand::from_cards(&cards(&[10, 2]))));
        assert!(!strategy.should_hit(&Hand::from_cards(&cards(&[10, 6]))));
        // A soft hand can never bust on the next card.
        assert!(strategy.should_hit(&Hand::from_cards(&cards(&[1, 7]))));
    }

    #[test]
    fn strategy_parameters_are_validated_with_clear_errors() {
        assert!(matches!(Strategy::stand_at(17), Ok(Strategy::StandAt(17))));
        assert_eq!(
            Strategy::stand_at(22).err(),
            Some(StrategyError::StandAtOutOfRange(22.0))
        );
        assert_eq!(
            Strategy::stand_at(1).err(),
            Some(StrategyError::StandAtOutOfRange(1.0))
        );
        assert_eq!(
            Strategy::probability(1.5).err(),
            Some(StrategyError::ProbabilityOutOfRange(1.5))
        );
        assert!(Strategy::probability(f64::NAN).is_err());
        assert!(matches!(
            Strategy::from_name("stand_at", Some(16.5)),
            Err(StrategyError::StandAtOutOfRange(_))
        ));
        assert!(matches!(
            Strategy::from_name("probability", Some(0.3)),
            Ok(Strategy::Probability(_))
        ));
        assert_eq!(
            Strategy::from_name("stand_at", None).err(),
            Some(StrategyError::MissingParameter("stand_at"))
        );
        assert_eq!(
            Strategy::from_name("optimal", Some(1.0)).err(),
            Some(StrategyError::UnexpectedParameter("optimal"))
        );
        let unknown = Strategy::from_name("martingale", None).err();
        assert_eq!(
            unknown.map(|e| e.to_string()),
            Some(
                "unknown Twenty-One strategy \"martingale\": expected one of stand_at, \
                 probability, optimal"
                    .to_string()
            )
        );
        assert_eq!(
            Strategy::stand_at(0).map_err(|e| e.to_string()).err(),
            Some("stand_at needs a whole number from 2 to 21, got 0".to_string())
        );
        assert_eq!(Strategy::StandAt(17).to_string(), "stand_at 17");
        assert_eq!(Strategy::StandAt(17).name(), "stand_at");
    }

    #[test]
    fn recording_one_by_one_equals_merging_two_halves() {
        let game = TwentyOne::new(Strategy::StandAt(16));
        let outcomes: Vec<_> = (0..500)
            .map(|i| game.play(&mut trial_rng(7, 0, i)))
            .collect();
        let mut whole = TwentyOneSummary::default();
        outcomes.iter().for_each(|o| whole.record(o));
        let (first, second) = outcomes.split_at(180);
        let mut left = TwentyOneSummary::default();
        first.iter().for_each(|o| left.record(o));
        let mut right = TwentyOneSummary::default();
        second.iter().for_each(|o| right.record(o));
        left.merge(&right);
        assert_eq!(left, whole);
        assert_eq!(whole.games, 500);
        assert_eq!(whole.player_total_histogram.iter().sum::<u64>(), 500);
        assert!(whole.wins > 0 && whole.player_busts > 0 && whole.dealer_busts > 0);
        // Merging into an empty summary with a shorter histogram grows it.
        let mut empty = TwentyOneSummary::default();
        empty.merge(&whole);
        assert_eq!(empty, whole);
    }

    #[test]
    fn same_trial_stream_replays_the_same_game() {
        let game = TwentyOne::new(Strategy::StandAt(17));
        for i in 0..50 {
            assert_eq!(
                game.play(&mut trial_rng(3, 1, i)),
                game.play(&mut trial_rng(3, 1, i))
            );
        }
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
