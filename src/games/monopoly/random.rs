//! Random dice and the two card models.
//!
//! Each player throws from his own stream, seeded from the trial's RNG when his table sits
//! down, so players' throws never depend on one another and a game's players can be played
//! side by side. A throw takes 32 bits of the player's stream (the low, then the high half of
//! each 64-bit output) and turns them, by Lemire's exact multiply-and-reject, into one uniform
//! value in `0..36 * 240`: the dice pair (`value / 240`, first die major) and, for cards drawn
//! with replacement, a Chance index (`value % 240 >> 4`, 0..15) and a Community Chest index
//! (`value % 240 & 15`, 0..16), independent of each other and of the dice. A throw draws at
//! most one card of each deck, so every throw is one value however its card squares fall.

use std::convert::Infallible;

use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};

use super::cards::{CardSource, ChanceCard, ChestCard};
use super::engine::{DiceSource, Roll};
use crate::rng::TrialRng;

/// Card choices carried by one throw's value (15 Chance x 16 Community Chest).
pub(super) const CARD_CHOICES: u32 = 240;
/// Values of one throw: the 36 dice pairs times the card choices.
pub(super) const THROW_VALUES: u32 = 36 * CARD_CHOICES;
/// Lemire's rejection threshold for `THROW_VALUES` on 32 bits (2^32 mod n).
const THRESHOLD: u32 = THROW_VALUES.wrapping_neg() % THROW_VALUES;

/// One player's stream of throws.
#[derive(Clone, Debug)]
pub(super) struct Throws {
    rng: TrialRng,
    word: u64,
    high_half_left: bool,
}

impl Throws {
    /// The throws of a player whose stream is seeded with `seed`.
    pub(super) fn seeded(seed: u64) -> Throws {
        Throws {
            rng: TrialRng::seed_from_u64(seed),
            word: 0,
            high_half_left: false,
        }
    }

    /// The throws of the next player to sit down, seeded from the trial's stream.
    pub(super) fn next_player<R: RngCore>(rng: &mut R) -> Throws {
        Throws::seeded(rng.next_u64())
    }

    #[inline(always)]
    fn next_u32(&mut self) -> u32 {
        if self.high_half_left {
            self.high_half_left = false;
            (self.word >> 32) as u32
        } else {
            self.word = self.rng.next_u64();
            self.high_half_left = true;
            self.word as u32
        }
    }

    /// The next throw's value, uniform on `0..THROW_VALUES`.
    #[inline(always)]
    pub(super) fn next(&mut self) -> u32 {
        loop {
            let product = u64::from(self.next_u32()) * u64::from(THROW_VALUES);
            if product as u32 >= THRESHOLD {
                return (product >> 32) as u32;
            }
        }
    }
}

/// Where the cards come from, given the card part (`0..CARD_CHOICES`) of the throw that
/// brought the token to the card square.
pub(super) trait Cards {
    /// The Chance card drawn.
    fn chance(&mut self, choice: u32) -> ChanceCard;
    /// The Community Chest card drawn.
    fn community_chest(&mut self, choice: u32) -> ChestCard;
}

/// Each card drawn uniformly from its full deck, by the throw's card choice (the seed's model).
pub(super) struct WithReplacement;

impl Cards for WithReplacement {
    #[inline(always)]
    fn chance(&mut self, choice: u32) -> ChanceCard {
        ChanceCard::DECK[(choice >> 4) as usize]
    }

    #[inline(always)]
    fn community_chest(&mut self, choice: u32) -> ChestCard {
        ChestCard::DECK[(choice & 15) as usize]
    }
}

/// Each deck shuffled once when the game starts and then drawn in order, cycling (the real
/// game; "Get out of Jail Free" goes straight back like any other card).
pub(super) struct ShuffledDecks {
    chance: [ChanceCard; 15],
    next_chance: usize,
    chest: [ChestCard; 16],
    next_chest: usize,
}

impl ShuffledDecks {
    /// Both decks shuffled with the trial's stream (before any player's seed is drawn).
    pub(super) fn new<R: RngCore>(rng: &mut R) -> Self {
        let mut chance = ChanceCard::DECK;
        chance.shuffle(rng);
        let mut chest = ChestCard::DECK;
        chest.shuffle(rng);
        ShuffledDecks {
            chance,
            next_chance: 0,
            chest,
            next_chest: 0,
        }
    }
}

impl Cards for ShuffledDecks {
    #[inline(always)]
    fn chance(&mut self, _choice: u32) -> ChanceCard {
        let card = self.chance[self.next_chance];
        self.next_chance = (self.next_chance + 1) % self.chance.len();
        card
    }

    #[inline(always)]
    fn community_chest(&mut self, _choice: u32) -> ChestCard {
        let card = self.chest[self.next_chest];
        self.next_chest = (self.next_chest + 1) % self.chest.len();
        card
    }
}

/// The dice and cards of one player's turn: his throws, and the game's cards.
pub(super) struct TurnSource<'a, C> {
    throws: &'a mut Throws,
    cards: &'a mut C,
    choice: u32,
}

