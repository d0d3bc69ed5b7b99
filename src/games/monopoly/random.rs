//! Random dice and the two card models, drawing from one trial RNG.

use std::convert::Infallible;

use rand::seq::SliceRandom;
use rand::RngCore;

use super::cards::{CardSource, ChanceCard, ChestCard};
use super::engine::{DiceSource, Roll};

/// Hands out 32-bit words, two per 64-bit output of the RNG, and exact uniform integers.
struct Bits<'r, R: RngCore> {
    rng: &'r mut R,
    word: u64,
    left: u8,
}

impl<'r, R: RngCore> Bits<'r, R> {
    fn new(rng: &'r mut R) -> Self {
        Bits {
            rng,
            word: 0,
            left: 0,
        }
    }

    #[inline(always)]
    fn next_u32(&mut self) -> u32 {
        if self.left == 0 {
            self.word = self.rng.next_u64();
            self.left = 2;
        }
        let low = self.word as u32;
        self.word >>= 32;
        self.left -= 1;
        low
    }

    /// Exactly uniform on `0..n` (Lemire's multiply-and-reject; `n` is a constant after
    /// inlining, so the threshold folds).
    #[inline(always)]
    fn below(&mut self, n: u32) -> usize {
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u64::from(self.next_u32()) * u64::from(n);
            if product as u32 >= threshold {
                return (product >> 32) as usize;
            }
        }
    }

    #[inline(always)]
    fn roll(&mut self) -> Roll {
        Roll::ALL[self.below(36)]
    }
}

/// Random dice; each card drawn uniformly from its full deck (the seed's model).
pub(super) struct WithReplacement<'r, R: RngCore> {
    bits: Bits<'r, R>,
}

impl<'r, R: RngCore> WithReplacement<'r, R> {
    pub(super) fn new(rng: &'r mut R) -> Self {
        WithReplacement {
            bits: Bits::new(rng),
        }
    }
}

impl<R: RngCore> DiceSource for WithReplacement<'_, R> {
    type Error = Infallible;

    #[inline(always)]
    fn roll(&mut self) -> Result<Roll, Infallible> {
        Ok(self.bits.roll())
    }
}

impl<R: RngCore> CardSource for WithReplacement<'_, R> {
    type Error = Infallible;

    #[inline(always)]
    fn chance(&mut self) -> Result<ChanceCard, Infallible> {
        Ok(ChanceCard::DECK[self.bits.below(15)])
    }

    #[inline(always)]
    fn community_chest(&mut self) -> Result<ChestCard, Infallible> {
        Ok(ChestCard::DECK[self.bits.below(16)])
    }
}

/// Random dice; each deck shuffled once when the game starts and then drawn in order,
/// cycling (the real game; "Get out of Jail Free" goes straight back like any other card).
pub(super) struct ShuffledDecks<'r, R: RngCore> {
    bits: Bits<'r, R>,
    chance: [ChanceCard; 15],
    next_chance: usize,
    chest: [ChestCard; 16],
    next_chest: usize,
}

impl<'r, R: RngCore> ShuffledDecks<'r, R> {
    pub(super) fn new(rng: &'r mut R) -> Self {
        let mut chance = ChanceCard::DECK;
        chance.shuffle(rng);
        let mut chest = ChestCard::DECK;
        chest.shuffle(rng);
        ShuffledDecks {
            bits: Bits::new(rng),
            chance,
            next_chance: 0,
            chest,
            next_chest: 0,
        }
    }
}

impl<R: RngCore> DiceSource for ShuffledDecks<'_, R> {
    type Error = Infallible;

    #[inline(always)]
    fn roll(&mut self) -> Result<Roll, Infallible> {
        Ok(self.bits.roll())
    }
}

impl<R: RngCore> CardSource for ShuffledDecks<'_, R> {
    type Error = Infallible;

    #[inline(always)]
    fn chance(&mut self) -> Result<ChanceCard, Infallible> {
        let card = self.chance[self.next_chance];
        self.next_chance = if self.next_chance + 1 == self.chance.len() {
            0
        } else {
            self.next_chance + 1
        };
        Ok(card)
    }

    #[inline(always)]
    fn community_chest(&mut self) -> Result<ChestCard, Infallible> {
        let card = self.chest[self.next_chest];
        self.next_chest = if self.next_chest + 1 == self.chest.len() {
            0
        } else {
            self.next_chest + 1
        };
        Ok(card)
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
        let mut rng = trial_rng(11, 0, 0);
        let mut dice = WithReplacement::new(&mut rng);
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
        let mut rng = trial_rng(12, 0, 0);
        let mut cards = WithReplacement::new(&mut rng);
        let draws = 150_000;
        let mut go_to_jail = 0u32;
        let mut no_move = 0u32;
        for _ in 0..draws {
            match ok(cards.chance()) {
                ChanceCard::GoToJail => go_to_jail += 1,
                ChanceCard::NoMove => no_move += 1,
                _ => {}
            }
        }
        // Binomial(150000, 1/15): sd about 96.6; Binomial(150000, 6/15): sd about 189.7.
        assert!((f64::from(go_to_jail) - 10_000.0).abs() < 4.5 * 96.6);
        assert!((f64::from(no_move) - 60_000.0).abs() < 4.5 * 189.7);
    }

    #[test]
    fn shuffled_decks_cycle_through_every_card_in_a_fixed_order() {
        let mut rng = trial_rng(13, 0, 0);
        let mut decks = ShuffledDecks::new(&mut rng);
        let first: Vec<ChanceCard> = (0..15).map(|_| ok(decks.chance())).collect();
        let second: Vec<ChanceCard> = (0..15).map(|_| ok(decks.chance())).collect();
        assert_eq!(first, second);
        let mut sorted_first = first.iter().map(|c| c.name()).collect::<Vec<_>>();
        let mut sorted_deck = ChanceCard::DECK
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>();
        sorted_first.sort();
        sorted_deck.sort();
        assert_eq!(sorted_first, sorted_deck);
        let chest: Vec<ChestCard> = (0..32).map(|_| ok(decks.community_chest())).collect();
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
                let mut rng = trial_rng(14, 0, i);
                let mut decks = ShuffledDecks::new(&mut rng);
                (0..15).map(|_| ok(decks.chance())).collect()
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
}