impl<'a, C: Cards> TurnSource<'a, C> {
    /// The source for a turn of the player throwing `throws`.
    #[inline(always)]
    pub(super) fn new(throws: &'a mut Throws, cards: &'a mut C) -> Self {
        TurnSource {
            throws,
            cards,
            choice: 0,
        }
    }
}

impl<C: Cards> DiceSource for TurnSource<'_, C> {
    type Error = Infallible;

    #[inline(always)]
    fn roll(&mut self) -> Result<Roll, Infallible> {
        let value = self.throws.next();
        let dice = value / CARD_CHOICES;
        self.choice = value - dice * CARD_CHOICES;
        Ok(Roll::ALL[dice as usize])
    }
}

impl<C: Cards> CardSource for TurnSource<'_, C> {
    type Error = Infallible;

    #[inline(always)]
    fn chance(&mut self) -> Result<ChanceCard, Infallible> {
        Ok(self.cards.chance(self.choice))
    }

    #[inline(always)]
    fn community_chest(&mut self) -> Result<ChestCard, Infallible> {
        Ok(self.cards.community_chest(self.choice))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::trial_rng;

    fn ok<T>(result: Result<T, Infallible>) -> T {
        match result {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }

    #[test]
    fn random_rolls_cover_the_36_throws_evenly() {
        let mut throws = Throws::next_player(&mut trial_rng(11, 0, 0));
        let mut replacement = WithReplacement;
        let mut dice = TurnSource::new(&mut throws, &mut replacement);
        let mut counts = [0u32; 36];
        let draws = 360_000;
        for _ in 0..draws {
            let roll = ok(dice.roll());
            counts[usize::from((roll.first - 1) * 6 + roll.second - 1)] += 1;
        }
        // Each count is Binomial(360000, 1/36): mean 10000, sd about 98.6.
        for count in counts {
            assert!((f64::from(count) - 10_000.0).abs() < 4.5 * 98.6, "{count}");
        }
    }

    #[test]
    fn drawing_with_replacement_gives_each_card_its_deck_share() {
        let mut throws = Throws::next_player(&mut trial_rng(12, 0, 0));
        let mut replacement = WithReplacement;
        let mut cards = TurnSource::new(&mut throws, &mut replacement);
        let draws = 150_000;
        let mut go_to_jail = 0u32;
        let mut no_move = 0u32;
        let mut chest_jail = 0u32;
        for _ in 0..draws {
            ok(cards.roll());
            match ok(cards.chance()) {
                ChanceCard::GoToJail => go_to_jail += 1,
                ChanceCard::NoMove => no_move += 1,
                _ => {}
            }
            if ok(cards.community_chest()) == ChestCard::GoToJail {
                chest_jail += 1;
            }
        }
        // Binomial(150000, 1/15): sd about 96.6; Binomial(150000, 6/15): sd about 189.7;
        // Binomial(150000, 1/16): sd about 93.8.
        assert!((f64::from(go_to_jail) - 10_000.0).abs() < 4.5 * 96.6);
        assert!((f64::from(no_move) - 60_000.0).abs() < 4.5 * 189.7);
        assert!((f64::from(chest_jail) - 9_375.0).abs() < 4.5 * 93.8);
    }

    #[test]
    fn shuffled_decks_cycle_through_every_card_in_a_fixed_order() {
        let mut decks = ShuffledDecks::new(&mut trial_rng(13, 0, 0));
        let first: Vec<ChanceCard> = (0..15).map(|i| decks.chance(i)).collect();
        let second: Vec<ChanceCard> = (0..15).map(|i| decks.chance(i)).collect();
        assert_eq!(first, second);
        let mut sorted_first = first.iter().map(|c| c.name()).collect::<Vec<_>>();
        let mut sorted_deck = ChanceCard::DECK
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>();
        sorted_first.sort();
        sorted_deck.sort();
        assert_eq!(sorted_first, sorted_deck);
        let chest: Vec<ChestCard> = (0..32).map(|i| decks.community_chest(i)).collect();
        assert_eq!(chest[..16], chest[16..]);
        assert_eq!(
            chest[..16]
                .iter()
                .filter(|c| **c == ChestCard::NoMove)
                .count(),
            14
        );
    }

    #[test]
    fn shuffles_differ_between_games() {
        let orders: Vec<Vec<ChanceCard>> = (0..20)
            .map(|i| {
                let mut decks = ShuffledDecks::new(&mut trial_rng(14, 0, i));
                (0..15).map(|c| decks.chance(c)).collect()
            })
            .collect();
        let distinct = orders
            .iter()
            .enumerate()
            .filter(|(i, order)| !orders[..*i].contains(order))
            .count();
        // 15!/(6!) orders of distinguishable card kinds: 20 games repeating one is absurdly rare.
        assert_eq!(distinct, 20);
    }

    #[test]
    fn the_rejection_threshold_is_two_to_the_32_mod_the_throw_values() {
        assert_eq!(u64::from(THRESHOLD), (1u64 << 32) % u64::from(THROW_VALUES));
    }
}
